"""Lección 3: reanudar desde un punto de control — implementación de referencia.

Names are loaded on first use (PEP 562): ``from lesson3 import reconcile`` works as
always, while ``import lesson3.checkpoint`` (the grader's reports, a bare script)
does not pay for the agent and the Anthropic SDK it never calls.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, tuple[str, ...]] = {
    "agent": ("CRASH_POINTS", "CRASH_POINT_LABELS", "MAX_TURNS", "ParallelToolUseError", "ReconcileError", "run_agent"),
    "checkpoint": (
        "CHECKPOINT_FILENAME",
        "CHECKPOINT_VERSION",
        "Checkpoint",
        "CheckpointError",
        "CheckpointVersionError",
        "dangling_tool_uses",
        "load_checkpoint",
        "new_state",
        "save_checkpoint",
        "validate_checkpoint",
    ),
    "model": (
        "DEFAULT_MODEL",
        "TASK_EMAIL",
        "TASK_NOTES",
        "LiveModeError",
        "ScriptedModel",
        "api_error_for",
        "api_error_meaning",
        "make_client",
        "offline_client",
    ),
    "answers": ("STRATEGIES", "reconcile"),
    "reconciliation": ("READ_ONLY_TOOLS", "UNKNOWN_STATE_MESSAGE", "delete_dangling", "reconcile_production"),
    "tools": (
        "TOOL_SCHEMAS",
        "ToolError",
        "create_workspace",
        "execute_tool",
        "outbox_count",
        "outbox_messages",
        "run_tool",
        "set_workspace",
        "use_workspace",
    ),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'lesson3' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # once loaded, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
