"""The lesson's incident replayed for real: production reconcile sends twice, the lesson's once."""

from __future__ import annotations

from pathlib import Path

import pytest

from lesson3.answers import reconcile
from lesson3.checkpoint import dangling_tool_uses
from lesson3.incident import (
    INCIDENT_POINT,
    INCIDENT_REPORT,
    INCIDENT_TOOL,
    IncidentError,
    compare_strategies,
    replay_incident,
)
from lesson3.model import TASK_NOTES
from lesson3.reconciliation import UNKNOWN_STATE_MESSAGE

pytestmark = pytest.mark.warm_up("crash_harness")


def test_the_incident_is_the_lessons() -> None:
    assert INCIDENT_REPORT.startswith("El proceso fue matado y reiniciado por el OOM killer después de la llamada")
    assert INCIDENT_REPORT.endswith("un usuario reportó haber recibido dos correos idénticos.")
    assert (INCIDENT_POINT, INCIDENT_TOOL) == ("after_tool", "send_email")


def test_production_reconcile_sends_two_emails_the_lessons_exactly_one(tmp_path: Path) -> None:
    outcomes = compare_strategies(tmp_path)
    production, lesson = outcomes["production"], outcomes["reconcile"]
    for outcome in (production, lesson):
        assert outcome.crash.killed and outcome.crash.signal_name == "SIGKILL"
        assert outcome.crash.outbox == 1  # the email left before the kill
        assert outcome.crash.checkpoint["pendingToolUse"]["name"] == "send_email"
        assert outcome.resume.ok, outcome.resume.error  # both runs finish normally
        assert dangling_tool_uses(outcome.resume.state["messages"]) == []
    assert production.emails == 2
    assert lesson.emails == 1
    resumed = lesson.resume.state["messages"][len(lesson.crash.checkpoint["messages"])]["content"][0]
    assert resumed["is_error"] is True and resumed["content"] == UNKNOWN_STATE_MESSAGE
    final = lesson.resume.state["messages"][-1]["content"][0]["text"]
    assert "ya había salido antes de la caída: no lo reenvío" in final
    assert production.workspace == (tmp_path / "production" / "workspace").resolve()


def test_replay_with_a_function_resumes_in_this_process(tmp_path: Path) -> None:
    def mine(cp: dict) -> dict:
        return reconcile(cp)

    outcome = replay_incident(tmp_path / "x", reconcile=mine)
    assert outcome.strategy == "mine" and outcome.emails == 1 and outcome.resume.ok


def test_replay_empties_the_folder_first(tmp_path: Path) -> None:
    (tmp_path / "x" / "workspace" / "outbox" / "new").mkdir(parents=True)
    (tmp_path / "x" / "workspace" / "outbox" / "new" / "000009.lesson3").write_text("viejo", encoding="utf-8")
    assert replay_incident(tmp_path / "x", reconcile="delete").emails == 2  # move one: the model sends again


def test_a_task_without_an_email_cannot_reproduce_it(tmp_path: Path) -> None:
    with pytest.raises(IncidentError, match="no se pudo reproducir la caída del incidente"):
        replay_incident(tmp_path, task=TASK_NOTES)
