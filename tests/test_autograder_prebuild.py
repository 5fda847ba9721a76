"""Cases drawn ahead (autograder/judging/observe.py's prebuild), while the learner's process starts: the same cases."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from autograder.judging import observe
from autograder.judging.crashes import tree

SEED = 2026
OBSERVATIONS = {"actions.hidden", "reconcile.read_only", "reconcile.high_impact", "incident", "resume.lives"}


def _run(base: Path) -> observe.Run:
    (base / "grader").mkdir(parents=True)
    (base / "learner").mkdir()
    return observe.Run(observe._NoCaller(), SEED, base / "grader", box=base / "learner")


def _plain(value):
    """A case as data, its folders read as the files they hold (paths differ from one judge to another)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return {
            k: (tree(v) if isinstance(v, Path) and v.is_dir() else v.name if isinstance(v, Path) else _plain(v))
            for k, v in fields.items()
        }
    return value


def test_cases_drawn_ahead_are_the_cases_drawn_by_the_observers(tmp_path):
    ahead = _run(tmp_path / "a")
    observe.prebuild(ahead, OBSERVATIONS)
    assert sorted(ahead.prebuilt) == ["actions.hidden", "incident", "reconcile.cases", "resume.lives"]
    now = _run(tmp_path / "b")
    for name in sorted(ahead.prebuilt):
        assert _plain(observe.CASES[name](now)) == _plain(ahead.prebuilt[name]), name


def test_an_observer_takes_its_prebuilt_cases_once(tmp_path):
    run = _run(tmp_path)
    observe.prebuild(run, {"incident"})
    case = run.prebuilt["incident"]
    assert run.cases("incident") is case and "incident" not in run.prebuilt


def test_drawing_ahead_only_what_the_course_grades(tmp_path):
    run = _run(tmp_path)
    observe.prebuild(run, {"actions.hidden", "resume.newer", "answer.razon_cpA"})
    assert sorted(run.prebuilt) == ["actions.hidden"]
    assert not any((tmp_path / "grader").iterdir())  # nothing drawn in the judge's folders for it


def test_a_failure_drawing_ahead_is_raised_by_the_observer(tmp_path):
    run = _run(tmp_path)
    (tmp_path / "grader" / "incident").mkdir()  # the incident's workspace cannot be created
    observe.prebuild(run, {"incident", "resume.lives"})
    assert isinstance(run.prebuilt["incident"], FileExistsError)
    assert "resume.lives" not in run.prebuilt  # it stopped there: the observer draws it
    with pytest.raises(FileExistsError):
        run.cases("incident")
