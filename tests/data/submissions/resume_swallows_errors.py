"""Entrega con un error de la ruta de reanudación: cualquier problema al cargar se trata como «no hay archivo»."""

import json
from pathlib import Path


def my_load_checkpoint(path):
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        if raw["version"] != 1:
            raise ValueError(
                f"Versión de punto de control incompatible: el archivo es v{raw['version']}, el código es v1"
            )
        return raw
    except Exception:
        return None


def start_state(task, path, reconcile):
    cp = my_load_checkpoint(path)
    if cp:
        return reconcile(cp) if cp["pendingToolUse"] else cp
    return {
        "version": 1,
        "task": task,
        "turns": 0,
        "tokensUsed": 0,
        "messages": [{"role": "user", "content": task}],
        "pendingToolUse": None,
    }
