"""What every level's verdict functions share: a failure said once, a value shown short, a list cut short, and
the verdict on a multiple-choice answer (each level registers it for its own questions).

Pure functions from what was observed to words; feedback comes from :mod:`autograder.course.catalogue`, in the
learner's language.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from autograder.course.catalogue import text
from autograder.course.criteria import Verdict
from autograder.course.questions import QUESTIONS, normalise_answer
from autograder.judging.observe import (
    AnswerObservation,
)
from autograder.sandbox.session import Outcome

_SAME_FOR_EVERY_CASE = ("failure", "missing", "not_callable", "not_implemented", "delegated")
"""Outcomes that would repeat on every case: reported once, for the whole criterion."""


def said_once(outcomes: Iterable[Outcome], lang: str) -> Verdict | None:
    """A failure that would repeat on every case (missing function, crash...), as the whole verdict."""
    same = next((o for o in outcomes if o.status in _SAME_FOR_EVERY_CASE), None)
    return Verdict(False, same.describe(lang)) if same else None


def show(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def failed(where: str, outcome: Outcome, lang: str) -> str:
    """One item of a verdict's list: where, and how the call failed (without its full stop: the list goes on)."""
    return f"{where}: {outcome.describe(lang).rstrip('.')}"


def listing(items: list[str], lang: str, limit: int = 3) -> str:
    shown = items[:limit]
    more = len(items) - len(shown)
    if more:
        shown.append(text("list.more", lang, more=more))
    return "; ".join(shown)


def question_ids(level: int) -> tuple[str, ...]:
    """The criteria of ``level``'s graded questions, each judged by :func:`question_verdict`."""
    return tuple(q.criterion for q in QUESTIONS.values() if q.criterion and q.level == level)


def question_verdict(obs: AnswerObservation, lang: str) -> Verdict:
    """A multiple-choice answer: one letter, the right one; a missing answer is a clear 0."""
    variable, value = obs.variable, obs.value
    question = QUESTIONS[variable]
    if not obs.defined:
        return Verdict(False, text("question.missing", lang, variable=variable))
    if value is None or value == {"type": "NoneType"}:  # the notebook's untouched `respuesta = None`
        return Verdict(False, text("question.unanswered", lang, variable=variable))
    letter = normalise_answer(value)
    if letter is None or letter not in question.options:
        got = show(value) if not isinstance(value, dict) else str(value.get("type"))
        return Verdict(False, text("question.invalid", lang, variable=variable, got=got))
    if question.answer is None:  # the learner's edition ships no key: the instructor's checkout grades it
        return Verdict(False, text("question.received", lang, answer=letter))
    if letter != question.answer:
        retry = question.hint.get(lang) or question.hint["es"]
        return Verdict(False, text("question.wrong", lang, got=letter, hint=retry))
    return Verdict(True, text("question.ok", lang, answer=letter, explanation=question.explanation[lang]))
