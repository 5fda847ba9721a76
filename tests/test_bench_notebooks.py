"""bench/bench_notebooks.py keeps working: it times tiny notebooks, reports failures, never writes
next to the notebooks it runs. (The real notebooks' figures are the bench's job, not a test's.)"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_notebooks.py"

pytestmark = pytest.mark.slow  # real grading runs and benches: seconds each


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_notebooks", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def _notebook(path: Path, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    nbformat.write(nb, path)
    return path


def test_times_each_notebook_and_fails_on_a_broken_one(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _notebook(tmp_path / "good.ipynb", "x = 1", "print(x + 1)")
    broken = _notebook(tmp_path / "broken.ipynb", "1 / 0")

    assert bench.main([str(good), str(broken)]) == 1

    out = capsys.readouterr().out
    assert re.search(r"^\s*\d+\.\d\d s  ok\s+.*good\.ipynb  \(2 code cells\)$", out, re.MULTILINE), out
    assert re.search(r"^\s*\d+\.\d\d s  FAILED\s+.*broken\.ipynb", out, re.MULTILINE), out
    assert "ZeroDivisionError" in out


def test_quick_runs_only_the_shortest_notebook_in_a_copy(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = _notebook(tmp_path / "long.ipynb", "1 / 0", "pass", "pass")
    short = _notebook(tmp_path / "short.ipynb", "open('written.txt', 'w').write('x')")

    assert bench.main(["--quick", str(long), str(short)]) == 0

    out = capsys.readouterr().out
    assert "short.ipynb" in out
    assert "long.ipynb" not in out
    assert not (tmp_path / "written.txt").exists(), "the bench ran the notebook in its own folder"


def test_finds_notebooks_in_subfolders_but_not_jupyter_checkpoints(bench: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "soluciones").mkdir()
    (tmp_path / ".ipynb_checkpoints").mkdir()
    b = _notebook(tmp_path / "b.ipynb", "pass")
    a = _notebook(tmp_path / "soluciones" / "a.ipynb", "pass")
    _notebook(tmp_path / ".ipynb_checkpoints" / "b-checkpoint.ipynb", "pass")
    (tmp_path / "notas.md").write_text("no")

    assert bench.committed_notebooks(tmp_path) == sorted([a, b])
