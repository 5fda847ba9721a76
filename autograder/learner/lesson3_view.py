"""The learner's ``lesson3`` while grading: what notebook 4 uses, without the answers.

In the learner's process lesson3's reference answers do not exist: not as objects, not
as files it can read (Landlock hides lesson3/ and autograder/ from it), not as data. What
a submission of notebook 4 legitimately imports is offered here instead:

- the real ``lesson3.checkpoint``, ``lesson3.tools``, ``lesson3.production`` (the
  incident's ``reconcile_production`` and ``delete_dangling``) and ``lesson3.practice``,
  loaded from their files; their tools go through the judge's ``execute_tool`` proxy;
- the course's public data (the tasks, cpA/cpB/cpC, the questions without their
  answers), computed by a throwaway process that did import lesson3 and sent it as JSON;
- every other name of lesson3 (the demos that start processes, the reference
  ``reconcile``, ``EXPECTED_ACTION``...) as a placeholder that says, when used, that it
  is not available while grading. Using a reference answer's placeholder inside a graded
  call is reported as delegation ("usaste la función de referencia").
"""

from __future__ import annotations

import ast
import builtins
import copy
import importlib.machinery
import importlib.util
import io
import linecache
import pkgutil
import sys
import types
import typing
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REAL_MODULES = ("checkpoint", "tools", "production", "practice", "conversation")
"""lesson3 modules the learner's process loads from their files: none holds an answer (in import order)."""

SOURCE_SHOWN = ("tools", "production", "practice", "conversation")
"""Real modules whose source ``inspect.getsource`` finds, as in Jupyter (the notebook prints the
incident's ``reconcile_production``); not checkpoint's, which holds the lesson's load_checkpoint."""

REFERENCE_NAMES = frozenset(
    {
        "reconcile",
        "STRATEGIES",
        "EXPECTED_ACTION",
        "lesson_reconcile",
        "resume_plan",
        "LAB_STRATEGIES",
        "run_agent",
    }
)
"""Names whose use in a graded call means "the learner passed the work to lesson3's answer"."""

OFFERED_CONSTANTS = {"lesson3.agent": ("MAX_TURNS", "CRASH_POINTS", "CRASH_POINT_LABELS")}
"""Constants of modules that do not load in the learner's process, offered as they are: the
lesson's numbers and labels, no answer (a submission may compare ``turns`` with ``MAX_TURNS``)."""


class DelegationError(RuntimeError):
    """La función de referencia de lesson3 no cuenta como respuesta del ejercicio."""


class Unavailable(RuntimeError):
    """Algo de lesson3 que no existe mientras se corrige (lanza procesos o es una respuesta)."""


fired: list[str] = []
"""Reference placeholders used during the current graded call (the runtime clears and reads it)."""
armed = False


class Placeholder:
    """Stands for a name of lesson3 that the learner's process does not have."""

    def __init__(self, label: str) -> None:
        self._label = label

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        if self._label.rsplit(".", 1)[-1] in REFERENCE_NAMES:
            if armed:
                fired.append(self._label)
            raise DelegationError(
                f"{self._label} es la solución de referencia de lesson3: no existe mientras se corrige "
                "(el ejercicio es escribirla)"
            )
        raise Unavailable(
            f"{self._label} no está disponible mientras se corrige tu entrega (el corrector no ejecuta "
            "demostraciones ni lanza procesos); úsalo en una celda con la etiqueta autograder-skip"
        )

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
        return f"<{self._label}: no disponible al corregir>"


def placeholder_label(value: object) -> str | None:
    """The lesson3 name ``value`` stands for, if it is a reference placeholder."""
    if isinstance(value, Placeholder) and value._label.rsplit(".", 1)[-1] in REFERENCE_NAMES:
        return value._label
    return None


class SurfaceModule(types.ModuleType):
    """A lesson3 module in the learner's process: what it offers, and placeholders for the rest."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return Placeholder(f"{self.__name__}.{name}")


@dataclass(frozen=True)
class PublicQuestion:
    """A question as the learner's process sees it: the prompt and the options, never the answer."""

    variable: str
    criterion: str
    points: float
    title: dict[str, str]
    prompt: dict[str, str]
    options: dict[str, dict[str, str]]
    answer: None = None
    explanation: dict[str, str] = field(default_factory=dict)


_PUBLIC_FIELDS = ("variable", "criterion", "points", "title", "prompt", "options")
"""What of a question crosses into the learner's process: never its answer, explanation or hint."""


def collect_public() -> dict[str, Any]:
    """The course data a learner may see (runs in a throwaway process that imports lesson3 for it)."""
    import lesson3
    from autograder.questions import QUESTIONS
    from lesson3.exercises import EXERCISE_NAMES, LESSON_FIELDS, exercise_checkpoints
    from lesson3.model import DEFAULT_MODEL, TASK_EMAIL, TASK_NOTES
    from lesson3.reconciliation import READ_ONLY_TOOLS, UNKNOWN_STATE_MESSAGE

    lesson3_dir = Path(importlib.util.find_spec("lesson3").origin or "").parent  # type: ignore[union-attr]
    return {
        "lesson3_dir": str(lesson3_dir),
        "all": list(lesson3.__all__),
        # repr, read back with ast.literal_eval: tuples stay tuples.
        "constants": {m: {n: repr(getattr(sys.modules[m], n)) for n in ns} for m, ns in OFFERED_CONSTANTS.items()},
        "exceptions": _exception_classes(),
        "modules": sorted(m.name for m in pkgutil.iter_modules([str(lesson3_dir)]) if not m.name.startswith("_")),
        "TASK_EMAIL": TASK_EMAIL,
        "TASK_NOTES": TASK_NOTES,
        "DEFAULT_MODEL": DEFAULT_MODEL,
        # The lesson's data, spelled out in its text and hints (not a function that answers).
        "READ_ONLY_TOOLS": sorted(READ_ONLY_TOOLS),
        "UNKNOWN_STATE_MESSAGE": UNKNOWN_STATE_MESSAGE,
        "EXERCISE_NAMES": list(EXERCISE_NAMES),
        "LESSON_FIELDS": LESSON_FIELDS,
        "checkpoints": exercise_checkpoints(),
        "questions": {variable: {f: getattr(q, f) for f in _PUBLIC_FIELDS} for variable, q in QUESTIONS.items()},
    }


def _exception_classes() -> dict[str, list[list[str]]]:
    """The exception classes of the lesson3 modules imported so far that the learner's process does not load.

    Module -> ``[name, base module, base name, docstring]``: an exception holds no answer, and a
    submission may raise or catch one (``except ReconcileError``), as it would in Jupyter.
    """
    found: dict[str, list[list[str]]] = {}
    for module_name, module in sorted(sys.modules.items()):
        if not module_name.startswith("lesson3.") or module_name.removeprefix("lesson3.") in REAL_MODULES:
            continue
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == module_name:
                base = value.__bases__[0]
                entry = [name, base.__module__, base.__qualname__, value.__doc__ or ""]
                found.setdefault(module_name, []).append(entry)
    return found


def install(public: dict[str, Any]) -> None:
    """Put the learner's lesson3 (and autograder.questions) in ``sys.modules``, before any learner code."""
    lesson3_dir = Path(public["lesson3_dir"])
    package = _module("lesson3", "Lección 3 (al corregir: sin las respuestas de referencia).")
    package.__path__ = []  # nothing more is imported from disk under this name
    # lesson3's own files (the course's notes, the offline web corpus) for importlib.resources, from memory.
    package.__spec__ = importlib.machinery.ModuleSpec("lesson3", _PackageData(lesson3_dir / "data"), is_package=True)
    for name in REAL_MODULES:
        _load(f"lesson3.{name}", lesson3_dir / f"{name}.py")
    for name in SOURCE_SHOWN:
        keep_source(lesson3_dir / f"{name}.py")
    global _lesson3_run_tool
    _lesson3_run_tool = package.tools.run_tool
    checkpoints = public["checkpoints"]
    names = tuple(public["EXERCISE_NAMES"])

    def exercise_checkpoint(name: str) -> dict[str, Any]:
        """Una copia nueva de ``cpA``, ``cpB`` o ``cpC`` (se puede modificar sin miedo)."""
        if name not in checkpoints:
            raise KeyError(f"no hay un punto de control de ejercicio llamado «{name}»; hay {', '.join(names)}")
        return copy.deepcopy(checkpoints[name])

    def exercise_checkpoints() -> dict[str, dict[str, Any]]:
        return {name: exercise_checkpoint(name) for name in names}

    tasks = {"TASK_EMAIL": public["TASK_EMAIL"], "TASK_NOTES": public["TASK_NOTES"]}
    _module(
        "lesson3.exercises",
        "Los puntos de control de los ejercicios (cpA, cpB, cpC).",
        **tasks,  # lesson3.exercises imports them, so `from lesson3.exercises import TASK_EMAIL` works in Jupyter
        EXERCISE_NAMES=names,
        LESSON_FIELDS=copy.deepcopy(public["LESSON_FIELDS"]),
        exercise_checkpoint=exercise_checkpoint,
        exercise_checkpoints=exercise_checkpoints,
    )
    doc = "Las tareas del curso (el modelo no corre al corregir)."
    _module("lesson3.model", doc, **tasks, DEFAULT_MODEL=public["DEFAULT_MODEL"])
    lesson_data = {
        "READ_ONLY_TOOLS": frozenset(public["READ_ONLY_TOOLS"]),
        "UNKNOWN_STATE_MESSAGE": public["UNKNOWN_STATE_MESSAGE"],
    }
    _module(
        "lesson3.reconciliation",
        "Solo las jugadas equivocadas: la regla de la lección es tu ejercicio.",
        reconcile_production=package.production.reconcile_production,
        delete_dangling=package.production.delete_dangling,
        **lesson_data,
    )
    # Every other module of lesson3 can be imported and says what it is when used (demos, processes, answers).
    for name in public["modules"]:
        if f"lesson3.{name}" not in sys.modules:
            _module(f"lesson3.{name}", "No disponible al corregir (lanza procesos o usa las respuestas).")
    for module_name, constants in public["constants"].items():
        sys.modules[module_name].__dict__.update({n: ast.literal_eval(v) for n, v in constants.items()})
    for module_name, classes in public["exceptions"].items():
        for name, base_module, base_name, doc in classes:
            base = getattr(builtins if base_module == "builtins" else sys.modules.get(base_module), base_name, None)
            if isinstance(base, type) and issubclass(base, BaseException):
                error = type(name, (base,), {"__doc__": doc, "__module__": module_name})
                setattr(sys.modules[module_name], name, error)
    for source in (package.checkpoint, package.tools, package.production):
        for attr, value in vars(source).items():
            if not attr.startswith("_") and not isinstance(value, types.ModuleType):
                package.__dict__.setdefault(attr, value)
    package.__dict__.update(**tasks, **lesson_data)
    # lesson3's own export list: `from lesson3 import *` binds what it binds in Jupyter, and
    # `lesson3.MAX_TURNS` finds the agent's constant (the reference answers stay placeholders).
    package.__all__ = list(public["all"])
    modules = [vars(m) for n, m in sorted(sys.modules.items()) if n.startswith("lesson3.")]
    for attr in set(package.__all__) - set(package.__dict__) - REFERENCE_NAMES:
        found = [contents[attr] for contents in modules if attr in contents]
        if found:
            package.__dict__[attr] = found[0]
    questions = types.ModuleType("autograder.questions", "Las preguntas, sin sus respuestas (se corrigen afuera).")
    questions.__dict__.update(
        Question=PublicQuestion,
        QUESTIONS={v: PublicQuestion(**q) for v, q in public["questions"].items()},
    )
    sys.modules["autograder.questions"] = questions
    import autograder

    autograder.questions = questions  # type: ignore[attr-defined]


def keep_source(path: Path) -> None:
    """Read ``path`` into linecache now, before Landlock hides it, for ``inspect.getsource``.

    Without an mtime, linecache.checkcache keeps the lines even where the learner's uid cannot
    stat the file afterwards (a course checkout in a private home folder, graded as root)."""
    lines = linecache.getlines(str(path))
    linecache.cache[str(path)] = (sum(map(len, lines)), None, lines, str(path))


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


class _PackageData:
    """The loader of the learner's lesson3 package: only ``importlib.resources.files("lesson3")``.

    The files under ``data/`` are read once, in the zygote (Landlock hides lesson3/ from the
    learner afterwards), into an in-memory zip: public course material (the workspace's notes,
    the offline web corpus), which ``create_workspace`` and ``web_search`` read as in Jupyter.
    """

    def __init__(self, data: Path) -> None:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for path in sorted(data.rglob("*")):
                if path.is_file():
                    archive.writestr(str(Path("data") / path.relative_to(data)), path.read_bytes())
        self._zip = buffer.getvalue()

    def get_resource_reader(self, name: str) -> _PackageData:
        return self

    def files(self) -> zipfile.Path:
        return zipfile.Path(zipfile.ZipFile(io.BytesIO(self._zip)))


def _module(name: str, doc: str, **contents: Any) -> types.ModuleType:
    """A lesson3 module of the learner's process, holding ``contents``, in ``sys.modules``."""
    module = SurfaceModule(name, doc)
    module.__package__ = "lesson3"
    module.__dict__.update(contents)
    return _register(name, module)


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - the file is part of this package
        raise ImportError(f"cannot load {name} from {path}")
    module = _register(name, importlib.util.module_from_spec(spec))
    spec.loader.exec_module(module)
    return module


def _register(name: str, module: types.ModuleType) -> types.ModuleType:
    """In ``sys.modules`` and, as Python's import does, on its package: ``import lesson3.x`` then ``lesson3.x.y``."""
    sys.modules[name] = module
    package, _, child = name.rpartition(".")
    if package:
        setattr(sys.modules[package], child, module)
    return module
