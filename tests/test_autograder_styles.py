"""Correct code in every legitimate style gets full marks: notebooks run as in Jupyter, a .py as its notebook.

Each submission here is a correct answer written the way learners really write them
(IPython magics, display(), an nbconvert export with demo code, __file__, a latin-1
source, a slow but honest function); failures that are not the answer's are reported
as warnings, never as lost points.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA
from autograder.grading.pipeline import grade_many
from autograder.sandbox.learner_process import protections
from autograder.wire.limits import Limits

pytestmark = pytest.mark.warm_up("grading_server")

RESUME = """
def resume_action(cp):
    pending = cp["pendingToolUse"]
    if pending is None:
        return "continue"
    return "rerun" if pending["name"] in READ_ONLY_TOOLS else "is_error"
"""

RECONCILE = """
def reconcile(cp):
    pending = cp["pendingToolUse"]
    if pending["name"] in READ_ONLY_TOOLS:
        content = execute_tool(pending["name"], pending["input"])
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": content}
    else:
        result = {"type": "tool_result", "tool_use_id": pending["id"],
                  "content": "Estado de ejecución desconocido.", "is_error": True}
    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp
"""

PENDING = '    pending = cp["pendingToolUse"]'
TOOLS = 'READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}\n'


def notebook(*cells: str) -> str:
    return nbformat.writes(new_notebook(cells=[new_code_cell(textwrap.dedent(c).strip("\n")) for c in cells]))


SUBMISSIONS: dict[str, str | bytes] = {
    "jupyter_magics.ipynb": notebook(
        "%matplotlib inline\n%load_ext autoreload\n%pip install requests\n!ls -la\narchivos = !ls",
        "%%writefile herramientas.py\n" + TOOLS,
        "from herramientas import READ_ONLY_TOOLS\n%time total = len(READ_ONLY_TOOLS)",
        "display(READ_ONLY_TOOLS)\nshell = get_ipython()\nassert shell is not None",
        RESUME,
        RECONCILE,
        "%%bash\necho hola",
        "print('.' * 70_000)  # past the output cap: what was printed before it is in the feedback",
    ),
    "exportado_nbconvert.py": "#!/usr/bin/env python\n# coding: utf-8\n\n# In[1]:\n\n\n"
    + TOOLS
    + "get_ipython().run_line_magic('time', 'x = 1')\n\n\n# In[2]:\n\n\n"
    + RESUME
    + "\n\n# In[3]:\n\n\n"
    + RECONCILE
    + "\n\n# In[4]:\n\n\nfrom lesson3.crash import crash_run\ncrash_run('demo')\ndisplay('nunca')\n",
    "celdas_percent.py": "# %%\n" + TOOLS + "# %%\n" + RESUME + "# %%\nraise ValueError('demo')\n# %%\n" + RECONCILE,
    "usa_file.py": "from pathlib import Path\nNOMBRE = Path(__file__).name\nassert NOMBRE == 'usa_file.py'\n"
    + TOOLS
    + RESUME
    + RECONCILE,
    "latin1.py": ("# -*- coding: latin-1 -*-\nSALUDO = 'Hola, José: ¿qué tal?'\n" + TOOLS + RESUME + RECONCILE).encode(
        "latin-1"
    ),
    "demo_que_falla.py": TOOLS
    + "print(variable_que_no_existe)\n"
    + RESUME
    + "import subprocess\nsubprocess.run(['ls'])\n"
    + RECONCILE,
    "lenta_pero_honesta.py": "import time\n"
    + TOOLS
    + RESUME.replace('    pending = cp["pendingToolUse"]', '    time.sleep(0.2)\n    pending = cp["pendingToolUse"]')
    + RECONCILE.replace(
        '    pending = cp["pendingToolUse"]', '    time.sleep(0.2)\n    pending = cp["pendingToolUse"]'
    ),
    "patologico.ipynb": notebook("\n".join(["!a"] * 20000), TOOLS + RESUME, RECONCILE),
}

WARNINGS = {
    "jupyter_magics.ipynb": ["Tu código imprimió más de 64 KB"],
    # crash_run's keyword arguments, as in Jupyter
    "exportado_nbconvert.py": ["La celda 4 («from lesson3.crash import crash_run») lanzó TypeError"],
    "celdas_percent.py": ["La celda 3 («raise ValueError('demo')») lanzó ValueError en la línea 11"],
    "usa_file.py": [],
    "latin1.py": [],
    "demo_que_falla.py": ["La instrucción de la línea 2 lanzó NameError", "La instrucción de la línea 10 lanzó"],
    "lenta_pero_honesta.py": [],
    "patologico.ipynb": ["La celda 1 («!a») tardó demasiado y se interrumpió"],
}


SLOW = {"lenta_pero_honesta.py", "patologico.ipynb"}
"""Seconds each (0.2 s a call; a cell cut at the load limit): graded apart, outside the inner loop."""


def _grade(folder: Path, names: list[str]) -> dict[str, Any]:
    paths = []
    for name in names:
        path = folder / name
        content = SUBMISSIONS[name]
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        paths.append(path)
    return {r.submission: r for r in grade_many(paths, CourseConfig(seed=7, levels=(1, 2)), jobs=2)}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return _grade(tmp_path_factory.mktemp("estilos"), [n for n in SUBMISSIONS if n not in SLOW])


@pytest.fixture(scope="module")
def graded_slow(tmp_path_factory):
    return _grade(tmp_path_factory.mktemp("estilos-lentos"), sorted(SLOW))


def _result(request: pytest.FixtureRequest, name: str) -> Any:
    return request.getfixturevalue("graded_slow" if name in SLOW else "graded")[name]


def _params(names: Any) -> list[Any]:
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(names)]


def _graded_code(criterion_id: str) -> bool:
    """The criteria these samples answer: their functions (the multiple-choice answers are not in them)."""
    return CRITERIA[criterion_id].function in ("resume_action", "reconcile")


@pytest.mark.parametrize("name", _params(SUBMISSIONS))
def test_correct_code_in_a_legitimate_style_gets_full_marks(request, name):
    result = _result(request, name)
    assert result.error is None, result.error
    failed = {c.id: c.feedback for c in result.criteria if not c.passed and _graded_code(c.id)}
    assert not failed and any(_graded_code(c.id) for c in result.criteria), failed


@pytest.mark.parametrize("name", _params(WARNINGS))
def test_what_did_not_run_is_reported_and_nothing_else(request, name):
    warnings = _result(request, name).warnings
    assert len(warnings) == len(WARNINGS[name]), warnings
    for expected, warning in zip(WARNINGS[name], warnings, strict=True):
        assert warning.startswith(expected), warning


def test_shell_escapes_and_package_installs_say_they_do_not_run(graded):
    output = graded["jupyter_magics.ipynb"].output
    assert "[%pip: no se ejecuta al corregir]" in output
    assert "[no se ejecuta al corregir: ls -la]" in output
    assert "[%bash: no se ejecuta al corregir]" in output


def test_a_call_past_its_limit_is_reported_with_the_limit_not_what_was_left(tmp_path):
    path = tmp_path / "bucle.py"
    path.write_text(TOOLS + "def resume_action(cp):\n    while True:\n        pass\n" + RECONCILE, encoding="utf-8")
    # Half a second a call, as test_autograder_isolation's FAST limits: the loop costs that, not 1 s.
    (result,) = grade_many([path], CourseConfig(seed=7, levels=(1, 2), limits=Limits(call_seconds=0.5)), jobs=1)
    feedback = {c.id: c.feedback for c in result.criteria}
    assert "no terminó en 0,5 s, el límite de cada llamada" in feedback["nivel1.cpA"]
    assert all(c.passed for c in result.criteria if c.id.startswith("nivel2.") and _graded_code(c.id))


@pytest.mark.skipif(not protections().seccomp, reason="threads are allowed only where seccomp stops processes")
def test_an_async_reconcile_may_run_execute_tool_in_a_thread(tmp_path):
    source = (
        TOOLS
        + RESUME
        + textwrap.dedent(
            """
        import asyncio

        async def reconcile(cp):
            pending = cp["pendingToolUse"]
            if pending["name"] in READ_ONLY_TOOLS:
                content = await asyncio.to_thread(execute_tool, pending["name"], pending["input"])
                result = {"type": "tool_result", "tool_use_id": pending["id"], "content": content}
            else:
                result = {"type": "tool_result", "tool_use_id": pending["id"],
                          "content": "Estado de ejecución desconocido.", "is_error": True}
            cp["messages"].append({"role": "user", "content": [result]})
            cp["pendingToolUse"] = None
            return cp
        """
        )
    )
    path = tmp_path / "hilos.py"
    path.write_text(source, encoding="utf-8")
    (result,) = grade_many([path], CourseConfig(seed=7, levels=(1, 2)), jobs=1)
    failed = {c.id: c.feedback for c in result.criteria if not c.passed and _graded_code(c.id)}
    assert not failed, failed


def test_a_tool_result_followed_by_text_scores_the_full_maximum():
    """The API takes a user message that starts with the tool_result and goes on with text; so does the grader.

    The sample also splits its is_error explanation in two text blocks, cut between two words.
    """
    sample = Path(__file__).parent / "data" / "submissions" / "tool_result_then_text.py"
    (result,) = grade_many([sample], CourseConfig(seed=7), jobs=1)
    assert result.error is None, result.error
    assert result.score == result.max_score > 0, {c.id: c.feedback for c in result.criteria if not c.passed}
    assert all(c.passed for c in result.criteria)
