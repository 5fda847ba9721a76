"""The judge's session with one submission: load it once, call its functions within limits.

Policy on top of :class:`autograder.sandbox.learner_process.Learner`: each criterion gets a wall-clock
budget; a call that times out or kills the process "poisons" that function (later
criteria that need it fail at once instead of paying the limit again, so a stuck
submission costs about one limit per function); a dead process is replaced by a fresh
one before the next call.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from autograder.course.catalogue import text
from autograder.intake.submission import Submission, cell_label
from autograder.sandbox.learner_process import Capture, Failure, Learner, Reply, ToolHandler
from autograder.wire.limits import Limits


@dataclass
class Outcome:
    """How one call of a learner function went, as data the judge can reason about."""

    status: str  # ok, error, not_implemented, missing, not_callable, bad_value, delegated, failure
    value: Any = None
    info: dict[str, Any] = field(default_factory=dict)
    failure: Failure | None = None
    delegated: list[str] = field(default_factory=list)
    fn: str = ""
    ok: bool = field(init=False)
    """The call returned a value to judge: its data, so verdict functions read it without calling back here."""

    def __post_init__(self) -> None:
        self.ok = self.status == "ok"

    @classmethod
    def from_reply(cls, fn: str, reply: Reply | Failure) -> Outcome:
        if isinstance(reply, Failure):
            return cls("failure", failure=reply, fn=fn)
        msg = reply.message
        status = msg.get("status")
        if status not in ("ok", "error", "not_implemented", "missing", "not_callable", "bad_value", "delegated"):
            return cls("failure", failure=Failure("protocol", f"unknown status {str(status)[:40]!r}"), fn=fn)
        delegated = [str(d) for d in msg.get("delegated") or [] if isinstance(d, str)]
        # "cell" is the grader's to name (Session.call), from the submission's own cells: never the child's.
        info = {k: v for k, v in msg.items() if k not in ("value", "cell")}
        return cls(status, msg.get("value"), info, None, delegated, fn)

    def describe(self, lang: str) -> str:
        """Why this outcome is not a value to judge, in the learner's language."""
        fn = self.fn
        if self.status == "failure" and self.failure is not None:
            if self.failure.kind == "poisoned":
                return str(self.info.get("message"))
            return describe_failure(self.failure, text("what.call", lang, fn=fn), lang)
        if self.status in ("missing", "not_callable", "not_implemented", "bad_value"):
            info = {"type": self.info.get("type", "?"), "detail": self.info.get("detail")}
            return text("call." + self.status, lang, fn=fn, **info)
        if self.status == "delegated":
            return text("call.delegated", lang, fn=fn, target=", ".join(self.delegated) or "lesson3")
        if self.status == "error":
            line, cell = self.info.get("line"), self.info.get("cell")
            where = text("call.where_cell", lang, line=line, cell=cell) if line and cell else ""
            where = where or (text("call.where", lang, line=line) if line else "")
            if self.info.get("etype") == "SystemExit":
                return text("call.system_exit", lang, fn=fn, where=where)
            message = self.info.get("message") or ""
            detail = (f": {message}" if message else "") + hint_for(self.info.get("etype"), message, lang)
            return text("call.raised", lang, fn=fn, etype=self.info.get("etype", "?"), where=where, detail=detail)
        return ""


def hint_for(etype: Any, message: str, lang: str) -> str:
    """A sentence for the errors the sandbox itself causes, so they do not look like bugs."""
    if etype == "PermissionError":
        return text("load.permission_hint", lang)
    if etype == "BlockingIOError" or "can't start new thread" in message:
        return text("load.process_hint", lang)
    return ""


def describe_failure(failure: Failure, what: str, lang: str) -> str:
    key = "fail." + failure.kind if failure.kind in _FAILURE_KINDS else "fail.protocol"
    if failure.importing and failure.kind in ("call_timeout", "budget"):
        # Not a loop: the time ran out while a module was still being imported (its first import is paid here).
        return text(key + "_importing", lang, what=what, limit=failure.limit, module=failure.importing)
    return text(key, lang, what=what, limit=failure.limit, detail=failure.detail)


_FAILURE_KINDS = {"timeout", "call_timeout", "budget", "cpu", "disk", "crashed", "exited", "protocol", "internal"}


MAX_STUCK_CELLS = 3
"""Loads run again, each without one more cell that would not stop: past these, the load fails as a whole."""


class Caller(Protocol):
    """What the criteria's observers need from a session (tests substitute an in-process fake)."""

    def call(self, fn: str, arg: Any, *, on_tool: ToolHandler | None = None, poison: str | None = None) -> Outcome:
        """``fn(arg)``; a call that fails refuses later calls with the same ``poison`` (None: ``fn``) at once."""
        ...

    def calls(
        self,
        batch: Sequence[tuple[str, Any]],
        *,
        groups: Sequence[int] | None = None,
        on_tool: ToolHandler | None = None,
    ) -> list[Outcome]:
        """Each ``fn(arg)`` of ``batch`` in order, as :meth:`call` would: one outcome per call.

        Calls with the same number in ``groups`` share one budget (None: all of them), as
        calls inside one :meth:`budget` do; each call keeps its own limit.
        """
        ...

    def budget(self, seconds: float | None = None) -> contextlib.AbstractContextManager[None]: ...


@dataclass
class LoadSummary:
    fatal: str | None
    warnings: list[str]
    defined: dict[str, str]
    answers: dict[str, Any]


class Session:
    """The judge's handle on one submission: loaded once, called many times, restarted if needed."""

    def __init__(
        self, submission: Submission, *, limits: Limits, box: Path, uid: int | None, lang: str, landlock: bool = True
    ) -> None:
        self.submission = submission
        self.limits = limits
        self.box = box
        self.uid = uid
        self.lang = lang
        self.landlock = landlock  # off only in tests that need an unconfined learner
        self._learner: Learner | None = None
        self._deadline: float | None = None
        self._budget_seconds = limits.check_seconds
        self.poisoned: dict[str, Outcome] = {}
        self.summary: LoadSummary | None = None
        self._stuck: list[int] = []
        """Cells (or pieces) whose code did not stop at the load's limit: every later process skips them."""
        self.output = Capture(limits.output_kb * 1024)
        """What the learner printed over every process of this session."""

    def start(self) -> LoadSummary:
        reply = self._spawn()
        # A cell that would not stop when its time ran out (it ignores the alarm) took the process with it: the
        # load runs again without it, so it costs that cell, and what the others define is still graded.
        while (
            isinstance(reply, Failure)
            and reply.kind == "timeout"
            and reply.cell is not None
            and reply.cell not in self._stuck
            and len(self._stuck) < MAX_STUCK_CELLS
        ):
            self._stuck.append(reply.cell)
            reply = self._spawn()
        if isinstance(reply, Failure):
            reason = describe_failure(reply, text("what.load", self.lang), self.lang)
            self.summary = LoadSummary(text("load.failed", self.lang, reason=reason), [], {}, {})
        else:
            self.summary = self._summarise(reply.message)
        return self.summary

    def _spawn(self) -> Reply | Failure:
        self._learner = Learner(
            list(self.submission.runnable),
            limits=self.limits,
            box=self.box,
            uid=self.uid,
            landlock=self.landlock,
            kind=self.submission.kind,
            name=self.submission.name,
            output=self.output,
            lang=self.lang,
            stuck=self._stuck,
        )
        reply = self._learner.start()
        if isinstance(reply, Failure):
            self.close()
        return reply

    def printed_text(self) -> str:
        """The first output_kb of what the learner printed, over every process of this session."""
        return self.output.kept.decode("utf-8", errors="replace")

    def output_note(self) -> str | None:
        """A warning for the feedback when the learner printed more than was kept (nothing was stopped)."""
        if not self.output.cut:
            return None
        # Not how much: a loop that prints until its time limit prints a different amount on every run.
        return text("load.output_cut", self.lang, kb=self.limits.output_kb)

    def _summarise(self, msg: dict[str, Any]) -> LoadSummary:
        """The child's load report as feedback: what failed was skipped, and the rest still ran."""
        lang = self.lang
        warnings: list[tuple[int, str]] = []
        fatal = None
        by_number = {c.number: c for c in self.submission.cells}
        cells = [
            r
            for r in msg.get("cells") or []
            if isinstance(r, dict) and isinstance(r.get("number"), int) and r["number"] in by_number
        ]
        pieces = [r for r in msg.get("pieces") or [] if isinstance(r, dict) and isinstance(r.get("number"), int)]
        labels = self._piece_labels(pieces)
        # A notebook reports cells; a .py file reports pieces, which are cells only where the file marks them.
        reports = [*((r, True, True) for r in cells), *((r, r.get("marked"), False) for r in pieces)]
        for report, marked, notebook in reports:
            number, status, line = report["number"], report.get("status"), report.get("line")
            cell = None
            if marked:
                cell = by_number[number].label(lang) if notebook else labels.get(number, str(number))
            message = str(report.get("message") or "")
            if status == "syntax" and cell is None and not report.get("split"):
                fatal = text("load.syntax", lang, file=self.submission.name, line=line, message=message)
            elif status == "syntax" and cell is None:  # a .py cut at its statements: only this one is lost
                warnings.append((number, text("load.statement_syntax", lang, line=line, message=message)))
            elif status == "syntax":
                warnings.append((number, text("load.cell_syntax", lang, cell=cell, line=line, message=message)))
            elif status == "error" and isinstance(report.get("module"), str):
                module = report["module"][:100]
                key = "load.cell_module" if cell is not None else "load.statement_module"
                warnings.append((number, text(key, lang, cell=cell, line=line, module=module)))
            elif status == "error":
                key = "load.cell_error" if cell is not None else "load.statement_error"
                etype = report.get("etype")
                detail = (f" ({message})" if message else "") + hint_for(etype, message, lang)
                warnings.append((number, text(key, lang, cell=cell, etype=etype, line=line, detail=detail)))
            elif status == "timeout":
                key = "load.cell_timeout" if cell is not None else "load.statement_timeout"
                warnings.append((number, text(key, lang, cell=cell, line=line, seconds=self.limits.load_seconds)))
        defined = {str(k): str(v) for k, v in (msg.get("defined") or {}).items()}
        answers = msg.get("answers") if isinstance(msg.get("answers"), dict) else {}
        return LoadSummary(fatal, [w for _, w in sorted(warnings, key=lambda w: w[0])], defined, answers)

    def _piece_labels(self, pieces: list[dict[str, Any]]) -> dict[int, str]:
        """A marked .py's cells named as its author sees them: the marker's number and the cell's first line.

        The first line is read from the submission's own text (the child only says where each piece
        starts); a piece after a marker (``# %%``, ``# In[3]:``) starts on the marker's line, skipped.
        """
        source = "".join(c.source for c in self.submission.cells)
        lines = source.splitlines()
        starts = sorted(
            {(r["number"], r["start"]) for r in pieces if isinstance(r.get("start"), int) and r.get("marked")}
        )
        labels: dict[int, str] = {}
        for i, (number, start) in enumerate(starts):
            end = starts[i + 1][1] - 1 if i + 1 < len(starts) else len(lines)
            begin = start if number >= 1 else start - 1  # cell 0 is what comes before the first marker
            if 0 <= begin <= end <= len(lines):
                labels[number] = cell_label(number, "\n".join(lines[begin:end]), self.lang)
        return labels

    @contextlib.contextmanager
    def budget(self, seconds: float | None = None) -> Iterator[None]:
        """Every call inside shares one wall-clock budget (a criterion's time limit)."""
        previous = self._deadline, self._budget_seconds
        self._budget_seconds = self.limits.check_seconds if seconds is None else seconds
        self._deadline = time.monotonic() + self._budget_seconds
        try:
            yield
        finally:
            self._deadline, self._budget_seconds = previous

    def _refused(self, key: str) -> Outcome:
        """A call of a function (or kind of call, ``key``) that already hit a limit or killed its process: refused
        at once."""
        fn = self.poisoned[key].fn
        reason = self.poisoned[key].describe(self.lang)
        return Outcome(
            "failure",
            failure=Failure("poisoned", reason),
            info={"message": text("fail.poisoned", self.lang, fn=f"{fn}(cp)", reason=reason.rstrip("."))},
            fn=fn,
        )

    def calls(
        self,
        batch: Sequence[tuple[str, Any]],
        *,
        groups: Sequence[int] | None = None,
        on_tool: ToolHandler | None = None,
    ) -> list[Outcome]:
        """Each ``fn(arg)`` of ``batch`` in order, sent to the learner's process as one request.

        The same outcomes as :meth:`call` one by one, each group of ``groups`` inside its own
        :meth:`budget`: a call that fails poisons its function and ends the process; the calls
        after it are refused (its function) or sent again, to a fresh process (the others).
        The groups' budgets are the only ones that apply (not one opened by :meth:`budget`).
        """
        groups = list(groups) if groups is not None else [0] * len(batch)
        outcomes: dict[int, Outcome] = {}
        budget_ends: dict[int, float] = {}  # each group's budget, from its first call, across processes
        todo = list(range(len(batch)))
        while todo:
            sent = []
            for i in todo:
                if batch[i][0] in self.poisoned:
                    outcomes[i] = self._refused(batch[i][0])
                else:
                    sent.append(i)
            if not sent:
                break
            if self._learner is None and isinstance(reply := self._spawn(), Failure):
                fn = batch[sent[0]][0]
                outcomes[sent[0]] = self.poisoned[fn] = Outcome.from_reply(fn, reply)
                todo = sent[1:]
                continue
            assert self._learner is not None
            replies = self._learner.calls(
                [batch[i] for i in sent],
                call_seconds=self.limits.call_seconds,
                budget_seconds=self.limits.check_seconds,
                groups=[groups[i] for i in sent],
                budget_ends=budget_ends,
                on_tool=on_tool,
            )
            todo = []
            for n, (i, reply) in enumerate(zip(sent, replies, strict=False)):
                fn = batch[i][0]
                outcomes[i] = outcome = Outcome.from_reply(fn, reply)
                if outcome.status == "failure":
                    self.poisoned[fn] = outcome
                    self.close()
                    # What came after it ran in a process that broke the contract: run again in a fresh one.
                    todo = sent[n + 1 :]
                    break
        return [outcomes[i] for i in range(len(batch))]

    def call(self, fn: str, arg: Any, *, on_tool: ToolHandler | None = None, poison: str | None = None) -> Outcome:
        key = poison or fn  # what a failure here stands for: the function, or one kind of its calls
        if key in self.poisoned:
            return self._refused(key)
        if self._learner is None:
            reply = self._spawn()
            if isinstance(reply, Failure):
                outcome = Outcome.from_reply(fn, reply)
                self.poisoned[key] = outcome
                return outcome
            # What the new process's load wrote in the learner's folder (its cells run again) is no effect of the call.
            if (started := getattr(on_tool, "process_started", None)) is not None:
                started()
        assert self._learner is not None
        # Each call has its own limit; a criterion's calls together also share a (larger) budget.
        # Whichever is shorter applies, and a timeout names the one that was hit.
        budget: dict[str, Any] = {}
        if self._deadline is not None:
            budget = {"budget_seconds": self._budget_seconds, "budget_ends": {0: self._deadline}}
        (reply,) = self._learner.calls([(fn, arg)], call_seconds=self.limits.call_seconds, on_tool=on_tool, **budget)
        if isinstance(reply, Failure) and reply.kind == "timeout":  # no budget was open: its own limit bound
            reply = Failure("call_timeout", limit=self.limits.call_seconds, importing=reply.importing)
        outcome = Outcome.from_reply(fn, reply)
        if outcome.status == "error":
            # A line number alone does not say where in a notebook: the cell it is in, as the learner finds it.
            where = outcome.info.get("file")
            cell = next((c for c in self.submission.cells if c.position and c.compiled_name(self.lang) == where), None)
            if cell is not None:
                outcome.info["cell"] = cell.label(self.lang)
        if outcome.status == "failure":
            self.poisoned[key] = outcome
            self.close()
        return outcome

    def close(self) -> None:
        """Stop the learner's process, if one runs (the next call starts a new one)."""
        if self._learner is not None:
            self._learner.close()
            self._learner = None
