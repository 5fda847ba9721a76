"""Split a big class across machines (``--shard I/N``) and join the parts (``autograder merge``).

Every shard collects the whole batch, exactly as a one-machine run would, so the
report names and the order of the class are the same everywhere; it then grades
only the learners whose *shard key* hashes to its part. The key is the
learner's path (folder or loose file) relative to the argument it was found under (NFC-normalised),
so ``/mnt/clase/ana.py`` on one machine and ``clase/ana.py`` on another land in
the same part, whatever the order of the files or the machine. The hash is
SHA-256, never Python's per-process ``hash()``.

A shard's ``results.json`` carries a ``run`` record (seed, language, course
version, shard, its submissions' positions in the class, the intake warnings);
``merge`` checks that the parts belong to one run and rebuilds the class's
reports from them with :func:`autograder.reporting.report.write_reports`, so a merged
folder is the folder a one-machine run with the same ``--seed`` writes (which
has no ``run`` record).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from autograder.course.catalogue import LANGS, Notice, NoticeError, notice, text
from autograder.course.config import CourseConfig, values_digest
from autograder.course.criteria import CRITERIA
from autograder.intake.collect import Learner
from autograder.reporting.report import ReportEntry, feedback_names, learner_labels
from autograder.wire.results import CriterionResult, SubmissionResult, valid_moves

MAX_SHARDS = 10_000
# results.json of a shard is a few KB per submission; far beyond any class, and it is read whole.
MAX_RESULTS_BYTES = 512 * 1024 * 1024
_SPEC = re.compile(r"\s*(\d{1,6})\s*/\s*(\d{1,6})\s*")
# A report name as report.feedback_names makes it: it becomes a file name under feedback/ when merging.
_REPORT_NAME = re.compile(r"[^\W_][\w.\-]{0,159}")


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based, as written on the command line
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


def shard_arg(lang: str) -> Callable[[str], Shard]:
    """``parse_shard`` as an argparse type: its message, in ``lang``, becomes the usage error."""

    def parse(spec: str) -> Shard:
        try:
            return parse_shard(spec, lang)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def shard_key(source: str, given: Sequence[Path]) -> str:
    """Where a submission is, relative to the argument it was found under: the same on every machine."""
    best = ""
    for path in given:
        for prefix in (str(path), path.name):
            if prefix and (source == prefix or source.startswith(prefix + "/")) and len(prefix) > len(best):
                best = prefix
    key = source[len(best) :].lstrip("/") if best else source
    if not key:  # a file given by itself: its own name
        key = Path(source).name
    return unicodedata.normalize("NFC", key)


def shard_of(key: str, count: int) -> int:
    """The 1-based part a key belongs to, out of ``count``."""
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


@dataclass(frozen=True)
class Planned:
    learner: Learner  # a learner, with all their files, lands in one part
    name: str  # report name, chosen over the whole class
    position: int  # place in the whole class's order
    label: str = ""  # the learner's name, chosen over the whole class (report.learner_labels)
    learner_id: str = ""
    named_by_intake: bool = False  # False: ``learner`` is only the file's (or folder's) name


def plan(learners: list[Learner], given: Sequence[Path], shard: Shard | None, lang: str = "es") -> list[Planned]:
    """The learners this run grades: all of them, or the shard's part, with class-wide names and order."""
    # Intake may know who a learner is (an LMS entry); otherwise their file or folder says it.
    labels = learner_labels([s.source for s in learners], [s.label for s in learners])
    names = feedback_names(labels, lang)
    return [
        Planned(s, n, i, label, s.ident or "", bool(s.label and s.label.strip()))
        for i, (s, n, label) in enumerate(zip(learners, names, labels, strict=True))
        if shard is None or shard_of(shard_key(s.source, given), shard.count) == shard.index
    ]


def course_version() -> str:
    """The package's version and a digest of what scores mean (criteria ids, points, levels)."""
    try:
        version = metadata.version("lesson3")
    except metadata.PackageNotFoundError:
        version = "0+unknown"
    criteria = [[c.id, c.points, c.level, c.function] for c in CRITERIA.values()]
    digest = hashlib.sha256(json.dumps(criteria, sort_keys=True).encode()).hexdigest()[:12]
    return f"{version}+{digest}"


def run_record(
    course: CourseConfig,
    *,
    total: int,
    warnings: list[str],
    shard: Shard,
    planned: list[Planned],
    complete: bool = True,
) -> dict[str, Any]:
    """What a shard's ``results.json`` says about its run, so that ``merge`` can check and join the parts.

    A one-machine run (and so a merged one) writes no such record: its results.json stays as it was.
    """
    return {
        "seed": course.seed,
        "lang": course.lang,
        "course_version": course_version(),
        "shard": str(shard),
        "total": total,
        "positions": [p.position for p in planned],
        "warnings": list(warnings),
        # False when Ctrl-C stopped the part: its results.json marks the rest «no calificada».
        "complete": complete,
        # The course's configuration (autograder.course.config): parts graded under different ones do not merge.
        "config": course.record(),
    }


# -- merge ------------------------------------------------------------------------------------------


class MergeError(NoticeError):
    """The parts cannot be merged: ``notice`` says why, in the language of whoever runs ``autograder merge``."""


@dataclass
class Part:
    folder: Path
    seed: int
    lang: str
    course_version: str
    shard: Shard
    total: int
    warnings: list[str]
    entries: list[tuple[int, ReportEntry]]  # (position in the class, entry)
    config: dict[str, Any] | None = None  # the configuration's record (values and sha256), as results.json has it


@dataclass
class Merged:
    entries: list[ReportEntry]
    seed: int
    lang: str
    warnings: list[str]
    shards: int
    config: dict[str, Any] | None = None


def _garbled(folder: Path, what: str | Notice) -> MergeError:
    return MergeError(notice("merge.garbled", folder=folder, what=what))


_SHA256 = re.compile(r"[0-9a-f]{64}")


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_str_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _criterion(raw: object) -> CriterionResult | None:
    if not isinstance(raw, dict):
        return None
    review = raw.get("review", False)
    # Left to a person: no verdict and no points yet; decided: both. Nothing in between.
    pending = raw.get("passed") is None and raw.get("score") is None and review is True
    decided = isinstance(raw.get("passed"), bool) and _is_number(raw.get("score"))
    decision = raw.get("decision")
    ok = (
        isinstance(raw.get("id"), str)
        and (pending or decided)
        and isinstance(review, bool)
        and _is_number(raw.get("max_score"))
        and isinstance(raw.get("feedback"), str)
        and (decision is None or (isinstance(decision, dict) and all(isinstance(v, str) for v in decision.values())))
    )
    return CriterionResult.from_json(raw) if ok else None


def _entry(raw: object, folder: Path, k: int) -> ReportEntry:
    where = notice("merge.where_submission", n=k + 1)
    if not isinstance(raw, dict):
        raise _garbled(folder, where)
    criteria = [_criterion(c) for c in raw.get("criteria") or []] if isinstance(raw.get("criteria"), list) else None
    feedback = raw.get("feedback")
    name = feedback[len("feedback/") : -len(".html")] if isinstance(feedback, str) else ""
    ok = (
        isinstance(raw.get("submission"), str)
        and isinstance(raw.get("source"), str)
        and _is_number(raw.get("score"))
        and _is_number(raw.get("max_score"))
        and criteria is not None
        and all(c is not None for c in criteria)
        and (raw.get("error") is None or isinstance(raw.get("error"), str))
        and _is_str_list(raw.get("flags", []))
        and _is_str_list(raw.get("warnings", []))
        and (raw.get("seed") is None or (isinstance(raw.get("seed"), int) and not isinstance(raw.get("seed"), bool)))
        and isinstance(raw.get("output", ""), str)
        and (raw.get("sha256") is None or (isinstance(raw.get("sha256"), str) and _SHA256.fullmatch(raw["sha256"])))
        and ("moves" not in raw or valid_moves(raw["moves"]))
        and isinstance(feedback, str)
        and feedback.startswith("feedback/")
        and feedback.endswith(".html")
        # The name becomes a file name in the merged folder: nothing that could leave feedback/.
        and _REPORT_NAME.fullmatch(name) is not None
    )
    if not ok:
        raise _garbled(folder, where)
    # Checked field by field above; the criteria were rebuilt by _criterion, which drops unknown keys.
    result = SubmissionResult.from_json({**raw, "criteria": []})
    result.criteria = [c for c in criteria if c is not None]
    learner, ident = raw.get("learner"), raw.get("learner_id")
    return ReportEntry(
        result=result,
        source=raw["source"],
        name=name,
        learner=learner if isinstance(learner, str) else "",
        learner_id=ident if isinstance(ident, str) else "",
    )


def read_document(folder: Path) -> dict[str, Any]:
    """An output folder's results.json, read within bounds; ``MergeError`` says what is wrong with it."""
    path = folder / "results.json"
    if not folder.is_dir():
        raise MergeError(notice("merge.no_folder", folder=folder))
    if not path.is_file():
        raise MergeError(notice("merge.no_results", folder=folder))
    try:
        if path.stat().st_size > MAX_RESULTS_BYTES:
            raise _garbled(folder, notice("merge.where_size"))
        raw_text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _garbled(folder, notice("merge.where_encoding")) from None
    except OSError as exc:
        raise MergeError(notice("merge.unreadable", folder=folder, reason=exc.strerror or type(exc).__name__)) from None
    try:
        document = json.loads(raw_text)
    except json.JSONDecodeError as exc:  # its message quotes no content: only line and column
        raise _garbled(folder, notice("merge.where_json", line=exc.lineno, col=exc.colno)) from None
    except RecursionError:
        raise _garbled(folder, notice("merge.where_json_deep")) from None
    if not isinstance(document, dict) or not isinstance(document.get("submissions"), list):
        raise _garbled(folder, "submissions")
    return document


def read_results(folder: Path) -> tuple[dict[str, Any], list[ReportEntry]]:
    """A one-machine or merged output folder: its document and its entries, checked as ``merge`` checks a part's."""
    document = read_document(folder)
    entries = []
    for k, raw in enumerate(document["submissions"]):
        graded = not (isinstance(raw, dict) and raw.get("graded") is False)
        # A Ctrl-C's «no calificada» row has no total: its score is null, not a number to check.
        fixed = raw if graded or raw.get("score") is not None else {**raw, "score": 0.0}
        entries.append(replace(_entry(fixed, folder, k), graded=graded))
    return document, entries


def read_part(folder: Path) -> Part:
    """One shard's output folder, checked field by field; ``MergeError`` names the folder and the field."""
    document = read_document(folder)
    run = document.get("run")
    if not isinstance(run, dict):
        raise MergeError(notice("merge.not_a_shard", folder=folder))
    seed, lang, version, total = run.get("seed"), run.get("lang"), run.get("course_version"), run.get("total")
    if not (isinstance(seed, int) and not isinstance(seed, bool)):
        raise _garbled(folder, "run.seed")
    if not isinstance(lang, str) or lang not in LANGS:
        raise _garbled(folder, "run.lang")
    if not isinstance(version, str):
        raise _garbled(folder, "run.course_version")
    if not (isinstance(total, int) and not isinstance(total, bool) and total >= 0):
        raise _garbled(folder, "run.total")
    try:
        shard = parse_shard(run["shard"]) if isinstance(run["shard"], str) else None
    except ValueError:
        shard = None
    if shard is None:
        raise _garbled(folder, "run.shard")
    if not _is_str_list(run.get("warnings", [])):
        raise _garbled(folder, "run.warnings")
    if run.get("complete") is not True:
        raise MergeError(notice("merge.interrupted", folder=folder, shard=shard))
    positions = run.get("positions")
    submissions = document["submissions"]
    if (
        not isinstance(positions, list)
        or len(positions) != len(submissions)
        or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < total for p in positions)
        or len(set(positions)) != len(positions)
    ):
        raise _garbled(folder, "run.positions")
    config = run.get("config")
    # The digest must be the values' own: parts are compared by it.
    if config is not None and not (isinstance(config, dict) and config.get("sha256") == values_digest(config)):
        raise _garbled(folder, "run.config")
    entries = [(p, _entry(raw, folder, k)) for k, (p, raw) in enumerate(zip(positions, submissions, strict=True))]
    return Part(folder, seed, lang, version, shard, total, list(run.get("warnings", [])), entries, config)


def merge_parts(folders: Sequence[Path]) -> Merged:
    """Check that the parts are the N parts of one run and put the class back together, in its order."""
    seen: dict[Path, Path] = {}
    for folder in folders:
        key = folder.resolve()
        if key in seen:
            raise MergeError(notice("merge.same_folder", folder=folder, other=seen[key]))
        seen[key] = folder
    parts = [read_part(f) for f in folders]
    first = parts[0]
    for p in parts[1:]:
        if p.seed != first.seed:
            raise MergeError(notice("merge.seed", a=first.folder, sa=first.seed, b=p.folder, sb=p.seed))
        if p.course_version != first.course_version:
            raise MergeError(
                notice("merge.version", a=first.folder, va=first.course_version, b=p.folder, vb=p.course_version)
            )
        if p.lang != first.lang:
            raise MergeError(notice("merge.lang", a=first.folder, la=first.lang, b=p.folder, lb=p.lang))
        if config_digest(p.config) != config_digest(first.config):
            a, b = first.folder / "results.json", p.folder / "results.json"
            ca, cb = config_digest(first.config)[:12], config_digest(p.config)[:12]
            raise MergeError(notice("merge.config", a=a, ca=ca, b=b, cb=cb))
        if p.shard.count != first.shard.count:
            raise MergeError(notice("merge.count", a=first.folder, sa=first.shard, b=p.folder, sb=p.shard))
        if p.total != first.total:
            raise MergeError(notice("merge.inputs", a=first.folder, b=p.folder))
    ours = course_version()
    if first.course_version != ours:
        raise MergeError(notice("merge.version_here", folder=first.folder, theirs=first.course_version, ours=ours))
    by_index: dict[int, Part] = {}
    for p in parts:
        if p.shard.index in by_index:
            raise MergeError(notice("merge.overlap", shard=p.shard, a=by_index[p.shard.index].folder, b=p.folder))
        by_index[p.shard.index] = p
    missing = [f"{i}/{first.shard.count}" for i in range(1, first.shard.count + 1) if i not in by_index]
    if missing:
        raise MergeError(notice("merge.missing", shards=", ".join(missing), count=first.shard.count))
    placed: dict[int, tuple[Part, ReportEntry]] = {}
    for p in parts:
        for position, entry in p.entries:
            if position in placed:
                raise MergeError(
                    notice("merge.overlap_submission", n=position + 1, a=placed[position][0].folder, b=p.folder)
                )
            placed[position] = (p, entry)
    if len(placed) != first.total:
        raise MergeError(notice("merge.incomplete", got=len(placed), total=first.total))
    entries = [placed[i][1] for i in range(first.total)]
    names = [e.name.casefold() for e in entries]
    if len(set(names)) != len(names):
        raise MergeError(notice("merge.names"))
    # Every part collected the whole class, so each has the class's intake warnings; part 1's are the ones
    # a one-machine run with the same command line shows (another machine may spell the paths otherwise).
    return Merged(entries, first.seed, first.lang, by_index[1].warnings, first.shard.count, first.config)


def config_digest(config: dict[str, Any] | None) -> str:
    """The SHA-256 a part's results.json gives its configuration; «-» for a part that records none."""
    return str(config["sha256"]) if config else "-"
