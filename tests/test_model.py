"""The offline model: a real anthropic client, a scripted deterministic model, the API's own 400s."""

from __future__ import annotations

import copy
from typing import Any

import anthropic
import pytest

from lesson3.conversation import schema_problem
from lesson3.model import (
    DEFAULT_MODEL,
    TASK_EMAIL,
    TASK_NOTES,
    LiveModeError,
    ScriptedModel,
    api_error_for,
    live_requested,
    make_client,
    offline_client,
    rules_error,
)
from lesson3.tools import TOOL_SCHEMAS

NO_PARALLEL = {"type": "auto", "disable_parallel_tool_use": True}


def create(client: anthropic.Anthropic, messages: list[dict[str, Any]], **extra: Any) -> anthropic.types.Message:
    return client.messages.create(
        model=DEFAULT_MODEL,
        max_tokens=1024,
        tools=TOOL_SCHEMAS,
        messages=messages,
        **{"tool_choice": NO_PARALLEL, **extra},
    )


def call(tool_id: str, name: str = "read_file", input: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": input or {"path": "notes/glosario.md"}}


def result(tool_id: str, content: str = "ok", **extra: Any) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tool_id, "content": content, **extra}


def dangling_conversation() -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": TASK_NOTES},
        {"role": "assistant", "content": [{"type": "text", "text": "Leo."}, call("toolu_01A")]},
        {"role": "user", "content": "¿y?"},
    ]


# -- the API's checks --------------------------------------------------------------------------------


def test_a_well_formed_conversation_is_accepted() -> None:
    messages = [
        {"role": "user", "content": TASK_NOTES},
        {"role": "assistant", "content": [call("toolu_1")]},
        {"role": "user", "content": [result("toolu_1")]},
    ]
    assert api_error_for({"model": "m", "max_tokens": 1, "messages": messages}) is None


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"max_tokens": 1, "messages": [{"role": "user", "content": "x"}]}, "model: Field required"),
        ({"model": "m", "messages": [{"role": "user", "content": "x"}]}, "max_tokens: Field required"),
        ({"model": "m", "max_tokens": 1}, "messages: Field required"),
        ({"model": "m", "max_tokens": 1, "messages": []}, "messages: at least one message is required"),
        (
            {"model": "m", "max_tokens": 1, "messages": [{"role": "assistant", "content": "x"}]},
            'messages: first message must use the "user" role',
        ),
        (
            {
                "model": "m",
                "max_tokens": 1,
                "messages": [{"role": "user", "content": "x"}, {"role": "tool", "content": "y"}],
            },
            "messages.1.role: Input should be 'user' or 'assistant'",
        ),
        (
            {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": ""}]},
            "messages.0: all messages must have non-empty content except for the optional final assistant message",
        ),
    ],
)
def test_api_error_for_uses_the_apis_wording(body: dict[str, Any], expected: str) -> None:
    assert api_error_for(body) == expected
    if {"model", "max_tokens"} <= body.keys() and body.get("messages") and schema_problem(body["messages"]) is None:
        assert rules_error(body["messages"]) == expected


def test_a_dangling_tool_use_gets_the_apis_400_with_its_wording() -> None:
    with pytest.raises(anthropic.BadRequestError) as info:
        create(offline_client(), dangling_conversation())
    error = info.value
    assert error.status_code == 400
    assert error.body["type"] == "error"
    assert error.body["error"]["type"] == "invalid_request_error"
    assert error.body["error"]["message"] == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    )


def test_a_checkpoint_that_ends_on_the_dangling_call_is_refused_too() -> None:
    with pytest.raises(anthropic.BadRequestError, match="without `tool_result` blocks immediately after: toolu_01A"):
        create(offline_client(), [*dangling_conversation()[:2], {"role": "user", "content": [result("toolu_02")]}])


def test_a_tool_result_for_a_call_never_made_gets_the_apis_400() -> None:
    messages = [
        {"role": "user", "content": TASK_NOTES},
        {"role": "assistant", "content": [{"type": "text", "text": "Hola."}]},
        {"role": "user", "content": [result("toolu_fantasma")]},
    ]
    with pytest.raises(anthropic.BadRequestError) as info:
        create(offline_client(), messages)
    assert info.value.body["error"]["message"] == (
        "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_fantasma. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
    )


def answered_with(*reply: dict[str, Any]) -> list[dict[str, Any]]:
    """The notes task, a read_file call, and ``reply`` as the next user message."""
    return [
        {"role": "user", "content": TASK_NOTES},
        {"role": "assistant", "content": [{"type": "text", "text": "Leo."}, call("toolu_01A")]},
        {"role": "user", "content": list(reply)},
    ]


NOTE = {"type": "text", "text": "(reanudado tras una caída)"}


@pytest.mark.parametrize(
    "reply",
    [
        [result("toolu_01A"), NOTE],
        [result("toolu_01A"), NOTE, {"type": "text", "text": "Sigue con la tarea."}],
        [result("toolu_01A", [{"type": "text", "text": "# Glosario"}, {"type": "text", "text": "checkpoint"}]), NOTE],
        [result("toolu_01A", "Estado de ejecución desconocido.", is_error=True), NOTE],
    ],
    ids=["one text", "two texts", "content as text blocks", "is_error"],
)
def test_text_after_the_tool_result_is_accepted_as_the_api_accepts_it(reply: list[dict[str, Any]]) -> None:
    model = ScriptedModel()
    response = create(offline_client(model=model), answered_with(*reply))
    assert response.role == "assistant" and response.content
    assert model.requests[-1]["messages"][-1]["content"] == reply


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (
            [NOTE, result("toolu_01A")],
            "messages.2: Did not find 1 tool_result block(s) at the beginning of this message. Messages following "
            "tool_use blocks must begin with a matching number of tool_result blocks.",
        ),
        (
            [result("toolu_01A"), result("toolu_01A")],
            "messages.2.content.1: each tool_use must have a single result. Found multiple `tool_result` blocks "
            "with id: toolu_01A",
        ),
        (
            [result("toolu_01A"), NOTE, result("toolu_01A")],
            "messages.2.content.2: each tool_use must have a single result. Found multiple `tool_result` blocks "
            "with id: toolu_01A",
        ),
        (
            [result("toolu_01A"), result("toolu_01Z")],
            "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01Z. "
            "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
        ),
        (
            [NOTE],
            "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A. "
            "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
        ),
        ([result("toolu_01A"), {"type": "text", "text": ""}], "messages: text content blocks must be non-empty"),
        (
            [result("toolu_01A", [{"type": "text", "text": "  "}])],
            "messages: text content blocks must contain non-whitespace text",
        ),
    ],
    ids=["text first", "twice", "twice around a text", "an extra id", "only text", "empty text", "blank text"],
)
def test_what_the_api_refuses_gets_its_400_and_wording(reply: list[dict[str, Any]], message: str) -> None:
    assert api_error_for({"model": "m", "max_tokens": 1, "messages": answered_with(*reply)}) == message
    assert rules_error(answered_with(*reply)) == message  # what the judge asks once the shape is read
    with pytest.raises(anthropic.BadRequestError) as info:
        create(offline_client(), answered_with(*reply))
    assert info.value.status_code == 400 and info.value.body["error"]["message"] == message


def test_every_request_is_recorded_even_the_refused_ones() -> None:
    model = ScriptedModel()
    client = offline_client(model=model)
    create(client, [{"role": "user", "content": TASK_NOTES}])
    with pytest.raises(anthropic.BadRequestError):
        create(client, dangling_conversation())
    assert [len(r["messages"]) for r in model.requests] == [1, 3]
    assert model.requests[0]["tool_choice"] == NO_PARALLEL
    assert [t["name"] for t in model.requests[0]["tools"]] == [t["name"] for t in TOOL_SCHEMAS]


def test_only_the_messages_endpoint_exists_offline() -> None:
    with pytest.raises(anthropic.NotFoundError):
        offline_client().models.list()


# -- the scripted model's behaviour ---------------------------------------------------------------------


def test_the_notes_task_starts_by_listing_the_notes_one_call_at_a_time() -> None:
    message = create(offline_client(), [{"role": "user", "content": TASK_NOTES}])
    assert message.stop_reason == "tool_use"
    uses = [b for b in message.content if b.type == "tool_use"]
    assert [(u.name, u.input) for u in uses] == [("list_dir", {"path": "notes"})]
    assert uses[0].id.startswith("toolu_01") and len(uses[0].id) == len("toolu_01") + 22
    assert message.usage.input_tokens > 0 and message.usage.output_tokens > 0
    assert message.model == DEFAULT_MODEL


def test_without_the_flag_or_when_ignoring_it_the_model_calls_tools_in_parallel() -> None:
    listed = [
        {"role": "user", "content": TASK_NOTES},
        {"role": "assistant", "content": [call("toolu_1", "list_dir", {"path": "notes"})]},
        {"role": "user", "content": [result("toolu_1", "a.md\nb.md\nc.md")]},
    ]
    serial = create(offline_client(), listed)
    assert [b.input["path"] for b in serial.content if b.type == "tool_use"] == ["notes/a.md"]
    for client, extra in (
        (offline_client(model=ScriptedModel(ignore_parallel_flag=True)), {}),
        (offline_client(), {"tool_choice": {"type": "auto"}}),
    ):
        parallel = create(client, listed, **extra)
        assert [b.input["path"] for b in parallel.content if b.type == "tool_use"] == [
            "notes/a.md",
            "notes/b.md",
            "notes/c.md",
        ]


def test_the_same_conversation_gets_the_same_answer_and_the_seed_only_changes_ids() -> None:
    messages = [{"role": "user", "content": TASK_EMAIL}]
    a = create(offline_client(), copy.deepcopy(messages)).model_dump()
    b = create(offline_client(), copy.deepcopy(messages)).model_dump()
    c = create(offline_client(seed=7), copy.deepcopy(messages)).model_dump()
    assert a == b
    assert a["content"][1]["id"] != c["content"][1]["id"]
    assert a["id"] != c["id"]
    for x in (a, c):
        x["content"][1].pop("id")
        x.pop("id")
    assert a == c


def test_a_finished_answer_used_as_prefill_gets_an_empty_answer() -> None:
    messages = [{"role": "user", "content": TASK_NOTES}, {"role": "assistant", "content": "Listo."}]
    message = create(offline_client(), messages)
    assert message.content == [] and message.stop_reason == "end_turn"


def test_an_unknown_task_gets_an_offline_explanation() -> None:
    message = create(offline_client(), [{"role": "user", "content": "Escríbeme un poema"}])
    assert message.stop_reason == "end_turn"
    assert "sin conexión" in message.content[0].text


def _email_conversation(task: str, outcome: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The email task up to the send, with the send's result being ``outcome`` (or not yet there)."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": task},
        {"role": "assistant", "content": [call("toolu_1", "list_dir", {"path": "notes"})]},
        {"role": "user", "content": [result("toolu_1", "m.md")]},
        {"role": "assistant", "content": [call("toolu_2", "read_file", {"path": "notes/m.md"})]},
        {"role": "user", "content": [result("toolu_2", "Acuerdo: publicar el viernes")]},
    ]
    if outcome is not None:
        messages += [
            {"role": "assistant", "content": [call("toolu_3", "send_email", {"to": "t@example.com", "subject": "S"})]},
            {"role": "user", "content": [result("toolu_3", **outcome)]},
        ]
    return messages


def test_the_email_task_sends_the_conclusions_to_the_recipient_and_subject_in_the_task() -> None:
    task = "Mandarle un correo a ana@example.com con el asunto «Acuerdos del lunes»"
    message = create(offline_client(), _email_conversation(task, None))
    send = next(b for b in message.content if b.type == "tool_use")
    assert send.name == "send_email"
    assert send.input["to"] == "ana@example.com"
    assert send.input["subject"] == "Acuerdos del lunes"
    assert "publicar el viernes" in send.input["body"]


def test_after_an_unknown_state_result_the_model_checks_the_outbox_before_sending_again() -> None:
    messages = _email_conversation(TASK_EMAIL, {"content": "Estado de ejecución desconocido", "is_error": True})
    check = create(offline_client(), messages)
    grep = next(b for b in check.content if b.type == "tool_use")
    assert grep.name == "grep" and grep.input["path"] == "outbox"

    seen = [
        *copy.deepcopy(messages),
        {"role": "assistant", "content": [call("toolu_4", "grep", grep.input)]},
        {"role": "user", "content": [result("toolu_4", "outbox/new/000001.lesson3:3: Subject: S")]},
    ]
    after_found = create(offline_client(), seen)
    assert after_found.stop_reason == "end_turn"
    assert "no lo reenvío" in after_found.content[0].text

    not_seen = copy.deepcopy(seen)
    not_seen[-1]["content"][0]["content"] = "(sin coincidencias)"
    after_missing = create(offline_client(), not_seen)
    resend = next(b for b in after_missing.content if b.type == "tool_use")
    assert (resend.name, resend.input) == ("send_email", {"to": "t@example.com", "subject": "S"})


def test_after_a_successful_send_the_model_says_it_is_done() -> None:
    message = create(offline_client(), _email_conversation(TASK_EMAIL, {"content": "Correo enviado"}))
    assert message.stop_reason == "end_turn"
    assert message.content[0].text.startswith("Listo")


# -- choosing the client ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"), [("1", True), ("true", True), ("Sí", True), ("0", False), ("", False), ("no", False)]
)
def test_live_requested_reads_the_opt_in(monkeypatch: pytest.MonkeyPatch, value: str, expected: bool) -> None:
    monkeypatch.setenv("LESSON3_LIVE", value)
    assert live_requested() is expected


def test_make_client_is_offline_by_default_even_with_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LESSON3_LIVE", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-real-looking")
    client = make_client()
    assert client.api_key == "sk-ant-offline"
    assert create(client, [{"role": "user", "content": TASK_NOTES}]).stop_reason == "tool_use"


def test_live_without_a_key_is_a_spanish_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LESSON3_LIVE", "1")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(LiveModeError, match="falta ANTHROPIC_API_KEY"):
        make_client()


def test_live_with_a_key_is_the_real_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LESSON3_LIVE", "1")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    client = make_client()
    assert isinstance(client, anthropic.Anthropic)
    assert client.api_key == "sk-ant-test"
    assert "api.anthropic.com" in str(client.base_url)
    assert make_client(live=False).api_key == "sk-ant-offline"
