"""Crashes every submission of a seed shares: each is done once, for real, and what it left is laid down again.

A judge kills three children: the incident's agent right after ``send_email`` delivered, and Level 0's task
before a model call twice, each life resumed through the learner's ``start_state``. Each kill is a pure function
of what it starts from (the task, the scripted model's seed, where the kill comes, the workspace's files and the
checkpoint on disk), and every submission graded on one seed draws the same cases. The grading zygote does them
before it forks any judge (:func:`autograder.judging.observe.prepare_crashes`): a real ``SIGKILL`` of a forked
child each, as in a judge, Level 0's second life from the file as the first kill left it (what a ``start_state``
that resumes the file as it is hands back). What each kill left (the workspace's files, the checkpoint, how the
child ended) is kept here, in the zygote's memory, which every judge inherits. A judge about to kill a child
that starts from the very same files (byte for byte, with the same key) lays down what that kill left instead of
forking a child to die the same death; any other start (a learner's resume that changed the state) is killed in
the judge, for real, as before.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path

Tree = tuple[tuple[str, int, bytes | None], ...]
"""A folder's entries below it, sorted: (relative path, mode, bytes; None for a folder)."""

KEPT_MAX = 48
"""Crashes kept (three per seed the zygote prepares): a run grades on one seed; the tests go through dozens."""


@dataclass(frozen=True)
class Crashed:
    """What one crash left: how the child ended, the workspace's files, the checkpoint (None: none written)."""

    ended: str
    workspace: Tree
    checkpoint: bytes | None


_kept: OrderedDict[Hashable, Crashed] = OrderedDict()


def tree(root: Path) -> Tree | None:
    """Every file and folder under ``root``; None when something else is there (a link, a FIFO...), which no
    laying down would make again: such a start is always crashed for real."""
    entries: list[tuple[str, int, bytes | None]] = []
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        for name in dirs + files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            if stat.S_ISDIR(info.st_mode):
                data = None
            elif stat.S_ISREG(info.st_mode):
                with open(path, "rb") as f:
                    data = f.read()
            else:
                return None
            entries.append((os.path.normpath(os.path.join(rel, name)), stat.S_IMODE(info.st_mode), data))
    return tuple(sorted(entries, key=lambda e: e[0]))


def lay_down(root: Path, entries: Tree) -> None:
    """Make ``root`` hold exactly ``entries`` (what :func:`tree` read)."""
    shutil.rmtree(root)
    root.mkdir()
    for rel, mode, data in entries:  # sorted: a folder comes before what it holds
        path = root / rel
        if data is None:
            path.mkdir(mode)
        else:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        os.chmod(path, mode)  # what the umask took off


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def crash_once(case: Hashable, workspace: Path, checkpoint: Path, crash: Callable[[], str]) -> str:
    """How ``crash()`` ended (``"SIGKILL"``), with ``workspace`` and ``checkpoint`` as it left them.

    ``case`` is everything else the crash depends on (task, model seed, where it is killed). When this
    process, or the zygote it was forked from, already crashed this case over the same files, what that
    crash left is written here and ``crash()`` is not called; else it is, and a kill is kept for later.
    """
    before = tree(workspace)
    key = (case, before, _read(checkpoint))
    done = _kept.get(key) if before is not None else None
    if done is None:
        ended = crash()
        after = tree(workspace)
        if ended == "SIGKILL" and before is not None and after is not None:  # a kill that happened stands for another
            _kept[key] = Crashed(ended, after, _read(checkpoint))
            while len(_kept) > KEPT_MAX:
                _kept.popitem(last=False)
        return ended
    lay_down(workspace, done.workspace)
    if done.checkpoint is None:
        checkpoint.unlink(missing_ok=True)
    else:
        checkpoint.write_bytes(done.checkpoint)
    return done.ended


def forget() -> None:
    """Drop every kept crash (tests)."""
    _kept.clear()
