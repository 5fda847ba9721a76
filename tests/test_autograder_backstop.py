"""The grader's backstop on a whole submission comes after every limit a slow honest submission may use.

(The limits' values and what the learner reads when one is hit are a generated table of the guide:
:func:`autograder.reporting.guide.limits_table`.)
"""

from __future__ import annotations

import contextlib
from collections import Counter

from test_autograder_checks import OneByOne

from autograder.course.config import CourseConfig
from autograder.judging.process import evaluate_criteria
from autograder.wire.limits import Limits

LIMITS = Limits()


class Counting(OneByOne):
    """Wraps an in-process caller and notes, for every call, the budget it ran in (None: its own limit)."""

    def __init__(self, caller) -> None:
        self.caller = caller
        self.budgets = 0
        self.open: int | None = None
        self.opened: list[int | None] = []

    @contextlib.contextmanager
    def budget(self, seconds=None):
        assert self.open is None, "budgets do not nest"
        self.budgets += 1
        self.open = self.budgets
        try:
            yield
        finally:
            self.open = None

    def call(self, fn, arg, *, on_tool=None, poison=None):
        self.opened.append(self.open)
        return self.caller.call(fn, arg, on_tool=on_tool, poison=poison)

    def worst_case(self, limits: Limits) -> float:
        """Seconds the learner's calls may take when each runs until just under its limit."""
        per_budget = Counter(c for c in self.opened if c is not None)
        inside = sum(min(limits.check_seconds, n * limits.call_seconds) for n in per_budget.values())
        return inside + sum(1 for c in self.opened if c is None) * limits.call_seconds


def test_the_backstop_outlasts_every_limit_a_slow_honest_submission_may_use(tmp_path):
    # A learner whose every call takes just under its limit is within every documented limit:
    # it must get its verdicts, not the backstop's «no terminó» on the whole submission.
    import test_autograder_checks as levels12
    import test_autograder_resume_path as level0

    box, scratch = tmp_path / "alumno", tmp_path / "corrector"
    box.mkdir()
    scratch.mkdir()
    graded = []
    for caller, levels in (
        (Counting(level0.ResumeCaller(box, my_load_checkpoint=level0.load, start_state=level0.start)), (0,)),
        (Counting(levels12.FakeCaller(resume_action=levels12.resume_action, reconcile=levels12.reconcile)), (1, 2)),
    ):
        grading = evaluate_criteria(
            caller,
            CourseConfig(seed=5, levels=levels),
            scratch=scratch / str(levels),
            box=box,
            answers=levels12.RIGHT_ANSWERS,
        )
        assert all(c.passed for c in grading.criteria), [c.id for c in grading.criteria if not c.passed]
        graded.append(caller)
    learner = LIMITS.load_seconds + sum(c.worst_case(LIMITS) for c in graded)
    assert learner > 30  # what the backstop was: a slow honest submission lost every criterion to it
    # The judge's own work (scenarios, tools, the lesson's loop) runs between the calls: a second each, at most.
    assert LIMITS.submission_seconds >= learner + sum(c.budgets + 1 for c in graded)
