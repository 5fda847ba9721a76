"""Crashes every submission of a seed shares: each is done once, for real, and what it left is laid down again.

Two of a judge's three crashes do not depend on the learner: the incident's agent killed right after
``send_email`` delivered, and the Level 0 task's first life killed before its model call. Both are a pure
function of their case (the task, the scripted model's seed, the notes in the workspace, where the kill
comes), and every submission graded on one seed draws the same cases. The grading zygote does them before it
forks any judge (:func:`autograder.judging.observe.prepare_crashes`): a real ``SIGKILL`` of a forked child each,
as in a judge; what the kill left (the workspace's files, the checkpoint on disk, how the child ended) is kept
here, in the zygote's memory, which every judge inherits. A judge whose case is the very same one (its key and
its workspace's files, byte for byte) lays those files down in its own folders instead of forking a child to
die the same death; any other case crashes in the judge as before. The learner's own crash, after its
``start_state`` handed the loop a state, always happens in the judge.
"""

from __future__ import annotations

import os
import shutil
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path

Tree = tuple[tuple[str, int, bytes | None], ...]
"""A folder's entries below it, sorted: (relative path, mode, bytes; None for a folder)."""

KEPT_MAX = 32
"""Crashes kept (two per seed): a run grades on one seed; the tests go through dozens."""


@dataclass(frozen=True)
class Crashed:
    """What one crash left: how the child ended, the workspace's files, the checkpoint (None: none written)."""

    ended: str
    workspace: Tree
    checkpoint: bytes | None


_kept: OrderedDict[Hashable, Crashed] = OrderedDict()


def tree(root: Path) -> Tree:
    """Every file and folder under ``root`` (symlinks are not followed: a workspace has none)."""
    entries: list[tuple[str, int, bytes | None]] = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        rel = os.path.relpath(folder, root)
        for name in dirs:
            path = os.path.join(folder, name)
            entries.append((os.path.normpath(os.path.join(rel, name)), os.lstat(path).st_mode & 0o7777, None))
        for name in sorted(files):
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                data = f.read()
            entries.append((os.path.normpath(os.path.join(rel, name)), os.lstat(path).st_mode & 0o7777, data))
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
    key = (case, tree(workspace), _read(checkpoint))
    done = _kept.get(key)
    if done is None:
        ended = crash()
        if ended == "SIGKILL":  # only a crash that happened stands for another
            _kept[key] = Crashed(ended, tree(workspace), _read(checkpoint))
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
