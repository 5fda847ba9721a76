"""Las respuestas de los ejercicios de la lección: lo que el alumno escribe, resuelto.

Every answer of lesson3 lives here and nowhere else: the lesson's ``reconcile`` (Level 2),
the expected action on cpA/cpB/cpC (Level 1), ``resume_plan`` (the rule in words), and the
strategies by name whose default is the lesson's ``reconcile`` (the CLI, the crash lab,
child processes). The rest of lesson3 imports them from here. When the grader runs a
learner's code, this module is the one that does not exist: its file is hidden and its
names are placeholders (``autograder.learner.lesson3_view``), so nothing else of lesson3
has to be kept from the learner. Do not import the grader's tables here, nor anything that
imports this module back.
"""

from __future__ import annotations

from typing import Any

from .checkpoint import Checkpoint
from .conversation import conversation_finished
from .exercise_names import EXERCISE_NAMES
from .production import delete_dangling, reconcile_production
from .reconciliation import READ_ONLY_TOOLS, UNKNOWN_STATE_MESSAGE
from .tools import execute_tool

__all__ = ["EXPECTED_ACTION", "STRATEGIES", "reconcile", "resume_plan"]


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

EXPECTED_ACTION = dict(zip(EXERCISE_NAMES, ("continue", "rerun", "is_error"), strict=True))
"""What ``run_agent`` must do on resume: continue the loop, re-run the tool, or fall back to is_error."""


def resume_plan(cp: Checkpoint) -> str:
    """Qué hace ``run_agent`` con este punto de control al reanudar, según la regla de la lección."""
    if conversation_finished(cp):
        return (
            "Sin llamada colgante: no hay nada que conciliar (continuar). El último mensaje es una respuesta "
            "final del asistente, de texto y sin tool_use: la tarea ya había terminado, así que run_agent "
            "devuelve el punto de control sin volver a llamar al modelo."
        )
    pending = cp["pendingToolUse"]
    if pending is None:
        return (
            "Sin llamada colgante: no hay nada que conciliar (continuar). Al reanudar, el bucle toma messages "
            "y hace la llamada siguiente al modelo."
        )
    name = pending["name"]
    if name in READ_ONLY_TOOLS:
        return (
            f"Llamada colgante a {name}, de solo lectura: reconcile() la vuelve a ejecutar y rellena "
            "el tool_result con el resultado real."
        )
    return (
        f"Llamada colgante a {name}, de alto impacto: reconcile() no la vuelve a ejecutar; responde con "
        "un tool_result con is_error («estado de ejecución desconocido») y el modelo decide."
    )
