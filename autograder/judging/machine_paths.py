"""What leaves the judging process names no folder of the grading machine.

The learner's code runs on the instructor's machine, so anything it raises or prints may carry the
machine's paths: a ``PermissionError`` on ``/home/prof/curso/autograder/judging/__init__.py``, a
message built from ``lesson3.__file__``, ``sys.prefix`` printed in a loop, the folder it runs in. The
result goes to the learner (feedback pages, the LMS's comments, Gradescope) whatever field carries
it, so the whole result is rewritten once, here, rather than each message where it is formatted:
the packages' folder goes (``autograder/judging/__init__.py``), the learner's own folder goes (a path
inside it reads as the learner wrote it), Python's installation reads ``<python>``, the temporary
folder ``<tmp>`` and the home folder ``~``.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import autograder

T = TypeVar("T")


def _machine_folders(extra: Iterable[tuple[str | os.PathLike[str], str]]) -> list[tuple[str, str]]:
    packages = Path(autograder.__file__).resolve().parent.parent  # the checkout or site-packages
    found = [
        *((os.fspath(folder), shown) for folder, shown in extra),
        (str(packages), ""),
        *((prefix, "<python>") for prefix in {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix}),
        (tempfile.gettempdir(), "<tmp>"),
        (str(Path.home()), "~"),
    ]
    folders: dict[str, str] = {}
    for folder, shown in found:
        for spelling in {folder, os.path.realpath(folder)}:  # /tmp may be a link, and either may be printed
            if len(spelling) > 1:  # never "/" itself
                folders.setdefault(spelling.rstrip("/"), shown)
    return sorted(folders.items(), key=lambda item: -len(item[0]))  # the most specific folder first


@functools.cache
def _pattern(folders: tuple[tuple[str, str], ...]) -> re.Pattern[str]:
    # A folder only as a whole path component: /tmp in /tmp/x and at a sentence's full stop, not in
    # /tmpfoo nor /tmp.bak.
    return re.compile("|".join(f"({re.escape(folder)})(?![\\w-]|\\.[\\w-])/?" for folder, _ in folders))


def hiding(*extra: tuple[str | os.PathLike[str], str]) -> Callable[[T], T]:
    """A function that rewrites every string inside a JSON-like value (dicts, lists, strings) without
    the machine's folders; ``extra`` adds folders of this judgment (a folder, what to show instead)."""
    folders = tuple(_machine_folders(extra))
    pattern = _pattern(folders)
    shown = [s for _, s in folders]

    def replace(match: re.Match[str]) -> str:
        instead = shown[match.lastindex - 1] if match.lastindex else ""
        if match.group(0).endswith("/"):
            return f"{instead}/" if instead else ""
        return instead or "."

    def rewrite(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(replace, value)
        if isinstance(value, dict):
            return {k: rewrite(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rewrite(v) for v in value]
        return value

    return rewrite
