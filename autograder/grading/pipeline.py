"""Corregir entregas: cargar → correr aislado → observar → juzgar → informar.

The grader's process only reads files and collects records; each submission is
judged in a process forked from the zygote (:mod:`autograder.grading.server`), which
runs the learner's code in a confined child. One submission's infinite loop, crash
or flood of output costs that submission its points, never the batch.

``grade_submission`` and ``grade_many`` are the entry points for the CLI and the
reports; :mod:`autograder.judging.process` is what runs inside the judge process.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from autograder.course.catalogue import text
from autograder.course.criteria import not_graded
from autograder.grading.server import GradingServer, JudgeTimeout, ServerError, shared_server
from autograder.intake.submission import Submission, SubmissionError, load_submission
from autograder.judging.process import LEVELS
from autograder.sandbox.learner_process import protections
from autograder.wire.limits import Limits
from autograder.wire.results import GradingInterrupted, SubmissionResult

DEFAULT_LIMITS = Limits()

Progress = Callable[[int, int, SubmissionResult], None]
"""``progress(done, total, result)``, called in the caller's thread as each submission finishes."""


_warned_unconfined = False


def confinement_warning(lang: str = "es") -> str | None:
    """What learner code could reach on this machine, when something could; None when fully confined."""
    found = protections()
    if not found.files:
        return text("warn.unconfined", lang)
    if not found.signals:
        return text("warn.signals", lang, abi=found.landlock_abi)
    if not found.seccomp:
        return text("warn.seccomp", lang)
    return None


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """While the first Ctrl-C is being handled, a second one must not lose what was graded."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def grade_submission(
    path: str | os.PathLike[str],
    *,
    seed: int | None = None,
    lang: str = "es",
    limits: Limits = DEFAULT_LIMITS,
    levels: tuple[int, ...] = LEVELS,
) -> SubmissionResult:
    """Corrige una entrega (``.py`` o ``.ipynb``)."""
    return grade_many([path], jobs=1, seed=seed, lang=lang, limits=limits, levels=levels)[0]


def grade_many(
    paths: Iterable[str | os.PathLike[str]],
    *,
    jobs: int | None = None,
    seed: int | None = None,
    lang: str = "es",
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
    levels: tuple[int, ...] = LEVELS,
    server: GradingServer | None = None,
) -> list[SubmissionResult]:
    """Corrige muchas entregas en paralelo; los resultados vuelven en el orden de ``paths``.

    Every submission of one run sees the same random scenarios (``seed``, random
    when None and recorded in each result), so the class is graded on equal terms.
    """
    paths = list(paths)
    seed = secrets.randbelow(2**31) if seed is None else seed
    jobs = max(1, jobs or os.cpu_count() or 1)
    server = server or shared_server()
    results: list[SubmissionResult | None] = [None] * len(paths)
    global _warned_unconfined
    warning = confinement_warning(lang)
    if warning and not _warned_unconfined:
        _warned_unconfined = True  # once per run: every result carries it too
        print(warning, file=sys.stderr)

    def one(path: str | os.PathLike[str]) -> SubmissionResult:
        name = Path(path).name
        try:
            submission = load_submission(path)
            return grade_loaded(submission, seed=seed, lang=lang, limits=limits, levels=levels, server=server)
        except SubmissionError as e:
            return _unloadable(name, e.message(lang), seed, levels)
        except Exception as e:  # noqa: BLE001 - one file that breaks the loader or the grader must not cost the batch
            # Only the exception's type: its text may quote the file.
            return _unloadable(name, text("internal", lang, detail=type(e).__name__), seed, levels)

    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = {pool.submit(one, path): i for i, path in enumerate(paths)}
    try:
        for done, future in enumerate(as_completed(futures), 1):
            i = futures[future]
            results[i] = future.result()
            if progress is not None:
                progress(done, len(paths), results[i])
    except KeyboardInterrupt:
        # Stop now: nothing queued starts, the judges at work are killed (their threads then
        # return at once), and what was finished before the Ctrl-C is kept.
        with sigint_ignored():
            pool.shutdown(wait=False, cancel_futures=True)
            server.kill()
            pool.shutdown(wait=True)
        message = text("batch.interrupted", lang)
        kept = [
            r if r is not None else _unloadable(Path(p).name, message, seed, levels)
            for r, p in zip(results, paths, strict=True)
        ]
        raise GradingInterrupted(kept, graded=sum(1 for r in results if r is not None)) from None
    finally:
        pool.shutdown(wait=True)
    return [r for r in results if r is not None]


def grade_loaded(
    submission: Submission,
    *,
    seed: int,
    lang: str = "es",
    limits: Limits = DEFAULT_LIMITS,
    levels: tuple[int, ...] = LEVELS,
    server: GradingServer | None = None,
) -> SubmissionResult:
    """Send an already loaded submission to a judge and wait for its result."""
    server = server or shared_server()
    request = {
        "submission": submission.to_json(),
        "seed": seed,
        "lang": lang,
        "limits": limits.to_json(),
        "levels": list(levels),
    }
    try:
        raw = server.grade(request, timeout=limits.submission_seconds)
    except JudgeTimeout:
        return _unloadable(
            submission.name, text("internal.timeout", lang, seconds=limits.submission_seconds), seed, levels
        )
    except ServerError as e:
        return _unloadable(submission.name, text("internal", lang, detail=str(e)), seed, levels)
    result = SubmissionResult.from_json(raw)
    if warning := confinement_warning(lang):
        result.warnings.append(warning)
    return result


def _unloadable(name: str, message: str, seed: int, levels: tuple[int, ...]) -> SubmissionResult:
    return SubmissionResult.from_criteria(name, not_graded(message, levels=levels), error=message, seed=seed)
