"""README's Architecture section names every module of the grader, so it cannot fall behind the layout."""

from __future__ import annotations

import re
from pathlib import Path

import autograder

README = Path(__file__).resolve().parent.parent / "README.md"


def architecture() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Architecture\n")
    return text[start : text.index("\n## ", start + 1)]


def test_every_module_of_the_grader_has_its_place_in_the_architecture():
    section = architecture()
    modules = sorted(p.stem for p in Path(autograder.__file__).parent.glob("*.py") if not p.stem.startswith("__"))
    assert [m for m in modules if not re.search(rf"\b{m}\b", section)] == []


def test_the_architecture_names_the_three_processes_and_the_seven_steps():
    section = architecture()
    for process in ("grader's process", "judge", "learner's child"):
        assert process in section
    steps = re.findall(r"^\d\. \*\*(\w[\w ]*)\*\*", section, flags=re.MULTILINE)
    assert steps == ["collect", "load", "run confined", "observe", "judge", "score", "report"]
