"""The grading server: an interpreter with everything preloaded that forks once per submission.

Starting Python and importing ``anthropic`` costs about 2.5 s; a fork of a process
that already did it costs milliseconds. So a grading run starts one *zygote* (a
fresh interpreter, launched with an allow-listed environment so no secret of the
grader is ever in its memory), which preloads lesson3, the SDK and the grader, and
then forks a *judge* per submission. The judge observes and judges every criterion and forks the
learner's confined child (:mod:`autograder.sandbox.learner_process`) and the crash children.

The grader talks to the zygote (:mod:`autograder.judging.zygote`, which this module only names
in the command that starts it) over a Unix socket in a private folder: one connection per
submission, framed JSON both ways.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import socket
import tempfile
import threading
from pathlib import Path
from typing import Any

from autograder.sandbox import learner_zygote
from autograder.sandbox.learner_process import running_as_root
from autograder.wire import forking, protocol

RAM_FOLDER = Path("/dev/shm")
RAM_FREE_BYTES = 1 << 30
"""/dev/shm must have this much room: every learner's box at its cap, for each job, many times over."""


def scratch_root() -> Path | None:
    """Where a grading run keeps its folders: ``$TMPDIR`` when set, else RAM when it has room.

    Each submission creates a few hundred small files and folders (workspaces, checkpoints,
    mail, the learner's box). On a disk-backed /tmp one create can cost a millisecond (most
    of a submission's time); in a tmpfs it costs microseconds. ``None`` means the system's
    temporary folder.
    """
    if os.environ.get("TMPDIR"):
        return None  # the instructor chose
    try:
        room = os.statvfs(RAM_FOLDER)
    except OSError:
        return None
    if room.f_bavail * room.f_frsize < RAM_FREE_BYTES or not os.access(RAM_FOLDER, os.W_OK | os.X_OK):
        return None
    return RAM_FOLDER


class ServerError(RuntimeError):
    """The zygote or a judge did not answer (crashed, killed, or timed out)."""


class JudgeTimeout(ServerError):
    """A judge did not finish within the submission's time."""


class GradingServer:
    """The grader's side: starts the zygote lazily, sends it submissions, stops it at exit."""

    def __init__(self, *, behind: bool = False) -> None:
        self.behind = behind
        """Its zygotes stand behind everything else while they start (:func:`autograder.wire.forking.stay_behind`)."""
        self._lock = threading.Lock()
        self._judges: forking.Zygote | None = None
        self._learners: learner_zygote.LearnerZygote | None = None
        self.run_dir: Path | None = None
        self.killed = False

    @property
    def running(self) -> bool:
        """Both zygotes are up (if either died, the next submission starts them again)."""
        return all(z is not None and z.proc.poll() is None for z in (self._judges, self._learners))

    def start(self) -> None:
        with self._lock:
            if self.killed:
                raise ServerError("the grading server was stopped (Ctrl-C)")
            if self.running:
                return
            self._stop_locked()
            run_dir = Path(tempfile.mkdtemp(prefix="autograder-", dir=scratch_root()))
            # Traversable, not listable: a learner can reach its own box inside, never list the others.
            os.chmod(run_dir, 0o711)
            # Both zygotes start at once; the learners' one never sees anything of the grading.
            learners = learner_zygote.LearnerZygote(run_dir, behind=self.behind)
            code = "from autograder.judging.zygote import zygote_main; zygote_main()"
            judges = forking.Zygote(
                "the grading server",
                code,
                run_dir,
                "zygote.sock",
                str(run_dir),
                learners.socket_path,
                behind=self.behind,
            )
            try:
                judges.wait_ready()
                learners.wait_ready()
            except forking.ZygoteError as e:
                judges.stop()
                learners.stop()
                shutil.rmtree(run_dir, ignore_errors=True)
                raise ServerError(str(e)) from None
            # Published only once both serve: another job's connect reads self.running without the lock.
            self._judges, self._learners, self.run_dir = judges, learners, run_dir

    def stop(self) -> None:
        with self._lock:
            self._stop_locked()

    def kill(self) -> None:
        """Stop at once (Ctrl-C): the zygotes and every judge at work, and never start again.

        The judges share the zygote's process group, the keepers the learner zygote's; each
        learner child dies with its keeper (PDEATHSIG).
        """
        with self._lock:
            self.killed = True
            for running in (self._judges, self._learners):
                if running is not None:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(running.proc.pid, signal.SIGKILL)
            self._stop_locked()

    def _stop_locked(self) -> None:
        for running in (self._learners, self._judges):
            if running is not None:
                running.stop()
        self._judges = self._learners = None
        if self.run_dir is not None:
            shutil.rmtree(self.run_dir, ignore_errors=True)
            self.run_dir = None

    def connect(self) -> socket.socket:
        for attempt in range(2):
            if not self.running:
                self.start()
            assert self._judges is not None
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(30)
            try:
                sock.connect(self._judges.socket_path)
                return sock
            except OSError:
                sock.close()
                if attempt:
                    raise
                # The zygote died (or was killed): start a new one and retry once.
                self.stop()
        raise ServerError("unreachable")  # pragma: no cover

    def grade(self, request: dict[str, Any], *, timeout: float) -> dict[str, Any]:
        """Send one submission to a judge; returns its SubmissionResult as JSON."""
        sock = self.connect()
        judge_pid = uid = None
        try:
            protocol.send_message(sock, {"op": "grade", **request})
            started = protocol.recv_message(sock)
            judge_pid, uid = started.get("pid"), started.get("uid")
            sock.settimeout(timeout)
            return protocol.recv_message(sock)["result"]
        except TimeoutError:
            self._abort(judge_pid, uid)
            raise JudgeTimeout(f"the judge did not finish in {timeout:g} s") from None
        except (EOFError, OSError, protocol.ProtocolError, KeyError, TypeError) as e:
            self._abort(judge_pid, uid)
            raise ServerError(f"the judge stopped answering ({type(e).__name__}: {e})") from None
        finally:
            sock.close()

    def prepare(self, course: dict[str, Any], *, timeout: float = 30.0) -> None:
        """Have the zygote do now the crashes every submission graded on ``course`` (its seed, its levels) shares.

        Grading does it on its first request anyway: this is for a caller with time to spare (a notebook's first
        cell, before its first check()).
        """
        sock = self.connect()
        try:
            protocol.send_message(sock, {"op": "prepare", "course": course})
            sock.settimeout(timeout)
            protocol.recv_message(sock)
        finally:
            sock.close()

    def _abort(self, judge_pid: int | None, uid: int | None) -> None:
        if judge_pid:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(judge_pid, signal.SIGKILL)
        if uid and running_as_root():
            # The learner dies with its judge (PDEATHSIG); this also catches anything it left behind.
            with contextlib.suppress(OSError, ServerError, EOFError):
                sock = self.connect()
                try:
                    protocol.send_message(sock, {"op": "sweep", "uid": uid})
                    protocol.recv_message(sock)
                finally:
                    sock.close()


_shared: GradingServer | None = None
_shared_lock = threading.Lock()


def shared_server() -> GradingServer:
    """One zygote per grader process, started on first use and stopped at exit."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.killed:
            _shared = GradingServer()
            atexit.register(_shared.stop)
        return _shared
