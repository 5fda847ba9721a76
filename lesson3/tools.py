"""Las herramientas del agente, confinadas a una carpeta de trabajo.

``execute_tool(name, input)`` is the lesson's ``executeTool``: it acts on the
*active* workspace (set by ``run_agent`` or ``use_workspace``), so a learner's
``reconcile`` can call it with just a name and an input, as in the lesson.
"""

from __future__ import annotations

import contextlib
import contextvars
import email.message
import email.policy
import email.utils
import functools
import json
import mailbox
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

OUTBOX = "outbox"
"""Maildir inside the workspace where ``send_email`` delivers: one file per email."""

_active: contextvars.ContextVar[Path | None] = contextvars.ContextVar("lesson3_workspace", default=None)
# A throwaway run (the grader's, the course's reference runs) skips the fsync of each delivery.
_durable: contextvars.ContextVar[bool] = contextvars.ContextVar("lesson3_durable", default=True)


class ToolError(Exception):
    """Una herramienta no pudo hacer su trabajo; el modelo recibe el motivo como error."""


@dataclass(frozen=True)
class ToolOutcome:
    content: str
    is_error: bool = False


TOOL_SCHEMAS: list[dict[str, Any]] = [
    {
        "name": "read_file",
        "description": "Lee un archivo de texto del espacio de trabajo y devuelve su contenido.",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Ruta relativa al espacio de trabajo."}},
            "required": ["path"],
        },
    },
    {
        "name": "grep",
        "description": "Busca un texto (expresión regular) en los archivos bajo una ruta; devuelve ruta:línea: texto.",
        "input_schema": {
            "type": "object",
            "properties": {
                "pattern": {"type": "string"},
                "path": {
                    "type": "string",
                    "description": "Carpeta o archivo; por defecto, todo el espacio de trabajo.",
                },
            },
            "required": ["pattern"],
        },
    },
    {
        "name": "list_dir",
        "description": "Lista el contenido de una carpeta del espacio de trabajo.",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Carpeta relativa; por defecto, la raíz."}},
        },
    },
    {
        "name": "web_search",
        "description": "Busca en la web (un corpus sin conexión) y devuelve títulos, direcciones y fragmentos.",
        "input_schema": {
            "type": "object",
            "properties": {"query": {"type": "string"}},
            "required": ["query"],
        },
    },
    {
        "name": "send_email",
        "description": "Envía un correo electrónico. Tiene efectos: cada llamada envía un correo.",
        "input_schema": {
            "type": "object",
            "properties": {
                "to": {"type": "string"},
                "subject": {"type": "string"},
                "body": {"type": "string"},
            },
            "required": ["to", "subject"],
        },
    },
]


# -- workspace -----------------------------------------------------------------------------


@contextlib.contextmanager
def use_workspace(path: str | os.PathLike[str], *, durable: bool = True) -> Iterator[Path]:
    """Hace de ``path`` el espacio de trabajo activo mientras dure el bloque.

    ``durable=False`` se saltea el ``fsync`` de cada correo entregado (como en ``save_checkpoint``).
    """
    root = _workspace_root(path)
    token, durable_token = _active.set(root), _durable.set(durable)
    try:
        yield root
    finally:
        _durable.reset(durable_token)
        _active.reset(token)


def set_workspace(path: str | os.PathLike[str]) -> Path:
    """Fija el espacio de trabajo activo (para usar ``execute_tool`` suelto en un cuaderno)."""
    root = _workspace_root(path)
    _active.set(root)
    return root


def _workspace_root(path: str | os.PathLike[str]) -> Path:
    root = Path(path).resolve()
    if not root.is_dir():
        raise ToolError(f"el espacio de trabajo {root} no existe o no es una carpeta")
    return root


def active_workspace() -> Path:
    root = _active.get()
    if root is None:
        raise ToolError("no hay espacio de trabajo activo: usa run_agent(...) o use_workspace(carpeta)")
    return root


def create_workspace(
    path: str | os.PathLike[str], *, notes: dict[str, str] | None = None, exist_ok: bool = False
) -> Path:
    """Crea un espacio de trabajo: las notas del curso (o ``notes``) y una bandeja de salida vacía."""
    root = Path(path)
    root.mkdir(parents=True, exist_ok=exist_ok)
    notes_dir = root / "notes"
    notes_dir.mkdir(exist_ok=exist_ok)
    if notes is None:
        shipped = resources.files("lesson3") / "data" / "workspace" / "notes"
        notes = {f.name: f.read_text(encoding="utf-8") for f in shipped.iterdir() if f.name.endswith(".md")}
    for name, text in notes.items():
        (notes_dir / name).write_text(text, encoding="utf-8")
    for sub in ("tmp", "new", "cur"):
        (root / OUTBOX / sub).mkdir(parents=True, exist_ok=True)
    return root.resolve()


def outbox_messages(workspace: str | os.PathLike[str]) -> list[email.message.Message]:
    """Los correos enviados, en orden de envío."""
    box = Path(workspace) / OUTBOX
    if not (box / "new").is_dir():
        return []
    md = mailbox.Maildir(box, factory=None, create=False)
    return [md[key] for key in sorted(md.keys())]


def outbox_count(workspace: str | os.PathLike[str]) -> int:
    """Cuántos correos recibió el equipo: cuántos archivos hay en la bandeja de salida."""
    box = Path(workspace) / OUTBOX
    return sum(1 for sub in ("new", "cur") if (box / sub).is_dir() for f in (box / sub).iterdir() if f.is_file())


# -- execution -----------------------------------------------------------------------------


def execute_tool(name: str, input: dict[str, Any]) -> str:
    """``executeTool(name, input)`` de la lección: devuelve el texto del resultado.

    A failure (unknown tool, path outside the workspace, missing file) comes back as
    text starting with «Error:», never as an exception, so the loop keeps going.
    """
    return run_tool(name, input).content


def run_tool(name: str, input: dict[str, Any]) -> ToolOutcome:
    """Como ``execute_tool`` pero dice si fue un error (para marcar ``is_error``)."""
    impl = _TOOLS.get(name)
    if impl is None:
        return ToolOutcome(f"Error: herramienta desconocida «{name}»", is_error=True)
    if not isinstance(input, dict):
        return ToolOutcome(f"Error: la entrada de {name} debe ser un objeto", is_error=True)
    try:
        return ToolOutcome(impl(active_workspace(), input))
    except ToolError as e:
        return ToolOutcome(f"Error: {e}", is_error=True)


def _resolve(root: Path, rel: object, *, default: str | None = None) -> Path:
    if rel is None and default is not None:
        rel = default
    if not isinstance(rel, str):
        raise ToolError("falta «path» o no es un texto")
    target = (root / rel).resolve()
    if target != root and not target.is_relative_to(root):
        raise ToolError(f"la ruta «{rel}» sale del espacio de trabajo")
    return target


def _read_file(root: Path, input: dict[str, Any]) -> str:
    target = _resolve(root, input.get("path"))
    if not target.is_file():
        raise ToolError(f"no existe el archivo «{input.get('path')}»")
    try:
        return target.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"«{input.get('path')}» no es un archivo de texto") from None


def _list_dir(root: Path, input: dict[str, Any]) -> str:
    target = _resolve(root, input.get("path"), default=".")
    if not target.is_dir():
        raise ToolError(f"no existe la carpeta «{input.get('path')}»")
    entries = sorted(target.iterdir(), key=lambda p: p.name)
    lines = [p.name + ("/" if p.is_dir() else "") for p in entries if not p.name.startswith(".")]
    return "\n".join(lines) if lines else "(carpeta vacía)"


def _grep(root: Path, input: dict[str, Any]) -> str:
    pattern = input.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        raise ToolError("falta «pattern» o está vacío")
    try:
        regex = re.compile(pattern)
    except re.error as e:
        raise ToolError(f"expresión regular inválida: {e}") from None
    target = _resolve(root, input.get("path"), default=".")
    if not target.exists():
        raise ToolError(f"no existe «{input.get('path')}»")
    files = [target] if target.is_file() else sorted(p for p in target.rglob("*") if p.is_file())
    hits = []
    for f in files:
        rel = f.relative_to(root)
        # Hidden files are skipped, and so is a symlink pointing out of the workspace.
        if any(part.startswith(".") for part in rel.parts) or not f.resolve().is_relative_to(root):
            continue
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        hits += [f"{rel.as_posix()}:{n}: {line}" for n, line in enumerate(text.splitlines(), 1) if regex.search(line)]
    return "\n".join(hits) if hits else "(sin coincidencias)"


def _web_search(root: Path, input: dict[str, Any]) -> str:
    query = input.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolError("falta «query» o está vacía")
    words = set(_words(query))
    scores = [(len(words & set(_words(p["title"] + " " + p["snippet"]))), i, p) for i, p in enumerate(web_corpus())]
    best = sorted((-score, i, p) for score, i, p in scores if score)[:3]
    if not best:
        return "(sin resultados)"
    return "\n\n".join(f"{p['title']}\n{p['url']}\n{p['snippet']}" for _, _, p in best)


def _send_email(root: Path, input: dict[str, Any]) -> str:
    to, subject, body = input.get("to"), input.get("subject"), input.get("body", "")
    if not isinstance(to, str) or not email.utils.parseaddr(to)[1] or "@" not in to:
        raise ToolError(f"destinatario inválido: {to!r}")
    if not isinstance(subject, str) or not subject:
        raise ToolError("falta «subject»")
    msg = email.message.EmailMessage(policy=email.policy.SMTP)
    msg["From"] = "agente@example.com"
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate(localtime=False)
    msg["Message-ID"] = email.utils.make_msgid(domain="lesson3.example.com")
    msg.set_content(body if isinstance(body, str) else json.dumps(body, ensure_ascii=False))
    _deliver(root / OUTBOX, msg.as_bytes())
    return f"Correo enviado a {to} con el asunto «{subject}»."


def _deliver(box: Path, data: bytes) -> Path:
    """Maildir delivery: write in tmp/, fsync, then link into new/ under the next free number.

    Names are sequence numbers (not the usual time.pid.host) so the outbox lists the
    same way on every run; ``os.link`` refuses an existing name, so two writers never
    overwrite each other.
    """
    for sub in ("tmp", "new", "cur"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    tmp = box / "tmp" / f"{os.getpid()}.{id(data)}.lesson3"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        if _durable.get():
            os.fsync(f.fileno())
    try:
        n = outbox_count(box.parent) + 1
        while True:
            target = box / "new" / f"{n:06d}.lesson3"
            try:
                os.link(tmp, target)
                return target
            except FileExistsError:
                n += 1
    finally:
        tmp.unlink(missing_ok=True)


_WORD = re.compile(r"\w+", re.UNICODE)


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if len(w) > 2]


@functools.cache
def web_corpus() -> list[dict[str, str]]:
    """The pages web_search searches (title, url, snippet): offline, the same on every run."""
    return json.loads((resources.files("lesson3") / "data" / "web_corpus.json").read_text(encoding="utf-8"))


_TOOLS = {
    "read_file": _read_file,
    "grep": _grep,
    "list_dir": _list_dir,
    "web_search": _web_search,
    "send_email": _send_email,
}

TOOL_NAMES: tuple[str, ...] = tuple(_TOOLS)
"""Every tool this course's agent can call, read-only and high-impact."""
