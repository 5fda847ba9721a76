"""Importing is not looping: what the notebooks import is loaded before any graded call, and a call
that runs out of time while importing says so instead of asking about an infinite loop."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest

from autograder.course.config import CourseConfig
from autograder.grading.pipeline import grade_many
from autograder.intake.submission import from_python
from autograder.learner.runner import importing_module
from autograder.learner.zygote import COURSE_IMPORTS, notebook_imports
from autograder.sandbox.learner_process import (
    Failure,
    Learner,
    Limits,
    Reply,
    learner_uid,
    prepare_box,
    running_as_root,
)
from autograder.sandbox.session import describe_failure

pytestmark = pytest.mark.warm_up("learner_zygote")

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "submissions"
GOOD = (DATA / "good.py").read_text(encoding="utf-8")
INFINITE = "¿un bucle infinito?"


# -- the list comes from the notebooks -------------------------------------------------------------------


def test_the_preimported_modules_are_what_the_course_notebooks_import():
    derived = notebook_imports(REPO / "notebooks")
    assert COURSE_IMPORTS == derived, (
        "the notebooks' imports changed: set COURSE_IMPORTS in autograder/learner/zygote.py to "
        f"{derived!r} (autograder.learner.zygote.notebook_imports(Path('notebooks')))"
    )
    assert "anthropic" in derived and "IPython.display" in derived


def _notebook(folder: Path, name: str, *sources: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("import nada"), *map(nbformat.v4.new_code_cell, sources)]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(nbformat.writes(nb), encoding="utf-8")


def test_notebook_imports_reads_every_spelling_and_leaves_out_the_courses_own_packages(tmp_path):
    _notebook(
        tmp_path,
        "a.ipynb",
        "import os, json as j\nfrom pathlib import Path",
        "%matplotlib inline\n!pip list\nfrom IPython.display import Markdown\ndef f():\n    import asyncio",
        "%%writefile mio.py\nimport nunca_importado",
        "from lesson3.crash import crash_run\nimport lesson3\nfrom autograder.questions import QUESTIONS",
        "from . import relativo",
    )
    _notebook(tmp_path / "soluciones", "b.ipynb", "import anthropic.types\nfrom email.message import EmailMessage")
    assert notebook_imports(tmp_path) == (
        "IPython.display",
        "anthropic.types",
        "asyncio",
        "email.message",
        "json",
        "os",
        "pathlib",
    )


# -- which module a call is importing ----------------------------------------------------------------------


PROBE = "import sys\nfrom autograder.learner.runner import importing_module\nSEEN = importing_module(sys._getframe())\n"


def test_the_outermost_import_in_progress_is_named(tmp_path, monkeypatch):
    (tmp_path / "capa_exterior.py").write_text("import capa_interior\n", encoding="utf-8")
    (tmp_path / "capa_interior.py").write_text(
        PROBE,
        encoding="utf-8",
    )
    (tmp_path / "paquete_x").mkdir()
    (tmp_path / "paquete_x" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "paquete_x" / "sub.py").write_text(
        PROBE,
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("capa_exterior", "capa_interior", "paquete_x", "paquete_x.sub"):
        monkeypatch.delitem(sys.modules, name, raising=False)

    import capa_exterior  # noqa: F401 - what matters is what the inner module saw

    assert sys.modules["capa_interior"].SEEN == "capa_exterior"
    from paquete_x import sub

    assert sub.SEEN == "paquete_x.sub"
    assert importing_module(sys._getframe()) is None


# -- in the learner's process -------------------------------------------------------------------------------


def start(source: str, box: Path) -> Learner:
    uid = learner_uid(os.getpid()) if running_as_root() else None
    prepare_box(box, uid)
    learner = Learner(list(from_python(source, "entrega.py").runnable), limits=Limits(), box=box, uid=uid)
    assert isinstance(learner.start(), Reply)
    return learner


LAZY = {
    "the SDK's types": "from anthropic.types import MessageParam, ToolResultBlockParam\n    return 1",
    "the SDK": "import anthropic\n    return anthropic.BadRequestError.__name__ and 1",
    "IPython.display": "from IPython.display import Markdown, display\n    return 1",
    "lesson3 submodules": "from lesson3.conversation import last_tool_use\n    import lesson3.tools\n    return 1",
    "the standard library": "import json, asyncio, pathlib, copy, inspect\n    return 1",
}


@pytest.mark.parametrize("body", LAZY.values(), ids=LAZY.keys())
def test_a_lazy_import_of_what_the_notebooks_import_fits_in_the_first_calls_limit(box, body):
    """The first call of a function that imports it in its body pays nothing: it was imported before the fork."""
    learner = start("def resume_action(cp):\n    " + body, box)
    try:
        reply = learner.call("resume_action", None, timeout=Limits().call_seconds)
        assert isinstance(reply, Reply) and reply.message["status"] == "ok", reply
    finally:
        learner.close()


def test_every_course_import_is_in_the_learners_process_before_its_code_runs(box):
    source = f"import sys\nMISSING = [m for m in {list(COURSE_IMPORTS)!r} if m not in sys.modules]\n"
    learner = start(source + "def resume_action(cp):\n    return MISSING", box)
    try:
        reply = learner.call("resume_action", None, timeout=5)
        assert isinstance(reply, Reply) and reply.message["value"] == [], reply
    finally:
        learner.close()


SLOW_MODULE = "import time\ntime.sleep(30)\nVALUE = 1\n"


def slow_source(call: str, *, module: str = "modulo_lento", content: str = SLOW_MODULE) -> str:
    """A .py that writes a slow module in its folder (as %%writefile would) and imports it inside the function."""
    return (
        "from pathlib import Path\n"
        f"Path({module + '.py'!r}).write_text({content!r})\n"
        f"def resume_action(cp):\n    {call}\n    return 'continue'\n"
    )


SLOW = {
    "import": (slow_source("import modulo_lento"), "modulo_lento"),
    "from import": (slow_source("from modulo_lento import VALUE"), "modulo_lento"),
    "importlib": (slow_source("import importlib; importlib.import_module('modulo_lento')"), "modulo_lento"),
    "nested": (
        slow_source("import envoltorio", module="envoltorio", content="import modulo_lento\n").replace(
            "def resume_action", f"Path('modulo_lento.py').write_text({SLOW_MODULE!r})\ndef resume_action"
        ),
        "envoltorio",
    ),
    "a package": (
        "from pathlib import Path\nPath('paquete_lento').mkdir()\n"
        f"Path('paquete_lento/__init__.py').write_text({SLOW_MODULE!r})\n"
        "def resume_action(cp):\n    import paquete_lento\n    return 'continue'\n",
        "paquete_lento",
    ),
}


@pytest.mark.parametrize(("source", "module"), SLOW.values(), ids=SLOW.keys())
def test_a_call_that_times_out_while_importing_names_the_module(box, source, module):
    learner = start(source, box)
    try:
        reply = learner.call("resume_action", None, timeout=1.0)
    finally:
        learner.close()
    assert isinstance(reply, Failure) and reply.kind == "timeout" and reply.importing == module, reply
    said = describe_failure(Failure("call_timeout", limit=1, importing=reply.importing), "resume_action(cp)", "es")
    assert f"seguía importando el módulo {module}" in said and INFINITE not in said


LOOPS = {
    "a loop": "while True:\n        pass",
    "a loop after an import that finished": "import json\n    while True:\n        pass",
    "a sleep": "import time\n    time.sleep(30)",
}


@pytest.mark.parametrize("body", LOOPS.values(), ids=LOOPS.keys())
def test_a_call_that_times_out_elsewhere_is_not_said_to_be_importing(box, body):
    learner = start(f"def resume_action(cp):\n    {body}", box)
    try:
        reply = learner.call("resume_action", None, timeout=1.0)
    finally:
        learner.close()
    assert isinstance(reply, Failure) and reply.kind == "timeout" and reply.importing is None, reply


@pytest.mark.parametrize(
    ("module", "kept"),
    [
        ("modulo_lento", "modulo_lento"),
        ("paquete.sub", "paquete.sub"),
        ("<b>x</b>", None),
        ("a" * 200, None),
        (["lista"], None),
        (None, None),
    ],
)
def test_only_a_module_name_from_the_child_is_repeated(tmp_path, module, kept):
    """The child's note is only words for the feedback, and a hostile child writes it: anything else is dropped."""
    learner = Learner([], limits=Limits(), box=tmp_path)
    handled = learner._handle({"op": "importing", "id": 3, "module": module}, "result", 3, None, bytearray())
    assert handled is None and learner._importing == kept


def test_a_note_for_another_call_breaks_the_contract(tmp_path):
    learner = Learner([], limits=Limits(), box=tmp_path)
    handled = learner._handle({"op": "importing", "id": 2, "module": "x"}, "result", 3, None, bytearray())
    assert isinstance(handled, Failure) and handled.kind == "protocol"


# -- graded: the points and the words ---------------------------------------------------------------------


def _graded(tmp_path: Path, cases: dict[str, tuple[str, str]]) -> dict[str, Any]:
    paths = []
    for name, (suffix, content) in cases.items():
        path = tmp_path / f"{name}{suffix}"
        path.write_text(content, encoding="utf-8")
        paths.append(path)
    return dict(zip(cases, grade_many(paths, CourseConfig(seed=5, levels=(1, 2)), jobs=2), strict=True))


def lazy(source: str, function: str, imports: str) -> str:
    header = f"def {function}(cp):\n"
    assert header in source
    return source.replace(header, f"{header}    {imports}\n")


def writefile_notebook(module_source: str, body: str) -> str:
    cells = [
        nbformat.v4.new_code_cell(f"%%writefile modulo_lento.py\n{module_source}"),
        nbformat.v4.new_code_cell(GOOD.replace("def resume_action(cp):\n", f"def resume_action(cp):\n    {body}\n")),
    ]
    nb = nbformat.v4.new_notebook()
    nb.cells = cells
    return nbformat.writes(nb)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[str, Any]:
    sdk = "from anthropic.types import MessageParam, ToolResultBlockParam"
    cases = {
        "good": (".py", GOOD),
        "sdk_in_both": (".py", lazy(lazy(GOOD, "resume_action", sdk), "reconcile", sdk + "\n    import anthropic")),
        "ipython_and_lesson3": (
            ".py",
            lazy(
                lazy(GOOD, "resume_action", "from IPython.display import Markdown, display"),
                "reconcile",
                "from lesson3.conversation import last_tool_use\n    from lesson3 import tools\n"
                "    import json, asyncio, pathlib, copy",
            ),
        ),
        "writefile_slow": (".ipynb", writefile_notebook(SLOW_MODULE, "import modulo_lento")),
        "writefile_quick": (".ipynb", writefile_notebook("VALUE = 1\n", "import modulo_lento")),
        "loop": (".py", lazy(GOOD, "resume_action", "while True:\n        pass")),
    }
    return _graded(tmp_path_factory.mktemp("importar"), cases)


def level1(result: Any) -> list[Any]:
    return [c for c in result.criteria if c.id.startswith("nivel1.")]


@pytest.mark.parametrize("name", ["sdk_in_both", "ipython_and_lesson3", "writefile_quick"])
def test_a_function_that_imports_what_jupyter_has_loaded_scores_what_good_scores(graded, name):
    result, good = graded[name], graded["good"]
    assert result.score == good.score == good.max_score, [
        (c.id, c.feedback) for c in result.criteria if c.score < c.max_score
    ]


def test_a_call_that_ran_out_of_time_importing_the_learners_module_says_so(graded):
    feedback = " ".join(c.feedback for c in level1(graded["writefile_slow"]) if not c.passed)
    assert "seguía importando el módulo modulo_lento" in feedback, feedback
    assert INFINITE not in feedback
    assert "fuera de la función" in feedback


def test_an_infinite_loop_is_still_asked_about(graded):
    feedback = " ".join(c.feedback for c in level1(graded["loop"]) if not c.passed)
    assert INFINITE in feedback and "importando" not in feedback, feedback


def test_the_message_exists_in_both_languages_for_both_limits():
    for kind in ("call_timeout", "budget"):
        for lang, words in (("es", "seguía importando el módulo lento"), ("en", "still importing the module lento")):
            said = describe_failure(Failure(kind, limit=1, importing="lento"), "resume_action(cp)", lang)
            assert words in said and "lento" in said
