"""The ``--out`` folder: held by one run at a time, and only the grader's own files in it replaced.

A run takes the folder's lock (:func:`out_lock`), plans what it will write against what an earlier
run wrote (:func:`prepare_out`, which refuses a folder holding results or files that are not the
grader's), records its files before writing them (:func:`begin_out`) and, once written, their
digests, removing what the earlier run wrote and this one did not (:func:`finish_out`). The
manifest of digests is how a file counts as the grader's: one the instructor edited is theirs.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from autograder.course.catalogue import text
from autograder.reporting.report import write_text_atomic


class OutFolderError(Exception):
    """``--out`` cannot be used as asked: a message in the command's language (names as found, unescaped)."""


LOCK_FILE = ".autograder.lock"
"""Held (flock) by the run writing ``--out``: the kernel releases it when that process ends, however it ends."""
MANIFEST_FILE = ".autograder-files.json"
"""What the grader wrote in ``--out`` and each file's SHA-256: only those files are ever replaced or removed."""
_LISTED_MAX = 5  # foreign files named in a refusal; the rest are counted


@contextlib.contextmanager
def out_lock(out: Path, lang: str = "es") -> Iterator[None]:
    """Hold ``--out`` for this run; a second run into it refuses at once instead of mixing two classes.

    flock, not a pid file: a run killed with SIGKILL leaves no stale lock. The file is removed on exit;
    whoever opened it just before checks, once locked, that it still is the file at that path.
    """
    if out.exists() and not out.is_dir():
        raise OutFolderError(text("cli.not_a_folder", lang, out=out))
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK_FILE
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise OutFolderError(text("cli.lock_failed", lang, out=out, reason=reason)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OutFolderError(text("cli.locked", lang, out=out)) from None
        try:
            current = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            current = None
        if current is not None and os.path.samestat(os.fstat(fd), current):
            break
        os.close(fd)  # the run before us removed it as we opened it: lock the one there now
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # for a person wondering who holds it
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.close(fd)
        if created:  # a refused or failed run leaves no empty folder behind
            with contextlib.suppress(OSError):
                out.rmdir()


def _digest(path: Path) -> str | None:
    try:
        if path.is_symlink() or not path.is_file():
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _manifest(out: Path) -> dict[str, str | None]:
    """What an earlier run wrote here: relative path -> SHA-256, or None for a file it was still writing.

    Empty when the manifest is missing or damaged: then nothing in ``out`` counts as the grader's.
    """
    try:
        raw = json.loads((out / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    files = raw.get("files") if isinstance(raw, dict) else None
    if not isinstance(files, dict):
        return {}
    return {
        rel: digest
        for rel, digest in files.items()
        if isinstance(rel, str)
        and (digest is None or isinstance(digest, str))
        and not Path(rel).is_absolute()
        and ".." not in Path(rel).parts
    }


def grader_wrote(out: Path, rel: str) -> bool:
    """Whether ``out/rel`` is the grader's own, as an earlier run left it (not a file someone put or edited there)."""
    previous = _manifest(out)
    return rel in previous and previous[rel] is not None and previous[rel] == _digest(out / rel)


def _files_under(out: Path) -> list[str]:
    # Every file, link or other entry that is not a folder, relative to out; links are not followed.
    found = []
    for dirpath, dirnames, filenames in os.walk(out):
        for name in [*filenames, *(d for d in dirnames if Path(dirpath, d).is_symlink())]:
            found.append(Path(dirpath, name).relative_to(out).as_posix())
    return sorted(found)


@dataclass
class OutPlan:
    """What a run may do in ``--out``: what it will write, and what the earlier run wrote and this one will not."""

    out: Path
    will_write: list[str]
    kept: dict[str, str]  # the earlier run's files still there unchanged, with their digests
    stale: list[str]


def prepare_out(out: Path, will_write: list[str], force: bool, lang: str = "es") -> OutPlan:
    """Refuse an ``--out`` holding results (without --force) or files the grader did not write.

    A file counts as the grader's only when the manifest lists it with the content it has now: a
    ``grades.csv`` the instructor edited is theirs. --force replaces the grader's own files and
    leaves everybody else's where they are; a name this run must write that is not the grader's
    (or a link where one of its folders should be) is refused even with --force.
    """
    previous = _manifest(out)
    present = [rel for rel in _files_under(out) if rel not in (LOCK_FILE, MANIFEST_FILE)]
    digests = {rel: _digest(out / rel) for rel in present if rel in previous}
    ours = [rel for rel in present if rel in previous and previous[rel] in (None, digests[rel])]
    foreign = [rel for rel in present if rel not in set(ours)]
    targets = set(will_write) | {parent.as_posix() for rel in will_write for parent in Path(rel).parents}
    clash = [rel for rel in foreign if rel in targets]

    def shown(files: list[str]) -> str:
        listed = ", ".join(f"«{f}»" for f in files[:_LISTED_MAX])
        more = len(files) - _LISTED_MAX
        return listed + (text("cli.and_more", lang, n=more) if more > 0 else "")

    if clash:
        raise OutFolderError(text("cli.foreign_clash", lang, out=out, files=shown(clash)))
    if foreign and not force:
        raise OutFolderError(text("cli.foreign", lang, out=out, files=shown(foreign)))
    if ours and not force:
        raise OutFolderError(text("cli.previous", lang, out=out, files=shown(ours)))
    kept = {rel: digest for rel in ours if (digest := digests[rel]) is not None}
    return OutPlan(out, list(will_write), kept, [rel for rel in ours if rel not in set(will_write)])


def _write_manifest(out: Path, files: dict[str, str | None]) -> None:
    document = {"written_by": "autograder", "files": dict(sorted(files.items()))}
    write_text_atomic(out / MANIFEST_FILE, json.dumps(document, ensure_ascii=False, indent=1) + "\n")


def begin_out(plan_: OutPlan) -> None:
    """Before writing: the files about to be written are the grader's, so a crash halfway leaves no trap."""
    _write_manifest(plan_.out, {**plan_.kept, **dict.fromkeys(plan_.will_write)})


def finish_out(plan_: OutPlan, written: list[str]) -> None:
    """Record what this run wrote, then remove what the earlier run wrote and this one did not."""
    out = plan_.out
    digests = {rel: _digest(out / rel) for rel in written}
    _write_manifest(out, {rel: d for rel, d in digests.items() if d is not None})
    for rel in plan_.stale:
        with contextlib.suppress(OSError):
            (out / rel).unlink()
