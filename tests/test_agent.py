"""run_agent: the lesson's loop, save points A and B, and the resume path (in this process)."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest

from lesson3.agent import (
    CRASH_POINTS,
    MAX_TOKENS_CEILING,
    MAX_TURNS,
    ParallelToolUseError,
    ReconcileError,
    TruncatedToolUseError,
    run_agent,
)
from lesson3.answers import reconcile
from lesson3.checkpoint import load_checkpoint, save_checkpoint
from lesson3.exercises import exercise_checkpoint
from lesson3.model import MAX_TOKENS, TASK_EMAIL, TASK_NOTES, ScriptedModel, offline_client
from lesson3.reconciliation import UNKNOWN_STATE_MESSAGE
from lesson3.tools import ToolError, execute_tool, outbox_count, use_workspace


class RecordingModel(ScriptedModel):
    """The scripted model, also keeping each response body the SDK received."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.responses: list[dict[str, Any]] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        response = super().__call__(request)
        self.responses.append(json.loads(response.content))
        return response


class Crash(BaseException):
    """Stands in for a kill in the in-process tests (the real SIGKILLs are in test_crash.py)."""


def final_text(state: dict[str, Any]) -> str:
    last = state["messages"][-1]
    assert last["role"] == "assistant"
    return "".join(b["text"] for b in last["content"] if b["type"] == "text")


def test_a_fresh_run_gathers_the_notes_and_ends_with_a_final_answer(tmp_path: Path, workspace: Path) -> None:
    path = tmp_path / "checkpoint.json"
    model = RecordingModel()
    state = run_agent(TASK_NOTES, client=offline_client(model=model), checkpoint_path=path, workspace=workspace)

    assert state["messages"][0] == {"role": "user", "content": TASK_NOTES}
    assert final_text(state).startswith("Junté las notas de la semana (7 archivos)")
    assert "Acuerdo" in final_text(state)
    assert state["turns"] == len(model.requests) == 9  # list_dir, seven reads, the answer
    assert state["pendingToolUse"] is None
    assert load_checkpoint(path) == state
    last = model.responses[-1]["usage"]
    assert state["tokensUsed"] == last["input_tokens"] + last["output_tokens"]  # the window, not a running sum


def test_every_request_asks_for_one_tool_call_and_carries_the_whole_conversation(
    tmp_path: Path, workspace: Path
) -> None:
    model = ScriptedModel()
    state = run_agent(
        TASK_EMAIL, client=offline_client(model=model), checkpoint_path=tmp_path / "cp.json", workspace=workspace
    )
    for n, request in enumerate(model.requests):
        assert request["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
        assert {t["name"] for t in request["tools"]} >= {"read_file", "send_email"}
        assert request["messages"] == state["messages"][: 1 + 2 * n]
    assert outbox_count(workspace) == 1


def test_save_point_a_records_the_call_and_save_point_b_its_result(tmp_path: Path, workspace: Path) -> None:
    path = tmp_path / "checkpoint.json"
    seen: list[tuple[str, int, Any]] = []

    def hook(point: str, state: dict[str, Any]) -> None:
        on_disk = load_checkpoint(path)
        if point == "after_save_a":
            assert on_disk == state
            last = on_disk["messages"][-1]
            assert last["role"] == "assistant"
            uses = [b for b in last["content"] if b["type"] == "tool_use"]
            expected = {k: uses[0][k] for k in ("id", "name", "input")} if uses else None
            assert on_disk["pendingToolUse"] == expected
        elif point == "after_tool":
            assert on_disk["pendingToolUse"] is not None  # the result is not on disk yet
        elif point == "after_save_b":
            assert on_disk == state
            assert on_disk["pendingToolUse"] is None
            assert on_disk["messages"][-1]["content"][0]["type"] == "tool_result"
        seen.append((point, state["turns"], on_disk and on_disk["turns"]))

    state = run_agent(TASK_EMAIL, client=offline_client(), checkpoint_path=path, workspace=workspace, hook=hook)

    points = [p for p, _, _ in seen]
    assert set(points) == set(CRASH_POINTS)
    per_turn = ["before_call", "after_save_a", "after_tool", "after_save_b"]
    assert points == per_turn * (state["turns"] - 1) + ["before_call", "after_save_a"]
    assert seen[0] == ("before_call", 0, None)  # nothing on disk before the first answer


def test_an_existing_checkpoint_means_resume_the_task_argument_is_ignored(tmp_path: Path, workspace: Path) -> None:
    path = tmp_path / "checkpoint.json"

    def crash_after_third_result(point: str, state: dict[str, Any]) -> None:
        if point == "after_save_b" and state["turns"] == 3:
            raise Crash

    with pytest.raises(Crash):
        run_agent(
            TASK_NOTES,
            client=offline_client(),
            checkpoint_path=path,
            workspace=workspace,
            hook=crash_after_third_result,
        )
    saved = load_checkpoint(path)
    model = ScriptedModel()
    state = run_agent("otra tarea", client=offline_client(model=model), checkpoint_path=path, workspace=workspace)

    assert state["task"] == TASK_NOTES
    assert model.requests[0]["messages"] == saved["messages"]  # the model sees exactly what it saw before
    assert state["turns"] == saved["turns"] + len(model.requests) == 9
    assert state["messages"][: len(saved["messages"])] == saved["messages"]
    uninterrupted = run_agent(
        TASK_NOTES, client=offline_client(), checkpoint_path=tmp_path / "other.json", workspace=workspace
    )
    assert state == uninterrupted  # the crash and resume left no trace in the conversation


def _resume_exercise(name: str, tmp_path: Path, workspace: Path, **kwargs: Any) -> tuple[dict, dict, ScriptedModel]:
    cp = exercise_checkpoint(name)
    path = tmp_path / f"{name}.json"
    save_checkpoint(cp, path)
    model = ScriptedModel()
    state = run_agent(
        cp["task"], client=offline_client(model=model), checkpoint_path=path, workspace=workspace, **kwargs
    )
    return cp, state, model


def test_resuming_cpA_fires_the_next_call_with_messages_as_saved(tmp_path: Path, workspace: Path) -> None:
    called: list[Any] = []
    cp, state, model = _resume_exercise("cpA", tmp_path, workspace, reconcile=lambda c: called.append(c) or c)
    assert called == []  # nothing to reconcile: "continue"
    assert model.requests[0]["messages"] == cp["messages"]  # the next create() sees messages untouched
    assert state["turns"] == cp["turns"] + len(model.requests)


@pytest.mark.parametrize(
    "last",
    [
        {"role": "assistant", "content": [{"type": "text", "text": "Listo."}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Uno."}, {"type": "text", "text": "Dos."}]},
        {"role": "assistant", "content": "Listo, en texto plano."},
    ],
    ids=["one-text-block", "two-text-blocks", "string-content"],
)
def test_any_conversation_ending_in_a_plain_assistant_answer_is_returned_without_a_call(
    tmp_path: Path, workspace: Path, last: dict[str, Any]
) -> None:
    cp = exercise_checkpoint("cpB")
    cp["pendingToolUse"] = None
    cp["messages"].append(
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "ok"}]}
    )
    cp["messages"].append(last)
    path = tmp_path / "done.json"
    save_checkpoint(cp, path)
    model = ScriptedModel()
    state = run_agent(cp["task"], client=offline_client(model=model), checkpoint_path=path, workspace=workspace)
    assert model.requests == [] and state == cp


def test_a_checkpoint_saved_at_point_b_still_goes_on_with_the_next_call(tmp_path: Path, workspace: Path) -> None:
    cp = exercise_checkpoint("cpB")
    with use_workspace(workspace):
        cp = reconcile(cp)  # as if save point B had been written: the last message is the tool_result
    path = tmp_path / "at-b.json"
    save_checkpoint(cp, path)
    model = ScriptedModel()
    state = run_agent(cp["task"], client=offline_client(model=model), checkpoint_path=path, workspace=workspace)
    assert model.requests[0]["messages"] == cp["messages"]
    assert state["turns"] == cp["turns"] + len(model.requests)


def test_resuming_cpB_runs_the_read_again_and_finishes(tmp_path: Path, workspace: Path) -> None:
    cp, state, model = _resume_exercise("cpB", tmp_path, workspace)
    first = model.requests[0]["messages"]
    assert first[: len(cp["messages"])] == cp["messages"]
    result = first[len(cp["messages"])]["content"][0]
    assert result["tool_use_id"] == "toolu_01A"
    assert "Acuerdo:" in result["content"] and "is_error" not in result
    assert state["turns"] == cp["turns"] + len(model.requests)
    assert final_text(state).startswith("Junté las notas")


def test_resuming_cpC_tells_the_model_the_truth_and_the_model_checks_before_sending(
    tmp_path: Path, workspace: Path
) -> None:
    cp, state, model = _resume_exercise("cpC", tmp_path, workspace)
    result = model.requests[0]["messages"][len(cp["messages"])]["content"][0]
    assert result == {
        "type": "tool_result",
        "tool_use_id": "toolu_01B",
        "content": UNKNOWN_STATE_MESSAGE,
        "is_error": True,
    }
    calls = [
        b["name"] for m in state["messages"][len(cp["messages"]) :] for b in m["content"] if b.get("type") == "tool_use"
    ]
    assert calls == ["grep", "send_email"]  # nothing in the outbox: it sends, once
    assert outbox_count(workspace) == 1
    assert state["turns"] == cp["turns"] + len(model.requests)


def test_turns_carry_over_so_crashing_and_resuming_forever_still_stops_at_max_turns(
    tmp_path: Path, workspace: Path
) -> None:
    # Many notes: the task needs more turns than the cap allows.
    for n in range(12):
        (workspace / "notes" / f"extra-{n:02d}.md").write_text(f"Acuerdo: punto {n}\n", encoding="utf-8")
    path = tmp_path / "checkpoint.json"
    cap = 6

    def crash_after_each_result(point: str, state: dict[str, Any]) -> None:
        if point == "after_save_b":
            raise Crash

    lives = 0
    while True:
        lives += 1
        model = ScriptedModel()
        try:
            state = run_agent(
                TASK_NOTES,
                client=offline_client(model=model),
                checkpoint_path=path,
                workspace=workspace,
                max_turns=cap,
                hook=crash_after_each_result,
            )
            break
        except Crash:
            assert len(model.requests) == 1
        assert lives <= cap
    assert state["turns"] == cap
    assert model.requests == []  # the last life found the cap already reached
    assert load_checkpoint(path)["turns"] == cap
    assert MAX_TURNS == 40


def test_a_response_with_several_tool_calls_is_refused_before_it_is_saved(tmp_path: Path, workspace: Path) -> None:
    path = tmp_path / "checkpoint.json"
    model = ScriptedModel(ignore_parallel_flag=True)
    with pytest.raises(ParallelToolUseError, match=r"El modelo pidió 7 herramientas en una sola respuesta"):
        run_agent(TASK_NOTES, client=offline_client(model=model), checkpoint_path=path, workspace=workspace)
    assert all(r["tool_choice"]["disable_parallel_tool_use"] is True for r in model.requests)
    saved = load_checkpoint(path)
    assert saved["turns"] == 1  # save point B of the list_dir turn; the parallel answer never reached disk
    assert saved["messages"][-1]["content"][0]["type"] == "tool_result"


def test_a_reconcile_that_returns_nothing_or_a_broken_checkpoint_is_refused(tmp_path: Path, workspace: Path) -> None:
    with pytest.raises(ReconcileError, match=r"devolvió None"):
        _resume_exercise("cpB", tmp_path, workspace, reconcile=lambda cp: None)

    def broken(cp: dict[str, Any]) -> dict[str, Any]:
        cp["messages"].append({"role": "user", "content": [{"type": "tool_result", "content": "x"}]})
        return cp

    with pytest.raises(ReconcileError, match=r"lo que devolvió reconcile\(cp\): messages\[14\]"):
        _resume_exercise("cpB", tmp_path, workspace, reconcile=broken)


def test_a_reconcile_that_leaves_the_call_dangling_meets_the_apis_400(tmp_path: Path, workspace: Path) -> None:
    with pytest.raises(
        anthropic.BadRequestError, match="ids were found without `tool_result` blocks immediately after"
    ):
        _resume_exercise("cpB", tmp_path, workspace, reconcile=lambda cp: cp)


def test_an_async_reconcile_works(tmp_path: Path, workspace: Path) -> None:
    async def async_reconcile(cp: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0)
        return reconcile(cp)

    cp, _state, model = _resume_exercise("cpB", tmp_path, workspace, reconcile=async_reconcile)
    result = model.requests[0]["messages"][len(cp["messages"])]["content"][0]
    assert result["content"] == (workspace / "notes" / "meeting-08-25.md").read_text(encoding="utf-8")


def test_an_async_reconcile_works_from_inside_a_running_event_loop_as_in_jupyter(
    tmp_path: Path, workspace: Path
) -> None:
    async def async_reconcile(cp: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0)
        # execute_tool must still see the run's workspace from the helper thread
        pending = cp["pendingToolUse"]
        output = execute_tool(pending["name"], pending["input"])
        cp["messages"].append(
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": pending["id"], "content": output}]}
        )
        cp["pendingToolUse"] = None
        return cp

    async def cell() -> tuple[dict, dict, ScriptedModel]:
        asyncio.get_running_loop()  # a loop is running, as in a notebook cell
        return _resume_exercise("cpB", tmp_path, workspace, reconcile=async_reconcile)

    cp, state, model = asyncio.run(cell())
    result = model.requests[0]["messages"][len(cp["messages"])]["content"][0]
    assert "Acuerdo:" in result["content"]
    assert final_text(state).startswith("Junté las notas")


def test_an_async_reconcile_that_raises_raises_in_the_caller(tmp_path: Path, workspace: Path) -> None:
    async def failing(cp: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("no sé conciliar")

    async def cell() -> None:
        _resume_exercise("cpB", tmp_path, workspace, reconcile=failing)

    with pytest.raises(ValueError, match="no sé conciliar"):
        asyncio.run(cell())
    with pytest.raises(ValueError, match="no sé conciliar"):
        _resume_exercise("cpC", tmp_path, workspace, reconcile=failing)


def test_a_missing_workspace_is_refused_before_anything_runs(tmp_path: Path) -> None:
    model = ScriptedModel()
    with pytest.raises(ToolError, match="no existe"):
        run_agent(
            TASK_NOTES,
            client=offline_client(model=model),
            checkpoint_path=tmp_path / "cp.json",
            workspace=tmp_path / "nada",
        )
    assert model.requests == []
    assert not (tmp_path / "cp.json").exists()


def test_the_checkpoint_is_not_shared_with_the_callers_dict(tmp_path: Path, workspace: Path) -> None:
    cp = exercise_checkpoint("cpA")
    path = tmp_path / "cp.json"
    save_checkpoint(cp, path)
    before = copy.deepcopy(cp)
    run_agent(cp["task"], client=offline_client(), checkpoint_path=path, workspace=workspace)
    assert cp == before


class TruncatingModel(ScriptedModel):
    """The scripted model, but every answer that asks for a tool is cut at max_tokens below ``room``.

    What the API does when the output limit arrives while the model writes a tool call:
    stop_reason "max_tokens" and a tool_use block whose input may be incomplete.
    """

    def __init__(self, room: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.room = room

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        response = super().__call__(request)
        body = json.loads(response.content)
        asked = json.loads(request.content)["max_tokens"]
        if body.get("stop_reason") == "tool_use" and asked < self.room:
            body["stop_reason"] = "max_tokens"
            for block in body["content"]:
                if block["type"] == "tool_use":
                    block["input"] = {}  # the arguments never arrived
            return httpx2.Response(200, json=body)
        return response


def test_a_tool_call_cut_at_max_tokens_is_asked_again_with_more_room(tmp_path: Path, workspace: Path) -> None:
    path = tmp_path / "checkpoint.json"
    model = TruncatingModel(room=2 * MAX_TOKENS)
    state = run_agent(TASK_NOTES, client=offline_client(model=model), checkpoint_path=path, workspace=workspace)
    reference = run_agent(
        TASK_NOTES, client=offline_client(), checkpoint_path=tmp_path / "ref.json", workspace=workspace
    )
    assert state == reference  # same conversation, same turns: the cut answers never entered it
    asked = [r["max_tokens"] for r in model.requests]
    assert asked[:2] == [MAX_TOKENS, 2 * MAX_TOKENS]
    assert all(
        b.get("input") != {}
        for m in state["messages"]
        for b in m["content"]
        if isinstance(b, dict) and b.get("type") == "tool_use" and b["name"] == "read_file"
    )


@pytest.mark.parametrize("task", [TASK_NOTES, TASK_EMAIL])
def test_a_tool_call_still_cut_at_the_ceiling_is_a_clear_error_and_nothing_runs(
    tmp_path: Path, workspace: Path, task: str
) -> None:
    path = tmp_path / "checkpoint.json"
    model = TruncatingModel(room=10 * MAX_TOKENS_CEILING)
    with pytest.raises(TruncatedToolUseError, match=r"se cortó al llegar a max_tokens .* no se ejecutó ni se guardó"):
        run_agent(task, client=offline_client(model=model), checkpoint_path=path, workspace=workspace)
    assert [r["max_tokens"] for r in model.requests] == [MAX_TOKENS, 2 * MAX_TOKENS, 4 * MAX_TOKENS]
    assert load_checkpoint(path) is None  # the cut call was never saved as pending: nothing to reconcile later
    assert outbox_count(workspace) == 0


def test_a_cut_tool_call_on_resume_leaves_the_checkpoint_as_it_was(tmp_path: Path, workspace: Path) -> None:
    cp = exercise_checkpoint("cpB")
    with use_workspace(workspace):
        cp = reconcile(cp)
    path = tmp_path / "at-b.json"
    save_checkpoint(cp, path)
    before = path.read_bytes()
    with pytest.raises(TruncatedToolUseError):
        run_agent(
            cp["task"],
            client=offline_client(model=TruncatingModel(room=10**6)),
            checkpoint_path=path,
            workspace=workspace,
        )
    assert path.read_bytes() == before


@pytest.mark.parametrize("durable", [True, False])
def test_durable_decides_every_fsync_of_a_run_checkpoints_and_mail_alike(
    tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch, durable: bool
) -> None:
    import os

    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    path = tmp_path / "checkpoint.json"
    state = run_agent(TASK_EMAIL, client=offline_client(), checkpoint_path=path, workspace=workspace, durable=durable)
    assert state["messages"][-1]["role"] == "assistant" and outbox_count(workspace) == 1
    mail = [p for p in synced if "/outbox/" in p]
    saves = [p for p in synced if "/outbox/" not in p]
    if durable:
        # The Maildir delivery, and every save (file and folder): points A and B of each tool turn,
        # point A of the final answer.
        assert len(mail) == 1 and len(saves) == 2 * (2 * state["turns"] - 1)
    else:
        assert synced == []
    # Same run either way: durability changes when bytes reach the disk, never what is written.
    assert load_checkpoint(path) == state
