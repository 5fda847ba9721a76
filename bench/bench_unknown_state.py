"""The is_error text classifier on its labelled corpora: precision, recall, wrong verdicts, share left to review, speed.

Run: .venv/bin/python bench/bench_unknown_state.py [--quick]
Prints figures, asserts nothing. The held-out corpora were written and committed before the
judge changes they measure and are never tuned on: heldout.jsonl (labels true/false) before the
judge, heldout_learners.jsonl (labels right/wrong/ambiguous, issue 28) before the judge read
clauses; dev.jsonl is what the rules were developed on, shown for comparison. A wrong verdict is
a fooled pass or a false fail on a clear text; an ambiguous text is a person's to judge, so its
verdicts are shown and never counted wrong. ``--quick`` times fewer repetitions.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from dataclasses import dataclass
from pathlib import Path

from autograder.judging.unknown_state import assess

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "unknown_state"
CORPORA = ("heldout_learners.jsonl", "heldout.jsonl", "dev.jsonl")
# The newer corpus labels in words and has a third label, for a text only a person can judge.
LABELS: dict[object, bool | None] = {"right": True, "wrong": False, "ambiguous": None, True: True, False: False}


@dataclass
class Figures:
    """Counts over one corpus; review is neither a pass nor a fail."""

    total: int = 0
    labelled_pass: int = 0
    true_pass: int = 0
    false_pass: int = 0
    true_fail: int = 0
    false_fail: int = 0
    review: int = 0
    ambiguous_pass: int = 0
    ambiguous_fail: int = 0
    ambiguous_review: int = 0

    @property
    def clear(self) -> int:
        return self.total - self.ambiguous

    @property
    def ambiguous(self) -> int:
        return self.ambiguous_pass + self.ambiguous_fail + self.ambiguous_review

    @property
    def wrong(self) -> int:
        return self.false_pass + self.false_fail

    def precision(self) -> float:
        """Of the texts judged passing, the share that should pass."""
        judged = self.true_pass + self.false_pass
        return self.true_pass / judged if judged else 1.0

    def recall(self) -> float:
        """Of the texts that should pass, the share judged passing (one left to review is not recalled)."""
        return self.true_pass / self.labelled_pass if self.labelled_pass else 1.0


def measure(rows: list[dict[str, object]]) -> tuple[Figures, list[tuple[str, dict[str, object]]]]:
    figures, mistakes = Figures(), []
    for row in rows:
        label, got = LABELS[row["label"]], assess(str(row["text"]))
        figures.total += 1
        if label is None:
            if got.verdict is None:
                figures.ambiguous_review += 1
            elif got.verdict:
                figures.ambiguous_pass += 1
                mistakes.append((f"ambiguo aprobado ({got.reason})", row))
            else:
                figures.ambiguous_fail += 1
            continue
        figures.labelled_pass += label
        if got.verdict is None:
            figures.review += 1
            mistakes.append((f"revisión ({got.reason})", row))
        elif got.verdict and label:
            figures.true_pass += 1
        elif got.verdict:
            figures.false_pass += 1
            mistakes.append((f"APROBADO POR ERROR ({got.reason})", row))
        elif label:
            figures.false_fail += 1
            mistakes.append((f"SUSPENDIDO POR ERROR ({got.reason})", row))
        else:
            figures.true_fail += 1
    return figures, mistakes


def load(name: str) -> list[dict[str, object]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="menos repeticiones al medir el tiempo")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} · {platform.machine()}")
    for name in CORPORA:
        rows = load(name)
        figures, mistakes = measure(rows)
        ambiguous = f", {figures.ambiguous} ambiguos" if figures.ambiguous else ""
        print(f"\n{name}: {figures.total} textos, {figures.labelled_pass} deben aprobar{ambiguous}")
        print(f"  precisión {figures.precision():.1%} · exhaustividad (recall) {figures.recall():.1%}")
        wrong = f"{figures.false_pass} aprobados por error (engañado), {figures.false_fail} suspendidos por error"
        print(f"  veredictos equivocados {figures.wrong} ({wrong})")
        share = figures.review / figures.clear if figures.clear else 0.0
        print(f"  pendientes de revisión {figures.review} de {figures.clear} textos claros ({share:.1%})")
        if figures.ambiguous:
            print(
                f"  ambiguos: {figures.ambiguous_review} a una persona, {figures.ambiguous_pass} aprobados, "
                f"{figures.ambiguous_fail} suspendidos"
            )
        for what, row in mistakes:
            print(f"    {what}: {row['text']!r} (etiqueta {row['label']}, {row.get('note') or row.get('reason')})")
    texts = [str(row["text"]) for name in CORPORA for row in load(name)]
    repeat = 3 if args.quick else 30
    start = time.perf_counter()
    for _ in range(repeat):
        for text in texts:
            assess(text)
    per_text = (time.perf_counter() - start) / (repeat * len(texts))
    print(f"\ntiempo por texto: {per_text * 1e6:.0f} µs (media de {repeat} pasadas por {len(texts)} textos)")


if __name__ == "__main__":
    main()
