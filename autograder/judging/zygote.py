"""The grading zygote: an interpreter that preloads lesson3, the SDK and the judging code once, then forks a
judging process per submission the grader asks for (:mod:`autograder.grading.server` starts it and talks
to it; :mod:`autograder.judging.process` is what each fork runs).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from autograder.course.config import CourseConfig
from autograder.judging import crashes, observe
from autograder.judging.process import judged
from autograder.sandbox import learner_zygote
from autograder.sandbox.learner_process import learner_uid, running_as_root, sweep_uid
from autograder.wire import forking, protocol


def preload(run_dir: Path) -> None:
    """Import and warm up everything a judge and a learner child use, once."""
    import asyncio
    import ctypes  # noqa: F401 - used by the sandbox after fork
    import email.policy  # noqa: F401

    import anthropic  # noqa: F401
    import httpx2  # noqa: F401

    import lesson3
    import lesson3.crash
    from autograder.course.catalogue import entries
    from autograder.intake.course_cells import course_skip_cells
    from autograder.judging import (
        delegation,  # noqa: F401
        process,  # noqa: F401
        scenarios,  # noqa: F401
        tool_layer,  # noqa: F401
        verdicts_level0,  # noqa: F401
        verdicts_level1,  # noqa: F401
        verdicts_level2,  # noqa: F401
    )
    from autograder.judging.unknown_state import assess
    from autograder.sandbox import session  # noqa: F401
    from lesson3.exercises import exercise_checkpoints
    from lesson3.reconciliation import UNKNOWN_STATE_MESSAGE

    exercise_checkpoints()
    assess(UNKNOWN_STATE_MESSAGE)  # the text classifier's patterns compiled once here, not in every judge
    course_skip_cells()  # the course's notebooks read once here (both caches), not in every judge
    entries()  # every room's texts imported here (each is imported on first use): no judge compiles one
    warm = Path(tempfile.mkdtemp(prefix="warmup-", dir=run_dir))
    try:
        workspace = lesson3.create_workspace(warm / "ws")
        lesson3.run_agent(
            lesson3.TASK_EMAIL,
            client=lesson3.offline_client(),
            checkpoint_path=warm / "cp.json",
            workspace=workspace,
            durable=False,
        )
    finally:
        shutil.rmtree(warm, ignore_errors=True)

    asyncio.run(asyncio.sleep(0))


def zygote_main() -> None:
    socket_path, run_dir = sys.argv[1], Path(sys.argv[2])
    learner_zygote.use(sys.argv[3])
    preload(run_dir)
    forking.serve_forever(
        socket_path, lambda conn: _admit(conn, run_dir), lambda conn, request: _serve(conn, request, run_dir)
    )


def _admit(conn: socket.socket, run_dir: Path) -> dict[str, Any] | None:
    """The grader's request, read here, before the fork: a seed's shared crashes are done first, once."""
    if not _from_grader(conn):
        return None
    conn.settimeout(30)  # the grader sends its request as it connects
    try:
        request = protocol.recv_message(conn)
    except (OSError, EOFError, protocol.ProtocolError):
        return None
    conn.settimeout(None)
    if not isinstance(request, dict):
        return None
    if request.get("op") in ("grade", "prepare"):
        prepare(request.get("course"), run_dir)
    if request.get("op") == "prepare":  # done here: no judge is forked for it
        with contextlib.suppress(OSError):
            protocol.send_message(conn, {"event": "prepared"})
        return None
    return request


_prepared: dict[tuple[int | None, frozenset[str]], None] = {}
"""The seeds (with what their course grades) whose shared crashes this zygote did, oldest first."""


def prepare(wire: Any, run_dir: Path) -> None:
    """The crashes every submission of this request's seed shares, done once in this zygote (its judges inherit them).

    Never fatal: a request it cannot read, or a crash that went wrong here, leaves each judge to crash its own cases.
    """
    try:
        course = CourseConfig.from_wire(wire)
        key = (course.seed, frozenset(c.observes for c in course.graded()))
        if course.seed is None or key in _prepared:
            return
        _prepared[key] = None
        while len(_prepared) > crashes.KEPT_MAX // 3:
            del _prepared[next(iter(_prepared))]
        scratch = Path(tempfile.mkdtemp(prefix="prepare-", dir=run_dir))
        # The crashed children are waited for (their status is the kill's proof); the judges, reaped automatically
        # while the zygote serves, again right after, those that ended meanwhile included.
        previous = signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        try:
            observe.prepare_crashes(course.seed, scratch, set(key[1]))
        finally:
            signal.signal(signal.SIGCHLD, previous)
            if previous == signal.SIG_IGN:
                _reap()
            shutil.rmtree(scratch, ignore_errors=True)
    except Exception:  # noqa: BLE001 - the judges do it themselves then
        traceback.print_exc()


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _from_grader(conn: socket.socket) -> bool:
    """Only the grader that started this zygote may ask it for judges.

    A learner running as the grader's own uid (no root) can find the socket next to its
    folder, and Landlock only governs connecting to it from ABI 9 on: without this check it
    could ask for a judge of its own, with limits of its choosing.
    """
    pid = forking.peer_pid(conn)
    return pid is None or pid == os.getppid()  # None: no SO_PEERCRED (not Linux), the socket's 0600 only


def _serve(conn: socket.socket, request: dict[str, Any], run_dir: Path) -> None:
    op = request.get("op")
    if op == "sweep":
        sweep_uid(int(request["uid"]))
        protocol.send_message(conn, {"event": "swept"})
        return
    if op != "grade":
        return
    uid = learner_uid(os.getpid()) if running_as_root() else None
    protocol.send_message(conn, {"event": "started", "pid": os.getpid(), "uid": uid, "time": time.time()})
    with judged(request, run_dir=run_dir, uid=uid) as result:
        # Answered before the learner's process is stopped and the folders removed: the grader goes on meanwhile.
        protocol.send_message(conn, {"event": "result", "result": result})
