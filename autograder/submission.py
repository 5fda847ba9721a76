"""Cargar una entrega: un ``.py`` o un ``.ipynb`` convertido en una lista de celdas de código.

This is the pipeline's first step and it never runs learner code: it reads the file,
neutralises IPython syntax (magics and shell escapes become calls on a stub shell that
does nothing in the sandbox) and compiles each cell only to find syntax errors, so the
report can name the cell and the line.
"""

from __future__ import annotations

import ast
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .messages import text
from .reading import ReadRefused, notebook_code_cells, read_regular

MAX_BYTES = 5 * 1024 * 1024
"""Bigger files are refused before parsing: no exercise answer is this big."""

SKIP_TAG = "autograder-skip"
"""Notebook cells with this tag are not run when grading (demos that spawn processes, long runs)."""

PYTHON_BODY_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun"})
"""Cell magics whose body is ordinary Python in Jupyter: the body still runs, the magic does not."""

_LINE_TIME = re.compile(r"^(\s*)%(?:time|timeit)(?:\s+-\S+(?:\s+\d+)?)*\s+(\S.*)$")
_CELL_MAGIC = re.compile(r"^%%(\w+)")
_ESCAPE_CANDIDATE = re.compile(r"^\s*[%!]|\?\s*$|=\s*[%!]", re.MULTILINE)


class SubmissionError(Exception):
    """La entrega no se puede leer; ``key`` y ``params`` dan el mensaje en cada idioma."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key, self.params = key, params
        super().__init__(text(key, "es", **params))

    def message(self, lang: str = "es") -> str:
        return text(self.key, lang, **self.params)


@dataclass(frozen=True)
class SyntaxProblem:
    line: int
    message: str


@dataclass(frozen=True)
class Cell:
    number: int
    """1-based position among the code cells, as the report names it («celda 3»)."""
    source: str
    """What runs: Python with IPython syntax neutralised."""
    filename: str
    """Name used when compiling, so tracebacks say «ana.py, línea 12» or «<celda 3>, línea 2»."""
    syntax_error: SyntaxProblem | None = None
    skipped: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "source": self.source,
            "filename": self.filename,
            "syntax_error": None
            if self.syntax_error is None
            else {"line": self.syntax_error.line, "message": self.syntax_error.message},
            "skipped": self.skipped,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Cell:
        err = raw.get("syntax_error")
        return cls(
            number=raw["number"],
            source=raw["source"],
            filename=raw["filename"],
            syntax_error=None if err is None else SyntaxProblem(err["line"], err["message"]),
            skipped=raw.get("skipped", False),
        )


@dataclass(frozen=True)
class Submission:
    name: str
    kind: str  # "py", "ipynb" or "live" (the definitions check() extracted from a running notebook)
    cells: tuple[Cell, ...] = field(default_factory=tuple)

    @property
    def runnable(self) -> list[Cell]:
        return [c for c in self.cells if not c.skipped and c.syntax_error is None]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "cells": [c.to_json() for c in self.cells]}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Submission:
        return cls(raw["name"], raw["kind"], tuple(Cell.from_json(c) for c in raw["cells"]))


def load_submission(path: str | Path) -> Submission:
    """Lee un ``.py`` o un ``.ipynb``; lanza SubmissionError con un mensaje claro si no se puede."""
    path = Path(path)
    name = path.name
    suffix = path.suffix.lower()
    if suffix not in (".py", ".ipynb"):
        raise SubmissionError("load.bad_suffix", name=name)
    try:
        raw = read_regular(path, MAX_BYTES)
    except ReadRefused as e:
        raise SubmissionError(e.key, name=name, **e.params) from None
    try:
        source = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SubmissionError("load.not_utf8", name=name, pos=e.start) from None
    if suffix == ".py":
        return from_python(source, name)
    return from_notebook_text(source, name)


def from_python(source: str, name: str, *, kind: str = "py") -> Submission:
    """Un archivo ``.py`` es una sola celda: corre entero, como un módulo."""
    return Submission(name, kind, (_cell(1, source, name),))


def from_notebook_text(source: str, name: str) -> Submission:
    try:
        code_cells = notebook_code_cells(source)
    except ReadRefused as e:
        raise SubmissionError(e.key, name=name, **e.params) from None
    cells = []
    for code in code_cells:
        number = len(cells) + 1
        made = _cell(number, neutralise(code.source), f"<celda {number}>")
        if SKIP_TAG in code.tags:
            made = Cell(made.number, made.source, made.filename, made.syntax_error, skipped=True)
        cells.append(made)
    return Submission(name, "ipynb", tuple(cells))


def neutralise(source: str) -> str:
    """IPython syntax -> plain Python that never runs a magic or a shell command.

    Line magics and ``!cmd`` become calls on ``get_ipython()``, which in the sandbox is
    a stub that does nothing. ``%time stmt`` keeps ``stmt`` and ``%%time``-like cells
    keep their body, because in Jupyter that code runs and may define things. Other
    cell magics (``%%bash``, ``%%writefile``, ...) become ``pass``. Line numbers are kept.
    """
    lines = source.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None:
        m = _CELL_MAGIC.match(lines[first].lstrip())
        if m:
            if m.group(1) not in PYTHON_BODY_CELL_MAGICS:
                return "\n" * first + f"pass  # %%{m.group(1)}: no se ejecuta al corregir"
            lines[first] = ""
    lines = [_LINE_TIME.sub(r"\1\2", line) for line in lines]
    source = "\n".join(lines)
    if not _ESCAPE_CANDIDATE.search(source):
        return source
    return _transform(source)


def _transform(source: str) -> str:
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # pragma: no cover - IPython ships with jupyterlab
        return _fallback_transform(source)
    try:
        out = TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 - a cell IPython cannot parse is left for the syntax check
        return _fallback_transform(source)
    # IPython always ends the cell with a newline; keep the learner's line count.
    return out[:-1] if out.endswith("\n") and not source.endswith("\n") else out


_FALLBACK_ASSIGN = re.compile(r"^(\s*)([\w.,\s]+?)\s*=\s*[%!].*$")
_FALLBACK_ESCAPE = re.compile(r"^(\s*)[%!].*$")


def _fallback_transform(source: str) -> str:
    """Line filter used only without IPython: magic and shell lines become no-ops."""
    out = []
    for line in source.split("\n"):
        m = _FALLBACK_ASSIGN.match(line)
        if m:
            out.append(f"{m.group(1)}{m.group(2)} = None")
            continue
        m = _FALLBACK_ESCAPE.match(line)
        out.append(f"{m.group(1)}pass" if m else line)
    return "\n".join(out)


def _cell(number: int, source: str, filename: str) -> Cell:
    return Cell(number, source, filename, syntax_problem(source, filename))


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


def syntax_problem(source: str, filename: str = "<entrega>") -> SyntaxProblem | None:
    """El primer error de sintaxis de ``source`` (línea y mensaje), o None."""
    try:
        parse(source, filename)
    except SyntaxError as e:
        return SyntaxProblem(e.lineno or 1, e.msg or type(e).__name__)
    except (ValueError, RecursionError, MemoryError) as e:
        return SyntaxProblem(1, _short(e))
    return None


def _short(e: BaseException) -> str:
    msg = str(e).strip().splitlines()
    return (msg[0] if msg else type(e).__name__)[:200]
