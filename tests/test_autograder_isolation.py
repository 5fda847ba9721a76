"""Learner code is untrusted: every attack costs its own submission, never the batch or the grader."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

import autograder.checks
from autograder.checks import run_checks
from autograder.forkserver import GradingServer, shared_server
from autograder.pipeline import grade_many, grade_submission
from autograder.sandbox import UID_BASE, Limits, learner_uid, prepare_box, running_as_root
from autograder.session import Session
from autograder.submission import from_python

DATA = Path(__file__).parent / "data" / "submissions"
MALICIOUS = DATA / "malicious"
FAST = Limits(load_seconds=1.5, check_seconds=1.0)
needs_root = pytest.mark.skipif(not running_as_root(), reason="the privilege drop needs a root grader")


def by_id(result):
    return {c.id: c for c in result.criteria}


@pytest.fixture(scope="module")
def batch():
    """Every malicious sample and the reference solution, graded together in one run."""
    paths = [*sorted(MALICIOUS.glob("*.py")), DATA / "good.py"]
    checks_file = Path(autograder.checks.__file__)
    digest = hashlib.sha256(checks_file.read_bytes()).hexdigest()
    results = grade_many(paths, jobs=2, seed=3, limits=FAST)
    assert hashlib.sha256(checks_file.read_bytes()).hexdigest() == digest, "a submission modified the grader"
    return {r.submission: r for r in results}


def test_the_batch_finishes_and_the_good_submission_still_gets_full_marks(batch):
    assert len(batch) == len(list(MALICIOUS.glob("*.py"))) + 1
    good = batch["good.py"]
    assert good.error is None and good.score == good.max_score


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("loop_module.py", "no terminó de cargarse en 1.5 s"),
        ("sys_exit.py", "SystemExit en la línea"),
        ("syntax_error.py", "Error de sintaxis en syntax_error.py, línea 4"),
        ("big_output.py", "imprimió más de 8 MB"),
    ],
)
def test_submissions_that_cannot_load_get_zero_with_a_clear_message(batch, name, expected):
    result = batch[name]
    assert result.score == 0
    assert expected in result.error
    assert all(expected in c.feedback for c in result.criteria)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("loop_resume_action.py", "no terminó en 1 s (¿un bucle infinito?)"),
        ("sys_exit_in_call.py", "llamó a sys.exit()"),
        ("big_output_loop.py", "imprimió más de 8 MB"),
        ("memory_hog.py", "MemoryError"),
    ],
)
def test_a_broken_resume_action_costs_level_1_only(batch, name, expected):
    criteria = by_id(batch[name])
    assert expected in criteria["nivel1.cpA"].feedback
    assert not any(criteria[c].passed for c in ("nivel1.cpA", "nivel1.cpB", "nivel1.cpC", "nivel1.hidden"))
    assert all(c.passed for c in batch[name].criteria if c.id.startswith("nivel2."))


@pytest.mark.parametrize(("name", "expected"), [("os_exit.py", "os._exit"), ("segfault.py", "SIGSEGV")])
def test_a_reconcile_that_kills_its_process_costs_level_2_only(batch, name, expected):
    criteria = by_id(batch[name])
    assert expected in criteria["nivel2.read_only_rerun"].feedback
    assert not any(c.passed for c in batch[name].criteria if c.id.startswith("nivel2."))
    assert all(c.passed for c in batch[name].criteria if c.id.startswith("nivel1."))


@needs_root
def test_killing_the_parent_is_not_permitted(batch):
    criteria = by_id(batch["kill_parent.py"])
    assert "PermissionError" in criteria["nivel1.cpA"].feedback
    assert "sin privilegios" in criteria["nivel1.cpA"].feedback
    # The zygote that forked its judge is still serving.
    assert grade_submission(DATA / "good.py", seed=3).score > 0


@needs_root
def test_processes_and_threads_cannot_be_started(batch):
    criteria = by_id(batch["fork_bomb.py"])
    assert "BlockingIOError" in criteria["nivel2.read_only_rerun"].feedback
    assert "no puede crear procesos ni hilos" in criteria["nivel2.read_only_rerun"].feedback


def test_patching_the_grader_from_inside_changes_nothing(batch):
    criteria = by_id(batch["patch_grader.py"])
    # It replaced outbox_count, api_error_for, the judges and the snapshot in its own process:
    # the judge's copies are untouched, so the production reconcile it uses still fails.
    assert not criteria["nivel2.no_double_email"].passed
    assert "2 correos" in criteria["nivel2.no_double_email"].feedback
    assert not criteria["nivel2.high_impact_not_rerun"].passed


@needs_root
def test_a_learner_cannot_reach_the_check_workspaces(batch):
    criteria = by_id(batch["sneaky_effects.py"])
    assert criteria["nivel2.high_impact_not_rerun"].passed
    assert criteria["nivel2.no_double_email"].passed  # its hand-written email never landed
    assert batch["sneaky_effects.py"].flags == []


@needs_root
def test_secrets_of_the_grader_never_reach_learner_code(tmp_path, monkeypatch):
    secret = "sk-ant-api03-FAKE-grader-secret-0123456789"
    home = Path(tempfile.mkdtemp(prefix="grader-home-"))
    (home / ".anthropic").mkdir()
    (home / ".anthropic" / "api_key").write_text(secret)
    monkeypatch.setenv("ANTHROPIC_API_KEY", secret)
    monkeypatch.setenv("HOME", str(home))
    server = GradingServer()  # started now, with the secret in the grader's environment
    try:
        result = grade_many([MALICIOUS / "read_secrets.py"], seed=3, limits=FAST, server=server)[0]
        zygote_environ = Path(f"/proc/{server._proc.pid}/environ").read_bytes()
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)
    assert "sk-ant" not in json.dumps(result.to_json())
    # resume_action returns what it found; it found nothing, and says so in the feedback.
    assert "'nada'" in by_id(result)["nivel1.cpA"].feedback
    assert b"ANTHROPIC_API_KEY" not in zygote_environ and secret.encode() not in zygote_environ


@needs_root
def test_effects_outside_execute_tool_are_caught_when_the_learner_can_reach_the_workspace(tmp_path):
    """Without the privilege drop (a grader that is not root) only the snapshot stands in the way."""
    base = Path(tempfile.mkdtemp(prefix="autograder-test-"))
    os.chmod(base, 0o711)
    scratch = base / "corrector"
    scratch.mkdir()
    source = (
        (MALICIOUS / "sneaky_effects.py").read_text().replace('"/tmp/**/outbox/new"', repr(f"{scratch}/*/outbox/new"))
    )
    box = base / "alumno"
    prepare_box(box, None)
    session = Session(from_python(source, "x.py"), limits=FAST, box=box, uid=None, lang="es")
    try:
        session.start()
        grading = run_checks(session, seed=3, levels=(2,), scratch=scratch)
    finally:
        session.close()
        shutil.rmtree(base, ignore_errors=True)
    criteria = {c.id: c for c in grading.criteria}
    assert not criteria["nivel2.high_impact_not_rerun"].passed
    assert "cambió por fuera de execute_tool" in criteria["nivel2.high_impact_not_rerun"].feedback
    assert "outbox/new/9999" in criteria["nivel2.high_impact_not_rerun"].feedback
    assert any(flag.startswith("efecto fuera de execute_tool") for flag in grading.flags)


def _orphaned_learners() -> set[int]:
    """Learner processes (uid UID_BASE + judge pid) whose judge is gone: what a leak looks like."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                uid = int((entry / "status").read_text().split("Uid:")[1].split()[0])
            except (OSError, IndexError):
                continue
            if uid >= UID_BASE and not Path(f"/proc/{uid - UID_BASE}").exists():
                found.add(int(entry.name))
    return found


@needs_root
def test_the_grader_backstop_stops_a_stuck_judge_and_its_learner(tmp_path):
    path = tmp_path / "dormilon.py"
    path.write_text("import signal, time\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\ntime.sleep(1000)\n")
    limits = Limits(load_seconds=30, submission_seconds=1.0)
    started = time.monotonic()
    result = grade_submission(path, seed=3, limits=limits)
    assert time.monotonic() - started < 10
    assert result.score == 0 and "no terminó en 1 s" in result.error
    deadline = time.monotonic() + 5
    while _orphaned_learners() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _orphaned_learners() == set()
    assert shared_server().running


def test_learner_uids_are_unique_per_judge():
    assert learner_uid(1234) != learner_uid(1235)
    assert learner_uid(1234) >= UID_BASE


def test_tools_reached_through_lesson3_instead_of_execute_tool_are_observed(batch):
    criteria = by_id(batch["lesson3_tools.py"])
    assert criteria["nivel2.read_only_rerun"].passed  # lesson3's execute_tool, routed to the judge
    assert criteria["nivel2.is_error_fallback"].passed  # its answers look right...
    feedback = criteria["nivel2.high_impact_not_rerun"].feedback
    assert not criteria["nivel2.high_impact_not_rerun"].passed  # ...but the tools ran, and the judge saw it
    assert "send_email: se ejecutó send_email(" in feedback and "write_file: se ejecutó write_file(" in feedback
    assert not criteria["nivel2.no_double_email"].passed and "2 correos" in criteria["nivel2.no_double_email"].feedback
