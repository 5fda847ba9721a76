"""Seen from outside: the grader's tool layer, which runs the learner's tools and watches the workspace.

The learner's ``execute_tool`` is a proxy: the judge executes the tool here, on the
check's workspace, and logs it. Tools lesson3 does not have (write_file, charge_card,
...) get a stand-in that leaves a visible trace in the workspace instead of doing
anything real, so "no effect happened" is a fact about files. The layer also watches
the workspace: what changed while it was in use, other than by its own calls, came by
another route (a direct write, a subprocess), whatever route the learner found.
"""

from __future__ import annotations

import email
import hashlib
import json
import os
import re
import select
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.course.catalogue import text
from autograder.wire.protocol import write_all
from lesson3.tools import TOOL_NAMES, run_tool, use_workspace

TRACE_DIR = "efectos"
"""Where stand-in high-impact tools leave their trace inside the workspace."""

MAX_INPUT_BYTES = 64 * 1024
"""A tool input bigger than this is refused (and logged): no exercise input is near it."""
MAX_NAME_CHARS = 64
"""A tool name longer than this is refused: the course's are one word, and an error must not echo a flood."""
MAX_CALLS = 64
"""Calls per layer (one learner call); past it the layer only logs and refuses."""
GREP_SECONDS = 1.0
"""grep compiles a learner-chosen regex: it runs in a child with this time limit, never in the judge."""

Snapshot = dict[str, str]
"""Every path under a workspace -> a digest of its content (see :func:`snapshot`)."""


@dataclass
class ToolCall:
    name: str
    input: Any
    content: str
    is_error: bool

    def describe(self) -> str:
        shown = json.dumps(self.input, ensure_ascii=False, sort_keys=True)
        return f"{self.name}({shown if len(shown) <= 50 else shown[:47] + '...'})"


@dataclass
class ToolLayer:
    """Executes and logs every tool the learner's process asks for, on one workspace, and watches it.

    It also watches the learner's own folder (``learner_folder``), the one place the learner's process
    may write: an effect its code causes by itself (an ``.eml`` written by hand, lesson3's private
    sender called directly) lands there, and counts like one in the workspace."""

    workspace: Path
    learner_folder: Path | None = None
    log: list[ToolCall] = field(default_factory=list)
    _expected: Snapshot = field(init=False, repr=False)
    """The workspace as the layer last left it: when made, then after each call it ran."""
    _elsewhere: set[str] = field(default_factory=set, init=False, repr=False)
    """Paths found changed, at the start of a call, since the layer last left the workspace."""

    def __post_init__(self) -> None:
        self._expected = self._snapshot()

    def _snapshot(self) -> Snapshot:
        shot = snapshot(self.workspace)
        if self.learner_folder is not None:
            shot.update((LEARNER_FOLDER + path, state) for path, state in folder_state(self.learner_folder).items())
        return shot

    def __call__(self, name: object, input: Any) -> dict[str, Any]:
        """Run the tool ``name`` asked for by the learner's process (whatever JSON it sent) and log it."""
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME_CHARS:
            content, is_error = text("tool.bad_name", limit=MAX_NAME_CHARS), True
            name = name[:MAX_NAME_CHARS] if isinstance(name, str) else f"<{type(name).__name__}>"
        elif (refusal := self._refusal(name, input)) is not None:  # a refused call touches nothing
            content, is_error = refusal, True
        else:
            # What changed since the layer last left the workspace came by another route; what changes
            # while the tool runs is the tool's (the learner's process is waiting for this answer).
            self._elsewhere.update(changes(self._expected, self._snapshot()))
            content, is_error = self._run(name, input)
            self._expected = self._snapshot()
        self.log.append(ToolCall(name, input, content, is_error))
        return {"content": content, "is_error": is_error}

    def process_started(self) -> None:
        """The learner's process was started again before the call (the one before it failed): its load ran the
        cells again, which may write in the learner's folder. That folder is watched from here on; the workspace,
        which no load touches, keeps what changed since the layer was made."""
        now = self._snapshot()
        self._elsewhere.update(p for p in changes(self._expected, now) if not p.startswith(LEARNER_FOLDER))
        self._expected = now

    def changed_elsewhere(self) -> list[str]:
        """Paths created, deleted or modified since the layer was made, other than by its own calls; sorted.

        A file one of its calls wrote counts if it was changed, or deleted, by another route afterwards."""
        return sorted(self._elsewhere.union(changes(self._expected, self._snapshot())))

    def messages_elsewhere(self) -> int:
        """How many of the files changed in the learner's folder are email messages (a recipient and a body):
        emails its code sent by itself, wherever in its folder they landed."""
        if self.learner_folder is None:
            return 0
        found = 0
        for path in self.changed_elsewhere():
            if path.startswith(LEARNER_FOLDER) and _is_message(self.learner_folder / path[len(LEARNER_FOLDER) :]):
                found += 1
        return found

    def _refusal(self, name: str, input: Any) -> str | None:
        if len(self.log) >= MAX_CALLS:
            return text("tool.too_many_calls", limit=MAX_CALLS)
        if (size := len(json.dumps(input, ensure_ascii=False, default=str))) > MAX_INPUT_BYTES:
            return text("tool.input_too_big", name=name, size=size)
        if not isinstance(input, dict):
            return text("tool.input_not_object", name=name)
        return None

    def _run(self, name: str, input: dict[str, Any]) -> tuple[str, bool]:
        if name == "grep" and not _literal(input.get("pattern")):
            return _bounded(self.workspace, name, input, GREP_SECONDS)
        if name in TOOL_NAMES:
            with use_workspace(self.workspace, durable=False):  # the judge's throwaway copy
                outcome = run_tool(name, input)
            return outcome.content, outcome.is_error
        return self._stand_in(name, input), False

    def _stand_in(self, name: str, input: Any) -> str:
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:60] or "herramienta"
        trace = self.workspace / TRACE_DIR / f"{safe}.jsonl"
        trace.parent.mkdir(exist_ok=True)
        # A digest, not the input: the trace must not become text a later grep chokes on.
        digest = hashlib.sha256(json.dumps(input, sort_keys=True, default=str).encode()).hexdigest()
        with trace.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"tool": name, "input_sha256": digest}) + "\n")
        # The course's tools answer in Spanish whatever the report's language: so does their stand-in.
        return text("tool.stand_in_done", name=name)


def _literal(pattern: Any) -> bool:
    """A pattern without repetition or grouping cannot backtrack catastrophically."""
    return isinstance(pattern, str) and not any(c in pattern for c in "*+?{}()|[]\\")


def _bounded(workspace: Path, name: str, input: dict[str, Any], seconds: float) -> tuple[str, bool]:
    """Run one tool in a forked child, so a catastrophic regex costs ``seconds``, not the judge."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        try:
            os.close(read_fd)
            with use_workspace(workspace):
                outcome = run_tool(name, input)
            write_all(write_fd, json.dumps([outcome.content, outcome.is_error]).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([read_fd], [], [], remaining)[0]:
                os.kill(pid, signal.SIGKILL)
                return text("tool.too_slow", name=name, seconds=seconds), True
            if not (chunk := os.read(read_fd, 1 << 16)):
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        os.waitpid(pid, 0)
    try:
        content, is_error = json.loads(b"".join(chunks))
    except ValueError:
        return text("tool.failed", name=name), True
    return str(content), bool(is_error)


def snapshot(workspace: Path) -> Snapshot:
    """Every path under the workspace -> a digest of its content ("dir" for folders)."""
    shot: Snapshot = {}
    for key, entry, is_dir in _tree(str(workspace)):
        if entry.is_symlink():
            shot[key] = "link:" + os.readlink(entry.path)
        elif is_dir:
            shot[key] = "dir"
        else:
            try:
                with open(entry.path, "rb") as f:
                    shot[key] = hashlib.sha256(f.read()).hexdigest()
            except OSError:
                shot[key] = "unreadable"
    return shot


LEARNER_FOLDER = "./"
"""How paths in the learner's own folder (its working directory) are named among the workspace's."""
NOT_EFFECTS = frozenset({"__pycache__"})
"""Folders Python itself writes in the learner's folder (an import's compiled files): never the learner's effect."""


def folder_state(folder: Path) -> Snapshot:
    """Every path under ``folder`` -> its inode, size and change times: any write, rename or ``utime`` changes it.

    Cheaper than :func:`snapshot`'s digests (the learner's folder holds the files the exercises read), and
    as sure: a file's ctime cannot be set back by its owner."""
    shot: Snapshot = {}
    for key, entry, _ in _tree(str(folder), skip=NOT_EFFECTS):
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        shot[key] = f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_mode}"
    return shot


def _tree(root: str, skip: frozenset[str] = frozenset()) -> Iterator[tuple[str, os.DirEntry[str], bool]]:
    """``(path relative to root, entry, is a folder)`` for every path under ``root``, as ``os.walk`` finds them:
    a folder reached through a link is listed, not entered; a folder named in ``skip`` is neither.

    One ``scandir`` per folder, and each entry's own ``stat``: this runs before and after every tool call."""
    stack = [(root, "")]
    while stack:
        directory, prefix = stack.pop()
        try:
            with os.scandir(directory) as scan:
                entries = list(scan)
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir and entry.name in skip:
                continue
            key = prefix + entry.name
            yield key, entry, is_dir
            if is_dir and not entry.is_symlink():
                stack.append((entry.path, key + "/"))


def _is_message(path: Path) -> bool:
    """A regular file that reads as an email message with a recipient."""
    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_MESSAGE_BYTES:
            return False
        message = email.message_from_bytes(path.read_bytes())
    except (OSError, ValueError):
        return False
    return bool(message.get("To")) and not message.defects


MAX_MESSAGE_BYTES = 1024 * 1024
"""A file bigger than this in the learner's folder is not read as an email (no exercise's email is near it)."""


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """Paths created, deleted or modified between two snapshots, sorted."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
