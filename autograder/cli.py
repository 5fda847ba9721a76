"""The ``autograder`` command: grade a whole class, merge parts, build the Gradescope bundle.

    autograder grade PATH... --out DIR [--jobs N] [--seed S] [--lang es|en] [--force] [--shard I/N]
    autograder merge DIR... --out DIR [--force]
    autograder gradescope --out autograder.zip [--seed S]

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
from pathlib import Path
from typing import TextIO

from autograder.course.catalogue import LANGS, plural, text
from autograder.intake.collect import IntakeError, Learner, collect_submissions
from autograder.reporting.report import ReportEntry, fmt_points, write_reports
from autograder.reporting.shards import MergeError, merge_parts, plan, run_record, shard_arg
from autograder.wire.results import GradingInterrupted, SubmissionResult
from lesson3.console import SpanishParser, spanish

EXIT_OK, EXIT_INTERNAL, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C

Progress = Callable[[int, int, SubmissionResult], None]


# A learner-chosen name may hold escape sequences (retitle or clear the instructor's terminal), line breaks,
# bytes that are not UTF-8 (lone surrogates, which print() would refuse), or bidirectional controls.
_NOT_FOR_TERMINAL = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)


def for_terminal(text: str) -> str:
    """``text`` with control characters made visible, safe to print on the instructor's terminal."""
    return _NOT_FOR_TERMINAL.sub(lambda m: "\u2424" if m.group() in "\n\r\u2028\u2029" else "\ufffd", text)


class UsageError(Exception):
    """Uso incorrecto o nada que calificar: mensaje en español, código de salida 2."""


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
    "en": (argparse.ArgumentParser, contextlib.nullcontext),
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
    bundle.add_argument("--lang", choices=LANGS, help=say("lang_gradescope"))

    return parser


class ProgressBar:
    """Una barra de progreso sencilla, solo cuando la salida es una terminal."""

    def __init__(self, stream: TextIO, width: int = 28) -> None:
        self.stream, self.width, self.start, self.drawn = stream, width, time.monotonic(), False

    def __call__(self, done: int, total: int, result: SubmissionResult) -> None:
        filled = self.width * done // max(total, 1)
        bar = "█" * filled + "░" * (self.width - filled)
        name = for_terminal(result.submission)
        name = name if len(name) <= 32 else name[:31] + "…"
        elapsed = time.monotonic() - self.start
        self.stream.write(f"\r{bar} {done}/{total} · {elapsed:5.1f} s · {name:<32}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def run_grading(
    learners: list[Learner], *, jobs: int, seed: int, lang: str, progress: Progress | None
) -> list[SubmissionResult]:
    """One result per learner, in their order (:func:`autograder.grading.pipeline.grade_many`)."""
    # Imported here so that `autograder --help` and usage errors stay instant.
    from autograder.grading.pipeline import grade_many

    return grade_many(learners, jobs=jobs, seed=seed, lang=lang, progress=progress)


_OUTPUT_FILES = ("results.json", "grades.csv", "resumen.html")


def _prepare_out(out: Path, force: bool, lang: str = "es") -> None:
    if out.exists() and not out.is_dir():
        raise UsageError(text("cli.not_a_folder", lang, out=out))
    previous = [name for name in _OUTPUT_FILES if (out / name).exists()]
    if previous and not force:
        raise UsageError(text("cli.previous", lang, out=out, files=", ".join(previous)))


def _clear_old_feedback(out: Path) -> None:
    # --force replaces a previous run: stale feedback of submissions no longer graded must not linger.
    feedback = out / "feedback"
    if feedback.is_dir():
        for f in feedback.iterdir():
            if f.is_file() and f.suffix in (".md", ".html"):
                f.unlink()


def grade_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    out: Path = args.out
    if args.shard is not None and args.seed is None:
        raise UsageError(text("shard.needs_seed", args.lang))
    _prepare_out(out, args.force, args.lang)
    try:
        intake = collect_submissions(list(args.paths), lang=args.lang)
    except IntakeError as exc:
        raise UsageError(exc.notice.render(args.lang)) from exc
    with intake:
        for warning in intake.warnings:
            print(text("cli.warning", args.lang, warning=for_terminal(warning)), file=stderr)
        learners = intake.learners
        if not learners:
            shown = ", ".join(f"«{for_terminal(str(p))}»" for p in args.paths)
            raise UsageError(text("cli.nothing", args.lang, paths=shown))
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        planned = plan(learners, args.paths, args.shard)
        if args.shard is not None:
            print(
                plural("shard.graded", len(learners), args.lang, shard=args.shard, mine=len(planned)),
                file=stdout,
            )
        bar = ProgressBar(stdout) if stdout.isatty() else None
        started = time.monotonic()
        interrupted: GradingInterrupted | None = None
        try:
            results = run_grading([p.learner for p in planned], jobs=args.jobs, seed=seed, lang=args.lang, progress=bar)
        except GradingInterrupted as stop:  # Ctrl-C: keep what was graded, mark the rest
            results, interrupted = stop.results, stop
        finally:
            if bar is not None:
                bar.close()
        elapsed = time.monotonic() - started
        if len(results) != len(planned):
            raise RuntimeError(text("cli.lost_results", args.lang, graded=len(results), n=len(planned)))
        entries = [
            ReportEntry(result=r, source=p.learner.source, name=p.name) for r, p in zip(results, planned, strict=True)
        ]
        run = None
        if args.shard is not None:
            run = run_record(
                seed=seed,
                lang=args.lang,
                total=len(learners),
                warnings=intake.warnings,
                shard=args.shard,
                planned=planned,
                complete=interrupted is None,
            )
        if args.force:
            _clear_old_feedback(out)
        if interrupted:  # a second Ctrl-C must not cost the results the first one kept
            from autograder.grading.pipeline import sigint_ignored
        with sigint_ignored() if interrupted else contextlib.nullcontext():
            write_reports(out, entries, lang=args.lang, seed=seed, warnings=intake.warnings, run=run)

    if interrupted:
        kept = text(
            "cli.interrupted_kept", args.lang, graded=interrupted.graded, n=len(results), path=out / "results.json"
        )
        print("\n" + kept, file=stderr)
        return EXIT_INTERRUPTED
    mean = statistics.fmean(r.score for r in results) if results else 0.0
    mean_pct = statistics.fmean(r.score / r.max_score if r.max_score else 0.0 for r in results) if results else 0.0
    with_error = sum(1 for r in results if r.error)
    lang = args.lang
    mine = [p.learner for p in planned]
    files = sum(1 for learner in mine if learner.files)  # one graded file per learner who handed one in
    ignored = sum(len(learner.files) + len(learner.others) for learner in mine) - files
    print(plural("cli.graded", len(results), lang, seconds=elapsed, jobs=args.jobs, seed=seed), file=stdout)
    counts = {"graded": plural("cli.graded_files", files, lang), "ignored": plural("cli.ignored_files", ignored, lang)}
    print(text("cli.files", lang, **counts), file=stdout)
    print(text("cli.mean", lang, mean=fmt_points(mean), pct=mean_pct, errors=with_error), file=stdout)
    print(text("cli.written", lang, out=out), file=stdout)
    print(text("cli.repeat", lang, seed=seed), file=stdout)
    return EXIT_OK


def merge_command(args: argparse.Namespace, stdout: TextIO) -> int:
    out: Path = args.out
    if any(out.resolve() == folder.resolve() for folder in args.folders):
        raise UsageError(text("merge.out_is_input", args.lang or "es", out=out))
    _prepare_out(out, args.force, args.lang or "es")
    try:
        merged = merge_parts(args.folders)
    except MergeError as exc:
        raise UsageError(exc.notice.render(args.lang or "es")) from exc
    if args.force:
        _clear_old_feedback(out)
    # The reports are the parts' own, in their language; --lang only changes what is printed here.
    write_reports(out, merged.entries, lang=merged.lang, seed=merged.seed, warnings=merged.warnings)
    lang = args.lang or merged.lang
    print(text("merge.done", lang, shards=merged.shards, n=len(merged.entries), seed=merged.seed), file=stdout)
    print(text("cli.written", lang, out=out), file=stdout)
    return EXIT_OK


def gradescope_command(args: argparse.Namespace, stdout: TextIO) -> int:
    from autograder.reporting.gradescope import BundleError, build_bundle

    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    try:
        path = build_bundle(args.out, seed=seed)
    except BundleError as exc:
        raise UsageError(exc.notice.render(args.lang)) from exc
    print(text("cli.bundle", args.lang, path=path, seed=seed), file=stdout)
    return EXIT_OK


def early_lang(argv: Sequence[str] | None) -> str:
    """The ``--lang`` given anywhere in ``argv`` when it is a known language, else Spanish."""
    early = argparse.ArgumentParser(add_help=False)
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
    # Unset, merge speaks its parts' language; the other commands Spanish.
    args.lang = args.lang or args.top_lang or (None if args.command == "merge" else "es")
    lang = args.lang or "es"
    try:
        if args.command == "grade":
            return grade_command(args, stdout, stderr)
        if args.command == "merge":
            return merge_command(args, stdout)
        return gradescope_command(args, stdout)
    except UsageError as exc:
        print(text("cli.error", lang, error=for_terminal(str(exc))), file=stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\n" + text("cli.interrupted", lang), file=stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # the instructor gets a sentence, not a traceback
        if os.environ.get("AUTOGRADER_DEBUG"):
            raise
        print(text("cli.internal", lang, error=f"{type(exc).__name__}: {exc}"), file=stderr)
        return EXIT_INTERNAL
