"""The grading zygote: an interpreter that preloads lesson3, the SDK and the judging code once, then forks a
judging process per submission the grader asks for (:mod:`autograder.grading.server` starts it and talks
to it; :mod:`autograder.judging.process` is what each fork runs).
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

from autograder.judging.process import judge
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
    forking.serve_forever(socket_path, _from_grader, lambda conn, _: _serve(conn, run_dir))


def _from_grader(conn: socket.socket) -> bool:
    """Only the grader that started this zygote may ask it for judges.

    A learner running as the grader's own uid (no root) can find the socket next to its
    folder, and Landlock only governs connecting to it from ABI 9 on: without this check it
    could ask for a judge of its own, with limits of its choosing.
    """
    pid = forking.peer_pid(conn)
    return pid is None or pid == os.getppid()  # None: no SO_PEERCRED (not Linux), the socket's 0600 only


def _serve(conn: socket.socket, run_dir: Path) -> None:
    request = protocol.recv_message(conn)
    op = request.get("op") if isinstance(request, dict) else None
    if op == "sweep":
        sweep_uid(int(request["uid"]))
        protocol.send_message(conn, {"event": "swept"})
        return
    if op != "grade":
        return
    uid = learner_uid(os.getpid()) if running_as_root() else None
    protocol.send_message(conn, {"event": "started", "pid": os.getpid(), "uid": uid, "time": time.time()})
    result = judge(request, run_dir=run_dir, uid=uid)
    protocol.send_message(conn, {"event": "result", "result": result})
