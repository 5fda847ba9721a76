"""Delegation: what of lesson3 a graded function may not use, and how that is explained.

What no graded function may call is one list: every name of :mod:`lesson3.answers` and
:data:`lesson3.exercises.NOT_REUSABLE`. Whether it was called is recorded at run time,
inside the learner's process, by the function itself (:mod:`autograder.learner.lesson3_view`):
whatever name reached it. That record is what scores. This module explains it: it reads the
submission's source and follows what each graded function references (helpers included)
back to lesson3, so the feedback can name the object as the learner spelled it
(:func:`static_delegation`), and it says what the object is (:func:`explained`).
"""

from __future__ import annotations

import ast
import functools
import pkgutil
from collections.abc import Iterable

import lesson3
from autograder.intake.submission import parse
from autograder.wire.calls import FUNCTIONS, TAMPERED

ANSWER = "answer"
"""The kind of every name of lesson3.answers (the others' kinds are NOT_REUSABLE's)."""

_MODULE = "module:"


@functools.cache
def kinds() -> dict[str, str]:
    """A name of lesson3 a graded function may not use -> what it is (the one list, read where it lives).

    Read on first use, in the judge: lesson3.exercises loads the agent and the SDK, which the
    grader's own process, importing this module, never does."""
    import lesson3.answers
    from lesson3.exercises import NOT_REUSABLE

    return {
        **{name: ANSWER for name in lesson3.answers.__all__},
        **{label.rpartition(".")[2]: kind for label, kind in NOT_REUSABLE.items()},
    }


@functools.cache
def _submodules() -> frozenset[str]:
    return frozenset(m.name for m in pkgutil.iter_modules(lesson3.__path__))


def _forbidden(module: str, attr: str) -> bool:
    """``module.attr`` is one of lesson3's objects no graded function may use."""
    return _is_lesson3(module) and attr in kinds()


def explained(called: str, spelled: str | None) -> tuple[str, str]:
    """The name to show for what a graded function called, and the catalogue key of the feedback.

    ``called`` is what the run-time record says ran; ``spelled`` what the source names (when
    the source says where it reaches the same object, the learner's own spelling is shown).
    """
    if called == TAMPERED:
        return called, "call.tampered"
    name = called.rpartition(".")[2]
    if spelled and spelled.rpartition(".")[2] == name:
        called = spelled
    kind = kinds().get(name, ANSWER)
    return called, ("call.delegated" if kind == ANSWER else f"call.reused.{kind}")


def static_delegation(sources: Iterable[str]) -> dict[str, str]:
    """Which graded functions (:data:`autograder.wire.calls.FUNCTIONS`) reach one of those objects in their source.

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
    for target in FUNCTIONS:
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
                for name in kinds():
                    bindings[name] = f"{module}.{name}"
                continue
            bound = alias.asname or alias.name
            if _forbidden(module, alias.name):
                bindings[bound] = f"{module}.{alias.name}"
            elif module == "lesson3" and alias.name in _submodules():
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
    """The label of a forbidden object an expression touches (``dict(EXPECTED_ACTION)``, ``lesson3.reconcile``)."""
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
            if _forbidden(module, attr):
                return f"{module}.{attr}"
            if module == "lesson3" and attr in _submodules():
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
            if _forbidden(module, alias.name):
                return f"{module}.{alias.name}"
    return None
