"""Load a submission: a ``.py`` or an ``.ipynb`` becomes a list of code cells.

This is the pipeline's first step and it never runs learner code, nor IPython's input
transformation (hostile cells can make it run for minutes): it reads the file, decodes a
``.py`` as Python does (BOM, PEP 263 coding cookie) and keeps each notebook cell's
source as written. The learner's process transforms, compiles and runs them, under its
limits, and reports which cell or line failed (:mod:`autograder.learner.runner`).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.course.catalogue import text
from autograder.intake.safe_files import Beneath, ReadRefused, notebook_code_cells, read_regular

MAX_BYTES = 5 * 1024 * 1024
"""Bigger files are refused before parsing: no exercise answer is this big."""

SKIP_TAG = "autograder-skip"
"""Notebook cells with this tag are not run when grading (demos that spawn processes, long runs)."""


class SubmissionError(Exception):
    """La entrega no se puede leer; ``key`` y ``params`` dan el mensaje en cada idioma."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key, self.params = key, params
        super().__init__(text(key, "es", **params))

    def message(self, lang: str = "es") -> str:
        return text(self.key, lang, **self.params)


@dataclass(frozen=True)
class Cell:
    number: int
    """1-based position among the code cells, as the report names it («celda 3»)."""
    source: str
    """What the learner wrote (a notebook cell keeps its IPython syntax: the shell runs it)."""
    filename: str
    """Name used when compiling, so tracebacks say «ana.py, línea 12» or «<celda 3>, línea 2»."""
    skipped: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "source": self.source, "filename": self.filename, "skipped": self.skipped}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Cell:
        return cls(**raw)


@dataclass(frozen=True)
class Submission:
    name: str
    kind: str  # "py", "ipynb" or "live" (the definitions check() extracted from a running notebook)
    cells: tuple[Cell, ...] = field(default_factory=tuple)

    @property
    def runnable(self) -> list[Cell]:
        return [c for c in self.cells if not c.skipped]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "cells": [c.to_json() for c in self.cells]}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Submission:
        return cls(raw["name"], raw["kind"], tuple(Cell.from_json(c) for c in raw["cells"]))


def load_submission(path: str | os.PathLike[str]) -> Submission:
    """Lee un ``.py`` o un ``.ipynb``; lanza SubmissionError con un mensaje claro si no se puede.

    ``path`` may be a :class:`~autograder.intake.safe_files.Beneath` (what intake found in a class
    folder): every folder below its root is then walked without following a symlink.
    """
    where = Beneath.of(path)
    name = where.name
    suffix = Path(name).suffix.lower()
    if suffix not in (".py", ".ipynb"):
        raise SubmissionError("load.bad_suffix", name=name)
    try:
        raw = read_regular(where, MAX_BYTES)
    except ReadRefused as e:
        raise SubmissionError(e.key, name=name, **e.params) from None
    if suffix == ".py":
        return from_python(decode_python(raw, name), name)
    try:
        source = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SubmissionError("load.not_utf8", name=name, pos=e.start) from None
    return from_notebook_text(source, name)


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
    """Un archivo ``.py`` es una sola celda; el proceso del alumno lo ejecuta por celdas o instrucciones."""
    return Submission(name, kind, (Cell(1, source, name),))


def from_notebook_text(source: str, name: str) -> Submission:
    try:
        code_cells = notebook_code_cells(source)
    except ReadRefused as e:
        raise SubmissionError(e.key, name=name, **e.params) from None
    cells = (Cell(n, c.source, f"<celda {n}>", skipped=SKIP_TAG in c.tags) for n, c in enumerate(code_cells, 1))
    return Submission(name, "ipynb", tuple(cells))


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
