"""Los tres puntos de control de los ejercicios (cpA, cpB, cpC), con sus ``messages`` completos.

The lesson elides ``messages``; here they are real conversations played by the
offline model over the course workspace, stopped at the instant each checkpoint
describes. The top-level fields are exactly the lesson's.
"""

from __future__ import annotations

import copy
import functools
import tempfile
from pathlib import Path
from typing import Any

from .agent import run_agent
from .checkpoint import Checkpoint, validate_checkpoint
from .exercise_names import EXERCISE_NAMES
from .model import TASK_EMAIL, TASK_NOTES, offline_client
from .tools import create_workspace

NOT_REUSABLE: dict[str, str] = {
    "lesson3.checkpoint.load_checkpoint": "exercise",
    "lesson3.production.reconcile_production": "incident",
    "lesson3.production.delete_dangling": "wrong_move",
    "lesson3.lab.is_error_fallback": "lab_move",
}
"""What of lesson3 no graded function may call, besides every name of :mod:`lesson3.answers`.

The one list: the function the exercise asks to write (``my_load_checkpoint`` is lesson3's
``load_checkpoint``), and the incident's two wrong moves, which a ``reconcile`` would pass
off as its own. Where each is defined -> why it does not count. Everything else of lesson3
is there to be reused: the tools and ``execute_tool``, ``save_checkpoint``, ``new_state``,
``validate_checkpoint``, the conversation helpers, the constants (``READ_ONLY_TOOLS``,
``UNKNOWN_STATE_MESSAGE``, ``MAX_TURNS``...).
"""

LESSON_FIELDS: dict[str, dict[str, Any]] = dict(
    zip(
        EXERCISE_NAMES,
        (
            {"version": 1, "task": TASK_NOTES, "turns": 6, "tokensUsed": 18420, "pendingToolUse": None},
            {
                "version": 1,
                "task": TASK_NOTES,
                "turns": 7,
                "tokensUsed": 19310,
                "pendingToolUse": {
                    "id": "toolu_01A",
                    "name": "read_file",
                    "input": {"path": "./notes/meeting-08-25.md"},
                },
            },
            {
                "version": 1,
                "task": TASK_EMAIL,
                "turns": 9,
                "tokensUsed": 24003,
                "pendingToolUse": {
                    "id": "toolu_01B",
                    "name": "send_email",
                    "input": {"to": "team@example.com", "subject": "Conclusiones de esta semana"},
                },
            },
        ),
        strict=True,
    )
)
"""The top-level fields of cpA, cpB and cpC exactly as the lesson prints them (by name: :data:`EXERCISE_NAMES`)."""

SAVE_POINT = dict(zip(EXERCISE_NAMES, ("after_save_b", "after_save_a", "after_save_a"), strict=True))
"""Where each conversation was stopped. cpA: the lesson's completion criterion, a crash after save point B
and before the next ``create()`` (turn 6's tool_result recorded, the next call not made yet); cpB and cpC:
save point A, with the tool call pending."""


def exercise_checkpoint(name: str) -> Checkpoint:
    """Una copia nueva de ``cpA``, ``cpB`` o ``cpC`` (se puede modificar sin miedo)."""
    if name not in EXERCISE_NAMES:
        raise KeyError(f"no hay un punto de control de ejercicio llamado «{name}»; hay {', '.join(EXERCISE_NAMES)}")
    return copy.deepcopy(_build(name))


def exercise_checkpoints() -> dict[str, Checkpoint]:
    return {name: exercise_checkpoint(name) for name in EXERCISE_NAMES}


@functools.cache
def _build(name: str) -> Checkpoint:
    fields = LESSON_FIELDS[name]
    with tempfile.TemporaryDirectory(prefix="lesson3-fixture-") as tmp:
        ws = create_workspace(Path(tmp) / "ws")
        captured: dict[str, Checkpoint] = {}
        pending = fields["pendingToolUse"]

        def hook(point: str, state: Checkpoint) -> None:
            if point == SAVE_POINT[name] and state["turns"] == fields["turns"]:
                captured["state"] = copy.deepcopy(state)

        run_agent(
            fields["task"],
            client=offline_client(),
            checkpoint_path=Path(tmp) / "checkpoint.json",
            workspace=ws,
            hook=hook,
            durable=False,  # a temporary folder, deleted below
        )
    state = captured["state"]
    if pending is not None:
        # The lesson prints short ids and inputs; put them on the real tool_use block too.
        block = next(b for b in state["messages"][-1]["content"] if b["type"] == "tool_use")
        assert block["name"] == pending["name"], (name, block)
        block["id"], block["input"] = pending["id"], copy.deepcopy(pending["input"])
    elif state["pendingToolUse"] is not None:
        raise AssertionError(f"{name}: the played conversation left a pending call")
    state.update(copy.deepcopy(fields))
    return validate_checkpoint(state, source=name)
