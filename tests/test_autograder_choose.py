"""`autograder grade --choose LEARNER=FILE`: the instructor grades another of a learner's files, renaming nothing.

The choice is a person's decision, like review's: kept in decisions.json by learner (their LMS id, else their
name), applied again by every ``grade --force`` into the folder, carried by ``review --apply``, shown in the
learner's row (grades.csv, resumen.html) and page. The rule's choice is only intake's
(:mod:`autograder.intake.choice`); the grading is replaced here by one that names the file it was given.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from test_autograder_cli import run

from autograder.course.criteria import required_ids

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "tests" / "data" / "submissions" / "good.py"
ANA = "Ana García_101_assignsubmission_file_"
BETO = "Beto Ruiz_102_assignsubmission_file_"


pytestmark = pytest.mark.usefixtures("every_criterion_passes")


def moodle_class(root: Path, *, with_copy: bool = True) -> Path:
    """Ana handed in her final notebook and JupyterLab's copy of an earlier attempt; Beto one file."""
    for folder, names in ((ANA, ["04_ejercicios.py", "04_ejercicios-Copy1.py"]), (BETO, ["04_ejercicios.py"])):
        (root / folder).mkdir(parents=True, exist_ok=True)
        for name in names if with_copy or folder != ANA else names[:1]:
            shutil.copy(GOOD, root / folder / name)
    return root


def rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open(encoding="utf-8") as f:
        return {row["learner_id"]: row for row in csv.DictReader(f)}


def test_a_chosen_file_is_graded_kept_through_regrades_and_review_and_shown(tmp_path):
    clase, out = moodle_class(tmp_path / "clase"), tmp_path / "resultados"
    code, _, err = run("grade", clase, "--out", out, "--seed", "5")
    assert code == 0, err
    assert rows(out)["101"]["submission"] == "04_ejercicios.py"  # the rule: a copy's name comes last

    # The instructor knows the copy is the one Ana meant: graded instead, by her name, nothing renamed.
    code, _, err = run("grade", clase, "--out", out, "--force", "--choose", "Ana García=04_ejercicios-Copy1.py")
    assert code == 0, err
    assert (clase / ANA / "04_ejercicios.py").exists() and (clase / ANA / "04_ejercicios-Copy1.py").exists()
    ana = rows(out)["101"]
    assert ana["submission"] == "04_ejercicios-Copy1.py" and "lo eligió quien califica" in ana["warnings"]
    assert rows(out)["102"]["submission"] == "04_ejercicios.py"
    summary = (out / "resumen.html").read_text(encoding="utf-8")
    assert "lo eligió quien califica" in summary
    (choice,) = json.loads((out / "decisions.json").read_text(encoding="utf-8"))["files"]
    assert (choice["learner_id"], choice["file"]) == ("101", "04_ejercicios-Copy1.py")

    # Typed without the accent, as resumen.html's filter finds her: the same learner.
    code, _, err = run("grade", clase, "--out", out, "--force", "--choose", "ana garcia=04_ejercicios-Copy1.py")
    assert code == 0, err
    assert rows(out)["101"]["submission"] == "04_ejercicios-Copy1.py"

    # A regrade of the class without --choose grades the chosen file again.
    code, _, err = run("grade", clase, "--out", out, "--force")
    assert code == 0, err
    assert rows(out)["101"]["submission"] == "04_ejercicios-Copy1.py"

    # review --apply writes decisions.json again: the choice stays in it.
    request = tmp_path / "recorreccion.csv"
    criterion = required_ids()[0]
    code, _, err = run("review", out, "--criterion", criterion, "--learner", "102", "--csv", request)
    assert code == 0, err
    with request.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        fields, table = reader.fieldnames, list(reader)
    table[0].update(decision="0", reviewer="Prof. Ruiz", reason="Copiado del enunciado.")
    with request.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(table)
    code, _, err = run("review", out, "--apply", request)
    assert code == 0, err
    saved = json.loads((out / "decisions.json").read_text(encoding="utf-8"))
    assert [f["file"] for f in saved["files"]] == ["04_ejercicios-Copy1.py"] and len(saved["decisions"]) == 1
    code, _, err = run("grade", clase, "--out", out, "--force")
    assert code == 0, err
    assert rows(out)["101"]["submission"] == "04_ejercicios-Copy1.py"
    assert rows(out)["102"]["total"] != rows(out)["102"]["max_score"]  # Beto's decision also held

    # «LEARNER=» (here by the LMS id) gives the learner back to the rule.
    code, _, err = run("grade", clase, "--out", out, "--force", "--choose", "101=")
    assert code == 0, err
    assert rows(out)["101"]["submission"] == "04_ejercicios.py"
    assert "files" not in json.loads((out / "decisions.json").read_text(encoding="utf-8"))


def test_a_choice_whose_file_is_gone_falls_back_to_the_rule_and_says_so(tmp_path):
    clase, out = moodle_class(tmp_path / "clase"), tmp_path / "resultados"
    code, _, err = run("grade", clase, "--out", out, "--seed", "5", "--choose", "101=04_ejercicios-Copy1.py")
    assert code == 0, err
    assert rows(out)["101"]["submission"] == "04_ejercicios-Copy1.py"
    again = moodle_class(tmp_path / "reentrega", with_copy=False)  # she handed in again, without the copy
    shutil.rmtree(again / BETO)
    code, _, err = run("grade", again, "--out", out, "--force")
    assert code == 0, err
    assert "«04_ejercicios-Copy1.py», que ya no está en su entrega" in err
    assert rows(out)["101"]["submission"] == "04_ejercicios.py"
    assert "files" not in json.loads((out / "decisions.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("choose", "said"),
    [
        ("Ana García", "escribe ALUMNO=ARCHIVO"),
        ("=04_ejercicios.py", "escribe ALUMNO=ARCHIVO"),
        ("Carla=04_ejercicios.py", "«Carla» no es ningún alumno"),
        ("101=entrega.ipynb", "«entrega.ipynb» no nombra uno solo de los archivos de Ana García; los suyos son: "),
    ],
)
def test_a_choice_that_names_nothing_is_refused_before_anything_is_written(tmp_path, choose, said):
    clase, out = moodle_class(tmp_path / "clase"), tmp_path / "resultados"
    code, _, err = run("grade", clase, "--out", out, "--seed", "5")
    assert code == 0, err
    before = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file() and not p.name.startswith(".")}
    code, _, err = run("grade", clase, "--out", out, "--force", "--choose", choose)
    assert code == 2 and said in err, err
    assert "Traceback" not in err
    after = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file() and not p.name.startswith(".")}
    assert after == before


def test_the_choice_is_in_english_too(tmp_path):
    clase, out = moodle_class(tmp_path / "clase"), tmp_path / "results"
    code, _, err = run("grade", clase, "--out", out, "--lang", "en", "--choose", "Ana García=04_ejercicios-Copy1.py")
    assert code == 0, err
    assert "the instructor chose it" in rows(out)["101"]["warnings"]


def test_each_part_keeps_its_learners_choice_and_merge_carries_it(tmp_path):
    clase = moodle_class(tmp_path / "clase")
    choose = ["--seed", "5", "--choose", "Ana García=04_ejercicios-Copy1.py"]
    for part in ("1/2", "2/2"):  # the same command for every part: only Ana's part has her
        code, _, err = run("grade", clase, "--out", tmp_path / part.replace("/", "de"), "--shard", part, *choose)
        assert code == 0, err
    code, _, err = run("merge", tmp_path / "1de2", tmp_path / "2de2", "--out", tmp_path / "clase_entera")
    assert code == 0, err
    assert rows(tmp_path / "clase_entera")["101"]["submission"] == "04_ejercicios-Copy1.py"
    (choice,) = json.loads((tmp_path / "clase_entera" / "decisions.json").read_text(encoding="utf-8"))["files"]
    assert choice["file"] == "04_ejercicios-Copy1.py"


def test_every_part_takes_the_same_choose_and_keeps_only_its_own_learners_choices(tmp_path):
    clase = tmp_path / "clase"
    people = {f"{name}_{ident}_assignsubmission_file_": str(ident) for ident, name in enumerate("ABCDEF", 201)}
    for folder in people:
        (clase / folder).mkdir(parents=True)
        for name in ("04_ejercicios.py", "04_ejercicios-Copy1.py"):
            shutil.copy(GOOD, clase / folder / name)
    choose = [arg for ident in people.values() for arg in ("--choose", f"{ident}=04_ejercicios-Copy1.py")]
    kept: dict[str, list[str]] = {}
    for part in ("1/2", "2/2"):
        out = tmp_path / part.replace("/", "de")
        code, _, err = run("grade", clase, "--out", out, "--seed", "5", "--shard", part, *choose)
        assert code == 0, err
        graded = set(rows(out))
        kept[part] = [
            f["learner_id"] for f in json.loads((out / "decisions.json").read_text(encoding="utf-8"))["files"]
        ]
        assert set(kept[part]) == graded and all(rows(out)[i]["submission"].endswith("Copy1.py") for i in graded)
    assert sorted(kept["1/2"] + kept["2/2"]) == sorted(people.values()) and kept["1/2"] and kept["2/2"]

    # A name no learner of the class has is refused by every part, the one that would not grade them too.
    for part in ("1/2", "2/2"):
        code, _, err = run(
            "grade", clase, "--out", tmp_path / "x", "--seed", "5", "--shard", part, "--choose", "Z=a.py"
        )
        assert code == 2 and "«Z» no es ningún alumno" in err, err

    # Without --shard, a regrade of some learners chooses only among them: the rest of the class is not given.
    out = tmp_path / "entera"
    code, _, err = run("grade", clase, "--out", out, "--seed", "5")
    assert code == 0, err
    one = next(iter(people))
    shutil.copytree(clase / one, tmp_path / "reentrega" / one)  # the LMS's download of learner 201 alone
    code, _, err = run(
        "grade", tmp_path / "reentrega", "--out", out, "--force", "--choose", "202=04_ejercicios-Copy1.py"
    )
    assert code == 2 and "«202» no es ningún alumno" in err, err
