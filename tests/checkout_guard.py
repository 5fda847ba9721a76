"""The suite never leaves a file in the checkout: a file it wrote there is a file the next ``git add -A`` commits.

A test once wrote ``x.csv`` into the repository's root and it was committed. :class:`CheckoutGuard` (registered
for every run by the root ``conftest.py``) lists the checkout's files when the session starts, before any test
module is imported, and again when it ends; a file that appeared in between fails the run, named. It reads the
tree itself, not ``git status``: a fresh clone run as root, a copy without ``.git`` or a git that refuses the
folder's owner all work the same, and a file the developer had before the run (or edits meanwhile) is never
blamed on the suite. What ``.gitignore`` leaves out (``.venv/``, ``__pycache__/``, hypothesis's database, the
browser test's screenshots) cannot be committed and is not read, and neither is a temporary folder the run was
given inside the checkout (``$TMPDIR``, ``--basetemp``).
"""

from __future__ import annotations

import fnmatch
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

SHOWN = 20
"""The most new files a failure names (the rest are counted)."""


@dataclass(frozen=True)
class _Ignored:
    """The patterns of a ``.gitignore`` in the forms it uses (a name or glob; ``/`` anchors it to the root; a
    trailing ``/``, folders only). A negation (``!``) is not read: what it would bring back stays unwatched."""

    names: tuple[tuple[str, bool], ...]  # (glob matched against a name at any depth, folders only)
    anchored: tuple[tuple[str, bool], ...]  # (glob matched against the path from the root, folders only)

    @classmethod
    def read(cls, root: Path) -> _Ignored:
        names, anchored = [], []
        try:
            lines = (root / ".gitignore").read_text(encoding="utf-8").splitlines()
        except OSError:
            lines = []
        for line in lines:
            pattern = line.strip()
            if not pattern or pattern.startswith(("#", "!")):
                continue
            folder = pattern.endswith("/")
            pattern = pattern.rstrip("/")
            if "/" in pattern:
                anchored.append((pattern.lstrip("/"), folder))
            else:
                names.append((pattern, folder))
        return cls(tuple(names), tuple(anchored))

    def __call__(self, relative: str, is_dir: bool) -> bool:
        name = relative.rpartition("/")[2]
        return any(fnmatch.fnmatchcase(name, p) for p, folder in self.names if is_dir or not folder) or any(
            fnmatch.fnmatchcase(relative, p) for p, folder in self.anchored if is_dir or not folder
        )


def files(root: Path, skip: tuple[Path, ...] = ()) -> set[str]:
    """Every file under ``root`` git could be asked to commit (``.git`` and what ``.gitignore`` leaves out
    aside, and the folders in ``skip``), as paths from ``root``. Links are listed, never followed."""
    ignored, skipped = _Ignored.read(root), {os.path.realpath(p) for p in skip}
    found: set[str] = set()
    pending = [(str(root), "")]
    while pending:
        folder, prefix = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:  # gone meanwhile, or not ours to read: nothing of it can be listed
            continue
        for entry in entries:
            relative = prefix + entry.name
            is_dir = entry.is_dir(follow_symlinks=False)
            if entry.name == ".git" or ignored(relative, is_dir):
                continue
            if not is_dir:
                found.add(relative)
            elif os.path.realpath(entry.path) not in skipped:
                pending.append((entry.path, relative + "/"))
    return found


class CheckoutGuard:
    """A pytest plugin: fails the session when it leaves a new file in ``root`` (see the module's docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.before: set[str] = set()
        self.new: list[str] = []

    def _skip(self, config: pytest.Config) -> tuple[Path, ...]:
        """The run's temporary folders: what a test writes there is the suite's to clean, wherever they are."""
        given = config.option.basetemp
        return (Path(tempfile.gettempdir()), *([Path(given)] if given else []))

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.before = files(self.root, self._skip(session.config))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.new = sorted(files(self.root, self._skip(session.config)) - self.before)
        if not self.new:
            return
        # Told as a failed test of its own: counted in the summary, listed among the failures with the files.
        lines = [f"{len(self.new)} new file(s) in the checkout {self.root}: a test wrote them there (use tmp_path)."]
        lines += [f"  {path}" for path in self.new[:SHOWN]]
        lines += [f"  … and {len(self.new) - SHOWN} more"] if len(self.new) > SHOWN else []
        where = ("tests/checkout_guard.py", None, NODE)
        report = pytest.TestReport(f"tests/checkout_guard.py::{NODE}", where, {}, "failed", "\n".join(lines), "call")
        session.config.hook.pytest_runtest_logreport(report=report)
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


NODE = "the suite left no file in the checkout"
