"""The live path over real HTTP: the SDK's default client, pointed at a loopback Messages API.

Every test here goes through ``make_client`` with ``LESSON3_LIVE=1`` and a fake key,
exactly as ``lesson3 run`` does; only ``ANTHROPIC_BASE_URL`` sends it to 127.0.0.1,
where ``lesson3.loopback`` serves the offline scripted model.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import threading
import typing
from pathlib import Path
from typing import Any

import anthropic
import anthropic._base_client
import pytest
from anthropic._data import DEPRECATED_MODELS

from lesson3 import cli
from lesson3.agent import run_agent
from lesson3.answers import STRATEGIES
from lesson3.checkpoint import load_checkpoint, new_state, save_checkpoint
from lesson3.crash import fresh_run_dir
from lesson3.loopback import Fault, LoopbackAPI, overloaded, rate_limited, serve
from lesson3.model import (
    DEFAULT_MODEL,
    MODEL_ENV,
    TASK_EMAIL,
    TASK_NOTES,
    LiveModeError,
    ScriptedModel,
    api_error_for,
    api_error_said,
    chosen_model,
    make_client,
    offline_client,
)
from lesson3.tools import TOOL_SCHEMAS, outbox_count

KEY = "sk-ant-loopback-test-key-0123456789"
CHILD_WAIT = 60.0


@pytest.fixture
def live_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("LESSON3_LIVE", "1")
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.delenv("LESSON3_MODEL", raising=False)
    return monkeypatch


def cli_run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_clear_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and KEY not in err
    return lines[0]


# -- which model --------------------------------------------------------------------------------


def test_the_default_model_is_one_the_pinned_sdk_lists_and_does_not_deprecate() -> None:
    listed = {m for arg in typing.get_args(anthropic.types.Model) for m in typing.get_args(arg)}
    assert DEFAULT_MODEL in listed, f"{DEFAULT_MODEL} is not in anthropic.types.Model of this SDK"
    assert DEFAULT_MODEL not in DEPRECATED_MODELS, f"the SDK marks {DEFAULT_MODEL} deprecated"


def test_the_model_is_the_flag_then_lesson3_model_then_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LESSON3_MODEL", raising=False)
    assert chosen_model() == DEFAULT_MODEL
    monkeypatch.setenv("LESSON3_MODEL", "  ")
    assert chosen_model() == DEFAULT_MODEL
    monkeypatch.setenv("LESSON3_MODEL", "claude-haiku-4-5")
    assert chosen_model() == "claude-haiku-4-5"
    assert chosen_model("claude-opus-9-unknown") == "claude-opus-9-unknown"  # the API decides
    with pytest.raises(LiveModeError, match="vacío"):
        chosen_model(" ")


# -- usage as the API reports it ------------------------------------------------------------------


def test_without_cache_control_the_cache_fields_are_zero_and_tokens_used_is_input_plus_output(
    tmp_path: Path, workspace: Path
) -> None:
    model = ScriptedModel()
    state = run_agent(
        TASK_NOTES, client=offline_client(model=model), checkpoint_path=tmp_path / "cp.json", workspace=workspace
    )
    usage = create(offline_client(), model.requests[-1]["messages"]).usage
    assert (usage.cache_creation_input_tokens, usage.cache_read_input_tokens) == (0, 0)
    assert usage.cache_creation is not None
    assert (usage.cache_creation.ephemeral_5m_input_tokens, usage.cache_creation.ephemeral_1h_input_tokens) == (0, 0)
    assert usage.input_tokens > 0 and usage.output_tokens > 0
    assert state["tokensUsed"] == usage.input_tokens + usage.output_tokens  # the lesson's definition


def create(client: anthropic.Anthropic, messages: list[dict[str, Any]]) -> anthropic.types.Message:
    return client.messages.create(
        model=DEFAULT_MODEL,
        max_tokens=1024,
        tools=TOOL_SCHEMAS,
        tool_choice={"type": "auto", "disable_parallel_tool_use": True},
        messages=messages,
    )


def marked(messages: list[dict[str, Any]], ttl: str | None = None) -> list[dict[str, Any]]:
    """The conversation with a cache breakpoint on its last block, as a caching loop would send it."""
    messages = copy.deepcopy(messages)
    last = messages[-1]
    if isinstance(last["content"], str):
        last["content"] = [{"type": "text", "text": last["content"]}]
    last["content"][-1]["cache_control"] = {"type": "ephemeral", **({"ttl": ttl} if ttl else {})}
    return messages


@pytest.fixture(scope="module")
def notes_requests(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    workspace, checkpoint = fresh_run_dir(tmp_path_factory.mktemp("notes"))
    model = ScriptedModel()
    run_agent(TASK_NOTES, client=offline_client(model=model), checkpoint_path=checkpoint, workspace=workspace)
    return model.requests


def test_with_cache_control_the_prompt_is_written_then_read_and_the_three_input_fields_add_up(
    notes_requests: list[dict[str, Any]],
) -> None:
    client = offline_client()
    eighth, ninth = notes_requests[7]["messages"], notes_requests[8]["messages"]
    plain = create(client, ninth).usage

    first = create(client, marked(eighth)).usage
    again = create(client, marked(eighth)).usage
    later = create(client, marked(ninth)).usage

    assert first.cache_creation_input_tokens > 0 and first.cache_read_input_tokens == 0
    assert first.cache_creation is not None
    assert first.cache_creation.ephemeral_5m_input_tokens == first.cache_creation_input_tokens
    assert again.cache_read_input_tokens == first.cache_creation_input_tokens
    assert again.cache_creation_input_tokens == 0 and again.input_tokens == first.input_tokens
    # The next turn reads what the previous one wrote (the API looks back for it) and writes the rest.
    assert later.cache_read_input_tokens == first.cache_creation_input_tokens
    assert later.cache_creation_input_tokens > 0
    window = later.input_tokens + later.cache_creation_input_tokens + later.cache_read_input_tokens
    assert window == plain.input_tokens
    # What the lesson's tokensUsed keeps: without the cached part, it is far below the window.
    assert later.input_tokens + later.output_tokens < window


def test_a_short_prompt_is_not_cached_and_a_1h_breakpoint_is_reported_as_such(
    notes_requests: list[dict[str, Any]],
) -> None:
    client = offline_client()
    short = create(client, marked(notes_requests[0]["messages"])).usage
    assert (short.cache_creation_input_tokens, short.cache_read_input_tokens) == (0, 0)  # under the minimum

    long = create(client, marked(notes_requests[8]["messages"], ttl="1h")).usage
    assert long.cache_creation is not None and long.cache_creation_input_tokens > 0
    assert long.cache_creation.ephemeral_1h_input_tokens == long.cache_creation_input_tokens
    assert long.cache_creation.ephemeral_5m_input_tokens == 0


# -- a whole run over HTTP ----------------------------------------------------------------------------


def test_a_live_run_over_http_with_tool_calls_is_the_offline_run(live_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    offline_ws, offline_cp = fresh_run_dir(tmp_path / "offline")
    expected = run_agent(TASK_EMAIL, client=offline_client(), checkpoint_path=offline_cp, workspace=offline_ws)

    workspace, checkpoint = fresh_run_dir(tmp_path / "live")
    with serve(LoopbackAPI(keys={KEY})) as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        client = make_client()
        assert client.api_key == KEY and client.max_retries == anthropic.DEFAULT_MAX_RETRIES
        state = run_agent(TASK_EMAIL, client=client, checkpoint_path=checkpoint, workspace=workspace)

    assert state == expected
    assert len(api.attempts) == state["turns"] > 2
    assert {a.status for a in api.attempts} == {200}
    assert {a.model for a in api.attempts} == {DEFAULT_MODEL}
    tools = [
        b["name"]
        for m in state["messages"]
        if m["role"] == "assistant"
        for b in m["content"]
        if b["type"] == "tool_use"
    ]
    assert "read_file" in tools and tools[-1] == "send_email"
    assert outbox_count(workspace) == 1


@pytest.mark.parametrize("how", ["flag", "env"])
def test_the_cli_sends_the_chosen_model(
    live_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, how: str
) -> None:
    argv = ["run", "--tarea", "notas", "--dir", str(tmp_path / "run")]
    if how == "flag":
        argv += ["--modelo", "claude-haiku-4-5"]
    else:
        live_env.setenv("LESSON3_MODEL", "claude-haiku-4-5")
    with serve() as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        code, out, err = cli_run(capsys, *argv)
    assert code == 0, err
    assert "modelo claude-haiku-4-5" in out and "Junté las notas" in out
    assert {a.model for a in api.attempts} == {"claude-haiku-4-5"}


# -- what the SDK retries ----------------------------------------------------------------------------


@pytest.fixture
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """The SDK's own backoff between retries (about 0.5 s, then 1 s), cut to milliseconds.

    What these tests check is that the SDK retries, what it sends and what the run does
    after; how long it waits between tries is the SDK's business. (A 429's retry-after is
    not a backoff: the SDK waits what the server says, which the 429 test tells apart.)
    """
    monkeypatch.setattr(anthropic._base_client, "INITIAL_RETRY_DELAY", 0.005)


def test_a_529_overloaded_is_retried_by_the_sdk_and_the_run_finishes(
    live_env: pytest.MonkeyPatch, quick_backoff: None, tmp_path: Path
) -> None:
    workspace, checkpoint = fresh_run_dir(tmp_path / "run")
    with serve(LoopbackAPI(faults={2: overloaded(), 3: overloaded()})) as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        state = run_agent(TASK_NOTES, client=make_client(), checkpoint_path=checkpoint, workspace=workspace)
    assert [a.status for a in api.attempts[:4]] == [200, 529, 529, 200]
    assert [a.retry_count for a in api.attempts[1:4]] == ["0", "1", "2"]  # the SDK's own retries
    assert api.attempts[1].messages == api.attempts[3].messages
    assert state["turns"] == len(api.attempts) - 2 and state["pendingToolUse"] is None


def test_a_429_is_retried_after_retry_after(live_env: pytest.MonkeyPatch, quick_backoff: None, tmp_path: Path) -> None:
    workspace, checkpoint = fresh_run_dir(tmp_path / "run")
    with serve(LoopbackAPI(faults={1: rate_limited("0.3")})) as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        state = run_agent(TASK_NOTES, client=make_client(), checkpoint_path=checkpoint, workspace=workspace)
    assert [a.status for a in api.attempts[:2]] == [429, 200]
    assert api.attempts[1].retry_count == "1"
    # It waited as told (0.3 s), not its own backoff (cut to 5 ms by quick_backoff).
    assert api.attempts[1].at - api.attempts[0].at >= 0.25
    assert state["pendingToolUse"] is None and state["turns"] == len(api.attempts) - 1


def test_when_retries_run_out_the_cli_says_so_in_one_line(
    live_env: pytest.MonkeyPatch, quick_backoff: None, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with serve(LoopbackAPI(faults={n: overloaded() for n in (1, 2, 3)})) as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        code, _, err = cli_run(capsys, "run", "--dir", str(tmp_path / "run"))
    assert code == 1 and len(api.attempts) == 3
    assert "sobrecargada (HTTP 529)" in one_clear_line(err)


@pytest.mark.slow
def test_a_timeout_is_retried_then_is_one_clear_line_and_the_checkpoint_is_intact(
    live_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    slow = {n: Fault(delay=3.0) for n in (3, 4, 5)}
    short = lambda: make_client().with_options(timeout=0.4)  # noqa: E731 - the CLI's client, impatient
    live_env.setattr(cli, "make_client", short)
    with serve(LoopbackAPI(faults=slow)) as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        code, _, err = cli_run(capsys, "run", "--tarea", "notas", "--dir", str(run_dir))
        assert len(api.attempts) == 5  # two answered, then the third call and the SDK's two retries
    line = one_clear_line(err)
    assert code == 1 and "no respondió a tiempo" in line
    cp = load_checkpoint(run_dir / "checkpoint.json")
    assert cp is not None and cp["turns"] == 2 and cp["pendingToolUse"] is None


# -- what the API refuses -------------------------------------------------------------------------------


def test_a_wrong_key_is_one_spanish_line_naming_the_variable_without_the_key(
    live_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with serve(LoopbackAPI(keys={"sk-ant-the-right-one"})) as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        code, _, err = cli_run(capsys, "run", "--dir", str(tmp_path / "run"))
    line = one_clear_line(err)
    assert code == 1 and len(api.attempts) == 1  # a 401 is not retried
    assert "HTTP 401" in line and "ANTHROPIC_API_KEY" in line and "LESSON3_LIVE" in line


@pytest.mark.parametrize("how", ["flag", "env"])
def test_a_model_the_api_does_not_serve_is_one_spanish_line_naming_how_to_choose(
    live_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, how: str
) -> None:
    run_dir = tmp_path / "run"
    stop = Fault(400, "invalid_request_error", "a stop planned by the test")
    with serve(LoopbackAPI(faults={3: stop})) as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        assert cli_run(capsys, "run", "--tarea", "notas", "--dir", str(run_dir))[0] == 1
        before = load_checkpoint(run_dir / "checkpoint.json")
        assert before is not None and before["turns"] == 2
        if how == "flag":
            code, _, err = cli_run(capsys, "resume", "--dir", str(run_dir), "--modelo", "claude-sonnet-4-5")
        else:
            live_env.setenv("LESSON3_MODEL", "claude-sonnet-4-5")
            code, _, err = cli_run(capsys, "resume", "--dir", str(run_dir))
        line = one_clear_line(err)
        assert code == 1 and api.attempts[-1].status == 404
        assert "«claude-sonnet-4-5»" in line and "--modelo" in line and "LESSON3_MODEL" in line
        assert load_checkpoint(run_dir / "checkpoint.json") == before
        # Fixing the model is enough (the flag wins over LESSON3_MODEL): the run picks up where it was.
        code, out, err = cli_run(capsys, "resume", "--dir", str(run_dir), "--modelo", DEFAULT_MODEL)
    assert code == 0 and "Junté las notas" in out, err


def test_a_dangling_call_gets_the_apis_400_wording_over_http(
    live_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    fresh_run_dir(run_dir)
    cp = new_state(TASK_NOTES)
    cp["turns"] = 1
    call = {"type": "tool_use", "id": "toolu_01Dangling", "name": "list_dir", "input": {"path": "notes"}}
    cp["messages"].append({"role": "assistant", "content": [call]})
    cp["pendingToolUse"] = {"id": call["id"], "name": call["name"], "input": call["input"]}
    save_checkpoint(cp, run_dir / "checkpoint.json")
    wording = api_error_for({"model": DEFAULT_MODEL, "max_tokens": 1024, "messages": cp["messages"]})
    assert wording is not None and "toolu_01Dangling" in wording

    live_env.setitem(STRATEGIES, "reconcile", lambda state: state)  # a resume that forgets to reconcile
    with serve() as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        code, _, err = cli_run(capsys, "resume", "--dir", str(run_dir))
        with pytest.raises(anthropic.BadRequestError) as raised:
            run_agent(
                TASK_NOTES,
                client=make_client(),
                checkpoint_path=run_dir / "checkpoint.json",
                workspace=run_dir / "workspace",
                reconcile=lambda state: state,
            )
    said = f"Error: la API respondió HTTP 400: {api_error_said(wording)}"
    assert code == 1 and one_clear_line(err) == said and f"«{wording}»" in said
    assert raised.value.body["error"] == {"type": "invalid_request_error", "message": wording}
    assert [a.status for a in api.attempts] == [400, 400]  # a 400 is not retried


def test_an_error_text_that_carries_the_key_is_not_echoed(
    live_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    leaky = Fault(400, "invalid_request_error", f"x-api-key {KEY} is malformed")
    with serve(LoopbackAPI(faults={1: leaky})) as (url, _):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        code, _, err = cli_run(capsys, "run", "--dir", str(tmp_path / "run"))
    assert code == 1 and "x-api-key *** is malformed" in one_clear_line(err)


# -- a real SIGKILL while a request is in flight --------------------------------------------------------


@pytest.mark.slow
def test_sigkill_while_a_request_is_in_flight_then_resume_in_a_new_process(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    release = threading.Event()
    api = LoopbackAPI(keys={KEY}, faults={4: Fault(hold=release)})
    with serve(api) as (url, _):
        env = {
            **os.environ,
            "LESSON3_LIVE": "1",
            "ANTHROPIC_API_KEY": KEY,
            "ANTHROPIC_BASE_URL": url,
            "NO_PROXY": "127.0.0.1",
        }
        env.pop("LESSON3_MODEL", None)
        command = [sys.executable, "-m", "lesson3", "run", "--tarea", "correo", "--dir", str(run_dir)]
        child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert api.arrival(4).wait(CHILD_WAIT), "the child never sent its fourth request"
            on_disk = load_checkpoint(run_dir / "checkpoint.json")
            child.send_signal(signal.SIGKILL)
            child.wait(CHILD_WAIT)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            child.stdout.close()  # type: ignore[union-attr]
            child.stderr.close()  # type: ignore[union-attr]
        release.set()
        assert child.returncode == -signal.SIGKILL
        assert on_disk is not None and on_disk["turns"] == 3 and on_disk["pendingToolUse"] is None
        assert load_checkpoint(run_dir / "checkpoint.json") == on_disk  # the kill wrote nothing

        resumed = subprocess.run(
            [sys.executable, "-m", "lesson3", "resume", "--dir", str(run_dir)],
            env=env,
            capture_output=True,
            text=True,
            timeout=CHILD_WAIT,
        )
    assert resumed.returncode == 0, resumed.stderr
    assert "Reanudando desde" in resumed.stdout and "Respuesta final" in resumed.stdout
    # The resumed process asked the model exactly what the killed one was asking.
    assert api.attempts[4].messages == api.attempts[3].messages
    final = load_checkpoint(run_dir / "checkpoint.json")
    assert final is not None and final["pendingToolUse"] is None and final["turns"] == len(api.attempts) - 1
    assert outbox_count(run_dir / "workspace") == 1
    assert json.loads((run_dir / "checkpoint.json").read_text())["task"] == TASK_EMAIL


@pytest.mark.slow
def test_lesson3_crash_goes_live_with_the_chosen_model_then_resume_finishes(
    live_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    with serve(LoopbackAPI(keys={KEY})) as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        code, out, err = cli_run(
            capsys, "crash", "--en", "after_tool", "--herramienta", "send_email", "--dir", str(run_dir),
            "--modelo", "claude-haiku-4-5",
        )  # fmt: skip
        assert code == 0, out + err
        assert "SIGKILL" in out and "modelo claude-haiku-4-5" in out
        sent_by_the_child = len(api.attempts)
        assert sent_by_the_child > 2 and {a.model for a in api.attempts} == {"claude-haiku-4-5"}
        assert outbox_count(run_dir / "workspace") == 1

        code, out, err = cli_run(capsys, "resume", "--dir", str(run_dir))
    assert code == 0, err
    assert {a.model for a in api.attempts[sent_by_the_child:]} == {DEFAULT_MODEL}
    assert outbox_count(run_dir / "workspace") == 1  # reconciled, not re-sent
    assert "Respuesta final" in out


def test_lesson3_crash_live_with_an_unserved_model_says_which_variable(
    live_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    live_env.setenv("LESSON3_MODEL", "claude-sonnet-4-5")
    with serve() as (url, api):
        live_env.setenv("ANTHROPIC_BASE_URL", url)
        code, out, _ = cli_run(capsys, "crash", "--en", "after_tool", "--dir", str(tmp_path / "run"))
    assert code == 1 and [a.status for a in api.attempts] == [404]
    assert "«claude-sonnet-4-5»" in out and "LESSON3_MODEL" in out and "Traceback" not in out and KEY not in out


@pytest.mark.parametrize(
    "env, given, expected",
    [
        ("claude-env-model", None, "claude-env-model"),
        ("claude-env-model", "claude-arg-model", "claude-arg-model"),
        (None, None, DEFAULT_MODEL),
    ],
)
def test_run_agent_called_from_python_sends_the_chosen_model(
    run_dir: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, env: str | None, given: str | None, expected: str
) -> None:
    """``run_agent`` itself honours LESSON3_MODEL, not only the CLI: a notebook's live run uses the same model."""
    if env is None:
        monkeypatch.delenv(MODEL_ENV, raising=False)
    else:
        monkeypatch.setenv(MODEL_ENV, env)
    workspace, checkpoint_path = run_dir
    model = ScriptedModel()
    run_agent(
        TASK_NOTES,
        client=offline_client(model=model),
        checkpoint_path=checkpoint_path,
        workspace=workspace,
        model=given,
    )
    assert model.requests and {r["model"] for r in model.requests} == {expected}


def test_notebook_03_names_the_cache_fields_tokens_used_leaves_out() -> None:
    """The note on prompt caching names the SDK's real cache fields, so a renamed field shows up here."""
    source = (Path(__file__).parent.parent / "notebooks" / "src" / "03_reconcile_y_contadores.md").read_text("utf-8")
    cache_fields = {f for f in anthropic.types.Usage.model_fields if f.startswith("cache_") and f.endswith("_tokens")}
    assert cache_fields == {"cache_creation_input_tokens", "cache_read_input_tokens"}
    for name in cache_fields:
        assert f"`{name}`" in source, f"notebook 03 does not explain {name}"
