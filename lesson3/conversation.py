"""La conversación con el modelo: leer mensajes, bloques y llamadas pendientes, y contar errores.

The helpers every part of the course and the grader use to read a ``messages``
list as the Messages API shapes it: the blocks of a message, the text of a
message or a ``tool_result``, the last ``tool_use``, whether every ``tool_use`` is
answered as the API requires (:func:`pairing_problem`, the one place that rule is
written), a tool call on one line, and an exception from a run said as one
sentence. They read; they never change a conversation, and they accept malformed
input (learner data) without raising.
"""

from __future__ import annotations

import json
import traceback
from dataclasses import dataclass
from typing import Any

TEXT_WIDTH = 110


def blocks(message: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The content blocks of a message (a plain-string content has none)."""
    content = (message or {}).get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def conversation_finished(cp: dict[str, Any]) -> bool:
    """La conversación ya terminó: nada pendiente y el último mensaje es del asistente, sin ``tool_use``.

    That last message is the model's final answer; another ``create()`` would only
    send a conversation that ends with the assistant speaking.
    """
    if cp["pendingToolUse"] is not None or not cp["messages"]:
        return False
    last = cp["messages"][-1]
    return last.get("role") == "assistant" and not any(b.get("type") == "tool_use" for b in blocks(last))


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


def leading_tool_results(message: Any) -> list[dict[str, Any]]:
    """The tool_result blocks a message's content starts with: the only ones that answer the previous tool_use."""
    content = message.get("content") if isinstance(message, dict) else None
    found: list[dict[str, Any]] = []
    for block in content if isinstance(content, list) else []:
        if not (isinstance(block, dict) and block.get("type") == "tool_result"):
            break
        found.append(block)
    return found


@dataclass(frozen=True)
class PairingProblem:
    """Where a conversation breaks the Messages API's tool_use/tool_result rule, and how.

    ``kind`` is ``"missing"`` (a tool_use id has no tool_result at the start of the next
    message), ``"not_first"`` (its tool_result is in that message, but after another block),
    ``"duplicate"`` (a second tool_result for one id) or ``"unexpected"`` (a tool_result
    for an id the previous assistant message did not use). ``message`` and ``block`` are
    the indexes the API names (``block`` is None when it names only the message), ``ids``
    the tool_use ids concerned and ``expected`` how many tool_result blocks the message
    had to start with.
    """

    kind: str
    message: int
    block: int | None
    ids: tuple[str, ...]
    expected: int = 0


def pairing_problem(messages: list[Any]) -> PairingProblem | None:
    """The first place ``messages`` breaks the API's pairing rule, or None when it keeps it.

    The rule: the message after an assistant message with tool_use blocks is a user
    message whose content STARTS with one tool_result per tool_use id (each id once, no
    other id); other blocks (text, ...) may follow them. A tool_result anywhere else
    answers nothing, and the API refuses the request.
    """
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        if message.get("role") == "assistant":
            ids = [b.get("id") for b in blocks(message) if b.get("type") == "tool_use"]
            if not ids:
                continue
            following = messages[i + 1] if i + 1 < len(messages) else None
            reply = following if isinstance(following, dict) and following.get("role") == "user" else None
            first = {b.get("tool_use_id") for b in leading_tool_results(reply)}
            missing = tuple(str(x) for x in ids if x not in first)
            if missing:
                later = {b.get("tool_use_id") for b in blocks(reply) if b.get("type") == "tool_result"}
                if all(x in later for x in missing):
                    return PairingProblem("not_first", i + 1, None, missing, expected=len(ids))
                return PairingProblem("missing", i, None, missing)
        elif message.get("role") == "user" and isinstance(message.get("content"), list):
            previous = messages[i - 1] if i > 0 else None
            offered = (
                {b.get("id") for b in blocks(previous) if b.get("type") == "tool_use"}
                if isinstance(previous, dict) and previous.get("role") == "assistant"
                else set()
            )
            seen: set[Any] = set()
            for k, block in enumerate(message["content"]):
                if not (isinstance(block, dict) and block.get("type") == "tool_result"):
                    continue
                tool_use_id = block.get("tool_use_id")
                if tool_use_id not in offered:
                    return PairingProblem("unexpected", i, k, (str(tool_use_id),))
                if tool_use_id in seen:
                    return PairingProblem("duplicate", i, k, (str(tool_use_id),))
                seen.add(tool_use_id)
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
