"""lesson3.conversation: the message helpers lesson3 and the grader share."""

from __future__ import annotations

import ast
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
    assert describe_run_error(api_error) == "HTTP 400 BadRequestError: tool_use ids without tool_result"
    assert describe_run_error(CheckpointError("versión 2")) == "CheckpointError: versión 2"
    assert describe_run_error(KeyError("turns")) == "KeyError: 'turns'"


def test_reconcile_the_function_does_not_shadow_its_module():
    module = importlib.import_module("lesson3.reconciliation")
    assert lesson3.reconcile is module.reconcile and callable(lesson3.reconcile)
    assert "lesson3.reconcile" not in sys.modules


def test_the_grader_imports_no_private_name_of_lesson3():
    private = []
    for path in sorted((ROOT / "autograder").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lesson3"):
                private += [f"{path.name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    assert private == []
