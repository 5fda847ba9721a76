"""A class run: collect → plan its part → grade → carry a person's decisions → write the reports → finish.

Every way a class is graded goes through here: ``autograder grade`` (the whole class, or one part of it
with ``--shard``: :mod:`autograder.classrun.shards`), ``autograder merge`` (the parts joined),
``autograder review --apply`` (a person's decisions written into the reports) and Gradescope's
container (a class of one learner, :mod:`autograder.classrun.gradescope`). The command line
(:mod:`autograder.cli`) only parses its arguments and prints what a run returns.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from autograder.classrun.shards import Merged, Planned, Shard, merge_parts, plan, run_record
from autograder.course.catalogue import plural, text
from autograder.course.config import CourseConfig
from autograder.intake.collect import Intake, IntakeError, Learner, collect_submissions, shown_name
from autograder.reporting import results_json, review
from autograder.reporting.out_folder import OutPlan, begin_out, finish_out, grader_wrote, out_lock, prepare_out
from autograder.reporting.report import (
    ClassFigures,
    ReportEntry,
    class_figures,
    folded,
    needs_help,
    report_files,
    result_learner,
    write_reports,
    write_text_atomic,
)
from autograder.wire.results import GradingInterrupted, SubmissionResult


class Refused(Exception):
    """The run cannot go as asked (bad input, nothing to grade, a damaged file): a message in the run's language."""


class Progress(Protocol):
    """Told of each learner graded (done, total, their result, their index in the plan); closed at the end."""

    def __call__(self, done: int, total: int, result: SubmissionResult, index: int) -> None: ...

    def close(self) -> None: ...


def run_grading(
    learners: list[Learner], course: CourseConfig, *, jobs: int, progress: Progress | None = None
) -> list[SubmissionResult]:
    """One result per learner, in their order (:func:`autograder.grading.pipeline.grade_many`)."""
    # Imported here so that `autograder --help` and usage errors stay instant.
    from autograder.grading.pipeline import grade_many

    if progress is None:
        return grade_many(learners, course, jobs=jobs)
    return grade_many(learners, course, jobs=jobs, progress=progress)


@contextlib.contextmanager
def collected(paths: Sequence[Path], lang: str, *, one_learner: bool = False) -> Iterator[Intake]:
    """The class found under ``paths`` (:func:`autograder.intake.collect.collect_submissions`), open while used."""
    try:
        intake = collect_submissions(list(paths), lang=lang, one_learner=one_learner)
    except IntakeError as exc:
        raise Refused(exc.notice.render(lang)) from exc
    with intake:
        yield intake


def grade_one(folder: Path, course: CourseConfig) -> tuple[SubmissionResult, list[str]]:
    """A class of one (Gradescope's upload): one learner whatever the folder holds; their result and intake's
    warnings. An upload with nothing gradable is graded all the same: 0 and what was found."""
    course = course.for_run()
    with collected([folder], course.lang or "es", one_learner=True) as intake:
        learners = intake.learners or [Learner(shown_name(folder.name), ())]
        (result,) = run_grading(learners, course, jobs=os.cpu_count() or 1)
        return result, intake.warnings


@dataclass
class GradedClass:
    """What a grading run did, for the console to say."""

    out: Path
    learners: list[Learner]  # the whole class, as intake found it
    planned: list[Planned]  # this run's part of it (the whole class without --shard)
    entries: list[ReportEntry]
    written: list[str]
    seed: int
    elapsed: float
    interrupted: bool
    kept: int = 0
    """Learners of the class already in the folder that this run did not grade: kept as they were."""
    unowned: list[str] = dataclasses.field(default_factory=list)
    """Files of the class in no learner's folder: nobody's row names them, so the run does not end as a success."""

    @property
    def results(self) -> list[SubmissionResult]:
        return [e.result for e in self.entries]

    @property
    def figures(self) -> ClassFigures:
        """The class's counts, mean and the rest, as resumen.html shows them (one computation for both)."""
        return class_figures(self.entries)

    @property
    def graded(self) -> int:
        return self.figures.graded

    @property
    def with_problems(self) -> int:
        return sum(1 for e in self.entries if needs_help(e))

    @property
    def pending(self) -> int:
        """Learners with a criterion left to a person."""
        return self.figures.pending

    @property
    def tally(self) -> Tally:
        """This run's learners and files, counted so that each sum adds up (:class:`Tally`)."""
        mine = [p.learner for p in self.planned]
        with_file = sum(1 for learner in mine if learner.files)
        others = sum(len(learner.files) + len(learner.others) for learner in mine) - with_file
        return Tally(len(mine), with_file, others, len(self.unowned))


@dataclass(frozen=True)
class Tally:
    """Learners = ``with_file`` + those without one; files = one graded per ``with_file`` + ``others`` + ``unowned``."""

    learners: int
    with_file: int
    """Learners who handed in a .py or .ipynb: one of them is graded (their row says which)."""
    others: int
    """The rest of those learners' files: not graded (copies, drafts, other formats), named in their row."""
    unowned: int
    """Files in no learner's folder: not graded."""

    @property
    def without_file(self) -> int:
        return self.learners - self.with_file

    @property
    def files(self) -> int:
        return self.with_file + self.others + self.unowned


def _saved_decisions(out: Path, lang: str) -> tuple[list[review.Decision], list[review.FileChoice]]:
    try:
        return review.load_all(out)
    except review.ReviewError as exc:
        raise Refused(exc.notice.render(lang)) from exc


def _write_decisions(
    out: Path, decisions: list[review.Decision], files: list[review.FileChoice], *, always: bool = False
) -> list[str]:
    """decisions.json when there is a decision to keep (or ``always``: a re-grade that dropped every one must say
    so, not keep the old ones); nothing otherwise (a folder never reviewed stays as it was)."""
    if not decisions and not files and not always:
        return []
    review.write_decisions(out, decisions, files=files)
    return [review.DECISIONS_JSON]


def grade_class(
    paths: Sequence[Path],
    out: Path,
    course: CourseConfig,
    *,
    jobs: int,
    shard: Shard | None,
    force: bool,
    start: Callable[[list[Learner], list[Planned]], Progress],
    warn: Callable[[str], None],
    replace: bool = False,
    choose: Sequence[str] = (),
    gradebook: Path | None = None,
) -> GradedClass:
    """Grade the class under ``paths`` (or its ``shard``) into ``out``; ``start`` gives the progress once the
    plan is known, ``warn`` says each warning as it comes. A Ctrl-C keeps what was graded
    (:attr:`GradedClass.interrupted`); the caller says so while a second Ctrl-C is still ignored.

    With ``force``, a class already graded into ``out`` is updated: the learners given are graded again
    (with the class's seed) and everyone else is kept, with their feedback and decisions; learners none of
    whom are in that class are refused, unless ``replace`` (the folder then holds only this run).

    ``choose``: «LEARNER=FILE», a person's choice of the file graded for a learner instead of the rule's
    (:func:`_choose_files`); kept in decisions.json, so every later run into ``out`` grades it again.
    ``gradebook``: the LMS's gradebook or worksheet, whose names by LMS id the reports write (``--gradebook``)."""
    lang = course.lang or "es"
    names = _gradebook_names(gradebook, lang) if gradebook is not None else {}
    if shard is not None and course.seed is None:
        raise Refused(text("shard.needs_seed", lang))
    with out_lock(out, lang):
        # Refuse early, before reading a single submission; the feedback names are checked once known.
        prepare_out(out, [], force, lang)
        previous = _previous_class(out, lang) if force and shard is None and not replace else None
        if previous is not None:
            course = _same_run_as(previous, course, lang)
            lang = course.lang or lang
        with collected(paths, lang) as intake:
            for warning in intake.met:  # a file in no learner's folder is named once, at the end (GradedClass.unowned)
                warn(warning)
            if not intake.learners:
                raise Refused(text("cli.nothing", lang, paths=", ".join(f"«{p}»" for p in paths)))
            if names:  # the LMS's own names for its ids: «Núñez, María» where Canvas's download says «núñezmaría»
                intake.learners = [
                    dataclasses.replace(lr, label=names[lr.ident]) if lr.ident and lr.ident in names else lr
                    for lr in intake.learners
                ]
            return _grade_collected(
                intake, paths, out, course.for_run(), jobs, shard, force, start, warn, previous, choose, bool(names)
            )


def _previous_class(out: Path, lang: str) -> results_json.ClassResults | None:
    """The class already graded into ``out``, which a run with ``--force`` updates; None when there is none."""
    if not grader_wrote(out, results_json.RESULTS_JSON):  # someone else's is refused by prepare_out, by name
        return None
    try:
        return results_json.read(out)
    except results_json.ResultsError as exc:
        raise Refused(text("grade.previous_unreadable", lang, out=out, why=exc.notice.render(lang))) from exc


def _same_run_as(previous: results_json.ClassResults, course: CourseConfig, lang: str) -> CourseConfig:
    """``course`` as the class in the folder was graded: its seed and language unless given, never others.

    Learners graded with another seed or configuration would not be comparable with the rest of their class."""
    seed = course.seed if course.seed is not None else previous.seed
    if previous.seed is not None and seed != previous.seed:
        raise Refused(text("grade.other_seed", lang, out=previous.folder, seed=previous.seed, given=seed))
    updated = course.with_run(seed=seed, lang=course.lang or previous.lang or lang)
    recorded = (previous.config or {}).get("sha256")
    if recorded and updated.for_run().record().get("sha256") != recorded:
        raise Refused(text("grade.other_config", lang, out=previous.folder))
    return updated


def _grade_collected(
    intake: Intake,
    paths: Sequence[Path],
    out: Path,
    course: CourseConfig,
    jobs: int,
    shard: Shard | None,
    force: bool,
    start: Callable[[list[Learner], list[Planned]], Progress],
    warn: Callable[[str], None],
    previous: results_json.ClassResults | None = None,
    choose: Sequence[str] = (),
    named: bool = False,
) -> GradedClass:
    lang = course.lang or "es"
    learners = intake.learners
    planned = plan(learners, paths, shard, lang)
    before: list[ReportEntry] = []
    if previous is not None and previous.entries:
        planned, before = _into_class(planned, previous, out, lang, named=named)
    # A person's decisions from an earlier run into this folder hold again for the same content.
    decided, chosen = _saved_decisions(out, lang)
    at = datetime.now(UTC).isoformat(timespec="seconds")
    # --choose may name anyone the command was given: for a part (--shard), the whole class, whose other parts'
    # learners are theirs to choose for; else the learners this run grades (a regrade of some: only those).
    given = plan(learners, paths, None, lang) if shard is not None else planned
    planned, files, gone = _choose_files(planned, given, chosen, choose, lang, at)
    for warning in gone:
        warn(warning)
    kept_files = [review.DECISIONS_JSON] if decided or chosen or files else []
    names = [*(e.name for e in before), *(p.name for p in planned)]
    out_plan = prepare_out(out, [*report_files(dict.fromkeys(names)), *kept_files], force, lang)
    progress = start(learners, planned)
    started = time.monotonic()
    interrupted: GradingInterrupted | None = None
    quiet = contextlib.ExitStack()
    try:
        results = run_grading([p.learner for p in planned], course, jobs=jobs, progress=progress)
    except GradingInterrupted as stop:  # Ctrl-C: keep what was graded, mark the rest
        from autograder.grading.pipeline import sigint_ignored

        quiet.enter_context(sigint_ignored())  # from here on, a second Ctrl-C must not cost what the first kept
        results, interrupted = stop.results, stop
    finally:
        progress.close()
    with quiet:
        return _write_class(
            intake,
            out,
            course,
            shard,
            warn,
            previous,
            planned,
            before,
            decided,
            out_plan,
            results,
            interrupted,
            time.monotonic() - started,
            files=files,
            said=gone,
            always=bool(decided or chosen),
        )


def _write_class(
    intake: Intake,
    out: Path,
    course: CourseConfig,
    shard: Shard | None,
    warn: Callable[[str], None],
    previous: results_json.ClassResults | None,
    planned: list[Planned],
    before: list[ReportEntry],
    decided: list[review.Decision],
    out_plan: OutPlan,
    results: list[SubmissionResult],
    interrupted: GradingInterrupted | None,
    elapsed: float,
    *,
    files: list[review.FileChoice],
    said: list[str],
    always: bool,
) -> GradedClass:
    """What a grading run does once grading is over (or a Ctrl-C stopped it): the entries, the class's
    decisions and copies, the reports."""
    lang = course.lang or "es"
    learners = intake.learners
    if len(results) != len(planned):
        raise RuntimeError(text("cli.lost_results", lang, graded=len(results), n=len(planned)))
    # The pipeline marks what a Ctrl-C left ungraded with this one message, which only it writes.
    not_graded = text("batch.interrupted", lang) if interrupted else None
    entries = [
        ReportEntry(
            result=r,
            source=p.learner.source,
            name=p.name,
            # Intake's name first, then the one the result records, then the file's (or folder's).
            learner=p.label if p.named_by_intake else result_learner(r)[0] or p.label,
            learner_id=p.learner_id or result_learner(r)[1],
            graded=not_graded is None or r.error != not_graded,
        )
        for r, p in zip(results, planned, strict=True)
    ]
    _shape(planned, entries)
    kept, dropped = review.carry(entries, decided, lang)
    for warning in dropped:
        warn(warning)
    warnings = [*intake.warnings, *said, *dropped]  # results.json keeps what the console said
    regraded = len(entries)
    if before:
        entries, warnings = _updated(before, entries), list(dict.fromkeys([*previous.warnings, *warnings]))
    if shard is None:  # a part does not know the rest of its class: the merge compares
        mark_copies(entries)
    run = None
    if shard is not None:
        run = run_record(
            course, total=len(learners), warnings=warnings, shard=shard, planned=planned, complete=interrupted is None
        )
    begin_out(out_plan)
    written = write_reports(
        out, entries, lang=lang, seed=course.seed, warnings=warnings, run=run, config=course.record()
    )
    written += _write_decisions(out, kept, files, always=always)
    finish_out(out_plan, written)
    seed = int(course.seed or 0)  # for_run drew one when none was given
    stopped, kept_before, unowned = interrupted is not None, len(entries) - regraded, [o.source for o in intake.loose]
    return GradedClass(out, learners, planned, entries, written, seed, elapsed, stopped, kept_before, unowned)


def _into_class(
    planned: list[Planned], previous: results_json.ClassResults, out: Path, lang: str, *, named: bool = False
) -> tuple[list[Planned], list[ReportEntry]]:
    """This run's learners placed in the class already in ``out``: each one found there keeps their feedback's
    name (and, known by the LMS's id, the name the class gave them, unless this run was ``named`` from the LMS's
    gradebook), a newcomer gets one no one has; and the class as it was. Refused when none of them is in it."""
    by_who = {review.learner_key(e.label, e.ident): e for e in previous.entries}
    found = [by_who.get(review.learner_key(p.label, p.learner_id)) for p in planned]
    if not any(found):
        raise Refused(plural("grade.other_class", len(previous.entries), lang, out=out))
    taken = {e.name.casefold() for e in previous.entries}
    placed = []
    for p, old in zip(planned, found, strict=True):
        name = old.name if old is not None else p.name
        n = 2
        while old is None and name.casefold() in taken:
            name, n = f"{p.name}-{n}", n + 1
        taken.add(name.casefold())
        label = old.label if old is not None and p.learner_id and not named else p.label
        placed.append(dataclasses.replace(p, name=name, label=label))
    return placed, list(previous.entries)


def _gradebook_names(gradebook: Path, lang: str) -> dict[str, str]:
    from autograder.reporting.lms import ExportError, learner_names  # the LMS's sheets: only with --gradebook

    try:
        return learner_names(gradebook)
    except ExportError as exc:
        raise Refused(exc.notice.render(lang)) from exc


def _choose_files(
    planned: list[Planned],
    given: list[Planned],
    saved: list[review.FileChoice],
    asked: Sequence[str],
    lang: str,
    at: str,
) -> tuple[list[Planned], list[review.FileChoice], list[str]]:
    """This run's learners (``planned``) with the file a person chose for them (``--choose LEARNER=FILE``, or an
    earlier run's choice kept in decisions.json); the choices to keep; a warning per earlier choice whose file is gone.

    ``asked`` may name anyone of ``given`` (everyone the command was given: the whole class, for a part); a learner
    another part grades is left to that part. «LEARNER=» (no file) gives the learner back to the rule. A learner or
    file that cannot be found is refused before anything is graded, naming what there is."""
    choices = {f.who: f for f in saved}
    here = {p.position for p in planned}
    for spec in asked:
        learner, sep, file = spec.partition("=")
        learner, file = learner.strip(), file.strip()
        if not sep or not learner:
            raise Refused(text("grade.choose_syntax", lang, given=spec))
        p = _find_learner(given, learner, lang)
        if p.position not in here:
            continue  # another part's learner (--shard): chosen when that part is graded
        who = review.learner_key(p.label, p.learner_id)
        if not file:
            choices.pop(who, None)
            continue
        choices[who] = review.FileChoice(p.label, _find_file(p, file, lang), at, p.learner_id)
    placed, gone = [], []
    for p in planned:
        f = choices.get(review.learner_key(p.label, p.learner_id))
        if f is not None and f.file not in [p.learner.inside(x) for x in p.learner.files]:
            # They handed in again without that file: the rule chooses, and the instructor is told.
            gone.append(text("grade.choice_gone", lang, learner=p.label, file=f.file))
            del choices[f.who]
            f = None
        placed.append(p if f is None else dataclasses.replace(p, learner=dataclasses.replace(p.learner, chosen=f.file)))
    return placed, review.merged_file_choices(choices.values()), gone


def _find_learner(planned: list[Planned], given: str, lang: str) -> Planned:
    """The one learner of this run ``given`` names: their name as the reports write it (accents and case aside, as
    resumen.html's filter finds them), or their LMS id."""
    wanted = " ".join(folded(given).split())
    found = [
        p for p in planned if wanted in {folded(p.label), folded(p.learner_id), folded(f"{p.label} ({p.learner_id})")}
    ]
    if not found:
        raise Refused(text("grade.choose_no_learner", lang, learner=given))
    if len(found) > 1:
        ids = ", ".join(f"«{p.learner_id}»" for p in found if p.learner_id) or "—"
        raise Refused(text("grade.choose_ambiguous", lang, learner=given, n=len(found), ids=ids))
    return found[0]


def _find_file(p: Planned, given: str, lang: str) -> str:
    """The learner's file ``given`` names (its path in their folder, its name, or its name before Canvas prefixed
    the learner and the upload to it), as their row shows it."""
    from autograder.intake.choice import lms_upload

    shown = [p.learner.inside(x) for x in p.learner.files]
    names = [(x.name, lms_upload(x.name)[0]) for x in p.learner.files]
    for same in (str.__eq__, lambda a, b: a.casefold() == b.casefold()):
        found = [s for s, n in zip(shown, names, strict=True) if same(s, given) or any(same(m, given) for m in n)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            break
    files = ", ".join(f"«{s}»" for s in shown) or "—"
    raise Refused(text("grade.choose_no_file", lang, learner=p.label, file=given, files=files))


def _updated(before: list[ReportEntry], graded: list[ReportEntry]) -> list[ReportEntry]:
    """The class with this run's learners in their places (a newcomer at the end); one a Ctrl-C did not reach
    keeps the result they had."""
    fresh = {e.name: e for e in graded if e.graded}
    names = {e.name for e in before}
    return [fresh.get(e.name, e) for e in before] + [e for e in graded if e.name not in names]


def merge_class(folders: Sequence[Path], out: Path, *, force: bool, lang: str) -> tuple[Merged, list[str]]:
    """Join the parts in ``folders`` into ``out`` (:func:`autograder.classrun.shards.merge_parts`), their
    decisions carried; the merged class and the files written."""
    if any(out.resolve() == folder.resolve() for folder in folders):
        raise Refused(text("merge.out_is_input", lang, out=out))
    with out_lock(out, lang):
        prepare_out(out, [], force, lang)
        try:
            merged = merge_parts(folders)
        except results_json.ResultsError as exc:  # a part unreadable, or the parts not one run's
            raise Refused(exc.notice.render(lang)) from exc
        saved = [_saved_decisions(f, lang) for f in folders]
        decided = review.merged_decisions(*(d for d, _ in saved))
        files = review.merged_file_choices(*(f for _, f in saved))
        kept_files = [review.DECISIONS_JSON] if decided or files else []
        out_plan = prepare_out(out, [*report_files(e.name for e in merged.entries), *kept_files], force, lang)
        mark_copies(merged.entries)
        begin_out(out_plan)
        # The reports are the parts' own, in their language.
        written = write_reports(
            out, merged.entries, lang=merged.lang, seed=merged.seed, warnings=merged.warnings, config=merged.config
        )
        written += _write_decisions(out, decided, files)
        finish_out(out_plan, written)
    return merged, written


def read_class(out: Path, lang: str) -> results_json.ClassResults:
    """``out``'s results.json, for ``review``; a missing or damaged one is refused in ``lang``."""
    try:
        return results_json.read(out)
    except results_json.ResultsError as exc:
        raise Refused(exc.notice.render(lang)) from exc


@contextlib.contextmanager
def reviewing(out: Path, lang: str) -> Iterator[results_json.ClassResults]:
    """``out`` held (no run writes it meanwhile) and its results read, for ``review``."""
    if not (out / results_json.RESULTS_JSON).is_file():  # before the lock, which would make the folder
        raise Refused(text("review.no_results", lang, out=out))
    with out_lock(out, lang):
        yield read_class(out, lang)


def apply_decisions(read: results_json.ClassResults, csv: Path, lang: str) -> tuple[list[review.Decision], list[str]]:
    """Record the decisions of the filled-in ``csv`` and write the reports again as the grading run wrote them
    (its language, seed and intake warnings); the decisions applied and the files written (none: nothing decided).

    Call inside :func:`reviewing`.
    """
    out, entries = read.folder, read.entries
    try:
        decisions = review.read_decisions(csv, entries, at=datetime.now(UTC).isoformat(timespec="seconds"))
        previous, files = review.load_all(out)
    except review.ReviewError as exc:
        raise Refused(exc.notice.render(lang)) from exc
    if not decisions:
        return [], []
    review.apply(entries, decisions)
    # Our own files are replaced (that is the point); one the instructor edited since is refused, as by grade.
    out_plan = prepare_out(out, [*report_files(e.name for e in entries), review.DECISIONS_JSON], True, lang)
    begin_out(out_plan)
    written = write_reports(
        out, entries, lang=read.lang or lang, seed=read.seed, warnings=read.warnings, run=read.run, config=read.config
    )
    written += _write_decisions(out, review.merged_decisions(previous, decisions), files)
    finish_out(out_plan, written)
    return decisions, written


def refuse_without_key(lang: str) -> None:
    """A learner's edition grades nothing: its graded questions have no key (``autograder release``)."""
    from autograder.course.questions import QUESTIONS

    if any(q.answer is None for q in QUESTIONS.values()):
        raise Refused(text("release.grade_without_key", lang))


def review_rows(
    entries: list[ReportEntry], *, criterion: str | None, learner: str | None, lang: str
) -> list[review.Row]:
    """What ``review`` lists: the pending criteria, or those asked for; a criterion or learner unknown is refused."""
    known = list(dict.fromkeys(c.id for e in entries for c in e.result.criteria))
    if criterion is not None and criterion not in known:
        raise Refused(text("review.unknown_criterion", lang, criterion=criterion, ids=", ".join(known)))
    if learner is not None and not review.rows_to_review(entries, learner=learner):
        raise Refused(text("review.unknown_learner", lang, learner=learner))
    return review.rows_to_review(entries, criterion=criterion, learner=learner)


def write_review_csv(path: Path, rows: list[review.Row], *, force: bool, lang: str) -> None:
    """The CSV to fill in; one already there is replaced only when asked (``--force``): it may hold decisions."""
    if path.exists() and not force:
        raise Refused(text("review.csv_exists", lang, path=path))
    write_text_atomic(path, review.review_csv(rows, lang))


def _shape(planned: list[Planned], entries: list[ReportEntry]) -> None:
    """Each graded learner's functions' structure into their result, for the class's copy comparison."""
    from autograder.grading.similarity import course_starter, fingerprint, stored
    from autograder.intake.submission import SubmissionError, load_submission
    from autograder.wire.calls import FUNCTIONS

    starter = course_starter(FUNCTIONS)
    for p, e in zip(planned, entries, strict=True):
        found = next((f for f in p.learner.files if f.name == e.result.submission and f.refusal is None), None)
        if found is None or not e.graded:
            continue
        with contextlib.suppress(OSError, SubmissionError):
            source = "\n".join(cell.source for cell in load_submission(found.file, found.name).cells)
            e.result.shape = stored(fingerprint(source, FUNCTIONS, starter))


COPIES_NAMED = 10
"""The most learners a function's copy record names, nearest first."""


def mark_copies(entries: list[ReportEntry]) -> None:
    """Every graded function near-identical to another learner's of the class or to lesson3's
    (:mod:`autograder.grading.similarity`) recorded in its result: information for a person, no verdict.

    Over the whole class, from the structure each result keeps: a graded class, a merge of its parts and an
    update of some of its learners give the same records."""
    from autograder.grading.similarity import flags, lesson3_references, restored

    for e in entries:
        e.result.copies = []
    alike: dict[tuple[int, str], list[tuple[float, str]]] = {}
    for flag in flags([restored(e.result.shape) for e in entries], lesson3_references()):
        other = flag.other if isinstance(flag.other, str) else review.learner_cell(entries[flag.other])
        alike.setdefault((flag.learner, flag.function), []).append((flag.similarity, other))
    for (i, function), others in sorted(alike.items()):
        others.sort(key=lambda o: (-o[0], o[1]))
        entries[i].result.copies += [
            {"function": function, "other": o, "similarity": sim} for sim, o in others[:COPIES_NAMED]
        ]
