"""The grader that outlives the kernel: check()'s grading server, kept for every kernel of one Jupyter server.

check()'s grader is two zygotes (:mod:`autograder.grading.server`), each a fresh interpreter that imports the SDK:
about two seconds on two cores. Owned by the kernel, they died with it, and the first check() after every kernel
restart paid that again. Inside a Jupyter kernel, check() now asks a *resident* instead: a small detached process
that runs the same grading server and keeps it for every kernel the same Jupyter server starts (the kernel's parent,
its *owner*). There is one per user, owner and installed package: a changed package gets a resident of its own.

The resident stops when its owner stops (a pidfd says so at once), after :data:`IDLE_SECONDS` without a request, when
asked, or when terminated. A kernel finds it by a socket in a private folder of the user's (in a base folder that is
the user's, or root's and sticky like /tmp), and believes only a socket whose process runs as its own user. The
resident holds a lock on its folder for its whole life: a kernel never starts a second one beside a live one, even a
slow one. It admits only its owner and the owner's children (the kernels): a learner's confined child is neither, and
may not ask for a judge of its own. For each request it connects to the grading zygote itself (a zygote serves only
the process that started it) and hands the kernel that connected socket (SCM_RIGHTS): the zygotes are unchanged, and
the kernel talks to its judge directly. Each caller is served in a thread of its own, so a slow one holds nobody.

Folders of residents whose owner is gone are swept by the next kernel that looks for its own, and a resident of the
same owner for another package (one changed since) is asked to stop.

Outside a kernel (a script, the test suite, the instructor's grading) nothing changes: the process's own server.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import os
import select
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from autograder.grading.server import GradingServer, ServerError, shared_server
from autograder.wire import forking, protocol
from autograder.wire.forking import parent_of, started_at

IDLE_SECONDS = 30 * 60.0
"""A resident no kernel asked for this long stops: it and its two interpreters hold about 170 MB."""

SOCKET_NAME = "resident.sock"
LOG_NAME = "resident.log"
ALIVE_NAME = "alive"
"""Locked (flock) by the resident for its whole life."""
OWNER_NAME = "owner"
"""Whose resident the folder is: the owner's pid and start time, for the sweep."""
PACKAGES = ("autograder", "lesson3")
LIBRARIES = ("anthropic", "httpx2", "pydantic", "pydantic_core", "ipython", "ipykernel")
"""What the zygotes preload besides the packages: another version of one is another resident."""
PING_SECONDS = 5.0
"""How long a kernel waits for a resident's answer to ``ping`` (each caller has a thread: it answers at once)."""


class ResidentBusy(RuntimeError):
    """A resident lives (it holds its folder's lock) but did not answer in time."""


class FolderRefused(RuntimeError):
    """The resident's folder cannot be trusted (another user's, or open to others): the kernel grades on its own."""


# -- who owns it, and where it lives ---------------------------------------------------------------


def kernel_owner() -> int | None:
    """The Jupyter server that started this kernel (its parent); None outside a Jupyter kernel, or an orphan's."""
    if "ipykernel" not in sys.modules:
        return None
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipykernel without IPython does not exist
        return None
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    owner = os.getppid()
    return owner if owner > 1 else None


def package_digest(roots: list[Path] | None = None) -> str:
    """What the installed grader is: every file of its packages by path, size and modification time, and the versions
    of the libraries its zygotes preload.

    A learner who edits lesson3, or an instructor who installs a new edition, gets a new resident, never one that
    still runs the code it started with. Stats, not contents: a few milliseconds, once per kernel.
    """
    if roots is None:
        roots = [Path(__file__).resolve().parents[2] / name for name in PACKAGES]
        roots = [root for root in roots if root.is_dir()]
        with contextlib.suppress(ImportError):
            import lesson3

            roots.append(Path(lesson3.__file__).resolve().parent)
    digest = hashlib.sha256()
    for library in LIBRARIES:
        with contextlib.suppress(Exception):
            digest.update(f"{library}=={importlib.metadata.version(library)}\n".encode())
    for root in sorted(set(roots)):
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                path = os.path.join(folder, name)
                with contextlib.suppress(OSError):
                    st = os.stat(path)
                    digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def private_folder(base: Path) -> Path:
    """``base``, created for this user alone if missing; :class:`FolderRefused` if someone else could use it."""
    with contextlib.suppress(FileExistsError):
        base.mkdir(mode=0o700)
    st = os.lstat(base)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise FolderRefused(f"{base} is not a private folder of this user")
    return base


def trusted_base(base: Path) -> bool:
    """Whether nobody else can rename what ``base`` holds: it is this user's, or root's and sticky (like /tmp).

    ``su`` keeps the first user's $XDG_RUNTIME_DIR: that user could move root's folder away and put one of theirs, with
    a socket of theirs, in its place.
    """
    try:
        st = os.stat(base)
    except OSError:
        return False
    if st.st_uid == os.getuid():
        return True
    return st.st_uid == 0 and bool(st.st_mode & stat.S_ISVTX)


def resident_folder(owner: int, *, root: Path | None = None) -> Path:
    """This user's, owner's and package's resident folder (created private); the others' leftovers are swept."""
    started = started_at(owner)
    if started is None:
        raise FolderRefused(f"no process {owner}")
    # The environment by its prefix and its interpreter's file: a kernel and its server may name the same
    # interpreter differently (python, python3, a venv's link).
    python = f"{sys.prefix}\0{os.path.realpath(sys.executable)}\0{sys.version}"
    key = f"{os.getuid()}\0{owner}\0{started}\0{python}\0{package_digest()}"
    name = hashlib.sha256(key.encode()).hexdigest()[:16]
    refused: Exception = FolderRefused("no folder short enough for a socket")
    for base in [root] if root else [Path(os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()), Path("/tmp")]:
        folder = base / f"autograder-{os.getuid()}" / name
        if len(os.fsencode(folder / SOCKET_NAME)) >= forking.SOCKET_PATH_BYTES:
            continue
        if not trusted_base(base):
            refused = FolderRefused(f"{base} is not this user's, nor a sticky folder of root's")
            continue
        try:
            private_folder(folder.parent)
            private_folder(folder)
        except (OSError, FolderRefused) as e:  # another user's $XDG_RUNTIME_DIR (su keeps it), a full disk: the next
            refused = e
            continue
        (folder / OWNER_NAME).write_text(f"{owner} {started}\n")
        _sweep(folder)
        return folder
    raise refused


def _sweep(ours: Path) -> None:
    """Remove the folders of residents whose owner is gone; ask this owner's residents of another package to stop."""
    mine = (ours / OWNER_NAME).read_text()
    for other in ours.parent.iterdir():
        if other == ours or not other.is_dir() or other.is_symlink():
            continue
        try:
            owner, started = (other / OWNER_NAME).read_text().split()
        except (OSError, ValueError):
            continue
        if _lived_in(other):
            if f"{owner} {started}\n" == mine:
                stop_resident(other)  # the package changed since: nobody asks that one any more
        elif started_at(int(owner)) != started:
            shutil.rmtree(other, ignore_errors=True)


def _lived_in(folder: Path) -> bool:
    """Whether a resident holds ``folder``'s lock now."""
    try:
        fd = os.open(folder / ALIVE_NAME, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


# -- the kernel's side -----------------------------------------------------------------------------


class ResidentServer(GradingServer):
    """A kernel's handle on its owner's resident: starts it when none answers, asks it for judges.

    A resident that cannot start (its owner gone, no room for its folder) leaves this kernel to grade with a server of
    its own, as outside a kernel: slower after a restart, never a check() that fails for it.
    """

    def __init__(self, folder: Path, owner: int, *, idle: float = IDLE_SECONDS) -> None:
        super().__init__()
        self.folder, self.owner, self.idle = folder, owner, idle
        self.socket_path = str(folder / SOCKET_NAME)
        self.local: GradingServer | None = None
        """This kernel's own server, once the resident could not start."""

    @property
    def running(self) -> bool:
        return self.local.running if self.local is not None else self.pid() is not None

    def start(self) -> None:
        if self.killed:
            raise ServerError("the grading server was stopped (Ctrl-C)")
        if self._resident_started():
            return
        assert self.local is not None
        self.local.start()

    def stop(self) -> None:
        """Nothing to stop here: the resident outlives this kernel by design (see :func:`stop_resident`)."""

    def _stop_locked(self) -> None:
        pass

    def connect(self) -> socket.socket:
        """A socket connected to the grading zygote, as the resident hands it over."""
        for attempt in range(2):
            if self.killed:
                raise ServerError("the grading server was stopped (Ctrl-C)")
            try:
                started = self._resident_started()
            except ResidentBusy:
                return shared_server().connect()  # alive but not answering: this once, a grader of this kernel's
            if not started:
                assert self.local is not None
                return self.local.connect()
            try:
                asked = self._ask({"op": "judge"})
                try:
                    _, fds, _, _ = socket.recv_fds(asked, 1, 1)
                finally:
                    asked.close()
                if fds:
                    judge = socket.socket(fileno=fds[0])
                    judge.settimeout(30)
                    return judge
            except (OSError, EOFError, protocol.ProtocolError):
                pass
            if attempt:
                break
            # It went away between the question and the answer (idle, or killed): start another once.
        raise ServerError("the resident grader did not hand over a judge")

    def _resident_started(self) -> bool:
        """The resident answers (started now if need be); False once it could not start, and from then on.

        :class:`ResidentBusy` when one lives but does not answer: never a second one beside it.
        """
        with self._lock:
            if self.local is None:
                try:
                    self._ensure()
                except (OSError, FolderRefused, ServerError):
                    self.local = shared_server()
            return self.local is None

    def _ask(self, request: dict[str, Any], *, timeout: float = 30.0) -> socket.socket:
        return ask(self.folder, request, timeout=timeout)

    def pid(self) -> int | None:
        """The resident's pid, if one answers."""
        try:
            sock = self._ask({"op": "ping"}, timeout=PING_SECONDS)
        except OSError:
            return None
        try:
            answer = protocol.recv_message(sock)
        except (OSError, EOFError, protocol.ProtocolError):
            return None
        finally:
            sock.close()
        ok = isinstance(answer, dict) and answer.get("event") == "pong" and isinstance(answer.get("pid"), int)
        return answer["pid"] if ok else None

    def _ensure(self) -> None:
        """The resident answers, or one is started (one at a time across kernels: a lock file)."""
        if self.pid() is not None:
            return
        private_folder(self.folder.parent)
        private_folder(self.folder)  # removed when an owner's resident ended: made again, as private
        with open(self.folder / "lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            deadline = time.monotonic() + PING_SECONDS
            while self.pid() is None and _lived_in(self.folder):  # one lives: it answers, or it is stopping
                if time.monotonic() > deadline:
                    raise ResidentBusy(f"the resident in {self.folder} lives but does not answer")
                time.sleep(0.05)
            if self.pid() is None:
                self._spawn()

    def _spawn(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.socket_path)
        env = forking.clean_environment(self.folder)
        if os.environ.get("TMPDIR"):
            env["TMPDIR"] = os.environ["TMPDIR"]  # where the instructor put scratch, as a kernel's own server would
        code = "from autograder.grading.resident import main; main()"
        with open(self.folder / LOG_NAME, "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, *forking.SAFE_FLAGS, "-c", code, str(self.folder), str(self.owner), repr(self.idle)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=log,
                env=env,
                cwd=self.folder,
                start_new_session=True,  # not in the kernel's process group: a restart kills that group
                close_fds=True,
            )
        assert proc.stdout is not None
        try:
            ready, _, _ = select.select([proc.stdout], [], [], forking.START_TIMEOUT)
            line = proc.stdout.readline() if ready else b""
        finally:
            proc.stdout.close()
            proc.wait()  # the first process only forks the resident and leaves
        if line != forking.READY:
            raise ServerError(f"the resident grader did not start (its log: {self.folder / LOG_NAME})")


_residents: dict[int, ResidentServer] = {}
_residents_lock = threading.Lock()


def notebook_server() -> GradingServer:
    """check()'s grading server: its owner's resident inside a Jupyter kernel, else this process's own."""
    owner = kernel_owner()
    if owner is None:
        return shared_server()
    with _residents_lock:
        if (resident := _residents.get(owner)) is None or resident.killed:
            try:
                resident = ResidentServer(resident_folder(owner), owner)
            except (OSError, FolderRefused):
                return shared_server()  # no private folder to share: the kernel keeps a grader of its own
            _residents[owner] = resident
        return resident


def ask(folder: Path, request: dict[str, Any], *, timeout: float) -> socket.socket:
    """A connection to the resident of ``folder`` with ``request`` sent; OSError if what listens is not this user's."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(str(folder / SOCKET_NAME))
        creds = forking.peer_credentials(sock)
        if creds is None or creds[1] != os.getuid():
            raise ConnectionRefusedError(f"{folder / SOCKET_NAME} is served by another user")
        protocol.send_message(sock, request)
    except BaseException:
        sock.close()
        raise
    return sock


def stop_resident(folder: Path) -> bool:
    """Ask the resident of ``folder`` to stop (its owner, or a kernel of it, may), and wait until it no longer serves;
    whether one answered."""
    try:
        sock = ask(folder, {"op": "stop"}, timeout=10)
    except OSError:
        return False
    try:
        stopping = protocol.recv_message(sock) == {"event": "stopping"}
    except (OSError, EOFError, protocol.ProtocolError):
        return False
    finally:
        sock.close()
    deadline = time.monotonic() + 10
    while stopping and _lived_in(folder) and time.monotonic() < deadline:
        time.sleep(0.02)  # until it no longer serves: the next kernel starts another, never finds this one stopping
    return stopping


# -- the resident's side ---------------------------------------------------------------------------


def main() -> None:
    folder, owner, idle = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    if os.fork():
        os._exit(0)  # the kernel's child leaves: the resident is nobody's child, so no kernel's shutdown reaches it
    alive = os.open(folder / ALIVE_NAME, os.O_RDONLY | os.O_CREAT, 0o600)
    try:
        fcntl.flock(alive, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os._exit(0)  # another lives in this folder (its starter gave up waiting): one is enough
    watch = _watch(owner)
    if watch is None:
        os._exit(1)
    # Terminated (a session that ends, `kill`): the same clean-up as any other end.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _exit_cleanly)
    server = GradingServer(behind=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    path = str(folder / SOCKET_NAME)
    bound = None
    ended = "error"
    try:
        server.start()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a dead resident's: the lock says none lives
        listener.bind(path)
        os.chmod(path, 0o600)
        bound = os.stat(path).st_ino
        listener.listen(64)
        with contextlib.suppress(BrokenPipeError):  # whoever started it died meanwhile (a kernel restarted): serve on
            os.write(1, forking.READY)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        ended = _serve(listener, server, owner, watch, idle)
    finally:
        listener.close()
        with contextlib.suppress(OSError):
            if bound is not None and os.stat(path).st_ino == bound:
                os.unlink(path)
        os.close(alive)  # no longer serving: the next kernel may start another while these zygotes stop
        server.stop()
        if ended == "owner":
            # No resident can serve this owner again: its folder goes too (an idle one stays, for the next to start
            # in; the next kernel's sweep removes it once its owner is gone).
            shutil.rmtree(folder, ignore_errors=True)


def _exit_cleanly(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _watch(owner: int) -> Any:
    """Something ``select`` finds readable when ``owner`` ends: its pidfd, or a callable to poll where there is none."""
    started = started_at(owner)
    if started is None:
        return None
    try:
        fd = os.pidfd_open(owner)
    except (AttributeError, OSError):
        return lambda: started_at(owner) == started  # pragma: no cover - Linux before 5.3
    if started_at(owner) != started:  # the pid was reused between the two looks
        os.close(fd)
        return None
    return fd


def _serve(listener: socket.socket, server: GradingServer, owner: int, watch: Any, idle: float) -> str:
    """Serve until the owner ends ("owner"), nobody asked for ``idle`` seconds ("idle") or a caller said stop."""
    last = time.monotonic()
    stop_r, stop_w = os.pipe()  # a caller's stop wakes the loop at once
    watched = [listener, stop_r] + ([watch] if isinstance(watch, int) else [])
    while True:
        wait = max(0.0, last + idle - time.monotonic())
        readable, _, _ = select.select(watched, [], [], wait if isinstance(watch, int) else min(wait, 2.0))
        if stop_r in readable:
            return "stop"
        if watch in readable or (callable(watch) and not watch()):
            return "owner"  # the Jupyter server ended
        if listener not in readable:
            if time.monotonic() - last >= idle:
                return "idle"
            continue
        try:
            conn, _ = listener.accept()
        except OSError:
            continue
        last = time.monotonic()
        # Each caller in a thread of its own: one that says nothing, or a slow start of a judge, holds nobody.
        threading.Thread(target=_answer_and_close, args=(conn, server, owner, stop_w), daemon=True).start()


def _answer_and_close(conn: socket.socket, server: GradingServer, owner: int, stop: int) -> None:
    try:
        if _answer(conn, server, owner) == "stop":
            os.write(stop, b"x")
    except (OSError, EOFError, protocol.ProtocolError, ServerError):
        pass  # that caller's problem: the next one is served
    finally:
        conn.close()


def _answer(conn: socket.socket, server: GradingServer, owner: int) -> str | None:
    """One caller's one request, if it may ask: the owner or one of its kernels, this user."""
    pid, uid, _ = forking.peer_credentials(conn) or (0, -1, 0)
    if uid != os.getuid() or not (pid == owner or parent_of(pid) == owner):
        return None
    conn.settimeout(10)
    request = protocol.recv_message(conn)
    op = request.get("op") if isinstance(request, dict) else None
    if op == "ping":
        protocol.send_message(conn, {"event": "pong", "pid": os.getpid()})
    elif op == "stop":
        protocol.send_message(conn, {"event": "stopping"})
        return "stop"
    elif op == "judge":
        judge = server.connect()
        try:
            socket.send_fds(conn, [b"\0"], [judge.fileno()])
        finally:
            judge.close()
    return None
