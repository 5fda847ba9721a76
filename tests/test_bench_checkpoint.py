"""bench/bench_checkpoint.py still runs (tiny sizes); its figures are printed, never asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parent.parent / "bench" / "bench_checkpoint.py"

pytestmark = pytest.mark.slow  # real grading runs and benches: seconds each


def test_the_checkpoint_bench_runs_quick() -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    table = [line.split() for line in lines if line.strip() and line.split()[0] in ("2", "10")]
    assert [row[0] for row in table] == ["2", "10"]
    assert all(len(row) == 7 and row[-2].endswith("%") for row in table)
    assert any("en frío" in line for line in lines) and any("en caliente" in line for line in lines)
    assert "correos en la bandeja al final: 1" in done.stdout
