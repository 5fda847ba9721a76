"""The grader's result records: what every step after "judge" reads and writes.

Machine-readable shape (``results.json``)::

    {"submissions": [{"submission": <file name>, "score", "max_score",
                      "criteria": [{"id", "passed", "score", "max_score", "feedback"}],
                      "error": <str or null>, "flags": [<str>, ...],
                      "warnings": [<str>, ...], "seed": <int or null>}]}

``flags`` are for the instructor (delegation to lesson3, effects outside execute_tool);
``warnings`` are for the learner (a notebook cell that raised or had a syntax error);
``seed`` reproduces the run's random scenarios (``--seed``).

One part of a class graded with ``--shard I/N`` also has a top-level ``"run"``
record (seed, lang, course_version, shard, total, positions, warnings) that
``autograder merge`` checks: see :mod:`autograder.reporting.shards`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class CriterionResult:
    id: str
    passed: bool
    score: float
    max_score: float
    feedback: str  # Spanish (or English with --lang en): what failed and why, or what passed


@dataclass
class SubmissionResult:
    submission: str  # file name as submitted (e.g. "ana_garcia.ipynb")
    score: float
    max_score: float
    criteria: list[CriterionResult]
    error: str | None = None  # a submission-level problem (syntax error, timeout, ...), else None
    flags: list[str] = field(default_factory=list)  # e.g. "delega en lesson3: reconcile usa lesson3.reconcile"
    warnings: list[str] = field(default_factory=list)  # e.g. "La celda 3 lanzó ZeroDivisionError ..."
    seed: int | None = None
    output: str = ""  # when the learner printed past the cap: the first KBs (the rest was dropped; warnings say so)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> SubmissionResult:
        return cls(
            submission=raw["submission"],
            score=raw["score"],
            max_score=raw["max_score"],
            criteria=[CriterionResult(**c) for c in raw["criteria"]],
            error=raw.get("error"),
            flags=list(raw.get("flags") or []),
            warnings=list(raw.get("warnings") or []),
            seed=raw.get("seed"),
            output=str(raw.get("output") or ""),
        )

    @classmethod
    def from_criteria(
        cls,
        submission: str,
        criteria: list[CriterionResult],
        *,
        error: str | None = None,
        flags: list[str] | None = None,
        warnings: list[str] | None = None,
        seed: int | None = None,
    ) -> SubmissionResult:
        """Score and maximum are the sums over the criteria."""
        return cls(
            submission=submission,
            score=float(sum(c.score for c in criteria)),
            max_score=float(sum(c.max_score for c in criteria)),
            criteria=criteria,
            error=error,
            flags=list(flags or []),
            warnings=list(warnings or []),
            seed=seed,
        )


class GradingInterrupted(KeyboardInterrupt):
    """Ctrl-C during a batch: ``results`` has one record per submission, the unfinished ones marked not graded.

    ``graded`` counts those finished before the interruption. Still a KeyboardInterrupt,
    so a caller that does not know it stops as before.
    """

    def __init__(self, results: list[SubmissionResult], graded: int) -> None:
        super().__init__()
        self.results, self.graded = results, graded
