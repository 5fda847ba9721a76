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
    """A progress bar redrawn in place, for a terminal: how far, how long since the start, and who was just graded.

    Each drawing fits in ``columns`` (a line that wraps cannot be redrawn in place): the bar narrows, then the name
    is cut, and the line is padded to erase what the previous, longer one left."""

    def __init__(
        self, stream: TextIO, names: Callable[[int, SubmissionResult], str], lang: str, columns: int = 80
    ) -> None:
        self.stream, self.names, self.lang, self.start, self.drawn = stream, names, lang, time.monotonic(), False
        self.room = max(columns - 1, 40)  # the last column left free: some terminals wrap on writing it

    def __call__(self, done: int, total: int, result: SubmissionResult, index: int) -> None:
        elapsed = elapsed_text(time.monotonic() - self.start, self.lang)
        after = f" {done}/{total} · {elapsed} · "
        width = min(_BAR_WIDTH, max(_BAR_MIN, self.room - len(after) - _NAME_MIN))
        filled = width * done // max(total, 1)
        bar = "█" * filled + "░" * (width - filled)
        name, fits = for_terminal(self.names(index, result)), max(self.room - width - len(after), 1)
        name = name if len(name) <= fits else name[: fits - 1] + "…"
        self.stream.write(f"\r{bar}{after}{name}".ljust(self.room + 1))
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


_BAR_WIDTH, _BAR_MIN, _NAME_MIN = 28, 10, 20
"""The bar's width on a wide terminal, the least it narrows to, and the room a name keeps before the bar narrows."""


def elapsed_text(seconds: float, lang: str) -> str:
    """The time since the run started, labelled so (a bar's and a log line's alike): «8,0 s desde el inicio»."""
    return text("cli.progress_elapsed", lang, seconds=seconds)


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
            elapsed=elapsed_text(time.monotonic() - self.start, self.lang),
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
