"""The exercise's criteria, read: every criterion of every level, and what the rest of the grader asks of them.

Each level's criteria are declared, with their feedback texts, in that level's module
(:mod:`autograder.course.level0`, :mod:`autograder.course.level1`, :mod:`autograder.course.level2`), on the
:class:`~autograder.course.criterion.Criterion` of :mod:`autograder.course.criterion`; importing this module
loads them all, in level order: the order results list them. results.json, grades.csv, the HTML feedback,
``check()``, ``pista()`` and the generated documents all read :data:`CRITERIA`.

To add a criterion: declare it in its level's module (its feedback texts beside it); write its verdict
function, a pure function from the observation to a :class:`Verdict`, in its level's verdict module
(:mod:`autograder.judging.verdicts_level0` and its siblings), registered for the criterion's id with
``@verdict("nivelN.name")``; when no existing observation fits, an observer in
:mod:`autograder.judging.observe` registered with ``@observer("name")``; then regenerate the documents
(``python -m autograder.course.generated``). ``tests/test_autograder_criteria.py`` fails while a criterion
has no verdict function or no observer, or one of those has no criterion.

Verdict functions and observers are registered (:mod:`autograder.judging.registry`) only in the judging
process, which imports them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from autograder.course import level0, level1, level2
from autograder.course.catalogue import with_facts
from autograder.course.criterion import CRITERIA, Criterion, Verdict, register, unregister
from autograder.wire.results import CriterionResult, from_verdicts

LEVELS = (level0, level1, level2)
"""The modules declaring each level's criteria, in level order (importing them registers their criteria)."""

__all__ = ["CRITERIA", "LEVELS", "Criterion", "Verdict", "register", "unregister"]


def required_ids() -> tuple[str, ...]:
    """The criteria every submission is graded on : all of them, so one maximum."""
    return tuple(CRITERIA)


def graded(levels: Iterable[int], points: Mapping[str, float] | None = None) -> list[Criterion]:
    """The criteria of ``levels``; the same for every submission, whatever it defines or answers.

    ``points`` (criterion id -> points, the course's configuration: :mod:`autograder.course.config`)
    replaces the declared points; a criterion it does not name keeps its own.
    """
    levels = set(levels)
    chosen = [c for c in CRITERIA.values() if c.level in levels]
    if points:
        chosen = [replace(c, points=float(points[c.id])) if c.id in points else c for c in chosen]
    return chosen


def scored(verdicts: Iterable[tuple[Criterion, Verdict]]) -> list[CriterionResult]:
    """Each criterion's result from its verdict, in the order given."""
    return from_verdicts([(c.id, c.points, *verdict) for c, verdict in verdicts])


def learner_names() -> tuple[str, ...]:
    """The names a submission defines for grading, in the criteria's order."""
    return tuple(dict.fromkeys(c.function for c in CRITERIA.values()))


def title(criterion_id: str, lang: str = "es") -> str:
    known = CRITERIA.get(criterion_id)
    return (known.title.get(lang) or known.title["es"]) if known else criterion_id


def hints(criterion_id: str, lang: str = "es") -> tuple[str, ...]:
    """A criterion's escalating hints in ``lang``, gentlest first, with the lesson's facts they name filled in
    (empty for an unknown id)."""
    known = CRITERIA.get(criterion_id)
    chosen = (known.hint.get(lang) or known.hint["es"]) if known else ()
    return tuple(with_facts(h, lang) for h in ((chosen,) if isinstance(chosen, str) else chosen))


def hint(criterion_id: str, lang: str = "es", level: int = 1) -> str | None:
    """Hint number ``level`` (1 = the gentlest; past the last, the last)."""
    levels = hints(criterion_id, lang)
    return levels[min(max(level, 1), len(levels)) - 1] if levels else None
