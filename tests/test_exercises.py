"""The exercise checkpoints cpA, cpB, cpC: the lesson's fields, full conversations, and what resuming each does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lesson3.agent import run_agent
from lesson3.answers import EXPECTED_ACTION
from lesson3.checkpoint import dangling_tool_uses, save_checkpoint, validate_checkpoint
from lesson3.exercises import (
    EXERCISE_NAMES,
    LESSON_FIELDS,
    SAVE_POINT,
    exercise_checkpoint,
    exercise_checkpoints,
)
from lesson3.model import ScriptedModel, api_error_for, offline_client
from lesson3.reconciliation import UNKNOWN_STATE_MESSAGE
from lesson3.tools import outbox_count

# As printed in the lesson's exercise (Nivel 1), copied here independently of the package.
NOTES = "Ayúdame a juntar las notas de reunión de esta semana"
EMAIL = "Enviarle un correo al equipo para avisarle de las conclusiones"
LESSON = {
    "cpA": {"version": 1, "task": NOTES, "turns": 6, "tokensUsed": 18420, "pendingToolUse": None},
    "cpB": {
        "version": 1,
        "task": NOTES,
        "turns": 7,
        "tokensUsed": 19310,
        "pendingToolUse": {"id": "toolu_01A", "name": "read_file", "input": {"path": "./notes/meeting-08-25.md"}},
    },
    "cpC": {
        "version": 1,
        "task": EMAIL,
        "turns": 9,
        "tokensUsed": 24003,
        "pendingToolUse": {
            "id": "toolu_01B",
            "name": "send_email",
            "input": {"to": "team@example.com", "subject": "Conclusiones de esta semana"},
        },
    },
}


def test_every_table_of_the_exercise_names_the_same_checkpoints() -> None:
    assert EXERCISE_NAMES == tuple(LESSON)  # the lesson's three, in its order
    assert tuple(SAVE_POINT) == tuple(EXPECTED_ACTION) == EXERCISE_NAMES


@pytest.mark.parametrize("name", EXERCISE_NAMES)
def test_the_fields_are_exactly_the_lessons(name: str) -> None:
    cp = exercise_checkpoint(name)
    assert list(cp) == ["version", "task", "turns", "tokensUsed", "messages", "pendingToolUse"]
    assert {k: v for k, v in cp.items() if k != "messages"} == LESSON[name]
    assert LESSON_FIELDS[name] == LESSON[name]


@pytest.mark.parametrize("name", EXERCISE_NAMES)
def test_the_messages_are_a_full_conversation_the_api_accepts(name: str) -> None:
    cp = exercise_checkpoint(name)
    validate_checkpoint(cp)
    messages = cp["messages"]
    assert messages[0] == {"role": "user", "content": cp["task"]}
    assert [m["role"] for m in messages] == (["user", "assistant"] * len(messages))[: len(messages)]
    # One answer per turn, one result after each answer but a pending one.
    assert len(messages) == 2 * cp["turns"] + (cp["pendingToolUse"] is None)
    prefix = messages if cp["pendingToolUse"] is None else messages[:-1]
    assert api_error_for({"model": "m", "max_tokens": 1, "messages": prefix}) is None


def test_cpA_is_the_lessons_crash_after_save_point_b_before_the_next_create() -> None:
    """One story for cpA: the lesson's completion criterion, and the data that shows it."""
    cp = exercise_checkpoint("cpA")
    last = cp["messages"][-1]
    assert last["role"] == "user"  # turn 6's tool_result is recorded (save point B)...
    assert [b["type"] for b in last["content"]] == ["tool_result"]
    assert dangling_tool_uses(cp["messages"]) == []  # ...and answers the last tool_use: nothing dangles
    # The same conversation goes on to cpB: its next create() is turn 7, the one cpB shows pending.
    cp_b = exercise_checkpoint("cpB")
    assert cp_b["messages"][: len(cp["messages"])] == cp["messages"]
    assert len(cp_b["messages"]) == len(cp["messages"]) + 1


@pytest.mark.parametrize("name", ["cpB", "cpC"])
def test_cpB_and_cpC_end_on_the_tool_use_their_pendingToolUse_names(name: str) -> None:
    cp = exercise_checkpoint(name)
    (block,) = dangling_tool_uses(cp["messages"])
    assert cp["messages"][-1]["content"][-1] is block
    assert {k: block[k] for k in ("id", "name", "input")} == cp["pendingToolUse"]


def test_each_call_gives_a_fresh_copy() -> None:
    a = exercise_checkpoint("cpC")
    a["messages"].clear()
    a["pendingToolUse"]["input"]["to"] = "otro@example.com"
    b = exercise_checkpoint("cpC")
    assert b["messages"] and b["pendingToolUse"]["input"]["to"] == "team@example.com"
    assert set(exercise_checkpoints()) == set(EXERCISE_NAMES)
    assert exercise_checkpoints()["cpA"] == exercise_checkpoint("cpA")


def test_an_unknown_exercise_name_is_a_spanish_error() -> None:
    with pytest.raises(KeyError, match="no hay un punto de control de ejercicio llamado «cpD»"):
        exercise_checkpoint("cpD")


@pytest.mark.parametrize("name", EXERCISE_NAMES)
def test_resuming_each_does_the_expected_action(tmp_path: Path, workspace: Path, name: str) -> None:
    cp = exercise_checkpoint(name)
    path = tmp_path / "checkpoint.json"
    save_checkpoint(cp, path)
    seen: list[dict[str, Any]] = []

    def spy(c: dict[str, Any]) -> dict[str, Any]:
        from lesson3.answers import reconcile

        seen.append(c)
        return reconcile(c)

    model = ScriptedModel()
    state = run_agent(
        cp["task"], client=offline_client(model=model), checkpoint_path=path, workspace=workspace, reconcile=spy
    )
    action = EXPECTED_ACTION[name]
    if action == "continue":
        # cpA: nothing to reconcile; the loop takes messages as saved and fires the next call.
        assert seen == []
        assert model.requests[0]["messages"] == cp["messages"]
        assert state["turns"] > cp["turns"] and state["messages"][: len(cp["messages"])] == cp["messages"]
        return
    first = model.requests[0]["messages"]
    (result,) = first[len(cp["messages"])]["content"]
    assert result["tool_use_id"] == cp["pendingToolUse"]["id"]
    if action == "rerun":
        assert "Acuerdo:" in result["content"] and "is_error" not in result
    else:
        assert action == "is_error"
        assert result["is_error"] is True and result["content"] == UNKNOWN_STATE_MESSAGE
    assert state["turns"] > cp["turns"]
    assert outbox_count(workspace) == (1 if name == "cpC" else 0)
