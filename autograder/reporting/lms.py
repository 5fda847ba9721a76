"""Grades back into the LMS: Moodle's grading worksheet, its feedback-files zip, and Canvas's gradebook CSV.

The instructor downloads a CSV from the LMS, ``autograder export`` fills the assignment's grade (and,
for Moodle, a short feedback comment) of every learner found in results.json, and the LMS imports the
file. A learner is matched by the id the LMS gave them, which intake read from the LMS's own download
(:mod:`autograder.intake.collect`): Moodle's participant id («Participant 15» / «Participante 15»),
Canvas's user id (the ``ID`` column).

The CSV is the LMS's and the instructor's: only the cells written change. Every other row and column,
the header, the delimiter, the quoting, the line ends, the encoding (a BOM stays a BOM) and the decimal
separator stay as they were; a record that is not written is copied byte for byte. Anything wrong with
the input (not UTF-8, a column missing, an id twice, no learner in common) stops the export with a
message naming the file and the line, before anything is written.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from autograder.course.catalogue import NoticeError, notice, text
from autograder.course.config import late_penalty
from autograder.intake.choice import canvas_late
from autograder.reporting import results_json
from autograder.reporting.report import fmt_points
from lesson3.checkpoint import write_atomic

# Moodle's own header strings (core ``grade``/``gradenoun``, mod_assign ``recordid``, ``maxgrade``,
# ``fullname``; assignfeedback_comments ``pluginname``), in the languages whose worksheets are read.
MOODLE_HEADERS: dict[str, tuple[str, ...]] = {
    "id": ("Identifier", "Identificador"),
    "grade": ("Grade", "Calificación"),
    "max": ("Maximum grade", "Calificación máxima"),
    "feedback": ("Feedback comments", "Comentarios de retroalimentación"),
    "name": ("Full name", "Nombre completo"),
    "changeable": ("Grade can be changed", "La calificación puede ser cambiada"),
    "status": ("Status", "Estado"),
}
_LATE = re.compile(r"\b(?:late|retrasado)\b", re.IGNORECASE)
"""Moodle's submission status for work handed in after the due date («Late by: 2 hours», «Retrasado por: 2 horas»)."""
_LOCKED = {"no"}
"""What Moodle writes in «Grade can be changed» for a row whose grade is locked or overridden in the gradebook."""
_MOODLE_ROW = re.compile(r"(?:Participant|Participante)\s*(\d+)", re.IGNORECASE)
"""A worksheet row's identifier: mod_assign's ``hiddenuser`` string and the participant id."""

CANVAS_POINTS = "Points Possible"
CANVAS_HEADERS: dict[str, tuple[str, ...]] = {"id": ("ID",), "name": ("Student",)}


class ExportError(NoticeError):
    """The export cannot be done as asked: nothing was written (the message names the file and the line)."""


@dataclass(frozen=True)
class Graded:
    """One learner of results.json, as the export needs them."""

    name: str
    ident: str
    fraction: float | None
    """Score over maximum; None when the grade is not known yet (not graded, or left to a person)."""
    feedback: str = ""
    """The learner's feedback page, relative to results.json's folder."""
    graded: bool = True
    """False for a learner an interrupted run never graded: no grade, and nothing pending review either."""
    late: bool = False
    """The file graded is one Canvas marked as late (its name's «_LATE_»); Moodle says it in the worksheet."""


@dataclass
class ExportSummary:
    """What the export did, for the instructor: who was written, and who could not be."""

    written: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    """Learners in the sheet whose grade is not known yet: their cells were left as they were."""
    not_in_sheet: list[str] = field(default_factory=list)
    """Learners graded but absent from the sheet (or with no LMS id)."""
    no_result: list[str] = field(default_factory=list)
    """Rows of the sheet with no result."""
    zipped: list[str] = field(default_factory=list)
    """Learners whose feedback page went into Moodle's feedback zip."""
    changed: list[tuple[str, str, str]] = field(default_factory=list)
    """Each row written: (learner, its grade before, after); a blank before is a grade the LMS did not have."""
    locked: list[str] = field(default_factory=list)
    """Rows the LMS marks as locked: never written."""
    kept: list[str] = field(default_factory=list)
    """Rows that already had a grade or a comment: kept, unless the export was asked to overwrite them."""
    not_graded: list[str] = field(default_factory=list)
    """Learners an interrupted run never graded (not pending review: nobody has anything to decide)."""
    late: list[str] = field(default_factory=list)
    """Learners the LMS marks as late (Moodle's status, Canvas's «_LATE_»): listed for the instructor."""
    penalty: float = 0.0
    """The per cent the course (curso.toml's ``penalizacion_tarde``) takes off a late learner's grade."""
    penalized: list[str] = field(default_factory=list)
    """Late learners whose grade was written with the penalty taken off (not those pending, locked or kept)."""
    penalty_later: list[str] = field(default_factory=list)
    """Late learners pending review, where the course sets a penalty: their cell waits for the decision, and the
    penalty comes off the grade then exported (said, so that no one reads them as spared)."""


# --- results.json -----------------------------------------------------------------------------


def load_results(path: Path, *, partial: bool = False) -> tuple[list[Graded], float]:
    """The learners of ``path`` (results.json of ``autograder grade`` or ``merge``, or the folder that holds it);
    ExportError if unreadable.

    A run that was interrupted left learners never graded: exporting it is refused unless ``partial``,
    since their rows would keep whatever the LMS had, with nothing to say they were skipped. Also the per cent
    the course's configuration (results.json's ``report.config``) takes off late work."""
    path = results_json.located(path)
    if not path.is_file():
        raise ExportError(notice("lms.results_missing", file=str(path)))
    try:
        read = results_json.read(path.parent, path.name)
    except results_json.ResultsError:
        raise ExportError(notice("lms.results_unreadable", file=str(path))) from None
    if read.not_graded and not partial:
        never = len(read.not_graded)
        key = "lms.interrupted.one" if never == 1 else "lms.interrupted.other"
        raise ExportError(notice(key, file=str(path), n=never))
    learners = []
    for e in read.entries:
        # A grade only for a learner graded, with nothing left to a person and a maximum to scale by.
        known = e.graded and not e.result.pending and e.result.max_score > 0
        learners.append(
            Graded(
                name=e.learner or e.source or "?",
                ident=e.learner_id.strip(),
                fraction=min(max(e.result.score / e.result.max_score, 0.0), 1.0) if known else None,
                feedback=f"feedback/{e.name}.html",
                graded=e.graded,
                late=canvas_late(e.result.submission),
            )
        )
    seen: dict[str, Graded] = {}
    for g in learners:
        if g.ident and g.ident in seen:
            raise ExportError(
                notice("lms.results_duplicate", file=str(path), ident=g.ident, a=seen[g.ident].name, b=g.name)
            )
        seen[g.ident] = g
    return learners, late_penalty(read.config)


# --- the CSV, kept as it was ------------------------------------------------------------------


@dataclass
class _Record:
    body: str  # the record as in the file, without its line end
    end: str  # "\r\n", "\n" or "" (the last record)
    line: int  # the file's line where it starts (1-based)
    cells: list[str]

    def cell(self, column: int | None) -> str:
        """The cell in ``column``; "" where the record is shorter, or there is no such column."""
        return self.cells[column] if column is not None and column < len(self.cells) else ""


@dataclass
class _Sheet:
    path: Path
    bom: bool
    delimiter: str
    quote_all: bool
    records: list[_Record]
    _headers: dict[int, list[str]] = field(default_factory=dict, repr=False)

    def header(self, at: int = 0) -> list[str]:
        """The cells of the header record ``at``, as read (normalised once: every column is looked up in them)."""
        if at not in self._headers:
            self._headers[at] = [unicodedata.normalize("NFC", c.strip()) for c in self.records[at].cells]
        return self._headers[at]

    def write_cells(self, record: _Record, changes: dict[int, str]) -> None:
        """``record`` with ``changes`` (column -> value): every other cell kept byte for byte, quotes and all.

        A written cell is quoted as the LMS quoted it there (Moodle quotes some columns and not others),
        or where its value needs quotes, or where the whole file is quoted."""
        raw = _raw_cells(record.body, self.delimiter)
        cells = list(record.cells)
        for column, value in changes.items():
            cells += [""] * (column + 1 - len(cells))
            raw += [""] * (column + 1 - len(raw))
            cells[column] = value
            quoted = (
                self.quote_all
                or raw[column].startswith('"')
                or any(c in value for c in (self.delimiter, '"', "\n", "\r"))
            )
            raw[column] = '"' + value.replace('"', '""') + '"' if quoted else value
        record.cells, record.body = cells, self.delimiter.join(raw)

    def text(self) -> str:
        return ("\ufeff" if self.bom else "") + "".join(r.body + r.end for r in self.records)


def _raw_cells(body: str, delimiter: str) -> list[str]:
    """A record's cells as written in the file, quotes included (split at the delimiters outside quotes)."""
    cells, quoted, start = [], False, 0
    for i, ch in enumerate(body):
        if ch == '"':
            quoted = not quoted
        elif ch == delimiter and not quoted:
            cells.append(body[start:i])
            start = i + 1
    cells.append(body[start:])
    return cells


def _split_records(content: str) -> list[tuple[str, str, int]]:
    """(record, line end, first line) for each CSV record: a line end inside quotes belongs to its cell."""
    out: list[tuple[str, str, int]] = []
    quoted, start, line, first = False, 0, 1, 1
    for i, ch in enumerate(content):
        if ch == '"':
            quoted = not quoted
        elif ch == "\n":
            if not quoted:
                body, end = content[start:i], "\n"
                if body.endswith("\r"):
                    body, end = body[:-1], "\r\n"
                out.append((body, end, first))
                start, first = i + 1, line + 1
            line += 1
    if start < len(content):
        out.append((content[start:], "", first))
    return out


def read_sheet(path: Path) -> _Sheet:
    """The CSV at ``path``, each record with its cells and its original text; ExportError names what is wrong."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ExportError(notice("lms.sheet_missing", file=str(path))) from None
    except OSError as exc:
        raise ExportError(notice("lms.sheet_unreadable", file=str(path), reason=exc.strerror or str(exc))) from None
    bom = raw.startswith(b"\xef\xbb\xbf")
    try:
        content = raw[3 if bom else 0 :].decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ExportError(notice("lms.sheet_encoding", file=str(path), line=line)) from None
    split = _split_records(content)
    while split and not split[-1][0].strip():
        last = split.pop()  # a blank tail: kept as the line end it was
        if split:
            split[-1] = (split[-1][0], split[-1][1] + last[0] + last[1], split[-1][2])
    if not split:
        raise ExportError(notice("lms.sheet_empty", file=str(path)))
    head = split[0][0]
    # The delimiter the header uses most, outside quotes (Excel in a Spanish locale saves with «;»).
    unquoted = re.sub(r'"[^"]*"', "", head)
    delimiter = max((",", ";", "\t"), key=unquoted.count)
    records = []
    for body, end, line in split:
        try:
            cells = next(csv.reader([body], delimiter=delimiter, strict=True), [])
        except csv.Error:
            raise ExportError(notice("lms.sheet_malformed", file=str(path), line=line)) from None
        records.append(_Record(body, end, line, cells))
    # Every header cell in quotes: the rows written are quoted the same way.
    quote_all = head.startswith('"') and head.count('"') >= 2 * len(records[0].cells)
    return _Sheet(path, bom, delimiter, quote_all, records)


def _find_column(sheet: _Sheet, names: tuple[str, ...], *, at: int = 0) -> int | None:
    wanted = {n.casefold() for n in names}
    header = sheet.header(at)
    hits = [i for i, cell in enumerate(header) if cell.casefold() in wanted]
    if len(hits) > 1:
        raise ExportError(
            notice("lms.column_twice", file=str(sheet.path), line=sheet.records[at].line, column=header[hits[0]])
        )
    return hits[0] if hits else None


def _number(cell: str) -> tuple[float, str, int] | None:
    """A number as the LMS wrote it: (value, decimal separator, decimals), or None."""
    cell = cell.strip()
    match = re.fullmatch(r"(\d+)(?:([.,])(\d+))?", cell)
    if not match:
        return None
    sep, decimals = match.group(2) or "", match.group(3) or ""
    return float(f"{match.group(1)}.{decimals or 0}"), sep, len(decimals)


def _scaled(fraction: float, maximum: tuple[float, str, int]) -> str:
    """``fraction`` of the sheet's maximum, written as the sheet writes that maximum: its decimal mark, and
    its decimals (two at least)."""
    value, sep, decimals = maximum
    places = max(decimals, 2)
    return f"{round(fraction * value, places):.{places}f}".replace(".", sep or ".")


def _write_out(sheet: _Sheet, out: Path) -> None:
    if out.resolve() == sheet.path.resolve():
        raise ExportError(notice("lms.out_is_input", file=str(out)))
    _write_bytes(out, sheet.text().encode("utf-8"))


def _write_bytes(out: Path, data: bytes) -> None:
    try:
        write_atomic(out, data)
    except OSError as exc:
        raise ExportError(notice("lms.out_unwritable", file=str(out), reason=exc.strerror or str(exc))) from None


def _ident(raw: str) -> str:
    return unicodedata.normalize("NFC", raw).strip()


def _moodle_ident(cell: str) -> str:
    """A worksheet row's participant id («Participante 15» → "15"); "" when the cell holds none."""
    found = _MOODLE_ROW.fullmatch(_ident(cell))
    return found.group(1) if found else ""


def _canvas_ident(cell: str) -> str:
    """A gradebook row's user id; "" for Canvas's rows that are not a learner's («Points Possible»...)."""
    ident = _ident(cell)
    return ident if ident.isdigit() else ""


def _person(cell: str) -> str:
    """A learner's name as the LMS's file writes it, its spaces folded (NFC); "" for an empty cell."""
    return unicodedata.normalize("NFC", " ".join(cell.split()))


def learner_names(path: Path) -> dict[str, str]:
    """Each learner's name as the LMS's file at ``path`` writes it, by their LMS id: Canvas's gradebook
    («Núñez, María», where its download only says «núñezmaría») or Moodle's grading worksheet.

    What ``grade --gradebook`` names the reports with; ``export`` reads the same columns, the same way
    (:func:`_moodle_ident`, :func:`_canvas_ident`, :func:`_person`), in its own one pass over the rows."""
    sheet = read_sheet(path)
    names: dict[str, str] = {}
    for headers, ident_of in ((CANVAS_HEADERS, _canvas_ident), (MOODLE_HEADERS, _moodle_ident)):
        id_col, name_col = _find_column(sheet, headers["id"]), _find_column(sheet, headers["name"])
        if id_col is not None and name_col is not None:
            for record in sheet.records[1:]:
                ident, name = ident_of(record.cell(id_col)), _person(record.cell(name_col))
                if ident and name:
                    names[ident] = name
            break
    if not names:
        raise ExportError(notice("lms.no_names", file=str(path)))
    return names


@dataclass(frozen=True)
class _Row:
    """A learner's row of the LMS's file: where the grade goes, and what the LMS says of it."""

    record: _Record
    ident: str
    grade: int
    """The column of the assignment's grade."""
    comment: int | None = None
    """The column of the feedback comment, where the LMS has one."""
    locked: bool = False
    name: str = ""
    """The learner as the LMS's file names them («Núñez, María»): the export's lists say it so."""


def _match(
    sheet: _Sheet,
    learners: list[Graded],
    rows: list[_Row],
    fill: Callable[[_Row, Graded], dict[int, str]],
    *,
    overwrite: bool = False,
    late: set[str] | None = None,
    penalty: float = 0.0,
) -> ExportSummary:
    """Fill each row whose id a learner has; the learners and rows left over, by name, in the summary.

    A row the LMS marks as locked is never written; one that already holds a grade or a comment is kept
    unless ``overwrite``; every row written is listed with its grade before and after. A learner late (``late``:
    the rows the LMS marks so; or their file's own mark) is listed, and their grade loses ``penalty`` per cent."""
    seen: dict[str, int] = {}
    for row in rows:
        if row.ident in seen:
            first = seen[row.ident]
            raise ExportError(
                notice("lms.sheet_duplicate", file=str(sheet.path), line=row.record.line, ident=row.ident, first=first)
            )
        seen[row.ident] = row.record.line
    by_id = {g.ident: g for g in learners if g.ident}
    names = {row.ident: row.name for row in rows if row.name}
    if not set(seen) & set(by_id):
        raise ExportError(notice("lms.no_match", file=str(sheet.path)))
    summary = ExportSummary(penalty=penalty)
    for row in rows:
        learner = by_id.get(row.ident)
        is_late = learner is not None and (row.ident in (late or set()) or learner.late)
        if is_late and learner is not None:
            summary.late.append(names.get(row.ident) or learner.name)
            # Marked late here, so what fill() writes (the comment's note) follows the same decision as the grade.
            fraction = learner.fraction
            if penalty and fraction is not None:
                fraction = fraction * (1 - penalty / 100)
            learner = replace(learner, late=True, fraction=fraction)
        # A row's learner as the LMS names them («Núñez, María»), else as the reports do.
        shown = names.get(row.ident) or (learner.name if learner is not None else row.ident)
        filled = any(row.record.cell(c).strip() for c in (row.grade, row.comment) if c is not None)
        kept = row.locked or (filled and not overwrite)
        if learner is None:
            summary.no_result.append(shown)
        elif not learner.graded:
            summary.not_graded.append(shown)
        elif learner.fraction is None:
            summary.pending.append(shown)
            if is_late and penalty and not kept:  # a row never written never takes the penalty either
                summary.penalty_later.append(shown)
        elif row.locked:
            summary.locked.append(shown)
        elif kept:
            summary.kept.append(shown)
        else:
            before = row.record.cell(row.grade).strip()
            changes = fill(row, learner)
            sheet.write_cells(row.record, changes)
            summary.written.append(shown)
            summary.changed.append((shown, before, changes[row.grade]))
            if is_late and penalty:
                summary.penalized.append(shown)
    summary.not_in_sheet = [g.name for g in learners if g.ident not in seen]
    return summary


# --- Moodle -----------------------------------------------------------------------------------


def moodle_comment(grade: str, maximum: str, lang: str) -> str:
    """The short feedback comment of the worksheet: the grade as the worksheet writes it, over its own maximum,
    and where the detail is."""
    return text("lms.comment", lang, grade=grade, top=maximum)


def export_moodle(
    results: Path,
    worksheet: Path,
    out: Path,
    lang: str = "es",
    *,
    feedback_zip: Path | None = None,
    overwrite: bool = False,
    partial: bool = False,
) -> ExportSummary:
    """Fill Moodle's grading worksheet ``worksheet`` with the grades of ``results`` into ``out``.

    With ``feedback_zip``, also the zip of feedback pages (:func:`moodle_feedback_zip`): both are
    made before either is written, so a refusal leaves neither. A row whose «Grade can be changed» is
    «No» is never written; one with a grade or a comment already, only with ``overwrite``.
    """
    results = results_json.located(results)  # the feedback pages are beside it
    learners, penalty = load_results(results, partial=partial)
    sheet = read_sheet(worksheet)
    head_line = sheet.records[0].line
    columns = {key: _find_column(sheet, names) for key, names in MOODLE_HEADERS.items()}
    for key in ("id", "grade", "max"):
        if columns[key] is None:
            raise ExportError(
                notice(
                    "lms.column_missing", file=str(worksheet), line=head_line, column=" / ".join(MOODLE_HEADERS[key])
                )
            )
    id_col, grade_col, max_col = columns["id"], columns["grade"], columns["max"]
    assert id_col is not None and grade_col is not None and max_col is not None
    rows: list[_Row] = []
    late: list[str] = []
    for record in sheet.records[1:]:
        if not any(c.strip() for c in record.cells):
            continue
        ident = _moodle_ident(record.cell(id_col))
        if not ident:
            value = record.cell(id_col)[:40]
            raise ExportError(notice("lms.bad_identifier", file=str(worksheet), line=record.line, value=value))
        locked = record.cell(columns["changeable"]).strip().casefold() in _LOCKED
        name = _person(record.cell(columns["name"]))
        rows.append(_Row(record, ident, grade_col, columns["feedback"], locked, name))
        if _LATE.search(record.cell(columns["status"])):
            late.append(ident)

    def fill(row: _Row, learner: Graded) -> dict[int, str]:
        record = row.record
        maximum = _number(record.cell(max_col))
        if maximum is None or maximum[0] <= 0:
            value = record.cell(max_col)[:40]
            raise ExportError(notice("lms.bad_maximum", file=str(worksheet), line=record.line, value=value))
        assert learner.fraction is not None
        grade = _scaled(learner.fraction, maximum)
        changes = {grade_col: grade}
        if row.comment is not None:
            changes[row.comment] = moodle_comment(grade, fmt_points(maximum[0], lang), lang)
            if penalty and learner.late:
                changes[row.comment] += " " + text("lms.comment_late", lang, pct=fmt_points(penalty, lang))
        return changes

    summary = _match(sheet, learners, rows, fill, overwrite=overwrite, late=set(late), penalty=penalty)
    zipped = None
    if feedback_zip is not None:
        if feedback_zip.resolve() in (worksheet.resolve(), out.resolve()):
            raise ExportError(notice("lms.out_is_input", file=str(feedback_zip)))
        zipped, summary.zipped = moodle_feedback_zip(learners, results.parent, results)
    _write_out(sheet, out)
    if feedback_zip is not None and zipped is not None:
        _write_bytes(feedback_zip, zipped)
    return summary


def moodle_feedback_zip(learners: list[Graded], base: Path, results: Path) -> tuple[bytes, list[str]]:
    """The zip of feedback pages Moodle's «upload multiple feedback files in a zip» takes, and who is in it.

    Each page goes under its learner's folder as Moodle downloaded it, ``Full Name_<id>_assignsubmission_file_``:
    Moodle's importer (assignfeedback_file's importziplib) reads the participant id from the second
    ``_``-separated part of the path. Only learners with an LMS id and a grade; pages outside ``base`` never.
    """
    written: list[str] = []
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for learner in learners:
            if not learner.ident.isdigit() or not learner.feedback or learner.fraction is None:
                continue
            page = (base / learner.feedback).resolve()
            if not page.is_relative_to(base.resolve()) or not page.is_file():
                continue
            # Moodle's download wrote the name with «_» as spaces (clean_filename): the id stays second.
            name = re.sub(r"[_/\\\x00-\x1f\x7f]", " ", learner.name).strip() or "Participant"
            zf.writestr(f"{name}_{learner.ident}_assignsubmission_file_/{page.name}", page.read_bytes())
            written.append(learner.name)
    if not written:
        raise ExportError(notice("lms.zip_empty", file=str(results)))
    return buffer.getvalue(), written


# --- Canvas -----------------------------------------------------------------------------------


def export_canvas(
    results: Path, gradebook: Path, column: str, out: Path, *, overwrite: bool = False, partial: bool = False
) -> ExportSummary:
    """Fill the assignment column of Canvas's gradebook export whose name starts with ``column``; a learner's
    cell that already holds a grade only with ``overwrite``."""
    learners, penalty = load_results(results, partial=partial)
    sheet = read_sheet(gradebook)
    head_line = sheet.records[0].line
    id_col = _find_column(sheet, CANVAS_HEADERS["id"])
    if id_col is None:
        raise ExportError(notice("lms.column_missing", file=str(gradebook), line=head_line, column="ID"))
    header = sheet.header()
    prefix = unicodedata.normalize("NFC", column).strip().casefold()
    hits = [i for i, cell in enumerate(header) if prefix and cell.casefold().startswith(prefix)]
    if not hits:
        raise ExportError(notice("lms.column_missing", file=str(gradebook), line=head_line, column=column))
    if len(hits) > 1:
        raise ExportError(
            notice(
                "lms.column_ambiguous",
                file=str(gradebook),
                line=head_line,
                column=column,
                found=" · ".join(header[i] for i in hits),
            )
        )
    target, name_col = hits[0], _find_column(sheet, CANVAS_HEADERS["name"])
    points: tuple[float, str, int] | None = None
    rows: list[_Row] = []
    for record in sheet.records[1:]:
        ident = _canvas_ident(record.cell(id_col))
        if record.cell(0).strip() == CANVAS_POINTS:
            points = _number(record.cell(target))
            if points is None or points[0] <= 0:
                value = record.cell(target)[:40]
                raise ExportError(notice("lms.bad_maximum", file=str(gradebook), line=record.line, value=value))
            continue
        if not ident:  # Canvas's other header rows («Manual Posting»...): not a learner
            continue
        rows.append(_Row(record, ident, target, name=_person(record.cell(name_col))))
    if points is None:
        raise ExportError(notice("lms.no_points", file=str(gradebook), line=head_line))
    maximum = points

    def fill(row: _Row, learner: Graded) -> dict[int, str]:
        assert learner.fraction is not None
        return {target: _scaled(learner.fraction, maximum)}

    summary = _match(sheet, learners, rows, fill, overwrite=overwrite, penalty=penalty)
    _write_out(sheet, out)
    return summary


def shown(summary: ExportSummary, lang: str) -> list[str]:
    """The summary's lines for the terminal: how many were written, then each list of names."""
    lines = [text("lms.written", lang, n=len(summary.written))]
    lines += [
        text("lms.changed", lang, name=name, before=before or "—", after=after)
        for name, before, after in summary.changed
    ]
    for key, names in (
        ("lms.locked", summary.locked),
        ("lms.kept", summary.kept),
        ("lms.not_graded", summary.not_graded),
        ("lms.late_listed" if summary.penalty else "lms.late", summary.late),
        ("lms.late_penalty", summary.penalized),
        ("lms.late_penalty_later", summary.penalty_later),
        ("lms.pending", summary.pending),
        ("lms.not_in_sheet", summary.not_in_sheet),
        ("lms.no_result", summary.no_result),
    ):
        if names:
            # Quoted: Canvas writes «Apellido, Nombre», so a bare comma cannot separate names.
            quoted = ", ".join(f"«{name}»" for name in names)
            lines.append(text(key, lang, n=len(names), names=quoted, pct=fmt_points(summary.penalty, lang)))
    return lines
