"""Generar los cuadernos del curso desde sus fuentes: versión del alumno, versión resuelta y salidas.

``python -m lesson3.build_notebooks`` reads every ``notebooks/src/NN_name.md`` and writes

* ``notebooks/NN_name.ipynb``: the learner's notebook (solutions replaced by stubs);
* ``notebooks/soluciones/NN_name.ipynb``: the solved notebook, when the source has solutions;

then executes each one with nbclient so the committed outputs are real, and strips
everything that would differ from one run to the next (timing, widget model ids).

Source format (plain Markdown, readable on its own):

* Markdown text becomes markdown cells; a line ``+++`` starts a new markdown cell.
* A fence opened with ```` ```python ```` is a code cell (words after ``python`` are
  cell tags, e.g. ```` ```python autograder-skip ````); any other fence
  (```` ```javascript ````, ```` ```text ````) stays inside the markdown.
* Inside a code cell, ``### SOLUCIÓN INICIO`` … ``### SOLUCIÓN FIN`` enclose the
  solution. In the learner's version the block becomes its ``### ALUMNO: <line>``
  lines, or, if it has none, ``# TU CÓDIGO AQUÍ`` and a ``raise NotImplementedError``,
  indented like the marker.
* In markdown, ``<!-- SOLUCIÓN INICIO -->`` … ``<!-- SOLUCIÓN FIN -->`` do the same;
  the learner gets the ``<!-- ALUMNO: text -->`` lines or an invitation to answer.
* A Markdown link to another notebook, ``[texto](NN_nombre.ipynb)``, points at the
  learner's notebook from both versions (the solved one lives a folder down).

Why not jupytext's MyST reader (weighed, not adopted): on these four sources it gives the same cells,
but it accepts an unclosed fence, an empty code cell and an old-style code fence silently, so the
file-and-line checks below would stay; it would save about 25 lines and put four packages into the
instructor's install, since the grader's intake parses these sources too (the course's own cells).

A maintainer's tool that stays in the package on purpose: ``python -m lesson3.build_notebooks``
is the one command the maintainers' page, CI and every contributor use, the notebook tests import its
parser to check the committed notebooks against their sources, and it needs nothing a
learner lacks except nbclient (a ``test`` extra), imported only when it executes notebooks.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Imported where a notebook is written or read: nbformat brings jsonschema and its grammars (about a
    # second), and the grader's zygote imports this module only to read the sources (course_cells).
    import nbformat

SOLUTION_START = "### SOLUCIÓN INICIO"
SOLUTION_END = "### SOLUCIÓN FIN"
LEARNER_LINE = "### ALUMNO:"
STUB_COMMENT = "# TU CÓDIGO AQUÍ"
STUB_RAISE = 'raise NotImplementedError("Te toca a ti: completa esta parte (# TU CÓDIGO AQUÍ)")'
CELL_BREAK = "+++"
SOLUTIONS_DIR = "soluciones"
SOURCE_DIR = "src"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
CELL_TIMEOUT = 300

_SOURCE_NAME = re.compile(r"^\d\d_[a-z0-9_]+\.md$")
_CODE_FENCE = re.compile(r"^```python( [A-Za-z0-9_-]+)*$")
_NOTEBOOK_LINK = re.compile(r"\]\((\d\d_[a-z0-9_]+\.ipynb)\)")


class SourceError(ValueError):
    """Una fuente de cuaderno mal formada; el mensaje dice qué archivo y qué línea."""


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" | "code"
    source: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Target:
    source: Path
    version: str  # "learner" | "solution"
    path: Path


# -- parsing -------------------------------------------------------------------------------


def parse_source(text: str, name: str = "fuente") -> list[Cell]:
    """Las celdas de una fuente (con los marcadores de solución todavía dentro)."""
    cells: list[Cell] = []
    markdown: list[str] = []
    code: list[str] | None = None
    code_start = 0
    tags: tuple[str, ...] = ()
    other_fence = False

    def flush_markdown() -> None:
        body = "\n".join(markdown).strip("\n")
        if body.strip():
            cells.append(Cell("markdown", body))
        markdown.clear()

    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.rstrip()
        if code is not None:
            if stripped == "```":
                body = "\n".join(code).strip("\n")
                if not body.strip():
                    raise SourceError(f"{name}, línea {code_start}: celda de código vacía")
                cells.append(Cell("code", body, tags))
                code = None
            else:
                code.append(line)
            continue
        if other_fence:
            markdown.append(line)
            if stripped.startswith("```"):
                other_fence = False
            continue
        if _CODE_FENCE.match(stripped):
            flush_markdown()
            code, code_start, tags = [], n, tuple(stripped.split()[1:])
        elif stripped.startswith("```"):
            other_fence = True
            markdown.append(line)
        elif stripped == CELL_BREAK:
            flush_markdown()
        else:
            markdown.append(line)
    if code is not None:
        raise SourceError(f"{name}, línea {code_start}: la celda de código abierta aquí no se cierra con ```")
    if other_fence:
        raise SourceError(f"{name}: un bloque ``` de la parte de texto no se cierra")
    flush_markdown()
    for i, cell in enumerate(cells):
        _check_markers(cell, f"{name}, celda {i + 1}")
    return cells


MARKDOWN_START = "<!-- SOLUCIÓN INICIO -->"
MARKDOWN_END = "<!-- SOLUCIÓN FIN -->"
MARKDOWN_LEARNER = "<!-- ALUMNO:"
MARKDOWN_STUB = "*(Escribe aquí tu respuesta, con tus palabras.)*"


def _markers(kind: str) -> tuple[str, str, str]:
    if kind == "code":
        return SOLUTION_START, SOLUTION_END, LEARNER_LINE
    return MARKDOWN_START, MARKDOWN_END, MARKDOWN_LEARNER


def _check_markers(cell: Cell, where: str) -> None:
    start, end, learner = _markers(cell.kind)
    open_at: int | None = None
    top_level = has_learner_lines = False
    for n, line in enumerate(cell.source.splitlines(), 1):
        mark = line.strip()
        if mark == start:
            if open_at is not None:
                raise SourceError(f"{where}: «{start}» en la línea {n} sin cerrar el de la línea {open_at}")
            open_at, top_level, has_learner_lines = n, cell.kind == "code" and line == mark, False
        elif mark == end:
            if open_at is None:
                raise SourceError(f"{where}: «{end}» en la línea {n} sin un «{start}» antes")
            if top_level and not has_learner_lines:
                # The default stub raises; outside a function it would stop the learner's notebook there.
                raise SourceError(
                    f"{where}: el bloque de solución de la línea {open_at} está fuera de una función y no tiene "
                    f"líneas «{learner}»; sin ellas el cuaderno del alumno se cortaría en esta celda"
                )
            open_at = None
        elif mark.startswith(learner) and open_at is not None:
            has_learner_lines = True
        elif mark.startswith(learner) and open_at is None:
            raise SourceError(f"{where}: «{learner}» en la línea {n} fuera de un bloque de solución")
    if open_at is not None:
        raise SourceError(f"{where}: «{start}» en la línea {open_at} no tiene su «{end}»")


def has_solutions(cells: Sequence[Cell]) -> bool:
    return any(_markers(c.kind)[0] in c.source for c in cells)


def render_cell(cell: Cell, version: str) -> Cell:
    """La celda en la versión pedida («learner» o «solution»)."""
    if version not in ("learner", "solution"):
        raise ValueError(f"versión desconocida «{version}»")
    start, end, learner_mark = _markers(cell.kind)
    out: list[str] = []
    block: list[str] | None = None
    indent = ""
    for line in cell.source.splitlines():
        mark = line.strip()
        if mark == start:
            block, indent = [], line[: len(line) - len(line.lstrip())]
            continue
        if mark == end and block is not None:
            if version == "learner":
                out += [indent + ln for ln in _learner_lines(block, cell.kind)]
            else:
                out += [ln for ln in block if not ln.strip().startswith(learner_mark)]
            block = None
            continue
        if block is not None:
            block.append(line)
        else:
            out.append(line)
    text = "\n".join(out)
    if cell.kind == "markdown" and version == "solution":
        text = _NOTEBOOK_LINK.sub(r"](../\1)", text)
    return Cell(cell.kind, text, cell.tags)


def _learner_lines(block: list[str], kind: str) -> list[str]:
    _, _, mark = _markers(kind)
    lines = [ln.strip()[len(mark) :].strip() for ln in block if ln.strip().startswith(mark)]
    if kind == "markdown":
        lines = [ln.removesuffix("-->").rstrip() for ln in lines]
        return lines or [MARKDOWN_STUB]
    return lines or [STUB_COMMENT, STUB_RAISE]


def render(cells: Sequence[Cell], version: str) -> list[Cell]:
    return [render_cell(c, version) for c in cells]


def kernel_language_info() -> dict[str, object]:
    """The ``language_info`` the course's kernel (ipykernel, this interpreter) reports.

    JupyterLab writes it into the notebook when the kernel connects, and marks the notebook
    modified unless what is stored is equal to it: stored as is, the notebook opens clean.
    Only ``version`` depends on the machine (the learner's Python may be another patch release).
    """
    from ipykernel.ipkernel import IPythonKernel

    return dict(sorted(IPythonKernel.language_info.items()))


def notebook_metadata() -> dict[str, object]:
    """What JupyterLab writes for the course's kernel: its kernelspec and its language_info."""
    return {"kernelspec": dict(KERNELSPEC), "language_info": kernel_language_info()}


def _without_version(metadata: dict[str, object]) -> dict[str, object]:
    info = metadata.get("language_info")
    if not isinstance(info, dict):
        return metadata
    return {**metadata, "language_info": {k: v for k, v in info.items() if k != "version"}}


def to_notebook(cells: Sequence[Cell]) -> nbformat.NotebookNode:
    """Un cuaderno nbformat 4 sin ejecutar, con ids de celda estables."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata = notebook_metadata()
    for i, cell in enumerate(cells):
        node = (
            nbformat.v4.new_code_cell(cell.source)
            if cell.kind == "code"
            else nbformat.v4.new_markdown_cell(cell.source)
        )
        node.id = f"celda-{i:02d}"
        if cell.tags:
            node.metadata["tags"] = list(cell.tags)
        nb.cells.append(node)
    return nb


# -- targets, execution, normalization ----------------------------------------------------


def default_notebooks_dir() -> Path:
    """``notebooks/`` next to the package (the editable install of the course repository)."""
    return Path(__file__).resolve().parent.parent / "notebooks"


def targets(notebooks_dir: Path, out_dir: Path | None = None) -> list[Target]:
    src_dir = notebooks_dir / SOURCE_DIR
    if not src_dir.is_dir():
        raise SourceError(f"no existe la carpeta de fuentes {src_dir}")
    out_dir = out_dir or notebooks_dir
    result = []
    for source in sorted(src_dir.glob("*.md")):
        if not _SOURCE_NAME.match(source.name):
            raise SourceError(f"{source.name}: el nombre de una fuente tiene que ser NN_nombre.md (minúsculas y _)")
        stem = source.stem
        result.append(Target(source, "learner", out_dir / f"{stem}.ipynb"))
        if has_solutions(parse_source(source.read_text(encoding="utf-8"), source.name)):
            result.append(Target(source, "solution", out_dir / SOLUTIONS_DIR / f"{stem}.ipynb"))
    return result


def generate(target: Target) -> nbformat.NotebookNode:
    cells = parse_source(target.source.read_text(encoding="utf-8"), target.source.name)
    return to_notebook(render(cells, target.version))


def execute(nb: nbformat.NotebookNode, cwd: Path, name: str = "cuaderno") -> nbformat.NotebookNode:
    """Ejecuta el cuaderno de arriba abajo en un kernel nuevo, en ``cwd`` (como nbval)."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name=KERNELSPEC["name"],
        resources={"metadata": {"path": str(cwd)}},
        record_timing=False,
    )
    try:
        client.execute()
    except CellExecutionError as e:
        raise RuntimeError(f"{name}: una celda falló al ejecutarse:\n{e}") from None
    return normalize(nb)


def normalize(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Quita lo que cambia de una ejecución a otra: tiempos, estado y vistas de widgets."""
    nb.metadata = notebook_metadata()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if "outputs" in cell:
            cell.outputs = _merge_streams(cell.outputs)
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data is not None:
                # A widget view only renders with a live kernel; the text/plain next to it says what it is.
                data.pop(WIDGET_VIEW, None)
    return nb


def _merge_streams(outputs: list[nbformat.NotebookNode]) -> list[nbformat.NotebookNode]:
    """Consecutive writes to one stream as one output: how they split depends on flush timing."""
    merged: list[nbformat.NotebookNode] = []
    for output in outputs:
        last = merged[-1] if merged else None
        if (
            output.output_type == "stream"
            and last is not None
            and last.output_type == "stream"
            and last.name == output.name
        ):
            last.text += output.text
        else:
            merged.append(output)
    return merged


def write(nb: nbformat.NotebookNode, path: Path) -> None:
    import nbformat

    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.validate(nb)
    text = nbformat.writes(nb, version=4)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def build(
    notebooks_dir: Path | None = None,
    *,
    execute_cells: bool = True,
    jobs: int = 2,
    only: Sequence[str] = (),
    out_dir: Path | None = None,
) -> list[Path]:
    """Genera (y ejecuta) los cuadernos; devuelve las rutas escritas."""
    notebooks_dir = notebooks_dir or default_notebooks_dir()
    todo = [t for t in targets(notebooks_dir, out_dir) if not only or t.source.stem in only]

    def one(target: Target) -> Path:
        nb = generate(target)
        target.path.parent.mkdir(parents=True, exist_ok=True)
        if execute_cells:
            nb = execute(nb, target.path.parent, f"{target.path.parent.name}/{target.path.name}")
        write(nb, target.path)
        return target.path

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, todo))


def drift(notebooks_dir: Path | None = None) -> list[str]:
    """Diferencias entre los cuadernos guardados y lo que generarían sus fuentes (sin ejecutar)."""
    import nbformat

    notebooks_dir = notebooks_dir or default_notebooks_dir()
    problems: list[str] = []
    expected = targets(notebooks_dir)
    wanted = {t.path for t in expected}
    present = {
        p
        for p in notebooks_dir.rglob("*.ipynb")
        if SOURCE_DIR not in p.relative_to(notebooks_dir).parts[:1]
        and not any(part.startswith(".") for part in p.relative_to(notebooks_dir).parts)
    }
    for extra in sorted(present - wanted):
        problems.append(f"{extra.relative_to(notebooks_dir)}: no sale de ninguna fuente en {SOURCE_DIR}/")
    for target in expected:
        rel = target.path.relative_to(notebooks_dir)
        if not target.path.exists():
            problems.append(f"{rel}: falta (ejecuta python -m lesson3.build_notebooks)")
            continue
        saved = nbformat.read(target.path, as_version=4)
        fresh = generate(target)
        if len(saved.cells) != len(fresh.cells):
            problems.append(f"{rel}: tiene {len(saved.cells)} celdas y la fuente da {len(fresh.cells)}")
            continue
        for i, (a, b) in enumerate(zip(saved.cells, fresh.cells, strict=True)):
            if _written_by_source(a) != _written_by_source(b):
                problems.append(f"{rel}: la celda {i} no coincide con la fuente {target.source.name}")
                break
            if a.cell_type == "code":
                if a.execution_count is None:
                    problems.append(f"{rel}: la celda {i} no tiene salidas guardadas (sin ejecutar)")
                    break
                if a.metadata.get("execution") or any(WIDGET_VIEW in o.get("data", {}) for o in a.outputs):
                    problems.append(f"{rel}: la celda {i} guarda tiempos o vistas de widgets (sin normalizar)")
                    break
        # The Python version is the builder's: a notebook built on another patch release is not drift.
        if _without_version(saved.metadata) != _without_version(fresh.metadata):
            problems.append(f"{rel}: los metadatos del cuaderno no son los que escribe el generador")
    return problems


def _written_by_source(cell: nbformat.NotebookNode) -> tuple[object, ...]:
    """What of a cell its source decides (the rest, outputs and counts, comes from running it)."""
    return cell.cell_type, cell.source, cell.get("id"), cell.metadata.get("tags")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lesson3.build_notebooks",
        allow_abbrev=False,
        description="Genera los cuadernos del alumno y las soluciones desde notebooks/src/ y los ejecuta.",
    )
    parser.add_argument("--notebooks", type=Path, default=None, help="la carpeta notebooks/ (por defecto, la del repo)")
    parser.add_argument("--no-execute", action="store_true", help="solo generar, sin ejecutar (salidas vacías)")
    parser.add_argument("--check", action="store_true", help="no escribir: decir si los cuadernos guardados derivan")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="cuadernos en paralelo")
    parser.add_argument("--only", action="append", default=[], metavar="NN_nombre", help="solo esta fuente")
    args = parser.parse_args(argv)
    try:
        if args.check:
            problems = drift(args.notebooks)
            for p in problems:
                print(p)
            print("Los cuadernos coinciden con sus fuentes." if not problems else f"{len(problems)} diferencias.")
            return 1 if problems else 0
        written = build(args.notebooks, execute_cells=not args.no_execute, jobs=args.jobs, only=args.only)
    except (SourceError, RuntimeError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    base = args.notebooks or default_notebooks_dir()
    for path in written:
        print(f"escrito {path.relative_to(base.parent) if path.is_relative_to(base.parent) else path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
