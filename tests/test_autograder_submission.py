"""Step 1, load: .py and .ipynb into cells; magics and shell escapes neutralised, never run."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder import submission as sub
from autograder.submission import SubmissionError, load_submission, neutralise

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
    assert len(loaded.cells) == 1
    (cell,) = loaded.cells
    # A .py file is plain Python: «%» is not special there, it is a syntax error at line 2.
    assert cell.filename == "ana_garcia.py"
    assert cell.syntax_error is not None and cell.syntax_error.line == 2
    assert loaded.runnable == []


def test_notebook_code_cells_in_order_numbered_among_code_cells(tmp_path):
    path = write_notebook(tmp_path / "nb.ipynb", "a = 1", "b = a + 1", "def f(:\n    pass")
    loaded = load_submission(path)
    assert [c.number for c in loaded.cells] == [1, 2, 3]
    assert [c.source for c in loaded.cells[:2]] == ["a = 1", "b = a + 1"]
    assert loaded.cells[2].filename == "<celda 3>"
    assert loaded.cells[2].syntax_error is not None and loaded.cells[2].syntax_error.line == 1
    assert [c.number for c in loaded.runnable] == [1, 2]


def test_cells_tagged_autograder_skip_are_not_runnable(tmp_path):
    path = write_notebook(tmp_path / "nb.ipynb", "a = 1", "while True: pass", tags={1: [sub.SKIP_TAG]})
    loaded = load_submission(path)
    assert loaded.cells[1].skipped
    assert [c.number for c in loaded.runnable] == [1]


@pytest.mark.parametrize(
    ("source", "must_not_contain", "must_contain"),
    [
        ("!rm -rf /\nx = 1", ["rm -rf /\n"], ["get_ipython().system('rm -rf /')", "x = 1"]),
        ("files = !ls", [], ["files = get_ipython().getoutput('ls')"]),
        ("%matplotlib inline", [], ["get_ipython().run_line_magic('matplotlib', 'inline')"]),
        ("%pip install requests", [], ["run_line_magic('pip'"]),
        ("if True:\n    !touch /tmp/x\n    y = 2", [], ["    get_ipython().system('touch /tmp/x')", "    y = 2"]),
        ("obj?", [], ["run_line_magic('pinfo', 'obj')"]),
    ],
)
def test_line_magics_and_shell_escapes_become_calls_on_the_stub_shell(source, must_not_contain, must_contain):
    out = neutralise(source)
    for text in must_contain:
        assert text in out
    for text in must_not_contain:
        assert text not in out
    compile(out, "<celda>", "exec")
    assert out.count("\n") == source.count("\n")  # line numbers survive for error messages


def test_percent_time_keeps_the_statement():
    assert neutralise("%time x = f()") == "x = f()"
    assert neutralise("    %timeit -n 10 g()") == "    g()"


def test_cell_magics_other_than_python_bodies_become_pass():
    out = neutralise("%%bash\ntouch /tmp/pwned\necho hi")
    assert "touch" not in out and out.strip().startswith("pass")
    out = neutralise("\n%%writefile secreto.py\nimport os")
    assert "import os" not in out and out.startswith("\npass")


def test_python_body_cell_magics_keep_the_body_on_the_same_lines():
    out = neutralise("%%capture\ndef f():\n    return 1")
    assert out == "\ndef f():\n    return 1"
    ns: dict = {}
    exec(out, ns)
    assert ns["f"]() == 1


def test_modulo_and_strings_with_bangs_are_untouched():
    source = "def f(a):\n    return a % 2\nprint('!no es shell')"
    assert neutralise(source) == source


def test_without_ipython_a_line_filter_neutralises(monkeypatch):
    out = sub._fallback_transform("!ls\nfiles = !ls -la\n    %time f()\nx = 1 % 2")
    assert out.split("\n") == ["pass", "files = None", "    pass", "x = 1 % 2"]


def test_shipped_notebook_sample_neutralises_everything(tmp_path):
    loaded = load_submission(DATA / "good_notebook.ipynb")
    joined = "\n".join(c.source for c in loaded.cells)
    assert "rm -rf" not in joined.replace("get_ipython().system('rm -rf / --no-preserve-root')", "")
    assert "touch /tmp/autograder-bash-magic-ran" not in joined
    assert any(c.skipped for c in loaded.cells)
    assert [c.number for c in loaded.cells if c.syntax_error] == [5]


@pytest.mark.parametrize(
    ("name", "content", "key"),
    [
        ("tarea.txt", b"x = 1", "load.bad_suffix"),
        ("tarea.py", b"\xff\xfe\x00x", "load.not_utf8"),
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
    threads = [threading.Thread(target=lambda: [sub.syntax_problem("x = 1") for _ in range(5)]) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most == 1
