"""Cells are named as the learner sees them: their place among all cells and their first line."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.intake.submission import SubmissionError, first_line, from_python, load_submission
from autograder.sandbox.session import Session
from autograder.wire.limits import Limits


def notebook(path: Path, *cells: tuple[str, str]) -> Path:
    made = [new_markdown_cell(src) if kind == "md" else new_code_cell(src) for kind, src in cells]
    nbformat.write(new_notebook(cells=made), path)
    return path


def warnings_for(submission, reports: dict[str, list[dict]], lang: str = "es") -> list[str]:
    session = Session(submission, limits=Limits(), box=Path("/nonexistent"), uid=None, lang=lang)
    return session._summarise({**reports, "defined": {}, "answers": {}}).warnings


@pytest.mark.parametrize(
    ("layout", "failing", "expected"),
    [
        # Markdown between code cells counts: JupyterLab numbers nothing, the learner counts what is on screen.
        ([("md", "# Título"), ("code", "x = 1 / 0")], 1, "La celda 2 («x = 1 / 0») lanzó ZeroDivisionError"),
        (
            [("md", "# T"), ("md", "texto"), ("code", "a = 1"), ("md", "más"), ("code", "\n\n# Nivel 1\nb = a / 0")],
            2,
            "La celda 5 («# Nivel 1») lanzó ZeroDivisionError",
        ),
        ([("code", "def reconcile(cp):\n    return 1 / 0\nreconcile(1)")], 1, "La celda 1 («def reconcile(cp):»)"),
        (
            [("md", "a"), ("md", "b"), ("md", "c"), ("code", "z = '" + "x" * 80 + "'")],
            1,
            "La celda 4 («z = '" + "x" * 44 + "…») lanzó",
        ),
    ],
)
def test_a_notebook_cell_is_named_by_its_place_among_all_cells_and_its_first_line(tmp_path, layout, failing, expected):
    sub = load_submission(notebook(tmp_path / "nb.ipynb", *layout))
    report = {"number": failing, "status": "error", "etype": "ZeroDivisionError", "line": 1, "message": ""}
    (warning,) = warnings_for(sub, {"cells": [report]})
    assert warning.startswith(expected), warning
    # The filename in tracebacks says the same place, in the run's language.
    cell = sub.cells[failing - 1]
    assert (cell.compiled_name("es"), cell.compiled_name("en")) == (
        f"<celda {cell.position}>",
        f"<cell {cell.position}>",
    )


def test_the_name_is_in_the_reports_language_for_every_kind_of_cell_warning(tmp_path):
    sub = load_submission(notebook(tmp_path / "nb.ipynb", ("md", "# T"), ("code", "import numpy"), ("code", "f(:")))
    reports = [
        {"number": 1, "status": "error", "etype": "ModuleNotFoundError", "module": "numpy", "line": 1},
        {"number": 2, "status": "syntax", "line": 1, "message": "invalid syntax"},
    ]
    es = warnings_for(sub, {"cells": reports})
    assert es[0].startswith("La celda 2 («import numpy») importa «numpy»")
    assert es[1].startswith("La celda 3 («f(:») tiene un error de sintaxis")
    en = warnings_for(sub, {"cells": [{"number": 2, "status": "timeout"}]}, lang="en")
    assert en == ["Cell 3 («f(:») took too long and was interrupted; the following cells still ran."]


def test_a_first_line_cannot_reorder_or_break_the_sentence_that_names_it():
    assert first_line("\n   \nx = '\u202eabc'\t# c\n") == "x = '\\u202Eabc'\\u0009# c"
    assert first_line("") == "" and first_line("\n  \n") == ""
    assert len(first_line("y" * 500)) == 50


def test_an_empty_cell_is_named_by_its_place_alone(tmp_path):
    sub = load_submission(notebook(tmp_path / "nb.ipynb", ("md", "# T"), ("code", "   ")))
    (warning,) = warnings_for(sub, {"cells": [{"number": 1, "status": "timeout"}]})
    assert warning.startswith("La celda 2 tardó demasiado")


@pytest.mark.parametrize(
    ("source", "number", "start", "expected"),
    [
        ("# %%\nimport os\n# %%\nraise ValueError\n", 2, 3, "La celda 2 («raise ValueError»)"),
        ("#!/usr/bin/env python\nx = 1\n# In[3]:\n\n\ny = 1 / 0\n", 1, 3, "La celda 1 («y = 1 / 0»)"),
        ("import os\nz = 1 / 0\n# %%\nw = 2\n", 0, 1, "La celda 0 («import os»)"),
    ],
)
def test_a_marked_python_file_names_its_cells_by_their_first_line(source, number, start, expected):
    sub = from_python(source, "tarea.py")
    piece = {"number": number, "status": "error", "etype": "ValueError", "line": start + 1, "start": start}
    (warning,) = warnings_for(sub, {"pieces": [{**piece, "marked": True, "split": False}]})
    assert warning.startswith(expected), warning


def test_a_broken_notebook_cell_is_counted_among_all_cells(tmp_path):
    path = tmp_path / "roto.ipynb"
    cells = [{"cell_type": "markdown", "source": "# T", "metadata": {}}] * 3 + ["no es una celda"]
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}))
    with pytest.raises(SubmissionError) as refused:
        load_submission(path)
    assert "la celda 4 (contando todas" in refused.value.message("es")
    assert "cell 4 (counting them all" in refused.value.message("en")


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        (
            [("md", "# T"), ("code", "def reconcile(cp):\n    return cp['falta']")],
            "`reconcile` lanzó KeyError en la línea 2 de la celda 2 («def reconcile(cp):»)",
        ),
        (
            [
                ("md", "# T"),
                ("code", "x = 1"),
                ("md", "## Nivel 2"),
                ("code", "# mi versión\ndef reconcile(cp):\n    1 / 0"),
            ],
            "`reconcile` lanzó ZeroDivisionError en la línea 3 de la celda 4 («# mi versión»)",
        ),
    ],
)
def test_a_call_that_raises_names_the_cell_its_line_is_in(tmp_path, layout, expected):
    import os

    from autograder.sandbox.learner_process import learner_uid, prepare_box, running_as_root
    from autograder.wire.calls import pack

    uid = learner_uid(os.getpid()) if running_as_root() else None
    box = tmp_path / "alumno"
    prepare_box(box, uid)
    session = Session(
        load_submission(notebook(tmp_path / "nb.ipynb", *layout)), limits=Limits(), box=box, uid=uid, lang="es"
    )
    try:
        assert session.start().fatal is None
        outcome = session.call("reconcile", pack({}))
    finally:
        session.close()
    assert outcome.status == "error"
    assert outcome.describe("es").startswith(expected), outcome.describe("es")


TRACED = """import traceback
def reconcile(cp):
    try:
        1 / 0
    except ZeroDivisionError:
        return traceback.format_exc()
def resume_action(cp):
    return cp["falta"]
"""


@pytest.mark.parametrize(
    ("lang", "layout", "traced", "described"),
    [
        ("es", [("md", "# T"), ("code", TRACED)], 'File "<celda 2>", line 4', "en la línea 8 de la celda 2 («import"),
        ("en", [("md", "# T"), ("code", TRACED)], 'File "<cell 2>", line 4', "at line 8 of cell 2 («import"),
        (
            "en",
            [("code", "x = 1"), ("md", "# T"), ("md", "#"), ("code", TRACED)],
            'File "<cell 4>", line 4',
            "of cell 4",
        ),
    ],
)
def test_a_notebook_cell_is_compiled_under_the_runs_language(tmp_path, lang, layout, traced, described):
    """What learner code sees of its own cell (a traceback it prints or returns) is named as the reports name it."""
    import os

    from autograder.sandbox.learner_process import learner_uid, prepare_box, running_as_root
    from autograder.wire.calls import pack

    uid = learner_uid(os.getpid()) if running_as_root() else None
    box = tmp_path / "alumno"
    prepare_box(box, uid)
    submission = load_submission(notebook(tmp_path / "nb.ipynb", *layout))
    session = Session(submission, limits=Limits(), box=box, uid=uid, lang=lang)
    try:
        assert session.start().fatal is None
        traceback_text = session.call("reconcile", pack({}))
        raised = session.call("resume_action", pack({}))
    finally:
        session.close()
    assert traceback_text.status == "ok" and traced in traceback_text.value, traceback_text
    assert ("<celda" in traceback_text.value) == (lang == "es")
    assert raised.status == "error" and described in raised.describe(lang), raised.describe(lang)


def test_a_python_files_call_error_keeps_its_line_alone():
    from autograder.sandbox.session import Outcome

    outcome = Outcome(
        "error", info={"etype": "KeyError", "line": 4, "file": "ana.py", "message": "'x'"}, fn="reconcile"
    )
    assert outcome.describe("es") == "`reconcile` lanzó KeyError en la línea 4: 'x'."


def test_the_learners_process_cannot_name_a_cell_itself():
    from autograder.sandbox.learner_process import Reply
    from autograder.sandbox.session import Outcome

    sent = {"op": "result", "status": "error", "etype": "KeyError", "line": 1, "cell": "7 («falso»)", "message": ""}
    outcome = Outcome.from_reply("reconcile", Reply(sent))
    assert "falso" not in outcome.describe("es")
