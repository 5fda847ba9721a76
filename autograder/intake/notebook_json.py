"""Parse a notebook's JSON in a separate, limited process (started by :mod:`autograder.intake.safe_files`).

Run as ``python -I -S notebook_json.py MEMORY_BYTES CPU_SECONDS`` with the notebook on
stdin; answers on stdout with ``{"cells": [{"source", "tags", "position"}, ...], "course": "01"|null}``
for the code cells (``position``: 1-based among all the notebook's cells, markdown included)
and which of the course's notebooks its title cell says it is, or ``{"refused": {"key", "cell"?}}``,
never a byte of the input in a refusal.
Standard library only, and as little of it as possible: it starts once per notebook.
"""

from __future__ import annotations

import json
import re
import sys

COURSE_TITLE = re.compile(r"^\s*#\s+Cuaderno\s+(\d{1,2})\s*·", re.MULTILINE)
"""The title cell of the course's notebooks: «# Cuaderno 1 · Reanudar, no reiniciar» (notebooks/src)."""
COURSE_LESSON = "Lección 3"
"""...followed by the lesson's line («**Lección 3 de 6 — …**»): a learner's own «# Cuaderno 1» is not the course's."""
_TITLE_CELLS = 3
"""The title is the first markdown cell; a learner may have put a cell or two above it."""


def course_notebook(markdown: str) -> str | None:
    """Which of the course's notebooks («01»…) a title cell names, or None when it is no title of the course."""
    found = COURSE_TITLE.search(markdown)
    if found is None or COURSE_LESSON not in markdown:
        return None
    return f"{int(found.group(1)):02d}"


class _Refusal(Exception):
    def __init__(self, key: str, cell: int | None = None) -> None:
        super().__init__(key)
        self.key, self.cell = key, cell


def _text_of(value: object, cell: int) -> str:
    """A cell's source: a string, or a list of strings to join (the notebook format allows both)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    raise _Refusal("bad_cell", cell)


def parse_notebook(raw: bytes) -> dict[str, object]:
    """``{"cells": [{"source", "tags", "position"}], "course": "01"|None}``; runs in the child. Raises ``_Refusal``.

    A cell's position counts every cell, markdown included: JupyterLab numbers none, so the order
    on screen is what a learner can count (an ordinal among code cells is not).
    """
    try:
        nb = json.loads(raw)
    except ValueError:
        raise _Refusal("not_json") from None
    if not isinstance(nb, dict):
        raise _Refusal("not_notebook")
    version = nb.get("nbformat")
    if version == 4:
        cells, source_key = nb.get("cells"), "source"
    elif version == 3:
        worksheets = nb.get("worksheets")
        if not isinstance(worksheets, list) or not all(isinstance(w, dict) for w in worksheets):
            raise _Refusal("not_notebook")
        cells, source_key = [c for w in worksheets for c in (w.get("cells") or [])], "input"
    elif "nbformat" in nb:
        raise _Refusal("version")
    else:
        raise _Refusal("not_notebook")
    if not isinstance(cells, list):
        raise _Refusal("not_notebook")
    found: list[dict[str, object]] = []
    course, markdown_seen = None, 0
    for position, cell in enumerate(cells, 1):
        if not isinstance(cell, dict):
            raise _Refusal("bad_cell", position)
        if cell.get("cell_type") == "markdown" and course is None and markdown_seen < _TITLE_CELLS:
            markdown_seen += 1
            text = cell.get("source", "")  # markdown keeps "source" in both formats
            if isinstance(text, list) and all(isinstance(line, str) for line in text):
                text = "".join(text)
            course = course_notebook(text) if isinstance(text, str) else None
        if cell.get("cell_type") != "code":
            continue
        metadata = cell.get("metadata")
        tags = metadata.get("tags") if isinstance(metadata, dict) else None
        tags = [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []
        found.append({"source": _text_of(cell.get(source_key, ""), position), "tags": tags, "position": position})
    return {"cells": found, "course": course}


def _child_main() -> None:
    import resource

    memory, cpu = int(sys.argv[1]), int(sys.argv[2])
    # Limits first, input after: the code is ours, the bytes are not.
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    raw = sys.stdin.buffer.read()
    try:
        reply: dict[str, object] = parse_notebook(raw)
    except _Refusal as e:
        reply = {"refused": {"key": e.key} | ({"cell": e.cell} if e.cell is not None else {})}
    except (MemoryError, RecursionError):
        reply = {"refused": {"key": "too_complex"}}
    # ASCII escapes carry any string the JSON held (even a lone surrogate) back unchanged.
    sys.stdout.write(json.dumps(reply, ensure_ascii=True))


if __name__ == "__main__":
    _child_main()
