"""bench/bench_check.py still runs (one run of each mode); its figures are printed, never asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parent.parent / "bench" / "bench_check.py"

pytestmark = pytest.mark.slow  # fresh interpreters that start the grader: seconds each


def test_the_check_bench_runs_quick() -> None:
    command = [sys.executable, str(BENCH), "--quick", "--reading", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    labels = [line.split()[0] for line in done.stdout.splitlines()[1:]]
    assert labels == ["restart", "cold", "first-cell", "warm"], done.stdout
