"""The locks: learners install what learners use, and the test tools come on top.

``requirements.lock`` (the README's course command, Binder) holds the runtime dependencies of
``pyproject.toml``; ``requirements-test.lock`` (the test command, CI) holds them at the same versions
plus the ``test`` extra. Fast tests check the files against ``pyproject.toml``, the README and the
imports of the course; the ``slow`` ones run the course command on a copy of the repository and use
the environment it leaves.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from IPython.core.inputtransformer2 import TransformerManager
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from lesson3.build_language_pack import upstream_version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the locks pin tomli there
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
MAINTAINERS = REPO / "docs" / "maintainers.md"
RUNTIME_LOCK = REPO / "requirements.lock"
TEST_LOCK = REPO / "requirements-test.lock"
GRADESCOPE_LOCK = REPO / "autograder" / "templates" / "gradescope" / "requirements.lock"
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
# The course's own code, and what the notebooks run: all of it runs in the course's environment.
RUNTIME_SOURCES = sorted([*(REPO / "lesson3").rglob("*.py"), *(REPO / "autograder").rglob("*.py")])
NOTEBOOKS = sorted([*(REPO / "notebooks").glob("*.ipynb"), *(REPO / "notebooks" / "soluciones").glob("*.ipynb")])
LOCAL_PACKAGES = {"lesson3", "autograder"}
# The course environment's size limit (issue: learners install what learners use).
MAX_COURSE_VENV_MB = 420
# The course's own language pack (jupyterlab_language_pack_es, made by lesson3.build_language_pack).
SPANISH = "es"
TRANSLATION_PLUGIN = "@jupyterlab/translation-extension:plugin"
NOTIFICATION_PLUGIN = "@jupyterlab/apputils-extension:notification"
NO_NEWS = {"fetchNews": "false", "checkForUpdates": False}
OVERRIDES = REPO / "jupyter-config" / "overrides.d" / "lesson3.json"
OVERRIDES_TARGET = "share/jupyter/lab/settings/overrides.d/lesson3.json"
NARROW_EXTENSION = REPO / "jupyter-config" / "labextensions" / "lesson3-narrow-screens"
NARROW_EXTENSION_TARGET = "share/jupyter/labextensions/lesson3-narrow-screens"
FILE_TYPES_EXTENSION = REPO / "jupyter-config" / "labextensions" / "lesson3-file-types"
FILE_TYPES_EXTENSION_TARGET = "share/jupyter/labextensions/lesson3-file-types"
# The kernel's links in Ayuda (IPython reads its config from the environment's etc/ipython too).
KERNEL_CONFIG = REPO / "jupyter-config" / "ipython" / "ipython_kernel_config.json"
KERNEL_CONFIG_TARGET = "etc/ipython/ipython_kernel_config.json"
SERVER_CONFIG = REPO / "jupyter-config" / "jupyter_server_config.d" / "autograder.json"
SERVER_CONFIG_TARGET = "etc/jupyter/jupyter_server_config.d/autograder.json"
"""check()'s grader starts with the Jupyter server (tests/test_server_extension.py)."""


# --- reading a lock ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: str | None
    hashes: frozenset[str]
    via: tuple[str, ...] = field(default=())

    def applies_here(self) -> bool:
        return self.marker is None or Marker(self.marker).evaluate({"extra": ""})


@dataclass(frozen=True)
class Lock:
    command: str
    # A universal lock may pin one package several times, each version under its own marker
    # (say, one for Python 3.10 and one for 3.11+): keyed by name and marker.
    pins: dict[tuple[str, str | None], Pin]

    @property
    def names(self) -> set[str]:
        return {name for name, _ in self.pins}

    def here(self) -> dict[str, Pin]:
        """The pins this interpreter and platform install (the others carry a marker that is false here)."""
        found: dict[str, Pin] = {}
        for pin in self.pins.values():
            if pin.applies_here():
                assert pin.name not in found, f"two versions of {pin.name} apply here"
                found[pin.name] = pin
        return found

    def direct(self) -> set[str]:
        """What the lock says pyproject.toml asks for (uv's «via lesson3 (pyproject.toml)»)."""
        return {pin.name for pin in self.pins.values() if "lesson3 (pyproject.toml)" in pin.via}


_ENTRY = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)\s*(?:;\s*(?P<marker>[^\\]+?))?\s*\\?$"
)
_HASH = re.compile(r"^\s+--hash=(sha256:[0-9a-f]{64})\s*\\?$")


def read_lock(path: Path) -> Lock:
    """The pins of a uv-generated lock; anything else on a line is an error, not something to skip."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = [line for line in lines[:3] if line.startswith("#    ")]
    assert len(header) == 1, f"{path.name}: no 'autogenerated by uv' command in its header"
    entries: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            if entries and line.strip().startswith("#") and line.startswith("    "):
                entries[-1]["via"].append(line.strip().lstrip("#").strip().removeprefix("via").strip())
            continue
        if entry := _ENTRY.match(line):
            entries.append({**entry.groupdict(), "hashes": [], "via": []})
        elif (hashed := _HASH.match(line)) and entries:
            entries[-1]["hashes"].append(hashed[1])
        else:
            raise AssertionError(f"{path.name}:{number}: not a pinned requirement or its hash: {line!r}")
    pins: dict[tuple[str, str | None], Pin] = {}
    for entry in entries:
        name, marker = canonicalize_name(entry["name"]), entry["marker"]
        assert (name, marker) not in pins, f"{path.name}: {name} pinned twice under one marker"
        assert entry["hashes"], f"{path.name}: {name} has no hash (pip's --require-hashes would refuse the file)"
        via = tuple(v for v in entry["via"] if v)
        pins[name, marker] = Pin(name, entry["version"], marker, frozenset(entry["hashes"]), via)
    return Lock(command=header[0].strip("# "), pins=pins)


def project_requirements(*extras: str) -> list[Requirement]:
    found = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
    for extra in extras:
        found += [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"][extra]]
    return found


def closure(roots: list[Requirement]) -> set[str]:
    """Every distribution the roots need on this interpreter, read from the installed packages' metadata."""
    needed: dict[str, set[str]] = {}
    todo = [(canonicalize_name(r.name), set(r.extras)) for r in roots if r.marker is None or r.marker.evaluate()]
    while todo:
        name, extras = todo.pop()
        if name in needed and extras <= needed[name]:
            continue
        needed.setdefault(name, set()).update(extras)
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            raise AssertionError(f"{name} is needed but not installed here: run the README's test command") from None
        for text in requires:
            requirement = Requirement(text)
            wanted = {""} | needed[name]
            if requirement.marker is None or any(requirement.marker.evaluate({"extra": e}) for e in wanted):
                todo.append((canonicalize_name(requirement.name), set(requirement.extras)))
    return set(needed)


def readme_block(marker: str) -> str:
    text = README.read_text(encoding="utf-8")
    block = re.search(rf"<!-- command:{marker} -->\n```sh\n(.+?)\n```", text, re.S)
    assert block, f"README has no {marker} command"
    return block[1]


def maintenance_commands() -> list[str]:
    text = MAINTAINERS.read_text(encoding="utf-8")
    section = text[text.index("## Maintaining the lock files") :]
    block = re.search(r"```sh\n(.+?)\n```", section, re.S)
    assert block
    return block[1].splitlines()


# --- the files ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [RUNTIME_LOCK, TEST_LOCK, GRADESCOPE_LOCK], ids=lambda p: p.name)
def test_every_pin_is_exact_and_hashed(path):
    lock = read_lock(path)
    assert len(lock.pins) > 5
    for pin in lock.pins.values():
        assert all(h.startswith("sha256:") for h in pin.hashes)


def test_the_locks_are_one_resolution():
    # Same versions and hashes wherever a package appears, so installing the test lock over the course
    # lock (or the course lock over the test lock) only adds packages and pip never replaces one. The
    # markers may differ: they only say where a version is needed, which depends on who needs it.
    runtime, test, grading = read_lock(RUNTIME_LOCK), read_lock(TEST_LOCK), read_lock(GRADESCOPE_LOCK)
    for smaller, larger in ((runtime, test), (grading, runtime)):
        versions = {(pin.name, pin.version): pin.hashes for pin in larger.pins.values()}
        for pin in smaller.pins.values():
            assert versions.get((pin.name, pin.version)) == pin.hashes, (pin.name, pin.version)
        # And on this interpreter the same one: one resolution, not two that happen to overlap.
        here = larger.here()
        for name, pin in smaller.here().items():
            assert here[name].version == pin.version, name


def test_each_lock_was_made_by_the_documented_command_in_order():
    commands = maintenance_commands()
    made = [read_lock(path).command for path in (TEST_LOCK, RUNTIME_LOCK, GRADESCOPE_LOCK)]
    # uv writes its own name in the header, however it was invoked (the docs run the test venv's uv).
    assert [c.removeprefix(".venv/bin/") for c in commands] == made
    assert "--extra test" in made[0] and "--extra" not in made[1] and "-c requirements-test.lock" in made[1]
    assert "-c requirements.lock" in made[2]
    assert all("--generate-hashes" in c and "--universal" in c for c in made)
    requires = re.fullmatch(r">=(3\.\d+)", PYPROJECT["project"]["requires-python"])
    assert requires and all(f"--python-version {requires[1]}" in c for c in made)


@pytest.mark.parametrize(
    ("path", "extras"), [(RUNTIME_LOCK, ()), (TEST_LOCK, ("test",))], ids=["requirements.lock", "test-lock"]
)
def test_a_lock_has_exactly_pyprojects_direct_dependencies(path, extras):
    lock = read_lock(path)
    declared = project_requirements(*extras)
    assert lock.direct() == {canonicalize_name(r.name) for r in declared}
    for requirement in declared:
        for pin in lock.pins.values():
            if pin.name == canonicalize_name(requirement.name):
                assert requirement.specifier.contains(pin.version, prereleases=True), (requirement, pin.version)


@pytest.mark.parametrize(
    ("path", "extras"), [(RUNTIME_LOCK, ()), (TEST_LOCK, ("test",))], ids=["requirements.lock", "test-lock"]
)
def test_a_lock_holds_what_pyproject_needs_here_and_nothing_else(path, extras):
    # Read from the installed packages' own metadata: a dependency a new version added, one it dropped,
    # or a package pinned that nothing needs all show here (on this interpreter and platform).
    lock = read_lock(path).here()
    for name, pin in lock.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = None
        if installed != pin.version:
            pytest.skip(f"this environment has {name} {installed}, the lock {pin.version}: run the test command")
    needed = closure(project_requirements(*extras))
    assert needed - set(lock) == set(), "needed but not locked"
    assert set(lock) - needed == set(), "locked but nothing in pyproject.toml needs it"


def test_the_course_lock_has_no_test_tool():
    runtime, test = read_lock(RUNTIME_LOCK), read_lock(TEST_LOCK)
    test_only = test.names - runtime.names
    tools = {canonicalize_name(Requirement(r).name) for r in PYPROJECT["project"]["optional-dependencies"]["test"]}
    # A test tool may be in the course lock only because a runtime package needs it (nbclient, pyyaml).
    needed_by_runtime = {pin.name for pin in runtime.pins.values() if pin.via != ("lesson3 (pyproject.toml)",)}
    assert tools - needed_by_runtime <= test_only
    for heavy in (
        "playwright",
        "kubernetes-validate",
        "check-jsonschema",
        "hypothesis",
        "pytest",
        "nbval",
        "ruff",
        "uv",
    ):
        assert heavy in test_only


def test_the_readme_commands_install_their_locks():
    course, tests = readme_block("course"), readme_block("test")
    assert "-r requirements.lock " in course and "requirements-test.lock" not in course
    assert "-r requirements-test.lock " in tests and "-r requirements.lock " not in tests
    # Both end with the course installed on top, the same way, so either may run first in one folder.
    install = ".venv/bin/pip install -q --no-deps -e ."
    assert course.startswith("python3 -m venv .venv && ") and tests.startswith("python3 -m venv .venv && ")
    assert install in course and install in tests
    assert course.endswith(".venv/bin/jupyter lab notebooks/") and tests.endswith(".venv/bin/python -m pytest")


def test_ci_runs_the_readme_test_command_as_written(tmp_path):
    # .ci/run finds the command with awk; run that extraction on the README and compare.
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    extraction = re.search(r"^cmd=\$\((awk .+ README\.md)\)$", script, re.M)
    assert extraction, ".ci/run no longer reads its command from README.md"
    found = subprocess.run(["bash", "-c", extraction[1]], cwd=REPO, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == readme_block("test")
    assert 'bash -c "$cmd"' in script


def test_the_readme_states_a_course_venv_figure_under_the_limit():
    figure = re.search(r"a\s+`\.venv/` of (\d+) MB with no test tool", README.read_text(encoding="utf-8"))
    assert figure and int(figure[1]) < MAX_COURSE_VENV_MB


# --- what the course imports -------------------------------------------------------------------


def _imports(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif (  # importlib.import_module("name"): a backport picked by version is imported this way
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and not node.args[0].value.startswith(".")
        ):
            found.add(node.args[0].value.split(".")[0])
    return found


@functools.cache
def runtime_imports() -> dict[str, set[str]]:
    """Top-level module -> where the course's code or a notebook imports it."""
    where: dict[str, set[str]] = {}
    for path in RUNTIME_SOURCES:
        for module in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            where.setdefault(module, set()).add(str(path.relative_to(REPO)))
    transform = TransformerManager().transform_cell  # notebooks' cells may hold magics
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(c for c in cells if c["cell_type"] == "code"):
            source = "".join(cell["source"])
            for module in _imports(ast.parse(transform(source), f"{path.name} cell {index}")):
                where.setdefault(module, set()).add(f"{path.relative_to(REPO)} (cell {index})")
    return where


def test_the_scan_finds_the_course_imports():
    # The scan is only worth something if it sees the imports that matter.
    where = runtime_imports()
    assert {"anthropic", "jinja2", "ipywidgets", "IPython", "nbformat", "lesson3", "autograder"} <= set(where)
    assert any("notebooks/" in place for place in where["autograder"])


def _distributions(module: str, providers: dict[str, list[str]]) -> set[str]:
    """Who provides a top-level module; one not installed on this interpreter (a backport such as tomli on
    3.11) is taken to be its own distribution."""
    return {canonicalize_name(d) for d in providers.get(module, [module])}


def third_party_imports() -> Iterator[tuple[str, set[str], set[str]]]:
    """(module, where it is imported, the distributions that provide it) for every import of the course
    that is neither the standard library nor the course's own packages."""
    providers = metadata.packages_distributions()
    for module, places in sorted(runtime_imports().items()):
        if module not in sys.stdlib_module_names and module not in LOCAL_PACKAGES and module != "__future__":
            yield module, places, _distributions(module, providers)


def test_what_the_course_imports_is_a_dependency_of_its_own():
    # Locked only because something else needs it is not enough: that something may drop it (tomli on 3.10
    # came with jupyterlab until curso.toml's reader named it).
    direct = {canonicalize_name(r.name) for r in project_requirements("test")}  # the maintainers' tools: nbclient
    problems = []
    for module, places, dists in third_party_imports():
        if not dists & direct:
            problems.append(f"{module} ({', '.join(sorted(dists))}), imported by {', '.join(sorted(places))}")
    assert not problems, "not a dependency in pyproject.toml:\n" + "\n".join(problems)


def test_the_scan_sees_imports_by_name():
    found = _imports(ast.parse("import importlib\nimportlib.import_module('tomli')\nimport_module('a.b')\n"))
    assert {"tomli", "a"} <= found
    assert "x" not in _imports(ast.parse("importlib.import_module('.x', 'pkg')"))


def test_lesson3_autograder_and_the_notebooks_import_only_what_the_course_lock_installs():
    runtime, test = read_lock(RUNTIME_LOCK).names, read_lock(TEST_LOCK).names
    problems = []
    for module, places, dists in third_party_imports():
        if dists & runtime:
            continue
        only_test = sorted(dists & test)
        reason = f"only in the test lock ({', '.join(only_test)})" if only_test else "in no lock"
        problems.append(f"{module}: {reason}, imported by {', '.join(sorted(places))}")
    assert not problems, "\n".join(problems)


# --- JupyterLab in Spanish ---------------------------------------------------------------------


def test_the_package_installs_spanish_as_jupyterlabs_default():
    shared = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    assert shared == {
        str(OVERRIDES.relative_to(REPO)): OVERRIDES_TARGET,
        str(NARROW_EXTENSION.relative_to(REPO)): NARROW_EXTENSION_TARGET,
        str(FILE_TYPES_EXTENSION.relative_to(REPO)): FILE_TYPES_EXTENSION_TARGET,
        str(KERNEL_CONFIG.relative_to(REPO)): KERNEL_CONFIG_TARGET,
        str(SERVER_CONFIG.relative_to(REPO)): SERVER_CONFIG_TARGET,
    }
    for extension in (NARROW_EXTENSION, FILE_TYPES_EXTENSION):
        package = json.loads((extension / "package.json").read_text())
        assert package["name"] == extension.name and package["jupyterlab"]["_build"]["load"] == "static/remoteEntry.js"
    assert json.loads(OVERRIDES.read_text(encoding="utf-8")) == {
        TRANSLATION_PLUGIN: {"locale": SPANISH},
        # JupyterLab otherwise asks, in English, whether to fetch Jupyter's news: the course is offline and Spanish.
        NOTIFICATION_PLUGIN: NO_NEWS,
    }
    # The course's pack is the only language pack installed, whichever command ran: upstream's (es_ES) beside it
    # was a second Spanish in Configuración › Idioma. It is built from upstream's wheel in vendor/, which translates
    # the strings of its own JupyterLab major version.
    for lock in (read_lock(RUNTIME_LOCK), read_lock(TEST_LOCK)):
        assert not [name for name in lock.names if name.startswith("jupyterlab-language-pack")], lock.command
        lab = lock.here()["jupyterlab"].version
        assert upstream_version().split(".")[0] == lab.split(".")[0]


# JupyterLab's server computes the translation plugin's default locale this way (overrides.d included);
# run here for this environment, and by the course environment's Python for that one.
_LOCALE_PROBE = f"""
import json, os
from jupyterlab.commands import get_app_dir
from jupyterlab_server.settings_utils import get_settings
from jupyterlab_server.translation_utils import get_language_packs
app = get_app_dir()
plugin = {TRANSLATION_PLUGIN!r}
settings, _ = get_settings(os.path.join(app, "settings"), os.path.join(app, "schemas"), os.devnull, plugin)
news, _ = get_settings(os.path.join(app, "settings"), os.path.join(app, "schemas"), os.devnull, {NOTIFICATION_PLUGIN!r})
news = {{k: v["default"] for k, v in news["schema"]["properties"].items() if k in ("fetchNews", "checkForUpdates")}}
result = [settings["schema"]["properties"]["locale"]["default"], sorted(get_language_packs()[0]), news]
"""


def _default_locale(prefix: Path, env: dict[str, str]) -> tuple[str, list[str], dict[str, Any]]:
    """The default locale JupyterLab gets in the environment at ``prefix``, the language packs there, and
    its defaults for asking about news and updates."""
    proc = subprocess.run(
        [str(prefix / "bin" / "python"), "-c", _LOCALE_PROBE + "print(json.dumps(result))"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    default, languages, news = json.loads(proc.stdout)
    return default, languages, news


def _isolated_env(base: Path) -> dict[str, str]:
    """A learner's shell: not this test run's environment (its venv on PATH, its Python and Jupyter variables)."""
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and not p.startswith(sys.prefix)]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUPYTER", "VIRTUAL_ENV", "PYTEST"))}
    env["PATH"] = os.pathsep.join(path)
    for variable, name in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ):
        env[variable] = str(base / name)
    return env


def test_jupyterlab_in_this_environment_defaults_to_spanish():
    # This environment is the one the README's commands made (`pip install -e .` installs the override).
    if not (Path(sys.prefix) / OVERRIDES_TARGET).exists():
        pytest.fail(f"{OVERRIDES_TARGET} is not in {sys.prefix}: run the README's command (it reinstalls the course)")
    probe: dict[str, Any] = {}
    exec(_LOCALE_PROBE, probe)
    default, languages, news = probe["result"]
    assert default == SPANISH
    assert news == NO_NEWS  # no English pop-up asking to fetch Jupyter's news from the internet
    # One Spanish in Configuración › Idioma, the course's (upstream's es_ES beside it was a second one).
    assert [language for language in languages if language.startswith("es")] == [SPANISH]


# --- the course command, run for real ----------------------------------------------------------


@dataclass
class CourseEnv:
    root: Path
    venv: Path
    env: dict[str, str]  # the learner's shell the command ran in
    lab: dict[str, Any]  # what the running JupyterLab answered


def _tracked_copy(dest: Path) -> None:
    """The repository as a fresh clone has it: tracked files, as they are in the work tree."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def _get(base_url: str, path: str, token: str) -> tuple[int, bytes]:
    request = urllib.request.Request(f"{base_url}{path}", headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read()


def _ask_lab(proc: subprocess.Popen[bytes], runtime_dir: Path, token: str, log: Path) -> dict[str, Any]:
    deadline = time.monotonic() + 600  # the command first creates the venv and installs the lock
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the course command ended ({proc.returncode}):\n{log.read_text()[-4000:]}")
        for info_file in runtime_dir.glob("jpserver-*.json"):
            info = json.loads(info_file.read_text())
            base_url = f"http://127.0.0.1:{info['port']}{info['base_url']}"
            try:
                _get(base_url, "api/status", token)
            except OSError:
                continue
            answers: dict[str, Any] = {"lab_status": _get(base_url, "lab", token)[0]}
            answers["settings"] = json.loads(_get(base_url, f"lab/api/settings/{TRANSLATION_PLUGIN}", token)[1])
            answers["languages"] = json.loads(_get(base_url, "lab/api/translations", token)[1])
            answers["spanish"] = json.loads(_get(base_url, f"lab/api/translations/{SPANISH}", token)[1])
            # The menus' titles, as the server translates them for the page in the current locale.
            answers["menus"] = json.loads(
                _get(base_url, "lab/api/settings/@jupyterlab/mainmenu-extension:plugin", token)[1]
            )
            return answers
        time.sleep(0.5)
    raise AssertionError(f"JupyterLab did not start:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="module")
def course_env() -> Iterator[CourseEnv]:
    # Not tmp_path: grading as root drops to a user who must reach this Python, so the folder is 0755.
    base = Path(tempfile.mkdtemp(prefix="lesson3-course-env-", dir=os.environ.get("LESSON3_COURSE_ENV_DIR")))
    base.chmod(0o755)
    root = base / "course"
    root.mkdir()
    _tracked_copy(root)
    token = secrets.token_hex(16)
    env = _isolated_env(base)
    config = Path(env["JUPYTER_CONFIG_DIR"])
    config.mkdir()
    # The README's command as written; its server's place and access come from the config it reads.
    (config / "jupyter_server_config.json").write_text(
        json.dumps(
            {
                "ServerApp": {
                    "ip": "127.0.0.1",
                    "port": 0,
                    "port_retries": 0,
                    "open_browser": False,
                    "allow_root": True,
                    "terminals_enabled": False,
                },
                "IdentityProvider": {"token": token},
            }
        )
    )
    log = base / "course-command.log"
    proc = None
    try:
        with log.open("wb") as out:
            proc = subprocess.Popen(
                ["bash", "-c", readme_block("course")],
                cwd=root,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        lab = _ask_lab(proc, Path(env["JUPYTER_RUNTIME_DIR"]), token, log)
        yield CourseEnv(root=root, venv=root / ".venv", env=env, lab=lab)
    finally:
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, 15)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
        shutil.rmtree(base, ignore_errors=True)


def _installed(venv: Path) -> dict[str, str]:
    script = "import json; from importlib import metadata as m\n"
    script += "print(json.dumps({d.name: d.version for d in m.distributions()}))"
    out = subprocess.run([str(venv / "bin" / "python"), "-c", script], capture_output=True, text=True, check=True)
    return {canonicalize_name(k): v for k, v in json.loads(out.stdout).items()}


@pytest.mark.slow
def test_the_course_command_installs_exactly_the_course_lock(course_env):
    installed = _installed(course_env.venv)
    wanted = {name: pin.version for name, pin in read_lock(RUNTIME_LOCK).here().items()}
    # The venv's own installers and the course itself are the only others.
    extra = set(installed) - set(wanted) - {"pip", "setuptools", "wheel", "lesson3"}
    assert extra == set()
    assert {name: installed.get(name) for name in wanted} == wanted
    test_only = read_lock(TEST_LOCK).names - read_lock(RUNTIME_LOCK).names
    assert not test_only & set(installed)


@pytest.mark.slow
def test_the_course_venv_is_under_the_limit_and_near_the_readmes_figure(course_env):
    size = sum(p.lstat().st_size for p in course_env.venv.rglob("*") if not p.is_symlink() and p.is_file())
    megabytes = size / 1_000_000
    assert megabytes < MAX_COURSE_VENV_MB
    figure = re.search(r"a\s+`\.venv/` of (\d+) MB", README.read_text(encoding="utf-8"))
    assert figure
    # Python versions and platforms differ a little (bytecode, wheels); the README's figure is one machine's.
    assert abs(int(figure[1]) - megabytes) / megabytes < 0.25, (figure[1], round(megabytes))


@pytest.mark.slow
def test_the_course_opens_in_spanish(course_env):
    lab = course_env.lab
    assert lab["lab_status"] == 200
    assert lab["settings"]["schema"]["properties"]["locale"]["default"] == SPANISH
    assert lab["settings"]["settings"].get("locale", SPANISH) == SPANISH
    assert [language for language in lab["languages"]["data"] if language.startswith("es")] == [SPANISH]
    # The page takes its locale from the composite setting (the learner's, else this default) and
    # translates menu titles and commands with this bundle: Archivo is what a learner looks for.
    jupyterlab = lab["spanish"]["data"]["jupyterlab"]
    assert jupyterlab["menu\x04File"] == ["Archivo"]
    assert jupyterlab["Run All Cells"] not in (["Run All Cells"], [""], [])
    assert jupyterlab["menu\x04Run"] == ["Ejecutar"] and jupyterlab["Restart Kernel…"] == ["Reiniciar el kernel…"]
    default, languages, news = _default_locale(course_env.venv, course_env.env)
    assert default == SPANISH and [language for language in languages if language.startswith("es")] == [SPANISH]
    assert news == NO_NEWS


@pytest.mark.slow
def test_every_course_module_imports_in_the_course_environment(course_env):
    modules = sorted(
        ".".join(p.relative_to(course_env.root).with_suffix("").parts).removesuffix(".__init__")
        for package in LOCAL_PACKAGES
        for p in (course_env.root / package).rglob("*.py")
        if p.name != "__main__.py"
    )
    script = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)\n"
    proc = subprocess.run(
        [str(course_env.venv / "bin" / "python"), "-c", script, *modules],
        cwd=course_env.root,
        capture_output=True,
        text=True,
        timeout=300,
        env=course_env.env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]


def calls_check(source: str) -> bool:
    """Whether a cell calls check() (not a cell that only mentions it in a comment, such as warm_up()'s)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "check"
        for node in ast.walk(tree)
    )


@pytest.mark.slow
def test_check_works_in_the_course_environment(course_env):
    # The solved exercise notebook, run top to bottom by the course environment's own kernel.
    notebook = course_env.root / "notebooks" / "soluciones" / "04_ejercicios.ipynb"
    out = course_env.root / "executed.ipynb"
    script = """
import sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, timeout=300, resources={"metadata": {"path": sys.argv[2]}}).execute()
nbformat.write(nb, sys.argv[3])
"""
    proc = subprocess.run(
        [str(course_env.venv / "bin" / "python"), "-c", script, str(notebook), str(notebook.parent), str(out)],
        cwd=notebook.parent,
        capture_output=True,
        text=True,
        timeout=600,
        env=course_env.env,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]

    def scores(path: Path) -> list[str]:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        found = []
        for cell in cells:
            if cell["cell_type"] == "code" and calls_check("".join(cell["source"])):
                text = "".join("".join(o.get("data", {}).get("text/plain", "")) for o in cell["outputs"] if "data" in o)
                found.append(text.splitlines()[0] if text else "")
        return found

    expected = scores(notebook)
    assert len(expected) >= 4 and all("puntos" in line for line in expected)
    assert scores(out) == expected


@pytest.mark.slow
def test_binders_install_of_the_course_makes_spanish_the_default(course_env, tmp_path):
    # binder/postBuild installs the course as a wheel (not editable): the override must be in it,
    # where pip puts it under the environment's prefix.
    assert "pip install --no-cache-dir --no-deps ." in (REPO / "binder" / "postBuild").read_text()
    proc = subprocess.run(
        [str(course_env.venv / "bin" / "pip"), "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(course_env.root)],
        capture_output=True,
        text=True,
        timeout=600,
        env=course_env.env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    (wheel,) = tmp_path.glob("lesson3-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        prefix = f"lesson3-{wheel.name.split('-')[1]}.data/data/"
        data = sorted(n for n in zf.namelist() if ".data/data/" in n and "labextensions" not in n)
        assert data == [f"{prefix}{t}" for t in (KERNEL_CONFIG_TARGET, SERVER_CONFIG_TARGET, OVERRIDES_TARGET)]
        extension = sorted(n.removeprefix(prefix) for n in zf.namelist() if "labextensions" in n)
        assert extension == [
            f"{target}/{name}"
            for target in (FILE_TYPES_EXTENSION_TARGET, NARROW_EXTENSION_TARGET)
            for name in ("package.json", "static/remoteEntry.js")
        ]
        assert json.loads(zf.read(data[2])) == json.loads(OVERRIDES.read_text(encoding="utf-8"))  # Spanish, no news
        # check()'s grader starts with Binder's Jupyter server too.
        assert json.loads(zf.read(data[1])) == json.loads(SERVER_CONFIG.read_text(encoding="utf-8"))
        # The course's language pack, and the entry point JupyterLab finds it by.
        assert f"jupyterlab_language_pack_{SPANISH}/locale/{SPANISH}/LC_MESSAGES/jupyterlab.json" in zf.namelist()
        (entry_points,) = [n for n in zf.namelist() if n.endswith(".dist-info/entry_points.txt")]
        assert f"{SPANISH} = jupyterlab_language_pack_{SPANISH}" in zf.read(entry_points).decode()


def _set_up_part(marker: str, runs: str) -> str:
    """A README command without what it finally runs (the tests, JupyterLab): its set-up."""
    command = readme_block(marker)
    assert command.endswith(f" && {runs}")
    return command.removesuffix(f" && {runs}")


@pytest.mark.slow
def test_the_test_command_then_the_course_command_in_the_same_folder(course_env):
    # Last in this module: it turns the course environment into the test one. pip's --require-hashes
    # holds per invocation, so this is where a lock that only works on a fresh venv would fail.
    for marker, runs in (("test", ".venv/bin/python -m pytest"), ("course", ".venv/bin/jupyter lab notebooks/")):
        proc = subprocess.run(
            ["bash", "-c", _set_up_part(marker, runs)],
            cwd=course_env.root,
            capture_output=True,
            text=True,
            timeout=900,
            env=course_env.env,
        )
        assert proc.returncode == 0, (marker, proc.stdout[-2000:], proc.stderr[-3000:])
        installed = _installed(course_env.venv)
        wanted = {name: pin.version for name, pin in read_lock(TEST_LOCK).here().items()}
        assert {name: installed.get(name) for name in wanted} == wanted
        assert set(installed) - set(wanted) <= {"pip", "setuptools", "wheel", "lesson3"}
    check = subprocess.run([str(course_env.venv / "bin" / "pip"), "check"], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout
