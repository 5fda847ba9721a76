"""The criteria registry: one declaration per criterion, and everything else follows from it."""

from __future__ import annotations

import ast
import contextlib
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_autograder_checks import OneByOne

from autograder import notebook
from autograder.course import catalogue, criteria
from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA, Verdict
from autograder.course.levels import LEVELS
from autograder.judging import registry
from autograder.judging.observe import LessonObservation, Run
from autograder.judging.process import evaluate_criteria
from autograder.judging.registry import OBSERVERS, VERDICTS, observer, verdict
from autograder.judging.scenarios import rng_for
from autograder.reporting.report import ReportEntry, write_reports
from autograder.sandbox.session import Outcome
from autograder.wire.results import SubmissionResult

TOY = "nivel1.juguete"


class NoFunctions(OneByOne):
    """A submission that defines nothing: every call is ``missing``."""

    def budget(self, seconds: float | None = None) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def call(self, fn: str, arg: object, *, on_tool: object = None, poison: object = None) -> Outcome:
        return Outcome("missing", fn=fn)


def judge_toy(obs: LessonObservation, lang: str) -> Verdict:
    return Verdict(obs.outcome.status == "ok", f"juguete visto: {obs.outcome.status}")


@pytest.fixture
def toy(add_criterion):
    """A criterion added by one declaration, with no other module touched."""
    return add_criterion(
        TOY,
        points=5,
        title={"es": "el criterio de juguete", "en": "the toy criterion"},
        hint={"es": "pista del juguete", "en": "toy hint"},
        judge=judge_toy,
        feedback=("level1.",),
    )


def test_a_registered_criterion_reaches_every_output(toy, tmp_path, capsys):
    assert TOY in criteria.required_ids()
    grading = evaluate_criteria(NoFunctions(), CourseConfig(seed=1, levels=(1,)), scratch=tmp_path)
    by_id = {c.id: c for c in grading.criteria}
    assert by_id[TOY].feedback == "juguete visto: missing" and by_id[TOY].max_score == 5
    result = SubmissionResult.from_criteria("ana.py", grading.criteria, seed=1)
    # Level 1's maximum comes from the registry (the toy is one of its criteria): no figure to keep in step.
    assert result.max_score == sum(c.points for c in CRITERIA.values() if c.level == 1)
    assert result.max_score == sum(c.max_score for c in grading.criteria) > 5

    write_reports(tmp_path / "out", [ReportEntry(result, "ana.py", "ana")])
    document = json.loads((tmp_path / "out" / "results.json").read_text())
    assert TOY in [c["id"] for c in document["submissions"][0]["criteria"]]
    header = next(csv.reader(io.StringIO((tmp_path / "out" / "grades.csv").read_text())))
    assert TOY in header
    html = (tmp_path / "out" / "feedback" / "ana.html").read_text()
    assert "el criterio de juguete" in html and "juguete visto" in html

    shown = notebook.render_text(result) + notebook.render_html(result, lang="en")
    assert "el criterio de juguete" in shown and "pista del juguete" in shown and "toy hint" in shown
    notebook.pista(TOY)
    assert capsys.readouterr().out.strip() == f"{TOY}: pista del juguete"  # a single hint, as a plain string
    assert TOY in [c.id for c in CourseConfig(levels=(1,)).not_graded("no cargó")]


def test_removing_the_declaration_removes_the_criterion(toy):
    criteria.unregister(TOY)
    assert TOY not in criteria.required_ids()
    criteria.register(toy)  # the fixture unregisters it again


def test_an_id_is_declared_once(toy):
    with pytest.raises(ValueError, match="already declared"):
        criteria.register(toy)


def test_a_failed_verdict_scores_zero_and_a_passed_one_scores_its_points():
    cpa = CRITERIA["nivel1.cpA"]
    assert cpa.result(Verdict(True, "ok")).score == cpa.points
    assert cpa.result(Verdict(False, "no")).score == 0


@pytest.mark.parametrize("criterion", list(CRITERIA.values()), ids=list(CRITERIA))
def test_every_declaration_is_complete(criterion):
    assert set(criterion.title) == set(criterion.hint) == {"es", "en"}
    assert len(criteria.hints(criterion.id, "es")) == len(criteria.hints(criterion.id, "en")) >= 1
    assert criterion.points > 0 and criterion.level in LEVELS and criterion.lesson
    keys = catalogue.keys()
    for family in criterion.feedback:
        assert any(k.startswith(family) for k in keys), family


# -- the judging side registers a judge per criterion and an observer per observation ---------------------

JUDGING = Path(registry.__file__).parent

REGISTRIES = """
import json
from autograder.judging.process import evaluate_criteria  # what the judging process imports to grade
from autograder.course.criteria import CRITERIA
from autograder.judging.registry import OBSERVERS, VERDICTS
print(json.dumps({
    "criteria": {c.id: c.observes for c in CRITERIA.values()},
    "verdicts": sorted(VERDICTS),
    "observers": sorted(OBSERVERS),
}))
"""


def test_the_judging_process_registers_exactly_the_criteria_verdict_functions_and_observers():
    # A fresh interpreter with only the judging process's own imports: a verdict module that
    # the judging process forgot to import would leave its criteria unjudged there, whatever this test imported.
    done = subprocess.run([sys.executable, "-c", REGISTRIES], capture_output=True, text=True, timeout=300, cwd="/")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["criteria"] == {c.id: c.observes for c in CRITERIA.values()}
    assert set(found["verdicts"]) == set(found["criteria"])  # every criterion a judge, every judge a criterion
    assert set(found["criteria"].values()) <= set(found["observers"])  # every observation an observer


def _unread_observers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, levels: tuple[int, ...] = LEVELS) -> set[str]:
    """The registered observers that observing the criteria of ``levels`` never runs, directly or through another."""
    seen: set[str] = set()

    def recorded(name: str, fn: Any) -> Any:
        def observe(run: Run) -> object:
            seen.add(name)
            return fn(run)

        return observe

    for name, fn in list(OBSERVERS.items()):
        monkeypatch.setitem(OBSERVERS, name, recorded(name, fn))
    run = Run(NoFunctions(), 1, tmp_path, answers={})
    for criterion in CRITERIA.values():
        if criterion.level in levels:
            run.observed(criterion.observes)
    return set(OBSERVERS) - seen


def test_every_observer_serves_a_criterion(tmp_path, monkeypatch):
    assert _unread_observers(tmp_path, monkeypatch) == set()


def test_an_observer_nobody_reads_is_found(tmp_path, monkeypatch):
    monkeypatch.setitem(OBSERVERS, "huérfana", lambda run: None)
    assert "huérfana" in _unread_observers(tmp_path, monkeypatch, levels=(1,))


@pytest.mark.parametrize("name", ["nivel1.cpA", "nivel2.no_double_email", "nivel1.razon_cpA"])
def test_a_criterion_has_one_verdict_function(name):
    before = dict(VERDICTS)
    with pytest.raises(ValueError, match=name):
        verdict(name)(judge_toy)
    with pytest.raises(ValueError, match=name):
        verdict(TOY, name)(judge_toy)  # refused whole, not half registered
    assert VERDICTS == before


@pytest.mark.parametrize("name", ["incident", "lesson.cpB", "reconcile.cases"])
def test_an_observation_has_one_observer(name):
    before = dict(OBSERVERS)
    with pytest.raises(ValueError, match=name):
        observer(name)(lambda run: None)
    assert OBSERVERS == before


def _spelled_ids(tree: ast.AST, ids: set[str]) -> list[tuple[int, str]]:
    """Criterion ids written as string literals, outside the arguments of a ``@verdict(...)`` decorator."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                if isinstance(decorator, ast.Call) and getattr(decorator.func, "id", None) == "verdict":
                    allowed |= {id(n) for n in ast.walk(decorator)}
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in ids and id(node) not in allowed
    ]


def test_no_judging_module_spells_a_criterion_id_but_its_registration():
    ids = set(CRITERIA)
    for path in sorted(JUDGING.glob("*.py")):
        assert _spelled_ids(ast.parse(path.read_text(encoding="utf-8")), ids) == [], path.name


@pytest.mark.parametrize(
    "source",
    [
        'x = run.rng("nivel2.no_double_email")',
        'OBSERVERS["x"] = lambda run: run.rng("nivel1.hidden")',
        '@observer("nivel1.cpA")\ndef f(run): ...',
        '@verdict("nivel1.cpA")\ndef f(obs, lang):\n    return run.rng("nivel1.cpB")',
    ],
)
def test_a_spelled_criterion_id_is_found(source):
    assert _spelled_ids(ast.parse(source), set(CRITERIA))


def test_an_observations_scenarios_come_from_its_criterions_stream(add_criterion, tmp_path, monkeypatch):
    monkeypatch.setitem(OBSERVERS, "juguete", lambda run: run.draws("juguete").random())
    add_criterion(TOY, observes="juguete")
    add_criterion("nivel1.juguete_bis", observes="juguete")  # a second reader shares the first one's draws
    run = Run(NoFunctions(), 7, tmp_path)
    assert run.observed("juguete") == rng_for(7, TOY).random() != rng_for(7, "nivel1.juguete_bis").random()
    assert registry.drawn_for("juguete") == TOY
    criteria.unregister(TOY)
    assert registry.drawn_for("juguete") == "nivel1.juguete_bis"
    with pytest.raises(KeyError, match="nobody reads it"):
        registry.drawn_for("nobody reads it")


def test_every_learner_function_is_graded_and_every_graded_name_is_known():
    from autograder.questions import QUESTIONS
    from autograder.wire.calls import FUNCTIONS

    graded_functions = {c.function for c in CRITERIA.values()} - set(QUESTIONS)
    assert graded_functions == set(FUNCTIONS)  # the runner's list, the judges' calls and the criteria agree
    graded_questions = {q.variable for q in QUESTIONS.values() if not q.practice}
    assert set(criteria.learner_names()) == {*FUNCTIONS, *graded_questions}


def _course_texts() -> list[tuple[str, str]]:
    """Every text of the grader a learner reads: the catalogue, the criteria's titles and hints, the questions."""
    from autograder.questions import QUESTIONS

    found = [(key, catalogue.text(key, lang)) for key in catalogue.keys() for lang in ("es", "en")]
    for c in CRITERIA.values():
        found += [(c.id, t) for lang in ("es", "en") for t in (c.title[lang], *criteria.hints(c.id, lang))]
    for q in QUESTIONS.values():
        for lang in ("es", "en"):
            parts = [q.prompt[lang], q.hint.get(lang, ""), *(o[lang] for o in q.options.values())]
            found += [(q.variable, t) for t in parts if t]
    return found


def test_every_text_that_lists_the_read_only_tools_lists_the_lessons():
    """A text naming two or more read-only tools names them all: lesson3's set, filled in where it is written."""
    from lesson3.reconciliation import READ_ONLY_TOOLS

    listing = 0
    for key, written in _course_texts():
        named = {t for t in READ_ONLY_TOOLS if re.search(rf"\b{t}\b", written)}
        if len(named) >= 2:
            listing += 1
            assert named == READ_ONLY_TOOLS, (key, written)
    assert listing >= 3  # the hidden-case feedback, Level 2's read-only verdict and nivel1.hidden's hint


# -- hints escalate and stop short of the code -----------------------------------------------------------

SOLUTION_CODE = [
    (re.compile(r"execute_tool\s*\(\s*\w"), "a call of execute_tool with its arguments"),
    (re.compile(r"[\"']is_error[\"']\s*:\s*True"), 'the literal "is_error": True'),
    (re.compile(r"\{\s*[\"'](type|role|tool_use_id|content)[\"']\s*:"), "a tool_result or message dict literal"),
    (re.compile(r"\.append\s*\("), "the append that pairs the result"),
    (re.compile(r"\breturn\s+cp\b"), "the return"),
    (re.compile(r"=\s*\{\s*[\"']read_file[\"']"), "the READ_ONLY_TOOLS set written out"),
    (re.compile(r"\bcp\[[\"']pendingToolUse[\"']\]\s*=\s*None"), "the assignment that clears pendingToolUse"),
]


@pytest.mark.parametrize("criterion", list(CRITERIA.values()), ids=list(CRITERIA))
def test_no_hint_holds_the_code_that_solves_it(criterion):
    for lang in ("es", "en"):
        for text in criteria.hints(criterion.id, lang):
            for pattern, what in SOLUTION_CODE:
                assert not pattern.search(text), f"{criterion.id} ({lang}) gives away {what}: {text}"


@pytest.mark.parametrize("criterion", [c for c in CRITERIA.values() if c.function == "reconcile"], ids=lambda c: c.id)
def test_the_reconcile_hints_escalate(criterion):
    levels = criteria.hints(criterion.id, "es")
    assert len(levels) >= 2 and len(set(levels)) == len(levels)
    assert criteria.hint(criterion.id, level=1) == levels[0]
    assert criteria.hint(criterion.id, level=99) == levels[-1]


# -- the design: a criterion lives in its level's two modules --------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
ADDED = "nivel2.turns_across_lives"
DECLARED = f"""
register(
    Criterion(
        "{ADDED}",
        level=2,
        points=2,
        function=START,
        title={{"es": "turns sigue contando", "en": "turns keeps counting"}},
        hint={{"es": "turns sale del archivo.", "en": "turns comes from the file."}},
        observes="resume.lives",
        feedback=("level2.turns_",),
        lesson=TITLES[2],
        grades=("objetivo.3",),
    )
)
"""
TEXT = '    "level2.turns_kept": {"es": "turns siguió contando", "en": "turns kept counting"},\n'
JUDGED = f"""

@verdict("{ADDED}")
def turns_verdict(obs: LivesObservation, lang: str) -> Verdict:
    return Verdict(True, text("level2.turns_kept", lang))
"""
PICKED_UP = f"""
import json
from autograder.judging.process import evaluate_criteria  # the judging process's imports
from autograder.course import catalogue, criteria
from autograder.judging.registry import VERDICTS
from autograder.wire.results import CriterionResult, SubmissionResult
from autograder import notebook
result = SubmissionResult.from_criteria("ana.py", [CriterionResult("{ADDED}", True, 2.0, 2.0, "ok")], seed=1)
print(json.dumps({{
    "graded": [c.id for c in criteria.graded([2])],
    "judged": "{ADDED}" in VERDICTS,
    "said": catalogue.text("level2.turns_kept", "en"),
    "check": notebook.render_text(result),
}}))
"""


def test_adding_a_criterion_touches_its_level_module_and_its_verdict_module_then_one_command(tmp_path):
    """The review's exercise: a new Level 2 criterion, by hand in two modules, then the one command."""
    from autograder.reporting.generated import DOCUMENTS

    copied = ["autograder", "lesson3", "docs", "notebooks/src", "curso.toml.ejemplo"]
    for name in copied:
        source, target = ROOT / name, tmp_path / name
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, target)
    before = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}

    level = tmp_path / "autograder/course/level2.py"
    source = level.read_text(encoding="utf-8").replace(
        "from autograder.wire.calls import RECONCILE", "from autograder.wire.calls import RECONCILE, START"
    )
    table = "TEXTS: dict[str, dict[str, str]] = {\n"
    level.write_text(source.replace(table, DECLARED + "\n\n" + table + TEXT), encoding="utf-8")
    verdicts = tmp_path / "autograder/judging/verdicts_level2.py"
    source = verdicts.read_text(encoding="utf-8").replace(
        "from autograder.judging.observe import (", "from autograder.judging.observe import (\n    LivesObservation,"
    )
    verdicts.write_text(source + JUDGED, encoding="utf-8")

    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = [sys.executable, "-m", "autograder.reporting.generated"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [sys.executable, "-c", PICKED_UP], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert ADDED in found["graded"] and found["judged"] and found["said"] == "turns kept counting"
    assert "turns sigue contando" in found["check"]

    after = {
        p.relative_to(tmp_path): p.read_bytes()
        for p in tmp_path.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    changed = {str(p) for p in after if before.get(p) != after[p]}
    assert changed - set(DOCUMENTS) == {"autograder/course/level2.py", "autograder/judging/verdicts_level2.py"}
    assert changed & set(DOCUMENTS) == set(DOCUMENTS)  # the one command wrote every document again
    for document in DOCUMENTS:
        assert ADDED in (tmp_path / document).read_text(encoding="utf-8"), document


def code_strings(path: Path) -> list[str]:
    """The string constants of a module's code: its documentation (a string standing as a statement) left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in prose
    ]


def test_each_criterion_id_is_spelled_in_at_most_its_declaration_and_its_verdict_registration():
    """Renaming a criterion touches at most two hand-written modules (examples in prose aside): its level's
    declaration and its verdict's registration; a question's id is its question's, in place of the verdict."""
    hand_written = [*(ROOT / "autograder").rglob("*.py"), *(ROOT / "lesson3").glob("*.py")]
    strings = {path.relative_to(ROOT): code_strings(path) for path in hand_written}
    spelled = {cid: sorted(str(p) for p, found in strings.items() if any(cid in s for s in found)) for cid in CRITERIA}
    assert {cid: where for cid, where in spelled.items() if len(where) > 2} == {}
    assert spelled["nivel2.no_double_email"] == ["autograder/course/level2.py", "autograder/judging/verdicts_level2.py"]
