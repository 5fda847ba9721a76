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
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from autograder.course.catalogue import notice
from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA
from autograder.intake.collect import Learner
from autograder.reporting.report import ReportEntry, feedback_names, learner_labels
from autograder.reporting.results_json import Part, ResultsError, Shard, parse_shard, read_part


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


class MergeError(ResultsError):
    """The parts cannot be merged: ``notice`` says why, in the language of whoever runs ``autograder merge``.

    A part whose results.json cannot be read raises the reader's :class:`ResultsError`, of which this is one."""


@dataclass
class Merged:
    entries: list[ReportEntry]
    seed: int
    lang: str
    warnings: list[str]
    shards: int
    config: dict[str, Any] | None = None


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
