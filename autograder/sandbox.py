"""Correr aislado: el código del alumno vive en un proceso hijo propio, nunca en el del corrector.

The judge (a trusted process) forks one child per submission. Before any learner
code runs, the child confines itself: a new session (its own process group), stdin
from /dev/null and stdout/stderr into a pipe the judge reads with a cap, every other
file descriptor closed, a private working directory, resource limits (CPU, address
space, file size, open files, processes), an unprivileged uid when the judge is root,
``no_new_privs``, Landlock (:mod:`autograder.confine`: files, signals, sockets; root or
not), death with its parent, and an environment rebuilt from scratch.

The judge talks to the child only through framed JSON on two pipes
(:mod:`autograder.protocol`): it asks for the cells to be loaded and for
``resume_action``/``reconcile`` to be called; the child may ask the judge to execute a
tool (the ``execute_tool`` proxy). Wall-clock limits are enforced here, from outside:
on a timeout the whole process group is SIGKILLed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import select
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import confine as confinement
from . import imports, protocol
from .submission import Cell

UID_BASE = 1_000_000
"""Learner uids are UID_BASE + the judge's pid: unique among concurrent judges, so one
learner can never signal another one, and RLIMIT_NPROC counts exactly its own processes."""

NOBODY = 65534

SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"

ToolHandler = Callable[[str, Any], dict[str, Any]]


@dataclass(frozen=True)
class Limits:
    """Los límites de cada entrega (segundos, MB, KB)."""

    load_seconds: float = 5.0
    """Wall time to run every cell of the submission."""
    check_seconds: float = 2.0
    """Wall time for all learner calls of one criterion (e.g. the 14 hidden variants)."""
    cpu_seconds: int = 15
    """RLIMIT_CPU for the learner's process over the whole grading (a backstop for the wall limits)."""
    memory_mb: int = 512
    """Address space the learner may add on top of the preloaded interpreter (RLIMIT_AS)."""
    output_kb: int = 64
    """Printed output kept (stdout and stderr together); the rest is read and dropped."""
    output_kill_mb: int = 8
    """Printed output past this kills the process: 50 MB of prints cost nothing but this much."""
    file_mb: int = 16
    """RLIMIT_FSIZE: the largest file the learner may write in its own folder."""
    processes: int = 1
    """RLIMIT_NPROC for the learner's own uid: 1 means no fork, no subprocess, no threads."""
    submission_seconds: float = 30.0
    """Backstop enforced by the grader on the whole judge (the judge's own limits come first:
    load + one budget per criterion stays under 20 s even when every budget is nearly used)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any] | None) -> Limits:
        if not raw:
            return cls()
        known = {k: v for k, v in raw.items() if k in cls.__dataclass_fields__}
        return cls(**known)


@dataclass
class Failure:
    """The learner's process did not answer: why, in words the feedback can use."""

    kind: str  # timeout, cpu, crashed, exited, output, protocol, internal (and "poisoned", see session)
    detail: str = ""
    limit: float = 0.0
    """The limit that was hit: seconds for a timeout, MB for output."""


@dataclass
class Reply:
    """A frame the learner's process answered with (a load report or a call result)."""

    message: dict[str, Any]


@dataclass
class _Capture:
    limit: int
    kept: bytearray = field(default_factory=bytearray)
    total: int = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.limit - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


@dataclass(frozen=True)
class Protections:
    """What stands between learner code and the instructor's files and processes on this machine."""

    uid_drop: bool
    """A root grader gives each learner an unprivileged uid of its own."""
    landlock_abi: int
    """Landlock ABI of the kernel (0: none); the learner's child applies it, root or not."""

    @property
    def files(self) -> bool:
        """The learner cannot write outside its folder nor read the grader's files."""
        return self.uid_drop or confinement.confines_files(self.landlock_abi)

    @property
    def signals(self) -> bool:
        """The learner cannot signal (kill) the judge, the zygote or anything else of the grader's."""
        return self.uid_drop or confinement.confines_signals(self.landlock_abi)

    @property
    def processes(self) -> bool:
        """RLIMIT_NPROC keeps the learner from forking: it counts the uid's processes, which are never 0."""
        return hasattr(resource, "RLIMIT_NPROC")


def protections() -> Protections:
    return Protections(uid_drop=running_as_root(), landlock_abi=confinement.abi_version())


def learner_uid(judge_pid: int) -> int:
    """The uid a judge's learners run as (only meaningful when the judge is root)."""
    candidate = UID_BASE + judge_pid
    return candidate if _uid_mappable(candidate) else NOBODY


def _uid_mappable(uid: int) -> bool:
    try:
        lines = Path("/proc/self/uid_map").read_text().splitlines()
    except OSError:
        return False
    for line in lines:
        parts = line.split()
        if len(parts) == 3:
            inside, _, count = (int(p) for p in parts)
            if inside <= uid < inside + count:
                return True
    return False


class Learner:
    """Handle on one learner child process, used by the judge.

    ``start()`` forks and loads the cells; ``call()`` runs one function on one
    argument and serves the child's tool requests meanwhile. Any failure (timeout,
    crash, flood of output, garbage on the pipe) kills the child's process group and
    comes back as a :class:`Failure`; the judge decides what it costs.
    """

    def __init__(
        self, cells: list[Cell], *, limits: Limits, box: Path, uid: int | None = None, landlock: bool = True
    ) -> None:
        self.cells = cells
        self.limits = limits
        self.box = Path(box)
        self.uid = uid
        # Landlock and the seccomp filter: only the tests turn them off (to show what they stop);
        # it is never part of a grading request, which a learner could try to forge.
        self.landlock = landlock
        self.pid: int | None = None
        self.output = _Capture(limits.output_kb * 1024)
        self._reader = protocol.FrameReader()
        self._pending: list[dict[str, Any]] = []
        self._req_w = self._resp_r = self._out_r = -1
        self._next_id = 0
        self.exit_status: int | None = None

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> Reply | Failure:
        """Fork, confine, run every cell; the reply is the child's load report."""
        from . import runtime  # imported here: the child needs it, the judge only forks

        if self.landlock:
            confinement.warm_up()  # once in this process, not in every child
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        out_r, out_w = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child; covered by the sandbox tests
            code = 70
            try:
                os.close(req_w)
                os.close(resp_r)
                os.close(out_r)
                try:
                    confine(self.limits, self.box, self.uid, out_w, keep=(req_r, resp_w), landlock=self.landlock)
                except Exception as e:  # the grader's problem, reported as such
                    protocol.write_frame(resp_w, {"op": "confine_failed", "error": f"{type(e).__name__}: {e}"})
                    raise
                runtime.serve(req_r, resp_w, self.cells, load_seconds=self.limits.load_seconds)
                code = 0
            except BaseException:  # noqa: BLE001 - the child must never return into the judge's code
                with contextlib.suppress(Exception):
                    traceback.print_exc()
            finally:
                os._exit(code)
        self.pid = pid
        os.close(req_r)
        os.close(resp_w)
        os.close(out_w)
        self._req_w, self._resp_r, self._out_r = req_w, resp_r, out_r
        for fd in (req_w, resp_r, out_r):
            os.set_blocking(fd, False)
        # The load gets a little slack over the child's own per-cell alarms.
        return self._exchange(None, "loaded", self.limits.load_seconds + 0.5)

    def call(self, fn: str, arg: Any, *, timeout: float, on_tool: ToolHandler | None = None) -> Reply | Failure:
        """``fn(arg)`` in the child; ``on_tool(name, input)`` answers its execute_tool requests."""
        if self.pid is None:
            raise RuntimeError("the learner process is not running")
        self._next_id += 1
        request = {"op": "call", "id": self._next_id, "fn": fn, "arg": arg}
        return self._exchange(request, "result", timeout, on_tool=on_tool, call_id=self._next_id)

    def close(self) -> None:
        """Stop the child (it is idle between calls, so this is just a kill) and free the pipes."""
        if self.pid is not None:
            self._kill()
        for fd in (self._req_w, self._resp_r, self._out_r):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._req_w = self._resp_r = self._out_r = -1

    # -- the exchange loop -------------------------------------------------------------

    def _exchange(
        self,
        request: dict[str, Any] | None,
        expect: str,
        timeout: float,
        *,
        on_tool: ToolHandler | None = None,
        call_id: int | None = None,
    ) -> Reply | Failure:
        started = time.monotonic()
        deadline = started + max(timeout, 0.0)
        outgoing = bytearray(protocol.encode(request)) if request is not None else bytearray()
        while True:
            while self._pending:
                msg = self._pending.pop(0)
                handled = self._handle(msg, expect, call_id, on_tool, outgoing)
                if isinstance(handled, (Reply, Failure)):
                    return handled
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._kill()
                return Failure("timeout", limit=round(timeout, 2))
            rlist = [fd for fd in (self._resp_r, self._out_r) if fd >= 0]
            wlist = [self._req_w] if outgoing else []
            try:
                readable, writable, _ = select.select(rlist, wlist, [], remaining)
            except InterruptedError:  # pragma: no cover - PEP 475 retries select itself
                continue
            if self._out_r in readable:
                failure = self._drain_output()
                if failure:
                    return failure
            if self._req_w in writable:
                try:
                    n = os.write(self._req_w, outgoing)
                    del outgoing[:n]
                except BlockingIOError:
                    pass
                except BrokenPipeError:
                    return self._died()
            if self._resp_r in readable:
                try:
                    chunk = os.read(self._resp_r, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    return self._died()
                try:
                    self._pending.extend(m for m in self._reader.feed(chunk))
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
        if op == "tool" and on_tool is not None and call_id is not None:
            name, tool_input = msg.get("name"), msg.get("input")
            reply = on_tool(name if isinstance(name, str) else str(name), tool_input)
            outgoing += protocol.encode({"op": "tool_result", **reply})
            return None
        if op == expect and (call_id is None or msg.get("id") == call_id):
            return Reply(msg)
        # Anything else (a forged or stale frame, a tool request outside a call) breaks the contract.
        self._kill()
        return Failure("protocol", f"unexpected frame {str(op)[:40]!r}")

    def _drain_output(self) -> Failure | None:
        try:
            chunk = os.read(self._out_r, 1 << 16)
        except BlockingIOError:
            return None
        if not chunk:
            os.close(self._out_r)
            self._out_r = -1
            return None
        self.output.add(chunk)
        if self.output.total > self.limits.output_kill_mb * 1024 * 1024:
            self._kill()
            return Failure("output", limit=self.limits.output_kill_mb)
        return None

    def _died(self) -> Failure:
        """The response pipe closed: the child exited, crashed, or closed it on purpose."""
        assert self.pid is not None
        status = None
        for _ in range(40):
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.005)
            status = None
        if status is None:
            self._kill()
            return Failure("protocol", "closed the channel")
        self._reaped(status)
        return _status_failure(status)

    def _kill(self) -> None:
        if self.pid is None:
            return
        for kill in (lambda: os.killpg(self.pid, signal.SIGKILL), lambda: os.kill(self.pid, signal.SIGKILL)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                kill()
        if self.uid is not None and self.uid != NOBODY and self.limits.processes > 1:
            sweep_uid(self.uid)
        with contextlib.suppress(ChildProcessError):
            _, status = os.waitpid(self.pid, 0)
            self._reaped(status)
        self.pid = None

    def _reaped(self, status: int) -> None:
        self.exit_status = status
        self.pid = None


def _status_failure(status: int) -> Failure:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return Failure("cpu")
        return Failure("crashed", _signal_name(sig))
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
    return Failure("exited", str(code))


def _signal_name(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"señal {sig}"


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


# -- confinement (runs in the child, before any learner code) --------------------------------


def confine(
    limits: Limits, box: Path, uid: int | None, out_fd: int, *, keep: tuple[int, ...], landlock: bool = True
) -> None:
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    _close_other_fds({0, 1, 2, *keep})
    # Fresh stream objects on the new fds: whatever wrapped them in the parent is gone.
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    os.chdir(box)
    path_entries = imports.open_path_entries()
    # Built while everything can still be opened (the rules hold O_PATH descriptors), enforced after the drop.
    ruleset = _landlock_ruleset(box) if landlock else None
    _set_limits(limits, uid)
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    imports.install(path_entries)
    _no_new_privs()
    if ruleset is not None:
        ruleset.enforce()
    if landlock:
        confinement.deny_syscalls()
    _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG, after the uid change (which clears it)
    scrub_environment(box)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)


def _landlock_ruleset(box: Path) -> confinement.Ruleset | None:
    try:
        return confinement.prepare(box)
    except OSError as e:
        # The kernel said it has Landlock: failing to build the ruleset leaves the learner
        # unconfined, so this submission is not run (the judge reports a grader problem).
        raise RuntimeError(f"Landlock: {e}") from e


def _no_new_privs() -> None:
    try:
        confinement.no_new_privs()
    except (OSError, AttributeError):  # pragma: no cover - not Linux (no prctl)
        if confinement.abi_version():
            raise


def _close_other_fds(keep: set[int]) -> None:
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:  # pragma: no cover - no procfs
        fds = list(range(3, 1024))
    for fd in fds:
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def _set_limits(limits: Limits, uid: int | None) -> None:
    mb = 1024 * 1024
    wanted = [
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1),
        (resource.RLIMIT_FSIZE, limits.file_mb * mb, limits.file_mb * mb),
        (resource.RLIMIT_NOFILE, 128, 128),
        (resource.RLIMIT_AS, _vm_size() + limits.memory_mb * mb, _vm_size() + limits.memory_mb * mb),
    ]
    if uid is not None:
        # With a uid of its own the count is exact; the shared «nobody» fallback needs room
        # for the other learners running at the same time.
        nproc = limits.processes if uid != NOBODY else limits.processes + 256
        wanted.append((resource.RLIMIT_NPROC, nproc, nproc))
    elif limits.processes <= 1:
        # The grader's own uid already has processes (this one, the judge...), so a limit of 1
        # forbids every fork and thread here and nowhere else. A larger limit could not be
        # counted exactly against a uid shared with the instructor, so it is left alone.
        wanted.append((resource.RLIMIT_NPROC, 1, 1))
    for which, soft, hard in wanted:
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError):
            # Some platforms (macOS for RLIMIT_AS) refuse a limit: keep the others and the wall clock.
            if uid is not None:
                raise


def _vm_size() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover
        pass
    return 1024 * 1024 * 1024


def _prctl(option: int, arg: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(option, arg, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def scrub_environment(home: Path) -> None:
    """Rebuild the environment from nothing: no key or token of the grader can survive.

    Clearing ``os.environ`` also clears ``posix.environ`` (its backing dict) and the C
    environment. The zygote itself was started with an allow-listed environment, so
    no secret is in this process's memory to begin with.
    """
    import tempfile

    os.environ.clear()
    os.environ.update(
        {
            "PATH": SAFE_PATH,
            "HOME": str(home),
            "TMPDIR": str(home),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "USER": "alumno",
            "LOGNAME": "alumno",
        }
    )
    tempfile.tempdir = str(home)


def prepare_box(box: Path, uid: int | None) -> None:
    """The learner's private folder: its cwd, HOME and TMPDIR."""
    box.mkdir(parents=True, exist_ok=True)
    if uid is not None:
        os.chown(box, uid, uid)
    os.chmod(box, 0o700)
