"""The notebook generator: source format, learner/solution versions, execution and normalization."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import nbformat
import pytest

from lesson3.build_notebooks import (
    KERNELSPEC,
    MARKDOWN_STUB,
    STUB_COMMENT,
    STUB_RAISE,
    WIDGET_VIEW,
    Cell,
    SourceError,
    _without_version,
    build,
    default_notebooks_dir,
    drift,
    main,
    normalize,
    notebook_metadata,
    parse_source,
    render_cell,
    targets,
    to_notebook,
)

SOURCE = textwrap.dedent(
    '''\
    # Título

    Texto con un bloque que no es código:

    ```javascript
    const x = 1;
    ```
    +++
    Segunda celda de texto.

    ```python
    def f(cp):
        """Doc."""
        ### SOLUCIÓN INICIO
        return cp["turns"]
        ### SOLUCIÓN FIN
    ```

    ```python autograder-skip raises-exception
    ### SOLUCIÓN INICIO
    ### ALUMNO: respuesta = None  # TU RESPUESTA AQUÍ
    respuesta = "b"
    ### SOLUCIÓN FIN
    print(respuesta)
    ```

    <!-- SOLUCIÓN INICIO -->
    <!-- ALUMNO: - **cpA:** -->
    - **cpA:** porque sí.
    <!-- SOLUCIÓN FIN -->
    '''
)


def test_parse_splits_markdown_and_code_and_keeps_other_fences_in_markdown() -> None:
    cells = parse_source(SOURCE)
    assert [c.kind for c in cells] == ["markdown", "markdown", "code", "code", "markdown"]
    assert "```javascript\nconst x = 1;\n```" in cells[0].source
    assert cells[1].source == "Segunda celda de texto."
    assert cells[2].source.startswith("def f(cp):")
    assert cells[2].tags == () and cells[3].tags == ("autograder-skip", "raises-exception")
    assert render_cell(cells[3], "learner").tags == cells[3].tags
    nb = to_notebook(cells)
    assert nb.cells[3].metadata["tags"] == ["autograder-skip", "raises-exception"]
    assert "tags" not in nb.cells[2].metadata
    assert [c.id for c in nb.cells] == [f"celda-{i:02d}" for i in range(5)]


def test_learner_version_gets_indented_stubs_and_alumno_lines() -> None:
    cells = parse_source(SOURCE)
    f = render_cell(cells[2], "learner").source
    assert f == f'def f(cp):\n    """Doc."""\n    {STUB_COMMENT}\n    {STUB_RAISE}'
    namespace: dict[str, object] = {}
    exec(f, namespace)
    with pytest.raises(NotImplementedError, match="TU CÓDIGO AQUÍ"):
        namespace["f"]({"turns": 1})  # type: ignore[operator]
    assert render_cell(cells[3], "learner").source == "respuesta = None  # TU RESPUESTA AQUÍ\nprint(respuesta)"
    assert render_cell(cells[4], "learner").source == "- **cpA:**"
    assert render_cell(Cell("markdown", "<!-- SOLUCIÓN INICIO -->\nx\n<!-- SOLUCIÓN FIN -->"), "learner").source == (
        MARKDOWN_STUB
    )


def test_solution_version_drops_only_the_markers() -> None:
    cells = parse_source(SOURCE)
    assert render_cell(cells[2], "solution").source == 'def f(cp):\n    """Doc."""\n    return cp["turns"]'
    assert render_cell(cells[3], "solution").source == 'respuesta = "b"\nprint(respuesta)'
    assert render_cell(cells[4], "solution").source == "- **cpA:** porque sí."
    assert render_cell(cells[0], "solution") == cells[0]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("```python\nx = 1\n", "línea 1: la celda de código abierta aquí no se cierra"),
        ("```python\n\n```\n", "línea 1: celda de código vacía"),
        ("texto\n```text\nsin cerrar\n", "un bloque ``` de la parte de texto no se cierra"),
        ("```python\n### SOLUCIÓN INICIO\nx = 1\n```\n", "no tiene su «### SOLUCIÓN FIN»"),
        ("```python\n### SOLUCIÓN INICIO\nx = 1\n### SOLUCIÓN FIN\n```\n", "fuera de una función y no tiene"),
        ("```python\nx = 1\n### SOLUCIÓN FIN\n```\n", "sin un «### SOLUCIÓN INICIO» antes"),
        ("```python\n### ALUMNO: x = 1\n```\n", "fuera de un bloque de solución"),
        (
            "```python\ndef f():\n    ### SOLUCIÓN INICIO\n    ### SOLUCIÓN INICIO\n    ### SOLUCIÓN FIN\n```\n",
            "en la línea 3 sin cerrar el de la línea 2",
        ),
        ("<!-- SOLUCIÓN INICIO -->\ntexto\n", "no tiene su «<!-- SOLUCIÓN FIN -->»"),
    ],
)
def test_malformed_sources_name_the_file_and_line(source: str, message: str) -> None:
    with pytest.raises(SourceError, match=r"mi\.md") as info:
        parse_source(source, "mi.md")
    assert message in str(info.value)


def _tree(tmp_path: Path, sources: dict[str, str]) -> Path:
    src = tmp_path / "notebooks" / "src"
    src.mkdir(parents=True)
    for name, text in sources.items():
        (src / name).write_text(text, encoding="utf-8")
    return tmp_path / "notebooks"


def test_targets_solution_notebooks_only_where_there_are_solutions(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"01_uno.md": "# Uno\n\n```python\nx = 1\n```\n", "02_dos.md": SOURCE})
    found = [(t.version, t.path.relative_to(root).as_posix()) for t in targets(root)]
    assert found == [
        ("learner", "01_uno.ipynb"),
        ("learner", "02_dos.ipynb"),
        ("solution", "soluciones/02_dos.ipynb"),
    ]


def test_badly_named_source_is_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"Cuaderno Uno.md": "# x\n"})
    with pytest.raises(SourceError, match=r"NN_nombre\.md"):
        targets(root)


def test_drift_detects_edits_missing_and_stray_notebooks(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"01_uno.md": "# Uno\n\n```python\nx = 1\n```\n", "02_dos.md": SOURCE})
    build(root, execute_cells=False)
    problems = drift(root)
    # Without executing there are no saved outputs: drift says so, per notebook.
    assert problems and all("sin ejecutar" in p for p in problems)
    for nb_path in root.rglob("*.ipynb"):
        nb = nbformat.read(nb_path, as_version=4)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                cell.execution_count = i
        nbformat.write(nb, nb_path)
    assert drift(root) == []

    learner = root / "02_dos.ipynb"
    nb = nbformat.read(learner, as_version=4)
    nb.cells[2].source += "\nprint('editado a mano')"
    nbformat.write(nb, learner)
    (root / "soluciones" / "02_dos.ipynb").unlink()
    (root / "extra.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()), encoding="utf-8")
    problems = drift(root)
    assert "extra.ipynb: no sale de ninguna fuente en src/" in problems
    assert "02_dos.ipynb: la celda 2 no coincide con la fuente 02_dos.md" in problems
    assert any(p.startswith("soluciones/02_dos.ipynb: falta") for p in problems)
    assert main(["--notebooks", str(root), "--check"]) == 1


def test_normalize_strips_what_varies_between_runs() -> None:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x")
    cell.metadata["execution"] = {"iopub.status.busy": "2026-01-01T00:00:00Z"}
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="a\n"),
        nbformat.v4.new_output("stream", name="stdout", text="b\n"),
        nbformat.v4.new_output("display_data", data={"text/plain": "W", WIDGET_VIEW: {"model_id": "abc"}}),
        nbformat.v4.new_output("stream", name="stdout", text="c\n"),
    ]
    nb.cells.append(cell)
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    out = normalize(nb)
    assert "widgets" not in out.metadata and out.metadata == notebook_metadata()
    c = out.cells[0]
    assert "execution" not in c.metadata
    assert [o.get("text") for o in c.outputs] == ["a\nb\n", None, "c\n"]
    assert c.outputs[1].data == {"text/plain": "W"}


@pytest.mark.slow
def test_execution_is_real_and_byte_identical_twice(tmp_path: Path) -> None:
    source = (
        "# Prueba\n\n```python\nimport ipywidgets as w\nfor i in range(3):\n    print(i)\nw.IntSlider()\n```\n\n"
        "```python\n### SOLUCIÓN INICIO\n### ALUMNO: valor = None\nvalor = 42\n### SOLUCIÓN FIN\n```\n"
    )
    root = _tree(tmp_path, {"01_prueba.md": source})
    build(root, jobs=2)
    first = {p.name: p.read_bytes() for p in root.rglob("*.ipynb")}
    build(root, jobs=1)
    assert {p.name: p.read_bytes() for p in root.rglob("*.ipynb")} == first
    assert drift(root) == []
    solved = nbformat.read(root / "soluciones" / "01_prueba.ipynb", as_version=4)
    outputs = solved.cells[1].outputs
    assert outputs[0].text == "0\n1\n2\n"
    assert WIDGET_VIEW not in outputs[1].data and "IntSlider" in outputs[1].data["text/plain"]
    assert solved.cells[1].execution_count == 1


@pytest.mark.slow
def test_a_failing_cell_stops_the_build_with_the_notebook_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path, {"01_roto.md": "```python\nraise ValueError('roto')\n```\n"})
    assert main(["--notebooks", str(root)]) == 1
    err = capsys.readouterr().err
    assert "Error: notebooks/01_roto.ipynb: una celda falló al ejecutarse" in err and "roto" in err
    assert not (root / "01_roto.ipynb").exists()


def test_the_stored_metadata_is_what_jupyterlab_writes_for_the_course_kernel() -> None:
    """JupyterLab rewrites kernelspec and language_info from the kernel when it connects, and marks the
    notebook modified unless they are equal: every committed notebook stores exactly those."""
    from ipykernel.ipkernel import IPythonKernel
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(KERNELSPEC["name"])
    assert KERNELSPEC == {"name": "python3", "display_name": spec.display_name, "language": spec.language}
    for path in sorted(default_notebooks_dir().rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        metadata = nbformat.read(path, as_version=4).metadata
        assert metadata["kernelspec"] == KERNELSPEC, path
        stored = dict(metadata["language_info"])
        assert re.fullmatch(r"3\.\d+\.\d+", stored.pop("version")), path
        expected = {k: v for k, v in IPythonKernel.language_info.items() if k != "version"}
        assert stored == expected, path


def test_drift_ignores_only_the_python_version(tmp_path: Path) -> None:
    meta = notebook_metadata()
    other = {**meta, "language_info": {**meta["language_info"], "version": "3.99.0"}}
    assert _without_version(other) == _without_version(meta)
    broken = {**meta, "language_info": {**meta["language_info"], "mimetype": "text/plain"}}
    assert _without_version(broken) != _without_version(meta)
