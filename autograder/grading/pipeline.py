"""Corregir entregas: cargar → correr aislado → observar → juzgar → informar.

The grader's process only reads files and collects records; each submission is
judged in a process forked from the zygote (:mod:`autograder.judging.zygote`), which
runs the learner's code in a confined child. One submission's infinite loop, crash
or flood of output costs that submission its points, never the batch.

``grade_submission`` and ``grade_many`` are the entry points for the CLI and the
reports; :mod:`autograder.judging.process` is what runs inside the judge process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from autograder.course.catalogue import plural, said_levels, text
from autograder.course.config import DEFAULT, CourseConfig
from autograder.course.lesson_map import NOTEBOOKS
from autograder.grading.server import GradingServer, JudgeTimeout, ServerError, shared_server
from autograder.intake.collect import FoundSubmission, Learner, shown_name
from autograder.intake.safe_files import Beneath
from autograder.intake.submission import Submission, SubmissionError, load_submission
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
    learners = [p if isinstance(p, Learner) else _one_file(p) for p in paths]
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


def _one_file(path: str | os.PathLike[str]) -> Learner:
    """A file given by itself: a learner of one file."""
    where = Beneath.of(path)
    found = FoundSubmission(Path(os.fspath(where)), shown_name(os.fspath(path)), where.root, (shown_name(where.name),))
    return Learner(found.source, (found,), depth=1)


def _label(learner: Learner) -> str:
    """The row's name before a file was chosen: the learner's only file, or the learner's folder."""
    return learner.files[0].name if len(learner.files) == 1 else shown_name(learner.name)


@dataclass(frozen=True)
class Candidate:
    """One of a learner's ``.py``/``.ipynb``: loaded, or why it could not be."""

    found: FoundSubmission
    shown: str  # its path inside the learner's folder
    submission: Submission | None
    error: str | None

    def rank(self, position: int) -> tuple[int, ...]:
        """Smaller is chosen first; each place is one step of the rule (:data:`CHOICE_RULE`)."""
        sub = self.submission
        if sub is None:
            return (1, 0, 0, 0, 0, position)
        return (
            0,
            1 if sub.course in WRONG_NOTEBOOKS else 0,
            0 if sub.course == EXERCISES else 1 if self.found.name.startswith(EXERCISES) else 2,
            -len(sub.defines()),
            0 if sub.kind == "ipynb" else 1,
            position,
        )


EXERCISES = "04"
"""The course's notebook that is handed in (:data:`autograder.course.lesson_map.NOTEBOOKS`)."""
WRONG_NOTEBOOKS = frozenset(NOTEBOOKS) - {EXERCISES}
CHOICE_RULE = ("readable", "not_course", "exercises", "most_names", "notebook", "first")
"""Why a file was graded rather than the next one: the first step of :meth:`Candidate.rank` that told them apart."""


def choose(candidates: list[Candidate]) -> tuple[int, str | None]:
    """Which of a learner's files is graded, and the step of the rule that chose it (None: the only one).

    The rule: a file that can be read; not one of the course's notebooks 01–03; the course's
    notebook 04 (by its title cell), then a file whose name starts with «04»; the file that
    defines the most of the names the exercises grade; a notebook before a ``.py`` (often its
    export); the first in the order found (by path).
    """
    ranks = [c.rank(i) for i, c in enumerate(candidates)]
    order = sorted(range(len(candidates)), key=ranks.__getitem__)
    if len(order) == 1:
        return order[0], None
    best, second = ranks[order[0]], ranks[order[1]]
    step = next(k for k, (a, b) in enumerate(zip(best, second, strict=True)) if a != b)
    return order[0], CHOICE_RULE[step]


def grade_learner(
    learner: Learner, course: CourseConfig = DEFAULT, *, server: GradingServer | None = None
) -> SubmissionResult:
    """One learner's row: the file :func:`choose` picks, graded; the others named in its warnings."""
    course = course.for_run()
    lang = course.lang
    candidates = [_load(found, learner, lang) for found in learner.files]
    if not candidates:
        return _nothing_gradable(learner, course)
    chosen, why = choose(candidates)
    picked = candidates[chosen]
    if picked.submission is None:
        result = _unloadable(picked.found.name, picked.error or "", course)
    elif picked.submission.course in WRONG_NOTEBOOKS:
        number = picked.submission.course
        message = text(
            "load.course_notebook",
            lang,
            name=picked.found.name,
            number=int(number),
            notebook=f"{NOTEBOOKS[number]}.ipynb",
            exercises=f"{NOTEBOOKS[EXERCISES]}.ipynb",
            levels=said_levels(course.levels, lang),
        )
        result = _unloadable(picked.found.name, message, course)
    else:
        result = grade_loaded(picked.submission, course, server=server)
        # What a person's decisions (autograder review) hold for: this content, and no other.
        result.sha256 = picked.submission.sha256
    others = [c.shown for i, c in enumerate(candidates) if i != chosen] + [learner.inside(o) for o in learner.others]
    if others:
        notes = [text("choice.graded", lang, name=picked.shown, why=text(f"choice.why.{why or 'only'}", lang))]
        notes.append(plural("choice.others", len(others), lang, files=_names(others, lang)))
        unreadable = [c.shown for i, c in enumerate(candidates) if i != chosen and c.submission is None]
        if unreadable:
            notes.append(plural("choice.unreadable", len(unreadable), lang, files=_names(unreadable, lang)))
        result.warnings[:0] = notes
    return result


def _load(found: FoundSubmission, learner: Learner, lang: str) -> Candidate:
    shown = learner.inside(found)
    if found.refusal is not None:
        return Candidate(found, shown, None, found.refusal.render(lang))
    try:
        return Candidate(found, shown, load_submission(found.file, found.name), None)
    except SubmissionError as e:
        return Candidate(found, shown, None, e.message(lang))


_RENAMED = (".ipynb.txt", ".ipynb.json", ".py.txt", ".ipynb.html")
"""A notebook or script whose name gained an extension on the way (a browser's download, a mail client)."""


def _nothing_gradable(learner: Learner, course: CourseConfig) -> SubmissionResult:
    """A learner who handed in no ``.py`` and no notebook: a row with 0 that says what was found."""
    found = [learner.inside(o) for o in learner.others]
    message = plural("choice.nothing", len(found), course.lang, files=_names(found, course.lang))
    renamed = [name for name in found if name.lower().endswith(_RENAMED)]
    if renamed:
        message += " " + plural("choice.renamed", len(renamed), course.lang, files=_names(renamed, course.lang))
    return _unloadable(shown_name(learner.name), message, course)


_MAX_NAMED = 10


def _names(names: list[str], lang: str) -> str:
    """«a.py», «b.pdf» y 3 más: the files named, at most a few."""
    shown = ", ".join(f"«{n}»" for n in names[:_MAX_NAMED])
    if len(names) > _MAX_NAMED:
        shown += " " + text("list.more", lang, more=len(names) - _MAX_NAMED)
    return shown
