"""What runs inside the learner's process, once locked down: the cells and the calls.

Runs in the learner's child (a fork of :mod:`autograder.learner.zygote`, after
:mod:`autograder.learner.lockdown`). Nothing here is trusted by the judge: every answer is
data the judge re-checks, and the tool proxy only *asks* the judge to act. What this
module adds is running the submission the way its author ran it, with clear reports:

- a notebook's cells run in an IPython shell, as in Jupyter (``display``,
  ``get_ipython``, magics; IPython's own input transformation runs here, under the
  learner's limits). Shell escapes and ``%pip`` print that they do not run while grading;
- a ``.py`` runs like its notebook would: cell by cell where it has ``# In[ ]:`` or
  ``# %%`` markers, else statement by statement, with ``__file__`` set; a piece that
  fails is reported and skipped, and the rest still runs; a file that does not parse
  is cut at its top-level statements, and only the broken ones are lost;
- a call that fails says which line, and "todavía no implementado".
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import codeop
import contextlib
import functools
import inspect
import io
import json
import linecache
import os
import re
import signal
import sys
import threading
import time
import tokenize
import traceback
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from autograder.learner import lesson3_view, lockdown
from autograder.learner.lesson3_view import DelegationError
from autograder.wire import protocol
from autograder.wire.calls import FUNCTIONS, TAMPERED, unpack
from autograder.wire.cells import normalized
from autograder.wire.limits import Limits

MAX_VALUE_BYTES = 4 * 1024 * 1024
CELL_MARKER = re.compile(r"^#\s*(?:In\[[^\]]*\]:|%%)", re.MULTILINE)
"""Where ``jupyter nbconvert --to script`` (``# In[ ]:``) and jupytext/VS Code (``# %%``) start a cell."""
_TOP_LEVEL_AWAIT = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
_ASYNC_CODE = inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


class CellTimeout(BaseException):
    """A cell ran past its share of the load time (BaseException: `except Exception` won't eat it)."""


class ToolOutput(str):
    """What the execute_tool proxy returns to an ``async def``: a ``str`` that may also be awaited.

    The lesson's JavaScript writes ``await executeTool(...)``; a learner who carries
    that ``await`` into an ``async def reconcile`` gets the same string either way.
    Anywhere else the proxy returns a plain ``str``, as lesson3's ``execute_tool`` does
    (``type(output) is str`` holds, as in Jupyter).
    """

    def __await__(self) -> Any:
        if False:  # pragma: no cover - makes this a generator
            yield
        return str(self)


_shell: Any = None
_question_variables: tuple[str, ...] = ()


def prepare(questions: dict[str, Any]) -> None:
    """In the learner zygote: build the IPython shell every learner child starts with."""
    global _shell, _question_variables
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    config.InteractiveShell.xmode = "plain"
    _shell = InteractiveShell.instance(config=config)
    _shell.system = _shell.system_piped = _shell.system_raw = _no_process
    _shell.getoutput = lambda *args, **kwargs: _no_process(*args) or []
    for kind, names in (("line", NOT_WHILE_GRADING_LINE), ("cell", NOT_WHILE_GRADING_CELL)):
        for name in names:
            _shell.register_magic_function(_skipped_magic(name), kind, name)
    _question_variables = tuple(questions)


NOT_WHILE_GRADING_LINE = ("matplotlib", "pip", "conda", "mamba", "micromamba", "uv", "gui")
"""Line magics that install packages, start processes or need a display: a notice, not an error."""
NOT_WHILE_GRADING_CELL = ("bash", "sh", "script", "system", "sx", "perl", "ruby", "python2", "python3", "pypy")
"""Cell magics whose body another program runs: not while grading (the body is not Python)."""


def _skipped_magic(name: str) -> Any:
    def magic(line: str = "", cell: str | None = None) -> None:
        print(lesson3_view.say("magic_skipped", name=name))

    return magic


def _no_process(cmd: Any = "", *args: Any, **kwargs: Any) -> None:
    print(lesson3_view.say("no_process", command=str(cmd)[:80]))


# -- the child's main loop ---------------------------------------------------------------------


class _Channel:
    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd, self.write_fd = read_fd, write_fd
        self.call_id: int | None = None
        # The learner's threads may call execute_tool at once (asyncio.to_thread): one exchange at a time.
        self.lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        protocol.write_frame(self.write_fd, message)

    def receive(self) -> Any:
        try:
            return protocol.read_frame(self.read_fd)
        except (EOFError, protocol.ProtocolError):
            os._exit(0)

    def execute_tool(self, name: str, input: Any) -> str:
        """The proxy: the judge executes the tool on the check's workspace and logs it."""
        if self.call_id is None:
            # A cell that tries its reconcile (or a thread between calls): nothing is graded, so the tool
            # runs as in Jupyter, on the workspace the learner made active, or says there is none.
            return lesson3_view.run_tool_here(name, input)
        try:
            json.dumps([name, input], allow_nan=False)
        except (TypeError, ValueError) as e:
            raise TypeError(lesson3_view.say("tool_not_json", error=e)) from None
        with self.lock:
            self.send({"op": "tool", "id": self.call_id, "name": name, "input": input})
            reply = self.receive()
        if not isinstance(reply, dict) or reply.get("op") != "tool_result":
            os._exit(0)
        content = str(reply.get("content", ""))
        # Only an ``async def`` can write ``await execute_tool(...)``; everyone else gets lesson3's plain str.
        return ToolOutput(content) if sys._getframe(1).f_code.co_flags & _ASYNC_CODE else content


def child_main(fds: list[int], limits: Limits, box: Path, uid: int | None, landlock: bool) -> None:
    """The learner's child, from the fork to its end: lock down, load, answer calls. Never returns."""
    req_r, resp_w, out_w = fds
    code = 70
    try:
        try:
            applied = lockdown.confine(limits, box, uid, out_w, keep=(req_r, resp_w), use_landlock=landlock)
        except Exception as e:  # the grader's problem, reported as such
            protocol.write_frame(resp_w, {"op": "confine_failed", "error": f"{type(e).__name__}: {e}"})
            raise
        tolerate_metadata_refusals(box)
        serve(req_r, resp_w, applied)
        code = 0
    except BaseException:  # noqa: BLE001 - the child must never return into the keeper's code
        with contextlib.suppress(BaseException):  # nothing left to report to
            traceback.print_exc()
    finally:
        os._exit(code)


METADATA_CALLS = ("chmod", "utime")
"""What shutil.copy/copy2/copystat and Path.touch call on the copy or the touched file."""


def tolerate_metadata_refusals(box: Path) -> None:
    """chmod and utime on the learner's own files succeed without effect, instead of PermissionError.

    The seccomp filter refuses both (:mod:`autograder.learner.landlock`: the learner could otherwise
    change the instructor's files), so ``shutil.copy(path, backup)``, ``copy2`` or
    ``Path.touch()`` failed in the learner's folder while they work in Jupyter. The syscall is
    still refused: only its refusal is not raised, and only beneath the learner's folder.
    """
    root = os.path.realpath(box)

    def tolerant(real: Any) -> Any:
        @functools.wraps(real)
        def call(path: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return real(path, *args, **kwargs)
            except PermissionError:
                if isinstance(path, int) or kwargs.get("dir_fd") is not None:
                    raise
                target = os.path.realpath(os.fsdecode(path))
                if target != root and not target.startswith(root + os.sep):
                    raise
                # The filter refuses before the kernel looks at the path: a missing file must still say so
                # (Path.touch creates the file when utime fails).
                os.stat(path, follow_symlinks=kwargs.get("follow_symlinks", True))
                return None

        return call

    for name in METADATA_CALLS:
        real = getattr(os, name)
        wrapper = tolerant(real)
        for supported in (os.supports_fd, os.supports_dir_fd, os.supports_follow_symlinks):
            if real in supported:
                supported.add(wrapper)
        setattr(os, name, wrapper)


def serve(read_fd: int, write_fd: int, applied: dict[str, Any]) -> None:
    channel = _Channel(read_fd, write_fd)
    request = channel.receive()
    if not isinstance(request, dict) or request.get("op") != "load":
        os._exit(0)
    lesson3_view.set_texts(request.get("texts"))
    kind, name = str(request.get("kind") or "py"), str(request.get("name") or "entrega.py")
    cells = [c for c in request.get("cells") or [] if isinstance(c, dict)]
    namespace = _namespace(kind, name, cells, channel)
    lesson3_view.route_tools(channel.execute_tool)
    # As in Jupyter, the working folder (the learner's own) is importable: %%writefile x.py, then import x.
    sys.path.insert(0, os.getcwd())
    course = frozenset(c for c in request.get("course_cells") or [] if isinstance(c, str))
    stuck = frozenset(n for n in request.get("stuck") or [] if isinstance(n, int))
    report = load(
        kind,
        name,
        cells,
        namespace,
        load_seconds=float(request.get("load_seconds") or 5.0),
        course=course,
        stuck=stuck,
        starting=lambda number: channel.send({"op": "cell", "number": number}),
    )
    filenames = set(report.pop("filenames"))
    _flush()
    channel.send({"op": "loaded", "lockdown": applied, **report, **describe_namespace(namespace)})
    while True:
        request = channel.receive()
        if not isinstance(request, dict) or request.get("op") != "calls" or not isinstance(request.get("calls"), list):
            os._exit(0)
        serve_calls(channel, request, namespace, filenames)


def serve_calls(channel: _Channel, request: dict[str, Any], namespace: dict[str, Any], filenames: set[str]) -> None:
    """The calls of one request, in order, each answered as soon as it ends (the judge times each one)."""
    seconds, budget = _seconds(request.get("seconds")), _seconds(request.get("budget"))
    left = request.get("left") if isinstance(request.get("left"), dict) else {}
    now = time.monotonic()
    # When each group's shared budget ends, as the judge counts it: the groups already started, then each new one.
    ends = {str(g): now + s for g, s in ((g, _seconds(s)) for g, s in left.items()) if s is not None}
    for item in request["calls"]:
        if not isinstance(item, dict):
            os._exit(0)
        group = str(item.get("group"))
        now = time.monotonic()
        if budget is not None and group not in ends:
            ends[group] = now + budget
        # When the judge may stop this call: its own limit, or its group's budget if that ends first.
        allowed = None if seconds is None else min(seconds, ends.get(group, now + seconds) - now)
        channel.call_id = item.get("id")
        with import_notes(channel, allowed):
            result = call(namespace, str(item.get("fn")), item.get("arg"), filenames)
        channel.call_id = None
        _flush()
        channel.send({"op": "result", "id": item.get("id"), **result})


def _seconds(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


IMPORT_NOTE_LEAD = 0.3
"""How long before a call's time limit the child starts telling the judge whether it is importing."""
IMPORT_NOTE_EVERY = 0.1
"""How often it tells again, from then on (only when the answer changed)."""


@contextlib.contextmanager
def import_notes(channel: _Channel, seconds: Any) -> Iterator[None]:
    """Near the end of a call's time, tell the judge which module the call is importing, if any.

    A call that runs out of time while it imports (a module of the learner's that is slow to
    load, a library the learner process did not have yet) is not an infinite loop: this note
    lets the feedback say so. Nothing is sent for a call that ends in time.
    """
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds <= 0:
        yield
        return
    said: list[str | None] = [None]

    def note(signum: int, frame: Any) -> None:
        module = importing_module(frame)
        # A frame half-written by execute_tool holds the lock: say it at the next tick, never in between.
        if module == said[0] or not channel.lock.acquire(blocking=False):
            return
        try:
            with contextlib.suppress(Exception):  # the judge went away: nothing left to tell
                channel.send({"op": "importing", "id": channel.call_id, "module": module})
                said[0] = module
        finally:
            channel.lock.release()

    previous = signal.signal(signal.SIGALRM, note)
    signal.setitimer(signal.ITIMER_REAL, max(0.05, float(seconds) - IMPORT_NOTE_LEAD), IMPORT_NOTE_EVERY)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def importing_module(frame: Any) -> str | None:
    """The module being imported at ``frame``: the outermost import in progress (what the learner's line asked for)."""
    found = None
    while frame is not None:
        code = frame.f_code
        if code.co_name == "_find_and_load" and "importlib._bootstrap" in code.co_filename.replace("/", "."):
            name = frame.f_locals.get("name")
            found = name if isinstance(name, str) else found
        frame = frame.f_back
    return found


def _flush() -> None:
    """What was printed reaches the judge before the answer (a kill later would lose a buffer)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # the learner may have replaced or closed them
            stream.flush()


def _namespace(kind: str, name: str, cells: list[dict[str, Any]], channel: _Channel) -> dict[str, Any]:
    # display(), get_ipython() and friends are builtins for the whole run, calls included, as in Jupyter.
    _shell.builtin_trap.activate()
    if kind == "ipynb":
        # A notebook runs as __main__ in the shell's own namespace, as in Jupyter.
        sys.modules["__main__"] = _shell.user_module
        namespace: dict[str, Any] = _shell.user_ns
    else:
        # A .py file runs as a module (its `if __name__ == "__main__":` tests do not run), with its
        # __file__ in the learner's folder. A real module object, so that dataclasses, pickle and
        # friends find the learner's classes by module name.
        module = types.ModuleType("__entrega__")
        sys.modules[module.__name__] = module
        namespace = module.__dict__
        path = Path.cwd() / (Path(name).name or "entrega.py")
        source = "".join(str(c.get("source") or "") for c in cells)
        with contextlib.suppress(OSError):  # a folder already full: __file__ still names it
            path.write_text(source, encoding="utf-8")
        namespace["__file__"] = str(path)
        # As `python entrega.py` would: a module-level argparse sees no arguments (not the zygote's own).
        sys.argv[:] = [str(path)]
    namespace.update({"__builtins__": builtins, "execute_tool": channel.execute_tool})
    return namespace


def load(
    kind: str,
    name: str,
    cells: list[dict[str, Any]],
    namespace: dict[str, Any],
    *,
    load_seconds: float,
    course: frozenset[str] = frozenset(),
    stuck: frozenset[int] = frozenset(),
    starting: Any = None,
) -> dict[str, Any]:
    """Run every cell (or piece of a .py) in order; one that fails does not stop the next ones.

    A marked .py's cell whose code is one of ``course`` (the course's own cells, normalized, that a
    notebook tags not to run when grading) is skipped, as its notebook's tag would have it. The cells
    in ``stuck`` outlived the load's limit in an earlier process (their code ignored the alarm): each
    is reported as timed out, not run again. ``starting`` is told each cell's number before it runs
    (None once the cells are done), so the judge knows which one would not stop."""
    deadline = time.monotonic() + load_seconds
    starting = starting or (lambda number: None)
    result = _load(kind, name, cells, namespace, deadline, course, stuck, starting)
    starting(None)
    return result


def _load(
    kind: str,
    name: str,
    cells: list[dict[str, Any]],
    namespace: dict[str, Any],
    deadline: float,
    course: frozenset[str],
    stuck: frozenset[int],
    starting: Any,
) -> dict[str, Any]:
    results: list[dict[str, Any]] = []
    filenames: list[str] = []
    if kind == "ipynb":
        for cell in cells:
            number = cell.get("number")
            if cell.get("skipped"):
                results.append({"number": number, "status": "skipped"})
                continue
            filename = str(cell.get("filename") or f"<cell {number}>")  # the judge names it in the run's language
            filenames.append(filename)
            if number in stuck:
                results.append({"number": number, "status": "timeout"})
                continue
            starting(number)
            results.append(_timed(number, deadline, lambda c=cell, f=filename: _run_notebook_cell(c, f)))
        return {"cells": results, "filenames": filenames}
    filename = str(cells[0].get("filename") if cells else name)
    filenames.append(filename)
    source = "".join(str(c.get("source") or "") for c in cells)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    pieces, marked = _pieces(source, filename)
    split = False
    if isinstance(pieces, SyntaxError):
        # As Jupyter would with the same code in cells: what parses runs, only the broken statement is lost.
        # A NUL byte is no slip of the keyboard: that file is not Python text at all, and stays one error.
        statements = _statement_pieces(source) if "\0" not in source else []
        if len(statements) < 2:
            return {"cells": [], "pieces": [_syntax(1, pieces)], "filenames": filenames}
        pieces, split = statements, True
    compiler = codeop.Compile()
    compiler.flags |= _TOP_LEVEL_AWAIT
    for number, line, piece in pieces:
        if marked and normalized(CELL_MARKER.sub("", piece, count=1)) in course:
            results.append({"number": number, "status": "skipped", "line": line, "start": line, "marked": marked})
            continue
        if number in stuck:
            results.append({"number": number, "status": "timeout", "line": line, "start": line, "marked": marked})
            continue
        starting(number)
        report = _timed(number, deadline, lambda p=piece: _run_piece(p, filename, compiler, namespace))
        # "start": where the piece begins, so the grader can name a marked cell by its first line.
        results.append({**report, "line": report.get("line") or line, "start": line, "marked": marked, "split": split})
    return {"cells": [], "pieces": results, "filenames": filenames}


def _pieces(source: str, filename: str) -> tuple[list[tuple[int, int, Any]] | SyntaxError, bool]:
    """A .py as its notebook's cells (where it has markers) or as its top-level statements."""
    starts = _marker_lines(source)
    if starts:
        # What comes before the first marker (a shebang, a coding line) is cell 0; the marked cells count from 1.
        first = 0 if starts[0] > 0 else 1
        return [(first + i, line, piece) for i, (line, piece) in enumerate(_cut(source, starts))], True
    try:
        tree = compile(source, filename, "exec", flags=ast.PyCF_ONLY_AST | _TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError as e:
        return e, False
    except (ValueError, RecursionError, MemoryError) as e:  # reported as a syntax error on line 1
        return SyntaxError(str(e)[:200], (filename, 1, None, None)), False
    return [(i + 1, stmt.lineno, ast.Module(body=[stmt], type_ignores=[])) for i, stmt in enumerate(tree.body)], False


_CONTINUES = frozenset({"elif", "else", "except", "finally"})
"""Words that go on the statement above them at the same indentation: never the start of a new one."""


def _statement_pieces(source: str) -> list[tuple[int, int, Any]]:
    """A .py that does not parse, cut where each top-level statement starts, as its own cells would be.

    The tokenizer finds the starts without parsing: a logical line at column 0 (a decorator keeps
    its ``def``; ``else``/``except`` keep their ``if``/``try``). Where the tokenizer itself stops (an
    unclosed string or bracket), the rest of the file is one piece.
    """
    starts: list[int] = []
    at_start, decorated = True, False
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NEWLINE:
                at_start = True
            elif token.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
                continue
            elif at_start:
                at_start = False
                if token.start[1] != 0:
                    continue
                if token.string not in _CONTINUES and not decorated:
                    starts.append(token.start[0] - 1)
                decorated = token.string == "@"
    except (tokenize.TokenError, SyntaxError, ValueError):
        pass  # the starts found so far stand; the rest is one piece
    return [(i, line, piece) for i, (line, piece) in enumerate(_cut(source, starts), 1) if piece.strip()]


def _cut(source: str, starts: list[int]) -> list[tuple[int, str]]:
    """``source`` cut where each of ``starts`` (0-based lines) begins, and before it when it does not start
    at line 0: each piece with its first line (1-based)."""
    lines = source.splitlines(True)
    bounds = [0, *starts] if not starts or starts[0] > 0 else starts
    spans = zip(bounds, [*bounds[1:], len(lines)], strict=True)
    # Blank lines before each piece keep the file's line numbers in tracebacks.
    return [(start + 1, "\n" * start + "".join(lines[start:end])) for start, end in spans]


def _marker_lines(source: str) -> list[int]:
    """The 0-based lines that start a cell: marker comments, not text inside a string that looks like one."""
    candidates = [source.count("\n", 0, m.start()) for m in CELL_MARKER.finditer(source)]
    if not candidates:
        return []
    try:
        comments = {
            token.start[0] - 1
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT and token.start[1] == 0
        }
    except (tokenize.TokenError, SyntaxError, ValueError):
        return candidates  # not tokenizable as a whole: the markers still split it into cells
    return [line for line in candidates if line in comments]


def _timed(number: Any, deadline: float, run: Any) -> dict[str, Any]:
    """Run one piece under a soft alarm: the judge's hard limit is a little later, so the next pieces still run."""
    # Soft alarms end 0.3 s before the load's deadline; past it, each piece still gets a sliver
    # (definitions take microseconds), until the judge's own hard limit (+0.5 s) comes close.
    now = time.monotonic()
    if now > deadline + 0.1:
        return {"number": number, "status": "timeout", "seconds": 0}
    budget = max(0.05, deadline - now - 0.3)

    def on_alarm(signum: int, frame: Any) -> None:
        raise CellTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        # The piece's own report may not know its number (a .py's statement): the number is this one.
        return {**run(), "number": number}
    except CellTimeout:
        return {"number": number, "status": "timeout", "seconds": round(budget, 1)}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _run_notebook_cell(cell: dict[str, Any], filename: str) -> dict[str, Any]:
    _shell.compile.get_code_name = lambda raw, transformed, number: filename
    result = _shell.run_cell(str(cell.get("source") or ""), store_history=False)
    # `is None`, not truthiness: a learner's exception class may define __bool__ or __len__.
    error = result.error_in_exec if result.error_before_exec is None else result.error_before_exec
    if error is None:
        return {"status": "ok"}
    if isinstance(error, CellTimeout):
        raise error
    if isinstance(error, SyntaxError) and error is result.error_before_exec:
        return _syntax(cell.get("number"), error)
    return {"status": "error", **describe_exception(error, {filename})}


def _run_piece(piece: Any, filename: str, compiler: codeop.Compile, namespace: dict[str, Any]) -> dict[str, Any]:
    try:
        code = compiler(piece, filename, "exec")
    except SyntaxError as e:
        return _syntax(None, e)
    try:
        if code.co_flags & inspect.CO_COROUTINE:
            asyncio.run(_as_coroutine(eval(code, namespace)))
        else:
            exec(code, namespace)
    except CellTimeout:
        raise
    except BaseException as e:  # noqa: BLE001 - SystemExit and KeyboardInterrupt included: the piece failed
        return {"status": "error", **describe_exception(e, {filename})}
    return {"status": "ok"}


def _syntax(number: Any, error: SyntaxError) -> dict[str, Any]:
    return {"number": number, "status": "syntax", "line": error.lineno or 1, "message": error.msg or "SyntaxError"}


async def _as_coroutine(awaitable: Any) -> Any:
    return await awaitable


def describe_namespace(namespace: dict[str, Any]) -> dict[str, Any]:
    """What the submission defined: the two functions and the optional answers."""
    defined = {}
    for name in FUNCTIONS:
        value = namespace.get(name)
        if value is None:
            defined[name] = "missing"
        elif not callable(value):
            defined[name] = "not_callable:" + type(value).__name__
        else:
            defined[name] = "function"
    answers: dict[str, Any] = {}
    for variable in _question_variables:
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
    fired = lesson3_view.fired
    fired.clear()
    lesson3_view.graded_call_begins()
    lesson3_view.armed = True
    failed: dict[str, Any] | None = None
    # Where a copy of lesson3's protected code exists, it is seen where it runs (a trace for the call's threads).
    traced, threads_traced = sys.gettrace(), threading._trace_hook  # type: ignore[attr-defined]
    if lesson3_view.copies:
        threading.settrace(lesson3_view.TRACE)
        sys.settrace(lesson3_view.TRACE)
    try:
        value = target(*unpack(arg))
        if inspect.isawaitable(value):
            value = asyncio.run(_as_coroutine(value))
    except NotImplementedError:
        failed = {"status": "not_implemented"}
    except DelegationError:
        failed = {"status": "delegated"}
    except BaseException as e:  # noqa: BLE001 - SystemExit too: the judge reports it
        failed = {"status": "error", **describe_exception(e, filenames)}
    finally:
        intact = lesson3_view.intact(fired, sys._getframe().f_code)  # this very call, however it is named
        if lesson3_view.copies:
            sys.settrace(traced)
            threading.settrace(threads_traced)
        lesson3_view.armed = False
    if not intact:  # the guard was switched off or replaced during the call: whatever it did counts as reuse
        return {"status": "delegated", "delegated": [*fired, TAMPERED]}
    if failed is not None:
        return {**failed, "delegated": list(fired)}
    fired = list(fired)  # a copy: the next call clears the shared list
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        return {"status": "bad_value", "type": type(value).__name__, "detail": str(e)[:200], "delegated": fired}
    if len(encoded) > MAX_VALUE_BYTES:
        return {"status": "bad_value", "type": type(value).__name__, "detail": "too large", "delegated": fired}
    return {"status": "ok", "value": json.loads(encoded), "delegated": fired}


lesson3_view.mark_graded_call(call.__code__)


def describe_exception(e: BaseException, learner_files: set[str]) -> dict[str, Any]:
    """Type, message and the learner's own line (the last frame in their code) of an exception."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename in learner_files]
    where = frames[-1] if frames else None
    if isinstance(e, SyntaxError) and where is None:
        line, filename = e.lineno, e.filename
    else:
        line, filename = (where.lineno, where.filename) if where else (None, None)
    lines = traceback.format_exception_only(type(e), e)
    message = "".join(lines).strip().split("\n")[-1]
    for name in (f"{type(e).__module__}.{type(e).__qualname__}", type(e).__name__):
        if message == name or message.startswith(name + ": "):
            message = message[len(name) + 2 :]
            break
    tb = "".join(traceback.format_list(frames)) if frames else ""
    missing = e.name if isinstance(e, ModuleNotFoundError) and isinstance(e.name, str) else None
    return {
        "module": missing,
        "etype": type(e).__name__,
        "message": message[:500],
        "line": line,
        "file": filename,
        "function": where.name if where else None,
        "traceback": tb[-4000:],
    }
