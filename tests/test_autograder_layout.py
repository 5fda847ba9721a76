"""The layout is the architecture: a folder per process or stage, and who may import whom."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import autograder
from autograder.course import catalogue
from autograder.learner.lesson3_view import NOT_PRELOADED

PACKAGE = Path(autograder.__file__).parent

FOLDERS = (
    "course",
    "wire",
    "intake",
    "grading",
    "sandbox",
    "learner",
    "judging",
    "reporting",
    "classrun",
    "distribution",
)
"""Every subpackage: a process (grading, sandbox, learner, judging) or a stage or kind of data."""
LEARNER_MAY_IMPORT = ("learner", "wire")
"""The learner's process loads its own folder, the wire formats and lesson3's public modules: nothing that judges."""
LESSON3_HIDDEN = tuple(f"lesson3.{name}" for name in NOT_PRELOADED)
"""What the learner's folder never imports of lesson3: the answers, and the maintainers' tools."""
TRAMPOLINE = "f'def trampoline(*args, **kwargs):\\n    return __lesson3_guards__[{label!r}](args, kwargs)\\n'"
DYNAMIC_IMPORTS = {
    ("autograder.learner.lesson3_view", "f'lesson3.{name}'"): "lesson3's public modules, by name (answers left out)",
    ("autograder.learner.zygote", "name"): "COURSE_IMPORTS: what the course's notebooks import, autograder left out",
    ("autograder.notebook", "module"): "where a learner's function was defined: a notebook's own or lesson3's",
    ("autograder.learner.runner", "code"): "the learner's own cells, run in the learner's process",
    ("autograder.learner.import_paths", "code"): "a module the learner's notebook wrote (%%writefile), run as it",
    ("autograder.learner.lesson3_view", TRAMPOLINE): "the guard's trampoline, a fixed text that imports nothing",
    ("autograder.course.catalogue", "room"): "a room's texts (catalogue.ROOMS): course/ or lesson3 only, never back",
}
"""The imports whose module is computed, each read and why it cannot reach a module it must not."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}
LESSON3 = {p.stem for p in (PACKAGE.parent / "lesson3").glob("*.py")}


IMPORTERS = {"import_module", "__import__", "run_module", "run_path", "resolve_name", "exec", "eval"}
"""Calls that can load a module by a name computed at run time (importlib, runpy, pkgutil, or code in a string)."""


def dynamic_imports(tree: ast.AST) -> list[tuple[str, ast.expr | None, list[str]]]:
    """(importer, the module argument or None, the ``fromlist`` names) of every call of an importer: by its
    name, by an alias (``from importlib import import_module as im``), or reached with ``getattr``."""
    aliases = {
        alias.asname: alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name in IMPORTERS and alias.asname
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        name = aliases.get(name, name)
        if isinstance(func, ast.Call) and any(  # getattr(importlib, "import_module")(...)
            isinstance(n, ast.Constant) and n.value in IMPORTERS for n in ast.walk(func)
        ):
            name = next(n.value for n in ast.walk(func) if isinstance(n, ast.Constant) and n.value in IMPORTERS)
        if name not in IMPORTERS:
            continue
        keywords = {k.arg: k.value for k in node.keywords}
        target = node.args[0] if node.args else keywords.get("name") or keywords.get("source")
        listed = node.args[3] if len(node.args) > 3 else keywords.get("fromlist")
        names = [e.value for e in getattr(listed, "elts", []) if isinstance(e, ast.Constant)]
        found.append((name, target, names))
    return found


def module_imports(*, lazy: bool = False, of: dict[str, Path] = MODULES) -> dict[str, set[str]]:
    """Module -> the autograder and lesson3 modules it imports at module level (and inside functions, or by a
    literal name given to ``import_module``/``__import__``, when ``lazy``)."""
    graph: dict[str, set[str]] = {}
    for name, path in of.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.stem == "__init__" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree) if lazy else tree.body:
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                if base.split(".")[0] not in ("autograder", "lesson3"):
                    continue
                for alias in node.names:
                    whole = f"{base}.{alias.name}"
                    found.add(whole if whole in MODULES or whole.removeprefix("lesson3.") in LESSON3 else base)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.split(".")[0] in ("autograder", "lesson3"))
        if lazy:
            for _, target, names in dynamic_imports(tree):
                if isinstance(target, ast.Constant) and str(target.value).split(".")[0] in ("autograder", "lesson3"):
                    found.add(str(target.value))
                    found.update(f"{target.value}.{n}" for n in names)
        graph[name] = {m for m in found if m.split(".")[0] == "autograder" or lazy} - {name}
    return graph


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, stack = set(), [start]
    while stack:
        for target in graph.get(stack.pop(), ()):
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def in_folder(module: str, *folders: str) -> bool:
    return any(module == f"autograder.{f}" or module.startswith(f"autograder.{f}.") for f in folders)


def test_every_module_is_a_face_or_in_a_folder_of_the_architecture():
    top = sorted(m for m in MODULES if m.count(".") == 1 and not (PACKAGE / m.split(".")[1]).is_dir())
    assert top == [
        "autograder.__main__",
        "autograder.cli",
        "autograder.notebook",
        "autograder.questions",
        "autograder.server_extension",  # JupyterLab's: check()'s grader started with the Jupyter server
    ]
    assert sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()) == sorted(FOLDERS)
    for folder in FOLDERS:
        assert ast.get_docstring(ast.parse((PACKAGE / folder / "__init__.py").read_text(encoding="utf-8"))), folder


def test_the_faces_at_the_top_depend_on_the_folders_never_the_reverse():
    faces = {
        "autograder",
        "autograder.__main__",
        "autograder.cli",
        "autograder.notebook",
        "autograder.questions",
        "autograder.server_extension",
    }
    graph = module_imports(lazy=True)
    assert {(m, t) for m in graph if m.count(".") > 1 and m not in faces for t in graph[m] if t in faces} == set()


def test_no_import_cycle_in_the_grader_counting_lazy_imports():
    imports = module_imports(lazy=True)  # typing-only imports too: a circle is a circle in the design
    graph = {m: {t for t in targets if t.startswith("autograder")} for m, targets in imports.items()}
    visiting: list[str] = []
    done: set[str] = set()

    def visit(module: str) -> None:
        assert module not in visiting, " -> ".join([*visiting[visiting.index(module) :], module])
        if module in done:
            return
        visiting.append(module)
        for target in graph.get(module, ()):
            if target != "autograder":  # a package's face imports its submodules lazily, from inside functions
                visit(target)
        visiting.pop()
        done.add(module)

    for module in graph:
        visit(module)


def test_a_rooms_texts_reach_only_course_and_lesson3_and_never_the_catalogue_back():
    """The catalogue imports a room's texts by name (:data:`autograder.course.catalogue.ROOMS`): what that
    module reaches is checked here, so a grader's process asking for a text loads no judging module and the
    lookup hides no import circle."""
    graph = module_imports(lazy=True)
    for room in set(catalogue.ROOMS.values()) - {"autograder.course.catalogue"}:
        found = reached(graph, room)
        assert "autograder.course.catalogue" not in found, room
        assert {t for t in found if t.split(".")[0] == "autograder" and not in_folder(t, "course", "wire")} == set()


def test_the_wire_folder_imports_nothing_else_of_the_package():
    graph = module_imports(lazy=True)
    found = {(m, t) for m in graph if in_folder(m, "wire") for t in graph[m] if not in_folder(t, "wire")}
    assert found == set()


def test_the_learners_folder_imports_only_itself_the_wire_and_lesson3s_public_modules():
    graph = module_imports(lazy=True)
    found = {
        (module, target)
        for module in graph
        if in_folder(module, "learner")
        for target in graph[module]
        if not (in_folder(target, *LEARNER_MAY_IMPORT) or target.split(".")[0] == "lesson3")
        or target.startswith(LESSON3_HIDDEN)
    }
    assert found == set()


def test_lesson3_imports_nothing_of_the_grader():
    # The learner's process imports every public lesson3 module: one that reached the grader would carry it there.
    lesson3 = {f"lesson3.{p.stem}": p for p in (PACKAGE.parent / "lesson3").glob("*.py")}
    graph = module_imports(lazy=True, of=lesson3)
    assert {(m, t) for m, targets in graph.items() for t in targets if t.split(".")[0] == "autograder"} == set()


def test_every_computed_import_is_one_read_for_what_it_may_reach():
    found = {
        (name, ast.unparse(target) if target is not None else "")
        for name, path in MODULES.items()
        for _, target, _ in dynamic_imports(ast.parse(path.read_text(encoding="utf-8")))
        if not isinstance(target, ast.Constant)
    }
    assert found == set(DYNAMIC_IMPORTS)


def test_the_folder_rules_see_every_way_of_importing(tmp_path):
    spelled = {
        "a": "import autograder.judging.verdicts_level2",
        "b": "from autograder.judging import verdicts_level2",
        "c": "def f():\n    from ..judging import verdicts_level2",
        "d": "import importlib\nimportlib.import_module('autograder.judging.verdicts_level2')",
        "e": "__import__('autograder.judging.verdicts_level2')",
        "f": "from importlib import import_module\ndef g():\n    import_module('autograder.judging.verdicts_level2')",
        "g": "import lesson3.answers",
        "h": "from importlib import import_module as im\nim('autograder.judging.verdicts_level2')",
        "i": "import importlib\nimportlib.import_module(name='autograder.judging.verdicts_level2')",
        "j": "import importlib\ngetattr(importlib, 'import_module')('autograder.judging.verdicts_level2')",
        "k": "__import__('lesson3', fromlist=['answers'])",
        "l": "import runpy\nrunpy.run_module('autograder.judging.verdicts_level2')",
    }
    files = {}
    for key, source in spelled.items():
        (tmp_path / f"{key}.py").write_text(source, encoding="utf-8")
        files[f"autograder.learner.{key}"] = tmp_path / f"{key}.py"
    graph = module_imports(lazy=True, of=files)
    missed = [
        k
        for k in spelled
        if not graph[f"autograder.learner.{k}"] & {"autograder.judging.verdicts_level2", "lesson3.answers"}
    ]
    assert missed == []
    source = "exec(code)\neval(text, {})\nimport pkgutil\npkgutil.resolve_name(where)\n"
    assert {name for name, _, _ in dynamic_imports(ast.parse(source))} == {"exec", "eval", "resolve_name"}


def test_the_learners_side_never_reaches_the_judging_or_the_grading():
    graph = module_imports(lazy=True)
    graph["autograder"] = set()  # the face's lazy imports are the notebook's, never run in the learner's process
    for module in filter(lambda m: in_folder(m, "learner"), graph):
        bad = {
            t for t in reached(graph, module) if in_folder(t, "judging", "grading", "sandbox", "reporting", "intake")
        }
        assert bad == set(), module


def test_the_judge_and_its_zygote_never_import_the_graders_pipeline():
    graph = module_imports(lazy=True)
    for module in graph:
        if in_folder(module, "judging", "sandbox"):
            assert "autograder.grading.pipeline" not in graph[module], module


@pytest.mark.parametrize("face", ["autograder.cli", "autograder.notebook", "autograder.grading.pipeline"])
def test_the_graders_process_loads_no_judging_module(face):
    """What the grader's own process imports (the zygote's and judges' lazy imports aside) reaches no judging module.

    The facts it shares with the judging process (the levels, the criteria) live in ``course/``.
    """
    assert {m for m in reached(module_imports(), face) if in_folder(m, "judging")} == set()


@pytest.mark.parametrize("face", ["autograder.cli", "autograder.notebook", "autograder.grading.pipeline"])
def test_the_graders_process_loads_of_the_learners_folder_only_landlocks_probe(face):
    """The learner's folder is the learner's process; the grader only asks landlock which protections this
    machine gives (for the warning it prints), everything shared lives in wire/."""
    found = {m for m in reached(module_imports(lazy=True), face) if in_folder(m, "learner")}
    assert found <= {"autograder.learner", "autograder.learner.landlock"}


def test_the_import_graph_sees_each_spelling(tmp_path):
    graph = module_imports(lazy=True)
    assert "autograder.wire.protocol" in graph["autograder.learner.runner"]  # from autograder.wire import protocol
    assert "autograder.course.criteria" in graph["autograder.judging.process"]  # from ....criteria import X
    assert graph["autograder.__main__"] == {"autograder.cli"}


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
    reached = {path.name: lesson3_private_names(path.read_text(encoding="utf-8")) for path in PACKAGE.rglob("*.py")}
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


ROLE = re.compile(r":(?:mod|func|class|data|meth|attr|exc):`~?((?:autograder|lesson3)[\w.]*)`")
SOURCE_PATH = re.compile(r"(?<![\w/.])((?:autograder|lesson3|tests|bench)/[a-z_/]*[a-z_]\.py)\b")
PROSE = sorted(
    [
        *PACKAGE.rglob("*.py"),
        *(PACKAGE.parent / "lesson3").glob("*.py"),
        *(PACKAGE.parent / "bench").glob("*.py"),
        PACKAGE.parent / "README.md",
        *(PACKAGE.parent / "docs").glob("*.md"),
    ]
)


def resolves(dotted: str) -> bool:
    """``dotted`` names a module, or an attribute of one, that exists."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


CODE_NAME = re.compile(r"``?((?:autograder|lesson3)(?:\.[A-Za-z_]\w*)+)(?:\(\))?``?")
FOLDER_NAME = re.compile(r"`((?:" + "|".join(FOLDERS) + r")/[a-z_]+)`")
NOT_MODULES = {
    "autograder.zip": "the Gradescope bundle's file name",
    "autograder.zygote": "the grading zygote's module in checkouts from before the layout, which bench --root reads",
}


def stale_references(text: str, root: Path) -> list[str]:
    named = [m[1] for m in ROLE.finditer(text) if not resolves(m[1])]
    named += [m[1] for m in CODE_NAME.finditer(text) if m[1] not in NOT_MODULES and not resolves(m[1])]
    package = root / "autograder"
    named += [
        m[1]
        for m in FOLDER_NAME.finditer(text)
        if not ((package / m[1]).with_suffix(".py").exists() or (package / m[1]).is_dir())
    ]
    named += [m[1] for m in SOURCE_PATH.finditer(text) if not (root / m[1]).exists()]
    return list(dict.fromkeys(named))


@pytest.mark.parametrize("path", PROSE, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_what_the_prose_names_exists(path):
    # After a move, a docstring that still names the old module or file sends the reader nowhere.
    assert stale_references(path.read_text(encoding="utf-8"), PACKAGE.parent) == []


def test_a_stale_reference_is_seen():
    assert stale_references(
        ":mod:`autograder.zygote` and :func:`autograder.grading.server.zygote_main`, autograder/criteria.py",
        PACKAGE.parent,
    ) == ["autograder.zygote", "autograder.grading.server.zygote_main", "autograder/criteria.py"]
    assert stale_references(":mod:`autograder.judging.zygote`, autograder/course/criteria.py", PACKAGE.parent) == []
    assert stale_references("``autograder.judging.nowhere`` and `judging/evaluation_gone`", PACKAGE.parent) == [
        "autograder.judging.nowhere",
        "judging/evaluation_gone",
    ]
    assert stale_references("``autograder.judging.process`` and `judging/process`, `judging/`", PACKAGE.parent) == []


READER = "autograder.reporting.results_json"
"""The one module that reads results.json back: every output that starts from one goes through it."""
_READS = {"load", "loads", "read_text", "read_bytes", "open"}


def _called(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")


def reads_results_json(source: str) -> list[str]:
    """The functions (or the module's top-level statements) that read a file or parse JSON and name results.json:
    by its file name, the reader's ``RESULTS_JSON``, or the document's ``"submissions"`` key (a subscript or a get)."""
    tree = ast.parse(source)
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    # A function is one scope; at the top level, each statement is.
    scopes = [
        *(n for n in tree.body if not isinstance(n, defs)),
        *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
    ]
    found = []
    for scope in scopes:
        nodes = list(ast.walk(scope))
        reads = any(isinstance(n, ast.Call) and _called(n) in _READS for n in nodes)
        keys = [n.slice for n in nodes if isinstance(n, ast.Subscript)]
        keys += [n.args[0] for n in nodes if isinstance(n, ast.Call) and _called(n) == "get" and n.args]
        names = any(
            (isinstance(n, ast.Constant) and n.value == "results.json")
            or (isinstance(n, ast.Name) and n.id == "RESULTS_JSON")
            or (isinstance(n, ast.Attribute) and n.attr == "RESULTS_JSON")
            for n in nodes
        ) or any(isinstance(k, ast.Constant) and k.value == "submissions" for k in keys)
        if reads and names:
            found.append(getattr(scope, "name", f"line {scope.lineno}"))
    return found


def test_results_json_is_read_by_one_module():
    benches = {f"bench.{p.stem}": p for p in (PACKAGE.parent / "bench").glob("*.py")}
    found = {
        name: scopes
        for name, path in {**MODULES, **benches}.items()
        if name != READER and (scopes := reads_results_json(path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.mark.parametrize(
    "source",
    [
        "import json\ndef load(path):\n    return json.loads(path.read_text())['submissions']",
        "def read(folder):\n    return (folder / 'results.json').read_text()",
        "import json\nwith open(out / 'results.json') as f:\n    doc = json.load(f)",
        "import json\ndef load(raw):\n    return json.loads(raw).get('submissions')",
        "def part(folder):\n    return read_bytes_of(folder / RESULTS_JSON, open(folder / RESULTS_JSON))",
    ],
)
def test_the_one_reader_rule_sees_each_way_of_reading_results_json(source):
    assert reads_results_json(source)


def test_the_one_reader_rule_lets_writing_and_other_files_be():
    writes = "import json\ndef write(out, doc):\n    (out / 'results.json').write_text(json.dumps(doc))"
    other = "import json\ndef key(root):\n    return json.loads((root / 'submissions' / 'meta.json').read_text())"
    assert reads_results_json(writes) == reads_results_json(other) == []


def private_imports(module: str, tree: ast.AST) -> list[str]:
    """The ``_private`` names of another of the grader's modules that ``module`` imports or reaches by attribute."""
    package = module.rpartition(".")[0] if not MODULES[module].stem == "__init__" else module
    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            if base.split(".")[0] != "autograder":
                continue
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:
                    modules.add(alias.asname or alias.name)
                elif alias.name.startswith("_") and not alias.name.endswith("__") and base != module:
                    found.append(f"{base}.{alias.name}")
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name.split(".")[0] for a in node.names if a.name.startswith("autograder"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.endswith("__"):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in modules:
                found.append(f"{root.id}….{node.attr}")
    return found


def test_no_module_of_the_grader_imports_a_private_name_of_another():
    # A name with a leading underscore is its module's own business: a sibling that needs it needs a public one.
    found = {m: private_imports(m, ast.parse(p.read_text(encoding="utf-8"))) for m, p in MODULES.items()}
    assert {m: names for m, names in found.items() if names} == {}


def test_the_private_import_check_sees_each_way_of_reaching_one():
    module = "autograder.judging.verdicts_level0"
    for source in (
        "from autograder.judging.verdict_help import _failed",
        "from .verdict_help import show, _listing",
        "from autograder.judging import verdict_help\nverdict_help._show(1)",
        "import autograder.judging.verdict_help\nautograder.judging.verdict_help._show(1)",
    ):
        assert private_imports(module, ast.parse(source)), source
    assert private_imports(module, ast.parse("from autograder.judging.verdict_help import show\nx._y")) == []


# What the design keeps small (issue 26): the command line a front end over classrun/, the catalogue one
# mechanism with each room's texts beside the room. cli.py reached 363 lines once, with --choose and --gradebook.
FRONT_ENDS = {"cli.py": 350, "course/catalogue.py": 900}


@pytest.mark.parametrize(("module", "most"), FRONT_ENDS.items())
def test_the_front_ends_stay_thin(module: str, most: int) -> None:
    lines = len((PACKAGE / module).read_text(encoding="utf-8").splitlines())
    assert lines < most, f"{module}: {lines} lines; what it grew by belongs in its room (classrun/, a room's texts)"
