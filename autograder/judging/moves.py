"""Which of the lesson's moves a learner's ``reconcile`` made on a dangling call, per tool kind.

Read from the Level 2 observation (:mod:`autograder.judging.observe`): the tools the judge
executed for the call and the checkpoint it returned, never the learner's source. The
vocabulary (:data:`~autograder.wire.results.MOVES`) travels in results.json, where the class's
misconception map (:mod:`autograder.reporting.misconceptions`) counts it. Whether a move earns
points is the verdicts' business (:mod:`autograder.judging.verdicts_level2`); this only names it.
"""

from __future__ import annotations

from typing import Any

from autograder.judging.observe import ReconcileObservation
from autograder.wire.results import MOVES, TOOL_KINDS
from lesson3.conversation import blocks, content_text


def _tool_use_kept(messages: list[Any], tool_use_id: str) -> bool:
    return any(
        b.get("type") == "tool_use" and b.get("id") == tool_use_id
        for m in messages
        if isinstance(m, dict)
        for b in blocks(m)
    )


def _tool_results(messages: list[Any], tool_use_id: str) -> list[dict[str, Any]]:
    return [
        b
        for m in messages
        if isinstance(m, dict)
        for b in blocks(m)
        if b.get("type") == "tool_result" and b.get("tool_use_id") == tool_use_id
    ]


def case_move(obs: ReconcileObservation) -> str:
    """The move one reconcile call made on its case's dangling call (one of :data:`MOVES`).

    Executing the pending tool decides first: once the effect happened again, what the returned
    checkpoint says about it does not undo it. A success tool_result whose content is the tool's
    real output is a re-run too, by whatever route; any other success result was made up.
    """
    if not obs.outcome.ok:
        return "not_run"
    pending = obs.case.pending
    if any(c.name == pending["name"] for c in obs.calls):
        return "rerun"
    value = obs.outcome.value
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return "other"
    messages = value["messages"]
    if not _tool_use_kept(messages, pending["id"]):
        return "delete"
    results = _tool_results(messages, pending["id"])
    if not results:
        return "dangling"
    if any(b.get("is_error") is True for b in results):
        return "is_error"
    expected = obs.case.expected_output
    content = content_text(results[-1].get("content", ""))
    if expected is not None and content is not None and content.strip() == expected.strip():
        return "rerun"
    return "other"


def reconcile_moves(observations: list[ReconcileObservation]) -> dict[str, list[str]]:
    """Tool kind -> every move reconcile made on that kind's cases, in :data:`MOVES`' order.

    A reconcile that routes by name may answer two tools of one kind differently (re-running
    ``write_file`` but not ``send_email``): it made both moves, and the map counts it under both.
    """
    made: dict[str, set[str]] = {}
    for obs in observations:
        made.setdefault(obs.case.kind, set()).add(case_move(obs))
    return {kind: sorted(made[kind], key=MOVES.index) for kind in TOOL_KINDS if kind in made}
