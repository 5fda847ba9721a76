"""A verdict depends only on its own calls, and a hung cell costs that cell.

Each sample here is right everywhere but in one place: what it gets wrong may cost the criteria
that observe it, never the ones that observe something else.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.course.config import CourseConfig
from autograder.grading.pipeline import grade_many

pytestmark = [pytest.mark.warm_up("grading_server"), pytest.mark.slow]

SAMPLES = Path(__file__).parent / "data" / "submissions" / "independence"


@pytest.fixture(scope="module")
def graded():
    paths = sorted(SAMPLES.glob("*.py"))
    return {r.submission: {c.id: c for c in r.criteria} for r in grade_many(paths, CourseConfig(seed=5), jobs=2)}


@pytest.mark.parametrize(
    ("name", "stuck", "fine"),
    [
        (
            "hang_high_impact.py",
            ("nivel2.high_impact_not_rerun", "nivel2.is_error_fallback", "nivel2.tool_result_paired"),
            ("nivel2.read_only_rerun",),
        ),
        (
            "hang_read_only.py",
            ("nivel2.read_only_rerun", "nivel2.tool_result_paired"),
            ("nivel2.high_impact_not_rerun", "nivel2.is_error_fallback", "nivel2.no_double_email"),
        ),
    ],
)
def test_a_reconcile_stuck_on_one_kind_of_tool_costs_that_kind_only(graded, name, stuck, fine):
    criteria = graded[name]
    for criterion in stuck:
        assert not criteria[criterion].passed and "no terminó" in criteria[criterion].feedback, criterion
    for criterion in fine:
        assert criteria[criterion].passed, (criterion, criteria[criterion].feedback[:300])
    assert all(c.passed for i, c in criteria.items() if not i.startswith("nivel2.")), name


@pytest.fixture(scope="module")
def stuck():
    paths = [SAMPLES / "ignores_signals.py", SAMPLES / "catches_every_alarm.ipynb"]
    return {r.submission: r for r in grade_many(paths, CourseConfig(seed=5), jobs=2)}


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("ignores_signals.py", "La instrucción de la línea 86 no terminó"),
        ("catches_every_alarm.ipynb", "La celda 2 («while True:"),
    ],
)
def test_a_cell_that_will_not_stop_costs_that_cell_and_the_rest_is_graded(stuck, name, said):
    result = stuck[name]
    assert result.error is None and result.score == result.max_score, [
        (c.id, c.feedback[:200]) for c in result.criteria if not c.passed
    ]
    assert [w for w in result.warnings if w.startswith(said)], result.warnings
