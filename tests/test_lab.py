"""The crash lab: its strategies, its real crash + resume runs, its report and its widget."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from lesson3 import TASK_EMAIL, TASK_NOTES, UNKNOWN_STATE_MESSAGE, api_error_for, dangling_tool_uses, lab
from lesson3.crash import crash_run, fresh_run_dir
from lesson3.exercises import exercise_checkpoint
from lesson3.model import DEFAULT_MODEL


def _request(cp: dict) -> dict:
    return {"model": DEFAULT_MODEL, "max_tokens": 1024, "messages": cp["messages"]}


@pytest.mark.parametrize("name", ["cpB", "cpC"])
def test_is_error_fallback_answers_any_tool_without_running_it(name: str) -> None:
    cp = exercise_checkpoint(name)
    before = copy.deepcopy(cp["messages"])
    out = lab.is_error_fallback(cp)
    assert out["messages"][:-1] == before
    assert out["messages"][-1] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": before[-1]["content"][-1]["id"],
                "content": UNKNOWN_STATE_MESSAGE,
                "is_error": True,
            }
        ],
    }
    assert out["pendingToolUse"] is None
    assert api_error_for(_request(out)) is None


def test_leave_dangling_leaves_what_the_api_refuses() -> None:
    cp = exercise_checkpoint("cpC")
    out = lab.leave_dangling(cp)
    assert dangling_tool_uses(out["messages"])
    assert "without `tool_result` blocks" in (api_error_for(_request(out)) or "")


def test_first_call_turn_is_the_turn_whose_answer_asks_for_the_tool() -> None:
    state, sent = lab.uninterrupted_run(TASK_EMAIL)
    assert sent == 1
    turn = lab.first_call_turn(TASK_EMAIL, "send_email")
    answers = [m for m in state["messages"] if m["role"] == "assistant"]
    asked = [b["name"] for b in answers[turn - 1]["content"] if b["type"] == "tool_use"]
    assert asked == ["send_email"]
    assert all(b.get("name") != "send_email" for m in answers[: turn - 1] for b in m["content"])
    assert lab.first_call_turn(TASK_NOTES, "list_dir") == 1
    with pytest.raises(ValueError, match="nunca llama a send_email"):
        lab.first_call_turn(TASK_NOTES, "send_email")


def test_uninterrupted_run_hands_out_copies() -> None:
    a, _ = lab.uninterrupted_run(TASK_NOTES)
    a["messages"].clear()
    b, _ = lab.uninterrupted_run(TASK_NOTES)
    assert b["messages"]


def test_the_incident_in_the_lab_sends_twice(tmp_path: Path) -> None:
    r = lab.run_lab("after_tool", "send_email", "rerun", base=tmp_path)
    assert r.crash.killed and r.crash.signal_name == "SIGKILL"
    assert r.dangling and r.crash.outbox == 1
    assert r.run.error is None and r.run.outbox == 2
    report = r.report()
    assert "✗ el equipo recibió 2 correos en vez de 1" in report
    assert "correos en la bandeja de salida: 2 (sin caída: 1)" in report
    assert str(tmp_path) not in report  # no temp paths in what a notebook prints
    assert not (tmp_path / "lab-after_tool-send_email-rerun").exists()  # the lab cleans up after itself


def test_is_error_fixes_the_incident_at_the_cost_of_a_check(tmp_path: Path) -> None:
    r = lab.run_lab("after_tool", "send_email", "is_error", base=tmp_path)
    assert r.run.outbox == 1 and r.run.error is None
    assert r.run.state is not None and r.run.state["turns"] == r.reference_turns + 1
    assert "reevaluó" in r.verdict


def test_no_reconcile_shows_the_api_error(tmp_path: Path) -> None:
    r = lab.run_lab("after_save_a", "send_email", "none", base=tmp_path)
    assert r.run.error is not None and "HTTP 400" in r.run.error
    assert "tool_use` ids were found without `tool_result`" in r.report()
    assert r.verdict.startswith("✗ la reanudación no pudo seguir")


def test_delete_forgets_a_decision_and_burns_a_turn(tmp_path: Path) -> None:
    r = lab.run_lab("after_save_a", "read_file", "delete", base=tmp_path)
    assert r.run.outbox == 0 and r.run.error is None
    assert r.run.state is not None and r.run.state["turns"] == r.reference_turns + 1
    assert "olvidó una decisión" in r.verdict


@pytest.mark.parametrize("point", ["before_call", "after_save_b"])
def test_outside_the_window_the_strategy_is_never_used(tmp_path: Path, point: str) -> None:
    r = lab.run_lab(point, "send_email", "rerun", base=tmp_path)
    assert r.crash.killed and not r.dangling
    assert r.run.outbox == 1
    assert "la estrategia no se usa" in r.report()
    assert r.verdict.startswith("✓")


def test_before_call_crash_hits_the_turn_that_asks_for_the_tool(tmp_path: Path) -> None:
    r = lab.run_lab("before_call", "send_email", "is_error", base=tmp_path)
    assert r.crash_checkpoint is not None
    assert r.crash_checkpoint["turns"] == lab.first_call_turn(TASK_EMAIL, "send_email") - 1
    assert r.crash.outbox == 0


@pytest.mark.parametrize(
    ("point", "tool", "strategy", "message"),
    [
        ("en_medio", "send_email", "rerun", "caída desconocida"),
        ("after_tool", "grep", "rerun", "herramienta «grep» fuera del laboratorio"),
        ("after_tool", "send_email", "rezar", "estrategia desconocida «rezar»"),
    ],
)
def test_bad_choices_are_spanish_errors(point: str, tool: str, strategy: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        lab.run_lab(point, tool, strategy)


def test_crash_run_honours_max_turns(tmp_path: Path) -> None:
    workspace, checkpoint_path = fresh_run_dir(tmp_path / "run")
    crash = crash_run(
        TASK_NOTES, workspace=workspace, checkpoint_path=checkpoint_path, point="before_call", turn=10, max_turns=3
    )
    assert not crash.killed and "terminó" in crash.detail
    assert crash.checkpoint is not None and crash.checkpoint["turns"] == 3


def test_scratch_dirs_are_fresh_and_removed_by_cleanup() -> None:
    a, b = lab.scratch_dir(), lab.scratch_dir()
    assert a != b and a.is_dir() and not any(a.iterdir())
    lab._cleanup()
    assert not a.exists() and not b.exists()


def test_widget_runs_the_chosen_crash_and_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    widget = lab.crash_lab(point="after_save_b", tool="read_file", strategy="delete")
    point_w, tool_w, strategy_w, button, _out, picture = widget.children  # the result under the button
    assert repr(widget).startswith("Laboratorio de caídas")
    assert (point_w.value, tool_w.value, strategy_w.value) == ("after_save_b", "read_file", "delete")
    assert picture.value == lab.loop_svg("after_save_b")
    point_w.value = "after_tool"
    assert picture.value == lab.loop_svg("after_tool")  # the picture follows the choice
    button.click()  # outside a kernel the Output widget lets the print through
    printed = capsys.readouterr().out
    assert "caída:          3" in printed and "read_file (solo lectura)" in printed
    assert "borrar el mensaje assistant" in printed
    assert not button.disabled and button.description == "Provocar la caída y reanudar"


def test_widget_dropdowns_take_the_notebooks_width_up_to_what_their_options_need() -> None:
    # A fixed 640 px was cut off on a phone (390 px); tests/test_browser.py measures both widths in Chromium.
    point_w, _tool_w, strategy_w, *_ = lab.crash_lab().children
    for dropdown in (point_w, strategy_w):
        assert (dropdown.layout.width, dropdown.layout.max_width) == ("auto", "640px")


def test_widget_reports_a_failure_instead_of_raising(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disco lleno")

    monkeypatch.setattr(lab, "run_lab", broken)
    widget = lab.crash_lab()
    widget.children[3].click()
    assert "El laboratorio falló: OSError: disco lleno" in capsys.readouterr().out
    assert not widget.children[3].disabled


def test_warm_up_starts_the_crash_harness_in_the_background_and_crashes_still_work(tmp_path: Path) -> None:
    import multiprocessing.forkserver

    lab.warm_up()
    lab.warm_up()  # a second call reuses the running server
    assert multiprocessing.forkserver._forkserver._forkserver_pid is not None
    workspace, checkpoint_path = fresh_run_dir(tmp_path / "run")
    report = crash_run(TASK_NOTES, workspace=workspace, checkpoint_path=checkpoint_path, point="before_call", turn=2)
    assert report.killed and report.checkpoint is not None and report.checkpoint["turns"] == 1


def test_inside_a_kernel_the_harness_stops_before_the_kernel_sweeps_its_children(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import asyncio
    import multiprocessing.forkserver
    import multiprocessing.resource_tracker
    from types import SimpleNamespace

    import IPython

    seen: list[tuple[object, object]] = []

    class Kernel:
        async def _at_shutdown(self) -> None:  # ipykernel: SIGTERM every child, wait for them to go
            seen.append(
                (
                    multiprocessing.forkserver._forkserver._forkserver_pid,
                    multiprocessing.resource_tracker._resource_tracker._pid,
                )
            )

    kernel = Kernel()
    monkeypatch.setattr(IPython, "get_ipython", lambda: SimpleNamespace(kernel=kernel))
    lab.warm_up()
    lab.warm_up()  # hooked once
    assert multiprocessing.forkserver._forkserver._forkserver_pid is not None
    asyncio.run(kernel._at_shutdown())
    assert seen == [(None, None)]  # both servers were already stopped when the kernel's sweep ran
    workspace, checkpoint_path = fresh_run_dir(tmp_path / "run")
    assert crash_run(
        TASK_NOTES, workspace=workspace, checkpoint_path=checkpoint_path, point="before_call", turn=2
    ).killed


@pytest.mark.parametrize(
    ("emails", "error", "says", "never"),
    [
        (1, None, "salió una sola vez", "veces"),
        (2, None, "salió 2 veces: el incidente sigue", "una sola vez"),
        (3, None, "salió 3 veces", "una sola vez"),
        (0, None, "quedó con 0 correos", "una sola vez"),
        (1, "NotImplementedError: Te toca a ti", "no terminó (NotImplementedError", "una sola vez"),
    ],
)
def test_the_incident_verdict_says_what_happened(emails, error, says, never):
    """Notebook 4 once said «el correo sale una sola vez» under output showing two emails."""
    verdict = lab.incident_verdict(emails, error)
    assert says in verdict and never not in verdict


def _without_is_error(cp):
    """The unknown-state text, but as an ordinary result: what notebook 4 once narrated as an is_error."""
    done = lab.reconcile(copy.deepcopy(cp))
    done["messages"][-1]["content"][0].pop("is_error")
    return done


@pytest.mark.parametrize(
    ("fix", "says", "never"),
    [
        (lab.reconcile, "el modelo recibió is_error, revisó la bandeja de salida", "no gracias a is_error"),
        (_without_is_error, "pero no gracias a is_error: tu tool_result no lo lleva", "revisó la bandeja"),
        (lab.reconcile_production, "Lo volvió a enviar tu reconcile", "una sola vez"),
    ],
    ids=["lesson", "no-is_error", "blind-rerun"],
)
def test_the_incident_verdict_narrates_what_the_transcript_shows(tmp_path, fix, says, never):
    from lesson3.crash import resume_run

    workspace, checkpoint_path = fresh_run_dir(tmp_path / "run")
    crash = crash_run(
        TASK_EMAIL, workspace=workspace, checkpoint_path=checkpoint_path, point="after_tool", tool="send_email"
    )
    assert crash.killed
    fixed = resume_run(
        TASK_EMAIL, workspace=workspace, checkpoint_path=checkpoint_path, reconcile=fix, new_process=False
    )
    verdict = lab.incident_verdict(fixed.outbox, fixed.error, fixed.state["messages"])
    assert says in verdict and never not in verdict, verdict
