"""``autograder release``: the learner's edition holds the course, its notebooks run, and no answer key is in it.

The edition's package is tested as a learner would have it: a separate interpreter whose ``PYTHONPATH``
puts the written edition first (before this checkout's editable install), checked by ``autograder.__file__``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA
from autograder.distribution.release import (
    HIDDEN_ANSWERS,
    NOTEBOOKS,
    QUESTIONS_MODULE,
    ReleaseError,
    answer_leaks,
    answer_sources,
    binder_badge,
    course_command,
    edition_files,
    key_leaks,
    keyless_questions_source,
    write_edition,
)
from autograder.grading.pipeline import grade_submission
from autograder.questions import QUESTIONS

ROOT = Path(__file__).resolve().parent.parent
SOLVED = ROOT / "notebooks" / "soluciones" / "04_ejercicios.ipynb"
# Graded is what the registry grades (not a list written here): a question a criterion reads.
GRADED = [q for q in QUESTIONS.values() if any(c.observes == f"answer.{q.variable}" for c in CRITERIA.values())]
PRACTICE = [q for q in QUESTIONS.values() if q not in GRADED]


@pytest.fixture(scope="module")
def edition(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("release") / "edicion"
    write_edition(out)
    return out


def in_edition(edition: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """A Python of this venv that imports the edition's packages, not the checkout's."""
    env = {**os.environ, "PYTHONPATH": str(edition), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, *args], cwd=edition, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def tree(edition: Path) -> dict[str, bytes]:
    return {p.relative_to(edition).as_posix(): p.read_bytes() for p in edition.rglob("*") if p.is_file()}


# -- what is in it ---------------------------------------------------------------------------------


def test_the_edition_holds_the_course_for_learners_and_nothing_else(edition):
    files = tree(edition)
    top = {path.split("/")[0] for path in files}
    assert top == {
        "README.md",
        "pyproject.toml",
        "requirements.lock",
        "notebooks",
        "lesson3",
        "autograder",
        "binder",
        ".gitignore",
    } | {"jupyter-config", "jupyterlab_language_pack_es"}
    assert sorted(p for p in files if p.startswith("notebooks/")) == [f"notebooks/{n}" for n in NOTEBOOKS]
    for name in NOTEBOOKS:  # the learner versions build_notebooks wrote, byte for byte
        assert files[f"notebooks/{name}"] == (ROOT / "notebooks" / name).read_bytes()
    for kept in ("binder/postBuild", "binder/requirements.txt", "binder/runtime.txt", "requirements.lock"):
        assert files[kept] == (ROOT / kept).read_bytes(), kept
    assert os.access(edition / "binder" / "postBuild", os.X_OK)
    assert not {"lesson3/build_notebooks.py", "lesson3/build_language_pack.py"} & set(files)  # maintainers' tools
    assert "lesson3/answers.py" in files  # the taught reference stays
    assert not any("__pycache__" in p or p.endswith(".pyc") for p in files)
    assert (edition / "jupyter-config/overrides.d/lesson3.json").read_bytes() == (
        ROOT / "jupyter-config/overrides.d/lesson3.json"
    ).read_bytes()


def test_a_learners_git_clone_of_the_edition_does_not_see_the_course_environment(edition, tmp_path):
    clone = tmp_path / "clon"
    shutil.copytree(edition, clone)
    (clone / ".venv" / "lib").mkdir(parents=True)
    (clone / ".venv" / "lib" / "x.py").write_text("x = 1\n")
    (clone / "lesson3" / "__pycache__").mkdir(exist_ok=True)
    (clone / "lesson3" / "__pycache__" / "a.pyc").write_bytes(b"")
    git = ["git", "-c", "init.defaultBranch=main", "-C", str(clone)]
    subprocess.run([*git, "init", "-q"], check=True)
    untracked = subprocess.run([*git, "status", "--porcelain", "-uall"], capture_output=True, text=True, check=True)
    assert ".venv" not in untracked.stdout and "__pycache__" not in untracked.stdout
    assert "notebooks/04_ejercicios.ipynb" in untracked.stdout  # the course itself is there to commit


def test_the_learners_readme_says_how_to_open_the_course_and_hand_in_notebook_4(edition):
    readme = (edition / "README.md").read_text(encoding="utf-8")
    assert course_command() in readme and "jupyter lab notebooks/" in course_command()
    assert "04_ejercicios.ipynb" in readme and "Ejecutar todas las celdas" in readme
    assert "respuesta recibida: se califica al entregar" in readme
    assert "soluciones" not in readme
    assert binder_badge() in readme and "mybinder.org/v2/gh/" in binder_badge()  # repo2docker reads binder/


# -- no key in it ----------------------------------------------------------------------------------


def test_no_answer_key_is_importable_from_the_edition(edition):
    probe = (
        "import json, autograder, autograder.questions as q\n"
        "print(json.dumps({'file': autograder.__file__, 'questions': q.__file__,"
        " 'answers': {v: [x.answer, x.explanation] for v, x in q.QUESTIONS.items()}}))"
    )
    ran = in_edition(edition, "-c", probe)
    assert ran.returncode == 0, ran.stderr
    seen = json.loads(ran.stdout)
    assert Path(seen["file"]).is_relative_to(edition) and Path(seen["questions"]).is_relative_to(edition)
    for q in GRADED:
        assert seen["answers"][q.variable] == [None, {}], q.variable
    for q in PRACTICE:  # notebook 02's practice keeps its instant feedback
        assert seen["answers"][q.variable] == [q.answer, q.explanation]


def test_every_graded_question_is_keyless_and_every_practice_one_answers_at_once_in_the_edition(edition):
    """What the learner sees in the edition: practice says right or wrong; a graded question only «recibida»."""
    assert GRADED and PRACTICE and all(not q.practice for q in GRADED) and all(q.practice for q in PRACTICE)
    probe = (
        "import json, sys\n"
        "from autograder.questions import QUESTIONS\n"
        "from lesson3.practice import feedback\n"
        "print(json.dumps({v: [feedback(q, letter) for letter in q.options] for v, q in QUESTIONS.items()}))"
    )
    ran = in_edition(edition, "-c", probe)
    assert ran.returncode == 0, ran.stderr
    seen = json.loads(ran.stdout)
    for q in GRADED:
        for letter, said in zip(q.options, seen[q.variable], strict=True):
            assert said == f"Respuesta recibida ({letter}): se califica al entregar.", (q.variable, said)
    for q in PRACTICE:
        for letter, said in zip(q.options, seen[q.variable], strict=True):
            right = letter == q.answer
            assert said.startswith("✓ Correcto" if right else "✗") and (q.explanation["es"] in said) == right


def test_no_file_of_the_edition_holds_a_key(edition):
    files = tree(edition)
    assert key_leaks(files) == []
    assert answer_leaks(files, answer_sources()) == []
    text = "\n".join(content.decode("utf-8", errors="replace") for content in files.values())
    for q in GRADED:
        assert q.explanation["es"] not in text and q.explanation["en"] not in text
        for quote in ('"', '\\"', "'"):
            assert f"{q.variable} = {quote}{q.answer}{quote}" not in text, q.variable
    assert "SOLUCIÓN INICIO" not in text and "SOLUCIÓN FIN" not in text


@pytest.mark.parametrize(
    "path, content",
    [
        (QUESTIONS_MODULE, (ROOT / QUESTIONS_MODULE).read_bytes()),  # the instructor's questions, with the key
        ("notebooks/soluciones/04_ejercicios.ipynb", SOLVED.read_bytes()),  # filled-in graded answers
        ("notebooks/src/04_ejercicios.md", (ROOT / "notebooks/src/04_ejercicios.md").read_bytes()),  # solution blocks
        ("notas.txt", GRADED[0].explanation["es"].encode()),  # a graded question's explanation
        ("entrega.py", f"{GRADED[-1].variable} = '{GRADED[-1].answer}'\n".encode()),
        ("otra.py", f'    {GRADED[0].variable}  =  "{GRADED[0].answer}"\n'.encode()),
    ],
    ids=["questions", "solved-notebook", "source", "explanation", "answer-py", "answer-spaced"],
)
def test_a_key_in_any_file_stops_the_release(path, content):
    clean = edition_files()
    assert key_leaks(clean) == []
    assert key_leaks({**clean, path: content}) != []


def test_the_keyless_questions_module_changes_only_the_graded_keys(tmp_path, monkeypatch):
    source = (ROOT / QUESTIONS_MODULE).read_text(encoding="utf-8")
    keyless = keyless_questions_source(source)
    (tmp_path / "keyless_questions.py").write_text(keyless, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("keyless_questions", tmp_path / "keyless_questions.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    monkeypatch.setitem(sys.modules, "keyless_questions", module)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    rewritten = module.QUESTIONS
    assert module.graded_on_submission(GRADED[0].criterion) and not module.graded_on_submission(PRACTICE[0].criterion)
    assert list(rewritten) == list(QUESTIONS)  # type: ignore[arg-type]
    for variable, q in QUESTIONS.items():
        again = rewritten[variable]  # type: ignore[index]
        assert (again.answer, again.explanation) == ((q.answer, q.explanation) if q.practice else (None, {}))
        assert (again.prompt, again.options, again.hint, again.points) == (q.prompt, q.options, q.hint, q.points)

    def comments(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.strip().startswith("#")]

    assert comments(keyless) == comments(source) and keyless.count("\n") < source.count("\n")


# -- the command -----------------------------------------------------------------------------------


def test_release_refuses_a_folder_that_is_not_empty_and_touches_nothing(tmp_path, capsys):
    out = tmp_path / "edicion"
    out.mkdir()
    (out / "mio.txt").write_text("mío", encoding="utf-8")
    assert main(["release", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no es una carpeta vacía" in err and "Traceback" not in err
    assert [p.name for p in out.iterdir()] == ["mio.txt"]
    (out / "mio.txt").unlink()  # an empty folder is fine
    assert main(["release", "--out", str(out), "--lang", "en"]) == 0
    assert "Learner's edition written" in capsys.readouterr().out
    assert "## Handing in notebook 4" in (out / "README.md").read_text(encoding="utf-8")


def test_release_refuses_a_file_as_out(tmp_path, capsys):
    out = tmp_path / "archivo"
    out.write_text("x", encoding="utf-8")
    assert main(["release", "--out", str(out)]) == 2
    assert out.read_text(encoding="utf-8") == "x"


def test_the_edition_neither_grades_nor_releases_again(edition, tmp_path):
    """Without a key, grading would score every graded question 0: it refuses, in Spanish, with no traceback."""
    for args in (
        ["grade", str(SOLVED), "--out", str(tmp_path / "r")],
        ["gradescope", "--out", str(tmp_path / "g.zip")],
    ):
        ran = in_edition(edition, "-m", "autograder", *args)
        assert ran.returncode == 2 and "edición del alumno" in ran.stderr and "Traceback" not in ran.stderr, args
    ran = in_edition(edition, "-m", "autograder", "release", "--out", str(tmp_path / "otra"))
    assert ran.returncode == 2 and "edición del alumno" in ran.stderr and not (tmp_path / "otra").exists()
    assert not (tmp_path / "r").exists() and not (tmp_path / "g.zip").exists()


def test_release_needs_the_whole_checkout(tmp_path):
    with pytest.raises(ReleaseError, match="No encuentro el curso completo"):
        edition_files(tmp_path)


# -- it works, and grades as the instructor's does ----------------------------------------------------

RUN_CHECK = """
import json, sys
import nbformat
from IPython.core.interactiveshell import InteractiveShell
import autograder

shell = InteractiveShell.instance()
for cell in nbformat.read(sys.argv[1], as_version=4).cells:
    if cell.cell_type == "code" and "autograder-skip" not in cell.metadata.get("tags", []):
        shell.run_cell(cell.source)
shell.run_cell("from autograder import check\\n_result = check()")
result = shell.user_ns["_result"]
print("RESULT" + json.dumps({"file": autograder.__file__, "criteria": [c.__dict__ for c in result.criteria]}))
"""


@pytest.mark.slow
def test_the_editions_check_receives_the_questions_and_the_instructor_grades_the_same_notebook_in_full(edition):
    ran = in_edition(edition, "-c", RUN_CHECK, str(SOLVED))
    assert ran.returncode == 0, ran.stderr[-2000:]
    (line,) = [line for line in ran.stdout.splitlines() if line.startswith("RESULT")]
    seen = json.loads(line.removeprefix("RESULT"))
    assert Path(seen["file"]).is_relative_to(edition)
    assert "se califican al entregar" in ran.stdout  # the table says why those rows add nothing
    by_id = {c["id"]: c for c in seen["criteria"]}
    for q in GRADED:
        row = by_id.pop(q.criterion)
        assert "Respuesta recibida" in row["feedback"] and "se califica al entregar" in row["feedback"]
        assert row["score"] == 0 and q.answer is not None and f"({q.answer})" in row["feedback"]
    assert all(c["passed"] and c["score"] == c["max_score"] for c in by_id.values()), by_id
    graded = grade_submission(SOLVED, CourseConfig(seed=7))  # the instructor's checkout, with the key
    assert graded.score == graded.max_score and graded.max_score == sum(c["max_score"] for c in seen["criteria"])
    assert {c.id for c in graded.criteria} == {c["id"] for c in seen["criteria"]}


@pytest.mark.slow
def test_the_editions_notebooks_pass_nbval_with_the_editions_package(edition):
    ran = in_edition(
        edition,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--nbval",
        "--nbval-current-env",
        *(f"notebooks/{n}" for n in NOTEBOOKS),
        timeout=900,
    )
    assert ran.returncode == 0, ran.stdout[-4000:]
    assert "passed" in ran.stdout and "failed" not in ran.stdout
    # The kernel nbval starts inherits the environment: it imports the edition's package, not the checkout's.
    probe = "import autograder, lesson3; print(autograder.__file__); print(lesson3.__file__)"
    files = in_edition(edition, "-c", probe).stdout.split()
    assert files and all(Path(f).is_relative_to(edition) for f in files)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_checks_table_marks_a_received_answer_apart_and_an_unanswered_one_as_missing(monkeypatch, lang):
    """In the edition: «…», no hint and one note for an answer received; ✘ and the hint for one never given."""
    from autograder import notebook
    from autograder.course.catalogue import text
    from autograder.course.criteria import hint
    from autograder.wire.results import CriterionResult, SubmissionResult
    from lesson3.practice import inline_code

    keyless = {q.criterion for q in GRADED}
    monkeypatch.setattr(notebook, "graded_on_submission", lambda criterion: criterion in keyless)
    got, missing = GRADED[0], GRADED[1]
    rows = [
        CriterionResult(got.criterion, False, 0.0, 1.0, text("question.received", lang, answer="b")),
        CriterionResult(
            missing.criterion, False, 0.0, 1.0, text("question.unanswered", lang, variable=missing.variable)
        ),
    ]
    result = SubmissionResult.from_criteria("cuaderno", rows)
    plain = notebook.render_text(result, lang=lang)
    assert f"… {got.criterion}" in plain and f"✘ {missing.criterion}" in plain
    # Not decided here, so no 0 shown for it either; the unanswered one is a 0.
    assert plain.splitlines()[3].endswith("?/1") and plain.count("  0/1") == 1
    assert plain.count(text("check.received_note", lang)) == 1
    page = notebook.render_html(result, lang=lang)
    assert inline_code(hint(missing.criterion, lang)) in page  # the HTML is not wrapped
    assert inline_code(hint(got.criterion, lang)) not in page
    row = f'<tr class="{notebook.CRITERION_ROW}" style="background:'  # a criterion's row (its comment's is the next)
    assert page.count(f"{row}#eef1f5") == 1 and page.count(f"{row}#fce8e6") == 1
    monkeypatch.setattr(notebook, "graded_on_submission", lambda criterion: False)  # the instructor's checkout
    assert "…" not in notebook.render_text(result, lang=lang)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("received", [1, 2, 6])
def test_checks_total_in_the_edition_leaves_the_received_answers_out_and_says_so(monkeypatch, lang, received):
    """All code right and every answer received reads as full marks so far, never as points lost."""
    from autograder import notebook
    from autograder.course.catalogue import text
    from autograder.wire.results import CriterionResult, SubmissionResult

    keyless = {q.criterion for q in GRADED}
    monkeypatch.setattr(notebook, "graded_on_submission", lambda criterion: criterion in keyless)
    code = [CriterionResult(c.id, True, c.points, c.points, "bien") for c in CRITERIA.values() if c.id not in keyless]
    answers = [
        CriterionResult(q.criterion, False, 0.0, q.points, text("question.received", lang, answer="b")) for q in GRADED
    ][:received]
    result = SubmissionResult.from_criteria("cuaderno", code + answers)
    right = sum(c.max_score for c in code)
    points = "puntos" if lang == "es" else "points"
    apart = text("check.received_points", lang, points=f"{sum(c.max_score for c in answers):g}")
    total = f"{right:g}/{right:g} {points} ({apart})"
    assert f"— {total}" in notebook.render_text(result, lang=lang).splitlines()[0]
    assert f"— {total}</h4>" in notebook.render_html(result, lang=lang)
    shown = notebook.CheckResult(**{f: getattr(result, f) for f in result.__dataclass_fields__})
    shown.lang = lang
    assert repr(shown) == f"<check: {total}>"
    monkeypatch.setattr(notebook, "graded_on_submission", lambda criterion: False)  # the instructor's checkout
    assert f"— {right:g}/{result.max_score:g} {points}\n" in notebook.render_text(result, lang=lang)


# -- no graded answer to read ----------------------------------------------------------------------

SOLVED_RECONCILE = next(s for s in answer_sources() if s.startswith("def reconcile("))
PASTED_AS_CELL = json.dumps(
    {
        "cells": [
            {"cell_type": "code", "source": SOLVED_RECONCILE.replace("cp", "estado"), "outputs": [], "metadata": {}}
        ]
    }
)
SHOWN_AS_OUTPUT = json.dumps(
    {
        "cells": [
            {
                "cell_type": "code",
                "source": "print(inspect.getsource(my_load_checkpoint))",
                "metadata": {},
                "outputs": [
                    {
                        "output_type": "stream",
                        "name": "stdout",
                        "text": next(s for s in answer_sources() if s.startswith("def my_load_checkpoint(")),
                    }
                ],
            }
        ]
    }
)


@pytest.mark.parametrize(
    "path, content",
    [
        (HIDDEN_ANSWERS, (ROOT / HIDDEN_ANSWERS).read_bytes()),  # lesson3's answers as the instructor has them
        ("notebooks/04_ejercicios.ipynb", PASTED_AS_CELL.encode()),  # the solution's reconcile, renamed
        ("notebooks/01_reanudar_no_reiniciar.ipynb", SHOWN_AS_OUTPUT.encode()),  # printed by a cell
        ("lesson3/extra.py", b'ACTIONS = dict(zip(("cpA", "cpB", "cpC"), ("continue", "rerun", "is_error")))\n'),
        ("lesson3/extra.py", b'ACTIONS = {"cpA": "continue", "cpB": "rerun", "cpC": "is_error"}\n'),
    ],
    ids=["answers-module", "pasted-cell", "printed-source", "zipped-actions", "dict-actions"],
)
def test_a_graded_answers_code_in_any_file_stops_the_release(path, content):
    clean = edition_files()
    assert answer_leaks(clean, answer_sources()) == []
    assert answer_leaks({**clean, path: content}, answer_sources()) != []


def test_the_editions_answers_run_for_the_demos_but_have_no_text_to_read(edition):
    shipped = (edition / HIDDEN_ANSWERS).read_text(encoding="utf-8")
    for word in ("READ_ONLY_TOOLS", "is_error", "execute_tool", "def reconcile", '"rerun"'):
        assert word not in shipped
    probe = (
        "import inspect, lesson3\n"
        "from lesson3.answers import EXPECTED_ACTION\n"
        "from lesson3.exercises import exercise_checkpoint\n"
        "print(lesson3.__file__)\n"
        "cp = lesson3.reconcile(exercise_checkpoint('cpC'))\n"
        "(result,) = cp['messages'][-1]['content']\n"
        "print(result['is_error'], cp['pendingToolUse'], sorted(EXPECTED_ACTION.values()))\n"
        "try:\n"
        "    inspect.getsource(lesson3.reconcile)\n"
        "except OSError:\n"
        "    print('sin fuente')\n"
    )
    ran = in_edition(edition, "-c", probe)
    assert ran.returncode == 0, ran.stderr[-2000:]
    where, behaves, hidden = ran.stdout.splitlines()
    assert Path(where).is_relative_to(edition)
    assert behaves == "True None ['continue', 'is_error', 'rerun']" and hidden == "sin fuente"


def test_the_course_notebooks_show_the_loop_not_the_resume_fork_that_level_0_asks_for():
    for folder in (ROOT / "notebooks", ROOT / "notebooks" / "soluciones"):
        shown = [
            "".join(o.get("text", ""))
            for c in json.loads((folder / NOTEBOOKS[0]).read_text(encoding="utf-8"))["cells"]
            for o in c.get("outputs", [])
        ]
        assert any("save_checkpoint(state" in text for text in shown)  # the loop and its two save points
        assert not any("new_state(task)" in text or "_reconciled(" in text for text in shown)
