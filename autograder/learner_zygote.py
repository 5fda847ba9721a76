"""La cigota del alumno: un intérprete que nunca vio la corrección, del que nace cada proceso del alumno.

Started fresh (its own interpreter, an allow-listed environment) before any grading
state exists, it preloads only what learner code runs on: IPython's shell, the child's
runtime and lockdown, and the learner's lesson3 (:mod:`autograder.learner_lesson3`,
without the reference answers). It never imports the checks, the scenarios, the seed
or lesson3's answers, so nothing of them is in the memory its children start from.

A judge connects to its Unix socket and hands over three pipe ends (SCM_RIGHTS) with
the limits; the zygote forks a *keeper*, which forks the learner's child. The child
locks itself down (:mod:`autograder.lockdown`) and serves the judge over the pipes
(:mod:`autograder.runtime`); the keeper tells the judge the child's pid and, at the
end, how it ended, and kills it if the judge goes away.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path
from typing import Any

from . import protocol

READY = b"ready\n"
START_TIMEOUT = 120.0
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"


class ZygoteError(RuntimeError):
    """The learner zygote did not start or did not give a child."""


# -- the judge's side ---------------------------------------------------------------------------

_socket_path: str | None = None
_local: LearnerZygote | None = None
_local_lock = threading.Lock()


def use(socket_path: str) -> None:
    """Judges of this process (and its forks) ask the zygote listening at ``socket_path``."""
    global _socket_path
    _socket_path = socket_path


def spawn(request: dict[str, Any], fds: tuple[int, int, int]) -> tuple[socket.socket, int]:
    """A confined learner child serving on ``fds``; returns the keeper's socket and the child's pid."""
    path = _socket_path or _shared_local().socket_path
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(30)
    try:
        sock.connect(path)
        socket.send_fds(sock, [protocol.encode(request)], list(fds))
        reply = protocol.recv_message(sock)
    except BaseException:
        sock.close()
        raise
    pid = reply.get("pid") if isinstance(reply, dict) else None
    if not isinstance(pid, int):
        sock.close()
        raise ZygoteError(str(reply.get("error") if isinstance(reply, dict) else reply)[:300])
    return sock, pid


class LearnerZygote:
    """The starter's handle: launches the zygote's interpreter, stops it (and its socket folder)."""

    def __init__(self, run_dir: Path | None = None) -> None:
        self._own_dir = run_dir is None
        self.run_dir = Path(run_dir or tempfile.mkdtemp(prefix="autograder-alumno-"))
        control = self.run_dir / "control"
        control.mkdir(mode=0o700, exist_ok=True)
        self.socket_path = str(control / "learner.sock")
        code = "from autograder.learner_zygote import main; main()"
        flags = ["-P"] if sys.version_info >= (3, 11) else []
        self.proc = subprocess.Popen(
            [sys.executable, *flags, "-c", code, self.socket_path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=clean_environment(self.run_dir),
            cwd=self.run_dir,
            start_new_session=True,
            close_fds=True,
        )

    def wait_ready(self) -> None:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], START_TIMEOUT)
        line = self.proc.stdout.readline() if ready else b""
        if line != READY:
            self.stop()
            raise ZygoteError(f"the learner zygote did not start ({line[:200]!r})")

    def stop(self) -> None:
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
        if self._own_dir:
            import shutil

            shutil.rmtree(self.run_dir, ignore_errors=True)


def _shared_local() -> LearnerZygote:
    """A zygote for this process alone (a judge started outside the grading server, as the tests do)."""
    global _local
    with _local_lock:
        if _local is None or _local.proc.poll() is not None:
            _local = LearnerZygote()
            _local.wait_ready()
            atexit.register(_local.stop)
        return _local


def _package_roots() -> list[str]:
    import autograder

    return [str(Path(autograder.__file__).resolve().parent.parent)] if autograder.__file__ else []


def clean_environment(home: Path) -> dict[str, str]:
    """A zygote's whole environment: an allow-list, so API keys and tokens never get in."""
    roots = _package_roots()
    with contextlib.suppress(ImportError, AttributeError, TypeError):
        spec = __import__("importlib.util").util.find_spec("lesson3")
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


# -- the zygote (its own interpreter) ------------------------------------------------------------


def public_data() -> Any:
    """The course's public data, from a throwaway fork: lesson3 is imported there, never here.

    Returns a function that waits for it, so the zygote preloads its own modules meanwhile.
    """
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the throwaway child
        code = 1
        try:
            os.close(read_fd)
            from .learner_lesson3 import collect_public

            protocol.write_frame(write_fd, json.loads(json.dumps(collect_public())))
            code = 0
        except BaseException:  # noqa: BLE001 - reported by the parent as a failed start
            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(write_fd)

    def wait() -> dict[str, Any]:
        try:
            data = protocol.read_frame(read_fd)
        finally:
            os.close(read_fd)
            os.waitpid(pid, 0)
        return data

    return wait


def preload(public: dict[str, Any]) -> None:
    """Warm up what every learner child runs on, once (its modules are imported already)."""
    import asyncio

    from . import confine, learner_lesson3, runtime

    hidden = [Path(public["lesson3_dir"]), Path(__file__).resolve().parent]
    confine.hide(hidden)
    learner_lesson3.install(public)
    runtime.prepare(public)
    confine.warm_up()

    async def nothing() -> None:
        return None

    asyncio.run(nothing())


def main() -> None:
    socket_path = sys.argv[1]
    starter = os.getppid()
    waiting = public_data()
    # Meanwhile (on another core), what learner children run on; none of it is lesson3.
    import IPython.core.interactiveshell  # noqa: F401

    from . import confine, learner_lesson3, lockdown, runtime  # noqa: F401

    preload(waiting())
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(socket_path)
    os.chmod(socket_path, 0o600)
    server.listen(256)
    gc.freeze()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # keepers are reaped automatically
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
            trust = _caller(conn, starter)
            if trust is None:
                conn.close()
                continue
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the keeper; covered by the sandbox tests
                code = 0
                try:
                    server.close()
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    null = os.open(os.devnull, os.O_RDONLY)
                    os.dup2(null, 0)
                    keep(conn, starter_may_relax=trust == "starter")
                except BaseException:  # noqa: BLE001 - a keeper must never fall back into the zygote's loop
                    code = 1
                    with contextlib.suppress(Exception):
                        traceback.print_exc()
                finally:
                    os._exit(code)
            conn.close()
    server.close()


def _caller(conn: socket.socket, starter: int) -> str | None:
    """Who asks: the process that started this zygote, one of its judges (grandchildren), or nobody we serve.

    A learner running as the grader's own uid could find the socket; it is neither (its
    parent is a keeper of this zygote), and only the starter may turn Landlock off (tests).
    """
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):  # pragma: no cover - not Linux: the socket's 0600 only
        return "judge"
    pid = struct.unpack("3i", creds)[0]
    if pid == starter:
        return "starter"
    parent = _parent(pid)
    if parent and _parent(parent) == starter:
        return "judge"
    return None


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: the fields start after the last ")".
    fields = stat.rsplit(")", 1)[-1].split()
    return int(fields[1]) if len(fields) > 1 else None


def keep(conn: socket.socket, *, starter_may_relax: bool) -> None:
    """Fork the learner's child, tell the judge its pid, report how it ended; kill it if the judge leaves."""
    from . import runtime
    from .limits import Limits

    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    if len(fds) != 3:
        protocol.send_message(conn, {"error": "expected three pipe ends"})
        return
    size = struct.unpack(">I", data[:4])[0] if len(data) >= 4 else 0
    while len(data) < 4 + size:
        more = conn.recv(4 + size - len(data))
        if not more:
            return
        data += more
    request = json.loads(data[4 : 4 + size])
    limits = Limits.from_json(request.get("limits"))
    uid = request.get("uid")
    landlock = bool(request.get("landlock", True)) or not starter_may_relax
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the learner's child
        conn.close()
        runtime.child_main(fds, limits, Path(request["box"]), uid if isinstance(uid, int) else None, landlock)
    for fd in fds:
        os.close(fd)
    protocol.send_message(conn, {"pid": pid})
    watched: list[Any] = [conn]
    pidfd = -1
    with contextlib.suppress(OSError, AttributeError):
        pidfd = os.pidfd_open(pid)
        watched.append(pidfd)
    while True:
        readable, _, _ = select.select(watched, [], [], None if pidfd >= 0 else 0.05)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            with contextlib.suppress(OSError):
                protocol.send_message(conn, {"status": status})
            return
        if conn in readable:
            # The judge closed its end (done, or dead): the learner goes too.
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return
