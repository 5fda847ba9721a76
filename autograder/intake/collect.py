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

import errno
import hashlib
import os
import re
import stat
import tempfile
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from autograder.course.catalogue import Notice, NoticeError, notice, text
from autograder.intake.safe_files import DIR_FLAGS, Beneath, ReadRefused, open_regular

GRADABLE_SUFFIXES = (".py", ".ipynb")

# A notebook with pasted screenshots may weigh tens of MB (its code is capped later): 64 MiB is past any.
MAX_MEMBER_BYTES = 64 * 1024 * 1024
MAX_ZIP_TOTAL_BYTES = 1024 * 1024 * 1024
MAX_ZIP_MEMBERS = 20_000
MAX_ZIP_DEPTH = 3
MAX_FOLDER_DEPTH = 20
"""Folders inside folders below what was given; an LMS layout is two or three deep."""
_CHUNK = 1024 * 1024

_IGNORED_NAMES = {"__MACOSX", "Thumbs.db", "desktop.ini"}
"""Leftovers of the system that zipped the folder: never a learner's, skipped without a word."""
_SKIPPED_FOLDERS = {
    "__pycache__": "cache",
    ".ipynb_checkpoints": "checkpoints",
    "site-packages": "packages",
    "dist-packages": "packages",
    "node_modules": "packages",
    "venv": "venv",
    ".venv": "venv",
    "env": "venv",
    "virtualenv": "venv",
}
"""Folders a learner's upload may carry that hold no answer: each is skipped with one warning."""
_VENV_MARKER = "pyvenv.cfg"
"""What every virtualenv has at its top, whatever its name."""
_MOODLE_FOLDER = re.compile(r"_assignsubmission_[a-z]+_?$|_onlinetext_?$")
"""A Moodle "download all submissions" folder: ``Full Name_<id>_assignsubmission_file_``; one learner each."""
_LMS_FILE = re.compile(
    # Canvas: «garciaana_LATE_1234_5678_entrega.ipynb», and a text or URL entry «garciaana_1234_text.html»
    r"(?P<canvas_name>[^_\s]+)_(?:LATE_)?(?P<canvas_id>\d+)_(?:\d+_.+|text\.html|link\.html)"
    r"|(?P<blackboard>.+_attempt_\d{4}(?:-\d\d){5})(?:_.+|\.txt)"  # Blackboard: «…_attempt_2026-03-01-09-30-00_x.py»
    r"|(?P<moodle_name>.+)_(?P<moodle_id>\d+)_assignsubmission_[a-z]+_.+"  # Moodle without folders
)
"""A loose file an LMS named after its learner: the files of one learner (and attempt) are one learner.

Canvas's «LATE_» marks one file, not another learner: a late and an on-time file of one user are one learner."""
_MOODLE_LEARNER = re.compile(r"(?P<name>.+)_(?P<id>\d+)_(?:assignsubmission_[a-z]+|onlinetext)_?")
"""The learner of a Moodle submission folder: ``Full Name_<participant id>_assignsubmission_file_``.

A participant's ``…_file_`` and ``…_onlinetext_`` folders are one learner, keyed ``Full Name_<id>``."""
_LMS_KEY = re.compile(r"(?P<name>.+)_(?P<id>\d+)")
MAX_NAME_BYTES = 255
"""The longest file name (one path component) Linux and macOS file systems store."""

Seen = set[tuple[int, int, str]]
"""Directory entries already taken: (device, inode of the folder, name)."""


class IntakeError(NoticeError):
    """What was asked to be graded could not be read (the message, in the command's language, for whoever runs it)."""


@dataclass(frozen=True)
class FoundSubmission:
    path: Path  # where the file is on disk now (maybe inside the temporary folder)
    source: str  # where it came from, as the instructor would recognise it (readable: see shown_name)
    root: Path | None = None
    """The trusted folder ``path`` was found under (None: a file named on the command line)."""
    parts: tuple[str, ...] = ()
    """Its place below the argument it was found under, as shown (a zip counts as a folder): who it belongs to."""
    given: int = 0
    """Which argument of the command line it was found under."""
    refusal: Notice | None = None
    """A zip member that was not extracted (a link, too big...): its row says why."""
    note: Notice | None = None
    """What its row says of how it was read, though it was graded (a name too long for the disk, shortened)."""

    @property
    def name(self) -> str:
        """The file's name as a person reads it."""
        return self.parts[-1] if self.parts else shown_name(self.path.name)

    @property
    def file(self) -> Beneath:
        """What to read: ``path`` below ``root``, walked without following any symlink under the root."""
        if self.root is None:
            return Beneath.of(self.path)
        return Beneath(self.root, self.path.relative_to(self.root).parts)


@dataclass(frozen=True)
class OtherFile:
    """A file that is not a submission (a PDF, a .docx, ``x.ipynb.txt``): never read, only named."""

    source: str
    parts: tuple[str, ...]
    given: int = 0


@dataclass(frozen=True)
class Learner:
    """One learner: a folder or LMS entry of the class (with everything below it), or a loose file.

    ``files`` are the ``.py``/``.ipynb`` that could be graded (the grader picks one:
    :func:`autograder.intake.choice.choose`); ``others`` everything else that was found.
    """

    source: str
    files: tuple[FoundSubmission, ...]
    others: tuple[OtherFile, ...] = ()
    depth: int = 0
    """How many of each file's ``parts`` name the learner's folder (0: the learner is a loose file)."""
    label: str | None = None
    """The learner's own name, when the LMS's download says it (else reports name them by file or folder)."""
    ident: str | None = None
    """The learner's id in the LMS, when known."""
    chosen: str | None = None
    """The file a person chose to grade (``grade --choose``), as :meth:`inside` shows it: the rule is not asked."""

    @property
    def name(self) -> str:
        return self.source.rsplit("/", 1)[-1]

    def inside(self, found: FoundSubmission | OtherFile) -> str:
        """A file's path inside the learner's folder (its name, for a loose file)."""
        if not found.parts:
            return found.source
        return "/".join(found.parts[self.depth :]) or found.parts[-1]


@dataclass
class Intake:
    submissions: list[FoundSubmission] = field(default_factory=list)  # every .py/.ipynb, refused members too
    notices: list[Notice] = field(default_factory=list)  # refused members, skipped inputs
    lang: str = "es"
    others: list[OtherFile] = field(default_factory=list)
    one_learner: bool = False
    """Everything given is one learner's (Gradescope's submission folder), not a class."""
    _bases: list[tuple[str, bool]] = field(default_factory=list)  # per argument: (shown, is it a file)
    _tmp: tempfile.TemporaryDirectory[str] | None = None
    _extracted_as: dict[Path, tuple[str, Notice | None]] = field(default_factory=dict)
    """A zip member written under a shorter name: its path on disk -> (the member's own name, its row's note)."""

    @property
    def warnings(self) -> list[str]:
        """What intake has to say, in its language: :attr:`met` (the notices in the order they were met), then
        :attr:`unowned` (each file in no learner's folder). The record of a run: results.json, Gradescope."""
        return [*self.met, *self.unowned]

    @property
    def met(self) -> list[str]:
        """The notices written out in the intake's language, in the order they were met (refused members,
        skipped folders): what a command says as it reads."""
        return [n.render(self.lang) for n in self.notices]

    @property
    def unowned(self) -> list[str]:
        """Each file of the class in no learner's folder (:attr:`loose`), said: a command names them once, at
        its end, with what they do to its exit code."""
        return [text("intake.loose_other", self.lang, name=other.source) for other in self.loose]

    def warn(self, key: str, **params: Any) -> None:
        self.notices.append(Notice(key, params))

    learners: list[Learner] = field(default_factory=list)
    """Who was found, each once (:func:`group_learners`): one row each."""
    loose: list[OtherFile] = field(default_factory=list)
    """Files of the class in no learner's folder: not graded, and nobody's row names them."""

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> Intake:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_SURROGATES = re.compile("[\udc80-\udcff]")


def shown_name(name: str) -> str:
    """A file name (or path) as a person reads it, safe to write anywhere: always valid Unicode, NFC.

    Linux hands names that are not UTF-8 (a Latin-1 «José_Núñez.py», as ``unzip`` leaves an
    LMS zip) to Python as lone surrogates, which no JSON, socket or report can carry. Their
    bytes are read as Windows' code page (Latin-1 where it has a gap), the way the LMS wrote
    them; a macOS name in NFD («José» as e + U+0301) is shown composed, as typed.
    """
    if _SURROGATES.search(name):
        raw = os.fsencode(name)  # exactly the bytes on disk
        try:
            name = raw.decode("utf-8")
        except UnicodeDecodeError:
            try:
                name = raw.decode("cp1252")
            except UnicodeDecodeError:
                name = raw.decode("latin-1")
    return unicodedata.normalize("NFC", name)


def is_ignored(name: str) -> bool:
    """Hidden files, macOS leftovers and caches: never submissions."""
    return name.startswith(".") or name in _IGNORED_NAMES


def is_gradable(name: str) -> bool:
    return name.lower().endswith(GRADABLE_SUFFIXES) and not is_ignored(name)


def _skipped_folder(name: str) -> str | None:
    """Why a folder is not looked into (a catalogue key's suffix), or None."""
    if name in _SKIPPED_FOLDERS:
        return _SKIPPED_FOLDERS[name]
    if name.startswith("."):
        return "hidden"
    return None


def collect_submissions(paths: list[Path], lang: str = "es", *, one_learner: bool = False) -> Intake:
    """Every ``.py``/``.ipynb`` submission under ``paths``, in a stable order, and who each learner is.

    Raises ``IntakeError`` for a path that does not exist, is not gradable, or a
    zip that cannot be read at all. Refused zip members get their own entry (and a
    row); skipped folders a warning. Both speak ``lang``. With ``one_learner``
    everything found is one learner's (Gradescope's submission folder).
    """
    intake = Intake(lang=lang, one_learner=one_learner)
    seen: Seen = set()
    try:
        for index, given in enumerate(paths):
            shown = shown_name(str(given))
            if given.is_symlink() and not is_gradable(given.name):
                # A shell glob over a class folder hands over whatever links learners left there.
                intake.warn("intake.symlink_given", name=shown)
                continue
            if not given.exists() and not given.is_symlink():
                raise IntakeError(notice("intake.missing", name=shown), lang)
            if given.is_symlink() or (given.suffix.lower() in GRADABLE_SUFFIXES and not given.is_dir()):
                # A symlink is kept: loading refuses it, in its own row.
                intake._bases.append((shown, True))
                _add(given, shown, intake, seen, os.stat(given.parent), parts=(shown_name(given.name),), given=index)
            elif given.is_dir():
                intake._bases.append((shown, False))
                _walk_dir(given, shown, intake, seen, depth=0, prefix=(), given=index)
            elif given.suffix.lower() == ".zip":
                intake._bases.append((shown_name(given.name), False))
                _take_zip(given, shown_name(given.name), intake, seen, depth=0, top_level=True, prefix=(), given=index)
            else:
                raise IntakeError(notice("intake.not_submission", name=shown), lang)
        intake.learners, intake.loose = group_learners(
            intake.submissions, intake.others, intake._bases, one_learner=one_learner
        )
    except BaseException:
        intake.close()
        raise
    return intake


def _add(
    path: Path,
    source: str,
    intake: Intake,
    seen: Seen,
    folder: os.stat_result,
    root: Path | None = None,
    *,
    parts: tuple[str, ...],
    given: int,
) -> None:
    # The same directory entry reached twice (a folder and a file inside it) is one submission;
    # two entries that lead to one file (two symlinks) stay two, each reported on its own.
    key = (folder.st_dev, folder.st_ino, path.name)
    if key in seen:
        return
    seen.add(key)
    note = intake._extracted_as.get(path, ("", None))[1]
    intake.submissions.append(FoundSubmission(path=path, source=source, root=root, parts=parts, given=given, note=note))


def _walk_dir(
    root: Path, source: str, intake: Intake, seen: Seen, depth: int, prefix: tuple[str, ...], given: int
) -> None:
    """Every submission under ``root``: the folder itself is trusted (it may be a link), nothing below it is."""
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        intake.warn("intake.folder_unreadable", name=source, reason=exc.strerror or exc)
        return
    try:
        _walk_fd(fd, root, (), source, intake, seen, depth, prefix, given)
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
    prefix: tuple[str, ...],
    given: int,
) -> None:
    """The folder ``root/rel`` open as ``fd``: its files first, then each subfolder, opened from ``fd``.

    ``rel`` holds the names as they are on disk (to open them), ``prefix`` the folder's place as shown.
    """

    def said(*names: str) -> str:  # a name as shown: a shortened zip member's is its own name in the zip
        return intake._extracted_as.get(root.joinpath(*names), (shown_name(names[-1]), None))[0]

    here = "/".join([source, *(said(*rel[: i + 1]) for i in range(len(rel)))])
    where = (*prefix, *(said(*rel[: i + 1]) for i in range(len(rel))))
    try:
        with os.scandir(fd) as listing:
            entries = sorted((entry.name, _kind(entry)) for entry in listing)
    except OSError as exc:
        intake.warn("intake.folder_unreadable", name=here, reason=exc.strerror or exc)
        return
    folder = os.fstat(fd)
    folders = []
    for name, kind in entries:
        if kind == "folder" and (why := _skipped_folder(name)):
            intake.warn(f"intake.skipped_{why}", name=f"{here}/{shown_name(name)}")
            continue
        if is_ignored(name):
            continue
        shown = f"{here}/{said(*rel, name)}"
        parts = (*where, said(*rel, name))
        if kind == "folder":
            folders.append(name)
        elif kind == "link to folder":
            intake.warn("intake.link_to_folder", name=shown)
        elif is_gradable(name):
            _add(root.joinpath(*rel, name), shown, intake, seen, folder, root, parts=parts, given=given)
        elif name.lower().endswith(".zip"):
            _take_zip(Beneath(root, (*rel, name)), shown, intake, seen, depth, False, parts, given)
        else:
            intake.others.append(OtherFile(shown, parts, given))
    for name in folders:
        shown = f"{here}/{said(*rel, name)}"
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
            if _has(inner, _VENV_MARKER):  # a virtualenv under any name
                intake.warn("intake.skipped_venv", name=shown)
                continue
            _walk_fd(inner, root, (*rel, name), source, intake, seen, depth, prefix, given)
        finally:
            os.close(inner)


def _has(dir_fd: int, name: str) -> bool:
    try:
        os.lstat(name, dir_fd=dir_fd)
    except OSError:
        return False
    return True


def _kind(entry: os.DirEntry[str]) -> str:
    """What a listed name is, without entering it (a link's target is only stat-ed, to word the warning)."""
    if entry.is_symlink():
        return "link to folder" if entry.is_dir() else "other"
    return "folder" if entry.is_dir(follow_symlinks=False) else "other"


def _tmp_dir(intake: Intake) -> Path:
    if intake._tmp is None:
        intake._tmp = tempfile.TemporaryDirectory(prefix="autograder-submissions-")
    return Path(intake._tmp.name)


def _take_zip(
    path: Path | Beneath,
    source: str,
    intake: Intake,
    seen: Seen,
    depth: int,
    top_level: bool,
    prefix: tuple[str, ...],
    given: int,
) -> None:
    """A zip is read as the folder it stands for: its members' places are ``prefix`` (the zip's own) and their paths."""
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
    member = _Member(intake, dest, source, prefix, given)
    try:
        with os.fdopen(fd, "rb") as opened, zipfile.ZipFile(opened) as zf:
            members = zf.infolist()
            if len(members) > MAX_ZIP_MEMBERS:
                raise _TooManyMembers(len(members))
            member.scan(members)
            total = 0
            for info in members:
                total += member.extract(zf, info, budget=MAX_ZIP_TOTAL_BYTES - total)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, NotImplementedError) as exc:
        if top_level:
            raise IntakeError(notice("intake.zip_unreadable", name=source, reason=_reason(exc)), intake.lang) from exc
        intake.warn("intake.zip_unreadable_skipped", name=source, reason=_reason(exc))
        return
    _walk_dir(dest, source, intake, seen, depth + 1, prefix, given)


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
    """The parts of a member's path, or ``None`` if the path would leave the destination folder."""
    # Some Windows tools write backslashes; treat them as separators so "..\\x" is caught too.
    normalized = name.replace("\\", "/")
    if normalized.startswith("/") or re.match(r"^[A-Za-z]:", normalized):
        return None
    parts = [p for p in PurePosixPath(normalized).parts if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None
    return parts


class _Member:
    """Extracts one zip's members into ``dest``; every refused ``.py``/``.ipynb``/``.zip`` gets an entry (a row)."""

    def __init__(self, intake: Intake, dest: Path, source: str, prefix: tuple[str, ...], given: int) -> None:
        self.intake, self.dest, self.source, self.prefix, self.given = intake, dest, source, prefix, given
        self.written: set[tuple[str, ...]] = set()
        self.skipped: set[tuple[str, ...]] = set()
        self.venvs: set[tuple[str, ...]] = set()

    def scan(self, members: list[zipfile.ZipInfo]) -> None:
        """Folders that are virtualenvs whatever their name: those that hold a ``pyvenv.cfg``."""
        for info in members:
            parts = _member_parts(member_name(info))
            if parts and parts[-1] == _VENV_MARKER:
                self.venvs.add(tuple(parts[:-1]))

    def _refuse(self, key: str, parts: tuple[str, ...], **params: Any) -> int:
        shown = tuple(unicodedata.normalize("NFC", p) for p in parts)
        where = {"member": "/".join(shown), "zip": self.source}
        self.intake.warn(key, **where, **params)
        self.intake.submissions.append(
            FoundSubmission(
                path=self.dest,  # never read: the row says why
                source="/".join([self.source, *shown]),
                parts=(*self.prefix, *shown),
                given=self.given,
                refusal=notice(key, **where, **params),
            )
        )
        return 0

    def _skipped_folder(self, parts: list[str]) -> bool:
        for end in range(1, len(parts)):
            folder = tuple(parts[:end])
            why = "venv" if folder in self.venvs else _skipped_folder(parts[end - 1])
            if why is None:
                continue
            if folder not in self.skipped:
                self.skipped.add(folder)
                shown = "/".join(unicodedata.normalize("NFC", p) for p in folder)
                self.intake.warn(f"intake.skipped_{why}", name=f"{self.source}/{shown}")
            return True
        return False

    def extract(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> int:
        """Extract a member if it is a submission or a nested zip; return the bytes written."""
        member = member_name(info)
        listed = _member_parts(member)
        if listed is None:
            name = member.replace("\\", "/").rsplit("/", 1)[-1]
            if is_gradable(name) or name.lower().endswith(".zip"):
                return self._refuse("intake.member_slip", (member,))
            self.intake.warn("intake.member_slip", member=unicodedata.normalize("NFC", member), zip=self.source)
            return 0
        if not listed or info.is_dir() or self._skipped_folder(listed) or any(is_ignored(p) for p in listed):
            return 0
        parts = tuple(listed)
        name = parts[-1]
        if not (is_gradable(name) or name.lower().endswith(".zip")):
            shown = tuple(unicodedata.normalize("NFC", p) for p in parts)
            self.intake.others.append(OtherFile("/".join([self.source, *shown]), (*self.prefix, *shown), self.given))
            return 0
        if stat.S_ISLNK(info.external_attr >> 16):
            return self._refuse("intake.member_symlink", parts)
        if info.flag_bits & 0x1:
            return self._refuse("intake.member_encrypted", parts)
        limit = min(MAX_MEMBER_BYTES, budget)
        # Only the size decides, never the compression ratio: a notebook's repeated output compresses
        # a thousandfold and is no bomb; the stream below is cut at the limit whatever the header says.
        if info.file_size > limit:
            return self._refuse("intake.member_bomb", parts, size=_mib(info.file_size), packed=_mib(info.compress_size))
        # A name Windows keeps may pass Linux's 255 bytes: the file is written under a shorter name and graded,
        # shown everywhere by its own name, and its row says so.
        on_disk = tuple(fitting_name(p) for p in parts)
        target = self.dest.joinpath(*on_disk)
        if on_disk != parts:
            shown = "/".join(unicodedata.normalize("NFC", p) for p in parts)
            said = notice("intake.member_shortened", member=shown, zip=self.source, max=MAX_NAME_BYTES)
            self.intake.warn(said.key, **said.params)
            for end in range(1, len(parts)):  # a folder's own name, for everything under it
                if parts[end - 1] != on_disk[end - 1]:
                    folder = self.dest.joinpath(*on_disk[:end])
                    self.intake._extracted_as[folder] = (unicodedata.normalize("NFC", parts[end - 1]), None)
            self.intake._extracted_as[target] = (unicodedata.normalize("NFC", parts[-1]), said)
        # Belt and braces: whatever the name said, the file must land under dest.
        if not target.resolve().is_relative_to(self.dest.resolve()):
            return self._refuse("intake.member_slip", parts)
        if parts in self.written:  # as `unzip -o`: the later member with one path replaces the earlier
            self.intake.warn("intake.member_duplicate", member="/".join(parts), zip=self.source)
            target.unlink(missing_ok=True)
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
        except (OSError, zipfile.BadZipFile, EOFError, zlib.error) as exc:  # a name this file system refuses,
            # a file where a folder should be, damaged data (a bad CRC): this member's row, never the whole zip's
            if written:  # our own partial file
                target.unlink(missing_ok=True)
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
            return self._refuse("intake.member_unextractable", parts, reason=reason)
        if written > limit:
            target.unlink()
            return self._refuse("intake.member_bomb_streamed", parts, limit=_mib(limit))
        self.written.add(parts)
        return written


def fitting_name(name: str) -> str:
    """``name`` if a file system stores it (:data:`MAX_NAME_BYTES`), else a shorter one that keeps its extension.

    The cut name ends with a digest of the whole one, so two long names that share their start stay two files."""
    raw = name.encode("utf-8", "surrogatepass")
    if len(raw) <= MAX_NAME_BYTES:
        return name
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem or len(ext) > 16:
        stem, ext = name, ""
    tail = "~" + hashlib.sha256(raw).hexdigest()[:10] + (f".{ext}" if ext else "")
    room = MAX_NAME_BYTES - len(tail.encode("utf-8", "surrogatepass"))
    return stem.encode("utf-8", "surrogatepass")[:room].decode("utf-8", "ignore") + tail


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB"


def group_learners(
    found: list[FoundSubmission],
    others: list[OtherFile],
    bases: list[tuple[str, bool]],
    *,
    one_learner: bool = False,
) -> tuple[list[Learner], list[OtherFile]]:
    """Who was found, each learner once, in the order their first file was found; and the loose files no learner has.

    The rule, the same for ``autograder grade``, ``merge`` and Gradescope:

    * a file named on the command line is one learner;
    * in a class folder or zip, each top-level entry is one learner: a folder (or a zip) with
      everything below it, or a loose ``.py``/``.ipynb`` by itself; loose files that an LMS named
      after their learner (Canvas's ``garciaana_1234_5678_x.ipynb``, Blackboard's
      ``…_attempt_2026-03-01-09-30-00_x.py``) are that learner's, together;
    * a folder that holds Moodle submission folders (``…_assignsubmission_file_``) or only
      folders, two or more (a group such as ``grupo1/``, a wrapper such as the zip's ``Tarea 4/``),
      is looked into, and so is the only folder at the top when it holds an LMS's named files:
      their entries are the learners;
    * another loose file (``instrucciones.pdf``) is nobody's: it is listed, not graded;
    * with ``one_learner`` (Gradescope's submission folder) everything is one learner's.
    """
    entries: list[FoundSubmission | OtherFile] = [*found, *others]
    if one_learner:
        source = bases[0][0] if bases else ""
        return ([Learner(source, tuple(found), tuple(others), 0)] if entries else []), []
    by_given: dict[int, list[FoundSubmission | OtherFile]] = {}
    for entry in entries:
        by_given.setdefault(entry.given, []).append(entry)
    learners: list[Learner] = []
    loose: list[OtherFile] = []
    for given, items in by_given.items():
        base, is_file = bases[given]
        if is_file:
            learners += [_learner(base, len(e.parts), [e]) for e in items]
            continue
        depth = 0
        while _is_wrapper(items, depth):
            depth += 1
        for at, key, inside, members in _split(items, depth):
            if not inside and all(isinstance(m, OtherFile) and m.parts[-1] == key for m in members):
                loose += [m for m in members if isinstance(m, OtherFile)]
                continue
            # A folder is shown as it is named (the first of a Moodle participant's); loose LMS files by their key.
            shown = members[0].parts[at] if inside else key
            source = "/".join([base, *members[0].parts[:at], shown])
            named = key if key != members[0].parts[at] else None
            learners.append(_learner(source, at + inside, members, named=named))
    return learners, loose


def _learner(
    source: str, depth: int, members: list[FoundSubmission | OtherFile], *, named: str | None = None
) -> Learner:
    """``named``: the ``Name_<id>`` key an LMS gave the learner, read into their label and LMS id."""
    files = tuple(m for m in members if isinstance(m, FoundSubmission))
    label = ident = None
    if named and (lms := _LMS_KEY.fullmatch(named)):
        label, ident = lms.group("name"), lms.group("id")
    return Learner(source, files, tuple(m for m in members if isinstance(m, OtherFile)), depth, label, ident)


def _split(
    items: list[FoundSubmission | OtherFile], depth: int
) -> list[tuple[int, str, int, list[FoundSubmission | OtherFile]]]:
    """The learners among ``items``, all below one folder ``depth`` parts deep.

    Each is (``depth``, its name, 1 for a folder or 0 for loose files, its entries).
    """
    groups: dict[tuple[str, int], list[FoundSubmission | OtherFile]] = {}
    for item in items:
        name = item.parts[depth]
        if len(item.parts) == depth + 1:  # a loose file: itself, or its LMS learner's
            key = (_lms_key(name) or name, 0)
        else:
            moodle = _MOODLE_LEARNER.fullmatch(name)
            key = (f"{moodle.group('name')}_{moodle.group('id')}" if moodle else name, 1)
        groups.setdefault(key, []).append(item)
    out: list[tuple[int, str, int, list[FoundSubmission | OtherFile]]] = []
    for (name, inside), members in groups.items():
        if inside and _is_group(members, depth + 1):
            out += _split(members, depth + 1)
        else:
            out.append((depth, name, inside, members))
    return out


def _lms_key(name: str) -> str | None:
    """The learner an LMS named a loose file after (``garciaana_1234``, ``Ana García_15``, a Blackboard attempt)."""
    lms = _LMS_FILE.fullmatch(name)
    if lms is None:
        return None
    if lms.group("canvas_name"):
        return f"{lms.group('canvas_name')}_{lms.group('canvas_id')}"
    if lms.group("moodle_name"):
        return f"{lms.group('moodle_name')}_{lms.group('moodle_id')}"
    return lms.group("blackboard")


def _is_wrapper(items: list[FoundSubmission | OtherFile], depth: int) -> bool:
    """The only entry at the top of the class is a folder (or zip) that holds a class, however deep.

    A class is learners' folders or an LMS's files; the wrapper may wrap another wrapper («Tarea 4/» holding the
    LMS's zip, itself in a zip). A class folder given with one learner's folder in it («clase/ana/», even
    «clase/ana/trabajo/») is that learner, not a wrapper, and so is a Moodle participant's folder.
    """
    if not all(len(e.parts) > depth + 1 for e in items) or len({e.parts[depth] for e in items}) != 1:
        return False
    if _MOODLE_LEARNER.fullmatch(items[0].parts[depth]):
        return False
    loose = [e.parts[depth + 1] for e in items if len(e.parts) == depth + 2]
    return (
        _is_group(items, depth + 1) or any(_LMS_FILE.fullmatch(name) for name in loose) or _is_wrapper(items, depth + 1)
    )


def _is_group(members: list[FoundSubmission | OtherFile], depth: int) -> bool:
    """A folder whose entries are learners: it holds Moodle submission folders, or only folders (two or more).

    Never a Moodle participant's own folder: that is one learner, whatever it holds (folders named like other
    participants' would otherwise make rows, LMS ids included, for someone else out of one learner's upload).
    """
    if _MOODLE_LEARNER.fullmatch(members[0].parts[depth - 1]):
        return False
    # What is in it; a refused zip member (``../x.py``) is no learner's folder content.
    files = [m for m in members if len(m.parts) == depth + 1 and not getattr(m, "refusal", None)]
    folders = {m.parts[depth] for m in members if len(m.parts) > depth + 1}
    if any(_MOODLE_FOLDER.search(f) for f in folders):
        return True
    return not files and len(folders) >= 2


def learner_of_file(path: str | os.PathLike[str]) -> Learner:
    """A file given by itself: a learner of one file."""
    where = Beneath.of(path)
    found = FoundSubmission(Path(os.fspath(where)), shown_name(os.fspath(path)), where.root, (shown_name(where.name),))
    return Learner(found.source, (found,), depth=1)
