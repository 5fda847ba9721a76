"""check()'s grader, started with the Jupyter server: ready before the learner opens the first notebook.

A Jupyter server extension (enabled by ``etc/jupyter/jupyter_server_config.d/autograder.json``, which the package
installs). When the server starts, a thread starts the server's resident grader (:mod:`autograder.grading.resident`:
the server is its owner, as it is for every kernel it starts) and has it do the crashes check()'s seed shares. The
browser is still loading JupyterLab meanwhile, and the resident stands behind the kernels for the processor; a
notebook's first check(), its first kernel's restart included, finds it running. Nothing here is needed: without the
extension (nbval, a plain script, another front end) the first check() or ``autograder.warm_up()`` starts it.
"""

from __future__ import annotations

import os
import threading
from typing import Any


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "autograder.server_extension"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    threading.Thread(target=start_resident, args=(serverapp.log,), name="autograder-resident", daemon=True).start()


def start_resident(log: Any = None) -> None:
    """Start this process's resident grader and prepare check()'s shared crashes; a failure is only logged."""
    try:
        from autograder.grading import resident
        from autograder.notebook import warm_up_course

        server = resident.ResidentServer(resident.resident_folder(os.getpid()), os.getpid())
        server.start()
        if server.local is None and (course := warm_up_course()) is not None:
            server.prepare(course)
    except Exception as e:  # noqa: BLE001 - the first check() starts it again and says what went wrong
        if log is not None:
            log.warning("autograder: check()'s grader did not start with the server (%s: %s)", type(e).__name__, e)
