"""Does the submission hand its work to lesson3's reference answers?

Two layers. At run time (:mod:`autograder.learner.runner`) lesson3's reference objects are
replaced, inside the learner's process, by wrappers that notice a graded call using
them; that layer lives where the learner could tamper with it, so this module adds a
static one the learner cannot touch: it reads the submission's source and follows what
``resume_action`` and ``reconcile`` reference (helpers included) back to lesson3's
reference answers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from autograder.intake.submission import parse

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
    return next(filter(None, (_node_reference(sub, bindings) for sub in _module_level_names(node, frozenset()))), None)


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
    for node in _module_level_names(fn, frozenset()):
        if label := _node_reference(node, bindings) or _imported_reference(node):
            return label
        if isinstance(node, ast.Name) and node.id in functions and node.id not in seen and node is not fn:
            seen.add(node.id)
            if label := _reaches(functions[node.id], bindings, functions, seen):
                return label
    return None


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _module_level_names(node: ast.AST, hidden: frozenset[str]) -> Iterable[ast.AST]:
    """Every node under ``node``, except the names a function's parameter or local variable hides.

    ``start_state(task, path, reconcile)`` calls its *parameter*, not a ``reconcile`` imported
    from lesson3 at module level; defaults, decorators and annotations are evaluated outside the
    function, so they see the module's names.
    """
    if isinstance(node, ast.Name) and node.id in hidden:
        return
    yield node
    if not isinstance(node, _SCOPES):
        for child in ast.iter_child_nodes(node):
            yield from _module_level_names(child, hidden)
        return
    arguments = node.args
    outside = [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]
    if not isinstance(node, ast.Lambda):
        outside += [*node.decorator_list, *(a.annotation for a in _parameters(node) if a.annotation)]
        outside += [node.returns] if node.returns else []
    for part in outside:
        yield from _module_level_names(part, hidden)
    inner = hidden | _locals(node)
    for part in node.body if isinstance(node.body, list) else [node.body]:
        yield from _module_level_names(part, inner)


def _parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[ast.arg]:
    arguments = fn.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return [a for a in every if a is not None]


def _locals(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    """The names local to a function: its parameters and what its own body assigns.

    Names a function imports are left out: an import inside the function is itself looked at
    (:func:`_imported_reference`), and hiding it would hide ``lesson3`` from ``lesson3.reconcile``.
    """
    names = {a.arg for a in _parameters(fn)}
    declared: set[str] = set()
    pending: list[ast.AST] = list(fn.body) if isinstance(fn.body, list) else [fn.body]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (*_SCOPES, ast.ClassDef)):
            names.add(getattr(node, "name", ""))  # its body is a scope of its own
            continue
        elif isinstance(node, _COMPREHENSIONS):
            # Its loop variables are its own; only a walrus inside binds in the function.
            names.update(n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr))
            continue
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
        pending.extend(ast.iter_child_nodes(node))
    return frozenset(names - declared)


def _imported_reference(node: ast.AST) -> str | None:
    """A reference answer imported inside a function (``from lesson3 import reconcile`` in its body)."""
    if isinstance(node, ast.ImportFrom) and not node.level and _is_lesson3(node.module or ""):
        module = node.module or ""
        for alias in node.names:
            if alias.name in _REFERENCE_NAMES.get(module, ()):
                return f"{module}.{alias.name}"
    return None
