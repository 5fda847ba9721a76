"""Grade submissions: each learner's file chosen (intake) → judged in its own process → one result per learner.

The grader's process only reads files and collects records; each submission is
judged in a process forked from the zygote (:mod:`autograder.judging.zygote`), which
runs the learner's code in a confined child. One submission's infinite loop, crash
or flood of output costs that submission its points, never the batch.

``grade_submission`` and ``grade_many`` are the entry points for the CLI and the
reports; :mod:`autograder.intake.choice` says which of a learner's files is graded;
:mod:`autograder.judging.process` is what runs inside the judging process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed

from autograder.course.catalogue import text
from autograder.course.config import DEFAULT, CourseConfig
from autograder.grading.server import GradingServer, JudgeTimeout, ServerError, shared_server
from autograder.intake.choice import choose_for
from autograder.intake.collect import Learner, learner_of_file, shown_name
from autograder.intake.submission import Submission
from autograder.sandbox.learner_process import protections
from autograder.wire.results import GradingInterrupted, SubmissionResult

Progress = Callable[[int, int, SubmissionResult, int], None]
"""``progress(done, total, result, index)``, called in the caller's thread as each submission finishes.

``index`` is the learner's place in the list given: results finish in any order, and the caller
knows who each learner is (a name from the LMS) better than a result does."""


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


def grade_submission(path: str | os.PathLike[str], course: CourseConfig = DEFAULT) -> SubmissionResult:
    """Grade one submission (a ``.py`` or an ``.ipynb``)."""
    return grade_many([path], course, jobs=1)[0]


def grade_many(
    paths: Iterable[str | os.PathLike[str] | Learner],
    course: CourseConfig = DEFAULT,
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
    server: GradingServer | None = None,
) -> list[SubmissionResult]:
    """Grade many submissions in parallel; the results come back in the order of ``paths``.

    Each item is a file or a :class:`~autograder.intake.collect.Learner` (what intake found:
    one row each, one file graded, chosen by :func:`choose`). Every submission of one run
    sees the same random scenarios (the course's seed, random when None and recorded in each
    result), so the class is graded on equal terms.
    """
    learners = [p if isinstance(p, Learner) else learner_of_file(p) for p in paths]
    course = course.for_run()
    jobs = max(1, jobs or os.cpu_count() or 1)
    server = server or shared_server()
    results: list[SubmissionResult | None] = [None] * len(learners)
    global _warned_unconfined
    warning = confinement_warning(course.lang)
    if warning and not _warned_unconfined:
        _warned_unconfined = True  # once per run: every result carries it too
        print(warning, file=sys.stderr)

    def one(learner: Learner) -> SubmissionResult:
        try:
            return grade_learner(learner, course, server=server)
        except Exception as e:  # noqa: BLE001 - one file that breaks the loader or the grader must not cost the batch
            # Only the exception's type: its text may quote the file.
            return _unloadable(_label(learner), text("internal", course.lang, detail=type(e).__name__), course)

    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = {pool.submit(one, learner): i for i, learner in enumerate(learners)}
    try:
        for done, future in enumerate(as_completed(futures), 1):
            i = futures[future]
            results[i] = future.result()
            if progress is not None:
                progress(done, len(learners), results[i], i)
    except KeyboardInterrupt:
        # Stop now: nothing queued starts, the judges at work are killed (their threads then
        # return at once), and what was finished before the Ctrl-C is kept.
        with sigint_ignored():
            pool.shutdown(wait=False, cancel_futures=True)
            server.kill()
            pool.shutdown(wait=True)
        message = text("batch.interrupted", course.lang)
        kept = [
            r if r is not None else _unloadable(_label(learner), message, course)
            for r, learner in zip(results, learners, strict=True)
        ]
        raise GradingInterrupted(kept, graded=sum(1 for r in results if r is not None)) from None
    finally:
        pool.shutdown(wait=True)
    return [r for r in results if r is not None]


def grade_loaded(
    submission: Submission, course: CourseConfig = DEFAULT, *, server: GradingServer | None = None
) -> SubmissionResult:
    """Send an already loaded submission to a judge and wait for its result."""
    course = course.for_run()
    server = server or shared_server()
    request = {"submission": submission.to_json(), "course": course.to_wire()}
    try:
        raw = server.grade(request, timeout=course.limits.submission_seconds)
    except JudgeTimeout:
        message = text("internal.timeout", course.lang, seconds=course.limits.submission_seconds)
        return _unloadable(submission.name, message, course)
    except ServerError as e:
        return _unloadable(submission.name, text("internal", course.lang, detail=str(e)), course)
    result = SubmissionResult.from_json(raw)
    if warning := confinement_warning(course.lang):
        result.warnings.append(warning)
    return result


def _unloadable(name: str, message: str, course: CourseConfig) -> SubmissionResult:
    return SubmissionResult.from_criteria(name, course.not_graded(message), error=message, seed=course.seed)


# --- one learner, one row ---------------------------------------------------------------------


def _label(learner: Learner) -> str:
    """The row's name before a file was chosen: the learner's only file, or the learner's folder."""
    return learner.files[0].name if len(learner.files) == 1 else shown_name(learner.name)


def grade_learner(
    learner: Learner, course: CourseConfig = DEFAULT, *, server: GradingServer | None = None
) -> SubmissionResult:
    """One learner's row: the file :func:`~autograder.intake.choice.choose_for` picks, graded."""
    course = course.for_run()
    choice = choose_for(learner, course.lang, course.levels, course.late_penalty)
    if choice.submission is None:
        result = _unloadable(choice.name, choice.refusal, course)
    else:
        result = grade_loaded(choice.submission, course, server=server)
        # What a person's decisions (autograder review) hold for: this content, and no other.
        result.sha256 = choice.submission.sha256
    result.warnings[:0] = choice.notes
    return result
