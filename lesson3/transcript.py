"""Mostrar conversaciones y puntos de control de forma legible (para los cuadernos y el laboratorio).

Everything returns plain text built only from the data shown, so the same
conversation always prints the same lines (nbval compares them).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .checkpoint import Checkpoint

WIDTH = 90


def shorten(text: str, width: int = WIDTH) -> str:
    """Una línea: saltos de línea como «⏎» y recortada con «…»."""
    flat = " ⏎ ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def describe_block(block: dict[str, Any], width: int = WIDTH) -> str:
    """Un bloque de contenido en una línea."""
    kind = block.get("type")
    if kind == "text":
        return f"texto «{shorten(str(block.get('text', '')), width)}»"
    if kind == "tool_use":
        args = ", ".join(f"{k}={_value(v)}" for k, v in block.get("input", {}).items() if k != "body")
        if "body" in block.get("input", {}):
            args += ", body=…"
        return f"tool_use {block.get('name')}({args})  id={block.get('id')}"
    if kind == "tool_result":
        flag = " is_error=true" if block.get("is_error") else ""
        content = block.get("content", "")
        if isinstance(content, list):
            content = "".join(b.get("text", "") for b in content if isinstance(b, dict))
        return f"tool_result{flag} para {block.get('tool_use_id')}: «{shorten(str(content), width)}»"
    return f"{kind}"


def describe_message(index: int, message: dict[str, Any], width: int = WIDTH) -> list[str]:
    """Un mensaje de ``messages`` como líneas «[i] rol: bloque»."""
    role = message.get("role")
    content = message.get("content")
    head = f"[{index}] {role}:"
    if isinstance(content, str):
        return [f"{head} «{shorten(content, width)}»"]
    blocks = [describe_block(b, width) for b in content or [] if isinstance(b, dict)]
    if not blocks:
        return [f"{head} (vacío)"]
    pad = " " * len(head)
    return [f"{head} {blocks[0]}"] + [f"{pad} {b}" for b in blocks[1:]]


def conversation_tail(messages: list[dict[str, Any]], n: int = 3, width: int = WIDTH) -> str:
    """Los últimos ``n`` mensajes, numerados como en la lista completa."""
    start = max(0, len(messages) - n)
    lines = [f"… ({start} mensajes anteriores)"] if start else []
    for i in range(start, len(messages)):
        lines.extend(describe_message(i, messages[i], width))
    return "\n".join(lines)


def describe_pending(pending: dict[str, Any] | None) -> str:
    if pending is None:
        return "null"
    args = ", ".join(f"{k}={_value(v)}" for k, v in pending.get("input", {}).items() if k != "body")
    return f"{pending.get('name')}({args})  id={pending.get('id')}"


def checkpoint_summary(cp: Checkpoint | None) -> str:
    """Los campos de un punto de control en pocas líneas (messages resumido)."""
    if cp is None:
        return "(no hay punto de control)"
    last = cp["messages"][-1] if cp["messages"] else None
    return "\n".join(
        [
            f"version={cp['version']}  turns={cp['turns']}  tokensUsed={cp['tokensUsed']}  "
            f"messages={len(cp['messages'])} mensajes",
            f"pendingToolUse: {describe_pending(cp['pendingToolUse'])}",
            "último mensaje: " + (describe_message(len(cp["messages"]) - 1, last)[0] if last else "(ninguno)"),
        ]
    )


def checkpoint_file_view(path: str | os.PathLike[str], keep_last: int = 1, width: int = 60) -> str:
    """El archivo tal como está en disco, con ``messages`` abreviado y los textos largos recortados."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(raw, dict) and isinstance(raw.get("messages"), list):
        msgs = raw["messages"]
        hidden = max(0, len(msgs) - keep_last)
        raw["messages"] = ([f"… {hidden} mensajes anteriores …"] if hidden else []) + [
            _clip(m, width) for m in msgs[hidden:]
        ]
    if isinstance(raw, dict) and isinstance(raw.get("task"), str):
        raw["task"] = shorten(raw["task"], width)
    if isinstance(raw, dict) and isinstance(raw.get("pendingToolUse"), dict):
        raw["pendingToolUse"] = _clip(raw["pendingToolUse"], width)
    return json.dumps(raw, ensure_ascii=False, indent=2)


def _clip(value: Any, width: int) -> Any:
    if isinstance(value, str):
        return shorten(value, width)
    if isinstance(value, list):
        return [_clip(v, width) for v in value]
    if isinstance(value, dict):
        return {k: _clip(v, width) for k, v in value.items()}
    return value


def _value(v: Any) -> str:
    return shorten(v, 40) if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
