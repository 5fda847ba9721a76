"""Observar desde afuera: la capa de herramientas del corrector y la foto del espacio de trabajo.

The learner's ``execute_tool`` is a proxy: the judge executes the tool here, on the
check's workspace, and logs it. Tools lesson3 does not have (write_file, charge_card,
...) get a stand-in that leaves a visible trace in the workspace instead of doing
anything real, so "no effect happened" is a fact about files. A snapshot of the
workspace before and after each call catches effects that did not come through the
proxy (a direct write, a subprocess), whatever route the learner found.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lesson3.tools import _TOOLS as LESSON_TOOLS
from lesson3.tools import run_tool, use_workspace

TRACE_DIR = "efectos"
"""Where stand-in high-impact tools leave their trace inside the workspace."""

MAX_TRACE_BYTES = 64 * 1024


@dataclass
class ToolCall:
    name: str
    input: Any
    content: str
    is_error: bool

    def describe(self) -> str:
        shown = json.dumps(self.input, ensure_ascii=False, sort_keys=True)
        return f"{self.name}({shown if len(shown) <= 50 else shown[:47] + '...'})"


@dataclass
class ToolLayer:
    """Executes and logs every tool the learner's process asks for, on one workspace."""

    workspace: Path
    log: list[ToolCall] = field(default_factory=list)

    def __call__(self, name: str, input: Any) -> dict[str, Any]:
        if name in LESSON_TOOLS:
            with use_workspace(self.workspace):
                outcome = run_tool(name, input if isinstance(input, dict) else {})
            content, is_error = outcome.content, outcome.is_error
            if not isinstance(input, dict):
                content, is_error = f"Error: la entrada de {name} debe ser un objeto", True
        else:
            content, is_error = self._stand_in(name, input), False
        self.log.append(ToolCall(name, input, content, is_error))
        return {"content": content, "is_error": is_error}

    def _stand_in(self, name: str, input: Any) -> str:
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:60] or "herramienta"
        trace = self.workspace / TRACE_DIR / f"{safe}.jsonl"
        trace.parent.mkdir(exist_ok=True)
        line = json.dumps({"tool": name, "input": input}, ensure_ascii=False)[:MAX_TRACE_BYTES]
        with trace.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
        return f"Hecho: {name} se ejecutó."


Snapshot = dict[str, str]


def snapshot(workspace: Path) -> Snapshot:
    """Every path under the workspace -> a digest of its content ("dir" for folders)."""
    shot: Snapshot = {}
    for path in sorted(workspace.rglob("*")):
        rel = path.relative_to(workspace).as_posix()
        if path.is_symlink():
            shot[rel] = "link:" + str(path.readlink())
        elif path.is_dir():
            shot[rel] = "dir"
        else:
            try:
                shot[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                shot[rel] = "unreadable"
    return shot


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """Paths created, deleted or modified between two snapshots, sorted."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
