"""What a criterion is, and the registry every level's module declares its criteria into.

A :class:`Criterion` says everything the rest of the grader needs: its id, level and points, the learner's
function it calls, its title and escalating hints in each language, the observation it judges (a name an
observer is registered under) and the feedback keys its verdict function may use. Each level's criteria are
declared in that level's module (:mod:`autograder.course.level0`, ``level1``, ``level2``), with their
feedback texts; :mod:`autograder.course.criteria` is the face that loads them and reads the registry.

This module and the level modules are plain data: the grader's own process imports them for titles and ids
without loading any verdict function, lesson3's agent or the SDK.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from autograder.course.questions import QUESTIONS, Question
from autograder.wire.results import CriterionResult, from_verdicts


class Verdict(NamedTuple):
    """What a verdict function decides: passed, not passed or ``None`` (left to a person); and the feedback saying why.

    Any verdict function may return ``None`` where its rules cannot decide: the criterion's points are then
    pending (``review``) until ``autograder review --apply`` records a person's decision.
    """

    passed: bool | None
    feedback: str


Hints = dict[str, str | tuple[str, ...]]
"""Per language, one hint or an escalating list of them."""


@dataclass(frozen=True)
class Criterion:
    id: str
    level: int
    points: float
    function: str
    """The learner's name it grades: ``resume_action``, ``reconcile`` or a question's variable."""
    title: dict[str, str]
    hint: Hints
    """Per language, one hint or an escalating list: each says more than the one before, none gives the code.
    The lesson's facts stay placeholders here; :func:`autograder.course.criteria.hints` fills them in."""
    observes: str
    """The observation it judges: a key of :data:`autograder.judging.registry.OBSERVERS`."""
    feedback: tuple[str, ...] = ()
    """The families of message keys (:mod:`autograder.course.catalogue`) its feedback uses, e.g. ``"read_only."``."""
    lesson: str = ""
    """The lesson's section whose completion criterion this grades."""
    grades: tuple[str, ...] = ()
    """The lesson's objectives, sections and completion criteria it grades.

    Keys of :mod:`autograder.course.lesson_map`."""

    def result(self, verdict: Verdict) -> CriterionResult:
        (result,) = from_verdicts([(self.id, self.points, *verdict)])
        return result

    def failed(self, feedback: str) -> CriterionResult:
        return CriterionResult(self.id, False, 0.0, self.points, feedback)


CRITERIA: dict[str, Criterion] = {}
"""Every criterion, in the order results list them."""


def register(criterion: Criterion) -> Criterion:
    if criterion.id in CRITERIA:
        raise ValueError(f"criterion {criterion.id!r} is already declared")
    CRITERIA[criterion.id] = criterion
    return criterion


def unregister(criterion_id: str) -> None:
    del CRITERIA[criterion_id]


def completion_key(name: str) -> str:
    """The key in :mod:`autograder.course.lesson_map` of the lesson's completion criterion for checkpoint ``name``."""
    return f"fin.{name}"


def checkpoint_criterion(name: str) -> str:
    """The id of the criterion grading ``resume_action`` on the lesson's checkpoint ``name``."""
    return f"nivel1.{name}"


def question_criteria(level: int, grades: Mapping[str, tuple[str, ...]]) -> tuple[Criterion, ...]:
    """The criteria of ``level``'s graded questions (a practice question, whose key ships to learners, has none),
    each grading what ``grades`` says for its id."""
    return tuple(
        _question(q, grades.get(q.criterion, ())) for q in QUESTIONS.values() if q.criterion and q.level == level
    )


def _question(q: Question, grades: tuple[str, ...]) -> Criterion:
    assert q.criterion is not None, q.variable
    return Criterion(
        q.criterion,
        level=q.level,
        points=q.points,
        function=q.variable,
        title=q.title,
        hint=q.hint,
        observes=f"answer.{q.variable}",
        feedback=("question.",),
        lesson=q.lesson,
        grades=grades,
    )
