"""lesson3.render: a checkpoint as readable text, and what resuming it will do."""

from __future__ import annotations

import pytest

from lesson3.checkpoint import new_state
from lesson3.exercises import exercise_checkpoint
from lesson3.render import (
    describe_call,
    final_text,
    format_checkpoint,
    format_message,
    resume_plan,
    shorten,
    task_finished,
)


def test_task_finished_and_final_text() -> None:
    cpA, cpB = exercise_checkpoint("cpA"), exercise_checkpoint("cpB")
    # cpA stopped after save point B: the next call is still to be made, the task is not over.
    assert not task_finished(cpA) and not task_finished(cpB)
    assert final_text(cpA) is None and final_text(cpB) is None
    finished = exercise_checkpoint("cpA")
    finished["messages"].append({"role": "assistant", "content": [{"type": "text", "text": "Listo: 3 acuerdos."}]})
    assert task_finished(finished) and final_text(finished) == "Listo: 3 acuerdos."
    fresh = new_state("x")
    assert not task_finished(fresh) and final_text(fresh) is None
    answered = exercise_checkpoint("cpB")
    answered["pendingToolUse"] = None
    answered["messages"].append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A"}]})
    assert not task_finished(answered)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        (
            "cpA",
            "Sin llamada colgante: no hay nada que conciliar (continuar). Al reanudar, el bucle toma messages y "
            "hace la llamada siguiente",
        ),
        ("cpB", "Llamada colgante a read_file, de solo lectura: reconcile() la vuelve a ejecutar"),
        ("cpC", "Llamada colgante a send_email, de alto impacto: reconcile() no la vuelve a ejecutar"),
    ],
)
def test_resume_plan_follows_the_lessons_rule(name: str, words: str) -> None:
    assert resume_plan(exercise_checkpoint(name)).startswith(words)


def test_resume_plan_for_a_checkpoint_saved_at_point_b() -> None:
    cp = exercise_checkpoint("cpB")
    cp["pendingToolUse"] = None
    cp["messages"].append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A"}]})
    assert resume_plan(cp).startswith("Sin llamada colgante")


def test_describe_call_and_shorten() -> None:
    assert describe_call("read_file", {"path": "notes/ñ.md"}, "toolu_1") == 'read_file {"path": "notes/ñ.md"} (toolu_1)'
    assert describe_call("grep", {}) == "grep {}"
    assert shorten("a\n\n  b\tc") == "a b c"
    assert shorten("x" * 20, 10) == "x" * 9 + "…"


def test_format_message_shows_each_block() -> None:
    cp = exercise_checkpoint("cpC")
    lines = format_message(17, cp["messages"][-1])
    assert lines[0].startswith("[17] assistant «Tengo las conclusiones")
    assert lines[1].strip().startswith("→ tool_use send_email {")
    assert lines[1].endswith("(toolu_01B)")
    error = {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": "no", "is_error": True}],
    }
    assert format_message(3, error) == ["[3] user      ← tool_result (t) [is_error]: «no»"]
    assert format_message(0, {"role": "user", "content": "hola"}) == ["[0] user      «hola»"]
    assert format_message(5, {"role": "assistant", "content": []}) == ["[5] assistant (sin contenido)"]


def test_format_checkpoint_lists_the_fields_the_tail_and_the_plan() -> None:
    cp = exercise_checkpoint("cpB")
    text = format_checkpoint(cp, source="cp.json", tail=3)
    lines = text.splitlines()
    assert lines[0] == "Punto de control: cp.json"
    assert "  turns           7" in lines and "  tokensUsed      19310" in lines
    assert "  messages        14 mensajes" in lines
    assert 'pendingToolUse  read_file {"path": "./notes/meeting-08-25.md"} (toolu_01A)' in text
    assert "Últimos 3 mensajes:" in lines
    assert sum(1 for line in lines if line.startswith("  [")) == 3
    assert "Llamada colgante: toolu_01A no tiene tool_result." in lines
    assert lines[-1] == resume_plan(cp)
    assert "Último mensaje:" in format_checkpoint(cp, tail=1)
    assert "mensajes:" not in format_checkpoint(cp, tail=0)
