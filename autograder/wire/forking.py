"""What both zygotes share: start clean, say they are ready, fork once per request.

A zygote is a fresh interpreter started with an allow-listed environment, so no secret
of the grader is ever in its memory. It preloads what its children run on, writes
:data:`READY` on stdout, then forks one child per connection it admits on its Unix
socket, and stops when the process that started it closes its stdin. The grading
zygote (:mod:`autograder.judging.zygote`) forks a judge per submission; the learner zygote
(:mod:`autograder.learner.zygote`) forks a keeper per learner child.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autograder.wire.limits import SAFE_PATH

READY = b"ready\n"
START_TIMEOUT = 120.0
SOCKET_PATH_BYTES = 108
"""sun_path's size on Linux, its final NUL included."""
STAY_BEHIND = "from autograder.wire.forking import stay_behind; stay_behind()"
"""What every zygote runs first, before its imports (the heaviest part of its start): see :func:`stay_behind`."""
SAFE_FLAGS = ["-P"] if sys.version_info >= (3, 11) else []
"""The interpreter's flags for a grader's process: its working folder never comes first on sys.path."""


# -- the starter's side --------------------------------------------------------------------------


class ZygoteError(RuntimeError):
    """A zygote did not start, or did not give a child."""


class Zygote:
    """The starter's handle on one zygote: its interpreter, serving on a socket in ``run_dir/control``."""

    def __init__(self, name: str, code: str, run_dir: Path, socket_name: str, *args: str, behind: bool = False) -> None:
        self.name = name
        control = run_dir / "control"
        control.mkdir(mode=0o700, exist_ok=True)
        path = control / socket_name
        self._short: Path | None = None
        if len(os.fsencode(path)) >= SOCKET_PATH_BYTES:
            # A long $TMPDIR: a socket's path must fit sun_path, so this one goes to a short
            # private folder of its own (removed by stop()).
            self._short = Path(tempfile.mkdtemp(prefix="ag-", dir="/tmp"))
            path = self._short / socket_name
        self.socket_path = str(path)
        self.proc = subprocess.Popen(
            [sys.executable, *SAFE_FLAGS, "-c", f"{STAY_BEHIND}; {code}" if behind else code, self.socket_path, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=clean_environment(run_dir),
            cwd=run_dir,
            start_new_session=True,
            close_fds=True,
        )

    def wait_ready(self) -> None:
        """Return once the zygote serves; kill it and raise :class:`ZygoteError` if it does not say so in time."""
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], START_TIMEOUT)
        line = self.proc.stdout.readline() if ready else b""
        if line != READY:
            self.proc.kill()
            self.stop()
            raise ZygoteError(f"{self.name} did not start ({line[:200]!r})")

    def stop(self) -> None:
        """Close its stdin (a zygote stops when it reads the end), killing it if it does not within 5 s."""
        with contextlib.suppress(OSError):
            if self.proc.stdin:
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        if self._short is not None:
            shutil.rmtree(self._short, ignore_errors=True)


def clean_environment(home: Path) -> dict[str, str]:
    """A zygote's whole environment: an allow-list, so API keys and tokens never get in."""
    roots = [str(Path(__file__).resolve().parents[2])]  # the folder autograder/ is in
    with contextlib.suppress(ImportError, AttributeError, TypeError):
        spec = importlib.util.find_spec("lesson3")
        if spec is not None and spec.origin:
            roots.append(str(Path(spec.origin).resolve().parent.parent))
    env = {
        "PATH": SAFE_PATH,
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join(sorted(set(roots))),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
        "IPYTHONDIR": str(home / "ipython"),
    }
    if "TZ" in os.environ:
        env["TZ"] = os.environ["TZ"]
    return env


# -- the zygote's side ---------------------------------------------------------------------------


BEHIND_NICENESS = 10
"""A starting zygote's session's niceness, when its starter asks it to stand behind (a resident grader's)."""
_behind = False


def stay_behind() -> None:
    """Until it serves, stand this zygote's session behind everything else (its niceness, :data:`BEHIND_NICENESS`).

    A resident grader (:mod:`autograder.grading.resident`) starts while the learner's kernel imports the SDK for the
    notebook's next cell: its two SDK imports must not slow that one. Linux weighs each session's group of processes
    (an autogroup) against the others before a process's niceness counts, and a zygote starts a session of its own, so
    it is the session's niceness that moves. :func:`serve_forever` sets it back to 0 before saying READY: judges and
    learner children run at full speed, their wall-clock limits as in any grading.
    """
    global _behind
    _behind = _set_session_niceness(BEHIND_NICENESS)


def _set_session_niceness(niceness: int) -> bool:
    # Without CAP_SYS_ADMIN, Linux takes one change of an autogroup's niceness per 100 ms, machine-wide (EAGAIN
    # otherwise): both zygotes start at once.
    for _ in range(10):
        try:
            Path("/proc/self/autogroup").write_text(str(niceness))
            return True
        except BlockingIOError:
            time.sleep(0.11)
        except OSError:
            return False  # no autogroups here
    return False


def peer_credentials(conn: socket.socket) -> tuple[int, int, int] | None:
    """(pid, uid, gid) of the process at the other end of ``conn``, as the kernel saw it connect; None where the kernel
    does not say (not Linux)."""
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):  # pragma: no cover - no SO_PEERCRED: the socket's 0600 only
        return None
    return struct.unpack("3i", creds)


def peer_pid(conn: socket.socket) -> int | None:
    """The pid of the process at the other end of ``conn``; None where the kernel does not say (not Linux)."""
    creds = peer_credentials(conn)
    return None if creds is None else creds[0]


def _stat_fields(pid: int) -> list[str]:
    """/proc/PID/stat's fields from the state on (the command name may hold spaces and parentheses); [] if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()
    except OSError:
        return []


def parent_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if len(fields) > 1 else None


def started_at(pid: int) -> str | None:
    """When ``pid`` started (clock ticks since boot): a pid and this name one process, never a later one of the pid."""
    fields = _stat_fields(pid)
    return fields[19] if len(fields) > 19 else None


def serve_forever(socket_path: str, admit: Callable[[socket.socket], Any], serve: Callable[..., None]) -> None:
    """Say READY, then fork ``serve(conn, admitted)`` for each connection ``admit(conn)`` answers truthily.

    Returns when the starter closes this process's stdin (or dies). A refused connection
    is closed unanswered.
    """
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(socket_path)
    os.chmod(socket_path, 0o600)
    server.listen(256)
    # Objects made so far are never freed: keep the collector from touching (and copying) their pages.
    gc.freeze()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped automatically
    if _behind:
        _set_session_niceness(0)
    os.write(1, READY)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    while True:
        readable, _, _ = select.select([server, 0], [], [])
        if 0 in readable and not os.read(0, 4096):
            break  # the starter closed our stdin (or died): stop
        if server in readable:
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            if not (admitted := admit(conn)):
                conn.close()
                continue
            if os.fork() == 0:  # pragma: no cover - the child; covered by the sandbox and isolation tests
                code = 0
                try:
                    server.close()
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    null = os.open(os.devnull, os.O_RDONLY)
                    os.dup2(null, 0)
                    serve(conn, admitted)
                except BaseException:  # noqa: BLE001 - a child must never fall back into the zygote's loop
                    code = 1
                    with contextlib.suppress(Exception):
                        traceback.print_exc()
                finally:
                    os._exit(code)
            conn.close()
    server.close()
