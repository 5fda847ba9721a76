"""`autograder grade --shard I/N` and `autograder merge`: a class split across machines, put back together.

The fast tests replace the grading step with a deterministic fake (the shard logic is
intake, partition and reports); the end-to-end test grades the sample submissions for
real, once on one machine and as 2 and 3 shards, and compares the merged folders.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from unittest.mock import ANY

import pytest

from autograder import cli
from autograder.classrun import run as class_run
from autograder.classrun import shards
from autograder.course.criteria import required_ids
from autograder.intake.collect import collect_submissions
from autograder.reporting import out_folder
from autograder.wire.results import CriterionResult, SubmissionResult

CRITERIA_IDS = required_ids()

REPO = Path(__file__).resolve().parent.parent
SUBMISSIONS = REPO / "tests" / "data" / "submissions"


def fake_grading(learners, course, *, jobs, progress):
    """Deterministic in (the learner's files' content, seed, lang), like the real grader with a fixed --seed."""
    seed, lang = course.seed, course.lang
    results = []
    for learner in learners:
        p = learner.files[0].path if learner.files else Path(learner.source)
        content = "".join(f.path.read_text(encoding="utf-8", errors="replace") for f in learner.files if not f.refusal)
        criteria = []
        for k, cid in enumerate(CRITERIA_IDS):
            passed = (len(content) + seed + k) % 3 != 0
            criteria.append(CriterionResult(cid, passed, 1.0 if passed else 0.0, 1.0, f"{lang}: {cid} {passed}"))
        results.append(SubmissionResult.from_criteria(Path(p).name, criteria, seed=seed))
    return results


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(class_run, "run_grading", fake_grading)


def run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def make_class(root: Path, n: int = 30) -> Path:
    """A class as LMSes lay it out: a folder per learner (in group folders), two learners with one name,
    a learner with two files, a loose file, and an LMS zip of learners with a refused member."""
    cls = root / "clase"
    for i in range(n):
        path = cls / f"grupo{i % 3}" / f"alumno{i:02d}" / "tarea.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# alumno {i}\n" + "x = 1\n" * i, encoding="utf-8")
    for group, text in (("grupo0", "# a\n"), ("grupo1", "# bb\n")):
        (cls / group / "ana").mkdir()
        (cls / group / "ana" / "entrega.py").write_text(text, encoding="utf-8")
    (cls / "grupo2" / "alumno02" / "notas.pdf").write_bytes(b"%PDF-1.4\n")
    (cls / "suelta.py").write_text("# suelta\n", encoding="utf-8")
    with zipfile.ZipFile(cls / "lms.zip", "w") as zf:
        zf.writestr("carla/carla.py", "# carla\n")
        zf.writestr("bea/bea.py", "# bea\n")
        zf.writestr("../fuera.py", "# zip slip\n")
    return cls


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- --shard I/N ------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "expected"), [("1/1", (1, 1)), ("3/4", (3, 4)), (" 2 / 4 ", (2, 4))])
def test_parse_shard(spec, expected):
    shard = shards.parse_shard(spec)
    assert (shard.index, shard.count) == expected


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("0/2", "las partes se cuentan desde 1"),
        ("3/2", "I tiene que estar entre 1 y 2"),
        ("1/0", "N (el número de partes) tiene que estar entre 1"),
        ("2", "escribe I/N"),
        ("a/b", "escribe I/N"),
        ("-1/2", "escribe I/N"),
        ("1/2/3", "escribe I/N"),
        ("", "escribe I/N"),
    ],
)
def test_a_bad_shard_is_a_spanish_usage_error(fake, tmp_path, spec, expected):
    (tmp_path / "ana.py").write_text("# x\n")
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", tmp_path / "o", "--seed", "1", f"--shard={spec}")
    assert code == 2
    assert f"argumento --shard: «{spec}»" in stderr or f"argumento --shard: en «{spec}»" in stderr
    assert expected in stderr and "Traceback" not in stderr
    assert not (tmp_path / "o").exists()


def test_a_shard_needs_a_seed(fake, tmp_path):
    (tmp_path / "ana.py").write_text("# x\n")
    code, _, stderr = run("grade", tmp_path / "ana.py", "--out", tmp_path / "o", "--shard", "1/2")
    assert code == 2 and "Con --shard hace falta --seed S" in stderr
    assert not (tmp_path / "o").exists()


def test_the_shards_partition_the_class_and_keep_its_names_and_order(tmp_path):
    cls = make_class(tmp_path)
    with collect_submissions([cls]) as intake:
        everything = shards.plan(intake.learners, [cls], None)
        for n in (1, 2, 3, 7):
            parts = [shards.plan(intake.learners, [cls], shards.Shard(i, n)) for i in range(1, n + 1)]
            positions = sorted(p.position for part in parts for p in part)
            assert positions == list(range(len(everything))), n
            by_position = {p.position: p for part in parts for p in part}
            assert all(by_position[p.position].name == p.name for p in everything)


def test_the_shard_does_not_depend_on_how_the_path_is_spelled_or_what_else_is_there(tmp_path, monkeypatch):
    cls = make_class(tmp_path)
    monkeypatch.chdir(tmp_path)

    def assignment(given: list[Path], n: int = 4) -> dict[str, int]:
        with collect_submissions(given) as intake:
            return {
                shards.shard_key(s.source, given): shards.shard_of(shards.shard_key(s.source, given), n)
                for s in intake.learners
            }

    absolute = assignment([cls])
    assert assignment([Path("clase")]) == absolute
    assert assignment([Path("./clase/")]) == absolute
    monkeypatch.chdir(cls)
    assert assignment([Path(".")]) == absolute
    # An LMS zip given by itself, by an absolute or a relative path.
    assert (
        assignment([cls / "lms.zip"]) == assignment([Path("lms.zip")]) == {"carla": ANY, "bea": ANY, "../fuera.py": ANY}
    )
    # Adding or removing other submissions never moves one from a shard to another.
    shutil.rmtree(cls / "grupo2")
    (cls / "nueva.py").write_text("# nueva\n")
    after = assignment([cls])
    assert {k: v for k, v in after.items() if k in absolute} == {k: v for k, v in absolute.items() if k in after}
    assert len(set(after) & set(absolute)) > 10


def test_the_shard_hash_is_stable_across_processes_not_pythons_hash():
    names = [f"grupo{i % 5}/alumno{i}.ipynb" for i in range(60)] + ["mañana/Ñandú.py"]
    code = (
        "import json, sys\nfrom autograder.classrun.shards import shard_of\n"
        "print(json.dumps([shard_of(n, 7) for n in json.loads(sys.argv[1])]))"
    )
    seen = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, "-c", code, json.dumps(names)], capture_output=True, text=True, env=env, check=True
        )
        seen.append(json.loads(proc.stdout))
    assert seen[0] == seen[1] == [shards.shard_of(n, 7) for n in names]
    # Decomposed and composed accents are one name (macOS writes NFD, Linux keeps what it gets).
    assert shards.shard_key("clase/N\u0303andu\u0301.py", [Path("clase")]) == "\u00d1and\u00fa.py"


def test_the_shards_are_roughly_even():
    rng = random.Random(3)
    keys = [f"{rng.randrange(10**9)}/entrega.ipynb" for _ in range(4000)]
    counts = [sum(1 for k in keys if shards.shard_of(k, 4) == i) for i in range(1, 5)]
    assert all(800 < c < 1200 for c in counts), counts


# --- merge ------------------------------------------------------------------------------------


def grade_shards(cls: Path, out: Path, n: int, seed: int = 11, lang: str = "es") -> list[Path]:
    folders = []
    for i in range(1, n + 1):
        folder = out / f"parte-{i}"
        code, _, stderr = run("grade", cls, "--out", folder, "--seed", seed, "--lang", lang, "--shard", f"{i}/{n}")
        assert code == 0, stderr
        folders.append(folder)
    return folders


@pytest.fixture(scope="module")
def graded_halves(tmp_path_factory) -> tuple[Path, Path]:
    """``make_class`` graded as parts 1/2 and 2/2 (seed 11, Spanish), once for the module."""
    base = tmp_path_factory.mktemp("mitades")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(class_run, "run_grading", fake_grading)
        first, second = grade_shards(make_class(base), base, 2)
    return first, second


@pytest.fixture
def halves(graded_halves, tmp_path) -> list[Path]:
    """This test's own copy of ``graded_halves`` (``parte-1``, ``parte-2`` in tmp_path), free to edit."""
    return [Path(shutil.copytree(part, tmp_path / part.name)) for part in graded_halves]


def test_a_shard_records_its_run(fake, tmp_path):
    cls = make_class(tmp_path)
    folder = grade_shards(cls, tmp_path, 3)[1]
    doc = json.loads((folder / "results.json").read_text())
    run_ = doc["run"]
    assert run_["seed"] == 11 and run_["shard"] == "2/3" and run_["lang"] == "es"
    assert run_["course_version"] == shards.course_version() and "+" in run_["course_version"]
    assert run_["total"] == 36 and len(run_["positions"]) == len(doc["submissions"]) < 36
    assert any("zip slip" in w for w in run_["warnings"])


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_merged_shards_are_the_one_machine_run_byte_for_byte(fake, tmp_path, n):
    cls = make_class(tmp_path)
    code, _, stderr = run("grade", cls, "--out", tmp_path / "una", "--seed", "11", "--lang", "en")
    assert code == 0, stderr
    folders = grade_shards(cls, tmp_path, n, lang="en")
    random.Random(n).shuffle(folders)  # the order of the folders does not matter
    code, stdout, stderr = run("merge", *folders, "--out", tmp_path / "junta")
    assert code == 0, stderr
    assert f"Merged {n} parts: 36 learners" in stdout  # printed in the parts' language by default
    assert tree(tmp_path / "junta") == tree(tmp_path / "una")


def test_merge_prints_in_its_lang_and_keeps_the_parts_reports(fake, tmp_path):
    cls = make_class(tmp_path)
    folders = grade_shards(cls, tmp_path, 2, lang="en")
    code, stdout, stderr = run("merge", *folders, "--out", tmp_path / "en")
    assert code == 0 and "Merged 2 parts" in stdout and "Se juntaron" not in stdout, stderr
    code, stdout, stderr = run("merge", *folders, "--out", tmp_path / "es", "--lang", "es")
    assert code == 0 and "Se juntaron 2 partes" in stdout and "Merged" not in stdout, stderr
    assert tree(tmp_path / "es") == tree(tmp_path / "en")
    code, _, stderr = run("merge", *folders, "--out", folders[0], "--lang", "en")
    assert code == 2 and "is one of the folders being merged" in stderr, stderr


def test_a_course_version_is_a_digest_of_what_scores_mean(monkeypatch):
    from autograder.course import criteria

    before = shards.course_version()
    key = "nivel2.no_double_email"
    monkeypatch.setitem(criteria.CRITERIA, key, dataclasses.replace(criteria.CRITERIA[key], points=5))
    assert shards.course_version() != before
    assert shards.course_version().split("+")[0] == before.split("+")[0]


def _edit_results(folder: Path, edit) -> None:
    path = folder / "results.json"
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc))


def _refused(tmp_path: Path, *argv, expected: str) -> str:
    out = tmp_path / "junta"
    code, stdout, stderr = run("merge", *argv, "--out", out)
    assert code == 2, (stdout, stderr)
    assert expected in stderr, stderr
    assert "Traceback" not in stderr
    assert not (out / "results.json").exists()
    return stderr


def test_merge_refuses_different_seeds(fake, tmp_path):
    cls = make_class(tmp_path)
    a = grade_shards(cls, tmp_path / "a", 2, seed=11)
    b = grade_shards(cls, tmp_path / "b", 2, seed=12)
    _refused(tmp_path, a[0], b[1], expected="semillas distintas")


def test_merge_refuses_different_course_versions(halves, tmp_path):
    a, b = halves
    _edit_results(b, lambda d: d["run"].update(course_version="0.0.9+000000000000"))
    _refused(tmp_path, a, b, expected="versiones distintas del curso")
    _edit_results(a, lambda d: d["run"].update(course_version="0.0.9+000000000000"))
    _refused(tmp_path, a, b, expected="aquí está instalada")


def test_merge_refuses_different_languages_and_splits(fake, tmp_path):
    cls = make_class(tmp_path)
    es = grade_shards(cls, tmp_path / "es", 2)
    en = grade_shards(cls, tmp_path / "en", 2, lang="en")
    _refused(tmp_path, es[0], en[1], expected="idiomas distintos")
    three = grade_shards(cls, tmp_path / "tres", 3)
    _refused(tmp_path, es[0], three[1], expected="no dividen la clase igual")


def test_merge_refuses_overlapping_and_missing_shards(fake, tmp_path):
    cls = make_class(tmp_path)
    a = grade_shards(cls, tmp_path / "a", 3)
    b = grade_shards(cls, tmp_path / "b", 3)
    _refused(tmp_path, a[0], b[0], a[1], a[2], expected="La parte 1/3 aparece dos veces")
    _refused(tmp_path, a[0], a[2], expected="Faltan partes: 2/3")
    _refused(tmp_path, a[0], a[1], a[2], a[0], expected="son la misma carpeta")
    # A part edited to claim a submission of another part.
    other = json.loads((a[1] / "results.json").read_text())["run"]["positions"][0]
    _edit_results(a[0], lambda d: d["run"]["positions"].__setitem__(0, other))
    _refused(tmp_path, *a, expected="está en dos partes")


def test_merge_refuses_a_folder_that_is_not_a_shard(fake, tmp_path):
    cls = make_class(tmp_path)
    code, _, _ = run("grade", cls, "--out", tmp_path / "una", "--seed", "11")
    assert code == 0
    _refused(tmp_path, tmp_path / "una", expected="no es la salida de una parte")
    _refused(tmp_path, tmp_path / "no-existe", expected="no existe o no es una carpeta")
    (tmp_path / "vacia").mkdir()
    _refused(tmp_path, tmp_path / "vacia", expected="no hay results.json")


SECRET = "CONTENIDO-PRIVADO-7f3a"


@pytest.mark.parametrize(
    ("garble", "expected"),
    [
        (lambda p: p.write_text('{"run": {"seed": 11, "secreto": "' + SECRET), "JSON inválido en la línea 1"),
        (lambda p: p.write_bytes(b'{"x": "\xff' + SECRET.encode() + b'"}'), "no es texto UTF-8"),
        (lambda p: p.write_text("[" * 100_000 + SECRET), "está dañado"),
        (lambda p: p.write_text(json.dumps([SECRET])), "(submissions)"),
        (lambda p: _set(p, lambda d: d["run"].update(seed=SECRET)), "(run.seed)"),
        (lambda p: _set(p, lambda d: d["run"].update(shard=SECRET)), "(run.shard)"),
        (lambda p: _set(p, lambda d: d["run"].update(positions=[SECRET])), "(run.positions)"),
        (lambda p: _set(p, lambda d: d["submissions"][0].update(score=SECRET)), "(entrega n.º 1)"),
        (lambda p: _set(p, lambda d: d["submissions"][0]["criteria"][0].update(passed=SECRET)), "(entrega n.º 1)"),
        (lambda p: _set(p, lambda d: d["submissions"][0].pop("criteria")), "(entrega n.º 1)"),
    ],
)
def test_merge_refuses_a_garbled_results_json_without_echoing_it(halves, tmp_path, garble, expected):
    a, b = halves
    garble(a / "results.json")
    stderr = _refused(tmp_path, a, b, expected=expected)
    assert SECRET not in stderr and "parte-1" in stderr


def _set(path: Path, edit) -> None:
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize(
    "name", ["../../fuera", "/tmp/fuera", "sub/dir", ".oculto", "..", "", "a\\b", "x" * 400, "nombre\nraro"]
)
def test_merge_writes_feedback_only_under_feedback(halves, tmp_path, name):
    a, b = halves
    _set(a / "results.json", lambda d: d["submissions"][0].update(feedback=f"feedback/{name}.html"))
    _refused(tmp_path, a, b, expected="(entrega n.º 1)")
    assert not (tmp_path / "fuera.md").exists() and not (tmp_path / "fuera.html").exists()


def test_merge_never_overwrites_a_part_or_earlier_results(halves, tmp_path):
    a, b = halves
    before = tree(a)
    code, _, stderr = run("merge", a, b, "--out", a, "--force")
    assert code == 2 and "es una de las carpetas que se juntan" in stderr
    assert tree(a) == before
    assert run("merge", a, b, "--out", tmp_path / "junta")[0] == 0
    code, _, stderr = run("merge", a, b, "--out", tmp_path / "junta")
    assert code == 2 and "--force" in stderr
    assert run("merge", a, b, "--out", tmp_path / "junta", "--force")[0] == 0


def test_merge_keeps_files_it_did_not_write_and_waits_for_no_other_run(halves, tmp_path):

    a, b = halves
    out = tmp_path / "junta"
    (out / "feedback").mkdir(parents=True)
    (out / "feedback" / "comentarios.txt").write_text("de la profe", encoding="utf-8")
    code, _, stderr = run("merge", a, b, "--out", out)
    assert code == 2 and "no escribió el autocorrector" in stderr
    assert run("merge", a, b, "--out", out, "--force")[0] == 0
    assert (out / "feedback" / "comentarios.txt").read_text(encoding="utf-8") == "de la profe"
    with out_folder.out_lock(out):
        code, _, stderr = run("merge", a, b, "--out", out, "--force")
        assert code == 2 and "está escribiendo" in stderr


def test_merged_learner_names_are_the_one_machine_runs(fake, tmp_path):
    cls = make_class(tmp_path)
    assert run("grade", cls, "--out", tmp_path / "una", "--seed", "11")[0] == 0
    assert run("merge", *grade_shards(cls, tmp_path, 3), "--out", tmp_path / "junta")[0] == 0
    one, merged = (json.loads((tmp_path / d / "results.json").read_text()) for d in ("una", "junta"))
    learners = [s["learner"] for s in one["submissions"]]
    assert learners == [s["learner"] for s in merged["submissions"]]
    # Two learners «ana» in two group folders: the group tells them apart, in the names and the files.
    assert "grupo0/ana" in learners and "grupo1/ana" in learners


def test_an_empty_shard_still_writes_its_part(fake, tmp_path):
    (tmp_path / "sola.py").write_text("# x\n")
    key = shards.shard_key(str(tmp_path / "sola.py"), [tmp_path / "sola.py"])
    empty = 1 if shards.shard_of(key, 2) == 2 else 2
    code, stdout, stderr = run(
        "grade", tmp_path / "sola.py", "--out", tmp_path / "p", "--seed", "3", "--shard", f"{empty}/2"
    )
    assert code == 0, stderr
    assert "la clase tiene 1 alumno, y a esta parte le tocan 0" in stdout
    assert json.loads((tmp_path / "p" / "results.json").read_text())["submissions"] == []


# --- for real ---------------------------------------------------------------------------------


def _grade_for_real(*argv: str | Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "autograder", *map(str, argv)], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow  # grades the sample class for real, three times: tens of seconds
def test_sharded_and_merged_sample_submissions_grade_as_on_one_machine(tmp_path):
    # Every sample file named by itself is a learner (the folder «malicious/» alone would be one). Left out: the
    # one that writes an email into a Maildir, whose file name is random by design, so its feedback is too.
    nondeterministic = {SUBMISSIONS / "effects" / "eml_by_hand.py"}
    samples = sorted(p for p in SUBMISSIONS.rglob("*") if p.suffix in (".py", ".ipynb") and p not in nondeterministic)
    _grade_for_real("grade", *samples, "--out", tmp_path / "una", "--seed", "5", "--jobs", "2")
    one = tree(tmp_path / "una")
    verdicts = {
        s["submission"]: (s["score"], [(c["id"], c["passed"], c["score"]) for c in s["criteria"]])
        for s in json.loads(one["results.json"])["submissions"]
    }
    assert len(verdicts) > 20 and len({score for score, _ in verdicts.values()}) > 3
    for n in (2, 3):
        folders = [tmp_path / f"n{n}" / f"parte-{i}" for i in range(1, n + 1)]
        for i, folder in enumerate(folders, 1):
            _grade_for_real("grade", *samples, "--out", folder, "--seed", "5", "--jobs", "2", "--shard", f"{i}/{n}")
        _grade_for_real("merge", *folders, "--out", tmp_path / f"n{n}" / "junta")
        merged = tree(tmp_path / f"n{n}" / "junta")
        got = {
            s["submission"]: (s["score"], [(c["id"], c["passed"], c["score"]) for c in s["criteria"]])
            for s in json.loads(merged["results.json"])["submissions"]
        }
        assert got == verdicts, n
        # Feedback per submission, grades.csv and the class summary: the same files, byte for byte.
        assert merged.keys() == one.keys()
        for name in one:
            assert merged[name] == one[name], (n, name)


def test_merge_refuses_a_part_that_ctrl_c_interrupted(fake, tmp_path, monkeypatch):
    from autograder.wire.results import GradingInterrupted

    cls = make_class(tmp_path)
    (first,) = grade_shards(cls, tmp_path, 1)  # 1/1: a whole class in one part

    def interrupted(paths, course, **kwargs):
        results = fake_grading(paths, course, **kwargs)
        raise GradingInterrupted(results, graded=len(results) // 2)

    monkeypatch.setattr(class_run, "run_grading", interrupted)
    code, _, _ = run("grade", cls, "--out", tmp_path / "cortada", "--seed", "11", "--shard", "1/1")
    assert code == 130
    assert json.loads((tmp_path / "cortada" / "results.json").read_text())["run"]["complete"] is False
    _refused(tmp_path, tmp_path / "cortada", expected="se interrumpió antes de terminar")
    assert run("merge", first, "--out", tmp_path / "junta")[0] == 0


def test_merge_refuses_parts_of_different_classes(fake, tmp_path):
    cls = make_class(tmp_path)
    first, _ = grade_shards(cls, tmp_path / "antes", 2)
    (cls / "grupo0" / "tarde.py").write_text("# entregada tarde\n")
    _, second = grade_shards(cls, tmp_path / "despues", 2)
    _refused(tmp_path, first, second, expected="no calificaron la misma clase")


def test_parts_given_the_class_by_other_spellings_of_its_path_still_merge(fake, tmp_path, monkeypatch):
    cls = make_class(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, _, stderr = run("grade", "clase", "--out", "p1", "--seed", "4", "--shard", "1/2")
    assert code == 0, stderr
    code, _, stderr = run("grade", cls, "--out", tmp_path / "p2", "--seed", "4", "--shard", "2/2")
    assert code == 0, stderr
    code, _, stderr = run("merge", "p1", "p2", "--out", "junta")
    assert code == 0, stderr
    merged = json.loads((tmp_path / "junta" / "results.json").read_text())["submissions"]
    assert len(merged) == 36  # learners: 30 + two «ana» + «suelta.py» + carla, bea and the refused member
    # Each submission once: part 2 names them by the absolute path, part 1 by the relative one.
    keys = {
        str(Path(s["source"]).relative_to(tmp_path)) if s["source"].startswith("/") else s["source"] for s in merged
    }
    assert len(keys) == 36


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("0/2", "parts are counted from 1"),
        ("3/2", "I must be between 1 and 2"),
        ("1/0", "N (the number of parts) must be between 1"),
        ("dos", "is not a shard: write I/N"),
    ],
)
def test_a_bad_shard_is_refused_in_the_commands_language(fake, tmp_path, spec, expected):
    code, _, stderr = run("grade", tmp_path, "--out", tmp_path / "o", "--seed", "1", "--shard", spec, "--lang", "en")
    assert code == 2 and expected in stderr and "tiene que" not in stderr and "usage:" in stderr


def test_merge_refusals_are_said_in_its_lang(fake, tmp_path):
    cls = make_class(tmp_path)
    a = grade_shards(cls, tmp_path / "a", 2, seed=11)
    b = grade_shards(cls, tmp_path / "b", 2, seed=12)
    refusals = {
        (a[0], b[1]): "graded with different seeds",
        (a[0],): "Parts are missing: 2/2",
        (tmp_path / "no-existe",): "does not exist or is not a folder",
    }
    garbled = tmp_path / "c"
    shutil.copytree(a[0].parent, garbled)
    _set(garbled / a[0].name / "results.json", lambda d: d["submissions"][0].update(score=SECRET))
    refusals[(garbled / a[0].name, garbled / a[1].name)] = "is damaged or was not written by autograder"
    for folders, expected in refusals.items():
        stderr = _refused(tmp_path, *folders, "--lang", "en", expected=expected)
        assert SECRET not in stderr and not [w for w in ("las ", "partes", "carpeta", "entrega") if w in stderr]
        assert text_in_spanish(tmp_path, *folders)


def text_in_spanish(tmp_path: Path, *folders: Path) -> bool:
    """The same refusal without --lang: Spanish, the default."""
    code, _, stderr = run("merge", *folders, "--out", tmp_path / "junta")
    return code == 2 and any(w in stderr for w in ("partes", "carpeta", "entrega"))
