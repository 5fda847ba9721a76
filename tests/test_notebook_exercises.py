"""The exercise cells of the notebooks, as a learner meets them: out of order, and the next day.

* No stub rebinds a name an earlier exercise may define: Run All must never undo a correct
  answer the learner wrote further up (notebook 04's Level 2 stub ``READ_ONLY_TOOLS = set()``
  once erased the Level 1 definition its own hints asked for).
* Every exercise's test cell works after a kernel restart with only the imports cell and the
  learner's own cell run before it (notebook 04's reconcile tests once used ``base``, defined
  in a demo cell further up).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from autograder.course import criteria
from lesson3.build_notebooks import Cell, has_solutions, parse_source, render_cell

SOURCES = Path(__file__).resolve().parents[1] / "notebooks" / "src"
SOLUTION_MARKS = ("### SOLUCIÓN INICIO",)
# A name written in a hint or feedback the way code names are: snake_case or UPPER_CASE with an underscore.
CODE_NAME = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")


def _sources() -> list[Path]:
    found = sorted(p for p in SOURCES.glob("*.md") if has_solutions(parse_source(p.read_text(encoding="utf-8"))))
    assert found, f"no notebook source with exercises under {SOURCES}"
    return found


def _cells(path: Path) -> list[Cell]:
    return parse_source(path.read_text(encoding="utf-8"), path.name)


def is_exercise(cell: Cell) -> bool:
    return cell.kind == "code" and any(mark in cell.source for mark in SOLUTION_MARKS)


def bound_names(source: str) -> set[str]:
    """Names a cell binds at top level to a value of its own (imports bind the package's objects: left out)."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def names_earlier_levels_suggest(level: int) -> set[str]:
    """Code names that the hints of lower levels' criteria tell the learner to define or use."""
    found: set[str] = set()
    for criterion in criteria.CRITERIA.values():
        if criterion.level < level:
            for hint in criteria.hints(criterion.id, "es") + criteria.hints(criterion.id, "en"):
                found |= set(CODE_NAME.findall(hint))
    return found


def _level_of(cells: list[Cell], index: int) -> int:
    """The exercise level of a cell: the last «Nivel N» heading above it (0 if none)."""
    level = 0
    for cell in cells[:index]:
        for match in re.finditer(r"^#+ Nivel (\d)", cell.source, flags=re.M):
            level = int(match.group(1))
    return level


def rebinding_stubs(cells: list[Cell]) -> list[str]:
    """Each learner stub that rebinds a name an earlier exercise defines or an earlier level's hints suggest."""
    problems = []
    earlier: set[str] = set()
    for i, cell in enumerate(cells):
        if not is_exercise(cell):
            continue
        stub = bound_names(render_cell(cell, "learner").source)
        solved = bound_names(render_cell(cell, "solution").source)
        # The stub's own functions (def f(): raise NotImplementedError) are what this exercise asks for.
        tree = ast.parse(render_cell(cell, "learner").source)
        own = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))} - earlier
        suggested = names_earlier_levels_suggest(_level_of(cells, i))
        for name in sorted((stub & earlier) | (stub & suggested - own)):
            problems.append(f"celda {i + 1}: el esqueleto vuelve a asignar {name}, que un ejercicio anterior define")
        earlier |= solved
    return problems


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.stem)
def test_no_stub_rebinds_a_name_an_earlier_exercise_may_define(path: Path) -> None:
    assert rebinding_stubs(_cells(path)) == []


def test_the_rule_catches_the_read_only_tools_stub() -> None:
    """The defect it guards against, in three spellings, and a stub that is fine."""
    level1 = Cell("markdown", "## Nivel 1: tres puntos de control")
    exercise1 = Cell(
        "code",
        "### SOLUCIÓN INICIO\nREAD_ONLY_TOOLS = {'read_file'}\ndef resume_action(cp):\n    return 'x'\n"
        "### SOLUCIÓN FIN",
    )
    level2 = Cell("markdown", "## Nivel 2: reconcile")
    for stub in ("READ_ONLY_TOOLS = set()", "READ_ONLY_TOOLS: set = set()", "READ_ONLY_TOOLS, X = set(), 1"):
        exercise2 = Cell(
            "code", f"### SOLUCIÓN INICIO\n### ALUMNO: {stub}\nREAD_ONLY_TOOLS = {{'grep'}}\n### SOLUCIÓN FIN"
        )
        assert rebinding_stubs([level1, exercise1, level2, exercise2]), stub
    fine = Cell(
        "code", "### SOLUCIÓN INICIO\n### ALUMNO: # READ_ONLY_TOOLS = ...\nREAD_ONLY_TOOLS = {1}\n### SOLUCIÓN FIN"
    )
    assert rebinding_stubs([level1, exercise1, level2, fine]) == []
    # A name only the earlier level's hints suggest (no cell defines it) counts too.
    suggested = next(iter(names_earlier_levels_suggest(2) - {"resume_action"}))
    stub = Cell("code", f"### SOLUCIÓN INICIO\n### ALUMNO: {suggested} = None\n{suggested} = 1\n### SOLUCIÓN FIN")
    assert rebinding_stubs([level2, stub])


# -- after a restart -----------------------------------------------------------------------------


def restart_cases(path: Path) -> list[tuple[int, int]]:
    """(exercise cell, test cell) pairs: a code cell after an exercise that uses a name the exercise binds."""
    cells = _cells(path)
    cases = []
    for i, cell in enumerate(cells):
        if not is_exercise(cell):
            continue
        names = bound_names(render_cell(cell, "solution").source)
        for j in range(i + 1, len(cells)):
            later = cells[j]
            if is_exercise(later):
                break
            if later.kind == "code" and names & {
                n.id for n in ast.walk(ast.parse(later.source)) if isinstance(n, ast.Name)
            }:
                cases.append((i, j))
    return cases


def _run_alone(cells: list[Cell], indices: list[int], cwd: Path) -> list[str]:
    """Runs the solved version of ``cells[indices]`` in a fresh kernel; the errors they raised."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(render_cell(cells[i], "solution").source) for i in indices]
    NotebookClient(
        nb, timeout=120, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(cwd)}}
    ).execute()
    return [
        f"{o.get('ename')}: {o.get('evalue')}"
        for cell in nb.cells
        for o in cell.get("outputs", [])
        if o.get("output_type") == "error"
    ]


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in _sources() if restart_cases(p)], ids=lambda p: p.stem)
def test_each_exercise_test_cell_works_after_a_restart(path: Path, tmp_path: Path) -> None:
    cells = _cells(path)
    imports = next(i for i, c in enumerate(cells) if c.kind == "code")
    cases = restart_cases(path)
    failures = []
    for exercise, test in cases:
        errors = _run_alone(cells, [imports, exercise, test], tmp_path)
        if errors:
            failures.append(f"celda {test + 1} (tras reiniciar, con la celda {exercise + 1}): {errors}")
    assert failures == []


def test_the_restart_cases_cover_notebook_04s_reconcile_tests() -> None:
    path = SOURCES / "04_ejercicios.md"
    cells = _cells(path)
    tested = {cells[j].source for _, j in restart_cases(path)}
    assert any("reconcile(cp)" in s for s in tested)  # the cpB/cpC test
    assert any("reconcile=reconcile" in s for s in tested)  # the incident, with the learner's version
    assert any("resume_action" in s for s in tested)
