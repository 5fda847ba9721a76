"""Level 2's verdicts: ``reconcile`` on a dangling call of each kind, the lesson's incident, and the level's questions.

Each is a pure function ``judge(observation, lang) -> Verdict`` registered for its criteria's ids
(:func:`~autograder.judging.registry.verdict`); it runs nothing and reads only the observation from
:mod:`autograder.judging.observe`. The criteria and their feedback texts are declared in
:mod:`autograder.course.level2`.
"""

from __future__ import annotations

from typing import Any

from autograder.course.catalogue import keys, listed, text, written
from autograder.course.criteria import Verdict
from autograder.judging.observe import (
    IncidentObservation,
    ReconcileObservation,
    answered,
)
from autograder.judging.registry import verdict
from autograder.judging.unknown_state import assess
from autograder.judging.verdict_help import failed, listing, question_ids, question_verdict, said_once, show
from lesson3.conversation import PairingProblem, SchemaProblem, blocks, content_text, pairing_problem, schema_problem
from lesson3.model import api_error_said, rules_error, schema_error


def _tool_result(value: Any, tool_use_id: str) -> dict[str, Any] | None:
    """The last tool_result block answering ``tool_use_id`` anywhere in the returned messages."""
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return None
    found = [
        b
        for m in value["messages"]
        if isinstance(m, dict)
        for b in blocks(m)
        if b.get("type") == "tool_result" and b.get("tool_use_id") == tool_use_id
    ]
    return found[-1] if found else None


def _appended_result(value: Any) -> dict[str, Any] | None:
    """The last tool_result in the returned messages, whatever call it says it answers."""
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return None
    found = [b for m in value["messages"] if isinstance(m, dict) for b in blocks(m) if b.get("type") == "tool_result"]
    return found[-1] if found else None


def _value_problem(obs: ReconcileObservation, lang: str) -> str | None:
    """Why the returned value cannot be judged at all (an error, None, not a checkpoint)."""
    label = written(obs.case.label, lang)
    if not obs.outcome.ok:
        return failed(label, obs.outcome, lang)
    value = obs.outcome.value
    if value is None:
        return f"{label}: " + text("level2.none_returned", lang)
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return f"{label}: " + text("level2.not_dict", lang, got=show(value))
    return None


def _effect_problem(obs: ReconcileObservation, lang: str) -> str | None:
    if obs.changed:
        return text("effect.changed", lang, label=written(obs.case.label, lang), paths=", ".join(obs.changed[:3]))
    return None


class Problem(str):
    """What is wrong with one case; ``why`` names the explanation, said once for every case that shares it.

    ``pending``: not wrong, undecided: the rules could not tell and a person will (see :class:`Verdict`).
    """

    why: str = ""
    pending: bool = False


def _pending(key: str, lang: str, **params: Any) -> Problem:
    """A case the rules cannot decide: left to a person, unless another case fails outright."""
    problem = Problem(text(key, lang, **params))
    problem.pending = True
    return problem


def _why(key: str, lang: str, **params: Any) -> Problem:
    """A case's problem whose explanation is the message ``key + ".why"``."""
    problem = Problem(text(key, lang, **params))
    problem.why = key + ".why"
    return problem


CASE = "\x00case\x00"
"""What ``check`` is given as a case's name: cases whose problem reads the same are said once, named together."""


def _judge_cases(observations: list[ReconcileObservation], lang: str, check: Any, ok_feedback: str) -> Verdict:
    """``check(obs, label)`` is what is wrong with one case (None: nothing); a failure on every case is said once.

    So is a problem several cases share (the same text quoted for seven tools is quoted once, naming the seven),
    and so is an explanation: each reason follows once.
    """
    if verdict := said_once((o.outcome for o in observations), lang):
        return verdict
    cases: dict[str, list[str]] = {}  # a problem as check said it, with CASE for the name: the cases that have it
    problems: dict[str, Problem] = {}
    for obs in observations:
        if said := check(obs, CASE):
            cases.setdefault(said, []).append(written(obs.case.label, lang))
            problems.setdefault(said, said if isinstance(said, Problem) else Problem(said))
    if not cases:
        return Verdict(True, ok_feedback)

    def named(group: list[Problem]) -> list[str]:
        return [p.replace(CASE, listed(cases[p], lang)) for p in group]

    # A case that fails decides the criterion; only undecided cases beside passing ones leave it to a person.
    failed = [p for p in problems.values() if not p.pending]
    if not failed:
        return Verdict(None, " ".join(f"{line}." for line in named(list(problems.values()))))
    whys = list(dict.fromkeys(text(p.why, lang) for p in failed if p.why))
    if len(observations) == 1:
        return Verdict(False, " ".join([named(failed)[0] + ".", *whys]))
    bad = sum(len(cases[p]) for p in failed)
    summary = text("level2.failed_items", lang, bad=bad, n=len(observations), items=listing(named(failed), lang))
    return Verdict(False, " ".join([summary, *whys]))


@verdict("nivel2.read_only_rerun")
def read_only_verdict(observations: list[ReconcileObservation], lang: str) -> Verdict:
    """nivel2.read_only_rerun: executed exactly once, same name and input, real output, not an error."""

    def check(obs: ReconcileObservation, label: str) -> str | None:
        pending = obs.case.pending
        same = [c for c in obs.calls if c.name == pending["name"] and c.input == pending["input"]]
        others = [c for c in obs.calls if c not in same]
        expected_call = f"{pending['name']}({show(pending['input'])})"
        if not obs.outcome.ok:
            return _value_problem(obs, lang)
        if not obs.calls:
            return _why("read_only.not_called", lang, label=label)
        if not same:
            calls = ", ".join(c.describe() for c in obs.calls[:2])
            return text("read_only.wrong_call", lang, label=label, calls=calls, expected=expected_call)
        if len(same) > 1:
            return text("read_only.times", lang, label=label, times=len(same))
        if others:
            return text("read_only.extra", lang, label=label, calls=", ".join(c.describe() for c in others[:2]))
        if problem := _value_problem(obs, lang) or _effect_problem(obs, lang):
            return problem
        block = _tool_result(obs.outcome.value, pending["id"])
        if block is None:
            return f"{label}: " + text("level2.no_result", lang)
        if block.get("is_error") not in (None, False):
            return text("read_only.marked_error", lang, label=label)
        content = content_text(block.get("content", ""))
        if content is None or content.strip() != (obs.case.expected_output or "").strip():
            got = show(content if content is not None else block.get("content"))
            return text("read_only.wrong_content", lang, label=label, got=got)
        return None

    return _judge_cases(observations, lang, check, text("read_only.ok", lang))


@verdict("nivel2.high_impact_not_rerun")
def high_impact_verdict(observations: list[ReconcileObservation], lang: str) -> Verdict:
    """nivel2.high_impact_not_rerun: no tool executes, by the proxy or by any other route."""

    def check(obs: ReconcileObservation, label: str) -> str | None:
        if obs.calls:
            return _why("high_impact.ran", lang, label=label, calls=", ".join(c.describe() for c in obs.calls[:2]))
        # Not running anything is only half of it: an exception, or a checkpoint with the call still
        # unanswered, is not "not re-running", it is not reconciling. The call must end with an answer.
        if problem := _effect_problem(obs, lang) or _value_problem(obs, lang):
            return problem
        if not answered(obs.outcome.value["messages"], obs.case.pending["id"]):
            return _why("high_impact.unanswered", lang, label=label)
        return None

    names = ", ".join(written(o.case.label, lang) for o in observations if o.case.label != "send_email")
    return _judge_cases(observations, lang, check, text("high_impact.ok", lang, names=names))


def _read_once(verdicts: dict[str, bool | None], content: str) -> bool | None:
    if content not in verdicts:
        verdicts[content] = assess(content).verdict
    return verdicts[content]


@verdict("nivel2.is_error_fallback")
def is_error_verdict(observations: list[ReconcileObservation], lang: str) -> Verdict:
    """nivel2.is_error_fallback: is_error the boolean True, and a content saying the execution state is unknown."""
    verdicts: dict[str, bool | None] = {}  # a reconcile answers every case with the same text: read it once

    def check(obs: ReconcileObservation, label: str) -> str | None:
        if problem := _value_problem(obs, lang):
            return problem
        pending_id = obs.case.pending["id"]
        block = _tool_result(obs.outcome.value, pending_id)
        # Every problem of the result is said, not the first: a wrong id must not hide a missing is_error.
        said: list[str] = []
        if block is None:
            block = _appended_result(obs.outcome.value)
            if block is None:
                return f"{label}: " + text("level2.no_result", lang)
            said.append(text("is_error.other_id", lang, label=label, got=show(block.get("tool_use_id")), id=pending_id))
        flag = block.get("is_error")
        if flag is None or flag is False:
            said.append(text("is_error.missing", lang, label=label))
        elif flag is not True:
            said.append(text("is_error.not_bool", lang, label=label, got=show(flag)))
        # Text blocks are separate pieces for the model: joined bare, "es" + "desconocido" would be one word.
        content = content_text(block.get("content", ""), " ")
        about: Problem | None = None
        if not content or not content.strip():
            about = _why("is_error.empty", lang, label=label)
        elif (verdict := _read_once(verdicts, content)) is None:
            about = _pending("is_error.review", lang, label=label, got=show(content))
        elif not verdict:
            about = _why("is_error.not_unknown", lang, label=label, got=show(content))
        if not said:
            return about
        if about is not None and not about.pending:  # undecided text beside a definite failure adds nothing
            said.append(str(about))
        problem = Problem("; ".join(said))
        problem.why = about.why if about is not None and not about.pending else ""
        return problem

    return _judge_cases(observations, lang, check, text("is_error.ok", lang))


def _pairing_feedback(problem: PairingProblem, content: list[Any], pending_id: str, label: str, lang: str) -> str:
    """What is wrong with the appended message, said for the learner (the API's rule is in lesson3.conversation)."""
    answered = [b.get("tool_use_id") for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    if problem.kind == "not_first":
        first = content[0].get("type") if isinstance(content[0], dict) else type(content[0]).__name__
        return text("paired.not_first", lang, label=label, first=show(first))
    if problem.kind == "duplicate":
        (tool_use_id,) = problem.ids
        return text("paired.duplicate", lang, label=label, id=tool_use_id, times=answered.count(tool_use_id))
    if problem.kind == "unexpected":
        return text("paired.unexpected", lang, label=label, got=show(problem.ids[0]))
    if not answered:
        return text("paired.shape", lang, label=label)
    if pending_id in problem.ids and pending_id not in answered:
        return text("paired.id", lang, label=label, got=show(answered[0]), expected=pending_id)
    return text("paired.missing", lang, label=label, ids=", ".join(problem.ids))


def _subscripts(at: tuple[str | int, ...]) -> str:
    """``messages[3]["content"][0]["name"]``: a place in the conversation as the learner's code writes it."""
    return "messages" + "".join(f'["{k}"]' if isinstance(k, str) else f"[{k}]" for k in at)


def _schema_feedback(problem: SchemaProblem, label: str, lang: str) -> str:
    """What the API would refuse in the appended message, said for the learner (the rule is lesson3.conversation's)."""
    container = (
        text("paired.schema_block", lang, type=problem.owner) if problem.owner else text("paired.schema_message", lang)
    )
    common = {"label": label, "where": _subscripts(problem.at), "container": container, "error": schema_error(problem)}
    if problem.kind == "extra":
        return text("paired.schema_extra", lang, allowed=", ".join(problem.expected), **common)
    if problem.kind == "missing":
        # Where is the object that lacks the field, not the field that is not there.
        return text(
            "paired.schema_missing", lang, field=problem.field, **{**common, "where": _subscripts(problem.at[:-1])}
        )
    if problem.kind in ("tag", "no_tag"):
        tags = listing(list(problem.expected), lang, limit=6)
        return text("paired.schema_" + problem.kind, lang, got=problem.got, expected=tags, **common)
    if problem.kind == "value":
        return text("paired.schema_value", lang, expected=" / ".join(problem.expected), got=problem.got, **common)
    said = set(keys())
    kinds = text("paired.schema_or", lang).join(
        text(f"paired.schema_kind.{k}", lang) if f"paired.schema_kind.{k}" in said else k for k in problem.expected
    )
    return text("paired.schema_type", lang, expected=kinds, got=problem.got, **common)


@verdict("nivel2.tool_result_paired")
def paired_verdict(observations: list[ReconcileObservation], lang: str) -> Verdict:
    """nivel2.tool_result_paired: history intact, one user message appended, the API accepts the conversation.

    The appended message starts with the tool_result; text after it is fine, as it is for the API.
    """

    def check(obs: ReconcileObservation, label: str) -> str | None:
        if problem := _value_problem(obs, lang):
            return problem
        original = obs.case.checkpoint
        value = obs.outcome.value
        messages = value["messages"]
        n = len(original["messages"])
        if messages[:n] != original["messages"]:
            return text("paired.changed_history", lang, label=label)
        if len(messages) - n != 1:
            return text("paired.count", lang, label=label, added=len(messages) - n)
        new = messages[-1]
        content = new.get("content") if isinstance(new, dict) else None
        if not (isinstance(new, dict) and new.get("role") == "user" and isinstance(content, list) and content):
            return text("paired.shape", lang, label=label)
        # The API reads fields and types before its rules: a key it does not accept refuses the request.
        if (shape := schema_problem(messages)) is not None:
            return _schema_feedback(shape, label, lang)
        problem = pairing_problem(messages)
        if problem is not None:
            return _pairing_feedback(problem, content, obs.case.pending["id"], label, lang)
        if "pendingToolUse" not in value or value["pendingToolUse"] is not None:
            return text("paired.pending", lang, label=label)
        for counter in ("turns", "tokensUsed"):
            before, after = original[counter], value.get(counter)
            if after != before:
                return _why("paired.counters", lang, label=label, field=counter, before=before, after=after)
        # Fields and types were read above: what is left is the API's own rules (read once, not twice).
        if error := rules_error(messages):
            # The API's words are English: in Spanish feedback they come quoted, after what they mean.
            return text("paired.api", lang, label=label, error=api_error_said(error) if lang == "es" else error)
        return None

    return _judge_cases(observations, lang, check, text("paired.ok", lang))


# -- Level 2: the incident, for real -------------------------------------------------------------


@verdict("nivel2.no_double_email")
def incident_verdict(obs: IncidentObservation, lang: str) -> Verdict:
    """nivel2.no_double_email: one email, and the resumed agent really went on to its final answer.

    One email alone proves nothing: a resume that never calls the model sends nothing
    either. So the dangling call must have been answered, the resumed loop must have
    made its model calls, and the last of them must be the final answer.
    """
    case = obs.case
    if obs.reconcile is not None and not obs.reconcile.ok:
        return Verdict(False, text("email.reconcile_failed", lang, reason=obs.reconcile.describe(lang)))
    if obs.emails > 1:
        # Who sent it again decides what to say: the harness re-running it (the lesson's move two), or the
        # model, left not knowing it had gone out (move one, deleting; or a tool_result that hid it).
        if any(call.name == "send_email" for call in obs.calls):
            key = "email.double"
        else:
            key = "email.double_model" if obs.reconcile_answered else "email.double_deleted"
        return Verdict(False, text(key, lang, to=case.recipient, count=obs.emails, subject=case.subject))
    if obs.error:
        return Verdict(False, text("email.run_error", lang, error=obs.error))
    if obs.emails != 1:
        return Verdict(False, text("email.none", lang, count=obs.emails))
    if not obs.answered:
        return Verdict(False, text("email.unanswered", lang))
    if obs.model_calls == 0:
        return Verdict(False, text("email.no_model_call", lang, turns=obs.turns, max_turns=obs.max_turns))
    if not obs.final_answer:
        return Verdict(
            False, text("email.no_final_answer", lang, calls=obs.model_calls, turns=obs.turns, max_turns=obs.max_turns)
        )
    return Verdict(True, text("email.ok", lang, to=case.recipient, calls=obs.model_calls))


verdict(*question_ids(2))(question_verdict)
