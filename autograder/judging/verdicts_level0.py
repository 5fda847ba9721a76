"""Verdicts on the resume path (Level 0): ``my_load_checkpoint`` and ``start_state``.

Pure functions from the observations of :mod:`autograder.judging.observe` (the learner's calls
on files in its own folder, and the lives of a task killed with SIGKILL) to a
:class:`~autograder.course.criteria.Verdict`. The criteria and their feedback texts are declared in
:mod:`autograder.course.level0`.
"""

from __future__ import annotations

import copy
from typing import Any

from autograder.course.catalogue import text, written
from autograder.course.criteria import Verdict
from autograder.judging.observe import LOAD, START, LivesObservation, ResumeObservation
from autograder.judging.registry import verdict
from autograder.judging.verdict_help import failed, listing, said_once, show
from autograder.sandbox.session import Outcome
from autograder.wire.calls import stand_in_message
from lesson3.checkpoint import new_state, says_version_refused, version_message

RAISED_NOT_CLEAR = ("SystemExit", "KeyboardInterrupt", "GeneratorExit")
"""Exceptions that stop the program instead of telling the caller what is wrong."""


def _call(fn: str, obs: ResumeObservation, lang: str) -> str:
    return text("resume_path.call", lang, fn=fn, label=written(obs.case.label, lang))


def _untouched(obs: ResumeObservation, lang: str) -> list[str]:
    if obs.after == obs.case.content:
        return []
    if obs.after is None:
        return [text("resume_path.file_gone", lang, label=written(obs.case.label, lang))]
    return [text("resume_path.file_changed", lang, label=written(obs.case.label, lang))]


def _verdict(observations: list[ResumeObservation], bad: list[str], ok_key: str, lang: str, **params: Any) -> Verdict:
    """What is ``bad``, or else ``ok_key``; but a failure that would repeat on every file (missing function,
    crash...) is said once instead (verdict functions are pure: what they found is dropped, nothing undone)."""
    if verdict := said_once((o for obs in observations for o in obs.outcomes.values()), lang):
        return verdict
    if not bad:
        return Verdict(True, text(ok_key, lang, **params))
    return Verdict(
        False, text("resume_path.wrong", lang, bad=len(bad), items=listing(bad, lang)) + text(ok_key + "_why", lang)
    )


def _raised(outcome: Outcome) -> bool:
    return outcome.status == "error" and outcome.info.get("etype") not in RAISED_NOT_CLEAR


def _nonces(value: Any, nonce: str) -> int:
    """How many times the judge's stand-in reconcile answered in this state."""
    messages = value.get("messages") if isinstance(value, dict) else None
    if not isinstance(messages, list):
        return 0
    return sum(
        1
        for m in messages
        if isinstance(m, dict)
        and isinstance(m.get("content"), list)
        and any(isinstance(b, dict) and b.get("content") == nonce for b in m["content"])
    )


def state_differences(expected: dict[str, Any], got: Any, lang: str) -> list[str]:
    """Which fields of a returned state differ from the expected one, in words."""
    if not isinstance(got, dict):
        return [text("resume_path.not_a_state", lang, got=show(got))]
    out = []
    for field in ("version", "task", "turns", "tokensUsed", "messages", "pendingToolUse"):
        value = got.get(field)
        if field not in got:
            out.append(text("resume_path.field_missing", lang, field=field))
        elif value == expected[field]:
            continue
        elif field == "messages":
            count = str(len(value)) if isinstance(value, list) else show(value)
            out.append(text("resume_path.messages_differ", lang, expected=len(expected["messages"]), got=count))
        else:
            out.append(
                text("resume_path.field_differs", lang, field=field, got=show(value), expected=show(expected[field]))
            )
    extra = sorted(set(got) - set(expected))
    if extra:
        out.append(text("resume_path.field_extra", lang, fields=", ".join(extra[:4])))
    return out


@verdict("nivel0.version_refused")
def version_refused_verdict(observations: list[ResumeObservation], lang: str) -> Verdict:
    """nivel0.version_refused: a newer file is refused with the lesson's message and left as it was."""
    bad: list[str] = []
    for obs in observations:
        expected = version_message(obs.case.version)
        for fn, outcome in obs.outcomes.items():
            where = _call(fn, obs, lang)
            if outcome.ok:
                key = "resume_path.started_anyway" if fn == START else "resume_path.loaded_anyway"
                bad.append(text(key, lang, where=where, got=show(outcome.value)))
            elif not _raised(outcome):
                bad.append(failed(where, outcome, lang))
            elif not says_version_refused(message := str(outcome.info.get("message") or ""), obs.case.version):
                etype, got = outcome.info.get("etype"), show(message)
                bad.append(
                    text("resume_path.other_message", lang, where=where, etype=etype, got=got, expected=expected)
                )
        bad += _untouched(obs, lang)
    return _verdict(observations, bad, "resume_path.version_ok", lang, n=len(observations))


@verdict("nivel0.fresh_start")
def fresh_start_verdict(observations: list[ResumeObservation], lang: str) -> Verdict:
    """nivel0.fresh_start: no file means None from the loader and the lesson's initial state."""
    bad: list[str] = []
    for obs in observations:
        load, start = obs.outcomes[LOAD], obs.outcomes[START]
        if not load.ok:
            bad.append(failed(_call(LOAD, obs, lang), load, lang))
        elif load.value is not None:
            bad.append(text("resume_path.not_none", lang, where=_call(LOAD, obs, lang), got=show(load.value)))
        if not start.ok:
            bad.append(failed(_call(START, obs, lang), start, lang))
            continue
        expected = new_state(obs.case.task)
        if start.value != expected:
            if _nonces(start.value, obs.case.nonce):
                bad.append(text("resume_path.reconciled_nothing", lang, where=_call(START, obs, lang)))
            else:
                diff = "; ".join(state_differences(expected, start.value, lang))
                bad.append(text("resume_path.fresh_differs", lang, where=_call(START, obs, lang), diff=diff))
    return _verdict(observations, bad, "resume_path.fresh_ok", lang)


@verdict("nivel0.malformed_error")
def malformed_verdict(observations: list[ResumeObservation], lang: str) -> Verdict:
    """nivel0.malformed_error: a broken file raises an exception (not None, not a state) and stays as it was."""
    bad: list[str] = []
    for obs in observations:
        for fn, outcome in obs.outcomes.items():
            where = _call(fn, obs, lang)
            if outcome.ok:
                key = (
                    "resume_path.broken_as_missing"
                    if outcome.value is None or fn == START
                    else "resume_path.broken_loaded"
                )
                bad.append(text(key, lang, where=where, got=show(outcome.value)))
            elif not _raised(outcome):
                bad.append(failed(where, outcome, lang))
        bad += _untouched(obs, lang)
    return _verdict(observations, bad, "resume_path.malformed_ok", lang, n=len(observations))


@verdict("nivel0.state_kept")
def state_kept_verdict(observations: list[ResumeObservation], lang: str) -> Verdict:
    """nivel0.state_kept: a saved checkpoint comes back exactly: turns, tokensUsed, messages, task."""
    bad: list[str] = []
    for obs in observations:
        expected = obs.case.checkpoint
        assert expected is not None
        for fn, outcome in obs.outcomes.items():
            where = _call(fn, obs, lang)
            if not outcome.ok:
                bad.append(failed(where, outcome, lang))
            elif outcome.value != expected:
                if fn == START and _nonces(outcome.value, obs.case.nonce):
                    bad.append(text("resume_path.reconciled_nothing", lang, where=where))
                else:
                    diff = "; ".join(state_differences(expected, outcome.value, lang))
                    bad.append(text("resume_path.kept_differs", lang, where=where, diff=diff))
        bad += _untouched(obs, lang)
    return _verdict(observations, bad, "resume_path.kept_ok", lang, n=len(observations))


@verdict("nivel0.dangling_reconciled")
def dangling_verdict(observations: list[ResumeObservation], lang: str) -> Verdict:
    """nivel0.dangling_reconciled: a dangling call goes through reconcile exactly once, and its result is the state."""
    bad: list[str] = []
    for obs in observations:
        cp = obs.case.checkpoint
        assert cp is not None and cp["pendingToolUse"] is not None
        outcome = obs.outcomes[START]
        where = _call(START, obs, lang)
        if not outcome.ok:
            bad.append(failed(where, outcome, lang))
            continue
        expected = copy.deepcopy(cp)
        expected["messages"].append(stand_in_message(cp["pendingToolUse"]["id"], obs.case.nonce))
        expected["pendingToolUse"] = None
        times = _nonces(outcome.value, obs.case.nonce)
        if times == 0:
            bad.append(text("resume_path.not_reconciled", lang, where=where))
        elif times > 1:
            bad.append(text("resume_path.reconciled_twice", lang, where=where, times=times))
        elif outcome.value != expected:
            diff = "; ".join(state_differences(expected, outcome.value, lang))
            bad.append(text("resume_path.reconciled_differs", lang, where=where, diff=diff))
        bad += _untouched(obs, lang)
    return _verdict(observations, bad, "resume_path.dangling_ok", lang)


@verdict("nivel0.max_turns_across_lives")
def lives_verdict(obs: LivesObservation, lang: str) -> Verdict:
    """nivel0.max_turns_across_lives: turns continues after each SIGKILL and MAX_TURNS caps the whole task."""
    case = obs.case
    if failed := next((life.outcome for life in obs.lives if not life.outcome.ok), None):
        return Verdict(False, failed.describe(lang))
    if obs.error:
        return Verdict(False, text("resume_path.lives_bad_state", lang, error=obs.error))
    bad: list[str] = []
    shifted = False  # turns moved from the file's value but not back to 0: the explanation says what it did
    for i, life in enumerate(obs.lives, start=2):
        got = life.outcome.value.get("turns") if isinstance(life.outcome.value, dict) else None
        if got != life.file_turns:
            bad.append(text("resume_path.turns_restarted", lang, life=i, file=life.file_turns, got=show(got)))
            shifted = shifted or (isinstance(got, int) and not isinstance(got, bool) and got != 0)
    calls = obs.model_calls
    final_turns = (obs.final or {}).get("turns")
    if calls > case.max_turns:
        bad.append(text("resume_path.over_cap", lang, calls=calls, lives=len(obs.lives) + 1, max=case.max_turns))
    elif final_turns != calls:
        bad.append(text("resume_path.turns_not_total", lang, turns=show(final_turns), calls=calls))
    if bad:
        key = "resume_path.lives_wrong_shifted" if shifted else "resume_path.lives_wrong"
        return Verdict(False, text(key, lang, items=listing(bad, lang, limit=4)))
    kills = ", ".join(str(t) for t in case.kill_turns)
    return Verdict(True, text("resume_path.lives_ok", lang, lives=len(obs.lives) + 1, kills=kills, max=case.max_turns))
