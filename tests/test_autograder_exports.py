"""The solved notebook as learners hand it in from other tools: full marks, nothing left to a person.

An export keeps the code and drops the cells' metadata: ``jupyter nbconvert --to script`` writes
``# In[ ]:`` markers, VS Code's own export ``# %%``, and Colab or VS Code save the notebook without
its ``autograder-skip`` tags. The course's own cells (``check()``, the crash lab's runs,
``print(inspect.getsource(reconcile_production))``) are the course's in every format.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.course.config import CourseConfig
from autograder.grading.pipeline import grade_many
from autograder.intake.submission import SKIP_TAG, from_notebook_text, load_submission

pytestmark = pytest.mark.warm_up("grading_server")

SOLVED = Path(__file__).resolve().parents[1] / "notebooks" / "soluciones" / "04_ejercicios.ipynb"


def untagged(notebook: dict, cell_metadata: dict, metadata: dict) -> dict:
    """``notebook`` as an editor that does not keep the tags saves it (with its own metadata instead)."""
    out = copy.deepcopy(notebook)
    for n, cell in enumerate(out["cells"]):
        cell["metadata"] = {k: v for k, v in cell["metadata"].items() if k != "tags"}
        cell["metadata"].update({k: (f"{v}{n}" if k == "id" else v) for k, v in cell_metadata.items()})
    out["metadata"] = metadata
    return out


def vscode_script(notebook: dict) -> str:
    """The notebook as VS Code's «Export to Python script» writes it: ``# %%`` cells, markdown as comments."""
    parts = []
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code":
            parts.append(f"# %%\n{source}\n")
        else:
            parts.append("# %% [markdown]\n" + "\n".join(f"# {line}" for line in source.splitlines()) + "\n")
    return "\n".join(parts)


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("exportados")
    notebook = json.loads(SOLVED.read_text(encoding="utf-8"))
    jupyter = Path(sys.executable).parent / "jupyter"
    subprocess.run(
        [str(jupyter), "nbconvert", "--to", "script", "--output-dir", str(folder / "nbconvert"), str(SOLVED)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    files = {
        "nbconvert": folder / "nbconvert" / "04_ejercicios.py",
        "colab": folder / "colab" / "04_ejercicios.ipynb",
        "vscode": folder / "vscode" / "04_ejercicios.ipynb",
        "vscode_script": folder / "vscode_script" / "04_ejercicios.py",
    }
    colab = untagged(notebook, {"id": "celda"}, {"colab": {"provenance": []}, "kernelspec": {"name": "python3"}})
    vscode = untagged(notebook, {"vscode": {"languageId": "python"}}, {"language_info": {"name": "python"}})
    for name, content in (
        ("colab", json.dumps(colab)),
        ("vscode", json.dumps(vscode)),
        ("vscode_script", vscode_script(notebook)),
    ):
        files[name].parent.mkdir()
        files[name].write_text(content, encoding="utf-8")
    return files


def test_the_course_cells_are_recognised_without_their_tags():
    notebook = json.loads(SOLVED.read_text(encoding="utf-8"))
    tagged = from_notebook_text(json.dumps(notebook), "04.ipynb")
    bare = from_notebook_text(json.dumps(untagged(notebook, {}, {})), "04.ipynb")
    expected = [SKIP_TAG in c["metadata"].get("tags", []) for c in notebook["cells"] if c["cell_type"] == "code"]
    assert any(expected)
    assert [c.skipped for c in tagged.cells] == expected
    assert [c.skipped for c in bare.cells] == expected
    # A learner's own cell that merely resembles one is run: only the course's code, as it is, is skipped.
    edited = copy.deepcopy(notebook)
    first = next(c for c in edited["cells"] if SKIP_TAG in c["metadata"].get("tags", []))
    first["metadata"] = {}
    first["source"] = "".join(first["source"]) + "\nprint('mío')"
    assert sum(c.skipped for c in from_notebook_text(json.dumps(edited), "04.ipynb").cells) == sum(expected) - 1


@pytest.mark.slow
def test_every_export_of_the_solved_notebook_gets_full_marks_and_nothing_pending(exports):
    names = sorted(exports)
    assert load_submission(exports["nbconvert"]).cells[0].source.count("# In[") > 10  # really nbconvert's script
    results = grade_many([exports[n] for n in names], CourseConfig(seed=11), jobs=2)
    for name, result in zip(names, results, strict=True):
        problems = [(c.id, c.feedback[:160]) for c in result.criteria if not c.passed or c.pending or c.review]
        assert result.score == result.max_score and not problems, (name, problems)
        assert result.flags == [] and result.warnings == [], (name, result.flags, result.warnings)
