"""How a run shows its progress: a bar redrawn in place on a terminal, one plain line per learner in a log.

Learner-chosen names reach the instructor's terminal here and in every line the command prints:
:func:`for_terminal` makes them safe to print.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TextIO

from autograder.classrun.shards import Planned
from autograder.course.catalogue import text
from autograder.reporting.report import fmt_points, result_learner
from autograder.wire.results import SubmissionResult

# A learner-chosen name may hold escape sequences (retitle or clear the instructor's terminal), line breaks,
# bytes that are not UTF-8 (lone surrogates, which print() would refuse), or bidirectional controls.
_NOT_FOR_TERMINAL = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)


def for_terminal(text: str) -> str:
    """``text`` with control characters made visible, safe to print on the instructor's terminal."""
    return _NOT_FOR_TERMINAL.sub(lambda m: "\u2424" if m.group() in "\n\r\u2028\u2029" else "\ufffd", text)


class ProgressBar:
    """A progress bar redrawn in place, for a terminal: how far, how long, and who was just graded."""

    def __init__(self, stream: TextIO, names: Callable[[int, SubmissionResult], str], width: int = 28) -> None:
        self.stream, self.names, self.width, self.start, self.drawn = stream, names, width, time.monotonic(), False

    def __call__(self, done: int, total: int, result: SubmissionResult, index: int) -> None:
        filled = self.width * done // max(total, 1)
        bar = "█" * filled + "░" * (self.width - filled)
        name = for_terminal(self.names(index, result))
        name = name if len(name) <= 32 else name[:31] + "…"
        elapsed = time.monotonic() - self.start
        self.stream.write(f"\r{bar} {done}/{total} · {elapsed:5.1f} s · {name:<32}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


class ProgressLines:
    """Progress for a log (CI, a file, a pipe): one plain line per learner graded, no carriage return or bar.

    A log keeps every line, so each says the count so far, whose result it is and its points.
    """

    def __init__(self, stream: TextIO, names: Callable[[int, SubmissionResult], str], lang: str) -> None:
        self.stream, self.names, self.lang, self.start = stream, names, lang, time.monotonic()

    def __call__(self, done: int, total: int, result: SubmissionResult, index: int) -> None:
        # A total with points left to a person is not a grade: the line says it is one so far.
        key = "cli.progress_error" if result.error else "cli.progress_pending" if result.pending else "cli.progress"
        line = text(
            key,
            self.lang,
            pending=fmt_points(result.pending, self.lang),
            done=done,
            total=total,
            name=for_terminal(self.names(index, result)),
            score=fmt_points(result.score, self.lang),
            max=fmt_points(result.max_score, self.lang),
            seconds=time.monotonic() - self.start,
        )
        self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        pass


def progress_names(planned: list[Planned]) -> Callable[[int, SubmissionResult], str]:
    """Who a finished result belongs to, as the reports will name them (the learner, not the file)."""

    def name(index: int, result: SubmissionResult) -> str:
        p = planned[index]
        return p.label if p.named_by_intake else result_learner(result)[0] or p.label or result.submission

    return name
