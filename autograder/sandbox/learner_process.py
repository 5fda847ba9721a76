"""The judge's side of the sandbox: the learner's process is born far from the grading and spoken to through pipes.

The learner's process is not a fork of the judge: the judge asks the learner zygote
(:mod:`autograder.learner.zygote`, a fresh interpreter that never imported the grading
code, the seed, the scenarios or lesson3's reference answers) for a child, handing it
the three pipes over a Unix socket. That child locks itself down
(:mod:`autograder.learner.lockdown`) before any learner code runs; a *keeper* process between
the zygote and the child reports how it ended and kills it if the judge goes away.

The judge talks to the child only through framed JSON on two pipes
(:mod:`autograder.wire.protocol`): it sends the cells to load, then the calls of one
observation in one request (``resume_action``/``reconcile``...), which the child answers one
by one as each ends, so each call is timed and blamed on its own; the child may ask the
judge to execute a tool (the ``execute_tool`` proxy). Wall-clock, output and disk limits are enforced here,
from outside: on a timeout or a full folder the whole process group is SIGKILLed;
printed output past the cap is read and dropped, never a reason to stop.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.course.catalogue import learner_texts, text
from autograder.intake.course_cells import course_skip_cells
from autograder.intake.submission import Cell
from autograder.learner import landlock
from autograder.sandbox import learner_zygote
from autograder.wire import protocol
from autograder.wire.limits import NOBODY, Limits

__all__ = ["Failure", "Learner", "Protections", "Reply", "prepare_box"]

UID_BASE = 1_000_000
"""Learner uids are UID_BASE + the judge's pid: unique among concurrent judges, so one
learner can never signal another one, and RLIMIT_NPROC counts exactly its own processes."""

ToolHandler = Callable[[Any, Any], dict[str, Any]]
"""Answers a tool request: its name and input as the learner's process sent them (any JSON), to content and is_error."""


@dataclass
class Failure:
    """The learner's process did not answer: why, in words the feedback can use."""

    kind: str  # timeout, budget, cpu, memory, disk, crashed, exited, protocol, internal (and "poisoned")
    detail: str = ""
    limit: float = 0.0
    """The limit that was hit: seconds for a timeout, MB for the disk."""
    importing: str | None = None
    """For a timeout: the module the call was still importing when its time ran out (the child's word)."""
    cell: int | None = None
    """For a load's timeout: the cell (or piece of a .py) that was running when its time ran out (the child's word)."""


@dataclass
class Reply:
    """A frame the learner's process answered with (a load report or a call result)."""

    message: dict[str, Any]


@dataclass
class Capture:
    """What the learner printed: the first ``limit`` bytes kept, the rest only counted."""

    limit: int
    kept: bytearray = field(default_factory=bytearray)
    total: int = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.limit - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]

    @property
    def cut(self) -> bool:
        return self.total > len(self.kept)


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


@dataclass(frozen=True)
class Protections:
    """What stands between learner code and the instructor's files and processes on this machine."""

    uid_drop: bool
    """A root grader gives each learner an unprivileged uid of its own."""
    landlock_abi: int
    """Landlock ABI of the kernel (0: none); the learner's child applies it, root or not."""
    seccomp: bool = False
    """The learner's child installs a seccomp filter (no connect(), no chmod/chown, no new processes);
    where it must and cannot, the child refuses to run learner code rather than go on without it."""
    files: bool = field(init=False)
    """The learner cannot write outside its folder nor read the grader's files."""
    signals: bool = field(init=False)
    """The learner cannot signal (kill) the judge, the zygote or anything else of the grader's."""

    def __post_init__(self) -> None:
        # Worked out once, as data: whoever reads them does not call back here.
        object.__setattr__(self, "files", self.uid_drop or self.landlock_abi >= 1)
        # ABI 6 scopes signals to the learner's domain.
        object.__setattr__(self, "signals", self.uid_drop or self.landlock_abi >= 6)


def protections() -> Protections:
    return Protections(
        uid_drop=running_as_root(), landlock_abi=landlock.abi_version(), seccomp=landlock.seccomp_available()
    )


def prepare_box(box: Path, uid: int | None) -> None:
    """The learner's private folder: its cwd, HOME and TMPDIR."""
    box.mkdir(parents=True, exist_ok=True)
    if uid is not None:
        os.chown(box, uid, uid)
    os.chmod(box, 0o700)


def learner_uid(judge_pid: int) -> int:
    """The uid a judge's learners run as (only meaningful when the judge is root)."""
    candidate = UID_BASE + judge_pid
    return candidate if _uid_mappable(candidate) else NOBODY


def _uid_mappable(uid: int) -> bool:
    try:
        ranges = [line.split() for line in Path("/proc/self/uid_map").read_text().splitlines()]
    except OSError:
        return False
    # Each line: first uid inside, first uid outside, how many.
    return any(int(r[0]) <= uid < int(r[0]) + int(r[2]) for r in ranges if len(r) == 3)


DISK_POLL_SECONDS = 0.05
"""How often the judge measures the learner's folder while a call runs."""
MODULE_NAME = re.compile(r"[A-Za-z_][\w.]{0,99}")
"""What a module name the child reports may look like (anything else is not repeated in the feedback)."""


class Learner:
    """Handle on one learner child process, used by the judge.

    ``start()`` asks the learner zygote for a child and loads the cells; ``call()`` runs
    one function on one argument and serves the child's tool requests meanwhile. Any
    failure (timeout, crash, full folder, garbage on the pipe) kills the child's process
    group and comes back as a :class:`Failure`; the judge decides what it costs.
    """

    def __init__(
        self,
        cells: list[Cell],
        *,
        limits: Limits,
        box: Path,
        uid: int | None = None,
        landlock: bool = True,
        kind: str | None = None,
        name: str = "entrega.py",
        output: Capture | None = None,
        lang: str = "es",
        stuck: Sequence[int] = (),
    ) -> None:
        self.cells = cells
        self.stuck = list(stuck)
        """Cells (or pieces) that did not stop when their time ran out in an earlier load: not run again."""
        self.kind = kind or ("ipynb" if any(not c.filename for c in cells) else "py")
        self.name = name
        self.lang = lang
        self.limits = limits
        self.box = Path(box)
        self.uid = uid
        # Landlock and the seccomp filter: only the tests turn them off (to show what they stop);
        # the learner zygote honours that only from the process that started it, never from a judge.
        self.landlock = landlock
        self.pid: int | None = None
        # A session passes one Capture to each process it starts: the cap holds over all of them.
        self.output = output if output is not None else Capture(limits.output_kb * 1024)
        self._reader = protocol.FrameReader()
        self._pending: list[dict[str, Any]] = []
        self._req_w = self._resp_r = self._out_r = -1
        self._keeper: socket.socket | None = None
        self._next_id = 0
        self._disk_checked_at = 0.0
        self._importing: str | None = None
        self._loading: int | None = None

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> Reply | Failure:
        """Get a confined child from the learner zygote and run every cell; the reply is its load report."""
        (req_r, req_w), (resp_r, resp_w), (out_r, out_w) = (os.pipe() for _ in range(3))
        request = {"limits": self.limits.to_json(), "box": str(self.box), "uid": self.uid, "landlock": self.landlock}
        try:
            keeper, pid = learner_zygote.spawn(request, (req_r, resp_w, out_w))
        except (OSError, EOFError, protocol.ProtocolError, learner_zygote.ZygoteError) as e:
            for fd in (req_w, resp_r, out_r):  # ours; the finally closes the child's ends
                os.close(fd)
            return Failure("internal", f"{type(e).__name__}: {e}"[:300])
        finally:
            for fd in (req_r, resp_w, out_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._keeper, self.pid = keeper, pid
        self._req_w, self._resp_r, self._out_r = req_w, resp_r, out_r
        for fd in (req_w, resp_r, out_r):
            os.set_blocking(fd, False)
        load = {
            "op": "load",
            "kind": self.kind,
            "name": self.name,
            "cells": [{**c.to_json(), "filename": c.compiled_name(self.lang)} for c in self.cells],
            "load_seconds": self.limits.load_seconds,
            # What the learner's process says (a placeholder refused, a magic skipped), in the run's language.
            "texts": learner_texts(self.lang),
            # A .py exported from a course notebook: its pieces that are the course's own cells do not run.
            "course_cells": sorted(course_skip_cells()) if self.kind == "py" else [],
            "stuck": self.stuck,
        }
        # The load gets a little slack over the child's own per-cell alarms.
        return self._exchange(bytearray(protocol.encode(load)), "loaded", self.limits.load_seconds + 0.5)

    def call(self, fn: str, arg: Any, *, timeout: float, on_tool: ToolHandler | None = None) -> Reply | Failure:
        """``fn(arg)`` in the child; ``on_tool(name, input)`` answers its execute_tool requests."""
        (reply,) = self.calls([(fn, arg)], call_seconds=timeout, on_tool=on_tool)
        return reply

    def calls(
        self,
        batch: Sequence[tuple[str, Any]],
        *,
        call_seconds: float,
        budget_seconds: float | None = None,
        groups: Sequence[int] | None = None,
        budget_ends: dict[int, float] | None = None,
        on_tool: ToolHandler | None = None,
    ) -> list[Reply | Failure]:
        """Each ``fn(arg)`` of ``batch`` in order, sent to the child as one request; one reply per call.

        The child answers each call as it ends, so every call keeps its own limit, timed from
        when the one before it answered: ``call_seconds``, or less when the budget of its group
        (the calls of ``groups`` with the same number share ``budget_seconds``, started by the
        group's first call; ``budget_ends`` holds the groups already started, and gets the new
        ones) runs out first. A call that fails (a limit, a crash) ends the batch: its
        :class:`Failure` is the last reply, and the calls after it are not run. Without a budget
        a timeout is ``"timeout"``; with one, ``"call_timeout"`` or ``"budget"``, whichever bound.
        """
        if self.pid is None:
            raise RuntimeError("the learner process is not running")
        groups = list(groups) if groups is not None else [0] * len(batch)
        ends = budget_ends if budget_ends is not None else {}
        first = self._next_id + 1
        self._next_id += len(batch)
        left = {g: end - time.monotonic() for g, end in ends.items() if g in groups}
        request = {
            "op": "calls",
            "calls": [
                {"id": first + i, "fn": fn, "arg": arg, "group": g}
                for i, ((fn, arg), g) in enumerate(zip(batch, groups, strict=True))
            ],
            # The child hears the limits so that, near one, it can say whether it is importing a module.
            "seconds": call_seconds,
            "budget": budget_seconds,
            "left": {str(g): seconds for g, seconds in left.items()},
        }
        outgoing = bytearray(protocol.encode(request))
        replies: list[Reply | Failure] = []
        for i, group in enumerate(groups):
            now = time.monotonic()
            if budget_seconds is not None and group not in ends:
                ends[group] = now + budget_seconds
            # Its own limit, or what is left of its group's budget when that is shorter: the one that binds.
            timeout, kind = call_seconds, "call_timeout"
            if group in ends and ends[group] - now < call_seconds:
                timeout, kind = max(ends[group] - now, 0.0), "budget"
            if timeout <= 0:
                # Its group's budget is spent: it gets no time, even if the child, ahead, already answered.
                self._kill()
                reply: Reply | Failure = Failure("timeout", limit=0.0)
            else:
                reply = self._exchange(outgoing, "result", timeout, on_tool=on_tool, call_id=first + i)
            if isinstance(reply, Failure) and reply.kind == "timeout" and budget_seconds is not None:
                limit = call_seconds if kind == "call_timeout" else budget_seconds
                reply = Failure(kind, limit=limit, importing=reply.importing)
            replies.append(reply)
            if isinstance(reply, Failure):
                break
        return replies

    def close(self) -> None:
        """Stop the child (it is idle between calls, so this is just a kill) and free the pipes."""
        if self.pid is not None:
            self._kill()
        for fd in (self._req_w, self._resp_r, self._out_r):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._req_w = self._resp_r = self._out_r = -1
        if self._keeper is not None:
            self._keeper.close()
            self._keeper = None

    # -- the exchange loop -------------------------------------------------------------

    def _exchange(
        self,
        outgoing: bytearray,
        expect: str,
        timeout: float,
        *,
        on_tool: ToolHandler | None = None,
        call_id: int | None = None,
    ) -> Reply | Failure:
        """Write what is left of ``outgoing`` and wait, at most ``timeout``, for the ``expect`` frame."""
        deadline = time.monotonic() + max(timeout, 0.0)
        self._importing = None
        while True:
            # Requests queued at once are each answered in turn, and an answer can take a while (a
            # grep in its own child): the call's limit is checked between them, not only when they run out.
            while self._pending and time.monotonic() < deadline:
                msg = self._pending.pop(0)
                handled = self._handle(msg, expect, call_id, on_tool, outgoing)
                if isinstance(handled, (Reply, Failure)):
                    return handled
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._kill()
                cell = self._loading if expect == "loaded" else None
                return Failure("timeout", limit=round(timeout, 2), importing=self._importing, cell=cell)
            if full := self._disk_full():
                return full
            rlist = [fd for fd in (self._resp_r, self._out_r) if fd >= 0]
            wlist = [self._req_w] if outgoing else []
            readable, writable, _ = select.select(rlist, wlist, [], min(remaining, DISK_POLL_SECONDS))
            if self._out_r in readable:
                self._drain_output()
            if self._req_w in writable:
                try:
                    del outgoing[: os.write(self._req_w, outgoing)]
                except BlockingIOError:
                    pass
                except BrokenPipeError:
                    return self._last_words() or self._died()
            if self._resp_r in readable:
                try:
                    chunk = os.read(self._resp_r, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    return self._died()
                try:
                    self._pending.extend(self._reader.feed(chunk))
                except protocol.ProtocolError as e:
                    self._kill()
                    return Failure("protocol", str(e))

    def _handle(
        self,
        msg: Any,
        expect: str,
        call_id: int | None,
        on_tool: ToolHandler | None,
        outgoing: bytearray,
    ) -> Reply | Failure | None:
        if not isinstance(msg, dict):
            self._kill()
            return Failure("protocol", "a frame that is not an object")
        op = msg.get("op")
        if op == "confine_failed":
            self._kill()
            return Failure("internal", str(msg.get("error"))[:300])
        if op == "tool" and on_tool is not None and call_id is not None and msg.get("id") == call_id:
            reply = {"op": "tool_result", **on_tool(msg.get("name"), msg.get("input"))}
            try:
                outgoing += protocol.encode(reply)
            except protocol.ProtocolError:  # an answer built from what the learner asked must still fit a frame
                outgoing += protocol.encode(
                    {"op": "tool_result", "content": text("tool.reply_too_big"), "is_error": True}
                )
            return None
        if op == "importing" and call_id is not None and msg.get("id") == call_id:
            # Only words for the feedback: a forged note changes how a timeout is explained, never what it costs.
            module = msg.get("module")
            self._importing = module if isinstance(module, str) and MODULE_NAME.fullmatch(module) else None
            return None
        if op == "cell" and expect == "loaded":
            # Which cell runs: a load that outlives its limit names the cell that would not stop (the child's word,
            # which only chooses the cell the next load skips; a forged one costs the learner that cell).
            number = msg.get("number")
            self._loading = number if isinstance(number, int) and not isinstance(number, bool) else None
            return None
        if op == expect and (call_id is None or msg.get("id") == call_id):
            return Reply(msg)
        # Anything else (a forged or stale frame, a tool request outside a call) breaks the contract.
        self._kill()
        return Failure("protocol", f"unexpected frame {str(op)[:40]!r}")

    def _drain_output(self) -> None:
        """Read what the child printed; past the cap it is counted and dropped, and the run goes on."""
        for _ in range(64):  # a flood must not starve the response pipe
            try:
                chunk = os.read(self._out_r, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                os.close(self._out_r)
                self._out_r = -1
                return
            self.output.add(chunk)

    def _disk_full(self) -> Failure | None:
        now = time.monotonic()
        if now - self._disk_checked_at < DISK_POLL_SECONDS:
            return None
        self._disk_checked_at = now
        used, entries = box_usage(self.box, self.limits.disk_mb * 1024 * 1024, self.limits.disk_files)
        if used > self.limits.disk_mb * 1024 * 1024 or entries > self.limits.disk_files:
            self._kill()
            return Failure("disk", limit=self.limits.disk_mb, detail=str(self.limits.disk_files))
        return None

    def _last_words(self) -> Failure | None:
        """What a child that stopped reading had already said (e.g. that it could not confine itself).

        Its frames are in the response pipe before its end is: read them up to that end
        rather than calling it a death of the learner's own making.
        """
        with contextlib.suppress(OSError, protocol.ProtocolError):
            while chunk := os.read(self._resp_r, 1 << 16):
                self._pending.extend(self._reader.feed(chunk))
        for msg in self._pending:
            if isinstance(msg, dict) and msg.get("op") == "confine_failed":
                handled = self._handle(msg, "", None, None, bytearray())
                return handled if isinstance(handled, Failure) else None
        return None

    def _died(self) -> Failure:
        """The response pipe closed: the child exited, crashed, or closed it on purpose."""
        status = self._wait_status(timeout=0.5)
        if status is None:
            self._kill()
            return Failure("protocol", "closed the channel")
        self.pid = None
        return _status_failure(status, self.limits)

    def _wait_status(self, timeout: float) -> int | None:
        """How the child ended, as its keeper saw it (it is the keeper's child, not ours)."""
        if self._keeper is None:
            return None
        self._keeper.settimeout(timeout)
        try:
            message = protocol.recv_message(self._keeper)
        except (OSError, EOFError, protocol.ProtocolError):
            return None
        status = message.get("status") if isinstance(message, dict) else None
        return status if isinstance(status, int) else None

    def _kill(self) -> None:
        if self.pid is None:
            return
        for kill in (os.killpg, os.kill):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                kill(self.pid, signal.SIGKILL)
        if self.uid is not None and self.uid != NOBODY and self.limits.processes > 1:
            sweep_uid(self.uid)
        self._wait_status(timeout=2.0)  # until the keeper has seen it die
        self.pid = None


def box_usage(box: Path, max_bytes: int, max_entries: int) -> tuple[int, int]:
    """Bytes (allocated, so sparse files count for what they take) and entries under ``box``.

    Stops counting once either limit is passed: a folder of a million files costs no more than the limit.
    """
    used = entries = 0
    stack = [str(box)]
    while stack:
        try:
            scan = os.scandir(stack.pop())
        except OSError:
            continue
        with scan:
            for entry in scan:
                entries += 1
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                used += max(st.st_size if entry.is_file(follow_symlinks=False) else 0, st.st_blocks * 512)
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                if used > max_bytes or entries > max_entries:
                    return used, entries
    return used, entries


def _status_failure(status: int, limits: Limits) -> Failure:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return Failure("cpu", limit=limits.cpu_seconds)
        return Failure("crashed", _signal_name(sig))
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
    return Failure("exited", str(code))


def _signal_name(sig: int) -> str:
    """The signal as the kernel's headers name it: the same in every language of the report."""
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"SIGRTMIN+{sig - signal.SIGRTMIN}" if signal.SIGRTMIN <= sig <= signal.SIGRTMAX else f"SIG{sig}"


def sweep_uid(uid: int) -> None:
    """Kill every process running as ``uid`` (needs root): the learner's escaped descendants.

    kill(-1) from a process with that uid reaches exactly the processes of that uid.
    """
    if not running_as_root() or uid in (0, NOBODY):
        return
    pid = os.fork()
    if pid == 0:  # pragma: no cover - tiny child
        try:
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
