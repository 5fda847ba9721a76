"""The criteria registry: one declaration per criterion, and everything else follows from it."""

from __future__ import annotations

import contextlib
import csv
import io
import json

import pytest

from autograder import criteria, live, messages, results
from autograder.checks import run_checks
from autograder.criteria import CRITERIA, Criterion, Verdict
from autograder.observe import OBSERVERS, LessonObservation
from autograder.report import ReportEntry, write_reports
from autograder.results import SubmissionResult
from autograder.session import Outcome

TOY = "nivel1.juguete"


class NoFunctions:
    """A submission that defines nothing: every call is ``missing``."""

    def budget(self, seconds: float | None = None) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def call(self, fn: str, arg: object, *, on_tool: object = None) -> Outcome:
        return Outcome("missing", fn=fn)


def judge_toy(obs: LessonObservation, lang: str) -> Verdict:
    return Verdict(obs.outcome.status == "ok", f"juguete visto: {obs.outcome.status}")


@pytest.fixture
def toy():
    """A criterion added by one declaration, with no other module touched."""
    criterion = criteria.register(
        Criterion(
            TOY,
            level=1,
            points=5,
            function="resume_action",
            title={"es": "el criterio de juguete", "en": "the toy criterion"},
            hint={"es": "pista del juguete", "en": "toy hint"},
            observes="lesson.cpA",
            judge=judge_toy,
            feedback=("l1.",),
        )
    )
    yield criterion
    criteria.unregister(TOY)


def test_a_registered_criterion_reaches_every_output(toy, tmp_path, capsys):
    assert TOY in results.CRITERIA_IDS
    grading = run_checks(NoFunctions(), seed=1, levels=(1,), scratch=tmp_path)
    by_id = {c.id: c for c in grading.criteria}
    assert by_id[TOY].feedback == "juguete visto: missing" and by_id[TOY].max_score == 5
    result = SubmissionResult.from_criteria("ana.py", grading.criteria, seed=1)
    assert result.max_score == 5 + 5  # cpA, cpB, cpC, hidden (1+1+1+2) and the toy's 5

    write_reports(tmp_path / "out", [ReportEntry(result, "ana.py", "ana")])
    document = json.loads((tmp_path / "out" / "results.json").read_text())
    assert TOY in [c["id"] for c in document["submissions"][0]["criteria"]]
    header = next(csv.reader(io.StringIO((tmp_path / "out" / "grades.csv").read_text())))
    assert TOY in header
    html = (tmp_path / "out" / "feedback" / "ana.html").read_text()
    assert "el criterio de juguete" in html and "juguete visto" in html

    shown = live.render_text(result) + live.render_html(result, lang="en")
    assert "el criterio de juguete" in shown and "pista del juguete" in shown and "toy hint" in shown
    live.pista(TOY)
    assert capsys.readouterr().out.strip() == f"{TOY}: pista del juguete"
    assert TOY in [c.id for c in criteria.not_graded("no cargó", levels=(1,))]


def test_removing_the_declaration_removes_the_criterion(toy):
    criteria.unregister(TOY)
    assert TOY not in results.CRITERIA_IDS
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
    assert criterion.points > 0 and criterion.level in (0, 1, 2) and criterion.lesson
    keys = messages.keys()
    for family in criterion.feedback:
        assert any(k.startswith(family) for k in keys), family


def test_the_lesson_table_lists_every_criterion_once():
    listed = [cid for ids in criteria.lesson_table().values() for cid in ids]
    assert sorted(listed) == sorted(CRITERIA)
