"""results.json read back: the one reader of what :func:`autograder.reporting.report.write_reports` wrote.

Every step that starts from an output folder (``review``, ``merge``, ``export``) reads it here, checked
field by field against :mod:`autograder.wire.results`' schema, so "pending" means one thing everywhere:

- a learner **not graded** (a Ctrl-C stopped the run first: ``"graded": false``, no total) is neither
  graded nor pending review: :attr:`ClassResults.not_graded`;
- a criterion **pending** is one left to a person and not decided yet (``"passed": null``); one a person
  decided (``review --apply``) is not, whatever its ``review`` mark says: :attr:`ClassResults.pending_review`.

A document that is not as the grader writes it is refused with :class:`ResultsError`, naming the folder and
what is wrong (the JSON's line and column, or the submission's number), never echoing its content.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from autograder.course.catalogue import LANGS, Notice, NoticeError, notice, text
from autograder.course.config import is_number, values_digest
from autograder.reporting.report import ReportEntry
from autograder.wire.results import CriterionResult, SubmissionResult, valid_copies, valid_moves, valid_shape

RESULTS_JSON = "results.json"
MAX_SHARDS = 10_000
# results.json is a few KB per submission; far beyond any class, and it is read whole.
MAX_RESULTS_BYTES = 512 * 1024 * 1024
_SPEC = re.compile(r"\s*(\d{1,6})\s*/\s*(\d{1,6})\s*")
# A report name as report.feedback_names makes it: it becomes a file name under feedback/ when merging.
_REPORT_NAME = re.compile(r"[^\W_][\w.\-]{0,159}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


class ResultsError(NoticeError):
    """A results.json that cannot be read as the grader writes it: ``notice`` names the folder and what is wrong."""


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based, as written on the command line and in the run record
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(spec: str, lang: str = "es") -> Shard:
    """``"2/4"`` → ``Shard(2, 4)``; raises ``ValueError`` with a message in ``lang`` naming the problem."""
    match = _SPEC.fullmatch(spec)
    if match is None:
        raise ValueError(text("shard.bad_spec", lang, spec=spec))
    index, count = int(match[1]), int(match[2])
    if not 1 <= count <= MAX_SHARDS:
        raise ValueError(text("shard.bad_count", lang, spec=spec, max=MAX_SHARDS))
    if not 1 <= index <= count:
        raise ValueError(text("shard.bad_index", lang, spec=spec, count=count))
    return Shard(index, count)


@dataclass
class ClassResults:
    """An output folder's results.json: its learners and what the run that wrote it recorded."""

    folder: Path
    entries: list[ReportEntry]
    lang: str | None  # the reports' language; None when the document does not say one we speak
    seed: int | None
    warnings: list[str]  # the intake warnings the console showed
    config: dict[str, Any] | None  # the course's configuration the run used (values and sha256)
    run: dict[str, Any] | None  # a shard's run record, as written (checked by :func:`read_part`)

    @property
    def not_graded(self) -> list[ReportEntry]:
        """Learners an interrupted run never graded: no total, and nothing for a person to decide either."""
        return [e for e in self.entries if not e.graded]

    @property
    def pending_review(self) -> list[ReportEntry]:
        """Graded learners with a criterion left to a person and not decided yet: their total is not a grade."""
        return [e for e in self.entries if e.graded and e.result.pending]


@dataclass
class Part:
    """One shard's output folder, its run record checked."""

    folder: Path
    seed: int
    lang: str
    course_version: str
    shard: Shard
    total: int
    warnings: list[str]
    entries: list[tuple[int, ReportEntry]]  # (position in the class, entry)
    config: dict[str, Any] | None = None  # the configuration's record (values and sha256), as results.json has it


def _garbled(folder: Path, what: str | Notice) -> ResultsError:
    return ResultsError(notice("merge.garbled", folder=folder, what=what))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_str_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _criterion(raw: object) -> CriterionResult | None:
    if not isinstance(raw, dict):
        return None
    review = raw.get("review", False)
    # Left to a person: no verdict and no points yet; decided: both. Nothing in between.
    pending = raw.get("passed") is None and raw.get("score") is None and review is True
    decided = isinstance(raw.get("passed"), bool) and is_number(raw.get("score"))
    decision = raw.get("decision")
    ok = (
        isinstance(raw.get("id"), str)
        and (pending or decided)
        and isinstance(review, bool)
        and is_number(raw.get("max_score"))
        and isinstance(raw.get("feedback"), str)
        and (decision is None or (isinstance(decision, dict) and all(isinstance(v, str) for v in decision.values())))
    )
    if not ok:
        return None
    return CriterionResult(
        raw["id"], raw["passed"], raw["score"], raw["max_score"], raw["feedback"], review=review, decision=decision
    )


def _entry(raw: object, folder: Path, k: int) -> ReportEntry:
    where = notice("merge.where_submission", n=k + 1)
    if not isinstance(raw, dict):
        raise _garbled(folder, where)
    graded = raw.get("graded") is not False
    criteria = [_criterion(c) for c in raw["criteria"]] if isinstance(raw.get("criteria"), list) else None
    feedback, seed, sha256 = raw.get("feedback"), raw.get("seed"), raw.get("sha256")
    name = feedback[len("feedback/") : -len(".html")] if isinstance(feedback, str) else ""
    ok = (
        isinstance(raw.get("submission"), str)
        and isinstance(raw.get("source"), str)
        # A Ctrl-C's «no calificada» row has no total: its score is null, not a number to check.
        and (is_number(raw.get("score")) or (not graded and raw.get("score") is None))
        and is_number(raw.get("max_score"))
        and criteria is not None
        and all(c is not None for c in criteria)
        and (raw.get("error") is None or isinstance(raw.get("error"), str))
        and _is_str_list(raw.get("flags", []))
        and _is_str_list(raw.get("warnings", []))
        and (seed is None or _is_int(seed))
        and isinstance(raw.get("output", ""), str)
        and (sha256 is None or (isinstance(sha256, str) and _SHA256.fullmatch(sha256) is not None))
        and ("moves" not in raw or valid_moves(raw["moves"]))
        and ("copies" not in raw or valid_copies(raw["copies"]))
        and ("shape" not in raw or valid_shape(raw["shape"]))
        and isinstance(feedback, str)
        and feedback.startswith("feedback/")
        and feedback.endswith(".html")
        # The name becomes a file name in a merged folder: nothing that could leave feedback/.
        and _REPORT_NAME.fullmatch(name) is not None
    )
    if not ok:
        raise _garbled(folder, where)
    result = SubmissionResult(
        submission=raw["submission"],
        score=raw["score"] if graded else raw.get("score") or 0.0,
        max_score=raw["max_score"],
        criteria=[c for c in criteria or () if c is not None],
        error=raw.get("error"),
        flags=list(raw.get("flags") or []),
        warnings=list(raw.get("warnings") or []),
        seed=seed,
        output=raw.get("output") or "",
        sha256=sha256 or None,
        moves={k: list(v) for k, v in raw["moves"].items()} if "moves" in raw else {},
        copies=[dict(c) for c in raw.get("copies", [])],
        shape={k: list(v) for k, v in raw.get("shape", {}).items()},
    )
    learner, ident = raw.get("learner"), raw.get("learner_id")
    return ReportEntry(
        result=result,
        source=raw["source"],
        name=name,
        learner=learner if isinstance(learner, str) else "",
        learner_id=ident if isinstance(ident, str) else "",
        graded=graded,
    )


def _document(folder: Path, name: str = RESULTS_JSON) -> dict[str, Any]:
    path = folder / name
    if not folder.is_dir():
        raise ResultsError(notice("merge.no_folder", folder=folder))
    if not path.is_file():
        raise ResultsError(notice("merge.no_results", folder=folder))
    try:
        if path.stat().st_size > MAX_RESULTS_BYTES:
            raise _garbled(folder, notice("merge.where_size"))
        raw_text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _garbled(folder, notice("merge.where_encoding")) from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ResultsError(notice("merge.unreadable", folder=folder, reason=reason)) from None
    try:
        document = json.loads(raw_text)
    except json.JSONDecodeError as exc:  # its message quotes no content: only line and column
        raise _garbled(folder, notice("merge.where_json", line=exc.lineno, col=exc.colno)) from None
    except RecursionError:
        raise _garbled(folder, notice("merge.where_json_deep")) from None
    if not isinstance(document, dict) or not isinstance(document.get("submissions"), list):
        raise _garbled(folder, "submissions")
    return document


def located(path: Path) -> Path:
    """The results file an instructor names: the file itself (renamed or not), or the folder ``grade`` wrote.
    A path that does not exist is a file if it ends in ``.json``, else a folder, said missing as its results.json."""
    return path if path.is_file() or (path.suffix == ".json" and not path.is_dir()) else path / RESULTS_JSON


def read(folder: Path, name: str = RESULTS_JSON) -> ClassResults:
    """``folder``'s results.json (``grade``, ``merge`` or ``review --apply`` wrote it), every submission checked.

    ``name``: the file's, when the instructor renamed it (``export`` takes the file itself)."""
    document = _document(folder, name)
    entries = [_entry(raw, folder, k) for k, raw in enumerate(document["submissions"])]
    report = document.get("report") if isinstance(document.get("report"), dict) else {}
    seed, run, config = report.get("seed"), document.get("run"), report.get("config")
    return ClassResults(
        folder=folder,
        entries=entries,
        lang=report.get("lang") if report.get("lang") in LANGS else None,
        seed=seed if _is_int(seed) else None,
        warnings=[w for w in report.get("warnings") or [] if isinstance(w, str)],
        config=config if isinstance(config, dict) else None,
        run=run if isinstance(run, dict) else None,
    )


def read_part(folder: Path) -> Part:
    """One shard's output folder, its run record checked field by field; ``ResultsError`` names the field."""
    document = _document(folder)
    run = document.get("run")
    if not isinstance(run, dict):
        raise ResultsError(notice("merge.not_a_shard", folder=folder))
    seed, lang, version, total = run.get("seed"), run.get("lang"), run.get("course_version"), run.get("total")
    if not _is_int(seed):
        raise _garbled(folder, "run.seed")
    if not isinstance(lang, str) or lang not in LANGS:
        raise _garbled(folder, "run.lang")
    if not isinstance(version, str):
        raise _garbled(folder, "run.course_version")
    if not (_is_int(total) and total >= 0):
        raise _garbled(folder, "run.total")
    try:
        shard = parse_shard(run["shard"]) if isinstance(run.get("shard"), str) else None
    except ValueError:
        shard = None
    if shard is None:
        raise _garbled(folder, "run.shard")
    if not _is_str_list(run.get("warnings", [])):
        raise _garbled(folder, "run.warnings")
    if run.get("complete") is not True:
        raise ResultsError(notice("merge.interrupted", folder=folder, shard=shard))
    positions = run.get("positions")
    submissions = document["submissions"]
    if (
        not isinstance(positions, list)
        or len(positions) != len(submissions)
        or not all(_is_int(p) and 0 <= p < total for p in positions)
        or len(set(positions)) != len(positions)
    ):
        raise _garbled(folder, "run.positions")
    config = run.get("config")
    # The digest must be the values' own: parts are compared by it.
    if config is not None and not (isinstance(config, dict) and config.get("sha256") == values_digest(config)):
        raise _garbled(folder, "run.config")
    # A complete part has no «no calificada» row: every one is graded, as read_part always read them.
    entries = [
        (p, replace(_entry(raw, folder, k), graded=True))
        for k, (p, raw) in enumerate(zip(positions, submissions, strict=True))
    ]
    return Part(folder, seed, lang, version, shard, total, list(run.get("warnings", [])), entries, config)
