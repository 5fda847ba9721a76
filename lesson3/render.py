"""Un punto de control en texto legible: campos, cola de la conversación y la llamada colgante.

Used by ``lesson3 show`` and by anything else that wants to print a checkpoint for a
person (the notebooks' crash lab, for one). Pure functions of the checkpoint: no I/O.
"""

from __future__ import annotations

from typing import Any

from .answers import resume_plan
from .checkpoint import Checkpoint, dangling_tool_uses
from .conversation import blocks as _blocks
from .conversation import content_text, conversation_finished, describe_call, describe_pending, shorten

task_finished = conversation_finished
"""La última respuesta del modelo es final: no pidió herramienta y no hay nada pendiente."""


def final_text(cp: Checkpoint) -> str | None:
    """El texto de la respuesta final, si la tarea terminó."""
    return (_text_of(cp["messages"][-1]) or None) if task_finished(cp) else None


def format_message(index: int, message: dict[str, Any]) -> list[str]:
    """Las líneas de un mensaje: su texto y cada tool_use / tool_result, acortados."""
    head = f"[{index}] {message.get('role', '?'):<9}"
    pad = " " * len(head)
    content = message.get("content")
    lines: list[str] = []
    if isinstance(content, str):
        lines.append(f"«{shorten(content)}»")
    for block in _blocks(message):
        kind = block.get("type")
        if kind == "text":
            lines.append(f"«{shorten(str(block.get('text', '')))}»")
        elif kind == "tool_use":
            lines.append("→ tool_use " + describe_call(str(block.get("name")), block.get("input"), block.get("id")))
        elif kind == "tool_result":
            mark = " [is_error]" if block.get("is_error") else ""
            lines.append(f"← tool_result ({block.get('tool_use_id')}){mark}: «{shorten(_text_of(block))}»")
        else:
            lines.append(f"({kind})")
    return [(head if i == 0 else pad) + " " + line for i, line in enumerate(lines or ["(sin contenido)"])]


def format_checkpoint(cp: Checkpoint, *, source: str | None = None, tail: int = 4) -> str:
    """El punto de control entero en texto: campos, los últimos ``tail`` mensajes y el plan de reanudación."""
    out = [f"Punto de control: {source}"] if source else []
    fields = [
        ("version", str(cp["version"])),
        ("task", cp["task"]),
        ("turns", str(cp["turns"])),
        ("tokensUsed", str(cp["tokensUsed"])),
        ("messages", f"{len(cp['messages'])} mensajes"),
        ("pendingToolUse", describe_pending(cp["pendingToolUse"])),
    ]
    out += [f"  {name:<15} {value}" for name, value in fields]
    messages = cp["messages"]
    start = max(0, len(messages) - tail) if tail > 0 else len(messages)
    if start < len(messages):
        shown = len(messages) - start
        out += ["", f"Últimos {shown} mensajes:" if shown > 1 else "Último mensaje:"]
        for i in range(start, len(messages)):
            out += ["  " + line for line in format_message(i, messages[i])]
    dangling = dangling_tool_uses(messages)
    out.append("")
    if dangling:
        ids = ", ".join(str(b.get("id")) for b in dangling)
        out.append(f"Llamada colgante: {ids} no tiene tool_result.")
    out.append(resume_plan(cp))
    return "\n".join(out)


def _text_of(item: dict[str, Any]) -> str:
    return content_text(item.get("content"), " ") or ""
