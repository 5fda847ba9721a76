"""La conversación con el modelo: leer mensajes, bloques y llamadas pendientes, y contar errores.

The helpers every part of the course and the grader use to read a ``messages``
list as the Messages API shapes it: the blocks of a message, the text of a
message or a ``tool_result``, the last ``tool_use``, a tool call on one line, and
an exception from a run said as one sentence. They read; they never change a
conversation, and they accept malformed input (learner data) without raising.
"""

from __future__ import annotations

import json
import traceback
from typing import Any

TEXT_WIDTH = 110


def blocks(message: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The content blocks of a message (a plain-string content has none)."""
    content = (message or {}).get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def content_text(content: Any, sep: str = "") -> str | None:
    """The text of a message's or a tool_result's ``content``: a string, or its text blocks joined.

    None when the content is neither (a number, or a list with something that is not a block).
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(b, dict) for b in content):
        return sep.join(str(b.get("text", "")) for b in content if b.get("type") == "text")
    return None


def last_tool_use(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first tool_use of the last assistant message, or None when that message has none."""
    for message in reversed(messages):
        if message.get("role") == "assistant":
            return next((b for b in blocks(message) if b.get("type") == "tool_use"), None)
    return None


def shorten(text: str, width: int = TEXT_WIDTH) -> str:
    """Una sola línea: espacios y saltos colapsados, cortada con «…» si no entra."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def describe_call(name: str, input: Any, tool_use_id: str | None = None) -> str:
    """``send_email {"to": …} (toolu_…)``: una llamada a herramienta en una línea."""
    args = json.dumps(input, ensure_ascii=False)
    line = f"{name} {shorten(args, 80)}"
    return f"{line} ({tool_use_id})" if tool_use_id else line


def describe_pending(pending: dict[str, Any] | None) -> str:
    """``pendingToolUse`` en una línea (``null`` si no hay llamada pendiente)."""
    if pending is None:
        return "null"
    return describe_call(str(pending.get("name")), pending.get("input"), pending.get("id"))


def describe_run_error(e: BaseException) -> str:
    """An exception that ended a run, as one line: the API's own message for an HTTP error."""
    import anthropic  # only when a run failed: whoever ran the agent has the SDK loaded already

    from .checkpoint import CheckpointError  # checkpoint reads messages with this module's helpers

    if isinstance(e, anthropic.APIStatusError):
        body = e.body if isinstance(e.body, dict) else {}
        msg = (body.get("error") or {}).get("message") or str(e)
        return f"HTTP {e.status_code} {type(e).__name__}: {msg}"
    if isinstance(e, (CheckpointError, RuntimeError)):
        return f"{type(e).__name__}: {e}"
    return "".join(traceback.format_exception_only(type(e), e)).strip()
