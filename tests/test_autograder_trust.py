"""Grades a learner cannot fake: its process holds nothing of the grading and no reference answer.

Each submission below tries one way to reach the seed, the expected answers or lesson3's
reference solution from inside the learner's process. None may gain a point by it: what
it looks for does not exist there (a fresh zygote, not a fork of the judge; lesson3 without
its answers; Landlock hiding their files).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA
from autograder.grading.pipeline import grade_many
from autograder.sandbox.learner_process import protections

pytestmark = pytest.mark.warm_up("grading_server")

SEED = 1_987_654_321
"""Distinctive: no other number of the grading looks like it."""

CORRECT_RESUME = """
def resume_action(cp):
    pending = cp["pendingToolUse"]
    if pending is None:
        return "continue"
    return "rerun" if pending["name"] in {"read_file", "grep", "list_dir", "web_search"} else "is_error"
"""

SEARCH = (
    """
import gc, sys, types

# The seed in two halves, joined only inside comparisons: the search must not find itself.
HIGH, LOW = "1987", "654321"
FOUND = []

def _look(value, where):
    if type(value) is int and value == int(HIGH + LOW):
        FOUND.append(where)
    elif type(value) is str and (HIGH + LOW) in value and "_987_" not in value:
        FOUND.append(where)
    elif type(value) is dict and [value.get(k) for k in ("cpA", "cpB", "cpC")] == ["continue", "rerun", "is_error"]:
        FOUND.append("EXPECTED_ACTION in " + where)
    elif type(value) is str and (ANSWER_LINE_A + ANSWER_LINE_B) in value:
        FOUND.append("resume_plan's text in " + where)

def _frames():
    seen = 0
    for frame in [*sys._current_frames().values(), sys._getframe()]:
        while frame is not None:
            seen += 1
            for name, value in list(frame.f_locals.items()):
                _look(value, f"frame {frame.f_code.co_name}.{name}")
            for name, value in list(frame.f_globals.items()):
                _look(value, f"globals of {frame.f_code.co_name}.{name}")
            frame = frame.f_back
    return seen

# The learner's process loads its own folder, the wire formats and the stub face: any other module of the
# package (the judging, the grading, the course's data with its answers...) is something it must not hold.
LEARNER_SIDE = ("autograder.learner.", "autograder.wire.")
FACE = ("autograder", "autograder.questions", "autograder.learner", "autograder.wire")

def _everything():
    for module in list(sys.modules.values()):
        if module is None:
            continue
        name = getattr(module, "__name__", "?")
        if (name + ".").startswith("autograder.") and not name.startswith(LEARNER_SIDE) and name not in FACE:
            FOUND.append("module " + name)
        for attr, value in list(getattr(module, "__dict__", {}).items()):
            _look(value, f"{name}.{attr}")
    for obj in gc.get_objects():
        kind = type(obj)
        if kind is dict:
            _look(obj, "a dict")
            for value in list(obj.values()):
                _look(value, "a dict value")
        elif kind in (list, tuple, set, frozenset):
            for value in list(obj):
                _look(value, "a " + kind.__name__)
        elif kind is types.FunctionType:
            code = obj.__code__
            if code.co_filename.endswith("lesson3/answers.py"):
                FOUND.append("function " + code.co_filename + ":" + code.co_name)
            judging = ("autograder.judging.process", "autograder.judging.scenarios")
            if obj.__module__ and obj.__module__.startswith(judging):
                FOUND.append("function " + obj.__module__ + "." + obj.__name__)
        elif kind.__name__ in ("ActionCase", "ReconcileCase", "IncidentCase", "Question") and hasattr(obj, "answer"):
            if getattr(obj, "answer", None) is not None:
                FOUND.append("an answered Question")
        elif kind.__name__ in ("ActionCase", "ReconcileCase", "IncidentCase", "Session", "Learner"):
            FOUND.append("grader object " + kind.__name__)

def _answers_module():
    # lesson3's answers: the module is a placeholder, and no line of its file was ever read here.
    import linecache
    answers = sys.modules.get("lesson3.answers")
    if answers is None or getattr(answers, "__file__", None) or getattr(answers, "__spec__", None):
        FOUND.append("a real lesson3.answers")
    for path, entry in list(linecache.cache.items()):
        text = "".join(entry[2]) if len(entry) > 2 else ""
        if str(path).endswith("answers.py") or (ANSWER_LINE_A + ANSWER_LINE_B) in text:
            FOUND.append("the answers' source in linecache")

# Words only the answers' source has (resume_plan's), in two halves for the same reason as the seed.
ANSWER_LINE_A, ANSWER_LINE_B = "reconcile() la vuelve a ejecutar", " y rellena"

gc.unfreeze()  # what the zygote froze before forking is invisible to get_objects() otherwise
_frames()
_everything()
_answers_module()
print("FOUND at load:", FOUND[:5])
print("." * 70_000)  # past the output cap, so the feedback keeps what came before
"""
    + CORRECT_RESUME.replace("def resume_action(cp):", "def _correct(cp):")
    + """
def resume_action(cp):
    _frames()
    if FOUND:
        raise RuntimeError("ENCONTRADO: " + "; ".join(FOUND[:3]))
    return _correct(cp)
"""
)

FALLBACK_RECONCILE = """
def _unchanged(cp):
    return cp
"""


def reconcile_via(trick: str) -> str:
    """A submission whose reconcile is lesson3's reference obtained by ``trick`` (or, failing that, no answer)."""
    body = textwrap.indent(textwrap.dedent(trick).strip(), "    ")
    return (
        CORRECT_RESUME
        + FALLBACK_RECONCILE
        + f"""
def _reference():
{body}

try:
    _found = _reference()
except BaseException as e:
    print("truco fallido:", type(e).__name__, e)
    _found = None

def reconcile(cp):
    if _found is None:
        return _unchanged(cp)
    return _found(cp)
"""
    )


RECONCILE_TRICKS = {
    "agent_default": """
        import lesson3.agent
        return lesson3.agent.run_agent.__kwdefaults__["reconcile"]
    """,
    "agent_kwdefaults": """
        import inspect, lesson3.agent
        return inspect.signature(lesson3.agent.run_agent).parameters["reconcile"].default
    """,
    "crash_strategies": """
        from lesson3.crash import STRATEGIES
        return STRATEGIES["reconcile"]
    """,
    "lab_strategies": """
        from lesson3 import lab
        return lab.LAB_STRATEGIES["reconcile"].reconcile
    """,
    "wrapper": """
        import lesson3
        found = lesson3.reconcile
        if getattr(found, "__wrapped__", None):
            return found.__wrapped__
        if found.__closure__:
            return found.__closure__[0].cell_contents
        return found
    """,
    "inspect_source": """
        import inspect, lesson3.answers as module
        namespace = {"__name__": "lesson3.copia", "__package__": "lesson3"}
        exec(inspect.getsource(module), namespace)
        return namespace["reconcile"]
    """,
    "open_source": """
        import lesson3.tools
        from pathlib import Path
        source = (Path(lesson3.tools.__file__).parent / "answers.py").read_text()
        source = source.replace("from .checkpoint", "from lesson3.checkpoint").replace("from .", "from lesson3.")
        namespace = {"execute_tool": execute_tool}
        exec(source, namespace)
        return namespace["reconcile"]
    """,
    "linecache": """
        import linecache, lesson3.tools
        from pathlib import Path
        path = str(Path(lesson3.tools.__file__).parent / "answers.py")
        source = "".join(linecache.getlines(path))
        namespace = {}
        exec(source.replace("from .", "from lesson3."), namespace)
        return namespace["reconcile"]
    """,
    "spec_from_file": """
        import importlib.util, lesson3.tools
        from pathlib import Path
        path = Path(lesson3.tools.__file__).parent / "answers.py"
        spec = importlib.util.spec_from_file_location("lesson3.reconcile_copia", path)
        module = importlib.util.module_from_spec(spec)
        module.__package__ = "lesson3"
        spec.loader.exec_module(module)
        return module.reconcile
    """,
    "fresh_import": """
        import importlib, sys
        for name in [n for n in sys.modules if n == "lesson3" or n.startswith("lesson3.")]:
            del sys.modules[name]
        return importlib.import_module("lesson3.answers").reconcile
    """,
    "compiled_answers": """
        import importlib.util, marshal, lesson3.tools, types
        from pathlib import Path
        folder = Path(lesson3.tools.__file__).parent / "__pycache__"
        for pyc in folder.glob("answers.*.pyc"):
            module = types.ModuleType("lesson3.copia")
            module.__package__ = "lesson3"
            exec(marshal.loads(pyc.read_bytes()[16:]), module.__dict__)
            return module.reconcile
        return None
    """,
    "disarm_the_watch": """
        import autograder.learner.lesson3_view as watch
        import lesson3
        watch.armed = False
        watch.REFERENCE_NAMES = frozenset()
        return lesson3.reconcile
    """,
    "gc_hunt": """
        import gc
        gc.unfreeze()  # the zygote and lesson3.agent freeze what they imported: get_objects() would skip it
        for obj in gc.get_objects():
            if callable(obj) and getattr(obj, "__name__", "") == "reconcile" and getattr(obj, "__module__", "") in (
                "lesson3.answers", "lesson3.reconciliation", "lesson3"
            ):
                return obj
        return None
    """,
}

LEVEL1_TRICKS = {
    "expected_action": """
        from lesson3.answers import EXPECTED_ACTION
        def resume_action(cp):
            for name, cp_name in (("cpA", None), ("cpB", "read_file"), ("cpC", "send_email")):
                pending = cp["pendingToolUse"]
                if (pending or {}).get("name") == cp_name:
                    return EXPECTED_ACTION[name]
            return "continue"
    """,
    "resume_plan": """
        from lesson3.render import resume_plan
        def resume_action(cp):
            plan = resume_plan(cp)
            return "continue" if plan.startswith("Sin") else "is_error" if "is_error" in plan else "rerun"
    """,
    "format_checkpoint": """
        from lesson3.render import format_checkpoint
        def resume_action(cp):
            plan = format_checkpoint(cp).splitlines()[-1]
            return "continue" if plan.startswith("Sin") else "is_error" if "is_error" in plan else "rerun"
    """,
    "cli_plan": """
        import lesson3.cli
        def resume_action(cp):
            plan = lesson3.cli.resume_plan(cp)
            return "continue" if plan.startswith("Sin") else "is_error" if "is_error" in plan else "rerun"
    """,
    "answers_file": """
        from pathlib import Path
        import re
        import lesson3
        source = (Path(lesson3.__file__).parent / "answers.py").read_text()
        line = next(line for line in source.splitlines() if line.startswith("EXPECTED_ACTION ="))
        first, second, third = re.findall(r'"(\\w+)"', line)[-3:]  # cpA's, cpB's and cpC's, in the lesson's order
        def resume_action(cp):
            pending = cp["pendingToolUse"]
            return first if pending is None else second if pending["name"] == "read_file" else third
    """,
}

QUESTION_TRICKS = {
    "questions_answer": """
        from autograder.questions import QUESTIONS
        respuesta_causa_raiz = QUESTIONS["respuesta_causa_raiz"].answer
        respuesta_id_inventado = QUESTIONS["respuesta_id_inventado"].answer
    """,
    "questions_file": """
        import re
        from pathlib import Path
        import autograder
        text = (Path(autograder.__file__).parent / "course" / "questions.py").read_text()
        answers = dict(re.findall(r'variable="(\\w+)".*?answer="(\\w)"', text, re.S))
        respuesta_causa_raiz = answers["respuesta_causa_raiz"]
        respuesta_id_inventado = answers["respuesta_id_inventado"]
    """,
    "checks_module": """
        from autograder.judging.verdict_help import QUESTIONS
        respuesta_causa_raiz = QUESTIONS["respuesta_causa_raiz"].answer
        respuesta_id_inventado = QUESTIONS["respuesta_id_inventado"].answer
    """,
}

needs_confinement = pytest.mark.skipif(
    not protections().files, reason="without Landlock or a root grader the learner can read any file"
)


def answers_compiled() -> None:
    """A checkout's __pycache__ holds the answers compiled (a learner could unmarshal them): make sure it does here."""
    import importlib.util
    import py_compile

    import lesson3.answers

    compiled = importlib.util.cache_from_source(lesson3.answers.__file__)
    if not Path(compiled).exists():
        py_compile.compile(lesson3.answers.__file__, cfile=compiled)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    answers_compiled()
    folder = tmp_path_factory.mktemp("trucos")
    files = {"busca_semilla.py": SEARCH}
    files.update({f"reconcile_{name}.py": reconcile_via(trick) for name, trick in RECONCILE_TRICKS.items()})
    for name, trick in LEVEL1_TRICKS.items():
        files[f"nivel1_{name}.py"] = textwrap.dedent(trick) + "\ndef reconcile(cp):\n    return cp\n"
    for name, trick in QUESTION_TRICKS.items():
        attempt = textwrap.indent(textwrap.dedent(trick).strip(), "    ")
        files[f"pregunta_{name}.py"] = CORRECT_RESUME + "\ntry:\n" + attempt + "\nexcept Exception:\n    pass\n"
    paths = []
    for name, source in files.items():
        (folder / name).write_text(source, encoding="utf-8")
        paths.append(folder / name)
    return {r.submission: r for r in grade_many(paths, CourseConfig(seed=SEED), jobs=2)}


def by_id(result):
    return {c.id: c for c in result.criteria}


UNCONFINED_NO_ANSWER: dict[str, str] = {}
"""Tricks that only make sense against the sandbox itself, with why they reach nothing in a plain interpreter."""

CONTROL = """
import json, sys, textwrap
from lesson3.answers import EXPECTED_ACTION
from lesson3.exercises import exercise_checkpoint
from autograder.questions import QUESTIONS

family, trick = sys.argv[1], sys.argv[2]
namespace = {"execute_tool": lambda name, input: "salida"}
if family == "reconcile":
    exec("def _reference():\\n" + textwrap.indent(trick, "    "), namespace)
    found = namespace["_reference"]()
    cp = found(exercise_checkpoint("cpC"))
    (block,) = cp["messages"][-1]["content"]
    print(json.dumps(block.get("is_error") is True and cp["pendingToolUse"] is None))
elif family == "level1":
    exec(trick, namespace)
    print(json.dumps(all(namespace["resume_action"](exercise_checkpoint(n)) == a for n, a in EXPECTED_ACTION.items())))
else:
    exec(trick, namespace)
    graded = ("respuesta_causa_raiz", "respuesta_id_inventado")
    print(json.dumps(all(namespace[v] == QUESTIONS[v].answer for v in graded)))
"""


@pytest.mark.parametrize(
    ("family", "name", "trick"),
    [
        *(("reconcile", n, t) for n, t in RECONCILE_TRICKS.items()),
        *(("level1", n, t) for n, t in LEVEL1_TRICKS.items()),
        *(("questions", n, t) for n, t in QUESTION_TRICKS.items()),
    ],
    ids=lambda v: v if isinstance(v, str) and "\n" not in v else "",
)
def test_each_trick_reaches_the_answer_where_nothing_hides_it(family, name, trick):
    # The control: in a plain interpreter (no sandbox, the real lesson3 and autograder) the trick gets the
    # answer, so a trick that fails when graded failed because of the sandbox, not because it names a module
    # or attribute that moved.
    if name in UNCONFINED_NO_ANSWER:
        pytest.skip(UNCONFINED_NO_ANSWER[name])
    answers_compiled()  # what compiled_answers reads, whichever test runs first
    done = subprocess.run(
        [sys.executable, "-c", CONTROL, family, textwrap.dedent(trick).strip()],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.strip() == "true", (name, done.stdout[-300:], done.stderr[-800:])


@needs_confinement
def test_the_learners_process_holds_no_seed_no_expected_answer_and_no_grader_object(graded):
    result = graded["busca_semilla.py"]
    assert result.seed == SEED
    criteria = by_id(result)
    # The search reads frames and code objects: harmless (nothing of lesson3's ran), so graded as it ran.
    for criterion in ("nivel1.hidden", "nivel1.cpA", "nivel1.cpB", "nivel1.cpC"):
        assert criteria[criterion].passed and not criteria[criterion].review, criteria[criterion].feedback
    assert "FOUND at load: []" in result.output, result.output[:500]


@needs_confinement
@pytest.mark.parametrize("name", sorted(RECONCILE_TRICKS))
def test_no_indirection_reaches_the_reference_reconcile(graded, name):
    criteria = by_id(graded[f"reconcile_{name}.py"])
    for criterion in ("nivel2.read_only_rerun", "nivel2.is_error_fallback", "nivel2.tool_result_paired"):
        assert not criteria[criterion].passed, (name, criterion, graded[f"reconcile_{name}.py"].output[:300])


@needs_confinement
@pytest.mark.parametrize("name", sorted(LEVEL1_TRICKS))
def test_no_indirection_reaches_the_expected_actions(graded, name):
    criteria = by_id(graded[f"nivel1_{name}.py"])
    assert not criteria["nivel1.hidden"].passed
    assert not all(criteria[c].passed for c in ("nivel1.cpA", "nivel1.cpB", "nivel1.cpC"))


@needs_confinement
@pytest.mark.parametrize("name", sorted(QUESTION_TRICKS))
def test_the_answers_to_the_questions_are_not_in_the_learners_reach(graded, name):
    result = graded[f"pregunta_{name}.py"]
    assert not any(c.passed for c in result.criteria if c.id in ("nivel2.causa_raiz", "nivel1.esta_en_lo_cierto"))


def test_what_notebook_4_imports_still_works_in_the_sandbox(tmp_path):
    """The import cell of notebook 4, its answer cells and a reconcile built on lesson3's execute_tool."""
    source = (
        textwrap.dedent(
            """
        from autograder import check
        from autograder.questions import QUESTIONS
        from lesson3 import TASK_EMAIL, outbox_messages, reconcile_production, use_workspace
        from lesson3 import lab
        from lesson3.crash import crash_run, fresh_run_dir, resume_run
        from lesson3.exercises import EXERCISE_NAMES, exercise_checkpoint
        from lesson3.practice import attempt, feedback, hint, hints, question_markdown, question_widget
        from lesson3.transcript import checkpoint_summary, conversation_tail
        from lesson3 import execute_tool

        assert exercise_checkpoint("cpB")["pendingToolUse"]["name"] == "read_file"
        respuesta_causa_raiz = "b"
        # The answers are not here: the feedback says it is checked when grading.
        assert feedback(QUESTIONS["respuesta_causa_raiz"], respuesta_causa_raiz) == (
            "Respuesta recibida (b): se califica al entregar."
        )
        check()
        """
        )
        + CORRECT_RESUME
        + textwrap.dedent(
            """
        READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}

        def reconcile(cp):
            pending = cp["pendingToolUse"]
            if pending["name"] in READ_ONLY_TOOLS:
                result = {"type": "tool_result", "tool_use_id": pending["id"],
                          "content": execute_tool(pending["name"], pending["input"])}
            else:
                result = {"type": "tool_result", "tool_use_id": pending["id"],
                          "content": "Estado de ejecución desconocido.", "is_error": True}
            cp["messages"].append({"role": "user", "content": [result]})
            cp["pendingToolUse"] = None
            return cp
        """
        )
    )
    path = tmp_path / "cuaderno4.py"
    path.write_text(source, encoding="utf-8")
    (result,) = grade_many([path], CourseConfig(seed=5, levels=(1, 2)), jobs=1)
    code = [c for c in result.criteria if CRITERIA[c.id].function in ("resume_action", "reconcile")]
    assert result.warnings == [] and code and all(c.passed for c in code), (result.warnings, result.output[:500])


def test_lesson3_demos_that_start_processes_fail_as_processes_do_and_say_why(tmp_path):
    # lesson3's crash harness is the real one: it fails where it starts its process, and the warning says why.
    source = CORRECT_RESUME + textwrap.dedent(
        """
        from lesson3 import create_workspace
        from lesson3.crash import crash_run
        crash_run("tarea", workspace=create_workspace("ws"), checkpoint_path="cp.json", point="after_tool")
        def reconcile(cp):
            return cp
        """
    )
    path = Path(tmp_path / "demo.py")
    path.write_text(source, encoding="utf-8")
    (result,) = grade_many([path], CourseConfig(seed=5), jobs=1)
    assert any("BlockingIOError" in w and "no puede crear procesos" in w for w in result.warnings), result.warnings
    assert by_id(result)["nivel1.hidden"].passed


def test_big_output_is_kept_short_in_the_feedback_and_marked_as_cut(tmp_path):
    from autograder.reporting.report import FEEDBACK_OUTPUT_KB, ReportEntry, feedback_html, feedback_markdown

    path = tmp_path / "habladora.py"
    path.write_text(
        CORRECT_RESUME + "print('<b>inicio</b>')\nprint('x' * (20 * 1024 * 1024))\ndef reconcile(cp):\n    return cp\n",
        encoding="utf-8",
    )
    (result,) = grade_many([path], CourseConfig(seed=5), jobs=1)
    assert by_id(result)["nivel1.hidden"].passed
    assert any("Tu código imprimió más de 64 KB" in w for w in result.warnings), result.warnings
    entry = ReportEntry(result=result, source="habladora.py", name="habladora")
    markdown = feedback_markdown(entry)
    assert "## Lo que imprimió tu código (los primeros 4 KB)" in markdown
    assert "x" * 100 in markdown and "x" * (FEEDBACK_OUTPUT_KB * 1024 + 1) not in markdown
    html = feedback_html(entry)
    assert "&lt;b&gt;inicio&lt;/b&gt;" in html and "<b>inicio</b>" not in html


RECONCILE_WITH = """
def reconcile(cp):
    pending = cp["pendingToolUse"]
    if pending["name"] in {read_only}:
        result = {{"type": "tool_result", "tool_use_id": pending["id"],
                  "content": execute_tool(pending["name"], pending["input"])}}
    else:
        result = {{"type": "tool_result", "tool_use_id": pending["id"],
                  "content": {unknown}, "is_error": True}}
    cp["messages"].append({{"role": "user", "content": [result]}})
    cp["pendingToolUse"] = None
    return cp
"""

# Each way of reaching lesson3's public names that works in the notebook works when graded too.
SPELLINGS = {
    "import_then_attribute": (
        "import lesson3.reconciliation\nimport lesson3.tools\nexecute_tool = lesson3.tools.execute_tool\n",
        "lesson3.reconciliation.READ_ONLY_TOOLS",
        "lesson3.reconciliation.UNKNOWN_STATE_MESSAGE",
    ),
    "import_as": (
        "import lesson3.reconciliation as rec\nimport lesson3.checkpoint as ck\nfrom lesson3 import execute_tool\n"
        "assert ck.CHECKPOINT_VERSION >= 1\n",
        "rec.READ_ONLY_TOOLS",
        "rec.UNKNOWN_STATE_MESSAGE",
    ),
    "package_attribute": (
        "import lesson3\nexecute_tool = lesson3.execute_tool\n",
        "lesson3.READ_ONLY_TOOLS",
        "lesson3.UNKNOWN_STATE_MESSAGE",
    ),
    "conversation_helpers": (
        "import lesson3.conversation\nfrom lesson3.tools import execute_tool\nimport lesson3.loopback\n"
        "assert lesson3.conversation.blocks({'content': [{'type': 'text', 'text': 'x'}]})[0]['text'] == 'x'\n",
        "{'read_file', 'grep', 'list_dir', 'web_search'}",
        "'Estado de ejecución desconocido: ' + str(len(lesson3.conversation.blocks(cp['messages'][-1])))",
    ),
}


def test_every_spelling_of_lesson3s_public_names_works_when_graded(tmp_path):
    paths = []
    for name, (imports, read_only, unknown) in SPELLINGS.items():
        path = tmp_path / f"{name}.py"
        path.write_text(
            imports + CORRECT_RESUME + RECONCILE_WITH.format(read_only=read_only, unknown=unknown), encoding="utf-8"
        )
        paths.append(path)
    for path, result in zip(paths, grade_many(paths, CourseConfig(seed=5, levels=(1, 2)), jobs=2), strict=True):
        code = [c for c in result.criteria if CRITERIA[c.id].function in ("resume_action", "reconcile")]
        failed = [(c.id, c.feedback[:200]) for c in code if not c.passed]
        assert code and not failed and result.warnings == [], (path.name, failed, result.warnings)
