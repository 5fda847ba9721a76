"""Shared fixtures: a fresh course workspace and a fresh run folder per test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from autograder import criteria
from lesson3.crash import fresh_run_dir
from lesson3.tools import create_workspace, use_workspace


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
    """``add_criterion(id, **fields)`` registers a toy criterion (one declaration, no other module touched).

    Unnamed fields make it a level-1 criterion judged on cpA like ``nivel1.cpA``; every toy
    is unregistered when the test ends.
    """
    added: list[str] = []

    def add(criterion_id: str, **fields: Any) -> criteria.Criterion:
        declared: dict[str, Any] = {
            "level": 1,
            "points": 1,
            "function": "resume_action",
            "title": {"es": "juguete", "en": "toy"},
            "hint": {"es": "-", "en": "-"},
            "observes": "lesson.cpA",
            "judge": "judges:judge_lesson_checkpoint",
        }
        added.append(criterion_id)
        return criteria.register(criteria.Criterion(criterion_id, **{**declared, **fields}))

    yield add
    for criterion_id in added:
        if criterion_id in criteria.CRITERIA:
            criteria.unregister(criterion_id)
