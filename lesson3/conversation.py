"""La conversación con el modelo: leer mensajes, bloques y llamadas pendientes, y contar errores.

The helpers every part of the course and the grader use to read a ``messages``
list as the Messages API shapes it: the blocks of a message, the text of a
message or a ``tool_result``, the last ``tool_use``, whether every ``tool_use`` is
answered as the API requires (:func:`pairing_problem`, the one place that rule is
written), whether every message and block has only the fields the API accepts
(:func:`schema_problem`, read from the SDK's own request types), a tool call on one
line, and an exception from a run said as one sentence. They read; they never change
a conversation, and they accept malformed input (learner data) without raising.
"""

from __future__ import annotations

import functools
import json
import traceback
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
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


@dataclass(frozen=True)
class SchemaProblem:
    """Where a conversation has a field, a type or a block the Messages API refuses, and how.

    ``kind`` is ``"extra"`` (a key the API does not accept: ``field``; ``expected`` lists the
    ones it does), ``"missing"`` (a required key: ``field``), ``"type"`` (a value of the wrong
    kind: ``expected`` names the kinds, ``got`` the Python type), ``"value"`` (not one of the
    values in ``expected``), ``"tag"`` (a block whose ``type`` is none of ``expected``) or
    ``"no_tag"`` (a block without ``type``). ``path`` is the API's error location, block types
    included (``("messages", 3, "content", 0, "tool_result", "name")``); ``at`` the same place
    as subscripts of ``messages`` (``(3, "content", 0, "name")``); ``owner`` the block type of the
    object holding it (None for a message itself).
    """

    kind: str
    path: tuple[str | int, ...]
    at: tuple[str | int, ...]
    owner: str | None
    field: str | None = None
    expected: tuple[str, ...] = ()
    got: str = ""


def schema_problem(messages: Any) -> SchemaProblem | None:
    """The first field, type or block of ``messages`` the Messages API would refuse, or None.

    What each message and block may hold is read from the installed SDK's request types
    (``anthropic.types.MessageParam`` and the block ``*Param`` TypedDicts it names), so a
    field the API adds reaches this check with the SDK that sends it. A message holds
    ``role`` and ``content`` and nothing else; a block holds the fields of its type's
    TypedDict (a ``tool_result``: ``tool_use_id``, ``type``, ``content``, ``is_error``,
    ``cache_control``, ...), inside ``tool_result`` content too. The role's own rule and
    the pairing rule are checked elsewhere (:func:`pairing_problem`).
    """
    if not isinstance(messages, list):
        return SchemaProblem("type", ("messages",), (), None, expected=("list",), got=type(messages).__name__)
    fields, content = _message_schema()
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping):
            return SchemaProblem("type", ("messages", i), (i,), None, expected=("dict",), got=type(message).__name__)
        for key in fields:
            if key not in message:
                return SchemaProblem("missing", ("messages", i, key), (i, key), None, field=key)
        if (
            problem := _walk(message["content"], content, ("messages", i, "content"), (i, "content"), None)
        ) is not None:
            return problem
        for key in message:
            if key not in fields:
                name = str(key)[:60]
                return SchemaProblem("extra", ("messages", i, name), (i, name), None, name, fields)
    return None


@functools.cache
def _message_schema() -> tuple[tuple[str, ...], Any]:
    """The keys a message has (those of every ``MessageParam`` member) and its content's type."""
    # The SDK is imported here, not at module level: lesson3.checkpoint reads conversations with this
    # module and must stay light (only whoever checks a request, the offline model or the judge, pays it).
    from anthropic.types import MessageParam

    members = [m for m in _members(MessageParam) if _is_typeddict(m)]
    keys: dict[str, None] = {}
    for member in members:
        keys.update(dict.fromkeys(_fields(member)[0]))
    return tuple(keys), _fields(members[0])[0]["content"]


def _is_typeddict(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, dict) and hasattr(annotation, "__total__")


_T = typing.TypeVar("_T")


def _per_annotation(work: typing.Callable[[Any], _T]) -> typing.Callable[[Any], _T]:
    """``work`` worked out once per annotation, found again by the annotation's identity.

    The SDK's types do not change while a process runs, and every request walks the same few
    many times. Found by identity, not by hash: typing hashes and compares a union or a
    ``Literal`` in Python, walking all of it, which cost more than the walk of the request itself.
    """
    memo: dict[int, tuple[Any, _T]] = {}  # the annotation is kept, so its id is never reused

    @functools.wraps(work)
    def memoised(annotation: Any) -> _T:
        hit = memo.get(id(annotation))
        if hit is None or hit[0] is not annotation:
            hit = memo[id(annotation)] = (annotation, work(annotation))
        return hit[1]

    return memoised


def _strip(annotation: Any) -> Any:
    """Without Required/NotRequired/Annotated wrappers."""
    while typing.get_origin(annotation) in (typing.Required, typing.NotRequired, typing.Annotated):
        annotation = typing.get_args(annotation)[0]
    return annotation


@_per_annotation
def _members(annotation: Any) -> tuple[Any, ...]:
    """A union's members, nested unions flattened (a plain type is its own only member)."""
    annotation = _strip(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return tuple(m for arg in typing.get_args(annotation) for m in _members(arg))
    return (annotation,)


@_per_annotation
def _nullable(annotation: Any) -> bool:
    """Whether ``None`` is a value of ``annotation``."""
    members = _members(annotation)
    return type(None) in members or any(m in (Any, object) for m in members)


@functools.cache
def _fields(typed: type) -> tuple[dict[str, Any], frozenset[str]]:
    """A TypedDict's fields (name -> type) and which are required (``Required[...]``, or all when total)."""
    hints = typing.get_type_hints(typed, include_extras=True)
    required = frozenset(
        name
        for name, hint in hints.items()
        if typing.get_origin(hint) is typing.Required
        or (typed.__total__ and typing.get_origin(hint) is not typing.NotRequired)
    )
    return {name: _strip(hint) for name, hint in hints.items()}, required


@functools.cache
def _tag(typed: type) -> str | None:
    """The ``type`` literal of a block TypedDict (``"tool_result"``), None when it has none."""
    literal = _fields(typed)[0].get("type")
    values = typing.get_args(literal) if typing.get_origin(literal) is typing.Literal else ()
    return str(values[0]) if len(values) == 1 else None


# The API validates requests with pydantic, and answers in its words; the two heard from the
# API itself are "Extra inputs are not permitted" at a path that names the block's type after
# its index ("messages.65.content.1.tool_use.text", anthropics/claude-code#4378;
# "messages.1.content.0.thinking.cache_control", router-for-me/CLIProxyAPI#512; and
# "system.1.cache_control.ephemeral.scope", caozhiyuan/copilot-api#145, where cache_control's
# own type is in the path too) and "Field required". The others are pydantic's wording for
# the same kinds of error; the API's exact sentence for them was not found.
_KIND_NAMES = {str: "string", bool: "boolean", int: "integer", float: "number", dict: "dict", list: "list"}


def _walk(
    value: Any, annotation: Any, path: tuple[str | int, ...], at: tuple[str | int, ...], owner: str | None
) -> SchemaProblem | None:
    """The first problem of ``value`` against the SDK type ``annotation``, or None."""
    if value is None and _nullable(annotation):
        return None
    members, blocks_ = _alternatives(annotation)
    if blocks_ and isinstance(value, Mapping):
        if "type" not in value:
            return SchemaProblem("no_tag", path, at, owner, "type", tuple(str(_tag(m)) for m in blocks_))
        chosen = next((m for m in blocks_ if _tag(m) == value["type"]), None)
        if chosen is None:
            tags = tuple(dict.fromkeys(str(_tag(m)) for m in blocks_))
            return SchemaProblem("tag", path, at, owner, "type", tags, str(value["type"])[:40])
        return _walk_typeddict(value, chosen, (*path, str(value["type"])), at, str(value["type"]))
    for member in members:
        if _accepts(member, value):
            return _walk_member(value, member, path, at, owner)
    expected = tuple(dict.fromkeys(_kind_name(m) for m in members))
    if expected == ("literal",):
        literals = tuple(str(v) for m in members for v in typing.get_args(m))
        return SchemaProblem("value", path, at, owner, _last_key(at), literals, repr(value)[:40])
    return SchemaProblem("type", path, at, owner, _last_key(at), expected, type(value).__name__)


@_per_annotation
def _alternatives(annotation: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """A type's members a value may match (its own response models left out), and those that are blocks."""
    # The SDK also takes its own response models (``ContentBlock``) as blocks; on the wire they are the
    # same dicts as the params, so the params alone say what is accepted.
    members = tuple(m for m in _members(annotation) if m is not type(None) and not hasattr(m, "model_fields"))
    return members, tuple(m for m in members if _is_typeddict(m) and _tag(m) is not None)


def _last_key(at: tuple[str | int, ...]) -> str | None:
    return at[-1] if at and isinstance(at[-1], str) else None


@_per_annotation
def _kind_name(member: Any) -> str:
    origin = typing.get_origin(member)
    if origin is typing.Literal:
        return "literal"
    if _is_typeddict(member) or origin in (dict, Mapping) or member in (dict, Mapping):
        return "dict"
    if origin in (list, Iterable, Sequence) or member in (list, Iterable, Sequence):
        return "list"
    return _KIND_NAMES.get(member, getattr(member, "__name__", str(member)))


@_per_annotation
def _acceptance(member: Any) -> tuple[Any, tuple[Any, ...]]:
    """How a value is told to be of the member's kind: ``Any``, ``Literal`` and its values, or a Python type."""
    if member in (Any, object):
        return Any, ()
    if typing.get_origin(member) is typing.Literal:
        return typing.Literal, typing.get_args(member)
    kind = _kind_name(member)
    if kind == "dict":
        return Mapping, ()
    if kind == "list":
        return list, ()
    if member in (bool, int, float, str):
        return member, ()
    return Any, ()  # a type of the SDK's own (a file input...): not the API's to say here


def _accepts(member: Any, value: Any) -> bool:
    """Whether ``value`` is of the member's kind (its inside is walked after)."""
    kind, literals = _acceptance(member)
    if kind is Any:
        return True
    if kind is typing.Literal:
        return any(value == v and type(value) is type(v) for v in literals)
    if kind is bool:
        # pydantic's lax booleans, as the API reads JSON: true/false, 0/1 and their usual words.
        return isinstance(value, bool) or value in (0, 1) or (isinstance(value, str) and value.lower() in _BOOL_WORDS)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, kind)  # Mapping, list, str


_BOOL_WORDS = frozenset({"true", "false", "0", "1", "yes", "no", "on", "off", "t", "f", "y", "n"})


def _walk_member(
    value: Any, member: Any, path: tuple[str | int, ...], at: tuple[str | int, ...], owner: str | None
) -> SchemaProblem | None:
    typeddict, item = _inside(member)
    if typeddict:
        return _walk_typeddict(value, member, path, at, owner)
    if item is not None:
        for k, element in enumerate(value):
            if (problem := _walk(element, item, (*path, k), (*at, k), owner)) is not None:
                return problem
    return None


@_per_annotation
def _inside(member: Any) -> tuple[bool, Any]:
    """What of a member's value is walked: its fields (a TypedDict), its items' type (a list), or nothing."""
    if _is_typeddict(member):
        return True, None
    args = typing.get_args(member)
    return False, args[0] if typing.get_origin(member) in (list, Iterable, Sequence) and args else None


def _walk_typeddict(
    value: Mapping[str, Any], typed: type, path: tuple[str | int, ...], at: tuple[str | int, ...], owner: str | None
) -> SchemaProblem | None:
    # As pydantic does: the declared fields first, in order, then the keys it does not know.
    fields, required = _fields(typed)
    for name, annotation in fields.items():
        if name not in value:
            if name in required:
                return SchemaProblem("missing", (*path, name), (*at, name), owner, name)
            continue
        if (problem := _walk(value[name], annotation, (*path, name), (*at, name), owner)) is not None:
            return problem
    for key in value:
        if key not in fields:
            name = str(key)[:60]
            return SchemaProblem("extra", (*path, name), (*at, name), owner, name, tuple(fields))
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
    """An exception that ended a run, as one line: for an HTTP error, what it means and the API's own words."""
    import anthropic  # only when a run failed: whoever ran the agent has the SDK loaded already

    from .checkpoint import CheckpointError  # checkpoint reads messages with this module's helpers

    if isinstance(e, anthropic.APIStatusError):
        from .model import api_error_said  # model reads conversations with this module's helpers

        body = e.body if isinstance(e.body, dict) else {}
        msg = (body.get("error") or {}).get("message") or str(e)
        # The API's words are English (the real API's too): quoted, after what they mean.
        return f"HTTP {e.status_code} {type(e).__name__}: {api_error_said(msg)}"
    if isinstance(e, (CheckpointError, RuntimeError)):
        return f"{type(e).__name__}: {e}"
    return "".join(traceback.format_exception_only(type(e), e)).strip()
