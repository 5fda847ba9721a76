"""Real crashes: the agent in a child process, SIGKILLed at a named point, resumed in a new process."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from lesson3.agent import CRASH_POINTS
from lesson3.answers import reconcile
from lesson3.checkpoint import dangling_tool_uses, load_checkpoint, save_checkpoint
from lesson3.crash import CrashReport, RunReport, crash_run, fresh_run_dir, process_context, resume_run
from lesson3.exercises import exercise_checkpoint
from lesson3.model import TASK_EMAIL, TASK_NOTES, api_error_for
from lesson3.reconciliation import UNKNOWN_STATE_MESSAGE

pytestmark = pytest.mark.warm_up("crash_harness")

UNINTERRUPTED_TURNS = 10  # the email task without a crash: list_dir, seven reads, send, answer


def tool_uses(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b for m in messages if m["role"] == "assistant" for b in m["content"] if b.get("type") == "tool_use"]


def assert_finished_conversation(state: dict[str, Any]) -> None:
    """Every tool_use answered, the API would accept it, and it ends on a final answer."""
    messages = state["messages"]
    assert state["pendingToolUse"] is None
    assert dangling_tool_uses(messages) == []
    assert api_error_for({"model": "m", "max_tokens": 1, "messages": messages}) is None
    answered = {b["tool_use_id"] for m in messages if m["role"] == "user" for b in m["content"] if isinstance(b, dict)}
    assert {b["id"] for b in tool_uses(messages)} == answered
    last = messages[-1]
    assert last["role"] == "assistant" and [b["type"] for b in last["content"]] == ["text"]


def last_call(cp: dict[str, Any]) -> dict[str, Any]:
    return tool_uses(cp["messages"])[-1]


@pytest.mark.parametrize("tool", ["read_file", "send_email"])
@pytest.mark.parametrize("point", CRASH_POINTS)
def test_kill_resume_finish_for_every_crash_point_and_tool(run_dir: tuple[Path, Path], point: str, tool: str) -> None:
    workspace, path = run_dir
    crash = crash_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, point=point, tool=tool)

    assert crash.killed, crash.detail
    assert crash.exitcode == -signal.SIGKILL and crash.signal_name == "SIGKILL"
    cp = crash.checkpoint
    assert cp is not None and cp == load_checkpoint(path)
    email_ran = tool == "send_email" and point != "after_save_a"
    assert crash.outbox == (1 if email_ran else 0)
    if point in ("after_save_a", "after_tool"):  # between A and B: the call dangles
        assert cp["pendingToolUse"] is not None and cp["pendingToolUse"]["name"] == tool
        assert dangling_tool_uses(cp["messages"])[0]["id"] == cp["pendingToolUse"]["id"]
    else:
        assert cp["pendingToolUse"] is None and last_call(cp)["name"] == tool
        assert cp["messages"][-1]["content"][0]["type"] == "tool_result"

    run = resume_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path)

    assert run.ok, run.error
    assert run.outbox == 1  # the team gets the email exactly once, wherever the crash hit
    state = run.state
    assert state == load_checkpoint(path)
    assert_finished_conversation(state)
    assert state["messages"][: len(cp["messages"])] == cp["messages"]  # the past is kept, not rewritten
    assert run.requests[0]["messages"][: len(cp["messages"])] == cp["messages"]
    assert state["turns"] == cp["turns"] + len(run.requests)  # continued from the checkpoint, not reset
    assert state["turns"] >= UNINTERRUPTED_TURNS
    if cp["pendingToolUse"] is not None:
        (result,) = state["messages"][len(cp["messages"])]["content"]
        assert result["tool_use_id"] == cp["pendingToolUse"]["id"]
        assert (result.get("is_error") is True) == (tool == "send_email")
        if tool == "send_email":
            assert result["content"] == UNKNOWN_STATE_MESSAGE


def test_a_kill_before_the_first_save_leaves_nothing_and_the_next_run_starts_fresh(run_dir: tuple[Path, Path]) -> None:
    workspace, path = run_dir
    crash = crash_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, point="before_call", turn=1)
    assert crash.killed and crash.checkpoint is None and not path.exists()
    run = resume_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path)
    assert run.ok and run.outbox == 1
    assert run.state["turns"] == UNINTERRUPTED_TURNS == len(run.requests)


def test_crashes_chain_each_child_resumes_where_the_last_one_died(run_dir: tuple[Path, Path]) -> None:
    workspace, path = run_dir
    first = crash_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, point="after_save_a", tool="read_file")
    second = crash_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, point="before_call", turn=5)
    third = crash_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, point="after_tool", tool="send_email")
    assert [r.killed for r in (first, second, third)] == [True, True, True]
    assert first.checkpoint["turns"] < second.checkpoint["turns"] == 4 < third.checkpoint["turns"]
    run = resume_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path)
    assert run.ok and run.outbox == 1
    assert_finished_conversation(run.state)


def test_crashing_and_resuming_forever_still_stops_at_max_turns(workspace: Path, tmp_path: Path) -> None:
    for n in range(12):  # more notes than the cap lets the agent read
        (workspace / "notes" / f"extra-{n:02d}.md").write_text(f"Acuerdo: punto {n}\n", encoding="utf-8")
    path = tmp_path / "checkpoint.json"
    cap = 6
    turns = []
    for _ in range(cap + 2):
        report = crash_run(TASK_NOTES, workspace=workspace, checkpoint_path=path, point="after_save_b", max_turns=cap)
        if not report.killed:
            break
        turns.append(report.checkpoint["turns"])
    assert turns == list(range(1, cap + 1))  # one more turn per life, carried over every time
    assert report.exitcode == 0 and "terminó" in report.detail
    assert report.checkpoint["turns"] == cap
    run = resume_run(TASK_NOTES, workspace=workspace, checkpoint_path=path, max_turns=cap)
    assert run.ok and run.requests == [] and run.state["turns"] == cap


def test_a_point_never_reached_is_reported_not_killed(run_dir: tuple[Path, Path]) -> None:
    workspace, path = run_dir
    report = crash_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, point="after_tool", tool="web_search")
    assert not report.killed and report.exitcode == 0 and report.signal_name is None
    assert report.detail == "la tarea terminó antes de llegar a la caída elegida"
    assert report.checkpoint["turns"] == UNINTERRUPTED_TURNS and report.outbox == 1


def test_an_unknown_crash_point_is_refused(run_dir: tuple[Path, Path]) -> None:
    workspace, path = run_dir
    with pytest.raises(ValueError, match="caída desconocida «en_cualquier_lado»"):
        crash_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, point="en_cualquier_lado")


def test_a_bad_checkpoint_stops_the_child_and_stays_untouched(run_dir: tuple[Path, Path]) -> None:
    workspace, path = run_dir
    path.write_bytes(b'{"version": 2}')
    report = crash_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, point="before_call")
    assert not report.killed and report.checkpoint is None
    assert report.detail == "Versión de punto de control incompatible: el archivo es v2, el código es v1"
    run = resume_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path)
    assert not run.ok and "CheckpointVersionError" in run.error
    assert path.read_bytes() == b'{"version": 2}'


def test_resume_with_a_function_in_this_process(tmp_path: Path, workspace: Path) -> None:
    path = tmp_path / "checkpoint.json"
    save_checkpoint(exercise_checkpoint("cpC"), path)
    called: list[str] = []

    def mine(cp: dict[str, Any]) -> dict[str, Any]:
        called.append(cp["pendingToolUse"]["name"])
        return reconcile(cp)

    run = resume_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, reconcile=mine, new_process=False)
    assert called == ["send_email"]
    assert run.ok and run.outbox == 1 and isinstance(run, RunReport)


def test_a_resume_that_meets_an_api_error_reports_it_with_the_apis_words(tmp_path: Path, workspace: Path) -> None:
    path = tmp_path / "checkpoint.json"
    cp = exercise_checkpoint("cpB")
    save_checkpoint(cp, path)
    run = resume_run(TASK_NOTES, workspace=workspace, checkpoint_path=path, reconcile=lambda c: c, new_process=False)
    assert not run.ok
    assert run.error.startswith("HTTP 400 BadRequestError: messages[13] pide una herramienta")
    assert "(la API, en inglés: «messages.13: `tool_use` ids were found without" in run.error
    assert run.state == cp  # what is on disk: the failed resume saved nothing
    assert len(run.requests) == 1


def test_fresh_run_dir_empties_the_folder_and_lays_out_a_workspace(tmp_path: Path) -> None:
    base = tmp_path / "run"
    (base / "workspace" / "outbox" / "new").mkdir(parents=True)
    (base / "workspace" / "outbox" / "new" / "000001.lesson3").write_text("viejo", encoding="utf-8")
    (base / "checkpoint.json").write_text("{}", encoding="utf-8")
    workspace, path = fresh_run_dir(base)
    assert workspace == (base / "workspace").resolve()
    assert path == base / "checkpoint.json" and not path.exists()
    assert not any((workspace / "outbox" / "new").iterdir())
    assert (workspace / "notes" / "meeting-08-25.md").is_file()


def test_children_come_from_a_forkserver_with_the_sdk_preloaded() -> None:
    ctx = process_context()
    assert ctx is process_context()
    assert ctx.get_start_method() == "forkserver"


def test_report_properties() -> None:
    assert CrashReport("after_tool", None, True, -9, None, 0).signal_name == "SIGKILL"
    assert CrashReport("after_tool", None, False, 0, None, 0).signal_name is None
    assert RunReport(None, None, 0).ok and not RunReport(None, "x", 0).ok


# -- the crash primitive shared with the grader ------------------------------------------------------


def test_the_kill_predicate_picks_the_point_the_tool_and_the_turn(tmp_path: Path):
    from lesson3.crash import at_point

    cp = exercise_checkpoint("cpC")  # send_email pending, its tool_use the last assistant block
    assert at_point("after_tool", tool="send_email")("after_tool", cp)
    assert not at_point("after_tool", tool="read_file")("after_tool", cp)
    assert not at_point("after_save_a", tool="send_email")("after_tool", cp)
    assert at_point("after_save_b", tool="send_email")("after_save_b", cp)  # answered: the last tool_use counts
    assert at_point("before_call", turn=cp["turns"] + 1)("before_call", cp)
    assert not at_point("before_call", turn=cp["turns"] + 2)("before_call", cp)


def test_crash_in_fork_is_a_real_sigkill_at_the_point(tmp_path: Path):
    from lesson3.agent import run_agent
    from lesson3.crash import at_point, crash_in_fork
    from lesson3.model import offline_client
    from lesson3.tools import outbox_count

    workspace, path = fresh_run_dir(tmp_path)

    def run(hook: Any) -> None:
        run_agent(TASK_EMAIL, client=offline_client(), checkpoint_path=path, workspace=workspace, hook=hook)

    status = crash_in_fork(at_point("after_tool", tool="send_email"), run)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert outbox_count(workspace) == 1 and load_checkpoint(path)["pendingToolUse"]["name"] == "send_email"


def test_crash_in_fork_says_when_the_point_never_comes(tmp_path: Path):
    from lesson3.agent import run_agent
    from lesson3.crash import CrashPointMissed, at_point, crash_in_fork
    from lesson3.model import offline_client

    workspace, path = fresh_run_dir(tmp_path)

    def run(hook: Any) -> None:
        run_agent(TASK_NOTES, client=offline_client(), checkpoint_path=path, workspace=workspace, hook=hook)

    with pytest.raises(CrashPointMissed, match="terminó antes"):
        crash_in_fork(at_point("after_tool", tool="send_email"), run)  # the notes task sends no email
