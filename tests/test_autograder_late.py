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
from journey_class import (
    CANVAS_COLUMN,
    GRADED_BY_HAND,
    LOCKED,
    UNCLEAR,
    canvas_download,
    canvas_gradebook,
    learners,
    moodle_download,
    moodle_worksheet,
)
from test_autograder_cli import run

from autograder.course.config import ConfigError, parse_toml
from autograder.course.criteria import required_ids
from autograder.grading import pipeline
from autograder.wire.results import CriterionResult, SubmissionResult

pytestmark = pytest.mark.usefixtures("every_criterion_passes")


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


def _pending_when_unclear(monkeypatch) -> None:
    """Every criterion passes, except that an «unclear» is_error text leaves nivel2.is_error_fallback to a person."""
    ids = required_ids()

    def graded(loaded, course, **kwargs):
        unclear = any(UNCLEAR in cell.source for cell in loaded.cells)
        criteria = [
            CriterionResult(c, None, None, 1.0, "no pudo decidir", review=True)
            if unclear and c == "nivel2.is_error_fallback"
            else CriterionResult(c, True, 1.0, 1.0, "bien")
            for c in ids
        ]
        return SubmissionResult.from_criteria(loaded.name, criteria, seed=course.seed)

    monkeypatch.setattr(pipeline, "grade_loaded", graded)


@pytest.mark.parametrize("lms", ["moodle", "canvas"])
def test_a_late_learner_pending_review_keeps_their_cell_until_decided_then_loses_the_penalty_once(
    tmp_path, monkeypatch, lms
):
    # Late (Moodle's status, Canvas's _LATE_) and with a criterion left to a person: no grade yet, so nothing is
    # written and nothing taken off; listed as both. Once decided, the grade goes with the penalty, once.
    _pending_when_unclear(monkeypatch)
    people = [replace(p, kind="unclear" if p.late else "script") for p in learners()[:7]]
    (late_one,) = [p for p in people if p.late]
    out = tmp_path / "resultados"
    if lms == "moodle":
        download, sheet = moodle_download(tmp_path / "d.zip", people), moodle_worksheet(tmp_path / "hoja.csv", people)
        sheet_args = ["--worksheet", sheet]
        shown_as, grade_col, full = late_one.full, "Calificación", ("100,00", "90,00")
    else:
        download, sheet = canvas_download(tmp_path / "d.zip", people), canvas_gradebook(tmp_path / "libro.csv", people)
        sheet_args = ["--gradebook", sheet, "--column", "Lección 3"]
        shown_as, grade_col, full = f"{late_one.last}, {late_one.first}", CANVAS_COLUMN, ("10.00", "9.00")
    code, _, err = run("grade", download, "--out", out, "--seed", "4", *course_file(tmp_path, "10"))
    assert code == 0, err

    def export(name: str) -> tuple[str, dict[str, dict[str, str]]]:
        sent = tmp_path / f"{name}.csv"
        extra = ["--feedback-zip", tmp_path / f"{name}.zip"] if lms == "moodle" else []
        code, said, err = run("export", lms, out / "results.json", *sheet_args, "--out", sent, *extra)
        assert code == 0, err
        with sent.open(encoding="utf-8-sig") as f:
            table = list(csv.DictReader(f))
        key = "Identificador" if lms == "moodle" else "ID"
        return said, {r[key].rpartition(" ")[2]: r for r in table if r[key]}

    said, rows = export("antes")
    mine = rows[str(late_one.ident)]
    assert mine[grade_col] == ""  # as the LMS had it: no grade to take the penalty off
    assert f"Pendientes de revisión, sin nota (1): «{shown_as}»" in said
    assert f"Entregaron tarde, según el LMS (1): «{shown_as}»" in said
    assert "Con un 10 % menos" not in said  # nobody was written with the penalty
    # ... and yet not spared: the penalty waits for the decision, and the export says so.
    later = "Entregaron tarde y tienen puntos pendientes de revisión: su celda queda como estaba y el 10 % se restará"
    assert f"{later} de la nota que se exporte cuando se decida (1): «{shown_as}»." in said
    by_hand = (LOCKED, GRADED_BY_HAND) if lms == "moodle" else ()  # Moodle rows the instructor protected
    assert all(
        rows[str(p.ident)][grade_col] == full[0] for i, p in enumerate(people) if not p.late and i not in by_hand
    )
    if lms == "moodle":
        assert mine["Comentarios de retroalimentación"] == ""
        assert f"({len(people) - 1} alumnos)" in said  # the feedback zip waits for the decision

    code, _, err = run("review", out, "--csv", tmp_path / "revision.csv")
    assert code == 0, err
    with (tmp_path / "revision.csv").open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        fields, table = reader.fieldnames, list(reader)
    assert [r["learner"] for r in table] == [
        f"{(late_one.full if lms == 'moodle' else late_one.canvas_key)} ({late_one.ident})"
    ]
    table[0].update(decision="pass", reviewer="Prof. Ruiz", reason="Dice que no se sabe.")
    with (tmp_path / "revision.csv").open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(table)
    code, _, err = run("review", out, "--apply", tmp_path / "revision.csv")
    assert code == 0, err
    with (out / "grades.csv").open(encoding="utf-8") as f:
        row = {r["learner_id"]: r for r in csv.DictReader(f)}[str(late_one.ident)]
    assert row["total"] == row["max_score"]  # grades.csv: the grade without the penalty, as for everyone

    said, rows = export("despues")
    assert rows[str(late_one.ident)][grade_col] == full[1]  # 10 % off full marks, once
    assert f"(1): «{shown_as}»" in said.split("Con un 10 % menos")[1].splitlines()[0]
    assert "Pendientes de revisión" not in said and later not in said
    if lms == "moodle":
        assert rows[str(late_one.ident)]["Comentarios de retroalimentación"].endswith("se restó un 10 %.")
        assert f"({len(people)} alumnos)" in said
