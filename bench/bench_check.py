"""check()'s speed as a learner feels it: its first call after a kernel restart, and the calls after it.

Prints figures, asserts nothing. Each run defines a correct submission's functions (tests/data/submissions/good.py)
the way a notebook cell does, then times check() on every level (``from autograder import check`` included), twice:

- ``restart``: a real Jupyter kernel, restarted, then the definitions cell and the check() cell at once. This
  process is the kernel's Jupyter server: the grader the kernel before the restart used is still running for it
  (:mod:`autograder.grading.resident`), as in JupyterLab;
- ``cold``: a fresh interpreter outside any kernel, so no grader is running: the first check() of a Jupyter
  session whose notebook did not call ``autograder.warm_up()``;
- ``first-cell``: the same, after the notebook's first cell (``autograder.warm_up()``) and ``--reading`` seconds
  of the learner reading and writing;
- ``warm``: the second check() of the same interpreter or kernel.

    .venv/bin/python bench/bench_check.py              # 5 runs of each, alternated
    .venv/bin/python bench/bench_check.py --quick      # 1 run of each (run by the tests)

``PYTHONPATH=/another/checkout`` times that checkout's code with this interpreter (before/after comparisons).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

GOOD = Path(__file__).resolve().parents[1] / "tests" / "data" / "submissions" / "good.py"

PROBE = """
import contextlib, io, linecache, sys, time

mode, reading, source = sys.argv[1], float(sys.argv[2]), open(sys.argv[3], encoding="utf-8").read()
if mode == "first-cell":
    import autograder

    autograder.warm_up()
    time.sleep(reading)
namespace = {"__name__": "__main__"}
filename = "<ipython-input-2-bench>"
linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
exec(compile(source, filename, "exec"), namespace)
started = time.perf_counter()
from autograder import check

with contextlib.redirect_stdout(io.StringIO()):
    result = check(namespace=namespace)
first = time.perf_counter() - started
started = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    check(namespace=namespace)
print(first, time.perf_counter() - started, result.score, result.max_score)
"""

KERNEL_PROBE = """
import contextlib, io, time
started = time.perf_counter()
from autograder import check

with contextlib.redirect_stdout(io.StringIO()):
    result = check()
first = time.perf_counter() - started
started = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    check()
from autograder.grading.resident import notebook_server

print(first, time.perf_counter() - started, result.score, result.max_score, notebook_server().folder)
"""


class RestartedKernel:
    """A Jupyter kernel this process owns (as JupyterLab's server does), restarted before every timing."""

    def __init__(self) -> None:
        from jupyter_client.manager import start_new_kernel

        self.km, self.kc = start_new_kernel(kernel_name="python3", cwd="/tmp")
        self.folder: str | None = None

    def run(self, source: str) -> tuple[float, float]:
        self.km.restart_kernel(now=True)
        self.kc.wait_for_ready(timeout=120)
        self.execute(source)
        *_, first, warm, score, max_score, self.folder = self.execute(KERNEL_PROBE).split()
        if score != max_score:
            raise SystemExit(f"good.py scored {score}/{max_score}: the figures would time a failing grade")
        return float(first), float(warm)

    def execute(self, code: str) -> str:
        msg_id = self.kc.execute(code)
        out: list[str] = []
        while True:
            message = self.kc.get_iopub_msg(timeout=300)
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = message["msg_type"], message["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                raise SystemExit("the kernel failed:\n" + "\n".join(content["traceback"])[:3000])
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(out)

    def close(self) -> None:
        from autograder.grading.resident import stop_resident

        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)
        if self.folder:
            stop_resident(Path(self.folder))


def run(mode: str, reading: float) -> tuple[float, float]:
    """(first check() in seconds, second check() in seconds) of one fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode, str(reading), str(GOOD)], capture_output=True, text=True, cwd="/tmp"
    )
    if done.returncode != 0:
        raise SystemExit(f"the {mode} run failed:\n{done.stderr[:3000]}")
    first, warm, score, max_score = done.stdout.split()[-4:]
    if score != max_score:
        raise SystemExit(f"good.py scored {score}/{max_score}: the figures would time a failing grade")
    return float(first), float(warm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reading", type=float, default=5.0, help="seconds between the first cell and check()")
    parser.add_argument("--modes", default="restart,cold,first-cell", help="any of restart, cold, first-cell")
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    modes = args.modes.split(",")
    figures: dict[str, list[float]] = {mode: [] for mode in [*modes, "warm"]}
    kernel = RestartedKernel() if "restart" in modes else None
    try:
        if kernel is not None:
            kernel.run(GOOD.read_text(encoding="utf-8"))  # the kernel before the restart: it starts the grader
        for _ in range(runs):
            for mode in modes:  # alternated: a machine shared with other work drifts between runs
                if mode == "restart" and kernel is not None:
                    first, warm = kernel.run(GOOD.read_text(encoding="utf-8"))
                else:
                    first, warm = run(mode, args.reading)
                figures[mode].append(first)
                figures["warm"].append(warm)
    finally:
        if kernel is not None:
            kernel.close()
    where = os.environ.get("PYTHONPATH") or "this checkout"
    print(f"check() on every level, good.py, {runs} run(s) of each, {os.cpu_count()} CPU(s), code: {where}")
    for mode, seconds in figures.items():
        label = f"{mode} (after {args.reading:g} s of reading)" if mode == "first-cell" else mode
        print(f"  {label:<34} median {statistics.median(seconds):5.2f} s  ({min(seconds):.2f}-{max(seconds):.2f})")


if __name__ == "__main__":
    main()
