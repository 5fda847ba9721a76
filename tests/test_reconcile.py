"""reconcile(cp): read-only calls re-run, high-impact ones fall back to is_error; the production one, move one."""

from __future__ import annotations

import copy
import importlib
from pathlib import Path
from typing import Any

import pytest

from lesson3.answers import STRATEGIES, reconcile
from lesson3.checkpoint import dangling_tool_uses, validate_checkpoint
from lesson3.exercises import exercise_checkpoint
from lesson3.model import api_error_for
from lesson3.reconciliation import READ_ONLY_TOOLS, UNKNOWN_STATE_MESSAGE, delete_dangling, reconcile_production
from lesson3.tools import execute_tool, outbox_count

# The module that holds the lesson's reconcile (lesson3's answers), whose execute_tool the tests replace.
reconcile_module = importlib.import_module("lesson3.answers")


def with_pending(name: str, input: dict[str, Any], tool_id: str = "toolu_01X") -> dict[str, Any]:
    """cpB with its dangling call replaced by ``name(input)``."""
    cp = exercise_checkpoint("cpB")
    block = next(b for b in cp["messages"][-1]["content"] if b["type"] == "tool_use")
    block.update(id=tool_id, name=name, input=input)
    cp["pendingToolUse"] = {"id": tool_id, "name": name, "input": copy.deepcopy(input)}
    return validate_checkpoint(cp)


def assert_paired(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The shape the lesson asks for; returns the one tool_result that was added."""
    assert after["messages"][: len(before["messages"])] == before["messages"]
    assert len(after["messages"]) == len(before["messages"]) + 1
    added = after["messages"][-1]
    assert added["role"] == "user"
    assert len(added["content"]) == 1
    block = added["content"][0]
    assert block["type"] == "tool_result"
    assert block["tool_use_id"] == before["pendingToolUse"]["id"]
    assert after["pendingToolUse"] is None
    assert (after["turns"], after["tokensUsed"], after["task"]) == (
        before["turns"],
        before["tokensUsed"],
        before["task"],
    )
    assert dangling_tool_uses(after["messages"]) == []
    assert api_error_for({"model": "m", "max_tokens": 1, "messages": after["messages"]}) is None
    return block


def test_read_only_tools_are_the_lessons_four() -> None:
    assert frozenset({"read_file", "grep", "list_dir", "web_search"}) == READ_ONLY_TOOLS
    assert "send_email" not in READ_ONLY_TOOLS


def test_the_unknown_state_message_is_the_lessons() -> None:
    assert UNKNOWN_STATE_MESSAGE == (
        "Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada terminara, así que no hay "
        "manera de confirmar si tuvo efecto. Por favor, reevalúa la situación actual."
    )


@pytest.mark.parametrize(
    ("name", "input"),
    [
        ("read_file", {"path": "./notes/meeting-08-25.md"}),
        ("grep", {"pattern": "Acuerdo", "path": "notes"}),
        ("list_dir", {"path": "notes"}),
        ("web_search", {"query": "resume from where the agent was"}),
    ],
)
def test_a_read_only_call_is_run_again_and_its_real_output_recorded(
    active_workspace: Path, name: str, input: dict[str, Any]
) -> None:
    cp = with_pending(name, input)
    before = copy.deepcopy(cp)
    after = reconcile(cp)
    assert after is cp  # the lesson mutates and returns cp
    block = assert_paired(before, after)
    assert block["content"] == execute_tool(name, input)
    assert "is_error" not in block
    assert not block["content"].startswith("Error:")


@pytest.mark.parametrize(
    ("name", "input"),
    [
        ("send_email", {"to": "team@example.com", "subject": "Conclusiones de esta semana"}),
        ("write_file", {"path": "notes/x.md", "content": "x"}),
        ("charge_card", {"amount": 10}),
    ],
)
def test_a_high_impact_call_is_not_run_and_gets_the_is_error_fallback(
    active_workspace: Path, monkeypatch: pytest.MonkeyPatch, name: str, input: dict[str, Any]
) -> None:
    ran: list[str] = []
    monkeypatch.setattr(reconcile_module, "execute_tool", lambda n, i: ran.append(n) or "?")
    cp = with_pending(name, input)
    before = copy.deepcopy(cp)
    block = assert_paired(before, reconcile(cp))
    assert block["is_error"] is True
    assert block["content"] == UNKNOWN_STATE_MESSAGE
    assert ran == []
    assert outbox_count(active_workspace) == 0


def test_the_production_version_runs_every_call_again_so_an_email_goes_out(active_workspace: Path) -> None:
    cp = exercise_checkpoint("cpC")
    before = copy.deepcopy(cp)
    block = assert_paired(before, reconcile_production(cp))
    assert outbox_count(active_workspace) == 1
    assert "is_error" not in block
    assert block["content"].startswith("Correo enviado a team@example.com")


def test_the_production_version_is_harmless_for_a_read_only_call(active_workspace: Path) -> None:
    cp = exercise_checkpoint("cpB")
    before = copy.deepcopy(cp)
    lesson = reconcile(copy.deepcopy(cp))
    assert reconcile_production(cp) == lesson
    assert_paired(before, cp)


def test_move_one_deletes_the_dangling_message_and_with_it_the_models_decision(active_workspace: Path) -> None:
    cp = exercise_checkpoint("cpC")
    before = copy.deepcopy(cp)
    after = delete_dangling(cp)
    assert after["messages"] == before["messages"][:-1]
    assert after["pendingToolUse"] is None
    assert dangling_tool_uses(after["messages"]) == []
    assert not any(
        b.get("name") == "send_email" for m in after["messages"] for b in m["content"] if isinstance(b, dict)
    )


def test_move_one_leaves_a_conversation_without_a_dangling_message_alone() -> None:
    cp = exercise_checkpoint("cpA")
    cp["messages"].append({"role": "user", "content": "¿y ahora?"})
    before = copy.deepcopy(cp)
    assert delete_dangling(cp) == before


def test_strategies_by_name() -> None:
    assert STRATEGIES == {"reconcile": reconcile, "production": reconcile_production, "delete": delete_dangling}
