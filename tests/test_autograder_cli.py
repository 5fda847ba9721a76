"""`autograder grade`: files, folders and LMS zips in; results.json, grades.csv, reports out.

Most tests replace the grading step with a fake (the CLI's job is intake, wiring and
reports); the end-to-end tests at the bottom run the real pipeline in a subprocess.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder import cli
from autograder.classrun import run as class_run
from autograder.course.criteria import required_ids
from autograder.intake import collect
from autograder.reporting import out_folder
from autograder.wire.results import CriterionResult, SubmissionResult

CRITERIA_IDS = required_ids()

REPO = Path(__file__).resolve().parent.parent
SUBMISSIONS = REPO / "tests" / "data" / "submissions"


class FakeGrader:
    """Stands in for the pipeline: records its call, passes criteria by a rule on the file name."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __call__(self, learners, course, *, jobs, progress):
        seed, lang = course.seed, course.lang
        # Each learner's first file that intake did not refuse (the classes here: one per learner).
        chosen = [next((f for f in learner.files if f.refusal is None), None) for learner in learners]
        paths = [f.file for f in chosen if f is not None]
        self.calls.append({"paths": paths, "jobs": jobs, "seed": seed, "lang": lang})
        results = []
        for i, (learner, found) in enumerate(zip(learners, chosen, strict=True)):
            if found is None:
                why = learner.files[0].refusal.render(lang) if learner.files else "nada"
                result = SubmissionResult(learner.name, 0.0, float(len(CRITERIA_IDS)), [], error=why)
            else:
                text = Path(found.file).read_text(encoding="utf-8", errors="replace")
                passed = "correcta" in text
                criteria = [CriterionResult(c, passed, 1.0 if passed else 0.0, 1.0, f"retro {c}") for c in CRITERIA_IDS]
                total = sum(c.score for c in criteria)
                result = SubmissionResult(found.name, total, float(len(criteria)), criteria)
            results.append(result)
            if progress is not None:
                progress(i + 1, len(learners), result, i)
        return results

    @property
    def graded(self) -> list[str]:
        return [Path(p).name for p in self.calls[-1]["paths"]]


@pytest.fixture
def fake(monkeypatch) -> FakeGrader:
    grader = FakeGrader()
    monkeypatch.setattr(class_run, "run_grading", grader)
    return grader


class TTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(*argv: str | Path, stdout: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = stdout or io.StringIO(), io.StringIO()
    # argparse writes usage errors and --help to sys.stderr/sys.stdout directly.
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def results_of(out: Path) -> list[dict]:
    return json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]


def write(path: Path, text: str = "# correcta\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def make_zip(path: Path, members: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


# --- intake -----------------------------------------------------------------------------------


def test_grades_single_files(fake, tmp_path):
    a = write(tmp_path / "ana.py")
    b = write(tmp_path / "beto.ipynb", "{}")
    code, stdout, _ = run("grade", a, b, "--out", tmp_path / "out")
    assert code == 0
    assert fake.graded == ["ana.py", "beto.ipynb"]
    subs = results_of(tmp_path / "out")
    assert [s["submission"] for s in subs] == ["ana.py", "beto.ipynb"]
    assert subs[0]["score"] == len(CRITERIA_IDS) and subs[1]["score"] == 0
    assert "Se calificaron 2 alumnos" in stdout and "Archivos: 2 (calificados, uno por alumno: 2;" in stdout


def test_walks_folders_recursively_and_skips_hidden_and_junk(fake, tmp_path):
    root = tmp_path / "entregas"
    write(root / "grupo1" / "ana.ipynb", "{}")
    write(root / "grupo2" / "sub" / "beto.py")
    write(root / ".oculta.py")
    write(root / ".ipynb_checkpoints" / "ana-checkpoint.ipynb", "{}")
    write(root / "__MACOSX" / "grupo1" / "._ana.ipynb", "basura")
    write(root / "__pycache__" / "x.py")
    write(root / "notas.txt", "no es una entrega")
    code, _, stderr = run("grade", root, "--out", tmp_path / "out")
    assert code == 3  # graded and written, but a file of the class is in no learner's folder
    assert fake.graded == ["ana.ipynb", "beto.py"]
    # A learner is a folder at the top of the class: its files, however deep, are its own.
    assert [s["source"] for s in results_of(tmp_path / "out")] == [f"{root}/grupo1", f"{root}/grupo2"]
    assert "notas.txt»" in stderr.splitlines()[-1]  # a loose file of no learner is named, not graded
    # Jupyter's copies and Python's cache are skipped, one warning each; hidden files and macOS's leftovers silently.
    assert stderr.count("Se omitió la carpeta") == 2
    assert "entregas/.ipynb_checkpoints»: son las copias automáticas de Jupyter" in stderr
    assert "entregas/__pycache__»: es la caché de Python" in stderr
    assert "__MACOSX" not in stderr and ".oculta.py" not in stderr


def test_lms_zip_with_nested_folders_and_a_zip_inside(fake, tmp_path):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("carla_ruiz_333_attempt_2026-03-02-10-00-00.py", "# correcta")
    archive = make_zip(
        tmp_path / "descarga.zip",
        {
            "Tarea 3/ana_garcia_12345_attempt_2026-03-01-09-30-00_leccion3.ipynb": "{}",
            "Tarea 3/beto_lopez_67890_attempt_2026-03-01-11-00-00/entrega.py": "# correcta",
            "Tarea 3/carla.zip": inner.getvalue(),
            "__MACOSX/Tarea 3/._ana_garcia_12345_attempt_2026-03-01-09-30-00_leccion3.ipynb": "resource fork",
            "Tarea 3/.DS_Store": "x",
            "Tarea 3/instrucciones.pdf": "%PDF",
        },
    )
    code, _, stderr = run("grade", archive, "--out", tmp_path / "out")
    assert code == 3, stderr  # the instructions PDF is nobody's: named, not graded, and the run says so
    assert fake.graded == [
        "ana_garcia_12345_attempt_2026-03-01-09-30-00_leccion3.ipynb",
        "carla_ruiz_333_attempt_2026-03-02-10-00-00.py",
        "entrega.py",
    ]
    sources = [s["source"] for s in results_of(tmp_path / "out")]
    # The zip's «Tarea 3/» wraps the class: its entries are the learners (Blackboard's loose files by their
    # attempt, a folder, a zip); the instructions PDF is nobody's.
    assert sources == [
        "descarga.zip/Tarea 3/ana_garcia_12345_attempt_2026-03-01-09-30-00",
        "descarga.zip/Tarea 3/carla.zip",
        "descarga.zip/Tarea 3/beto_lopez_67890_attempt_2026-03-01-11-00-00",
    ]
    # Extraction happened in a temporary folder that is gone once grading is over.
    assert not any(Path(p).exists() for p in fake.calls[-1]["paths"])
    assert not (tmp_path / "Tarea 3").exists()


def test_zip_slip_members_are_refused_and_never_written_outside(fake, tmp_path):
    target = tmp_path / "victima"
    target.mkdir()
    archive = make_zip(
        tmp_path / "malicioso.zip",
        {
            "../victima/escapa.py": "# correcta",
            "../../escapa2.py": "# correcta",
            "/tmp/absoluto.py": "# correcta",
            "..\\victima\\windows.py": "# correcta",
            "C:/windows.py": "# correcta",
            "bien/ana.py": "# correcta",
        },
    )
    code, _, stderr = run("grade", archive, "--out", tmp_path / "out")
    assert code == 0
    assert fake.graded == ["ana.py"]
    assert list(target.iterdir()) == []
    assert not (tmp_path.parent / "escapa2.py").exists()
    assert stderr.count("zip slip") == 5
    assert "«../victima/escapa.py» en «malicioso.zip»" in stderr
    summary = (tmp_path / "out" / "resumen.html").read_text(encoding="utf-8")
    assert "zip slip" in summary  # the instructor sees what was refused


def test_symlink_member_is_refused(fake, tmp_path):
    archive = tmp_path / "enlace.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        info = zipfile.ZipInfo("ana.py")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
        zf.writestr("beto.py", "# correcta")
    code, _, stderr = run("grade", archive, "--out", tmp_path / "out")
    assert code == 0 and fake.graded == ["beto.py"]
    assert "enlace simbólico" in stderr


def test_zip_bomb_member_is_refused(fake, tmp_path):
    archive = make_zip(tmp_path / "bomba.zip", {"bomba.py": b"#" * (100 * 1024 * 1024), "ana.py": "# correcta"})
    assert archive.stat().st_size < 1024 * 1024
    code, _, stderr = run("grade", archive, "--out", tmp_path / "out")
    assert code == 0 and fake.graded == ["ana.py"]
    assert "bomba zip" in stderr and "«bomba.py»" in stderr
    rows = {r["submission"]: r for r in results_of(tmp_path / "out")}
    assert "bomba zip" in rows["bomba.py"]["error"] and rows["bomba.py"]["score"] == 0  # its own row


def test_member_over_the_size_limit_is_refused_even_if_it_compresses_badly(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(collect, "MAX_MEMBER_BYTES", 4096)
    archive = make_zip(tmp_path / "grande.zip", {"grande.py": os.urandom(8192), "ana.py": "# correcta"})
    code, _, stderr = run("grade", archive, "--out", tmp_path / "out")
    assert code == 0 and fake.graded == ["ana.py"]
    assert "«grande.py»" in stderr


def test_same_file_name_in_two_folders_gets_two_reports(fake, tmp_path):
    write(tmp_path / "entregas" / "grupo1" / "entrega.py")
    write(tmp_path / "entregas" / "grupo2" / "entrega.py", "# mal")
    out = tmp_path / "out"
    code, _, _ = run("grade", tmp_path / "entregas", "--out", out)
    assert code == 0
    subs = results_of(out)
    assert [s["submission"] for s in subs] == ["entrega.py", "entrega.py"]
    reports = [s["feedback"] for s in subs]
    assert len(set(reports)) == 2
    # A folder is a learner, and names them; the instructor's path stays out of their page.
    for sub, report, group in zip(subs, reports, ("grupo1", "grupo2"), strict=True):
        html = (out / report).read_text(encoding="utf-8")
        assert f"<title>Retroalimentación: {group}</title>" in html and str(tmp_path) not in html
        assert sub["learner"] == group and group in report
    assert len(list((out / "feedback").glob("*.md"))) == 2


def test_same_file_given_twice_is_graded_once(fake, tmp_path):
    a = write(tmp_path / "entregas" / "ana.py")
    code, _, _ = run("grade", tmp_path / "entregas", a, "--out", tmp_path / "out")
    assert code == 0 and fake.graded == ["ana.py"]


# --- outputs ----------------------------------------------------------------------------------


def test_writes_results_csv_feedback_and_summary(fake, tmp_path):
    write(tmp_path / "ana.py")
    write(tmp_path / "beto.py", "# mal")
    out = tmp_path / "out"
    code, _, _ = run("grade", tmp_path / "ana.py", tmp_path / "beto.py", "--out", out)
    assert code == 0
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert list(doc) == ["report", "submissions"]
    for sub in doc["submissions"]:
        assert {"submission", "score", "max_score", "criteria", "error"} <= set(sub)
        assert all(set(c) == {"id", "passed", "score", "max_score", "feedback"} for c in sub["criteria"])
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8")))
    assert [r["submission"] for r in rows] == ["ana.py", "beto.py"]
    assert [r["total"] for r in rows] == [str(len(CRITERIA_IDS)), "0"]
    assert set(CRITERIA_IDS) <= set(rows[0])
    assert sorted(p.name for p in (out / "feedback").iterdir()) == ["ana.html", "ana.md", "beto.html", "beto.md"]
    assert "Resumen de la clase" in (out / "resumen.html").read_text(encoding="utf-8")


def test_lang_en_writes_english_feedback_and_reaches_the_grader(fake, tmp_path):
    write(tmp_path / "ana.py")
    code, _, _ = run("grade", tmp_path / "ana.py", "--out", tmp_path / "out", "--lang", "en")
    assert code == 0 and fake.calls[-1]["lang"] == "en"
    assert (tmp_path / "out" / "feedback" / "ana.md").read_text(encoding="utf-8").startswith("# Feedback")


def test_lang_covers_the_console_too(fake, tmp_path):
    write(tmp_path / "ana.py")
    code, out, _ = run("grade", tmp_path / "ana.py", "--out", tmp_path / "en", "--lang", "en")
    assert code == 0 and "Graded 1 learner in" in out and "To repeat exactly this grading" in out
    code, _, err = run("grade", tmp_path / "ana.py", "--out", tmp_path / "en", "--lang", "en")
    assert code == 2 and "already holds results" in err
    code, out, _ = run("grade", tmp_path / "ana.py", "--out", tmp_path / "es")
    assert code == 0 and "Se calificó 1 alumno en" in out


def test_seed_and_jobs_reach_the_grader_and_a_chosen_seed_is_recorded(fake, tmp_path):
    write(tmp_path / "ana.py")
    code, _, _ = run("grade", tmp_path / "ana.py", "--out", tmp_path / "a", "--seed", "123", "--jobs", "3")
    assert code == 0 and fake.calls[-1]["seed"] == 123 and fake.calls[-1]["jobs"] == 3
    assert results_of(tmp_path / "a")[0]["seed"] == 123
    code, stdout, _ = run("grade", tmp_path / "ana.py", "--out", tmp_path / "b")
    seed = fake.calls[-1]["seed"]
    assert code == 0 and isinstance(seed, int)
    assert results_of(tmp_path / "b")[0]["seed"] == seed and f"--seed {seed}" in stdout


def test_exit_0_whatever_the_scores(fake, tmp_path):
    write(tmp_path / "mal.py", "# mal")
    code, _, _ = run("grade", tmp_path / "mal.py", "--out", tmp_path / "out")
    assert code == 0 and results_of(tmp_path / "out")[0]["score"] == 0


def test_progress_bar_only_on_a_terminal(fake, tmp_path):
    for name in ("a.py", "b.py", "c.py"):
        write(tmp_path / "e" / name)
    code, plain, _ = run("grade", tmp_path / "e", "--out", tmp_path / "o1")
    assert code == 0 and "\r" not in plain and "█" not in plain
    code, tty, _ = run("grade", tmp_path / "e", "--out", tmp_path / "o2", stdout=TTY())
    assert code == 0 and tty.count("\r") == 3 and "3/3" in tty


def test_previous_results_are_not_overwritten_without_force(fake, tmp_path):
    write(tmp_path / "ana.py")
    write(tmp_path / "beto.py")
    out = tmp_path / "out"
    assert run("grade", tmp_path / "ana.py", "--out", out)[0] == 0
    before = (out / "results.json").read_bytes()
    code, _, stderr = run("grade", tmp_path / "beto.py", "--out", out)
    assert code == 2 and "--force" in stderr and "ya tiene resultados" in stderr
    assert (out / "results.json").read_bytes() == before
    # Another class entirely: --force alone would wipe it, so it is refused; --replace says that is the point.
    code, _, stderr = run("grade", tmp_path / "beto.py", "--out", out, "--force")
    assert code == 2 and "Ninguno de los alumnos dados está en la clase" in stderr and "--replace" in stderr
    assert (out / "results.json").read_bytes() == before
    code, _, _ = run("grade", tmp_path / "beto.py", "--out", out, "--force", "--replace")
    assert code == 0 and [s["submission"] for s in results_of(out)] == ["beto.py"]
    assert sorted(p.name for p in (out / "feedback").iterdir()) == ["beto.html", "beto.md"]


def _class_of(root: Path, people: dict[str, str]) -> Path:
    for name, content in people.items():
        (root / name).mkdir(parents=True, exist_ok=True)
        (root / name / "entrega.py").write_text(content, encoding="utf-8")
    return root


def test_regrading_part_of_a_class_updates_those_learners_and_keeps_everyone_else(fake, tmp_path):
    out = tmp_path / "out"
    _class_of(tmp_path / "clase", {"ana": "# correcta", "beto": "# mal", "carla": "# correcta"})
    assert run("grade", tmp_path / "clase", "--out", out, "--seed", "7")[0] == 0
    before = {s["learner"]: s for s in results_of(out)}
    pages = {p.name: p.read_bytes() for p in (out / "feedback").iterdir() if p.name.startswith(("ana", "carla"))}
    # Beto resubmits, fixed; and a newcomer hands in late. The class's seed is used when none is given.
    _class_of(tmp_path / "reentrega", {"beto": "# correcta", "dani": "# mal"})
    code, stdout, stderr = run("grade", tmp_path / "reentrega", "--out", out, "--force")
    assert code == 0, stderr
    assert "La clase en" in stdout and "tiene 4 alumnos: 2 quedaron como estaban" in stdout
    after = {s["learner"]: s for s in results_of(out)}
    assert list(after) == ["ana", "beto", "carla", "dani"]
    assert after["ana"] == before["ana"] and after["carla"] == before["carla"]
    assert after["beto"]["score"] == len(CRITERIA_IDS) > before["beto"]["score"]
    assert fake.calls[-1]["seed"] == 7
    assert {n: (out / "feedback" / n).read_bytes() for n in pages} == pages
    assert sorted(p.name for p in (out / "feedback").iterdir()) == sorted(
        f"{n}.{ext}" for n in ("ana", "beto", "carla", "dani") for ext in ("html", "md")
    )
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8")))
    assert [r["learner"] for r in rows] == ["ana", "beto", "carla", "dani"]


def test_regrading_into_a_class_with_another_seed_is_refused(fake, tmp_path):
    out = tmp_path / "out"
    _class_of(tmp_path / "clase", {"ana": "# correcta", "beto": "# mal"})
    assert run("grade", tmp_path / "clase", "--out", out, "--seed", "7")[0] == 0
    before = (out / "results.json").read_bytes()
    code, _, stderr = run("grade", tmp_path / "clase" / "beto", "--out", out, "--force", "--seed", "8")
    assert code == 2 and "semilla 7, no 8" in stderr and "--seed 7" in stderr
    assert (out / "results.json").read_bytes() == before


# --- the --out folder: one run at a time, and nobody else's files touched (issue 20.4) ------------


def tree_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_second_run_into_an_out_being_written_refuses(fake, tmp_path):
    write(tmp_path / "ana.py")
    out = tmp_path / "out"
    with out_folder.out_lock(out):
        code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out)
        assert code == 2 and "está escribiendo en" in stderr
        code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out, "--force", "--lang", "en")
        assert code == 2 and "is writing to" in stderr
        assert not (out / "results.json").exists()
    # Released on exit: the next run goes ahead, and leaves no lock file behind.
    assert run("grade", tmp_path / "ana.py", "--out", out)[0] == 0
    assert not (out / out_folder.LOCK_FILE).exists()


def test_a_stale_lock_file_of_a_dead_run_does_not_block(fake, tmp_path):
    write(tmp_path / "ana.py")
    out = tmp_path / "out"
    out.mkdir()
    (out / out_folder.LOCK_FILE).write_text("99999999\n")  # left by a run killed with SIGKILL: no flock held
    assert run("grade", tmp_path / "ana.py", "--out", out)[0] == 0


def test_the_lock_is_held_by_another_process_too(fake, tmp_path):
    write(tmp_path / "ana.py")
    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
            "fcntl.flock(fd, fcntl.LOCK_EX); print('ok', flush=True); time.sleep(60)",
            str(out / out_folder.LOCK_FILE),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ok"
        code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out)
        assert code == 2 and "está escribiendo" in stderr
    finally:
        holder.kill()
        holder.wait()
    assert run("grade", tmp_path / "ana.py", "--out", out)[0] == 0  # the holder died: its lock went with it


def test_a_refused_run_leaves_no_empty_out_folder(fake, tmp_path):
    out = tmp_path / "nueva"
    code, _, _ = run("grade", tmp_path / "no-existe.py", "--out", out)
    assert code == 2 and not out.exists()


@pytest.mark.parametrize("foreign", ["notas-de-la-profe.txt", "feedback/ana-comentado.html", "otra/cosa.md"])
def test_an_out_with_files_the_grader_did_not_write_needs_force_and_keeps_them(fake, tmp_path, foreign):
    write(tmp_path / "ana.py")
    out = tmp_path / "out"
    write(out / foreign, "mío")
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out)
    assert code == 2 and "no escribió el autocorrector" in stderr and foreign in stderr
    assert [str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()] == [foreign]
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out, "--force")
    assert code == 0, stderr
    assert (out / foreign).read_text(encoding="utf-8") == "mío" and (out / "results.json").is_file()
    # A later --force still leaves it where it is.
    assert run("grade", tmp_path / "ana.py", "--out", out, "--force")[0] == 0
    assert (out / foreign).read_text(encoding="utf-8") == "mío"


@pytest.mark.parametrize("name", ["grades.csv", "resumen.html", "feedback/ana.html", "results.json"])
def test_force_never_replaces_a_file_the_grader_did_not_write(fake, tmp_path, name):
    write(tmp_path / "ana.py")
    out = tmp_path / "out"
    write(out / name, "la hoja de la profe")
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out, "--force")
    assert code == 2 and "Ni con --force" in stderr and name in stderr
    assert (out / name).read_text(encoding="utf-8") == "la hoja de la profe"
    assert [str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()] == [name]


def test_a_report_edited_after_grading_is_the_instructors(fake, tmp_path):
    write(tmp_path / "ana.py")
    out = tmp_path / "out"
    assert run("grade", tmp_path / "ana.py", "--out", out)[0] == 0
    edited = (out / "grades.csv").read_text(encoding="utf-8") + "comentario,de,la,profe\n"
    (out / "grades.csv").write_text(edited, encoding="utf-8")
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out, "--force")
    assert code == 2 and "grades.csv" in stderr
    assert (out / "grades.csv").read_text(encoding="utf-8") == edited


def test_force_removes_only_the_earlier_runs_own_stale_files(fake, tmp_path):
    write(tmp_path / "ana.py")
    write(tmp_path / "beto.py")
    out = tmp_path / "out"
    assert run("grade", tmp_path / "ana.py", tmp_path / "beto.py", "--out", out)[0] == 0
    write(out / "feedback" / "nota.txt", "mía")
    # --force keeps the rest of the class; --replace drops it, and with it only the grader's own files.
    assert run("grade", tmp_path / "beto.py", "--out", out, "--force")[0] == 0
    assert sorted(p.name for p in (out / "feedback").iterdir()) == [
        "ana.html",
        "ana.md",
        "beto.html",
        "beto.md",
        "nota.txt",
    ]
    assert run("grade", tmp_path / "beto.py", "--out", out, "--force", "--replace")[0] == 0
    names = sorted(p.name for p in (out / "feedback").iterdir())
    assert names == ["beto.html", "beto.md", "nota.txt"]


def test_a_damaged_manifest_makes_every_file_foreign(fake, tmp_path):
    write(tmp_path / "ana.py")
    out = tmp_path / "out"
    assert run("grade", tmp_path / "ana.py", "--out", out)[0] == 0
    (out / out_folder.MANIFEST_FILE).write_text(
        '{"files": {"../../etc/passwd": "x", "grades.csv": 3}', encoding="utf-8"
    )
    before = tree_of(out)
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out, "--force")
    assert code == 2 and "Ni con --force" in stderr
    assert tree_of(out) == before


def test_a_run_that_failed_while_writing_leaves_files_force_may_replace(fake, tmp_path, monkeypatch):
    write(tmp_path / "ana.py")
    out = tmp_path / "out"
    real = class_run.write_reports

    def half_then_fail(out_dir, entries, **kwargs):
        (out_dir / "feedback").mkdir(parents=True, exist_ok=True)
        (out_dir / "feedback" / f"{entries[0].name}.md").write_text("a medias", encoding="utf-8")
        raise OSError("disco lleno")

    monkeypatch.setattr(class_run, "write_reports", half_then_fail)
    assert run("grade", tmp_path / "ana.py", "--out", out)[0] == 1
    monkeypatch.setattr(class_run, "write_reports", real)
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out)
    assert code == 2 and "ya tiene resultados" in stderr  # the grader's, not somebody else's
    assert run("grade", tmp_path / "ana.py", "--out", out, "--force")[0] == 0
    assert (out / "feedback" / "ana.md").read_text(encoding="utf-8").startswith("# Retroalimentación")


def test_force_never_writes_through_a_link_where_a_folder_of_reports_goes(fake, tmp_path):
    write(tmp_path / "ana.py")
    out, elsewhere = tmp_path / "out", tmp_path / "otra"
    elsewhere.mkdir()
    out.mkdir()
    (out / "feedback").symlink_to(elsewhere)
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", out, "--force")
    assert code == 2 and "«feedback»" in stderr
    assert list(elsewhere.iterdir()) == [] and not (out / "results.json").exists()


def test_the_learners_name_comes_from_intake_then_the_result_then_the_file(fake, monkeypatch, tmp_path):
    import dataclasses

    for name in ("a.py", "b.py", "c.py"):
        write(tmp_path / "e" / name)
    real_collect = class_run.collect_submissions

    def named(paths, lang="es", **kwargs):  # what intake records when the LMS says who handed a file in
        intake = real_collect(paths, lang=lang, **kwargs)
        intake.learners = [
            dataclasses.replace(s, label="Ana García", ident="11") if s.source.endswith("a.py") else s
            for s in intake.learners
        ]
        return intake

    def grading(paths, course, **kwargs):
        results = fake(paths, course, **kwargs)
        results[0].learner = "no gana a intake"
        results[1].learner = {"name": "Beto Ruiz", "id": 22}
        return results

    monkeypatch.setattr(class_run, "collect_submissions", named)
    monkeypatch.setattr(class_run, "run_grading", grading)
    out = tmp_path / "out"
    assert run("grade", tmp_path / "e", "--out", out)[0] == 0
    subs = results_of(out)
    assert [(s["learner"], s["learner_id"]) for s in subs] == [("Ana García", "11"), ("Beto Ruiz", "22"), ("c", None)]
    assert "<title>Retroalimentación: Ana García</title>" in (out / "feedback" / "Ana_García.html").read_text()
    assert "<title>Retroalimentación: Beto Ruiz</title>" in (out / subs[1]["feedback"]).read_text()
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8")))
    assert [r["learner"] for r in rows] == ["Ana García", "Beto Ruiz", "c"]


def test_the_console_names_every_file_written(fake, tmp_path):
    write(tmp_path / "e" / "ana.py")
    write(tmp_path / "e" / "beto.py")
    out = tmp_path / "out"
    code, stdout, _ = run("grade", tmp_path / "e", "--out", out)
    assert code == 0
    written = [p for p in out.rglob("*") if p.is_file() and not p.name.startswith(".")]
    assert len(written) == 4 + 4 and f"Se escribieron {len(written)} archivos" in stdout
    for path in written:
        assert f"  {path}\n" in stdout


def _interrupting(graded: int):
    """A run_grading that grades the first ``graded`` files and then meets Ctrl-C, as the pipeline reports it."""
    from autograder.course.catalogue import text
    from autograder.wire.results import GradingInterrupted

    def grading(paths, course, *, jobs, progress):
        results = FakeGrader()(paths[:graded], course, jobs=jobs, progress=progress)
        message = text("batch.interrupted", course.lang)
        for p in paths[graded:]:
            results.append(SubmissionResult.from_criteria(p.name, course.not_graded(message), error=message))
        raise GradingInterrupted(results, graded=graded)

    return grading


@pytest.mark.parametrize(("graded", "total"), [(2, 5), (0, 3), (4, 4)])
def test_an_interrupted_run_says_so_in_every_report(monkeypatch, tmp_path, graded, total):
    for i in range(total):
        write(tmp_path / "e" / f"e{i}.py")
    monkeypatch.setattr(class_run, "run_grading", _interrupting(graded))
    out = tmp_path / "out"
    code, stdout, stderr = run("grade", tmp_path / "e", "--out", out)
    assert code == 130
    html = (out / "resumen.html").read_text(encoding="utf-8")
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    if graded < total:
        assert f"Calificación interrumpida: {graded} de {total}" in html.split("<h2>")[0]
        assert doc["interrupted"] == {"graded": graded, "total": total}
    else:  # Ctrl-C after the last one: nothing is missing, and the reports do not pretend otherwise
        assert "interrumpida" not in html and "interrupted" not in doc
    scores = [s["score"] for s in doc["submissions"]]
    assert scores == [len(CRITERIA_IDS)] * graded + [None] * (total - graded)
    totals = [r["total"] for r in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))]
    assert totals == [str(len(CRITERIA_IDS))] * graded + [""] * (total - graded)
    for path in (p for p in out.rglob("*") if p.is_file() and not p.name.startswith(".")):
        assert f"  {path}\n" in stdout
    assert f"se calificaron {graded} de {total}" in stderr


@pytest.mark.parametrize(("lang", "interrupted"), [("es", False), ("en", False), ("es", True)])
def test_a_file_in_no_learners_folder_is_named_once_on_the_console_and_kept_in_the_record(
    fake, monkeypatch, tmp_path, lang, interrupted
):
    write(tmp_path / "e" / "ana" / "a.py")
    write(tmp_path / "e" / "beto" / "b.py")
    (tmp_path / "e" / "instrucciones.pdf").write_bytes(b"%PDF")
    write(tmp_path / "e" / ".ipynb_checkpoints" / "a-checkpoint.py")  # another warning, said as intake meets it
    if interrupted:
        monkeypatch.setattr(class_run, "run_grading", _interrupting(1))
    code, _, stderr = run("grade", tmp_path / "e", "--out", tmp_path / "out", "--lang", lang)
    # Named at the end, once: by the message that says the exit code, or, after Ctrl-C, after what was kept.
    assert code == (130 if interrupted else 3), stderr
    assert stderr.count("instrucciones.pdf") == 1, stderr
    assert "instrucciones.pdf" in stderr.strip().splitlines()[-1]
    assert sum(".ipynb_checkpoints" in line for line in stderr.splitlines()) == 1
    # resumen.html shows the record's warnings: the file is there once too.
    warnings = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["report"]["warnings"]
    assert sum("instrucciones.pdf" in w for w in warnings) == 1
    html = (tmp_path / "out" / "resumen.html").read_text(encoding="utf-8")
    assert html.count("instrucciones.pdf") == 1


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_message_for_a_file_of_no_learner_says_the_exit_code_the_command_returns(fake, monkeypatch, tmp_path, lang):
    write(tmp_path / "e" / "ana" / "a.py")
    (tmp_path / "e" / "instrucciones.pdf").write_bytes(b"%PDF")
    monkeypatch.setattr(cli, "EXIT_UNOWNED", 9)  # a script reads the number the message promises
    code, _, stderr = run("grade", tmp_path / "e", "--out", tmp_path / "out", "--lang", lang)
    assert code == 9
    assert stderr.rstrip().endswith("el código 9." if lang == "es" else "exit code 9."), stderr


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ((), "faltan argumentos obligatorios"),
        (("grade", "x.py"), "faltan argumentos obligatorios: --out"),
        (("grade", "x.py", "--out", "o", "--jobs", "0"), "argumento --jobs: tiene que ser al menos 1"),
        (("grade", "x.py", "--out", "o", "--jobs", "muchos"), "argumento --jobs: «muchos» no es un número entero"),
        (("grade", "x.py", "--out", "o", "--lang", "fr"), "argumento --lang: opción no válida"),
        (("grade", "x.py", "--out", "o", "--color"), "argumentos no reconocidos: --color"),
        (("calificar",), "opción no válida"),
    ],
)
def test_bad_usage_exits_2_in_spanish(fake, argv, expected):
    code, _, stderr = run(*argv)
    assert code == 2
    assert expected in stderr
    assert "usage:" not in stderr and "error: the" not in stderr
    assert fake.calls == []


def test_help_is_in_spanish():
    code, stdout, _ = run("grade", "--help")
    assert code == 0
    assert stdout.startswith("uso: autograder grade")
    assert "opciones:" in stdout and "muestra esta ayuda y termina" in stdout
    assert "usage" not in stdout and "show this help" not in stdout


SPANISH_WORDS = ("uso:", "opciones", "órdenes", "RUTA", "CARPETA", "argumento", "tiene que", "Usa «", "muestra esta")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("grade", "x.py", "--lang", "en"), "the following arguments are required: --out"),
        (("grade", "x.py", "--out", "o", "--jobs", "0", "--lang", "en"), "argument --jobs: it must be at least 1"),
        (("grade", "--lang=en", "x.py", "--out", "o", "--jobs", "x"), "argument --jobs: «x» is not a whole number"),
        (("grade", "x.py", "--lang", "en", "--out", "o", "--seed", "-1"), "argument --seed: it must be 0 or more"),
        (("grade", "x.py", "--out", "o", "--color", "--lang", "en"), "unrecognized arguments: --color"),
        (("merge", "--lang", "en"), "the following arguments are required"),
    ],
)
def test_bad_usage_is_in_english_under_lang_en(fake, argv, expected):
    code, _, stderr = run(*argv)
    assert code == 2
    assert expected in stderr and stderr.startswith("usage: autograder")
    assert not [word for word in SPANISH_WORDS if word in stderr], stderr
    assert fake.calls == []


@pytest.mark.parametrize(
    "argv",
    [
        ("--lang", "en", "grade", "{ana}", "--out", "{out}"),
        ("--lang=en", "grade", "{ana}", "--out", "{out}"),
        ("grade", "{ana}", "--out", "{out}", "--lang", "en"),
    ],
)
def test_lang_is_taken_before_or_after_the_command(fake, tmp_path, argv):
    (tmp_path / "ana.py").write_text("x = 1\n")
    argv = [a.format(ana=tmp_path / "ana.py", out=tmp_path / "out") for a in argv]
    code, stdout, stderr = run(*argv)
    assert code == 0, stderr
    assert "Graded 1 learner in" in stdout and "Se calific" not in stdout
    assert fake.calls[0]["lang"] == "en"


def test_lang_before_the_command_gives_its_help_and_errors_in_english():
    code, stdout, _ = run("--lang", "en", "grade", "--help")
    assert code == 0 and stdout.startswith("usage: autograder grade")
    code, _, stderr = run("--lang", "en", "grade", "x.py", "--out", "o", "--jobs", "0")
    assert code == 2 and "it must be at least 1" in stderr
    code, _, stderr = run("--lang", "en")
    assert code == 2 and "the following arguments are required" in stderr


def test_the_spanish_help_of_grade_keeps_its_order():
    usage = run("grade", "--help")[1].split("\n\n")[0]
    flags = [flag for flag in ("--out", "--jobs", "--seed", "--lang", "--force", "--shard") if flag in usage]
    assert sorted(flags, key=usage.index) == ["--out", "--jobs", "--seed", "--lang", "--force", "--shard"]


def test_an_unknown_lang_is_refused_in_spanish_the_default():
    code, _, stderr = run("grade", "x.py", "--out", "o", "--lang", "fr")
    assert code == 2 and "argumento --lang: opción no válida" in stderr and "usage:" not in stderr


@pytest.mark.parametrize("command", ["grade", "merge", "gradescope"])
@pytest.mark.parametrize("spelling", [("--lang", "en"), ("--lang=en",)])
def test_help_is_in_english_under_lang_en(command, spelling):
    code, stdout, _ = run(command, *spelling, "--help")
    assert code == 0
    assert stdout.startswith(f"usage: autograder {command}") and "show this help message" in stdout
    assert "language of the" in stdout
    assert not [word for word in SPANISH_WORDS if word in stdout], stdout


@pytest.mark.parametrize("command", ["grade", "merge", "gradescope"])
def test_every_command_has_its_help_in_spanish_by_default(command):
    code, stdout, _ = run(command, "--help")
    assert code == 0 and stdout.startswith(f"uso: autograder {command}") and "idioma de l" in stdout
    assert "usage" not in stdout and "show this help" not in stdout and "language" not in stdout


def test_missing_path_no_submissions_and_unreadable_zip_exit_2(fake, tmp_path):
    code, _, stderr = run("grade", tmp_path / "no-existe.py", "--out", tmp_path / "o")
    assert code == 2 and "No existe" in stderr
    (tmp_path / "vacia").mkdir()
    write(tmp_path / "vacia" / "leeme.txt", "nada")
    code, _, stderr = run("grade", tmp_path / "vacia", "--out", tmp_path / "o")
    assert code == 2 and "No se encontró ninguna entrega" in stderr
    (tmp_path / "roto.zip").write_bytes(b"esto no es un zip")
    code, _, stderr = run("grade", tmp_path / "roto.zip", "--out", tmp_path / "o")
    assert code == 2 and "No se pudo leer el zip «roto.zip»" in stderr and "Traceback" not in stderr
    write(tmp_path / "notas.txt", "x")
    code, _, stderr = run("grade", tmp_path / "notas.txt", "--out", tmp_path / "o")
    assert code == 2 and "no es una entrega" in stderr
    assert fake.calls == [] and not (tmp_path / "o" / "results.json").exists()
    only_slip = make_zip(tmp_path / "solo-slip.zip", {"../fuera.py": "x"})
    code, _, stderr = run("grade", only_slip, "--out", tmp_path / "o")
    assert code == 0 and "zip slip" in stderr  # a refused member is a learner's row, not nothing
    assert "zip slip" in results_of(tmp_path / "o")[0]["error"]


def test_out_that_is_a_file_exits_2(fake, tmp_path):
    write(tmp_path / "ana.py")
    write(tmp_path / "archivo", "x")
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", tmp_path / "archivo")
    assert code == 2 and "es un archivo" in stderr


def test_internal_failure_is_a_sentence_not_a_traceback(monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise RuntimeError("el pool se cayó")

    monkeypatch.setattr(class_run, "run_grading", broken)
    monkeypatch.delenv("AUTOGRADER_DEBUG", raising=False)
    write(tmp_path / "ana.py")
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", tmp_path / "out")
    assert code == 1
    assert "error interno del autocorrector: RuntimeError: el pool se cayó" in stderr
    assert "Traceback" not in stderr and not (tmp_path / "out" / "results.json").exists()


# --- the real thing ---------------------------------------------------------------------------


@pytest.mark.slow
def test_python_m_autograder_grades_a_zip_for_real(tmp_path):
    archive = make_zip(
        tmp_path / "clase.zip",
        {
            # A learner is a folder; «grupo» holds only learners' folders, «otro» one learner's.
            "grupo/ana/ana_1_attempt.py": (SUBMISSIONS / "good.py").read_text(),
            "grupo/beto/beto_2_attempt.py": (SUBMISSIONS / "production.py").read_text(),
            "grupo/dani/roto.py": "def (",
            "otro/carla/carla_3_attempt.ipynb": (SUBMISSIONS / "good_notebook.ipynb").read_bytes(),
        },
    )
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(archive), "--out", str(out), "--jobs", "2", "--seed", "5"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "\r" not in proc.stdout  # not a terminal: no progress bar
    subs = {s["submission"]: s for s in results_of(out)}
    correct, bug, broken = subs["ana_1_attempt.py"], subs["beto_2_attempt.py"], subs["roto.py"]
    assert correct["score"] == correct["max_score"] > 0, correct
    assert correct["error"] is None
    by_id = {c["id"]: c for c in bug["criteria"]}
    assert not by_id["nivel2.no_double_email"]["passed"]
    assert not by_id["nivel2.high_impact_not_rerun"]["passed"]
    assert broken["score"] == 0 and broken["error"]
    notebook = subs["carla_3_attempt.ipynb"]
    assert {c["id"]: c["passed"] for c in notebook["criteria"]}["nivel2.no_double_email"]
    assert all(s["seed"] == 5 for s in subs.values())
    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8")))
    assert len(rows) == 4
    assert len(list((out / "feedback").glob("*.html"))) == 4


@pytest.mark.slow
def test_grading_bench_quick_still_runs():
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "bench_grading.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    for line in ("--jobs 1: 4 entregas", "--jobs 2: 4 entregas", "entregas/s", "mediana", "p90"):
        assert line in proc.stdout, proc.stdout
    # The pathological notebook is timed and, past its shell lines, graded in full.
    score = re.search(r"cuaderno patológico.*\n  puntaje (\S+)/(\S+)", proc.stdout)
    assert score and score[1] == score[2], proc.stdout


@pytest.mark.parametrize("first", ["# correcta", "# mal"])
def test_a_name_too_long_is_graded_with_a_note_and_a_repeated_member_is_the_last_one(fake, tmp_path, first):
    archive = tmp_path / "raro.zip"
    last = "# mal" if first == "# correcta" else "# correcta"
    long_name = "x" * 300 + ".py"  # longer than a Linux file system stores
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(long_name, "# correcta")
        zf.writestr("ana.py", first)
        with pytest.warns(UserWarning, match="Duplicate name"):
            zf.writestr("ana.py", last)
    code, _, stderr = run("grade", archive, "--out", tmp_path / "out")
    assert code == 0 and len(fake.graded) == 2 and "ana.py" in fake.graded
    assert stderr.count("vale la última copia, como con `unzip -o`") == 1
    assert stderr.count("pasa de 255 bytes") == 1 and "se calificó igual" in stderr
    rows = {r["submission"]: r for r in results_of(tmp_path / "out")}
    assert rows["ana.py"]["score"] == (len(CRITERIA_IDS) if last == "# correcta" else 0)  # as `unzip -o`: the last
    assert rows[long_name]["error"] is None and rows[long_name]["score"] == len(CRITERIA_IDS)  # by its own name


def test_argparse_has_its_words_in_every_language_of_the_catalogue():
    from autograder.course.catalogue import LANGS

    assert set(cli.ARGPARSE) == set(LANGS)


@pytest.mark.parametrize("argv", [["review", "{out}", "--criterion", "nivel0.fresh_start"], ["review", "{out}"]])
def test_a_reader_that_leaves_early_ends_the_command_quietly(tmp_path, argv):
    # `autograder review out | head`: the pipe closes before the listing is written. A shell's answer is
    # 141 (SIGPIPE) and no message; never «error interno ... BrokenPipeError» or a traceback.
    cls = tmp_path / "clase"
    (cls / "ana").mkdir(parents=True)
    (cls / "ana" / "trabajo.pdf").write_bytes(b"%PDF-1.4\n")  # nothing to run: quick, no judge
    out = tmp_path / "out"
    assert cli.main(["grade", str(cls), "--out", str(out), "--seed", "1"], stdout=io.StringIO()) == 0
    command = [sys.executable, "-m", "autograder", *(a.format(out=out) for a in argv)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()  # the reader leaves before a line is written
    stderr = child.stderr.read().decode()
    assert child.wait(timeout=120) == cli.EXIT_BROKEN_PIPE
    assert "BrokenPipe" not in stderr and "Traceback" not in stderr and "Exception ignored" not in stderr


def test_numbers_with_decimals_are_written_as_each_language_writes_them():
    from autograder.course.catalogue import text

    assert "en 2,5 s" in text("cli.graded.other", "es", n=3, seconds=2.5, jobs=2, seed=1)
    assert "in 2.5 s" in text("cli.graded.other", "en", n=3, seconds=2.5, jobs=2, seed=1)
    assert "0,25 s" in text("load.notebook_timeout", "es", name="a.ipynb", seconds=0.25)
    # Whole numbers, names and a version written by the learner are left as they are.
    assert "«v1.2.py»" in text("load.notebook_timeout", "es", name="v1.2.py", seconds=3)
    assert "3 s" in text("load.notebook_timeout", "es", name="a", seconds=3)


def test_near_identical_code_is_flagged_in_every_output_and_changes_no_grade(fake, tmp_path):
    solution = (REPO / "tests" / "data" / "submissions" / "good.py").read_text(encoding="utf-8")
    renamed = re.sub(r"\bpending\b", "colgante", re.sub(r"\bresult\b", "respuesta", solution))  # variables only
    other = (REPO / "tests" / "data" / "submissions" / "tuned.py").read_text(encoding="utf-8")
    people = {"ana": solution, "beto": renamed, "carla": "# un comentario\n" + solution, "dani": other}
    _class_of(tmp_path / "clase", {name: "# correcta\n" + code for name, code in people.items()})
    out = tmp_path / "out"
    assert run("grade", tmp_path / "clase", "--out", out, "--seed", "3")[0] == 0
    rows = {s["learner"]: s for s in results_of(out)}
    for name in ("ana", "beto", "carla"):
        named = {c["other"] for c in rows[name]["copies"] if c["function"] == "reconcile"}
        assert named == {"ana", "beto", "carla"} - {name}, name
        assert rows[name]["score"] == len(CRITERIA_IDS)  # a flag is no verdict
    assert "copies" not in rows["dani"] or all(c["other"] not in people for c in rows["dani"]["copies"])
    table = (out / "resumen.html").read_text(encoding="utf-8")
    assert "Código casi idéntico" in table and table.count("<code>reconcile</code>") >= 6
    assert "posible copia: reconcile es casi idéntica a la de" in table
    flagged = {r["learner"]: r["flags"] for r in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))}
    assert "possible copy: reconcile" in flagged["beto"] and "possible copy: reconcile" not in flagged["dani"]
