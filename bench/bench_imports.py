"""Import-time figures: what each entry point costs before it does anything.

Run: .venv/bin/python bench/bench_imports.py [--quick]
Prints figures, asserts nothing. Each import runs in a fresh interpreter; the figure is
the median wall-clock time of ``python -c "import X"`` minus an empty interpreter's,
and whether the Anthropic SDK came with it. ``--quick`` runs each once (the test suite
runs it so it cannot rot).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

ENTRIES = (
    ("autograder.cli", "autograder --help, usage errors"),
    ("autograder.grading.pipeline", "the grader's process during autograder grade"),
    ("autograder.reporting.report", "writing the reports"),
    ("lesson3", "a notebook's first import"),
    ("lesson3.checkpoint", "save/load only"),
    ("autograder.judging.process", "a judge (preloaded once in the zygote)"),
    ("lesson3.agent", "the agent loop, with the SDK"),
)
PROBE = (
    "import sys, time; t = time.perf_counter(); import {module}; "
    "print(time.perf_counter() - t, 'anthropic' in sys.modules)"
)


def measure(module: str, runs: int) -> tuple[float, float, bool]:
    """(median seconds of the import itself, median seconds of the whole process, SDK loaded)."""
    inner, whole, sdk = [], [], False
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", PROBE.format(module=module)], capture_output=True, text=True)
        whole.append(time.perf_counter() - started)
        seconds, loaded = done.stdout.split()
        inner.append(float(seconds))
        sdk = loaded == "True"
    return statistics.median(inner), statistics.median(whole), sdk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    runs = 1 if parser.parse_args().quick else 5
    print(f"{'import':<22} {'import (s)':>10} {'process (s)':>11}  SDK  used by")
    for module, used_by in ENTRIES:
        inner, whole, sdk = measure(module, runs)
        print(f"{module:<22} {inner:>10.3f} {whole:>11.3f}  {'sí' if sdk else 'no':<3}  {used_by}")


if __name__ == "__main__":
    main()
