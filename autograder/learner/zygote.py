"""The learner zygote: an interpreter that never saw the grading, from which every learner process is born.

Started fresh (its own interpreter, an allow-listed environment) before any grading
state exists, it preloads only what learner code runs on: IPython's shell, the child's
runner and lockdown, lesson3 without its answers module
(:mod:`autograder.learner.lesson3_view`) and the public libraries the course's notebooks import
(:data:`COURSE_IMPORTS`: the SDK, IPython.display, the standard library they use), so a
graded function that imports one of them in its body does not pay that import out of its
one-second call. It never imports the criteria, the scenarios, the seed, lesson3's answers or
the questions' answers (the starter hands it the questions' texts), so nothing of them is in
the memory its children start from.

A judge connects to its Unix socket and hands over three pipe ends (SCM_RIGHTS) with
the limits; the zygote forks a *keeper*, which forks the learner's child. The child
locks itself down (:mod:`autograder.learner.lockdown`) and serves the judge over the pipes
(:mod:`autograder.learner.runner`); the keeper tells the judge the child's pid and, at the
end, how it ended, and kills it if the judge goes away.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import json
import os
import select
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from autograder.learner import lesson3_view
from autograder.wire import forking, protocol

# -- what the course's notebooks import -----------------------------------------------------------

COURSE_IMPORTS = ("IPython.display", "anthropic", "copy", "inspect", "json", "os", "pathlib")
"""The modules the course's notebooks import, but lesson3's and the grader's own: what the
notebooks' imports are (``notebook_imports()``; tests/test_learner_imports.py fails when the
notebooks change it). The learner's lesson3 and ``autograder.questions`` stand for the rest."""

OWN_PACKAGES = ("lesson3", "autograder")
"""Never imported from their files in the learner's process: :mod:`autograder.learner.lesson3_view` provides them."""


def notebook_imports(folder: Path) -> tuple[str, ...]:
    """Every module the code cells of the notebooks under ``folder`` import, except those of ``OWN_PACKAGES``."""
    found: set[str] = set()
    for path in sorted(folder.rglob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8")).get("cells", []):
            if cell.get("cell_type") != "code":
                continue
            source = "".join(cell.get("source") or [])
            if source.lstrip().startswith("%%"):
                continue  # a cell magic's body is not the notebook's Python (%%writefile, %%bash...)
            # Line magics and shell escapes are not Python either.
            lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
            for node in ast.walk(ast.parse("\n".join(lines))):
                if isinstance(node, ast.Import):
                    found.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module)
    return tuple(sorted(m for m in found if m.split(".")[0] not in OWN_PACKAGES))


def preimport() -> None:
    """Import :data:`COURSE_IMPORTS` here, once, so that no learner child pays for them in a graded call."""
    for name in COURSE_IMPORTS:
        with contextlib.suppress(ImportError):  # not installed: a learner's import of it fails as in Jupyter
            importlib.import_module(name)


# -- the zygote (its own interpreter) ------------------------------------------------------------


def preload(questions: dict[str, Any]) -> None:
    """Load and warm up what every learner child runs on, once."""
    import asyncio

    from autograder.learner import face, landlock, runner

    lesson3_view.install()
    landlock.hide([*lesson3_view.hidden_paths(), Path(__file__).resolve().parents[1]])
    runner.prepare(questions)
    face.install(questions)  # last: everything of the package the child runs on is imported by now
    landlock.warm_up()

    asyncio.run(asyncio.sleep(0))


def main() -> None:
    socket_path, questions = sys.argv[1], json.loads(sys.argv[2])
    starter = os.getppid()
    import IPython.core.interactiveshell  # noqa: F401

    from autograder.learner import lockdown  # noqa: F401

    preimport()
    preload(questions)
    forking.serve_forever(
        socket_path,
        lambda conn: _caller(conn, starter),
        lambda conn, trust: keep(conn, starter_may_relax=trust == "starter"),
    )


def _caller(conn: socket.socket, starter: int) -> str | None:
    """Who asks: the process that started this zygote, one of its judges (grandchildren), or nobody we serve.

    A learner running as the grader's own uid could find the socket; it is neither (its
    parent is a keeper of this zygote), and only the starter may turn Landlock off (tests).
    """
    pid = forking.peer_pid(conn)
    if pid is None:  # pragma: no cover - not Linux: the socket's 0600 only
        return "judge"
    if pid == starter:
        return "starter"
    parent = forking.parent_of(pid)
    if parent and forking.parent_of(parent) == starter:
        return "judge"
    return None


def keep(conn: socket.socket, *, starter_may_relax: bool) -> None:
    """Fork the learner's child, tell the judge its pid, report how it ended; kill it if the judge leaves."""
    from autograder.learner import runner
    from autograder.wire.limits import Limits

    _, fds, _, _ = socket.recv_fds(conn, 1, 3)
    if len(fds) != 3:
        protocol.send_message(conn, {"error": "expected three pipe ends"})
        return
    try:
        request = protocol.recv_message(conn)
    except EOFError:
        return  # the judge went away before asking
    limits = Limits.from_json(request.get("limits"))
    uid = request.get("uid")
    landlock = bool(request.get("landlock", True)) or not starter_may_relax
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the learner's child
        conn.close()
        runner.child_main(fds, limits, Path(request["box"]), uid if isinstance(uid, int) else None, landlock)
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
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(OSError):
                    kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return
