from lesson3 import TASK_EMAIL, offline_client, outbox_count, run_agent
from lesson3.tools import create_workspace


def test_email_task_sends_one_email(tmp_path):
    ws = create_workspace(tmp_path / "ws")
    state = run_agent(TASK_EMAIL, client=offline_client(), checkpoint_path=tmp_path / "cp.json", workspace=ws)
    assert outbox_count(ws) == 1
    assert state["pendingToolUse"] is None
