"""Files in the learner's folder: the judge writes them and reads them back, never following a link.

The learner's folder is the learner's: its code may, during any call (or while its
cells load), plant a symlink where the judge will later write a checkpoint, turn a
file into a FIFO or a link to ``/dev/zero``, or swap a folder. The judge may be root.
So every path here is walked one component at a time from a descriptor of the folder,
with ``O_NOFOLLOW``: a symlink is removed (never followed) before writing, and when
reading back it is reported as "not the file that was placed". Reads are capped.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from autograder.intake.safe_files import DIR_FLAGS, ReadRefused, open_at, read_capped
from autograder.wire.protocol import write_all

_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC

NOT_A_FILE = b"\x00<not a regular file>\x00"
"""What :func:`read_back` returns for anything but a regular file (never equal to placed content)."""


def _parts(relpath: str) -> list[str]:
    parts = Path(relpath).parts
    if not parts or Path(relpath).is_absolute() or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"not a plain relative path: {relpath!r}")
    return list(parts)


@contextlib.contextmanager
def _folder(box: Path, parts: list[str], *, create: bool) -> Iterator[int | None]:
    """A descriptor of ``box/parts[0]/.../parts[-1]``, walked without following links (None: missing)."""
    fd = os.open(box, DIR_FLAGS)
    try:
        for part in parts:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
            try:
                inner = os.open(part, DIR_FLAGS, dir_fd=fd)
            except OSError:
                if not create:
                    yield None
                    return
                # Something that is not a real folder took the name: remove it (unlink never follows).
                os.unlink(part, dir_fd=fd)
                os.mkdir(part, 0o755, dir_fd=fd)
                inner = os.open(part, DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = inner
            if create:
                _give(fd, box)
        yield fd
    finally:
        os.close(fd)


def _give(fd: int, box: Path) -> None:
    """Owned like the learner's folder, so its code could spoil the file (and the judge sees that)."""
    owner = os.stat(box)
    if os.geteuid() == 0 and owner.st_uid != 0:
        os.fchown(fd, owner.st_uid, owner.st_gid)


def make_folder(box: Path, relpath: str) -> None:
    """Make ``box/relpath`` a real folder (whatever took its name is removed, never followed)."""
    with _folder(box, _parts(relpath), create=True):
        pass


def place(box: Path, relpath: str, content: bytes) -> None:
    """Write ``content`` at ``box/relpath``, replacing whatever is there (a symlink is removed, not followed)."""
    *folders, name = _parts(relpath)
    with _folder(box, folders, create=True) as dir_fd:
        assert dir_fd is not None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=dir_fd)
        fd = os.open(name, _WRITE_FLAGS, 0o644, dir_fd=dir_fd)
        try:
            _give(fd, box)
            write_all(fd, content)
        finally:
            os.close(fd)


def read_back(box: Path, relpath: str, max_bytes: int) -> bytes | None:
    """The bytes now at ``box/relpath``: None if nothing is there, :data:`NOT_A_FILE` for a link, FIFO, folder..."""
    *folders, name = _parts(relpath)
    with _folder(box, folders, create=False) as dir_fd:
        if dir_fd is None:
            return None
        try:
            fd = open_at(dir_fd, name)
        except ReadRefused as e:
            return None if e.key == "load.missing" else NOT_A_FILE
        try:
            data = read_capped(fd, max_bytes)
        finally:
            os.close(fd)
        return NOT_A_FILE if data is None else data
