"""The cells the course's own notebooks do not let the grader run, read from the notebooks' sources.

Recognised by their code (:func:`autograder.wire.cells.normalized`), not by the ``autograder-skip``
tag alone: a notebook exported without its metadata still carries the course's cells, and a
perfect notebook must not pay for them (the crash lab's runs would spend the load's time; a
``check()`` would grade inside the grading).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from autograder.wire.cells import normalized

SKIP_TAG = "autograder-skip"
"""Notebook cells with this tag are not run when grading (demos that spawn processes, long runs)."""


NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
"""The course's notebooks beside the package: the instructor's checkout, or the learner's edition."""


@functools.cache
def course_code_cells() -> dict[str, bool]:
    """The normalized code of every code cell of the course's notebooks, in both editions -> whether it is tagged
    :data:`SKIP_TAG`.

    Read from the notebooks' sources where they are (the instructor's checkout), else from the notebooks
    themselves (the learner's edition ships them, tags and all, but neither the sources nor their builder);
    empty where neither is beside the package (an install without the repository): the tag still works there."""
    try:
        from lesson3.build_notebooks import SOURCE_DIR, SourceError, default_notebooks_dir, parse_source, render
    except ImportError:
        return _from_notebooks()
    found: dict[str, bool] = {}
    for path in sorted((default_notebooks_dir() / SOURCE_DIR).glob("*.md")):
        try:
            cells = parse_source(path.read_text(encoding="utf-8"), path.name)
        except (OSError, UnicodeDecodeError, SourceError):
            continue
        for version in ("learner", "solution"):
            for c in render(cells, version):
                if c.kind == "code":
                    code = normalized(c.source)
                    found[code] = found.get(code, False) or SKIP_TAG in c.tags
    return found if any(found.values()) else _from_notebooks()


@functools.cache
def course_skip_cells() -> frozenset[str]:
    """The normalized code of every cell the course's notebooks tag :data:`SKIP_TAG`, in both editions."""
    return frozenset(code for code, skip in course_code_cells().items() if skip)


def _from_notebooks() -> dict[str, bool]:
    found: dict[str, bool] = {}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, UnicodeDecodeError, ValueError, AttributeError):
            continue
        for cell in cells:
            if isinstance(cell, dict) and cell.get("cell_type") == "code":
                code = normalized("".join(cell.get("source", "")))
                skip = SKIP_TAG in (cell.get("metadata") or {}).get("tags", [])
                found[code] = found.get(code, False) or skip
    return found


def is_course_skip_cell(source: str, tags: tuple[str, ...] | list[str] = ()) -> bool:
    """Whether a notebook cell is one of the course's own that the grader does not run."""
    return SKIP_TAG in tags or normalized(source) in course_skip_cells()
