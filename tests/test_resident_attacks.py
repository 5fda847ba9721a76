"""Attacks on the resident grader (autograder/grading/resident.py): each test fails on the code as reviewed.

As in tests/test_resident_grader.py, the test process plays the Jupyter server (the owner) unless a test says
otherwise.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.grading import resident
from autograder.grading.pipeline import grade_loaded
from autograder.intake.submission import load_submission
from autograder.wire import forking, protocol
from tests.resident_processes import alive, residents, wait_for

DATA = Path(__file__).parent / "data" / "submissions"
NOBODY = 65534

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the resident watches its owner with a pidfd")


@pytest.fixture
def short_root() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="ra-", dir="/tmp"))
    os.chmod(root, 0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _kill_resident(pid: int) -> None:
    """End a resident the test started, and what it leaves when killed (its zygotes' run folder)."""
    zygotes = _children(pid)
    run_dirs = set()
    for z in zygotes:
        try:
            run_dirs.add(Path(os.readlink(f"/proc/{z}/cwd")))
        except OSError:
            pass
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for z in [pid, *zygotes]:
        wait_for(lambda z=z: not alive(z))
    for d in run_dirs:
        shutil.rmtree(d, ignore_errors=True)


def _become_nobody() -> None:
    """In a forked child of root: drop to nobody, keeping /proc/self ours (setuid clears 'dumpable')."""
    os.setgroups([])
    os.setresgid(NOBODY, NOBODY, NOBODY)
    os.setresuid(NOBODY, NOBODY, NOBODY)
    ctypes.CDLL(None, use_errno=True).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE


# -- 1. another user's folder: the kernel talks to whatever listens at the path -------------------


def _fake_resident(path: str, ready: int) -> None:
    """Another user's resident: answers every ping, hands over a 'judge' that steals the submission and says 999."""
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(path)
    os.chmod(path, 0o777)
    srv.listen(8)
    os.write(ready, b"x")
    while True:
        conn, _ = srv.accept()
        request = protocol.recv_message(conn)
        if request.get("op") == "ping":
            protocol.send_message(conn, {"event": "pong", "pid": os.getpid()})
        elif request.get("op") == "judge":
            ours, theirs = socket.socketpair()
            socket.send_fds(conn, [b"\0"], [ours.fileno()])
            ours.close()
            protocol.recv_message(theirs)  # the learner's submission, read by another user
            protocol.send_message(theirs, {"event": "started", "pid": None, "uid": None})
            result = {"submission": "x", "score": 999.0, "max_score": 1.0, "criteria": []}
            protocol.send_message(theirs, {"event": "result", "result": result})
            theirs.close()
        conn.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to play root and another user")
def test_root_with_another_users_runtime_folder_is_never_served_by_that_user(short_root, monkeypatch) -> None:
    """`su` (not `su -`) keeps the user's $XDG_RUNTIME_DIR: root's resident folder may not live where that user can
    rename it away and put a socket of theirs in its place; and a kernel must not take a judge from another uid."""
    theirs = short_root / "run-user"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, NOBODY, NOBODY)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(theirs))
    folder = resident.resident_folder(os.getpid())
    if not folder.is_relative_to(theirs):
        return  # passed over: the defect is fixed at the folder
    # The other user swaps root's folder for one of theirs (they own its parent), with a socket of theirs.
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the other user
        try:
            _become_nobody()
            os.rename(folder.parent, theirs / "moved")
            folder.mkdir(parents=True, mode=0o700)
            _fake_resident(str(folder / resident.SOCKET_NAME), ready_w)
        finally:
            os._exit(1)
    try:
        assert os.read(ready_r, 1) == b"x"
        server = resident.ResidentServer(folder, os.getpid())
        result = grade_loaded(load_submission(DATA / "good.py"), server=server)
        assert result.score != 999.0, "root's check() was graded by another user's process"
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(ready_r)
        os.close(ready_w)


# -- 2. a resident slow to answer is replaced while it lives: two residents, the first unreachable -----


class _QuickKernel(resident.ResidentServer):
    """A kernel whose questions time out after 1 s instead of 30 s (the logic under test is the same)."""

    def _ask(self, request, *, timeout=None):
        return super()._ask(request, timeout=1.0)


def test_a_resident_slow_to_answer_is_not_replaced_while_it_lives(short_root) -> None:
    """A resident busy past the kernel's timeout (restarting its zygotes at niceness 10 on a loaded host; here:
    stopped) is alive: the kernel must not unlink its socket and start a second one beside it."""
    kernel = _QuickKernel(resident.resident_folder(os.getpid(), root=short_root), os.getpid())
    kernel.start()
    first = kernel.pid()
    assert first is not None
    os.kill(first, signal.SIGSTOP)
    try:
        try:  # served (by whom?), refused, or fallen back to a grader of its own: not the point here
            kernel.connect().close()
        except Exception:  # noqa: BLE001
            pass
    finally:
        os.kill(first, signal.SIGCONT)
    try:
        assert residents(folder=kernel.folder) == [first], "a second resident was started beside a live one"
        assert kernel.pid() == first, "the live resident's socket was unlinked: it can never be reached again"
    finally:
        for pid in residents(folder=kernel.folder):
            _kill_resident(pid)


# -- 3. an admitted caller that says nothing holds every other kernel for 10 s ---------------------


def test_a_silent_caller_does_not_hold_the_other_kernels(short_root) -> None:
    kernel = resident.ResidentServer(resident.resident_folder(os.getpid(), root=short_root), os.getpid())
    kernel.start()
    try:
        silent = socket.socket(socket.AF_UNIX)
        silent.connect(kernel.socket_path)  # a kernel frozen (or a cell's code) between connect and its request
        time.sleep(0.2)
        started = time.monotonic()
        assert kernel.pid() is not None
        assert time.monotonic() - started < 2.0, "one silent caller held every other kernel's request"
        silent.close()
    finally:
        resident.stop_resident(kernel.folder)


# -- 4. leftovers ---------------------------------------------------------------------------------

OWNER = """
import subprocess, sys
kernel = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE)
print(kernel.stdout.readline().decode().strip(), flush=True)
sys.stdin.read()
"""

IDLE_KERNEL = """
import json, os, sys
from pathlib import Path
from autograder.grading import resident
server = resident.ResidentServer(resident.resident_folder(os.getppid(), root=Path(sys.argv[1])), os.getppid(),
                                 idle=1.0)
server.start()
print(json.dumps({"pid": server.pid(), "folder": str(server.folder)}), flush=True)
sys.stdin.read()
"""


def test_a_resident_that_ended_idle_leaves_no_folder_once_its_owner_is_gone(short_root) -> None:
    """The idle resident leaves its folder 'for the next one'; when its Jupyter server then ends, nobody removes it
    (the resident that would have is gone): /tmp/autograder-UID/ fills with one folder per server and package.
    Removed by then, or swept by the next kernel of this user that looks for its own folder."""
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, IDLE_KERNEL, str(short_root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    said = json.loads(owner.stdout.readline())
    folder = Path(said["folder"])
    assert said["pid"] is not None
    assert wait_for(lambda: not alive(said["pid"]), 20), "the idle resident did not end"
    owner.kill()  # the Jupyter server ends (its kernel with it)
    owner.wait()
    resident.resident_folder(os.getpid(), root=short_root)  # a kernel of another server of this user looks
    assert wait_for(lambda: not folder.exists(), 10), f"left behind: {sorted(p.name for p in folder.iterdir())}"


def test_a_terminated_resident_removes_its_run_folder_and_socket(short_root) -> None:
    """SIGTERM (a session or a systemd unit that stops, `kill PID`) skips every `finally`: the zygotes' run folder
    (in /dev/shm: RAM) and the socket stay behind."""
    kernel = resident.ResidentServer(resident.resident_folder(os.getpid(), root=short_root), os.getpid())
    kernel.start()
    pid = kernel.pid()
    assert pid is not None
    run_dirs = {Path(os.readlink(f"/proc/{z}/cwd")) for z in _children(pid)}
    assert run_dirs
    os.kill(pid, signal.SIGTERM)
    try:
        assert wait_for(lambda: not alive(pid))
        assert wait_for(lambda: not any(d.exists() for d in run_dirs), 10), "the zygotes' run folder was left behind"
        assert not Path(kernel.socket_path).exists(), "the socket was left behind"
    finally:
        for d in run_dirs:
            shutil.rmtree(d, ignore_errors=True)


# -- 5. as an unprivileged user the zygotes' sessions do not stay behind ---------------------------


@pytest.mark.skipif(not Path("/proc/self/autogroup").exists(), reason="no autogroups")
def test_every_session_stays_behind_as_an_unprivileged_user() -> None:
    """The kernel lets a process without CAP_SYS_ADMIN change an autogroup's niceness once per 100 ms, machine-wide
    (EAGAIN otherwise, which stay_behind swallows). The resident's two zygotes start at once: for a learner (never
    root on a JupyterHub) one of them stays at autogroup niceness 0, in front of the kernels."""
    results = []
    readers = []
    pids = []
    for _ in range(3):  # the resident and its two zygotes, started together
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            try:
                os.close(r)
                if os.geteuid() == 0:
                    _become_nobody()
                os.setsid()
                os.nice(10)
                forking.stay_behind()
                os.write(w, Path("/proc/self/autogroup").read_text().split()[-1].encode())
            finally:
                os._exit(0)
        os.close(w)
        readers.append(r)
        pids.append(pid)
    for r, pid in zip(readers, pids, strict=True):
        os.waitpid(pid, 0)
        results.append(os.read(r, 16).decode())
        os.close(r)
    assert results == ["10", "10", "10"], f"autogroup niceness of three sessions started together: {results}"
