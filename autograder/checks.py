"""Observar y juzgar: los criterios del ejercicio, cada uno con sus puntos y su comentario.

Each criterion is two small steps. *Observe* runs the learner's function through a
:class:`~autograder.session.Caller` on scenarios from :mod:`autograder.scenarios` and
records what happened from the outside: the returned data, every tool the judge
executed for it, and whether the workspace changed. *Judge* is a pure function from
observations to a :class:`~autograder.results.CriterionResult` with feedback that says
what failed and why. Nothing printed or patched inside the learner's process counts.
"""

from __future__ import annotations

import contextlib
import copy
import os
import select
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lesson3.agent import run_agent
from lesson3.checkpoint import load_checkpoint
from lesson3.crash import _describe as describe_run_error
from lesson3.exercises import EXERCISE_NAMES, EXPECTED_ACTION, LESSON_FIELDS, exercise_checkpoint
from lesson3.model import DEFAULT_MODEL, MAX_TOKENS, ScriptedModel, api_error_for, offline_client
from lesson3.tools import outbox_count

from . import scenarios
from .effects import ToolCall, ToolLayer, changes, snapshot
from .messages import text
from .questions import QUESTIONS, normalise_answer
from .results import CRITERIA_IDS, CriterionResult
from .scenarios import ActionCase, IncidentCase, ReconcileCase
from .session import Caller, Outcome

ACTIONS = ("continue", "rerun", "is_error")


@dataclass(frozen=True)
class Criterion:
    id: str
    points: float
    level: int
    function: str  # the learner's name it grades: "resume_action", "reconcile" or a question variable
    title: dict[str, str]


CRITERIA: dict[str, Criterion] = {
    c.id: c
    for c in (
        Criterion("nivel1.cpA", 1, 1, "resume_action", {"es": "cpA: continuar", "en": "cpA: continue"}),
        Criterion("nivel1.cpB", 1, 1, "resume_action", {"es": "cpB: volver a ejecutar", "en": "cpB: re-run"}),
        Criterion("nivel1.cpC", 1, 1, "resume_action", {"es": "cpC: repliegue a is_error", "en": "cpC: is_error"}),
        Criterion(
            "nivel1.hidden",
            2,
            1,
            "resume_action",
            {"es": "puntos de control nuevos", "en": "new checkpoints"},
        ),
        Criterion(
            "nivel2.read_only_rerun",
            2,
            2,
            "reconcile",
            {"es": "solo lectura: se vuelve a ejecutar", "en": "read-only: re-run"},
        ),
        Criterion(
            "nivel2.high_impact_not_rerun",
            2,
            2,
            "reconcile",
            {"es": "alto impacto: no se vuelve a ejecutar", "en": "high-impact: not re-run"},
        ),
        Criterion(
            "nivel2.is_error_fallback",
            2,
            2,
            "reconcile",
            {"es": "repliegue a is_error", "en": "is_error fallback"},
        ),
        Criterion(
            "nivel2.tool_result_paired",
            2,
            2,
            "reconcile",
            {"es": "tool_result emparejado", "en": "paired tool_result"},
        ),
        Criterion(
            "nivel2.no_double_email",
            3,
            2,
            "reconcile",
            {"es": "el incidente: un solo correo", "en": "the incident: one email"},
        ),
        *(
            Criterion(q.criterion, q.points, 2, q.variable, q.title)
            for q in QUESTIONS.values()
        ),
    )
}
assert tuple(c for c in CRITERIA if c in CRITERIA_IDS) == CRITERIA_IDS

HINTS: dict[str, dict[str, str]] = {
    "nivel1.cpA": {
        "es": 'Mira solo cp["pendingToolUse"]: si es None, no hay llamada colgante.',
        "en": 'Look only at cp["pendingToolUse"]: if it is None there is no dangling call.',
    },
    "nivel1.cpB": {
        "es": "read_file es de solo lectura: leer dos veces es igual que leer una.",
        "en": "read_file is read-only: reading twice is the same as reading once.",
    },
    "nivel1.cpC": {
        "es": "send_email puede haberse ejecutado ya; sin registro de efectos no puedes saberlo.",
        "en": "send_email may already have run; with no effect ledger you cannot know.",
    },
    "nivel1.hidden": {
        "es": 'Usa un conjunto READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}: lo que '
        "no está ahí es de alto impacto.",
        "en": 'Use a READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"} set: anything '
        "outside it is high-impact.",
    },
    "nivel2.read_only_rerun": {
        "es": "Para solo lectura: output = execute_tool(name, input) con el name y el input de pendingToolUse, y "
        "ese output va como content del tool_result.",
        "en": "For read-only: output = execute_tool(name, input) with pendingToolUse's name and input, and that "
        "output is the tool_result's content.",
    },
    "nivel2.high_impact_not_rerun": {
        "es": "En la rama de alto impacto no llames a execute_tool (ni a nada que ejecute la herramienta).",
        "en": "In the high-impact branch do not call execute_tool (nor anything that runs the tool).",
    },
    "nivel2.is_error_fallback": {
        "es": 'El tool_result de alto impacto lleva "is_error": True y un content que diga «estado de ejecución '
        "desconocido».",
        "en": 'The high-impact tool_result carries "is_error": True and a content saying the execution state '
        "is unknown.",
    },
    "nivel2.tool_result_paired": {
        "es": 'Agrega {"role": "user", "content": [tool_result]} al final de cp["messages"], pon '
        'cp["pendingToolUse"] = None y devuelve cp; no borres ni cambies nada más.',
        "en": 'Append {"role": "user", "content": [tool_result]} to cp["messages"], set '
        'cp["pendingToolUse"] = None and return cp; do not delete or change anything else.',
    },
    "nivel2.no_double_email": {
        "es": "Es el incidente de la lección: al reanudar, send_email no se vuelve a ejecutar; el modelo recibe "
        "is_error y revisa por su cuenta.",
        "en": "It is the lesson's incident: on resume send_email is not re-run; the model gets is_error and "
        "checks by itself.",
    },
    "nivel2.causa_raiz": {
        "es": "¿Quién volvió a ejecutar send_email: el modelo o el arnés?",
        "en": "Who ran send_email again: the model or the harness?",
    },
    "nivel2.pregunta": {
        "es": "Borrar el mensaje, ¿deshace un efecto que ya ocurrió?",
        "en": "Does deleting the message undo an effect that already happened?",
    },
}


def result(criterion_id: str, passed: bool, feedback: str) -> CriterionResult:
    points = CRITERIA[criterion_id].points
    return CriterionResult(criterion_id, passed, points if passed else 0.0, points, feedback)


_SAME_FOR_EVERY_CASE = ("failure", "missing", "not_callable", "not_implemented", "delegated")
"""Outcomes that would repeat on every case: reported once, for the whole criterion."""


def _show(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _listing(items: list[str], lang: str, limit: int = 3) -> str:
    shown = items[:limit]
    more = len(items) - len(shown)
    if more:
        shown.append(f"y {more} más" if lang == "es" else f"and {more} more")
    return "; ".join(shown)


# -- Level 1: resume_action --------------------------------------------------------------------


def observe_actions(caller: Caller, cases: list[ActionCase]) -> list[Outcome]:
    with caller.budget():
        return [caller.call("resume_action", case.checkpoint) for case in cases]


def _why(expected: str, tool: str | None, lang: str) -> str:
    return text("why." + expected, lang, tool=tool)


def judge_lesson_checkpoint(name: str, outcome: Outcome, lang: str) -> CriterionResult:
    """nivel1.cpA/B/C: the lesson's three checkpoints, exactly as printed."""
    criterion = f"nivel1.{name}"
    expected = EXPECTED_ACTION[name]
    pending = LESSON_FIELDS[name]["pendingToolUse"]
    tool = pending["name"] if pending else None
    if not outcome.ok:
        return result(criterion, False, outcome.describe(lang))
    got = outcome.value
    if got == expected:
        return result(criterion, True, text("l1.ok", lang, why=_why(expected, tool, lang)))
    if got not in ACTIONS:
        return result(criterion, False, text("l1.invalid", lang, name=name, got=_show(got)))
    why = _why(expected, tool, lang)
    return result(criterion, False, text("l1.wrong", lang, name=name, got=_show(got), expected=expected, why=why))


def _case_label(case: ActionCase | ReconcileCase, lang: str) -> str:
    if case.kind == "none":
        after_b = "después" in case.label
        if lang == "es":
            return "sin llamada pendiente" + (" (caída después del punto B)" if after_b else "")
        return "no pending call" + (" (crash after save point B)" if after_b else "")
    return case.label


def judge_hidden(cases: list[ActionCase], outcomes: list[Outcome], lang: str) -> CriterionResult:
    """nivel1.hidden: fresh checkpoints the learner has never seen."""
    bad: list[str] = []
    kinds: set[str] = set()
    for case, outcome in zip(cases, outcomes, strict=True):
        if outcome.status in _SAME_FOR_EVERY_CASE:
            return result("nivel1.hidden", False, outcome.describe(lang))
        if not outcome.ok:
            kinds.add(case.kind)
            bad.append(f"{_case_label(case, lang)}: {outcome.describe(lang).rstrip('.')}")
        elif outcome.value != case.expected:
            kinds.add(case.kind)
            label = _case_label(case, lang)
            bad.append(text("hidden.item", lang, label=label, got=_show(outcome.value), expected=case.expected))
    if not bad:
        high = sum(1 for c in cases if c.kind == "high_impact")
        return result("nivel1.hidden", True, text("hidden.ok", lang, n=len(cases), k=high))
    feedback = text("hidden.wrong", lang, bad=len(bad), n=len(cases), items=_listing(bad, lang))
    for kind, key in (
        ("high_impact", "hidden.why_high"),
        ("read_only", "hidden.why_read"),
        ("none", "hidden.why_none"),
    ):
        if kind in kinds:
            feedback += text(key, lang)
    return result("nivel1.hidden", False, feedback)


# -- Level 2: reconcile ----------------------------------------------------------------------------


@dataclass
class ReconcileObservation:
    case: ReconcileCase
    outcome: Outcome
    calls: list[ToolCall]
    changed: list[str]


def observe_reconcile(caller: Caller, case: ReconcileCase) -> ReconcileObservation:
    """One reconcile call: tools run through the judge's logged layer; the workspace is compared after."""
    layer = ToolLayer(case.workspace)
    before = snapshot(case.workspace)
    outcome = caller.call("reconcile", copy.deepcopy(case.checkpoint), on_tool=layer)
    after = snapshot(case.workspace)
    # The proxy's own effects are in the log; anything else changed by another route.
    proxied = {"outbox"} if any(c.name == "send_email" for c in layer.log) else set()
    proxied |= {"efectos"} if any(c.name not in (*scenarios.READ_ONLY, "send_email") for c in layer.log) else set()
    changed = [p for p in changes(before, after) if p.split("/")[0] not in proxied]
    return ReconcileObservation(case, outcome, layer.log, changed)


def observe_reconciles(caller: Caller, cases: list[ReconcileCase]) -> list[ReconcileObservation]:
    with caller.budget():
        return [observe_reconcile(caller, case) for case in cases]


def _tool_result(value: Any, tool_use_id: str) -> dict[str, Any] | None:
    """The last tool_result block answering ``tool_use_id`` anywhere in the returned messages."""
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return None
    for message in reversed(value["messages"]):
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            for block in reversed(content):
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    if block.get("tool_use_id") == tool_use_id:
                        return block
    return None


def _content_text(block: dict[str, Any]) -> str | None:
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(b, dict) for b in content):
        return "".join(str(b.get("text", "")) for b in content if b.get("type") == "text")
    return None


def _value_problem(obs: ReconcileObservation, lang: str) -> str | None:
    """Why the returned value cannot be judged at all (an error, None, not a checkpoint)."""
    label = _case_label(obs.case, lang)
    if not obs.outcome.ok:
        return f"{label}: {obs.outcome.describe(lang).rstrip('.')}"
    if obs.outcome.value is None:
        return f"{label}: " + text("l2.none_returned", lang)
    value = obs.outcome.value
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return f"{label}: " + text("l2.not_dict", lang, got=_show(value))
    return None


def _effect_problem(obs: ReconcileObservation, lang: str) -> str | None:
    if obs.changed:
        label = _case_label(obs.case, lang)
        return text("effect.changed", lang, label=label, paths=", ".join(obs.changed[:3]))
    return None


def _judge_cases(
    criterion: str, observations: list[ReconcileObservation], lang: str, check: Any, ok_feedback: str
) -> CriterionResult:
    problems: list[str] = []
    for obs in observations:
        if obs.outcome.status in _SAME_FOR_EVERY_CASE:
            return result(criterion, False, obs.outcome.describe(lang))
        problem = check(obs)
        if problem:
            problems.append(problem)
    if not problems:
        return result(criterion, True, ok_feedback)
    if len(observations) == 1:
        return result(criterion, False, problems[0] + ".")
    return result(
        criterion,
        False,
        text("l2.failed_items", lang, bad=len(problems), n=len(observations), items=_listing(problems, lang)),
    )


def judge_read_only(observations: list[ReconcileObservation], lang: str) -> CriterionResult:
    """nivel2.read_only_rerun: executed exactly once, same name and input, real output, not an error."""

    def check(obs: ReconcileObservation) -> str | None:
        label = _case_label(obs.case, lang)
        pending = obs.case.pending
        same = [c for c in obs.calls if c.name == pending["name"] and c.input == pending["input"]]
        others = [c for c in obs.calls if c not in same]
        expected_call = f"{pending['name']}({_show(pending['input'])})"
        if not obs.outcome.ok:
            return _value_problem(obs, lang)
        if not obs.calls:
            return text("ro.not_called", lang, label=label)
        if not same:
            calls = ", ".join(c.describe() for c in obs.calls[:2])
            return text("ro.wrong_call", lang, label=label, calls=calls, expected=expected_call)
        if len(same) > 1:
            return text("ro.times", lang, label=label, times=len(same))
        if others:
            return text("ro.extra", lang, label=label, calls=", ".join(c.describe() for c in others[:2]))
        problem = _value_problem(obs, lang) or _effect_problem(obs, lang)
        if problem:
            return problem
        block = _tool_result(obs.outcome.value, pending["id"])
        if block is None:
            return f"{label}: " + text("l2.no_result", lang)
        if block.get("is_error") not in (None, False):
            return text("ro.marked_error", lang, label=label)
        content = _content_text(block)
        if content is None or content.strip() != (obs.case.expected_output or "").strip():
            return text(
                "ro.wrong_content",
                lang,
                label=label,
                got=_show(content if content is not None else block.get("content")),
            )
        return None

    return _judge_cases("nivel2.read_only_rerun", observations, lang, check, text("ro.ok", lang))


def judge_high_impact(observations: list[ReconcileObservation], lang: str) -> CriterionResult:
    """nivel2.high_impact_not_rerun: no tool executes, by the proxy or by any other route."""

    def check(obs: ReconcileObservation) -> str | None:
        label = _case_label(obs.case, lang)
        if obs.calls:
            return text("hi.ran", lang, label=label, calls=", ".join(c.describe() for c in obs.calls[:2]))
        # An exception is not "not re-running": the call must end with an answer for the model.
        return _effect_problem(obs, lang) or (_value_problem(obs, lang) if not obs.outcome.ok else None)

    names = ", ".join(o.case.label for o in observations if o.case.label != "send_email")
    return _judge_cases("nivel2.high_impact_not_rerun", observations, lang, check, text("hi.ok", lang, names=names))


def judge_is_error(observations: list[ReconcileObservation], lang: str) -> CriterionResult:
    """nivel2.is_error_fallback: a tool_result with is_error the boolean True and an explanation."""

    def check(obs: ReconcileObservation) -> str | None:
        label = _case_label(obs.case, lang)
        problem = _value_problem(obs, lang)
        if problem:
            return problem
        block = _tool_result(obs.outcome.value, obs.case.pending["id"])
        if block is None:
            return f"{label}: " + text("l2.no_result", lang)
        flag = block.get("is_error")
        if flag is None or flag is False:
            return text("iserr.missing", lang, label=label)
        if flag is not True:
            return text("iserr.not_bool", lang, label=label, got=_show(flag))
        content = _content_text(block)
        if not content or not content.strip():
            return text("iserr.empty", lang, label=label)
        return None

    return _judge_cases("nivel2.is_error_fallback", observations, lang, check, text("iserr.ok", lang))


def judge_paired(observations: list[ReconcileObservation], lang: str) -> CriterionResult:
    """nivel2.tool_result_paired: history intact, one user tool_result appended, API accepts it."""

    def check(obs: ReconcileObservation) -> str | None:
        label = _case_label(obs.case, lang)
        problem = _value_problem(obs, lang)
        if problem:
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
        if not (
            isinstance(new, dict)
            and new.get("role") == "user"
            and isinstance(content, list)
            and len(content) == 1
            and isinstance(content[0], dict)
            and content[0].get("type") == "tool_result"
        ):
            return text("paired.shape", lang, label=label)
        pending_id = obs.case.pending["id"]
        if content[0].get("tool_use_id") != pending_id:
            return text("paired.id", lang, label=label, got=_show(content[0].get("tool_use_id")), expected=pending_id)
        if "pendingToolUse" not in value or value["pendingToolUse"] is not None:
            return text("paired.pending", lang, label=label)
        for counter in ("turns", "tokensUsed"):
            if value.get(counter) != original[counter]:
                return text(
                    "paired.counters",
                    lang,
                    label=label,
                    field=counter,
                    before=original[counter],
                    after=value.get(counter),
                )
        error = api_error_for({"model": DEFAULT_MODEL, "max_tokens": MAX_TOKENS, "messages": messages})
        if error:
            return text("paired.api", lang, label=label, error=error)
        return None

    return _judge_cases("nivel2.tool_result_paired", observations, lang, check, text("paired.ok", lang))


# -- Level 2: the incident, for real -------------------------------------------------------------


class _ReconcileFailed(Exception):
    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.status)
        self.outcome = outcome


@dataclass
class IncidentObservation:
    case: IncidentCase
    killed_by: str | None
    emails_at_crash: int
    emails: int
    error: str | None = None
    reconcile: Outcome | None = None
    calls: list[ToolCall] = field(default_factory=list)


class IncidentSetupError(RuntimeError):
    """The crash did not happen where it had to: a grader bug, not the learner's."""


def crash_after_delivery(case: IncidentCase, *, timeout: float = 20.0) -> str:
    """Run the agent in a child process and SIGKILL it after send_email delivered, before save point B.

    Returns the signal's name. The child is a fork of this (trusted) judge, so it
    costs milliseconds; the kill is real: no ``finally`` runs, nothing is flushed.
    """
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child; observed through the checkpoint and the outbox
        os.close(ready_r)

        def hook(point: str, state: dict[str, Any]) -> None:
            pending = state.get("pendingToolUse") or {}
            if point == "after_tool" and pending.get("name") == "send_email":
                os.write(ready_w, b"!")
                while True:
                    signal.pause()

        try:
            run_agent(
                case.task,
                client=offline_client(seed=case.model_seed),
                checkpoint_path=case.checkpoint_path,
                workspace=case.workspace,
                hook=hook,
            )
        finally:
            os._exit(1)
    os.close(ready_w)
    try:
        readable, _, _ = select.select([ready_r], [], [], timeout)
        reached = bool(readable) and os.read(ready_r, 1) == b"!"
        if reached:
            os.kill(pid, signal.SIGKILL)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    finally:
        os.close(ready_r)
        _, status = os.waitpid(pid, 0)
    if not reached:
        raise IncidentSetupError("the agent never reached the point after send_email")
    return signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}"


def observe_incident(caller: Caller, case: IncidentCase) -> IncidentObservation:
    killed_by = crash_after_delivery(case)
    at_crash = outbox_count(case.workspace)
    cp = load_checkpoint(case.checkpoint_path)
    if at_crash != 1 or cp is None or (cp["pendingToolUse"] or {}).get("name") != "send_email":
        raise IncidentSetupError(f"after the crash: {at_crash} emails, pending {cp and cp['pendingToolUse']}")

    layer = ToolLayer(case.workspace)
    seen: dict[str, Outcome] = {}

    def learner_reconcile(checkpoint: dict[str, Any]) -> Any:
        outcome = caller.call("reconcile", checkpoint, on_tool=layer)
        seen["outcome"] = outcome
        if not outcome.ok:
            raise _ReconcileFailed(outcome)
        return outcome.value

    # This process is not the one that was killed: the resume is a new process, as after the incident.
    error = None
    with caller.budget():
        try:
            run_agent(
                case.task,
                client=offline_client(model=ScriptedModel(seed=case.model_seed)),
                checkpoint_path=case.checkpoint_path,
                workspace=case.workspace,
                reconcile=learner_reconcile,
            )
        except _ReconcileFailed:
            error = None
        except Exception as e:  # noqa: BLE001 - any failure of the resumed run is the verdict's input
            error = describe_run_error(e)
    return IncidentObservation(
        case, killed_by, at_crash, outbox_count(case.workspace), error, seen.get("outcome"), layer.log
    )


def judge_incident(obs: IncidentObservation, lang: str) -> CriterionResult:
    """nivel2.no_double_email: exactly one email, and the resumed run finished without an API error."""
    criterion = "nivel2.no_double_email"
    case = obs.case
    if obs.reconcile is not None and not obs.reconcile.ok:
        return result(criterion, False, text("email.reconcile_failed", lang, reason=obs.reconcile.describe(lang)))
    if obs.emails > 1:
        return result(
            criterion, False, text("email.double", lang, to=case.recipient, count=obs.emails, subject=case.subject)
        )
    if obs.error:
        return result(criterion, False, text("email.run_error", lang, error=obs.error))
    if obs.emails != 1:
        return result(criterion, False, text("email.none", lang, count=obs.emails))
    return result(criterion, True, text("email.ok", lang, to=case.recipient))


# -- questions -------------------------------------------------------------------------------------


def judge_question(variable: str, value: Any, lang: str) -> CriterionResult:
    question = QUESTIONS[variable]
    letter = normalise_answer(value)
    if letter is None or letter not in question.options:
        got = _show(value) if not isinstance(value, dict) else str(value.get("type"))
        return result(question.criterion, False, text("q.invalid", lang, variable=variable, got=got))
    if letter != question.answer:
        return result(question.criterion, False, text("q.wrong", lang, got=letter))
    return result(question.criterion, True, text("q.ok", lang, answer=letter, explanation=question.explanation[lang]))


# -- all of it -------------------------------------------------------------------------------------


@dataclass
class Grading:
    criteria: list[CriterionResult]
    flags: list[str] = field(default_factory=list)


def run_checks(
    caller: Caller,
    *,
    seed: int,
    lang: str = "es",
    levels: tuple[int, ...] = (1, 2),
    scratch: Path,
    answers: dict[str, Any] | None = None,
    delegated: dict[str, str] | None = None,
) -> Grading:
    """Observe and judge every criterion of the requested levels.

    ``delegated`` maps a function name to the lesson3 object static analysis (or the
    load report) found it using; calls that trip lesson3's reference objects at run
    time are added to it here.
    """
    criteria: list[CriterionResult] = []
    flags: list[str] = []
    runtime_delegation: dict[str, str] = {}

    def note(outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            if outcome.delegated and outcome.fn not in runtime_delegation:
                runtime_delegation[outcome.fn] = outcome.delegated[0]

    if 1 in levels:
        for name in EXERCISE_NAMES:
            with caller.budget():
                outcome = caller.call("resume_action", exercise_checkpoint(name))
            note([outcome])
            criteria.append(judge_lesson_checkpoint(name, outcome, lang))
        cases = scenarios.hidden_action_cases(scenarios.rng_for(seed, "nivel1.hidden"))
        outcomes = observe_actions(caller, cases)
        note(outcomes)
        criteria.append(judge_hidden(cases, outcomes, lang))

    if 2 in levels:
        ro_cases = scenarios.read_only_cases(scenarios.rng_for(seed, "nivel2.read_only_rerun"), scratch)
        hi_cases = scenarios.high_impact_cases(scenarios.rng_for(seed, "nivel2.high_impact_not_rerun"), scratch)
        ro = observe_reconciles(caller, ro_cases)
        hi = observe_reconciles(caller, hi_cases)
        note([o.outcome for o in ro + hi])
        criteria += [
            judge_read_only(ro, lang),
            judge_high_impact(hi, lang),
            judge_is_error(hi, lang),
            judge_paired(ro + hi, lang),
        ]
        for obs in ro + hi:
            if obs.changed:
                flags.append(text("flag.effect", lang, paths=", ".join(obs.changed[:3])))
                break
        incident = observe_incident(
            caller, scenarios.incident_case(scenarios.rng_for(seed, "nivel2.no_double_email"), scratch)
        )
        if incident.reconcile is not None:
            note([incident.reconcile])
        criteria.append(judge_incident(incident, lang))
        for variable in QUESTIONS:
            if answers and variable in answers:
                criteria.append(judge_question(variable, answers[variable], lang))

    found = {**runtime_delegation, **(delegated or {})}
    for fn, target in sorted(found.items()):
        flags.append(text("flag.delegated", lang, fn=fn, target=target))
        feedback = text("call.delegated", lang, fn=fn, target=target)
        criteria = [
            CriterionResult(c.id, False, 0.0, c.max_score, feedback) if CRITERIA[c.id].function == fn else c
            for c in criteria
        ]
    return Grading(criteria, flags)


def not_graded(
    message: str, *, levels: tuple[int, ...] = (1, 2), answers: dict[str, Any] | None = None
) -> list[CriterionResult]:
    """Every criterion failed with the same reason (the submission did not load)."""
    ids = [c for c in CRITERIA_IDS if CRITERIA[c].level in levels]
    if 2 in levels:
        ids += [q.criterion for v, q in QUESTIONS.items() if answers and v in answers]
    return [CriterionResult(c, False, 0.0, CRITERIA[c].points, message) for c in ids]
