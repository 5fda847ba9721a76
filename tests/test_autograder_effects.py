"""Every effect the learner's process can cause is observed wherever it lands.

The learner's process may write only in its own folder: an email its reconcile sends by itself
(lesson3's private sender called directly, or an ``.eml`` written by hand) lands there, and counts
as the effect it is, not only the ones that go through ``execute_tool``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.course.config import CourseConfig
from autograder.grading.pipeline import grade_many

pytestmark = [pytest.mark.warm_up("grading_server"), pytest.mark.slow]

SAMPLES = Path(__file__).parent / "data" / "submissions" / "effects"


@pytest.fixture(scope="module")
def graded():
    paths = sorted(SAMPLES.glob("*.py"))
    return {r.submission: {c.id: c for c in r.criteria} for r in grade_many(paths, CourseConfig(seed=9), jobs=2)}


@pytest.mark.parametrize("name", ["private_sender.py", "eml_by_hand.py"])
def test_an_email_sent_by_the_learners_own_code_is_seen(graded, name):
    criteria = graded[name]
    assert not criteria["nivel2.high_impact_not_rerun"].passed
    assert "./" in criteria["nivel2.high_impact_not_rerun"].feedback
    assert not criteria["nivel2.no_double_email"].passed
    assert "2 correos" in criteria["nivel2.no_double_email"].feedback, criteria["nivel2.no_double_email"].feedback
    # What reached no email is the learner's own, and stands.
    assert criteria["nivel2.read_only_rerun"].passed, criteria["nivel2.read_only_rerun"].feedback
