"""A checkpoint written by the lesson's JavaScript loads and resumes here, and the other way round.

tests/data/js/checkpoint.mjs holds the lesson's saveCheckpoint/loadCheckpoint verbatim;
cpB.json and cpC.json are what it wrote. Without node only the node parts are skipped.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from lesson3.agent import run_agent
from lesson3.checkpoint import CheckpointVersionError, dangling_tool_uses, load_checkpoint, save_checkpoint
from lesson3.model import TASK_EMAIL, ScriptedModel, api_error_for, offline_client
from lesson3.reconciliation import UNKNOWN_STATE_MESSAGE
from lesson3.tools import outbox_count

JS_DIR = Path(__file__).parent / "data" / "js"
SCRIPT = JS_DIR / "checkpoint.mjs"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node no está en el PATH")
NAMES = ["cpB", "cpC"]


def node(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run([NODE, str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, timeout=30)


class Crash(BaseException):
    pass


@pytest.mark.parametrize("name", NAMES)
def test_a_checkpoint_written_by_the_lessons_javascript_loads_and_resumes(
    tmp_path: Path, workspace: Path, name: str
) -> None:
    path = tmp_path / "checkpoint.json"
    shutil.copyfile(JS_DIR / f"{name}.json", path)
    cp = load_checkpoint(path)
    assert cp["pendingToolUse"]["id"] == {"cpB": "toolu_01A", "cpC": "toolu_01B"}[name]
    assert dangling_tool_uses(cp["messages"])[0]["id"] == cp["pendingToolUse"]["id"]

    model = ScriptedModel()
    state = run_agent(cp["task"], client=offline_client(model=model), checkpoint_path=path, workspace=workspace)

    assert model.requests[0]["messages"][: len(cp["messages"])] == cp["messages"]
    (result,) = model.requests[0]["messages"][len(cp["messages"])]["content"]
    if name == "cpB":  # read_file: run again, real content
        expected = (workspace / "notes" / "meeting-08-25.md").read_text(encoding="utf-8")
        assert result["content"] == expected and "is_error" not in result
        assert outbox_count(workspace) == 0
    else:  # send_email: the is_error fallback, then the model checks and sends once
        assert result["is_error"] is True and result["content"] == UNKNOWN_STATE_MESSAGE
        assert outbox_count(workspace) == 1
    assert state["turns"] == cp["turns"] + len(model.requests)
    assert state["pendingToolUse"] is None and dangling_tool_uses(state["messages"]) == []
    assert api_error_for({"model": "m", "max_tokens": 1, "messages": state["messages"]}) is None
    assert state["messages"][-1]["role"] == "assistant"


@pytest.mark.parametrize("name", NAMES)
def test_python_saves_the_same_bytes_the_lessons_javascript_wrote(tmp_path: Path, name: str) -> None:
    committed = (JS_DIR / f"{name}.json").read_bytes()
    cp = load_checkpoint(JS_DIR / f"{name}.json")
    save_checkpoint(cp, tmp_path / "checkpoint.json")
    assert (tmp_path / "checkpoint.json").read_bytes() == committed  # JSON.stringify(state, null, 2), byte for byte


@needs_node
@pytest.mark.parametrize("name", NAMES)
def test_node_regenerates_the_committed_files(tmp_path: Path, name: str) -> None:
    done = node("save", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "checkpoint.json").read_bytes() == (JS_DIR / f"{name}.json").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkpoint.json"]  # the .tmp was renamed away


@needs_node
def test_a_checkpoint_python_wrote_mid_task_loads_in_the_lessons_loadCheckpoint(
    tmp_path: Path, workspace: Path
) -> None:
    path = tmp_path / "checkpoint.json"

    def crash_after_the_email(point: str, state: dict[str, Any]) -> None:
        if point == "after_tool" and state["pendingToolUse"]["name"] == "send_email":
            raise Crash

    with pytest.raises(Crash):
        run_agent(
            TASK_EMAIL, client=offline_client(), checkpoint_path=path, workspace=workspace, hook=crash_after_the_email
        )
    cp = load_checkpoint(path)
    cp["messages"][-1]["content"][0]["text"] += ' — ñandú 🦤 «comillas» \u2028 fin \\ "x" \t'
    save_checkpoint(cp, path)

    done = node("load", cwd=tmp_path)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == cp
    assert load_checkpoint(path) == cp


@needs_node
def test_both_loaders_refuse_a_v2_file_with_the_lessons_words(tmp_path: Path) -> None:
    path = tmp_path / "checkpoint.json"
    content = (JS_DIR / "cpB.json").read_text(encoding="utf-8").replace('"version": 1', '"version": 2', 1)
    path.write_text(content, encoding="utf-8")
    message = "Versión de punto de control incompatible: el archivo es v2, el código es v1"

    done = node("load", cwd=tmp_path)
    assert done.returncode == 1 and done.stderr.strip() == message
    with pytest.raises(CheckpointVersionError) as info:
        load_checkpoint(path)
    assert str(info.value) == message
    assert path.read_text(encoding="utf-8") == content


@needs_node
def test_no_checkpoint_is_null_in_javascript_and_none_here(tmp_path: Path) -> None:
    done = node("load", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "null"
    assert load_checkpoint(tmp_path / "checkpoint.json") is None
