"""Every learner notebook with a «# TU CÓDIGO AQUÍ» lets the learner grade that code with check()."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from autograder.course.criteria import CRITERIA
from autograder.course.levels import LEVELS

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
CHECK = re.compile(r"^check\((?:level=)?(\d)?\)", re.MULTILINE)


def code_cells(path: Path) -> list[str]:
    return [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


def defined_functions(source: str) -> set[str]:
    return {n.name for n in ast.parse(source).body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if "TU CÓDIGO AQUÍ" in p.read_text()], ids=lambda p: p.stem)
def test_every_function_to_write_is_graded_by_a_check_cell_of_the_same_notebook(path):
    cells = code_cells(path)
    levels = {int(m.group(1)) if m.group(1) else None for cell in cells for m in CHECK.finditer(cell)}
    assert levels, f"{path.name} asks for code (# TU CÓDIGO AQUÍ) but has no check() cell"
    graded = set(LEVELS) if None in levels else levels
    to_write = {name for cell in cells if "TU CÓDIGO AQUÍ" in cell for name in defined_functions(cell)}
    assert to_write
    for name in to_write:
        checked = {c.level for c in CRITERIA.values() if c.function == name}
        assert checked & graded, f"{path.name}: {name} is graded at level {checked}, its check() cells run {graded}"


def test_notebook_1_checks_the_resume_path():
    (path,) = [p for p in NOTEBOOKS if p.stem.startswith("01_")]
    assert any("check(level=0)" in cell for cell in code_cells(path))


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", [p for p in NOTEBOOKS if any(CHECK.search(c) for c in code_cells(p))], ids=lambda p: p.stem
)
def test_a_check_cell_run_alone_after_a_kernel_restart_answers_in_spanish(path, tmp_path):
    """Restarting the kernel and running only a check cell once gave an English NameError: check is not defined."""
    from nbclient import NotebookClient

    first = next(c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code" and CHECK.search(c.source))
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(first.source)])
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = notebook.cells[0].outputs
    assert not [o for o in outputs if o.output_type == "error"], outputs
    said = "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    # Nothing defined after the restart: check()'s one banner, naming notebook 4 and what to run again.
    assert "Autocorrector" in said and "no encontró aquí ningún ejercicio tuyo" in said, said[:500]
    assert "04_ejercicios" in said and "vuelve a ejecutar las celdas con tu código" in said
    assert "No calificado" not in said and "No hay una función" not in said
