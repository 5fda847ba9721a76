"""The grader's result records: what every step after "judge" reads and writes.

Machine-readable shape (``results.json``)::

    {"submissions": [{"submission": <file name>, "score", "max_score",
                      "criteria": [{"id", "passed", "score", "max_score", "feedback",
                                    "review"?, "decision"?}],
                      "error": <str or null>, "flags": [<str>, ...],
                      "warnings": [<str>, ...], "seed": <int or null>,
                      "moves"?: {<tool kind>: [<move>, ...]}}]}

``flags`` are for the instructor (delegation to lesson3, effects outside execute_tool);
``warnings`` are for the learner (a notebook cell that raised or had a syntax error);
``seed`` reproduces the run's random scenarios (``--seed``).
``moves`` (only when Level 2 was observed) says which of the lesson's moves the learner's
``reconcile`` made on a dangling call of each tool kind (:data:`MOVES`, classified by
:mod:`autograder.judging.moves`): the class's misconception map in resumen.html counts them.

A criterion no rule could decide is **left to a person**: ``"passed": null, "score": null,
"review": true``; its points are pending, neither 0 nor full marks. The submission's ``score``
is then over the decided criteria and ``pending`` holds the points still to decide. A person's
decision (``autograder review --apply``) sets ``passed`` and ``score`` and records
``"decision": {"by", "at", "why", "was"}``; ``sha256`` (the graded file's bytes) keys it.

One part of a class graded with ``--shard I/N`` also has a top-level ``"run"``
record (seed, lang, course_version, shard, total, positions, warnings) that
``autograder merge`` checks: see :mod:`autograder.classrun.shards`. A results.json is read back
only by :mod:`autograder.reporting.results_json`, which checks it against this shape.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

TOOL_KINDS = ("read_only", "high_impact")
"""The lesson's two kinds of tool: re-run a read-only one; a high-impact one falls back to is_error."""
MOVES = ("rerun", "is_error", "delete", "dangling", "other", "not_run")
"""What a reconcile can do with a dangling call: re-run the tool (jugada dos), answer it with a tool_result
``is_error: true`` (jugada tres), delete the tool_use (jugada uno), leave it unanswered (the API refuses the
conversation), something else (a success result it made up, no checkpoint back), or not finish at all."""
LESSON_MOVES = {"read_only": "rerun", "high_impact": "is_error"}
"""The lesson's move for each kind; any other move on that kind is one of the moves the lesson warns about."""


def valid_moves(raw: object) -> bool:
    """``raw`` is a ``moves`` record: known kinds, each a list of distinct known moves in :data:`MOVES`' order."""
    if not isinstance(raw, dict):
        return False
    for kind, moves in raw.items():
        if kind not in TOOL_KINDS or not isinstance(moves, list) or not moves:
            return False
        if not all(isinstance(m, str) and m in MOVES for m in moves):
            return False
        if moves != sorted(set(moves), key=MOVES.index):
            return False
    return True


@dataclass
class CriterionResult:
    id: str
    passed: bool | None  # None: left to a person (``review``), not decided yet
    score: float | None  # None while pending: never a silent 0 or full marks
    max_score: float
    feedback: str  # Spanish (or English with --lang en): what failed and why, or what passed
    review: bool = False  # True: the judge could not decide, a person must (passed and score are None)
    decision: dict[str, Any] | None = None  # a person's decision: {"by", "at", "why", "was"}

    @property
    def pending(self) -> bool:
        return self.passed is None

    def to_json(self) -> dict[str, Any]:
        record = asdict(self)
        # Only when they say something: a decided criterion keeps the record it always had.
        if not self.review:
            del record["review"]
        if self.decision is None:
            del record["decision"]
        return record

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> CriterionResult:
        return cls(
            raw["id"],
            raw["passed"],
            raw["score"],
            raw["max_score"],
            raw["feedback"],
            review=bool(raw.get("review", False)),
            decision=raw.get("decision"),
        )


def from_verdicts(verdicts: list[tuple[str, float, bool | None, str]]) -> list[CriterionResult]:
    """Each criterion's record from ``(id, points, passed, feedback)``: its points when it passed, 0 when it
    did not, and pending (``review``, no score) when its judge could not decide."""
    return [
        CriterionResult(
            id, passed, None if passed is None else points if passed else 0.0, points, feedback, passed is None
        )
        for id, points, passed, feedback in verdicts
    ]


def decided_score(criteria: list[CriterionResult]) -> float:
    """The points of the decided criteria: what a person still has to decide counts for nothing yet."""
    return float(sum(c.score for c in criteria if c.score is not None))


def valid_copies(raw: Any) -> bool:
    """A ``copies`` record as results.json holds it: a list of {function, other: text; similarity: 0 to 1}."""
    return isinstance(raw, list) and all(
        isinstance(c, dict)
        and set(c) == {"function", "other", "similarity"}
        and isinstance(c["function"], str)
        and isinstance(c["other"], str)
        and isinstance(c["similarity"], (int, float))
        and not isinstance(c["similarity"], bool)
        and 0 <= c["similarity"] <= 1
        for c in raw
    )


def valid_shape(raw: Any) -> bool:
    """A ``shape`` record: function name -> a list of hex hashes."""
    return isinstance(raw, dict) and all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(h, str) for h in v) for k, v in raw.items()
    )


def pending_points(criteria: list[CriterionResult]) -> float:
    """The points left to a person: shown as pending, never folded into a total."""
    return float(sum(c.max_score for c in criteria if c.pending))


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
    sha256: str | None = None  # the graded file's bytes: a person's decisions hold for this content only
    moves: dict[str, list[str]] = field(default_factory=dict)  # tool kind -> the moves reconcile made (MOVES)
    shape: dict[str, list[str]] = field(default_factory=dict)
    """The graded functions' structure, as :func:`autograder.grading.similarity.stored` keeps it: what the class's
    copy comparison reads, at grading and at a merge of parts."""
    copies: list[dict[str, Any]] = field(default_factory=list)
    """Graded functions near-identical to another learner's or lesson3's (``{"function", "other", "similarity"}``):
    information for a person, never a verdict (:mod:`autograder.grading.similarity`)."""

    @property
    def pending(self) -> float:
        """Points left to a person (0 when every criterion is decided)."""
        return pending_points(self.criteria)

    @property
    def not_run(self) -> bool:
        """Nothing of it could be graded: every criterion carries the submission's own error.

        Reports then say the error once, above the criteria, whose rows only point to it;
        results.json keeps each criterion's feedback as it is, for machines.
        """
        return bool(self.error) and bool(self.criteria) and all(c.feedback == self.error for c in self.criteria)

    def rescore(self) -> None:
        """Score again from the criteria, after a person decided one."""
        self.score = decided_score(self.criteria)

    def to_json(self) -> dict[str, Any]:
        record = asdict(self)
        record["criteria"] = [c.to_json() for c in self.criteria]
        if not record["sha256"]:
            del record["sha256"]
        if not record["moves"]:  # Level 2 not observed: no record rather than an empty map
            del record["moves"]
        if not record["copies"]:
            del record["copies"]
        if not record["shape"]:
            del record["shape"]
        if pending := self.pending:
            record["pending"] = pending
        return record

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> SubmissionResult:
        return cls(
            submission=raw["submission"],
            score=raw["score"],
            max_score=raw["max_score"],
            criteria=[CriterionResult.from_json(c) for c in raw["criteria"]],
            error=raw.get("error"),
            flags=list(raw.get("flags") or []),
            warnings=list(raw.get("warnings") or []),
            seed=raw.get("seed"),
            output=str(raw.get("output") or ""),
            sha256=raw.get("sha256") or None,
            moves={k: list(v) for k, v in raw["moves"].items()} if valid_moves(raw.get("moves")) else {},
            copies=[dict(c) for c in raw["copies"]] if valid_copies(raw.get("copies")) else [],
            shape={k: list(v) for k, v in raw["shape"].items()} if valid_shape(raw.get("shape")) else {},
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
            score=decided_score(criteria),
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
