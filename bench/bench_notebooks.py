"""Wall time of each committed notebook, run top to bottom with nbclient (target: < 4 s each on 2 cores).

Prints figures, asserts nothing about speed: machines differ. It exits non-zero only when a
notebook fails to run, because then its time means nothing.

    .venv/bin/python bench/bench_notebooks.py                 # every notebook under notebooks/
    .venv/bin/python bench/bench_notebooks.py --quick         # only the shortest one
    .venv/bin/python bench/bench_notebooks.py path/to/nb.ipynb ...
    .venv/bin/python bench/bench_notebooks.py --cold            # no grader running before each notebook

This process plays JupyterLab's server (the kernels' parent): by default check()'s grader is started once, before
the first notebook, as the server extension does when JupyterLab starts (autograder.server_extension); ``--cold``
stops it before each notebook instead (nbval, or a Jupyter without the extension, before the first check()).

Each notebook runs in a temporary copy of its folder, so what it writes (workspaces,
checkpoints) never lands in the repository, and sequentially, so runs do not compete for the
two cores. The time includes starting and stopping the kernel, as a learner's "Run All" would
after opening the notebook.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

from autograder.grading.resident import resident_folder, stop_resident
from autograder.server_extension import start_resident

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
TARGET_S = 4.0
CELL_TIMEOUT_S = 300
SLOWEST_CELLS = 3


@dataclass
class NotebookTiming:
    path: Path
    seconds: float
    code_cells: int
    error: str | None = None
    slowest: list[tuple[float, int, str]] = field(default_factory=list)
    startup: float | None = None
    """From the start of the run to the first cell's input: starting the kernel."""
    shutdown: float | None = None
    """From the last cell's reply to the end of the run: stopping the kernel (interpreter teardown)."""


def committed_notebooks(root: Path = NOTEBOOKS) -> list[Path]:
    return sorted(p for p in root.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _cell_span(cell: nbformat.NotebookNode) -> tuple[float, float] | None:
    """(start, end) as epoch seconds, from what nbclient records in the cell's metadata (record_timing)."""
    timing = cell.get("metadata", {}).get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return None
    parse = datetime.fromisoformat
    return parse(start.replace("Z", "+00:00")).timestamp(), parse(end.replace("Z", "+00:00")).timestamp()


def _cell_seconds(cell: nbformat.NotebookNode) -> float | None:
    span = _cell_span(cell)
    return None if span is None else span[1] - span[0]


def time_notebook(path: Path) -> NotebookTiming:
    nb = nbformat.read(path, as_version=4)
    code_cells = sum(cell.cell_type == "code" for cell in nb.cells)
    with tempfile.TemporaryDirectory(prefix="bench-nb-") as tmp:
        workdir = Path(tmp) / path.parent.name
        shutil.copytree(path.parent, workdir, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        client = NotebookClient(
            nb,
            timeout=CELL_TIMEOUT_S,
            kernel_name=nb.metadata.get("kernelspec", {}).get("name", "python3"),
            resources={"metadata": {"path": str(workdir)}},
            record_timing=True,
        )
        error = None
        started, wall_start = time.perf_counter(), time.time()
        try:
            client.execute()
        except (CellExecutionError, CellTimeoutError, DeadKernelError) as exc:
            # CellExecutionError ends with the cell's "Name: message"; keep just that line.
            lines = str(exc).strip().splitlines() or [""]
            error = f"{type(exc).__name__}: {lines[-1]}"
        seconds = time.perf_counter() - started
        wall_end = time.time()
    spans = [span for cell in nb.cells if cell.cell_type == "code" and (span := _cell_span(cell))]
    startup = spans[0][0] - wall_start if spans else None
    shutdown = wall_end - spans[-1][1] if spans else None
    slowest = []
    for index, cell in enumerate(nb.cells):
        cell_s = _cell_seconds(cell) if cell.cell_type == "code" else None
        if cell_s is not None:
            first_line = next((line for line in cell.source.splitlines() if line.strip()), "")
            slowest.append((cell_s, index, first_line[:60]))
    slowest.sort(reverse=True)
    return NotebookTiming(path, seconds, code_cells, error, slowest[:SLOWEST_CELLS], startup, shutdown)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks to time (default: all under notebooks/)")
    parser.add_argument("--quick", action="store_true", help="time only the notebook with the fewest code cells")
    parser.add_argument("--cold", action="store_true", help="no check() grader running before each notebook")
    args = parser.parse_args(argv)

    # Figures for the offline course; never the live API, whatever the shell has exported.
    os.environ.pop("LESSON3_LIVE", None)

    paths = args.notebooks or committed_notebooks()
    missing = [p for p in paths if not p.is_file()]
    if missing:
        print(f"no such notebook: {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    if not paths:
        print(f"no notebooks under {NOTEBOOKS}", file=sys.stderr)
        return 2
    if args.quick:
        paths = [min(paths, key=lambda p: sum(c.cell_type == "code" for c in nbformat.read(p, as_version=4).cells))]

    grader = "none before each notebook" if args.cold else "started as JupyterLab starts"
    print(f"{len(paths)} notebook(s), sequential, target < {TARGET_S:.0f} s each, {os.cpu_count()} CPU(s)")
    print(f"check()'s grader: {grader}")
    folder = resident_folder(os.getpid())
    if not args.cold:
        start_resident()
    timings = []
    for path in paths:
        if args.cold:
            stop_resident(folder)
        timing = time_notebook(path)
        timings.append(timing)
        verdict = "FAILED" if timing.error else ("ok" if timing.seconds < TARGET_S else "OVER TARGET")
        print(f"{timing.seconds:7.2f} s  {verdict:<11}  {_display(path)}  ({timing.code_cells} code cells)")
        if timing.error:
            print(f"           {timing.error}")
        if timing.startup is not None and timing.shutdown is not None:
            cells_s = timing.seconds - timing.startup - timing.shutdown
            print(
                f"           kernel start {timing.startup:5.2f} s · cells {cells_s:5.2f} s · "
                f"kernel stop {timing.shutdown:5.2f} s"
            )
        for cell_s, index, first_line in timing.slowest:
            print(f"           cell {index:>3}: {cell_s:6.2f} s  {first_line}")
    stop_resident(folder)
    total = sum(t.seconds for t in timings)
    print(f"{total:7.2f} s  total; slowest {max(t.seconds for t in timings):.2f} s")
    return 1 if any(t.error for t in timings) else 0


if __name__ == "__main__":
    sys.exit(main())
