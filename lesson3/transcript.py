"""Conversaciones y puntos de control en pocas líneas, para los cuadernos y el laboratorio.

Messages are drawn by :mod:`lesson3.render` (the same lines ``lesson3 show``
prints); this module only cuts them to what a notebook cell should show. Plain
text built from the data alone, so the same conversation always prints the same
lines (nbval compares them).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .checkpoint import Checkpoint
from .conversation import describe_pending, shorten
from .render import format_message


def conversation_tail(messages: list[dict[str, Any]], n: int = 3) -> str:
    """Los últimos ``n`` mensajes, numerados como en la lista completa."""
    start = max(0, len(messages) - n)
    lines = [f"… ({start} mensajes anteriores)"] if start else []
    for i in range(start, len(messages)):
        lines.extend(format_message(i, messages[i]))
    return "\n".join(lines)


def checkpoint_summary(cp: Checkpoint | None) -> str:
    """Los campos de un punto de control (en el orden de la lección) y su último mensaje; no dice qué hacer al reanudar.

    (``render.format_checkpoint`` adds the resume plan, which would give the Level 1
    exercise away.)
    """
    if cp is None:
        return "(no hay punto de control)"
    messages = cp["messages"]
    lines = [
        f"version={cp['version']}  task={json.dumps(cp['task'], ensure_ascii=False)}",
        f"turns={cp['turns']}  tokensUsed={cp['tokensUsed']}  messages={len(messages)}",
        f"pendingToolUse: {describe_pending(cp['pendingToolUse'])}",
    ]
    if messages:
        lines.append("último mensaje:")
        lines += ["  " + line for line in format_message(len(messages) - 1, messages[-1])]
    return "\n".join(lines)


def checkpoint_file_view(path: str | os.PathLike[str], keep_last: int = 1, width: int = 60) -> str:
    """El archivo tal como está en disco, con ``messages`` abreviado y los textos largos recortados."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(raw, dict) and isinstance(raw.get("messages"), list):
        msgs = raw["messages"]
        hidden = max(0, len(msgs) - keep_last)
        raw["messages"] = ([f"… {hidden} mensajes anteriores …"] if hidden else []) + [
            _clip(m, width) for m in msgs[hidden:]
        ]
    if isinstance(raw, dict):
        for key in ("task", "pendingToolUse"):
            if key in raw:
                raw[key] = _clip(raw[key], width)
    return json.dumps(raw, ensure_ascii=False, indent=2)


def _clip(value: Any, width: int) -> Any:
    if isinstance(value, str):
        return shorten(value, width)
    if isinstance(value, list):
        return [_clip(v, width) for v in value]
    if isinstance(value, dict):
        return {k: _clip(v, width) for k, v in value.items()}
    return value
