"""Una Messages API de prueba en 127.0.0.1: el modelo sin conexión servido por HTTP de verdad.

``LESSON3_LIVE=1`` with ``ANTHROPIC_BASE_URL`` pointing here runs the course's live
path — the SDK's default transport, its retries and timeouts — without a key or a
network: the answers are the scripted model's (``lesson3.model.ScriptedModel``), so a
live run here is the offline run byte for byte. On top of it the server plays the
gatekeeping the real API does (a key it does not know is a 401, a model it does not
serve is a 404) and, for tests, planned faults: an error status with its headers,
a slow answer, or an answer held until the test lets it go.

    python -m lesson3.loopback        # prints the two variables to export

It binds only to 127.0.0.1 and holds nothing longer than ``MAX_HOLD`` seconds.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
import typing
import urllib.parse
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import anthropic
import httpx2

from .model import ScriptedModel

HOST = "127.0.0.1"
MAX_HOLD = 60.0
"""No request is held or delayed longer than this, whatever a fault asks."""


def served_models() -> frozenset[str]:
    """The models the pinned SDK lists and does not mark deprecated: what this fake API serves."""
    from anthropic._data import DEPRECATED_MODELS

    listed = {a for arg in typing.get_args(anthropic.types.Model) for a in typing.get_args(arg)}
    return frozenset(m for m in listed if isinstance(m, str) and m not in DEPRECATED_MODELS)


@dataclass
class Fault:
    """What the server does to one request instead of (or before) answering it normally.

    ``status`` 0 means answer normally after the delay/hold; any other status is sent
    with the API's error body (``kind``, ``message``) and ``headers``.
    """

    status: int = 0
    kind: str = "api_error"
    message: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    hold: threading.Event | None = None


def overloaded() -> Fault:
    return Fault(529, "overloaded_error", "Overloaded")


def rate_limited(retry_after: str = "1") -> Fault:
    return Fault(
        429,
        "rate_limit_error",
        "This request would exceed the rate limit for your organization",
        {"retry-after": retry_after},
    )


@dataclass
class Attempt:
    """One HTTP request the server received (what a test counts); no header values are kept."""

    number: int
    path: str
    model: str | None
    retry_count: str | None
    status: int
    messages: list[dict[str, Any]] | None
    at: float = field(default_factory=time.monotonic)


class LoopbackAPI:
    """The server's state: the scripted model, the planned faults, the attempts seen."""

    def __init__(
        self,
        model: ScriptedModel | None = None,
        *,
        keys: Iterable[str] | None = None,
        models: Iterable[str] | None = None,
        faults: dict[int, Fault] | None = None,
    ) -> None:
        self.model = model if model is not None else ScriptedModel()
        self.keys = frozenset(keys) if keys is not None else None
        self.models = frozenset(models) if models is not None else served_models()
        self.faults = dict(faults or {})
        self.attempts: list[Attempt] = []
        self.arrived: dict[int, threading.Event] = {}
        self._lock = threading.Lock()

    def arrival(self, number: int) -> threading.Event:
        """An event set when request ``number`` (1-based) arrives."""
        with self._lock:
            return self.arrived.setdefault(number, threading.Event())

    def handle(self, method: str, path: str, headers: dict[str, str], content: bytes) -> httpx2.Response:
        with self._lock:
            number = len(self.attempts) + 1
            fault = self.faults.get(number)
            attempt = Attempt(number, path, None, headers.get("x-stainless-retry-count"), 0, None)
            self.attempts.append(attempt)
        arrived = self.arrival(number)
        try:
            body = json.loads(content) if content else {}
        except ValueError:
            body = {}
        if isinstance(body, dict):
            attempt.model = body.get("model") if isinstance(body.get("model"), str) else None
            attempt.messages = body.get("messages") if isinstance(body.get("messages"), list) else None
        arrived.set()
        if fault is not None:
            if fault.hold is not None:
                fault.hold.wait(MAX_HOLD)
            if fault.delay:
                threading.Event().wait(min(fault.delay, MAX_HOLD))
        response = self._answer(method, path, headers, content, attempt.model, fault)
        attempt.status = response.status_code
        return response

    def _answer(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        content: bytes,
        model: str | None,
        fault: Fault | None,
    ) -> httpx2.Response:
        if fault is not None and fault.status:
            return _error(fault.status, fault.kind, fault.message, fault.headers)
        # This SDK sends the key as a bearer token; older ones send x-api-key.
        bearer = headers.get("authorization", "")
        key = headers.get("x-api-key") or (bearer[len("Bearer ") :] if bearer.startswith("Bearer ") else None)
        if self.keys is not None and key not in self.keys:
            return _error(401, "authentication_error", "invalid x-api-key")
        endpoint = urllib.parse.urlsplit(path).path
        if method == "POST" and endpoint == "/v1/messages" and model is not None and model not in self.models:
            return _error(404, "not_found_error", f"model: {model}")
        request = httpx2.Request(method, f"http://{HOST}{path}", headers=headers, content=content)
        return self.model(request)


def _error(status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(
        status,
        json={"type": "error", "error": {"type": kind, "message": message}},
        headers={"request-id": "req_loopback", **(headers or {})},
    )


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    # Headers and body go out as two small writes; with Nagle's algorithm the body waits for the
    # client's delayed ACK (~40 ms a request), which a real API server does not make a client wait.
    disable_nagle_algorithm = True

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        content = self.rfile.read(min(length, 16 * 1024 * 1024)) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        response = self.server.api.handle(self.command, self.path, headers, content)
        payload = response.read()
        # A client that gave up (a timeout) or was killed leaves nobody to answer.
        with suppress(BrokenPipeError, ConnectionResetError):
            self.send_response(response.status_code)
            for key, value in response.headers.items():
                if key.lower() not in ("content-length", "transfer-encoding", "connection"):
                    self.send_header(key, value)
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    do_GET = do_POST

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: tests and the CLI read the attempts, not a log


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    api: LoopbackAPI


@contextmanager
def serve(api: LoopbackAPI | None = None) -> Iterator[tuple[str, LoopbackAPI]]:
    """Run the fake API on 127.0.0.1 on a free port; yields ``(base_url, api)``."""
    api = api if api is not None else LoopbackAPI()
    server = _Server((HOST, 0), _Handler)
    server.api = api
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{server.server_address[1]}", api
    finally:
        for fault in api.faults.values():
            if fault.hold is not None:
                fault.hold.set()  # let held handlers finish before the socket closes
        server.shutdown()
        server.server_close()
        thread.join(5)


def main() -> None:
    """Serve until Ctrl-C, printing how to point ``lesson3 run`` at it."""
    with serve() as (url, _):
        print("Una API de prueba en este equipo, con las respuestas del modelo sin conexión. En otra terminal:")
        print(f"  export LESSON3_LIVE=1 ANTHROPIC_BASE_URL={url} ANTHROPIC_API_KEY=sk-ant-loopback")
        print("  lesson3 run --tarea correo")
        print("Ctrl-C para terminar.")
        with suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
