"""check() where no exercise of the learner's is defined: one banner naming notebook 4, never 28 rows of «No hay
una función…», and never an accusation of delegation for what the course's own cells imported from lesson3.

"Outside the exercises" is decided by what the namespace defines, not by the notebook's file name: a renamed copy
of notebook 4 with its functions run is graded, a notebook 3 is not.
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from ipython_cells import first_code_cell, run_cells

from autograder import notebook
from autograder.course.criteria import learner_names
from autograder.notebook import check, render_html

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
BANNER = {"es": "no encontró aquí ningún ejercicio tuyo", "en": "found no exercise of yours here"}
DELEGATION = ("solución de referencia", "reference answer", "delega", "delegates", "No cuenta")


# The course's own import lines of notebooks 1-3 (their os.chdir and warm_up left out: only the names matter).
IMPORTS = {
    "01": "from lesson3 import load_checkpoint, new_state, offline_client, run_agent, save_checkpoint\n"
    "from autograder import check",
    "02": "import anthropic\nfrom lesson3 import api_error_for, dangling_tool_uses, delete_dangling, load_checkpoint",
    "03": "from lesson3 import UNKNOWN_STATE_MESSAGE, api_error_for, load_checkpoint, reconcile, run_agent",
    # Every graded function imported from lesson3's reference, as a notebook of demos could.
    "all": "from lesson3.answers import reconcile\nfrom lesson3 import new_state as start_state\n"
    "from lesson3 import load_checkpoint as my_load_checkpoint",
}


@pytest.fixture
def no_grading(monkeypatch):
    """The banner is said without asking the sandbox: nothing there is the learner's to grade."""

    def refuse(*args, **kwargs):
        raise AssertionError("check() graded a namespace without any exercise of the learner's")

    monkeypatch.setattr(notebook, "grade_loaded", refuse)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("cells", [[], ["x = 1\nprint('hola')"], *[[c] for c in IMPORTS.values()]], ids=repr)
@pytest.mark.parametrize("level", [None, 0, 2])
def test_a_namespace_without_exercises_gets_one_banner_naming_notebook_4(no_grading, capsys, cells, lang, level):
    result = check(level, namespace=run_cells(cells), lang=lang)
    out = capsys.readouterr().out
    assert out.count(BANNER[lang]) == 1, out
    assert "04_ejercicios" in out
    assert result.criteria == [] and BANNER[lang] in (result.error or "")
    assert "No hay una función" not in out and "There is no function" not in out
    assert not any(word in out for word in DELEGATION), out
    assert "0/0" not in out and "0/0" not in repr(result)  # no points said for what was not graded


def test_the_banner_says_which_graded_names_here_are_the_notebooks_imports(no_grading, capsys):
    check(namespace=run_cells([IMPORTS["03"]]))
    out = capsys.readouterr().out
    assert "`reconcile` es el de lesson3" in out and "no es tu código" in out


def test_the_banner_is_one_paragraph_without_a_table_in_jupyter(no_grading):
    result = check(namespace=run_cells([IMPORTS["03"]]))
    shown = render_html(result)
    assert "<table" not in shown and shown.count(html.escape(BANNER["es"])) == 1


def test_the_first_cell_of_each_course_notebook_but_4_has_no_exercise():
    """The real first cells (the names the notebooks import), not this file's copy of them."""
    for stem in ("01_reanudar_no_reiniciar", "02_la_llamada_colgante", "03_reconcile_y_contadores"):
        source = first_code_cell(stem)
        lines = [line for line in source.splitlines() if not line.startswith(("os.chdir", "lab.warm_up"))]
        ns = run_cells(["\n".join(lines)])
        assert not any(notebook.defined_here(ns, name) for name in learner_names()), stem


@pytest.mark.parametrize(
    ("cells", "defined"),
    [
        (["def my_load_checkpoint(path):\n    return None"], "my_load_checkpoint"),
        (["razon_cpA = 'b'"], "razon_cpA"),
        (["reconcile = lambda cp: cp"], "reconcile"),
        ([IMPORTS["03"], "def resume_action(cp):\n    return 'continue'"], "resume_action"),
    ],
    ids=["one-function", "one-answer", "a-lambda", "notebook-3-plus-one-function"],
)
def test_what_the_notebook_defines_is_an_exercise_whatever_else_it_imported(cells, defined):
    ns = run_cells(cells)
    assert [n for n in learner_names() if notebook.defined_here(ns, n)] == [defined]


@pytest.mark.warm_up("grading_server")
def test_a_learner_who_wrote_some_functions_still_gets_a_row_per_criterion(capsys):
    result = check(level=0, namespace=run_cells(["def my_load_checkpoint(path):\n    return None"]))
    out = capsys.readouterr().out
    assert BANNER["es"] not in out
    assert len(result.criteria) > 1 and "No hay una función `start_state`" in out


@pytest.mark.warm_up("grading_server")
def test_the_course_cells_import_of_reconcile_is_not_called_delegation_beside_the_learners_code(capsys):
    """Notebook 3's import cell, then a function of the learner's in the same kernel: reconcile is lesson3's
    because the course's cell imported it, so it is graded as not written and the learner is told why."""
    course_cell = first_code_cell("03_reconcile_y_contadores")
    course_cell = "\n".join(line for line in course_cell.splitlines() if not line.startswith(("os.chdir", "lab.")))
    ns = run_cells([course_cell, "def resume_action(cp):\n    return 'continue'"])
    # The cell as the course has it (its os.chdir and warm_up lines too) is what the history holds.
    ns["In"][1] = first_code_cell("03_reconcile_y_contadores")
    result = check(namespace=ns)
    out = capsys.readouterr().out
    assert not any(word in out for word in DELEGATION), out
    assert "reconcile es el de lesson3 que importa la celda [1]" in out
    assert any("No hay una función `reconcile`" in c.feedback for c in result.criteria), out


@pytest.mark.warm_up("grading_server")
def test_a_learners_own_import_of_the_reference_is_still_delegation(capsys):
    ns = run_cells(["from lesson3 import reconcile", "def resume_action(cp):\n    return 'continue'"])
    result = check(namespace=ns)
    assert any("solución de referencia" in c.feedback for c in result.criteria), capsys.readouterr().out
