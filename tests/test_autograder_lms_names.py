"""Learners named as their LMS names them: Canvas's download says «garcíanúñezana», its gradebook «García Núñez, Ana».

``grade --gradebook`` names the reports from the gradebook (or Moodle's worksheet), by LMS id; a regrade without
it keeps the class's names; ``export`` lists its rows by the sheet's names. One reader of names:
:func:`autograder.reporting.lms.learner_names`. Grading is replaced by one that passes every criterion.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from journey_class import canvas_download, canvas_gradebook, learners, moodle_worksheet
from test_autograder_cli import run

pytestmark = pytest.mark.usefixtures("every_criterion_passes")


def names(out: Path) -> dict[str, str]:
    with (out / "grades.csv").open(encoding="utf-8") as f:
        return {row["learner_id"]: row["learner"] for row in csv.DictReader(f)}


def test_canvas_learners_are_named_as_the_gradebook_names_them(tmp_path):
    people = learners()[:6]
    download = canvas_download(tmp_path / "submissions.zip", people)
    gradebook = canvas_gradebook(tmp_path / "libro.csv", people)
    out = tmp_path / "resultados"

    code, _, err = run("grade", download, "--out", out, "--seed", "4")
    assert code == 0, err
    assert names(out)[str(people[0].ident)] == "garcíanúñezana"  # all Canvas's download knows

    code, _, err = run("grade", download, "--out", out, "--force", "--gradebook", gradebook)
    assert code == 0, err
    expected = {str(p.ident): f"{p.last}, {p.first}" for p in people}
    assert names(out) == expected
    summary = (out / "resumen.html").read_text(encoding="utf-8")
    assert "<bdi>García Núñez, Ana</bdi>" in summary and "<bdi>garcíanúñezana</bdi>" not in summary

    # One learner resubmits; graded without --gradebook, the class keeps the gradebook's names.
    code, _, err = run("grade", canvas_download(tmp_path / "uno.zip", people[:1]), "--out", out, "--force")
    assert code == 0, err
    assert names(out) == expected


def test_export_lists_rows_by_the_sheets_names(tmp_path):
    people = learners()[:4]
    download = canvas_download(tmp_path / "submissions.zip", people)
    gradebook = canvas_gradebook(tmp_path / "libro.csv", people)
    out = tmp_path / "resultados"
    code, _, err = run("grade", download, "--out", out, "--seed", "4")
    assert code == 0, err
    code, said, err = run(
        "export",
        "canvas",
        out / "results.json",
        "--gradebook",
        gradebook,
        "--column",
        "Lección 3",
        "--out",
        tmp_path / "x.csv",
    )
    assert code == 0, err
    assert "  García Núñez, Ana: — → 10.00" in said and "garcíanúñezana" not in said


@pytest.mark.parametrize("lang", ["es", "en"])
def test_moodles_worksheet_names_too_and_a_sheet_without_names_is_refused(tmp_path, lang):
    people = learners()[:3]
    sheet = moodle_worksheet(tmp_path / "hoja.csv", people, lang=lang)
    from autograder.reporting.lms import learner_names

    assert learner_names(sheet)[str(people[1].ident)] == people[1].full
    other = tmp_path / "otra.csv"
    other.write_text("Nombre,Nota\nAna,7\n", encoding="utf-8")
    download = canvas_download(tmp_path / "submissions.zip", people)
    code, _, err = run("grade", download, "--out", tmp_path / "o", "--gradebook", other)
    assert code == 2 and "otra.csv»: no tiene nombres de alumnos con su id" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()
