"""Step 1, load: .py and .ipynb into cells, as written; nothing of them runs or is transformed here."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.intake import submission as sub
from autograder.intake.submission import SubmissionError, load_submission

DATA = Path(__file__).parent / "data" / "submissions"


def write_notebook(path: Path, *sources: str, tags: dict[int, list[str]] | None = None) -> Path:
    cells = [new_markdown_cell("# título")]
    for i, source in enumerate(sources):
        cells.append(new_code_cell(source, metadata={"tags": (tags or {}).get(i, [])}))
    nbformat.write(new_notebook(cells=cells), path)
    return path


def test_a_python_file_is_one_cell_named_after_the_file(tmp_path):
    path = tmp_path / "ana_garcia.py"
    path.write_text("x = 1\n%notamagic\n", encoding="utf-8")
    loaded = load_submission(path)
    assert loaded.kind == "py" and loaded.name == "ana_garcia.py"
    (cell,) = loaded.cells
    # Compiled (and its syntax error reported) by the learner's process, not here.
    assert cell.filename == "ana_garcia.py" and cell.source == "x = 1\n%notamagic\n"
    assert loaded.runnable == [cell]


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("# -*- coding: latin-1 -*-\nnombre = 'José'\n".encode("latin-1"), "nombre = 'José'"),
        (b"\xef\xbb\xbfnombre = 'Jos\xc3\xa9'\n", "nombre = 'José'"),
        ("#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\nx = '€'\n".encode("cp1252"), "x = '€'"),
        ("nombre = 'José'\n".encode(), "nombre = 'José'"),
    ],
)
def test_a_python_file_is_decoded_as_python_decodes_it(tmp_path, raw, text):
    path = tmp_path / "tarea.py"
    path.write_bytes(raw)
    (cell,) = load_submission(path).cells
    assert text in cell.source and not cell.source.startswith("\ufeff")


def test_notebook_code_cells_in_order_numbered_among_code_cells_and_placed_among_all(tmp_path):
    path = write_notebook(tmp_path / "nb.ipynb", "a = 1", "b = a + 1", "def f(:\n    pass")
    loaded = load_submission(path)
    assert [c.number for c in loaded.cells] == [1, 2, 3]
    assert [c.position for c in loaded.cells] == [2, 3, 4]  # the title's markdown cell is cell 1
    assert [c.source for c in loaded.cells[:2]] == ["a = 1", "b = a + 1"]
    assert [loaded.cells[2].compiled_name(lang) for lang in ("es", "en")] == ["<celda 4>", "<cell 4>"]
    assert [c.number for c in loaded.runnable] == [1, 2, 3]


def test_cells_tagged_autograder_skip_are_not_runnable(tmp_path):
    path = write_notebook(tmp_path / "nb.ipynb", "a = 1", "while True: pass", tags={1: [sub.SKIP_TAG]})
    loaded = load_submission(path)
    assert loaded.cells[1].skipped
    assert [c.number for c in loaded.runnable] == [1]


def test_the_grader_leaves_ipython_syntax_to_the_learners_process(tmp_path, monkeypatch):
    """IPython's input transformation can run for minutes on a hostile cell: never in the grader."""
    import IPython.core.inputtransformer2 as transformer

    def refuse(*args, **kwargs):
        raise AssertionError("the grader transformed a cell")

    monkeypatch.setattr(transformer.TransformerManager, "transform_cell", refuse)
    cells = ["\n".join(["!a"] * 3000), "%%bash\ntouch /tmp/x", "files = !ls\n%time y = 1"]
    loaded = load_submission(write_notebook(tmp_path / "nb.ipynb", *cells))
    assert [c.source for c in loaded.cells] == cells


@pytest.mark.parametrize(
    ("name", "content", "key"),
    [
        ("tarea.txt", b"x = 1", "load.bad_suffix"),
        ("tarea.py", b"\xff\xfe\x00x", "load.not_utf8"),
        ("tarea.py", b"# -*- coding: utf-8 -*-\nx = '\xe9'\n", "load.not_utf8"),
        ("tarea.ipynb", b"{not json", "load.notebook_not_json"),
        ("tarea.ipynb", json.dumps({"cells": 3}).encode(), "load.notebook_not_notebook"),
        ("tarea.ipynb", json.dumps({"nbformat": 4, "cells": 3}).encode(), "load.notebook_not_notebook"),
        ("tarea.ipynb", json.dumps({"nbformat": 2, "cells": []}).encode(), "load.notebook_version"),
    ],
)
def test_unreadable_submissions_raise_a_clear_spanish_error(tmp_path, name, content, key):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(SubmissionError) as info:
        load_submission(path)
    assert info.value.key == key
    assert name in str(info.value)
    assert info.value.message("en") != info.value.message("es")


def test_missing_and_oversized_files(tmp_path, monkeypatch):
    with pytest.raises(SubmissionError, match="No existe"):
        load_submission(tmp_path / "nadie.py")
    big = tmp_path / "grande.py"
    big.write_text("x = 1\n" * 10, encoding="utf-8")
    monkeypatch.setattr(sub, "MAX_BYTES", 20)
    with pytest.raises(SubmissionError, match="MB"):
        load_submission(big)


def test_cells_round_trip_through_json_for_the_judge(tmp_path):
    loaded = load_submission(DATA / "good_notebook.ipynb")
    assert sub.Submission.from_json(json.loads(json.dumps(loaded.to_json()))) == loaded


def test_the_grader_never_builds_two_asts_at_once(monkeypatch):
    """grade_many loads submissions from threads; CPython 3.11 < 3.11.9 can raise
    "AST constructor recursion depth mismatch" on concurrent AST builds (seen in CI)."""
    import builtins
    import threading
    import time

    real_compile = builtins.compile
    inside, most = 0, 0
    guard = threading.Lock()

    def watched_compile(*args, **kwargs):
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
        time.sleep(0.005)  # widen the window so overlapping calls would be seen
        try:
            return real_compile(*args, **kwargs)
        finally:
            with guard:
                inside -= 1

    monkeypatch.setattr(sub, "compile", watched_compile, raising=False)
    threads = [threading.Thread(target=lambda: [sub.parse("x = 1") for _ in range(5)]) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most == 1
