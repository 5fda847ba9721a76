"""Read a submission trusting nothing: regular files only, size-capped, notebooks parsed in a separate process.

Everything the grader reads before the sandbox is hostile. A submission folder may hold
a symlink to ``/dev/zero`` or to a private file of the grader's user, a FIFO named
``x.py`` (an ``open()`` that never returns), or a notebook whose JSON is built to eat
memory. So:

* a file is reached from the folder the instructor named (:class:`Beneath`) one component
  at a time, each folder opened with ``O_NOFOLLOW`` from its parent's descriptor: a folder
  swapped for a symlink (to another user's folder, to ``/proc``) between listing and
  reading is refused, never entered;
* the file itself is opened with ``O_NOFOLLOW | O_NONBLOCK`` and judged by ``fstat`` on that
  very descriptor (no window between a check and the open), and only a regular file is
  read, never more than its cap plus one byte;
* a notebook's JSON is parsed in a separate interpreter limited in memory, CPU and
  wall time, which hands back only the code cells' text and tags;
* refusals carry a message key and parameters, never a byte of the file: what the grader
  could not parse must not travel into results.json, grades.csv or anyone's feedback.

The child is :mod:`autograder.intake.notebook_json`, run as a script (``python -I -S``):
no site packages, no grader code, only what parsing needs.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NOTEBOOK_SECONDS = 15.0
"""Wall-clock limit of one notebook parse (a 50 MB notebook of screenshots takes about a second)."""
NOTEBOOK_CPU_SECONDS = 5
NOTEBOOK_MEMORY_BYTES = 512 * 1024 * 1024
"""Address space of the parsing child: a 50 MB notebook of screenshots (mostly a few long strings) needs
~200 MB; JSON built to eat memory (millions of ``{}``) runs out of it and is refused, never parsed."""

_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""A folder below the root: a symlink (or a FIFO, a file...) in its place fails with ENOTDIR, never followed."""
_CHUNK = 1024 * 1024


class ReadRefused(Exception):
    """The file was not read (or not understood); ``key`` and ``params`` name why, in the messages table."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key, self.params = key, params
        super().__init__(key)


def _refusal_for_mode(mode: int) -> ReadRefused:
    if stat.S_ISLNK(mode):
        return ReadRefused("load.symlink")
    if stat.S_ISFIFO(mode):
        return ReadRefused("load.fifo")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return ReadRefused("load.device")
    return ReadRefused("load.not_regular")


@dataclass(frozen=True)
class Beneath:
    """A file named by a trusted folder and the path below it, every component of which is hostile.

    ``root`` is what the instructor named (or a folder the grader made): it is opened as
    given, symlinks in it included. ``parts`` are walked one at a time from a descriptor of
    the folder above, never following a symlink. It is a path-like, so it goes wherever a
    path goes (``Path(b).name``, messages); only :func:`open_regular` reads it component-wise.
    """

    root: Path
    parts: tuple[str, ...]

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> Beneath:
        """``path`` as it is, or a plain path as its (trusted) folder and its name."""
        if isinstance(path, Beneath):
            return path
        path = Path(path)
        return cls(path.parent, (path.name,))

    @property
    def name(self) -> str:
        return self.parts[-1]

    def __fspath__(self) -> str:
        return os.path.join(self.root, *self.parts)


def open_regular(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor on ``path`` if, and only if, it is a regular file reached without a symlink.

    Every folder below the root is entered with ``O_DIRECTORY | O_NOFOLLOW`` from the
    descriptor of the one above, so none can be a link, whenever it was swapped. For the
    file, ``lstat`` first, so a device or FIFO is never even opened (opening some devices
    has effects); then the open itself refuses a symlink (``O_NOFOLLOW``) and cannot block
    on a FIFO (``O_NONBLOCK``), and ``fstat`` on the descriptor decides: whatever was
    swapped in between, what is read is what was checked.
    """
    where = Beneath.of(path)
    *folders, name = where.parts
    try:
        dir_fd = os.open(where.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # trusted: followed
    except (FileNotFoundError, NotADirectoryError):
        raise ReadRefused("load.missing") from None
    except OSError as e:
        raise ReadRefused("load.unreadable", reason=e.strerror or type(e).__name__) from None
    try:
        for depth, folder in enumerate(folders):
            inner = _enter(dir_fd, folder, "/".join(folders[: depth + 1]))
            os.close(dir_fd)
            dir_fd = inner
        return open_at(dir_fd, name)
    finally:
        os.close(dir_fd)


def _enter(dir_fd: int, folder: str, shown: str) -> int:
    try:
        return os.open(folder, DIR_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        raise ReadRefused("load.missing") from None
    except OSError as e:
        if e.errno not in (errno.ENOTDIR, errno.ELOOP):
            raise ReadRefused("load.unreadable", reason=e.strerror or type(e).__name__) from None
    # The open refused it and followed nothing; this look is only to say what took the folder's place.
    try:
        mode = os.lstat(folder, dir_fd=dir_fd).st_mode
    except OSError:
        mode = 0
    raise ReadRefused("load.folder_symlink" if stat.S_ISLNK(mode) else "load.folder_not_dir", folder=shown)


def open_at(dir_fd: int, name: str) -> int:
    """A read-only descriptor on ``name`` in the folder ``dir_fd`` if it is a regular file, else ``ReadRefused``."""
    try:
        before = os.lstat(name, dir_fd=dir_fd)
        if not stat.S_ISREG(before.st_mode):
            raise _refusal_for_mode(before.st_mode)
        fd = os.open(name, _OPEN_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        raise ReadRefused("load.missing") from None
    except OSError as e:
        if e.errno == errno.ELOOP:  # replaced by a symlink after the lstat
            raise ReadRefused("load.symlink") from None
        if e.errno == errno.ENXIO:  # a socket (or a FIFO swapped in) cannot be opened for reading
            raise ReadRefused("load.not_regular") from None
        raise ReadRefused("load.unreadable", reason=e.strerror or type(e).__name__) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _refusal_for_mode(mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_capped(fd: int, max_bytes: int) -> bytes | None:
    """All that is left to read from ``fd``, or None past ``max_bytes`` (read: at most ``max_bytes + 1``)."""
    data = bytearray()
    while len(data) <= max_bytes and (chunk := os.read(fd, min(_CHUNK, max_bytes + 1 - len(data)))):
        data += chunk
    return bytes(data) if len(data) <= max_bytes else None


def read_regular(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; ``ReadRefused`` otherwise.

    The size is checked before reading and again while reading (a file may grow, and
    ``st_size`` is only a claim): never more than ``max_bytes + 1`` bytes are read.
    """
    fd = open_regular(path)
    try:
        data = read_capped(fd, max_bytes) if os.fstat(fd).st_size <= max_bytes else None
        if data is None:
            raise ReadRefused("load.too_big", mb=max_bytes // (1024 * 1024))
        return data
    except OSError as e:
        raise ReadRefused("load.unreadable", reason=e.strerror or type(e).__name__) from None
    finally:
        os.close(fd)


# -- notebooks -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CodeCell:
    source: str
    tags: tuple[str, ...] = ()
    position: int | None = None
    """1-based among all the notebook's cells, markdown included (None: not from a notebook)."""


def parse_notebook(text: str) -> tuple[list[CodeCell], str | None]:
    """The code cells of a notebook (nbformat 3 or 4), parsed in a limited child process, and which of
    the course's notebooks («01»…) its title cell says it is.

    Raises ``ReadRefused`` with a ``load.notebook_*`` key when the text is not a
    notebook, is too complex to parse within the limits, or the parse takes too long.
    """
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-I",
                "-S",
                str(Path(__file__).resolve().with_name("notebook_json.py")),
                str(NOTEBOOK_MEMORY_BYTES),
                str(NOTEBOOK_CPU_SECONDS),
            ],
            input=text.encode("utf-8"),
            capture_output=True,
            timeout=NOTEBOOK_SECONDS,
            env={"LC_ALL": "C.UTF-8"},  # nothing of the grader's environment: the child needs none
            close_fds=True,
        )
    except subprocess.TimeoutExpired:
        raise ReadRefused("load.notebook_timeout", seconds=NOTEBOOK_SECONDS) from None
    if done.returncode != 0:  # MemoryError, SIGXCPU, SIGKILL: whatever it was, the limits were hit
        raise ReadRefused("load.notebook_too_complex")
    try:
        reply = json.loads(done.stdout)
        if "refused" in reply:
            refused = reply["refused"]
            params = {"cell": int(refused["cell"])} if "cell" in refused else {}
            raise ReadRefused(_CHILD_REFUSALS[refused["key"]], **params)
        course = reply.get("course")
        cells = [
            CodeCell(str(c["source"]), tuple(str(t) for t in c["tags"]), int(c["position"])) for c in reply["cells"]
        ]
        # Only a number the child could have read from a title: the course's notebooks are 01 to 99.
        return cells, course if isinstance(course, str) and course.isdigit() and len(course) == 2 else None
    except (ValueError, KeyError, TypeError):  # pragma: no cover - our own child's answer, malformed only if it broke
        raise ReadRefused("load.notebook_too_complex") from None


# What the child may answer, mapped to message keys: the child never sends text of the file.
_CHILD_REFUSALS = {
    "not_json": "load.notebook_not_json",
    "not_notebook": "load.notebook_not_notebook",
    "version": "load.notebook_version",
    "bad_cell": "load.notebook_bad_cell",
    "too_complex": "load.notebook_too_complex",
}
