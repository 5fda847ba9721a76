"""Step 2, run isolated: the learner's child process, its confinement and its limits.

These fork the child straight from the test process (the grader forks it from a
judge); every property is checked from outside or reported by the child itself.
"""

from __future__ import annotations

import functools
import hashlib
import operator
import os
import shutil
import signal
import socket
import time
from pathlib import Path

import pytest

import autograder.judging.process
import autograder.learner.runner  # imported before forking, as the zygote does
import lesson3
import lesson3.crash
from autograder.course.catalogue import text
from autograder.intake.submission import Submission, from_python
from autograder.learner import landlock
from autograder.sandbox.learner_process import (
    Failure,
    Learner,
    Limits,
    Reply,
    learner_uid,
    prepare_box,
    running_as_root,
)
from autograder.wire import protocol

pytestmark = pytest.mark.warm_up("learner_zygote")

ROOT = running_as_root()
needs_root = pytest.mark.skipif(not ROOT, reason="the privilege drop needs a root grader")
LANDLOCK = landlock.abi_version()
needs_landlock = pytest.mark.skipif(LANDLOCK < 1, reason="this kernel has no Landlock (Linux >= 5.13)")
needs_landlock_scopes = pytest.mark.skipif(
    LANDLOCK < 6, reason=f"signal and abstract socket scopes need Landlock ABI >= 6 (this kernel: {LANDLOCK})"
)
REPO = Path(__file__).resolve().parents[1]

SLACK = 5.0
"""Seconds a loaded 2-core machine may add to a limit. Generous on purpose: what these tests
check is that the limit ends the call, where the learner's code alone would run for a minute
or forever; how fast that is, is a bench figure (bench/bench_grading.py), not an assertion."""


def start(
    source: str,
    box: Path,
    limits: Limits | None = None,
    submission: Submission | None = None,
    *,
    drop: bool = True,
    landlock: bool = True,
) -> Learner:
    uid = learner_uid(os.getpid()) if ROOT and drop else None
    prepare_box(box, uid)
    sub = submission or from_python(source, "entrega.py")
    learner = Learner(list(sub.runnable), limits=limits or Limits(), box=box, uid=uid, landlock=landlock)
    reply = learner.start()
    assert isinstance(reply, Reply), reply
    return learner


def value(reply: Reply | Failure) -> object:
    assert isinstance(reply, Reply), reply
    assert reply.message["status"] == "ok", reply.message
    return reply.message["value"]


def test_load_reports_definitions_and_answers(box):
    learner = start("def resume_action(cp):\n    return 'continue'\nrespuesta_causa_raiz = 'b'\nreconcile = 3", box)
    try:
        assert value(learner.call("resume_action", {}, timeout=2)) == "continue"
    finally:
        learner.close()


def test_the_tool_proxy_asks_the_judge_and_returns_its_answer(box):
    learner = start("def reconcile(cp):\n    return [execute_tool('grep', {'pattern': cp}), 'listo']", box)
    asked = []

    def on_tool(name, tool_input):
        asked.append((name, tool_input))
        return {"content": f"resultado de {name}", "is_error": False}

    try:
        assert value(learner.call("reconcile", "x", timeout=2, on_tool=on_tool)) == ["resultado de grep", "listo"]
        assert asked == [("grep", {"pattern": "x"})]
    finally:
        learner.close()


def test_an_awaited_execute_tool_works_in_an_async_reconcile(box):
    source = "async def reconcile(cp):\n    return await execute_tool('read_file', {'path': cp})"
    learner = start(source, box)
    try:
        reply = learner.call(
            "reconcile", "a.md", timeout=2, on_tool=lambda n, i: {"content": "hola", "is_error": False}
        )
        assert value(reply) == "hola"
    finally:
        learner.close()


QUEUED_TOOL_REQUESTS = """
import json, os, struct

def _queue(ch, n, call_id):
    frame = json.dumps({"op": "tool", "id": call_id, "name": "grep", "input": {}}).encode()
    with ch.lock:
        os.write(ch.write_fd, (struct.pack(">I", len(frame)) + frame) * n)

def reconcile(cp):
    ch = execute_tool.__self__  # the learner's own channel: nothing stops code from writing on it
    _queue(ch, 40, ch.call_id + cp)
    return execute_tool("grep", {})
"""


def test_tool_requests_queued_at_once_do_not_outlast_the_calls_limit(box):
    learner = start(QUEUED_TOOL_REQUESTS, box)
    asked = []

    def slow_tool(name, tool_input):  # as a catastrophic grep costs the judge its time limit
        asked.append(name)
        time.sleep(0.25)
        return {"content": "", "is_error": False}

    try:
        reply = learner.call("reconcile", 0, timeout=1, on_tool=slow_tool)
    finally:
        learner.close()
    assert isinstance(reply, Failure) and reply.kind == "timeout", reply
    assert 1 <= len(asked) <= 6  # answering all 40 would have taken 10 s past a limit of 1 s


def test_a_tool_request_for_another_call_breaks_the_protocol(box):
    learner = start(QUEUED_TOOL_REQUESTS.replace("40, ch.call_id", "1, ch.call_id"), box)
    asked = []
    try:
        reply = learner.call("reconcile", 1000, timeout=2, on_tool=lambda n, i: asked.append(n) or {"content": ""})
    finally:
        learner.close()
    assert isinstance(reply, Failure) and reply.kind == "protocol" and asked == [], reply


def test_a_tool_answer_too_big_for_a_frame_comes_back_as_an_error(box):
    learner = start("def reconcile(cp):\n    r = execute_tool('grep', {})\n    return [len(r), r[:40]]", box)
    flood = {"content": "x" * protocol.MAX_FRAME, "is_error": False}
    try:
        answered = value(learner.call("reconcile", 0, timeout=5, on_tool=lambda n, i: flood))
    finally:
        learner.close()
    assert answered[1] == text("tool.reply_too_big")[:40]


PROBE = """
import os, posix, resource, signal
def _links():
    links = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            links.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass  # the descriptor listdir itself used
    return links
def resume_action(cp):
    try:
        os.kill(os.getppid(), 0)
        can_signal_parent = True
    except PermissionError:
        can_signal_parent = False
    try:
        open(cp, "a").close()
        can_write_grader = True
    except OSError:
        can_write_grader = False
    return {
        "uid": os.getuid(), "euid": os.geteuid(), "groups": os.getgroups(),
        "pid": os.getpid(), "pgid": os.getpgrp(), "sid": os.getsid(0),
        "cwd": os.getcwd(), "env": dict(os.environ),
        "posix_env": sorted(k.decode() for k in posix.environ),
        "nproc": resource.getrlimit(resource.RLIMIT_NPROC)[0],
        "cpu": resource.getrlimit(resource.RLIMIT_CPU)[0],
        "fsize": resource.getrlimit(resource.RLIMIT_FSIZE)[0],
        "can_signal_parent": can_signal_parent,
        "can_write_grader": can_write_grader,
        "fds": _links(),
    }
"""


def test_the_child_runs_in_its_own_session_with_a_scrubbed_environment_and_limits(box, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-grader-secret")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_grader_secret")
    learner = start(PROBE, box, Limits(cpu_seconds=7, file_mb=3))
    try:
        probe = value(learner.call("resume_action", protocol.__file__, timeout=3))
    finally:
        learner.close()
    assert probe["pgid"] == probe["pid"] == probe["sid"]  # its own session and process group
    assert set(probe["env"]) == {"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "PYTHONIOENCODING", "USER", "LOGNAME"}
    assert "sk-ant" not in repr(probe["env"]) and "ghp_" not in repr(probe["env"])
    assert set(probe["posix_env"]) == set(probe["env"])
    assert probe["env"]["HOME"] == str(box) == probe["cwd"]
    assert probe["cpu"] == 7 and probe["fsize"] == 3 * 1024 * 1024
    # Only stdio, the protocol pipes and import directories: no socket, no file of the grader.
    leaked = [t for t in probe["fds"] if not (t.startswith("pipe:") or t == "/dev/null" or os.path.isdir(t))]
    assert leaked == []


@needs_root
def test_as_root_the_child_is_an_unprivileged_uid_that_cannot_signal_or_write_the_grader(box):
    learner = start(PROBE, box)
    try:
        probe = value(learner.call("resume_action", protocol.__file__, timeout=3))
    finally:
        learner.close()
    assert probe["uid"] == probe["euid"] == learner_uid(os.getpid()) != 0
    assert probe["groups"] == []
    # Itself and its threads (seccomp stops processes), or itself alone.
    assert probe["nproc"] == 1 + (Limits().threads if landlock.seccomp_available() else 0)
    assert probe["can_signal_parent"] is False
    assert probe["can_write_grader"] is False


PROCESS_ATTEMPTS = """
import os, subprocess, threading, multiprocessing
def resume_action(cp):
    seen = []
    def thread():
        t = threading.Thread(target=lambda: None)
        t.start()
        t.join()
    for attempt in (os.fork, thread, lambda: subprocess.run(["true"]),
                    lambda: multiprocessing.Process(target=print).start(),
                    lambda: os.posix_spawn("/bin/true", ["true"], {})):
        try:
            attempt()
            seen.append("ok")
        except (OSError, RuntimeError) as e:
            seen.append(type(e).__name__)
    return seen
"""


@pytest.mark.skipif(not landlock.seccomp_available(), reason="threads are allowed only where seccomp stops processes")
def test_threads_but_no_fork_no_subprocess(box):
    learner = start(PROCESS_ATTEMPTS, box)
    try:
        seen = value(learner.call("resume_action", None, timeout=3))
        assert seen[1] == "ok"  # a thread
        assert seen[0] == seen[2] == seen[3] == "BlockingIOError" and seen[4] in ("BlockingIOError", "PermissionError")
    finally:
        learner.close()


def test_without_seccomp_neither_processes_nor_threads(box):
    # As root, RLIMIT_NPROC counts the learner's own uid; otherwise the grader's uid, which is never empty.
    learner = start(PROCESS_ATTEMPTS, box, landlock=False)
    try:
        seen = value(learner.call("resume_action", None, timeout=3))
        assert seen[:3] == ["BlockingIOError", "RuntimeError", "BlockingIOError"]
    finally:
        learner.close()


def test_stdlib_modules_not_preloaded_still_import_after_the_privilege_drop(box):
    source = (
        "def resume_action(cp):\n    import decimal, pprint, statistics\n    return str(decimal.Decimal('1.5') * 2)"
    )
    learner = start(source, box)
    try:
        assert value(learner.call("resume_action", None, timeout=5)) == "3.0"
    finally:
        learner.close()


@pytest.mark.parametrize(
    ("imports", "expression"),
    [
        ("import tomllib", "tomllib.loads('a = 3')['a']"),  # a package: its __init__.py, then its modules
        ("from wsgiref.headers import Headers", "len(Headers([('a', 'b'), ('c', 'd'), ('e', 'f')]))"),
        ("import colorsys", "int(colorsys.rgb_to_hsv(0, 0, 3)[2])"),  # a plain module
    ],
)
def test_stdlib_packages_and_modules_not_preloaded_import_after_the_drop(box, imports, expression):
    learner = start(f"def resume_action(cp):\n    {imports}\n    return {expression}", box)
    try:
        assert value(learner.call("resume_action", None, timeout=5)) == 3
    finally:
        learner.close()


def test_an_infinite_loop_costs_the_time_limit_and_the_process_is_gone(box):
    learner = start("def resume_action(cp):\n    while True:\n        pass", box)
    pid = learner.pid
    started = time.monotonic()
    reply = learner.call("resume_action", None, timeout=0.5)
    elapsed = time.monotonic() - started
    assert isinstance(reply, Failure) and reply.kind == "timeout"
    assert elapsed < 0.5 + SLACK
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    learner.close()


def test_a_sleep_that_ignores_signals_is_killed_too(box):
    source = (
        "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ndef resume_action(cp):\n    time.sleep(60)"
    )
    learner = start(source, box)
    started = time.monotonic()
    reply = learner.call("resume_action", None, timeout=0.3)
    assert isinstance(reply, Failure) and reply.kind == "timeout"
    assert time.monotonic() - started < 0.3 + SLACK
    learner.close()


@pytest.mark.slow
def test_the_cpu_limit_is_a_backstop_for_busy_loops(box):
    learner = start("def resume_action(cp):\n    while True:\n        pass", box, Limits(cpu_seconds=1))
    reply = learner.call("resume_action", None, timeout=10)
    assert isinstance(reply, Failure) and reply.kind == "cpu"
    learner.close()


@pytest.mark.parametrize(
    "body",
    [
        "sys.stdout.write('x' * (50 * 1024 * 1024))",
        "for _ in range(200_000):\n        print('y' * 200)",
        "sys.stderr.write('z' * (30 * 1024 * 1024))",
    ],
)
def test_tens_of_megabytes_of_output_are_dropped_and_the_call_still_answers(box, body):
    learner = start(f"import sys\ndef resume_action(cp):\n    {body}\n    return 'continue'\n", box)
    try:
        assert value(learner.call("resume_action", None, timeout=20)) == "continue"
        assert len(learner.output.kept) == Limits().output_kb * 1024
        assert learner.output.cut and learner.output.total > 20 * 1024 * 1024
    finally:
        learner.close()


def test_moderate_output_is_kept_up_to_the_cap_and_the_call_still_works(box):
    learner = start("def resume_action(cp):\n    print('a' * 100_000)\n    return 'continue'", box, Limits(output_kb=4))
    try:
        assert value(learner.call("resume_action", None, timeout=3)) == "continue"
        assert bytes(learner.output.kept) == b"a" * 4096
    finally:
        learner.close()


@pytest.mark.parametrize(
    ("body", "kind", "detail"),
    [
        ("os._exit(3)", "exited", "3"),
        ("os.kill(os.getpid(), signal.SIGSEGV)", "crashed", "SIGSEGV"),
        ("import ctypes; ctypes.string_at(0)", "crashed", "SIGSEGV"),
    ],
)
def test_a_child_that_dies_is_reported_with_how(box, body, kind, detail):
    learner = start(f"import os, signal\ndef resume_action(cp):\n    {body}", box)
    reply = learner.call("resume_action", None, timeout=3)
    assert isinstance(reply, Failure) and (reply.kind, reply.detail) == (kind, detail)
    learner.close()


def test_garbage_on_the_protocol_pipe_is_a_protocol_failure(box):
    source = """
import os, stat
def resume_action(cp):
    for fd in [int(n) for n in os.listdir("/proc/self/fd")]:
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, b"\\xff" * 8)
        except OSError:
            pass
    return "continue"
"""
    learner = start(source, box)
    reply = learner.call("resume_action", None, timeout=3)
    assert isinstance(reply, Failure) and reply.kind == "protocol"
    learner.close()


def test_a_forged_result_for_another_call_is_refused(box):
    source = """
import os, stat, json, struct
def resume_action(cp):
    body = json.dumps({"op": "result", "id": 999, "status": "ok", "value": "continue"}).encode()
    for fd in [int(n) for n in os.listdir("/proc/self/fd")]:
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, struct.pack(">I", len(body)) + body)
        except OSError:
            pass
    return "rerun"
"""
    learner = start(source, box)
    reply = learner.call("resume_action", None, timeout=3)
    assert isinstance(reply, Failure) and reply.kind == "protocol"
    learner.close()


def test_notebook_cells_that_raise_or_hang_do_not_stop_later_cells(box):
    from autograder.intake.submission import Cell

    cells = (
        Cell(1, "x = 1 / 0", ""),
        Cell(2, "import sys\nsys.exit(1)", ""),
        Cell(3, "while True:\n    pass", ""),
        Cell(4, "def resume_action(cp):\n    return 'continue'", ""),
    )
    uid = learner_uid(os.getpid()) if ROOT else None
    prepare_box(box, uid)
    learner = Learner(list(cells), limits=Limits(load_seconds=1.5), box=box, uid=uid)
    reply = learner.start()
    try:
        assert isinstance(reply, Reply), reply
        statuses = [(c["number"], c["status"], c.get("etype"), c.get("line")) for c in reply.message["cells"]]
        assert statuses == [
            (1, "error", "ZeroDivisionError", 1),
            (2, "error", "SystemExit", 2),
            (3, "timeout", None, None),
            (4, "ok", None, None),
        ]
        assert reply.message["defined"]["resume_action"] == "function"
        assert value(learner.call("resume_action", None, timeout=2)) == "continue"
    finally:
        learner.close()


def test_the_load_itself_is_bounded(box):
    uid = learner_uid(os.getpid()) if ROOT else None
    prepare_box(box, uid)
    # One statement: between statements the child re-arms its own alarm.
    source = "import signal\nif True:\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    while True:\n        pass"
    sub = from_python(source, "x.py")
    learner = Learner(list(sub.runnable), limits=Limits(load_seconds=0.6), box=box, uid=uid)
    started = time.monotonic()
    reply = learner.start()
    # The soft per-cell alarm was disabled by the learner; the hard limit still holds.
    assert isinstance(reply, Failure) and reply.kind == "timeout"
    assert time.monotonic() - started < 0.6 + SLACK
    learner.close()


def test_memory_is_limited(box):
    learner = start("def resume_action(cp):\n    return len(bytearray(8 * 1024**3))", box, Limits(memory_mb=256))
    reply = learner.call("resume_action", None, timeout=3)
    try:
        assert isinstance(reply, Reply) and reply.message["etype"] == "MemoryError"
    finally:
        learner.close()


def test_closing_kills_an_idle_child(box):
    learner = start("def resume_action(cp):\n    return 1", box)
    pid = learner.pid
    learner.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, signal.SIG_DFL or 0)


def test_a_confinement_that_fails_is_the_graders_problem_not_the_learners(box):
    from autograder.sandbox.session import Session

    uid = learner_uid(os.getpid()) if ROOT else None
    missing = box / "no-existe"
    reply = Learner([], limits=Limits(), box=missing, uid=uid).start()
    assert isinstance(reply, Failure) and reply.kind == "internal" and "FileNotFoundError" in reply.detail
    session = Session(from_python("x = 1", "x.py"), limits=Limits(), box=missing, uid=uid, lang="es")
    assert "problema del corrector, no tuyo" in session.start().fatal


def test_a_child_that_failed_to_confine_itself_and_left_is_still_the_graders_problem(box, monkeypatch):
    # The race behind a flaky failure: the child reports that it could not confine itself and
    # exits before the judge writes its first request. The write then meets a closed pipe, and
    # what the child said before leaving must still be read, not taken for the learner's exit.
    import autograder.sandbox.learner_process as sandbox_module

    real_write = os.write
    delayed: list[bool] = []
    uid = learner_uid(os.getpid()) if ROOT else None
    learner = Learner([], limits=Limits(), box=box / "no-existe", uid=uid)

    def late_write(fd: int, data) -> int:
        if not delayed:
            # Hold the judge's first write until the child has exited (waiting for that, not
            # for a fixed time, so the race is set up on a loaded machine too, and no later).
            deadline = time.monotonic() + 30
            while learner.pid is not None and not exited(learner.pid) and time.monotonic() < deadline:
                time.sleep(0.005)
            delayed.append(learner.pid is not None and exited(learner.pid))
        return real_write(fd, data)

    monkeypatch.setattr(sandbox_module.os, "write", late_write)
    reply = learner.start()
    monkeypatch.undo()
    assert delayed == [True], "the judge's first write did not come after the child had exited"
    assert isinstance(reply, Failure) and reply.kind == "internal" and "FileNotFoundError" in reply.detail


def exited(pid: int) -> bool:
    """The process is gone, or a zombie its keeper has not reaped yet."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] in ("Z", "X")


def test_the_learner_namespace_is_a_real_module(box):
    source = (
        "from __future__ import annotations\nfrom dataclasses import dataclass\n"
        "@dataclass\nclass Punto:\n    x: int\n"
        "def resume_action(cp):\n    return [repr(Punto(1)), __name__]"
    )
    learner = start(source, box)
    try:
        assert value(learner.call("resume_action", None, timeout=3)) == ["Punto(x=1)", "__entrega__"]
    finally:
        learner.close()


# -- Landlock: the confinement that holds without root ---------------------------------------------------

ESCAPES = """
import os, socket
def _try(action):
    try:
        action()
        return "ok"
    except OSError as e:
        return type(e).__name__
def _append(path):
    with open(path, "a") as f:
        f.write("# parcheado por la entrega\\n")
def _read(path):
    with open(path) as f:
        return f.read()
def _connect(family, address):
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        s.connect(address)
def resume_action(t):
    return {
        "write_grader": _try(lambda: _append(t["grader_file"])),
        "create_next_to_box": _try(lambda: _append(t["next_to_box"])),
        "read_secret": _try(lambda: _read(t["secret"])),
        "list_home": _try(lambda: os.listdir(t["home"])),
        "read_checkout": _try(lambda: _read(t["checkout_file"])),
        "signal_grader": _try(lambda: os.kill(t["grader_pid"], 0)),
        "tcp": _try(lambda: _connect(socket.AF_INET, ("127.0.0.1", t["port"]))),
        "abstract_socket": _try(lambda: _connect(socket.AF_UNIX, "\\0" + t["abstract"])),
        "unix_socket": _try(lambda: _connect(socket.AF_UNIX, t["unix"])),
        "chmod_grader": _try(lambda: os.chmod(t["grader_file"], 0)),
        "utime_grader": _try(lambda: os.utime(t["grader_file"], (0, 0))),
        "delete_grader": _try(lambda: os.unlink(t["grader_file"])),  # after chmod and utime: they need it
        # Should exec work, this process becomes /bin/true and the call fails: only tried when confined.
        "exec": _try(lambda: os.execv("/bin/true", ["true"])) if t["try_exec"] else "not tried",
        "write_own_folder": _try(lambda: _append("propio.txt")),
        "read_lesson3": _try(lambda: _read(t["lesson3_file"])),
        "read_reference": _try(lambda: _read(t["reference_file"])),
        "list_compiled": _try(lambda: os.listdir(t["compiled_folder"])),
        "read_grader_tables": _try(lambda: _read(t["questions_file"])),
        "read_python": _try(lambda: _read(t["stdlib_file"])),
    }
"""


@pytest.fixture
def targets(box, monkeypatch):
    """What a learner running as the grader's uid would go for: the grader's code, a secret, the grader."""
    base = box.parent
    (Path(lesson3.__file__).parent / "__pycache__").mkdir(exist_ok=True)  # a checkout that ran Python has one
    grader = base / "corrector"
    grader.mkdir()
    grader_file = grader / "checks.py"
    shutil.copy(autograder.judging.process.__file__, grader_file)
    grader_file.chmod(0o644)
    home = base / "home"
    (home / ".anthropic").mkdir(parents=True)
    (home / ".anthropic" / "api_key").write_text("sk-ant-api03-FAKE-0123456789")
    monkeypatch.setenv("HOME", str(home))
    listener = socket.create_server(("127.0.0.1", 0))
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind(f"\0autograder-test-{os.getpid()}")
    abstract.listen()
    named = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # like a D-Bus bus or docker.sock
    named.bind(str(base / "bus.sock"))
    named.listen()
    yield {
        "grader_file": str(grader_file),
        "next_to_box": str(base / "junto-a-la-carpeta.txt"),
        "secret": str(home / ".anthropic" / "api_key"),
        "home": str(home),
        "checkout_file": str(REPO / "pyproject.toml"),
        "grader_pid": os.getpid(),
        "port": listener.getsockname()[1],
        "abstract": f"autograder-test-{os.getpid()}",
        "unix": str(base / "bus.sock"),
        "lesson3_file": lesson3.__file__,
        "reference_file": str(Path(lesson3.__file__).parent / "answers.py"),
        "compiled_folder": str(Path(lesson3.__file__).parent / "__pycache__"),
        "questions_file": str(Path(autograder.__file__).parent / "course" / "questions.py"),
        "stdlib_file": os.__file__,
        "digest": hashlib.sha256(grader_file.read_bytes()).hexdigest(),
    }
    listener.close()
    abstract.close()
    named.close()


def escape_attempts(box: Path, targets: dict, *, landlock: bool) -> dict:
    # No privilege drop even as root: Landlock alone, as for a grader that is not root.
    learner = start(ESCAPES, box, drop=False, landlock=landlock)
    try:
        return value(learner.call("resume_action", {**targets, "try_exec": landlock}, timeout=5))
    finally:
        learner.close()


@needs_landlock
def test_landlock_keeps_the_learner_off_the_graders_files_without_a_privilege_drop(box, targets):
    seen = escape_attempts(box, targets, landlock=True)
    assert seen["write_grader"] == seen["delete_grader"] == "PermissionError"
    assert seen["create_next_to_box"] == "PermissionError"
    assert seen["read_secret"] == seen["list_home"] == "PermissionError"
    assert seen["read_checkout"] == "PermissionError"  # a checkout's tests and submissions: not Python's to import
    assert seen["exec"] == "PermissionError"
    assert seen["write_own_folder"] == "ok" and (box / "propio.txt").exists()
    # lesson3's answers (their file, lesson3's compiled files) and the grader's tables are not on the learner's
    # disk; Python's own files and lesson3's other files are, as in Jupyter.
    assert seen["read_reference"] == seen["list_compiled"] == seen["read_grader_tables"] == "PermissionError"
    assert seen["read_python"] == seen["read_lesson3"] == "ok"
    assert hashlib.sha256(Path(targets["grader_file"]).read_bytes()).hexdigest() == targets["digest"]


@needs_landlock_scopes
def test_landlock_scopes_keep_the_learner_from_signalling_the_grader_or_using_its_sockets(box, targets):
    seen = escape_attempts(box, targets, landlock=True)
    assert seen["signal_grader"] == "PermissionError"
    assert seen["abstract_socket"] == "PermissionError"
    assert seen["tcp"] == "PermissionError"


def test_without_landlock_or_a_privilege_drop_the_same_attempts_succeed(box, targets):
    """The control: each attempt above is a real one (harmless here: signal 0, a copy, a fake secret)."""
    seen = escape_attempts(box, targets, landlock=False)
    assert seen.pop("exec") == "not tried"
    assert seen == dict.fromkeys(seen, "ok")
    assert Path(targets["grader_file"]).exists() is False  # the copy was appended to, then deleted


@pytest.mark.skipif(
    landlock.syscall_filter(os.uname().machine) is None,
    reason=f"no seccomp filter for {os.uname().machine}",
)
def test_the_learner_cannot_connect_to_unix_sockets_nor_change_the_graders_file_modes(box, targets):
    seen = escape_attempts(box, targets, landlock=True)
    assert seen["unix_socket"] == "PermissionError"
    assert seen["chmod_grader"] == seen["utime_grader"] == "PermissionError"
    assert os.stat(targets["grader_file"]).st_mode & 0o777 == 0o644


def test_the_syscall_filter_jumps_land_on_the_deny_return():
    for machine in landlock.AUDIT_ARCH:
        program = landlock.syscall_filter(machine)
        deny = len(program) - 1
        checks = [i for i, (code, *_) in enumerate(program) if i > 3 and code != landlock._BPF_RET_K]
        assert checks and all(i + 1 + program[i][1] == deny for i in checks)
        assert program[deny - 1][3] == landlock.SECCOMP_RET_ALLOW
    assert landlock.syscall_filter("sparc64") is None


@needs_landlock
def test_the_read_policy_names_the_packages_not_the_checkout(box, monkeypatch):
    monkeypatch.setenv("HOME", str(REPO))  # an instructor grading from inside their checkout
    granted = {path for path, _ in landlock.policy(box)}
    assert str(Path(lesson3.__file__).resolve().parent) in granted
    assert str(Path(autograder.__file__).resolve().parent) in granted
    assert str(REPO) not in granted and "/" not in granted
    assert not any(str(box).startswith(path + os.sep) for path in granted)  # nothing above the box


def test_landlock_rights_degrade_with_the_abi():
    def rights(abi: int) -> tuple[int, int, int, int]:
        attr, size = landlock.handled(abi)
        return attr.handled_access_fs, attr.handled_access_net, attr.scoped, size

    assert rights(1)[:3] == (landlock.FS_ABI_1, 0, 0)
    assert rights(3)[0] & landlock.FS_TRUNCATE and not rights(2)[0] & landlock.FS_TRUNCATE
    assert rights(4)[1] == landlock.NET_BIND_TCP | landlock.NET_CONNECT_TCP
    assert rights(6)[2] == landlock.SCOPE_SIGNAL | landlock.SCOPE_ABSTRACT_UNIX_SOCKET
    assert [rights(abi)[3] for abi in (1, 3, 4, 5, 6, 7)] == [8, 8, 16, 16, 24, 24]
    assert not rights(8)[0] & landlock.FS_RESOLVE_UNIX and rights(9)[0] & landlock.FS_RESOLVE_UNIX
    # The learner's folder: everything of ABI 1 to 3 but executing and device nodes, and no device ioctls.
    not_in_box = landlock.FS_EXECUTE | landlock.FS_MAKE_CHAR | landlock.FS_MAKE_BLOCK
    assert landlock.WRITE == rights(3)[0] & ~not_in_box
    # The same rights spelled one by one, as the Landlock documentation lists them.
    c = landlock
    each = [c.READ, c.FS_WRITE_FILE, c.FS_REMOVE_DIR, c.FS_REMOVE_FILE, c.FS_MAKE_DIR, c.FS_MAKE_REG]
    each += [c.FS_MAKE_SOCK, c.FS_MAKE_FIFO, c.FS_MAKE_SYM, c.FS_REFER, c.FS_TRUNCATE]
    assert landlock.WRITE == functools.reduce(operator.or_, each)
    assert not landlock.WRITE & not_in_box


@needs_landlock
def test_a_ruleset_for_an_older_abi_is_accepted_and_still_confines_files(box):
    """Best effort: what Linux 5.13 (ABI 1) knows is built and enforced here; it has no signal scope."""
    prepare_box(box, None)
    outside = box.parent / "fuera.txt"
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - reports through the pipe
        report = b"E"
        try:
            landlock.no_new_privs()
            ruleset = landlock.prepare(box, abi=1)
            assert ruleset is not None
            landlock.enforce(ruleset)
            try:
                outside.write_text("x")
                report = b"wrote outside"
            except PermissionError:
                (box / "dentro.txt").write_text("ok")
                os.kill(os.getppid(), 0)
                report = b"confined"
        finally:
            os.write(write_fd, report)
            os._exit(0)
    os.close(write_fd)
    try:
        report = os.read(read_fd, 64)
    finally:
        os.close(read_fd)
        os.waitpid(pid, 0)
    assert report == b"confined"
    assert (box / "dentro.txt").read_text() == "ok" and not outside.exists()


@pytest.mark.parametrize(
    "body",
    [
        # Files under the per-file limit, many of them: only the total stops this.
        "for i in range(40):\n        with open(f'f{i}.bin', 'wb') as f:\n"
        "            f.write(b'x' * (8 * 1024 * 1024))",
        # Nested folders, one file each.
        "import os\n    for i in range(40):\n        os.makedirs(f'd{i}/e', exist_ok=True)\n"
        "        open(f'd{i}/e/f.bin', 'wb').write(b'y' * (8 * 1024 * 1024))",
        # Thousands of empty files take no bytes but do take the folder.
        "for i in range(100_000):\n        open(f'vacio{i}', 'w').close()",
    ],
)
def test_the_learners_folder_has_a_total_size_and_a_file_count(box, body):
    learner = start(f"def resume_action(cp):\n    {body}\n    return 'continue'\n", box, Limits(disk_mb=32))
    try:
        reply = learner.call("resume_action", None, timeout=30)
        assert isinstance(reply, Failure) and reply.kind == "disk", reply
    finally:
        learner.close()


def test_filling_the_folder_while_loading_stops_the_load(box):
    source = "for i in range(20):\n    open(f'f{i}.bin', 'wb').write(b'x' * (8 * 1024 * 1024))\n"
    uid = learner_uid(os.getpid()) if ROOT else None
    prepare_box(box, uid)
    learner = Learner(list(from_python(source, "x.py").runnable), limits=Limits(disk_mb=32), box=box, uid=uid)
    try:
        reply = learner.start()
        assert isinstance(reply, Failure) and reply.kind == "disk", reply
    finally:
        learner.close()


def test_honest_files_within_the_limits_are_fine(box):
    body = "open('notas.txt', 'w').write('hola' * 1000)\n    return open('notas.txt').read()[:4]"
    learner = start(f"def resume_action(cp):\n    {body}\n", box, Limits(disk_mb=32))
    try:
        assert value(learner.call("resume_action", None, timeout=5)) == "hola"
    finally:
        learner.close()


@pytest.mark.parametrize("number", [[1], {"a": 1}, None, "1", 1.5])
def test_a_forged_load_report_is_read_without_trusting_its_shape(box, number):
    # The report comes from the learner's process: a cell number that is a list (unhashable) or
    # any other non-integer is ignored, not a crash of the judge.
    from autograder.sandbox.session import Session

    session = Session(from_python("x = 1", "x.py"), limits=Limits(), box=box, uid=None, lang="es")
    report = {"cells": [{"number": number, "status": "error", "etype": "X"}], "pieces": [{"number": number}]}
    summary = session._summarise(report)
    assert summary.fatal is None and summary.warnings == []


@pytest.mark.parametrize(
    "source",
    [
        "x = 1\n\0\ndef resume_action(cp):\n    return 1\n",  # a NUL byte: a SyntaxError without a line
        "x = " + "-" * 100_000 + "1\n",  # nested past the parser's stack: MemoryError, not SyntaxError
    ],
)
def test_a_py_python_cannot_parse_is_one_syntax_error_on_line_1(box, source):
    uid = learner_uid(os.getpid()) if ROOT else None
    prepare_box(box, uid)
    learner = Learner(list(from_python(source, "entrega.py").runnable), limits=Limits(), box=box, uid=uid)
    try:
        reply = learner.start()
    finally:
        learner.close()
    assert isinstance(reply, Reply), reply
    assert [(p["status"], p["line"]) for p in reply.message["pieces"]] == [("syntax", 1)]
    assert reply.message["defined"]["resume_action"] == "missing"


@pytest.mark.parametrize("sig", [signal.SIGSEGV, signal.SIGRTMIN + 6, signal.SIGRTMAX])
def test_a_child_killed_by_any_signal_is_named_the_same_in_every_language(sig):
    from autograder.sandbox.learner_process import _status_failure

    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    failure = _status_failure(status, Limits())
    assert failure.kind == "crashed" and failure.detail.startswith("SIG")
    assert failure.detail.removeprefix("SIG") not in ("", str(int(sig)))  # a name, not a bare number
