"""Comparing a class for copies: how long fingerprinting and comparing N learners takes, and what it flags.

Run: .venv/bin/python bench/bench_similarity.py [--learners 500]
Prints figures, asserts nothing. The class is made from the suite's honest submissions, each learner
one of them with its variables renamed (what a copy hides behind); the handful of base programs
means many learners share one, so every learner is flagged: the worst case for the comparisons.
"""

from __future__ import annotations

import argparse
import ast
import platform
import random
import time
from pathlib import Path

from autograder.grading.similarity import fingerprint, flags, lesson3_references, starter_counts
from autograder.intake.submission import load_submission
from autograder.wire.calls import FUNCTIONS

ROOT = Path(__file__).resolve().parent.parent
BASES = ("good.py", "tool_result_then_text.py", "tuned.py", "production.py", "resume_turns_reset.py")


class _Disguise(ast.NodeTransformer):
    """Renames every name a graded function binds."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.names = rng, {}

    def _new(self, name: str) -> str:
        return self.names.setdefault(name, f"v{self.rng.randrange(10**6)}_{len(self.names)}")

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self._new(node.arg)
        return node

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.names or isinstance(node.ctx, ast.Store):
            node.id = self._new(node.id)
        return node


def disguised(source: str, rng: random.Random) -> str:
    tree = ast.parse(source)
    for function in tree.body:
        if isinstance(function, ast.FunctionDef) and function.name in FUNCTIONS:
            _Disguise(rng).visit(function)
    return ast.unparse(tree)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=500)
    args = parser.parse_args()
    rng = random.Random(3)
    bases = [(ROOT / "tests" / "data" / "submissions" / name).read_text(encoding="utf-8") for name in BASES]
    sources = [disguised(rng.choice(bases), rng) for _ in range(args.learners)]
    starter_cells = load_submission(ROOT / "notebooks" / "04_ejercicios.ipynb").cells
    starter = starter_counts("\n".join(cell.source for cell in starter_cells), FUNCTIONS)
    start = time.perf_counter()
    prints = [fingerprint(source, FUNCTIONS, starter) for source in sources]
    fingerprinted = time.perf_counter()
    found = flags(prints, lesson3_references())
    compared = time.perf_counter()
    flagged = len({f.learner for f in found})
    print(f"{args.learners} learners on {platform.machine()}, Python {platform.python_version()}")
    print(f"fingerprints: {fingerprinted - start:.2f} s; comparisons: {compared - fingerprinted:.2f} s")
    print(f"total: {compared - start:.2f} s; learners flagged: {flagged}; flags: {len(found)}")


if __name__ == "__main__":
    main()
