"""One learner, one row: who a learner is, which of their files is graded, and intake that keeps everyone.

The rule under test (the guide, «Recoger las entregas»): a learner is a top-level folder or LMS entry of the class
(or a loose ``.py``/``.ipynb``); one of their files is graded, by a stated rule, and the others are
named in their feedback; a learner with nothing gradable still gets a row. Names that are not
UTF-8, NFD names from a macOS zip, refused zip members, virtualenvs and bidirectional controls
never cost a learner their row nor reorder a report. The real grading of such a class is
``test_a_realistic_class_is_one_row_per_learner_for_real`` (slow).
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import shutil
import stat
import unicodedata
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder import cli
from autograder.classrun import run as class_run
from autograder.course.catalogue import plural, text
from autograder.course.config import CourseConfig
from autograder.course.criteria import required_ids
from autograder.grading import pipeline
from autograder.intake import choice, collect
from autograder.intake import submission as sub
from autograder.intake.collect import collect_submissions, shown_name
from autograder.intake.submission import SubmissionError, load_submission
from autograder.learner.runner import _statement_pieces
from autograder.reporting.report import (
    ReportEntry,
    feedback_html,
    feedback_markdown,
    fmt_points,
    grades_csv,
    summary_html,
)
from autograder.wire.results import CriterionResult, SubmissionResult

CRITERIA_IDS = required_ids()

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
GOOD = (REPO / "tests" / "data" / "submissions" / "good.py").read_text(encoding="utf-8")
EXPORT = "#!/usr/bin/env python\n# coding: utf-8\n\n# # Cuaderno 4 · Ejercicios\n#\n# **Lección 3 de 6**\n\n" + GOOD
"""good.py as `jupyter nbconvert --to script` writes notebook 04: its title cell becomes comments."""
COURSE = {
    "01": "01_reanudar_no_reiniciar.ipynb",
    "02": "02_la_llamada_colgante.ipynb",
    "03": "03_reconcile_y_contadores.ipynb",
    "04": "04_ejercicios.ipynb",
}


def make_zip(path: Path, members: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def learners_of(*paths: Path, **kwargs) -> list[tuple[str, list[str], list[str]]]:
    """(learner source, its .py/.ipynb inside it, its other files) for what intake finds."""
    with collect_submissions(list(paths), **kwargs) as intake:
        return [
            (lr.source, [lr.inside(f) for f in lr.files], [lr.inside(o) for o in lr.others]) for lr in intake.learners
        ]


def notebook(*cells: str, title: str | None = None, outputs: list[dict] | None = None) -> str:
    nb = nbformat.v4.new_notebook()
    if title:
        nb.cells.append(nbformat.v4.new_markdown_cell(title))
    for source in cells:
        code = nbformat.v4.new_code_cell(source)
        code.outputs = [nbformat.from_dict(o) for o in outputs or []]
        nb.cells.append(code)
    return nbformat.writes(nb)


# --- who a learner is ----------------------------------------------------------------------------


def test_moodle_folders_wrapped_and_nested_are_one_learner_each(tmp_path):
    archive = make_zip(
        tmp_path / "moodle.zip",
        {
            "Tarea 4-12345/Ana Pérez_101_assignsubmission_file_/04_ejercicios.ipynb": notebook("x = 1"),
            "Tarea 4-12345/Ana Pérez_101_assignsubmission_file_/04_ejercicios.py": "x = 1\n",
            "Tarea 4-12345/Beto Ruiz_102_assignsubmission_file_/informe.pdf": b"%PDF-1.4",
            "Tarea 4-12345/Carla Gil_103_assignsubmission_file_/tarea/sub/entrega.py": "x = 1\n",
            "Tarea 4-12345/Carla Gil_103_onlinetext_/onlinetext.html": "<p>hola</p>",
        },
    )
    got = learners_of(archive)
    base = "moodle.zip/Tarea 4-12345"
    assert got == [
        (f"{base}/Ana Pérez_101_assignsubmission_file_", ["04_ejercicios.ipynb", "04_ejercicios.py"], []),
        # One participant's file and online-text folders are one learner (tests/test_autograder_lms.py).
        (f"{base}/Carla Gil_103_assignsubmission_file_", ["tarea/sub/entrega.py"], ["onlinetext.html"]),
        (f"{base}/Beto Ruiz_102_assignsubmission_file_", [], ["informe.pdf"]),
    ]


@pytest.mark.parametrize(
    "inside",
    [
        # Folders named like other participants' inside a participant's upload: no rows (nor LMS ids) for them.
        ("Beto Ruiz_102_assignsubmission_file_/entrega.py", "Carla Gil_103_onlinetext_/onlinetext.html"),
        # Only folders, two of them: still the participant's own, not a group of learners.
        ("parte1/a.py", "parte2/b.py"),
    ],
)
def test_a_moodle_participants_folder_is_one_learner_whatever_it_holds(tmp_path, inside):
    ana = "Tarea/Ana Pérez_101_assignsubmission_file_"
    files = {f"{ana}/{name}": "x = 1\n" for name in inside}
    with_beto = {**files, "Tarea/Beto Ruiz_102_assignsubmission_file_/beto.py": "x = 1\n"}
    # In the class's download, and Ana's folder given alone (a zip of it: no wrapper to see through).
    for archive, expected in [
        (make_zip(tmp_path / "moodle.zip", with_beto), [("Ana Pérez", "101"), ("Beto Ruiz", "102")]),
        (
            make_zip(tmp_path / "ana.zip", {k.removeprefix("Tarea/"): v for k, v in files.items()}),
            [("Ana Pérez", "101")],
        ),
    ]:
        with collect_submissions([archive]) as intake:
            who = sorted((learner.label, learner.ident) for learner in intake.learners)
            (anas,) = [learner for learner in intake.learners if learner.ident == "101"]
            shown = sorted(anas.inside(f) for f in [*anas.files, *anas.others])
        assert who == expected
        assert shown == sorted(inside)


def test_group_folders_loose_files_and_a_learner_with_four_notebooks(tmp_path):
    root = tmp_path / "clase"
    for name in COURSE.values():
        (root / "grupo1" / "dani").mkdir(parents=True, exist_ok=True)
        shutil.copy(NOTEBOOKS / name, root / "grupo1" / "dani" / name)
    (root / "grupo1" / "eva").mkdir()
    (root / "grupo1" / "eva" / "04_ejercicios.ipynb.txt").write_text("{}")
    (root / "grupo2").mkdir()
    (root / "grupo2" / "entrega.py").write_text("x = 1\n")
    (root / "suelto.ipynb").write_text(notebook("x = 1"))
    (root / "instrucciones.pdf").write_bytes(b"%PDF")
    got = learners_of(root)
    assert sorted(got) == [
        (f"{root}/grupo1/dani", sorted(COURSE.values()), []),
        (f"{root}/grupo1/eva", [], ["04_ejercicios.ipynb.txt"]),
        (f"{root}/grupo2", ["entrega.py"], []),  # a folder that holds a file is a learner, not a group
        (f"{root}/suelto.ipynb", ["suelto.ipynb"], []),
    ]
    with collect_submissions([root]) as intake:
        assert any("instrucciones.pdf»: no es un .py ni un .ipynb" in w for w in intake.warnings)


def test_canvas_and_blackboard_flat_files_are_grouped_by_their_learner(tmp_path):
    archive = make_zip(
        tmp_path / "canvas.zip",
        {
            "garciaana_1234_5678_04_ejercicios.ipynb": notebook("x = 1"),
            "garciaana_1234_5679_04_ejercicios.py": "x = 1\n",
            "ruizbeto_LATE_2345_6789_informe.docx": b"PK",
            "Tarea_cgil_attempt_2026-03-01-09-30-00_entrega.py": "x = 1\n",
            "Tarea_cgil_attempt_2026-03-01-09-30-00.txt": "recibo",
        },
    )
    got = learners_of(archive)
    blackboard = "Tarea_cgil_attempt_2026-03-01-09-30-00"
    assert got == [
        (f"canvas.zip/{blackboard}", [f"{blackboard}_entrega.py"], [f"{blackboard}.txt"]),
        (
            "canvas.zip/garciaana_1234",
            [f"garciaana_1234_{n}" for n in ("5678_04_ejercicios.ipynb", "5679_04_ejercicios.py")],
            [],
        ),
        # Canvas marks a late file «LATE_»: the learner is the user, late or not (tests/test_autograder_lms.py).
        ("canvas.zip/ruizbeto_2345", [], ["ruizbeto_LATE_2345_6789_informe.docx"]),
    ]


def test_gradescope_upload_is_one_learner_whatever_its_folders(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "04_ejercicios.ipynb").write_text(notebook("x = 1"))
    (tmp_path / "04_ejercicios.py").write_text("x = 1\n")
    (tmp_path / "otra").mkdir()
    (tmp_path / "otra" / "notas.txt").write_text("x")
    ((_, files, others),) = learners_of(tmp_path, one_learner=True)
    assert sorted(files) == ["04_ejercicios.py", "a/b/04_ejercicios.ipynb"] and others == ["otra/notas.txt"]


# --- names ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (b"Jos\xe9_N\xfa\xf1ez.py", "José_Núñez.py"),  # Latin-1, as unzip leaves an LMS zip
        (b"Fran\xe7ois \x93tarea\x94.py", "François “tarea”.py"),  # cp1252's quotes
        (b"raro_\x81\x8d.py", "raro_\x81\x8d.py"),  # bytes cp1252 leaves undefined: Latin-1
        ("José".encode() + b".py", "José.py"),
        (unicodedata.normalize("NFD", "Núñez.py").encode(), "Núñez.py"),  # macOS: NFD becomes NFC
    ],
)
def test_a_name_of_any_bytes_is_shown_readably_and_can_be_encoded(tmp_path, raw, shown):
    path = os.path.join(os.fsencode(tmp_path), raw)
    with open(path, "wb") as f:
        f.write(b"x = 1\n")
    with collect_submissions([tmp_path]) as intake:
        (learner,) = intake.learners
        assert learner.files[0].name == shown and learner.source.endswith("/" + shown)
        json.dumps(learner.source).encode("utf-8")  # what results.json and the socket carry
        loaded = load_submission(learner.files[0].file, learner.files[0].name)
        assert loaded.name == shown and json.dumps(loaded.to_json()).encode("utf-8")
    assert shown_name(os.fsdecode(raw)) == shown


def test_a_latin1_learner_folder_is_graded_not_an_internal_error(tmp_path, monkeypatch):
    folder = os.path.join(os.fsencode(tmp_path / "clase"), b"Mar\xeda")
    os.makedirs(folder)
    with open(os.path.join(folder, b"entrega.py"), "w", encoding="utf-8") as f:
        f.write("x = 1\n")
    seen = []
    monkeypatch.setattr(
        pipeline, "grade_loaded", lambda loaded, course, **kw: seen.append(loaded) or ok_result(loaded.name)
    )
    with collect_submissions([tmp_path / "clase"]) as intake:
        (result,) = pipeline.grade_many(intake.learners, CourseConfig(seed=1))
    assert result.error is None and seen[0].name == "entrega.py"
    assert intake.learners[0].source.endswith("/clase/María")


def ok_result(name: str) -> SubmissionResult:
    criteria = [CriterionResult(c, True, 1.0, 1.0, "bien") for c in CRITERIA_IDS]
    return SubmissionResult.from_criteria(name, criteria, seed=1)


# --- refused zip members get their rows ------------------------------------------------------------


def test_every_kind_of_refused_member_is_its_learners_row(tmp_path, monkeypatch):
    monkeypatch.setattr(collect, "MAX_MEMBER_BYTES", 64 * 1024)
    archive = tmp_path / "lms.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        link = zipfile.ZipInfo("ana/entrega.py")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
        zf.writestr("beto/" + "b" * 300 + ".py", "x = 1\n")
        zf.writestr("carla/entrega.py", "#" * (200 * 1024))  # past the (patched) cap by its declared size
        zf.writestr("carla/notas.py", "x = 1\n")
        zf.writestr("../dani.py", "x = 1\n")
    with collect_submissions([archive]) as intake:
        rows = {lr.source.removeprefix("lms.zip/"): [f.refusal for f in lr.files] for lr in intake.learners}
        said = {k: [r.render("es") for r in v if r] for k, v in rows.items()}
    assert said["ana"] == ["Se rechazó «ana/entrega.py» en «lms.zip»: es un enlace simbólico; no se extrajo."]
    assert said["beto"] == []  # a name too long for the disk is extracted under a shorter one and graded
    assert "parece una bomba zip" in said["carla"][0] and rows["carla"][1] is None  # its other file is kept
    assert "zip slip" in said["../dani.py"][0]
    assert len(rows) == 4


def test_an_encrypted_and_a_damaged_member_cost_their_learner_only_their_row(tmp_path):
    from test_autograder_intake_lang import encrypted_zip

    archive = encrypted_zip(tmp_path / "lms.zip", "ana/entrega.py", "beto/entrega.py")
    with zipfile.ZipFile(archive, "a", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("carla/entrega.py", "x = 1  # carla\n" * 20)
        zf.writestr("dani/entrega.py", "x = 1\n")
    raw = archive.read_bytes()
    at = raw.index(b"x = 1  # carla")
    archive.write_bytes(raw[:at] + b"y" + raw[at + 1 :])  # one byte changed: its CRC no longer matches
    with collect_submissions([archive]) as intake:
        rows = {lr.name: lr.files[0].refusal for lr in intake.learners}
    assert sorted(rows) == ["ana", "beto", "carla", "dani"]
    assert "protegido con contraseña" in rows["ana"].render("es")
    assert "no se pudo extraer" in rows["carla"].render("es") and "CRC" in rows["carla"].render("en")
    assert rows["beto"] is None and rows["dani"] is None


def test_a_notebook_with_repetitive_output_is_no_bomb(tmp_path):
    # 20 MB of one repeated line compress a thousandfold: only the size decides, and this one is within it.
    output = {"output_type": "stream", "name": "stdout", "text": "paso 1 de 100: ok\n" * 1_200_000}
    archive = make_zip(tmp_path / "clase.zip", {"ana/04_ejercicios.ipynb": notebook(GOOD, outputs=[output])})
    info = zipfile.ZipFile(archive).getinfo("ana/04_ejercicios.ipynb")
    assert info.file_size > 200 * info.compress_size  # past the ratio once taken for a bomb
    with collect_submissions([archive]) as intake:
        (learner,) = intake.learners
        (found,) = learner.files
        assert found.refusal is None and not intake.warnings
        assert "def reconcile" in load_submission(found.file, found.name).cells[0].source


def test_a_notebook_with_a_pasted_screenshot_is_graded_on_its_code(tmp_path, monkeypatch):
    screenshot = base64.b64encode(os.urandom(4 * 1024 * 1024)).decode()  # 5.4 MB once in base64
    image = {"output_type": "display_data", "data": {"image/png": screenshot}, "metadata": {}}
    path = tmp_path / "04_ejercicios.ipynb"
    path.write_text(notebook(GOOD, outputs=[image]))
    assert path.stat().st_size > 5.3 * 1024 * 1024
    loaded = load_submission(path)
    assert [c.source for c in loaded.cells] == [GOOD]
    # What is capped is the code: 5 MB of it is refused, and the file has a ceiling of its own.
    monkeypatch.setattr(sub, "MAX_BYTES", 1000)
    path.write_text(notebook("x = 1", "y = 2"))
    load_submission(path)
    path.write_text(notebook("x = '" + "a" * 600 + "'", "y = '" + "b" * 600 + "'"))
    with pytest.raises(SubmissionError) as code:
        load_submission(path)
    assert code.value.key == "load.code_too_big" and "código" in code.value.message("es")
    monkeypatch.setattr(sub, "NOTEBOOK_MAX_BYTES", 2000)
    path.write_text(notebook("x = 1", outputs=[image]))
    with pytest.raises(SubmissionError) as file:
        load_submission(path)
    assert file.value.key == "load.too_big"


# --- what is skipped ------------------------------------------------------------------------------


def test_virtualenvs_caches_and_hidden_folders_are_skipped_with_one_warning_each(tmp_path):
    ana = tmp_path / "clase" / "ana"
    for folder in ("venv", ".venv", "mi_entorno", "lib/site-packages", "__pycache__", ".ipynb_checkpoints", ".git"):
        for k in range(10):
            (ana / folder / f"pkg{k}").mkdir(parents=True, exist_ok=True)
            (ana / folder / f"pkg{k}" / f"m{k}.py").write_text("x = 1\n")
    (ana / "mi_entorno" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (ana / "04_ejercicios.ipynb").write_text(notebook("x = 1"))
    with collect_submissions([tmp_path / "clase"]) as intake:
        (learner,) = intake.learners
        assert [f.name for f in learner.files] == ["04_ejercicios.ipynb"]
        warnings = intake.warnings
    assert len(warnings) == 7, warnings
    for kind in ("venv»: es un entorno virtual", "mi_entorno»: es un entorno virtual", "site-packages»: son paquetes"):
        assert any(kind in w for w in warnings), kind
    # The same inside a zip.
    archive = make_zip(
        tmp_path / "clase.zip",
        {
            "ana/04_ejercicios.ipynb": notebook("x = 1"),
            **{f"ana/venv/lib/m{k}.py": "x = 1\n" for k in range(30)},
            "ana/otro/pyvenv.cfg": "home = /usr\n",
            **{f"ana/otro/bin/s{k}.py": "x = 1\n" for k in range(5)},
            "ana/__pycache__/x.py": "x = 1\n",
        },
    )
    with collect_submissions([archive]) as intake:
        (learner,) = intake.learners
        assert [f.name for f in learner.files] == ["04_ejercicios.ipynb"] and learner.others == ()
        assert len(intake.warnings) == 3, intake.warnings


# --- which file is graded ------------------------------------------------------------------------


def candidates(tmp_path: Path, files: dict[str, str | Path]) -> tuple[list[choice.Candidate], collect.Learner]:
    folder = tmp_path / "clase" / "ana"
    folder.mkdir(parents=True)
    for name, content in files.items():
        if isinstance(content, Path):
            shutil.copy(content, folder / name)
        else:
            (folder / name).write_text(content, encoding="utf-8")
    with collect_submissions([tmp_path / "clase"]) as intake:
        (learner,) = intake.learners
        return [choice.candidate(f, learner, "es") for f in learner.files], learner


@pytest.mark.parametrize(
    ("files", "graded", "why"),
    [
        # All four course notebooks (the learner's edition): notebook 04, by its title cell.
        ({name: NOTEBOOKS / name for name in COURSE.values()}, "04_ejercicios.ipynb", "not_course"),
        # The notebook and its .py export (its title kept as a comment): the notebook.
        (
            {"04_ejercicios.ipynb": NOTEBOOKS / "soluciones" / COURSE["04"], "04_ejercicios.py": EXPORT},
            "04_ejercicios.ipynb",
            "notebook",
        ),
        # ...and a bare .py named 04 beside the course's notebook 04: the notebook, by its title.
        (
            {"04_ejercicios.ipynb": NOTEBOOKS / "soluciones" / COURSE["04"], "04_ejercicios.py": GOOD},
            "04_ejercicios.ipynb",
            "exercises",
        ),
        # Renamed notebook 04 beside a .py that defines everything: the course's notebook 04 still comes first.
        ({"mi_tarea.ipynb": NOTEBOOKS / COURSE["04"], "solucion.py": GOOD}, "mi_tarea.ipynb", "exercises"),
        # Two files of the learner's own: the one that defines more of the graded names.
        (
            {"borrador.py": "def resume_action(cp):\n    return 'continue'\n", "final.py": GOOD},
            "final.py",
            "most_names",
        ),
        # One that cannot be read loses to one that can.
        ({"roto.ipynb": "{no es json", "bien.py": GOOD}, "bien.py", "readable"),
        # Indistinguishable: the first by path.
        ({"a.py": GOOD, "b.py": GOOD}, "a.py", "first"),
        # A copy (JupyterLab's, a browser's, the OS's, a drive's) of the notebook beside it: the one that is no
        # copy, even when the copy comes first by path or defines more.
        *(
            (
                {copy: NOTEBOOKS / "soluciones" / COURSE["04"], "04_ejercicios.ipynb": NOTEBOOKS / COURSE["04"]},
                "04_ejercicios.ipynb",
                "not_copy",
            )
            for copy in (
                "04_ejercicios-Copy1.ipynb",
                "04_ejercicios (1).ipynb",
                "04_ejercicios(2).ipynb",
                "04_ejercicios - copia.ipynb",
                "04_ejercicios copy.ipynb",
                "04_ejercicios-1.ipynb",
                "Copia de 04_ejercicios.ipynb",
            )
        ),
    ],
)
def test_the_rule_chooses_one_file_and_says_why(tmp_path, files, graded, why):
    found, _ = candidates(tmp_path, files)
    chosen, step = choice.choose(found)
    assert (found[chosen].shown, step) == (graded, why)
    assert text(f"choice.why.{step}", "es") and text(f"choice.why.{step}", "en")


@pytest.mark.parametrize("number", ["01", "02", "03"])
def test_a_course_notebook_handed_in_says_which_one_to_hand_in(tmp_path, monkeypatch, number):
    monkeypatch.setattr(pipeline, "grade_loaded", lambda *a, **k: pytest.fail("the wrong notebook is not graded"))
    folder = tmp_path / "clase" / "ana"
    folder.mkdir(parents=True)
    shutil.copy(NOTEBOOKS / COURSE[number], folder / "mi_entrega.ipynb")  # renamed: recognised by its content
    with collect_submissions([tmp_path / "clase"]) as intake:
        (es,) = pipeline.grade_many(intake.learners, CourseConfig(seed=1))
        (en,) = pipeline.grade_many(intake.learners, CourseConfig(seed=1, lang="en"))
    assert es.score == 0 and es.warnings == []
    assert f"es el cuaderno {int(number)} del curso («{COURSE[number]}»)" in es.error
    assert "Entrega «04_ejercicios.ipynb»" in es.error
    assert "Hand in «04_ejercicios.ipynb»" in en.error
    # Its .py export too (nbconvert keeps the title as a comment).
    exported = "#!/usr/bin/env python\n# coding: utf-8\n\n# # Cuaderno 2 · La llamada colgante\n#\n"
    exported += "# **Lección 3 de 6 — Reanudar**\n\nx = 1\n"
    assert sub.from_python(exported, "x.py").course == "02"
    assert sub.from_python(exported.replace("Lección 3", "Lección 5"), "x.py").course is None


def test_a_learner_with_nothing_gradable_gets_a_row_that_says_what_was_found(tmp_path):
    folder = tmp_path / "clase"
    for learner, names in {"ana": ["informe.pdf"], "beto": ["tarea.docx", "04_ejercicios.ipynb.txt"]}.items():
        (folder / learner).mkdir(parents=True)
        for name in names:
            (folder / learner / name).write_bytes(b"...")
    with collect_submissions([folder]) as intake:
        ana, beto = pipeline.grade_many(intake.learners, CourseConfig(seed=1))
        (beto_en,) = pipeline.grade_many(intake.learners[1:], CourseConfig(seed=1, lang="en"))
    assert ana.score == 0 and ana.submission == "ana" and len(ana.criteria) == len(CRITERIA_IDS)
    assert ana.error.startswith("No hay nada que calificar") and "solo un archivo: «informe.pdf»" in ana.error
    assert "solo 2 archivos: «04_ejercicios.ipynb.txt», «tarea.docx»" in beto.error
    assert "«04_ejercicios.ipynb.txt» parece un cuaderno" in beto.error
    assert "only 2 files" in beto_en.error and "looks like a notebook" in beto_en.error


def test_the_other_files_are_named_in_the_graded_ones_feedback(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "grade_loaded", lambda loaded, course, **kw: ok_result(loaded.name))
    folder = tmp_path / "clase" / "ana"
    folder.mkdir(parents=True)
    shutil.copy(NOTEBOOKS / "soluciones" / COURSE["04"], folder / "04_ejercicios.ipynb")
    (folder / "04_ejercicios.py").write_text(GOOD)
    (folder / "captura.png").write_bytes(b"\x89PNG")
    (folder / "roto.ipynb").write_text("no es json")
    with collect_submissions([tmp_path / "clase"]) as intake:
        (es,) = pipeline.grade_many(intake.learners, CourseConfig(seed=1))
        (en,) = pipeline.grade_many(intake.learners, CourseConfig(seed=1, lang="en"))
    assert es.submission == "04_ejercicios.ipynb"
    assert es.warnings[:3] == [
        "Se calificó «04_ejercicios.ipynb»: el cuaderno 04 de los ejercicios va primero.",
        "No se calificaron los otros 3 archivos que entregaste: «04_ejercicios.py», «roto.ipynb», «captura.png».",
        "No se pudo leer «roto.ipynb».",
    ]
    assert (
        en.warnings[1]
        == "The other 3 files you handed in were not graded: «04_ejercicios.py», «roto.ipynb», «captura.png»."
    )


def test_plurals_in_both_languages():
    assert plural("choice.others", 1, "es", files="«a.py»") == "No se calificó el otro archivo que entregaste: «a.py»."
    assert plural("choice.others", 1, "en", files="«a.py»") == "The other file you handed in was not graded: «a.py»."
    assert plural("cli.graded", 1, "es", seconds=1.0, jobs=1, seed=2).startswith("Se calificó 1 alumno en")
    assert plural("cli.graded", 2, "en", seconds=1.0, jobs=1, seed=2).startswith("Graded 2 learners in")
    assert "ningún cuaderno" in plural("choice.nothing", 0, "es", files="")


# --- the console and the class's statistics count learners --------------------------------------------


def pending_result(name: str) -> SubmissionResult:
    """Every criterion passed but the last, left to a person: a total that is not a grade yet."""
    criteria = [CriterionResult(c, True, 1.0, 1.0, "bien") for c in CRITERIA_IDS]
    criteria[-1] = CriterionResult(CRITERIA_IDS[-1], None, None, 1.0, "no pudo decidir", review=True)
    return SubmissionResult.from_criteria(name, criteria, seed=1)


def test_the_console_counts_add_up_and_its_mean_is_resumens(tmp_path, monkeypatch):
    def fake(learners, course, *, jobs, progress):
        made = []
        for i, lr in enumerate(learners):
            name = lr.files[0].name if lr.files else lr.name
            result = pending_result(name) if "carla" in lr.source else ok_result(name)
            if "eva" in lr.source:
                result.criteria[0] = CriterionResult(CRITERIA_IDS[0], False, 0.0, 1.0, "mal")
                result.rescore()
            made.append(result)
            progress(i + 1, len(learners), result, i)
        return made

    monkeypatch.setattr(class_run, "run_grading", fake)
    root = tmp_path / "clase"
    for name in COURSE.values():
        (root / "dani").mkdir(parents=True, exist_ok=True)
        shutil.copy(NOTEBOOKS / name, root / "dani" / name)
    for who in ("ana", "carla", "eva"):
        (root / who).mkdir()
        (root / who / "04_ejercicios.ipynb").write_text("{}")
    (root / "beto").mkdir()
    (root / "beto" / "informe.pdf").write_bytes(b"%PDF")
    (root / "instrucciones.pdf").write_bytes(b"%PDF")  # in no learner's folder
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["grade", str(root), "--out", str(tmp_path / "out"), "--seed", "3"])
    said = out.getvalue()
    # Written all the same, but not a success: a file of the class is nobody's, and the message names it.
    assert code == cli.EXIT_UNOWNED == 3
    last = err.getvalue().splitlines()[-1]
    assert last.startswith("No se calificó 1 archivo de la clase") and "clase/instrucciones.pdf»" in last
    assert "Se calificaron 5 alumnos" in said
    # 5 learners = 4 with a file + 1 without; 9 files = 4 graded + 4 others of dani's + 1 nobody's.
    assert "Alumnos: 5 (con un archivo calificado: 4; sin .py ni .ipynb que calificar: 1)" in said
    assert "Archivos: 9 (calificados, uno por alumno: 4; no calificados, nombrados en la fila de su alumno: 4; " in said
    assert "no calificados, sin alumno: 1)" in said
    # The mean is over those with a grade (carla's is pending), in the console as in resumen.html.
    n = len(CRITERIA_IDS)
    mean = fmt_points(((n - 1) + 3 * n) / 4, "es")
    assert f"Puntaje medio: {mean} puntos" in said and "sobre los 4 alumnos con nota" in said
    summary = (tmp_path / "out" / "resumen.html").read_text()
    assert f"{mean} pts" in summary and "sobre 4 con nota" in summary
    assert "Alumnos calificados<strong>5</strong>" in summary
    # Pending is not failed: the last criterion's rate is over the 4 with a verdict, and says one is pending.
    assert "100 % (4/4) · 1 pendiente de revisión</text>" in summary
    # The progress line says a pending total is not final, and that its seconds are since the start.
    carla = next(line for line in said.splitlines() if "carla" in line and line.startswith("["))
    assert "por ahora" in carla and "pendientes de revisión" in carla and "s desde el inicio)" in carla


# --- bidirectional controls -------------------------------------------------------------------------


@pytest.mark.parametrize("control", ["\u202e", "\u202b", "\u2066", "\u2067", "\u200f", "\u061c"])
def test_bidi_controls_in_names_cannot_reorder_a_report(control):
    name = f"ana{control}yp.exe"
    result = ok_result(name)
    result.warnings = [f"Se calificó «{name}»."]
    entry = ReportEntry(result=result, source=f"clase/{name}", name="ana")
    code = f"\\u{ord(control):04X}"
    for page in (feedback_html(entry), summary_html([entry]), feedback_markdown(entry), grades_csv([entry])):
        assert control not in page and code in page
    assert f"<bdi>ana{code}yp.exe</bdi>" in feedback_html(entry)
    assert f"<bdi>clase/ana{code}yp.exe</bdi>" in summary_html([entry])


# --- a .py that does not parse is cut at its statements --------------------------------------------


@pytest.mark.parametrize(
    ("source", "starts"),
    [
        ("import json\n\ndef reconcile(cp)\n    return cp\n\ndef resume_action(cp):\n    return 'rerun'\n", [1, 3, 6]),
        ("@decorador\ndef f()\n    pass\nx = 1\n", [1, 4]),  # the decorator keeps its def
        ("if x\n    y = 1\nelse:\n    y = 2\nz = 3\n", [1, 5]),  # else stays with its if
        ("try:\n    a = 1\nexcept Exception\n    a = 2\nfinally:\n    b = 1\nc = 2\n", [1, 7]),
        (
            "# comentario\nx = (1,\n     2\ndef g():\n    return 1\n",
            [1, 2],
        ),  # an unclosed bracket: the rest is one piece
        ("x = 1\ns = '''sin cerrar\ndef g():\n    return 1\n", [1, 2]),  # an unclosed string: the rest is one piece
    ],
)
def test_an_unparsable_py_is_cut_where_its_top_level_statements_start(source, starts):
    pieces = _statement_pieces(source)
    assert [line for _, line, _ in pieces] == starts
    assert "".join(piece.lstrip("\n") for _, _, piece in pieces) == source.lstrip("\n")
    for _, line, piece in pieces:  # line numbers are the file's own
        assert piece.startswith("\n" * (line - 1)) and not piece[line - 1 :].startswith("\n")


# --- for real: the learner's process and the whole pipeline ----------------------------------------

BROKEN_COLON = GOOD.replace("def reconcile(cp):", "def reconcile(cp)")
"""good.py with one slip: `def reconcile(cp)` lacks its colon."""
COLAB = "import numpy as np\nfrom google.colab import drive\n"


@pytest.mark.warm_up("learner_zygote")
@pytest.mark.parametrize(
    "source", [BROKEN_COLON, GOOD.replace("respuesta_causa_raiz = ", "respuesta_causa_raiz == = ")]
)
def test_an_unparsable_py_runs_every_statement_but_the_broken_one(box, source):
    from autograder.sandbox.learner_process import Learner, Reply, learner_uid, prepare_box, running_as_root
    from autograder.wire.limits import Limits

    uid = learner_uid(os.getpid()) if running_as_root() else None
    prepare_box(box, uid)
    learner = Learner(list(sub.from_python(source, "entrega.py").runnable), limits=Limits(), box=box, uid=uid)
    try:
        reply = learner.start()
    finally:
        learner.close()
    assert isinstance(reply, Reply), reply
    broken = [p for p in reply.message["pieces"] if p["status"] != "ok"]
    assert [(p["status"], p["split"]) for p in broken] == [("syntax", True)]
    defined = reply.message["defined"]
    lost = "reconcile" if source is BROKEN_COLON else None
    assert {name for name, how in defined.items() if how == "missing"} == ({lost} if lost else set())


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_split_syntax_error_and_a_missing_module_are_said_plainly(box, lang):
    from autograder.sandbox.session import Session
    from autograder.wire.limits import Limits

    session = Session(sub.from_python("x = 1", "x.py"), limits=Limits(), box=box, uid=None, lang=lang)
    report = {
        "cells": [],
        "pieces": [
            {"number": 1, "status": "error", "etype": "ModuleNotFoundError", "module": "numpy", "line": 1},
            {"number": 2, "status": "syntax", "line": 14, "message": "expected ':'", "split": True},
        ],
    }
    summary = session._summarise(report)
    assert summary.fatal is None
    said = {"es": ["importa «numpy», que no está instalado", "línea 14 tiene un error de sintaxis"],
            "en": ["imports «numpy», which is not installed", "line 14 has a syntax error"]}[lang]  # fmt: skip
    assert [s in w for s, w in zip(said, summary.warnings, strict=True)] == [True, True]
    notebook = Session(
        sub.from_notebook_text(notebook_text(COLAB), "c.ipynb"), limits=Limits(), box=box, uid=None, lang=lang
    )
    cell = {"number": 1, "status": "error", "etype": "ModuleNotFoundError", "module": "numpy", "line": 1}
    (warning,) = notebook._summarise({"cells": [cell]}).warnings
    assert "«numpy»" in warning and "ModuleNotFoundError" not in warning and "No module named" not in warning


def notebook_text(*cells: str) -> str:
    return notebook(*cells)


@pytest.mark.slow  # grades for real
@pytest.mark.warm_up("grading_server")
def test_a_realistic_class_is_one_row_per_learner_for_real(tmp_path):
    solved = (NOTEBOOKS / "soluciones" / COURSE["04"]).read_text(encoding="utf-8")
    moodle = "Tarea 4-987"
    members: dict[str, bytes | str] = {
        # macOS zips names in NFD; the LMS sets the UTF-8 flag.
        unicodedata.normalize("NFD", f"{moodle}/José Núñez_101_assignsubmission_file_/04_ejercicios.ipynb"): solved,
        f"{moodle}/Ana Pérez_102_assignsubmission_file_/04_ejercicios.ipynb": solved,
        f"{moodle}/Ana Pérez_102_assignsubmission_file_/04_ejercicios.py": EXPORT,
        f"{moodle}/Beto Ruiz_103_assignsubmission_file_/informe.pdf": b"%PDF-1.4",
        **{
            f"{moodle}/Carla Gil_104_assignsubmission_file_/{name}": (NOTEBOOKS / name).read_bytes()
            for name in COURSE.values()
        },
        f"{moodle}/Dani Sol_105_assignsubmission_file_/{COURSE['01']}": (NOTEBOOKS / COURSE["01"]).read_bytes(),
        f"{moodle}/Eva Paz_106_assignsubmission_file_/04_ejercicios.ipynb.txt": solved,
        f"{moodle}/Fede Luz_107_assignsubmission_file_/solucion.py": GOOD,
        **{f"{moodle}/Fede Luz_107_assignsubmission_file_/venv/lib/m{k}.py": "x = 1\n" for k in range(30)},
        f"{moodle}/Gala Mar_108_assignsubmission_file_/entrega.py": BROKEN_COLON,
        f"{moodle}/Ivo Rey_110_assignsubmission_file_/04_ejercicios.ipynb": notebook(COLAB, GOOD),
    }
    archive = tmp_path / "clase.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        link = zipfile.ZipInfo(f"{moodle}/Hugo Gris_109_assignsubmission_file_/entrega.py")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    latin = os.path.join(os.fsencode(tmp_path / "aparte"), b"Mar\xeda L\xf3pez.py")  # as unzip leaves Latin-1
    os.makedirs(os.path.dirname(latin))
    with open(latin, "w", encoding="utf-8") as f:
        f.write(GOOD)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(
            ["grade", str(archive), str(tmp_path / "aparte"), "--out", str(tmp_path / "out"), "--seed", "7"]
        )
    assert code == 0, err.getvalue()
    rows = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["submissions"]
    by = {r["source"].split("/")[-1].split("_")[0]: r for r in rows}
    assert len(rows) == 11 and len(by) == 11
    full = by["José Núñez"]["max_score"]
    assert by["José Núñez"]["score"] == full and by["José Núñez"]["error"] is None
    assert by["Ana Pérez"]["score"] == full and by["Ana Pérez"]["submission"] == "04_ejercicios.ipynb"
    assert "«04_ejercicios.py»" in by["Ana Pérez"]["warnings"][1]
    assert by["Beto Ruiz"]["score"] == 0 and "«informe.pdf»" in by["Beto Ruiz"]["error"]
    assert (
        by["Carla Gil"]["submission"] == "04_ejercicios.ipynb" and "otros 3 archivos" in by["Carla Gil"]["warnings"][1]
    )
    assert by["Dani Sol"]["score"] == 0 and "Entrega «04_ejercicios.ipynb»" in by["Dani Sol"]["error"]
    assert by["Dani Sol"]["warnings"] == []  # no «tag the course's cells», no raw Python error
    assert "parece un cuaderno" in by["Eva Paz"]["error"]
    assert by["Fede Luz"]["score"] == full
    assert 0 < by["Gala Mar"]["score"] < full  # only what needs reconcile is lost
    assert any("línea 20 tiene un error de sintaxis" in w for w in by["Gala Mar"]["warnings"])
    assert "enlace simbólico" in by["Hugo Gris"]["error"]
    assert any("importa «numpy»" in w for w in by["Ivo Rey"]["warnings"]) and by["Ivo Rey"]["score"] == full
    assert by["María López.py"]["score"] == full and by["María López.py"]["submission"] == "María López.py"
    assert "Se calificaron 11 alumnos" in out.getvalue()
    assert "Archivos: 15 (calificados, uno por alumno: 9; no calificados, nombrados en la fila de su alumno: 6;" in (
        out.getvalue()
    )
    assert err.getvalue().count("entorno virtual") == 1
    summary = (tmp_path / "out" / "resumen.html").read_text(encoding="utf-8")
    assert "Alumnos calificados<strong>11</strong>" in summary and "José Núñez" in summary


@pytest.mark.parametrize("control", ["\u202e", "\u2067"])
def test_bidi_controls_are_not_obeyed_on_the_terminal_nor_in_gradescope(control):
    from autograder.reporting.gradescope import to_gradescope

    result = ok_result(f"ana{control}yp.exe")
    result.warnings = [f"Se calificó «ana{control}yp.exe»."]
    assert control not in cli.for_terminal(result.submission)
    document = to_gradescope(result)
    assert control not in document["output"] and f"\\u{ord(control):04X}" in document["output"]


# --- a name Windows keeps but Linux does not --------------------------------------------------------

LONG_SPANISH = "Entrega final del ejercicio de reanudación — conciliación de la llamada colgante " * 3
"""About 250 characters, over 255 bytes in UTF-8 (each accented letter and the dash take two or three)."""


def test_a_name_too_long_for_linux_is_graded_under_its_own_name_and_its_row_says_so(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(
        pipeline, "grade_loaded", lambda loaded, course, **kw: seen.append(loaded) or ok_result(loaded.name)
    )
    long_file = f"04_{LONG_SPANISH}.ipynb"
    long_folder = f"María José {LONG_SPANISH}_123456_assignsubmission_file_"
    assert len(long_file) < 255 < len(long_file.encode()) and len(long_folder.encode()) > 255
    archive = make_zip(
        tmp_path / "clase.zip",
        {
            f"ana/{long_file}": (NOTEBOOKS / "soluciones" / COURSE["04"]).read_text(encoding="utf-8"),
            f"{long_folder}/entrega.py": GOOD,
            "beto/entrega.py": GOOD,
        },
    )
    with collect_submissions([archive]) as intake:
        sources = sorted(lr.source for lr in intake.learners)
        results = pipeline.grade_many(intake.learners, CourseConfig(seed=1))
        ana_learner = [lr for lr in intake.learners if lr.source == "clase.zip/ana"]
        (en,) = pipeline.grade_many(ana_learner, CourseConfig(seed=1, lang="en"))
    # Each learner keeps the name the LMS gave: Moodle's id is read from the folder's own name.
    assert sources == sorted(f"clase.zip/{n}" for n in ("ana", long_folder, "beto"))
    by_source = dict(zip((lr.source for lr in intake.learners), results, strict=True))
    ana = by_source["clase.zip/ana"]
    assert ana.error is None and ana.submission == long_file
    assert ana.warnings[0] == (
        f"El nombre de «ana/{long_file}» en «clase.zip» pasa de 255 bytes, más de lo que guarda un sistema de "
        "archivos Linux: se extrajo con un nombre más corto y se calificó igual."
    )
    assert en.warnings[0].startswith(f"The name of «ana/{long_file}» in «clase.zip» is longer than 255 bytes")
    folder_row = by_source[f"clase.zip/{long_folder}"]  # a long folder: its file is read, the row is its own
    assert folder_row.error is None and folder_row.warnings[0].startswith(f"El nombre de «{long_folder}/entrega.py»")
    assert by_source["clase.zip/beto"].warnings == []
    assert sorted(s.name for s in seen) == sorted([long_file, "entrega.py", "entrega.py", long_file])


def test_two_long_names_that_share_their_start_stay_two_files(tmp_path):
    first, second = f"{LONG_SPANISH}versión 1.py", f"{LONG_SPANISH}versión 2.py"
    archive = make_zip(tmp_path / "clase.zip", {f"ana/{first}": "x = 1\n", f"ana/{second}": "x = 2\n"})
    with collect_submissions([archive]) as intake:
        (ana,) = intake.learners
        read = {f.name: f.path.read_text() for f in ana.files}
    assert read == {first: "x = 1\n", second: "x = 2\n"}


@pytest.mark.parametrize("name", ["a" * 300 + ".ipynb", "ñ" * 200 + ".py", "😀" * 70, "x" * 250 + "." + "y" * 40])
def test_a_shortened_name_fits_keeps_its_extension_and_cuts_no_letter(name):
    short = collect.fitting_name(name)
    assert len(short.encode()) <= collect.MAX_NAME_BYTES
    assert short.encode().decode() == short  # whole letters only
    ext = name.rpartition(".")[2]
    if "." in name and len(ext) <= 16:
        assert short.endswith("." + ext)
    assert collect.fitting_name(short) == short
    assert collect.fitting_name("entrega.py") == "entrega.py"


# --- a class wrapped in folders and zips, however deep ------------------------------------------------

MOODLE_CLASS = {
    f"{name}_{n}_assignsubmission_file_/04_ejercicios.ipynb": f"x = {n}\n"
    for n, name in enumerate(["Ana Pérez", "Beto Ruiz", "Carla Gil"], start=101)
}


@pytest.mark.parametrize(
    "wrapping",
    [
        ["zip", "Tarea 4", "zip"],  # the guide's own: the LMS's zip in «Tarea 4/», all in a zip
        ["Tarea 4", "zip"],  # that folder on disk
        ["zip", "descargas", "Tarea 4", "zip"],  # zips and folders, deeper
        ["zip", "zip", "zip"],
        ["zip", "Tarea 4"],
    ],
)
def test_a_wrapped_class_is_unwrapped_until_its_learners_appear(tmp_path, wrapping):
    def zipped(members: dict[str, bytes | str]) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as zf:
            for name, data in members.items():
                zf.writestr(name, data)
        return buffer.getvalue()

    members: dict[str, bytes | str] = dict(MOODLE_CLASS)  # what the outermost wrapping holds, built inside out
    for i, wrap in enumerate(reversed(wrapping[1:])):
        members = {f"w{i}.zip": zipped(members)} if wrap == "zip" else {f"{wrap}/{k}": v for k, v in members.items()}
    if wrapping[0] == "zip":
        path = make_zip(tmp_path / "descarga.zip", members)
    else:
        path = tmp_path / wrapping[0]
        for name, data in members.items():
            (path / name).parent.mkdir(parents=True, exist_ok=True)
            (path / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    with collect_submissions([path]) as intake:
        who = sorted((learner.label, learner.ident, len(learner.files)) for learner in intake.learners)
    assert who == [("Ana Pérez", "101", 1), ("Beto Ruiz", "102", 1), ("Carla Gil", "103", 1)]


def test_a_lone_learner_folder_nested_in_folders_stays_one_learner(tmp_path):
    folder = tmp_path / "clase" / "ana" / "trabajo" / "final"
    folder.mkdir(parents=True)
    (folder / "04_ejercicios.py").write_text("x = 1\n")
    (folder.parent / "borrador.py").write_text("x = 0\n")
    with collect_submissions([tmp_path / "clase"]) as intake:
        assert [(lr.source.rsplit("/", 1)[-1], len(lr.files)) for lr in intake.learners] == [("ana", 2)]
    moodle = {f"Tarea/Ana Pérez_101_assignsubmission_file_/{k}": v for k, v in {"a/b/c.py": "x = 1\n"}.items()}
    with collect_submissions([make_zip(tmp_path / "m.zip", moodle)]) as intake:
        assert [(lr.label, lr.ident) for lr in intake.learners] == [("Ana Pérez", "101")]


def test_the_same_class_from_moodle_and_from_canvas_grades_the_same_file(tmp_path):
    final, copy = NOTEBOOKS / "soluciones" / COURSE["04"], NOTEBOOKS / COURSE["04"]
    moodle = make_zip(
        tmp_path / "moodle.zip",
        {
            "Ana Ruiz_16_assignsubmission_file_/04_ejercicios-Copy1.ipynb": copy.read_text(),
            "Ana Ruiz_16_assignsubmission_file_/04_ejercicios.ipynb": final.read_text(),
        },
    )
    canvas = make_zip(
        tmp_path / "canvas.zip",
        {
            # Uploaded after the final: the later upload is still a copy.
            "ruizana_16_902_04_ejercicios-Copy1.ipynb": copy.read_text(),
            "ruizana_16_901_04_ejercicios.ipynb": final.read_text(),
        },
    )
    chosen = []
    for archive in (moodle, canvas):
        with collect_submissions([archive]) as intake:
            (learner,) = intake.learners
            made = choice.choose_for(learner, "es", [0, 1, 2])
        chosen.append((made.name, made.notes[0]))
    assert chosen == [
        (name, f"Se calificó «{name}»: {text('choice.why.not_copy', 'es')}.")
        for name in ("04_ejercicios.ipynb", "ruizana_16_901_04_ejercicios.ipynb")
    ]


def test_canvas_numbers_a_resubmission_and_the_latest_upload_wins(tmp_path):
    first, second = NOTEBOOKS / COURSE["04"], NOTEBOOKS / "soluciones" / COURSE["04"]
    canvas = make_zip(
        tmp_path / "canvas.zip",
        {
            "ruizana_16_901_04_ejercicios.ipynb": first.read_text(),
            "ruizana_16_955_04_ejercicios-1.ipynb": second.read_text(),  # Canvas's «-1»: the resubmission
        },
    )
    with collect_submissions([canvas]) as intake:
        (learner,) = intake.learners
        made = choice.choose_for(learner, "en", [0, 1, 2])
    latest = "ruizana_16_955_04_ejercicios-1.ipynb"
    assert made.notes[0] == f"Graded «{latest}»: it is the latest upload according to the LMS."


def test_canvas_late_work_is_said_in_the_row_and_graded_as_any(tmp_path):
    canvas = make_zip(
        tmp_path / "canvas.zip",
        {"ruizana_LATE_16_901_04_ejercicios.py": GOOD, "gilbeto_17_902_04_ejercicios.py": GOOD},
    )
    with collect_submissions([canvas]) as intake:
        notes = {lr.ident: choice.choose_for(lr, "es", [0, 1, 2]).notes for lr in intake.learners}
    assert notes["16"] == [
        "Canvas marcó «ruizana_LATE_16_901_04_ejercicios.py» como entregado después de la fecha límite (LATE); "
        "la nota no cambia por eso."
    ]
    assert notes["17"] == []
