"""Steps 3 and 4, observe and judge, on trusted stand-ins for a learner's functions.

The stand-ins run in this process through :class:`FakeCaller` (the real grader never
does that: it calls learner code in the sandbox); what is under test is what each
criterion observes and how it judges.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA, required_ids
from autograder.judging import observe, scenarios
from autograder.judging.observe import (
    ActionObservation,
    AnswerObservation,
    LessonObservation,
    observe_actions,
    observe_incident,
    observe_reconciles,
)
from autograder.judging.process import evaluate_criteria
from autograder.judging.verdict_help import question_verdict
from autograder.judging.verdicts_level1 import hidden_verdict, lesson_checkpoint_verdict
from autograder.judging.verdicts_level2 import (
    high_impact_verdict,
    incident_verdict,
    is_error_verdict,
    paired_verdict,
    read_only_verdict,
)
from autograder.questions import QUESTIONS
from autograder.sandbox.session import Outcome
from lesson3.exercises import exercise_checkpoint
from lesson3.reconciliation import READ_ONLY_TOOLS, UNKNOWN_STATE_MESSAGE

CRITERIA_IDS = required_ids()

Fn = Callable[..., Any]


class OneByOne:
    """``calls()`` as the session means it, one call at a time: each group of calls inside its own budget."""

    def calls(self, batch: Any, *, groups: Any = None, on_tool: Any = None) -> list[Outcome]:
        groups = list(groups) if groups is not None else [0] * len(batch)
        outcomes: list[Outcome] = []
        for _, chunk in itertools.groupby(zip(batch, groups, strict=True), key=lambda item: item[1]):
            with self.budget():
                outcomes += [self.call(fn, arg, on_tool=on_tool) for (fn, arg), _ in chunk]
        return outcomes


class FakeCaller(OneByOne):
    """Calls trusted test functions ``fn(cp, execute_tool)`` in-process, through JSON like the sandbox."""

    def __init__(self, reused: dict[str, list[str]] | None = None, **functions: Fn) -> None:
        self.functions = functions
        self.reused = reused or {}
        """Function -> what of lesson3 its calls record having run (as the learner's process reports it)."""
        self.called: list[str] = []

    def budget(self, seconds: float | None = None) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def call(self, fn: str, arg: Any, *, on_tool: Any = None, poison: Any = None) -> Outcome:
        self.called.append(fn)
        function = self.functions.get(fn)
        if function is None:
            return Outcome("missing", fn=fn)

        def execute_tool(name: str, tool_input: Any) -> str:
            assert on_tool is not None, "execute_tool outside a reconcile call"
            return on_tool(name, tool_input)["content"]

        try:
            value = function(json.loads(json.dumps(arg)), execute_tool)
        except NotImplementedError:
            return Outcome("not_implemented", fn=fn)
        return Outcome("ok", value=json.loads(json.dumps(value)), fn=fn, delegated=list(self.reused.get(fn, [])))


# -- stand-ins ---------------------------------------------------------------------------------------


def resume_action(cp, _execute=None):
    pending = cp["pendingToolUse"]
    if pending is None:
        return "continue"
    return "rerun" if pending["name"] in READ_ONLY_TOOLS else "is_error"


def resume_action_tuned(cp, _execute=None):
    pending = cp["pendingToolUse"]
    return {None: "continue", "toolu_01A": "rerun", "toolu_01B": "is_error"}.get(pending and pending["id"], "continue")


def resume_action_only_send_email(cp, _execute=None):
    pending = cp["pendingToolUse"]
    if pending is None:
        return "continue"
    return "is_error" if pending["name"] == "send_email" else "rerun"


def reconcile(cp, execute_tool):
    """The lesson's rule."""
    pending = cp["pendingToolUse"]
    if pending["name"] in READ_ONLY_TOOLS:
        result = {
            "type": "tool_result",
            "tool_use_id": pending["id"],
            "content": execute_tool(pending["name"], pending["input"]),
        }
    else:
        result = {
            "type": "tool_result",
            "tool_use_id": pending["id"],
            "content": UNKNOWN_STATE_MESSAGE,
            "is_error": True,
        }
    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp


def reconcile_production(cp, execute_tool):
    pending = cp["pendingToolUse"]
    output = execute_tool(pending["name"], pending["input"])
    cp["messages"].append(
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": pending["id"], "content": output}]}
    )
    cp["pendingToolUse"] = None
    return cp


def reconcile_delete(cp, execute_tool):
    cp["messages"].pop()
    cp["pendingToolUse"] = None
    return cp


def variant(change: Callable[[dict, dict], None], base: Fn = reconcile) -> Fn:
    """The lesson's reconcile, then ``change(cp, tool_result)`` on what it returns."""

    def fn(cp, execute_tool):
        out = base(cp, execute_tool)
        change(out, out["messages"][-1]["content"][0])
        return out

    return fn


SEED = 7


@pytest.fixture
def ro_cases(tmp_path):
    return scenarios.read_only_cases(scenarios.rng_for(SEED, "nivel2.read_only_rerun"), tmp_path)


@pytest.fixture
def hi_cases(tmp_path):
    return scenarios.high_impact_cases(scenarios.rng_for(SEED, "nivel2.high_impact_not_rerun"), tmp_path)


def ro_verdict(fn: Fn, cases, lang="es"):
    return read_only_verdict(observe_reconciles(FakeCaller(reconcile=fn), cases), lang)


def hi_verdicts(fn: Fn, cases, lang="es"):
    obs = observe_reconciles(FakeCaller(reconcile=fn), cases)
    return high_impact_verdict(obs, lang), is_error_verdict(obs, lang), paired_verdict(obs, lang)


# -- Level 1 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["cpA", "cpB", "cpC"])
def test_the_lesson_checkpoints_with_the_right_answer(name):
    outcome = FakeCaller(resume_action=resume_action).call("resume_action", exercise_checkpoint(name))
    verdict = lesson_checkpoint_verdict(LessonObservation(name, outcome), "es")
    assert verdict.passed and CRITERIA[f"nivel1.{name}"].result(verdict).score == 1
    assert verdict.feedback.startswith("Correcto")


def test_a_wrong_action_says_what_was_expected_but_not_why():
    """The why is razon_cpC's question: the action's row shows before it may be answered."""
    verdict = lesson_checkpoint_verdict(
        LessonObservation("cpC", Outcome("ok", value="rerun", fn="resume_action")), "es"
    )
    assert not verdict.passed
    assert "'rerun'" in verdict.feedback and '"is_error"' in verdict.feedback
    assert "alto impacto" not in verdict.feedback and "registro" not in verdict.feedback
    english = lesson_checkpoint_verdict(
        LessonObservation("cpC", Outcome("ok", value="rerun", fn="resume_action")), "en"
    )
    assert '"is_error"' in english.feedback and "high-impact" not in english.feedback


def test_an_answer_that_is_not_an_action_is_named_as_such():
    verdict = lesson_checkpoint_verdict(
        LessonObservation("cpA", Outcome("ok", value="seguir", fn="resume_action")), "es"
    )
    assert "ninguna de las tres acciones" in verdict.feedback


def test_a_stub_is_not_implemented_yet_not_a_traceback():
    verdict = lesson_checkpoint_verdict(LessonObservation("cpB", Outcome("not_implemented", fn="resume_action")), "es")
    assert verdict.feedback.startswith("Todavía no implementado") and "Traceback" not in verdict.feedback


def test_hidden_variants_pass_with_the_rule():
    cases = scenarios.hidden_action_cases(scenarios.rng_for(SEED, "nivel1.hidden"))
    verdict = hidden_verdict(observe_actions(FakeCaller(resume_action=resume_action), cases), "es")
    assert verdict.passed, verdict.feedback


def test_answers_tuned_to_the_exercise_text_fail_the_hidden_variants():
    for name in ("cpA", "cpB", "cpC"):
        outcome = FakeCaller(resume_action=resume_action_tuned).call("resume_action", exercise_checkpoint(name))
        assert lesson_checkpoint_verdict(LessonObservation(name, outcome), "es").passed
    cases = scenarios.hidden_action_cases(scenarios.rng_for(SEED, "nivel1.hidden"))
    verdict = hidden_verdict(observe_actions(FakeCaller(resume_action=resume_action_tuned), cases), "es")
    assert not verdict.passed


def test_treating_only_send_email_as_high_impact_fails_on_unseen_names():
    cases = scenarios.hidden_action_cases(scenarios.rng_for(SEED, "nivel1.hidden"))
    verdict = hidden_verdict(observe_actions(FakeCaller(resume_action=resume_action_only_send_email), cases), "es")
    assert not verdict.passed
    assert "READ_ONLY_TOOLS" in verdict.feedback
    assert "de 14" in verdict.feedback


# -- Level 2: read-only ----------------------------------------------------------------------------------


def test_read_only_rerun_passes_with_the_lesson_rule(ro_cases):
    verdict = ro_verdict(reconcile, ro_cases)
    assert verdict.passed, verdict.feedback


def test_a_made_up_output_without_running_the_tool_fails(ro_cases):
    def fake(cp, execute_tool):
        return reconcile(cp, lambda name, tool_input: "contenido inventado")

    verdict = ro_verdict(fake, ro_cases)
    assert not verdict.passed and "execute_tool no se llamó" in verdict.feedback


def test_running_the_tool_twice_fails(ro_cases):
    def twice(cp, execute_tool):
        pending = cp["pendingToolUse"]
        execute_tool(pending["name"], pending["input"])
        return reconcile(cp, execute_tool)

    assert "2 veces" in ro_verdict(twice, ro_cases).feedback


def test_running_it_with_another_input_or_an_extra_tool_fails(ro_cases):
    def other_input(cp, execute_tool):
        cp["pendingToolUse"]["input"] = {"path": "notes"}
        return reconcile(cp, execute_tool)

    def extra(cp, execute_tool):
        execute_tool("list_dir", {"path": "."})
        return reconcile(cp, execute_tool)

    assert "en vez de" in ro_verdict(other_input, ro_cases[:1]).feedback
    assert "además" in ro_verdict(extra, ro_cases[:1]).feedback


def test_a_real_output_marked_as_error_fails(ro_cases):
    verdict = ro_verdict(variant(lambda cp, result: result.update(is_error=True)), ro_cases)
    assert not verdict.passed and "is_error" in verdict.feedback


def test_content_as_a_list_of_text_blocks_counts_as_the_output(ro_cases):
    def blocks(cp, result):
        result["content"] = [{"type": "text", "text": result["content"]}]

    assert ro_verdict(variant(blocks), ro_cases).passed


def test_the_wrong_output_is_caught(ro_cases):
    verdict = ro_verdict(variant(lambda cp, result: result.update(content="(sin coincidencias)")), ro_cases)
    assert not verdict.passed and "salida real" in verdict.feedback


# -- Level 2: high impact ----------------------------------------------------------------------------------


def test_the_lesson_rule_passes_every_high_impact_criterion(hi_cases):
    for verdict in hi_verdicts(reconcile, hi_cases):
        assert verdict.passed, verdict.feedback


def test_a_catastrophic_grep_costs_its_time_limit_not_the_judge(ro_cases, monkeypatch):
    from autograder.judging import tool_layer

    monkeypatch.setattr(tool_layer, "GREP_SECONDS", 0.3)
    layer = tool_layer.ToolLayer(ro_cases[0].workspace)
    (ro_cases[0].workspace / "notes" / "trampa.md").write_text("a" * 40 + "!\n")
    reply = layer("grep", {"pattern": "^(a+)+$", "path": "notes"})
    assert reply["is_error"] and "tardó más de 0,3 s" in reply["content"]
    assert layer("grep", {"pattern": "a!", "path": "notes"}) == {
        "content": "notes/trampa.md:1: " + "a" * 40 + "!",
        "is_error": False,
    }


def test_the_tool_layer_refuses_floods(ro_cases, monkeypatch):
    from autograder.judging import tool_layer

    layer = tool_layer.ToolLayer(ro_cases[0].workspace)
    assert (
        "demasiado grande" in layer("send_email", {"to": "a@b.com", "subject": "s", "body": "x" * 100_000})["content"]
    )
    for _ in range(tool_layer.MAX_CALLS):
        layer("list_dir", {})
    assert "demasiadas llamadas" in layer("send_email", {"to": "a@b.com", "subject": "s"})["content"]
    from lesson3.tools import outbox_count

    assert outbox_count(ro_cases[0].workspace) == 0


def test_the_production_reconcile_reruns_every_high_impact_tool(hi_cases):
    not_rerun, is_error, paired = hi_verdicts(reconcile_production, hi_cases)
    assert not not_rerun.passed and "send_email" in not_rerun.feedback and "7 de 7" in not_rerun.feedback
    assert not is_error.passed
    assert paired.passed  # its tool_result is well paired: the bug is re-running, not the shape
    from lesson3.tools import outbox_count

    assert hi_cases[0].label == "send_email" and outbox_count(hi_cases[0].workspace) == 1


def test_effects_that_bypass_execute_tool_are_seen_in_the_workspace(hi_cases):
    def sneaky(cp, execute_tool):
        for outbox in Path(hi_cases[0].workspace).parent.glob("*/outbox/new"):
            (outbox / "999999.lesson3").write_text("Subject: a mano\n\nhola\n")
        return reconcile(cp, execute_tool)

    not_rerun, is_error, _ = hi_verdicts(sneaky, hi_cases[:1])
    assert not not_rerun.passed
    assert (
        "cambió por fuera de execute_tool" in not_rerun.feedback and "outbox/new/999999.lesson3" in not_rerun.feedback
    )
    assert is_error.passed  # its tool_result alone was right


def test_stand_in_high_impact_tools_leave_a_trace_when_run(hi_cases):
    obs = observe_reconciles(FakeCaller(reconcile=reconcile_production), hi_cases[1:2])
    (call,) = obs[0].calls
    assert call.name == "write_file"
    trace = json.loads((hi_cases[1].workspace / "efectos" / "write_file.jsonl").read_text())
    assert trace["tool"] == "write_file" and len(trace["input_sha256"]) == 64


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda cp, r: r.pop("is_error"), "no tiene is_error: true"),
        (lambda cp, r: r.update(is_error="true"), "booleano True"),
        (lambda cp, r: r.update(content="   "), "no explica nada"),
        (lambda cp, r: r.update(content=[]), "no explica nada"),
        (lambda cp, r: r.update(content="x"), "no le dice al modelo que el estado de ejecución es desconocido"),
        (lambda cp, r: r.update(content="OK: enviado correctamente."), "no le dice al modelo"),
        (lambda cp, r: r.update(content="Error"), "no le dice al modelo"),
        (lambda cp, r: r.update(content=[{"type": "text", "text": "Unknown error"}]), "no le dice al modelo"),
        (lambda cp, r: r.update(content="El estado NO es desconocido: se ejecutó bien"), "no le dice al modelo"),
        (lambda cp, r: r.update(content="Probablemente se envió."), "no le dice al modelo"),
        (
            lambda cp, r: r.update(content="Estado desconocido, aunque probablemente se envió."),
            "pendiente de revisión por el profesor",
        ),
        (
            lambda cp, r: r.update(content="Unknown state; it likely went through."),
            "pendiente de revisión por el profesor",
        ),
    ],
)
def test_is_error_must_be_the_boolean_true_with_an_explanation(hi_cases, change, expected):
    _, is_error, _ = hi_verdicts(variant(change), hi_cases[:2])
    assert not is_error.passed and expected in is_error.feedback


@pytest.mark.parametrize(
    "content",
    ["Desconozco si la herramienta llegó a ejecutarse", "Estado de ejecución no confirmado", "may or may not have run"],
)
def test_is_error_passes_a_content_saying_the_state_is_unknown_in_other_words(hi_cases, content):
    _, is_error, _ = hi_verdicts(variant(lambda cp, r: r.update(content=content)), hi_cases[:2])
    assert is_error.passed, is_error.feedback


@pytest.mark.parametrize(
    ("content", "passed", "said"),
    [
        ("Estado desconocido, aunque probablemente se envió.", None, "pendiente de revisión por el profesor"),
        ("Probablemente se envió.", False, "no le dice al modelo"),
    ],
)
def test_one_text_for_every_case_is_quoted_once_naming_the_cases(hi_cases, content, passed, said):
    # A reconcile answers every high-impact tool with the same words: the feedback (and the review's listing,
    # which shows it) quotes them once and names every case that has them, not once per tool.
    assert len(hi_cases) >= 3
    _, is_error, _ = hi_verdicts(variant(lambda cp, r: r.update(content=content)), hi_cases)
    assert is_error.passed is passed
    assert is_error.feedback.count(content[:20]) == 1 and is_error.feedback.count(said) == 1, is_error.feedback
    for case in hi_cases:
        assert case.label in is_error.feedback, (case.label, is_error.feedback)
    if passed is False:
        assert f"Falló en {len(hi_cases)} de {len(hi_cases)} casos" in is_error.feedback, is_error.feedback


def test_cases_whose_problems_differ_are_each_said(hi_cases):
    # Grouping is by what is said: a wrong text on one case and a missing is_error on another stay two items.
    def change(cp, result):
        if result["tool_use_id"] == hi_cases[0].pending["id"]:
            result.update(content="Probablemente se envió.")
        else:
            result.pop("is_error", None)

    _, is_error, _ = hi_verdicts(variant(change), hi_cases[:2])
    assert not is_error.passed
    assert "no le dice al modelo" in is_error.feedback and "is_error" in is_error.feedback, is_error.feedback
    assert hi_cases[0].label in is_error.feedback and hi_cases[1].label in is_error.feedback


# -- Level 2: pairing ------------------------------------------------------------------------------------------


def _drop_text_block(cp, result):
    cp["messages"][-2]["content"] = [b for b in cp["messages"][-2]["content"] if b["type"] != "text"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_drop_text_block, "mensajes anteriores"),
        (lambda cp, r: cp["messages"].append({"role": "assistant", "content": "ok"}), "2 mensajes"),
        (lambda cp, r: r.update(tool_use_id="toolu_01A"), "no a la llamada pendiente"),
        (lambda cp, r: cp.update(pendingToolUse=cp["messages"][-2]["content"][-1]), "pendingToolUse"),
        (lambda cp, r: cp.pop("pendingToolUse"), "pendingToolUse"),
        (lambda cp, r: cp.update(turns=cp["turns"] + 1), "turns cambió"),
        (lambda cp, r: cp.update(tokensUsed=0), "tokensUsed cambió"),
        (lambda cp, r: cp["messages"][-1].update(role="assistant"), 'role "user"'),
        (lambda cp, r: cp["messages"][-1].update(content="Listo."), 'role "user"'),
        (lambda cp, r: cp["messages"][-1].update(content=[{"type": "text", "text": "Listo."}]), "empiece con el"),
    ],
)
def test_pairing_problems_are_named(hi_cases, change, expected):
    _, _, paired = hi_verdicts(variant(change), hi_cases[:2])
    assert not paired.passed and expected in paired.feedback


NOTE = {"type": "text", "text": "Nota del reanudador: el proceso se reinició."}


def _then(*extra: dict) -> Callable[[dict, dict], None]:
    """Blocks after the tool_result, in the same user message."""
    return lambda cp, r: cp["messages"][-1]["content"].extend(copy.deepcopy(list(extra)))


def _before(block: dict) -> Callable[[dict, dict], None]:
    return lambda cp, r: cp["messages"][-1]["content"].insert(0, copy.deepcopy(block))


def _in_text_blocks(cp, result):
    """The tool_result's content as a list of text blocks, split at a space (two pieces of one text)."""
    content = result["content"]
    cut = content.find(" ", len(content) // 2)
    result["content"] = [{"type": "text", "text": content[:cut]}, {"type": "text", "text": content[cut:]}]


def _both(*changes: Callable[[dict, dict], None]) -> Callable[[dict, dict], None]:
    def change(cp, result):
        for c in changes:
            c(cp, result)

    return change


ACCEPTED_BY_THE_API = {
    "one text after": _then(NOTE),
    "two texts after": _then(NOTE, {"type": "text", "text": "Sigue con la tarea."}),
    "content as text blocks, then text": _both(_in_text_blocks, _then(NOTE)),
    "string content, then text": _both(lambda cp, r: r.update(content=str(r["content"])), _then(NOTE)),
}


@pytest.mark.parametrize("change", ACCEPTED_BY_THE_API.values(), ids=ACCEPTED_BY_THE_API.keys())
def test_a_tool_result_followed_by_more_content_is_paired_as_the_api_says(ro_cases, hi_cases, change):
    """The API wants the next user message to START with the tool_result; what follows it is free."""
    assert ro_verdict(variant(change), ro_cases).passed
    for verdict in hi_verdicts(variant(change), hi_cases):
        assert verdict.passed, verdict.feedback


def test_an_is_error_content_in_text_blocks_is_read_as_one_text(hi_cases):
    """Split between two words, the blocks must not glue them: «es» + «desconocido» is not «esdesconocido»."""

    def split(cp, result):
        result["content"] = [
            {"type": "text", "text": "El estado de ejecución de esta llamada es"},
            {"type": "text", "text": "desconocido: no se puede confirmar si se envió."},
        ]

    _, is_error, paired = hi_verdicts(variant(split), hi_cases)
    assert is_error.passed and paired.passed, (is_error.feedback, paired.feedback)


REFUSED_BY_THE_API = {
    "text before": (_before(NOTE), ["empieza con un bloque 'text'", "el tool_result va primero"]),
    "image before": (
        _before({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0K"}}),
        ["empieza con un bloque 'image'"],
    ),
    "the same id twice": (
        lambda cp, r: cp["messages"][-1]["content"].append(copy.deepcopy(r)),
        ["tiene 2 tool_result para", "un solo tool_result"],
    ),
    "the same id again after a text": (
        lambda cp, r: cp["messages"][-1]["content"].extend([NOTE, copy.deepcopy(r)]),
        ["tiene 2 tool_result para"],
    ),
    "an extra id": (
        lambda cp, r: cp["messages"][-1]["content"].append({**r, "tool_use_id": "toolu_01inventado"}),
        ["'toolu_01inventado', que no es ninguna llamada", "la API rechazaría"],
    ),
    "the wrong id": (lambda cp, r: r.update(tool_use_id="toolu_01inventado"), ["no a la llamada pendiente"]),
    "no tool_result, only text": (
        lambda cp, r: cp["messages"][-1].update(content=[NOTE]),
        ["empiece con el tool_result"],
    ),
    "an empty text after": (_then({"type": "text", "text": ""}), ["la API rechazaría", "must be non-empty"]),
    "a blank text after": (_then({"type": "text", "text": " \n"}), ["la API rechazaría", "non-whitespace"]),
}


@pytest.mark.parametrize(("change", "expected"), REFUSED_BY_THE_API.values(), ids=REFUSED_BY_THE_API.keys())
def test_what_the_api_refuses_is_not_paired_and_says_why(hi_cases, change, expected):
    _, _, paired = hi_verdicts(variant(change), hi_cases[:2])
    assert not paired.passed
    for words in expected:
        assert words in paired.feedback, paired.feedback


def test_a_call_left_without_its_tool_result_is_named(tmp_path):
    """Two tool_use in the dangling message: answering one, even followed by text, leaves the other unanswered."""
    rng = scenarios.rng_for(3, "api")
    pending = scenarios.pending_call(rng, "send_email", scenarios.high_impact_input(rng, "send_email"))
    cp = scenarios.checkpoint(rng, task="t", pending=pending)
    cp["messages"][-1]["content"].append({"type": "tool_use", "id": "toolu_01segunda", "name": "grep", "input": {}})
    case = scenarios.ReconcileCase("send_email", "high_impact", cp, tmp_path)
    obs = observe_reconciles(FakeCaller(reconcile=variant(_then(NOTE))), [case])
    paired = paired_verdict(obs, "es")
    assert not paired.passed
    assert "a toolu_01segunda le falta su tool_result al principio" in paired.feedback
    assert "toolu_01segunda lacks its tool_result" in paired_verdict(obs, "en").feedback


def test_the_offline_api_judges_the_returned_conversation(tmp_path):
    # A crash while the model had asked for two tools: answering only one is rejected by the API.
    rng = scenarios.rng_for(1, "api")
    pending = scenarios.pending_call(rng, "send_email", scenarios.high_impact_input(rng, "send_email"))
    cp = scenarios.checkpoint(rng, task="t", pending=pending)
    cp["messages"][-1]["content"].insert(
        1, {"type": "tool_use", "id": "toolu_01otro", "name": "grep", "input": {"pattern": "x"}}
    )
    case = scenarios.ReconcileCase("send_email", "high_impact", cp, tmp_path)
    obs = observe_reconciles(FakeCaller(reconcile=reconcile), [case])
    paired = paired_verdict(obs, "es")
    assert not paired.passed and "la API rechazaría" in paired.feedback and "toolu_01otro" in paired.feedback


def test_none_or_a_non_checkpoint_return_is_explained(hi_cases):
    _, is_error, paired = hi_verdicts(lambda cp, ex: None, hi_cases[:1])
    assert "devolvió None" in is_error.feedback and "devolvió None" in paired.feedback
    _, _, paired = hi_verdicts(lambda cp, ex: "listo", hi_cases[:1])
    assert "en vez del punto de control" in paired.feedback


# -- Level 2: the incident --------------------------------------------------------------------------------------


def incident(tmp_path, fn: Fn, seed: int = SEED):
    case = scenarios.incident_case(scenarios.rng_for(seed, "nivel2.no_double_email"), tmp_path)
    return incident_verdict(observe_incident(FakeCaller(reconcile=fn), case), "es"), case


def test_the_incident_with_the_lesson_rule_leaves_one_email(tmp_path):
    verdict, case = incident(tmp_path, reconcile)
    assert verdict.passed, verdict.feedback
    from lesson3.tools import outbox_messages

    (mail,) = outbox_messages(case.workspace)
    assert mail["To"] == case.recipient and mail["Subject"] == case.subject


def test_the_incident_with_the_production_reconcile_sends_two_emails(tmp_path):
    verdict, case = incident(tmp_path, reconcile_production)
    assert not verdict.passed and "2 correos" in verdict.feedback and case.recipient in verdict.feedback
    assert "se volvió a enviar" in verdict.feedback and "modelo" not in verdict.feedback  # the harness re-ran it


def test_deleting_the_dangling_call_also_sends_twice_and_the_model_is_who_resent_it(tmp_path):
    verdict, _ = incident(tmp_path, reconcile_delete)
    assert not verdict.passed and "2 correos" in verdict.feedback
    assert "no volvió a ejecutar send_email" in verdict.feedback and "lo envió el modelo" in verdict.feedback
    assert "jugada uno" in verdict.feedback and "se volvió a enviar" not in verdict.feedback


def test_a_second_email_after_an_answered_call_is_the_models_doing(tmp_path):
    """The scripted model never re-sends once answered; a real one might. Who sent it is read from the calls."""
    import dataclasses

    case = scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path)
    obs = dataclasses.replace(observe_incident(FakeCaller(reconcile=reconcile), case), emails=2)
    verdict = incident_verdict(obs, "es")
    assert not verdict.passed and "lo envió el modelo" in verdict.feedback
    assert "estado de ejecución desconocido" in verdict.feedback and "jugada uno" not in verdict.feedback


def test_a_reconcile_that_leaves_the_call_unanswered_hits_the_api_error(tmp_path):
    def forgets(cp, execute_tool):
        cp["pendingToolUse"] = None
        return cp

    verdict, _ = incident(tmp_path, forgets)
    assert not verdict.passed and "HTTP 400" in verdict.feedback and "tool_result" in verdict.feedback
    # The API's English, quoted as its words, after what it means in Spanish (issue 29).
    assert "es una llamada colgante" in verdict.feedback
    assert re.search(
        r"\(la API, en inglés: «messages\.\d+: `tool_use` ids were found without [^»]+»\)", verdict.feedback
    )


class GraderBug(Exception):
    """A fault injected into the grader's own code."""


def broken(*args: Any, **kwargs: Any) -> Any:
    if os.getpid() == TEST_PID:  # the judge's side only: the crash child (a fork) runs untouched
        raise GraderBug("fallo inyectado en el corrector")
    return REAL[0](*args, **kwargs)


TEST_PID = os.getpid()
REAL: list[Any] = []


@pytest.mark.parametrize(
    ("target", "fn"),
    [
        ("autograder.judging.observe.ToolLayer.__call__", "production"),  # the judge's tool layer, mid-reconcile
        ("autograder.judging.observe.ScriptedModel", "rule"),  # the model of the resumed run
        ("lesson3.agent.run_tool", "rule"),  # a tool the resumed loop runs itself
    ],
)
def test_a_grader_fault_in_the_incident_is_the_graders_not_a_lost_point(tmp_path, monkeypatch, target, fn):
    module, _, name = target.rpartition(".")
    owner = pytest.importorskip(module) if "ToolLayer" not in module else observe.ToolLayer
    REAL[:] = [getattr(owner, name)]
    monkeypatch.setattr(owner, name, broken)
    with pytest.raises(GraderBug):  # pipeline.judge turns it into an internal-error row naming the grader
        incident(tmp_path, {"production": reconcile_production, "rule": reconcile}[fn])


def test_the_crash_is_a_real_sigkill_after_delivery(tmp_path):
    case = scenarios.incident_case(scenarios.rng_for(3, "x"), tmp_path)
    assert observe.crash_after_delivery(case) == "SIGKILL"
    from lesson3.checkpoint import load_checkpoint
    from lesson3.tools import outbox_count

    assert outbox_count(case.workspace) == 1
    assert load_checkpoint(case.checkpoint_path)["pendingToolUse"]["name"] == "send_email"


# -- all criteria, delegation, questions -------------------------------------------------------------------------


RIGHT_ANSWERS = {q.variable: q.answer for q in QUESTIONS.values()}


def test_evaluate_criteria_gives_every_criterion_in_order_and_full_marks_to_the_rule(tmp_path):
    caller = FakeCaller(resume_action=resume_action, reconcile=reconcile)
    grading = evaluate_criteria(caller, CourseConfig(seed=SEED, levels=(1, 2)), scratch=tmp_path, answers=RIGHT_ANSWERS)
    levels_1_2 = [c for c in CRITERIA_IDS if CRITERIA[c].level in (1, 2)]
    assert [c.id for c in grading.criteria] == levels_1_2
    assert all(c.passed for c in grading.criteria), [c.feedback for c in grading.criteria if not c.passed]
    assert grading.flags == []


@pytest.mark.parametrize("answers", [None, {}, {"respuesta_causa_raiz": "c"}, RIGHT_ANSWERS])
def test_every_submission_has_the_same_maximum(tmp_path, answers):
    caller = FakeCaller(resume_action=resume_action, reconcile=reconcile)
    grading = evaluate_criteria(caller, CourseConfig(seed=SEED, levels=(1, 2)), scratch=tmp_path, answers=answers)
    levels_1_2 = [c for c in CRITERIA.values() if c.level in (1, 2)]
    assert [c.id for c in grading.criteria] == [c.id for c in levels_1_2]
    assert sum(c.max_score for c in grading.criteria) == sum(c.points for c in levels_1_2)


@pytest.mark.parametrize("variable", list(QUESTIONS))
def test_a_missing_answer_is_zero_with_a_message_naming_the_variable(variable):
    verdict = question_verdict(AnswerObservation(variable, None, defined=False), "es")
    assert not verdict.passed and f"No definiste `{variable}`" in verdict.feedback and "vale 0" in verdict.feedback
    untouched = question_verdict(AnswerObservation(variable, {"type": "NoneType"}), "es")
    assert not untouched.passed and "todavía no respondiste" in untouched.feedback


def test_levels_select_criteria_and_see_the_same_scenarios(tmp_path):
    caller = FakeCaller(resume_action=resume_action_only_send_email, reconcile=reconcile)
    both = evaluate_criteria(caller, CourseConfig(seed=SEED, levels=(1, 2)), scratch=tmp_path / "a")
    only1 = evaluate_criteria(caller, CourseConfig(seed=SEED, levels=(1,)), scratch=tmp_path / "b")
    level1 = [c.id for c in CRITERIA.values() if c.level == 1]
    assert [c.id for c in only1.criteria] == level1
    assert [c.feedback for c in only1.criteria] == [c.feedback for c in both.criteria[: len(level1)]]


@pytest.mark.parametrize(
    ("ran", "spelled", "shown", "words"),
    [
        ("lesson3.answers.reconcile", "lesson3.reconcile", "lesson3.reconcile", "la solución de referencia"),
        ("lesson3.answers.reconcile", None, "lesson3.answers.reconcile", "la solución de referencia"),
        # The source names another object than the one that ran: the flag says what ran.
        (
            "lesson3.production.reconcile_production",
            "lesson3.reconcile",
            "lesson3.production.reconcile_production",
            "el reconcile de producción del incidente",
        ),
        (
            "lesson3.production.delete_dangling",
            "l3.reconciliation.delete_dangling",
            "l3.reconciliation.delete_dangling",
            "la jugada uno de lesson3",
        ),
    ],
)
def test_what_ran_takes_the_credit_away_and_the_flag_says_what_it_is(tmp_path, ran, spelled, shown, words):
    caller = FakeCaller(resume_action=resume_action, reconcile=reconcile, reused={"reconcile": [ran]})
    grading = evaluate_criteria(
        caller, CourseConfig(seed=SEED, levels=(1, 2)), scratch=tmp_path, spelled=lambda: {"reconcile": spelled}
    )
    by_id = {c.id: c for c in grading.criteria}
    assert all(by_id[c.id].passed for c in CRITERIA.values() if c.function == "resume_action")
    assert not any(by_id[c.id].passed for c in CRITERIA.values() if c.function == "reconcile")
    assert shown in by_id["nivel2.no_double_email"].feedback and words in by_id["nivel2.no_double_email"].feedback
    assert grading.flags == [f"delega en lesson3: reconcile usa {shown}"]


def test_what_the_source_names_alone_takes_nothing_away(tmp_path):
    # The static reading only explains: a call that never ran it (dead code, an unused import) keeps its points.
    caller = FakeCaller(resume_action=resume_action, reconcile=reconcile)
    grading = evaluate_criteria(
        caller,
        CourseConfig(seed=SEED, levels=(1, 2)),
        scratch=tmp_path,
        spelled=lambda: {"reconcile": "lesson3.reconcile"},
    )
    code = [c for c in grading.criteria if CRITERIA[c.id].function in ("resume_action", "reconcile")]
    assert grading.flags == [] and code and all(c.passed for c in code), [c.feedback for c in code if not c.passed]


@pytest.mark.parametrize("reused", [{}, {"reconcile": ["lesson3.answers.reconcile"]}])
def test_the_source_is_read_for_its_spelling_only_when_a_function_delegated(tmp_path, reused):
    # Reading the spelling parses every cell again: a submission that delegated nothing never pays it.
    asked: list[int] = []

    def spelled() -> dict[str, str]:
        asked.append(1)
        return {"reconcile": "l3.reconcile"}

    caller = FakeCaller(resume_action=resume_action, reconcile=reconcile, reused=reused)
    grading = evaluate_criteria(caller, CourseConfig(seed=SEED, levels=(1, 2)), scratch=tmp_path, spelled=spelled)
    assert asked == ([1] if reused else [])
    assert grading.flags == (["delega en lesson3: reconcile usa l3.reconcile"] if reused else [])


def test_scenarios_differ_between_seeds(tmp_path):
    def ids(seed):
        return [
            c.checkpoint["pendingToolUse"]
            for c in scenarios.hidden_action_cases(scenarios.rng_for(seed, "nivel1.hidden"))
        ]

    assert ids(1) == ids(1)
    assert ids(1) != ids(2)


@pytest.mark.parametrize(("value", "passed"), [("c", True), (" C) ", True), ("(c)", True), ("b", False)])
def test_questions(value, passed):
    verdict = question_verdict(AnswerObservation("respuesta_causa_raiz", value), "es")
    assert verdict.passed is passed


def test_a_question_answer_that_is_not_a_letter_is_explained():
    verdict = question_verdict(AnswerObservation("respuesta_id_inventado", {"type": "int"}), "es")
    assert not verdict.passed and "una letra" in verdict.feedback


def test_the_outcome_is_not_mutated_by_the_verdict_functions(hi_cases):
    obs = observe_reconciles(FakeCaller(reconcile=reconcile), hi_cases[:1])
    before = copy.deepcopy(obs[0].outcome.value)
    paired_verdict(obs, "es")
    is_error_verdict(obs, "es")
    assert obs[0].outcome.value == before


def test_an_exception_on_one_case_is_named_with_that_case(hi_cases):
    def breaks_on_unknown_names(cp, execute_tool):
        if cp["pendingToolUse"]["name"] not in ("send_email", *scenarios.UNSEEN_HIGH_IMPACT):
            raise KeyError(cp["pendingToolUse"]["name"])
        return reconcile(cp, execute_tool)

    caller = FakeCaller(reconcile=breaks_on_unknown_names)

    def call(fn, arg, *, on_tool=None, poison=None):
        try:
            return FakeCaller.call(caller, fn, arg, on_tool=on_tool)
        except KeyError as e:
            return Outcome("error", info={"etype": "KeyError", "message": str(e), "line": 3}, fn=fn)

    caller.call = call  # type: ignore[method-assign]
    obs = observe_reconciles(caller, hi_cases)
    not_rerun, is_error = high_impact_verdict(obs, "es"), is_error_verdict(obs, "es")
    unknown = hi_cases[-1].label
    for verdict in (not_rerun, is_error):
        assert not verdict.passed
        assert f"1 de 7 casos: {unknown}: `reconcile` lanzó KeyError en la línea 3" in verdict.feedback


def test_a_resume_action_that_breaks_on_some_variants_says_which(tmp_path):
    cases = scenarios.hidden_action_cases(scenarios.rng_for(SEED, "nivel1.hidden"))
    outcomes = [
        Outcome("error", info={"etype": "TypeError", "message": "'NoneType' object is not subscriptable", "line": 2})
        if case.kind == "none"
        else Outcome("ok", value=case.expected)
        for case in cases
    ]
    for outcome in outcomes:
        outcome.fn = "resume_action"
    verdict = hidden_verdict([ActionObservation(c, o) for c, o in zip(cases, outcomes, strict=True)], "es")
    assert "Falló en 2 de 14" in verdict.feedback
    assert "sin llamada pendiente: `resume_action` lanzó TypeError en la línea 2" in verdict.feedback
    assert "Sin pendingToolUse no hay nada que conciliar" in verdict.feedback
    english = hidden_verdict([ActionObservation(c, o) for c, o in zip(cases, outcomes, strict=True)], "en")
    assert "no pending call: " in english.feedback
    assert "no pending call (crash after save point B): " in english.feedback
    assert "sin " not in english.feedback and "después" not in english.feedback


# -- no vacuous passes: a criterion passes only when what it checks happened ----------------------------------


def past_max_turns(cp, execute_tool):
    """Answers nothing; only pushes turns past MAX_TURNS so the resumed loop never runs."""
    cp["turns"] = 10_000
    cp["pendingToolUse"] = None
    return cp


def untouched(cp, execute_tool):
    return cp


def only_clears_pending(cp, execute_tool):
    cp["pendingToolUse"] = None
    return cp


def deletes_and_stops(cp, execute_tool):
    """Blind delete, then the loop is skipped: one email, but nobody resumed anything."""
    cp["messages"].pop()
    cp["pendingToolUse"] = None
    cp["turns"] = 10_000
    return cp


def answers_then_stops(cp, execute_tool):
    """The right tool_result, but the loop is skipped: the agent never goes on."""
    out = reconcile(cp, execute_tool)
    out["turns"] = 10_000
    return out


def answers_then_one_turn_left(cp, execute_tool):
    """The right tool_result, and one turn left: the model is called but never reaches its final answer."""
    from lesson3.agent import MAX_TURNS

    out = reconcile(cp, execute_tool)
    out["turns"] = MAX_TURNS - 1
    return out


def fake_final_answer(cp, execute_tool):
    """No tool_result; a made-up assistant answer after the dangling call, and the loop skipped."""
    cp["messages"].append({"role": "assistant", "content": [{"type": "text", "text": "Listo, correo enviado."}]})
    cp["pendingToolUse"] = None
    cp["turns"] = 10_000
    return cp


def answers_in_the_wrong_place(cp, execute_tool):
    """The dangling assistant message is replaced by one holding a tool_result: nothing pairs with the tool_use."""
    pending = cp["pendingToolUse"]
    result = {"type": "tool_result", "tool_use_id": pending["id"], "content": UNKNOWN_STATE_MESSAGE, "is_error": True}
    cp["messages"][-1] = {"role": "user", "content": [result]}
    cp["pendingToolUse"] = None
    return cp


def answers_after_a_text(cp, execute_tool):
    """The tool_result comes after a text block: the API reads it as no answer to the call."""
    pending = cp["pendingToolUse"]
    result = {"type": "tool_result", "tool_use_id": pending["id"], "content": UNKNOWN_STATE_MESSAGE, "is_error": True}
    cp["messages"].append({"role": "user", "content": [{"type": "text", "text": "Sobre el correo:"}, result]})
    cp["pendingToolUse"] = None
    return cp


VACUOUS = [untouched, only_clears_pending, past_max_turns, deletes_and_stops, fake_final_answer]


@pytest.mark.parametrize("fn", VACUOUS, ids=lambda f: f.__name__)
def test_a_reconcile_that_answers_nothing_passes_no_high_impact_criterion(hi_cases, fn):
    for verdict in hi_verdicts(fn, hi_cases):
        assert not verdict.passed, verdict.feedback


@pytest.mark.parametrize("fn", VACUOUS, ids=lambda f: f.__name__)
def test_a_reconcile_that_answers_nothing_does_not_rerun_read_only_tools(ro_cases, fn):
    assert not ro_verdict(fn, ro_cases).passed


@pytest.mark.parametrize(
    "fn",
    [past_max_turns, only_clears_pending, deletes_and_stops, answers_in_the_wrong_place, answers_after_a_text],
    ids=lambda f: f.__name__,
)
def test_not_running_the_tool_without_answering_the_call_says_so(hi_cases, fn):
    verdict, _, _ = hi_verdicts(fn, hi_cases[:1])
    assert not verdict.passed and "tampoco recibió su tool_result" in verdict.feedback


@pytest.mark.parametrize(
    ("fn", "expected"),
    [
        (past_max_turns, "no quedó respondida"),
        (deletes_and_stops, "no quedó respondida"),
        (fake_final_answer, "no quedó respondida"),
        (answers_then_stops, "ninguna llamada al modelo"),
        (answers_then_one_turn_left, "no llegó a su respuesta final"),
    ],
    ids=lambda x: getattr(x, "__name__", ""),
)
def test_one_email_is_not_enough_the_agent_must_resume_and_finish(tmp_path, fn, expected):
    verdict, _ = incident(tmp_path, fn)
    assert not verdict.passed, verdict.feedback
    assert expected in verdict.feedback and "reanudó" not in verdict.feedback.replace("nunca reanudó", "")


def test_the_incident_feedback_says_what_happened(tmp_path):
    verdict, _ = incident(tmp_path, reconcile)
    obs = observe_incident(
        FakeCaller(reconcile=reconcile),
        scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path / "again"),
    )
    assert obs.answered and obs.final_answer and obs.model_calls >= 1
    assert f"llamadas al modelo: {obs.model_calls})" in verdict.feedback


@pytest.mark.parametrize("fn", [untouched, past_max_turns], ids=lambda f: f.__name__)
def test_a_reconcile_that_does_nothing_gets_no_reconcile_criterion(tmp_path, fn):
    grading = evaluate_criteria(
        FakeCaller(resume_action=resume_action, reconcile=fn), CourseConfig(seed=SEED), scratch=tmp_path
    )
    passed = {c.id for c in grading.criteria if c.passed}
    assert not passed & {c.id for c in CRITERIA.values() if c.function == "reconcile"}, passed


# -- fields the API does not accept: said in the learner's language, with the API's own words ----------------

EXTRA = "Extra inputs are not permitted"
REFUSED_FIELDS = {
    "a name on the tool_result": (
        lambda cp, r: r.update(name="send_email"),
        ['["content"][0]["name"] no es un campo que acepte un bloque tool_result', f"tool_result.name: {EXTRA}"],
    ),
    "an id on the appended message": (
        lambda cp, r: cp["messages"][-1].update(id="msg_01"),
        ['["id"] no es un campo que acepte un mensaje (sus campos son content, role)', f".id: {EXTRA}"],
    ),
    "a key on a text after the result": (
        _then({**NOTE, "name": "nota"}),
        ['["content"][1]["name"] no es un campo que acepte un bloque text', f"content.1.text.name: {EXTRA}"],
    ),
    "a key in a text block of the result's content": (
        lambda cp, r: r.update(content=[{"type": "text", "text": UNKNOWN_STATE_MESSAGE, "is_error": True}]),
        ['["content"][0]["content"][0]["is_error"] no es un campo', f"tool_result.content.0.text.is_error: {EXTRA}"],
    ),
    "a key in cache_control": (
        lambda cp, r: r.update(cache_control={"type": "ephemeral", "scope": "global"}),
        ['["cache_control"]["scope"] no es un campo', f"cache_control.ephemeral.scope: {EXTRA}"],
    ),
    "the result's content as a dict": (
        lambda cp, r: r.update(content={"type": "text", "text": "x"}),
        ['["content"][0]["content"] tiene que ser un texto (str) o una lista y es dict'],
    ),
    "is_error as a list": (
        lambda cp, r: r.update(is_error=[True]),
        ['["is_error"] tiene que ser un booleano (True o False) y es list'],
    ),
    "a block of an unknown type after the result": (
        _then({"type": "nota", "text": "x"}),
        ["es un bloque de tipo «nota», que la API no acepta", "Input tag 'nota'"],
    ),
    "a block without type after the result": (
        _then({"text": "x"}),
        ["es un bloque sin el campo «type»", "Unable to extract tag"],
    ),
    "a tool_result without its id": (
        lambda cp, r: r.pop("tool_use_id"),
        ["le falta el campo obligatorio «tool_use_id»", "tool_use_id: Field required"],
    ),
}


@pytest.mark.parametrize(("change", "expected"), REFUSED_FIELDS.values(), ids=REFUSED_FIELDS.keys())
def test_a_field_the_api_does_not_accept_is_not_paired_and_says_where(hi_cases, ro_cases, change, expected):
    for cases in (hi_cases[:2], ro_cases[:2]):
        obs = observe_reconciles(FakeCaller(reconcile=variant(change)), cases)
        paired = paired_verdict(obs, "es")
        assert not paired.passed
        assert "la API rechazaría la conversación" in paired.feedback
        for words in expected:
            assert words in paired.feedback, paired.feedback
        # The API's own words are the same in both languages; only the sentence around them is translated.
        api_words = paired.feedback.split("la API responde «")[1].split("»")[0]
        english = paired_verdict(obs, "en").feedback
        assert "the API would reject the conversation" in english and f"the API answers «{api_words}»" in english


ACCEPTED_FIELDS = {
    "cache_control on the result": lambda cp, r: r.update(cache_control={"type": "ephemeral"}),
    "the result's content as text blocks": lambda cp, r: r.update(content=[{"type": "text", "text": r["content"]}]),
    "a text with citations None after it": _then({**NOTE, "citations": None}),
}


@pytest.mark.parametrize("change", ACCEPTED_FIELDS.values(), ids=ACCEPTED_FIELDS.keys())
def test_every_field_the_api_accepts_still_pairs(hi_cases, change):
    _, _, paired = hi_verdicts(variant(change), hi_cases)
    assert paired.passed, paired.feedback


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("n", [1, 2, 7])
def test_an_explanation_is_said_once_whatever_the_number_of_failed_cases(hi_cases, lang, n):
    """The cases are listed; the reason they share follows once (not once per case)."""
    from autograder.course.catalogue import text

    not_rerun, is_error, _ = hi_verdicts(reconcile_production, hi_cases[:n], lang)
    assert not not_rerun.passed and not is_error.passed
    assert not_rerun.feedback.count(text("high_impact.ran.why", lang)) == 1
    assert hi_cases[0].label in not_rerun.feedback


def test_a_reconcile_that_answers_nothing_explains_it_once(hi_cases):
    from autograder.course.catalogue import text

    def silent(cp, execute_tool):
        return cp

    not_rerun, _, _ = hi_verdicts(silent, hi_cases)
    assert not not_rerun.passed and not_rerun.feedback.count(text("high_impact.unanswered.why", "es")) == 1
    assert "no se ejecutó nada" in not_rerun.feedback


def counting_reconcile() -> Fn:
    """Answers by the call's place in the sequence, never by the tool: re-runs the first four, refuses the rest."""
    seen = [0]

    def fn(cp, execute_tool):
        seen[0] += 1
        pending = cp["pendingToolUse"]
        if seen[0] <= len(READ_ONLY_TOOLS):
            content, is_error = execute_tool(pending["name"], pending["input"]), False
        else:
            content, is_error = UNKNOWN_STATE_MESSAGE, True
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": content}
        cp["messages"].append({"role": "user", "content": [result | ({"is_error": True} if is_error else {})]})
        cp["pendingToolUse"] = None
        return cp

    return fn


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_the_order_of_the_reconcile_calls_says_nothing_about_their_kind(tmp_path, seed):
    # Read-only and high-impact cases come shuffled together: a reconcile that counts its calls fails.
    caller = FakeCaller(resume_action=resume_action, reconcile=counting_reconcile())
    grading = evaluate_criteria(caller, CourseConfig(seed=seed, levels=(2,)), scratch=tmp_path, answers=RIGHT_ANSWERS)
    by_id = {c.id: c for c in grading.criteria}
    assert not (by_id["nivel2.read_only_rerun"].passed and by_id["nivel2.high_impact_not_rerun"].passed)
    # The calls' order is what a learner sees: the pending tool's name of each call, in turn.
    seen: list[str] = []
    recording = FakeCaller(reconcile=lambda cp, _: seen.append(cp["pendingToolUse"]["name"]) or cp)
    observe.Run(recording, seed, tmp_path / "r").observed("reconcile.cases")
    assert set(seen[: len(READ_ONLY_TOOLS)]) != set(READ_ONLY_TOOLS)


@pytest.mark.parametrize(
    ("change", "all_said"),
    [
        (
            lambda cp, r: (r.pop("is_error"), r.update(tool_use_id="toolu_inventado")),
            ("responde a", "no tiene is_error"),
        ),
        (
            lambda cp, r: r.update(tool_use_id="toolu_inventado", is_error="true", content="OK: enviado."),
            ("responde a", "booleano True", "no le dice al modelo"),
        ),
        (lambda cp, r: r.update(tool_use_id="toolu_inventado"), ("responde a 'toolu_inventado'",)),
    ],
    ids=["id-and-no-is_error", "id-flag-and-text", "id-only"],
)
def test_every_problem_of_a_tool_result_is_said_not_only_the_first(hi_cases, change, all_said):
    """A wrong tool_use_id once hid a missing is_error: the learner fixed one and met the other next."""
    _, is_error, _ = hi_verdicts(variant(change), hi_cases[:2])
    assert not is_error.passed
    assert all(part in is_error.feedback for part in all_said), is_error.feedback
