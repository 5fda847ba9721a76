"""A cell's code as it reads, for recognising the course's own cells in any format.

The course's notebooks tag the cells the grader must not run (``check()``, the crash lab's
runs, ``print(inspect.getsource(...))``) ``autograder-skip``; an export drops the tag
(``jupyter nbconvert --to script``, Colab, VS Code), never the code. Both sides compare
:func:`normalized` text: the judge for a notebook's cells, the learner's process for the
pieces of a marked ``.py``.
"""

from __future__ import annotations


def normalized(source: str) -> str:
    """``source`` without what an export or an editor changes or adds: line endings, trailing spaces, blank
    lines and whole-line comments (a script export writes the markdown cells after a code cell as comments)."""
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines if line.strip() and not line.lstrip().startswith("#"))
