"""Conciliar una llamada colgante: la mitad difícil de la reanudación.

``reconcile`` is the lesson's rule; ``reconcile_production`` is the version that
was live during the incident (it re-runs everything, so a resumed ``send_email``
sends twice); ``delete_dangling`` is "move one", kept to show what it costs.
"""

from __future__ import annotations

from typing import Any

from .checkpoint import Checkpoint
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


def reconcile_production(cp: Checkpoint) -> Checkpoint:
    """La versión que estaba viva en producción durante el incidente (la del correo doble)."""
    pending = cp["pendingToolUse"]
    tool_id, name, input = pending["id"], pending["name"], pending["input"]

    output = execute_tool(name, input)
    cp["messages"].append(
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": output}]}
    )
    cp["pendingToolUse"] = None
    return cp


def delete_dangling(cp: Checkpoint) -> Checkpoint:
    """Jugada uno: borrar el mensaje assistant colgante y hacer de cuenta que nunca pasó."""
    if cp["messages"] and cp["messages"][-1]["role"] == "assistant":
        cp["messages"].pop()
    cp["pendingToolUse"] = None
    return cp


STRATEGIES = {
    "reconcile": reconcile,
    "production": reconcile_production,
    "delete": delete_dangling,
}
"""Por nombre, para elegirlas desde la CLI, el laboratorio de caídas y procesos hijos."""
