"""A judge's call: the learner's functions it may call, its arguments, and a stand-in ``reconcile``.

The judge calls a learner function with one JSON value. ``start_state(task, path,
reconcile)`` needs three arguments, one of them a function, so :func:`pack` wraps the
positional arguments in a marked object and :func:`unpack` (in the learner's process)
turns it back into arguments, building the judge's stand-in ``reconcile`` there.

The stand-in is plain data work: it returns a new state that answers the dangling call
with a ``tool_result`` whose content is a nonce the judge drew for this call, so the judge
can tell from the returned state alone whether (and how many times) the learner's code
went through it and kept what it returned.
Nothing it does inside the learner's process is trusted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LOAD, START, ACTION, RECONCILE = "my_load_checkpoint", "start_state", "resume_action", "reconcile"
FUNCTIONS = (LOAD, START, ACTION, RECONCILE)
"""The learner's functions a judge calls, in the exercise's order: the one list of their names."""

TAMPERED = "lesson3-guard"
"""What the learner's process reports a graded call reached when the guard on lesson3's reusable functions
was switched off or replaced during it: the judge scores it as reuse."""

ARGS = "__argumentos_del_corrector__"
STAND_IN = "__reconcile_del_corrector__"


def pack(*args: Any) -> dict[str, Any]:
    """Several positional arguments as one JSON value (see :func:`unpack`)."""
    return {ARGS: list(args)}


def stand_in_reconcile(nonce: str) -> dict[str, str]:
    """The JSON that :func:`unpack` turns into :func:`make_stand_in` ``(nonce)``."""
    return {STAND_IN: nonce}


def unpack(arg: Any) -> tuple[Any, ...]:
    """The positional arguments a call's JSON value stands for."""
    if isinstance(arg, dict) and set(arg) == {ARGS} and isinstance(arg[ARGS], list):
        return tuple(_revive(a) for a in arg[ARGS])
    return (arg,)


def _revive(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {STAND_IN} and isinstance(value[STAND_IN], str):
        return make_stand_in(value[STAND_IN])
    return value


def stand_in_message(tool_use_id: Any, nonce: str) -> dict[str, Any]:
    """The message the stand-in appends: what the judge looks for in the returned state."""
    return {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": tool_use_id, "content": nonce, "is_error": True}],
    }


def make_stand_in(nonce: str) -> Callable[[Any], Any]:
    """A ``reconcile(cp)`` that answers the dangling call in a new state, and leaves ``cp`` as it was.

    As notebook 1's own check does (``cp | {"pendingToolUse": None}``): the state is what
    reconcile returns, so a ``start_state`` that calls it and carries on with ``cp`` shows.
    """

    def reconcile(cp: Any) -> Any:
        if not (isinstance(cp, dict) and isinstance(cp.get("messages"), list)):
            return cp
        pending = cp.get("pendingToolUse")
        tool_use_id = pending.get("id") if isinstance(pending, dict) else None
        return {**cp, "messages": [*cp["messages"], stand_in_message(tool_use_id, nonce)], "pendingToolUse": None}

    reconcile.__name__ = "reconcile"
    return reconcile
