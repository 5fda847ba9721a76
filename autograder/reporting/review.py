"""A person decides what the grader left to them, or any criterion a learner asks to have regraded.

``autograder review OUT`` lists the criteria still pending (``"passed": null, "review": true``)
and writes a CSV to fill in: one row per submission and criterion, with the learner's own text
as the judge quoted it, and three columns for the instructor: ``decision`` (``pass``, ``fail``
or the points, from 0 to the criterion's maximum), ``reviewer`` and ``reason``. With
``--criterion ID`` and/or ``--learner NAME`` it lists those criteria whatever their state: a
regrade request. Rows may also be added by hand.

``autograder review OUT --apply FILE.csv`` checks the whole file first (the run it belongs to,
the criteria, the decisions, duplicates): one bad line and nothing is written. Then each
decision is recorded in its criterion (``"decision": {"by", "at", "why", "was"}``), and
``decisions.json`` beside the results keeps every decision keyed by the learner (the LMS id, else
the name: never the file's name, which every learner shares), the graded file's SHA-256 and the
criterion id. ``autograder grade`` into the same folder applies them again to the same learner's
same content, and drops (with a warning naming the learner, also kept in results.json) those whose
submission changed, whatever its file is now called;
``autograder merge`` carries the parts' decisions. The reports (grades.csv, notas.csv,
feedback/, resumen.html, results.json) are written again, each file atomically.

Gradescope's results live in Gradescope: a pending criterion is shown there without points and
decided by the instructor in Gradescope itself, so ``--apply`` changes nothing there.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from autograder.course.catalogue import NoticeError, notice, text
from autograder.course.config import is_number
from autograder.reporting.report import (
    ReportEntry,
    criterion_state,
    criterion_title,
    csv_cell,
    csv_text,
    display_name,
    write_text_atomic,
)
from autograder.wire.results import CriterionResult

DECISIONS_JSON = "decisions.json"
"""Every decision a person made for this folder's submissions: what ``grade`` and ``merge`` carry."""
COLUMNS = ("submission", "sha256", "learner", "criterion", "title", "max_score", "feedback")
DECIDE = ("decision", "reviewer", "reason")
_MAX_CSV_BYTES = 20 * 1024 * 1024
_PASS = {"pass", "passed", "aprobado", "aprueba", "sí", "si", "yes"}
_FAIL = {"fail", "failed", "no aprobado", "suspenso", "no"}


class ReviewError(NoticeError):
    """Bad review input: the message names the file and the line; nothing was written."""


@dataclass(frozen=True)
class Row:
    """One criterion of one submission, to decide."""

    entry: ReportEntry
    criterion: CriterionResult


def learner_key(name: str, ident: str) -> tuple[str, str]:
    """Who a learner is across runs, for what a person decided about them: the LMS's id when known, else their
    name; never the file's name, which every learner shares. The one rule, for decisions, file choices and the
    class a run updates."""
    return ("id", ident) if ident else ("name", name)


class _PersonsWord:
    """What a person recorded about a learner, kept in decisions.json under whose it is (:func:`learner_key`)."""

    learner: str
    learner_id: str

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @property
    def who(self) -> tuple[str, str]:
        return learner_key(self.learner, self.learner_id)


@dataclass(frozen=True)
class Decision(_PersonsWord):
    sha256: str
    submission: str
    learner: str
    criterion: str
    passed: bool
    score: float
    by: str
    at: str
    why: str
    was: str  # "pending", "passed" or "failed": what the criterion was before
    learner_id: str = ""  # the LMS's id when known; a decisions.json written before it had none

    @property
    def one_per(self) -> tuple[str, tuple[str, str], str]:
        """What a decision settles: one learner's criterion, for the content it was made on."""
        return (self.sha256, self.who, self.criterion)


@dataclass(frozen=True)
class FileChoice(_PersonsWord):
    """A person's choice of which of a learner's files is graded (``grade --choose``), instead of intake's rule.

    Kept in decisions.json beside the criteria's decisions, by learner (never by file name), and applied by
    every later ``grade`` into the folder while that learner still has the file."""

    learner: str
    file: str  # as the learner's row names it: its path inside the learner's folder
    at: str
    learner_id: str = ""

    @property
    def one_per(self) -> tuple[str, str]:
        """What a choice settles: one learner's file, whatever they hand in."""
        return self.who


def learner_cell(entry: ReportEntry) -> str:
    """How a row names its learner: «Ana García (109)» when the LMS's id is known, so two namesakes'
    rows stay apart as written; a row written by hand may give the name or the id alone."""
    return f"{entry.label} ({entry.ident})" if entry.ident else entry.label


def _whos(entry: ReportEntry) -> tuple[tuple[str, str], ...]:
    """Every :attr:`Decision.who` that designates ``entry``'s learner: theirs (:func:`learner_key`), and their
    name alone, as a decisions.json written before the LMS's ids were kept has it."""
    return tuple(dict.fromkeys((learner_key(entry.label, entry.ident), learner_key(entry.label, ""))))


def _matches(entry: ReportEntry, learner: str) -> bool:
    wanted = learner.casefold()
    return wanted in {entry.label.casefold(), entry.ident.casefold(), entry.result.submission.casefold()}


def rows_to_review(
    entries: list[ReportEntry], *, criterion: str | None = None, learner: str | None = None
) -> list[Row]:
    """The pending criteria; with ``criterion`` and/or ``learner``, those (whatever their state: a regrade)."""
    regrade = criterion is not None or learner is not None
    return [
        Row(e, c)
        for e in entries
        if e.graded and (learner is None or _matches(e, learner))
        for c in e.result.criteria
        if (c.id == criterion if criterion is not None else True) and (regrade or c.pending)
    ]


def review_csv(rows: list[Row], lang: str = "es") -> str:
    """The file to fill in: comma-separated UTF-8, machine headers; ``decision``, ``reviewer`` and ``reason`` empty.

    Learner-chosen text is written as grades.csv writes it: a name like ``=HYPERLINK(...)`` stays text.
    """
    table = [
        [
            csv_cell(r.entry.result.submission),
            r.entry.result.sha256 or "",
            csv_cell(learner_cell(r.entry)),
            r.criterion.id,
            criterion_title(r.criterion.id, lang),
            f"{r.criterion.max_score:g}",
            csv_cell(r.criterion.feedback),
            "",
            "",
            "",
        ]
        for r in rows
    ]
    return csv_text([*COLUMNS, *DECIDE], table, lineterminator="\n")


def listing(rows: list[Row], lang: str = "es") -> list[str]:
    """One line per row for the console: learner, file, criterion and what the judge quoted."""
    return [
        text(
            "review.row",
            lang,
            learner=display_name(learner_cell(r.entry)),
            submission=display_name(r.entry.result.submission),
            criterion=r.criterion.id,
            state=text(f"report.{criterion_state(r.criterion)}", lang),
            feedback=r.criterion.feedback,
        )
        for r in rows
    ]


# --- reading a filled-in CSV ------------------------------------------------------------------


def _fail(path: Path, line: int, key: str, **params: Any) -> ReviewError:
    return ReviewError(notice("review.bad_line", file=str(path), line=line, why=notice(key, **params)))


def _number(raw: str) -> float | None:
    try:
        value = float(raw.replace(",", "."))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def read_decisions(path: Path, entries: list[ReportEntry], *, at: str) -> list[Decision]:
    """Every decided row of ``path``, checked against ``entries``; ``ReviewError`` at the first bad line."""
    try:
        if path.stat().st_size > _MAX_CSV_BYTES:
            raise ReviewError(notice("review.csv_too_big", file=str(path)))
        raw = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ReviewError(notice("review.csv_not_utf8", file=str(path))) from None
    except OSError as exc:
        raise ReviewError(notice("review.csv_unreadable", file=str(path), reason=exc.strerror or "")) from None
    # A spreadsheet in Spanish saves with «;»: the header line says which.
    first = raw.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    try:
        table = list(csv.reader(io.StringIO(raw, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        raise ReviewError(notice("review.csv_garbled", file=str(path), reason=str(exc))) from None
    if not table or [h.strip() for h in table[0]] != [*COLUMNS, *DECIDE]:
        raise ReviewError(notice("review.csv_header", file=str(path), columns=", ".join([*COLUMNS, *DECIDE])))
    # A row names its learner and submission as review_csv wrote them (made safe for a spreadsheet) or as
    # they are. The learner is part of the key: every learner hands in a file of the same name, and a copied
    # notebook has the same digest as its original.
    by_key: dict[tuple[str, str, str], list[ReportEntry]] = {}
    for e in entries:
        if not e.graded:
            continue
        names = {e.result.submission, csv_cell(e.result.submission)}
        said = {e.label, e.ident, learner_cell(e)} if e.ident else {e.label}
        learners = said | {csv_cell(name) for name in said}
        for name in names:
            for learner in learners:
                by_key.setdefault((name, e.result.sha256 or "", learner), []).append(e)
    seen: dict[tuple[tuple[str, str], str, str], int] = {}
    decisions = []
    for line, cells in enumerate(table[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(COLUMNS) + len(DECIDE):
            raise _fail(path, line, "review.why_cells", n=len(cells), expected=len(COLUMNS) + len(DECIDE))
        row = dict(zip([*COLUMNS, *DECIDE], (c.strip() for c in cells), strict=True))
        candidates = by_key.get((row["submission"], row["sha256"], row["learner"]), [])
        if not candidates:
            raise _fail(path, line, "review.why_other_run", submission=row["submission"], learner=row["learner"])
        if len(candidates) > 1:
            if not row["decision"]:
                continue  # nothing to apply, so nothing to tell apart
            raise _fail(path, line, "review.why_ambiguous", learner=row["learner"], submission=row["submission"])
        (entry,) = candidates
        found = next((c for c in entry.result.criteria if c.id == row["criterion"]), None)
        if found is None:
            raise _fail(path, line, "review.why_criterion", criterion=row["criterion"])
        key = (_whos(entry)[0], row["sha256"], row["criterion"])
        if key in seen:
            raise _fail(path, line, "review.why_duplicate", other=seen[key])
        seen[key] = line
        if not row["decision"]:
            continue  # not decided yet: the file may be filled in over several sittings
        passed, score = _decision(row["decision"], found.max_score)
        if passed is None:
            raise _fail(path, line, "review.why_decision", got=row["decision"], max=f"{found.max_score:g}")
        if not row["reviewer"]:
            raise _fail(path, line, "review.why_reviewer")
        if not row["reason"]:
            raise _fail(path, line, "review.why_reason")
        decisions.append(
            Decision(
                sha256=row["sha256"],
                submission=entry.result.submission,
                learner=entry.label,
                criterion=found.id,
                passed=passed,
                score=score,
                by=row["reviewer"],
                at=at,
                why=row["reason"],
                was=criterion_state(found),
                learner_id=entry.ident,
            )
        )
    return decisions


def _decision(raw: str, max_score: float) -> tuple[bool | None, float]:
    word = " ".join(raw.casefold().split())
    if word in _PASS:
        return True, max_score
    if word in _FAIL:
        return False, 0.0
    value = _number(word)
    if value is None or not 0 <= value <= max_score:
        return None, 0.0
    return value == max_score, round(value, 2)


# --- recording ----------------------------------------------------------------------------------


def apply(entries: list[ReportEntry], decisions: Iterable[Decision]) -> int:
    """Record each decision in its criterion and rescore; the number applied."""
    index = {(e.result.sha256 or "", who, c.id): (e, c) for e in entries for who in _whos(e) for c in e.result.criteria}
    applied = 0
    for d in decisions:
        found = index.get((d.sha256, d.who, d.criterion))
        if found is None:
            continue
        entry, c = found
        c.passed, c.score = d.passed, d.score
        c.decision = {"by": d.by, "at": d.at, "why": d.why, "was": d.was}
        entry.result.rescore()
        applied += 1
    return applied


def load_all(out: Path) -> tuple[list[Decision], list[FileChoice]]:
    """Both kinds of a person's decisions in ``out``'s decisions.json (a file written before choices had none); empty
    lists when there is none. A damaged one is an error, never silently dropped."""
    path = out / DECISIONS_JSON
    if not path.exists():
        return [], []
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        decisions = [Decision(**d) for d in raw["decisions"]]
        files = [FileChoice(**f) for f in raw.get("files", [])]
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
        raise ReviewError(notice("review.decisions_garbled", file=str(path))) from None
    well_formed = all(isinstance(t, str) for f in files for t in (f.learner, f.file, f.at, f.learner_id))
    if not all(_well_formed(d) for d in decisions) or not well_formed:
        raise ReviewError(notice("review.decisions_garbled", file=str(path)))
    return decisions, files


def _well_formed(d: Decision) -> bool:
    texts = (d.sha256, d.submission, d.learner, d.criterion, d.by, d.at, d.why, d.was, d.learner_id)
    return all(isinstance(t, str) for t in texts) and isinstance(d.passed, bool) and is_number(d.score)


_Decided = TypeVar("_Decided", Decision, FileChoice)


def _latest(groups: Iterable[Iterable[_Decided]]) -> list[_Decided]:
    """Of the decisions that settle the same thing (``one_per``), the latest (``at``; of two at the same time, the
    one given last)."""
    kept: dict[Hashable, _Decided] = {}
    for d in (d for group in groups for d in group):
        if d.one_per not in kept or d.at >= kept[d.one_per].at:
            kept[d.one_per] = d
    return list(kept.values())


def merged_decisions(*groups: Iterable[Decision]) -> list[Decision]:
    """One decision per (learner, content, criterion): the latest, in a fixed order (every run writes the same file)."""
    return sorted(_latest(groups), key=lambda d: (d.learner, d.learner_id, d.submission, d.criterion, d.sha256))


def merged_file_choices(*groups: Iterable[FileChoice]) -> list[FileChoice]:
    """One choice per learner: the latest, in a fixed order."""
    return sorted(_latest(groups), key=lambda f: (f.learner, f.learner_id))


def decisions_json(decisions: list[Decision], files: list[FileChoice] | None = None) -> str:
    document: dict[str, Any] = {"decisions": [d.to_json() for d in decisions]}
    if files:  # a folder with no file chosen writes the file it always wrote
        document["files"] = [f.to_json() for f in files]
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def write_decisions(out: Path, decisions: list[Decision], *, files: list[FileChoice]) -> None:
    """decisions.json: every writer says which file choices it keeps, so none is lost by one that ignores them."""
    write_text_atomic(out / DECISIONS_JSON, decisions_json(decisions, files))


def carry(entries: list[ReportEntry], decisions: list[Decision], lang: str) -> tuple[list[Decision], list[str]]:
    """Apply a re-grade's earlier decisions to the same content; drop those whose submission or verdict changed.

    A decision holds for the bytes it was made on and for the verdict it overrode (``was``): the same
    file can behave otherwise on another run (it reads the clock, say), and a decision on a pending
    text says nothing of a definite failure. Returns the decisions to keep (those applied, and those
    for submissions not in this run, e.g. another part's) and a warning per learner whose decisions
    were dropped.
    """
    contents = {(who, e.result.sha256 or "") for e in entries for who in _whos(e)}
    learners = {who: e for e in entries for who in _whos(e)}
    now = {
        (w, e.result.sha256 or "", c.id): criterion_state(c)
        for e in entries
        for w in _whos(e)
        for c in e.result.criteria
    }
    kept, warnings = [], []
    for d in decisions:
        if (d.who, d.sha256) in contents:
            state = now.get((d.who, d.sha256, d.criterion), d.was)  # a criterion this run did not grade: kept
            if state == d.was:
                kept.append(d)
                continue
            said = {"was": text(f"report.{d.was}", lang), "now": text(f"report.{state}", lang)}
            label = learners[d.who].label
            warnings.append(text("review.verdict_changed", lang, learner=label, criterion=d.criterion, by=d.by, **said))
        elif d.who in learners:  # the same learner handed in other bytes, or a file of another name
            warnings.append(text("review.dropped", lang, learner=learners[d.who].label, criterion=d.criterion, by=d.by))
        else:
            kept.append(d)
    apply(entries, kept)
    return kept, list(dict.fromkeys(warnings))
