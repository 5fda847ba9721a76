"""The class's misconception map: per tool kind, how many learners' ``reconcile`` made each move, and who.

It counts the ``moves`` record of every result (:mod:`autograder.judging.moves` classifies
them in the judging process; :mod:`autograder.wire.results` carries them), so a merged
class (:mod:`autograder.reporting.shards`) gets the same map as one machine's run. A
learner whose reconcile answered two tools of one kind differently counts under both
moves; a learner with no record (not graded, a submission that could not run, Level 2
not graded) is listed apart, never counted as having made a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from autograder.course.catalogue import text
from autograder.wire.results import LESSON_MOVES, MOVES, TOOL_KINDS

if TYPE_CHECKING:
    from autograder.reporting.report import ReportEntry

NAMED_MOVES = ("rerun", "is_error", "delete")
"""The three moves the lesson weighs (jugada dos, tres, uno); the rest are not moves it offers."""


@dataclass(frozen=True)
class MoveRow:
    move: str
    label: str
    role: str  # "lesson": the lesson's move for this kind; "warned": one of its moves, wrong here; "none": neither
    learners: list[ReportEntry]


@dataclass(frozen=True)
class KindMap:
    kind: str
    title: str
    rows: list[MoveRow]
    counted: int  # learners with a record for this kind


@dataclass(frozen=True)
class MisconceptionMap:
    kinds: list[KindMap]
    apart: list[ReportEntry]
    """Learners without a record: not graded, not runnable, or Level 2 not graded."""


def role(kind: str, move: str) -> str:
    if LESSON_MOVES[kind] == move:
        return "lesson"
    return "warned" if move in NAMED_MOVES else "none"


def misconception_map(entries: list[ReportEntry], lang: str = "es") -> MisconceptionMap:
    """Every move of every kind, in :data:`MOVES`' order (a move nobody made shows as 0), with its learners."""
    observed = [e for e in entries if e.graded and e.result.moves]
    kinds = []
    for kind in TOOL_KINDS:
        rows = [
            MoveRow(
                move,
                text(f"report.move.{move}", lang),
                role(kind, move),
                [e for e in observed if move in e.result.moves.get(kind, [])],
            )
            for move in MOVES
        ]
        counted = sum(1 for e in observed if e.result.moves.get(kind))
        kinds.append(KindMap(kind, text(f"report.map_kind.{kind}", lang), rows, counted))
    return MisconceptionMap(kinds, [e for e in entries if not (e.graded and e.result.moves)])
