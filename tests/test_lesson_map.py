"""The lesson-to-criteria table: generated from the criteria, every point of the lesson taught and graded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autograder.course import lesson_map
from autograder.course.criteria import CRITERIA
from autograder.course.lesson_map import ITEMS, graded_by
from autograder.course.levels import TITLES

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "criterios.md"


def headings(source: str) -> set[str]:
    """The Markdown headings of a notebook source, outside code fences."""
    found: set[str] = set()
    fenced = False
    for line in (ROOT / source).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} (.+)", line)):
            found.add(match.group(1).strip())
    return found


@pytest.mark.parametrize("item", [i for i in ITEMS if i.kind in ("objetivo", "criterio de finalización")], ids=str)
def test_every_objective_and_completion_criterion_is_graded(item):
    assert graded_by(item), f"nothing grades {item.key}: {item.text}"


@pytest.mark.parametrize("item", ITEMS, ids=lambda i: i.key)
def test_every_point_of_the_lesson_is_taught_under_a_heading_that_exists(item):
    assert item.taught
    for heading in item.taught:
        assert heading.text in headings(heading.source), f"{heading.source} has no heading «{heading.text}»"


def test_the_lessons_objectives_and_exercises_are_all_listed():
    lesson = (ROOT.parent.parent / "shared" / "lesson" / "leccion-3.md",)
    kinds = {i.kind for i in ITEMS}
    assert kinds == set(lesson_map.KINDS)
    assert [i.key for i in ITEMS if i.kind == "objetivo"] == ["objetivo.1", "objetivo.2", "objetivo.3"]
    assert {i.level for i in ITEMS if i.kind == "ejercicio"} == {c.level for c in CRITERIA.values()}
    if lesson[0].exists():  # the lesson text is outside the repository; when it is here, compare
        text = lesson[0].read_text(encoding="utf-8")
        for item in ITEMS:
            if item.kind == "sección":
                assert item.text in text, item.text


def test_every_criterion_grades_a_point_of_the_lesson_and_names_only_known_ones():
    assert lesson_map.unknown_keys() == {}
    for c in CRITERIA.values():
        assert c.grades, f"{c.id} grades nothing of the lesson"


def test_a_new_criterion_appears_in_the_table_without_touching_it(add_criterion):
    add_criterion("nivel0.juguete", level=0, lesson=TITLES[0], grades=("objetivo.2", "fin.cpC"))
    table = lesson_map.table_markdown()
    (row,) = [line for line in table.splitlines() if line.startswith("| cpC:")]
    assert "`nivel0.juguete`" in row
    assert table != DOC.read_text(encoding="utf-8")  # so the comparison above would catch the drift


def test_objective_2_is_graded_by_the_whole_resume_path():
    (objective,) = [i for i in ITEMS if i.key == "objetivo.2"]
    resume_path = {c.id for c in CRITERIA.values() if c.level == 0}
    assert len(resume_path) >= 6 and resume_path <= set(graded_by(objective))
