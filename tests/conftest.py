"""Shared fixtures: a fresh course workspace and a fresh run folder per test; servers warmed up in the background."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from autograder.course import criteria
from autograder.grading import server
from autograder.sandbox import learner_zygote
from autograder.wire.forking import ZygoteError
from lesson3.crash import fresh_run_dir
from lesson3.tools import create_workspace, use_workspace


def _start_grading_server() -> None:
    server.shared_server().start()


def _start_crash_harness() -> None:
    from lesson3 import lab

    lab.warm_up()


# What ``@pytest.mark.warm_up(name)`` may name. Each server is an interpreter that imports lesson3, the SDK
# and the grader before it serves: seconds. Starting one that is already running (or being started) waits
# for it and changes nothing, so a test's own first use simply finds it ready.
WARM_UPS: dict[str, tuple[Callable[[], object], bool]] = {
    # name: (start, whether start() blocks until the server is ready, and so runs in a thread of its own)
    "grading_server": (_start_grading_server, True),  # the judge and learner zygotes grade_many() uses
    "learner_zygote": (learner_zygote._shared_local, True),  # the one a Learner a test starts itself uses
    "crash_harness": (_start_crash_harness, False),  # lesson3.crash's forkserver (lab.warm_up returns at once)
}


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the servers the selected tests declare with ``warm_up`` now, in the background.

    Their interpreters then import on the other core while the first tests run, instead of
    inside the first test that needs them. A run of one module gains nothing (its first test
    would wait anyway) and starts nothing ahead. A start that fails here is left to the
    test that needs the server, which starts it again and reports what went wrong. The
    threads spend their time waiting for a zygote's "ready" line; they touch no test's state.
    """
    wanted: set[str] = set()
    for item in session.items:
        for mark in item.iter_markers("warm_up"):
            unknown = set(mark.args) - WARM_UPS.keys()
            if unknown:
                raise pytest.UsageError(f"{item.nodeid}: warm_up names no server called {sorted(unknown)}")
            wanted.update(mark.args)
    if session.config.option.collectonly or len({item.path for item in session.items}) < 2:
        return
    for name in sorted(wanted):
        start, blocks = WARM_UPS[name]
        if blocks:
            threading.Thread(target=_warm, args=(start,), name=f"warm-up {name}", daemon=True).start()
        else:
            _warm(start)


def _warm(start: Callable[[], object]) -> None:
    try:
        start()
    except (server.ServerError, ZygoteError, OSError):
        pass  # the first test that needs it starts it again, and fails there if it must


@pytest.fixture
def box() -> Iterator[Path]:
    """A learner's folder for the sandbox tests (not under tmp_path: pytest's base folder is private
    to root, and a learner running as another uid must reach its box)."""
    base = Path(tempfile.mkdtemp(prefix="autograder-test-"))
    os.chmod(base, 0o711)
    yield base / "alumno"
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """The course workspace (shipped notes + an empty Maildir outbox) in a temp folder."""
    return create_workspace(tmp_path / "workspace")


@pytest.fixture
def active_workspace(workspace: Path) -> Iterator[Path]:
    """``workspace``, made the active one so ``execute_tool`` acts on it."""
    with use_workspace(workspace):
        yield workspace


@pytest.fixture
def run_dir(tmp_path: Path) -> tuple[Path, Path]:
    """(workspace, checkpoint_path) in a fresh folder, as the crash harness lays them out."""
    return fresh_run_dir(tmp_path / "run")


@pytest.fixture
def add_criterion() -> Iterator[Callable[..., criteria.Criterion]]:
    """``add_criterion(id, judge=..., **fields)`` registers a toy criterion and its judge, as the course would.

    The criterion is one declaration (no other module touched) and the judge is registered with
    ``@verdict(id)``. Unnamed fields make it a level-1 criterion judged on cpA like ``nivel1.cpA``;
    every toy and its judge are unregistered when the test ends.
    """
    from autograder.judging.registry import VERDICTS, verdict
    from autograder.judging.verdicts_level1 import lesson_checkpoint_verdict

    added: list[str] = []

    def add(criterion_id: str, judge: Any = lesson_checkpoint_verdict, **fields: Any) -> criteria.Criterion:
        declared: dict[str, Any] = {
            "level": 1,
            "points": 1,
            "function": "resume_action",
            "title": {"es": "juguete", "en": "toy"},
            "hint": {"es": "-", "en": "-"},
            "observes": "lesson.cpA",
        }
        added.append(criterion_id)
        registered = criteria.register(criteria.Criterion(criterion_id, **{**declared, **fields}))
        verdict(criterion_id)(judge)
        return registered

    yield add
    for criterion_id in added:
        if criterion_id in criteria.CRITERIA:
            criteria.unregister(criterion_id)
        VERDICTS.pop(criterion_id, None)


@pytest.fixture
def every_criterion_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grading without running anything: each file graded passes every criterion, its row naming the file.

    For tests of what the class run does around grading (which file, which name, which late mark)."""
    from autograder.grading import pipeline
    from autograder.wire.results import CriterionResult, SubmissionResult

    def graded(loaded: Any, course: Any, **kwargs: Any) -> SubmissionResult:
        results = [CriterionResult(c, True, 1.0, 1.0, "bien") for c in criteria.required_ids()]
        return SubmissionResult.from_criteria(loaded.name, results, seed=course.seed)

    monkeypatch.setattr(pipeline, "grade_loaded", graded)
