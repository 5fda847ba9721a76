"""Every call a notebook's text tells the learner to type works, in that notebook's kernel.

A Markdown code span such as `pista("nivel1.hidden")` or `print(hint(level1_hints, 1))`
is an invitation to type it in a new cell. This test runs the notebook top to bottom and
then each such call, in the same kernel, as a learner would.

A span counts as a call to type when it parses as one call whose function is a learner's
helper (``check``, ``pista``, the ``lesson3.practice`` helpers) or something the notebook
itself defines, and whose arguments are literals or names the notebook defines. Spans that
describe an API (`execute_tool(name, input)`, `client.messages.create()`) are not typed as is.
"""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import nbformat
import pytest

import autograder
from lesson3 import practice
from lesson3.build_notebooks import KERNELSPEC, default_notebooks_dir, targets

NOTEBOOKS = default_notebooks_dir()
HELPERS = set(autograder.__all__) | {
    n for n in dir(practice) if not n.startswith("_") and callable(getattr(practice, n))
}
SPAN = re.compile(r"`([^`\n]+)`")
RESULT = "__calls_to_type__"


def defined_at_top_level(code_cells: list[str]) -> set[str]:
    """Names the notebook's own cells bind at top level (definitions and assignments, not imports)."""
    names: set[str] = set()
    for source in code_cells:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets_ = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {n.id for t in targets_ for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _argument_ok(node: ast.expr, known: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in known
    if isinstance(node, ast.Call):
        return _is_call_to_type(node, known)
    try:
        ast.literal_eval(node)
    except ValueError:
        return False
    return True


def _is_call_to_type(call: ast.Call, known: set[str]) -> bool:
    func = call.func
    if not isinstance(func, ast.Name):
        return False
    if func.id == "print":
        # print(x) alone invites nothing; print(hint(level1_hints, 1)) does.
        inner = call.args[0] if len(call.args) == 1 else None
        return isinstance(inner, ast.Call) and not call.keywords and _is_call_to_type(inner, known)
    if func.id not in HELPERS | known:
        return False
    if func.id not in HELPERS and not (call.args or call.keywords):
        return False  # `reconcile()` in prose names the function, as the lesson writes `loadCheckpoint()`
    return all(_argument_ok(a, known) for a in [*call.args, *(k.value for k in call.keywords)])


def calls_to_type(markdown: list[str], code_cells: list[str]) -> list[str]:
    known = defined_at_top_level(code_cells)
    found: list[str] = []
    for text in markdown:
        for span in SPAN.findall(text):
            if "..." in span or "…" in span:
                continue
            try:
                tree = ast.parse(span.strip(), mode="eval")
            except SyntaxError:
                continue
            if isinstance(tree.body, ast.Call) and _is_call_to_type(tree.body, known):
                if span.strip() not in found:
                    found.append(span.strip())
    return found


def test_the_extraction_finds_the_invitations_and_skips_descriptions() -> None:
    code = ["level1_hints = ()\n", "def resume_action(cp):\n    return 1\n"]
    md = [
        'Usa `pista("nivel1.hidden")` o `print(hint(level1_hints, 1))`; también `check(level=2)` y `check(...)`.',
        "El bucle llama a `client.messages.create()` y a `execute_tool(name, input)`; `resume_action(cp)`.",
        "`load_checkpoint()` es de lesson3; `print(x)` no invita a nada; `resume_action()` es un nombre.",
    ]
    assert calls_to_type(md, code) == ['pista("nivel1.hidden")', "print(hint(level1_hints, 1))", "check(level=2)"]
    assert not hasattr(builtins, "pista")


NOTEBOOK_TARGETS = [t for t in targets(NOTEBOOKS) if t.version == "learner"]


def _cases() -> list[tuple[Path, list[str]]]:
    cases = []
    for target in NOTEBOOK_TARGETS:
        nb = nbformat.read(target.path, as_version=4)
        markdown = [c.source for c in nb.cells if c.cell_type == "markdown"]
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        calls = calls_to_type(markdown, code)
        if calls:
            cases.append((target.path, calls))
    return cases


@pytest.mark.slow  # each notebook's calls run in a kernel: seconds each
@pytest.mark.parametrize(("path", "calls"), _cases(), ids=lambda v: v.name if isinstance(v, Path) else "")
def test_every_call_the_text_tells_the_learner_to_type_runs(path: Path, calls: list[str]) -> None:
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    probe = "\n".join(
        [
            f"{RESULT} = []",
            *(
                f"try:\n    {call}\n    {RESULT}.append(({call!r}, None))\n"
                f"except NotImplementedError:\n    {RESULT}.append(({call!r}, None))  # not written yet: fine\n"
                f"except Exception as e:\n    {RESULT}.append(({call!r}, f'{{type(e).__name__}}: {{e}}'))"
                for call in calls
            ),
            f"print({RESULT})",
        ]
    )
    nb.cells.append(nbformat.v4.new_code_cell(probe))
    NotebookClient(
        nb, timeout=300, kernel_name=KERNELSPEC["name"], resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
    results = ast.literal_eval(printed.strip().splitlines()[-1])
    assert [r for r in results if r[1] is not None] == []
    assert [r[0] for r in results] == calls
