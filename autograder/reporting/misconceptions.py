"""The class's misconception map: per tool kind, how many learners' ``reconcile`` made each move, and who.

It counts the ``moves`` record of every result (:mod:`autograder.judging.moves` classifies
them in the judging process; :mod:`autograder.wire.results` carries them), so a merged
class (:mod:`autograder.classrun.shards`) gets the same map as one machine's run. A
learner whose reconcile answered two tools of one kind differently counts under both
moves; a learner with no record (not graded, a submission that could not run, Level 2
not graded) is listed apart, never counted as having made a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from autograder.course.catalogue import text
from autograder.wire.results import LESSON_MOVES, MOVES, TOOL_KINDS, SubmissionResult


class Graded(Protocol):
    """What the map reads of a report's entry (:class:`autograder.reporting.report.ReportEntry`)."""

    @property
    def graded(self) -> bool: ...

    @property
    def result(self) -> SubmissionResult: ...


E = TypeVar("E", bound=Graded)

NAMED_MOVES = ("rerun", "is_error", "delete")
"""The three moves the lesson weighs (jugada dos, tres, uno); the rest are not moves it offers."""


@dataclass(frozen=True)
class MoveRow(Generic[E]):
    move: str
    label: str
    role: str  # "lesson": the lesson's move for this kind; "warned": one of its moves, wrong here; "none": neither
    learners: list[E]


@dataclass(frozen=True)
class KindMap(Generic[E]):
    kind: str
    title: str
    rows: list[MoveRow[E]]
    counted: int  # learners with a record for this kind


@dataclass(frozen=True)
class MisconceptionMap(Generic[E]):
    kinds: list[KindMap[E]]
    apart: list[E]
    """Learners without a record: not graded, not runnable, or Level 2 not graded."""


def role(kind: str, move: str) -> str:
    if LESSON_MOVES[kind] == move:
        return "lesson"
    return "warned" if move in NAMED_MOVES else "none"


def misconception_map(entries: list[E], lang: str = "es") -> MisconceptionMap[E]:
    """Every move of every kind, in :data:`MOVES`' order (a move nobody made shows as 0), with its learners."""
    observed = [e for e in entries if e.graded and e.result.moves]
    kinds: list[KindMap[E]] = []
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
