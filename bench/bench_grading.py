"""Grading speed: generated submissions graded at --jobs 1 and --jobs 2.

Prints figures, asserts nothing. The mix is what a real class hands in: correct
answers, the incident's production reconcile, wrong answers, and code stuck in an
infinite loop (which must cost its time limit, not minutes).

    .venv/bin/python bench/bench_grading.py            # 100 submissions
    .venv/bin/python bench/bench_grading.py --quick    # 4 submissions (run by the tests)
    .venv/bin/python bench/bench_grading.py --n 20 --against DIR --rounds 8   # this checkout against another

``--against DIR`` compares this checkout with the one in DIR (another commit, e.g. a ``git archive`` of it),
on a machine that other work may share: each round grades the same ``--n`` submissions at --jobs 1 in a
fresh interpreter of each checkout, one after the other (the order swapped every round), and prints each
run's median per submission, the median of those, and the ratio of this checkout's to DIR's, with the load
average each run started under. A checkout from before the grader's modules moved into packages (its
pipeline at the package's top) is timed too.

Per-submission latency is the wall time of each ``grade_submission`` call, with
``jobs`` calls in flight at once; throughput is submissions per second of one
``grade_many`` call over the whole set, the way ``autograder grade`` runs them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from autograder.course.config import CourseConfig

# "Move one" from the lesson: delete the dangling assistant message.
WRONG = """
def resume_action(cp):
    return "continue"

def reconcile(cp):
    cp["messages"].pop()
    cp["pendingToolUse"] = None
    return cp
"""

LOOP = """
def resume_action(cp):
    while True:
        pass

def reconcile(cp):
    while True:
        pass
"""

# The correct and production answers are the test suite's sample submissions: one copy of each.
SAMPLES = Path(__file__).resolve().parent.parent / "tests" / "data" / "submissions"
KINDS = {
    "correct": (SAMPLES / "good.py").read_text(encoding="utf-8"),
    "production": (SAMPLES / "production.py").read_text(encoding="utf-8"),
    "wrong": WRONG,
    "loop": LOOP,
}
MIX = {"correct": 40, "production": 25, "wrong": 25, "loop": 10}  # per 100


def generate(directory: Path, n: int) -> list[tuple[str, Path]]:
    """``n`` submissions in the mix's proportions, interleaved so every batch sees every kind."""
    counts = {kind: max(1, round(n * share / 100)) for kind, share in MIX.items()}
    while sum(counts.values()) > n:
        counts[max(counts, key=counts.get)] -= 1  # type: ignore[arg-type]
    while sum(counts.values()) < n:
        counts["correct"] += 1
    order: list[str] = []
    remaining = dict(counts)
    while any(remaining.values()):
        for kind in KINDS:
            if remaining[kind]:
                order.append(kind)
                remaining[kind] -= 1
    out = []
    for i, kind in enumerate(order):
        path = directory / f"alumno_{i:03d}_{kind}.py"
        path.write_text(KINDS[kind], encoding="utf-8")
        out.append((kind, path))
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def describe(values: list[float]) -> str:
    return (
        f"mediana {statistics.median(values):6.3f} s · p90 {percentile(values, 0.9):6.3f} s · máx {max(values):6.3f} s"
    )


def bench(subs: list[tuple[str, Path]], jobs: int, seed: int) -> None:
    from autograder.grading.pipeline import grade_many, grade_submission

    latencies: dict[str, list[float]] = {kind: [] for kind in KINDS}

    def timed(item: tuple[str, Path]) -> None:
        kind, path = item
        start = time.perf_counter()
        grade_submission(path, CourseConfig(seed=seed))
        latencies[kind].append(time.perf_counter() - start)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(timed, subs))

    start = time.perf_counter()
    results = grade_many([p for _, p in subs], CourseConfig(seed=seed), jobs=jobs)
    wall = time.perf_counter() - start

    every = [x for values in latencies.values() for x in values]
    print(f"\n--jobs {jobs}: {len(subs)} entregas")
    print(f"  latencia por entrega (todas):  {describe(every)}")
    for kind, values in latencies.items():
        if values:
            print(f"    {kind:<11} ({len(values):3d}):       {describe(values)}")
    print(f"  rendimiento (grade_many):      {len(subs) / wall:6.2f} entregas/s ({wall:.2f} s en total)")
    scores: dict[str, list[float]] = {}
    for (kind, _), r in zip(subs, results, strict=True):
        scores.setdefault(kind, []).append(r.score / r.max_score if r.max_score else 0.0)
    print("  puntaje medio por tipo:        " + ", ".join(f"{k} {statistics.fmean(v):.0%}" for k, v in scores.items()))


def pathological(directory: Path, seed: int) -> None:
    """A 20,000-line cell of shell escapes, then a correct answer: bounded by the limits, graded in full."""
    from autograder.grading.pipeline import grade_submission

    cells = ["\n".join(["!a"] * 20000), KINDS["correct"]]
    notebook = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            {"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [], "source": src}
            for i, src in enumerate(cells)
        ],
    }
    path = directory / "patologico.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    start = time.perf_counter()
    result = grade_submission(path, CourseConfig(seed=seed))
    took = time.perf_counter() - start
    print(f"\ncuaderno patológico (20.000 líneas «!a», {path.stat().st_size // 1024} KB): {took:.2f} s,")
    print(f"  puntaje {result.score:g}/{result.max_score:g}")


CHILD = """
import json, sys, time
from pathlib import Path
paths = [Path(p) for p in json.loads(sys.argv[1])]
seed = int(sys.argv[2])
try:
    from autograder.course.config import CourseConfig
    from autograder.grading.pipeline import grade_submission as _grade

    def grade(path): return _grade(path, CourseConfig(seed=seed))
except ImportError:  # a checkout from before the grader's packages
    from autograder.pipeline import grade_submission as _grade

    def grade(path): return _grade(path, seed=seed)
import autograder
grade(paths[0])  # the one-off start-up, apart
seconds = []
for path in paths:
    started = time.perf_counter()
    grade(path)
    seconds.append(time.perf_counter() - started)
print(json.dumps({"seconds": seconds, "package": autograder.__file__}))
"""


def against(subs: list[tuple[str, Path]], other: Path, rounds: int, seed: int) -> None:
    """Alternate runs of this checkout and ``other`` on the same submissions; medians and their ratio."""
    import subprocess

    here = Path(__file__).resolve().parents[1]
    runs: dict[Path, list[float]] = {here: [], other: []}
    paths = json.dumps([str(p) for _, p in subs])
    print(f"\n--against {other}: {rounds} rondas alternadas, {len(subs)} entregas cada una, --jobs 1")
    for i in range(rounds):
        for root in (here, other) if i % 2 == 0 else (other, here):
            load = os.getloadavg()[0]
            done = subprocess.run(
                [sys.executable, "-c", CHILD, paths, str(seed)],
                capture_output=True,
                text=True,
                cwd=root,
                env={**os.environ, "PYTHONPATH": str(root)},
                check=True,
            )
            report = json.loads(done.stdout.splitlines()[-1])
            if not Path(report["package"]).resolve().is_relative_to(root):
                raise SystemExit(f"{root}: the run imported {report['package']}, not that checkout's package")
            runs[root].append(statistics.median(report["seconds"]))
            who = "este" if root == here else "otro"
            print(f"  ronda {i + 1} {who}: mediana {runs[root][-1]:.3f} s (carga {load:.1f})")
    mine, theirs = statistics.median(runs[here]), statistics.median(runs[other])
    pairs = [a / b for a, b in zip(runs[here], runs[other], strict=True)]
    print(f"  este checkout: mediana de las medianas {mine:.3f} s; el otro: {theirs:.3f} s; razón {mine / theirs:.2f}")
    print(f"  razón ronda a ronda: mediana {statistics.median(pairs):.2f} ({min(pairs):.2f}-{max(pairs):.2f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=100, help="número de entregas generadas")
    parser.add_argument("--quick", action="store_true", help="solo 4 entregas, una de cada tipo")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="valores de --jobs a medir")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--against", type=Path, help="otro checkout: corridas alternadas y la razón de medianas")
    parser.add_argument("--rounds", type=int, default=6, help="rondas de --against")
    args = parser.parse_args(argv)
    n = len(KINDS) if args.quick else args.n

    print(f"Python {platform.python_version()} · {os.cpu_count()} núcleos · {platform.machine()}")
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        subs = generate(Path(tmp), n)
        mix = ", ".join(f"{k} {sum(1 for kind, _ in subs if kind == k)}" for k in KINDS)
        print(f"{n} entregas generadas: {mix}")
        if args.against is not None:
            against(subs, args.against.resolve(), args.rounds, args.seed)
            return 0
        start = time.perf_counter()
        from autograder.grading.pipeline import grade_submission

        # The first grading pays the one-off start-up (fork server, heavy imports); report it apart.
        grade_submission(subs[0][1], CourseConfig(seed=args.seed))
        print(f"arranque (primera entrega, una sola vez): {time.perf_counter() - start:.2f} s")
        for jobs in args.jobs:
            bench(subs, jobs, args.seed)
        pathological(Path(tmp), args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
