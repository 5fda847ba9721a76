"""The grader's result records: what every step after "judge" reads and writes.

Machine-readable shape (``results.json``)::

    {"submissions": [{"submission": <file name>, "score", "max_score",
                      "criteria": [{"id", "passed", "score", "max_score", "feedback"}],
                      "error": <str or null>, "flags": [<str>, ...]}]}
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

CRITERIA_IDS = (
    "nivel1.cpA",
    "nivel1.cpB",
    "nivel1.cpC",
    "nivel1.hidden",
    "nivel2.read_only_rerun",
    "nivel2.high_impact_not_rerun",
    "nivel2.is_error_fallback",
    "nivel2.tool_result_paired",
    "nivel2.no_double_email",
)


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
    flags: list[str] = field(default_factory=list)  # e.g. "delegates to lesson3.reconcile"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
