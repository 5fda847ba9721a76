"""Observe and judge every criterion of a submission, in the judging process.

For every criterion of the requested levels (:mod:`autograder.course.criteria`), in order:
get its observation (:mod:`autograder.judging.observe`, each observed once per submission),
ask its judge (:mod:`autograder.judging.verdicts`) for a verdict, and score it. A criterion
whose function called what of lesson3 it may not reuse (:mod:`autograder.judging.delegation`)
during a graded call scores 0, whatever its verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.course.catalogue import text
from autograder.course.criteria import CRITERIA, judged, scored
from autograder.judging.delegation import explained
from autograder.judging.observe import Run
from autograder.sandbox.session import Caller
from autograder.wire.results import CriterionResult


@dataclass
class Grading:
    criteria: list[CriterionResult]
    flags: list[str] = field(default_factory=list)


def run_checks(
    caller: Caller,
    *,
    seed: int,
    lang: str = "es",
    levels: tuple[int, ...] = (0, 1, 2),
    scratch: Path,
    box: Path | None = None,
    answers: dict[str, Any] | None = None,
    spelled: dict[str, str] | None = None,
) -> Grading:
    """Observe and judge every criterion of the requested levels.

    What a function's calls recorded at run time decides; ``spelled`` (function -> how its source
    names a lesson3 object it may not use, from :func:`~autograder.judging.delegation.static_delegation`)
    only lets the feedback show the learner's own spelling of it.
    """
    run = Run(caller, seed, scratch, lang, answers, box=box)
    chosen = judged(levels)
    observations = run.observe_all([c.observes for c, _ in chosen])
    criteria = scored([(c, judge(obs, lang)) for (c, judge), obs in zip(chosen, observations, strict=True)])
    flags = list(run.flags.values())
    for fn, called in sorted(run.delegated.items()):
        target, key = explained(called, (spelled or {}).get(fn))
        flags.append(text("flag.delegated", lang, fn=fn, target=target))
        feedback = text(key, lang, fn=fn, target=target)
        criteria = [CRITERIA[c.id].failed(feedback) if CRITERIA[c.id].function == fn else c for c in criteria]
    return Grading(criteria, flags)
