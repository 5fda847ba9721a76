"""Copies in a class: each learner's graded functions compared with lesson3's reference and with every other learner's.

Two functions are compared by their structure, not their text: each is parsed, its docstring
dropped, the names it binds itself (parameters, variables, loop targets) made one placeholder,
and every subtree of its syntax hashed with the statements of a block taken as a set, so
renamed variables, reordered branches or statements, comments and whitespace leave it as it
was. A function's fingerprint is the multiset of those hashes, less what the course's own starter
code for it already holds (every learner starts from it). Two fingerprints' similarity is their
weighted Jaccard index: the share of subtrees they have in common. Each graded function is
compared with the same function of every other learner, and with each of lesson3's functions that
implement a graded answer, whatever the learner called theirs.

A flag is information for a person, never a verdict: it names the other learner (or lesson3's
function) and how alike the two are, and changes no grade. Short code is not compared: there are
few ways to write ``return "continue"``, so honest learners would be flagged for agreeing.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

SIMILAR = 0.9
"""From this share of common subtrees on, two learners' code is flagged as a copy."""
MIN_SUBTREES = 15
"""A function with fewer subtrees than this (once the starter code is out) is too short to tell a copy."""
REFERENCE = "lesson3"
"""The ``other`` of a flag raised against lesson3's own code."""

_BLOCKS = ("body", "orelse", "finalbody", "handlers")


Fingerprint = dict[str, frozenset[tuple[bytes, int]]]
"""A learner's graded functions by name, each as its set of subtree identities (the ``k``-th equal one apart)."""


@dataclass(frozen=True)
class Flag:
    """Learner ``learner``'s ``function`` is ``similarity`` alike to ``other``'s: another learner (their index) or
    lesson3 (``lesson3.<module>.<function>``)."""

    learner: int
    function: str
    other: int | str
    similarity: float


def functions_in(source: str, names: Iterable[str]) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The function each of ``names`` is bound to at the top of ``source``: its last ``def``, or a plain alias of
    another function (as Python runs it: the last binding wins)."""
    wanted = set(names)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    defined: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defined[node.name] = node
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in defined:
            for target in node.targets:  # ``reconcile = mi_version``: the graded name is that function
                if isinstance(target, ast.Name):
                    defined[target.id] = defined[node.value.id]
    return {name: function for name, function in defined.items() if name in wanted}


def _bound_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names the function binds itself: renaming any of them changes nothing of what it does."""
    args = function.args
    bound = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not function:
            bound.add(node.name)
    return bound


_NEGATED = {"NotIn": "In", "IsNot": "Is", "NotEq": "Eq"}
"""A test and its negation are one: with an ``if``'s two branches taken as a pair, swapping them hides nothing."""


def _label(node: ast.AST, bound: set[str]) -> str:
    if type(node).__name__ in _NEGATED:
        return _NEGATED[type(node).__name__]
    if isinstance(node, ast.Name):
        return "V" if node.id in bound else f"N:{node.id}"
    if isinstance(node, ast.arg):
        return "A"
    if isinstance(node, ast.Attribute):
        return f"attr:{node.attr}"
    if isinstance(node, ast.Constant):
        return f"C:{type(node.value).__name__}:{node.value!r}"
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return type(node).__name__  # its own name is bound, and the outermost one's is the criterion's
    if isinstance(node, ast.keyword):
        return f"kw:{node.arg}"
    return type(node).__name__


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    is_doc = (
        isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
    )
    return body[1:] if is_doc else body


def _subtrees(node: ast.AST, bound: set[str], into: Counter[bytes]) -> tuple[bytes, int]:
    """``node``'s hash and size; every subtree of two nodes or more counted in ``into``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner, size = _subtrees(node.operand, bound, into)  # ``not x`` is ``x``: see _NEGATED
        return inner, size
    parts: list[bytes] = [_label(node, bound).encode()]
    branches = isinstance(node, (ast.If, ast.IfExp))
    size = 1
    for name, value in ast.iter_fields(node):
        if name in ("ctx", "type_comment"):
            continue
        # An if's two branches go unnamed and, below, as a pair in either order.
        tag = b"branch" if branches and name in ("body", "orelse") else name.encode()
        if isinstance(value, list):
            items = _without_docstring(value) if name == "body" else value
            children = [_subtrees(v, bound, into) for v in items if isinstance(v, ast.AST)]
            size += sum(s for _, s in children)
            hashes = [h for h, _ in children]
            # A block's statements and an except's handlers as a set: reordering them hides nothing.
            parts.append(tag + b"[" + b",".join(sorted(hashes) if name in _BLOCKS else hashes) + b"]")
        elif isinstance(value, ast.AST):
            child, child_size = _subtrees(value, bound, into)
            size += child_size
            parts.append(tag + b"=" + child)
    if branches:
        parts[2:] = sorted(parts[2:])
    digest = hashlib.blake2b(b"|".join(parts), digest_size=8).digest()
    if size > 1:
        into[digest] += 1
    return digest, size


def subtree_counts(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Counter[bytes]:
    counts: Counter[bytes] = Counter()
    _subtrees(function, _bound_names(function), counts)
    return counts


def fingerprint(source: str, names: Sequence[str], starter: Mapping[str, Counter[bytes]] | None = None) -> Fingerprint:
    """The fingerprint of the graded functions ``names`` that ``source`` defines, the ``starter``'s subtrees taken out.

    ``starter``: per function name, the subtrees of the course's own version of it (:func:`starter_counts`)."""
    found: Fingerprint = {}
    for name, function in functions_in(source, names).items():
        counts = subtree_counts(function)
        if starter and name in starter:
            counts -= starter[name]
        found[name] = frozenset((h, k) for h, n in counts.items() for k in range(n))
    return found


def stored(fingerprint_: Fingerprint) -> dict[str, list[str]]:
    """A fingerprint as results.json keeps it: per function, its subtrees' hashes in hex (a repeated one repeated)."""
    return {name: sorted(h.hex() for h, _ in features) for name, features in sorted(fingerprint_.items())}


def restored(raw: Mapping[str, Sequence[str]]) -> Fingerprint:
    """:func:`stored`'s inverse (a hash that is not hex is left out: the record is the grader's, but read back)."""
    found: Fingerprint = {}
    for name, hashes in raw.items():
        counts = Counter(h for h in hashes if isinstance(h, str) and len(h) == 16)
        with contextlib.suppress(ValueError):
            found[name] = frozenset((bytes.fromhex(h), k) for h, n in counts.items() for k in range(n))
    return found


def starter_counts(source: str, names: Sequence[str]) -> dict[str, Counter[bytes]]:
    """The subtrees of each graded function as the course hands it out (what every learner starts from)."""
    return {name: subtree_counts(f) for name, f in functions_in(source, names).items()}


def similarity(a: frozenset[tuple[bytes, int]], b: frozenset[tuple[bytes, int]]) -> float:
    """The share of two functions' subtrees they have in common (weighted Jaccard), 0 to 1."""
    common = len(a & b)
    union = len(a) + len(b) - common
    return common / union if union else 0.0


def flags(
    learners: Sequence[Fingerprint],
    references: Mapping[str, frozenset[tuple[bytes, int]]] | None = None,
    *,
    threshold: float = SIMILAR,
    min_size: int = MIN_SUBTREES,
) -> list[Flag]:
    """Each graded function of a learner at least ``threshold`` alike to the same function of another learner (both
    are flagged) or to any of ``references`` (lesson3's functions, by label, whatever the learner named theirs);
    a function too short to tell (``min_size`` subtrees once the starter code is out) is not compared.

    Identical functions are found by grouping, not pairwise; only the rest are compared pair by pair, on C-speed
    set operations (a class of 500: ``bench/bench_similarity.py``)."""
    refs = {label: ref for label, ref in (references or {}).items() if len(ref) >= min_size}
    found: list[Flag] = []
    names = sorted({name for fp in learners for name in fp})
    for name in names:
        groups: dict[frozenset[tuple[bytes, int]], list[int]] = {}
        for i, fp in enumerate(learners):
            if len(fp.get(name, ())) >= min_size:
                groups.setdefault(fp[name], []).append(i)
        distinct = list(groups.items())
        for features, members in distinct:
            for label, ref in refs.items():
                if (alike := similarity(features, ref)) >= threshold:
                    found += [Flag(i, name, label, round(alike, 3)) for i in members]
            found += [Flag(i, name, j, 1.0) for i in members for j in members if j != i]
        for x, (a, members_a) in enumerate(distinct):
            for b, members_b in distinct[x + 1 :]:
                small, large = sorted((len(a), len(b)))
                if small < threshold * large:  # so different in size that they cannot reach the threshold
                    continue
                if (alike := similarity(a, b)) >= threshold:
                    pairs = [(i, j) for i in members_a for j in members_b]
                    found += [Flag(i, name, j, round(alike, 3)) for i, j in pairs]
                    found += [Flag(j, name, i, round(alike, 3)) for i, j in pairs]
    return sorted(found, key=lambda f: (f.learner, f.function, -f.similarity, str(f.other)))


LESSON3 = Path(__file__).resolve().parents[2] / "lesson3"
"""lesson3's files, beside the grader's package (a checkout, or both installed from one wheel)."""


def lesson3_references() -> dict[str, frozenset[tuple[bytes, int]]]:
    """lesson3's functions that implement a graded answer, each by its label (``lesson3.answers.reconcile``).

    The same list the guard protects: every function of :mod:`lesson3.answers` and
    :data:`lesson3.exercises.NOT_REUSABLE`'s. Read from lesson3's files, never imported: importing them
    would load lesson3's agent and the SDK into the grader's process, which only reports."""
    exercises = ast.parse((LESSON3 / "exercises.py").read_text(encoding="utf-8"))
    protected: dict[str, str] = next(
        ast.literal_eval(node.value)
        for node in exercises.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        and node.value is not None
        and any(isinstance(t, ast.Name) and t.id == "NOT_REUSABLE" for t in getattr(node, "targets", [node.target]))
    )
    answers = ast.parse((LESSON3 / "answers.py").read_text(encoding="utf-8"))
    own = [f"lesson3.answers.{n.name}" for n in answers.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    found: dict[str, frozenset[tuple[bytes, int]]] = {}
    for label in [*own, *protected]:
        module, _, name = label.rpartition(".")
        source = (LESSON3 / f"{module.removeprefix('lesson3.')}.py").read_text(encoding="utf-8")
        found[label] = fingerprint(source, [name]).get(name, frozenset())
    return found


STARTER = Path(__file__).resolve().parents[2] / "notebooks" / "04_ejercicios.ipynb"
"""The notebook every learner starts from, in the instructor's checkout (an installed grader has none)."""


def course_starter(names: Sequence[str]) -> dict[str, Counter[bytes]] | None:
    """The starter's graded functions (:func:`starter_counts`), or None where the course's notebook is not here."""
    from autograder.intake.submission import SubmissionError, load_submission

    try:
        cells = load_submission(STARTER).cells
    except (OSError, SubmissionError):
        return None
    return starter_counts("\n".join(cell.source for cell in cells), names)
