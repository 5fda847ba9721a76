"""Load a submission: a ``.py`` or an ``.ipynb`` becomes a list of code cells.

This is the pipeline's first step and it never runs learner code, nor IPython's input
transformation (hostile cells can make it run for minutes): it reads the file, decodes a
``.py`` as Python does (BOM, PEP 263 coding cookie) and keeps each notebook cell's
source as written. The learner's process transforms, compiles and runs them, under its
limits, and reports which cell or line failed (:mod:`autograder.learner.runner`).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import re
import threading
import unicodedata
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from autograder.course.catalogue import text
from autograder.course.criteria import learner_names
from autograder.intake.course_cells import SKIP_TAG, is_course_skip_cell
from autograder.intake.notebook_json import course_notebook
from autograder.intake.safe_files import Beneath, ReadRefused, parse_notebook, read_regular

__all__ = ["SKIP_TAG", "Cell", "Submission", "SubmissionError", "load_submission", "parse"]

MAX_BYTES = 5 * 1024 * 1024
"""The code graded, at most: a bigger ``.py`` (or a notebook's code cells together) is refused."""
NOTEBOOK_MAX_BYTES = 50 * 1024 * 1024
"""A notebook file, at most: pasted screenshots and outputs weigh, and are never graded (only its code is)."""


class SubmissionError(Exception):
    """The submission cannot be read; ``key`` and ``params`` give the message in each language."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key, self.params = key, params
        super().__init__(text(key, "es", **params))

    def message(self, lang: str = "es") -> str:
        return text(self.key, lang, **self.params)


@dataclass(frozen=True)
class Cell:
    number: int
    """1-based among the code cells: how the judge and the learner's process refer to a cell."""
    source: str
    """What the learner wrote (a notebook cell keeps its IPython syntax: the shell runs it)."""
    filename: str
    """A ``.py``'s name, compiled under it so tracebacks say «ana.py, línea 12»; empty for a notebook cell.

    A submission is loaded without a language: a notebook cell is compiled under the name the run's
    language gives it (:meth:`compiled_name`), «<celda 7>» or "<cell 7>"."""
    skipped: bool = False
    position: int | None = None
    """1-based among all the notebook's cells, markdown included: what the learner can count on screen."""

    def compiled_name(self, lang: str) -> str:
        """The name this cell's code is compiled under in a run in ``lang``: what its tracebacks show."""
        return self.filename or text("cell.compiled_name", lang, position=self.position or self.number)

    def label(self, lang: str) -> str:
        """The cell as the learner finds it: its place among all cells and its first line («7 («def f():»)»)."""
        return cell_label(self.position or self.number, self.source, lang)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Cell:
        return cls(**raw)


@dataclass(frozen=True)
class Submission:
    name: str
    kind: str  # "py", "ipynb" or "notebook" (the definitions check() extracted from a running notebook)
    cells: tuple[Cell, ...] = field(default_factory=tuple)
    course: str | None = None
    """Which of the course's notebooks («01»…«04») this is, by its title cell (None: none of them)."""
    sha256: str | None = None
    """The bytes it was loaded from, digested once read: what a person's decisions on it hold for (None: no file)."""

    @property
    def runnable(self) -> list[Cell]:
        return [c for c in self.cells if not c.skipped]

    def defines(self) -> set[str]:
        """Which of the names the exercises grade (``reconcile``, ``respuesta_causa_raiz``…) some line defines.

        Read from the text, never run: enough to choose which of a learner's files to grade.
        """
        found = set()
        for cell in self.cells:
            found.update(m.group(1) for m in _DEFINITION.finditer(cell.source))
        return found & set(learner_names())

    def to_json(self) -> dict[str, Any]:
        cells = [c.to_json() for c in self.cells]
        return {"name": self.name, "kind": self.kind, "cells": cells, "course": self.course, "sha256": self.sha256}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Submission:
        cells = tuple(Cell.from_json(c) for c in raw["cells"])
        return cls(raw["name"], raw["kind"], cells, raw.get("course"), raw.get("sha256"))


_DEFINITION = re.compile(r"^(?:async\s+def\s+|def\s+)?([A-Za-z_]\w*)\s*(?:\(|=(?!=)|:)", re.MULTILINE)
"""A line that starts by defining a name at the top: ``def reconcile(``, ``respuesta_x = "b"``, ``X: set = …``."""


def load_submission(path: str | os.PathLike[str], name: str | None = None) -> Submission:
    """Read a ``.py`` or an ``.ipynb``; raise SubmissionError with a clear message if it cannot be read.

    ``path`` may be a :class:`~autograder.intake.safe_files.Beneath` (what intake found in a class
    folder): every folder below its root is then walked without following a symlink. ``name``
    is the file's name as shown (:func:`autograder.intake.collect.shown_name`), when it differs
    from the bytes on disk.
    """
    where = Beneath.of(path)
    name = name or where.name
    suffix = Path(name).suffix.lower()
    if suffix not in (".py", ".ipynb"):
        raise SubmissionError("load.bad_suffix", name=name)
    try:
        raw = read_regular(where, MAX_BYTES if suffix == ".py" else NOTEBOOK_MAX_BYTES)
    except ReadRefused as e:
        raise SubmissionError(e.key, name=name, **e.params) from None
    # Digested from these bytes, not from a second read: the file may change while it is graded.
    digest = hashlib.sha256(raw).hexdigest()
    if suffix == ".py":
        return replace(from_python(decode_python(raw, name), name), sha256=digest)
    try:
        source = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SubmissionError("load.not_utf8", name=name, pos=e.start) from None
    return replace(from_notebook_text(source, name), sha256=digest)


def decode_python(raw: bytes, name: str) -> str:
    """A ``.py`` file's text as Python reads it: a BOM, or a PEP 263 ``# -*- coding: latin-1 -*-`` line."""
    try:
        try:
            return importlib.util.decode_source(raw)
        except (SyntaxError, LookupError):  # an unknown or contradictory coding declaration
            return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SubmissionError("load.not_utf8", name=name, pos=e.start) from None


def from_python(source: str, name: str, *, kind: str = "py") -> Submission:
    """A ``.py`` file is one cell; the learner's process runs it by cells or by statements."""
    # A course notebook exported as a script keeps its title as a comment: «# # Cuaderno 1 · …».
    head = "\n".join(line[1:] for line in source.splitlines()[:_TITLE_LINES] if line.startswith("#"))
    return Submission(name, kind, (Cell(1, source, name),), course=course_notebook(head) if kind == "py" else None)


_TITLE_LINES = 60
"""Where a script exported from a notebook has its title: after a shebang, a coding line, jupytext's header."""


def from_notebook_text(source: str, name: str) -> Submission:
    try:
        code_cells, course = parse_notebook(source)
    except ReadRefused as e:
        raise SubmissionError(e.key, name=name, **e.params) from None
    code = sum(len(c.source.encode("utf-8", "surrogatepass")) for c in code_cells)
    if code > MAX_BYTES:
        raise SubmissionError("load.code_too_big", name=name, mb=MAX_BYTES // (1024 * 1024))
    cells = (
        Cell(n, c.source, "", skipped=is_course_skip_cell(c.source, c.tags), position=c.position or n)
        for n, c in enumerate(code_cells, 1)
    )
    return Submission(name, "ipynb", tuple(cells), course)


FIRST_LINE_CHARS = 50
"""How much of a cell's first line names it: enough to find it, short enough for a sentence."""


def first_line(source: str) -> str:
    """The first line of ``source`` that has text, shortened, with control characters written out.

    Control and format characters (a bidirectional override, a tab) are shown as their code, so
    a cell's text cannot reorder or break the sentence that names it.
    """
    line = next((stripped for raw in source.splitlines() if (stripped := raw.strip())), "")
    shown = "".join(f"\\u{ord(c):04X}" if unicodedata.category(c) in ("Cc", "Cf") else c for c in line)
    return shown if len(shown) <= FIRST_LINE_CHARS else shown[: FIRST_LINE_CHARS - 1].rstrip() + "…"


def cell_label(position: int, source: str, lang: str) -> str:
    """How a warning names a cell: its place and its first line (the place alone for an empty cell)."""
    first = first_line(source)
    return text("load.cell_label", lang, position=position, first=first) if first else str(position)


_PARSE_LOCK = threading.Lock()
_AST_FLAGS = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


def parse(source: str, filename: str = "<entrega>") -> ast.Module:
    """``source`` as an AST (top-level ``await`` allowed), one parse at a time.

    grade_many loads submissions from several threads, and CPython 3.11 (before 3.11.9)
    can raise "SystemError: AST constructor recursion depth mismatch" when two threads
    build ASTs at once (gh-106905): the lock keeps that off every parse the grader does.
    """
    with _PARSE_LOCK:
        tree = compile(source, filename, "exec", flags=_AST_FLAGS, dont_inherit=True)
    assert isinstance(tree, ast.Module)
    return tree
