"""A class in parts: one machine (N=1, --jobs 2) against two parts (N=2, --jobs 1 each, at once) and their merge.

Prints figures, asserts nothing. Each configuration runs the real command
(``python -m autograder``) as a separate process, the way a cluster would, so start-up
costs count; the two parts share this machine's cores, so N=2 here measures the cost of
splitting, not the speed-up of a second machine. The class is bench_grading's mix.

    .venv/bin/python bench/bench_shards.py            # 60 submissions
    .venv/bin/python bench/bench_shards.py --quick    # 4 submissions (run by the tests)
"""

from __future__ import annotations

import argparse
import filecmp
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_grading import KINDS, generate  # one generator of classes for every bench

from autograder.reporting import results_json


def autograder(*args: str | Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "autograder", *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def wait(*procs: subprocess.Popen[bytes]) -> None:
    for proc in procs:
        _, err = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"autograder terminó con {proc.returncode}: {err.decode(errors='replace')[-2000:]}")


def differing_reports(a: Path, b: Path) -> list[str]:
    """Files that differ between two report folders (none when the merge reproduced the one-machine run)."""
    files = {str(p.relative_to(a)) for p in a.rglob("*") if p.is_file()}
    other = {str(p.relative_to(b)) for p in b.rglob("*") if p.is_file()}
    return sorted((files ^ other) | {f for f in files & other if not filecmp.cmp(a / f, b / f, shallow=False)})


def verdicts(folder: Path) -> dict[str, object]:
    return {
        e.source: (e.result.score, [(c.id, c.passed, c.score) for c in e.result.criteria])
        for e in results_json.read(folder).entries
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=60, help="número de entregas generadas")
    parser.add_argument("--quick", action="store_true", help="solo 4 entregas, una de cada tipo")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    n = len(KINDS) if args.quick else args.n
    seed = str(args.seed)

    print(f"Python {platform.python_version()} · {os.cpu_count()} núcleos · {platform.machine()}")
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as tmp:
        root = Path(tmp)
        (root / "clase").mkdir()
        generate(root / "clase", n)
        print(f"{n} entregas generadas")

        start = time.perf_counter()
        wait(autograder("grade", root / "clase", "--out", root / "una", "--seed", seed, "--jobs", "2"))
        one = time.perf_counter() - start

        parts = [root / f"parte-{i}" for i in (1, 2)]
        start = time.perf_counter()
        wait(
            *(
                autograder("grade", root / "clase", "--out", part, "--seed", seed, "--jobs", "1", "--shard", f"{i}/2")
                for i, part in enumerate(parts, 1)
            )
        )
        graded = time.perf_counter() - start
        start = time.perf_counter()
        wait(autograder("merge", *parts, "--out", root / "junta"))
        merged = time.perf_counter() - start

        print()
        print(f"{'N':>2} {'jobs/parte':>10} {'calificar':>10} {'juntar':>8} {'total':>8} {'entregas/s':>10}")
        print(f"{1:>2} {2:>10} {one:>9.2f}s {'—':>8} {one:>7.2f}s {n / one:>10.2f}")
        total = graded + merged
        print(f"{2:>2} {1:>10} {graded:>9.2f}s {merged:>7.2f}s {total:>7.2f}s {n / total:>10.2f}")
        same = verdicts(root / "una") == verdicts(root / "junta")
        print(f"\nveredictos y puntajes iguales a los de una máquina: {'sí' if same else 'NO'}")
        differ = differing_reports(root / "una", root / "junta")
        print(f"archivos idénticos byte a byte: {'no' if differ else 'sí'}")
        for name in differ:
            # A feedback that quotes a measured time (e.g. a loop stopped after 1.95 s) differs between any two runs.
            print(f"  difiere: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
