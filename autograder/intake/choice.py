"""Which of a learner's files is graded: each ``.py``/``.ipynb`` loaded (or why it cannot be), one chosen by a rule.

A learner's folder may hold the course's four notebooks, a notebook and its ``.py`` export, a
draft beside the final version, a file that cannot be read. :func:`choose_for` loads each, picks
one by :data:`CHOICE_RULE` and says, in the run's language, which was graded and why, naming the
others; or why nothing is (a course notebook other than 04, only a PDF, a name a download mangled).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from autograder.course.catalogue import fmt_points, plural, said_levels, text
from autograder.course.lesson_map import NOTEBOOKS
from autograder.intake.collect import FoundSubmission, Learner, shown_name
from autograder.intake.submission import Submission, SubmissionError, load_submission


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
            return (1, 0, 0, 0, 0, 0, 0, position)
        own_name, upload = lms_upload(self.found.name)
        return (
            0,
            1 if sub.course in WRONG_NOTEBOOKS else 0,
            0 if sub.course == EXERCISES else 1 if own_name.startswith(EXERCISES) else 2,
            1 if is_copy_name(own_name, lms_numbered=upload is not None) else 0,
            -(upload or 0),
            -len(sub.defines()),
            0 if sub.kind == "ipynb" else 1,
            position,
        )


_CANVAS_UPLOAD = re.compile(r"[^_\s]+_(?P<late>LATE_)?\d+_(?P<upload>\d+)_(?P<name>.+)")
"""Canvas's «garciaana_1234_5678_entrega.ipynb»: 5678 numbers the upload, later ones higher; «_LATE_» after the
name marks a file handed in after the due date."""
_COPY = re.compile(
    r"-Copy\d+$"  # JupyterLab's «Duplicate»
    r"|\s?\(\d+\)$"  # a browser's or the OS's second download: «entrega (1)», «entrega(2)»
    r"|\s(?:-\s)?(?:copy|copia)(?:\s\d+)?$"  # macOS «entrega copy», Windows «entrega - copia»
    r"|^(?:copy of|copia de)\s",  # Google Drive and Colab: «Copia de entrega»
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"-\d+$")


def lms_upload(name: str) -> tuple[str, int | None]:
    """A file's own name and, where the LMS numbers uploads (Canvas), its upload's number."""
    canvas = _CANVAS_UPLOAD.fullmatch(name)
    return (canvas.group("name"), int(canvas.group("upload"))) if canvas else (name, None)


def canvas_late(name: str) -> bool:
    """Whether Canvas marked the upload ``name`` as handed in after the due date (its «_LATE_»)."""
    canvas = _CANVAS_UPLOAD.fullmatch(name)
    return canvas is not None and canvas.group("late") is not None


def is_copy_name(name: str, *, lms_numbered: bool = False) -> bool:
    """Whether ``name`` is what JupyterLab, a browser, the OS or a drive names a copy of a file.

    «-1» at the end is a copy's mark too, except where the LMS itself numbers a resubmission so (Canvas): there
    the upload's number tells which is newer."""
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return bool(_COPY.search(stem)) or (not lms_numbered and bool(_NUMBERED.search(stem)))


EXERCISES = "04"
"""The course's notebook that is handed in (:data:`autograder.course.lesson_map.NOTEBOOKS`)."""
WRONG_NOTEBOOKS = frozenset(NOTEBOOKS) - {EXERCISES}
CHOICE_RULE = ("readable", "not_course", "exercises", "not_copy", "newest", "most_names", "notebook", "first")
"""Why a file was graded rather than the next one: the first step of :meth:`Candidate.rank` that told them apart."""


def choose(candidates: Sequence[Candidate]) -> tuple[int, str | None]:
    """Which of a learner's files is graded, and the step of the rule that chose it (None: the only one).

    The rule: a file that can be read; not one of the course's notebooks 01–03; the course's
    notebook 04 (by its title cell), then a file whose name starts with «04»; a file not named like a
    copy (:func:`is_copy_name`); the latest upload, where the LMS numbers them (Canvas); the file that
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


def candidate(found: FoundSubmission, learner: Learner, lang: str) -> Candidate:
    """One of the learner's files, loaded, or why it could not be (in ``lang``)."""
    shown = learner.inside(found)
    if found.refusal is not None:
        return Candidate(found, shown, None, found.refusal.render(lang))
    try:
        return Candidate(found, shown, load_submission(found.file, found.name), None)
    except SubmissionError as e:
        return Candidate(found, shown, None, e.message(lang))


@dataclass(frozen=True)
class Choice:
    """What grading one learner starts from: the submission to grade, or why none is; the notes for the row."""

    name: str
    """The row's name: the file chosen, or the learner's folder when there was none."""
    submission: Submission | None
    refusal: str
    """Why nothing is graded (empty when something is)."""
    notes: list[str]
    """Which file was graded and why, and the learner's other files: said before the row's own warnings."""


def choose_for(learner: Learner, lang: str, levels: Sequence[int], late_penalty: float = 0.0) -> Choice:
    """The learner's file :func:`choose` picks, loaded; in ``lang``, for a run grading ``levels`` (and taking
    ``late_penalty`` per cent off late work when it goes to the LMS: the row says so)."""
    candidates = [candidate(found, learner, lang) for found in learner.files]
    if not candidates:
        return Choice(shown_name(learner.name), None, _nothing_gradable(learner, lang), [])
    by_person = [i for i, c in enumerate(candidates) if learner.chosen is not None and c.shown == learner.chosen]
    chosen, why = (by_person[0], "person") if by_person else choose(candidates)
    picked = candidates[chosen]
    submission, refusal = picked.submission, picked.error or ""
    if submission is not None and submission.course in WRONG_NOTEBOOKS:
        refusal = text(
            "load.course_notebook",
            lang,
            name=picked.found.name,
            number=int(submission.course),
            notebook=f"{NOTEBOOKS[submission.course]}.ipynb",
            exercises=f"{NOTEBOOKS[EXERCISES]}.ipynb",
            levels=said_levels(levels, lang),
        )
        submission = None
    others = [c.shown for i, c in enumerate(candidates) if i != chosen] + [learner.inside(o) for o in learner.others]
    notes = [picked.found.note.render(lang)] if picked.found.note else []
    if canvas_late(picked.found.name):
        pct = fmt_points(late_penalty, lang)
        key = "choice.late_canvas_penalty" if late_penalty else "choice.late_canvas"
        notes.append(text(key, lang, name=picked.found.name, pct=pct))
    if others or why == "person":
        notes.append(text("choice.graded", lang, name=picked.shown, why=text(f"choice.why.{why or 'only'}", lang)))
        notes.append(plural("choice.others", len(others), lang, files=_names(others, lang)))
        unreadable = [c.shown for i, c in enumerate(candidates) if i != chosen and c.submission is None]
        if unreadable:
            notes.append(plural("choice.unreadable", len(unreadable), lang, files=_names(unreadable, lang)))
    return Choice(picked.found.name, submission, refusal, notes)


_RENAMED = (".ipynb.txt", ".ipynb.json", ".py.txt", ".ipynb.html")
"""A notebook or script whose name gained an extension on the way (a browser's download, a mail client)."""


def _nothing_gradable(learner: Learner, lang: str) -> str:
    """What a learner who handed in no ``.py`` and no notebook is told: what was found instead."""
    found = [learner.inside(o) for o in learner.others]
    message = plural("choice.nothing", len(found), lang, files=_names(found, lang))
    renamed = [name for name in found if name.lower().endswith(_RENAMED)]
    if renamed:
        message += " " + plural("choice.renamed", len(renamed), lang, files=_names(renamed, lang))
    return message


_MAX_NAMED = 10


def _names(names: list[str], lang: str) -> str:
    """«a.py», «b.pdf» y 3 más: the files named, at most a few."""
    shown = ", ".join(f"«{n}»" for n in names[:_MAX_NAMED])
    if len(names) > _MAX_NAMED:
        shown += " " + text("list.more", lang, more=len(names) - _MAX_NAMED)
    return shown
