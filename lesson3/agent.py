"""runAgent: el bucle con los puntos de guardado A y B, y la ruta de reanudación."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import gc
import inspect
import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .answers import reconcile as lesson_reconcile
from .checkpoint import (
    CHECKPOINT_FILENAME,
    Checkpoint,
    CheckpointError,
    load_checkpoint,
    new_state,
    save_checkpoint,
    validate_checkpoint,
)
from .conversation import conversation_finished
from .model import MAX_TOKENS, chosen_model
from .tools import TOOL_SCHEMAS, run_tool, use_workspace

if TYPE_CHECKING:
    import anthropic  # the loop talks through the client it is given; lesson3.model imports the SDK to build one

# The SDK's thousands of model classes live as long as the process. Frozen, the garbage
# collector stops walking them on every full collection and at exit (without this, a
# notebook's kernel spends over a second just shutting down), and forked crash children
# share their pages instead of copying them.
gc.freeze()

MAX_TURNS = 40

CRASH_POINTS = ("before_call", "after_save_a", "after_tool", "after_save_b")
"""Where the loop reports progress to ``hook``: the instants a crash can hit."""


def check_crash_point(point: str) -> None:
    """A ``ValueError`` in Spanish, listing ``CRASH_POINTS``, for a point that is not one of them."""
    if point not in CRASH_POINTS:
        raise ValueError(f"caída desconocida «{point}»; los válidos: {', '.join(CRASH_POINTS)}")


CRASH_POINT_LABELS = {
    "before_call": "antes de llamar al modelo",
    "after_save_a": "justo después del punto de guardado A (la herramienta no se ejecutó)",
    "after_tool": "después de ejecutar la herramienta y antes del punto B (el incidente)",
    "after_save_b": "justo después del punto de guardado B",
}

Reconciler = Callable[[Checkpoint], Checkpoint | Awaitable[Checkpoint]]
Hook = Callable[[str, Checkpoint], None]


class ParallelToolUseError(RuntimeError):
    """El modelo devolvió varias llamadas a herramientas en una respuesta."""


class ReconcileError(CheckpointError):
    """La función de conciliación devolvió algo que no es un punto de control válido."""


class TruncatedToolUseError(RuntimeError):
    """La respuesta se cortó en max_tokens con un tool_use a medio escribir, también con el tope más alto."""


MAX_TOKENS_CEILING = 4 * MAX_TOKENS
"""How far a reply cut off inside a tool call is asked again (doubling ``max_tokens`` each time)."""


def run_agent(
    task: str,
    *,
    client: anthropic.Anthropic,
    checkpoint_path: str | os.PathLike[str] = CHECKPOINT_FILENAME,
    workspace: str | os.PathLike[str] = ".",
    reconcile: Reconciler = lesson_reconcile,
    max_turns: int = MAX_TURNS,
    model: str | None = None,
    hook: Hook | None = None,
    durable: bool = True,
) -> Checkpoint:
    """El ``runAgent(task)`` de la lección.

    Si hay un punto de control en ``checkpoint_path``, se reanuda: la tarea que se
    pasa se ignora, ``turns`` y ``tokensUsed`` se arrastran, y una llamada colgante
    pasa por ``reconcile`` (síncrona o ``async``) antes del bucle. Si la conversación
    guardada ya terminó (``conversation_finished``), se devuelve tal cual, sin llamar
    al modelo. ``hook(point, state)`` se llama en cada una de las cuatro caídas de
    ``CRASH_POINTS``; el arnés de caídas mata el proceso ahí.
    ``durable=False`` se saltea los fsync de cada guardado (ver ``save_checkpoint``).
    """
    notify = hook or (lambda point, state: None)
    model = chosen_model(model)  # None: LESSON3_MODEL, si no el modelo por defecto
    with use_workspace(workspace, durable=durable):
        cp = load_checkpoint(checkpoint_path)
        if cp and conversation_finished(cp):
            # El modelo ya dio su respuesta final: no queda nada que pedirle.
            return cp
        if cp:
            # Reanudación: el estado sale del punto de control; una llamada colgante se concilia primero.
            state = _reconciled(reconcile, cp) if cp["pendingToolUse"] else cp
        else:
            state = new_state(task)

        while state["turns"] < max_turns:
            notify("before_call", state)
            state["turns"] += 1
            response = _create(client, model, state["messages"])  # con max_tokens cortando un tool_use, pide otra vez
            state["tokensUsed"] = response.usage.input_tokens + response.usage.output_tokens
            content = [block.model_dump(mode="json", exclude_none=True) for block in response.content]
            tool_uses = [b for b in content if b["type"] == "tool_use"]
            if len(tool_uses) > 1:
                # El punto de control guarda un solo pendingToolUse: se rechaza antes de guardar.
                ids = ", ".join(b["id"] for b in tool_uses)
                raise ParallelToolUseError(
                    f"El modelo pidió {len(tool_uses)} herramientas en una sola respuesta ({ids}); "
                    "este bucle guarda una sola llamada pendiente por punto de control."
                )
            state["messages"].append({"role": "assistant", "content": content})
            tool_use = tool_uses[0] if tool_uses else None
            state["pendingToolUse"] = (
                {"id": tool_use["id"], "name": tool_use["name"], "input": tool_use["input"]} if tool_use else None
            )
            # punto de guardado A: después de la respuesta del modelo
            save_checkpoint(state, checkpoint_path, durable=durable)
            notify("after_save_a", state)

            if response.stop_reason != "tool_use" or tool_use is None:
                break

            outcome = run_tool(tool_use["name"], tool_use["input"])
            notify("after_tool", state)
            result: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_use["id"], "content": outcome.content}
            if outcome.is_error:
                result["is_error"] = True
            state["messages"].append({"role": "user", "content": [result]})
            state["pendingToolUse"] = None
            # punto de guardado B: el resultado ya quedó registrado
            save_checkpoint(state, checkpoint_path, durable=durable)
            notify("after_save_b", state)

    return state


def _create(client: anthropic.Anthropic, model: str, messages: list[dict[str, Any]]) -> Any:
    """One model call; a reply cut off by ``max_tokens`` inside a tool call is asked again with more room.

    The API docs: a response truncated at max_tokens that holds an incomplete tool_use
    block has to be retried with a higher max_tokens. Its arguments may be cut, so the
    call is never executed, never saved and never reported as the task's end.
    """
    max_tokens = MAX_TOKENS
    while True:
        response = client.messages.create(
            model=model,
            max_tokens=max_tokens,
            tools=TOOL_SCHEMAS,
            tool_choice={"type": "auto", "disable_parallel_tool_use": True},
            messages=messages,
        )
        cut = response.stop_reason == "max_tokens" and any(b.type == "tool_use" for b in response.content)
        if not cut:
            return response
        if max_tokens >= MAX_TOKENS_CEILING:
            name = next(b.name for b in response.content if b.type == "tool_use")
            raise TruncatedToolUseError(
                f"La respuesta del modelo se cortó al llegar a max_tokens ({max_tokens}) en medio de una "
                f"llamada a {name}: sus argumentos pueden estar incompletos, así que no se ejecutó ni se guardó. "
                f"Se pidió de nuevo con más espacio, hasta {MAX_TOKENS_CEILING} tokens, y siguió cortada; "
                "el punto de control quedó como estaba antes de esta llamada."
            )
        max_tokens *= 2


def _reconciled(reconcile: Reconciler, cp: Checkpoint) -> Checkpoint:
    result = reconcile(cp)
    if inspect.isawaitable(result):
        result = _await(result)
    if result is None:
        raise ReconcileError("reconcile(cp) devolvió None: tiene que devolver el punto de control (cp)")
    try:
        # Shape only: whether every tool_use got its tool_result is the API's call to make.
        return validate_checkpoint(result, source="lo que devolvió reconcile(cp)", check_pending=False)
    except CheckpointError as e:
        raise ReconcileError(str(e)) from None


def _await(awaitable: Awaitable[Checkpoint]) -> Checkpoint:
    async def wrap() -> Checkpoint:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(wrap())
    # Inside a running loop (a Jupyter cell): run it on a loop of its own in a thread, which raises
    # what it raised here. The thread gets this context: execute_tool finds the run's workspace.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(contextvars.copy_context().run, asyncio.run, wrap()).result()
