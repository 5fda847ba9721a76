"""Collect the submissions: files, folders and LMS bulk-download zips.

An LMS bulk download is untrusted input like the submissions themselves: a zip
member may try to escape the extraction folder (zip slip), be a symlink, or
inflate to gigabytes (zip bomb). Such members are refused one by one, with a
warning naming the zip and the member; nothing is ever written outside the
temporary folder this module owns. A warning is a catalogue key and its
parameters (:class:`Notice`), written out in the language the intake was asked for.

No symlink found inside what was given is followed: a symlinked folder or zip is
skipped with a warning, and a symlinked (or FIFO, or device) ``.py``/``.ipynb`` is kept
as a submission so that loading it reports the refusal in its own result row. A class
folder is walked from descriptors, each subfolder opened with ``O_NOFOLLOW`` from its
parent's, and every submission found keeps the folder it was found under
(:attr:`FoundSubmission.file`), so reading it later walks the same way: a subfolder
swapped for a symlink after the listing is refused at either step, never entered.
"""

from __future__ import annotations

import collections
import errno
import os
import re
import stat
import tempfile
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from autograder.course.catalogue import Notice, NoticeError, notice
from autograder.intake.safe_files import DIR_FLAGS, Beneath, ReadRefused, open_regular

GRADABLE_SUFFIXES = (".py", ".ipynb")

# Notebooks for this lesson are code and text; 32 MiB is far above any honest one.
MAX_MEMBER_BYTES = 32 * 1024 * 1024
MAX_ZIP_TOTAL_BYTES = 1024 * 1024 * 1024
MAX_ZIP_MEMBERS = 20_000
# Text compresses maybe 10-20x; a big member beyond this ratio is a bomb, not a notebook.
MAX_COMPRESSION_RATIO = 200
MAX_ZIP_DEPTH = 3
MAX_FOLDER_DEPTH = 20
"""Folders inside folders below what was given; an LMS layout is two or three deep."""
_CHUNK = 1024 * 1024

_IGNORED_NAMES = {"__MACOSX", "__pycache__", "Thumbs.db", "desktop.ini"}

Seen = set[tuple[int, int, str]]
"""Directory entries already taken: (device, inode of the folder, name)."""


class IntakeError(NoticeError):
    """No se pudo leer lo que se pidió calificar (el mensaje, en el idioma de la orden, para quien la corre)."""


@dataclass(frozen=True)
class FoundSubmission:
    path: Path  # where the file is on disk now (maybe inside the temporary folder)
    source: str  # where it came from, as the instructor would recognise it
    root: Path | None = None
    """The trusted folder ``path`` was found under (None: a file named on the command line)."""

    @property
    def file(self) -> Beneath:
        """What to read: ``path`` below ``root``, walked without following any symlink under the root."""
        if self.root is None:
            return Beneath.of(self.path)
        return Beneath(self.root, self.path.relative_to(self.root).parts)


@dataclass
class Intake:
    submissions: list[FoundSubmission] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)  # refused members, skipped inputs
    lang: str = "es"
    _tmp: tempfile.TemporaryDirectory[str] | None = None

    @property
    def warnings(self) -> list[str]:
        """The notices written out in the intake's language, in the order they were met."""
        return [n.render(self.lang) for n in self.notices]

    def warn(self, key: str, **params: Any) -> None:
        self.notices.append(Notice(key, params))

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> Intake:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def is_ignored(name: str) -> bool:
    """Archivos ocultos, restos de macOS y cachés: nunca son entregas."""
    return name.startswith(".") or name in _IGNORED_NAMES


def is_gradable(name: str) -> bool:
    return name.lower().endswith(GRADABLE_SUFFIXES) and not is_ignored(name)


def collect_submissions(paths: list[Path], lang: str = "es") -> Intake:
    """Todas las entregas ``.py``/``.ipynb`` bajo ``paths``, en un orden estable.

    Raises ``IntakeError`` for a path that does not exist, is not gradable, or a
    zip that cannot be read at all. Refused zip members only add a warning. Both
    speak ``lang``.
    """
    intake = Intake(lang=lang)
    seen: Seen = set()
    try:
        for given in paths:
            if given.is_symlink() and not is_gradable(given.name):
                # A shell glob over a class folder hands over whatever links learners left there.
                intake.warn("intake.symlink_given", name=given)
                continue
            if not given.exists() and not given.is_symlink():
                raise IntakeError(notice("intake.missing", name=given), lang)
            if given.is_symlink():
                _add(given, str(given), intake, seen, os.stat(given.parent))  # loading refuses it, in its own row
            elif given.is_dir():
                _walk_dir(given, str(given), intake, seen, depth=0)
            elif given.suffix.lower() == ".zip":
                _take_zip(given, given.name, intake, seen, depth=0, top_level=True)
            elif given.suffix.lower() in GRADABLE_SUFFIXES:
                _add(given, str(given), intake, seen, os.stat(given.parent))
            else:
                raise IntakeError(notice("intake.not_submission", name=given), lang)
    except BaseException:
        intake.close()
        raise
    return intake


def _add(path: Path, source: str, intake: Intake, seen: Seen, folder: os.stat_result, root: Path | None = None) -> None:
    # The same directory entry reached twice (a folder and a file inside it) is one submission;
    # two entries that lead to one file (two symlinks) stay two, each reported on its own.
    key = (folder.st_dev, folder.st_ino, path.name)
    if key in seen:
        return
    seen.add(key)
    intake.submissions.append(FoundSubmission(path=path, source=source, root=root))


def _walk_dir(root: Path, source: str, intake: Intake, seen: Seen, depth: int) -> None:
    """Every submission under ``root``: the folder itself is trusted (it may be a link), nothing below it is."""
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        intake.warn("intake.folder_unreadable", name=source, reason=exc.strerror or exc)
        return
    try:
        _walk_fd(fd, root, (), source, intake, seen, depth)
    finally:
        os.close(fd)


def _walk_fd(
    fd: int,
    root: Path,
    rel: tuple[str, ...],
    source: str,
    intake: Intake,
    seen: Seen,
    depth: int,
) -> None:
    """The folder ``root/rel`` open as ``fd``: its files first, then each subfolder, opened from ``fd``."""
    here = "/".join([source, *rel])
    try:
        with os.scandir(fd) as listing:
            entries = sorted((entry.name, _kind(entry)) for entry in listing)
    except OSError as exc:
        intake.warn("intake.folder_unreadable", name=here, reason=exc.strerror or exc)
        return
    folder = os.fstat(fd)
    folders = []
    for name, kind in entries:
        if is_ignored(name):
            continue
        shown = f"{here}/{name}"
        if kind == "folder":
            folders.append(name)
        elif kind == "link to folder":
            intake.warn("intake.link_to_folder", name=shown)
        elif is_gradable(name):
            _add(root.joinpath(*rel, name), shown, intake, seen, folder, root)
        elif name.lower().endswith(".zip"):
            _take_zip(Beneath(root, (*rel, name)), shown, intake, seen, depth=depth, top_level=False)
    for name in folders:
        shown = f"{here}/{name}"
        if len(rel) >= MAX_FOLDER_DEPTH:
            intake.warn("intake.folder_depth", name=shown, max=MAX_FOLDER_DEPTH)
            continue
        try:
            inner = os.open(name, DIR_FLAGS, dir_fd=fd)
        except OSError as exc:
            if exc.errno in (errno.ENOTDIR, errno.ELOOP):  # swapped after the listing: not entered
                intake.warn("intake.folder_swapped", name=shown)
            else:
                intake.warn("intake.folder_unreadable", name=shown, reason=exc.strerror or exc)
            continue
        try:
            _walk_fd(inner, root, (*rel, name), source, intake, seen, depth)
        finally:
            os.close(inner)


def _kind(entry: os.DirEntry[str]) -> str:
    """What a listed name is, without entering it (a link's target is only stat-ed, to word the warning)."""
    if entry.is_symlink():
        return "link to folder" if entry.is_dir() else "other"
    return "folder" if entry.is_dir(follow_symlinks=False) else "other"


def _tmp_dir(intake: Intake) -> Path:
    if intake._tmp is None:
        intake._tmp = tempfile.TemporaryDirectory(prefix="autograder-entregas-")
    return Path(intake._tmp.name)


def _take_zip(path: Path | Beneath, source: str, intake: Intake, seen: Seen, depth: int, top_level: bool) -> None:
    if depth >= MAX_ZIP_DEPTH:
        intake.warn("intake.zip_depth", name=source, max=MAX_ZIP_DEPTH)
        return
    base = _tmp_dir(intake)
    dest = base / f"zip{sum(1 for _ in base.iterdir()) + 1}"
    dest.mkdir()
    try:
        fd = open_regular(path)
    except ReadRefused as refused:
        why = notice("intake.zip_refused", reason=notice(refused.key, name=source, **refused.params))
        if top_level:
            raise IntakeError(why, intake.lang) from None
        intake.notices.append(why)
        return
    try:
        with os.fdopen(fd, "rb") as opened, zipfile.ZipFile(opened) as zf:
            members = zf.infolist()
            if len(members) > MAX_ZIP_MEMBERS:
                raise _TooManyMembers(len(members))
            total = 0
            for info in members:
                total += _extract_member(zf, info, dest, source, intake, budget=MAX_ZIP_TOTAL_BYTES - total)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, NotImplementedError) as exc:
        if top_level:
            raise IntakeError(notice("intake.zip_unreadable", name=source, reason=_reason(exc)), intake.lang) from exc
        intake.warn("intake.zip_unreadable_skipped", name=source, reason=_reason(exc))
        return
    _walk_dir(dest, source, intake, seen, depth=depth + 1)


class _TooManyMembers(zipfile.BadZipFile):
    def __init__(self, count: int) -> None:
        self.count = count
        super().__init__(count)


def _reason(exc: BaseException) -> Notice | str:
    """Why a zip could not be read; zipfile's and the system's own words are passed on as they are."""
    if isinstance(exc, _TooManyMembers):
        return notice("intake.zip_too_many", n=exc.count, max=MAX_ZIP_MEMBERS)
    if isinstance(exc, zipfile.BadZipFile):
        said = str(exc)
        return notice("intake.zip_not_zip") if "not a zip file" in said.lower() else said
    return f"{type(exc).__name__}: {exc}"


_UTF8_NAME_FLAG = 0x800
# In the DOS code page (cp437, cp850) accented Latin letters, ¿ and ¡ are bytes 0x80-0xA8; above that
# it has box drawing and Greek, which no file name holds, while Windows' ANSI page (cp1252) has its letters.
_OEM_LETTERS_END = 0xA9


def member_name(info: zipfile.ZipInfo) -> str:
    """A member's name as the tool that wrote the zip meant it: «José», never «JosΘ» or «Jos├⌐».

    Without the UTF-8 flag, zipfile decodes names as cp437. Many tools (and LMSs) write
    UTF-8 without setting the flag, others the Windows ANSI code page: the raw bytes are
    tried as UTF-8 first, then as DOS letters, then as cp1252, and cp437 is the last word.
    """
    if info.flag_bits & _UTF8_NAME_FLAG:
        return info.filename
    try:
        raw = info.orig_filename.encode("cp437")  # exactly the bytes in the zip: cp437 maps all 256
    except UnicodeEncodeError:
        return info.filename
    try:
        name = raw.decode("utf-8")
    except UnicodeDecodeError:
        if all(b < _OEM_LETTERS_END for b in raw):
            name = raw.decode("cp437")
        else:
            try:
                name = raw.decode("cp1252")
            except UnicodeDecodeError:
                name = raw.decode("cp437")
    return name.split("\0", 1)[0]  # zipfile's own rule: a name ends at a NUL


def _member_parts(name: str) -> list[str] | None:
    """Las partes de la ruta de un miembro, o ``None`` si la ruta escaparía de la carpeta destino."""
    # Some Windows tools write backslashes; treat them as separators so "..\\x" is caught too.
    normalized = name.replace("\\", "/")
    if normalized.startswith("/") or re.match(r"^[A-Za-z]:", normalized):
        return None
    parts = [p for p in PurePosixPath(normalized).parts if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None
    return parts


def _extract_member(
    zf: zipfile.ZipFile, info: zipfile.ZipInfo, dest: Path, source: str, intake: Intake, budget: int
) -> int:
    """Extrae un miembro si es una entrega o un zip anidado; devuelve los bytes escritos."""
    member = member_name(info)
    parts = _member_parts(member)
    where = {"member": member, "zip": source}
    if parts is None:
        intake.warn("intake.member_slip", **where)
        return 0
    if not parts or info.is_dir() or any(is_ignored(p) for p in parts):
        return 0
    name = parts[-1]
    if not (is_gradable(name) or name.lower().endswith(".zip")):
        return 0
    if stat.S_ISLNK(info.external_attr >> 16):
        intake.warn("intake.member_symlink", **where)
        return 0
    if info.flag_bits & 0x1:
        intake.warn("intake.member_encrypted", **where)
        return 0
    limit = min(MAX_MEMBER_BYTES, budget)
    ratio_ok = info.file_size <= _CHUNK or info.file_size <= MAX_COMPRESSION_RATIO * max(info.compress_size, 1)
    if info.file_size > limit or not ratio_ok:
        intake.warn("intake.member_bomb", **where, size=_mib(info.file_size), packed=_mib(info.compress_size))
        return 0
    target = dest.joinpath(*parts)
    # Belt and braces: whatever the name said, the file must land under dest.
    if not target.resolve().is_relative_to(dest.resolve()):
        intake.warn("intake.member_slip", **where)
        return 0
    written = 0
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # The header's size can lie; count what actually comes out and stop at the limit.
        with zf.open(info) as src, open(target, "xb") as out:
            while chunk := src.read(_CHUNK):
                written += len(chunk)
                if written > limit:
                    break
                out.write(chunk)
    except OSError as exc:  # a name too long for this file system, two members with one name, ...
        if written:  # our own partial file; never the one an earlier member with the same name wrote
            target.unlink(missing_ok=True)
        intake.warn("intake.member_unextractable", **where, reason=exc.strerror or exc)
        return 0
    if written > limit:
        target.unlink()
        intake.warn("intake.member_bomb_streamed", **where, limit=_mib(limit))
        return 0
    return written


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB"


def report_names(submissions: list[FoundSubmission]) -> list[str]:
    """Un nombre de archivo único por entrega para su retroalimentación.

    Two "entrega.py" from different folders must not overwrite each other's
    reports, and names must also differ on case-insensitive file systems.
    """
    stems = [_safe_name(Path(s.source).stem) for s in submissions]
    counts = collections.Counter(stem.casefold() for stem in stems)
    names: list[str] = []
    taken: set[str] = set()
    for sub, stem in zip(submissions, stems, strict=True):
        name = stem if counts[stem.casefold()] == 1 else _safe_name(sub.source.replace("/", "__"))
        candidate, n = name, 2
        while candidate.casefold() in taken:
            candidate, n = f"{name}-{n}", n + 1
        taken.add(candidate.casefold())
        names.append(candidate)
    return names


def _safe_name(text: str, limit: int = 120) -> str:
    text = unicodedata.normalize("NFC", text)
    text = re.sub(r"[^\w.\-]+", "_", text).strip("._") or "entrega"
    return text[:limit]
