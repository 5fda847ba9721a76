"""Observe and judge every criterion of a submission, in the judging process.

For every criterion of the requested levels (:mod:`autograder.course.criteria`), in order:
get its observation (:mod:`autograder.judging.observe`, each observed once per submission),
ask its verdict function (:data:`~autograder.judging.registry.VERDICTS`, filled by the verdict modules imported
here) for a verdict, and score it. A criterion whose function called what of lesson3 it may not
reuse (:mod:`autograder.judging.delegation`) during a graded call scores 0, whatever its verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.course.catalogue import text
from autograder.course.config import CourseConfig
from autograder.course.criteria import scored
from autograder.judging import verdicts, verdicts_resume  # noqa: F401 - importing them registers their verdict functions
from autograder.judging.delegation import explained
from autograder.judging.moves import reconcile_moves
from autograder.judging.observe import Run
from autograder.judging.registry import VERDICTS
from autograder.sandbox.session import Caller
from autograder.wire.results import CriterionResult


@dataclass
class Grading:
    criteria: list[CriterionResult]
    flags: list[str] = field(default_factory=list)
    moves: dict[str, list[str]] = field(default_factory=dict)
    """Tool kind -> the moves the learner's reconcile made (judging.moves); empty when Level 2 was not graded."""


def evaluate_criteria(
    caller: Caller,
    course: CourseConfig,
    *,
    scratch: Path,
    box: Path | None = None,
    answers: dict[str, Any] | None = None,
    spelled: dict[str, str] | None = None,
) -> Grading:
    """Observe and judge every criterion the course counts, with its points, on the course's seed.

    What a function's calls recorded at run time decides; ``spelled`` (function -> how its source
    names a lesson3 object it may not use, from :func:`~autograder.judging.delegation.static_delegation`)
    only lets the feedback show the learner's own spelling of it.
    """
    course = course.for_run()
    lang = course.lang
    run = Run(caller, course.seed, scratch, lang, answers, box=box)
    chosen = course.graded()
    observations = run.observe_all([c.observes for c in chosen])
    criteria = scored([(c, VERDICTS[c.id](obs, lang)) for c, obs in zip(chosen, observations, strict=True)])
    # Read from the cases the Level 2 criteria already observed (each observer runs once): no extra call.
    observed = any(c.observes.startswith("reconcile.") for c in chosen)
    moves = reconcile_moves(run.observed("reconcile.cases")) if observed else {}
    flags = list(run.flags.values())
    for fn, called in sorted(run.delegated.items()):
        target, key = explained(called, (spelled or {}).get(fn))
        flags.append(text("flag.delegated", lang, fn=fn, target=target))
        feedback = text(key, lang, fn=fn, target=target)
        criteria = [c.failed(feedback) if c.function == fn else r for c, r in zip(chosen, criteria, strict=True)]
    return Grading(criteria, flags, moves)
