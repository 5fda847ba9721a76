"""Lo que corre dentro del proceso del alumno, ya confinado: las celdas y las llamadas.

Nothing here is trusted by the judge: every answer is data the judge re-checks, and
the tool proxy only *asks* the judge to act. What this module adds is convenience and
clear messages (which cell failed, at which line, "todavía no implementado").
"""

from __future__ import annotations

import asyncio
import builtins
import functools
import inspect
import json
import linecache
import os
import signal
import sys
import time
import traceback
import types
from collections.abc import Callable
from typing import Any

from . import protocol
from .arguments import unpack
from .delegation import REFERENCE_OBJECTS
from .questions import QUESTIONS
from .submission import Cell

FUNCTIONS = ("my_load_checkpoint", "start_state", "resume_action", "reconcile")
MAX_VALUE_BYTES = 4 * 1024 * 1024


class CellTimeout(BaseException):
    """A cell ran past its share of the load time (BaseException: `except Exception` won't eat it)."""


class DelegationError(RuntimeError):
    """La función de referencia de lesson3 no cuenta como respuesta del ejercicio."""


class ToolOutput(str):
    """What the execute_tool proxy returns: a ``str`` that may also be awaited.

    The lesson's JavaScript writes ``await executeTool(...)``; a learner who carries
    that ``await`` into an ``async def reconcile`` gets the same string either way.
    """

    def __await__(self) -> Any:
        if False:  # pragma: no cover - makes this a generator
            yield
        return str(self)


class _StubShell:
    """``get_ipython()`` inside the sandbox: every magic and shell escape does nothing."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.user_ns = namespace

    def run_line_magic(self, *args: Any, **kwargs: Any) -> None:
        return None

    def run_cell_magic(self, *args: Any, **kwargs: Any) -> None:
        return None

    def system(self, *args: Any, **kwargs: Any) -> None:
        return None

    def getoutput(self, *args: Any, **kwargs: Any) -> list[str]:
        return []

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


class _Tripwires:
    """lesson3's reference answers, replaced by wrappers that notice when a learner's call uses them."""

    def __init__(self) -> None:
        self.armed = False
        self.fired: list[str] = []
        self.wrappers: dict[int, str] = {}

    def hit(self, label: str) -> None:
        if self.armed:
            self.fired.append(label)
            raise DelegationError(f"{label} es la solución de referencia de lesson3; no cuenta como respuesta")


_tripwires = _Tripwires()


class _WatchedMapping(dict):  # type: ignore[type-arg]
    """EXPECTED_ACTION as a dict that reports being read during a graded call."""

    label = "lesson3.exercises.EXPECTED_ACTION"

    def __getitem__(self, key: Any) -> Any:
        _tripwires.hit(self.label)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        _tripwires.hit(self.label)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        _tripwires.hit(self.label)
        return super().__contains__(key)

    def __iter__(self) -> Any:
        _tripwires.hit(self.label)
        return super().__iter__()

    def items(self) -> Any:
        _tripwires.hit(self.label)
        return super().items()

    def values(self) -> Any:
        _tripwires.hit(self.label)
        return super().values()

    def keys(self) -> Any:
        _tripwires.hit(self.label)
        return super().keys()


def _install_tripwires() -> None:
    import importlib

    # By module name: ``lesson3.reconcile`` is the function, its module is ``lesson3.reconciliation``.
    names = (
        "lesson3",
        "lesson3.reconciliation",
        "lesson3.exercises",
        "lesson3.agent",
        "lesson3.crash",
        "lesson3.checkpoint",
    )
    modules = {name: importlib.import_module(name) for name in names}
    replaced: dict[int, Any] = {}
    for label, (module_name, attr) in REFERENCE_OBJECTS.items():
        module = modules[module_name]
        original = getattr(module, attr)
        if id(original) not in replaced:
            if isinstance(original, dict) and attr == "EXPECTED_ACTION":
                replaced[id(original)] = _WatchedMapping(original)
            elif isinstance(original, dict):
                replaced[id(original)] = {k: _wrap(v, f"{label}[{k!r}]") for k, v in original.items()}
            else:
                replaced[id(original)] = _wrap(original, label)
        setattr(module, attr, replaced[id(original)])
    for module in modules.values():
        for attr, value in list(vars(module).items()):
            if id(value) in replaced:
                setattr(module, attr, replaced[id(value)])


def _wrap(fn: Callable[..., Any], label: str) -> Callable[..., Any]:
    @functools.wraps(fn)
    def tripwire(*args: Any, **kwargs: Any) -> Any:
        _tripwires.hit(label)
        return fn(*args, **kwargs)

    _tripwires.wrappers[id(tripwire)] = label
    return tripwire


# -- the child's main loop ---------------------------------------------------------------------


class _Channel:
    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd, self.write_fd = read_fd, write_fd
        self.call_id: int | None = None

    def send(self, message: dict[str, Any]) -> None:
        protocol.write_frame(self.write_fd, message)

    def receive(self) -> Any:
        try:
            return protocol.read_frame(self.read_fd)
        except (EOFError, protocol.ProtocolError):
            os._exit(0)

    def execute_tool(self, name: str, input: Any) -> ToolOutput:
        """The proxy: the judge executes the tool on the check's workspace and logs it."""
        if self.call_id is None:
            raise RuntimeError("execute_tool solo funciona mientras el corrector llama a tu función")
        try:
            json.dumps([name, input], allow_nan=False)
        except (TypeError, ValueError) as e:
            raise TypeError(f"execute_tool: name e input tienen que ser JSON ({e})") from None
        self.send({"op": "tool", "id": self.call_id, "name": name, "input": input})
        reply = self.receive()
        if not isinstance(reply, dict) or reply.get("op") != "tool_result":
            os._exit(0)
        return ToolOutput(reply.get("content", ""))


def serve(read_fd: int, write_fd: int, cells: list[Cell], *, load_seconds: float) -> None:
    channel = _Channel(read_fd, write_fd)
    _install_tripwires()
    namespace = _namespace(cells, channel)
    filenames = {c.filename for c in cells}
    report = load(cells, namespace, load_seconds=load_seconds)
    _route_lesson_tools(channel)
    namespace["execute_tool"] = channel.execute_tool
    channel.send({"op": "loaded", **report, **describe_namespace(namespace)})
    while True:
        request = channel.receive()
        if not isinstance(request, dict) or request.get("op") != "call":
            os._exit(0)
        channel.call_id = request.get("id")
        result = call(namespace, str(request.get("fn")), request.get("arg"), filenames)
        channel.call_id = None
        channel.send({"op": "result", "id": request.get("id"), **result})


def _namespace(cells: list[Cell], channel: _Channel) -> dict[str, Any]:
    import autograder

    # A notebook that calls check() or pista() must not grade itself again in here.
    autograder._IN_SANDBOX = True
    # A notebook runs as __main__ (as in Jupyter); a .py file as a module, so its
    # `if __name__ == "__main__":` tests do not run. A real module object, so that
    # dataclasses, pickle and friends find the learner's classes by module name.
    notebook = any(c.filename.startswith("<celda") for c in cells)
    module = types.ModuleType("__main__" if notebook else "__entrega__")
    sys.modules[module.__name__] = module
    namespace: dict[str, Any] = module.__dict__
    namespace.update({"__builtins__": builtins, "execute_tool": channel.execute_tool})
    shell = _StubShell(namespace)
    namespace["get_ipython"] = lambda: shell
    return namespace


def _route_lesson_tools(channel: _Channel) -> None:
    """After loading, lesson3's own tool entry points go through the proxy too (so they are logged)."""
    import lesson3.agent
    import lesson3.tools

    def run_tool(name: str, input: Any) -> Any:
        content = channel.execute_tool(name, input)
        return lesson3.tools.ToolOutcome(str(content), is_error=str(content).startswith("Error:"))

    lesson3.tools.run_tool = run_tool
    lesson3.agent.run_tool = run_tool


def load(cells: list[Cell], namespace: dict[str, Any], *, load_seconds: float) -> dict[str, Any]:
    """Run every cell in order; one that raises does not stop the next ones."""
    deadline = time.monotonic() + load_seconds
    results = []
    for cell in cells:
        if cell.skipped:
            results.append({"number": cell.number, "status": "skipped"})
            continue
        if cell.syntax_error is not None:
            results.append(
                {
                    "number": cell.number,
                    "status": "syntax",
                    "line": cell.syntax_error.line,
                    "message": cell.syntax_error.message,
                }
            )
            continue
        linecache.cache[cell.filename] = (len(cell.source), None, cell.source.splitlines(True), cell.filename)
        results.append(_run_cell(cell, namespace, deadline))
    return {"cells": results}


def _run_cell(cell: Cell, namespace: dict[str, Any], deadline: float) -> dict[str, Any]:
    def on_alarm(signum: int, frame: Any) -> None:
        raise CellTimeout()

    # Leave the judge's hard limit a margin: this soft alarm lets the next cells still run.
    budget = max(0.05, deadline - time.monotonic() - 0.3)
    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        code = compile(cell.source, cell.filename, "exec", flags=_TOP_LEVEL_AWAIT, dont_inherit=True)
        if code.co_flags & inspect.CO_COROUTINE:
            asyncio.run(_as_coroutine(eval(code, namespace)))
        else:
            exec(code, namespace)
    except CellTimeout:
        return {"number": cell.number, "status": "timeout", "seconds": round(budget, 1)}
    except BaseException as e:  # noqa: BLE001 - SystemExit and KeyboardInterrupt included: the cell failed
        return {"number": cell.number, "status": "error", **describe_exception(e, {cell.filename})}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return {"number": cell.number, "status": "ok"}


async def _as_coroutine(awaitable: Any) -> Any:
    return await awaitable


_TOP_LEVEL_AWAIT = __import__("ast").PyCF_ALLOW_TOP_LEVEL_AWAIT


def describe_namespace(namespace: dict[str, Any]) -> dict[str, Any]:
    """What the submission defined: the two functions and the optional answers."""
    defined = {}
    for name in FUNCTIONS:
        value = namespace.get(name)
        if value is None:
            defined[name] = "missing"
        elif id(value) in _tripwires.wrappers:
            defined[name] = "reference:" + _tripwires.wrappers[id(value)]
        elif not callable(value):
            defined[name] = "not_callable:" + type(value).__name__
        else:
            defined[name] = "function"
    answers: dict[str, Any] = {}
    for variable in QUESTIONS:
        if variable in namespace:
            value = namespace[variable]
            answers[variable] = value[:200] if isinstance(value, str) else {"type": type(value).__name__}
    return {"defined": defined, "answers": answers}


def call(namespace: dict[str, Any], fn: str, arg: Any, filenames: set[str]) -> dict[str, Any]:
    """One graded call; the answer says how it went, never raises."""
    target = namespace.get(fn)
    if target is None:
        return {"status": "missing"}
    if not callable(target):
        return {"status": "not_callable", "type": type(target).__name__}
    _tripwires.fired.clear()
    _tripwires.armed = True
    try:
        value = target(*unpack(arg))
        if inspect.isawaitable(value):
            value = asyncio.run(_as_coroutine(value))
    except NotImplementedError:
        return {"status": "not_implemented", "delegated": list(_tripwires.fired)}
    except DelegationError:
        return {"status": "delegated", "delegated": list(_tripwires.fired)}
    except BaseException as e:  # noqa: BLE001 - SystemExit too: the judge reports it
        return {"status": "error", "delegated": list(_tripwires.fired), **describe_exception(e, filenames)}
    finally:
        _tripwires.armed = False
    fired = list(_tripwires.fired)
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        return {"status": "bad_value", "type": type(value).__name__, "detail": str(e)[:200], "delegated": fired}
    if len(encoded) > MAX_VALUE_BYTES:
        return {"status": "bad_value", "type": type(value).__name__, "detail": "too large", "delegated": fired}
    return {"status": "ok", "value": json.loads(encoded), "delegated": fired}


def describe_exception(e: BaseException, learner_files: set[str]) -> dict[str, Any]:
    """Type, message and the learner's own line (the last frame in their code) of an exception."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename in learner_files]
    where = frames[-1] if frames else None
    if isinstance(e, SyntaxError) and where is None:
        line = e.lineno
        filename = e.filename
    else:
        line = where.lineno if where else None
        filename = where.filename if where else None
    lines = traceback.format_exception_only(type(e), e)
    message = "".join(lines).strip().split("\n")[-1]
    prefix = type(e).__name__ + ": "
    if message.startswith(prefix):
        message = message[len(prefix) :]
    elif message == type(e).__name__:
        message = ""
    tb = "".join(traceback.format_list(frames)) if frames else ""
    return {
        "etype": type(e).__name__,
        "message": message[:500],
        "line": line,
        "file": filename,
        "function": where.name if where else None,
        "traceback": tb[-4000:],
    }
