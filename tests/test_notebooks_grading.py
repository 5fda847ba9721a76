"""The exercises notebook teaches exactly the grader's contract: graded as a submission, the solved
version gets every point and the learner's untouched version gets none, without a grading error."""

from __future__ import annotations

import pytest

from autograder.course.config import CourseConfig
from autograder.course.criteria import required_ids
from autograder.grading.pipeline import grade_many
from autograder.questions import QUESTIONS
from lesson3.build_notebooks import default_notebooks_dir

CRITERIA_IDS = required_ids()

pytestmark = pytest.mark.warm_up("grading_server")

EXERCISES = "04_ejercicios.ipynb"


def test_exercises_notebook_as_a_submission() -> None:
    root = default_notebooks_dir()
    solved, untouched = grade_many([root / "soluciones" / EXERCISES, root / EXERCISES], CourseConfig(seed=7), jobs=2)

    assert solved.error is None and untouched.error is None
    assert not solved.flags, "the solution must not lean on lesson3's reference functions"
    ids = {c.id for c in solved.criteria}
    assert set(CRITERIA_IDS) <= ids
    assert {q.criterion for q in QUESTIONS.values() if not q.practice} <= ids  # the answers are graded
    assert solved.score == solved.max_score, [c.feedback for c in solved.criteria if not c.passed]

    assert untouched.score == 0
    for criterion in untouched.criteria:
        assert "NotImplementedError" in criterion.feedback or "todavía no respondiste" in criterion.feedback
