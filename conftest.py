"""Markers for the whole suite (tests/ and the notebooks nbval collects)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # nbval items (every committed notebook, executed) take seconds each: outside the inner loop.
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
