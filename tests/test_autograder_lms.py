"""The LMS round trip: learners named from Moodle's and Canvas's downloads, grades back into their CSVs.

The formats, as the LMSes themselves write and read them:

* Moodle's «Descargar todas las entregas» (mod/assign/locallib.php ``download_submissions``): each file
  under ``clean_filename(<full name> . '_' . <participant id> . '_' . <subtype> . '_' . <type> . '_')``,
  i.e. ``Ana García_101_assignsubmission_file_/…`` and ``…_assignsubmission_onlinetext_/onlinetext.html``
  (one participant, two folders); without «descargar en carpetas» the same prefix on each file.
  With anonymous grading the name is mod_assign's ``hiddenuser`` string: «Participant» / «Participante».
* Moodle's grading worksheet (mod/assign/gradingtable.php when downloading; read back by
  mod/assign/feedback/offline/importgradeslib.php ``init()``): columns found by their header strings,
  ``get_string('recordid', 'assign')`` «Identifier» / «Identificador», ``get_string('grade')``
  «Grade» / «Calificación», ``get_string('lastmodifiedgrade', 'assign')`` «Last modified (grade)» /
  «Última modificación (calificación)», ``maxgrade`` «Maximum grade» / «Calificación máxima», and
  assignfeedback_comments' «Feedback comments» / «Comentarios de retroalimentación»; rows identified
  «Participant N» / «Participante N» (mod_assign ``hiddenuser`` + the participant id of the download).
* Moodle's «Subir múltiples archivos de retroalimentación en un zip»
  (mod/assign/feedback/file/importziplib.php): the participant id is the second ``_`` part of the path,
  so the folders go back as downloaded.
* Canvas's «Descargar entregas» zip (canvas-lms ``lib/content_zipper.rb``: ``get_filename`` joins the
  sortable name, «LATE» when late and the user id, ``sanitize_file_name`` keeps only word characters,
  so «García, Ana» is «garcíaana»; ``add_upload_submission`` appends ``_<attachment id>_<file name>``,
  ``add_text_or_url`` writes ``<name>_<id>_text.html``; ``add_attachment_to_zip`` makes a repeated name
  unique, as a resubmitted file's Canvas ``-1``): ``<sortable name>_[LATE_]<user id>_<id>_<original name>``.
* Canvas's gradebook export (guide «How do I export grades in the Gradebook?»): ``Student, ID, SIS User
  ID, SIS Login ID, Section``, one column per assignment «Name (assignment id)», a «Points Possible» row,
  read-only total columns; the ``ID`` is the user id of the submissions zip.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from autograder.classrun import run as class_run
from autograder.classrun.shards import plan
from autograder.cli import main
from autograder.course.catalogue import text
from autograder.course.criteria import required_ids
from autograder.intake.collect import collect_submissions
from autograder.reporting import lms
from autograder.reporting.lms import ExportError, export_canvas, export_moodle, read_sheet, shown
from autograder.reporting.report import ReportEntry, results_document
from autograder.wire.results import CriterionResult, SubmissionResult

DATA = Path(__file__).parent / "data" / "lms"

MOODLE_ZIP = {
    # A learner with a notebook and an online text: one learner, two folders.
    "Ana García Núñez_101_assignsubmission_file_/04_reanudar.ipynb": "{}",
    "Ana García Núñez_101_assignsubmission_onlinetext_/onlinetext.html": "<p>hola</p>",
    # A late submission (Moodle marks it in the worksheet's status, not in the folder).
    "José Pérez Ibáñez_102_assignsubmission_file_/entrega.py": "x = 1\n",
    "José Pérez Ibáñez_102_assignsubmission_file_/notas.pdf": "%PDF",
    "Íñigo Ñúñez_103_assignsubmission_file_/04_reanudar.ipynb": "{}",
    # 104 (María) handed in nothing: no folder, but a row in the worksheet.
}

CANVAS_ZIP = {
    "garcíaana_4001_9001_04_reanudar.ipynb": "{}",
    # Late and on time, one user: one learner.
    "perezibanezjose_LATE_4002_9002_04_reanudar.ipynb": "{}",
    "perezibanezjose_4002_9002_apuntes.py": "x = 1\n",
    # A resubmission: Canvas keeps the latest, its original name with «-1».
    "nunezinigo_4003_9013_04_reanudar-1.ipynb": "{}",
    "nunezinigo_4003_text.html": "<p>entregado</p>",  # a text entry of the same user
}


def _zip(path: Path, members: dict[str, str], top: str = "") -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, content in members.items():
            zf.writestr(top + name, content)
    return path


def _people(paths: list[Path]) -> list[tuple[str | None, str | None, list[str]]]:
    with collect_submissions(paths) as intake:
        return [(s.label, s.ident, sorted(f.name for f in s.files)) for s in intake.learners]


@pytest.mark.parametrize("top", ["", "Tarea 3-101/"])
def test_moodle_download_names_each_learner_once(tmp_path: Path, top: str) -> None:
    people = _people([_zip(tmp_path / "moodle.zip", MOODLE_ZIP, top)])
    assert people == [
        ("Ana García Núñez", "101", ["04_reanudar.ipynb"]),
        ("José Pérez Ibáñez", "102", ["entrega.py"]),
        ("Íñigo Ñúñez", "103", ["04_reanudar.ipynb"]),
    ]


def test_moodle_download_without_folders_and_anonymous(tmp_path: Path) -> None:
    members = {
        "Ana García Núñez_101_assignsubmission_file_04_reanudar.ipynb": "{}",
        "Ana García Núñez_101_assignsubmission_file_extra.py": "x = 1\n",
        "Participante_205_assignsubmission_file_04_reanudar.ipynb": "{}",
    }
    assert _people([_zip(tmp_path / "m.zip", members)]) == [
        (
            "Ana García Núñez",
            "101",
            [
                "Ana García Núñez_101_assignsubmission_file_04_reanudar.ipynb",
                "Ana García Núñez_101_assignsubmission_file_extra.py",
            ],
        ),
        ("Participante", "205", ["Participante_205_assignsubmission_file_04_reanudar.ipynb"]),
    ]


def test_moodle_download_unzipped_in_a_folder(tmp_path: Path) -> None:
    zipped = _zip(tmp_path / "moodle.zip", MOODLE_ZIP)
    folder = tmp_path / "entregas"
    with zipfile.ZipFile(zipped) as zf:
        zf.extractall(folder)
    assert [(label, ident) for label, ident, _ in _people([folder])] == [
        ("Ana García Núñez", "101"),
        ("José Pérez Ibáñez", "102"),
        ("Íñigo Ñúñez", "103"),
    ]


def test_canvas_zip_late_and_resubmitted_files_are_their_learners(tmp_path: Path) -> None:
    people = _people([_zip(tmp_path / "submissions.zip", CANVAS_ZIP)])
    assert sorted(people) == [
        ("garcíaana", "4001", ["garcíaana_4001_9001_04_reanudar.ipynb"]),
        ("nunezinigo", "4003", ["nunezinigo_4003_9013_04_reanudar-1.ipynb"]),
        (
            "perezibanezjose",
            "4002",
            [
                "perezibanezjose_4002_9002_apuntes.py",
                "perezibanezjose_LATE_4002_9002_04_reanudar.ipynb",
            ],
        ),
    ]
    with collect_submissions([tmp_path / "submissions.zip"]) as intake:
        others = {s.ident: [o.parts[-1] for o in s.others] for s in intake.learners}
        assert others["4003"] == ["nunezinigo_4003_text.html"] and intake.warnings == []


def test_plain_folders_are_not_given_an_lms_id(tmp_path: Path) -> None:
    for who in ("ana_12", "jose"):
        (tmp_path / "clase" / who).mkdir(parents=True)
        (tmp_path / "clase" / who / "04_reanudar.ipynb").write_text("{}")
    # A folder a person named is its learner by its name (the reports' fallback), never an id guessed from it.
    assert [(label, ident) for label, ident, _ in _people([tmp_path / "clase"])] == [(None, None), (None, None)]


def test_the_reports_plan_carries_name_and_id(tmp_path: Path) -> None:
    zipped = _zip(tmp_path / "moodle.zip", MOODLE_ZIP)
    with collect_submissions([zipped]) as intake:
        planned = plan(intake.learners, [zipped], None)
    assert [(p.label, p.learner_id, p.named_by_intake) for p in planned] == [
        ("Ana García Núñez", "101", True),
        ("José Pérez Ibáñez", "102", True),
        ("Íñigo Ñúñez", "103", True),
    ]


# --- export -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lms_name", ["moodle", "canvas"])
def test_export_takes_the_grade_folder_or_its_results_file(tmp_path: Path, lms_name: str, capsys) -> None:
    # review takes the folder grade wrote; export takes it too (an instructor who reviewed «res» exports «res»),
    # as well as the results file itself, renamed or not. A folder that does not exist is named, not «res».
    canvas_class = [("garcíaana", "4001", 6.0), ("perezibanezjose", "4002", 8.0), ("nunezinigo", "4003", 2.0)]
    results = _results(tmp_path, MOODLE_CLASS if lms_name == "moodle" else canvas_class)
    renamed = tmp_path / "copia.json"
    shutil.copy(results, renamed)
    sheet = tmp_path / "hoja.csv"
    shutil.copy(DATA / ("moodle_worksheet_es.csv" if lms_name == "moodle" else "canvas_gradebook.csv"), sheet)
    canvas = ["--gradebook", str(sheet), "--column", "Lección 3"]
    by_lms = ["--worksheet", str(sheet)] if lms_name == "moodle" else canvas
    written = []
    for n, given in enumerate((tmp_path, results, renamed)):
        out, pages = tmp_path / f"subir{n}.csv", tmp_path / f"retro{n}.zip"
        zipped = ["--feedback-zip", str(pages)] if lms_name == "moodle" else []
        assert main(["export", lms_name, str(given), *by_lms, *zipped, "--out", str(out)]) == 0, capsys.readouterr()
        written.append(out.read_bytes())
        if zipped:  # the learners' pages, read from beside the results whichever way they were named
            with zipfile.ZipFile(pages) as archive:
                written.append(sorted((i.filename, archive.read(i)) for i in archive.infolist()))
    assert written and all(w == written[0] for w in written[::2]) and all(w == written[1] for w in written[1::2])
    assert lms_name == "canvas" or len(written[1]) == len(MOODLE_CLASS)
    capsys.readouterr()
    assert main(["export", lms_name, str(tmp_path / "no-existe"), *by_lms, "--out", str(tmp_path / "x.csv")]) == 2
    assert f"«{tmp_path / 'no-existe' / 'results.json'}»" in capsys.readouterr().err
    assert main(["export", lms_name, str(tmp_path / "otra.json"), *by_lms, "--out", str(tmp_path / "x.csv")]) == 2
    assert f"«{tmp_path / 'otra.json'}»" in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()


def _results(tmp_path: Path, people: list[tuple[str, str, float | None]]) -> Path:
    """A results.json as ``autograder grade`` writes it; a None score is a criterion left to a person."""
    entries = []
    reviews = {}
    for n, (name, ident, points) in enumerate(people):
        result = SubmissionResult.from_criteria(
            "04_reanudar.ipynb",
            [CriterionResult(id="c1", passed=bool(points), score=points or 0.0, max_score=8.0, feedback="")],
        )
        entries.append(ReportEntry(result=result, source=f"x.zip/{name}", name=f"p{n}", learner=name, learner_id=ident))
        if points is None:
            reviews[n] = True
    document = results_document(entries)
    for n in reviews:
        document["submissions"][n]["criteria"][0].update(passed=None, score=None, review=True)
    (tmp_path / "feedback").mkdir(exist_ok=True)
    for n in range(len(people)):
        (tmp_path / "feedback" / f"p{n}.html").write_text(f"<p>{n}</p>", encoding="utf-8")
    path = tmp_path / "results.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


MOODLE_CLASS = [("Ana García Núñez", "101", 6.0), ("José Pérez Ibáñez", "102", 8.0), ("Íñigo Ñúñez", "103", 2.0)]


@pytest.mark.parametrize(
    ("sheet", "grades", "comment"),
    [
        ("moodle_worksheet_es.csv", ["7,50", "10,00", "2,50"], "Nota automática: 7,50 sobre 10."),
        ("moodle_worksheet_en.csv", ["75.00", "100.00", "25.00"], "Automatic grade: 75.00 out of 100."),
    ],
)
def test_moodle_worksheet_filled_and_the_rest_kept(tmp_path: Path, sheet: str, grades: list[str], comment: str) -> None:
    lang = "es" if sheet.endswith("_es.csv") else "en"
    results = _results(tmp_path, MOODLE_CLASS)
    out = tmp_path / "out.csv"
    summary = export_moodle(results, DATA / sheet, out, lang)
    before, after = (DATA / sheet).read_bytes(), out.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf") == before.startswith(b"\xef\xbb\xbf")
    old_lines, new_lines = before.splitlines(keepends=True), after.splitlines(keepends=True)
    assert len(old_lines) == len(new_lines)
    # The header and the row of the learner with no result are byte for byte as they were.
    assert new_lines[0] == old_lines[0] and new_lines[4] == old_lines[4]
    rows = list(csv.reader(io.StringIO(after.decode("utf-8-sig"))))
    old_rows = list(csv.reader(io.StringIO(before.decode("utf-8-sig"))))
    assert [r[4] for r in rows[1:4]] == grades
    assert rows[1][9].startswith(comment)
    for old, new in zip(old_rows, rows, strict=True):  # no other column moved
        assert [c for i, c in enumerate(old) if i not in (4, 9)] == [c for i, c in enumerate(new) if i not in (4, 9)]
    assert summary.written == [n for n, _, _ in MOODLE_CLASS]
    assert summary.no_result == ["María Sin Entrega"] and summary.not_in_sheet == []


def test_moodle_semicolon_sheet_keeps_its_delimiter(tmp_path: Path) -> None:
    src = (DATA / "moodle_worksheet_es.csv").read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(src)))
    sheet = tmp_path / "excel.csv"
    with sheet.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, delimiter=";").writerows(rows)
    out = tmp_path / "out.csv"
    export_moodle(_results(tmp_path, MOODLE_CLASS), sheet, out)
    written = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8")), delimiter=";"))
    assert [r[4] for r in written[1:4]] == ["7,50", "10,00", "2,50"] and len(written[0]) == 10


def test_pending_and_absent_learners_are_reported_not_guessed(tmp_path: Path) -> None:
    people = [("Ana García Núñez", "101", None), ("José Pérez Ibáñez", "102", 8.0), ("Luis Nuevo", "150", 4.0)]
    out = tmp_path / "out.csv"
    summary = export_moodle(_results(tmp_path, people), DATA / "moodle_worksheet_es.csv", out)
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert rows[1][4] == "" and rows[1][9] == ""  # left as it was: a person decides
    assert summary.pending == ["Ana García Núñez"]
    assert summary.not_in_sheet == ["Luis Nuevo"]
    assert summary.no_result == ["Íñigo Ñúñez", "María Sin Entrega"]


def test_moodle_feedback_zip_has_the_downloaded_folder_names(tmp_path: Path) -> None:
    people = [*MOODLE_CLASS, ("Ana_Otra/../x", "105", 1.0), ("Pendiente", "106", None)]
    results = _results(tmp_path, people)
    zipped = tmp_path / "feedback.zip"
    summary = export_moodle(results, DATA / "moodle_worksheet_es.csv", tmp_path / "o.csv", feedback_zip=zipped)
    assert summary.zipped == [n for n, _, _ in people[:4]]  # the pending learner gets no page yet
    with zipfile.ZipFile(zipped) as zf:
        names = zf.namelist()
        assert zf.read(names[0]) == b"<p>0</p>"
    assert names == [
        "Ana García Núñez_101_assignsubmission_file_/p0.html",
        "José Pérez Ibáñez_102_assignsubmission_file_/p1.html",
        "Íñigo Ñúñez_103_assignsubmission_file_/p2.html",
        "Ana Otra .. x_105_assignsubmission_file_/p3.html",  # a name is never a path
    ]
    # What Moodle's importer reads: the participant id, second of the «_» parts.
    assert [n.split("_", 4)[1] for n in names] == ["101", "102", "103", "105"]


def test_a_refused_export_writes_neither_csv_nor_zip(tmp_path: Path) -> None:
    results = _results(tmp_path, MOODLE_CLASS)
    sheet = _bad(tmp_path, SPANISH.replace(b"Participante 103", b"Participante 102"))
    out, zipped = tmp_path / "o.csv", tmp_path / "f.zip"
    with pytest.raises(ExportError):
        export_moodle(results, sheet, out, feedback_zip=zipped)
    assert not out.exists() and not zipped.exists()
    for page in (tmp_path / "feedback").iterdir():
        page.unlink()  # no page to send: the zip is refused, and so the worksheet is not written either
    with pytest.raises(ExportError) as caught:
        export_moodle(results, DATA / "moodle_worksheet_es.csv", out, feedback_zip=zipped)
    assert caught.value.notice.key == "lms.zip_empty"
    assert not out.exists() and not zipped.exists()


def test_canvas_gradebook_fills_one_column(tmp_path: Path) -> None:
    people = [("garcíaana", "4001", 6.0), ("perezibanezjose", "4002", 8.0), ("nunezinigo", "4003", 2.0)]
    out = tmp_path / "out.csv"
    summary = export_canvas(_results(tmp_path, people), DATA / "canvas_gradebook.csv", "Lección 3", out)
    before = list(csv.reader(io.StringIO((DATA / "canvas_gradebook.csv").read_text(encoding="utf-8"))))
    after = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [r[6] for r in after[2:5]] == ["6.00", "8.00", "2.00"]
    for old, new in zip(before, after, strict=True):
        assert old[:6] == new[:6] and old[7:] == new[7:]  # every other assignment untouched
    old_lines = (DATA / "canvas_gradebook.csv").read_text(encoding="utf-8").splitlines()
    new_lines = out.read_text(encoding="utf-8").splitlines()
    assert new_lines[:2] == old_lines[:2] and new_lines[5:] == old_lines[5:]
    assert summary.no_result == ["Sin Entrega, María", "Student, Test"]
    # On the console, each «Apellido, Nombre» stays one name.
    assert "(2): «Sin Entrega, María», «Student, Test»." in "\n".join(shown(summary, "es"))


@pytest.mark.parametrize(
    ("column", "key"),
    [("Lección 9", "lms.column_missing"), ("Lección", "lms.column_ambiguous")],
)
def test_canvas_column_must_name_one_assignment(tmp_path: Path, column: str, key: str) -> None:
    out = tmp_path / "out.csv"
    with pytest.raises(ExportError) as caught:
        export_canvas(_results(tmp_path, [("a", "4001", 1.0)]), DATA / "canvas_gradebook.csv", column, out)
    assert caught.value.notice.key == key and "línea 1" in str(caught.value)
    assert not out.exists()


def _bad(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "hoja.csv"
    path.write_bytes(content)
    return path


SPANISH = (DATA / "moodle_worksheet_es.csv").read_bytes()


@pytest.mark.parametrize(
    ("content", "key", "line"),
    [
        # Saved from Excel in Windows-1252: «Núñez» is not UTF-8.
        (SPANISH.decode("utf-8-sig").encode("cp1252"), "lms.sheet_encoding", 1),
        (SPANISH.replace("Íñigo Ñúñez".encode(), "Íñigo Ñúñez".encode("cp1252")), "lms.sheet_encoding", 4),
        (SPANISH.replace(b"Participante 103", b"Participante 102"), "lms.sheet_duplicate", 4),
        (SPANISH.replace(b'"Participante 102"', b"Jos\xc3\xa9"), "lms.bad_identifier", 3),
        (SPANISH.replace("Calificación máxima".encode(), b"Max"), "lms.column_missing", 1),
        (SPANISH.replace(b"Participante 10", b"Participante 90"), "lms.no_match", None),  # another assignment
        (SPANISH.replace(b'"10,00",S', b'"diez",S', 1), "lms.bad_maximum", 2),
    ],
)
def test_bad_worksheet_names_file_and_line_and_writes_nothing(
    tmp_path: Path, content: bytes, key: str, line: int | None
) -> None:
    sheet = _bad(tmp_path, content)
    out = tmp_path / "out.csv"
    with pytest.raises(ExportError) as caught:
        export_moodle(_results(tmp_path, MOODLE_CLASS), sheet, out)
    message = str(caught.value)
    assert caught.value.notice.key == key and "hoja.csv" in message
    if line is not None:
        assert f"línea {line}" in message
    assert not out.exists()


def test_cli_export_moodle_and_canvas(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = _results(tmp_path, [*MOODLE_CLASS, ("garcíaana", "4001", 8.0)])
    sheet = tmp_path / "hoja.csv"
    shutil.copy(DATA / "moodle_worksheet_es.csv", sheet)
    code = main(
        [
            "export",
            "moodle",
            str(results),
            "--worksheet",
            str(sheet),
            "--out",
            str(tmp_path / "o.csv"),
            "--feedback-zip",
            str(tmp_path / "f.zip"),
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0 and (tmp_path / "f.zip").exists()
    assert text("lms.no_result", "es", n=1, names="«María Sin Entrega»") in printed
    assert text("lms.not_in_sheet", "es", n=1, names="«garcíaana»") in printed
    # The input is never the output.
    assert main(["export", "moodle", str(results), "--worksheet", str(sheet), "--out", str(sheet)]) == 2
    assert sheet.read_bytes() == (DATA / "moodle_worksheet_es.csv").read_bytes()
    code = main(
        [
            "export",
            "canvas",
            str(results),
            "--gradebook",
            str(DATA / "canvas_gradebook.csv"),
            "--column",
            "Leccion 7",
            "--out",
            str(tmp_path / "c.csv"),
        ]
    )
    assert code == 2 and "canvas_gradebook.csv" in capsys.readouterr().err
    assert not (tmp_path / "c.csv").exists()


def test_read_sheet_keeps_multiline_cells(tmp_path: Path) -> None:
    sheet = _bad(tmp_path, b'Identifier,Feedback comments\r\n"Participant 1","two\r\nlines"\r\nParticipant 2,x\r\n')
    records = read_sheet(sheet).records
    assert [(r.line, r.cells) for r in records] == [
        (1, ["Identifier", "Feedback comments"]),
        (2, ["Participant 1", "two\r\nlines"]),
        (4, ["Participant 2", "x"]),
    ]


# --- the round trip through `autograder grade` ------------------------------------------------


def _fake_grading(learners, course, *, jobs, progress):
    """The pipeline's stand-in: every criterion passes when the learner's first file says «correcta»."""
    ids = required_ids()
    results = []
    for learner in learners:
        found = learner.files[0]
        passed = "correcta" in Path(found.file).read_text(encoding="utf-8")
        criteria = [CriterionResult(c, passed, 1.0 if passed else 0.0, 1.0, f"retro {c}") for c in ids]
        results.append(SubmissionResult.from_criteria(found.name, criteria))
    return results


@pytest.mark.parametrize(
    ("members", "named", "sheet", "export"),
    [
        (
            {**MOODLE_ZIP, "Íñigo Ñúñez_103_assignsubmission_file_/04_reanudar.ipynb": "# correcta"},
            [("Ana García Núñez", "101"), ("José Pérez Ibáñez", "102"), ("Íñigo Ñúñez", "103")],
            "moodle_worksheet_es.csv",
            ["moodle", "--worksheet"],
        ),
        (
            {**CANVAS_ZIP, "nunezinigo_4003_9013_04_reanudar-1.ipynb": "# correcta"},
            [("garcíaana", "4001"), ("nunezinigo", "4003"), ("perezibanezjose", "4002")],
            "canvas_gradebook.csv",
            ["canvas", "--column", "Lección 3", "--gradebook"],
        ),
    ],
)
def test_round_trip_names_in_every_report_and_grades_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, members: dict[str, str], named: list, sheet: str, export: list
) -> None:
    monkeypatch.setattr(class_run, "run_grading", _fake_grading)
    out = tmp_path / "out"
    assert main(["grade", str(_zip(tmp_path / "lms.zip", members)), "--out", str(out)]) == 0
    subs = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
    assert sorted((s["learner"], s["learner_id"]) for s in subs) == sorted(named)
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8")))
    assert sorted((r["learner"], r["learner_id"]) for r in rows) == sorted(named)
    summary = (out / "resumen.html").read_text(encoding="utf-8")
    for s in subs:
        assert f"<title>Retroalimentación: {s['learner']}</title>" in (out / s["feedback"]).read_text(encoding="utf-8")
        assert s["learner"] in summary
    sheet_out = tmp_path / "hoja.csv"
    assert (
        main(["export", export[0], str(out / "results.json"), *export[1:], str(DATA / sheet), "--out", str(sheet_out)])
        == 0
    )
    filled = list(csv.reader(io.StringIO(sheet_out.read_text(encoding="utf-8-sig"))))
    # Íñigo handed in the one correct answer: full marks, in the worksheet's own numbers; the others 0.
    inigo = next(r for r in filled if "Ñúñez" in ",".join(r))
    assert ("10,00" if sheet.startswith("moodle") else "8.00") in inigo


def test_pending_means_one_thing_decided_is_not_pending_and_not_graded_is_not_pending(tmp_path: Path) -> None:
    from autograder.reporting import results_json

    people = [("Ana García Núñez", "101", None), ("José Pérez Ibáñez", "102", None), ("Íñigo Ñúñez", "103", 2.0)]
    path = _results(tmp_path, people)
    document = json.loads(path.read_text(encoding="utf-8"))
    decision = {"by": "Marta", "at": "2026-01-01T00:00:00+00:00", "why": "bien razonado", "was": "pending"}
    # José's text was left to a person, who decided it (review --apply keeps the «review» mark); Íñigo's run
    # was interrupted before he was graded.
    document["submissions"][1]["criteria"][0].update(passed=True, score=8.0, decision=decision)
    document["submissions"][1]["score"] = 8.0
    document["submissions"][2].update(graded=False, score=None)
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    read = results_json.read(tmp_path)
    assert [e.learner for e in read.pending_review] == ["Ana García Núñez"]
    assert [e.learner for e in read.not_graded] == ["Íñigo Ñúñez"]
    out = tmp_path / "out.csv"
    # Exporting an interrupted run is refused unless asked for, and says how many were never graded.
    with pytest.raises(ExportError) as refused:
        export_moodle(path, DATA / "moodle_worksheet_es.csv", out)
    assert "1 alumno no se calificó" in str(refused.value) and "--partial" in str(refused.value)
    assert not out.exists()
    summary = export_moodle(path, DATA / "moodle_worksheet_es.csv", out, partial=True)
    assert summary.written == ["José Pérez Ibáñez"]
    assert summary.pending == ["Ana García Núñez"] and summary.not_graded == ["Íñigo Ñúñez"]
    said = "\n".join(shown(summary, "es"))
    assert "Pendientes de revisión, sin nota (1): «Ana García Núñez»" in said
    assert "No calificados: la corrección se interrumpió antes (1): «Íñigo Ñúñez»" in said
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert rows[2][4] == "10,00"


# --- what the instructor protected in the LMS's file ---------------------------------------------


def _sheet_with(tmp_path: Path, name: str, changes: dict[int, dict[int, str]]) -> Path:
    """A copy of a test worksheet with some cells set (row index -> column -> value), quoted as Moodle does."""
    text_ = (DATA / name).read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(text_)))
    for row, cells in changes.items():
        for column, value in cells.items():
            rows[row][column] = value
    path = tmp_path / f"con_cambios_{name}"
    with path.open("w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f, quoting=csv.QUOTE_ALL).writerows(rows)
    return path


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_locked_moodle_row_is_never_written(tmp_path: Path, overwrite: bool) -> None:
    # Ana's row: «La calificación puede ser cambiada» = No, a grade and a comment validated by hand.
    sheet = _sheet_with(tmp_path, "moodle_worksheet_es.csv", {1: {4: "70,00", 6: "No", 9: "Nota bloqueada."}})
    out = tmp_path / "out.csv"
    summary = export_moodle(_results(tmp_path, MOODLE_CLASS), sheet, out, overwrite=overwrite)
    before = sheet.read_text(encoding="utf-8-sig").splitlines()
    after = out.read_text(encoding="utf-8-sig").splitlines()
    assert after[1] == before[1]  # byte for byte
    assert summary.locked == ["Ana García Núñez"] and "Ana García Núñez" not in summary.written
    assert "Bloqueadas en el LMS, no se tocaron (1): «Ana García Núñez»." in shown(summary, "es")


@pytest.mark.parametrize("sheet", ["moodle_worksheet_es.csv", "moodle_worksheet_en.csv"])
def test_an_existing_grade_or_comment_is_kept_unless_asked_and_every_change_is_listed(tmp_path: Path, sheet: str):
    # José's row has a grade someone typed; Íñigo's only a comment.
    protected = _sheet_with(tmp_path, sheet, {2: {4: "55,00"}, 3: {9: "Entregó por correo."}})
    results = _results(tmp_path, MOODLE_CLASS)
    out = tmp_path / "out.csv"
    summary = export_moodle(results, protected, out)
    before = protected.read_text(encoding="utf-8-sig").splitlines()
    after = out.read_text(encoding="utf-8-sig").splitlines()
    assert after[2:4] == before[2:4]
    assert summary.kept == ["José Pérez Ibáñez", "Íñigo Ñúñez"] and summary.written == ["Ana García Núñez"]
    ana, full = ("7,50", "10,00") if sheet.endswith("es.csv") else ("75.00", "100.00")  # the sheet's own scale
    assert summary.changed == [("Ana García Núñez", "", ana)]
    overwritten = export_moodle(results, protected, tmp_path / "todo.csv", overwrite=True)
    assert overwritten.kept == [] and len(overwritten.written) == 3
    assert ("José Pérez Ibáñez", "55,00", full) in overwritten.changed
    said = shown(overwritten, "es")
    assert f"  José Pérez Ibáñez: 55,00 → {full}" in said and f"  Ana García Núñez: — → {ana}" in said


def test_a_written_moodle_row_keeps_the_quoting_of_every_cell(tmp_path: Path) -> None:
    # Moodle quotes some columns and not others: the row written keeps each cell as it was, but the new ones.
    out = tmp_path / "out.csv"
    export_moodle(_results(tmp_path, MOODLE_CLASS), DATA / "moodle_worksheet_es.csv", out)
    before = (DATA / "moodle_worksheet_es.csv").read_text(encoding="utf-8-sig").splitlines()
    after = out.read_text(encoding="utf-8-sig").splitlines()
    for old, new in zip(before[1:4], after[1:4], strict=True):
        old_cells, new_cells = lms._raw_cells(old, ","), lms._raw_cells(new, ",")
        assert [c for i, c in enumerate(old_cells) if i not in (4, 9)] == [
            c for i, c in enumerate(new_cells) if i not in (4, 9)
        ]
        assert new_cells[4].startswith('"') and new_cells[9].startswith('"')  # «7,50» holds the delimiter


def test_a_canvas_cell_with_a_grade_is_kept_unless_asked(tmp_path: Path) -> None:
    text_ = (DATA / "canvas_gradebook.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text_)))
    rows[2][6] = "7.00"  # Ana's Lección 3 cell, graded by hand
    book = tmp_path / "libro.csv"
    with book.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    people = [("Ana García", "4001", 8.0), ("José Pérez Ibáñez", "4002", 4.0)]
    results = _results(tmp_path, people)
    summary = export_canvas(results, book, "Lección 3", tmp_path / "out.csv")
    # Listed as the gradebook names them, where the reports may know only Canvas's «garciaana».
    assert summary.kept == ["García, Ana"] and summary.written == ["Pérez Ibáñez, José"]
    written = list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text(encoding="utf-8"))))
    assert written[2][6] == "7.00"
    again = export_canvas(results, book, "Lección 3", tmp_path / "out2.csv", overwrite=True)
    assert ("García, Ana", "7.00", "8.00") in again.changed


@pytest.mark.parametrize("sheet", ["moodle_worksheet_es.csv", "moodle_worksheet_en.csv"])
def test_late_work_the_worksheet_marks_is_listed_and_changes_no_grade(tmp_path: Path, sheet: str) -> None:
    summary = export_moodle(_results(tmp_path, MOODLE_CLASS), DATA / sheet, tmp_path / "out.csv")
    assert summary.late == ["José Pérez Ibáñez"]  # «Retrasado por: 2 horas» / «Late by: 2 hours»
    assert "Entregaron tarde, según el LMS (1; la nota no cambia por eso): «José Pérez Ibáñez»." in shown(summary, "es")
    assert ("José Pérez Ibáñez", "", "10,00" if sheet.endswith("es.csv") else "100.00") in summary.changed


@pytest.mark.parametrize("lms_name", ["moodle", "canvas"])
def test_an_export_reads_each_column_and_each_learners_id_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lms_name: str
) -> None:
    # The names the lists say and the rows the grades go to come from one pass over the sheet, not two.
    from autograder.reporting import lms

    looked_up: list[tuple[str, ...]] = []
    idents: list[str] = []
    find_column, ident = lms._find_column, lms._ident
    monkeypatch.setattr(
        lms, "_find_column", lambda sheet, names, **kw: looked_up.append(names) or find_column(sheet, names, **kw)
    )
    monkeypatch.setattr(lms, "_ident", lambda raw: idents.append(raw) or ident(raw))
    if lms_name == "moodle":
        sheet = DATA / "moodle_worksheet_es.csv"
        summary = export_moodle(_results(tmp_path, MOODLE_CLASS), sheet, tmp_path / "out.csv")
        assert summary.no_result == ["María Sin Entrega"]  # named as the worksheet names them
    else:
        sheet = DATA / "canvas_gradebook.csv"
        people = [("garcíaana", "4001", 6.0)]
        summary = export_canvas(_results(tmp_path, people), sheet, "Lección 3", tmp_path / "out.csv")
        assert summary.written == ["García, Ana"] and "Student, Test" in summary.no_result
    records = len(list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"))))) - 1
    assert len(idents) == records  # each row's id read once (Canvas's «Points Possible» row too)
    assert len(looked_up) == len(set(looked_up))  # each column found once


@pytest.mark.parametrize("row", ["open", "locked", "graded by hand", "graded by hand, --overwrite"])
def test_the_penalty_waits_for_a_late_learners_decision_only_where_their_row_will_be_written(
    tmp_path: Path, row: str
) -> None:
    # José is late (the worksheet's status) and pending review; the course takes 10 % off late work.
    results = _results(tmp_path, [("Ana García Núñez", "101", 6.0), ("José Pérez Ibáñez", "102", None)])
    document = json.loads(results.read_text(encoding="utf-8"))
    document["report"]["config"] = {"penalizacion_tarde": 10}
    results.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    jose = '"Participante 102","José Pérez Ibáñez",jose.perez@example.edu,"Enviado para calificar - Retrasado por: 2 '
    jose += 'horas",'
    changed = {
        "open": ',"10,00",Sí,',
        "locked": ',"10,00",No,',
        "graded by hand": '"7,00","10,00",Sí,',
        "graded by hand, --overwrite": '"7,00","10,00",Sí,',
    }[row]
    assert f'{jose},"10,00",Sí,'.encode() in SPANISH
    sheet = _bad(tmp_path, SPANISH.replace(f'{jose},"10,00",Sí,'.encode(), f"{jose}{changed}".encode()))
    summary = export_moodle(results, sheet, tmp_path / "out.csv", overwrite=row.endswith("--overwrite"))
    assert summary.pending == ["José Pérez Ibáñez"] and summary.late == ["José Pérez Ibáñez"]
    assert summary.penalty_later == (["José Pérez Ibáñez"] if row in ("open", "graded by hand, --overwrite") else [])
