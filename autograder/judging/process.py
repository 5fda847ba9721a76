"""The judging process: grades one submission (a fork of the grading zygote).

It never runs learner code: it asks the learner zygote for the learner's confined
child (:class:`autograder.sandbox.session.Session`), observes and judges every criterion
(:mod:`autograder.judging.evaluate`, imported here only) and answers the grader with the result as JSON,
in which no folder of the machine is named (:mod:`autograder.judging.machine_paths`).
"""

from __future__ import annotations

import os
import shutil
import traceback
from pathlib import Path
from typing import Any

from autograder.course.catalogue import text
from autograder.course.config import CourseConfig
from autograder.intake.submission import Submission
from autograder.judging.delegation import static_delegation
from autograder.judging.machine_paths import hiding
from autograder.sandbox.learner_process import prepare_box
from autograder.sandbox.session import LoadSummary, Session
from autograder.wire.results import SubmissionResult


def judge(request: dict[str, Any], *, run_dir: Path, uid: int | None) -> dict[str, Any]:
    """Grade one submission (runs in a judge process forked from the zygote)."""
    submission = Submission.from_json(request["submission"])
    course = CourseConfig.from_wire(request["course"])  # the run's: its seed and language are set
    seed, lang = course.seed, course.lang
    workdir = run_dir / f"judge-{os.getpid()}"
    box = workdir / "learner"
    shown = hiding((box, ""), (run_dir, "<tmp>"))
    session = None
    try:
        workdir.mkdir(mode=0o711)
        scratch = workdir / "grader"
        scratch.mkdir(mode=0o700)
        prepare_box(box, uid)
        session = Session(submission, limits=course.limits, box=box, uid=uid, lang=lang)
        summary = session.start()
        # A load that failed, or nothing defined (every criterion would say its own «no hay una función»): said once.
        if fatal := summary.fatal or nothing_defined(summary, course):
            return shown(
                SubmissionResult.from_criteria(
                    submission.name, course.not_graded(fatal), error=fatal, warnings=summary.warnings, seed=seed
                ).to_json()
            )
        from autograder.judging.evaluate import (
            evaluate_criteria,  # lesson3 and the SDK: preloaded in the zygote, not in the grader
        )

        grading = evaluate_criteria(
            session,
            course,
            scratch=scratch,
            box=box,
            answers=summary.answers,
            spelled=static_delegation([c.source for c in submission.runnable]),
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
    finally:
        if session is not None:
            session.close()
        shutil.rmtree(workdir, ignore_errors=True)


def nothing_defined(summary: LoadSummary, course: CourseConfig) -> str | None:
    """The message for a submission that defines none of the names its levels grade (None when it defines one).

    A function that is not callable or an answer of any type counts as defined: its own criterion
    says what is wrong with it.
    """
    names = tuple(dict.fromkeys(c.function for c in course.graded()))
    if not names or any(summary.defined.get(n, "missing") != "missing" or n in summary.answers for n in names):
        return None
    return text("load.nothing_defined", course.lang, names=", ".join(f"`{n}`" for n in names))
