"""Correct code that runs in Jupyter (lesson3 installed) scores what good.py scores when graded.

Each case is a small edit of the reference submission, spelled as a learner might, graded
together with grade_many so the whole file costs one grading run per group.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autograder.course.config import CourseConfig
from autograder.grading.pipeline import grade_many

DATA = Path(__file__).parent / "data" / "submissions"
GOOD = (DATA / "good.py").read_text(encoding="utf-8")
TOOL_CALL = "output = execute_tool(name, tool_input)  # noqa: F821 - the grader provides it"
START = "def start_state(task, path, reconcile):\n    cp = my_load_checkpoint(path)\n"


def edited(old: str, new: str, *, before: str = "") -> str:
    assert old in GOOD
    return before + GOOD.replace(old, new)


def grade(tmp_path: Path, cases: dict[str, str]) -> dict[str, object]:
    paths = []
    for name, source in cases.items():
        path = tmp_path / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        paths.append(path)
    results = grade_many(paths, CourseConfig(seed=5), jobs=2)
    return dict(zip(cases, results, strict=True))


def lost(result: object) -> list[str]:
    return [f"{c.id}: {c.feedback}" for c in result.criteria if c.score < c.max_score]  # type: ignore[attr-defined]


# -- the tool proxy: the learner's own execute_tool, and what it returns ---------------------------------

TOOL_CASES = {
    # A helper of their own under lesson3's name, with another signature: Jupyter calls theirs.
    "own_signature": edited(
        TOOL_CALL,
        "output = execute_tool(pending)",
        before="from lesson3 import execute_tool as run\n\n\n"
        "def execute_tool(call):\n    return run(call['name'], call['input'])\n\n\n",
    ),
    # A wrapper that keeps a log the function then relies on.
    "own_log": edited(
        TOOL_CALL,
        "output = execute_tool(name, tool_input)\n        assert CALLS == [name], CALLS",
        before="import lesson3\n\nCALLS = []\n\n\ndef execute_tool(name, input):\n"
        "    CALLS.clear()\n    CALLS.append(name)\n    return lesson3.execute_tool(name, input)\n\n\n",
    ),
    # lesson3's execute_tool returns a str, exactly.
    "exact_str": edited(TOOL_CALL, "output = execute_tool(name, tool_input)\n        assert type(output) is str"),
    "exact_class": edited(
        TOOL_CALL,
        "from lesson3 import execute_tool as run\n        output = run(name, tool_input)\n"
        "        assert output.__class__.__name__ == 'str', output.__class__",
    ),
}


def test_the_learners_execute_tool_and_lesson3s_plain_str_are_kept(tmp_path: Path) -> None:
    results = grade(tmp_path, TOOL_CASES)
    for name, result in results.items():
        assert result.score == result.max_score, (name, lost(result))
        assert not result.warnings and not result.flags, (name, result.warnings, result.flags)


def test_an_async_reconcile_may_still_await_the_tool_and_gets_a_str(tmp_path: Path) -> None:
    source = edited("def reconcile(cp):", "async def reconcile(cp):").replace(
        TOOL_CALL, "output = await execute_tool(name, tool_input)\n        assert isinstance(output, str)"
    )
    (result,) = grade(tmp_path, {"awaits": source}).values()
    assert not [c for c in result.criteria if c.id.startswith("nivel2.") and c.score < c.max_score], lost(result)


# -- lesson3's public names that are not answers behave as in Jupyter --------------------------------------

NAME_CASES = {
    # A type hint with the agent's alias is a description: the def must not fail.
    "alias_union": edited(
        START,
        "def start_state(task: str, path: str, reconcile: Reconciler | None = None) -> dict:\n"
        "    cp = my_load_checkpoint(path)\n",
        before="from lesson3.agent import Reconciler\n",
    ),
    "alias_union_right": edited(
        START,
        "def start_state(task, path, reconcile: None | Reconciler):\n    cp = my_load_checkpoint(path)\n",
        before="from lesson3.agent import Reconciler\n",
    ),
    # The agent's exception classes, caught and raised.
    "agent_errors": edited(
        START,
        "def start_state(task, path, reconcile):\n    try:\n        cp = my_load_checkpoint(path)\n"
        "    except (ReconcileError, ParallelToolUseError) as e:\n        raise RuntimeError('no') from e\n"
        "    if cp and not isinstance(cp, dict):\n        raise ReconcileError('no es un punto de control')\n",
        before="from lesson3.agent import ParallelToolUseError, ReconcileError\n",
    ),
    # The agent's constants, by every import style.
    "max_turns": edited(
        START,
        START + "    if cp and cp['turns'] > MAX_TURNS:\n        print('más que', MAX_TURNS)\n",
        before="from lesson3 import MAX_TURNS\n",
    ),
    "star": edited(
        START,
        START + "    assert CRASH_POINTS[0] == 'before_call' and MAX_TURNS > 0 and DEFAULT_MODEL\n",
        before="from lesson3 import *\n",
    ),
    "exercises_tasks": edited(
        START,
        START + "    assert TASK_EMAIL and TASK_NOTES and EXERCISE_NAMES\n",
        before="from lesson3.exercises import EXERCISE_NAMES, TASK_EMAIL, TASK_NOTES\n",
    ),
    "alias_module": edited(
        START,
        START + "    assert l3.MAX_TURNS > 0 and len(l3.CRASH_POINT_LABELS) == len(l3.CRASH_POINTS)\n"
        "    assert 'MAX_TURNS' in l3.__all__\n",
        before="import lesson3 as l3\n",
    ),
}


def test_lesson3s_constants_exceptions_and_type_aliases_work_as_in_jupyter(tmp_path: Path) -> None:
    results = grade(tmp_path, NAME_CASES)
    for name, result in results.items():
        assert result.score == result.max_score, (name, lost(result))
        assert not result.warnings and not result.flags, (name, result.warnings, result.flags)


RECONCILE_CRITERIA = {
    "nivel2.read_only_rerun",
    "nivel2.high_impact_not_rerun",
    "nivel2.is_error_fallback",
    "nivel2.tool_result_paired",
    "nivel2.no_double_email",
}


@pytest.mark.parametrize(
    "source",
    [
        # `from lesson3 import *` binds lesson3's reference reconcile, as in Jupyter: it stays a reference.
        "from lesson3 import *\n" + GOOD.split("def reconcile(cp):")[0],
        # A reference answer in a type hint's union is still not an answer.
        GOOD.replace("def reconcile(cp):", "def _mine(cp):")
        + "\nfrom lesson3 import reconcile as ref\nreconcile = (ref | None).__args__[0]\n",
    ],
)
def test_the_reference_reconcile_is_still_a_placeholder(tmp_path: Path, source: str) -> None:
    (result,) = grade(tmp_path, {"reference": source}).values()
    reconcile_criteria = [c for c in result.criteria if c.id in RECONCILE_CRITERIA]
    assert len(reconcile_criteria) == len(RECONCILE_CRITERIA)
    assert all(c.score == 0 for c in reconcile_criteria), lost(result)


# -- start_state's own names are not lesson3's -------------------------------------------------------------

LEVEL0 = {"nivel0.dangling_reconciled", "nivel0.max_turns_across_lives"}
WITHOUT_RECONCILE = GOOD.split("def reconcile(cp):")[0] + GOOD[GOOD.index("razon_cpA") :]
SHADOW_CASES = {
    # Level 2 not done yet: the module's `reconcile` is lesson3's, start_state calls its parameter.
    "partial_import": "from lesson3 import reconcile, load_checkpoint\n" + WITHOUT_RECONCILE,
    "partial_star": "from lesson3 import *\n" + WITHOUT_RECONCILE,
    # A local variable of the same name as lesson3's load_checkpoint, holding the learner's own.
    "local_name": "from lesson3 import load_checkpoint\n"
    + GOOD.replace(
        START,
        "def start_state(task, path, reconcile):\n    load_checkpoint = my_load_checkpoint\n"
        "    cp = load_checkpoint(path)\n",
    ),
}


def test_a_parameter_or_local_named_like_a_reference_is_not_delegation(tmp_path: Path) -> None:
    results = grade(tmp_path, SHADOW_CASES)
    for name, result in results.items():
        level0 = [c for c in result.criteria if c.id in LEVEL0]
        assert len(level0) == len(LEVEL0) and all(c.score == c.max_score for c in level0), (name, lost(result))
        assert not [f for f in result.flags if "start_state" in f], (name, result.flags)


# -- a cell that tries the functions: lesson3's tools and files, as in Jupyter -----------------------------

TRY_CASES = {
    # No active workspace: lesson3's execute_tool answers with its error text, it does not raise.
    "no_workspace": GOOD
    + "\nfrom lesson3 import execute_tool as run\nfrom lesson3.exercises import exercise_checkpoint\n"
    "out = reconcile(exercise_checkpoint('cpB'))['messages'][-1]['content'][0]['content']\n"
    "assert out.startswith('Error: no hay espacio de trabajo activo'), out\n"
    "assert run('list_dir', {}).startswith('Error:')\n",
    # The course's workspace, made active by the learner: the tool really runs, in the learner's folder.
    "own_workspace": GOOD + "\nfrom lesson3 import create_workspace, execute_tool as run, outbox_count, use_workspace\n"
    "from lesson3.exercises import exercise_checkpoint\n"
    "ws = create_workspace('prueba')\n"
    "with use_workspace(ws):\n"
    "    block = reconcile(exercise_checkpoint('cpB'))['messages'][-1]['content'][0]\n"
    "    reconcile(exercise_checkpoint('cpC'))\n"
    "    listing = run('list_dir', {'path': 'notes'})\n"
    "assert not block.get('is_error') and not block['content'].startswith('Error'), block\n"
    "assert '.md' in listing and outbox_count(ws) == 0, listing\n",
    "web_search": GOOD + "\nfrom lesson3 import create_workspace, execute_tool as run, set_workspace\n"
    "set_workspace(create_workspace('web'))\n"
    "found = run('web_search', {'query': 'checkpoint'})\n"
    "assert found and not found.startswith('Error'), found\n",
    "package_files": GOOD + "\nimport json\nfrom importlib import resources\n"
    "corpus = json.loads((resources.files('lesson3') / 'data' / 'web_corpus.json').read_text(encoding='utf-8'))\n"
    "notes = [p.name for p in (resources.files('lesson3') / 'data' / 'workspace' / 'notes').iterdir()]\n"
    "assert corpus and any(n.endswith('.md') for n in notes), notes\n",
}


def test_tools_and_lesson3s_files_work_in_a_cell_that_tries_the_functions(tmp_path: Path) -> None:
    results = grade(tmp_path, TRY_CASES)
    for name, result in results.items():
        assert not result.warnings, (name, result.warnings)
        assert result.score == result.max_score, (name, lost(result))


def test_a_py_sees_the_arguments_python_would_give_it(tmp_path: Path) -> None:
    cases = {
        "argparse": "import argparse\nARGS = argparse.ArgumentParser().parse_args()\n" + GOOD,
        "argv": "import sys\nfrom pathlib import Path\nassert sys.argv == [__file__], sys.argv\n"
        "assert Path(sys.argv[0]).name == 'argv.py'\n" + GOOD,
        "argv_in_call": GOOD.replace(START, START + "    assert len(__import__('sys').argv) == 1\n"),
    }
    for name, result in grade(tmp_path, cases).items():
        assert not result.warnings, (name, result.warnings)
        assert result.score == result.max_score, (name, lost(result))


def test_the_source_of_lesson3s_answer_free_code_can_be_shown(tmp_path: Path) -> None:
    shown = {
        "production": "from lesson3 import reconcile_production\nsrc = inspect.getsource(reconcile_production)\n"
        "assert 'def reconcile_production' in src\n",
        "dangling": "from lesson3.reconciliation import delete_dangling\n"
        "assert 'def delete_dangling' in inspect.getsource(delete_dangling)\n",
        "tools": "import lesson3.tools\nassert 'def execute_tool' in inspect.getsource(lesson3.tools.execute_tool)\n",
        "practice": "from lesson3.practice import feedback\nassert 'def feedback' in inspect.getsource(feedback)\n",
    }
    # Every module of lesson3 but the answers' is lesson3's own file, its source shown as in Jupyter: the
    # functions a graded call may not reuse too (guarded where they run, not hidden).
    shown.update(
        {
            "load_checkpoint": "from lesson3 import load_checkpoint\n"
            "assert inspect.getsource(load_checkpoint).startswith('def load_checkpoint(')\n"
            "assert str(inspect.signature(load_checkpoint)).startswith('(path')\n",
            "agent": "import lesson3.agent\nassert 'def run_agent' in inspect.getsource(lesson3.agent)\n",
            "render": "from lesson3.render import format_checkpoint\n"
            "assert 'resume_plan' in inspect.getsource(format_checkpoint)\n",
        }
    )
    cases = {name: "import inspect\n" + code + GOOD for name, code in shown.items()}
    # The answers are the one module whose source, and objects, do not exist while grading.
    cases["answers_hidden"] = (
        "import inspect\nimport lesson3.answers\nfrom lesson3 import reconcile as ref\n"
        "for hidden in (lesson3.answers, ref):\n    try:\n        inspect.getsource(hidden)\n"
        "    except (OSError, TypeError):\n        pass\n    else:\n        raise AssertionError('source shown')\n"
        + GOOD
    )
    for name, result in grade(tmp_path, cases).items():
        assert not result.warnings, (name, result.warnings)


# -- the learner's own files: copies and touches work; metadata elsewhere is still refused ------------------

OPEN_CHECKPOINT = 'raw = json.loads(path.read_text(encoding="utf-8"))'


def test_copies_and_touches_in_the_learners_folder_work_as_in_jupyter(tmp_path: Path) -> None:
    cases = {
        # A careful my_load_checkpoint: a backup of the file before reading it.
        "backup_copy2": GOOD.replace(
            OPEN_CHECKPOINT, "shutil.copy2(path, str(path) + '.bak')\n    " + OPEN_CHECKPOINT
        ).replace("import json\n", "import json\nimport shutil\n"),
        "backup_copy": GOOD.replace(
            OPEN_CHECKPOINT,
            "with tempfile.TemporaryDirectory() as d:\n        shutil.copy(path, d)\n    " + OPEN_CHECKPOINT,
        ).replace("import json\n", "import json\nimport shutil\nimport tempfile\n"),
        "touch_and_tree": GOOD
        + "\nimport os, shutil\nfrom pathlib import Path\nPath('nota.txt').touch()\nPath('nota.txt').touch()\n"
        "Path('d').mkdir()\nshutil.copy2('nota.txt', 'd')\nshutil.copytree('d', 'e')\nos.chmod('e/nota.txt', 0o600)\n"
        "Path('e').chmod(0o700)\nos.utime('nota.txt', (0, 0))\n",
        # Outside its folder nothing changed: the refusal still reaches the learner.
        "outside_refused": GOOD + "\nimport json, os\nfor call in (lambda: os.chmod(json.__file__, 0o644),"
        " lambda: os.utime(json.__file__), lambda: os.chmod('/tmp', 0o777)):\n"
        "    try:\n        call()\n    except PermissionError:\n        pass\n"
        "    else:\n        raise AssertionError('metadata changed outside the folder')\n",
    }
    for name, result in grade(tmp_path, cases).items():
        assert not result.warnings, (name, result.warnings)
        assert result.score == result.max_score, (name, lost(result))


def test_metadata_calls_on_a_missing_file_still_say_it_is_missing(tmp_path: Path) -> None:
    source = (
        GOOD + "\nimport os\nfrom pathlib import Path\nPath('nueva.txt').touch()\nassert os.path.exists('nueva.txt')\n"
        "for call in (os.chmod, os.utime):\n    try:\n        call('no-existe.txt', 0o600) if call is os.chmod "
        "else call('no-existe.txt')\n    except FileNotFoundError:\n        pass\n"
        "    else:\n        raise AssertionError(call)\n"
    )
    (result,) = grade(tmp_path, {"missing": source}).values()
    assert not result.warnings, result.warnings


# -- a .py's cell markers: comments, not text inside a string ----------------------------------------------


def test_text_that_looks_like_a_cell_marker_inside_a_string_does_not_split_the_file(tmp_path: Path) -> None:
    cases = {
        "docstring": GOOD.replace(
            "def resume_action(cp):\n",
            'def resume_action(cp):\n    """Qué hacer al reanudar.\n\n    Como en el cuaderno:\n# %%\n    """\n',
        ),
        "template": "TEMPLATE = '''\n# In[3]:\nx = 1\n'''\n" + GOOD,
        "bytes": "RAW = b'''\n#%% no es una celda\n'''\n" + GOOD,
        # Real markers still make cells (and a string with one inside stays whole).
        "real_markers": "# %%\nNOTE = '''\n# %%\n'''\n# %%\n" + GOOD,
    }
    for name, result in grade(tmp_path, cases).items():
        assert not result.warnings, (name, result.warnings)
        assert result.score == result.max_score, (name, lost(result))


def test_a_marked_cell_with_a_syntax_error_is_reported_and_the_others_run(tmp_path: Path) -> None:
    cases = {
        "broken_cell": "# %%\nx = (\n# %%\n" + GOOD,
        "broken_last": "# %%\n" + GOOD + "\n# %%\nprint('sin cerrar'\n",
    }
    for name, result in grade(tmp_path, cases).items():
        assert result.score == result.max_score, (name, lost(result))
        assert len(result.warnings) == 1 and "sintaxis" in result.warnings[0], (name, result.warnings)


def test_kept_source_survives_a_file_the_learner_cannot_stat(tmp_path: Path, monkeypatch) -> None:
    import importlib.util
    import inspect
    import linecache
    import os

    from autograder.learner.lesson3_view import KeptSourceLoader, _KeptModules, keep_module

    path = tmp_path / "oculto.py"
    path.write_text("def f():\n    return 'fuente'\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("oculto_para_la_prueba", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    keep_module(module, KeptSourceLoader)
    # What the module was made from stays its source, whatever happens to the file afterwards.
    path.write_text("def f():\n    return 'otra'\n", encoding="utf-8")
    real_stat = os.stat

    def refused(target, *args, **kwargs):
        if os.fspath(target) == str(path):
            raise PermissionError(13, "Permission denied", str(target))
        return real_stat(target, *args, **kwargs)

    monkeypatch.setattr(os, "stat", refused)
    monkeypatch.setattr(os.path, "exists", lambda target: False if os.fspath(target) == str(path) else True)
    try:
        assert inspect.getsource(module.f) == "def f():\n    return 'fuente'\n"
        assert module.__loader__.get_source(module.__name__) == "def f():\n    return 'fuente'\n"
    finally:
        linecache.cache.pop(str(path), None)
        _KeptModules.loaders.pop(module.__name__, None)


LEARNER_READS_LESSON3 = """
import importlib, importlib.resources, inspect, os, sys
from autograder.learner import lesson3_view
lesson3_view.install()
import lesson3.checkpoint as ck
assert ck.__file__.startswith(sys.argv[1]), ck.__file__
os.setgroups([])
os.setresgid(65534, 65534, 65534)
os.setresuid(65534, 65534, 65534)
try:
    open(ck.__file__).close()
except PermissionError:
    pass
else:
    raise SystemExit("the premise does not hold: the learner's uid can open the file")
source = ck.__loader__.get_data(ck.__file__).decode("utf-8")
assert "def load_checkpoint" in source
assert ck.__loader__.get_source(ck.__name__) == source
assert inspect.getsource(ck.load_checkpoint).startswith("def load_checkpoint")
namespace = {"__name__": "copia"}
exec(source, namespace)
assert callable(namespace["load_checkpoint"])
assert importlib.reload(ck).load_checkpoint is not None
assert any(importlib.resources.files("lesson3").joinpath("data").iterdir())
print("leído")
"""


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="the learner's uid is dropped only as root")
def test_lesson3s_source_reads_as_in_jupyter_where_the_learners_uid_cannot_open_the_checkout(tmp_path: Path) -> None:
    # A checkout inside a 0700 folder (mktemp -d, a private home): lesson3 was imported before the uid
    # drop, and every way Jupyter reads its source must still work after it, from what was kept.
    import shutil
    import subprocess
    import sys

    import lesson3

    private = tmp_path / "privado"
    shutil.copytree(Path(lesson3.__file__).parent, private / "lesson3", ignore=shutil.ignore_patterns("__pycache__"))
    private.chmod(0o700)
    run = subprocess.run(
        [sys.executable, "-c", LEARNER_READS_LESSON3, str(private)],
        env={**os.environ, "PYTHONPATH": str(private), "PYTHONDONTWRITEBYTECODE": "1"},
        cwd=tmp_path,  # not the checkout: its lesson3/ would come first
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and run.stdout.strip() == "leído", run.stderr[-2000:]
