"""The learner's ``lesson3`` while grading: the real package, without its answers module.

The learner zygote imports lesson3 from its files, as Jupyter does, with one module
missing: :mod:`lesson3.answers`, where every answer of the lesson lives. Before lesson3
is imported, ``sys.modules["lesson3.answers"]`` is a placeholder whose every name is a
:class:`Placeholder`; lesson3's own modules import their answers from it, so a lesson3
function that uses an answer internally (``format_checkpoint`` and ``resume_plan``,
``run_agent``'s default ``reconcile``, the crash lab's strategies) reaches the
placeholder too and is no route to it. Landlock hides the answers' file and lesson3's
``__pycache__`` (:func:`hidden_paths`); the answers are never in this process's memory.

What a graded function may not reuse but the learner may call outside graded calls
(lesson3's ``load_checkpoint``, the incident's ``reconcile_production``: the list is
:data:`lesson3.exercises.NOT_REUSABLE`) is real outside graded calls; during one it records,
from inside the function object itself, that it was reached, whatever name, alias, module path
or indirection reached it, and refuses to run (:func:`guard`), as a placeholder does: reusing it
gives the graded function nothing, so clearing the record afterwards gains nothing either. The
runner reports the record with the call, and reports as reuse a call during which the guard itself
was switched off or replaced (:func:`intact`); the judge scores both.
"""

from __future__ import annotations

import dis
import importlib
import importlib.machinery
import importlib.util
import inspect
import io
import linecache
import sys
import threading
import types
import typing
import zipfile
from pathlib import Path
from typing import Any

ANSWERS = "lesson3.answers"

NOT_PRELOADED = ("answers", "build_notebooks", "build_language_pack", "__main__", "crash_warmup")
"""lesson3 modules the zygote does not import: the answers, the maintainers' builders (of the notebooks, with
nbclient, and of the JupyterLab language pack), the command's entry point (it runs the command) and the crash lab's
forkserver warm-up (it runs the agent). Every other one is imported before any learner code, so no graded call pays
for an import (the SDK's included)."""


class DelegationError(RuntimeError):
    """An answer of lesson3's does not count as the exercise's answer."""


TEXTS: dict[str, str] = {}
"""The sentences this process says to the learner, in the grading's language: this process may not
import the grader's catalogue, so the judge sends them with the load request
(:func:`autograder.course.catalogue.learner_texts`) and :func:`set_texts` keeps them."""


def set_texts(texts: Any) -> None:
    """Keep the judge's templates (strings only) and say the answers' placeholder module in them."""
    if isinstance(texts, dict):
        TEXTS.update({k: v for k, v in texts.items() if isinstance(k, str) and isinstance(v, str)})
    placeholder = sys.modules.get(ANSWERS)
    if isinstance(placeholder, AnswersPlaceholder):
        placeholder.__doc__ = say("answers_doc")


def say(key: str, **params: Any) -> str:
    """The sentence ``key`` filled in; without the judge's texts (a process never loaded), the key and its values."""
    template = TEXTS.get(key)
    if template is None:
        return f"[{key}: {', '.join(f'{k}={v}' for k, v in params.items())}]"
    return template.format(**params)


fired: list[str] = []
"""What of lesson3 a graded function may not reuse ran during the current graded call (the runner
clears and reads it)."""
armed = False


def _record(label: str) -> None:
    if graded_here():
        fired.append(label)


_RECORD = _record
_graded_call: types.CodeType | None = None
"""The code of the runner's graded call (:func:`autograder.learner.runner.call`), named by the runner."""


def in_graded_call() -> bool:
    """Whether the main thread is inside a graded call, read from its stack rather than from a flag:
    a frame cannot be taken off a running stack, and a thread the learner started sees the main one."""
    frame = sys._current_frames().get(threading.main_thread().ident or 0)
    while frame is not None:
        if frame.f_code is _graded_call:
            return True
        frame = frame.f_back
    return False


_threads_before: frozenset[int] = frozenset()
"""The threads already running when the current graded call began (a cell's own workers): not the call's."""


def graded_call_begins() -> None:
    global _threads_before
    _threads_before = frozenset(t.ident for t in threading.enumerate() if t.ident is not None)


def graded_here() -> bool:
    """Whether what runs now belongs to a graded call: the main thread inside one, or a thread started during
    one. A thread that was already running when the call began (a worker a cell started) is not the call's:
    its own use of lesson3 is the notebook's, as in Jupyter."""
    current = threading.get_ident()
    if current != threading.main_thread().ident and current in _threads_before:
        return False
    return armed or in_graded_call()


def mark_graded_call(code: types.CodeType) -> None:
    """The runner names its graded call's code once, at import (before any learner code exists)."""
    global _graded_call
    _graded_call = code


class Placeholder:
    """Stands for a name of :mod:`lesson3.answers`, which the learner's process does not have."""

    def __init__(self, label: str) -> None:
        self._label = label

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        _record(self._label)
        raise DelegationError(say("placeholder_refused", label=self._label))

    __call__ = __getitem__ = __iter__ = __contains__ = __len__ = _refuse

    def __or__(self, other: Any) -> Any:
        # A type hint such as `reconcile: Reconciler | None` is only a description: it must not fail the def.
        return typing.Union[self, other]  # noqa: UP007 - `|` is the operator being defined here

    def __ror__(self, other: Any) -> Any:
        return typing.Union[other, self]  # noqa: UP007

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._refuse()

    def __repr__(self) -> str:
        return say("placeholder_repr", label=self._label)


class AnswersPlaceholder(types.ModuleType):
    """``lesson3.answers`` in the learner's process: every name is a :class:`Placeholder`."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return Placeholder(f"{self.__name__}.{name}")


def install() -> None:
    """Import lesson3 without its answers and guard what graded calls may not reuse.

    Runs in the learner zygote, before any learner code and before Landlock.
    """
    # Its docstring is said in the grading's language once the judge's texts arrive (set_texts).
    sys.modules[ANSWERS] = AnswersPlaceholder(ANSWERS)
    package = importlib.import_module("lesson3")
    package.answers = sys.modules[ANSWERS]  # type: ignore[attr-defined] # as Python's import binds it
    folder = Path(package.__file__).parent
    for name in _module_names(folder):
        importlib.import_module(f"lesson3.{name}")
    # Where the learner's uid cannot read the course's checkout (graded as root, a private home folder,
    # a checkout inside a 0700 folder), lesson3's sources and data files still work as in Jupyter:
    # read now, kept in memory, served by each module's own loader.
    for module in [m for n, m in sys.modules.items() if n.startswith("lesson3.") and n != ANSWERS]:
        keep_module(module, KeptSourceLoader)
    keep_module(package, lambda name, path: _PackageLoader(name, path, folder / "data"))
    sys.meta_path.insert(0, _KeptModules)
    exercises = sys.modules["lesson3.exercises"]
    exercises.exercise_checkpoints()  # played once here (a temporary folder, the offline model), cached
    for label in exercises.NOT_REUSABLE:
        module, _, name = label.rpartition(".")
        fn = getattr(sys.modules[module], name)
        protect(fn.__code__, label)  # its code, before guard() makes it a trampoline
        guard(fn, label)
    sys.addaudithook(_audit)
    global _lesson3_run_tool
    _lesson3_run_tool = sys.modules["lesson3.tools"].run_tool


def _module_names(folder: Path) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.py") if p.stem not in NOT_PRELOADED and p.stem != "__init__")


def keep_module(module: types.ModuleType, make: Any) -> None:
    """Give ``module`` the loader ``make(name, path)`` makes, which keeps its source in memory."""
    path = module.__file__ or ""
    loader = make(module.__name__, path)
    module.__loader__ = loader
    if module.__spec__ is not None:
        module.__spec__.loader = loader
    _KeptModules.loaders[module.__name__] = loader
    # The loader's bytes, not a second read, for ``inspect.getsource`` and tracebacks. Without an
    # mtime, linecache.checkcache keeps the lines where the learner's uid cannot stat the file.
    lines = loader.source_text().splitlines(keepends=True)
    linecache.cache[path] = (sum(map(len, lines)), None, lines, path)


class _KeptModules:
    """Finds lesson3's modules again (``importlib.reload``) from their kept loaders: looking in the
    checkout's folder would fail where the learner's uid cannot list it."""

    loaders: typing.ClassVar[dict[str, KeptSourceLoader]] = {}

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        loader = cls.loaders.get(name)
        if loader is None:
            return None
        package = [str(Path(loader.path).parent)] if loader.is_package(name) else None
        return importlib.util.spec_from_file_location(
            name, loader.path, loader=loader, submodule_search_locations=package
        )


class KeptSourceLoader(importlib.machinery.SourceFileLoader):
    """A lesson3 module's loader in the learner's process: its source file read once, in the zygote.

    ``get_data``, ``get_source`` and ``importlib.reload`` then read lesson3's source as in Jupyter
    wherever the learner's uid cannot open the checkout (what they make is a copy of lesson3's code:
    the guard knows copies by their code, not by how they were read)."""

    def __init__(self, fullname: str, path: str) -> None:
        super().__init__(fullname, path)
        self._source = Path(path).read_bytes()

    def get_data(self, path: str) -> bytes:
        if path == self.path:
            return self._source
        return super().get_data(path)

    def source_text(self) -> str:
        """The kept source as text, decoded as Python decodes a source file."""
        return importlib.util.decode_source(self._source)


class _PackageLoader(KeptSourceLoader):
    """lesson3's own loader, which also answers ``importlib.resources.files("lesson3")``.

    The files under ``data/`` (the workspace's notes, the offline web corpus: public course
    material) are read once into an in-memory zip, which ``create_workspace`` and ``web_search``
    read as in Jupyter wherever the learner's uid cannot read the checkout.
    """

    def __init__(self, fullname: str, path: str, data: Path) -> None:
        super().__init__(fullname, path)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for item in sorted(data.rglob("*")):
                if item.is_file():
                    archive.writestr(str(Path("data") / item.relative_to(data)), item.read_bytes())
        self._zip = buffer.getvalue()

    def get_resource_reader(self, name: str) -> _PackageLoader:  # type: ignore[override]
        return self

    def files(self) -> zipfile.Path:
        return zipfile.Path(zipfile.ZipFile(io.BytesIO(self._zip)))


def hidden_paths() -> list[Path]:
    """What Landlock hides of lesson3: the answers' file and the compiled files (a ``.pyc`` of the
    answers, or one left over from before they moved, holds their code)."""
    spec = importlib.util.find_spec("lesson3")
    folder = Path(spec.origin or "").parent  # type: ignore[union-attr]
    return [folder / "answers.py", folder / "__pycache__"]


def guard(fn: types.FunctionType, label: str) -> None:
    """Make the function object ``fn`` record ``label`` whenever it runs during a graded call.

    The record is inside the function, not at a name: ``fn``'s code becomes a trampoline that
    records, then runs the original code in a function made for that call. Every reference to
    ``fn`` taken before or after (an alias, another module's import, a closure, a partial, a dict,
    ``getattr`` with a built string) calls the trampoline. Its signature and source stay the
    original's, for ``inspect``, as in Jupyter.
    """
    signature = inspect.signature(fn)
    real = (fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__, fn.__kwdefaults__)

    def run(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if graded_here():
            fired.append(label)  # not through the flag: a graded call is running, whatever it says
            raise DelegationError(say("reuse_refused", label=label))
        code, namespace, name, defaults, closure, kwdefaults = real
        original = types.FunctionType(code, namespace, name, defaults, closure)
        original.__kwdefaults__ = kwdefaults
        return original(*args, **kwargs)

    guards = fn.__globals__.setdefault("__lesson3_guards__", {})
    guards[label] = run
    scope: dict[str, Any] = {}
    exec(f"def trampoline(*args, **kwargs):\n    return __lesson3_guards__[{label!r}](args, kwargs)\n", scope)
    code = real[0]
    names = {"co_qualname": code.co_qualname} if sys.version_info >= (3, 11) else {}
    fn.__code__ = scope["trampoline"].__code__.replace(
        co_name=code.co_name, co_filename=code.co_filename, co_firstlineno=code.co_firstlineno, **names
    )
    fn.__signature__ = signature  # type: ignore[attr-defined]
    _guarded.append((fn, fn.__code__, guards, label, run))
    global _GUARD_RUN
    _GUARD_RUN = run.__code__


_guarded: list[tuple[types.FunctionType, types.CodeType, dict[str, Any], str, Any]] = []
_GUARD_RUN: types.CodeType | None = None
"""The code of the guard's own ``run`` (the same for every guarded function): the one maker of the originals."""


def fingerprint(code: types.CodeType) -> tuple[Any, ...]:
    """What a function's code does, whoever made it: its instructions, with their names and constants.

    The same for every copy of lesson3's code (``importlib.reload``, ``exec`` of its module's source
    or of ``getsource``, a loader's ``get_data``, a ``FunctionType`` built from its code) wherever and
    under whatever name it was compiled: line numbers, file names, local names and the docstring are
    left out, and so is what the compiler chooses by context (a method call on a module imported in
    the same source is ``LOAD_ATTR``, elsewhere ``LOAD_METHOD``; jumps by offset). A nested function's
    code counts by its own fingerprint."""
    steps: list[Any] = []
    for step in dis.get_instructions(code):
        name = step.opname
        if name in _NOT_WHAT_IT_DOES:
            continue
        name = _SAME_STEP.get(name, name).replace("_FORWARD", "").replace("_BACKWARD", "")
        if step.opcode in _JUMPS:
            steps.append(name)
        elif step.opcode in _LOCALS:
            steps.append((name, step.arg))
        elif isinstance(step.argval, types.CodeType):
            steps.append((name, fingerprint(step.argval)))
        else:
            steps.append((name, step.argval if _hashable(step.argval) else repr(step.argval)))
    return tuple(steps)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


_NOT_WHAT_IT_DOES = frozenset({"CACHE", "NOP", "RESUME", "PUSH_NULL", "PRECALL", "EXTENDED_ARG"})
_SAME_STEP = {"LOAD_METHOD": "LOAD_ATTR"}
_JUMPS = frozenset(dis.hasjrel + dis.hasjabs)
_LOCALS = frozenset(dis.haslocal + dis.hasfree)


def _first_look(code: types.CodeType) -> tuple[int, tuple[str, ...]]:
    """What a frame's code is looked up by first (its arguments and the names it reaches): a copy of
    protected code has the original's; any other code almost never does, and is not fingerprinted."""
    return (code.co_argcount, code.co_names)


_protected: dict[tuple[int, tuple[str, ...]], dict[tuple[Any, ...], str]] = {}
"""Each function of :data:`lesson3.exercises.NOT_REUSABLE`: :func:`_first_look` -> :func:`fingerprint` -> label."""


def protect(code: types.CodeType, label: str) -> None:
    _protected.setdefault(_first_look(code), {})[fingerprint(code)] = label


def protected_label(code: types.CodeType) -> str | None:
    """The label of the protected function ``code`` is a copy of (None: none)."""
    candidates = _protected.get(_first_look(code))
    return candidates.get(fingerprint(code)) if candidates else None


def _tracer(record: list[str], label_of: Any) -> Any:
    """The trace a graded call runs under: every Python frame that starts is looked up by its code.

    A frame running protected code (a copy of it, however made) records the label and is refused,
    as the guarded original is. Each code object is looked up once; a frame costs a dict lookup."""
    seen: dict[int, tuple[types.CodeType, str | None]] = {}

    def trace(frame: types.FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        known = seen.get(id(code))
        if known is None or known[0] is not code:  # kept alive by `seen`: an id is never reused meanwhile
            known = seen[id(code)] = (code, label_of(code))
        if known[1] is not None:
            record.append(known[1])
            raise DelegationError(say("reuse_refused", label=known[1]))

    return trace


TRACE = _tracer(fired, protected_label)
"""Set by the runner around each graded call (its thread and the threads it starts)."""


_THREAD_START = threading.Thread._bootstrap_inner.__code__  # type: ignore[attr-defined]


copies: list[str] = []
"""The protected functions whose code was made into a function or run anywhere in this process other than
by the guard itself (a reload, an exec of lesson3's source, a function built from the original code): only
then do graded calls run under :data:`TRACE` (tracing every frame costs time no honest submission pays)."""


def _protected_within(code: Any) -> str | None:
    """The label of the protected code ``code`` is, or holds among its nested code (a module's source run again)."""
    if not isinstance(code, types.CodeType):
        return None
    if label := protected_label(code):
        return label
    return next(filter(None, (_protected_within(c) for c in code.co_consts if isinstance(c, types.CodeType))), None)


def _made(code: Any, caller: types.FrameType | None) -> None:
    """Protected code becoming a function (or running as a module): noted; during a graded call, refused."""
    label = _protected_within(code)
    if label is None:
        return
    graded = _graded_now()
    if caller is not None and caller.f_code is _GUARD_RUN and not graded:
        return  # the guard running the original outside graded calls, as in Jupyter
    if label not in copies:
        copies.append(label)
    if graded:  # the guard's own checks (or the trace) were got around: this is where it is made
        fired.append(label)
        raise DelegationError(say("reuse_refused", label=label))


def _graded_now(
    getframe: Any = sys._getframe, frames: Any = sys._current_frames, main: Any = threading.main_thread
) -> bool:
    """Whether what runs now belongs to a graded call (as :func:`graded_here`), from the stacks alone, with the
    functions this module was imported with: a learner may switch off ``armed`` or replace
    ``sys._current_frames``, and the stacks stay as they are."""
    stacks = [getframe()]
    if threading.get_ident() not in _threads_before:  # a cell's worker, already running, is not the call's
        stacks.append(frames().get(main().ident or 0))
    for frame in stacks:
        while frame is not None:
            if frame.f_code is _graded_call:
                return True
            frame = frame.f_back
    return False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """What the trace cannot see. Protected code made into a function anywhere (``exec``, ``FunctionType``,
    a ``__code__`` swapped in) is noted, and refused during a graded call. During a graded call, only the
    call itself may set or remove the trace (once a reuse is recorded, CPython removes a trace that raised),
    and a thread the call started without the trace has its stack looked at whenever it does something
    audited (opens a file, imports, compiles…)."""
    if event in _QUIET:
        return
    if event in ("exec", "function.__new__"):
        _made(args[0] if args else None, sys._getframe().f_back)
    elif event == "object.__setattr__" and len(args) == 3 and args[1] == "__code__":
        _made(args[2], sys._getframe().f_back)
    if not armed or fired:
        return
    if event == "sys.settrace":
        caller = sys._getframe().f_back  # None: not Python code (a thread's own start)
        if caller is not None and caller.f_code not in (_graded_call, _THREAD_START):
            raise DelegationError(say("reuse_refused", label="sys.settrace"))
    elif copies and sys.gettrace() is not TRACE and threading.get_ident() not in _threads_before:
        frame = sys._getframe().f_back
        while frame is not None:
            if label := protected_label(frame.f_code):
                fired.append(label)
                raise DelegationError(say("reuse_refused", label=label))
            frame = frame.f_back


_QUIET = frozenset({"sys._getframe", "sys._current_frames", "object.__getattr__"})
"""What the hook itself does: never looked at (it would look at itself)."""


_IN_GRADED_CALL = in_graded_call
_GRADED_HERE = graded_here


def intact(record: list[str], call: types.CodeType) -> bool:
    """The guard is as :func:`guard` left it and still armed, ``record`` is still the list it records into and
    ``call`` (the running graded call's code) is the one it looks for on the stack.

    A graded call that switched it off (``armed``), replaced the recorder or the list, or restored a
    guarded function's own code may have reused what it may not: the runner then reports reuse.
    """
    return (
        armed
        and fired is record
        and globals()["_record"] is _RECORD
        and globals()["in_graded_call"] is _IN_GRADED_CALL
        and globals()["graded_here"] is _GRADED_HERE
        and _graded_call is call
        and all(fn.__code__ is code and guards.get(label) is run for fn, code, guards, label, run in _guarded)
        and (bool(record) or not copies or (sys.gettrace() is TRACE and threading._trace_hook is TRACE))  # type: ignore[attr-defined]
    )


_lesson3_run_tool: Any = None
"""lesson3's own ``run_tool``, kept before :func:`route_tools` replaces it."""


def run_tool_here(name: str, input: Any) -> str:
    """A tool run in the learner's process, as lesson3 runs it in Jupyter: outside graded calls only."""
    return str(_lesson3_run_tool(name, input).content)


def route_tools(execute: Any) -> None:
    """lesson3's own tool entry points ask the judge (so every execution is observed and logged)."""
    tools = sys.modules["lesson3.tools"]

    def run_tool(name: str, input: Any) -> Any:
        content = str(execute(name, input))
        return tools.ToolOutcome(content, is_error=content.startswith("Error:"))

    tools.run_tool = run_tool  # type: ignore[attr-defined]
    package = sys.modules["lesson3"]
    package.run_tool = run_tool  # type: ignore[attr-defined]
    package.execute_tool = tools.execute_tool  # type: ignore[attr-defined]
