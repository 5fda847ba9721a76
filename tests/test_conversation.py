"""lesson3.conversation: the message helpers lesson3 and the grader share."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import anthropic
import httpx2
import pytest

import lesson3
from lesson3.checkpoint import CheckpointError
from lesson3.conversation import (
    blocks,
    content_text,
    describe_call,
    describe_pending,
    describe_run_error,
    last_tool_use,
    leading_tool_results,
    pairing_problem,
    shorten,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"role": "user", "content": "hola"}, []),
        ({"role": "user", "content": [{"type": "text", "text": "a"}, "basura", 3]}, [{"type": "text", "text": "a"}]),
        ({"role": "user"}, []),
        (None, []),
    ],
)
def test_blocks_are_the_dict_blocks_of_a_list_content(message, expected):
    assert blocks(message) == expected


@pytest.mark.parametrize(
    ("content", "sep", "expected"),
    [
        ("texto", "", "texto"),
        ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "", "ab"),
        ([{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}], " ", "a b"),
        ([], "", ""),
        ([{"type": "text", "text": "a"}, "no es un bloque"], "", None),
        (42, "", None),
        (None, "", None),
    ],
)
def test_the_text_of_a_content(content, sep, expected):
    assert content_text(content, sep) == expected


def test_the_last_tool_use_is_in_the_last_assistant_message_only():
    use = {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {}}
    messages = [
        {"role": "user", "content": "tarea"},
        {"role": "assistant", "content": [{"type": "text", "text": "leo"}, use]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"}]},
    ]
    assert last_tool_use(messages) == use
    assert last_tool_use([*messages, {"role": "assistant", "content": "listo"}]) is None
    assert last_tool_use([]) is None


def _use(tool_id: str) -> dict:
    return {"type": "tool_use", "id": tool_id, "name": "read_file", "input": {"path": "notes/a.md"}}


def _result(tool_id: str, content: object = "x") -> dict:
    return {"type": "tool_result", "tool_use_id": tool_id, "content": content}


TEXT = {"type": "text", "text": "Sigue."}


def _after_two_calls(*reply: object) -> list:
    """A task, an assistant message with two tool calls, and ``reply`` as the next user message's content."""
    return [
        {"role": "user", "content": "tarea"},
        {"role": "assistant", "content": [{"type": "text", "text": "leo"}, _use("toolu_a"), _use("toolu_b")]},
        {"role": "user", "content": list(reply)},
    ]


@pytest.mark.parametrize(
    "reply",
    [
        [_result("toolu_a"), _result("toolu_b")],
        [_result("toolu_b"), _result("toolu_a")],  # any order among the leading tool_results
        [_result("toolu_a"), _result("toolu_b"), TEXT],
        [_result("toolu_a"), _result("toolu_b"), TEXT, {"type": "text", "text": "y otra"}],
        [_result("toolu_a", [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}]), _result("toolu_b"), TEXT],
    ],
)
def test_tool_results_first_then_anything_keeps_the_rule(reply):
    assert pairing_problem(_after_two_calls(*reply)) is None
    assert [b["tool_use_id"] for b in leading_tool_results(_after_two_calls(*reply)[-1])] in (
        ["toolu_a", "toolu_b"],
        ["toolu_b", "toolu_a"],
    )


@pytest.mark.parametrize(
    ("reply", "kind", "message", "block", "ids"),
    [
        ([TEXT, _result("toolu_a"), _result("toolu_b")], "not_first", 2, None, ("toolu_a", "toolu_b")),
        ([_result("toolu_a"), TEXT, _result("toolu_b")], "not_first", 2, None, ("toolu_b",)),
        ([_result("toolu_a"), TEXT], "missing", 1, None, ("toolu_b",)),
        ([TEXT], "missing", 1, None, ("toolu_a", "toolu_b")),
        ([_result("toolu_a"), _result("toolu_b"), _result("toolu_a")], "duplicate", 2, 2, ("toolu_a",)),
        ([_result("toolu_a"), _result("toolu_b"), TEXT, _result("toolu_b")], "duplicate", 2, 3, ("toolu_b",)),
        ([_result("toolu_a"), _result("toolu_b"), _result("toolu_z")], "unexpected", 2, 2, ("toolu_z",)),
        ([_result("toolu_z"), _result("toolu_a"), _result("toolu_b")], "unexpected", 2, 0, ("toolu_z",)),
    ],
)
def test_each_way_of_breaking_the_rule_is_named_where_the_api_names_it(reply, kind, message, block, ids):
    problem = pairing_problem(_after_two_calls(*reply))
    assert problem is not None
    assert (problem.kind, problem.message, problem.block, problem.ids) == (kind, message, block, ids)


def test_a_string_reply_and_a_missing_reply_leave_the_calls_unanswered():
    messages = _after_two_calls()
    messages[-1]["content"] = "¿y?"
    assert pairing_problem(messages).kind == "missing"
    assert pairing_problem(messages[:-1]).kind == "missing"
    assert pairing_problem(["basura", {"role": "user"}, None]) is None  # learner data never raises


def test_a_call_on_one_line():
    assert describe_pending(None) == "null"
    pending = {"id": "toolu_9", "name": "send_email", "input": {"to": "a@b.c", "body": "línea\nlínea"}}
    assert describe_pending(pending) == 'send_email {"to": "a@b.c", "body": "línea\\nlínea"} (toolu_9)'
    assert describe_call("grep", {"pattern": "x" * 200}).endswith("…")
    assert shorten("a\n  b", 10) == "a b"


def test_a_run_error_is_one_sentence():
    request = httpx2.Request("POST", "https://api.anthropic.com/v1/messages")
    body = {"type": "error", "error": {"type": "invalid_request_error", "message": "tool_use ids without tool_result"}}
    response = httpx2.Response(400, json=body, request=request)
    api_error = anthropic.BadRequestError("400", response=response, body=body)
    # A wording the course does not know is still quoted as the API's.
    said = "HTTP 400 BadRequestError: la API, en inglés: «tool_use ids without tool_result»"
    assert describe_run_error(api_error) == said
    assert describe_run_error(CheckpointError("versión 2")) == "CheckpointError: versión 2"
    assert describe_run_error(KeyError("turns")) == "KeyError: 'turns'"


def test_reconcile_the_function_does_not_shadow_its_module():
    module = importlib.import_module("lesson3.answers")
    assert lesson3.reconcile is module.reconcile and callable(lesson3.reconcile)
    assert "lesson3.reconcile" not in sys.modules
