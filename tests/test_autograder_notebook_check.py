"""check() in the notebook: the notebook's definitions, graded in the sandbox, shown as a table."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from ipython_cells import run_cells
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

from autograder import notebook
from autograder.course import criteria
from autograder.course.criteria import CRITERIA, required_ids
from autograder.notebook import CheckResult, check, extract_definitions, pista, render_text
from autograder.questions import QUESTIONS

CRITERIA_IDS = required_ids()

pytestmark = pytest.mark.warm_up("grading_server")

CELLS = [
    "import lesson3 as l3\nfrom lesson3.tools import execute_tool\nfrom lesson3.exercises import exercise_checkpoint",
    'READ_ONLY_TOOLS = frozenset({"read_file", "grep", "list_dir", "web_search"})\nHIGH = "is_error"',
    "def es_de_solo_lectura(name):\n    return name in READ_ONLY_TOOLS",
    "def resume_action(cp):\n"
    "    pending = cp['pendingToolUse']\n"
    "    if pending is None:\n"
    "        return 'continue'\n"
    "    return 'rerun' if es_de_solo_lectura(pending['name']) else HIGH",
    "def reconcile(cp, *, mensaje=l3.UNKNOWN_STATE_MESSAGE):\n"
    "    pending = cp['pendingToolUse']\n"
    "    if es_de_solo_lectura(pending['name']):\n"
    "        result = {'type': 'tool_result', 'tool_use_id': pending['id'],\n"
    "                  'content': execute_tool(pending['name'], pending['input'])}\n"
    "    else:\n"
    "        result = {'type': 'tool_result', 'tool_use_id': pending['id'], 'content': mensaje, 'is_error': True}\n"
    "    cp['messages'].append({'role': 'user', 'content': [result]})\n"
    "    cp['pendingToolUse'] = None\n"
    "    return cp",
    "respuesta_caida_o_falla = 'b'\nrespuesta_causa_raiz = 'c'\nrespuesta_id_inventado = 'd'\n"
    "razon_cpA, razon_cpB, razon_cpC = 'b', 'c', 'a'\n"
    "resumen = resume_action(exercise_checkpoint('cpA'))",
]

RESUME_PATH = [
    "import json\nfrom pathlib import Path\nfrom lesson3 import CHECKPOINT_VERSION, new_state",
    "def my_load_checkpoint(path):\n"
    "    path = Path(path)\n"
    "    if not path.exists():\n"
    "        return None\n"
    "    raw = json.loads(path.read_text(encoding='utf-8'))\n"
    "    if raw['version'] != CHECKPOINT_VERSION:\n"
    "        raise ValueError(f'Versión de punto de control incompatible: el archivo es v{raw[\"version\"]}, '\n"
    "                         f'el código es v{CHECKPOINT_VERSION}')\n"
    "    return raw",
    "def start_state(task, path, reconcile):\n"
    "    cp = my_load_checkpoint(path)\n"
    "    if cp:\n"
    "        return reconcile(cp) if cp['pendingToolUse'] else cp\n"
    "    return new_state(task)",
]
CELLS = [*RESUME_PATH, *CELLS]
LEVEL1 = [c for c in CRITERIA_IDS if CRITERIA[c].level == 1]
LEVEL2 = [c for c in CRITERIA_IDS if CRITERIA[c].level == 2]

STUBS = [
    "def my_load_checkpoint(path):\n    # TU CÓDIGO AQUÍ\n    raise NotImplementedError",
    "def start_state(task, path, reconcile):\n    # TU CÓDIGO AQUÍ\n    raise NotImplementedError",
    "def resume_action(cp):\n    # TU CÓDIGO AQUÍ\n    raise NotImplementedError",
    "def reconcile(cp):\n    # TU CÓDIGO AQUÍ\n    raise NotImplementedError",
]


def test_extract_definitions_rebuilds_what_the_functions_need():
    source = extract_definitions(run_cells(CELLS, history=False))
    assert "import lesson3 as l3" in source
    assert "from lesson3.tools import execute_tool" in source
    assert "READ_ONLY_TOOLS = frozenset(" in source and "HIGH = 'is_error'" in source
    assert "def es_de_solo_lectura(name):" in source
    assert "respuesta_causa_raiz = 'c'" in source
    # What the functions do not use is left behind (exercise_checkpoint, the demo's result).
    assert "exercise_checkpoint" not in source and "resumen" not in source
    rebuilt: dict = {}
    exec(compile(source, "<rebuilt>", "exec"), rebuilt)
    assert rebuilt["resume_action"]({"pendingToolUse": {"name": "grep"}}) == "rerun"


def test_check_grades_the_notebooks_definitions_and_prints_a_deterministic_table(capsys):
    ns = run_cells(CELLS, history=False)
    first = check(namespace=ns)
    text_1 = capsys.readouterr().out
    second = check(namespace=ns)
    text_2 = capsys.readouterr().out
    assert isinstance(first, CheckResult)
    assert [c.id for c in first.criteria] == list(CRITERIA_IDS)
    assert all(c.passed for c in first.criteria), [c.feedback for c in first.criteria if not c.passed]
    assert text_1 == text_2 == render_text(second) + "\n"
    total = sum(c.points for c in CRITERIA.values())
    assert text_1.startswith(f"Autocorrector · Lección 3 — {total:g}/{total:g} puntos")
    assert repr(first) == f"<check: {total:g}/{total:g} puntos>"


def test_checks_result_is_shown_in_its_language(capsys):
    result = check(namespace=run_cells(STUBS, history=False), level=1, lang="en")
    assert capsys.readouterr().out.startswith("Autograder")
    assert repr(result).startswith("<check: 0/") and repr(result).endswith(" points>")


def test_stubs_show_a_friendly_not_implemented_row(capsys):
    result = check(namespace=run_cells(STUBS, history=False))
    out = capsys.readouterr().out
    assert result.score == 0
    questions = [c for c in result.criteria if CRITERIA[c.id].function in QUESTIONS]
    functions = [c for c in result.criteria if c not in questions]
    assert functions and all("Todavía no implementado" in c.feedback for c in functions)
    assert questions and all("No definiste" in c.feedback and "vale 0" in c.feedback for c in questions)
    assert "Traceback" not in out and out.count("Pista:") == len(questions)  # no hint for a stub


def test_a_level_selects_its_criteria(capsys):
    result = check(1, namespace=run_cells(CELLS, history=False))
    assert [c.id for c in result.criteria] == [c.id for c in CRITERIA.values() if c.level == 1]
    with pytest.raises(ValueError, match="nivel"):
        check(3, namespace={})


def test_failures_come_with_a_hint_in_the_table(capsys):
    cells = [*CELLS[:4], "def reconcile(cp):\n    return cp"]
    result = check(2, namespace=run_cells(cells, history=False))
    out = capsys.readouterr().out
    failed = {c.id for c in result.criteria if not c.passed}
    # Doing nothing runs no tool, but answers nothing either: no reconcile criterion holds
    # (and these cells leave the answers undefined).
    assert failed == {c.id for c in CRITERIA.values() if c.level == 2}
    assert "Pista: " + criteria.hint("nivel2.read_only_rerun")[:30] in out


def test_level_0_grades_notebook_1s_resume_path_alone(capsys):
    """Notebook 01 defines only my_load_checkpoint and start_state: check(0) grades exactly those."""
    result = check(0, namespace=run_cells(RESUME_PATH, history=False))
    assert [c.id for c in result.criteria] == [c for c in CRITERIA_IDS if c.startswith("nivel0.")]
    assert all(c.passed for c in result.criteria), [c.feedback for c in result.criteria if not c.passed]
    broken = [*RESUME_PATH[:2], "def start_state(task, path, reconcile):\n    return my_load_checkpoint(path)"]
    result = check(0, namespace=run_cells(broken, history=False))
    assert not {c.id: c for c in result.criteria}["nivel0.fresh_start"].passed


def test_missing_functions_are_named_once_above_the_table(capsys):
    result = check(1, namespace=run_cells(RESUME_PATH, history=False))
    # Nothing the level grades is defined (only level 0's functions): one message names them all, instead of one
    # per criterion. A namespace with no exercise at all gets check()'s banner (test_check_outside_exercises.py).
    assert result.not_run and "`resume_action`" in result.error and "`razon_cpA`" in result.error
    shown = capsys.readouterr().out
    assert shown.count("`resume_action`") == 1, shown
    assert shown.count("No calificado: ver arriba.") == len(result.criteria)


def test_pista(capsys, monkeypatch):
    monkeypatch.setattr(notebook, "_hints_seen", {})
    pista("nivel1.hidden")
    assert "READ_ONLY_TOOLS" not in capsys.readouterr().out  # the first hint only points at the rule
    pista(1)
    assert capsys.readouterr().out.startswith(f"{CRITERIA_IDS[0]} (1 de ")
    pista("nivel9")
    assert "no hay un criterio" in capsys.readouterr().out
    pista("nivel1.hidden", nivel=0)
    assert "Prueba con nivel=1" in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_wrong_argument_to_check_or_pista_is_said_in_their_language(lang, capsys):
    said = {
        "es": ("el nivel tiene que ser 0, 1, 2 o nada", "no hay un criterio «nivel9»", "el nivel es un número desde 1"),
        "en": (
            "the level must be 0, 1, 2 or nothing",
            "there is no criterion «nivel9»",
            "the level is a number from 1",
        ),
    }[lang]
    with pytest.raises(ValueError) as bad_level:
        check(3, namespace={}, lang=lang)
    capsys.readouterr()
    # pista() says what is wrong and a way forward in the cell's output, no traceback.
    pista("nivel9", lang=lang)
    no_criterion = capsys.readouterr().out
    pista("nivel1.hidden", nivel=0, lang=lang)
    bad_hint = capsys.readouterr().out
    got = (str(bad_level.value), no_criterion, bad_hint)
    assert all(part in message for part, message in zip(said, got, strict=True)), got
    assert "3" in got[0] and "0" in got[2]  # what was passed is named
    pista("nivel1.hiden", lang=lang)
    assert "«nivel1.hidden»" in capsys.readouterr().out  # the criterion meant, by its spelling


def test_each_pista_call_says_more_and_stops_at_the_last(capsys, monkeypatch):
    monkeypatch.setattr(notebook, "_hints_seen", {})
    levels = criteria.hints("nivel1.hidden")
    shown = []
    for _ in range(len(levels) + 1):
        pista("nivel1.hidden")
        shown.append(capsys.readouterr().out.strip())
    assert shown == [
        f"nivel1.hidden ({min(i, len(levels))} de {len(levels)}): {levels[min(i, len(levels)) - 1]}"
        for i in range(1, len(levels) + 2)
    ]
    pista("nivel1.hidden", nivel=1)
    assert capsys.readouterr().out.strip().endswith(levels[0])
    import autograder

    autograder.pista("nivel2.is_error_fallback", nivel=3)
    assert capsys.readouterr().out.strip().endswith(criteria.hint("nivel2.is_error_fallback", level=3))


def test_html_rendering_colours_rows_and_escapes_feedback():
    ns = run_cells([*CELLS[:4], "def reconcile(cp):\n    return '<b>no</b>'"], history=False)
    result = notebook.check(2, namespace=ns)
    html = notebook.render_html(result)
    assert "#fce8e6" in html and "&lt;b&gt;no&lt;/b&gt;" in html and "<b>no</b>" not in html


@pytest.mark.slow
def test_check_in_a_real_kernel_displays_html_with_the_same_plain_text(tmp_path, capsys):
    nb = new_notebook(
        cells=[new_code_cell(source) for source in CELLS]
        + [new_code_cell("from autograder import check\ncheck()"), new_code_cell("r = check(1)\nr.score")]
    )
    NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    check_cell, level_cell = nb.cells[-2], nb.cells[-1]
    (display,) = check_cell.outputs  # the table, once: the returned CheckResult displays nothing more
    assert display.output_type == "display_data"
    assert "<table" in display.data["text/html"]
    expected = check(namespace=run_cells(CELLS, history=False))
    capsys.readouterr()
    assert display.data["text/plain"] == render_text(expected)
    assert [o.output_type for o in level_cell.outputs] == ["display_data", "execute_result"]
    level1 = sum(c.points for c in CRITERIA.values() if c.level == 1)
    assert level_cell.outputs[-1].data["text/plain"] == f"{level1:.1f}"
    nbformat.validate(nb)


def test_the_learners_face_does_nothing_and_holds_no_answer(monkeypatch):
    import json
    import sys

    import autograder.questions
    from autograder.learner import face
    from autograder.sandbox.learner_zygote import public_questions

    real, real_questions = sys.modules["autograder"], sys.modules["autograder.questions"]
    monkeypatch.setitem(sys.modules, "autograder", real)  # put back when the test ends
    monkeypatch.setitem(sys.modules, "autograder.questions", real_questions)
    face.install(json.loads(public_questions()))
    import autograder as seen
    from autograder import check, pista
    from autograder.learner import runner
    from autograder.questions import QUESTIONS

    assert seen is not real and check() is None and pista("nivel1.cpA") is None
    assert set(QUESTIONS) == set(real_questions.QUESTIONS)
    assert all(q.answer is None and not q.explanation for q in QUESTIONS.values())
    assert seen.learner.runner is runner  # the learner side's own modules stay where they are
    assert real.check is not check and not hasattr(real, "_IN_SANDBOX")  # nothing written into the face


def test_notebook_sample_file_exists():
    assert (Path(__file__).parent / "data" / "submissions" / "good_notebook.ipynb").is_file()


def test_aliases_lambdas_and_decorated_functions_are_rebuilt():
    cells = [
        "import functools",
        "def mi_accion(cp):\n    return 'continue' if cp['pendingToolUse'] is None else 'is_error'",
        "resume_action = mi_accion",
        "@functools.lru_cache(maxsize=None)\ndef tabla():\n    return {'read_file': 'rerun'}",
        "reconcile = lambda cp: dict(cp, extra=len(tabla()))",
    ]
    rebuilt: dict = {}
    exec(compile(extract_definitions(run_cells(cells, history=False)), "<rebuilt>", "exec"), rebuilt)
    assert rebuilt["resume_action"]({"pendingToolUse": None}) == "continue"
    assert rebuilt["reconcile"]({"a": 1}) == {"a": 1, "extra": 1}


# -- what check() says when something changed, hung, or was said already -----------------------------


READS_DIRECTLY = (
    "def resume_action(cp):\n    p = cp['pendingToolUse']\n"
    "    return 'continue' if p is None else ('rerun' if p['name'] in READ_ONLY_TOOLS else 'is_error')"
)
READS_THROUGH_A_HELPER = (
    "def solo_lectura(name):\n    return name in READ_ONLY_TOOLS\n"
    "def resume_action(cp):\n    p = cp['pendingToolUse']\n"
    "    return 'continue' if p is None else ('rerun' if solo_lectura(p['name']) else 'is_error')"
)
ROT = "READ_ONLY_TOOLS = {'read_file', 'grep', 'list_dir', 'web_search'}"


@pytest.mark.parametrize("function", [READS_DIRECTLY, READS_THROUGH_A_HELPER], ids=["direct", "helper"])
@pytest.mark.parametrize("rebinding", ["READ_ONLY_TOOLS = set()", "READ_ONLY_TOOLS = {'read_file'}"])
def test_a_rebound_global_is_named_with_its_cell(function, rebinding, monkeypatch, capsys):
    monkeypatch.setattr(notebook, "_passed_with", {})
    ns = run_cells([ROT, function])
    first = check(1, namespace=ns)
    assert {c.id: c.passed for c in first.criteria}["nivel1.hidden"] and not first.warnings
    exec(rebinding, ns)
    ns["In"] += ["print('otra celda')", rebinding, "x = 1"]  # the rebinding ran as cell [4]
    second = check(1, namespace=ns)
    out = capsys.readouterr().out
    assert not {c.id: c.passed for c in second.criteria}["nivel1.hidden"]
    (warning,) = [w for w in second.warnings if "READ_ONLY_TOOLS" in w]
    assert warning.startswith("READ_ONLY_TOOLS cambió en la celda [4] desde que nivel1.")
    assert "READ_ONLY_TOOLS cambió en la celda [4]" in out  # shown in the table, not only returned


def test_an_unchanged_global_or_a_first_failure_warns_nothing(monkeypatch, capsys):
    monkeypatch.setattr(notebook, "_passed_with", {})
    ns = run_cells(["READ_ONLY_TOOLS = set()", READS_DIRECTLY])
    assert not check(1, namespace=ns).warnings  # never passed: nothing to compare with
    ns = run_cells([ROT, READS_DIRECTLY])
    check(1, namespace=ns)
    assert not check(1, namespace=ns).warnings  # passed, and nothing changed
    capsys.readouterr()


def test_without_in_the_warning_names_no_cell(monkeypatch, capsys):
    monkeypatch.setattr(notebook, "_passed_with", {})
    ns = run_cells([ROT, READS_DIRECTLY], history=False)
    check(1, namespace=ns)
    ns["READ_ONLY_TOOLS"] = set()
    warnings = check(1, namespace=ns).warnings
    capsys.readouterr()
    assert any(w.startswith("READ_ONLY_TOOLS cambió desde que nivel1.") for w in warnings), warnings


@pytest.mark.parametrize("wrong", ["a", "b", "d"])
def test_a_wrong_answer_shows_its_hint_once(wrong, capsys):
    ns = run_cells([f"respuesta_causa_raiz = {wrong!r}"], history=False)
    result = check(2, namespace=ns)
    out = capsys.readouterr().out
    hint = QUESTIONS["respuesta_causa_raiz"].hint["es"]
    assert " ".join(out.split()).count(hint) == 1
    assert notebook.render_html(result).count(hint) == 1


@pytest.mark.parametrize(
    "body", ["    while True:\n        pass", "    import time\n    while cp:\n        time.sleep(0.01)"]
)
def test_a_hang_gets_the_hang_hint_not_the_topical_one(body, capsys):
    result = check(1, namespace=run_cells([f"def resume_action(cp):\n{body}"], history=False))
    out = " ".join(capsys.readouterr().out.split())
    hung = [c for c in result.criteria if CRITERIA[c.id].function == "resume_action"]
    assert hung and all(notebook.hung(c.feedback, "es") for c in hung)
    assert "se colgó" in out
    for c in hung:
        for topical in criteria.hints(c.id):
            assert topical not in out


def test_hung_recognises_every_hang_message_and_nothing_else():
    from autograder.course.catalogue import text

    for key in ("fail.timeout", "fail.call_timeout", "fail.budget", "fail.cpu"):
        for lang in ("es", "en"):
            said = text(key, lang, what="resume_action(cp)", limit=1.5)
            assert notebook.hung(said, lang), (key, lang)
    assert not notebook.hung(text("call.missing", "es", fn="resume_action"), "es")
    assert not notebook.hung("resume_action(cp) devolvió 'x'", "es")


def test_html_cells_are_left_aligned_and_code_is_code():
    ns = run_cells([*CELLS[:4], "def reconcile(cp):\n    return '<b>no</b>'"], history=False)
    result = notebook.check(2, namespace=ns)
    page = notebook.render_html(result)
    cells = re.findall(r"<t[dh]( [^>]*)?>", page)
    assert cells and all("text-align:left" in (attrs or "") for attrs in cells)
    assert f'class="{notebook.TABLE_CLASS}"' in page and "width:100%" in page
    assert "`" not in page  # backticks become <code>
    with_code = next(c for c in result.criteria if "`" in c.feedback or "`" in (notebook._hint(c, "es") or ""))
    assert with_code
    assert "<code>" in page


def test_a_functions_own_parameter_is_not_a_global_it_reads():
    # The notebook's test cell bound a global «cp»; reconcile's «cp» is its parameter, and its locals are its own.
    ns = run_cells(
        [
            "cp = {'pendingToolUse': None}\nresult = 0\nLIMIT = 3\nTOOLS = {'read_file'}",
            "def helper(n):\n    return n < LIMIT\n",
            "def reconcile(cp, tools=TOOLS):\n    result = [x for x in cp if helper(len(x))]\n    return result\n",
        ],
        history=False,
    )
    read = notebook.globals_read(ns, "reconcile")
    assert set(read) == {"LIMIT", "TOOLS"}  # through helper, and the default; never cp or result
    source = notebook.extract_definitions(ns)
    assert "TOOLS = {'read_file'}" in source and "cp = {" not in source
