"""El modelo sin conexión: un ``anthropic.Anthropic`` real cuyo transporte HTTP es un guion.

The SDK builds and parses real requests and responses; only the network is
replaced. The scripted model checks each request as the Messages API does and
answers a violation with the API's own HTTP 400 body and wording. Its answers
are a pure function of the conversation (and a seed for ids), so every run is
the same and a resumed run sees exactly what the original run saw.
"""

from __future__ import annotations

import atexit
import functools
import gc
import hashlib
import json
import math
import os
import posixpath
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .conversation import PairingProblem, SchemaProblem, content_text, pairing_problem, schema_problem
from .conversation import blocks as _blocks

if TYPE_CHECKING:
    import anthropic
    import httpx2

# The SDK is imported where a client is built or one of its errors read, never when lesson3 is: its import is most
# of a notebook's first cell (about a second of pydantic models), and the cells that never build a client in the
# kernel (the crash runs happen in the forkserver's children, which preload it) need not pay for it.

# The SDK's thousands of classes (pydantic models, all in reference cycles) make the interpreter's last collections at
# exit cost half a second: every kernel restart waited for them. Frozen after the other exit handlers ran (the first
# registered runs last), they are freed with the process instead; plain objects are still freed one by one as always.
atexit.register(gc.freeze)

# A model the pinned SDK lists in ``anthropic.types.Model`` and does not mark deprecated
# (tests/test_live.py checks both, so bumping the lock flags a retired default).
DEFAULT_MODEL = "claude-sonnet-5-5"
MAX_TOKENS = 1024
MIN_CACHE_TOKENS = 1024
"""The API caches no prefix shorter than this (Sonnet and Opus; a request asking for less is served uncached)."""
CACHE_LOOKBACK = 20
"""How many blocks before a breakpoint the API looks for an earlier cached prefix."""

TASK_NOTES = "Ayúdame a juntar las notas de reunión de esta semana"
TASK_EMAIL = "Enviarle un correo al equipo para avisarle de las conclusiones"
DEFAULT_RECIPIENT = "team@example.com"
DEFAULT_SUBJECT = "Conclusiones de esta semana"

LIVE_ENV = "LESSON3_LIVE"
MODEL_ENV = "LESSON3_MODEL"
KEY_ENV = "ANTHROPIC_API_KEY"


class LiveModeError(RuntimeError):
    """Se pidió la API real sin clave."""


# -- the API's request checks ----------------------------------------------------------------


API_WORDINGS: dict[str, tuple[str, str]] = {
    "body.json": ("Request body is not valid JSON", "la petición no es JSON válido"),
    "body.no_messages": ("messages: at least one message is required", "la conversación no tiene ningún mensaje"),
    "rules.first_user": (
        'messages: first message must use the "user" role',
        "el primer mensaje de la conversación tiene que ser del usuario",
    ),
    "rules.role": (
        "messages.{message}.role: Input should be 'user' or 'assistant'",
        "el rol de messages[{message}] tiene que ser user o assistant",
    ),
    "rules.empty": (
        "messages.{message}: all messages must have non-empty content except for the optional final assistant message",
        "messages[{message}] está vacío, y solo el último mensaje, si es del asistente, puede estarlo",
    ),
    "rules.empty_text": ("messages: text content blocks must be non-empty", "hay un bloque de texto vacío"),
    "rules.blank_text": (
        "messages: text content blocks must contain non-whitespace text",
        "hay un bloque de texto que solo tiene espacios",
    ),
    "pairing.missing": (
        "messages.{message}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
        "messages[{message}] pide una herramienta ({ids}) y el mensaje siguiente no trae su tool_result: es una "
        "llamada colgante, y la API no sigue hasta que cada tool_use tenga su resultado",
    ),
    "pairing.not_first": (
        "messages.{message}: Did not find {expected} tool_result block(s) at the beginning of this message. "
        "Messages following tool_use blocks must begin with a matching number of tool_result blocks.",
        "messages[{message}] tiene que empezar con los tool_result de las llamadas del mensaje anterior "
        "({expected}), antes que cualquier otro bloque",
    ),
    "pairing.duplicate": (
        "messages.{message}.content.{block}: each tool_use must have a single result. "
        "Found multiple `tool_result` blocks with id: {ids}",
        "hay más de un tool_result para la misma llamada ({ids}): cada tool_use lleva un solo resultado",
    ),
    "pairing.unexpected": (
        "messages.{message}.content.{block}: unexpected `tool_use_id` found in `tool_result` blocks: {ids}. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
        "un tool_result de messages[{message}] responde a {ids}, un id que ningún tool_use del mensaje anterior "
        "pidió: un id inventado o equivocado no responde a nadie",
    ),
    "schema.extra": ("{where}: Extra inputs are not permitted", "{where} es un campo que la API no acepta ahí"),
    # One wording for a missing field, at the body's top level or inside a block: the API says both alike.
    "schema.missing": ("{where}: Field required", "a la petición le falta el campo obligatorio {where}"),
    "schema.no_tag": (
        "{where}: Unable to extract tag using discriminator 'type'",
        "el bloque {where} no dice de qué tipo es (su campo type)",
    ),
    "schema.tag": (
        "{where}: Input tag '{got}' found using 'type' does not match any of the expected tags: {tags}",
        "«{got}» no es un tipo de bloque que la API acepte en {where}",
    ),
    "schema.value": ("{where}: Input should be {expected}", "{where} no tiene un valor o un tipo que la API acepte"),
}
"""The API's 400 wordings the course meets (the real API's, which the offline API reproduces word for word), each
with what it means in Spanish. One table for both: the offline API writes the English, and a message either API sent
is read back against it (:func:`api_error_meaning`), so a learner never gets the English alone."""


def _wording(key: str, /, **fields: object) -> str:
    return API_WORDINGS[key][0].format(**fields)


@functools.cache
def _wording_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    patterns = []
    for english, spanish in API_WORDINGS.values():
        pieces = re.split(r"\{(\w+)\}", english)
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(pieces))
        patterns.append((re.compile(regex + r"\Z", re.DOTALL), spanish))
    return tuple(patterns)


def api_error_meaning(message: str) -> str | None:
    """Lo que quiere decir, en castellano, un mensaje de error 400 de la API (``None`` si no es uno conocido)."""
    for pattern, spanish in _wording_patterns():
        if found := pattern.match(message.strip()):
            return spanish.format(**found.groupdict())
    return None


def api_error_said(message: str) -> str:
    """Un error de la API dicho para el curso: qué quiere decir, y sus palabras (las de la API real) entre comillas."""
    meaning = api_error_meaning(message)
    quoted = f"la API, en inglés: «{message.strip()}»"
    return f"{meaning} ({quoted})" if meaning else quoted


def api_error_for(body: dict[str, Any]) -> str | None:
    """El mensaje de error 400 que daría la Messages API a esta petición, o ``None`` si la acepta."""
    for key in ("model", "max_tokens", "messages"):
        if key not in body:
            return _wording("schema.missing", where=key)
    messages = body["messages"]
    if not isinstance(messages, list) or not messages:
        return _wording("body.no_messages")
    # Fields and types first: the API validates the request's shape before its rules.
    if (shape := schema_problem(messages)) is not None:
        return schema_error(shape)
    return rules_error(messages)


def rules_error(messages: list[dict[str, Any]]) -> str | None:
    """The API's 400 error for a non-empty ``messages`` whose fields and types it accepts: its rules, or None.

    What :func:`api_error_for` says after :func:`~lesson3.conversation.schema_problem` found nothing
    (the roles, empty content, the pairing of tool calls, empty text), for whoever checked the shape already.
    """
    if messages[0].get("role") != "user":
        return _wording("rules.first_user")
    for i, msg in enumerate(messages):
        if msg.get("role") not in ("user", "assistant"):
            return _wording("rules.role", message=i)
        if msg.get("content") in ("", []) and not (i == len(messages) - 1 and msg["role"] == "assistant"):
            return _wording("rules.empty", message=i)
    if (problem := pairing_problem(messages)) is not None:
        return _pairing_error(problem)
    for text in (t for msg in messages for t in _texts(msg)):
        if text == "":
            return _wording("rules.empty_text")
        if not text.strip():
            return _wording("rules.blank_text")
    return None


def _texts(message: dict[str, Any]) -> Iterator[str]:
    """The text of every text block of a message, those inside its tool_result blocks included."""
    for block in _blocks(message):
        inner = block.get("content") if block.get("type") == "tool_result" else None
        for b in [block, *(inner if isinstance(inner, list) else [])]:
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str):
                yield b["text"]


_KIND_WORDS = {"string": "a valid string", "list": "a valid list", "dict": "a valid dictionary"}


def schema_error(problem: SchemaProblem) -> str:
    """The API's wording for a field, type or block it refuses (where it is known: see lesson3.conversation)."""
    where = ".".join(str(p) for p in problem.path)
    if problem.kind in ("extra", "missing", "no_tag"):
        return _wording(f"schema.{problem.kind}", where=where)
    if problem.kind == "tag":
        tags = ", ".join(f"'{t}'" for t in problem.expected)
        return _wording("schema.tag", where=where, got=problem.got, tags=tags)
    if problem.kind == "value":
        return _wording("schema.value", where=where, expected=" or ".join(f"'{v}'" for v in problem.expected))
    kinds = " or ".join(_KIND_WORDS.get(k, f"a valid {k}") for k in problem.expected)
    return _wording("schema.value", where=where, expected=kinds)


def _pairing_error(problem: PairingProblem) -> str:
    """The API's own wording for each way of breaking the tool_use/tool_result rule."""
    ids = ", ".join(problem.ids)
    kind = problem.kind if problem.kind in ("missing", "not_first", "duplicate") else "unexpected"
    return _wording(f"pairing.{kind}", message=problem.message, ids=ids, expected=problem.expected, block=problem.block)


# -- the scripted model --------------------------------------------------------------------


@dataclass
class ScriptedModel:
    """Handler de ``httpx2.MockTransport`` que juega un modelo determinista.

    ``requests`` keeps every request body the SDK sent (what the model "saw").
    ``ignore_parallel_flag`` makes it answer with several tool calls even when told
    not to, to show that ``run_agent`` refuses such a response. ``usage`` has the
    API's fields; prompt caching is played as the API plays it when a request marks
    ``cache_control`` breakpoints (the cache lives as long as this object: one process
    offline, the server's lifetime behind ``lesson3.loopback``).
    """

    seed: int | str = 0
    ignore_parallel_flag: bool = False
    requests: list[dict[str, Any]] = field(default_factory=list)
    cached: set[str] = field(default_factory=set)

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        import httpx2

        if request.method != "POST" or not request.url.path.endswith("/v1/messages"):
            return _error(
                404, "not_found_error", f"{request.method} {request.url.path}: no existe en el modelo sin conexión"
            )
        try:
            body = json.loads(request.content)
        except ValueError:
            return _error(400, "invalid_request_error", _wording("body.json"))
        self.requests.append(body)
        if (problem := api_error_for(body)) is not None:
            return _error(400, "invalid_request_error", problem)
        parallel = self.ignore_parallel_flag or not (body.get("tool_choice") or {}).get("disable_parallel_tool_use")
        content = self.respond(body["messages"], parallel=parallel)
        stop = "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
        return httpx2.Response(
            200,
            json={
                "id": "msg_" + self._digest("msg", body["messages"])[:24],
                "type": "message",
                "role": "assistant",
                "model": body["model"],
                "content": content,
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": self._usage(body, content),
            },
        )

    def _usage(self, body: dict[str, Any], content: list[dict[str, Any]]) -> dict[str, Any]:
        """The API's usage fields; without ``cache_control`` in the request the cache fields are 0."""
        pieces, marks = _prompt_pieces(body)
        unmarked = _unmarked(body) if marks else body  # the marks are not part of the prompt
        total = _tokens(unmarked.get("system"), unmarked.get("tools"), unmarked["messages"])
        read = written = 0
        ttl = "5m"
        marks = [(k, t) for k, t in marks if _tokens(pieces[: k + 1]) >= MIN_CACHE_TOKENS]
        if marks:
            # As the API does: a hit is looked for at each breakpoint and up to CACHE_LOOKBACK blocks
            # before it; the longest hit is read, the rest up to the last breakpoint is written.
            def key(end: int) -> str:
                return self._digest("cache", body["model"], pieces[: end + 1])

            hits = [j for k, _ in marks for j in range(max(0, k - CACHE_LOOKBACK), k + 1) if key(j) in self.cached]
            last, ttl = marks[-1]
            read = min(_tokens(pieces[: max(hits) + 1]), total) if hits else 0
            written = max(0, min(_tokens(pieces[: last + 1]), total) - read)
            self.cached.update(key(k) for k, _ in marks)
        return {
            "input_tokens": total - read - written,
            "cache_creation_input_tokens": written,
            "cache_read_input_tokens": read,
            "cache_creation": {
                "ephemeral_5m_input_tokens": written if ttl != "1h" else 0,
                "ephemeral_1h_input_tokens": written if ttl == "1h" else 0,
            },
            "output_tokens": _tokens(content),
            "service_tier": "standard",
        }

    def respond(self, messages: list[dict[str, Any]], *, parallel: bool = False) -> list[dict[str, Any]]:
        """El contenido de la próxima respuesta, decidido solo por la conversación."""
        if messages[-1]["role"] == "assistant":
            return []  # a finished answer used as prefill: nothing left to say
        task = _text(messages[0])
        history = _history(messages)
        if any(word in task.lower() for word in ("correo", "email", "e-mail")):
            steps = _email_policy(task, history, parallel)
        elif "nota" in task.lower():
            steps = _notes_policy(history, parallel)
        else:
            steps = [
                _say(
                    "Estoy en modo sin conexión y solo sé hacer las tareas de la lección: juntar las "
                    f"notas de reunión («{TASK_NOTES}») o avisar por correo las conclusiones («{TASK_EMAIL}»)."
                )
            ]
        return [self._with_id(b, len(messages), n) for n, b in enumerate(steps)]

    def _with_id(self, block: dict[str, Any], position: int, n: int) -> dict[str, Any]:
        if block["type"] == "tool_use":
            digest = self._digest("toolu", position, n, block["name"], block["input"])
            block = {"type": "tool_use", "id": "toolu_01" + _base62(digest)[:22], **block}
        return block

    def _digest(self, *parts: object) -> str:
        raw = json.dumps([self.seed, *parts], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(raw.encode()).hexdigest()


def offline_client(*, seed: int | str = 0, model: ScriptedModel | None = None) -> anthropic.Anthropic:
    """Un cliente ``anthropic.Anthropic`` real que habla con el modelo con guion."""
    import anthropic
    import httpx2

    handler = model if model is not None else ScriptedModel(seed=seed)
    return anthropic.Anthropic(
        api_key="sk-ant-offline",
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
        max_retries=0,
    )


def live_requested() -> bool:
    return os.environ.get(LIVE_ENV, "").strip().lower() in ("1", "true", "sí", "si", "yes")


def chosen_model(name: str | None = None) -> str:
    """El modelo a usar: ``name`` (la opción ``--modelo``), si no ``LESSON3_MODEL``, si no ``DEFAULT_MODEL``.

    A name the SDK does not list is passed through unchanged: only the API knows
    which models it serves today, and it answers an unknown one with a 404.
    """
    if name is not None:
        if not name.strip():
            raise LiveModeError("el nombre del modelo está vacío; usa por ejemplo --modelo " + DEFAULT_MODEL)
        return name.strip()
    return os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL


def make_client(*, live: bool | None = None, seed: int | str = 0) -> anthropic.Anthropic:
    """El cliente del curso: sin conexión por defecto; la API real solo con ``LESSON3_LIVE=1`` y una clave.

    The live client is the SDK's default one, so ``ANTHROPIC_BASE_URL`` and the SDK's
    own retries (429, 5xx, 529 overloaded, timeouts) apply unchanged.
    """
    import anthropic

    if not (live_requested() if live is None else live):
        return offline_client(seed=seed)
    if not os.environ.get(KEY_ENV, "").strip():
        raise LiveModeError(f"Pediste la API real ({LIVE_ENV}=1) pero falta {KEY_ENV} en el entorno.")
    return anthropic.Anthropic()


def live_error_line(e: BaseException) -> str | None:
    """Una línea en castellano para un error de la API real: qué pasó y qué revisar; ``None`` si no es de la API.

    Never echoes the key: for a 401 the API's own text is left out, and any other
    detail the server sent has the key (if it appears) blanked.
    """
    import anthropic

    if isinstance(e, anthropic.APITimeoutError):
        return "la API no respondió a tiempo ni en los reintentos del SDK; prueba de nuevo más tarde"
    if isinstance(e, anthropic.APIConnectionError):
        return "no se pudo conectar con la API de Anthropic (¿hay red? ¿ANTHROPIC_BASE_URL apunta bien?)"
    if not isinstance(e, anthropic.APIStatusError):
        return None
    body = e.body if isinstance(e.body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    detail = _without_key(str(error.get("message") or "")) or f"HTTP {e.status_code}"
    back = f"para volver al modo sin conexión, quita {LIVE_ENV}"
    if e.status_code == 401:
        return f"la API rechazó la clave (HTTP 401): revisa {KEY_ENV}; {back}"
    if e.status_code == 403:
        return f"la clave no tiene permiso para esto (HTTP 403: {detail}): revisa {KEY_ENV}"
    if e.status_code == 404 and detail.startswith("model:"):
        model = detail.removeprefix("model:").strip()
        return (
            f"la API no ofrece el modelo «{model}» (HTTP 404): elige otro con --modelo o {MODEL_ENV} "
            f"(por defecto: {DEFAULT_MODEL}); el punto de control quedó intacto"
        )
    retried = "y los reintentos del SDK no alcanzaron"
    if e.status_code == 429:
        return f"la API limitó las peticiones (HTTP 429: {detail}) {retried}; espera y reanuda"
    if e.status_code == 529 or error.get("type") == "overloaded_error":
        return f"la API está sobrecargada (HTTP {e.status_code}) {retried}; reanuda más tarde"
    return f"la API respondió HTTP {e.status_code}: {api_error_said(detail) if error.get('message') else detail}"


def _without_key(text: str) -> str:
    key = os.environ.get(KEY_ENV, "").strip()
    return text.replace(key, "***") if len(key) >= 8 else text


# -- policies: what a sensible model does next, given what it has seen ------------------------


@dataclass
class _Call:
    name: str
    input: dict[str, Any]
    result: str | None
    is_error: bool


def _history(messages: list[dict[str, Any]]) -> list[_Call]:
    results = {
        b.get("tool_use_id"): (_text(b), bool(b.get("is_error")))
        for m in messages
        if m["role"] == "user"
        for b in _blocks(m)
        if b.get("type") == "tool_result"
    }
    uses = [b for m in messages if m["role"] == "assistant" for b in _blocks(m) if b.get("type") == "tool_use"]
    return [_Call(b["name"], b["input"], *results.get(b["id"], (None, False))) for b in uses]


def _read_notes(history: list[_Call], parallel: bool) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """List notes/ and read every note not read yet; returns (next steps, contents read)."""
    listing = next((c for c in history if c.name == "list_dir" and c.result and not c.is_error), None)
    if listing is None:
        return [_say("Primero miro qué notas hay."), _use("list_dir", {"path": "notes"})], {}
    files = [f"notes/{line}" for line in listing.result.splitlines() if line.endswith(".md")]
    read = {
        posixpath.normpath(str(c.input.get("path"))): c.result
        for c in history
        if c.name == "read_file" and c.result and not c.is_error
    }
    unread = [f for f in files if f not in read]
    if unread:
        batch = unread if parallel else unread[:1]
        return [_say(f"Leo {', '.join(batch)}.")] + [_use("read_file", {"path": f}) for f in batch], read
    return [], {f: read[f] for f in files}


def _agreements(contents: dict[str, str]) -> list[tuple[str, str]]:
    return [
        (path, line.split(":", 1)[1].strip())
        for path, text in contents.items()
        for line in text.splitlines()
        if line.startswith("Acuerdo:")
    ]


def _notes_policy(history: list[_Call], parallel: bool) -> list[dict[str, Any]]:
    steps, contents = _read_notes(history, parallel)
    if steps:
        return steps
    lines = [f"- {a} ({path.removeprefix('notes/')})" for path, a in _agreements(contents)]
    summary = "\n".join(lines) if lines else "- (ninguna nota tiene acuerdos)"
    return [_say(f"Junté las notas de la semana ({len(contents)} archivos). Acuerdos:\n{summary}")]


def _email_policy(task: str, history: list[_Call], parallel: bool) -> list[dict[str, Any]]:
    steps, contents = _read_notes(history, parallel)
    if steps:
        return steps
    to, subject = _recipient(task), _subject(task)
    sends = [c for c in history if c.name == "send_email"]
    if not sends:
        body = "Hola, equipo:\n\nEstas son las conclusiones de la semana:\n" + "\n".join(
            f"- {a}" for _, a in _agreements(contents)
        )
        return [
            _say(f"Tengo las conclusiones; envío el correo a {to}."),
            _use("send_email", {"to": to, "subject": subject, "body": body}),
        ]
    last = sends[-1]
    if not last.is_error:
        return [_say(f"Listo: envié el correo «{subject}» a {to}.")]
    # The send may or may not have happened: look before acting again.
    last_index = len(history) - 1 - history[::-1].index(last)
    checks = [c for c in history[last_index + 1 :] if c.name == "grep" and c.result is not None]
    if not checks:
        return [
            _say("No sé si el correo llegó a salir. Antes de reenviarlo, miro la bandeja de salida."),
            _use("grep", {"pattern": f"^Subject: {re.escape(subject)}$", "path": "outbox"}),
        ]
    if checks[-1].result and not checks[-1].is_error and checks[-1].result != "(sin coincidencias)":
        return [_say(f"El correo «{subject}» ya había salido antes de la caída: no lo reenvío.")]
    return [
        _say("El correo no está en la bandeja de salida: lo envío ahora."),
        _use("send_email", dict(last.input)),
    ]


_EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_QUOTED_RE = re.compile(r"[«\"“]([^»\"”]+)[»\"”]")


def _recipient(task: str) -> str:
    m = _EMAIL_RE.search(task)
    return m.group(0) if m else DEFAULT_RECIPIENT


def _subject(task: str) -> str:
    m = _QUOTED_RE.search(task)
    return m.group(1).strip() if m else DEFAULT_SUBJECT


# -- small helpers -----------------------------------------------------------------------


def _say(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _use(name: str, input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": input}


def _text(item: dict[str, Any]) -> str:
    return content_text(item.get("content")) or ""


def _unmarked(body: dict[str, Any]) -> dict[str, Any]:
    def strip(blocks: Any) -> Any:
        if not isinstance(blocks, list):
            return blocks
        return [{k: v for k, v in b.items() if k != "cache_control"} if isinstance(b, dict) else b for b in blocks]

    return {
        **body,
        "tools": strip(body.get("tools")),
        "system": strip(body.get("system")),
        "messages": [{**m, "content": strip(m.get("content"))} for m in body["messages"]],
    }


def _prompt_pieces(body: dict[str, Any]) -> tuple[list[Any], list[tuple[int, str]]]:
    """The prompt as blocks in the API's cache order (tools, system, messages), without their
    ``cache_control`` marks, and (index, ttl) of each marked block."""
    system = body.get("system")
    raw: list[Any] = list(body.get("tools") or [])
    raw += system if isinstance(system, list) else [system] if system else []
    for msg in body["messages"]:
        content = msg.get("content")
        raw += [[msg.get("role"), b] for b in content] if isinstance(content, list) else [msg]
    pieces, marks = [], []
    for k, piece in enumerate(raw):
        block = piece[1] if isinstance(piece, list) else piece
        if isinstance(block, dict) and isinstance(block.get("cache_control"), dict):
            marks.append((k, str(block["cache_control"].get("ttl") or "5m")))
            block = {key: v for key, v in block.items() if key != "cache_control"}
            piece = [piece[0], block] if isinstance(piece, list) else block
        pieces.append(piece)
    return pieces, marks


def _tokens(*parts: object) -> int:
    # About four characters a token: a stable stand-in for the API's count.
    return max(1, math.ceil(len(json.dumps(parts, ensure_ascii=False)) / 4))


_ALPHABET = string.digits + string.ascii_letters


def _base62(hexdigest: str) -> str:
    n, out = int(hexdigest, 16), []
    while n:
        n, r = divmod(n, 62)
        out.append(_ALPHABET[r])
    return "".join(out)


def _error(status: int, kind: str, message: str) -> httpx2.Response:
    import httpx2

    return httpx2.Response(status, json={"type": "error", "error": {"type": kind, "message": message}})
