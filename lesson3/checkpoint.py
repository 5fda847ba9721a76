"""checkpoint.json: guardar de forma segura ante caídas y cargar con validación.

The file keeps the lesson's exact camelCase keys so a checkpoint written by the
lesson's JavaScript loads here and the other way round.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

CHECKPOINT_VERSION = 1
CHECKPOINT_FILENAME = "checkpoint.json"

Checkpoint = dict[str, Any]
"""{version, task, turns, tokensUsed, messages, pendingToolUse}: the lesson's shape."""

FIELDS: dict[str, tuple[type, ...]] = {
    "version": (int,),
    "task": (str,),
    "turns": (int,),
    "tokensUsed": (int,),
    "messages": (list,),
    "pendingToolUse": (dict, type(None)),
}


class CheckpointError(Exception):
    """El punto de control no se puede usar; el archivo queda intacto."""


class CheckpointVersionError(CheckpointError):
    """El archivo es de otra versión del formato."""


def new_state(task: str) -> Checkpoint:
    """Arranque desde cero: el primer mensaje del usuario a mano, el resto en cero."""
    return {
        "version": CHECKPOINT_VERSION,
        "task": task,
        "turns": 0,
        "tokensUsed": 0,
        "messages": [{"role": "user", "content": task}],
        "pendingToolUse": None,
    }


def save_checkpoint(
    state: Checkpoint, path: str | os.PathLike[str] = CHECKPOINT_FILENAME, *, durable: bool = True
) -> None:
    """Escribe el punto de control de forma atómica y, con ``durable``, durable.

    El temporal tiene nombre fijo, como en la lección (``checkpoint.json.tmp``): un
    guardado matado a mitad de camino deja a lo sumo un archivo suelto, que el siguiente
    reutiliza. ``durable=False`` es para ejecuciones descartables (las del corrector):
    un SIGKILL sigue sin dejar medio archivo; solo un corte de luz podría perder el último.
    """
    path = Path(path)
    data = json.dumps(state, ensure_ascii=False, indent=2).encode("utf-8")
    write_atomic(path, data, durable=durable, temp=path.with_name(path.name + ".tmp"))


def write_atomic(path: str | os.PathLike[str], data: bytes, *, durable: bool = True, temp: Path | None = None) -> None:
    """Todo o nada: escribe un temporal junto a ``path`` y después lo renombra sobre ``path``.

    El temporal vive en la misma carpeta para que ``os.replace`` sea un renombre dentro
    de un mismo sistema de archivos: quien lee ve el archivo viejo o el nuevo, nunca la
    mitad de uno, aunque el proceso que escribe muera. Con ``durable`` además hace
    ``fsync`` del archivo antes de renombrar y de la carpeta después, para que el cambio
    sobreviva a un corte de luz y no solo a un proceso matado. ``temp`` fija el nombre del
    temporal; si no, es uno nuevo y privado (permisos 0600), y dos escritores nunca lo comparten.
    """
    path = Path(path)
    directory = path.parent
    if temp is None:
        fd, name = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
        temp, f = Path(name), os.fdopen(fd, "wb")
    else:
        f = open(temp, "wb")
    try:
        with f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if durable:
        _fsync_dir(directory)


def load_checkpoint(path: str | os.PathLike[str] = CHECKPOINT_FILENAME) -> Checkpoint | None:
    """Lee, parsea y verifica el punto de control; ``None`` si no existe.

    Raises CheckpointError (or CheckpointVersionError) with a Spanish message naming the
    file and the field; the file is only ever read.
    """
    path = Path(path)
    try:
        raw_bytes = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise CheckpointError(f"{path}: es una carpeta, no un archivo de punto de control") from None
    except OSError as e:
        raise CheckpointError(f"{path}: no se pudo leer ({e.strerror})") from None
    try:
        text = raw_bytes.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.reason == "unexpected end of data":  # cut inside a multi-byte character
            raise CheckpointError(_truncated(path, raw_bytes[: e.start].decode("utf-8"))) from None
        raise CheckpointError(f"{path}: no es texto UTF-8 (byte inválido en la posición {e.start})") from None
    if not text.strip():
        raise CheckpointError(f"{path}: el archivo está vacío")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        if _cut_short(text, e):
            raise CheckpointError(_truncated(path, text)) from None
        raise CheckpointError(
            f"{path}: no es JSON válido (línea {e.lineno}, columna {e.colno}: {_JSON_ERRORS_ES.get(e.msg, e.msg)})"
        ) from None
    return validate_checkpoint(raw, source=str(path))


def validate_checkpoint(raw: object, source: str = "punto de control", *, check_pending: bool = True) -> Checkpoint:
    """Comprueba forma, versión y coherencia de ``pendingToolUse`` con ``messages``.

    ``check_pending=False`` checks the shape only, leaving the pairing of tool calls and
    results to the Messages API (used on what a reconcile function returns).
    """
    if not isinstance(raw, dict):
        raise CheckpointError(f"{source}: se esperaba un objeto JSON y hay {_json_type(raw)}")
    for field, types in FIELDS.items():  # "version" first: another version's file fails on that alone
        if field not in raw:
            raise CheckpointError(f"{source}: falta el campo «{field}»")
        value = raw[field]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            expected = " o ".join(_TYPE_NAMES[t] for t in types)
            raise CheckpointError(f"{source}: el campo «{field}» debe ser {expected}, pero es {_json_type(value)}")
        if field == "version" and value != CHECKPOINT_VERSION:
            raise CheckpointVersionError(version_message(value))
    for field in ("turns", "tokensUsed"):
        if raw[field] < 0:
            raise CheckpointError(f"{source}: el campo «{field}» no puede ser negativo ({raw[field]})")
    _validate_messages(raw["messages"], source)
    if check_pending:
        _validate_pending(raw, source)
    return raw


def dangling_tool_uses(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Los bloques tool_use del último mensaje assistant que no tienen tool_result."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].get("role") == "assistant":
            uses = [b for b in _blocks(messages[i]) if b.get("type") == "tool_use"]
            answered = {
                b.get("tool_use_id") for m in messages[i + 1 :] for b in _blocks(m) if b.get("type") == "tool_result"
            }
            return [b for b in uses if b.get("id") not in answered]
    return []


# -- internals -------------------------------------------------------------------------

_TYPE_NAMES = {
    int: "un número entero",
    str: "un texto",
    list: "una lista",
    dict: "un objeto",
    type(None): "null",
}


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"un booleano ({_js(value)})"
    if isinstance(value, int):
        return f"un número entero ({value})"
    if isinstance(value, float):
        return f"un número con decimales ({value})"
    return next((_TYPE_NAMES[t] for t in (str, list, dict) if isinstance(value, t)), type(value).__name__)


def version_message(version: object) -> str:
    """The lesson's refusal of a file of another version, as its JavaScript template writes it.

    ``${raw.version}`` writes a text as it is (``"1"`` gives ``v1``) and a number as JavaScript
    prints it; the grader judges learners' messages against this one text (``says_version_refused``).
    """
    return (
        f"Versión de punto de control incompatible: el archivo es v{_js(version)}, el código es v{CHECKPOINT_VERSION}"
    )


def says_version_refused(message: str, version: object) -> bool:
    """The one rule for a refusal's text, the grader's and notebook 1's: it carries the lesson's message."""
    return version_message(version) in message


def _js(value: object) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


VERSION_MESSAGE_ANY = version_message("N")
"""The same message as the lesson shows it for any file version ``vN``: what hints and feedback quote."""


# What can be left of the last token when a file is cut short: part of a number, of
# true/false/null, or of a \uXXXX escape inside a string.
_LAST_TOKEN_PREFIX = re.compile(r"-?[0-9.eE+-]*|t(r(ue?)?)?|f(a(l(se?)?)?)?|n(u(ll?)?)?|u[0-9a-fA-F]{0,4}")


def _cut_short(text: str, e: json.JSONDecodeError) -> bool:
    """The parse failed only because the text ends early (a write cut off), not on a wrong character."""
    rest = text[e.pos :].rstrip()
    # A string cannot hold a raw newline, so an unterminated one runs to the end of the file.
    return not rest or e.msg.startswith("Unterminated string") or bool(_LAST_TOKEN_PREFIX.fullmatch(rest))


def _truncated(path: Path, text: str) -> str:
    lines = text.splitlines() or [""]
    return (
        f"{path}: el JSON está truncado (termina en la línea {len(lines)}, columna {len(lines[-1]) + 1}); "
        "¿se cortó una escritura?"
    )


_JSON_ERRORS_ES = {
    "Expecting value": "se esperaba un valor",
    "Expecting property name enclosed in double quotes": "se esperaba un nombre de campo entre comillas dobles",
    "Expecting ',' delimiter": "se esperaba una coma",
    "Expecting ':' delimiter": "se esperaban dos puntos",
    "Extra data": "sobran datos después del objeto",
    "Unterminated string starting at": "texto sin cerrar",
    "Invalid control character at": "carácter de control inválido",
}
"""json's parse errors in Spanish; one it does not list keeps its English text."""


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    # conversation.blocks, repeated: this module imports nothing from lesson3 so it loads on its own
    # (the SIGKILL test runs it in a bare interpreter), and the checkpoint is the bottom layer anyway.
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _validate_messages(messages: list[Any], source: str) -> None:
    if not messages:
        raise CheckpointError(f"{source}: «messages» está vacía; falta al menos el mensaje con la tarea")
    for i, msg in enumerate(messages):
        where = f"{source}: messages[{i}]"
        if not isinstance(msg, dict):
            raise CheckpointError(f"{where} debe ser un objeto, pero es {_json_type(msg)}")
        if msg.get("role") not in ("user", "assistant"):
            raise CheckpointError(f'{where}.role debe ser "user" o "assistant", pero es {_js(msg.get("role"))}')
        if "content" not in msg:
            raise CheckpointError(f"{where}: falta «content»")
        content = msg["content"]
        if isinstance(content, str):
            continue
        if not isinstance(content, list):
            raise CheckpointError(
                f"{where}.content debe ser un texto o una lista de bloques, pero es {_json_type(content)}"
            )
        for j, block in enumerate(content):
            if not isinstance(block, dict) or not isinstance(block.get("type"), str):
                raise CheckpointError(f"{where}.content[{j}] debe ser un bloque con «type»")
            if None in block.values():
                key = next(k for k, v in block.items() if v is None)
                raise CheckpointError(f"{where}.content[{j}].{key} es null; la API no acepta null ahí (omite el campo)")
            if block["type"] == "tool_use" and not (
                isinstance(block.get("id"), str)
                and isinstance(block.get("name"), str)
                and isinstance(block.get("input"), dict)
            ):
                raise CheckpointError(f"{where}.content[{j}]: un tool_use necesita «id», «name» e «input»")
            if block["type"] == "tool_result" and not isinstance(block.get("tool_use_id"), str):
                raise CheckpointError(f"{where}.content[{j}]: un tool_result necesita «tool_use_id»")
    if messages[0]["role"] != "user":
        raise CheckpointError(f"{source}: messages[0] debe ser del usuario (la tarea)")


def _validate_pending(raw: Checkpoint, source: str) -> None:
    pending = raw["pendingToolUse"]
    dangling = dangling_tool_uses(raw["messages"])
    if pending is None:
        if dangling:
            ids = ", ".join(b["id"] for b in dangling)
            raise CheckpointError(
                f"{source}: «pendingToolUse» es null pero el último mensaje assistant tiene un tool_use "
                f"sin tool_result ({ids}); el archivo es incoherente"
            )
        return
    for key, types in (("id", str), ("name", str), ("input", dict)):
        if not isinstance(pending.get(key), types):
            raise CheckpointError(
                f"{source}: «pendingToolUse.{key}» debe ser {_TYPE_NAMES[types]}, "
                f"pero es {_json_type(pending.get(key))}"
            )
    last = raw["messages"][-1]
    if last["role"] != "assistant":
        raise CheckpointError(
            f"{source}: «pendingToolUse» ({pending['id']}) no es null, pero el último mensaje no es del "
            "assistant; la llamada ya tiene respuesta o el archivo es incoherente"
        )
    block = next((b for b in dangling if b.get("id") == pending["id"]), None)
    if block is None:
        raise CheckpointError(
            f"{source}: «pendingToolUse.id» ({pending['id']}) no coincide con ningún tool_use del último "
            "mensaje assistant"
        )
    if block["name"] != pending["name"] or block["input"] != pending["input"]:
        raise CheckpointError(
            f"{source}: «pendingToolUse» ({pending['id']}) no coincide con el tool_use del último mensaje "
            f"assistant (name/input distintos)"
        )


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # platforms without directory fds: the rename is still atomic
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
