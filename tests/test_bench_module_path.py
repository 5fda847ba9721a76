"""bench/bench_module_path.py still traces a real grading, and its tracer leaves the grade alone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # two real gradings under a profiler

BENCH = Path(__file__).parent.parent / "bench" / "bench_module_path.py"


def test_the_module_path_bench_traces_both_processes_of_a_full_marks_grading() -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--pairs", "3"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    score = re.search(r"Level 1: (\S+)/(\S+) points", done.stdout)
    assert score and score.group(1) == score.group(2) != "0"  # traced, the correct submission keeps full marks
    rows = dict(re.findall(r"^  (grader's process|judging process)\s+\d+ modules\s+(\d+) changes", done.stdout, re.M))
    assert int(rows["grader's process"]) > 0 and int(rows["judging process"]) > 0
    assert len(re.findall(r"^\s+\d+\s+\S+ -> \S+$", done.stdout, re.M)) == 3
