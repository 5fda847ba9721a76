"""Copies in a class: what hides a copy from the comparison, what honest code is never flagged for, the reference."""

from __future__ import annotations

import inspect
import re
import textwrap
from pathlib import Path

import pytest

import lesson3.answers
from autograder.grading.similarity import (
    MIN_SUBTREES,
    SIMILAR,
    Flag,
    fingerprint,
    flags,
    lesson3_references,
    similarity,
    starter_counts,
)
from autograder.intake.submission import load_submission
from autograder.wire.calls import FUNCTIONS

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "data" / "submissions"

ORIGINAL = '''
def reconcile(cp):
    """Mi versión."""
    pending = cp["pendingToolUse"]
    if pending["name"] in READ_ONLY_TOOLS:
        output = execute_tool(pending["name"], pending["input"])
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": output}
    else:
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": "desconocido", "is_error": True}
    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp
'''

DISGUISES = {
    "renamed": """
def reconcile(estado):
    colgante = estado["pendingToolUse"]
    if colgante["name"] in READ_ONLY_TOOLS:
        salida = execute_tool(colgante["name"], colgante["input"])
        r = {"type": "tool_result", "tool_use_id": colgante["id"], "content": salida}
    else:
        r = {"type": "tool_result", "tool_use_id": colgante["id"], "content": "desconocido", "is_error": True}
    estado["messages"].append({"role": "user", "content": [r]})
    estado["pendingToolUse"] = None
    return estado
""",
    "comments and whitespace": """
def reconcile(cp):
    # sacado de mis apuntes

    pending = cp["pendingToolUse"]   # la llamada
    if pending["name"] in READ_ONLY_TOOLS:
        output = execute_tool(pending["name"],
                              pending["input"])
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": output}
    else:
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": "desconocido", "is_error": True}

    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp
""",
    "reordered statements": '''
def reconcile(cp):
    """Otra docstring, más larga que la del original."""
    pending = cp["pendingToolUse"]
    if pending["name"] in READ_ONLY_TOOLS:
        output = execute_tool(pending["name"], pending["input"])
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": output}
    else:
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": "desconocido", "is_error": True}
    cp["pendingToolUse"] = None
    cp["messages"].append({"role": "user", "content": [result]})
    return cp
''',
    "branches swapped": """
def reconcile(cp):
    pending = cp["pendingToolUse"]
    if pending["name"] not in READ_ONLY_TOOLS:
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": "desconocido", "is_error": True}
    else:
        output = execute_tool(pending["name"], pending["input"])
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": output}
    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp
""",
}


def one(source: str, name: str = "reconcile") -> frozenset:
    return fingerprint(textwrap.dedent(source), [name])[name]


@pytest.mark.parametrize("how", DISGUISES)
def test_a_disguised_copy_is_still_a_copy(how):
    assert similarity(one(ORIGINAL), one(DISGUISES[how])) >= SIMILAR


def test_renaming_and_comments_change_nothing_at_all():
    assert one(ORIGINAL) == one(DISGUISES["renamed"]) == one(DISGUISES["comments and whitespace"])


def test_the_suites_honest_solutions_written_apart_are_not_flagged():
    # Written by different hands for different tests: alike in what the lesson asks, not copies.
    names = ["good.py", "tuned.py", "production.py", "delete_dangling.py"]
    prints = [fingerprint((SUBMISSIONS / n).read_text(encoding="utf-8"), FUNCTIONS) for n in names]
    assert flags(prints) == []
    assert all(similarity(a["reconcile"], b["reconcile"]) < SIMILAR for a in prints for b in prints if a is not b)


def test_three_learners_with_one_notebook_each_name_the_other_two():
    solved = load_submission(ROOT / "notebooks" / "soluciones" / "04_ejercicios.ipynb")
    source = "\n".join(cell.source for cell in solved.cells)
    honest = (SUBMISSIONS / "tuned.py").read_text(encoding="utf-8")
    prints = [fingerprint(s, FUNCTIONS) for s in (source, honest, source, source)]
    found = flags(prints)
    by_learner = {i: {f.other for f in found if f.learner == i and f.function == "reconcile"} for i in range(4)}
    assert by_learner == {0: {2, 3}, 1: set(), 2: {0, 3}, 3: {0, 2}}
    assert all(f.similarity == 1.0 for f in found)


def test_pasting_lesson3s_reconcile_is_flagged_against_it_under_any_name():
    pasted = re.sub(r"\bcp\b", "estado", inspect.getsource(lesson3.answers.reconcile))
    pasted = pasted.replace("def reconcile(", "def reconciliar(") + "\n\nreconcile = reconciliar\n"
    found = flags([fingerprint(pasted, FUNCTIONS)], lesson3_references())
    assert Flag(0, "reconcile", "lesson3.answers.reconcile", 1.0) in found
    assert {f.learner for f in found} == {0}


def test_the_course_starter_code_is_nobodys_copy():
    starter_source = "\n".join(c.source for c in load_submission(ROOT / "notebooks" / "04_ejercicios.ipynb").cells)
    starter = starter_counts(starter_source, FUNCTIONS)
    untouched = [fingerprint(starter_source, FUNCTIONS, starter) for _ in range(3)]
    assert flags(untouched, lesson3_references()) == []
    # Two learners who wrote only a line each into it: too short to tell, never flagged.
    short = starter_source.replace("raise NotImplementedError", "return None", 1)
    assert flags([fingerprint(short, FUNCTIONS, starter) for _ in range(2)]) == []


def test_short_functions_are_not_compared():
    tiny = "def resume_action(cp):\n    return 'continue' if cp['pendingToolUse'] is None else 'rerun'\n"
    (only,) = fingerprint(tiny, ["resume_action"]).values()
    assert len(only) < MIN_SUBTREES
    assert flags([fingerprint(tiny, FUNCTIONS)] * 5) == []


@pytest.mark.parametrize("source", ["def reconcile(:\n", "\x00", "", "reconcile = lambda cp: cp\n"])
def test_what_cannot_be_read_has_an_empty_fingerprint(source):
    assert fingerprint(source, FUNCTIONS) == {}


def test_the_last_definition_is_the_one_compared():
    later = ORIGINAL + "\n\ndef reconcile(cp):\n    return cp\n"
    assert one(later) != one(ORIGINAL)


@pytest.mark.slow
def test_the_similarity_bench_runs():
    import subprocess
    import sys

    bench = ROOT / "bench" / "bench_similarity.py"
    done = subprocess.run([sys.executable, str(bench), "--learners", "30"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "30 learners" in done.stdout and "learners flagged: 30;" in done.stdout  # figures printed, not judged
