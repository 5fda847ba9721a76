"""Late work: shown by both LMS's exports, and a penalty only where curso.toml sets ``penalizacion_tarde``.

Canvas marks a late upload in its file's name («_LATE_»), Moodle in its worksheet's status («Retrasado por»).
The penalty is taken off the grade written to the LMS (where both are known), said in the export's lines,
in the Moodle comment and in the Canvas learner's row. Grading is replaced by one that passes every criterion.
"""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import pytest
from journey_class import CANVAS_COLUMN, canvas_download, canvas_gradebook, learners, moodle_download, moodle_worksheet
from test_autograder_cli import run

from autograder.course.config import ConfigError, parse_toml
from autograder.course.criteria import required_ids
from autograder.grading import pipeline
from autograder.wire.results import CriterionResult, SubmissionResult


@pytest.fixture(autouse=True)
def passing(monkeypatch):
    def graded(loaded, course, **kwargs):
        criteria = [CriterionResult(c, True, 1.0, 1.0, "bien") for c in required_ids()]
        return SubmissionResult.from_criteria(loaded.name, criteria, seed=course.seed)

    monkeypatch.setattr(pipeline, "grade_loaded", graded)


def course_file(tmp_path: Path, late: str | None) -> list[str]:
    if late is None:
        return []
    path = tmp_path / "curso.toml"
    path.write_text(f"semilla = 4\npenalizacion_tarde = {late}\n", encoding="utf-8")
    return ["--config", str(path)]


@pytest.mark.parametrize("late", [None, "10"])
def test_canvas_shows_late_work_and_takes_the_penalty_only_when_the_course_sets_one(tmp_path, late):
    people = learners()[:7]  # the learner at index 3 handed in late
    (late_one,) = [p for p in people if p.late]
    out = tmp_path / "resultados"
    download = canvas_download(tmp_path / "submissions.zip", people)
    code, _, err = run("grade", download, "--out", out, "--seed", "4", *course_file(tmp_path, late))
    assert code == 0, err
    with (out / "grades.csv").open(encoding="utf-8") as f:
        row = {r["learner_id"]: r for r in csv.DictReader(f)}[str(late_one.ident)]
    assert "(LATE)" in row["warnings"]
    assert ("el curso resta un 10 %" in row["warnings"]) == (late is not None)
    assert ("la nota no cambia por eso" in row["warnings"]) == (late is None)

    book = canvas_gradebook(tmp_path / "libro.csv", people)
    sent = tmp_path / "subir.csv"
    code, said, err = run(
        "export", "canvas", out / "results.json", "--gradebook", book, "--column", "Lección 3", "--out", sent
    )
    assert code == 0, err
    with sent.open(encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    cells = {r["ID"]: r[CANVAS_COLUMN] for r in table if r["ID"]}
    assert cells[str(late_one.ident)] == ("9.00" if late else "10.00")
    assert all(cells[str(p.ident)] == "10.00" for p in people if not p.late)
    name = f"«{late_one.last}, {late_one.first}»"
    if late:
        assert f"Entregaron tarde, según el LMS (1): {name}" in said
        assert (
            "Con un 10 % menos por entrega tardía, como dice penalizacion_tarde en la configuración del curso "
            f"(1): {name}" in said
        )
    else:
        assert f"Entregaron tarde, según el LMS (1; la nota no cambia por eso): {name}" in said


def test_moodle_takes_the_penalty_from_its_worksheets_status_and_says_it_in_the_comment(tmp_path):
    people = learners()[:5]
    (late_one,) = [p for p in people if p.late]
    out = tmp_path / "resultados"
    download = moodle_download(tmp_path / "descarga.zip", people)
    code, _, err = run("grade", download, "--out", out, *course_file(tmp_path, "12.5"))
    assert code == 0, err
    sheet = moodle_worksheet(tmp_path / "hoja.csv", people)
    sent = tmp_path / "subir.csv"
    code, said, err = run("export", "moodle", out / "results.json", "--worksheet", sheet, "--out", sent)
    assert code == 0, err
    with sent.open(encoding="utf-8-sig") as f:
        rows = {r["Identificador"]: r for r in csv.DictReader(f)}
    late_row = rows[f"Participante {late_one.ident}"]
    assert late_row["Calificación"] == "87,50"
    assert late_row["Comentarios de retroalimentación"].endswith("Entrega tardía: se restó un 12,5 %.")
    on_time = rows[f"Participante {people[0].ident}"]
    assert on_time["Calificación"] == "100,00" and "tardía" not in on_time["Comentarios de retroalimentación"]
    assert (
        "Con un 12,5 % menos por entrega tardía, como dice penalizacion_tarde en la configuración del curso "
        f"(1): «{late_one.full}»" in said
    )


def test_a_late_mark_from_the_graded_file_puts_the_penalty_in_the_moodle_comment_too(tmp_path):
    # Graded from Canvas's download (the late mark is the file's «_LATE_»), written into a Moodle worksheet whose
    # status says nothing: the grade loses the penalty, and the comment says why, from the same decision.
    people = learners()[:5]
    (late_one,) = [p for p in people if p.late]
    out = tmp_path / "resultados"
    download = canvas_download(tmp_path / "submissions.zip", people)
    code, _, err = run("grade", download, "--out", out, *course_file(tmp_path, "12.5"))
    assert code == 0, err
    sheet = moodle_worksheet(tmp_path / "hoja.csv", [replace(p, late=False) for p in people])
    sent = tmp_path / "subir.csv"
    code, _, err = run("export", "moodle", out / "results.json", "--worksheet", sheet, "--out", sent)
    assert code == 0, err
    with sent.open(encoding="utf-8-sig") as f:
        late_row = {r["Identificador"]: r for r in csv.DictReader(f)}[f"Participante {late_one.ident}"]
    assert late_row["Calificación"] == "87,50"
    assert late_row["Comentarios de retroalimentación"].endswith("Entrega tardía: se restó un 12,5 %.")


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("150", "«penalizacion_tarde» = 150 está fuera de rango: tiene que estar entre 0 y 100 %"),
        ("-1", "está fuera de rango"),
        ('"diez"', "un porcentaje (un número de 0 a 100)"),
        ("true", "un porcentaje (un número de 0 a 100)"),
    ],
)
def test_a_bad_penalty_is_refused_with_its_file_and_line(value, said):
    with pytest.raises(ConfigError) as caught:
        parse_toml(f"semilla = 1\n\npenalizacion_tarde = {value}\n", "curso.toml")
    message = caught.value.notice.render("es")
    assert "curso.toml" in message and "línea 3" in message and said in message, message


def test_a_course_without_a_penalty_keeps_its_digest():
    plain, zero, ten = (
        parse_toml(text, "curso.toml") for text in ("", "penalizacion_tarde = 0\n", "penalizacion_tarde = 10\n")
    )
    assert plain.record() == zero.record() and "penalizacion_tarde" not in plain.record()
    assert ten.late_penalty == 10 and ten.record()["penalizacion_tarde"] == 10 and ten.digest() != plain.digest()
