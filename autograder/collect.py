"""Reunir las entregas: archivos, carpetas y zips de descarga masiva del LMS.

An LMS bulk download is untrusted input like the submissions themselves: a zip
member may try to escape the extraction folder (zip slip), be a symlink, or
inflate to gigabytes (zip bomb). Such members are refused one by one, with a
Spanish message naming the zip and the member; nothing is ever written outside
the temporary folder this module owns.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

GRADABLE_SUFFIXES = (".py", ".ipynb")

# Notebooks for this lesson are code and text; 32 MiB is far above any honest one.
MAX_MEMBER_BYTES = 32 * 1024 * 1024
MAX_ZIP_TOTAL_BYTES = 1024 * 1024 * 1024
MAX_ZIP_MEMBERS = 20_000
# Text compresses maybe 10-20x; a big member beyond this ratio is a bomb, not a notebook.
MAX_COMPRESSION_RATIO = 200
MAX_ZIP_DEPTH = 3
_CHUNK = 1024 * 1024

_IGNORED_NAMES = {"__MACOSX", "__pycache__", "Thumbs.db", "desktop.ini"}


class IntakeError(Exception):
    """No se pudo leer lo que se pidió calificar (mensaje en español, para la persona que corre el comando)."""


@dataclass(frozen=True)
class FoundSubmission:
    path: Path  # where the file is on disk now (maybe inside the temporary folder)
    source: str  # where it came from, as the instructor would recognise it


@dataclass
class Intake:
    submissions: list[FoundSubmission] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # Spanish: refused members, skipped inputs
    _tmp: tempfile.TemporaryDirectory[str] | None = None

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


def collect_submissions(paths: list[Path]) -> Intake:
    """Todas las entregas ``.py``/``.ipynb`` bajo ``paths``, en un orden estable.

    Raises ``IntakeError`` for a path that does not exist, is not gradable, or a
    zip that cannot be read at all. Refused zip members only add a warning.
    """
    intake = Intake()
    seen: set[Path] = set()
    try:
        for given in paths:
            if not given.exists():
                raise IntakeError(f"No existe «{given}».")
            if given.is_dir():
                _walk_dir(given, str(given), intake, seen, depth=0)
            elif given.suffix.lower() == ".zip":
                _take_zip(given, given.name, intake, seen, depth=0, top_level=True)
            elif given.suffix.lower() in GRADABLE_SUFFIXES:
                _add(given, str(given), intake, seen)
            else:
                raise IntakeError(
                    f"«{given}» no es una entrega: se aceptan archivos .py o .ipynb, carpetas y archivos .zip."
                )
    except BaseException:
        intake.close()
        raise
    return intake


def _add(path: Path, source: str, intake: Intake, seen: set[Path]) -> None:
    key = path.resolve()
    if key in seen:  # the same file reached twice (a folder and a file inside it)
        return
    seen.add(key)
    intake.submissions.append(FoundSubmission(path=path, source=source))


def _walk_dir(root: Path, source: str, intake: Intake, seen: set[Path], depth: int) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not is_ignored(d))
        rel = Path(dirpath).relative_to(root)
        for name in sorted(filenames):
            if is_ignored(name):
                continue
            path = Path(dirpath) / name
            shown = "/".join([source, *rel.parts, name])
            if is_gradable(name):
                _add(path, shown, intake, seen)
            elif name.lower().endswith(".zip"):
                _take_zip(path, shown, intake, seen, depth=depth, top_level=False)


def _tmp_dir(intake: Intake) -> Path:
    if intake._tmp is None:
        intake._tmp = tempfile.TemporaryDirectory(prefix="autograder-entregas-")
    return Path(intake._tmp.name)


def _take_zip(path: Path, source: str, intake: Intake, seen: set[Path], depth: int, top_level: bool) -> None:
    if depth >= MAX_ZIP_DEPTH:
        intake.warnings.append(f"Se omitió «{source}»: hay zips dentro de zips más de {MAX_ZIP_DEPTH} niveles.")
        return
    base = _tmp_dir(intake)
    dest = base / f"zip{sum(1 for _ in base.iterdir()) + 1}"
    dest.mkdir()
    try:
        with zipfile.ZipFile(path) as zf:
            members = zf.infolist()
            if len(members) > MAX_ZIP_MEMBERS:
                raise zipfile.BadZipFile(f"tiene {len(members)} elementos (el máximo es {MAX_ZIP_MEMBERS})")
            total = 0
            for info in members:
                total += _extract_member(zf, info, dest, source, intake, budget=MAX_ZIP_TOTAL_BYTES - total)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, NotImplementedError) as exc:
        message = f"No se pudo leer el zip «{source}»: {_reason(exc)}."
        if top_level:
            raise IntakeError(message) from exc
        intake.warnings.append(message + " Se omitió.")
        return
    _walk_dir(dest, source, intake, seen, depth=depth + 1)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, zipfile.BadZipFile):
        text = str(exc)
        return "no es un archivo zip válido" if "not a zip file" in text.lower() else text
    return f"{type(exc).__name__}: {exc}"


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
    parts = _member_parts(info.filename)
    where = f"«{info.filename}» en «{source}»"
    if parts is None:
        intake.warnings.append(f"Se rechazó {where}: su ruta sale de la carpeta del zip (zip slip); no se extrajo.")
        return 0
    if not parts or info.is_dir() or any(is_ignored(p) for p in parts):
        return 0
    name = parts[-1]
    if not (is_gradable(name) or name.lower().endswith(".zip")):
        return 0
    if stat.S_ISLNK(info.external_attr >> 16):
        intake.warnings.append(f"Se rechazó {where}: es un enlace simbólico; no se extrajo.")
        return 0
    if info.flag_bits & 0x1:
        intake.warnings.append(f"Se omitió {where}: está protegido con contraseña.")
        return 0
    limit = min(MAX_MEMBER_BYTES, budget)
    ratio_ok = info.file_size <= _CHUNK or info.file_size <= MAX_COMPRESSION_RATIO * max(info.compress_size, 1)
    if info.file_size > limit or not ratio_ok:
        intake.warnings.append(
            f"Se rechazó {where}: descomprimido ocuparía {_mib(info.file_size)} "
            f"(comprimido {_mib(info.compress_size)}); parece una bomba zip, no se extrajo."
        )
        return 0
    target = dest.joinpath(*parts)
    # Belt and braces: whatever the name said, the file must land under dest.
    if not target.resolve().is_relative_to(dest.resolve()):
        intake.warnings.append(f"Se rechazó {where}: su ruta sale de la carpeta del zip (zip slip); no se extrajo.")
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
        intake.warnings.append(f"Se omitió {where}: no se pudo extraer ({exc.strerror or exc}).")
        return 0
    if written > limit:
        target.unlink()
        intake.warnings.append(
            f"Se rechazó {where}: al descomprimirlo pasó de {_mib(limit)}; parece una bomba zip, no se extrajo."
        )
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
    counts: dict[str, int] = {}
    for stem in stems:
        counts[stem.casefold()] = counts.get(stem.casefold(), 0) + 1
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
