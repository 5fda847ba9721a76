"""Imported by the crash lab's forkserver, last of its preload (:data:`lesson3.crash.PRELOAD`): one offline run.

The SDK builds its models' validators on first use (pydantic's deferred build), so a forkserver that only imported it
left every crash child to build them again: half of each child's time. One run of the agent here builds them once,
in the memory every child starts from. A forkserver dies of any error its preload raises but ImportError, and this
is only speed: a run that fails is left alone.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from .agent import run_agent
from .model import TASK_EMAIL, offline_client
from .tools import create_workspace


def warm_up() -> None:
    with tempfile.TemporaryDirectory(prefix="lesson3-warm-") as tmp:
        workspace = create_workspace(Path(tmp) / "workspace")
        run_agent(
            TASK_EMAIL,
            client=offline_client(),
            checkpoint_path=Path(tmp) / "checkpoint.json",
            workspace=workspace,
            durable=False,
        )


with contextlib.suppress(Exception):
    warm_up()
