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
from autograder.course.criteria import graded, not_graded
from autograder.course.levels import LEVELS
from autograder.intake.submission import Submission
from autograder.judging.delegation import static_delegation
from autograder.judging.machine_paths import hiding
from autograder.sandbox.learner_process import prepare_box
from autograder.sandbox.session import LoadSummary, Session
from autograder.wire.limits import Limits
from autograder.wire.results import SubmissionResult


def judge(request: dict[str, Any], *, run_dir: Path, uid: int | None) -> dict[str, Any]:
    """Grade one submission (runs in a judge process forked from the zygote)."""
    submission = Submission.from_json(request["submission"])
    seed = int(request["seed"])
    lang = str(request.get("lang") or "es")
    limits = Limits.from_json(request.get("limits"))
    levels = tuple(int(level) for level in request.get("levels") or LEVELS)
    # The course's points (autograder.course.config), when it set them: criterion id -> points.
    points = {str(k): float(v) for k, v in (request.get("points") or {}).items()}
    workdir = run_dir / f"judge-{os.getpid()}"
    box = workdir / "learner"
    shown = hiding((box, ""), (run_dir, "<tmp>"))
    session = None
    try:
        workdir.mkdir(mode=0o711)
        scratch = workdir / "grader"
        scratch.mkdir(mode=0o700)
        prepare_box(box, uid)
        session = Session(submission, limits=limits, box=box, uid=uid, lang=lang)
        summary = session.start()
        if summary.fatal:
            criteria = not_graded(summary.fatal, levels=levels, points=points)
            result = SubmissionResult.from_criteria(
                submission.name, criteria, error=summary.fatal, warnings=summary.warnings, seed=seed
            )
            return shown(result.to_json())
        if nothing := nothing_defined(summary, levels, lang):
            # Every criterion would say its own «no hay una función»: one message says it once, for all.
            criteria = not_graded(nothing, levels=levels, points=points)
            return shown(
                SubmissionResult.from_criteria(
                    submission.name, criteria, error=nothing, warnings=summary.warnings, seed=seed
                ).to_json()
            )
        from autograder.judging.evaluate import (
            run_checks,  # lesson3 and the SDK: preloaded in the zygote, not in the grader
        )

        grading = run_checks(
            session,
            seed=seed,
            lang=lang,
            levels=levels,
            scratch=scratch,
            box=box,
            answers=summary.answers,
            spelled=static_delegation([c.source for c in submission.runnable]),
            points=points,
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
                submission.name, not_graded(message, levels=levels, points=points), error=message, seed=seed
            ).to_json()
        )
    finally:
        if session is not None:
            session.close()
        shutil.rmtree(workdir, ignore_errors=True)


def nothing_defined(summary: LoadSummary, levels: tuple[int, ...], lang: str) -> str | None:
    """The message for a submission that defines none of the names its levels grade (None when it defines one).

    A function that is not callable or an answer of any type counts as defined: its own criterion
    says what is wrong with it.
    """
    names = tuple(dict.fromkeys(c.function for c in graded(levels)))
    if not names or any(summary.defined.get(n, "missing") != "missing" or n in summary.answers for n in names):
        return None
    return text("load.nothing_defined", lang, names=", ".join(f"`{n}`" for n in names))
