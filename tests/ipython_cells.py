"""Cells of the course's notebooks, and cells run as IPython runs them, for tests of check() and the first cells."""

from __future__ import annotations

import json
import linecache
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def first_code_cell(stem: str) -> str:
    """The first code cell of the committed notebook ``stem`` (learner's version)."""
    cells = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    return next("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def run_cells(cells: list[str], *, history: bool = True) -> dict:
    """Run ``cells`` as IPython does: each compiled under its own name linecache knows (so ``inspect`` reads each
    function's source), and with ``history``, IPython's ``In`` list, ``In[n]`` being the cell run with count n."""
    ns: dict = {"__name__": "__main__"}
    if history:
        ns["In"] = [""]
    for count, source in enumerate(cells, start=1):
        filename = f"<ipython-input-{count}-test>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        if history:
            ns["In"].append(source)
        exec(compile(source, filename, "exec"), ns)
    return ns
