"""The ``autograder`` command: grade a whole class, merge parts, build the Gradescope bundle.

    autograder grade PATH... --out DIR [--jobs N] [--seed S] [--lang es|en] [--force] [--shard I/N] [--config TOML]
    autograder merge DIR... --out DIR [--force]
    autograder gradescope --out autograder.zip [--seed S] [--config TOML]
    autograder export moodle RESULTS --worksheet W.csv --out O.csv [--feedback-zip Z.zip]
    autograder export canvas RESULTS --gradebook G.csv --column NAME --out O.csv
    autograder review DIR [--criterion ID] [--learner NAME] [--csv FILE] | autograder review DIR --apply FILE

Exit codes: 0 when grading ran (whatever the scores), 2 for bad usage, no
submissions found or an unreadable zip, 1 for an internal failure of the grader.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from autograder.course.catalogue import LANGS, plural, text
from autograder.course.config import DEFAULT as DEFAULT_COURSE
from autograder.course.config import ConfigError, CourseConfig
from autograder.course.config import load as load_config
from autograder.intake.collect import IntakeError, Learner, collect_submissions
from autograder.reporting import results_json, review
from autograder.reporting.out_folder import OutFolderError, begin_out, finish_out, out_lock, prepare_out
from autograder.reporting.report import (
    ReportEntry,
    fmt_points,
    needs_help,
    report_files,
    result_learner,
    write_reports,
    write_text_atomic,
)
from autograder.reporting.shards import Planned, merge_parts, plan, run_record, shard_arg
from autograder.wire.results import GradingInterrupted, SubmissionResult
from lesson3.console import EXIT_BROKEN_PIPE as EXIT_BROKEN_PIPE  # one of the command's exit codes
from lesson3.console import SpanishParser, SuggestingParser, reader_left, spanish

EXIT_OK, EXIT_INTERNAL, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C

Progress = Callable[[int, int, SubmissionResult, int], None]


# A learner-chosen name may hold escape sequences (retitle or clear the instructor's terminal), line breaks,
# bytes that are not UTF-8 (lone surrogates, which print() would refuse), or bidirectional controls.
_NOT_FOR_TERMINAL = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)


def for_terminal(text: str) -> str:
    """``text`` with control characters made visible, safe to print on the instructor's terminal."""
    return _NOT_FOR_TERMINAL.sub(lambda m: "\u2424" if m.group() in "\n\r\u2028\u2029" else "\ufffd", text)


class UsageError(Exception):
    """Bad usage or nothing to grade: a message in the command's language, exit code 2."""


def _whole_number(minimum: int, rule: str, lang: str) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (``rule``, a catalogue key, says so in the error)."""

    def parse(given: str) -> int:
        try:
            value = int(given)
        except ValueError:
            raise argparse.ArgumentTypeError(text("cli.not_whole", lang, value=given)) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(text("cli.too_small", lang, rule=text(rule, lang), value=value))
        return value

    return parse


# argparse's own words (usage, errors, --help): Spanish from lesson3.console's table, English as it ships.
ARGPARSE: dict[str, tuple[type[argparse.ArgumentParser], Callable[[], contextlib.AbstractContextManager[None]]]] = {
    "es": (SpanishParser, spanish),
    "en": (SuggestingParser, contextlib.nullcontext),
}


def build_parser(lang: str = "es") -> argparse.ArgumentParser:
    """The command line in ``lang``: help, metavars and argument errors (argparse's own words: :func:`main`)."""

    def say(key: str) -> str:
        return text(f"cli.help.{key}", lang)

    parser = ARGPARSE[lang][0](prog="autograder", description=say("description"))
    # Also before the command (``autograder --lang en grade ...``), as early_lang reads it.
    parser.add_argument("--lang", dest="top_lang", choices=LANGS, default=None, help=say("lang_top"))
    commands = parser.add_subparsers(
        dest="command", title=say("commands"), metavar=say("metavar_command"), required=True
    )
    grade = commands.add_parser("grade", help=say("grade"), description=say("grade_description"))
    grade.add_argument("paths", nargs="+", type=Path, metavar=say("metavar_path"), help=say("paths"))
    grade.add_argument("--out", required=True, type=Path, metavar=say("metavar_folder"), help=say("out"))
    grade.add_argument(
        "--jobs",
        type=_whole_number(1, "cli.rule_at_least_one", lang),
        default=os.cpu_count() or 1,
        metavar="N",
        help=say("jobs"),
    )
    grade.add_argument("--seed", type=_whole_number(0, "cli.rule_zero_or_more", lang), metavar="S", help=say("seed"))
    grade.add_argument("--lang", choices=LANGS, help=say("lang_grade"))
    grade.add_argument("--force", action="store_true", help=say("force"))
    grade.add_argument("--shard", type=shard_arg(lang), default=None, metavar="I/N", help=say("shard"))
    grade.add_argument("--config", type=Path, metavar="TOML", help=say("config"))

    merge = commands.add_parser("merge", help=say("merge"), description=say("merge_description"))
    merge.add_argument("folders", nargs="+", type=Path, metavar=say("metavar_folder"), help=say("folders"))
    merge.add_argument("--out", required=True, type=Path, metavar=say("metavar_folder"), help=say("merge_out"))
    merge.add_argument("--force", action="store_true", help=say("merge_force"))

    bundle = commands.add_parser("gradescope", help=say("gradescope"), description=say("gradescope_description"))
    bundle.add_argument("--out", type=Path, default=Path("autograder.zip"), metavar="ZIP", help=say("bundle_out"))
    bundle.add_argument(
        "--seed", type=_whole_number(0, "cli.rule_zero_or_more", lang), metavar="S", help=say("bundle_seed")
    )
    merge.add_argument("--lang", choices=LANGS, help=say("lang_merge"))
    decide = commands.add_parser("review", help=say("review"), description=say("review_description"))
    decide.add_argument("results", type=Path, metavar=say("metavar_folder"), help=say("results"))
    decide.add_argument("--apply", type=Path, metavar="CSV", help=say("apply"))
    decide.add_argument("--criterion", metavar="ID", help=say("criterion"))
    decide.add_argument("--learner", metavar="NAME", help=say("learner"))
    decide.add_argument("--csv", type=Path, default=Path("revision.csv"), metavar="CSV", help=say("csv"))
    decide.add_argument("--force", action="store_true", help=say("review_force"))
    decide.add_argument("--lang", choices=LANGS, help=say("lang_review"))
    bundle.add_argument("--lang", choices=LANGS, help=say("lang_gradescope"))
    bundle.add_argument("--config", type=Path, metavar="TOML", help=say("config"))

    export = commands.add_parser("export", help=say("export"), description=say("export_description"))
    lms = export.add_subparsers(dest="lms", metavar=say("lms"), required=True)
    moodle = lms.add_parser("moodle", help=say("export_moodle"), description=say("export_moodle"))
    canvas = lms.add_parser("canvas", help=say("export_canvas"), description=say("export_canvas"))
    for sub in (moodle, canvas):
        sub.add_argument("results", type=Path, metavar="RESULTS", help=say("export_results"))
    moodle.add_argument("--worksheet", required=True, type=Path, metavar="CSV", help=say("worksheet"))
    moodle.add_argument("--feedback-zip", type=Path, metavar="ZIP", help=say("feedback_zip"))
    canvas.add_argument("--gradebook", required=True, type=Path, metavar="CSV", help=say("gradebook"))
    canvas.add_argument("--column", required=True, help=say("column"))
    for sub in (moodle, canvas):
        sub.add_argument("--out", required=True, type=Path, metavar="CSV", help=say("export_out"))
        sub.add_argument("--lang", choices=LANGS, help=say("lang_grade"))
    release = commands.add_parser("release", help=say("release"), description=say("release_description"))
    release.add_argument("--out", required=True, type=Path, metavar=say("metavar_folder"), help=say("release_out"))
    release.add_argument("--lang", choices=LANGS, help=say("lang_release"))
    release.add_argument("--config", type=Path, metavar="TOML", help=say("release_config"))

    return parser


class ProgressBar:
    """A progress bar redrawn in place, for a terminal: how far, how long, and who was just graded."""

    def __init__(self, stream: TextIO, names: Callable[[int, SubmissionResult], str], width: int = 28) -> None:
        self.stream, self.names, self.width, self.start, self.drawn = stream, names, width, time.monotonic(), False

    def __call__(self, done: int, total: int, result: SubmissionResult, index: int) -> None:
        filled = self.width * done // max(total, 1)
        bar = "█" * filled + "░" * (self.width - filled)
        name = for_terminal(self.names(index, result))
        name = name if len(name) <= 32 else name[:31] + "…"
        elapsed = time.monotonic() - self.start
        self.stream.write(f"\r{bar} {done}/{total} · {elapsed:5.1f} s · {name:<32}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


class ProgressLines:
    """Progress for a log (CI, a file, a pipe): one plain line per learner graded, no carriage return or bar.

    A log keeps every line, so each says the count so far, whose result it is and its points.
    """

    def __init__(self, stream: TextIO, names: Callable[[int, SubmissionResult], str], lang: str) -> None:
        self.stream, self.names, self.lang, self.start = stream, names, lang, time.monotonic()

    def __call__(self, done: int, total: int, result: SubmissionResult, index: int) -> None:
        key = "cli.progress_error" if result.error else "cli.progress"
        line = text(
            key,
            self.lang,
            done=done,
            total=total,
            name=for_terminal(self.names(index, result)),
            score=fmt_points(result.score, self.lang),
            max=fmt_points(result.max_score, self.lang),
            seconds=time.monotonic() - self.start,
        )
        self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        pass


def _progress_names(planned: list[Planned]) -> Callable[[int, SubmissionResult], str]:
    """Who a finished result belongs to, as the reports will name them (the learner, not the file)."""

    def name(index: int, result: SubmissionResult) -> str:
        p = planned[index]
        return p.label if p.named_by_intake else result_learner(result)[0] or p.label or result.submission

    return name


def run_grading(
    learners: list[Learner], course: CourseConfig, *, jobs: int, progress: Progress | None
) -> list[SubmissionResult]:
    """One result per learner, in their order (:func:`autograder.grading.pipeline.grade_many`)."""
    # Imported here so that `autograder --help` and usage errors stay instant.
    from autograder.grading.pipeline import grade_many

    return grade_many(learners, course, jobs=jobs, progress=progress)


def apply_config(args: argparse.Namespace, explicit_lang: str | None) -> None:
    """``--config FILE``: the course's configuration as ``args.course``; a flag given explicitly wins over it.

    The file's ``semilla`` and ``idioma`` become ``--seed`` and ``--lang`` when those were not given.
    """
    course = DEFAULT_COURSE
    if getattr(args, "config", None) is not None:
        try:
            course = load_config(args.config)
        except ConfigError as exc:
            raise UsageError(exc.notice.render(explicit_lang or "es")) from exc
    if getattr(args, "seed", None) is None and hasattr(args, "seed"):
        args.seed = course.seed
    args.lang = explicit_lang or course.lang or "es"
    args.course = course


def print_written(out: Path, written: list[str], stream: TextIO, lang: str) -> None:
    """Every file this run wrote, one a line: the instructor knows what to share and what to keep."""
    print(text("cli.files_written", lang, out=out, n=len(written)), file=stream)
    for rel in written:
        print(f"  {for_terminal(str(out / rel))}", file=stream)


def grade_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    out: Path = args.out
    if args.shard is not None and args.seed is None:
        raise UsageError(text("shard.needs_seed", args.lang))
    with out_lock(out, args.lang):
        return _grade_locked(args, out, stdout, stderr)


def _grade_locked(args: argparse.Namespace, out: Path, stdout: TextIO, stderr: TextIO) -> int:
    lang = args.lang
    # Refuse early, before reading a single submission; the feedback names are checked once known.
    prepare_out(out, [], args.force, lang)
    try:
        intake = collect_submissions(list(args.paths), lang=lang)
    except IntakeError as exc:
        raise UsageError(exc.notice.render(lang)) from exc
    with intake:
        for warning in intake.warnings:
            print(text("cli.warning", lang, warning=for_terminal(warning)), file=stderr)
        learners = intake.learners
        if not learners:
            shown = ", ".join(f"«{for_terminal(str(p))}»" for p in args.paths)
            raise UsageError(text("cli.nothing", lang, paths=shown))
        # What this run grades under: the file's values (or the defaults) with the run's seed and language.
        course = args.course.with_run(seed=args.seed, lang=lang).for_run()
        seed = course.seed
        planned = plan(learners, args.paths, args.shard, lang)
        # A person's decisions from an earlier run into this folder hold again for the same content.
        decided = _saved_decisions(out, lang)
        kept_files = [review.DECISIONS_JSON] if decided else []
        out_plan = prepare_out(out, [*report_files(p.name for p in planned), *kept_files], args.force, lang)
        if args.shard is not None:
            print(
                plural("shard.graded", len(learners), lang, shard=args.shard, mine=len(planned)),
                file=stdout,
            )
        names = _progress_names(planned)
        # A log keeps every character: a bar redrawn with carriage returns would fill it with half-lines.
        progress = ProgressBar(stdout, names) if stdout.isatty() else ProgressLines(stdout, names, lang)
        started = time.monotonic()
        interrupted: GradingInterrupted | None = None
        try:
            results = run_grading([p.learner for p in planned], course, jobs=args.jobs, progress=progress)
        except GradingInterrupted as stop:  # Ctrl-C: keep what was graded, mark the rest
            results, interrupted = stop.results, stop
        finally:
            progress.close()
        elapsed = time.monotonic() - started
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
        config = course.record()
        kept, dropped = review.carry(entries, decided, lang)
        for warning in dropped:
            print(text("cli.warning", lang, warning=for_terminal(warning)), file=stderr)
        warnings = [*intake.warnings, *dropped]  # results.json keeps what the console said
        run = None
        if args.shard is not None:
            run = run_record(
                course,
                total=len(learners),
                warnings=warnings,
                shard=args.shard,
                planned=planned,
                complete=interrupted is None,
            )
        if interrupted:  # a second Ctrl-C must not cost the results the first one kept
            from autograder.grading.pipeline import sigint_ignored
        with sigint_ignored() if interrupted else contextlib.nullcontext():
            begin_out(out_plan)
            written = write_reports(out, entries, lang=lang, seed=seed, warnings=warnings, run=run, config=config)
            if decided:  # even when every one was dropped: the file must say so, not keep the old ones
                review.write_decisions(out, kept)
                written.append(review.DECISIONS_JSON)
            finish_out(out_plan, written)

    if interrupted:
        # Still ignoring a second Ctrl-C: the list must not end in «no new results were written».
        with sigint_ignored():
            print_written(out, written, stdout, lang)
            graded = sum(1 for e in entries if e.graded)
            kept = text("cli.interrupted_kept", lang, graded=graded, n=len(results), path=out / "results.json")
            print("\n" + kept, file=stderr)
        return EXIT_INTERRUPTED
    print_written(out, written, stdout, lang)
    mean = statistics.fmean(r.score for r in results) if results else 0.0
    mean_pct = statistics.fmean(r.score / r.max_score if r.max_score else 0.0 for r in results) if results else 0.0
    with_problems = sum(1 for e in entries if needs_help(e))
    mine = [p.learner for p in planned]
    files = sum(1 for learner in mine if learner.files)  # one graded file per learner who handed one in
    ignored = sum(len(learner.files) + len(learner.others) for learner in mine) - files
    print(plural("cli.graded", len(results), lang, seconds=elapsed, jobs=args.jobs, seed=seed), file=stdout)
    counts = {"graded": plural("cli.graded_files", files, lang), "ignored": plural("cli.ignored_files", ignored, lang)}
    print(text("cli.files", lang, **counts), file=stdout)
    print(text("cli.mean", lang, mean=fmt_points(mean, lang), pct=mean_pct, errors=with_problems), file=stdout)
    if pending := sum(1 for r in results if r.pending):
        print(plural("cli.pending", pending, lang, out=for_terminal(str(out))), file=stdout)
    print(text("cli.repeat", lang, seed=seed), file=stdout)
    return EXIT_OK


def merge_command(args: argparse.Namespace, stdout: TextIO) -> int:
    out: Path = args.out
    if any(out.resolve() == folder.resolve() for folder in args.folders):
        raise UsageError(text("merge.out_is_input", args.lang or "es", out=out))
    with out_lock(out, args.lang or "es"):
        prepare_out(out, [], args.force, args.lang or "es")
        try:
            merged = merge_parts(args.folders)
        except results_json.ResultsError as exc:  # a part unreadable, or the parts not one run's
            raise UsageError(exc.notice.render(args.lang or "es")) from exc
        out_plan = prepare_out(out, report_files(e.name for e in merged.entries), args.force, args.lang or "es")
        # The reports are the parts' own, in their language; --lang only changes what is printed here.
        decided = review.merged_decisions(*(_saved_decisions(f, args.lang or "es") for f in args.folders))
        kept_files = [review.DECISIONS_JSON] if decided else []
        out_plan = prepare_out(out, [*out_plan.will_write, *kept_files], args.force, args.lang or "es")
        begin_out(out_plan)
        written = write_reports(
            out, merged.entries, lang=merged.lang, seed=merged.seed, warnings=merged.warnings, config=merged.config
        )
        written += _write_decisions(out, decided)
        finish_out(out_plan, written)
    lang = args.lang or merged.lang
    print(text("merge.done", lang, shards=merged.shards, n=len(merged.entries), seed=merged.seed), file=stdout)
    print_written(out, written, stdout, lang)
    return EXIT_OK


def _saved_decisions(out: Path, lang: str) -> list[review.Decision]:
    try:
        return review.load_decisions(out)
    except review.ReviewError as exc:
        raise UsageError(exc.notice.render(lang)) from exc


def _write_decisions(out: Path, decisions: list[review.Decision]) -> list[str]:
    """decisions.json when there is a decision to keep; nothing otherwise (a folder never reviewed stays as it was)."""
    if not decisions:
        return []
    review.write_decisions(out, decisions)
    return [review.DECISIONS_JSON]


def review_command(args: argparse.Namespace, stdout: TextIO) -> int:
    """List what is left to a person and write the CSV to fill in; or, with --apply, record the decisions."""
    lang: str = args.lang
    out: Path = args.results.parent if args.results.name == "results.json" else args.results
    if not (out / "results.json").is_file():  # before the lock, which would make the folder
        raise UsageError(text("review.no_results", lang, out=for_terminal(str(out))))
    with out_lock(out, lang):
        try:
            read = results_json.read(out)
        except results_json.ResultsError as exc:
            raise UsageError(exc.notice.render(lang)) from exc
        entries = read.entries
        if args.apply is None:
            return _review_list(args, out, entries, stdout)
        try:
            decisions = review.read_decisions(args.apply, entries, at=datetime.now(UTC).isoformat(timespec="seconds"))
            previous = review.load_decisions(out)
        except review.ReviewError as exc:
            raise UsageError(exc.notice.render(lang)) from exc
        if not decisions:
            print(text("review.nothing_decided", lang, file=for_terminal(str(args.apply))), file=stdout)
            return EXIT_OK
        review.apply(entries, decisions)
        # Our own files are replaced (that is the point); one the instructor edited since is refused, as by grade.
        out_plan = prepare_out(out, [*report_files(e.name for e in entries), review.DECISIONS_JSON], True, lang)
        begin_out(out_plan)
        # The reports are written again as the grading run wrote them: its language, seed and intake warnings.
        written = write_reports(
            out,
            entries,
            lang=read.lang or lang,
            seed=read.seed,
            warnings=read.warnings,
            run=read.run,
            config=read.config,
        )
        written += _write_decisions(out, review.merged_decisions(previous, decisions))
        finish_out(out_plan, written)
    print(plural("review.applied", len(decisions), lang, out=for_terminal(str(out))), file=stdout)
    print_written(out, written, stdout, lang)
    return EXIT_OK


def _review_list(args: argparse.Namespace, out: Path, entries: list[ReportEntry], stdout: TextIO) -> int:
    lang: str = args.lang
    known = list(dict.fromkeys(c.id for e in entries for c in e.result.criteria))
    if args.criterion is not None and args.criterion not in known:
        raise UsageError(text("review.unknown_criterion", lang, criterion=args.criterion, ids=", ".join(known)))
    if args.learner is not None and not review.rows_to_review(entries, learner=args.learner):
        raise UsageError(text("review.unknown_learner", lang, learner=for_terminal(args.learner)))
    rows = review.rows_to_review(entries, criterion=args.criterion, learner=args.learner)
    for line in review.listing(rows, lang):
        print(for_terminal(line), file=stdout)
    if not rows:
        key = "review.none" if args.criterion is None and args.learner is None else "review.none_matching"
        print(text(key, lang, out=for_terminal(str(out))), file=stdout)
        return EXIT_OK
    path: Path = args.csv
    if path.exists() and not args.force:
        raise UsageError(text("review.csv_exists", lang, path=for_terminal(str(path))))
    write_text_atomic(path, review.review_csv(rows, lang))
    shown_path, shown_out = for_terminal(str(path)), for_terminal(str(out))
    print(plural("review.written", len(rows), lang, path=shown_path, out=shown_out), file=stdout)
    return EXIT_OK


def gradescope_command(args: argparse.Namespace, stdout: TextIO) -> int:
    from autograder.reporting.gradescope import BundleError, build_bundle

    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    try:
        # The seed stays in its own member (course-seed): one place for it.
        course = args.course.for_learners() if args.config is not None else None
        path = build_bundle(args.out, seed=seed, config=course)
    except BundleError as exc:
        raise UsageError(exc.notice.render(args.lang)) from exc
    print(text("cli.bundle", args.lang, path=path, seed=seed), file=stdout)
    return EXIT_OK


def export_command(args: argparse.Namespace, stdout: TextIO) -> int:
    from autograder.reporting.lms import ExportError, export_canvas, export_moodle, shown

    try:
        if args.lms == "moodle":
            summary = export_moodle(args.results, args.worksheet, args.out, args.lang, feedback_zip=args.feedback_zip)
        else:
            summary = export_canvas(args.results, args.gradebook, args.column, args.out)
    except ExportError as exc:
        raise UsageError(exc.notice.render(args.lang)) from exc
    print(text("lms.out_written", args.lang, path=args.out), file=stdout)
    if args.lms == "moodle" and args.feedback_zip is not None:
        print(text("lms.zip_written", args.lang, path=args.feedback_zip, n=len(summary.zipped)), file=stdout)
    for line in shown(summary, args.lang):
        print(for_terminal(line), file=stdout)
    return EXIT_OK


def release_command(args: argparse.Namespace, stdout: TextIO) -> int:
    from autograder.reporting.release import ReleaseError, write_edition

    try:
        shipped = args.course.for_learners() if args.config is not None else None
        written = write_edition(args.out, lang=args.lang, config=shipped)
    except ReleaseError as exc:
        raise UsageError(exc.notice.render(args.lang)) from exc
    print(text("release.done", args.lang, out=args.out, n=len(written)), file=stdout)
    return EXIT_OK


def _refuse_without_key(lang: str) -> None:
    """A learner's edition grades nothing: its graded questions have no key (``autograder release``)."""
    from autograder.course.questions import QUESTIONS

    if any(q.answer is None for q in QUESTIONS.values()):
        raise UsageError(text("release.grade_without_key", lang))


def early_lang(argv: Sequence[str] | None) -> str:
    """The ``--lang`` given anywhere in ``argv`` when it is a known language, else Spanish."""
    early = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    early.add_argument("--lang", nargs="?")
    given = early.parse_known_args(sys.argv[1:] if argv is None else argv)[0].lang
    return given if given in LANGS else "es"


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    # --help and argument errors are written while parsing, before the parsed --lang exists.
    lang = early_lang(argv)
    with ARGPARSE[lang][1]():
        args = build_parser(lang).parse_args(argv)
    # Unset, merge speaks its parts' language; the other commands Spanish (or their --config's idioma).
    explicit_lang = args.lang or args.top_lang
    args.lang = explicit_lang or (None if args.command == "merge" else "es")
    lang = args.lang or "es"
    try:
        if args.command in ("grade", "gradescope", "release"):
            apply_config(args, explicit_lang)
            lang = args.lang
        if args.command == "release":
            return release_command(args, stdout)
        if args.command in ("grade", "gradescope"):
            _refuse_without_key(lang)
        if args.command == "grade":
            return grade_command(args, stdout, stderr)
        if args.command == "merge":
            return merge_command(args, stdout)
        if args.command == "export":
            return export_command(args, stdout)
        if args.command == "review":
            return review_command(args, stdout)
        return gradescope_command(args, stdout)
    except (UsageError, OutFolderError) as exc:
        print(text("cli.error", lang, error=for_terminal(str(exc))), file=stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\n" + text("cli.interrupted", lang), file=stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # ``autograder review out | head``
        return reader_left(stdout)
    except Exception as exc:  # the instructor gets a sentence, not a traceback
        if os.environ.get("AUTOGRADER_DEBUG"):
            raise
        print(text("cli.internal", lang, error=f"{type(exc).__name__}: {exc}"), file=stderr)
        return EXIT_INTERNAL
