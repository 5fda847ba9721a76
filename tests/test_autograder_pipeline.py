"""The whole pipeline on sample submissions: load -> run isolated -> observe -> judge -> report."""

from __future__ import annotations

from pathlib import Path

from autograder.pipeline import grade_many, grade_submission
from autograder.results import CRITERIA_IDS

SUBMISSIONS = Path(__file__).parent / "data" / "submissions"


def by_id(result):
    return {c.id: c for c in result.criteria}


def test_reference_solution_scores_full_marks():
    result = grade_submission(SUBMISSIONS / "good.py", seed=11)
    assert result.error is None
    assert [c.id for c in result.criteria][: len(CRITERIA_IDS)] == list(CRITERIA_IDS)
    assert all(c.passed for c in result.criteria), [c.feedback for c in result.criteria if not c.passed]
    assert result.score == result.max_score > 0
    assert result.flags == []
    assert result.seed == 11


def test_production_reconcile_sends_two_emails_and_reruns_high_impact_tools():
    criteria = by_id(grade_submission(SUBMISSIONS / "production.py", seed=11))
    assert not criteria["nivel2.no_double_email"].passed
    assert "2 correos" in criteria["nivel2.no_double_email"].feedback
    assert not criteria["nivel2.high_impact_not_rerun"].passed
    assert "send_email" in criteria["nivel2.high_impact_not_rerun"].feedback
    assert not criteria["nivel2.is_error_fallback"].passed
    # Its read-only path is right, and so is its Level 1.
    assert criteria["nivel2.read_only_rerun"].passed
    assert all(criteria[c].passed for c in ("nivel1.cpA", "nivel1.cpB", "nivel1.cpC", "nivel1.hidden"))


def test_grade_many_keeps_the_order_and_reports_progress():
    seen = []
    paths = [SUBMISSIONS / "production.py", SUBMISSIONS / "good.py"]
    results = grade_many(paths, jobs=2, seed=5, progress=lambda done, total, r: seen.append((done, total)))
    assert [r.submission for r in results] == ["production.py", "good.py"]
    assert sorted(seen) == [(1, 2), (2, 2)]
    assert results[1].score == results[1].max_score
    assert results[0].score < results[0].max_score
