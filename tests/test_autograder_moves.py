"""The class's misconception map: which of the lesson's moves each learner's reconcile made, per tool kind.

From the observation (judging.moves) through results.json (wire.results) to resumen.html
(reporting.misconceptions), and through `autograder merge`. The stand-ins run in-process
through test_autograder_checks' FakeCaller; one test grades written submissions for real.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import test_autograder_checks as checks
import test_autograder_review as reviewing
import test_autograder_shards as sharding

from autograder.classrun import run as class_run
from autograder.course.config import CourseConfig
from autograder.judging import scenarios
from autograder.judging.moves import case_move, reconcile_moves
from autograder.judging.observe import observe_reconciles
from autograder.judging.process import evaluate_criteria
from autograder.reporting.misconceptions import misconception_map
from autograder.reporting.report import ReportEntry, feedback_names, summary_html, write_reports
from autograder.wire.results import MOVES, CriterionResult, SubmissionResult, valid_moves
from lesson3.reconciliation import READ_ONLY_TOOLS, UNKNOWN_STATE_MESSAGE

SEED = 7


def _answer(cp: dict, content: Any, **extra: Any) -> dict:
    block = {"type": "tool_result", "tool_use_id": cp["pendingToolUse"]["id"], "content": content, **extra}
    cp["messages"].append({"role": "user", "content": [block]})
    cp["pendingToolUse"] = None
    return cp


# -- partial reconciles: fn(cp, execute_tool), each one way of getting the lesson wrong (or right) -------------


def rerun_all(cp, execute_tool):
    pending = cp["pendingToolUse"]
    return _answer(cp, execute_tool(pending["name"], pending["input"]))


def is_error_all(cp, execute_tool):
    return _answer(cp, UNKNOWN_STATE_MESSAGE, is_error=True)


def delete_message(cp, execute_tool):
    cp["messages"].pop()
    cp["pendingToolUse"] = None
    return cp


def delete_block(cp, execute_tool):
    """Only the tool_use block goes; the assistant's text stays."""
    last = cp["messages"][-1]
    last["content"] = [b for b in last["content"] if b.get("type") != "tool_use"] or [{"type": "text", "text": "…"}]
    cp["pendingToolUse"] = None
    return cp


def leave_it(cp, execute_tool):
    return cp


def leave_it_with_a_note(cp, execute_tool):
    cp["messages"].append({"role": "user", "content": [{"type": "text", "text": "se reanudó tras una caída"}]})
    cp["pendingToolUse"] = None
    return cp


def invent_success(cp, execute_tool):
    return _answer(cp, "ok, hecho")


def is_error_as_a_string(cp, execute_tool):
    return _answer(cp, UNKNOWN_STATE_MESSAGE, is_error="true")


def returns_nothing(cp, execute_tool):
    return None


def not_written(cp, execute_tool):
    raise NotImplementedError


def rerun_then_delete(cp, execute_tool):
    pending = cp["pendingToolUse"]
    execute_tool(pending["name"], pending["input"])
    return delete_message(cp, execute_tool)


def rerun_then_is_error(cp, execute_tool):
    pending = cp["pendingToolUse"]
    execute_tool(pending["name"], pending["input"])
    return is_error_all(cp, execute_tool)


def only_send_email_is_dangerous(cp, execute_tool):
    """Routes by a list of dangerous tools instead of a list of safe ones: unseen high-impact tools re-run."""
    if cp["pendingToolUse"]["name"] == "send_email":
        return is_error_all(cp, execute_tool)
    return rerun_all(cp, execute_tool)


def rerun_read_only_delete_the_rest(cp, execute_tool):
    if cp["pendingToolUse"]["name"] in READ_ONLY_TOOLS:
        return rerun_all(cp, execute_tool)
    return delete_message(cp, execute_tool)


EXPECTED = {
    checks.reconcile: {"read_only": ["rerun"], "high_impact": ["is_error"]},
    checks.reconcile_production: {"read_only": ["rerun"], "high_impact": ["rerun"]},
    rerun_all: {"read_only": ["rerun"], "high_impact": ["rerun"]},
    is_error_all: {"read_only": ["is_error"], "high_impact": ["is_error"]},
    checks.reconcile_delete: {"read_only": ["delete"], "high_impact": ["delete"]},
    delete_message: {"read_only": ["delete"], "high_impact": ["delete"]},
    delete_block: {"read_only": ["delete"], "high_impact": ["delete"]},
    leave_it: {"read_only": ["dangling"], "high_impact": ["dangling"]},
    leave_it_with_a_note: {"read_only": ["dangling"], "high_impact": ["dangling"]},
    invent_success: {"read_only": ["other"], "high_impact": ["other"]},
    is_error_as_a_string: {"read_only": ["other"], "high_impact": ["other"]},
    returns_nothing: {"read_only": ["other"], "high_impact": ["other"]},
    not_written: {"read_only": ["not_run"], "high_impact": ["not_run"]},
    rerun_then_delete: {"read_only": ["rerun"], "high_impact": ["rerun"]},
    rerun_then_is_error: {"read_only": ["rerun"], "high_impact": ["rerun"]},
    only_send_email_is_dangerous: {"read_only": ["rerun"], "high_impact": ["rerun", "is_error"]},
    rerun_read_only_delete_the_rest: {"read_only": ["rerun"], "high_impact": ["delete"]},
}


@pytest.fixture
def cases(tmp_path):
    rng = scenarios.rng_for(SEED, "nivel2.read_only_rerun")
    found = scenarios.read_only_cases(rng, tmp_path / "ro")
    return found + scenarios.high_impact_cases(scenarios.rng_for(SEED, "nivel2.high_impact_not_rerun"), tmp_path)


@pytest.mark.parametrize("fn", list(EXPECTED), ids=lambda fn: fn.__name__)
def test_each_partial_reconcile_is_named_by_what_it_did(cases, fn):
    moves = reconcile_moves(observe_reconciles(checks.FakeCaller(reconcile=fn), cases))
    assert moves == EXPECTED[fn]
    assert valid_moves(moves)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 2**31 - 1])
def test_the_moves_do_not_depend_on_the_seed(tmp_path, seed):
    """Every seed draws every kind's tools, the unseen high-impact names among them: a move never moves."""
    drawn = scenarios.read_only_cases(scenarios.rng_for(seed, "nivel2.read_only_rerun"), tmp_path / "ro")
    drawn += scenarios.high_impact_cases(scenarios.rng_for(seed, "nivel2.high_impact_not_rerun"), tmp_path)
    for fn, expected in EXPECTED.items():
        assert reconcile_moves(observe_reconciles(checks.FakeCaller(reconcile=fn), drawn)) == expected, fn.__name__


def test_a_read_only_output_got_by_another_route_is_a_rerun_and_a_made_up_one_is_not(cases):
    """The tool_result's content is the tool's real output: the tool ran, whatever called it."""
    ro = [c for c in cases if c.kind == "read_only"]
    outputs = {c.pending["id"]: c.expected_output for c in ro}

    def copied(cp, execute_tool):
        return _answer(cp, outputs[cp["pendingToolUse"]["id"]])

    def almost(cp, execute_tool):
        return _answer(cp, outputs[cp["pendingToolUse"]["id"]] + " (resumido)")

    assert reconcile_moves(observe_reconciles(checks.FakeCaller(reconcile=copied), ro)) == {"read_only": ["rerun"]}
    assert reconcile_moves(observe_reconciles(checks.FakeCaller(reconcile=almost), ro)) == {"read_only": ["other"]}


def test_a_reconcile_stopped_by_a_limit_did_not_run_on_any_case(cases):
    from autograder.sandbox.learner_process import Failure
    from autograder.sandbox.session import Outcome

    obs = observe_reconciles(checks.FakeCaller(reconcile=checks.reconcile), cases)
    stopped = [copy.copy(o) for o in obs]
    for o in stopped:
        o.outcome = Outcome("failure", failure=Failure("timeout", "1 s", 1.0), fn="reconcile")
    assert {case_move(o) for o in stopped} == {"not_run"}


@pytest.mark.parametrize(
    ("value", "move"),
    [
        ([1, 2], "other"),
        ("cp", "other"),
        ({"messages": "x"}, "other"),
        ({"messages": [None, "texto", 3, {"content": 5}, {"role": "assistant", "content": [7, None]}]}, "delete"),
    ],
)
def test_a_hostile_return_is_named_not_a_traceback(cases, value, move):
    obs = observe_reconciles(checks.FakeCaller(reconcile=lambda cp, execute_tool: value), cases)
    assert reconcile_moves(obs) == {"read_only": [move], "high_impact": [move]}


def test_a_hostile_block_beside_the_kept_tool_use_is_still_read(cases):
    def odd(cp, execute_tool):
        pending_id = cp["pendingToolUse"]["id"]
        cp["messages"].append({"role": "user", "content": [None, {"type": "tool_result", "tool_use_id": pending_id}]})
        return cp

    # A tool_result with no content and no is_error: a success nobody got from the tool.
    assert reconcile_moves(observe_reconciles(checks.FakeCaller(reconcile=odd), cases)) == {
        "read_only": ["other"],
        "high_impact": ["other"],
    }


def test_the_moves_come_with_the_grading_and_only_when_level_2_is_graded(tmp_path):
    caller = checks.FakeCaller(reconcile=only_send_email_is_dangerous, resume_action=checks.resume_action)
    graded = evaluate_criteria(caller, CourseConfig(seed=SEED, levels=(2,)), scratch=tmp_path / "a")
    assert graded.moves == {"read_only": ["rerun"], "high_impact": ["rerun", "is_error"]}
    caller = checks.FakeCaller(reconcile=only_send_email_is_dangerous, resume_action=checks.resume_action)
    assert evaluate_criteria(caller, CourseConfig(seed=SEED, levels=(1,)), scratch=tmp_path / "b").moves == {}
    assert "reconcile" not in caller.called  # the map never calls reconcile on its own


# -- results.json ---------------------------------------------------------------------------------------------


def _result(name: str, moves: dict[str, list[str]] | None, *, error: str | None = None) -> SubmissionResult:
    crit = [CriterionResult("nivel2.read_only_rerun", True, 1.0, 1.0, "bien")]
    result = SubmissionResult.from_criteria(f"{name}.py", crit, error=error, seed=SEED)
    result.moves = moves or {}
    return result


def test_the_moves_travel_in_results_json_and_back():
    moves = {"read_only": ["rerun"], "high_impact": ["rerun", "is_error"]}
    record = _result("ana", moves).to_json()
    assert record["moves"] == moves
    assert SubmissionResult.from_json(json.loads(json.dumps(record))).moves == moves
    assert "moves" not in _result("bea", None).to_json()  # Level 2 not observed: no record at all


@pytest.mark.parametrize(
    "raw",
    [
        {"read_only": ["rerun"], "tools": ["rerun"]},
        {"read_only": ["borrar"]},
        {"read_only": []},
        {"read_only": "rerun"},
        {"high_impact": ["is_error", "rerun"]},  # not in MOVES' order
        {"high_impact": ["rerun", "rerun"]},
        ["rerun"],
        {"read_only": [None]},
    ],
)
def test_a_moves_record_out_of_the_vocabulary_is_not_valid(raw):
    assert not valid_moves(raw)
    assert SubmissionResult.from_json({**_result("x", None).to_json(), "moves": raw}).moves == {}


# -- the map in resumen.html ----------------------------------------------------------------------------------

CLASS = {
    "Ana García": {"read_only": ["rerun"], "high_impact": ["is_error"]},
    "Bruno Díaz": {"read_only": ["rerun"], "high_impact": ["rerun"]},
    "Carla Ruiz": {"read_only": ["rerun"], "high_impact": ["rerun"]},
    "Dani Sanz": {"read_only": ["delete"], "high_impact": ["delete"]},
    "Eva Gil": {"read_only": ["is_error"], "high_impact": ["is_error"]},
    "Fede Mora": {"read_only": ["dangling"], "high_impact": ["dangling"]},
    "Gala Ríos": {"read_only": ["rerun"], "high_impact": ["rerun", "is_error"]},
    "Hugo Paz": None,  # could not run
    "Inés Vera": {"read_only": ["rerun"], "high_impact": ["is_error"]},  # interrupted: not graded
}


def class_entries(learners: dict[str, dict[str, list[str]] | None] = CLASS) -> list[ReportEntry]:
    names = feedback_names(list(learners))
    entries = []
    for (learner, moves), name in zip(learners.items(), names, strict=True):
        result = _result(name, moves, error=None if moves else "SyntaxError")
        entries.append(ReportEntry(result, f"clase/{name}.py", name, learner=learner, graded=learner != "Inés Vera"))
    return entries


def _rows(html: str, kind: str) -> dict[str, tuple[str, int, list[str]]]:
    """move -> (role, count, learners' names) of one kind's table, read from the page."""
    table = re.search(rf'<table class="moves[^"]*" id="moves-{kind}">(.*?)</table>', html, re.S)
    assert table, kind
    rows = {}
    for move, role, body in re.findall(r'<tr data-move="(\w+)" data-role="(\w+)">(.*?)</tr>', table.group(1), re.S):
        count = int(re.search(r'<td class="num count"[^>]*>(\d+)</td>', body).group(1))
        rows[move] = (role, count, re.findall(r"<bdi>(.*?)</bdi>", body))
    return rows


def test_the_map_counts_each_move_with_its_learners_and_leaves_the_rest_apart():
    html = summary_html(class_entries(), lang="es")
    assert "Mapa de errores de concepto" in html
    ro, hi = _rows(html, "read_only"), _rows(html, "high_impact")
    assert list(ro) == list(hi) == list(MOVES)
    assert ro["rerun"] == ("lesson", 4, ["Ana García", "Bruno Díaz", "Carla Ruiz", "Gala Ríos"])
    assert ro["is_error"] == ("warned", 1, ["Eva Gil"])
    assert ro["delete"] == ("warned", 1, ["Dani Sanz"])
    assert ro["dangling"] == ("none", 1, ["Fede Mora"])
    assert hi["is_error"] == ("lesson", 3, ["Ana García", "Eva Gil", "Gala Ríos"])
    assert hi["rerun"] == ("warned", 3, ["Bruno Díaz", "Carla Ruiz", "Gala Ríos"])
    assert hi["other"] == hi["not_run"] == ("none", 0, [])
    apart = re.search(r'<p id="map-apart">(.*?)</p>', html, re.S).group(1)
    assert "Fuera del mapa" in apart and ": 2." in apart
    assert re.findall(r"<bdi>(.*?)</bdi>", apart) == ["Hugo Paz", "Inés Vera"]
    # Each name links to that learner's feedback page.
    gala = next(e for e in class_entries() if e.label == "Gala Ríos")
    assert html.count(f'<a href="feedback/{gala.name}.html"><bdi>Gala Ríos</bdi></a>') == 4  # matrix + 3 map rows


def _who(html: str, kind: str, move: str) -> str:
    """The «who» cell of one row of the map, as a reader sees it (tags dropped)."""
    table = re.search(rf'id="moves-{kind}">(.*?)</table>', html, re.S).group(1)
    row = re.search(rf'<tr data-move="{move}".*?<td class="who"[^>]*>(.*?)</td>', table, re.S).group(1)
    return re.sub(r"<[^>]+>", "", row)


NAMESAKES = [  # (name, LMS id, moves)
    ("Ana García", "109", {"read_only": ["rerun"], "high_impact": ["is_error"]}),
    ("Ana García", "214", {"read_only": ["rerun"], "high_impact": ["rerun"]}),
    ("Luis Pérez", "", {"read_only": ["rerun"], "high_impact": ["rerun"]}),
    ("Ana García", "301", None),
    ("Ana García", "302", None),
]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_namesakes_in_the_map_are_told_apart_by_their_lms_id_as_in_the_rest_of_the_report(lang):
    from autograder.reporting.review import learner_cell

    names = feedback_names([learner for learner, _, _ in NAMESAKES])
    entries = [
        ReportEntry(
            _result(name, moves, error=None if moves else "SyntaxError"),
            f"clase/{name}.py",
            name,
            learner=learner,
            learner_id=ident,
        )
        for (learner, ident, moves), name in zip(NAMESAKES, names, strict=True)
    ]
    html = summary_html(entries, lang=lang)
    assert _who(html, "read_only", "rerun") == "Ana García (109), Ana García (214), Luis Pérez"
    assert _who(html, "high_impact", "is_error") == "Ana García (109)"
    assert _who(html, "high_impact", "rerun") == "Ana García (214), Luis Pérez"
    apart = re.sub(r"<[^>]+>", "", re.search(r'<p id="map-apart">(.*?)</p>', html, re.S).group(1))
    assert apart.endswith(": 2. Ana García (301), Ana García (302)")
    # The same words as the class table's and the review CSV's (review.learner_cell), each linking to its page.
    page = re.sub(r"<[^>]+>", "", html)
    assert all(page.count(learner_cell(e)) >= 2 for e in entries)
    assert html.count(f'<a href="feedback/{entries[1].name}.html">') == 3  # the class table and two map rows


def test_the_map_reads_without_javascript_and_in_english():
    html = summary_html(class_entries(), lang="en")
    assert "Misconception map" in html and "Mapa de errores" not in html
    without_script = re.sub(r"<script>.*?</script>", "", html, flags=re.S)
    assert _rows(without_script, "high_impact")["is_error"][1] == 3


def test_a_learner_name_in_the_map_is_escaped():
    entries = class_entries({"<script>alert(1)</script>": {"read_only": ["rerun"], "high_impact": ["rerun"]}})
    html = summary_html(entries, lang="es")
    assert "<script>alert(1)</script>" not in html.split("<script>\n", 1)[0]


def test_the_map_object_counts_the_same_as_the_page():
    found = misconception_map(class_entries(), "es")
    by_kind = {k.kind: {r.move: len(r.learners) for r in k.rows} for k in found.kinds}
    assert by_kind["high_impact"]["rerun"] == 3 and by_kind["read_only"]["delete"] == 1
    assert [k.counted for k in found.kinds] == [7, 7]
    assert [e.label for e in found.apart] == ["Hugo Paz", "Inés Vera"]


# -- merge rebuilds the map from the parts ------------------------------------------------------------------


def fake_grading_with_moves(learners, course, **kwargs):
    """test_autograder_shards' fake, with a moves record derived from the learner's file like its scores."""
    results = sharding.fake_grading(learners, course, **kwargs)
    for learner, result in zip(learners, results, strict=True):
        # From the learner, not its place in the part: a one-machine run and the parts agree.
        pick = sum(map(ord, str(learner.source)))
        result.moves = list(EXPECTED.values())[pick % len(EXPECTED)] if pick % 7 else {}
    return results


@pytest.mark.parametrize("n", [2, 3])
def test_merge_rebuilds_the_map_from_the_parts(monkeypatch, tmp_path, n):
    monkeypatch.setattr(class_run, "run_grading", fake_grading_with_moves)
    cls = sharding.make_class(tmp_path)
    code, _, stderr = sharding.run("grade", cls, "--out", tmp_path / "una", "--seed", "11")
    assert code == 0, stderr
    folders = sharding.grade_shards(cls, tmp_path, n)
    code, _, stderr = sharding.run("merge", *folders, "--out", tmp_path / "junta")
    assert code == 0, stderr
    assert sharding.tree(tmp_path / "junta") == sharding.tree(tmp_path / "una")
    one = (tmp_path / "una" / "resumen.html").read_text(encoding="utf-8")
    submissions = json.loads((tmp_path / "una" / "results.json").read_text())["submissions"]
    with_moves = [s for s in submissions if "moves" in s]
    assert 0 < len(with_moves) < len(submissions)
    rerun_hi = sum("rerun" in s["moves"].get("high_impact", []) for s in with_moves)
    assert _rows(one, "high_impact")["rerun"][1] == rerun_hi > 0


def test_merge_refuses_a_moves_record_out_of_the_vocabulary(monkeypatch, tmp_path):
    monkeypatch.setattr(class_run, "run_grading", fake_grading_with_moves)
    folders = sharding.grade_shards(sharding.make_class(tmp_path), tmp_path, 2)
    path = folders[0] / "results.json"
    doc = json.loads(path.read_text())
    doc["submissions"][0]["moves"] = {"high_impact": ["SECRETO-borrar"]}
    path.write_text(json.dumps(doc))
    code, _, stderr = sharding.run("merge", *folders, "--out", tmp_path / "junta")
    assert code == 2 and "(entrega n.º 1)" in stderr and "SECRETO" not in stderr, stderr


def test_a_persons_decision_rewrites_the_reports_with_the_map_kept(monkeypatch, tmp_path):
    """`autograder review --apply` writes the reports again from results.json: the moves come back with them."""

    def graded_with_moves(learners, course, **kwargs):
        results = reviewing.fake_grading(learners, course, **kwargs)
        for result in results:
            result.moves = CLASS["Gala Ríos"] if "ana" in result.submission else CLASS["Bruno Díaz"]
        return results

    monkeypatch.setattr(class_run, "run_grading", graded_with_moves)
    monkeypatch.setattr(class_run, "datetime", reviewing.FixedClock)
    out = tmp_path / "out"
    assert reviewing.run("grade", reviewing.make_class(tmp_path), "--out", out, "--seed", "3")[0] == 0
    sheet = tmp_path / "revision.csv"
    assert reviewing.run("review", out, "--csv", sheet)[0] == 0
    reviewing.fill(sheet, {"ana.py": ("pass", "Marta Ruiz", "dice que no se sabe si se envió")})
    code, _, stderr = reviewing.run("review", out, "--apply", sheet)
    assert code == 0, stderr
    assert reviewing.submissions(out)["ana.py"]["moves"] == CLASS["Gala Ríos"]
    html = (out / "resumen.html").read_text(encoding="utf-8")
    assert _rows(html, "high_impact")["rerun"][1] == 4 and _rows(html, "high_impact")["is_error"][2] == ["ana"]


def test_write_reports_puts_the_moves_in_results_json(tmp_path):
    write_reports(tmp_path, class_entries(), lang="es", seed=SEED)
    doc = json.loads((tmp_path / "results.json").read_text())
    by_learner = {s["learner"]: s.get("moves") for s in doc["submissions"]}
    assert by_learner["Gala Ríos"] == {"read_only": ["rerun"], "high_impact": ["rerun", "is_error"]}
    assert by_learner["Hugo Paz"] is None


# -- a class graded for real ----------------------------------------------------------------------------------

HEADER = 'READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}\n\n\n'
ANSWER = (
    "def answer(cp, content, **extra):\n"
    '    block = {"type": "tool_result", "tool_use_id": cp["pendingToolUse"]["id"], "content": content, **extra}\n'
    '    cp["messages"].append({"role": "user", "content": [block]})\n'
    '    cp["pendingToolUse"] = None\n'
    "    return cp\n\n\n"
)
UNKNOWN = '"Estado de ejecución desconocido: no se sabe si se ejecutó. Reevalúa la situación."'
RERUN = 'answer(cp, execute_tool(cp["pendingToolUse"]["name"], cp["pendingToolUse"]["input"]))  # noqa: F821'
SOLUTIONS = {
    "correcta": (
        "def reconcile(cp):\n"
        '    if cp["pendingToolUse"]["name"] in READ_ONLY_TOOLS:\n'
        f"        return {RERUN}\n"
        f"    return answer(cp, {UNKNOWN}, is_error=True)\n"
    ),
    "reejecuta_todo": f"def reconcile(cp):\n    return {RERUN}\n",
    "borra": 'def reconcile(cp):\n    cp["messages"].pop()\n    cp["pendingToolUse"] = None\n    return cp\n',
    "is_error_siempre": f"def reconcile(cp):\n    return answer(cp, {UNKNOWN}, is_error=True)\n",
    "la_deja": "def reconcile(cp):\n    return cp\n",
    "se_cae": 'def reconcile(cp):\n    return cp["no_existe"]\n',  # a KeyError on every case
    "solo_el_correo": (
        "def reconcile(cp):\n"
        '    if cp["pendingToolUse"]["name"] == "send_email":\n'
        f"        return answer(cp, {UNKNOWN}, is_error=True)\n"
        f"    return {RERUN}\n"
    ),
}
GRADED = {
    "correcta": {"read_only": ["rerun"], "high_impact": ["is_error"]},
    "reejecuta_todo": {"read_only": ["rerun"], "high_impact": ["rerun"]},
    "borra": {"read_only": ["delete"], "high_impact": ["delete"]},
    "is_error_siempre": {"read_only": ["is_error"], "high_impact": ["is_error"]},
    "la_deja": {"read_only": ["dangling"], "high_impact": ["dangling"]},
    "se_cae": {"read_only": ["not_run"], "high_impact": ["not_run"]},
    "solo_el_correo": {"read_only": ["rerun"], "high_impact": ["rerun", "is_error"]},
}


@pytest.mark.warm_up("grading_server")
def test_a_class_of_partial_reconciles_graded_for_real_makes_the_map(tmp_path):
    from autograder.grading.pipeline import grade_many

    paths = []
    for name, body in SOLUTIONS.items():
        path = tmp_path / "clase" / f"{name}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(HEADER + ANSWER + body, encoding="utf-8")
        paths.append(path)
    results = grade_many(paths, CourseConfig(seed=SEED, levels=(2,)), jobs=2)
    assert {Path(r.submission).stem: r.moves for r in results} == GRADED
    entries = [ReportEntry(r, str(p), p.stem) for r, p in zip(results, paths, strict=True)]
    write_reports(tmp_path / "informes", entries, lang="es", seed=SEED)
    doc = json.loads((tmp_path / "informes" / "results.json").read_text())
    assert {Path(s["submission"]).stem: s["moves"] for s in doc["submissions"]} == GRADED
    html = (tmp_path / "informes" / "resumen.html").read_text(encoding="utf-8")
    ro, hi = _rows(html, "read_only"), _rows(html, "high_impact")
    assert ro["rerun"][:2] == ("lesson", 3) and hi["is_error"][:2] == ("lesson", 3)
    assert sorted(hi["rerun"][2]) == ["reejecuta_todo", "solo_el_correo"]
    assert hi["not_run"][2] == ["se_cae"] and hi["dangling"][2] == ["la_deja"] and hi["delete"][2] == ["borra"]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_class_without_level_2_says_so_instead_of_empty_tables(lang):
    # A course that does not count Level 2 (or a run graded on other levels): nobody has moves.
    html = summary_html(class_entries({"Ana García": None, "Bruno Díaz": None}), lang=lang)
    assert 'id="map-none"' in html and 'id="moves-read_only"' not in html and 'id="map-apart"' not in html
    assert ("Nivel 2" if lang == "es" else "Level 2") in re.search(r'<p[^>]*id="map-none">(.*?)</p>', html).group(1)
    # One learner with moves brings the tables back, and the others are listed apart.
    html = summary_html(class_entries({"Ana García": CLASS["Ana García"], "Bruno Díaz": None}), lang=lang)
    assert 'id="map-none"' not in html and 'id="moves-read_only"' in html and 'id="map-apart"' in html
