"""The exercises notebook (both versions), and any other learner notebook with widgets, in a
real JupyterLab driven by headless Chromium.

nbval proves the kernel side; only a browser proves that the ipywidgets really render in
JupyterLab (the front-end widget manager is loaded, every widget model is found, no "Error
displaying widget", no option text cut off or overlapping) and that their callbacks run without
errors when clicked (the crash lab's button really kills a child with SIGKILL).

The server runs on loopback with a random port and token, with its own runtime/config/data
dirs, on a temporary copy of notebooks/ so the committed files are never touched. Chromium
is Debian's (`apt-get install chromium`); a browser is never downloaded. Without chromium
the test skips, unless LESSON3_REQUIRE_BROWSER=1 (CI), where it fails.

A full-page screenshot of each notebook is left in test-artifacts/browser/.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts" / "browser"
REQUIRE_ENV = "LESSON3_REQUIRE_BROWSER"
CHROMIUM_CANDIDATES = ("chromium", "/usr/bin/chromium")
# Flags that work as root in a container; the user-data-dir is a fresh temp dir per run.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
USER_SETTINGS = {
    # All cells stay in the DOM (the default virtualises off-screen cells), so every widget can be checked.
    "notebook-extension/tracker": {"windowingMode": "none"},
    # Not the news pop-up: the course's own defaults (jupyter-config/overrides.d) must keep it away, as for a learner.
}

SERVER_START_TIMEOUT_S = 60
KERNEL_READY_TIMEOUT_S = 60
# Each notebook must run in < 20 s (bench/bench_notebooks.py); a browser adds rendering on top.
RUN_ALL_TIMEOUT_S = 120
WIDGET_RENDER_TIMEOUT_S = 30
CLICK_TIMEOUT_S = 60
SHUTDOWN_TIMEOUT_S = 15
# Chromium cannot capture arbitrarily tall pages; longer notebooks are cut at this height.
MAX_SCREENSHOT_HEIGHT = 16000


# Code that puts a widget on screen: the course's widget helpers (lesson3.lab, lesson3.practice) or ipywidgets.
WIDGET_CODE = re.compile(r"\b(crash_lab|question_widget|hints)\(|\bipywidgets\b")


def exercises_notebooks() -> list[Path]:
    """The exercises notebook (the 4th), every version of it that is committed."""
    return sorted(p for p in NOTEBOOKS.rglob("04*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def other_widget_notebooks() -> list[Path]:
    """The other learner notebooks that show widgets (the crash lab lives in one of them)."""
    found = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        if path in exercises_notebooks():
            continue
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        if any(c["cell_type"] == "code" and WIDGET_CODE.search("".join(c["source"])) for c in cells):
            found.append(path)
    return found


def _missing_browser(reason: str) -> None:
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{reason} ({REQUIRE_ENV}=1, so the browser test is required)")
    pytest.skip(f"{reason}; set {REQUIRE_ENV}=1 to make this a failure")


def find_chromium() -> str | None:
    for candidate in CHROMIUM_CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def chromium_executable() -> str:
    found = find_chromium()
    if found is None:
        _missing_browser("chromium is not installed (Debian: apt-get install -y --no-install-recommends chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing_browser("playwright is not installed (it is in the `test` extra)")
    return found  # type: ignore[return-value]


@dataclass
class LabServer:
    base_url: str
    token: str
    root_dir: Path
    log_path: Path

    def api(self, path: str, method: str = "GET", timeout: float = 5) -> Any:
        request = urllib.request.Request(
            f"{self.base_url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def log_tail(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no server log)"


def _wait_for_server(proc: subprocess.Popen[bytes], runtime_dir: Path, token: str, log_path: Path) -> str:
    """Base URL of the server once it answers /api/status; the port comes from its runtime file."""
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    info_file = runtime_dir / f"jpserver-{proc.pid}.json"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {proc.returncode}:\n{log_path.read_text(errors='replace')}")
        if info_file.exists():
            try:
                info = json.loads(info_file.read_text())
                base_url = f"http://127.0.0.1:{info['port']}{info['base_url']}"
                request = urllib.request.Request(f"{base_url}api/status", headers={"Authorization": f"token {token}"})
                with urllib.request.urlopen(request, timeout=2):
                    return base_url
            except (OSError, ValueError, KeyError):
                pass
        time.sleep(0.2)
    raise RuntimeError(
        f"jupyter lab did not answer within {SERVER_START_TIMEOUT_S} s:\n{log_path.read_text(errors='replace')}"
    )


def _stop_server(server: LabServer | None, proc: subprocess.Popen[bytes]) -> None:
    # /api/shutdown stops the kernels too (they run in their own sessions, out of reach of our signals).
    if server is not None and proc.poll() is None:
        try:
            server.api("api/shutdown", method="POST")
        except (OSError, ValueError):
            pass
    try:
        proc.wait(timeout=SHUTDOWN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=SHUTDOWN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=SHUTDOWN_TIMEOUT_S)


@pytest.fixture(scope="module")
def lab_server(chromium_executable: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    base = tmp_path_factory.mktemp("jupyterlab")
    root_dir = base / "notebooks"
    shutil.copytree(NOTEBOOKS, root_dir, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    runtime_dir, config_dir, data_dir, ipython_dir = (base / name for name in ("runtime", "config", "data", "ipython"))
    settings_dir = config_dir / "lab" / "user-settings" / "@jupyterlab"
    for plugin, settings in USER_SETTINGS.items():
        path = settings_dir / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))

    token = secrets.token_hex(24)
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(runtime_dir),
        "JUPYTER_CONFIG_DIR": str(config_dir),
        "JUPYTER_DATA_DIR": str(data_dir),
        "IPYTHONDIR": str(ipython_dir),
        # The kernel must be this interpreter (the one with lesson3 installed), whatever PATH says.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    env.pop("JUPYTER_TOKEN", None)
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port=0",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root_dir}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--ServerApp.terminals_enabled=False",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # CI containers run as root
    log_path = base / "jupyter-server.log"
    server: LabServer | None = None
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            cmd, cwd=root_dir, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
    try:
        base_url = _wait_for_server(proc, runtime_dir, token, log_path)
        server = LabServer(base_url=base_url, token=token, root_dir=root_dir, log_path=log_path)
        yield server
    finally:
        _stop_server(server, proc)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(log_path, ARTIFACTS / "jupyter-server.log")


@pytest.fixture(scope="module")
def browser_context(chromium_executable: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    user_data_dir = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(user_data_dir),
            executable_path=chromium_executable,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 900},
            locale="es-ES",
            timeout=60_000,
        )
        try:
            context.set_default_timeout(30_000)
            yield context
        finally:
            context.close()


# --- what runs in the page (window.jupyterapp is exposed by --LabApp.expose_app_in_browser) ---

JS_NOTEBOOK_READY = """(path) => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path || !panel.context.isReady) return false;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle';
}"""

# Records the errors the kernel sends on iopub outside cell execution: exceptions in widget
# callbacks, which never show up in a cell's outputs. Also tracks each button click
# sent to the kernel until the kernel reports idle for it, i.e. its callback has finished.
JS_WATCH_KERNEL = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session.kernel;
  window.__kernelErrors = [];
  window.__clicksSent = [];
  window.__clicksDone = new Set();
  kernel.anyMessage.connect((_, {msg, direction}) => {
    const type = msg.header.msg_type;
    if (direction === 'send' && type === 'comm_msg' && msg.content.data
        && msg.content.data.method === 'custom' && msg.content.data.content
        && msg.content.data.content.event === 'click') {
      window.__clicksSent.push(msg.header.msg_id);
    }
    if (direction !== 'recv') return;
    // Errors of cells (execute_request) are read from the cells' outputs instead.
    if (type === 'error' && msg.parent_header && msg.parent_header.msg_type !== 'execute_request') {
      window.__kernelErrors.push({ename: msg.content.ename, evalue: msg.content.evalue,
                                  parent: msg.parent_header.msg_type,
                                  traceback: (msg.content.traceback || []).join('\\n')});
    }
    if (type === 'status' && msg.content.execution_state === 'idle' && msg.parent_header) {
      window.__clicksDone.add(msg.parent_header.msg_id);
    }
  });
}"""

# Widget text the learner cannot read: a radio option whose label wraps out of its fixed-height
# row (it overlaps the next option and pushes its own radio button out of sight), or a button
# whose label is cut with an ellipsis.
JS_CLIPPED_TEXT = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const clipped = [];
  for (const el of panel.node.querySelectorAll('.widget-radio-box label')) {
    if (el.scrollHeight > el.clientHeight + 1) clipped.push(`radio option: ${el.textContent.trim()}`);
  }
  for (const el of panel.node.querySelectorAll('.jp-OutputArea-output button.jupyter-button')) {
    if (el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      clipped.push(`button: ${el.textContent.trim()}`);
  }
  return clipped;
}"""

JS_CLICKS_SENT = "() => window.__clicksSent.length"

JS_CLICKS_DONE = """(before) => window.__clicksSent.length > before
  && window.__clicksSent.every(id => window.__clicksDone.has(id))"""

# Not awaited here: the wait below bounds it with a timeout.
JS_RUN_ALL = """() => {
  window.jupyterapp.commands.execute('notebook:run-all-cells');
}"""

JS_ALL_DONE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session.kernel;
  if (!kernel || kernel.status !== 'idle') return false;
  for (const cell of panel.content.widgets) {
    if (cell.model.type !== 'code') continue;
    if (cell.model.executionState === 'running') return false;
    if (cell.promptNode && cell.promptNode.textContent.includes('*')) return false;
  }
  return true;
}"""

# ipywidgets' renderer shows this text until the widget model arrives, then replaces it.
JS_WIDGETS_SETTLED = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return !Array.from(panel.node.querySelectorAll('.jp-OutputArea-output'))
    .some(node => node.textContent.trim() === 'Loading widget...');
}"""

# Per code cell: its error outputs, and for each widget output in the model, what the DOM shows
# in the same position of the cell's output area.
JS_REPORT = """(mime) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = [];
  panel.content.widgets.forEach((cell, index) => {
    if (cell.model.type !== 'code') return;
    const outputs = cell.model.outputs.toJSON();
    const nodes = cell.outputArea.node.querySelectorAll(':scope > .jp-OutputArea-child > .jp-OutputArea-output');
    const widgetViews = [];
    outputs.forEach((output, i) => {
      if (!(output.data && output.data[mime] && output.data[mime].model_id)) return;
      const node = nodes[i];
      widgetViews.push({
        text: node ? node.textContent.slice(0, 200) : '(no output node)',
        rendered: !!node && !!node.querySelector('.jupyter-widgets')
          && !node.textContent.includes('Error displaying widget'),
      });
    });
    cells.push({
      index,
      source: cell.model.sharedModel.getSource().slice(0, 120),
      executionCount: cell.model.executionCount,
      errors: outputs.filter(o => o.output_type === 'error').map(o => `${o.ename}: ${o.evalue}`),
      widgetViews,
    });
  });
  const widgetNodes = panel.node.querySelectorAll('.jp-OutputArea-output .jupyter-widgets').length;
  return {cells, widgetNodes, kernelErrors: window.__kernelErrors};
}"""

# The crash lab's button (lesson3/lab.py): after a click its Output must show a real SIGKILL.
CRASH_LAB_BUTTON = "Provocar la caída y reanudar"
CRASH_LAB_FAILED = "El laboratorio falló"

# ipywidgets Button widgets only (ToggleButtons change a value instead of sending a click).
BUTTON_SELECTOR = ".jp-OutputArea-output button.widget-button"
# The practice widget (lesson3.practice.question_widget): a letter's toggle button, then this one.
QUESTION_BUTTON = "Comprobar"
QUESTION_LETTER_SELECTOR = "button.widget-toggle-button"
# What an answer cell (lesson3.practice.show_feedback) says before any answer, and after one given with a click.
UNANSWERED = "Todavía no respondiste"
ANSWERED_BY_CLICK = "Con un clic en el widget de arriba"

# The crash lab after a click: where its result is against the diagram, and against the screen.
JS_CRASH_LAB_PLACES = """(label) => {
  const button = Array.from(document.querySelectorAll('button.widget-button'))
    .find(b => b.textContent.trim() === label);
  const lab = button.closest('.widget-vbox');
  const result = lab.querySelector('.widget-output').getBoundingClientRect();
  const diagram = lab.querySelector('svg').getBoundingClientRect();
  return {resultTop: result.top, diagramTop: diagram.top, buttonBottom: button.getBoundingClientRect().bottom};
}"""

# The crash lab's controls (lesson3/lab.py): each one's width and how far it sticks out of the notebook's output area
# (its 640 px dropdowns were cut off at 390 px).
JS_CRASH_LAB_CONTROLS = """(label) => {
  const button = Array.from(document.querySelectorAll('button.widget-button'))
    .find(b => b.textContent.trim() === label);
  const lab = button.closest('.widget-vbox');
  const area = lab.closest('.jp-OutputArea-output').getBoundingClientRect();
  return Array.from(lab.querySelectorAll(':scope > .widget-dropdown, :scope > .widget-toggle-buttons, :scope > button'))
    .map(control => {
      const box = control.getBoundingClientRect();
      const select = control.querySelector('select');
      return {kind: ['widget-dropdown', 'widget-toggle-buttons', 'widget-button']
                .find(c => control.classList.contains(c)) || control.className,
              width: box.width, selectWidth: select ? select.getBoundingClientRect().width : null,
              beyond: Math.max(box.right, ...Array.from(control.querySelectorAll('*'))
                .map(c => c.getBoundingClientRect().right)) - area.right};
    });
}"""
# At 1280 px the dropdowns keep the width their options need (the longest fits without an ellipsis).
CRASH_LAB_WIDE_DROPDOWN_MIN_PX = 600

# Widgets (and their output areas) that scroll sideways: a scrollbar the learner did not ask for.
JS_SIDEWAYS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return Array.from(panel.node.querySelectorAll('.jp-OutputArea-output, .jp-OutputArea-output .jupyter-widgets'))
    .filter(el => el.querySelector('.jupyter-widgets') || el.classList.contains('jupyter-widgets'))
    .filter(el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
    .map(el => `${el.className}: ${el.textContent.trim().slice(0, 60)}`);
}"""

JS_WIDGET_BUTTONS = f"""() => {{
  const panel = window.jupyterapp.shell.currentWidget;
  return panel.node.querySelectorAll('{BUTTON_SELECTOR}').length;
}}"""

# The viewport height that shows the whole notebook: from the top of the page to just below the
# last cell (not the blank scroll-past-end space), plus what sits under the notebook (status bar).
JS_FULL_HEIGHT = """() => {
  const app = window.jupyterapp;
  app.shell.collapseLeft();
  app.shell.collapseRight();
  const panel = app.shell.currentWidget;
  const scroller = panel.content.node.querySelector('.jp-WindowedPanel-outer') || panel.content.node;
  scroller.scrollTop = 0;
  const cells = panel.content.widgets;
  const lastBottom = cells[cells.length - 1].node.getBoundingClientRect().bottom;
  const below = window.innerHeight - scroller.getBoundingClientRect().bottom;
  return Math.ceil(Math.max(window.innerHeight, lastBottom + 40 + below));
}"""


# check()'s table (autograder.notebook.render_html, class lesson3-check): the computed alignment of every cell,
# which JupyterLab's `.jp-RenderedHTMLCommon td { text-align: right }` would make "right", and whether a
# table sticks out of its output area (unreadable on a narrow screen: it would scroll sideways).
JS_CHECK_TABLES = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const tables = Array.from(panel.node.querySelectorAll('table.lesson3-check'));
  // A word broken inside: some word of the cell's text whose glyphs sit on more than one line.
  const brokenWords = (cell) => {
    const broken = [];
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (const match of node.textContent.matchAll(/[A-Za-zÀ-ÿ]{2,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index); range.setEnd(node, match.index + match[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  };
  const rows = tables.flatMap(t => Array.from(t.querySelectorAll('tr.criterion')));
  return {
    tables: tables.length,
    aligns: tables.flatMap(t => Array.from(t.querySelectorAll('td, th')).map(c => getComputedStyle(c).textAlign)),
    overflowing: tables.filter(t => {
      const area = t.closest('.jp-OutputArea-output');
      return area && t.getBoundingClientRect().right > area.getBoundingClientRect().right + 1;
    }).length,
    broken: tables.flatMap(t => Array.from(t.querySelectorAll('th, tr.criterion td')).flatMap(brokenWords)),
    // per criterion: the mark's column width, and the comment's width against the table's
    marks: rows.map(r => r.cells[0].getBoundingClientRect().width),
    comments: rows.map(r => {
      const comment = r.nextElementSibling.cells[1];
      return comment.getBoundingClientRect().width / r.closest('table').getBoundingClientRect().width;
    }),
  };
}"""

# Whether opening the notebook (and its kernel connecting) marked it modified, and why it could:
# JupyterLab rewrites kernelspec and language_info from the kernel unless they are already equal.
JS_OPENED_CLEAN = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const model = panel.context.model;
  return {dirty: model.dirty, languageInfo: model.getMetadata('language_info'),
          kernelspec: model.getMetadata('kernelspec')};
}"""

CHECK_TABLE_NARROW_WIDTH = 390
# The ✔/✘ column: about the mark's own width (it took ~240 px when the comment was a column of its own).
CHECK_MARK_MAX_PX = 40
# Each comment spans most of the table's width (not a tall narrow wall beside the criterion).
CHECK_COMMENT_MIN_SHARE = 0.8

JS_COLLAPSE_SIDES = """() => { window.jupyterapp.shell.collapseLeft(); window.jupyterapp.shell.collapseRight(); }"""


def _wait(page: Any, js: str, arg: Any, timeout_s: float, what: str, server: LabServer) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(js, arg=arg, timeout=timeout_s * 1000, polling=250)
    except PlaywrightTimeout:
        pytest.fail(f"timed out after {timeout_s} s waiting for {what}\nserver log:\n{server.log_tail()}")


ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def _screenshot(page: Any, rel: str) -> Path | None:
    """The whole notebook in one image: the viewport is grown to the notebook's full height."""
    from playwright.sync_api import Error as PlaywrightError

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / f"{rel.replace('/', '__').removesuffix('.ipynb')}.png"
    try:
        height = min(page.evaluate(JS_FULL_HEIGHT), MAX_SCREENSHOT_HEIGHT)
        page.set_viewport_size({"width": 1280, "height": height})
        page.wait_for_timeout(500)  # relayout at the new size
        page.screenshot(path=str(shot), full_page=True, timeout=60_000)
    except PlaywrightError as exc:
        print(f"no screenshot of {rel}: {exc}")
        return None
    return shot


def _describe_errors(report: dict[str, Any]) -> str:
    lines = []
    for cell in report["cells"]:
        for error in cell["errors"]:
            lines.append(f"cell {cell['index']} ({cell['source']!r}): {error}")
    for error in report["kernelErrors"]:
        traceback = ANSI_ESCAPE.sub("", error["traceback"])[-2000:]
        lines.append(f"kernel error (in a {error['parent']}): {error['ename']}: {error['evalue']}\n{traceback}")
    return "\n".join(lines)


# A missing (or renamed) exercises notebook is a failure, not an empty, silently skipped parametrisation.
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize(
    "notebook",
    (
        [pytest.param(p, id=p.relative_to(NOTEBOOKS).as_posix()) for p in exercises_notebooks()]
        or [pytest.param(None, id="no-exercises-notebook")]
    )
    + [pytest.param(p, id=p.relative_to(NOTEBOOKS).as_posix()) for p in other_widget_notebooks()],
)
def test_notebook_widgets_render_in_jupyterlab(
    notebook: Path | None, lab_server: LabServer, browser_context: Any
) -> None:
    if notebook is None:
        pytest.fail(f"no exercises notebook (04*.ipynb) under {NOTEBOOKS}")
    rel = notebook.relative_to(NOTEBOOKS).as_posix()
    page = browser_context.new_page()
    console_errors: list[str] = []
    page.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: console_errors.append(f"page error: {exc}"))
    try:
        started = time.monotonic()
        page.goto(f"{lab_server.base_url}lab/tree/{rel}?token={lab_server.token}", wait_until="domcontentloaded")
        _wait(page, JS_NOTEBOOK_READY, rel, KERNEL_READY_TIMEOUT_S, f"{rel} to open with an idle kernel", lab_server)
        page.wait_for_timeout(1000)  # the kernel's info reply (language_info) lands after it goes idle
        opened_state = page.evaluate(JS_OPENED_CLEAN)
        stored = json.loads(notebook.read_text(encoding="utf-8"))["metadata"]
        if stored.get("language_info", {}).get("version") == opened_state["languageInfo"].get("version"):
            assert not opened_state["dirty"], f"{rel} is marked modified just by opening it: {opened_state}"
        else:  # built on another Python patch release: everything but the version must still match
            assert {k: v for k, v in opened_state["languageInfo"].items() if k != "version"} == {
                k: v for k, v in stored["language_info"].items() if k != "version"
            }
        page.evaluate(JS_WATCH_KERNEL)
        opened = time.monotonic()

        page.evaluate(JS_RUN_ALL)
        _wait(page, JS_ALL_DONE, None, RUN_ALL_TIMEOUT_S, "all cells to finish", lab_server)
        _wait(page, JS_WIDGETS_SETTLED, None, WIDGET_RENDER_TIMEOUT_S, "widgets to render", lab_server)
        ran = time.monotonic()

        report = page.evaluate(JS_REPORT, WIDGET_MIME)
        errors = _describe_errors(report)
        if errors:
            pytest.fail(f"errors while running {rel}:\n{errors}")
        unexecuted = [cell["index"] for cell in report["cells"] if not cell["executionCount"]]
        assert not unexecuted, f"cells of {rel} left unexecuted: {unexecuted}"

        if notebook in exercises_notebooks():
            for width in (CHECK_TABLE_NARROW_WIDTH, 1280):
                page.set_viewport_size({"width": width, "height": 900})
                page.evaluate(JS_COLLAPSE_SIDES)  # the notebook's own width, whatever the side panels do
                page.wait_for_timeout(500)  # relayout at this width
                tables = page.evaluate(JS_CHECK_TABLES)
                assert tables["tables"] > 0, f"{rel}: no check() table rendered"
                assert set(tables["aligns"]) == {"left"}, f"check() cells not left-aligned in {rel}: {tables['aligns']}"
                assert tables["overflowing"] == 0, f"{rel}: check() tables stick out at {width} px"
                assert not tables["broken"], f"{rel}: words broken inside at {width} px: {tables['broken'][:10]}"
                assert tables["marks"] and max(tables["marks"]) <= CHECK_MARK_MAX_PX, (width, tables["marks"])
                assert min(tables["comments"]) >= CHECK_COMMENT_MIN_SHARE, (width, tables["comments"])
            page.set_viewport_size({"width": 1280, "height": 900})

        if "crash_lab(" in notebook.read_text(encoding="utf-8"):  # the crash lab, at a phone's width and a desktop's
            for width in (CHECK_TABLE_NARROW_WIDTH, 1280):
                page.set_viewport_size({"width": width, "height": 900})
                page.evaluate(JS_COLLAPSE_SIDES)
                page.wait_for_timeout(500)  # relayout at this width
                controls = page.evaluate(JS_CRASH_LAB_CONTROLS, CRASH_LAB_BUTTON)
                assert len(controls) == 4, controls  # two dropdowns, the tools' buttons, the button
                assert max(c["beyond"] for c in controls) <= 1, (width, controls)
                if width == 1280:
                    dropdowns = [c for c in controls if c["kind"] == "widget-dropdown"]
                    assert min(c["width"] for c in dropdowns) >= CRASH_LAB_WIDE_DROPDOWN_MIN_PX, controls
            page.set_viewport_size({"width": 1280, "height": 900})

        views = [(cell["index"], view) for cell in report["cells"] for view in cell["widgetViews"]]
        assert views, f"{rel} displays no widget at all"
        broken = [(index, view["text"]) for index, view in views if not view["rendered"]]
        assert not broken, f"widgets that did not render in {rel} (cell, text): {broken}\nconsole: {console_errors}"

        clipped = page.evaluate(JS_CLIPPED_TEXT)
        assert not clipped, f"widget text cut off or overlapping in {rel}: {clipped}"
        sideways = page.evaluate(JS_SIDEWAYS)
        assert not sideways, f"widgets that scroll sideways in {rel}: {sideways}"

        # Click every widget button once: the comm round trip works and no callback raises.
        buttons = page.locator(BUTTON_SELECTOR)
        clicks: list[str] = []
        lab_reports: list[str] = []
        for i in range(page.evaluate(JS_WIDGET_BUTTONS)):
            button = buttons.nth(i)
            if not (button.is_visible() and button.is_enabled()):
                continue
            label = button.inner_text()
            sent = page.evaluate(JS_CLICKS_SENT)
            button.scroll_into_view_if_needed()
            if label == QUESTION_BUTTON:  # answer as a learner does: a letter, then «Comprobar»
                button.locator("xpath=..").locator(QUESTION_LETTER_SELECTOR).first.click()
            button.click()
            _wait(page, JS_CLICKS_DONE, sent, CLICK_TIMEOUT_S, f"the callback of button {label!r}", lab_server)
            _wait(page, JS_ALL_DONE, None, CLICK_TIMEOUT_S, f"the kernel after clicking {label!r}", lab_server)
            clicks.append(label)
            if label == CRASH_LAB_BUTTON:
                lab_reports.append(button.locator("xpath=..").locator(".widget-output").inner_text())
                places = page.evaluate(JS_CRASH_LAB_PLACES, CRASH_LAB_BUTTON)
                # The result right under the button that made it, above the tall diagram (it was below, off-screen).
                assert places["buttonBottom"] <= places["resultTop"] < places["diagramTop"], places
        _wait(page, JS_WIDGETS_SETTLED, None, WIDGET_RENDER_TIMEOUT_S, "widgets to render", lab_server)
        clicked = time.monotonic()
        report = page.evaluate(JS_REPORT, WIDGET_MIME)
        errors = _describe_errors(report)
        if errors:
            pytest.fail(f"errors after clicking the buttons {clicks} of {rel}:\n{errors}")
        for lab_report in lab_reports:
            # The lab catches its own exceptions to stay usable, so look at what it printed.
            assert CRASH_LAB_FAILED not in lab_report and "SIGKILL" in lab_report, lab_report
        # Each answer cell of a question answered with its widget now says so, not «Todavía no respondiste».
        sources = page.evaluate(JS_CODE_SOURCES)
        for index, source in enumerate(sources):
            if source is not None and "show_feedback(" in source and QUESTION_BUTTON in clicks:
                said = page.evaluate(JS_CELL_OUTPUT, index)["text"]
                assert ANSWERED_BY_CLICK in said and UNANSWERED not in said, (index, said)

        print(
            f"{rel}: open {opened - started:.1f} s, run all {ran - opened:.1f} s, "
            f"{len(clicks)} clicks {clicked - ran:.1f} s, {len(views)} widget outputs "
            f"({report['widgetNodes']} widget nodes)"
        )
    finally:
        # Also (above all) when the test failed: the screenshot shows where it stopped.
        shot = _screenshot(page, rel)
        print(f"screenshot: {shot}")
        page.close()


def test_missing_browser_skips_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match=REQUIRE_ENV):
        _missing_browser("chromium is not installed")
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="chromium is not installed"):
        _missing_browser("chromium is not installed")


# --- the grader's reports in a browser: resumen.html for the instructor, feedback for the learner ---

JS_OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"
JS_LABEL_BOXES = """() => Array.from(document.querySelectorAll('svg text.xlabel')).map(t => {
  const r = t.getBoundingClientRect(); return [r.left, r.right, t.textContent];
})"""
JS_COLUMN = """(col) => Array.from(document.querySelectorAll('#matrix tbody tr'))
  .filter(r => !r.hidden).map(r => r.cells[col].getAttribute('data-sort'))"""
# Each cell's box and the box of the text inside it: a label that spills out of its cell overlaps its neighbour.
# ``lines``: how many lines its text takes; more lines than words means a column squeezed to a few letters.
JS_CELL_BOXES = """(selector) => Array.from(document.querySelectorAll(selector)).map(cell => {
  const box = cell.getBoundingClientRect();
  const range = document.createRange(); range.selectNodeContents(cell);
  const ink = range.getBoundingClientRect();
  const lineHeight = parseFloat(getComputedStyle(cell).lineHeight) || 1;
  const text = cell.textContent.trim();
  return {label: text.slice(0, 40), box: [box.left, box.top, box.right, box.bottom],
          ink: [ink.left, ink.top, ink.right, ink.bottom],
          lines: Math.round(ink.height / lineHeight), words: text.split(/\\s+/).length};
})"""
# On a phone the map's tables are cards: the column titles are hidden and said before each value instead.
JS_BROKEN_WORDS = """(selector) => {
  // Every word (a run of non-spaces) of the visible elements matching selector that the layout split over lines.
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""
"""Words a layout broke inside: «Según la lección» in fragments, «nivel2.tool_result_paired» split mid-word."""

JS_AS_CARDS = """(selector) => getComputedStyle(document.querySelector(selector)).position === 'absolute'"""
# Every line box of every learner's link in the map (a long name wraps onto several).
JS_LINK_RECTS = """(selector) => Array.from(document.querySelectorAll(selector)).map(a => ({
  label: a.textContent.slice(0, 40),
  rects: Array.from(a.getClientRects()).map(r => [r.left, r.top, r.right, r.bottom]),
}))"""
# The map as the page shows it: kind -> move -> (count, names).
JS_MAP = """() => Object.fromEntries(Array.from(document.querySelectorAll('table.moves')).map(t => [
  t.id.replace('moves-', ''),
  Object.fromEntries(Array.from(t.querySelectorAll('tbody tr')).map(r => [
    r.getAttribute('data-move'),
    [Number(r.querySelector('td.count').textContent),
     Array.from(r.querySelectorAll('td.who a')).map(a => a.textContent)],
  ])),
]))"""


MAP_MOVES = [
    {"read_only": ["rerun"], "high_impact": ["is_error"]},
    {"read_only": ["rerun"], "high_impact": ["rerun"]},
    {"read_only": ["delete"], "high_impact": ["delete"]},
    {"read_only": ["is_error"], "high_impact": ["is_error"]},
    {"read_only": ["dangling"], "high_impact": ["dangling"]},
    {"read_only": ["rerun"], "high_impact": ["rerun", "is_error"]},
]
"""What each learner's reconcile did, in turn (the learner with an error has none)."""


def _crowded_map(out: Path) -> None:
    """A class of 40 where most made the same moves: the map's «who» cells hold long lists of names."""
    from autograder.course.criteria import CRITERIA, required_ids
    from autograder.reporting.report import ReportEntry, write_reports
    from autograder.wire.results import CriterionResult, SubmissionResult

    entries = []
    for k in range(40):
        crit = [CriterionResult(c, True, CRITERIA[c].points, CRITERIA[c].points, "bien") for c in required_ids()]
        result = SubmissionResult.from_criteria("04_ejercicios.ipynb", crit, seed=5)
        result.moves = MAP_MOVES[k % 2]
        learner = f"María José Fernández-Villaverde {k}"
        entries.append(ReportEntry(result, f"clase/{learner}", f"alumno_{k}", learner=learner, learner_id=str(100 + k)))
    write_reports(out, entries, lang="es", seed=5)


def _expected_map(out: Path) -> dict[str, dict[str, list[Any]]]:
    """The map resumen.html must show, counted here from results.json (graded learners with a record)."""
    from autograder.wire.results import MOVES, TOOL_KINDS

    submissions = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
    counted = [s for s in submissions if s["graded"] and s.get("moves")]
    shown: dict[str, dict[str, list[Any]]] = {}
    for kind in TOOL_KINDS:
        shown[kind] = {}
        for move in MOVES:
            names = [s["learner"] for s in counted if move in s["moves"].get(kind, [])]
            shown[kind][move] = [len(names), names]
    return shown


def _overlaps(a: list[float], b: list[float], slack: float = 0.5) -> bool:
    """Two boxes [left, top, right, bottom] share more than a hairline."""
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _assert_labels_apart(page: Any, selector: str, width: int) -> int:
    """No two cells of ``selector`` overlap, and no cell's text runs out of its cell. Returns how many there are."""
    import itertools

    cells = page.evaluate(JS_CELL_BOXES, selector)
    for a, b in itertools.combinations(cells, 2):
        assert not _overlaps(a["box"], b["box"]), f"{a['label']!r} and {b['label']!r} overlap at {width} px"
    for cell in cells:
        (left, top, right, bottom), (ileft, itop, iright, ibottom) = cell["box"], cell["ink"]
        if iright > ileft:  # an empty cell has no text to spill
            inside = ileft >= left - 1 and iright <= right + 1 and itop >= top - 1 and ibottom <= bottom + 1
            assert inside, f"{cell['label']!r} runs out of its cell at {width} px"
            assert cell["lines"] <= cell["words"], f"{cell['label']!r} is squeezed into {cell['lines']} lines"
    return len(cells)


def _report_class(out: Path) -> None:
    """A class with what makes reports hard: long and accented names, warnings, flags, an error, ungraded rows."""
    from autograder.course.criteria import CRITERIA, required_ids
    from autograder.reporting.report import ReportEntry, feedback_names, write_reports
    from autograder.wire.results import CriterionResult, SubmissionResult

    ids = required_ids()
    learners = [
        "Ana García",
        "Jose\u0301 Pe\u0301rez",
        "María José Fernández de la Concepción y Villanueva Castellanos de Borbón",
        *(f"Estudiante {k}" for k in range(9)),
        "Zoë_" + "x" * 120,
    ]
    entries = []
    for k, (learner, name) in enumerate(zip(learners, feedback_names(learners), strict=True)):
        crit = [
            CriterionResult(
                c,
                (k + i) % 3 != 0,
                CRITERIA[c].points * ((k + i) % 3 != 0),
                CRITERIA[c].points,
                "Tu función devolvió None; caso checkpoint_truncado_" + "a1b2c3" * 12 + ".json",
            )
            for i, c in enumerate(ids)
        ]
        result = SubmissionResult.from_criteria(f"tarea4_{'y' * 3 * k}.ipynb", crit, seed=5)
        if k % 4 == 0:
            result.warnings = [f"La celda {k + 2} lanzó ZeroDivisionError", "No existe el módulo «numpy»"]
        if k % 5 == 1:
            result.flags = ["delega en lesson3: reconcile usa lesson3.reconcile"]
        if k == 3:
            result.error = "SyntaxError: invalid syntax (línea 12)"
        else:
            result.moves = MAP_MOVES[k % len(MAP_MOVES)]
        entries.append(
            ReportEntry(
                result, f"/srv/clase/lms.zip/{learner}/{result.submission}", name, learner=learner, graded=k < 10
            )
        )
    write_reports(out, entries, lang="es", seed=5)


@pytest.mark.browser
@pytest.mark.slow
def test_resumen_and_feedback_read_in_chromium(browser_context: Any, tmp_path: Path) -> None:
    import itertools

    from autograder.course.criteria import required_ids

    out = tmp_path / "informes"
    _report_class(out)
    expected = _expected_map(out)
    page = browser_context.new_page()
    try:
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto((out / "resumen.html").as_uri())
            assert page.evaluate(JS_OVERFLOW) <= 0, f"resumen.html scrolls sideways at {width} px"
            # The interrupted run says so first; the flags and warnings are on the page, not in tooltips.
            assert page.locator("#interrupted").is_visible()
            assert "Calificación interrumpida: 10 de 13" in page.locator("#interrupted").inner_text()
            for text in ("No existe el módulo «numpy»", "delega en lesson3: reconcile usa lesson3.reconcile"):
                item = page.locator("li", has_text=text).first
                item.scroll_into_view_if_needed()
                assert item.is_visible(), text
            assert page.locator("#definition").is_visible()
            boxes = page.evaluate(JS_LABEL_BOXES)
            assert len(boxes) >= 10
            for (_, right, a), (left, _, b) in itertools.pairwise(boxes):
                assert right <= left, f"histogram labels {a!r} and {b!r} overlap at {width} px"
            # The learner × criterion table: every column's title apart from the others, inside its cell.
            assert page.locator("#matrix").is_visible()
            assert _assert_labels_apart(page, "#matrix thead th", width) == 6 + len(required_ids())
            # The misconception map: what results.json says, every name a link, no label over another.
            page.locator("#map").scroll_into_view_if_needed()
            assert page.locator("#map").is_visible()
            assert page.locator("#map").inner_text() == "Mapa de errores de concepto"
            shown = page.evaluate(JS_MAP)
            assert shown == expected and expected["high_impact"]["is_error"][0] > 0
            for kind in ("read_only", "high_impact"):
                table = page.locator(f"#moves-{kind}")
                table.scroll_into_view_if_needed()
                assert table.is_visible()
                if page.evaluate(JS_AS_CARDS, f"#moves-{kind} thead"):
                    assert width < 640  # a card per move, each value after its column's title
                    labelled = page.locator(f"#moves-{kind} tbody td[data-label]").count()
                    assert labelled == 3 * len(expected[kind])
                else:
                    assert _assert_labels_apart(page, f"#moves-{kind} thead th", width) == 4
                _assert_labels_apart(page, f"#moves-{kind} tbody td", width)
                # The move and its role are words a reader reads whole («Según la lección»): never split inside.
                cards = page.evaluate(JS_AS_CARDS, f"#moves-{kind} thead")  # its header hidden, for readers
                whole = (
                    "" if cards else f"#moves-{kind} th, "
                ) + f"#moves-{kind} td.move, #moves-{kind} td[class^='role-']"
                assert page.evaluate(JS_BROKEN_WORDS, whole) == [], f"words broken in the map at {width} px"
            links = page.evaluate(JS_LINK_RECTS, "table.moves td.who a")
            assert len(links) == sum(n for kind in expected.values() for n, _ in kind.values())
            for a, b in itertools.combinations(links, 2):
                for ra, rb in itertools.product(a["rects"], b["rects"]):
                    assert not _overlaps(ra, rb), f"{a['label']!r} and {b['label']!r} overlap at {width} px"
            assert "Fuera del mapa" in page.locator("#map-apart").inner_text()
            _screenshot_report(page, f"resumen-{width}")

        # A crowded map: the names take the room they need, and «Según la lección» stays words, not fragments.
        crowded = tmp_path / "llena"
        _crowded_map(crowded)
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto((crowded / "resumen.html").as_uri())
            assert page.evaluate(JS_OVERFLOW) <= 0, f"a crowded resumen.html scrolls sideways at {width} px"
            whole = "table.moves td.move, table.moves td[class^='role-']"
            assert page.locator("table.moves td.role-lesson").count() >= 1
            assert page.evaluate(JS_BROKEN_WORDS, whole) == [], f"words broken in a crowded map at {width} px"

        # The table sorts (numbers as numbers, ungraded rows last) and filters, all in the page.
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto((out / "resumen.html").as_uri())
        assert page.locator("#matrix-controls").is_visible()
        page.locator("#matrix thead th").nth(2).locator("button").click()  # Nota (0–10)
        grades = page.evaluate(JS_COLUMN, 2)
        numbers = [float(g) for g in grades if g]
        assert numbers == sorted(numbers) and grades[-3:] == ["", "", ""]
        assert page.locator("#matrix thead th").nth(2).get_attribute("aria-sort") == "ascending"
        page.locator("#matrix thead th").nth(2).locator("button").click()
        numbers = [float(g) for g in page.evaluate(JS_COLUMN, 2) if g]
        assert numbers == sorted(numbers, reverse=True)
        page.locator("#matrix-filter").fill("estudiante")
        assert len(page.evaluate(JS_COLUMN, 0)) == 9
        page.locator("#matrix-filter").fill("")
        page.locator("#matrix-problems").check()
        problems = page.evaluate(
            "() => Array.from(document.querySelectorAll('#matrix tbody tr')).filter(r => !r.hidden)"
            ".map(r => r.getAttribute('data-problem'))"
        )
        assert problems and set(problems) == {"1"}

        # A learner's page on a phone: nothing runs off the side.
        feedback = sorted((out / "feedback").glob("*.html"), key=lambda p: -len(p.name))[0]
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(feedback.as_uri())
            assert page.evaluate(JS_OVERFLOW) <= 0, f"{feedback.name} scrolls sideways at {width} px"
            # A criterion's id is one word a learner may search for: never split over two lines.
            assert page.locator("table.cards td code").count() == len(required_ids())
            assert page.evaluate(JS_BROKEN_WORDS, "table.cards td code") == [], f"an id broken at {width} px"
            _screenshot_report(page, f"feedback-{width}")
    finally:
        page.close()


def _screenshot_report(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, timeout=60_000)


# --- JupyterLab in Spanish; notebook 04 the way a learner uses it (issue 16) ---

JS_MENU_BAR = """() => Array.from(document.querySelectorAll('#jp-menu-panel .lm-MenuBar-itemLabel'))
  .map(label => label.textContent.trim())"""

# The commands behind the menu paths the notebooks quote (notebook 01 and 04: «Ejecutar › Ejecutar todas las
# celdas», «Kernel › Reiniciar el kernel»), as JupyterLab labels them in the interface's language.
JS_COMMAND_LABELS = """() => {
  const commands = window.jupyterapp.commands;
  return {runAll: commands.label('notebook:run-all-cells'), restart: commands.label('kernelmenu:restart'),
          runCell: commands.label('notebook:run-cell-and-select-next')};
}"""

# Every item a learner sees in the deepest menu open (a menu of the bar, or the submenu opened from it): its label,
# whether it opens a submenu, and its command.
JS_OPEN_MENU_ITEMS = """() => {
  const menus = document.querySelectorAll('.lm-Menu:not(.lm-MenuBar)');
  if (!menus.length) return [];
  return Array.from(menus[menus.length - 1].querySelectorAll(':scope > .lm-Menu-content > .lm-Menu-item'))
    .filter(item => item.offsetParent !== null && item.dataset.type !== 'separator')
    .map(item => ({label: item.querySelector('.lm-Menu-itemLabel').textContent.trim(),
                   submenu: item.dataset.type === 'submenu', command: item.dataset.command || ''}))
    .filter(item => item.label);
}"""
# Items whose labels are names, not words of the interface: the open documents (Pestañas), recent paths, the
# languages a text editor highlights, the editor's themes, and the languages offered (their own names, or the
# system's: JupyterLab's server names them in the language of the machine it runs on).
NAMED_BY_COMMAND = re.compile(
    r"^(tabsmenu:activate-by-id|recentmenu:open-recent|fileeditor:change-language|fileeditor:change-theme"
    r"|jupyterlab-translation:(?!install-languages).*)$"
)

# Not awaited: the command resolves only when the dialog closes.
JS_ASK_RESTART = """() => { window.jupyterapp.commands.execute('kernelmenu:restart'); }"""

# English a learner would meet in a menu item or dialog left untranslated (a whole word, as JupyterLab writes it).
ENGLISH_WORDS = re.compile(
    r"\b(Run|Cells?|Selected|Restart|Kernel|Tabs?|Activate|Next|Previous|Clear|and|Do|All|Modified"
    r"|Show|Open|Save|New|Close|Reopen|Closed|Documents?|Recent|Files?|Notebook|Text|View|Reload|Disk|Rename"
    r"|Duplicate|Revert|Workspaces?|Create|Clone|Import|Export|Delete|Reset|Sessions|Debugger|Notifications"
    r"|Code|Folding|Fold|Unfold|Regions?|Subregions|Render|Side|Fullscreen|Mode|Left|Right|Down|Area|Activity"
    r"|Bar|Indicator|Minimap|Position|Layout|Default|Theme|Scrollbars|Dark|High|Contrast|Synchronize|System"
    r"|Settings|Console|Keystroke|Spaces|Brackets|Widget|State|Automatically|Install|more|languages|Licenses"
    r"|Keyboard|Shortcuts|Forum|Reference|About|Help|with|for|from|the|to)\b"
)
# Upstream's other words for the kernel; the course says «kernel».
OTHER_KERNEL_WORDS = re.compile(r"intérprete|[Nn]úcleo")

JS_CODE_SOURCES = """() => window.jupyterapp.shell.currentWidget.content.widgets
  .map(cell => cell.model.type === 'code' ? cell.model.sharedModel.getSource() : null)"""

# A real restart, without the confirmation dialog the menu item opens: the kernel process is replaced.
JS_RESTART = """async () => {
  const session = window.jupyterapp.shell.currentWidget.sessionContext;
  await session.session.kernel.restart();
}"""

JS_RUN_CELL = """async (index) => {
  const panel = window.jupyterapp.shell.currentWidget;
  panel.content.activeCellIndex = index;
  await window.jupyterapp.commands.execute('notebook:run-cell');
}"""

JS_CELL_OUTPUT = """(index) => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
  const outputs = cell.model.outputs.toJSON();
  return {
    errors: outputs.filter(o => o.output_type === 'error').map(o => `${o.ename}: ${o.evalue}`),
    text: cell.outputArea.node.textContent,
    count: cell.model.executionCount,
  };
}"""

JS_SET_SOURCE = """([index, source]) => {
  window.jupyterapp.shell.currentWidget.content.widgets[index].model.sharedModel.setSource(source);
}"""

# The rows of the last check() table on the page: criterion id -> its mark (✔, ✘ or …).
JS_LAST_CHECK_ROWS = """() => {
  const tables = Array.from(window.jupyterapp.shell.currentWidget.node.querySelectorAll('table.lesson3-check'));
  if (!tables.length) return null;
  const rows = {};
  for (const row of tables[tables.length - 1].querySelectorAll('tr')) {
    const code = row.querySelector('td code');
    if (code) rows[code.textContent.trim()] = row.cells[0].textContent.trim();
  }
  return rows;
}"""


def _open(page: Any, server: LabServer, rel: str) -> None:
    page.goto(f"{server.base_url}lab/tree/{rel}?token={server.token}", wait_until="domcontentloaded")
    _wait(page, JS_NOTEBOOK_READY, rel, KERNEL_READY_TIMEOUT_S, f"{rel} to open with an idle kernel", server)


def _run_cell(page: Any, server: LabServer, index: int) -> dict[str, Any]:
    page.evaluate(JS_RUN_CELL, index)
    _wait(page, JS_ALL_DONE, None, RUN_ALL_TIMEOUT_S, f"cell {index} to finish", server)
    return page.evaluate(JS_CELL_OUTPUT, index)


def _index(sources: list[str | None], needle: str, after: int = -1) -> int:
    """The first code cell after ``after`` whose source contains ``needle``."""
    for index, source in enumerate(sources):
        if index > after and source is not None and needle in source:
            return index
    raise AssertionError(f"no code cell with {needle!r} after cell {after}")


def _open_menu(page: Any, path: tuple[str, ...]) -> list[dict[str, Any]]:
    """The items of the menu at ``path`` (a title of the bar, then submenus), opened as a learner does: a click on
    the title, the pointer on each submenu."""
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    page.locator("#jp-menu-panel .lm-MenuBar-item", has_text=path[0]).first.click()
    for label in path[1:]:
        menu = page.locator(".lm-Menu:not(.lm-MenuBar)").last
        menu.locator(".lm-Menu-itemLabel").get_by_text(label, exact=True).first.hover()
        page.wait_for_function("(n) => document.querySelectorAll('.lm-Menu:not(.lm-MenuBar)').length > n", arg=1)
        page.wait_for_timeout(300)  # the submenu opens after Lumino's hover delay
    items = page.evaluate(JS_OPEN_MENU_ITEMS)
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    return items


def _every_menu(page: Any, titles: list[str]) -> dict[tuple[str, ...], list[dict[str, Any]]]:
    """Every menu of the bar and every submenu under it, by its path."""
    found: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    todo = [(title,) for title in titles]
    while todo:
        path = todo.pop(0)
        found[path] = _open_menu(page, path)
        todo += [(*path, item["label"]) for item in found[path] if item["submenu"]]
    return found


@pytest.mark.browser
@pytest.mark.slow
def test_jupyterlab_speaks_spanish(lab_server: LabServer, browser_context: Any) -> None:
    """The course's pack (jupyterlab_language_pack_es) made the default by jupyter-config/overrides.d/lesson3.json:
    every menu and submenu a learner opens with a notebook in front, the restart dialog and the file browser are
    Spanish, and say «kernel» only."""
    page = browser_context.new_page()
    try:
        _open(page, lab_server, "01_reanudar_no_reiniciar.ipynb")
        menus = page.evaluate(JS_MENU_BAR)
        assert menus == ["Archivo", "Editar", "Ver", "Ejecutar", "Kernel", "Pestañas", "Configuración", "Ayuda"], menus
        opened = _every_menu(page, menus)
        assert len(opened) > len(menus), f"no submenu opened: {list(opened)}"
        english, other_kernel_words = [], []
        for path, items in opened.items():
            assert items, path
            for item in items:
                where = f"{' › '.join(path)} › {item['label']}"
                if not NAMED_BY_COMMAND.match(item["command"]) and ENGLISH_WORDS.search(item["label"]):
                    english.append(where)
                if OTHER_KERNEL_WORDS.search(item["label"]):
                    other_kernel_words.append(where)
            if len(path) > 1 and ENGLISH_WORDS.search(path[-1]):
                english.append(f"{' › '.join(path)} (a submenu)")
        assert not english, "\n".join(english)
        assert not other_kernel_words, other_kernel_words
        # One Spanish among the languages: the course's pack (upstream's es_ES beside it was a second, uncorrected).
        languages = [item["command"] for item in opened["Configuración", "Idioma"]]
        assert [c for c in languages if c.startswith("jupyterlab-translation:es")] == ["jupyterlab-translation:es"]
        labels = page.evaluate(JS_COMMAND_LABELS)
        run_menu = [item["label"] for item in opened["Ejecutar",]]
        assert labels["runCell"] == "Ejecutar la celda seleccionada" and labels["runCell"] in run_menu
        notebooks = "\n".join(p.read_text(encoding="utf-8") for p in sorted((NOTEBOOKS / "src").glob("*.md")))
        # The menu items the notebooks tell learners to use are the ones JupyterLab shows.
        assert labels["runAll"] == "Ejecutar todas las celdas" and f"Ejecutar › {labels['runAll']}" in notebooks, labels
        assert f"Kernel › {labels['restart'].rstrip('…')}" in notebooks, labels
        assert not OTHER_KERNEL_WORDS.search(notebooks)
        # Every menu path the course cites (notebooks, check()'s and the grader's texts, the learner's edition's
        # README, in either language: the lab opens in Spanish for everyone) is a menu and an item this JupyterLab
        # shows (an ellipsis aside).
        from autograder.course.catalogue import entries

        spanish = notebooks + "\n".join(said for t in entries().values() for said in t.values())
        # An italic span is the English UI named as such («con JupyterLab en inglés, *Run › Run All Cells*»).
        spanish = re.sub(r"(?<!\*)\*[^*\n]+\*(?!\*)", "", spanish)
        cited = set(re.findall(r"\*\*(\w+) › ([^*]+)\*\*|\((\w+) › ([^)]+)\)|«(\w+) › ([^»]+)»", spanish))
        paths = {tuple(part for part in match if part) for match in cited}
        assert ("Archivo", "Guardar cuaderno") in paths, paths
        shown = {(path[0], item["label"].rstrip("…")) for path, items in opened.items() for item in items}
        assert {(menu, item.rstrip("…")) for menu, item in paths} <= shown, paths - shown
        # The file browser's column, and the restart dialog a learner answers.
        assert "Modificado" in page.locator(".jp-DirListing-header").inner_text()
        page.evaluate(JS_ASK_RESTART)
        dialog = page.locator(".jp-Dialog")
        said = dialog.inner_text()
        assert "¿Reiniciar el kernel?" in said and "Se perderán todas las variables" in said, said
        assert not ENGLISH_WORDS.search(said) and not OTHER_KERNEL_WORDS.search(said), said
        dialog.get_by_role("button", name="Cancelar").click()
        # JupyterLab asks in English whether to fetch Jupyter's news (and says when a newer version is out)
        # unless its settings say otherwise: by now, seconds after the page was restored, it would be showing.
        toasts = page.locator(".Toastify__toast").all_inner_texts()
        assert toasts == [], toasts
    finally:
        page.close()


JS_SHELL_LAYOUT = """() => {
  const shell = window.jupyterapp.shell;
  return {leftCollapsed: shell.leftCollapsed, rightCollapsed: shell.rightCollapsed,
          notebookWidth: shell.currentWidget.node.getBoundingClientRect().width, viewport: window.innerWidth};
}"""
# At 390 px the notebook had 45 px beside the open file browser; with the panels closed it has most of the screen.
NARROW_NOTEBOOK_MIN_SHARE = 0.75


JS_TOGGLE_LEFT = """() => window.jupyterapp.commands.execute('application:toggle-left-area')"""


def _resize(page: Any, width: int) -> dict[str, Any]:
    """The shell's layout once the window is ``width`` px wide (the extension acts on the media query's change)."""
    page.set_viewport_size({"width": width, "height": 800})
    page.wait_for_timeout(700)  # the resize event, the media query's change, the relayout
    return page.evaluate(JS_SHELL_LAYOUT)


@pytest.mark.browser
@pytest.mark.slow
def test_a_narrow_screen_opens_with_the_side_panels_closed(lab_server: LabServer, browser_context: Any) -> None:
    """A first visit (a workspace of its own: nothing restored) on a phone, then on a desktop: the course's extension
    (jupyter-config/labextensions/lesson3-narrow-screens) closes the panels on the phone only; then the desktop's
    window made narrow closes them too, and a panel the learner opens again while it is narrow stays open."""
    rel = "01_reanudar_no_reiniciar.ipynb"
    page = browser_context.new_page()
    try:
        for width, workspace in ((CHECK_TABLE_NARROW_WIDTH, "telefono"), (1280, "escritorio")):
            page.set_viewport_size({"width": width, "height": 800})
            page.goto(
                f"{lab_server.base_url}lab/workspaces/{workspace}/tree/{rel}?token={lab_server.token}",
                wait_until="domcontentloaded",
            )
            _wait(page, JS_NOTEBOOK_READY, rel, KERNEL_READY_TIMEOUT_S, f"{rel} at {width} px", lab_server)
            page.wait_for_timeout(500)  # the layout settles after the restore
            layout = page.evaluate(JS_SHELL_LAYOUT)
            _screenshot_report(page, f"primera-visita-{width}")
            if width == CHECK_TABLE_NARROW_WIDTH:
                assert layout["leftCollapsed"] and layout["rightCollapsed"], layout
                assert layout["notebookWidth"] >= NARROW_NOTEBOOK_MIN_SHARE * layout["viewport"], layout
            else:  # a desktop keeps JupyterLab's own first layout: the file browser open
                assert not layout["leftCollapsed"], layout
        # The desktop's window made narrow (at 1280 px the file browser is open): the panels close.
        layout = _resize(page, CHECK_TABLE_NARROW_WIDTH)
        _screenshot_report(page, "ventana-estrechada")
        assert layout["leftCollapsed"] and layout["rightCollapsed"], layout
        assert layout["notebookWidth"] >= NARROW_NOTEBOOK_MIN_SHARE * layout["viewport"], layout
        # The learner opens the file browser again on purpose: it stays open, also through resizes that keep the
        # window narrow.
        page.evaluate(JS_TOGGLE_LEFT)
        page.wait_for_timeout(500)
        assert not page.evaluate(JS_SHELL_LAYOUT)["leftCollapsed"]
        for width in (500, CHECK_TABLE_NARROW_WIDTH):
            assert not _resize(page, width)["leftCollapsed"], f"the panel the learner opened closed at {width} px"
        # Wide again, the learner's open panel is left as it is; narrow once more, it closes.
        assert not _resize(page, 1280)["leftCollapsed"]
        assert _resize(page, CHECK_TABLE_NARROW_WIDTH)["leftCollapsed"]
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.close()


# Notebook 04's exercises: (the learner's own cell, the test cell that tries it), by their sources.
EXERCISE_CELLS = (
    ("def my_load_checkpoint", "check(level=0)"),
    ("def resume_action", "attempt(resume_action"),
    ("def reconcile(cp)", "test_workspace"),
)


@pytest.mark.browser
@pytest.mark.slow
def test_notebook_4_exercises_work_after_a_kernel_restart(lab_server: LabServer, browser_context: Any) -> None:
    """The next day: restart, the imports cell, the learner's own cell, the exercise's test cell; no NameError."""
    rel = "soluciones/04_ejercicios.ipynb"  # a learner who has written every exercise
    page = browser_context.new_page()
    try:
        _open(page, lab_server, rel)
        sources = page.evaluate(JS_CODE_SOURCES)
        imports = _index(sources, "from autograder import check")
        for own, test in EXERCISE_CELLS:
            page.evaluate(JS_RESTART)
            _wait(page, JS_NOTEBOOK_READY, rel, KERNEL_READY_TIMEOUT_S, "the restarted kernel", lab_server)
            ran = [_run_cell(page, lab_server, i) for i in (imports, _index(sources, own))]
            result = _run_cell(page, lab_server, _index(sources, test, after=_index(sources, own)))
            for output in [*ran, result]:
                assert output["errors"] == [], f"after a restart, {own!r} then {test!r}: {output['errors']}"
            assert result["count"] and result["text"].strip(), f"{test!r} showed nothing after a restart"
            # attempt() and run_checks() catch a NameError to keep the notebook going: read what they printed.
            for failed in ("NameError", "falló con", "✘", "✗"):
                assert failed not in result["text"], f"{test!r} after a restart: {result['text'][:2000]}"
    finally:
        _screenshot(page, "restart__04_ejercicios")
        page.close()


LEVEL1_ANSWER = """READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}


def resume_action(cp):
    pending = cp["pendingToolUse"]
    if pending is None:
        return "continue"
    if pending["name"] in READ_ONLY_TOOLS:
        return "rerun"
    return "is_error"
"""


@pytest.mark.browser
@pytest.mark.slow
def test_level_1_answered_keeps_its_points_through_run_all(lab_server: LabServer, browser_context: Any) -> None:
    """A learner answers Level 1 with READ_ONLY_TOOLS (as its hint says), leaves Level 2's stubs and runs all:
    no later stub may rebind a name Level 1 reads, so the final check() keeps Level 1's points."""
    rel = "04_nivel1_respondido.ipynb"
    shutil.copyfile(lab_server.root_dir / "04_ejercicios.ipynb", lab_server.root_dir / rel)
    page = browser_context.new_page()
    try:
        _open(page, lab_server, rel)
        sources = page.evaluate(JS_CODE_SOURCES)
        page.evaluate(JS_SET_SOURCE, [_index(sources, "def resume_action"), LEVEL1_ANSWER])
        page.evaluate(JS_RUN_ALL)
        _wait(page, JS_ALL_DONE, None, RUN_ALL_TIMEOUT_S, "all cells to finish", lab_server)
        level1 = page.evaluate(JS_CELL_OUTPUT, _index(sources, "check(level=1)"))
        final = page.evaluate(JS_LAST_CHECK_ROWS)
        assert final is not None, "no check() table"
        for criterion in ("nivel1.cpA", "nivel1.cpB", "nivel1.cpC", "nivel1.hidden"):
            assert final.get(criterion) == "✔", f"the final check() lost {criterion}: {final}"
        final_cell = next(
            i
            for i, source in enumerate(sources)
            if source is not None and source.strip().splitlines()[-1:] == ["check()"]
        )
        assert "cambió en la celda" not in page.evaluate(JS_CELL_OUTPUT, final_cell)["text"]
        assert level1["errors"] == []
    finally:
        _screenshot(page, "nivel1__04_ejercicios")
        page.close()


# JupyterLab 4's --jp-content-font-family (its rendered outputs: check()'s table) and the reports' own
# default (resumen.html and feedback/*.html set no font-family: the browser's serif, or sans-serif).
MARK_FONTS = (
    'system-ui, -apple-system, blinkmacsystemfont, "Segoe UI", helvetica, arial, sans-serif, '
    '"Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol"',
    "serif",
    "sans-serif",
)
# Each character drawn on a canvas with the font stack, beside U+0378 (unassigned: no font has it, so it is
# the box a missing glyph becomes): its width and whether its pixels are that box's.
JS_GLYPHS = """([marks, font]) => {
  const canvas = document.createElement('canvas');
  canvas.width = 96; canvas.height = 64;
  const ctx = canvas.getContext('2d');
  const draw = (ch) => {
    ctx.clearRect(0, 0, 96, 64);
    ctx.font = `40px ${font}`;
    ctx.fillText(ch, 8, 48);
    return [ctx.measureText(ch).width, Array.from(ctx.getImageData(0, 0, 96, 64).data).join(',')];
  };
  const [boxWidth, box] = draw('\\u0378');
  return marks.map((m) => { const [width, pixels] = draw(m); return [m, width, boxWidth, pixels === box]; });
}"""


@pytest.mark.browser
@pytest.mark.slow
def test_every_mark_of_check_and_the_reports_is_drawn_by_the_default_fonts(browser_context: Any) -> None:
    """check()'s and the reports' marks are real glyphs, not the box of a missing one (⏳ was, without emoji fonts)."""
    from autograder.course.catalogue import text

    marks = [text("report.pending_mark"), "✔", "✘", "…", "⚠"]
    page = browser_context.new_page()
    try:
        page.set_content("<!doctype html><meta charset='utf-8'><body></body>")
        for font in MARK_FONTS:
            # The probe sees a missing glyph: another unassigned code point is that same box.
            ((_, width, box_width, is_box),) = page.evaluate(JS_GLYPHS, [["\u0379"], font])
            assert is_box and width == box_width, font
            for mark, width, _, is_box in page.evaluate(JS_GLYPHS, [marks, font]):
                assert width > 0 and not is_box, f"{mark!r} is drawn as a missing glyph's box with {font}"
    finally:
        page.close()
