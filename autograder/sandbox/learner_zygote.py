"""The judge's side of the learner zygote: start it, and ask it for a confined learner child.

The zygote itself (what runs in its interpreter) is :mod:`autograder.learner.zygote`; it never
sees the questions' answers: :func:`public_questions` hands it their texts only.
"""

from __future__ import annotations

import atexit
import json
import shutil
import socket
import tempfile
import threading
from pathlib import Path
from typing import Any

from autograder.wire import forking, protocol
from autograder.wire.forking import ZygoteError
from autograder.wire.public_questions import PUBLIC_FIELDS

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
        socket.send_fds(sock, [b"\0"], list(fds))  # the pipe ends ride on one byte; the request follows
        protocol.send_message(sock, request)
        reply = protocol.recv_message(sock)
    except BaseException:
        sock.close()
        raise
    pid = reply.get("pid") if isinstance(reply, dict) else None
    if not isinstance(pid, int):
        sock.close()
        raise ZygoteError(str(reply.get("error") if isinstance(reply, dict) else reply)[:300])
    return sock, pid


class LearnerZygote(forking.Zygote):
    """The learner zygote, started in ``run_dir`` (or in a folder of its own, removed when it stops)."""

    def __init__(self, run_dir: Path | None = None, *, behind: bool = False) -> None:
        self._own_dir = run_dir is None
        self.run_dir = Path(run_dir or tempfile.mkdtemp(prefix="autograder-learner-"))
        code = "from autograder.learner.zygote import main; main()"
        questions = public_questions()
        super().__init__("the learner zygote", code, self.run_dir, "learner.sock", questions, behind=behind)

    def stop(self) -> None:
        super().stop()
        if self._own_dir:
            shutil.rmtree(self.run_dir, ignore_errors=True)


def public_questions() -> str:
    """The questions as JSON, as the learner's process may see them: no answer, explanation or hint."""
    from autograder.course.questions import QUESTIONS

    public = {v: {f: getattr(q, f) for f in PUBLIC_FIELDS} for v, q in QUESTIONS.items()}
    return json.dumps(public, ensure_ascii=False)


def _shared_local() -> LearnerZygote:
    """A zygote for this process alone (a judge started outside the grading server, as the tests do)."""
    global _local
    with _local_lock:
        if _local is None or _local.proc.poll() is not None:
            _local = LearnerZygote()
            _local.wait_ready()
            atexit.register(_local.stop)
        return _local
