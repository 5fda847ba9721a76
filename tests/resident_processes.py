"""The resident graders running on this machine, seen from outside: their processes, by command line.

A resident's command line names its folder and its owner (autograder.grading.resident.main's arguments), which is
how the tests of the resident find it without asking it (a process the resident refuses can still look).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

MAIN = b"autograder.grading.resident import main"

T = TypeVar("T")


def alive(pid: int) -> bool:
    """Running, not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


def residents(*, folder: Path | None = None, owner: int | None = None) -> list[int]:
    """Live resident processes (or the first process, which forks one and leaves) of ``folder`` and/or ``owner``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if MAIN not in b" ".join(argv):
            continue
        if folder is not None and str(folder).encode() not in argv:
            continue
        if owner is not None and str(owner).encode() not in argv:
            continue
        if alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def wait_for(condition: Callable[[], T], seconds: float = 30.0) -> T:
    """``condition()`` once it is truthy, or its last value after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (value := condition()) and time.monotonic() < deadline:
        time.sleep(0.02)
    return value
