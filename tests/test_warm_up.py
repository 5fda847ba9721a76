"""What a notebook's first cell costs and starts: lesson3's names without the SDK, check()'s grader in the background.

Speed itself is measured in bench/ (bench_check.py, bench_notebooks.py), never asserted here; these tests pin the
behaviour the figures come from.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from ipython_cells import first_code_cell

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"


def run(code: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()[-1]


def first_cells_imports(stem: str) -> str:
    """The first cell without its calls that start things in the background (their imports happen in threads)."""
    return "\n".join(line for line in first_code_cell(stem).splitlines() if "warm_up()" not in line)


@pytest.mark.slow
@pytest.mark.parametrize("stem", ["01_reanudar_no_reiniciar", "03_reconcile_y_contadores", "04_ejercicios"])
def test_a_notebooks_first_cell_leaves_the_sdk_for_the_first_client(stem, tmp_path):
    """The SDK's import was most of every first cell; the cells that build a client in the kernel import it then.
    (Notebook 2 imports anthropic itself: it shows the SDK's own error class.)"""
    code = first_cells_imports(stem) + "\nimport sys\nprint('anthropic' in sys.modules)"
    assert run(code, tmp_path) == "False"
    client = "from lesson3 import offline_client\nc = offline_client()\nimport sys\nprint('anthropic' in sys.modules)"
    assert run(first_cells_imports(stem) + "\n" + client, tmp_path) == "True"


@pytest.mark.slow
def test_the_crash_labs_warm_up_imports_the_sdk_in_the_background(tmp_path):
    """lab.warm_up() (the first cell of notebooks 1-3) loads the SDK in a thread, for the first client built later."""
    code = (
        "import sys, time\n"
        "from lesson3 import lab\n"
        "lab.warm_up()\n"
        "deadline = time.monotonic() + 60\n"
        "while 'anthropic' not in sys.modules and time.monotonic() < deadline:\n"
        "    time.sleep(0.05)\n"
        "print('anthropic' in sys.modules)"
    )
    assert run(code, tmp_path) == "True"


@pytest.mark.slow
def test_warm_up_starts_checks_grader_in_the_background(tmp_path):
    """Started by the notebook's first cell, the grader is ready (or getting ready) when the learner calls check()."""
    code = (
        "import sys, threading, time\n"
        "import autograder\n"
        "autograder.warm_up()\n"
        "assert 'anthropic' not in sys.modules  # the grader's servers import it, not the kernel\n"
        "from autograder.grading.pipeline import shared_server\n"
        "deadline = time.monotonic() + 240\n"
        "while not shared_server().running and time.monotonic() < deadline:\n"
        "    time.sleep(0.1)\n"
        "print(shared_server().running)"
    )
    assert run(code, tmp_path) == "True"


def test_the_learners_process_face_does_nothing_for_warm_up(tmp_path):
    """A graded notebook's first cell calls autograder.warm_up(): inside the grading it must start nothing (and not
    raise, which would cost the rest of that cell)."""
    code = (
        "import threading\n"
        "import autograder\n"
        "from autograder.learner import face\n"
        "face.install({})\n"
        "import autograder\n"
        "before = threading.active_count()\n"
        "assert autograder.warm_up() is None and autograder.check() is None\n"
        "print(threading.active_count() == before and sorted(autograder.__all__))"
    )
    assert run(code, tmp_path) == "['check', 'pista', 'warm_up']"


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), RuntimeError("otra cosa")])
def test_a_warm_up_that_fails_says_nothing_in_the_learners_cell(monkeypatch, failure):
    # The start is check()'s to report: a thread's traceback would land in whatever cell runs at that moment.
    import threading

    import autograder
    from autograder.grading import pipeline

    class Failing:
        def start(self) -> None:
            raise failure

    seen: list[BaseException] = []
    monkeypatch.setattr(pipeline, "shared_server", lambda: Failing())
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(args.exc_value))
    autograder.warm_up()
    for thread in threading.enumerate():
        if thread.name == "autograder-warm-up":
            thread.join(timeout=30)
    assert seen == []
