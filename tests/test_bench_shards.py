"""bench/bench_shards.py still runs (4 submissions); its figures are printed, never asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # real grading runs and benches: seconds each

BENCH = Path(__file__).parent.parent / "bench" / "bench_shards.py"


def test_the_shards_bench_runs_quick() -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.split()[:1] in (["1"], ["2"])]
    assert [row[0] for row in rows] == ["1", "2"]
    assert all(len(row) == 6 and row[2].endswith("s") for row in rows)
    # Figures, not verdicts on speed or load: the comparison lines are printed, whatever they say.
    assert "veredictos y puntajes iguales a los de una máquina:" in done.stdout
    assert "archivos idénticos byte a byte:" in done.stdout
