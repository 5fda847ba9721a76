"""The ``autograder`` command: grade a whole class, review what is left to a person, export to the LMS,
merge parts, build the Gradescope bundle and the learners' edition (``autograder --help`` lists them).

Exit codes: 0 when grading ran (whatever the scores), 2 for bad usage, no submissions found or an unreadable
zip, 1 for an internal failure of the grader, 3 when the class was graded and written but some of its files
were in no learner's folder (not graded), 130 after a Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from autograder.classrun import run
from autograder.classrun.progress import ProgressBar, ProgressLines, for_terminal, progress_names
from autograder.classrun.shards import Planned, shard_arg
from autograder.course.catalogue import LANGS, plural, text
from autograder.course.config import DEFAULT as DEFAULT_COURSE
from autograder.course.config import ConfigError
from autograder.course.config import load as load_config
from autograder.intake.collect import Learner
from autograder.reporting import results_json, review
from autograder.reporting.out_folder import OutFolderError
from autograder.reporting.report import ReportEntry, fmt_points
from lesson3.console import EXIT_BROKEN_PIPE as EXIT_BROKEN_PIPE  # one of the command's exit codes
from lesson3.console import SpanishParser, SuggestingParser, reader_left, spanish

EXIT_OK, EXIT_INTERNAL, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_UNOWNED = 3  # graded and written, but files of the class were in no learner's folder: nobody's row names them
UsageError = run.Refused
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
    at_least_one = _whole_number(1, "cli.rule_at_least_one", lang)
    zero_or_more = _whole_number(0, "cli.rule_zero_or_more", lang)
    grade.add_argument("--jobs", type=at_least_one, default=os.cpu_count() or 1, metavar="N", help=say("jobs"))
    grade.add_argument("--seed", type=zero_or_more, metavar="S", help=say("seed"))
    grade.add_argument("--lang", choices=LANGS, help=say("lang_grade"))
    grade.add_argument("--force", action="store_true", help=say("force"))
    grade.add_argument("--replace", action="store_true", help=say("replace"))
    grade.add_argument("--choose", action="append", default=[], metavar=say("metavar_choose"), help=say("choose"))
    grade.add_argument("--gradebook", type=Path, metavar="CSV", help=say("grade_gradebook"))
    grade.add_argument("--shard", type=shard_arg(lang), default=None, metavar="I/N", help=say("shard"))
    grade.add_argument("--config", type=Path, metavar="TOML", help=say("config"))

    merge = commands.add_parser("merge", help=say("merge"), description=say("merge_description"))
    merge.add_argument("folders", nargs="+", type=Path, metavar=say("metavar_folder"), help=say("folders"))
    merge.add_argument("--out", required=True, type=Path, metavar=say("metavar_folder"), help=say("merge_out"))
    merge.add_argument("--force", action="store_true", help=say("merge_force"))

    bundle = commands.add_parser("gradescope", help=say("gradescope"), description=say("gradescope_description"))
    bundle.add_argument("--out", type=Path, default=Path("autograder.zip"), metavar="ZIP", help=say("bundle_out"))
    bundle.add_argument("--seed", type=zero_or_more, metavar="S", help=say("bundle_seed"))
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
        sub.add_argument("--overwrite", action="store_true", help=say("export_overwrite"))
        sub.add_argument("--partial", action="store_true", help=say("export_partial"))
        sub.add_argument("--lang", choices=LANGS, help=say("lang_grade"))
    release = commands.add_parser("release", help=say("release"), description=say("release_description"))
    release.add_argument("--out", required=True, type=Path, metavar=say("metavar_folder"), help=say("release_out"))
    release.add_argument("--lang", choices=LANGS, help=say("lang_release"))
    release.add_argument("--config", type=Path, metavar="TOML", help=say("release_config"))

    return parser


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
    lang = args.lang

    def start(learners: list[Learner], planned: list[Planned]) -> ProgressBar | ProgressLines:
        if args.shard is not None:
            print(plural("shard.graded", len(learners), lang, shard=args.shard, mine=len(planned)), file=stdout)
        names = progress_names(planned)
        # A log keeps every character: a bar redrawn with carriage returns would fill it with half-lines.
        if stdout.isatty():
            return ProgressBar(stdout, names, lang, shutil.get_terminal_size().columns)
        return ProgressLines(stdout, names, lang)

    def warn(warning: str) -> None:
        print(text("cli.warning", lang, warning=for_terminal(warning)), file=stderr)

    course = args.course.with_run(seed=args.seed, lang=lang)
    asked = {"jobs": args.jobs, "shard": args.shard, "force": args.force, "replace": args.replace}
    asked |= {"choose": args.choose, "gradebook": args.gradebook}
    ran = run.grade_class(args.paths, args.out, course, start=start, warn=warn, **asked)
    out = args.out
    if ran.interrupted:
        from autograder.grading.pipeline import sigint_ignored

        # Still ignoring a second Ctrl-C: the list must not end in «no new results were written».
        with sigint_ignored():
            print_written(out, ran.written, stdout, lang)
            kept = text("cli.interrupted_kept", lang, graded=ran.graded, n=len(ran.entries), path=out / "results.json")
            print("\n" + kept, file=stderr)
            for name in ran.unowned:  # the run ends here, without the message that would have named them
                warn(text("intake.loose_other", lang, name=name))
        return EXIT_INTERRUPTED
    print_written(out, ran.written, stdout, lang)
    n, seed = len(ran.entries) - ran.kept, ran.seed
    print(plural("cli.graded", n, lang, seconds=ran.elapsed, jobs=args.jobs, seed=seed), file=stdout)
    if ran.kept:
        print(plural("cli.kept", ran.kept, lang, out=for_terminal(str(out)), total=len(ran.entries)), file=stdout)
    tally = ran.tally
    counts = {"learners": tally.learners, "with_file": tally.with_file, "without": tally.without_file}
    print(text("cli.tally", lang, files=tally.files, others=tally.others, unowned=tally.unowned, **counts), file=stdout)
    figures = ran.figures
    if figures.mean is None or figures.mean_fraction is None:
        print(text("cli.mean_none", lang, errors=ran.with_problems), file=stdout)
    else:
        mean, pct, counted = fmt_points(figures.mean, lang), figures.mean_fraction, figures.counted
        print(text("cli.mean", lang, mean=mean, pct=pct, counted=counted, errors=ran.with_problems), file=stdout)
    if ran.pending:
        print(plural("cli.pending", ran.pending, lang, out=for_terminal(str(out))), file=stdout)
    print(text("cli.repeat", lang, seed=seed), file=stdout)
    if ran.unowned:  # written all the same; but a script must not read the run as complete
        files = ", ".join(f"«{for_terminal(name)}»" for name in ran.unowned)
        said = plural("cli.unowned", len(ran.unowned), lang, files=files, out=for_terminal(str(out)), code=EXIT_UNOWNED)
        print(said, file=stderr)
        return EXIT_UNOWNED
    return EXIT_OK


def merge_command(args: argparse.Namespace, stdout: TextIO) -> int:
    merged, written = run.merge_class(args.folders, args.out, force=args.force, lang=args.lang or "es")
    # The reports are the parts' own, in their language; --lang only changes what is printed here.
    lang = args.lang or merged.lang
    print(text("merge.done", lang, shards=merged.shards, n=len(merged.entries), seed=merged.seed), file=stdout)
    print_written(args.out, written, stdout, lang)
    return EXIT_OK


def review_command(args: argparse.Namespace, stdout: TextIO) -> int:
    """List what is left to a person and write the CSV to fill in; or, with --apply, record the decisions."""
    lang: str = args.lang
    out: Path = results_json.located(args.results).parent
    with run.reviewing(out, lang) as read:
        if args.apply is None:
            return _review_list(args, out, read.entries, stdout)
        decisions, written = run.apply_decisions(read, args.apply, lang)
    if not decisions:
        print(text("review.nothing_decided", lang, file=for_terminal(str(args.apply))), file=stdout)
        return EXIT_OK
    print(plural("review.applied", len(decisions), lang, out=for_terminal(str(out))), file=stdout)
    print_written(out, written, stdout, lang)
    return EXIT_OK


def _review_list(args: argparse.Namespace, out: Path, entries: list[ReportEntry], stdout: TextIO) -> int:
    lang: str = args.lang
    rows = run.review_rows(entries, criterion=args.criterion, learner=args.learner, lang=lang)
    for line in review.listing(rows, lang):
        print(for_terminal(line), file=stdout)
    if not rows:
        key = "review.none" if args.criterion is None and args.learner is None else "review.none_matching"
        print(text(key, lang, out=for_terminal(str(out))), file=stdout)
        return EXIT_OK
    run.write_review_csv(args.csv, rows, force=args.force, lang=lang)
    shown_path, shown_out = for_terminal(str(args.csv)), for_terminal(str(out))
    print(plural("review.written", len(rows), lang, path=shown_path, out=shown_out), file=stdout)
    return EXIT_OK


def gradescope_command(args: argparse.Namespace, stdout: TextIO) -> int:
    from autograder.distribution.bundle import BundleError, build_bundle

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
        asked = {"overwrite": args.overwrite, "partial": args.partial}
        if args.lms == "moodle":
            zipped = args.feedback_zip
            summary = export_moodle(args.results, args.worksheet, args.out, args.lang, feedback_zip=zipped, **asked)
        else:
            summary = export_canvas(args.results, args.gradebook, args.column, args.out, **asked)
    except ExportError as exc:
        raise UsageError(exc.notice.render(args.lang)) from exc
    print(text("lms.out_written", args.lang, path=args.out), file=stdout)
    if args.lms == "moodle" and args.feedback_zip is not None:
        print(text("lms.zip_written", args.lang, path=args.feedback_zip, n=len(summary.zipped)), file=stdout)
    for line in shown(summary, args.lang):
        print(for_terminal(line), file=stdout)
    return EXIT_OK


def release_command(args: argparse.Namespace, stdout: TextIO) -> int:
    from autograder.distribution.release import ReleaseError, write_edition

    try:
        shipped = args.course.for_learners() if args.config is not None else None
        written = write_edition(args.out, lang=args.lang, config=shipped)
    except ReleaseError as exc:
        raise UsageError(exc.notice.render(args.lang)) from exc
    print(text("release.done", args.lang, out=args.out, n=len(written)), file=stdout)
    return EXIT_OK


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
            run.refuse_without_key(lang)
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
