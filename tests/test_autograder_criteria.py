"""The criteria registry: one declaration per criterion, and everything else follows from it."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re

import pytest
from test_autograder_checks import OneByOne

from autograder import notebook
from autograder.course import catalogue, criteria
from autograder.course.criteria import CRITERIA, Verdict
from autograder.judging.evaluate import run_checks
from autograder.judging.observe import OBSERVERS, LessonObservation
from autograder.reporting.report import ReportEntry, write_reports
from autograder.sandbox.session import Outcome
from autograder.wire.results import SubmissionResult

TOY = "nivel1.juguete"


class NoFunctions(OneByOne):
    """A submission that defines nothing: every call is ``missing``."""

    def budget(self, seconds: float | None = None) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def call(self, fn: str, arg: object, *, on_tool: object = None) -> Outcome:
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
        feedback=("l1.",),
    )


def test_a_registered_criterion_reaches_every_output(toy, tmp_path, capsys):
    assert TOY in criteria.required_ids()
    grading = run_checks(NoFunctions(), seed=1, levels=(1,), scratch=tmp_path)
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
    assert TOY in [c.id for c in criteria.not_graded("no cargó", levels=(1,))]


def test_removing_the_declaration_removes_the_criterion(toy):
    criteria.unregister(TOY)
    assert TOY not in criteria.required_ids()
    criteria.register(toy)  # the fixture unregisters it again


def test_an_id_is_declared_once(toy):
    with pytest.raises(ValueError, match="ya está declarado"):
        criteria.register(toy)


def test_a_failed_verdict_scores_zero_and_a_passed_one_scores_its_points():
    cpa = CRITERIA["nivel1.cpA"]
    assert cpa.result(Verdict(True, "ok")).score == cpa.points
    assert cpa.result(Verdict(False, "no")).score == 0


@pytest.mark.parametrize("criterion", list(CRITERIA.values()), ids=list(CRITERIA))
def test_every_declaration_is_complete(criterion):
    assert criterion.observes in OBSERVERS
    assert callable(criterion.judge_function())
    assert set(criterion.title) == set(criterion.hint) == {"es", "en"}
    assert len(criterion.hints("es")) == len(criterion.hints("en")) >= 1
    assert criterion.points > 0 and criterion.level in (0, 1, 2) and criterion.lesson
    keys = catalogue.keys()
    for family in criterion.feedback:
        assert any(k.startswith(family) for k in keys), family


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
        for text in criterion.hints(lang):
            for pattern, what in SOLUTION_CODE:
                assert not pattern.search(text), f"{criterion.id} ({lang}) gives away {what}: {text}"


@pytest.mark.parametrize("criterion", [c for c in CRITERIA.values() if c.function == "reconcile"], ids=lambda c: c.id)
def test_the_reconcile_hints_escalate(criterion):
    levels = criterion.hints("es")
    assert len(levels) >= 2 and len(set(levels)) == len(levels)
    assert criteria.hint(criterion.id, level=1) == levels[0]
    assert criteria.hint(criterion.id, level=99) == levels[-1]
