"""Conciliar una llamada colgante: la mitad difícil de la reanudación.

``reconcile`` is the lesson's rule. The two wrong moves it replaces live in
:mod:`lesson3.production` (re-exported here): learners study those, and the grader's
sandbox offers them, while this module — the answer — never exists there.
"""

from __future__ import annotations

from typing import Any

from .checkpoint import Checkpoint
from .production import delete_dangling, reconcile_production
from .tools import execute_tool

READ_ONLY_TOOLS = frozenset({"read_file", "grep", "list_dir", "web_search"})

UNKNOWN_STATE_MESSAGE = (
    "Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada terminara, "
    "así que no hay manera de confirmar si tuvo efecto. Por favor, reevalúa la situación actual."
)


def reconcile(cp: Checkpoint) -> Checkpoint:
    """Solo lectura se vuelve a ejecutar; alto impacto sin registro se repliega a ``is_error``."""
    pending = cp["pendingToolUse"]
    tool_id, name, input = pending["id"], pending["name"], pending["input"]

    tool_result: dict[str, Any]
    if name in READ_ONLY_TOOLS:
        # Zero side effects: running it again gives the real result.
        output = execute_tool(name, input)
        tool_result = {"type": "tool_result", "tool_use_id": tool_id, "content": output}
    else:
        # High impact: Lesson 4's effect ledger would tell whether it already ran.
        # Without it we cannot know, so we tell the model the truth instead of re-running.
        tool_result = {
            "type": "tool_result",
            "tool_use_id": tool_id,
            "content": UNKNOWN_STATE_MESSAGE,
            "is_error": True,
        }

    cp["messages"].append({"role": "user", "content": [tool_result]})
    cp["pendingToolUse"] = None
    return cp


STRATEGIES = {
    "reconcile": reconcile,
    "production": reconcile_production,
    "delete": delete_dangling,
}
"""Por nombre, para elegirlas desde la CLI, el laboratorio de caídas y procesos hijos."""
