"""Gradescope's results.json: a learner's result in the schema Gradescope's autograder contract reads.

Gradescope's documented contract (Autograder Specifications): ``run_autograder`` must write
``/autograder/results/results.json``::

    {"score": float, "output": str, "tests": [{"name", "number", "score", "max_score",
     "status": "passed"|"failed", "output", "visibility"?}], ...}

The run inside the container is :mod:`autograder.classrun.gradescope`; the bundle that carries it,
:mod:`autograder.distribution.bundle`.
"""

from __future__ import annotations

from typing import Any

from autograder.course.catalogue import text
from autograder.reporting.report import bidi_visible, criterion_title, fmt_points
from autograder.wire.results import CriterionResult, SubmissionResult


def to_gradescope(result: SubmissionResult, *, lang: str = "es", warnings: list[str] | None = None) -> dict[str, Any]:
    """A ``SubmissionResult`` in Gradescope's results.json schema."""
    score, max_score = fmt_points(result.score, lang), fmt_points(result.max_score, lang)
    lines = [text("gradescope.graded", lang, name=result.submission, score=score, max_score=max_score)]
    if result.pending:
        lines.append(text("gradescope.pending", lang, points=fmt_points(result.pending, lang)))
    if result.error:
        lines.append(text("gradescope.error", lang, error=result.error))
    lines += result.warnings
    if warnings:
        lines.append(text("gradescope.warnings", lang, warnings=" ".join(warnings)))
    tests = [_test(c, i, lang, not_run=result.not_run) for i, c in enumerate(result.criteria, start=1)]
    if result.flags:
        # Hidden tests carry no points and only instructors see them.
        tests.append(
            {
                "name": text("gradescope.flags", lang),
                "status": "failed",
                "output": "\n".join(result.flags),
                "visibility": "hidden",
            }
        )
    return {
        "score": result.score,
        "output": bidi_visible("\n".join(lines)),  # a name's U+202E must not reorder the page
        # Learner text (file names, quoted errors) must never be rendered as HTML.
        "output_format": "text",
        "test_output_format": "text",
        "test_name_format": "text",
        "tests": tests,
    }


def _test(c: CriterionResult, number: int, lang: str, *, not_run: bool = False) -> dict[str, Any]:
    test: dict[str, Any] = {"name": f"{criterion_title(c.id, lang)} [{c.id}]", "number": str(number)}
    if c.pending:
        # No score and no status: Gradescope then counts no points for it and shows no verdict; the
        # instructor decides it in Gradescope itself (a manual adjustment), where the learner's result lives.
        test |= {"max_score": c.max_score, "output": bidi_visible(f"{text('report.pending', lang)}: {c.feedback}")}
        return test
    return test | {
        "score": c.score,
        "max_score": c.max_score,
        "status": "passed" if c.passed else "failed",
        # The submission's error is the top output (gradescope.error): the tests point to it.
        "output": bidi_visible(text("report.not_run_row", lang) if not_run else c.feedback),
    }


def no_tests(output: str) -> dict[str, Any]:
    """A results.json that gives 0 and says why: no submission, or the grader failed."""
    return {"score": 0.0, "output": output, "output_format": "text", "tests": []}
