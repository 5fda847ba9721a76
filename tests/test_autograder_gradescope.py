"""`autograder gradescope`: the bundle, and its run_autograder in a Gradescope-shaped tree.

Gradescope's documented contract: setup.sh and run_autograder at the zip's root; the
zip extracted to /autograder/source; the learner's files in /autograder/submission;
/autograder/results/results.json = {"score", "output"?, "tests": [{"name", "score",
"max_score", "status"?, "output"?, "visibility"?}]}. Here /autograder is a temp dir.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import pytest

from autograder import cli
from autograder.classrun import gradescope
from autograder.course.criteria import required_ids
from autograder.distribution import bundle
from autograder.wire.results import CriterionResult, SubmissionResult

CRITERIA_IDS = required_ids()

REPO = Path(__file__).resolve().parent.parent
SUBMISSIONS = REPO / "tests" / "data" / "submissions"
STATUSES = {"passed", "failed"}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def check_gradescope_schema(doc: dict) -> None:
    """What Gradescope accepts: numbers where numbers go, known statuses and visibilities."""
    assert isinstance(doc["score"], int | float)
    assert isinstance(doc.get("output", ""), str)
    assert isinstance(doc["tests"], list)
    for t in doc["tests"]:
        assert isinstance(t["name"], str) and t["name"]
        assert t.get("status", "passed") in STATUSES
        assert t.get("visibility", "visible") in VISIBILITY
        assert isinstance(t.get("output", ""), str)
        if "score" in t:
            assert isinstance(t["score"], int | float) and isinstance(t["max_score"], int | float)
            assert 0 <= t["score"] <= t["max_score"]
    json.dumps(doc)


def fake_result(name: str, passed: set[str], flags: list[str] | None = None) -> SubmissionResult:
    criteria = [
        CriterionResult(c, c in passed, 2.0 if c in passed else 0.0, 2.0, f"<b>retro</b> {c}") for c in CRITERIA_IDS
    ]
    return SubmissionResult(name, sum(c.score for c in criteria), 2.0 * len(criteria), criteria, flags=flags or [])


# --- the bundle -------------------------------------------------------------------------------


def test_bundle_has_setup_and_run_autograder_at_the_root(tmp_path):
    code = cli.main(["gradescope", "--out", str(tmp_path / "autograder.zip")])
    assert code == 0
    with zipfile.ZipFile(tmp_path / "autograder.zip") as zf:
        names = zf.namelist()
        modes = {i.filename: i.external_attr >> 16 for i in zf.infolist()}
        assert {"setup.sh", "run_autograder", "requirements.lock"} <= set(names)
        for script in ("setup.sh", "run_autograder"):
            assert modes[script] & stat.S_IXUSR, script
            assert zf.read(script).startswith(b"#!/usr/bin/env bash\n")
        for needed in (
            "course/pyproject.toml",
            "course/lesson3/__init__.py",
            "course/autograder/classrun/gradescope.py",
        ):
            assert needed in names
        assert "course/autograder/templates/feedback.html.j2" in names
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc") or "/." in n]
        assert zf.read("requirements.lock") == (bundle.BUNDLE_TEMPLATES / "requirements.lock").read_bytes()


def pins(lock: Path) -> dict[str, str]:
    found = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", lock.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {name.lower(): version for name, version in found}


def test_the_gradescope_image_installs_only_what_grading_needs_at_the_course_versions():
    grading, course = pins(bundle.BUNDLE_TEMPLATES / "requirements.lock"), pins(REPO / "requirements.lock")
    assert grading.items() <= course.items()  # same versions: the course lock is the one that is tested
    assert not {"jupyterlab", "pytest", "playwright", "nbval", "ruff"} & set(grading)
    assert {"anthropic", "httpx2", "ipython", "jinja2", "markupsafe", "nbformat"} <= set(grading)


def test_bundle_is_reproducible(tmp_path):
    a = bundle.build_bundle(tmp_path / "a.zip", seed=7)
    b = bundle.build_bundle(tmp_path / "b.zip", seed=7)
    assert a.read_bytes() == b.read_bytes()
    c = bundle.build_bundle(tmp_path / "c.zip", seed=8)
    with zipfile.ZipFile(a) as za, zipfile.ZipFile(c) as zc:
        assert za.namelist() == zc.namelist()
        differ = [n for n in za.namelist() if za.read(n) != zc.read(n)]
        assert differ == [bundle.SEED_MEMBER] and za.read(differ[0]) == b"7\n"


@pytest.mark.parametrize(
    ("argv", "given", "lang"),
    [(["--seed", "2026"], "2026", "es"), (["--seed=5", "--lang", "en"], "5", "en"), ([], None, "es")],
)
def test_the_bundle_carries_the_courses_seed_and_the_command_says_it(tmp_path, capsys, argv, given, lang):
    assert cli.main(["gradescope", "--out", str(tmp_path / "autograder.zip"), *argv]) == 0
    with zipfile.ZipFile(tmp_path / "autograder.zip") as zf:
        seed = zf.read(bundle.SEED_MEMBER).decode("ascii")
    assert re.fullmatch(r"\d+\n", seed) and (given is None or seed == given + "\n")
    out = capsys.readouterr().out
    assert f"--seed {seed.strip()}" in out and ("do not share" if lang == "en" else "no la compartas") in out


@pytest.mark.parametrize("bad", ["-1", "x", "1.5"])
def test_a_bad_bundle_seed_is_refused_by_the_command(tmp_path, capsys, bad):
    with pytest.raises(SystemExit) as exc:
        cli.main(["gradescope", "--out", str(tmp_path / "x.zip"), f"--seed={bad}"])
    assert exc.value.code == 2
    assert not (tmp_path / "x.zip").exists() and "--seed" in capsys.readouterr().err


def test_each_learner_gets_a_seed_of_their_own_derived_from_the_courses():
    seeds = {gradescope.learner_seed(2026, str(user)) for user in range(1000)}
    assert len(seeds) > 990 and all(0 <= s < 2**31 for s in seeds)
    assert gradescope.learner_seed(2026, "42") == gradescope.learner_seed(2026, "42")  # a resubmission, a regrade
    assert gradescope.learner_seed(2026, "42") != gradescope.learner_seed(2027, "42")  # another course
    assert gradescope.learner_seed(1, "23") != gradescope.learner_seed(12, "3")  # no ambiguous joining


@pytest.mark.parametrize(
    ("metadata", "key"),
    [
        ({"id": 9, "users": [{"email": "a@x.org", "id": 1234, "name": "Ana"}]}, "1234"),
        ({"users": [{"id": 30}, {"id": "4"}]}, "30,4"),  # a group: one key, whoever submits
        ({"users": [{"id": "4"}, {"id": 30}]}, "30,4"),
        ({"users": []}, None),
        ({"users": [{"email": "a@x.org"}]}, None),
        ({"users": "ana"}, None),
        ([1, 2], None),
        ("not json {", None),
        (None, None),
    ],
)
def test_the_learner_is_read_from_gradescopes_metadata(tmp_path, metadata, key):
    if metadata is not None:
        text = metadata if isinstance(metadata, str) else json.dumps(metadata)
        (tmp_path / "submission_metadata.json").write_text(text)
    assert gradescope.learner_key(tmp_path) == key


def test_setup_sh_is_valid_bash_and_installs_the_pinned_lock(tmp_path):
    script = bundle.BUNDLE_TEMPLATES / "setup.sh"
    subprocess.run(["bash", "-n", str(script)], check=True)
    subprocess.run(["bash", "-n", str(bundle.BUNDLE_TEMPLATES / "run_autograder")], check=True)
    text = script.read_text()
    assert 'pip" install -q -r "$SOURCE/requirements.lock"' in text
    assert 'install -q --no-deps "$SOURCE/course"' in text


def test_bundle_outside_a_course_checkout_is_a_clear_error(tmp_path):
    with pytest.raises(bundle.BundleError, match=r"pyproject\.toml"):
        bundle.build_bundle(tmp_path / "x.zip", root=tmp_path, seed=1)
    assert not (tmp_path / "x.zip").exists()


@pytest.mark.parametrize(
    ("argv", "said"),
    [(["--lang", "en"], "missing in"), (["--lang=en"], "missing in"), ([], "Falta"), (["--lang", "es"], "Falta")],
)
def test_bundle_errors_are_said_in_the_commands_language(tmp_path, monkeypatch, capsys, argv, said):
    monkeypatch.setattr(bundle, "_COURSE_FILES", (*bundle._COURSE_FILES, "no-existe.toml"))
    code = cli.main(["gradescope", "--out", str(tmp_path / "x.zip"), *argv])
    err = capsys.readouterr().err
    assert code == 2 and said in err and "no-existe.toml" in err and not (tmp_path / "x.zip").exists()


# --- results.json in Gradescope's schema ------------------------------------------------------


def test_to_gradescope_maps_every_criterion_to_a_test():
    result = fake_result("ana.ipynb", {"nivel1.cpA", "nivel1.cpB"}, flags=["delega en lesson3.reconcile"])
    doc = gradescope.to_gradescope(result)
    check_gradescope_schema(doc)
    graded = [t for t in doc["tests"] if "score" in t]
    assert [t["name"].rsplit("[", 1)[1].rstrip("]") for t in graded] == list(CRITERIA_IDS)
    assert doc["score"] == sum(t["score"] for t in graded) == 4.0
    by_id = {t["name"].rsplit("[", 1)[1].rstrip("]"): t for t in graded}
    assert [by_id[c]["status"] for c in ("nivel1.cpA", "nivel1.cpB", "nivel1.cpC")] == ["passed", "passed", "failed"]
    assert by_id["nivel1.cpA"]["output"] == "<b>retro</b> nivel1.cpA"
    # Learner text is never rendered as HTML by Gradescope.
    assert doc["output_format"] == doc["test_output_format"] == doc["test_name_format"] == "text"
    (flags,) = [t for t in doc["tests"] if "score" not in t]
    assert flags["visibility"] == "hidden" and "lesson3.reconcile" in flags["output"]
    assert "«ana.ipynb»" in doc["output"]
    # Flags are the instructor's: nothing a learner sees (the output, the visible tests) mentions them.
    seen = [doc["output"], *(str(t) for t in doc["tests"] if t.get("visibility") != "hidden")]
    assert not any("lesson3.reconcile" in part or "Señales" in part for part in seen)


@pytest.fixture
def layout(tmp_path, monkeypatch):
    root = tmp_path / "autograder"
    for d in ("source", "submission", "results"):
        (root / d).mkdir(parents=True)
    monkeypatch.setenv("AUTOGRADER_ROOT", str(root))
    return root


def test_runner_grades_the_whole_upload_as_one_learner(layout, monkeypatch):
    calls = []

    def grade_many(learners, course, *, jobs):
        calls.append(([sorted(f.name for f in learner.files) for learner in learners], course.seed, course.lang))
        return [fake_result("buena.ipynb", set(CRITERIA_IDS))]

    monkeypatch.setitem(sys.modules, "autograder.grading.pipeline", types.SimpleNamespace(grade_many=grade_many))
    monkeypatch.setenv("AUTOGRADER_SEED", "99")
    (layout / "submission" / "borrador.py").write_text("x")
    (layout / "submission" / "sub").mkdir()
    (layout / "submission" / "sub" / "buena.ipynb").write_text("{}")
    assert gradescope.main() == 0
    doc = json.loads((layout / "results" / "results.json").read_text())
    check_gradescope_schema(doc)
    # One learner with both files, whatever the folders: the pipeline's rule picks one (tests/test_autograder_learners).
    assert calls == [([["borrador.py", "buena.ipynb"]], 99, "es")]
    assert doc["score"] == 2.0 * len(CRITERIA_IDS) and "«buena.ipynb»" in doc["output"]
    assert doc["extra_data"]["seed"] == 99


def test_runner_with_nothing_gradable_says_so(layout):
    (layout / "submission" / "leeme.txt").write_text("olvidé el cuaderno")
    assert gradescope.main() == 0
    doc = json.loads((layout / "results" / "results.json").read_text())
    check_gradescope_schema(doc)
    assert doc["score"] == 0 and "No hay nada que calificar" in doc["output"] and "«leeme.txt»" in doc["output"]
    assert all(t["score"] == 0 for t in doc["tests"] if "score" in t)  # a row of 0 like `autograder grade`


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("es", ["autograder: semilla 5; resultados en", "Se calificó «../x.py»", "Se rechazó «../x.py»"]),
        ("en", ["autograder: seed 5; results in", "Graded «../x.py»", "Refused «../x.py»"]),
    ],
)
def test_runner_speaks_the_assignments_language_from_intake_to_its_log(layout, monkeypatch, capsys, lang, said):
    monkeypatch.setenv("AUTOGRADER_LANG", lang)
    monkeypatch.setenv("AUTOGRADER_SEED", "5")
    with zipfile.ZipFile(layout / "submission" / "entrega.zip", "w") as zf:
        zf.writestr("../x.py", "x = 1\n")
    assert gradescope.main() == 0
    doc = json.loads((layout / "results" / "results.json").read_text())
    log = capsys.readouterr().out
    assert said[0] in log
    assert doc["output"].startswith(said[1]) and said[2] in doc["output"]


def test_runner_internal_failure_still_writes_results(layout, monkeypatch, capsys):
    def grade_many(*args, **kwargs):
        raise RuntimeError("fallo del pool")

    monkeypatch.setitem(sys.modules, "autograder.grading.pipeline", types.SimpleNamespace(grade_many=grade_many))
    (layout / "submission" / "ana.py").write_text("x")
    assert gradescope.main() == 0
    doc = json.loads((layout / "results" / "results.json").read_text())
    assert doc["score"] == 0 and "error interno" in doc["output"] and "fallo del pool" not in doc["output"]
    assert "fallo del pool" in capsys.readouterr().out  # the traceback goes to stdout, seen by instructors only


# --- the bundle's run_autograder, for real ----------------------------------------------------


def gradescope_tree(tmp_path: Path, submission: dict[str, str], *, seed: int = 11) -> Path:
    """/autograder as Gradescope lays it out: source = the extracted bundle, run_autograder copied up."""
    root = tmp_path / "autograder"
    built = bundle.build_bundle(tmp_path / "autograder.zip", seed=seed)
    with zipfile.ZipFile(built) as zf:
        zf.extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    (root / "submission").mkdir()
    (root / "results").mkdir()
    for name, text in submission.items():
        (root / "submission" / name).write_text(text, encoding="utf-8")
    return root


def run_autograder(root: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env = {k: v for k, v in env.items() if k != "AUTOGRADER_SEED"}  # the bundle's own seed
    env |= {"AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable}
    proc = subprocess.run(
        [str(root / "run_autograder")], env=env, cwd=root, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    check_gradescope_schema(doc)
    return doc


def test_bundle_run_autograder_with_nothing_to_grade(tmp_path):
    doc = run_autograder(gradescope_tree(tmp_path, {"notas.txt": "nada"}))
    assert doc["score"] == 0 and "No hay nada que calificar" in doc["output"] and doc["extra_data"]["seed"] == 11


def test_the_runner_grades_each_learner_with_their_seed_from_the_bundles(layout, monkeypatch, capsys):
    seeds = []

    def grade_many(paths, course, *, jobs):
        seeds.append(course.seed)
        return [fake_result(Path(p).name, set()) for p in paths]

    monkeypatch.setitem(sys.modules, "autograder.grading.pipeline", types.SimpleNamespace(grade_many=grade_many))
    monkeypatch.delenv("AUTOGRADER_SEED", raising=False)
    (layout / "source" / bundle.SEED_MEMBER).write_text("2026\n")
    (layout / "submission" / "entrega.py").write_text("x")
    docs = []
    for user in (1234, 1234, 5678):  # a resubmission, then another learner
        (layout / "submission_metadata.json").write_text(json.dumps({"users": [{"id": user, "name": "N"}]}))
        assert gradescope.main() == 0
        docs.append(json.loads((layout / "results" / "results.json").read_text()))
    assert seeds == [gradescope.learner_seed(2026, "1234")] * 2 + [gradescope.learner_seed(2026, "5678")]
    assert seeds[0] != seeds[2] and 2026 not in seeds
    assert [d["extra_data"]["seed"] for d in docs] == seeds and docs[0]["extra_data"]["course_seed"] == 2026
    # Learners see neither seed: not in the output nor in any test.
    shown = json.dumps([{k: v for k, v in d.items() if k != "extra_data"} for d in docs])
    assert str(seeds[0]) not in shown and "2026" not in shown


def test_a_tree_without_the_bundles_seed_says_so_to_instructors(layout, monkeypatch, capsys):
    monkeypatch.delenv("AUTOGRADER_SEED", raising=False)
    (layout / "submission" / "leeme.txt").write_text("nada")
    assert gradescope.main() == 0
    assert "course-seed" in capsys.readouterr().out


@pytest.mark.slow
def test_bundle_run_autograder_grades_a_correct_submission(tmp_path):
    doc = run_autograder(gradescope_tree(tmp_path, {"entrega.py": (SUBMISSIONS / "good.py").read_text()}))
    graded = [t for t in doc["tests"] if "score" in t]
    # every criterion, the multiple-choice questions included, is graded for every submission
    assert {t["name"].rsplit("[", 1)[1].rstrip("]") for t in graded} == set(CRITERIA_IDS)
    assert all(t["status"] == "passed" for t in graded), [t for t in graded if t["status"] != "passed"]
    assert doc["score"] == sum(t["max_score"] for t in graded) > 0


@pytest.mark.slow
def test_bundle_run_autograder_catches_the_production_bug(tmp_path):
    doc = run_autograder(gradescope_tree(tmp_path, {"entrega.py": (SUBMISSIONS / "production.py").read_text()}))
    by_id = {t["name"].rsplit("[", 1)[1].rstrip("]"): t for t in doc["tests"] if "score" in t}
    assert by_id["nivel2.no_double_email"]["status"] == "failed"
    assert by_id["nivel2.no_double_email"]["score"] == 0
    assert doc["score"] < sum(t["max_score"] for t in by_id.values())


@pytest.mark.parametrize(("lang", "said"), [("es", "19,5 / 19,5 puntos"), ("en", "19.5 / 19.5")])
def test_the_learners_summary_writes_points_as_their_language_does(lang, said):
    from autograder.reporting.gradescope import to_gradescope
    from autograder.wire.results import CriterionResult, SubmissionResult

    result = SubmissionResult.from_criteria(
        "04_ejercicios.py", [CriterionResult("nivel1.cpA", True, 19.5, 19.5, "ok")], seed=1
    )
    assert said in to_gradescope(result, lang=lang)["output"]
