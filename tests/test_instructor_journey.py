"""The instructor's journey, walked as docs/guia-docente.md's «El trabajo, paso a paso» says, on a class of 34.

Steps 2 to 6 of the guide, one test per LMS: the LMS's download (Moodle's wrapped in «Tarea 4/» inside a zip,
as the guide's example; Canvas's with its gradebook, for the names) → ``grade`` → ``review`` (the texts left to
a person, then a regrade request) → ``review --apply`` → another file chosen for one learner (``--choose``) →
``export`` → one learner resubmits → ``grade`` that one into the same folder with
``--force`` → ``export`` again. Each seam is checked where a grade could be lost: every graded learner's
grade in the LMS file is their grade in grades.csv, a decided criterion is decided in every output, the
LMS file's other cells are as the LMS wrote them, a locked or hand-written grade stays, and no learner or
feedback file is lost on the way.
"""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import pytest
from journey_class import (
    CANVAS_COLUMN,
    GRADED_BY_HAND,
    LOCKED,
    Learner,
    canvas_download,
    canvas_gradebook,
    learners,
    moodle_download,
    moodle_worksheet,
)
from test_autograder_cli import run as autograder  # the command, as a person types it

pytestmark = pytest.mark.slow  # a class of 34 graded for real, twice

SEED = "2026"
UNCLEAR_WORDS = "no pudo decidir"
"""How the grader says it left a criterion to a person: a decided one's page no longer says it."""


def grades_csv(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open(encoding="utf-8") as f:
        return {row["learner_id"]: row for row in csv.DictReader(f)}


def read_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def fill(revision: Path, decision: str, reason: str) -> int:
    """Every row of a review CSV decided so; the rows filled."""
    with revision.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        fields, rows = reader.fieldnames, list(reader)
    for row in rows:
        row.update(decision=decision, reviewer="Prof. Ruiz", reason=reason)
    with revision.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


def number(cell: str) -> float:
    return float(cell.replace(",", "."))


class LMS:
    """What the journey needs of one LMS: its download, its file to fill and how a grade reads in it."""

    def __init__(self, name: str, tmp: Path, people: list[Learner]) -> None:
        self.name, self.tmp, self.people = name, tmp, people
        if name.startswith("moodle"):
            self.download = moodle_download(tmp / "descarga.zip", people, wrapped=True)
            self.sheet = moodle_worksheet(tmp / "Calificaciones.csv", people, lang=name.rpartition("_")[2])
        else:
            self.download = canvas_download(tmp / "submissions.zip", people)
            self.sheet = canvas_gradebook(tmp / "libro.csv", people)

    def download_of(self, person: Learner, path: Path) -> Path:
        """One learner's files as the LMS's download gives them."""
        make = moodle_download if self.name.startswith("moodle") else canvas_download
        return make(path, [person])

    def resubmission(self, person: Learner, path: Path) -> Path:
        """One learner's new upload, downloaded as the LMS gives it."""
        again = Learner(person.first, person.last, person.ident, "solved")
        make = moodle_download if self.name.startswith("moodle") else canvas_download
        return make(path, [again])

    def export(self, results: Path, out: Path) -> tuple[int, str, str]:
        if self.name.startswith("moodle"):
            zipped = out.with_suffix(".zip")
            return autograder(
                "export", "moodle", results, "--worksheet", self.sheet, "--out", out, "--feedback-zip", zipped
            )
        return autograder("export", "canvas", results, "--gradebook", self.sheet, "--column", "Lección 3", "--out", out)

    def grades(self, written: Path) -> tuple[dict[str, str], list[int]]:
        """Learner id -> the cell of the assignment's grade; and the columns the export may change."""
        header, rows = read_rows(written)
        if self.name.startswith("moodle"):
            grade = header.index("Calificación" if self.name.endswith("es") else "Grade")
            comment = header.index(
                "Comentarios de retroalimentación" if self.name.endswith("es") else "Feedback comments"
            )
            return {row[0].rpartition(" ")[2]: row[grade] for row in rows}, [grade, comment]
        column = header.index(CANVAS_COLUMN)
        return {row[1]: row[column] for row in rows[1:]}, [column]

    @property
    def top(self) -> float:
        """Full marks in the LMS file: the worksheet's «Calificación máxima», Canvas's «Points Possible»."""
        return 100.0 if self.name.startswith("moodle") else 10.0


@pytest.mark.parametrize("lms_name", ["moodle_es", "moodle_en", "canvas"])
def test_the_instructors_journey_loses_no_grade_between_the_steps(tmp_path, lms_name, monkeypatch):
    monkeypatch.chdir(tmp_path)
    people = learners()
    lms = LMS(lms_name, tmp_path, people)
    out = tmp_path / "resultados"

    # 3. Grade the download as the LMS gave it (Canvas's with its gradebook, for the learners' names).
    named = ["--gradebook", lms.sheet] if lms_name == "canvas" else []
    code, _, err = autograder("grade", lms.download, "--out", out, "--seed", SEED, *named)
    assert code == 0, err
    graded = grades_csv(out)
    assert sorted(graded) == sorted(str(p.ident) for p in people)  # one row each, the LMS's id read
    if lms_name == "canvas":  # as the gradebook names them, not as Canvas's download («garcíanúñezana»)
        assert {k: row["learner"] for k, row in graded.items()} == {
            str(p.ident): f"{p.last}, {p.first}" for p in people
        }
    for person in people:  # the final notebook, never JupyterLab's copy of an earlier attempt
        assert "Copy1" not in graded[str(person.ident)]["submission"]
    pending = [p for p in people if graded[str(p.ident)]["status"] == "pending"]
    assert {p.kind for p in pending} == {"unclear"}

    # 4. Review: what was left to a person, then a regrade request on a decided criterion.
    code, _, err = autograder("review", out)
    assert code == 0, err
    assert fill(tmp_path / "revision.csv", "pass", "Dice que no se sabe qué pasó con el correo.") == len(pending)
    code, _, err = autograder("review", out, "--apply", tmp_path / "revision.csv")
    assert code == 0, err
    asked = next(p for p in people if p.kind == "deletes")
    request = tmp_path / "recorreccion.csv"
    code, _, err = autograder(
        "review", out, "--criterion", "nivel2.tool_result_paired", "--learner", str(asked.ident), "--csv", request
    )
    assert code == 0, err
    assert fill(request, "1", "Recorrección pedida: el tool_result está, aunque sin is_error.") == 1
    code, _, err = autograder("review", out, "--apply", request)
    assert code == 0, err
    # 4b. Another file for one learner: the copy was the attempt they meant (the instructor knows it).
    chooser = next(p for p in people if p.kind == "with_copy")
    theirs = lms.download_of(chooser, tmp_path / "elegido.zip")
    code, _, err = autograder(
        "grade", theirs, "--out", out, "--force", "--choose", f"{chooser.ident}=04_ejercicios-Copy1.ipynb"
    )
    assert code == 0, err
    chosen = grades_csv(out)[str(chooser.ident)]
    assert (
        chosen["submission"].endswith("04_ejercicios-Copy1.ipynb") and "lo eligió quien califica" in chosen["warnings"]
    )
    assert number(chosen["total"]) < number(graded[str(chooser.ident)]["total"])  # an earlier attempt: fewer points

    decided = grades_csv(out)
    assert all(decided[str(p.ident)]["status"] != "pending" for p in people)
    assert number(decided[str(asked.ident)]["total"]) == number(graded[str(asked.ident)]["total"]) + 1
    pages = {
        s["learner_id"]: out / s["feedback"] for s in json.loads((out / "results.json").read_text())["submissions"]
    }
    for person in [*pending, asked]:  # decided everywhere: results.json, grades.csv and the learner's page
        page = pages[str(person.ident)].read_text(encoding="utf-8")
        assert "Prof. Ruiz" in page and UNCLEAR_WORDS not in page, person.full

    # 5. Export to the LMS.
    written = tmp_path / "subir.csv"
    code, said, err = lms.export(out / "results.json", written)
    assert code == 0, err
    before_header, before_rows = read_rows(lms.sheet)
    after_header, after_rows = read_rows(written)
    cells, columns = lms.grades(written)
    assert after_header == before_header and len(after_rows) == len(before_rows)
    for old, new in zip(before_rows, after_rows, strict=True):  # nothing else of the LMS's file changed
        assert [c for i, c in enumerate(old) if i not in columns] == [c for i, c in enumerate(new) if i not in columns]
    for i, person in enumerate(people):
        cell = cells[str(person.ident)]
        if lms_name.startswith("moodle") and i in (LOCKED, GRADED_BY_HAND):
            assert cell == before_rows[i][columns[0]], person.full  # locked, or graded by hand: never overwritten
            continue
        assert cell, person.full  # decided learners are exported too
        row = decided[str(person.ident)]
        assert number(cell) == pytest.approx(number(row["total"]) / number(row["max_score"]) * lms.top, abs=0.005)
    assert "Pendientes de revisión" not in said and "Pending review" not in said
    if lms_name.startswith("moodle"):
        with zipfile.ZipFile(written.with_suffix(".zip")) as feedback:
            folders = {name.split("/")[0] for name in feedback.namelist()}
        assert len(folders) == len(people)  # every graded learner's page, the decided ones included

    # 6. One learner resubmits: graded into the same folder, with the same seed and --force.
    again = next(p for p in people if p.kind == "turns_reset")
    feedback_files = sorted(p.name for p in (out / "feedback").iterdir())
    one = lms.resubmission(again, tmp_path / "reentrega.zip")
    code, _, err = autograder("grade", one, "--out", out, "--seed", SEED, "--force")
    assert code == 0, err
    regraded = grades_csv(out)
    assert sorted(regraded) == sorted(decided)  # the class is kept
    for key, row in decided.items():
        if key != str(again.ident):  # grades and decisions of everyone else untouched (the class's copy flags
            # may name the resubmission now: they are information, compared over the whole class)
            assert {k: v for k, v in regraded[key].items() if k != "flags"} == {
                k: v for k, v in row.items() if k != "flags"
            }
    assert number(regraded[str(again.ident)]["total"]) == number(regraded[str(again.ident)]["max_score"])
    assert sorted(p.name for p in (out / "feedback").iterdir()) == feedback_files

    written_again = tmp_path / "subir2.csv"
    code, _, err = lms.export(out / "results.json", written_again)
    assert code == 0, err
    cells_again, _ = lms.grades(written_again)
    for person in people:
        if person is again:
            assert number(cells_again[str(person.ident)]) == pytest.approx(lms.top)
        else:
            assert cells_again[str(person.ident)] == cells[str(person.ident)], person.full
    # The chosen file is still the one graded after the resubmission's regrade.
    assert grades_csv(out)[str(chooser.ident)]["submission"].endswith("04_ejercicios-Copy1.ipynb")
