"""Readable conversations and checkpoints, as the notebooks print them."""

from __future__ import annotations

import json
from pathlib import Path

from lesson3 import save_checkpoint
from lesson3.exercises import exercise_checkpoint
from lesson3.transcript import checkpoint_file_view, checkpoint_summary, conversation_tail, describe_block, shorten


def test_shorten_flattens_lines_and_cuts_with_an_ellipsis() -> None:
    assert shorten("uno\n\n  dos  \n") == "uno ⏎ dos"
    assert shorten("x" * 20, 10) == "x" * 9 + "…"


def test_blocks_in_one_line_each() -> None:
    assert describe_block({"type": "text", "text": "Hola"}) == "texto «Hola»"
    use = {"type": "tool_use", "id": "toolu_1", "name": "send_email",
           "input": {"to": "team@example.com", "subject": "S", "body": "largo"}}  # fmt: skip
    assert describe_block(use) == "tool_use send_email(to=team@example.com, subject=S, body=…)  id=toolu_1"
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "no se sabe", "is_error": True}
    assert describe_block(result) == "tool_result is_error=true para toolu_1: «no se sabe»"
    listed = {"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": "ok"}]}
    assert describe_block(listed) == "tool_result para t: «ok»"


def test_tail_keeps_the_real_indices() -> None:
    cp = exercise_checkpoint("cpC")
    n = len(cp["messages"])
    tail = conversation_tail(cp["messages"], 2).splitlines()
    assert tail[0] == f"… ({n - 2} mensajes anteriores)"
    assert tail[1].startswith(f"[{n - 2}] user: tool_result para ")
    assert tail[2].startswith(f"[{n - 1}] assistant: texto «")
    assert "tool_use send_email(to=team@example.com, subject=Conclusiones de esta semana)  id=toolu_01B" in tail[3]


def test_summary_shows_the_fields_but_not_what_to_do() -> None:
    text = checkpoint_summary(exercise_checkpoint("cpB"))
    assert "version=1  turns=7  tokensUsed=19310" in text
    assert "pendingToolUse: read_file(path=./notes/meeting-08-25.md)  id=toolu_01A" in text
    assert "rerun" not in text and "volver a ejecutar" not in text  # the exercise's answer stays hidden
    assert checkpoint_summary(None) == "(no hay punto de control)"


def test_file_view_is_the_file_with_messages_abbreviated(tmp_path: Path) -> None:
    cp = exercise_checkpoint("cpC")
    path = tmp_path / "checkpoint.json"
    save_checkpoint(cp, path)
    view = json.loads(checkpoint_file_view(path, keep_last=2))
    assert list(view) == ["version", "task", "turns", "tokensUsed", "messages", "pendingToolUse"]
    assert view["messages"][0] == f"… {len(cp['messages']) - 2} mensajes anteriores …"
    assert [m["role"] for m in view["messages"][1:]] == ["user", "assistant"]
    assert view["pendingToolUse"]["id"] == "toolu_01B"
    note = view["messages"][1]["content"][0]["content"]  # a whole meeting note, clipped
    assert len(note) == 60 and note.endswith("…")
