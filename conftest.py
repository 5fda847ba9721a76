"""Markers, temporary folders and a clean checkout for the whole suite (tests/ and the notebooks nbval collects)."""

from __future__ import annotations

import os
import tempfile

import pytest

from autograder.grading.server import scratch_root
from tests.checkout_guard import CheckoutGuard

# The suite creates tens of thousands of small files (workspaces, checkpoints, mail, boxes); on a
# disk-backed /tmp each create can cost a millisecond. Where the grader would keep its own folders
# in RAM, the suite's go there too (and every process it starts inherits it); $TMPDIR still wins.
if (_ram := scratch_root()) is not None:
    os.environ["TMPDIR"] = str(_ram)
    tempfile.tempdir = None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # nbval items (every committed notebook, executed) take seconds each: outside the inner loop.
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)


def pytest_configure(config: pytest.Config) -> None:
    # A file a test leaves in the checkout fails the run (tests/checkout_guard.py): the next commit would take it.
    config.pluginmanager.register(CheckoutGuard(config.rootpath), "checkout-guard")
