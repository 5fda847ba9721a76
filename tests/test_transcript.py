"""Readable conversations and checkpoints, as the notebooks print them."""

from __future__ import annotations

import json
from pathlib import Path

from lesson3 import save_checkpoint
from lesson3.exercises import exercise_checkpoint
from lesson3.render import format_message
from lesson3.transcript import checkpoint_file_view, checkpoint_summary, conversation_tail, describe_pending


def test_tail_keeps_the_real_indices_and_draws_messages_like_the_cli() -> None:
    cp = exercise_checkpoint("cpC")
    messages = cp["messages"]
    n = len(messages)
    tail = conversation_tail(messages, 2).splitlines()
    assert tail[0] == f"… ({n - 2} mensajes anteriores)"
    assert tail[1:] == format_message(n - 2, messages[n - 2]) + format_message(n - 1, messages[n - 1])
    assert tail[1].startswith(f"[{n - 2}] user ")
    assert "→ tool_use send_email" in tail[-1] and "(toolu_01B)" in tail[-1]
    assert conversation_tail(messages[:1], 3) == "\n".join(format_message(0, messages[0]))


def test_pending_in_one_line() -> None:
    assert describe_pending(None) == "null"
    pending = exercise_checkpoint("cpB")["pendingToolUse"]
    assert describe_pending(pending) == 'read_file {"path": "./notes/meeting-08-25.md"} (toolu_01A)'


def test_summary_shows_the_fields_but_not_what_to_do() -> None:
    text = checkpoint_summary(exercise_checkpoint("cpB"))
    assert 'version=1  task="Ayúdame a juntar las notas de reunión de esta semana"' in text  # as the lesson prints
    assert "turns=7  tokensUsed=19310" in text
    assert text.index("task=") < text.index("turns=") < text.index("pendingToolUse")  # the lesson's order
    assert 'pendingToolUse: read_file {"path": "./notes/meeting-08-25.md"} (toolu_01A)' in text
    assert "rerun" not in text and "vuelve a ejecutar" not in text  # the exercise's answer stays hidden
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
    whole = json.loads(checkpoint_file_view(path, keep_last=len(cp["messages"])))
    assert not isinstance(whole["messages"][0], str)  # nothing hidden: no "… mensajes anteriores …" marker
