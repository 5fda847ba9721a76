"""What a graded function may not reuse of lesson3 is caught when it runs, whatever the spelling that reached it.

Each delegating case below behaves well (lesson3's own code does the work), so only the
run-time record can take its points away; the static reading of the source finds none of
these spellings. The legitimate reuses run the same way and keep every point.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA
from autograder.grading.pipeline import grade_many
from autograder.judging.delegation import static_delegation

pytestmark = pytest.mark.warm_up("grading_server")

GOOD = (Path(__file__).parent / "data" / "submissions" / "good.py").read_text(encoding="utf-8")
OWN_RECONCILE = GOOD[GOOD.index("def reconcile(cp):") : GOOD.index("razon_cpA")]
OWN_LOAD = GOOD[GOOD.index("def my_load_checkpoint(path):") : GOOD.index("def start_state(")]

# reconcile that passes its read-only branch to the incident's reconcile_production (which re-runs the
# tool: right for read-only tools) and answers high-impact ones itself: every criterion passes, unless caught.
HYBRID = """
def reconcile(cp):
    pending = cp["pendingToolUse"]
    if pending["name"] in READ_ONLY_TOOLS:
        return {call}(cp)
    cp["messages"].append({{"role": "user", "content": [{{
        "type": "tool_result", "tool_use_id": pending["id"], "is_error": True,
        "content": "Estado de ejecución desconocido: no hay manera de confirmar si tuvo efecto. Reevalúa."}}]}})
    cp["pendingToolUse"] = None
    return cp
"""

PRODUCTION = {
    "getattr_built": ("import lesson3\nF = getattr(lesson3, 'reconcile_' + 'production')\n", "F"),
    "sys_modules": ("import sys, lesson3.production\n", "sys.modules['lesson3.production'].reconcile_production"),
    "import_module": ("import importlib\n", "importlib.import_module('lesson3.' + 'production').reconcile_production"),
    "exec_import": ("NS = {}\nexec('from lesson3 import reconcile_production as f', NS)\n", "NS['f']"),
    "eval": ("", 'eval("__import__(\'lesson3\').reconcile_" + "production")'),
    "partial": ("import functools, lesson3\nF = functools.partial(lesson3.reconcile_production)\n", "F"),
    "lambda_in_dict": ("import lesson3\nTABLE = {'ro': lambda cp: lesson3.reconcile_production(cp)}\n", "TABLE['ro']"),
    "class_method": (
        "from lesson3.production import reconcile_production as rp\n"
        "class Moves:\n    @classmethod\n    def rerun(cls, cp):\n        return rp(cp)\n",
        "Moves.rerun",
    ),
    "thread": (
        "import threading\nfrom lesson3 import reconcile_production\n"
        "def in_thread(cp):\n    out = []\n"
        "    t = threading.Thread(target=lambda: out.append(reconcile_production(cp)))\n"
        "    t.start()\n    t.join()\n    return out[0]\n",
        "in_thread",
    ),
    "from_production": ("from lesson3.production import reconcile_production as F\n", "F"),
    "from_reconciliation": ("from lesson3.reconciliation import reconcile_production as F\n", "F"),
    "from_package": ("from lesson3 import reconcile_production as F\n", "F"),
    "module_dict": ("import lesson3.production\nF = lesson3.production.__dict__['reconcile_' + 'production']\n", "F"),
    "vars_of_lab": ("import lesson3.lab\nF = vars(lesson3.lab)['LAB_STRATEGIES']['rerun'].reconcile\n", "F"),
    "closure_at_load": (
        "import lesson3\ndef make():\n    captured = lesson3.reconcile_production\n"
        "    return lambda cp: captured(cp)\nF = make()\n",
        "F",
    ),
}
"""Name -> (module-level code, the expression reconcile calls for read-only tools)."""

LOAD = {
    "getattr_built": "import lesson3\ndef my_load_checkpoint(path):\n"
    "    return getattr(lesson3, 'load_' + 'checkpoint')(path)\n",
    "sys_modules": "import sys, lesson3.checkpoint\n"
    "def my_load_checkpoint(path):\n    return sys.modules['lesson3.checkpoint'].load_checkpoint(path)\n",
    "another_modules_import": "import lesson3.crash\ndef my_load_checkpoint(path):\n"
    "    return lesson3.crash.load_checkpoint(path)\n",
    "alias_at_load": "from lesson3.checkpoint import load_checkpoint as L\nmy_load_checkpoint = L\n",
    "dunder_import": "def my_load_checkpoint(path):\n"
    "    return __import__('lesson3.checkpoint', fromlist=['x']).load_checkpoint(path)\n",
}
"""my_load_checkpoint, spelled to reach lesson3's load_checkpoint (start_state calls it, so it is caught too)."""

REUSE = "getattr(importlib.import_module('lesson3.' + 'checkpoint'), 'load_' + 'checkpoint')(path)"
TAMPERING = {
    # The record cleared afterwards: the guard refused to run, so there is nothing to hide.
    "clear_the_record": "import importlib, sys\ndef my_load_checkpoint(path):\n"
    "    view = sys.modules['autograder.learner.lesson3_view']\n"
    f"    try:\n        return {REUSE}\n    finally:\n        view.fired.clear()\n",
    "rebind_the_record": "import importlib, sys\ndef my_load_checkpoint(path):\n"
    "    view = sys.modules['autograder.learner.lesson3_view']\n    view.fired = []\n"
    f"    return {REUSE}\n",
    # The flag off, and back on before returning: the stack still says a graded call is running.
    "disarm_and_rearm": "import importlib, sys\ndef my_load_checkpoint(path):\n"
    "    view = sys.modules['autograder.learner.lesson3_view']\n    view.armed = False\n"
    f"    try:\n        return {REUSE}\n    finally:\n        view.armed = True\n",
    "disarm_in_a_thread": "import importlib, sys, threading\ndef my_load_checkpoint(path):\n"
    "    view = sys.modules['autograder.learner.lesson3_view']\n    view.armed = False\n    out = []\n"
    f"    t = threading.Thread(target=lambda: out.append({REUSE}))\n"
    "    t.start()\n    t.join()\n    view.armed = True\n    return out[0] if out else None\n",
    # The guard replaced and left so: the call is reported as reuse.
    "silence_the_recorder": "import importlib, sys\ndef my_load_checkpoint(path):\n"
    "    view = sys.modules['autograder.learner.lesson3_view']\n    view._record = lambda label: None\n"
    "    view.armed = False\n    view.in_graded_call = lambda: False\n"
    f"    return {REUSE}\n",
    "restore_the_code": "import importlib, sys\ndef my_load_checkpoint(path):\n"
    "    view = sys.modules['autograder.learner.lesson3_view']\n"
    "    for fn, code, guards, label, run in view._guarded:\n        guards[label] = lambda a, k: None\n"
    f"    return {REUSE}\n",
}
"""my_load_checkpoint reusing lesson3's load_checkpoint, tampering with the grader's guard in the learner's process."""
LEFT_BROKEN = {"silence_the_recorder", "restore_the_code"}
"""Tampering not undone before the call returns: every later call of the submission is reported as reuse too."""

WRITEFILE_NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [],
            "execution_count": None,
            "source": "%%writefile ayudante.py\nimport lesson3\n\ndef repetir(cp):\n"
            "    return getattr(lesson3, 'reconcile_' + 'production')(cp)\n",
        },
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [],
            "execution_count": None,
            "source": GOOD.replace(OWN_RECONCILE, "")
            + "\nfrom ayudante import repetir\n"
            + HYBRID.format(call="repetir"),
        },
    ],
    "metadata": {"language_info": {"name": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}

ANSWERS = {
    # The answers' module, by a path the notebooks never name: each name a placeholder that records its use.
    "expected_by_sys_modules": "import sys, lesson3.exercises\ndef resume_action(cp):\n"
    "    table = sys.modules['lesson3.answers'].EXPECTED_ACTION\n    return table['cpA']\n",
    "format_checkpoint": "from lesson3.render import format_checkpoint\ndef resume_action(cp):\n"
    "    plan = format_checkpoint(cp).splitlines()[-1]\n"
    "    return 'continue' if plan.startswith('Sin') else 'rerun' if 'vuelve a' in plan else 'is_error'\n",
}
"""resume_action through lesson3's answers (a placeholder raises: the criteria fail either way)."""

LEGITIMATE = {
    # lesson3's tools, conversation helpers and checkpoint writers, in graded calls: the course's own toolbox.
    "tools_and_helpers": GOOD.replace(
        "output = execute_tool(name, tool_input)  # noqa: F821 - the grader provides it",
        "output = lesson3.execute_tool(name, tool_input)\n        assert blocks({'content': [{'type': 'text'}]})",
    ).replace("import json\n", "import json\nimport lesson3\nfrom lesson3.conversation import blocks\n"),
    "save_and_new_state": GOOD.replace(
        '    return {\n        "version": CHECKPOINT_VERSION,\n        "task": task,\n        "turns": 0,\n'
        '        "tokensUsed": 0,\n        "messages": [{"role": "user", "content": task}],\n'
        '        "pendingToolUse": None,\n    }\n',
        "    return validate_checkpoint(new_state(task))\n",
    ).replace("import json\n", "import json\nfrom lesson3 import new_state, validate_checkpoint\n"),
    # lesson3's load_checkpoint outside graded calls (a cell that tries it) is the notebooks' own use.
    "load_checkpoint_in_a_cell": "from lesson3 import load_checkpoint, new_state, save_checkpoint\n"
    "save_checkpoint(new_state('tarea'), 'prueba.json')\nassert load_checkpoint('prueba.json')['turns'] == 0\n" + GOOD,
    # A worker a cell started keeps using lesson3's load_checkpoint on its own file while the graded calls run:
    # the notebook's use, as in Jupyter, not the graded functions'.
    "a_cells_worker_thread": "import tempfile, threading, time\n"
    "from lesson3 import load_checkpoint, new_state, save_checkpoint\n"
    "FOLDER = tempfile.mkdtemp()\nsave_checkpoint(new_state('demo'), FOLDER + '/c.json', durable=False)\n"
    "def watch():\n    while True:\n        load_checkpoint(FOLDER + '/c.json')\n        time.sleep(0.0005)\n"
    "threading.Thread(target=watch, daemon=True).start()\n" + GOOD,
    # Looking at code is harmless: lesson3's, printed at load (the course's own cell), and one's own.
    "print_lesson3s_code": "import inspect\nfrom lesson3 import reconcile_production\n"
    "print(inspect.getsource(reconcile_production))\n" + GOOD,
    "own_code_read": GOOD
    + "\nimport inspect\nprint(inspect.getsource(reconcile))\nassert reconcile.__code__.co_argcount == 1\n"
    "def describe(fn):\n    return fn.__code__.co_name + inspect.getsource(fn)[:0]\n"
    "_reconcile = reconcile\ndef reconcile(cp):\n    describe(_reconcile)\n    return _reconcile(cp)\n",
    "constants": GOOD.replace(
        'READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}',
        "from lesson3 import MAX_TURNS, READ_ONLY_TOOLS, UNKNOWN_STATE_MESSAGE\nassert MAX_TURNS",
    ),
}


def by_function(result: object, fn: str) -> list[object]:
    return [c for c in result.criteria if CRITERIA[c.id].function == fn]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reuso")
    files: dict[str, str] = {}
    for name, (setup, call) in PRODUCTION.items():
        files[f"production_{name}.py"] = setup + GOOD.replace(OWN_RECONCILE, HYBRID.format(call=call))
    for name, source in LOAD.items():
        files[f"load_{name}.py"] = source + GOOD.replace(OWN_LOAD, "")
    for name, source in TAMPERING.items():
        files[f"tamper_{name}.py"] = source + GOOD.replace(OWN_LOAD, "")
    for name, source in ANSWERS.items():
        files[f"answers_{name}.py"] = (
            GOOD.replace(GOOD[GOOD.index("def resume_action") : GOOD.index("def reconcile")], "") + source
        )
    for name, source in LEGITIMATE.items():
        files[f"legit_{name}.py"] = source
    files["writefile_helper.ipynb"] = json.dumps(WRITEFILE_NOTEBOOK)
    paths = []
    for name, source in files.items():
        (folder / name).write_text(source, encoding="utf-8")
        paths.append(folder / name)
    return {r.submission: r for r in grade_many(paths, CourseConfig(seed=3), jobs=2)}


def assert_caught(result, fn: str, words: str) -> None:
    lost = by_function(result, fn)
    assert lost and all(c.score == 0 and "No cuenta" in c.feedback and words in c.feedback for c in lost), [
        (c.id, c.feedback[:160]) for c in lost
    ]
    assert any(f.startswith(f"delega en lesson3: {fn} usa ") for f in result.flags), result.flags


@pytest.mark.parametrize("name", sorted(PRODUCTION))
def test_reconcile_production_is_caught_whatever_reached_it(graded, name):
    result = graded[f"production_{name}.py"]
    assert_caught(result, "reconcile", "el reconcile de producción del incidente")
    # The rest of the submission is its own: untouched.
    assert all(c.passed for c in by_function(result, "resume_action")), result.warnings


def test_a_writefile_helper_module_is_caught_too(graded):
    result = graded["writefile_helper.ipynb"]
    assert_caught(result, "reconcile", "el reconcile de producción del incidente")
    assert result.flags == ["delega en lesson3: reconcile usa lesson3.production.reconcile_production"]


@pytest.mark.parametrize("name", sorted(LOAD))
def test_lesson3s_load_checkpoint_is_caught_whatever_reached_it(graded, name):
    result = graded[f"load_{name}.py"]
    for fn in ("my_load_checkpoint", "start_state"):  # start_state's calls reach it through my_load_checkpoint
        assert_caught(result, fn, "la función de lesson3 que este ejercicio te pide escribir")
    assert all(c.passed for c in by_function(result, "reconcile")), result.warnings


@pytest.mark.parametrize("name", sorted(TAMPERING))
def test_tampering_with_the_guard_gains_nothing(graded, name):
    result = graded[f"tamper_{name}.py"]
    for criterion in by_function(result, "my_load_checkpoint"):
        assert criterion.score == 0 and "No cuenta" in criterion.feedback, (criterion.id, criterion.feedback[:200])
    later = by_function(result, "reconcile")
    if name in LEFT_BROKEN:
        assert later and all(c.score == 0 and "protección del corrector" in c.feedback for c in later)
    else:  # undone before returning: the rest is the learner's own, graded as such
        assert later and all(c.passed for c in later), [(c.id, c.feedback[:160]) for c in later]


def test_a_guard_left_switched_off_is_reported_as_reuse(graded):
    result = graded["tamper_silence_the_recorder.py"]
    assert any("protección del corrector" in c.feedback for c in by_function(result, "reconcile"))
    assert any("lesson3-guard" in f for f in result.flags), result.flags


GUARD_ATTACKS = sorted((Path(__file__).parent / "data" / "submissions" / "guard").glob("*.py"))
"""Reuses that reach into the guard itself (found by a hostile-student probe)."""
RECREATED = sorted((Path(__file__).parent / "data" / "submissions" / "recreated").glob("*.py"))
"""Reuses of a fresh copy of lesson3's code (reloaded, exec'd from its source, rebuilt from its code object),
the crash lab's moves included; each file's first line names the function that reuses it."""


@pytest.fixture(scope="module")
def guard_attacks():
    paths = [*GUARD_ATTACKS, *RECREATED]
    return dict(zip(paths, grade_many(paths, CourseConfig(seed=7), jobs=2), strict=True))


@pytest.mark.parametrize("path", GUARD_ATTACKS, ids=lambda p: p.stem)
def test_code_that_reaches_into_the_guard_earns_nothing(guard_attacks, path):
    result = guard_attacks[path]
    for fn in ("my_load_checkpoint", "start_state"):
        lost = by_function(result, fn)
        assert lost and all(c.score == 0 and not c.pending for c in lost), [(c.id, c.feedback[:160]) for c in lost]
    assert all(c.passed for c in by_function(result, "reconcile")), result.flags


@pytest.mark.parametrize("path", RECREATED, ids=lambda p: p.stem)
def test_a_copy_of_lesson3s_code_is_caught_where_it_runs(guard_attacks, path):
    result = guard_attacks[path]
    fn = path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# caught: ")
    lost = by_function(result, fn)
    assert lost and all(c.score == 0 and "No cuenta" in c.feedback and not c.pending for c in lost), [
        (c.id, c.feedback[:160]) for c in lost
    ]
    assert not any(c.pending for c in result.criteria)
    others = [c for c in result.criteria if CRITERIA[c.id].function not in (fn, "start_state")]
    assert others and all(c.passed for c in others), [(c.id, c.feedback[:160]) for c in others if not c.passed]


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_the_answers_are_caught_through_any_lesson3_function_that_uses_them(graded, name):
    result = graded[f"answers_{name}.py"]
    assert_caught(result, "resume_action", "la solución de referencia de lesson3")


@pytest.mark.parametrize("name", sorted(LEGITIMATE))
def test_the_course_toolbox_is_reused_freely(graded, name):
    result = graded[f"legit_{name}.py"]
    assert result.flags == [] and result.warnings == [], (result.flags, result.warnings)
    assert result.score == result.max_score, [(c.id, c.feedback[:160]) for c in result.criteria if not c.passed]


DYNAMIC = ("getattr_built", "sys_modules", "import_module", "exec_import", "eval", "module_dict", "closure_at_load")
"""Spellings no reading of the source can follow: only the run-time record catches them."""


@pytest.mark.parametrize("name", DYNAMIC)
def test_the_static_reading_does_not_see_these_spellings(name):
    setup, call = PRODUCTION[name]
    assert static_delegation([setup + GOOD.replace(OWN_RECONCILE, HYBRID.format(call=call))]) == {}


def test_what_the_source_spells_is_the_name_the_feedback_shows(graded):
    assert graded["production_from_package.py"].flags == [
        "delega en lesson3: reconcile usa lesson3.reconcile_production"
    ]
    assert graded["production_sys_modules.py"].flags == [
        "delega en lesson3: reconcile usa lesson3.production.reconcile_production"
    ]


def test_the_one_list_names_lesson3_functions_and_every_answer_of_the_answers_module():
    import ast
    import importlib
    import inspect

    import lesson3.answers
    from autograder.course import catalogue
    from autograder.judging.delegation import ANSWER, kinds
    from lesson3.exercises import NOT_REUSABLE

    for label, kind in NOT_REUSABLE.items():
        module, _, name = label.rpartition(".")
        assert inspect.isfunction(getattr(importlib.import_module(module), name)), label  # guarded where it is defined
        assert f"call.reused.{kind}" in catalogue.keys(), kind
    # Whatever the answers' module defines is an answer: nothing is added there without being one.
    tree = ast.parse(Path(lesson3.answers.__file__).read_text(encoding="utf-8"))
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    defined |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    assert defined - {"__all__"} == set(lesson3.answers.__all__)
    assert {name for name, kind in kinds().items() if kind == ANSWER} == defined - {"__all__"}
