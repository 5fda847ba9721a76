"""README's «Limits» table states every field of ``Limits`` with its value, and quotes what the learner sees.

The numbers are parsed from the table and compared to ``Limits()``; the «quotes» must be
what the grader's messages say with those values. Changing a limit without its row (or
a message without its quote) fails here.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from dataclasses import fields
from pathlib import Path

import pytest
from test_autograder_checks import OneByOne

from autograder.course.catalogue import text
from autograder.course.config import CourseConfig
from autograder.intake.submission import cell_label
from autograder.judging.process import evaluate_criteria
from autograder.reporting.report import FEEDBACK_OUTPUT_KB
from autograder.wire.limits import Limits

README = Path(__file__).resolve().parent.parent / "README.md"
LIMITS = Limits()

ROWS: dict[str, list[tuple[str, str]]] = {
    "Load": [("load_seconds", "s")],
    "Each call": [("call_seconds", "s")],
    "All calls of one criterion": [("check_seconds", "s")],
    "CPU time": [("cpu_seconds", "s")],
    "Memory": [("memory_mb", "MB")],
    "Output": [("output_kb", "KB")],
    "Disk": [("disk_mb", "MB"), ("disk_files", "files"), ("file_mb", "MB")],
    "Threads": [("threads", "")],
    "Processes": [("processes", "")],
    "Whole submission": [("submission_seconds", "s")],
}
"""Each row, by how its first cell starts: the fields its «Default» cell states, in order, with their unit."""

WHAT = text("what.call", "es", fn="resume_action")
SAID: dict[str, list[str]] = {
    "Load": [
        text("load.cell_timeout", "es", cell=cell_label(3, "while True:\n    pass", "es")),
        text("load.statement_timeout", "es", line=12, seconds=LIMITS.load_seconds),
    ],
    "Each call": [text("fail.call_timeout", "es", what=WHAT, limit=LIMITS.call_seconds)],
    "All calls of one criterion": [text("fail.budget", "es", what=WHAT, limit=LIMITS.check_seconds)],
    "CPU time": [text("fail.cpu", "es", what=WHAT)],
    "Output": [text("load.output_cut", "es", kb=LIMITS.output_kb)],
    "Disk": [text("fail.disk", "es", what=WHAT, limit=LIMITS.disk_mb, detail=LIMITS.disk_files)],
    "Threads": [text("load.process_hint", "es"), "can't start new thread"],  # the latter is Python's own
    "Processes": [text("load.process_hint", "es")],
    "Whole submission": [text("internal.timeout", "es", seconds=LIMITS.submission_seconds)],
}
"""What the learner is told when each limit is hit, rendered from the catalogue with the limits' values."""

OTHER_NUMBERS = {"Output": [(FEEDBACK_OUTPUT_KB, "KB")]}
"""Values a row's last cell may state that are not limits (how much of the output the feedback shows)."""

_NUMBER = re.compile(r"(\d+(?:\.\d+)?)(?:\s*(s|MB|KB|files|archivos)\b)?")


def table() -> dict[str, list[str]]:
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("**Limits** (`autograder.wire.limits.Limits`") :]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] in ("Limit", "---"):
            continue
        (name,) = [n for n in ROWS if cells[0].startswith(n)] or [cells[0]]
        rows[name] = cells
    return rows


def numbers(cell: str, *, with_unit: bool = False) -> list[tuple[float, str]]:
    found = [(float(n), {"archivos": "files"}.get(u, u)) for n, u in _NUMBER.findall(cell)]
    return [(n, u) for n, u in found if u or not with_unit]


def test_every_limit_has_a_row_and_every_row_a_limit():
    assert sorted(table()) == sorted(ROWS)
    stated = sorted(f for row in ROWS.values() for f, _ in row)
    assert stated == sorted(f.name for f in fields(Limits))


@pytest.mark.parametrize("row", ROWS)
def test_the_default_column_states_the_values_in_limits(row):
    cells = table()[row]
    expected = [(float(getattr(LIMITS, field)), unit) for field, unit in ROWS[row]]
    assert numbers(cells[1]) == expected, cells[1]


@pytest.mark.parametrize("row", ROWS)
def test_what_the_learner_sees_uses_the_same_values_and_the_real_messages(row):
    cells = table()[row]
    allowed = {(float(getattr(LIMITS, f)), u) for f, u in ROWS[row]} | set(OTHER_NUMBERS.get(row, []))
    for value in numbers(cells[2], with_unit=True):
        assert value in allowed, (row, value, cells[2])
    for quote in re.findall(r"«([^»]+)»", cells[2]):
        said = quote.replace("`", "").rstrip("…")
        assert any(said in message for message in SAID.get(row, [])), (row, quote)


# -- the backstop comes last -----------------------------------------------------------------------


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

    def call(self, fn, arg, *, on_tool=None):
        self.opened.append(self.open)
        return self.caller.call(fn, arg, on_tool=on_tool)

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
