"""Observe and judge every criterion of a submission, in the judging process.

For every criterion of the requested levels (:mod:`autograder.course.criteria`), in order:
get its observation (:mod:`autograder.judging.observe`, each observed once per submission),
ask its judge (:mod:`autograder.judging.verdicts`) for a verdict, and score it. A criterion
whose function used lesson3's reference solution scores 0, whatever its verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.course.catalogue import text
from autograder.course.criteria import CRITERIA, graded
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
    delegated: dict[str, str] | None = None,
) -> Grading:
    """Observe and judge every criterion of the requested levels.

    ``delegated`` maps a function name to the lesson3 object static analysis (or the
    load report) found it using; calls that trip lesson3's reference objects at run
    time are added to it here.
    """
    run = Run(caller, seed, scratch, lang, answers, box=box)
    criteria = [c.result(c.judge_function()(run.observed(c.observes), lang)) for c in graded(levels)]
    flags = list(run.flags.values())
    for fn, target in sorted({**run.delegated, **(delegated or {})}.items()):
        flags.append(text("flag.delegated", lang, fn=fn, target=target))
        feedback = text("call.delegated", lang, fn=fn, target=target)
        criteria = [CRITERIA[c.id].failed(feedback) if CRITERIA[c.id].function == fn else c for c in criteria]
    return Grading(criteria, flags)
