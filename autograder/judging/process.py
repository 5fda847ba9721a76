"""The judging process: one submission's life (a fork of the grading zygote, :mod:`autograder.judging.zygote`).

It never runs learner code: it asks the learner zygote for the learner's confined child
(:class:`autograder.sandbox.session.Session`), loads the submission once, then observes and judges
every criterion the course counts (:func:`evaluate_criteria`): for each, in order, its observation
(:mod:`autograder.judging.observe`, each observed once per submission), its verdict function's verdict
(:data:`~autograder.judging.registry.VERDICTS`, filled by the verdict modules imported here) and its
points. A criterion whose function called what of lesson3 it may not reuse
(:mod:`autograder.judging.delegation`) during a graded call scores 0, whatever its verdict. The result
goes back to the grader as JSON in which no folder of the machine is named
(:mod:`autograder.judging.machine_paths`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.course.catalogue import text
from autograder.course.config import CourseConfig
from autograder.course.criteria import scored
from autograder.intake.submission import Submission
from autograder.judging import verdicts_level0, verdicts_level1, verdicts_level2  # noqa: F401 - importing them registers their verdict functions
from autograder.judging.delegation import explained, static_delegation
from autograder.judging.machine_paths import hiding
from autograder.judging.moves import reconcile_moves
from autograder.judging.observe import Run, prebuild
from autograder.judging.registry import VERDICTS
from autograder.sandbox.learner_process import prepare_box
from autograder.sandbox.session import Caller, LoadSummary, Session
from autograder.wire.results import CriterionResult, SubmissionResult


def judge(request: dict[str, Any], *, run_dir: Path, uid: int | None) -> dict[str, Any]:
    """Grade one submission (runs in a judge process forked from the zygote)."""
    with judged(request, run_dir=run_dir, uid=uid) as result:
        return result


@contextlib.contextmanager
def judged(request: dict[str, Any], *, run_dir: Path, uid: int | None) -> Iterator[dict[str, Any]]:
    """:func:`judge`'s result, for the block to report; the learner's process is stopped and the folders removed
    when the block ends, so the grader need not wait for them (the zygote answers inside the block)."""
    with contextlib.ExitStack() as cleanup:
        yield _judge(request, run_dir=run_dir, uid=uid, cleanup=cleanup)


def _judge(request: dict[str, Any], *, run_dir: Path, uid: int | None, cleanup: contextlib.ExitStack) -> dict[str, Any]:
    submission = Submission.from_json(request["submission"])
    # The run's: its seed and language are set (for_run() keeps them); the cases drawn ahead and the observers'
    # must come from one seed, whatever a request carries.
    course = CourseConfig.from_wire(request["course"]).for_run()
    seed, lang = course.seed, course.lang
    workdir = run_dir / f"judge-{os.getpid()}"
    box = workdir / "learner"
    shown = hiding((box, ""), (run_dir, "<tmp>"))
    # Last in, first out: the learner's process is stopped before its folder goes.
    cleanup.callback(shutil.rmtree, workdir, ignore_errors=True)
    try:
        workdir.mkdir(mode=0o711)
        scratch = workdir / "grader"
        scratch.mkdir(mode=0o700)
        prepare_box(box, uid)
        session = Session(submission, limits=course.limits, box=box, uid=uid, lang=lang)
        cleanup.callback(session.close)
        # While the learner zygote forks the learner's process and it loads the cells (the judge only waits), a
        # thread draws the cases that live in the judge's own folders.
        ahead = Run(session, course.seed, scratch, lang, box=box)
        drawing = threading.Thread(target=prebuild, args=(ahead, {c.observes for c in course.graded()}))
        drawing.start()
        try:
            summary = session.start()
        finally:
            drawing.join()
        # A load that failed, or nothing defined (every criterion would say its own «no hay una función»): said once.
        if fatal := summary.fatal or nothing_defined(summary, course):
            return shown(
                SubmissionResult.from_criteria(
                    submission.name, course.not_graded(fatal), error=fatal, warnings=summary.warnings, seed=seed
                ).to_json()
            )
        grading = evaluate_criteria(
            session,
            course,
            scratch=scratch,
            box=box,
            answers=summary.answers,
            prebuilt=ahead.prebuilt,
            # Read only when a function delegated (it parses every cell again): most submissions never need it.
            spelled=lambda: static_delegation([c.source for c in submission.runnable]),
        )
        note = session.output_note()
        result = SubmissionResult.from_criteria(
            submission.name,
            grading.criteria,
            flags=grading.flags,
            warnings=[*summary.warnings, *([note] if note else [])],
            seed=seed,
        )
        result.moves = grading.moves
        # Only when it was cut, to show what was kept: short output stays out of the reports, which
        # are then the same on every run even when the learner prints timings (%time) or dates.
        result.output = session.printed_text() if note else ""
        return shown(result.to_json())
    except Exception as e:  # noqa: BLE001 - one broken judgment must come back as a result, not kill the run
        traceback.print_exc()
        message = text("internal", lang, detail=f"{type(e).__name__}: {e}")
        return shown(
            SubmissionResult.from_criteria(
                submission.name, course.not_graded(message), error=message, seed=seed
            ).to_json()
        )


def nothing_defined(summary: LoadSummary, course: CourseConfig) -> str | None:
    """The message for a submission that defines none of the names its levels grade (None when it defines one).

    A function that is not callable or an answer of any type counts as defined: its own criterion
    says what is wrong with it.
    """
    names = tuple(dict.fromkeys(c.function for c in course.graded()))
    if not names or any(summary.defined.get(n, "missing") != "missing" or n in summary.answers for n in names):
        return None
    return text("load.nothing_defined", course.lang, names=", ".join(f"`{n}`" for n in names))


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
    spelled: Callable[[], dict[str, str]] | None = None,
    prebuilt: dict[str, Any] | None = None,
) -> Grading:
    """Observe and judge every criterion the course counts, with its points, on the course's seed.

    What a function's calls recorded at run time decides; ``spelled`` (function -> how its source
    names a lesson3 object it may not use, from :func:`~autograder.judging.delegation.static_delegation`)
    only lets the feedback show the learner's own spelling of it (asked only when a function delegated:
    reading the sources costs an AST pass). Words in the source decide nothing: printing or reading
    one's own code, or lesson3's, is harmless; what ran during a graded call counts. ``prebuilt`` holds
    cases already drawn (:func:`~autograder.judging.observe.prebuild`), the same as their observers would draw.
    """
    course = course.for_run()
    lang = course.lang
    run = Run(caller, course.seed, scratch, lang, answers, box=box, prebuilt=prebuilt or {})
    chosen = course.graded()
    observations = run.observe_all([c.observes for c in chosen])
    criteria = scored([(c, VERDICTS[c.id](obs, lang)) for c, obs in zip(chosen, observations, strict=True)])
    # Read from the cases the Level 2 criteria already observed (each observer runs once): no extra call.
    observed = any(c.observes.startswith("reconcile.") for c in chosen)
    moves = reconcile_moves(run.observed("reconcile.cases")) if observed else {}
    flags = list(run.flags.values())
    spellings = spelled() if spelled is not None and run.delegated else {}
    for fn, called in sorted(run.delegated.items()):
        target, key = explained(called, spellings.get(fn))
        flags.append(text("flag.delegated", lang, fn=fn, target=target))
        feedback = text(key, lang, fn=fn, target=target)
        criteria = [c.failed(feedback) if c.function == fn else r for c, r in zip(chosen, criteria, strict=True)]
    return Grading(criteria, flags, moves)
