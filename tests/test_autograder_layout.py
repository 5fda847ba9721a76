"""The process boundaries in the layout: who imports whom, at module level, in autograder/."""

from __future__ import annotations

import ast
from pathlib import Path

import autograder

PACKAGE = Path(autograder.__file__).parent

LEARNER_SIDE = {
    "learner_zygote",
    "zygote",
    "lockdown",
    "runtime",
    "learner_lesson3",
    "limits",
    "protocol",
    "confine",
    "imports",
}
"""What the learner's process is made of (its zygote preloads these and nothing of the judge's)."""
JUDGE_SIDE = {"sandbox", "session", "judge_process", "checks", "observe", "judges", "scenarios", "effects", "pipeline"}


def module_imports(*, lazy: bool = False) -> dict[str, set[str]]:
    """Module -> the autograder modules it imports at module level (and inside functions when ``lazy``)."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree) if lazy else tree.body:
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("autograder."):
                found.add(node.module.split(".")[1])
        graph[path.stem] = found
    return graph


def test_no_import_cycle_in_the_grader():
    graph = module_imports()
    visiting: list[str] = []
    done: set[str] = set()

    def visit(module: str) -> None:
        assert module not in visiting, " -> ".join([*visiting[visiting.index(module) :], module])
        if module in done:
            return
        visiting.append(module)
        for target in graph.get(module, ()):
            visit(target)
        visiting.pop()
        done.add(module)

    for module in graph:
        visit(module)


def test_the_judge_and_its_zygote_never_import_the_graders_pipeline():
    graph = module_imports(lazy=True)
    for module in ("forkserver", "judge_process", "session", "sandbox"):
        assert "pipeline" not in graph[module], module


def test_the_learners_side_never_imports_the_judges():
    graph = module_imports(lazy=True)
    for module in LEARNER_SIDE:
        reached, stack = set(), [module]
        while stack:
            for target in graph.get(stack.pop(), ()):
                if target not in reached:
                    reached.add(target)
                    stack.append(target)
        assert not reached & JUDGE_SIDE, (module, sorted(reached & JUDGE_SIDE))


def lesson3_private_names(source: str) -> list[str]:
    """The ``_private`` names of lesson3 that a module's source reaches (dunders are public)."""
    tree = ast.parse(source)
    modules: set[str] = set()
    found: list[str] = []

    def private(dotted: str) -> bool:
        return any(part.startswith("_") and not part.endswith("__") for part in dotted.split("."))

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "lesson3":
            found += [f"{node.module}.{a.name}" for a in node.names if private(f"{node.module}.{a.name}")]
            modules.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "lesson3":
                    found += [alias.name] if private(alias.name) else []
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in modules:
                found.append(f"{root.id}….{node.attr}")
    return found


def test_the_grader_reaches_no_private_name_of_lesson3():
    reached = {path.name: lesson3_private_names(path.read_text(encoding="utf-8")) for path in PACKAGE.glob("*.py")}
    assert {name: found for name, found in reached.items() if found} == {}


def test_the_private_name_check_sees_each_way_of_reaching_one():
    for source in (
        "from lesson3.tools import _corpus",
        "from lesson3 import crash\ncrash._describe(1)",
        "import lesson3.tools as t\nt._TOOLS",
        "import lesson3\nlesson3.tools._TOOLS",
        "from lesson3._secret import x",
    ):
        assert lesson3_private_names(source), source
    assert lesson3_private_names("from lesson3 import tools\ntools.READ_ONLY_TOOLS\ntools.__file__\nx._y") == []
