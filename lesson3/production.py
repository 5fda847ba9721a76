"""Las dos jugadas equivocadas: el ``reconcile`` que estaba en producción y "borrar el colgante".

``reconcile_production`` is the version that was live during the incident (it re-runs
everything, so a resumed ``send_email`` sends twice); ``delete_dangling`` is "move one",
kept to show what it costs. Apart from :mod:`lesson3.answers` (the lesson's rule): learner
code uses these when graded, as in Jupyter, while the answers do not exist there.
"""

from __future__ import annotations

from .checkpoint import Checkpoint
from .tools import execute_tool


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
