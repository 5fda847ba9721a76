"""Reporting: what the instructor sees (results.json, grades.csv, resumen.html) and the learner (feedback/).

Learner-provided text (file names, error messages that quote learner code) is
escaped everywhere it lands: HTML through Jinja2's autoescape, Markdown by
neutralising markup characters, CSV by defusing spreadsheet formulas; in all three,
bidirectional controls are written out as their code, and names sit in ``<bdi>``.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import json
import math
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from autograder.course import criteria
from autograder.course.catalogue import LANGS, fmt_points, plural, section, text
from autograder.reporting.misconceptions import misconception_map
from autograder.wire.results import CriterionResult, SubmissionResult
from lesson3.checkpoint import write_atomic
from lesson3.practice import inline_code

TEMPLATES = Path(__file__).parents[1] / "templates"


@dataclass(frozen=True)
class ReportEntry:
    result: SubmissionResult
    source: str  # where the file came from, e.g. "entregas.zip/grupo1/ana.ipynb" (instructor's views only)
    name: str  # unique file stem for this submission's feedback files (see feedback_names)
    learner: str = ""  # the learner's name as the reports show it; "" = from the result record or the file name
    learner_id: str = ""  # the LMS's id of the learner, when intake knows it
    graded: bool = True  # False for a submission a Ctrl-C left «no calificada»: it has no total

    @property
    def label(self) -> str:
        """The learner's name for every report: intake's, else the result record's, else the file's stem."""
        return display_name(self.learner or result_learner(self.result)[0] or Path(self.result.submission).stem)

    @property
    def ident(self) -> str:
        return self.learner_id or result_learner(self.result)[1]


def result_learner(result: SubmissionResult) -> tuple[str, str]:
    """(name, id) from the result record's ``learner`` field when the grader recorded one (a str or {name, id}).

    ("", "") when it has none: the name then comes from intake or from the file (see learner_labels).
    """
    learner = getattr(result, "learner", None)
    if isinstance(learner, str):
        return learner, ""
    if isinstance(learner, dict):
        name, ident = learner.get("name"), learner.get("id")
        return (name if isinstance(name, str) else ""), ("" if ident is None else str(ident))
    return "", ""


# --- the learner's name: on pages and in file names -------------------------------------------

DISPLAY_MAX = 80
"""Characters of a learner's name shown in a title or a table; longer names end in «…»."""
FILE_NAME_MAX = 60
"""Characters of the file stem made from a learner's name (before a «-2» that keeps it unique)."""
FILE_NAME_BYTES = 150
# Names Windows refuses as files, whatever the extension: feedback is often copied to a teacher's laptop.
_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))}
_INVISIBLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _visible(ch: str) -> bool:
    # A base character a reader sees: not a mark, a format or control character, or a space.
    return unicodedata.category(ch)[0] not in "MCZ"


def _cut(text: str, limit: int) -> str:
    """``text`` to at most ``limit`` characters, never between a letter and its accents."""
    if len(text) <= limit:
        return text
    end = limit
    while end > 0 and unicodedata.category(text[end])[0] == "M":
        end -= 1
    return text[:end]


def display_name(label: str, limit: int = DISPLAY_MAX) -> str:
    """A learner's name as a page shows it: NFC, one line, bounded, and never blank.

    A name with nothing visible in it (only spaces, accents without a letter, control characters)
    is shown as a short digest so that the page still names somebody, and tells them apart.
    """
    text = " ".join(_INVISIBLE.sub(" ", unicodedata.normalize("NFC", label)).split())
    if not any(_visible(ch) for ch in text):
        return "#" + hashlib.sha256(label.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    if len(text) > limit:
        text = _cut(text, limit - 1).rstrip() + "…"
    return text


def _file_stem(label: str, fallback: str) -> str:
    # NFC first: a macOS (NFD) name and its NFC twin are one learner and one file name.
    text = unicodedata.normalize("NFC", label)
    # Accents with no precomposed form are dropped, not turned into "_": the letters stay readable.
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "M")
    text = re.sub(r"[^\w\-]+", "_", text, flags=re.UNICODE).strip("._-")
    text = _cut(text, FILE_NAME_MAX).rstrip("._-")
    # File systems count bytes (255 on ext4): four-byte letters must not push a name past that.
    while len(text.encode("utf-8", "surrogatepass")) > FILE_NAME_BYTES:
        text = _cut(text, len(text) - 1).rstrip("._-")
    if not text:  # only symbols, only accents, only spaces: a name all the same, and one per learner
        text = f"{fallback}-{hashlib.sha256(label.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"
    if text.split(".")[0].upper() in _WINDOWS_RESERVED:
        text += "_"
    return text


def feedback_names(labels: list[str], lang: str = "es") -> list[str]:
    """One file stem per learner for ``feedback/``: from the name, bounded, unique even ignoring case.

    Two learners with one name get «ana_garcia» and «ana_garcia-2», in the class's order, so the
    same class gets the same names on every machine (``--shard``).
    """
    fallback = text("report.file_fallback", lang)
    names: list[str] = []
    taken: set[str] = set()
    for label in labels:
        stem = _file_stem(label, fallback)
        candidate, n = stem, 2
        while candidate.casefold() in taken:
            candidate, n = f"{stem}-{n}", n + 1
        taken.add(candidate.casefold())
        names.append(candidate)
    return names


def learner_labels(sources: list[str], learners: list[str | None] | None = None) -> list[str]:
    """The learner of each submission: intake's name when it has one, else the file's name.

    A file name that several submissions share (an LMS download where everyone handed in
    «04_ejercicios.ipynb») says nothing about who: the folder it came in names the learner then.
    """
    learners = learners or [None] * len(sources)
    stems = [Path(s).stem for s in sources]
    shared = {k for k, v in Counter(stem.casefold() for stem in stems).items() if v > 1}
    labels = []
    for source, stem, learner in zip(sources, stems, learners, strict=True):
        if learner and learner.strip():
            labels.append(learner.strip())
        elif stem.casefold() in shared and len(Path(source).parts) > 1:
            labels.append(f"{Path(source).parent.name}/{stem}")
        else:
            labels.append(stem)
    return labels


def criterion_title(criterion_id: str, lang: str = "es") -> str:
    """«Nivel 2 · el incidente: un solo correo»: the criterion's declared title, with its level."""
    criterion = criteria.CRITERIA.get(criterion_id)
    if criterion is None:
        return criterion_id
    level = text("report.level", lang, level=criterion.level)
    return f"{level} · {criteria.title(criterion_id, lang)}"


def needs_help(entry: ReportEntry) -> bool:
    """«Con problemas», as resumen.html defines it (report.with_error_def): ungraded, an error, or under half."""
    r = entry.result
    # Under half for certain: pending points a person may still give count for the learner here.
    return not entry.graded or bool(r.error) or (r.max_score > 0 and r.score + r.pending < r.max_score / 2)


def grade_10(entry: ReportEntry) -> float | None:
    """The 0–10 grade, to two decimals; None for a submission without a total, or with points still pending.

    A pending criterion's points are neither 0 nor full marks: any grade would be a guess.
    """
    if not entry.graded or entry.result.max_score <= 0 or entry.result.pending:
        return None
    return round(10 * entry.result.score / entry.result.max_score, 2)


def status(entry: ReportEntry) -> str:
    """The row's state: ``not_graded``, ``pending`` (a person must decide a criterion), ``needs_help`` or ``ok``."""
    if not entry.graded:
        return "not_graded"
    if entry.result.pending:
        return "pending"
    return "needs_help" if needs_help(entry) else "ok"


def total_text(entry: ReportEntry, lang: str) -> str:
    """«7 / 20», or «7 / 20 · 3 puntos pendientes de revisión»: the total is over the decided criteria."""
    r = entry.result
    shown = f"{fmt_points(r.score, lang)} / {fmt_points(r.max_score, lang)}"
    if r.pending:
        shown += " · " + text("report.pending_points", lang, points=fmt_points(r.pending, lang))
    return shown


def criterion_state(c: CriterionResult) -> str:
    """``passed``, ``failed``, or ``pending`` (left to a person): also the report's word for it (``report.<state>``)."""
    return "pending" if c.pending else "passed" if c.passed else "failed"


def criterion_points(c: CriterionResult, lang: str | None) -> str:
    """«3 / 5», or «pendiente / 5» for a criterion left to a person (``lang`` None: grades.csv's ``pending``)."""
    score = fmt_points(c.score, lang) if c.score is not None else text("report.pending_cell", lang or "en")
    return f"{score} / {fmt_points(c.max_score, lang)}"


def required_ids(results: list[SubmissionResult]) -> tuple[str, ...]:
    """The registry's criteria of the levels these results were graded on (the course's ``niveles``).

    A run grades every submission on the same levels, so a level none was graded on did not count.
    """
    levels = {known.level for r in results for c in r.criteria if (known := criteria.CRITERIA.get(c.id))}
    return tuple(c for c in criteria.required_ids() if not levels or criteria.CRITERIA[c].level in levels)


def criteria_order(results: Iterable[SubmissionResult]) -> list[str]:
    """The required ids first, in the registry's order; anything else after, so nothing is dropped."""
    results = list(results)
    required = required_ids(results)
    return [*required, *dict.fromkeys(c.id for r in results for c in r.criteria if c.id not in required)]


# --- results.json -----------------------------------------------------------------------------


def results_document(
    entries: list[ReportEntry],
    *,
    seed: int | None = None,
    run: dict[str, Any] | None = None,
    lang: str = "es",
    warnings: list[str] | None = None,
    config: dict[str, Any] | None = None,
) -> dict[str, Any]:
    submissions = []
    for e in entries:
        record = e.result.to_json()
        record["source"] = e.source
        record["feedback"] = f"feedback/{e.name}.html"
        # The learner as every report names them (a `learner` the result carried is folded into these two).
        record["learner"] = e.label
        record["learner_id"] = e.ident or None
        record["graded"] = e.graded
        if not e.graded:  # no total, rather than a 0 nobody earned
            record["score"] = None
        if record.get("seed") is None and seed is not None:
            record["seed"] = seed
        submissions.append(record)
    # What the reports were written with: `autograder review --apply` writes them again, the same way.
    document: dict[str, Any] = {"report": {"lang": lang, "seed": seed, "warnings": list(warnings or [])}}
    # The course's configuration the run used (autograder.course.config): its values and their SHA-256.
    if config is not None:
        document["report"]["config"] = config
    # ``run`` (seed, course version, shard...) lets `autograder merge` check and join parts (classrun.shards).
    if run is not None:
        document["run"] = run
    graded = sum(1 for e in entries if e.graded)
    if graded < len(entries):
        document["interrupted"] = {"graded": graded, "total": len(entries)}
    document["submissions"] = submissions
    return document


# --- grades.csv and notas.csv -----------------------------------------------------------------


_BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Characters that reorder the text around them (a «‮» in «ana‮yp.exe»): shown as their code, never obeyed."""
_BIDI_SHOWN = str.maketrans({c: f"\\u{ord(c):04X}" for c in _BIDI_CONTROLS})


def bidi_visible(text: str) -> str:
    """``text`` with its bidirectional controls written out (``\\u202E``), so they cannot reorder a report."""
    return text.translate(_BIDI_SHOWN)


def csv_cell(value: object) -> str:
    text = bidi_visible("" if value is None else str(value))
    # A learner-chosen file name like "=HYPERLINK(...)" must stay text in a spreadsheet.
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        text = "'" + text
    return text


GRADES_CSV, SHEET_CSV = "grades.csv", "notas.csv"
"""The standard CSV (programs, LMS imports) and the same table for a spreadsheet in the report's language."""
_COLUMNS = ("learner", "learner_id", "submission", "source")
_TOTALS = ("total", "max_score", "pending", "grade_10", "status", "error", "warnings", "flags")
CSV_COLUMNS, CSV_TOTALS = _COLUMNS, _TOTALS
"""Both CSVs' columns before and after the criteria's (docs/guia-docente.md lists them from here)."""


def _table(entries: list[ReportEntry], lang: str | None) -> tuple[list[str], list[list[str]]]:
    """grades.csv's rows (``lang`` None: machine numbers) or notas.csv's (numbers as ``lang`` writes them)."""
    ids = criteria_order(e.result for e in entries)
    t = section("report", lang or "es")
    if lang is None:
        header = [*_COLUMNS, *ids, *_TOTALS]
    else:
        header = [*(t[f"col_{c}"] for c in _COLUMNS), *(f"{criterion_title(i, lang)} [{i}]" for i in ids)]
        header += [t[f"col_{c}"] for c in _TOTALS]
    rows = []
    for e in entries:
        by_id = {c.id: c for c in e.result.criteria}
        r = e.result
        grade = grade_10(e)
        state = status(e)
        pending = text("report.pending_cell", lang or "en")
        rows.append(
            [
                csv_cell(e.label),
                csv_cell(e.ident),
                csv_cell(r.submission),
                csv_cell(e.source),
                *(_score_cell(by_id[i], lang, pending) if e.graded and i in by_id else "" for i in ids),
                fmt_points(r.score, lang) if e.graded else "",
                fmt_points(r.max_score, lang),
                fmt_points(r.pending, lang) if e.graded else "",
                "" if grade is None else fmt_points(grade, lang),
                state if lang is None else t[f"status_{state}"],
                csv_cell(r.error or ""),
                # One cell each: a spreadsheet keeps the line breaks inside a quoted cell.
                csv_cell("\n".join(learner_warnings(r))),
                csv_cell("\n".join([*r.flags, *copy_notes(r, lang or "en")])),
            ]
        )
    return header, rows


def folded(words: str) -> str:
    """``words`` as a search compares them: lower case, without accents («Núñez» is found by «nunez»)."""
    return "".join(c for c in unicodedata.normalize("NFD", words.casefold()) if not unicodedata.combining(c))


def spanish_order(label: str) -> str:
    """A sort key for names as a Spanish reader orders them: accents do not move a name (Álvaro beside Alberto)
    and ñ is its own letter, after n."""
    marked = unicodedata.normalize("NFD", label.casefold()).replace("n\u0303", "n\x7f")
    return "".join(c for c in marked if not unicodedata.combining(c))


def copy_notes(r: SubmissionResult, lang: str) -> list[str]:
    """The result's copy records said for a person, a line per function: «posible copia: reconcile … Beto (98 %)…»."""
    by_function: dict[str, list[str]] = {}
    for c in r.copies:
        pct = round(100 * c["similarity"])
        by_function.setdefault(c["function"], []).append(text("flag.copy_other", lang, other=c["other"], pct=pct))
    return [text("flag.copy", lang, function=f, others=", ".join(o)) for f, o in by_function.items()]


def _score_cell(c: CriterionResult, lang: str | None, pending: str) -> str:
    # A pending criterion's cell says so: an empty cell would read as "not graded", a 0 as failed.
    return pending if c.score is None else fmt_points(c.score, lang)


def grades_csv(entries: list[ReportEntry]) -> str:
    """Standard CSV (RFC 4180: ``,``, decimal point, UTF-8): for programs and LMS imports; ids as headers."""
    return csv_text(*_table(entries, None), lineterminator="\n")


def sheet_csv(entries: list[ReportEntry], lang: str = "es") -> str:
    """The same table for a double-click: the separator and decimal mark of ``lang``'s spreadsheets, a BOM.

    A spreadsheet in Spanish (Excel, LibreOffice) splits a file on ``;`` and reads ``7,5`` as a number;
    Excel reads UTF-8 only after a byte-order mark. Headers are the criteria's titles beside their ids.
    """
    # CRLF: what Excel writes and expects; every spreadsheet reads it.
    return "\ufeff" + csv_text(
        *_table(entries, lang), delimiter=text("report.csv_delimiter", lang), lineterminator="\r\n"
    )


def csv_text(header: list[str], rows: Iterable[list[str]], **dialect: Any) -> str:
    """A table as CSV text; ``dialect`` is csv.writer's (the delimiter, the line end)."""
    buf = io.StringIO()
    csv.writer(buf, **dialect).writerows([header, *rows])
    return buf.getvalue()


# --- Markdown feedback ------------------------------------------------------------------------

# Every character str.splitlines() breaks on: a file name with one must not start a new Markdown line.
_LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_CONTROLS = [chr(c) for c in [*range(0x20), 0x7F] if chr(c) not in _LINE_BREAKS]
_MD_SPECIAL = str.maketrans(
    {c: f"\\u{ord(c):04X}" for c in _BIDI_CONTROLS}  # before the backslash rule: a single pass, not escaped again
    | {c: "\\" + c for c in "\\`*_[]|~"}
    | {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
    | {c: "\u2424" for c in _LINE_BREAKS}  # ␤, visible where the name had a line break
    | {c: " " if c == "\t" else "\ufffd" for c in _CONTROLS}
)
# Where the text starts a line (a list item, a blockquote line), these would open a heading or a list.
_MD_BLOCK_MARK = re.compile(r"^(\s*)([#+=-])")
_MD_ORDERED_MARK = re.compile(r"^(\s*\d+)([.)])")


def md_escape(text: str) -> str:
    """Learner text shown literally on one Markdown line: no markup, no raw HTML, no line break."""
    escaped = text.translate(_MD_SPECIAL)
    escaped = _MD_BLOCK_MARK.sub(r"\1\\\2", escaped)
    return _MD_ORDERED_MARK.sub(r"\1\\\2", escaped)


_CODE_SPAN = re.compile(r"(`[^`]+`)")


def md_with_code(text: str) -> str:
    """One line of feedback in Markdown: its `code` spans kept as code (check()'s inline_code rule), the rest
    shown literally. A code span is literal in Markdown (no markup, no raw HTML), so only the rest is escaped."""
    return "".join(part if _CODE_SPAN.fullmatch(part) else md_escape(part) for part in _CODE_SPAN.split(text))


def _md_block(text: str) -> str:
    # Feedback may be several lines; a blockquote keeps them together under their criterion.
    return "\n".join("> " + md_with_code(line) if line else ">" for line in text.splitlines() or [""])


MACHINE_WARNINGS = ("warn.unconfined", "warn.signals", "warn.seccomp")
"""What the grader's machine could not confine. The grading adds it to every result, but it speaks to the
instructor («tus archivos», «corrige como root»): the summary shows it once, a learner's feedback never."""


@functools.cache
def _machine_prefixes() -> tuple[str, ...]:
    # Each text up to its first placeholder (warn.signals names the machine's Landlock version), in every language.
    return tuple(text(key, lang).split("{")[0] for key in MACHINE_WARNINGS for lang in LANGS)


def is_machine_warning(warning: str) -> bool:
    return warning.startswith(_machine_prefixes())


def learner_warnings(result: SubmissionResult) -> list[str]:
    """The warnings about the learner's own submission (cells that failed, modules missing, output cut)."""
    return [w for w in result.warnings if not is_machine_warning(w)]


FEEDBACK_OUTPUT_KB = 4
"""Of what the learner printed (results.json keeps more), the feedback shows this much."""


def printed(result: SubmissionResult) -> str:
    """The start of what the learner's code printed, for the feedback."""
    return result.output[: FEEDBACK_OUTPUT_KB * 1024]


def feedback_markdown(entry: ReportEntry, lang: str = "es") -> str:
    """The learner's feedback: their name and file, never the instructor's paths or the flags for review."""
    t = section("report", lang)
    r = entry.result
    score = total_text(entry, lang) if entry.graded else t["status_not_graded"]
    lines = [
        f"# {t['feedback_title']}: {md_escape(entry.label)}",
        "",
        f"*{t['lesson']}*",
        "",
        f"**{t['score']}:** {score}  ",
        f"**{t['your_file']}:** {md_escape(r.submission)}",
        "",
    ]
    if r.error:
        lines += [f"## {t['error']}", "", _md_block(r.error), ""]
    if warnings := learner_warnings(r):
        lines += [f"## {t['warnings_learner']}", "", *(f"- {md_escape(w)}" for w in warnings), ""]
    if r.output:
        lines += [f"## {t['output'].format(kb=FEEDBACK_OUTPUT_KB)}", "", _md_block(printed(r)), ""]
    lines += [f"| {t['criterion']} | {t['result']} | {t['points']} |", "|---|---|---|"]
    marks = {"pending": t["pending_mark"], "passed": "✔", "failed": "✘"}
    for c in r.criteria:
        state = criterion_state(c)
        title = criterion_title(c.id, lang)
        lines.append(f"| {title} (`{c.id}`) | {marks[state]} {t[state]} | {criterion_points(c, lang)} |")
    lines += ["", f"## {t['details']}", ""]
    for c in r.criteria:
        lines += [
            f"### {marks[criterion_state(c)]} {criterion_title(c.id, lang)}",
            "",
            f"`{c.id}` · {criterion_points(c, lang)}",
            "",
            # What kept the whole submission from running is said once, above: the rows point to it.
            _md_block(t["not_run_row"] if r.not_run else grader_said(c)),
            "",
        ]
        if why := decision_text(c, lang):
            lines += [_md_block(why), ""]
    return "\n".join(lines).rstrip() + "\n"


def grader_said(c: CriterionResult) -> str:
    """What the learner's page shows of the grader's own words on ``c``.

    A criterion the grader left to a person and a person then decided has nothing left of them to say:
    they explained why it was pending, and the decision (:func:`decision_text`) now says what it is. A
    decision on a criterion the grader had decided (a regrade request) keeps them: they say what it saw."""
    decided_pending = isinstance(c.decision, dict) and c.decision.get("was") == "pending"
    return "" if decided_pending else c.feedback


def decision_text(c: CriterionResult, lang: str) -> str:
    """«Decidido por … el …: …» for a criterion a person decided; "" for one the grader decided."""
    d = c.decision
    if not isinstance(d, dict):
        return ""
    return text("report.decided_by", lang, by=d.get("by", ""), at=d.get("at", ""), why=d.get("why", ""))


# --- HTML -------------------------------------------------------------------------------------


def _finalize(value: object) -> object:
    return bidi_visible(value) if isinstance(value, str) and not isinstance(value, Markup) else value


def feedback_markup(value: str) -> Markup:
    """Feedback as a page shows it: escaped, bidi controls written out, `code` in <code> (check()'s rule)."""
    return Markup(inline_code(bidi_visible(value)))


@functools.cache  # one compile per template per process, not one per learner's feedback page
def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(enabled_extensions=("html", "j2"), default=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Every value a page shows, learner text above all: no bidirectional control reorders the page.
        # (Markup is already safe: made by a filter below from text that went through bidi_visible.)
        finalize=_finalize,
    )
    env.filters["points"] = fmt_points  # {{ x | points(lang) }}: a decimal comma in a Spanish page
    env.filters["code"] = feedback_markup  # {{ c.feedback | code }}: `names` shown as code, as check() does
    env.globals["criterion_title"] = criterion_title
    env.globals["criterion_points"] = criterion_points
    env.globals["total_text"] = total_text
    env.globals["decision_text"] = decision_text
    env.globals["grader_said"] = grader_said
    env.globals["copy_notes"] = copy_notes
    env.filters["folded"] = folded
    return env


def feedback_html(entry: ReportEntry, lang: str = "es") -> str:
    """The learner's page: their name and file, never the instructor's paths or the flags for review."""
    return (
        _environment()
        .get_template("feedback.html.j2")
        .render(
            e=entry,
            r=entry.result,
            t=section("report", lang),
            lang=lang,
            criteria=entry.result.criteria,
            warnings=learner_warnings(entry.result),
            printed=printed(entry.result),
            output_kb=FEEDBACK_OUTPUT_KB,
        )
    )


@dataclass(frozen=True)
class CriterionStats:
    id: str
    passed: int
    total: int
    """Those with a verdict: a criterion left to a person is not counted until decided."""
    pending: int = 0

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0


def criterion_stats(results: list[SubmissionResult]) -> list[CriterionStats]:
    stats = []
    required = required_ids(results)
    for cid in criteria_order(results):
        graded = [c for r in results for c in r.criteria if c.id == cid]
        if cid not in required and not graded:
            continue
        # A required criterion missing from a submission (it could not be loaded, or only some levels
        # were graded) counts as not passed: every rate is over the whole class. One left to a person is
        # neither passed nor failed yet: it is out of the rate until decided, and said beside it.
        pending = sum(1 for c in graded if c.pending)
        total = (len(results) if cid in required else len(graded)) - pending
        stats.append(CriterionStats(cid, sum(1 for c in graded if c.passed is True), total, pending))
    return stats


def score_bins(scores: list[float], max_score: float) -> list[tuple[float, float, int]]:
    """(low, high, count) per bin: one bin per point up to 20 points, ten equal bins beyond."""
    if max_score <= 0:  # nothing to score (nothing graded yet): one column, «0»
        return [(0.0, 1.0, len(scores))]
    points = max_score <= 20 and float(max_score).is_integer()
    width, n = (1.0, int(max_score) + 1) if points else (max_score / 10, 10)
    counts = [0] * n
    for s in scores:
        counts[min(max(math.floor(s / width + 1e-9), 0), n - 1)] += 1
    return [(k * width, (k + 1) * width, counts[k]) for k in range(n)]


_BAR, _INK, _GRID = "#0969da", "#1f2328", "#d0d7de"
# Width of one character of the charts' 11–12 px labels, generously (digits and a decimal comma).
_CHAR_PX = 7.5


def _pending_note(s: CriterionStats, lang: str) -> str:
    return " " + plural("report.rate_pending", s.pending, lang) if s.pending else ""


def pass_rate_svg(stats: list[CriterionStats], lang: str = "es") -> Markup:
    """Horizontal bars: the share of submissions that pass each criterion.

    One colour: the length and the number written beside each bar carry the rate, no threshold does.
    """
    label_w, bar_w, row_h, top = 230, 360, 26, 8
    notes = 140 if any(s.pending for s in stats) else 0  # «· 2 pendientes» after the figure
    width, height = label_w + bar_w + 110 + notes, top + row_h * len(stats) + 24
    t = section("report", lang)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-labelledby="pass-title">',
        f'<title id="pass-title">{escape(t["pass_rate"])}</title>',
    ]
    for k in range(0, 101, 25):
        x = label_w + bar_w * k / 100
        out += [
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 20}" stroke="{_GRID}"/>',
            f'<text x="{x:.1f}" y="{height - 6}" font-size="11" text-anchor="middle" fill="{_INK}">{k} %</text>',
        ]
    for i, s in enumerate(stats):
        y = top + i * row_h
        w = bar_w * s.rate
        out += [
            f'<text x="{label_w - 8}" y="{y + 17}" font-size="12" text-anchor="end" '
            f'fill="{_INK}">{escape(s.id)}</text>',
            f'<rect x="{label_w}" y="{y + 4}" width="{w:.1f}" height="{row_h - 8}" fill="{_BAR}">'
            f"<title>{escape(criterion_title(s.id, lang))}: {s.passed}/{s.total}</title></rect>",
            f'<text x="{label_w + w + 6:.1f}" y="{y + 17}" font-size="12" fill="{_INK}">'
            f"{round(100 * s.rate)} % ({s.passed}/{s.total}){escape(_pending_note(s, lang))}</text>",
        ]
    out.append("</svg>")
    return Markup("\n".join(out))


def histogram_svg(bins: list[tuple[float, float, int]], lang: str = "es") -> Markup:
    """Columns: how many submissions fell in each band of points.

    Bins of one point are labelled under their column; wider bins at their edges («0», «2,5», «5»…),
    so no label is wider than the column it stands under and none overlaps its neighbour.
    """
    t = section("report", lang)
    per_point = all(high - low == 1 for low, high, _ in bins)
    if per_point:
        marks = [(i + 0.5, fmt_points(low, lang)) for i, (low, _, _) in enumerate(bins)]
    else:
        marks = [(float(i), fmt_points(low, lang)) for i, (low, _, _) in enumerate(bins)]
        marks.append((float(len(bins)), fmt_points(bins[-1][1], lang)))
    widest = max((len(label) for _, label in marks), default=1)
    col_w = max(36, math.ceil(widest * _CHAR_PX) + 10)
    plot_h, left, top, bottom = 180, 40, 12, 44
    width = left + col_w * max(len(bins), 1) + col_w // 2 + 8
    height = top + plot_h + bottom
    peak = max((c for _, _, c in bins), default=0) or 1
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-labelledby="hist-title">',
        f'<title id="hist-title">{escape(t["distribution"])}</title>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + col_w * len(bins)}" y2="{top + plot_h}" stroke="{_INK}"/>',
    ]
    for i, (low, high, count) in enumerate(bins):
        x = left + i * col_w
        h = plot_h * count / peak
        span = fmt_points(low, lang) if per_point else f"{fmt_points(low, lang)}–{fmt_points(high, lang)}"
        out.append(
            f'<rect x="{x + 6}" y="{top + plot_h - h:.1f}" width="{col_w - 12}" height="{h:.1f}" fill="{_BAR}">'
            f"<title>{escape(span)}: {escape(plural('report.learners', count, lang))}</title></rect>"
        )
        if count:
            out.append(
                f'<text x="{x + col_w / 2:.1f}" y="{top + plot_h - h - 4:.1f}" font-size="11" '
                f'text-anchor="middle" fill="{_INK}">{count}</text>'
            )
    for at, label in marks:
        x = left + at * col_w
        if not per_point:
            out.append(f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" y2="{top + plot_h + 4}" stroke="{_INK}"/>')
        out.append(
            f'<text class="xlabel" x="{x:.1f}" y="{top + plot_h + 17}" font-size="11" '
            f'text-anchor="middle" fill="{_INK}">{escape(label)}</text>'
        )
    out += [
        f'<text x="{left + col_w * len(bins) / 2:.1f}" y="{height - 6}" font-size="12" '
        f'text-anchor="middle" fill="{_INK}">{escape(t["score"])}</text>',
        "</svg>",
    ]
    return Markup("\n".join(out))


@dataclass(frozen=True)
class Column:
    """A criterion's column in the learner × criterion table: a short code, its title in the legend."""

    id: str
    code: str
    title: str


def matrix_columns(ids: list[str], lang: str = "es") -> list[Column]:
    """«N0.1», «N0.2»… «N2.7»: short enough for 18 columns, each spelled out in the legend under the table."""
    seen: dict[str, int] = {}
    columns = []
    for cid in ids:
        known = criteria.CRITERIA.get(cid)
        level = str(known.level) if known else "?"
        seen[level] = seen.get(level, 0) + 1
        code = text("report.column_code", lang, level=level, n=seen[level])
        columns.append(Column(cid, code, criterion_title(cid, lang)))
    return columns


def matrix_cells(entry: ReportEntry, columns: list[Column]) -> list[CriterionResult | None]:
    """The entry's result for each column; None where it has none (not graded, or a criterion it lacks)."""
    by_id = {c.id: c for c in entry.result.criteria} if entry.graded else {}
    return [by_id.get(col.id) for col in columns]


@dataclass(frozen=True)
class ClassFigures:
    """The class's figures, the same in the console and in resumen.html: over the learners with a grade.

    A Ctrl-C's «no calificada» row has no score to count, nor a total with points left to a person:
    it is not a grade yet."""

    learners: int
    graded: int
    pending: int
    """Graded learners with a criterion left to a person: not counted in the figures until decided."""
    scores: tuple[float, ...]
    mean: float | None
    median: float | None
    mean_fraction: float | None
    """The mean of each learner's share of their own maximum (optional questions make maxima differ)."""

    @property
    def counted(self) -> int:
        return len(self.scores)


def class_figures(entries: list[ReportEntry]) -> ClassFigures:
    graded = [e.result for e in entries if e.graded]
    final = [r for r in graded if not r.pending]
    scores = tuple(r.score for r in final)
    return ClassFigures(
        learners=len(entries),
        graded=len(graded),
        pending=len(graded) - len(final),
        scores=scores,
        mean=statistics.fmean(scores) if scores else None,
        median=statistics.median(scores) if scores else None,
        mean_fraction=statistics.fmean(r.score / r.max_score if r.max_score else 0.0 for r in final) if final else None,
    )


def summary_html(
    entries: list[ReportEntry], *, lang: str = "es", seed: int | None = None, warnings: list[str] | None = None
) -> str:
    results = [e.result for e in entries if e.graded]
    figures = class_figures(entries)
    scores = list(figures.scores)
    max_score = max((e.result.max_score for e in entries), default=0.0)
    stats = criterion_stats(results)
    t = section("report", lang)
    # The machine's warnings once, at the top, beside intake's: not once per learner.
    machine = list(dict.fromkeys(w for e in entries for w in e.result.warnings if is_machine_warning(w)))
    return (
        _environment()
        .get_template("resumen.html.j2")
        .render(
            entries=sorted(entries, key=lambda e: spanish_order(e.label)),
            t=t,
            lang=lang,
            seed=seed,
            warnings=warnings or [],
            machine_warnings=machine,
            learner_warnings=learner_warnings,
            n=figures.learners,
            n_graded=figures.graded,
            interrupted=text("report.interrupted", lang, graded=figures.graded, n=figures.learners)
            if figures.graded < figures.learners
            else None,
            n_help=sum(1 for e in entries if needs_help(e)),
            needs_help=needs_help,
            grade_10=grade_10,
            status=status,
            n_pending=figures.pending,
            n_counted=figures.counted,
            mean=figures.mean,
            median=figures.median,
            mean_pct=None if figures.mean_fraction is None else round(100 * figures.mean_fraction),
            max_score=max_score,
            stats=stats,
            columns=matrix_columns(criteria_order(e.result for e in entries), lang),
            pass_chart=pass_rate_svg(stats, lang),
            histogram=histogram_svg(score_bins(scores, max_score), lang),
            matrix_cells=matrix_cells,
            move_map=misconception_map(entries, lang),
            script=Markup(_SCRIPT),
        )
    )


_SCRIPT = (TEMPLATES / "_table.js").read_text(encoding="utf-8")
"""Sorting and filtering of the learner × criterion table, inline: the page works from a file, offline."""


# --- writing ----------------------------------------------------------------------------------


_SURROGATE = re.compile("[\ud800-\udfff]")


def write_text_atomic(path: Path, text: str) -> None:
    """Write whole or not at all: an interrupted run never leaves half a report.

    A file name that is not UTF-8 (Linux allows any bytes) reaches here as lone surrogates;
    they become U+FFFD, so one such name never costs the class its reports.
    """
    text = _SURROGATE.sub("\ufffd", text)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text.encode("utf-8"), durable=False)


SUMMARY_FILES = (GRADES_CSV, SHEET_CSV, "resumen.html", "results.json")


def report_files(names: Iterable[str]) -> list[str]:
    """Every file ``write_reports`` writes for these feedback names, relative to ``--out``, in writing order."""
    return [*(f"feedback/{n}{ext}" for n in names for ext in (".md", ".html")), *SUMMARY_FILES]


def write_reports(
    out_dir: Path,
    entries: list[ReportEntry],
    *,
    lang: str = "es",
    seed: int | None = None,
    warnings: list[str] | None = None,
    run: dict[str, Any] | None = None,
    config: dict[str, Any] | None = None,
) -> list[str]:
    """Write results.json, grades.csv, notas.csv, feedback/<name>.md|.html and resumen.html in ``out_dir``.

    Returns the files written, relative to ``out_dir`` (what the console lists).
    """
    if lang not in LANGS:
        raise ValueError(text("report.unknown_lang", given=repr(lang), langs=", ".join(LANGS)))
    names = [e.name for e in entries]
    if len({n.casefold() for n in names}) != len(names):
        raise ValueError(text("report.same_name", lang))
    for e in entries:
        write_text_atomic(out_dir / "feedback" / f"{e.name}.md", feedback_markdown(e, lang))
        write_text_atomic(out_dir / "feedback" / f"{e.name}.html", feedback_html(e, lang))
    write_text_atomic(out_dir / GRADES_CSV, grades_csv(entries))
    write_text_atomic(out_dir / SHEET_CSV, sheet_csv(entries, lang))
    write_text_atomic(out_dir / "resumen.html", summary_html(entries, lang=lang, seed=seed, warnings=warnings))
    document = results_document(entries, seed=seed, run=run, lang=lang, warnings=warnings, config=config)
    write_text_atomic(out_dir / "results.json", json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    return report_files(names)
