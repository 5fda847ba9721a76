"""The offline API is as strict as the real one about fields: a key it does not accept is a 400.

The Messages API validates each message (``role`` and ``content``, nothing else) and each
block against its type's fields; ``lesson3.conversation.schema_problem`` reads those fields
from the SDK's own request types, and the offline model (in process and over HTTP) and the
grader's ``nivel2.tool_result_paired`` both use it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import anthropic
import pytest

from autograder.course.config import CourseConfig
from autograder.grading.pipeline import grade_many
from lesson3.agent import run_agent
from lesson3.conversation import schema_problem
from lesson3.crash import fresh_run_dir
from lesson3.loopback import serve
from lesson3.model import DEFAULT_MODEL, TASK_EMAIL, TASK_NOTES, ScriptedModel, api_error_for, offline_client

DATA = Path(__file__).parent / "data" / "submissions"

TOOL_USE = {"type": "tool_use", "id": "toolu_01abc", "name": "send_email", "input": {"to": "a@b.c"}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_01abc", "content": "Estado desconocido.", "is_error": True}


def conversation(result: dict[str, Any] | None = None, *after: dict[str, Any]) -> list[dict[str, Any]]:
    """A task, the model's dangling call, and the user message answering it (``result`` first, then ``after``)."""
    return [
        {"role": "user", "content": "Avisa al equipo"},
        {"role": "assistant", "content": [{"type": "text", "text": "Lo envío."}, copy.deepcopy(TOOL_USE)]},
        {"role": "user", "content": [copy.deepcopy(result or RESULT), *copy.deepcopy(list(after))]},
    ]


def error(messages: list[dict[str, Any]]) -> str | None:
    return api_error_for({"model": DEFAULT_MODEL, "max_tokens": 10, "messages": messages})


# -- what the API refuses, and its words ----------------------------------------------------------------

EXTRA = "Extra inputs are not permitted"

REFUSED: dict[str, tuple[list[dict[str, Any]], str]] = {
    "a name on the tool_result": (
        conversation({**RESULT, "name": "send_email"}),
        f"messages.2.content.0.tool_result.name: {EXTRA}",
    ),
    "an id on the appended message": (
        [*conversation()[:2], {**conversation()[2], "id": "msg_01"}],
        f"messages.2.id: {EXTRA}",
    ),
    "an extra key on the first message": (
        [{**conversation()[0], "name": "alumno"}, *conversation()[1:]],
        f"messages.0.name: {EXTRA}",
    ),
    "a tool_use with a text field": (
        [conversation()[0], {"role": "assistant", "content": [{**TOOL_USE, "text": "x"}]}, conversation()[2]],
        f"messages.1.content.0.tool_use.text: {EXTRA}",
    ),
    "a text block after the result with an extra key": (
        conversation(RESULT, {"type": "text", "text": "Nota", "role": "user"}),
        f"messages.2.content.1.text.role: {EXTRA}",
    ),
    "a text block nested in the tool_result's content": (
        conversation({**RESULT, "content": [{"type": "text", "text": "Estado desconocido.", "is_error": True}]}),
        f"messages.2.content.0.tool_result.content.0.text.is_error: {EXTRA}",
    ),
    "a second nested block with the extra key": (
        conversation({**RESULT, "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b", "x": 1}]}),
        f"messages.2.content.0.tool_result.content.1.text.x: {EXTRA}",
    ),
    "an extra key inside cache_control": (
        conversation({**RESULT, "cache_control": {"type": "ephemeral", "scope": "global"}}),
        f"messages.2.content.0.tool_result.cache_control.ephemeral.scope: {EXTRA}",
    ),
    "an image with an extra key": (
        conversation(
            RESULT,
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"}, "alt": "x"},
        ),
        f"messages.2.content.1.image.alt: {EXTRA}",
    ),
    "a tool_result without its tool_use_id": (
        conversation({k: v for k, v in RESULT.items() if k != "tool_use_id"}),
        "messages.2.content.0.tool_result.tool_use_id: Field required",
    ),
    "content that is neither text nor a list": (
        [{"role": "user", "content": 42}],
        "messages.0.content: Input should be a valid string or a valid list",
    ),
    "a block without type": (
        conversation(RESULT, {"text": "Nota"}),
        "messages.2.content.1: Unable to extract tag using discriminator 'type'",
    ),
    "a block of an unknown type": (
        conversation(RESULT, {"type": "note", "text": "Nota"}),
        "messages.2.content.1: Input tag 'note' found using 'type' does not match any of the expected tags: 'text'",
    ),
    "a string among the blocks": (
        conversation(RESULT, "Nota"),  # type: ignore[arg-type]
        "messages.2.content.1: Input should be a valid dictionary",
    ),
    "tool_result content as a dict": (
        conversation({**RESULT, "content": {"type": "text", "text": "x"}}),
        "messages.2.content.0.tool_result.content: Input should be a valid string or a valid list",
    ),
    "a tool_use block inside a tool_result": (
        conversation({**RESULT, "content": [copy.deepcopy(TOOL_USE)]}),
        "messages.2.content.0.tool_result.content.0: Input tag 'tool_use' found",
    ),
    "is_error as a list": (
        conversation({**RESULT, "is_error": [True]}),
        "messages.2.content.0.tool_result.is_error: Input should be a valid boolean",
    ),
    "a cache ttl the API does not offer": (
        conversation({**RESULT, "cache_control": {"type": "ephemeral", "ttl": "2h"}}),
        "messages.2.content.0.tool_result.cache_control.ephemeral.ttl: Input should be '5m' or '1h'",
    ),
    "a message that is not a dict": (
        [{"role": "user", "content": "hola"}, ["assistant", "hola"]],
        "messages.1: Input should be a valid dictionary",
    ),
}


@pytest.mark.parametrize(("messages", "expected"), REFUSED.values(), ids=REFUSED.keys())
def test_the_offline_api_refuses_what_the_api_refuses_with_its_words(messages, expected):
    said = error(messages)
    assert said is not None and said.startswith(expected), said


ACCEPTED: dict[str, list[dict[str, Any]]] = {
    "the lesson's is_error answer": conversation(),
    "every tool_result field": conversation(
        {**RESULT, "content": [{"type": "text", "text": "x"}], "cache_control": {"type": "ephemeral", "ttl": "1h"}}
    ),
    "a text after the result": conversation(RESULT, {"type": "text", "text": "Nota", "cache_control": None}),
    "is_error as the API's lax boolean": conversation({**RESULT, "is_error": "true"}),
    "an image in the result": conversation(
        {**RESULT, "content": [{"type": "image", "source": {"type": "url", "url": "https://x.y/z.png"}}]}
    ),
    "a plain string content": [{"role": "user", "content": "hola"}],
}


@pytest.mark.parametrize("messages", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_what_the_api_accepts_is_accepted(messages):
    assert schema_problem(messages) is None
    assert error(messages) is None


def test_the_fields_come_from_the_sdks_own_types():
    """Not a list of ours: every key the SDK's ToolResultBlockParam declares is accepted, and named when one is not."""
    from anthropic.types import ToolResultBlockParam

    declared = set(ToolResultBlockParam.__annotations__)
    problem = schema_problem(conversation({**RESULT, "name": "x"}))
    assert problem is not None and set(problem.expected) == declared
    assert problem.owner == "tool_result" and problem.at == (2, "content", 0, "name")


def test_the_real_client_gets_a_400_with_the_apis_words():
    client = offline_client()
    for messages, expected in REFUSED.values():
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.messages.create(model=DEFAULT_MODEL, max_tokens=10, messages=messages)
        assert caught.value.status_code == 400
        assert caught.value.body["error"]["type"] == "invalid_request_error"
        assert caught.value.body["error"]["message"].startswith(expected)


def test_over_http_the_loopback_api_refuses_the_same(monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    with serve() as (url, api):
        client = anthropic.Anthropic(base_url=url, api_key="sk-ant-loopback", max_retries=0)
        for name in ("a name on the tool_result", "an id on the appended message", "a block without type"):
            messages, expected = REFUSED[name]
            with pytest.raises(anthropic.BadRequestError) as caught:
                client.messages.create(model=DEFAULT_MODEL, max_tokens=10, messages=messages)
            assert caught.value.body["error"]["message"].startswith(expected), name
        client.messages.create(model=DEFAULT_MODEL, max_tokens=10, messages=ACCEPTED["every tool_result field"])
    assert [a.status for a in api.attempts] == [400, 400, 400, 200]


# -- the course's own conversations are still accepted --------------------------------------------------


@pytest.mark.parametrize("task", [TASK_NOTES, TASK_EMAIL])
def test_every_request_of_a_course_run_passes_the_check(tmp_path, task):
    """The agent's own conversations (the SDK's response blocks dumped back) have only accepted fields."""
    model = ScriptedModel()
    workspace, checkpoint = fresh_run_dir(tmp_path)
    state = run_agent(task, client=offline_client(model=model), checkpoint_path=checkpoint, workspace=workspace)
    assert len(model.requests) > 2 and all(schema_problem(r["messages"]) is None for r in model.requests)
    assert schema_problem(state["messages"]) is None


# -- the grader says what the API would refuse ----------------------------------------------------------

GOOD = (DATA / "good.py").read_text(encoding="utf-8")
APPEND = 'cp["messages"].append({"role": "user", "content": [result]})'


def edited(new: str) -> str:
    assert APPEND in GOOD
    return GOOD.replace(APPEND, new)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[str, Any]:
    cases = {
        "good": GOOD,
        "name_on_result": edited('result["name"] = name\n    ' + APPEND),
        "id_on_message": edited('cp["messages"].append({"role": "user", "content": [result], "id": tool_id})'),
    }
    folder = tmp_path_factory.mktemp("estricta")
    paths = []
    for name, source in cases.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
        paths.append(folder / f"{name}.py")
    return dict(zip(cases, grade_many(paths, CourseConfig(seed=5, levels=(2,)), jobs=2), strict=True))


def paired(result: Any) -> Any:
    return next(c for c in result.criteria if c.id == "nivel2.tool_result_paired")


def test_a_graded_reconcile_with_the_lessons_fields_is_paired(graded):
    assert paired(graded["good"]).passed, paired(graded["good"]).feedback


@pytest.mark.parametrize(
    ("name", "words"),
    [
        (
            "name_on_result",
            ['["content"][0]["name"] no es un campo que acepte un bloque tool_result', "tool_result.name: " + EXTRA],
        ),
        ("id_on_message", ['["id"] no es un campo que acepte un mensaje', f".id: {EXTRA}"]),
    ],
)
def test_a_graded_reconcile_with_an_extra_key_is_not_paired_and_hears_why(graded, name, words):
    criterion = paired(graded[name])
    assert not criterion.passed
    assert "la API acepta la conversación" not in criterion.feedback
    for w in words:
        assert w in criterion.feedback, criterion.feedback
    # The resumed agent sends that conversation to the (offline) API, which refuses it as the real one would:
    # the incident does not finish either, and says why. The other Level 2 criteria are as for good.py.
    incident = next(c for c in graded[name].criteria if c.id == "nivel2.no_double_email")
    assert not incident.passed and EXTRA in incident.feedback, incident.feedback
    others = [c for c in graded[name].criteria if c.id.startswith("nivel2.") and c not in (criterion, incident)]
    good = {c.id: c.passed for c in graded["good"].criteria}
    assert others and [c.id for c in others if c.passed != good[c.id]] == []
