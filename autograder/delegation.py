"""¿La entrega le pasa el trabajo a la solución de referencia de lesson3?

Two layers. At run time (:mod:`autograder.runtime`) lesson3's reference objects are
replaced, inside the learner's process, by wrappers that notice a graded call using
them; that layer lives where the learner could tamper with it, so this module adds a
static one the learner cannot touch: it reads the submission's source and follows what
``resume_action`` and ``reconcile`` reference (helpers included) back to lesson3's
reference answers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .submission import parse

_REFERENCE = {"reconcile", "reconcile_production", "delete_dangling", "STRATEGIES"}
_REFERENCE_NAMES: dict[str, set[str]] = {
    "lesson3": {*_REFERENCE, "load_checkpoint"},
    "lesson3.reconciliation": _REFERENCE,
    "lesson3.exercises": {"EXPECTED_ACTION"},
    "lesson3.checkpoint": {"load_checkpoint"},
    "lesson3.crash": {"STRATEGIES"},
    "lesson3.agent": {"lesson_reconcile"},
}
"""Module -> the attributes whose use counts as delegation (labelled ``module.attribute``)."""

_SUBMODULES = {"agent", "checkpoint", "crash", "exercises", "model", "reconcile", "tools"}

TARGETS = ("my_load_checkpoint", "start_state", "resume_action", "reconcile")

_MODULE = "module:"


def static_delegation(sources: Iterable[str]) -> dict[str, str]:
    """Which of the exercise functions (:data:`TARGETS`) reach a reference object, and which one.

    ``sources`` are the submission's cells in order (the ones that compile).
    Returns ``{"reconcile": "lesson3.reconcile", ...}``.
    """
    bindings: dict[str, str] = {}  # name -> "module:lesson3.x" or a reference label
    functions: dict[str, ast.AST] = {}
    for source in sources:
        try:
            tree = parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for stmt in _top_level(tree.body):
            _bind(stmt, bindings, functions)
    found: dict[str, str] = {}
    for target in TARGETS:
        if target in bindings and not bindings[target].startswith(_MODULE):
            found[target] = bindings[target]
        elif target in functions and (label := _reaches(functions[target], bindings, functions, seen=set())):
            found[target] = label
    return found


def _top_level(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    """Module-level statements, looking inside if/try/with blocks (they run at import too)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.With, ast.AsyncWith)):
            yield from _top_level(stmt.body)
            yield from _top_level(getattr(stmt, "orelse", []))
        elif isinstance(stmt, ast.Try):
            for part in (stmt.body, stmt.orelse, stmt.finalbody, *[h.body for h in stmt.handlers]):
                yield from _top_level(part)


def _bind(stmt: ast.stmt, bindings: dict[str, str], functions: dict[str, ast.AST]) -> None:
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if not _is_lesson3(alias.name):
                continue
            if alias.asname:
                bindings[alias.asname] = _MODULE + alias.name
            else:
                bindings[alias.name.split(".")[0]] = _MODULE + "lesson3"
    elif isinstance(stmt, ast.ImportFrom):
        module = stmt.module or ""
        if stmt.level or not _is_lesson3(module):
            for alias in stmt.names:
                bindings.pop(alias.asname or alias.name, None)
            return
        for alias in stmt.names:
            if alias.name == "*":
                for name in _REFERENCE_NAMES.get(module, ()):
                    bindings[name] = f"{module}.{name}"
                continue
            bound = alias.asname or alias.name
            if alias.name in _REFERENCE_NAMES.get(module, ()):
                bindings[bound] = f"{module}.{alias.name}"
            elif module == "lesson3" and alias.name in _SUBMODULES:
                bindings[bound] = _MODULE + f"lesson3.{alias.name}"
            else:
                bindings.pop(bound, None)
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        functions[stmt.name] = stmt
        bindings.pop(stmt.name, None)
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        label = _expression_reference(stmt.value, bindings) if stmt.value is not None else None
        for target in targets:
            for name in _names(target):
                functions.pop(name, None)
                if label:
                    bindings[name] = label
                else:
                    bindings.pop(name, None)


def _names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _names(elt)]
    return []


def _is_lesson3(module: str) -> bool:
    return module == "lesson3" or module.startswith("lesson3.")


def _expression_reference(node: ast.AST, bindings: dict[str, str]) -> str | None:
    """The reference label an expression touches (``dict(EXPECTED_ACTION)``, ``lesson3.reconcile``)."""
    return next(filter(None, (_node_reference(sub, bindings) for sub in ast.walk(node))), None)


def _node_reference(node: ast.AST, bindings: dict[str, str]) -> str | None:
    if isinstance(node, ast.Name) and node.id in bindings and not bindings[node.id].startswith(_MODULE):
        return bindings[node.id]
    if isinstance(node, ast.Attribute):
        chain = []
        base: ast.AST = node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if not (isinstance(base, ast.Name) and bindings.get(base.id, "").startswith(_MODULE)):
            return None
        module = bindings[base.id][len(_MODULE) :]
        for attr in reversed(chain):
            if attr in _REFERENCE_NAMES.get(module, ()):
                return f"{module}.{attr}"
            if module == "lesson3" and attr in _SUBMODULES:
                module = f"lesson3.{attr}"
                continue
            return None
    return None


def _reaches(fn: ast.AST, bindings: dict[str, str], functions: dict[str, ast.AST], seen: set[str]) -> str | None:
    """Walk a function's body, and the module-level helpers it names, looking for a reference."""
    for node in ast.walk(fn):
        if label := _node_reference(node, bindings):
            return label
        if isinstance(node, ast.Name) and node.id in functions and node.id not in seen and node is not fn:
            seen.add(node.id)
            if label := _reaches(functions[node.id], bindings, functions, seen):
                return label
    return None
