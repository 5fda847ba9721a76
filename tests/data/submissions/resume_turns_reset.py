"""Entrega con un error de la ruta de reanudación: turns vuelve a 0 al reanudar."""

import json
from pathlib import Path


def my_load_checkpoint(path):
    path = Path(path)
    if not path.exists():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    if raw["version"] != 1:
        raise ValueError(f"Versión de punto de control incompatible: el archivo es v{raw['version']}, el código es v1")
    return raw


def start_state(task, path, reconcile):
    cp = my_load_checkpoint(path)
    if cp:
        state = reconcile(cp) if cp["pendingToolUse"] else cp
        state["turns"] = 0  # «este proceso todavía no hizo ningún turno»: el error que esquiva MAX_TURNS
        return state
    return {
        "version": 1,
        "task": task,
        "turns": 0,
        "tokensUsed": 0,
        "messages": [{"role": "user", "content": task}],
        "pendingToolUse": None,
    }
