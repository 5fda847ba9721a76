"""Shared fixtures: a fresh course workspace and a fresh run folder per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

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
