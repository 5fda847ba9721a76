"""check()'s grader outlives the kernel: a resident kept for every kernel of one Jupyter server (its owner).

These tests play the Jupyter server themselves: the test process is the owner, and a "kernel" is a child of it.
"""

from __future__ import annotations

import json
import os
import shutil
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
from tests.resident_processes import alive, residents, wait_for

DATA = Path(__file__).parent / "data" / "submissions"

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the resident watches its owner with a pidfd")


@pytest.fixture
def short_root() -> Iterator[Path]:
    """A folder short enough for a socket's path, wherever pytest keeps its own."""
    root = Path(tempfile.mkdtemp(prefix="rg-", dir="/tmp"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def owned(short_root: Path) -> Iterator[resident.ResidentServer]:
    """A resident this test process owns; stopped at the end, whatever the test did to it."""
    server = resident.ResidentServer(resident.resident_folder(os.getpid(), root=short_root), os.getpid())
    yield server
    resident.stop_resident(server.folder)
    _wait_gone(server)


def _wait_gone(server: resident.ResidentServer, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while server.pid() is not None and time.monotonic() < deadline:
        time.sleep(0.05)


def _children(pid: int) -> list[int]:
    """The resident's children: its two zygotes (their judges come and go)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _grade_good(server: resident.ResidentServer) -> tuple[float, float]:
    result = grade_loaded(load_submission(DATA / "good.py"), server=server)
    return result.score, result.max_score


@pytest.mark.warm_up("grading_server")
def test_a_submission_is_graded_through_the_resident_and_the_next_caller_finds_it_running(owned) -> None:
    score, most = _grade_good(owned)
    assert most > 0 and score == most
    first = owned.pid()
    assert first is not None and alive(first)
    zygotes = _children(first)
    assert len(zygotes) >= 2, "the resident runs both zygotes"
    for pid in zygotes:  # behind the kernels while they started; serving, at full speed (wall-clock limits)
        assert os.getpriority(os.PRIO_PROCESS, pid) == os.getpriority(os.PRIO_PROCESS, 0)
        if os.path.exists(f"/proc/{pid}/autogroup"):
            assert Path(f"/proc/{pid}/autogroup").read_text().split()[-1] == "0"

    # Another kernel of the same owner: a new handle, the same resident and zygotes, the same verdicts.
    again = resident.ResidentServer(owned.folder, os.getpid())
    assert _grade_good(again) == (score, most)
    assert again.pid() == first
    assert set(zygotes) <= set(_children(first))


KERNEL = """
import json, os, sys
from pathlib import Path
from autograder.grading import resident
server = resident.ResidentServer(resident.resident_folder(os.getppid(), root=Path(sys.argv[1])), os.getppid())
server.start()
print(json.dumps({"pid": server.pid(), "folder": str(server.folder)}), flush=True)
sys.stdin.read()  # a kernel, until its server closes it
"""

ASK = """
import sys
from pathlib import Path
from autograder.grading import resident
print(resident.ResidentServer(Path(sys.argv[1]), 0).pid())
"""


def _start_kernel(root: Path, *, owner_script: str | None = None) -> tuple[subprocess.Popen[str], dict]:
    """A kernel, child of this process (or of ``owner_script``'s process: an owner that prints what its kernel says)."""
    command = [sys.executable, "-c", KERNEL, str(root)]
    if owner_script is not None:
        command = [sys.executable, "-c", owner_script, KERNEL, str(root)]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    said = proc.stdout.readline()
    assert said, "the kernel did not start its resident"
    return proc, json.loads(said)


def test_only_the_owner_and_its_kernels_are_served(owned, short_root: Path) -> None:
    """A kernel (the owner's child) starts it and is answered; the kernel's own child (a learner's process) and a
    process of another parent get no answer, so no judge of their own."""
    kernel, said = _start_kernel(short_root)
    try:
        assert said["folder"] == str(owned.folder)
        assert owned.pid() == said["pid"]  # the owner is answered too
        through_kernel = (
            "import subprocess, sys; print(subprocess.run([sys.executable, '-c', sys.argv[1], sys.argv[2]],"
            " capture_output=True, text=True).stdout.strip())"
        )
        grandchild = subprocess.run(
            [sys.executable, "-c", through_kernel, ASK, said["folder"]], capture_output=True, text=True, timeout=60
        )
        assert grandchild.stdout.strip() == "None", grandchild.stderr[-2000:]
        owned._ask({"op": "judge"}).close()  # the owner may ask for a judge
    finally:
        kernel.stdin.close()  # type: ignore[union-attr]
        kernel.wait(timeout=30)
    # A kernel ending is not its owner ending: the resident stays for the next kernel.
    assert owned.pid() == said["pid"]


OWNER = """
import subprocess, sys
kernel = subprocess.Popen([sys.executable, "-c", *sys.argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
print(kernel.stdout.readline().decode().strip(), flush=True)
sys.stdin.read()
"""


def test_the_resident_ends_with_its_owner_and_takes_its_zygotes_and_folder(short_root: Path) -> None:
    owner, said = _start_kernel(short_root, owner_script=OWNER)
    pid, folder = said["pid"], Path(said["folder"])
    zygotes = _children(pid)
    assert alive(pid) and len(zygotes) >= 2
    owner.kill()  # a Jupyter server that dies without a word (its kernel's stdin closes with it)
    owner.wait()
    assert wait_for(lambda: not alive(pid)), "the resident outlived its owner"
    assert wait_for(lambda: not any(map(alive, zygotes))), "a zygote outlived the resident"
    deadline = time.monotonic() + 10
    while folder.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not folder.exists()


def test_an_idle_resident_stops_and_the_next_check_starts_another(owned) -> None:
    quick = resident.ResidentServer(owned.folder, os.getpid(), idle=1.0)
    quick.start()
    first = quick.pid()
    assert first is not None
    assert wait_for(lambda: not alive(first), 20), "an idle resident kept running"
    assert owned.folder.is_dir(), "an idle resident leaves its folder for the next one"
    assert _grade_good(owned)[0] > 0
    assert owned.pid() not in (None, first)


def test_a_killed_resident_is_replaced_by_the_next_check(owned) -> None:
    owned.start()
    first = owned.pid()
    assert first is not None
    zygotes = _children(first)
    os.kill(first, 9)
    assert wait_for(lambda: not alive(first))
    assert wait_for(lambda: not any(map(alive, zygotes))), "the zygotes stop when their resident dies (stdin closes)"
    score, most = _grade_good(owned)
    assert score == most > 0
    assert owned.pid() not in (None, first)


def test_the_package_is_part_of_the_residents_name(tmp_path: Path) -> None:
    package = tmp_path / "lesson3"
    (package / "__pycache__").mkdir(parents=True)
    (package / "agent.py").write_text("A = 1\n")
    before = resident.package_digest([package])
    (package / "__pycache__" / "agent.cpython-311.pyc").write_bytes(b"compiled")
    assert resident.package_digest([package]) == before, "compiled files are not the package"
    (package / "agent.py").write_text("A = 22\n")
    assert resident.package_digest([package]) != before, "an edited module is another package"
    (package / "agent.py").write_text("A = 1\n")
    os.utime(package / "agent.py", ns=(0, 0))
    assert resident.package_digest([package]) != before
    (package / "new.py").write_text("")
    assert resident.package_digest([package]) != resident.package_digest([tmp_path / "nothing"])


@pytest.mark.parametrize("how", ["open to others", "a link", "a file"])
def test_a_folder_someone_else_could_use_is_refused(short_root: Path, how: str) -> None:
    base = short_root / f"autograder-{os.getuid()}"
    if how == "open to others":
        base.mkdir(mode=0o700)
        base.chmod(0o777)
    elif how == "a link":
        (short_root / "elsewhere").mkdir()
        base.symlink_to(short_root / "elsewhere")
    else:
        base.write_text("")
    with pytest.raises(resident.FolderRefused):
        resident.resident_folder(os.getpid(), root=short_root)


def test_outside_a_kernel_check_keeps_a_grader_of_its_own() -> None:
    from autograder.grading.server import shared_server

    assert resident.kernel_owner() is None
    assert resident.notebook_server() is shared_server()


@pytest.mark.slow
def test_check_after_a_kernel_restart_finds_the_grader_the_kernel_before_started(tmp_path: Path) -> None:
    """The learner's journey: check(), restart the kernel, check() again; the second is served by the same
    resident (no fresh interpreters to start) and grades the same. The kernel's owner here is this process."""
    from jupyter_client.manager import start_new_kernel

    good = (DATA / "good.py").read_text(encoding="utf-8")
    probe = (
        "import contextlib, io, json\n"
        "from autograder import check\n"
        "from autograder.grading.resident import notebook_server\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    _result = check()\n"
        "_server = notebook_server()\n"
        "print(json.dumps([_result.score, _result.max_score, _server.pid(), str(_server.folder)]))\n"
    )
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(tmp_path))
    seen = []
    try:
        for _ in range(2):
            _execute(kc, good)
            seen.append(json.loads(_execute(kc, probe)))
            km.restart_kernel(now=True)
            kc.wait_for_ready(timeout=60)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    (score, most, pid, folder), again = seen
    assert score == most > 0
    assert again == [score, most, pid, folder], "the kernel after the restart was served by another grader"
    assert resident.stop_resident(Path(folder))


def _execute(kc, code: str) -> str:
    """Run ``code`` in the kernel; its printed output (a traceback fails the test)."""
    msg_id = kc.execute(code)
    out = []
    while True:
        message = kc.get_iopub_msg(timeout=120)
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = message["msg_type"], message["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            pytest.fail("\n".join(content["traceback"]))
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(out)


def test_a_resident_that_cannot_start_leaves_the_kernel_a_grader_of_its_own(short_root: Path) -> None:
    gone = subprocess.Popen(["sleep", "600"])
    folder = resident.resident_folder(gone.pid, root=short_root)
    gone.kill()
    gone.wait()  # its Jupyter server ended before the resident could watch it: the resident gives up at once
    server = resident.ResidentServer(folder, gone.pid)
    score, most = _grade_good(server)
    assert score == most > 0
    assert server.pid() is None and server.local is not None and server.local.running


def test_a_runtime_folder_of_another_user_is_passed_over_for_the_next(short_root: Path, monkeypatch) -> None:
    """`su` keeps the first user's $XDG_RUNTIME_DIR: a folder this user may not use is not where the resident lives."""
    theirs = short_root / "theirs"
    theirs.mkdir(mode=0o500)  # not writable: as another user's would be
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(theirs))
    if os.access(theirs, os.W_OK):
        theirs.chmod(0o700)
        (theirs / f"autograder-{os.getuid()}").mkdir(mode=0o777)
        (theirs / f"autograder-{os.getuid()}").chmod(0o777)  # root writes anywhere: a folder open to others instead
    folder = resident.resident_folder(os.getpid())
    try:
        assert not folder.is_relative_to(theirs) and folder.is_dir()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


STARTER = """
import os, sys, threading
from pathlib import Path
from autograder.grading import resident
server = resident.ResidentServer(Path(sys.argv[1]), os.getppid())
threading.Thread(target=server.start, daemon=True).start()
sys.stdin.read(1)  # told to die: a kernel restarted while its warm_up() was starting the resident
os._exit(0)
"""


def test_a_kernel_that_dies_while_it_starts_the_resident_leaves_it_serving_the_next(owned) -> None:
    kernel = subprocess.Popen([sys.executable, "-c", STARTER, str(owned.folder)], stdin=subprocess.PIPE)
    starting = wait_for(lambda: residents(folder=owned.folder))
    assert starting, "the kernel did not start a resident"
    kernel.communicate(b"x", timeout=30)  # it dies before the resident said it was ready
    assert owned.pid() is None, "the resident was ready before the kernel died: nothing was tested"
    assert wait_for(lambda: owned.pid() is not None), "the resident died with the kernel that was starting it"
    assert owned.pid() in residents(folder=owned.folder)


def test_a_stopped_resident_makes_way_at_once_for_the_next_one(owned) -> None:
    """Stopped (or idle), it no longer serves before its zygotes are gone: a kernel asking right then starts the next
    resident; it never finds the old one half-stopped and falls back to starting two interpreters of its own."""
    owned.start()
    first = owned.pid()
    assert resident.stop_resident(owned.folder)
    again = resident.ResidentServer(owned.folder, os.getpid())
    assert _grade_good(again)[0] > 0
    assert again.local is None, "the kernel fell back to a grader of its own"
    assert again.pid() not in (None, first)
