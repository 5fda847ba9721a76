"""Every document written from the code, by one command: ``python -m autograder.reporting.generated``.

After a criterion is added or changed (its level's module, :mod:`autograder.course.level0` and its siblings),
this rewrites ``docs/criterios.md`` (:func:`autograder.course.lesson_map.table_markdown`), the generated
blocks of ``docs/guia-docente.md`` (:func:`autograder.reporting.guide.render`) and the ``[puntos]`` table of
``curso.toml.ejemplo`` (:func:`course_example`: its lines from ``[puntos]`` to the first blank line; the rest
of that file is prose written by hand). ``tests/test_generated.py`` fails while a committed document differs
from what this writes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from autograder.course import criteria, lesson_map
from autograder.course.levels import TOPICS
from autograder.reporting import guide

ROOT = Path(__file__).resolve().parents[2]

POINTS_TABLE = "[puntos]\n"


def points_table() -> str:
    """``curso.toml.ejemplo``'s ``[puntos]`` table: every criterion at its declared points, level by level."""
    lines = [POINTS_TABLE.rstrip()]
    for level, topic in TOPICS.items():
        lines.append(f"# Nivel {level}: {topic}")
        lines += [f'"{c.id}" = {c.points:g}' for c in criteria.CRITERIA.values() if c.level == level]
    return "\n".join(lines) + "\n"


def course_example(current: str) -> str:
    """``current`` (the course file's example) with its ``[puntos]`` table written again from the registry."""
    start = current.index(POINTS_TABLE)
    end = current.index("\n\n", start) + 1
    return current[:start] + points_table() + current[end:]


DOCUMENTS: dict[str, Callable[[str], str]] = {
    "docs/criterios.md": lambda _: lesson_map.table_markdown(),
    "docs/guia-docente.md": guide.render,
    "curso.toml.ejemplo": course_example,
}
"""Each generated document (its path in the repository) and how it is written from its current text."""


def written(path: str, root: Path = ROOT) -> str:
    """What ``path`` (a key of :data:`DOCUMENTS`) should hold now."""
    target = root / path
    return DOCUMENTS[path](target.read_text(encoding="utf-8") if target.exists() else "")


def write_all(root: Path = ROOT) -> list[str]:
    """Writes every document of :data:`DOCUMENTS` under ``root``; returns the ones that changed."""
    changed = []
    for path in DOCUMENTS:
        text = written(path, root)
        target = root / path
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":  # pragma: no cover - the maintainers' command
    for path in write_all():
        print(f"wrote {path}")
