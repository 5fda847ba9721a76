"""A submission that cannot run is said once, above the criteria; the rows only point to it.

results.json keeps each criterion's feedback (machines read it per criterion); the feedback
pages, check()'s table and Gradescope's tests say the reason once.
"""

from __future__ import annotations

import html
import json

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder import notebook
from autograder.course.config import CourseConfig
from autograder.grading.pipeline import grade_many
from autograder.reporting.gradescope import to_gradescope
from autograder.reporting.report import ReportEntry, feedback_html, feedback_markdown
from autograder.wire.limits import Limits
from autograder.wire.results import CriterionResult, SubmissionResult

ROW = {"es": "No calificado: ver arriba.", "en": "Not graded: see above."}

KINDS = {
    # One statement that does not parse: nothing of the file can run.
    "sintaxis.py": ("def reconcile(cp)\n    return cp\n", "Error de sintaxis en sintaxis.py"),
    # It runs, and defines none of the graded names.
    "nada.py": ("x = 1\nprint('hola')\n", "no define ninguno de los nombres"),
    # Its only statement runs past the load's time: nothing is defined either (the warning says why).
    "bucle.py": ("while True:\n    pass\n", "no define ninguno de los nombres"),
    # The course's notebook 1 handed in instead of the exercises.
    "cuaderno1.ipynb": (None, "es el cuaderno 1 del curso"),
}


def course_notebook_1() -> str:
    title = "# Cuaderno 1 · Reanudar, no reiniciar\n\n**Lección 3 de 6 — Reanudar** · Cuaderno 1 de 4"
    cells = [new_markdown_cell(title), new_code_cell("def reconcile(cp):\n    return cp")]
    return nbformat.writes(new_notebook(cells=cells))


@pytest.fixture(scope="module")
def unrunnable(tmp_path_factory):
    folder = tmp_path_factory.mktemp("no-corre")
    paths = []
    for name, (source, _) in KINDS.items():
        path = folder / name
        path.write_text(source if source is not None else course_notebook_1(), encoding="utf-8")
        paths.append(path)
    results = grade_many(paths, CourseConfig(seed=3, limits=Limits(load_seconds=0.6)), jobs=2)
    return {r.submission: r for r in results}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_of_unrunnable_submission_has_one_error_that_every_criterion_carries(unrunnable, name):
    result = unrunnable[name]
    assert KINDS[name][1] in (result.error or ""), result.error
    assert result.not_run and result.score == 0
    # results.json: per criterion, machine-readable, as before.
    record = json.loads(json.dumps(result.to_json()))
    assert {c["feedback"] for c in record["criteria"]} == {result.error}


def test_the_load_timeout_is_still_reported_beside_the_banner(unrunnable):
    assert any("no terminó" in w for w in unrunnable["bucle.py"].warnings), unrunnable["bucle.py"].warnings


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_feedback_page_says_it_once_and_the_rows_point_to_it(unrunnable, name):
    result = unrunnable[name]
    entry = ReportEntry(result, source=name, name="x")
    phrase = result.error[:30]
    page = feedback_html(entry)
    assert page.count(html.escape(phrase, quote=False)) == 1, page
    assert page.count(ROW["es"]) == len(result.criteria)
    markdown = feedback_markdown(entry)
    assert markdown.count(phrase) == 1 and markdown.count(ROW["es"]) == len(result.criteria)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_check_and_gradescope_say_it_once(unrunnable, name):
    result = unrunnable[name]
    phrase = result.error[:30]
    shown = notebook.render_text(result)
    assert shown.count(phrase) == 1 and shown.count(ROW["es"]) == len(result.criteria), shown
    assert "Pista" not in shown  # a criterion's hint helps nobody whose code did not run
    table = notebook.render_html(result)
    assert table.count(html.escape(phrase, quote=False)) == 1 and table.count(ROW["es"]) == len(result.criteria)
    tests = to_gradescope(result)
    assert tests["output"].count(phrase) == 1
    assert [t["output"] for t in tests["tests"] if t.get("max_score")] == [ROW["es"]] * len(result.criteria)


def test_english_rows_point_up_in_english(unrunnable):
    result = unrunnable["nada.py"]
    assert notebook.render_text(result, lang="en").count(ROW["en"]) == len(result.criteria)


def criterion(feedback: str, passed: bool = False) -> CriterionResult:
    return CriterionResult("nivel1.cpA", passed, 1.0 if passed else 0.0, 1.0, feedback)


@pytest.mark.parametrize(
    ("error", "criteria", "not_run"),
    [
        ("roto", [criterion("roto"), criterion("roto")], True),
        # An error beside criteria judged on their own: each keeps its feedback.
        ("roto", [criterion("roto"), criterion("otra cosa")], False),
        ("roto", [criterion("bien", passed=True)], False),
        (None, [criterion("x"), criterion("x")], False),
        ("roto", [], False),
    ],
)
def test_only_a_result_whose_every_criterion_carries_its_error_is_not_run(error, criteria, not_run):
    result = SubmissionResult("a.py", 0.0, float(len(criteria)), criteria, error=error)
    assert result.not_run is not_run
    rows = notebook.render_text(result)
    assert (ROW["es"] in rows) is not_run
