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
