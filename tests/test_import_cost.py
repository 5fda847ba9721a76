"""The grader's own process never loads the Anthropic SDK: only the zygote and its judges do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GOOD = REPO / "tests" / "data" / "submissions" / "good.py"
BENCH = REPO / "bench" / "bench_imports.py"

REPORT = "import sys; print(sorted(m for m in ('anthropic', 'lesson3.agent', 'httpx2') if m in sys.modules))"


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd="/")
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]


@pytest.mark.parametrize(
    "code",
    [
        "import autograder.cli",
        "import autograder.grading.pipeline, autograder.reporting.report, autograder.classrun.gradescope\n"
        "import autograder.course.criteria",
        "import lesson3, lesson3.checkpoint",
        "from autograder import cli\ntry:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass",
        "from autograder import cli\ntry:\n    cli.main(['grade'])\nexcept SystemExit:\n    pass",  # a usage error
    ],
)
def test_starting_the_grader_does_not_import_the_sdk(code):
    assert run(f"{code}\n{REPORT}") == "[]"


@pytest.mark.slow
def test_a_whole_grading_run_keeps_the_sdk_out_of_the_graders_process(tmp_path):
    code = f"from autograder import cli\ncli.main(['grade', {str(GOOD)!r}, '--out', {str(tmp_path / 'out')!r}])"
    assert run(f"{code}\n{REPORT}") == "[]"
    assert (tmp_path / "out" / "results.json").is_file()


@pytest.mark.slow
def test_the_import_bench_runs_quick():
    done = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "autograder.grading.pipeline" in done.stdout and "lesson3.agent" in done.stdout


def test_reading_the_course_cells_does_not_import_nbformat():
    """The grading zygote reads the notebooks' sources at start (course_skip_cells): nbformat's import (jsonschema
    and its grammars) cost about a second of every check()'s first call after a kernel restart."""
    code = "from autograder.intake.course_cells import course_skip_cells\nassert course_skip_cells()\n"
    assert run(code + "import sys; print('nbformat' in sys.modules)") == "False"


def test_the_notebook_face_does_not_import_the_report_writer():
    """check() and warm_up() import autograder.notebook in every kernel: the HTML reports (jinja2, the misconception
    map) belong to the class's reports, not to it (an intake module importing a report helper once pulled them in)."""
    code = "import autograder.notebook\nimport sys\n"
    assert run(code + "print(sorted(m for m in ('jinja2', 'autograder.reporting.report') if m in sys.modules))") == "[]"


def test_a_process_that_loaded_the_sdk_through_lesson3_exits_without_collecting_it():
    """A kernel restart waited half a second for the interpreter's last collections over the SDK's classes: whoever
    imports lesson3.model (the kernel, the crash lab's forkserver, the zygotes) freezes them once every other exit
    handler has run. Seen from a handler registered before lesson3's, which therefore runs after it."""
    code = (
        "import atexit, gc, os\n"
        "atexit.register(lambda: os.write(1, f'frozen {gc.get_freeze_count()}'.encode()))\n"
        "from lesson3.model import offline_client\noffline_client()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd="/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("frozen ") and int(done.stdout.split()[1]) > 10_000, done.stdout


def test_the_crash_labs_forkserver_builds_the_sdks_models_once_for_every_child():
    """Its preload ends with one offline run: a child forked after it finds the Messages API's models built (pydantic
    builds them on first use), instead of building them again in each crash (half of a crash child's time)."""
    code = (
        "import importlib, tempfile, os, anthropic\n"
        "from lesson3.crash import PRELOAD\n"
        "before = anthropic.types.Message.__pydantic_complete__\n"
        "left = set(os.listdir(tempfile.gettempdir()))\n"
        "for name in PRELOAD:\n"
        "    importlib.import_module(name)\n"
        "new = {n for n in set(os.listdir(tempfile.gettempdir())) - left if n.startswith('lesson3-')}\n"
        "print(before, anthropic.types.Message.__pydantic_complete__, sorted(new))\n"
    )
    assert run(code) == "False True []"
