"""Learner code is untrusted: every attack costs its own submission, never the batch or the grader."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import tempfile
import time
from pathlib import Path

import pytest

import autograder
import lesson3
from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA
from autograder.grading.pipeline import grade_many, grade_submission
from autograder.grading.server import GradingServer, shared_server
from autograder.intake.submission import from_python
from autograder.judging.process import evaluate_criteria
from autograder.sandbox.learner_process import (
    UID_BASE,
    Limits,
    Protections,
    learner_uid,
    prepare_box,
    protections,
    running_as_root,
)
from autograder.sandbox.session import Session
from autograder.wire import protocol

DATA = Path(__file__).parent / "data" / "submissions"
MALICIOUS = DATA / "malicious"
FAST = Limits(load_seconds=1.5, call_seconds=0.5, check_seconds=1.0)
needs_root = pytest.mark.skipif(not running_as_root(), reason="the privilege drop needs a root grader")

# Learner code runs as the grader's own uid when the grader is not root; what then stands
# between a sample and the user's checkout, files and processes is Landlock. A sample that
# can hurt more than itself only runs when the protection it attacks is really there.
PROTECTIONS = protections()
WHY_UNSAFE = {
    "files": "neither a root grader (privilege drop) nor Landlock here: it would really read or write the user's files",
    "signals": "neither a root grader nor Landlock ABI >= 6 here: it would really kill the judge's process group",
}
HARMLESS = {
    "big_output.py",
    "big_output_loop.py",
    "fork_bomb.py",  # the child always stops processes: the seccomp filter, else RLIMIT_NPROC
    "lesson3_tools.py",
    "loop_module.py",
    "loop_resume_action.py",
    "memory_hog.py",
    "os_exit.py",
    "segfault.py",
    "syntax_error.py",
    "sys_exit.py",
    "sys_exit_in_call.py",
}
"""Samples that can only hurt their own process."""
ATTACKS = {
    "patch_grader.py": ("files",),  # appends to the grader's judging/verdicts_level2.py
    "sneaky_effects.py": ("files",),  # writes an email into every outbox under /tmp
    "read_secrets.py": ("files",),  # reads ~/.anthropic and every /proc/*/environ it can
    "kill_parent.py": ("signals",),  # SIGKILLs its parent and the parent's process group
}
"""What each other sample needs to be stopped; one missing from both lists needs everything."""

pytestmark = pytest.mark.slow  # real grading runs and benches: seconds each


def missing_protection(name: str) -> str | None:
    if name in HARMLESS:
        return None
    for protection in ATTACKS.get(name, tuple(WHY_UNSAFE)):
        if not getattr(PROTECTIONS, protection):
            return WHY_UNSAFE[protection]
    return None


def needs_protection_for(name: str):
    reason = missing_protection(name)
    return pytest.mark.skipif(reason is not None, reason=f"{name} not run: {reason}")


def _tree_digest(*packages) -> str:
    digest = hashlib.sha256()
    for package in packages:
        for path in sorted(Path(package.__file__).parent.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def by_id(result):
    return {c.id: c for c in result.criteria}


def safe_samples() -> list[Path]:
    return [p for p in sorted(MALICIOUS.glob("*.py")) if missing_protection(p.name) is None]


@pytest.fixture(scope="module")
def batch():
    """Every malicious sample this machine can stop and the reference solution, graded together in one run."""
    paths = [*safe_samples(), DATA / "good.py"]
    before = _tree_digest(autograder, lesson3)
    results = grade_many(paths, CourseConfig(seed=3, limits=FAST), jobs=2)
    assert _tree_digest(autograder, lesson3) == before, "a submission modified the grader"
    return {r.submission: r for r in results}


def test_every_sample_is_classified_by_what_it_can_damage():
    names = {p.name for p in MALICIOUS.glob("*.py")}
    assert HARMLESS | set(ATTACKS) == names
    assert not HARMLESS & set(ATTACKS)


def test_the_batch_finishes_and_the_good_submission_still_gets_full_marks(batch):
    assert len(batch) == len(safe_samples()) + 1
    good = batch["good.py"]
    assert good.error is None and good.score == good.max_score


def test_a_file_python_cannot_parse_costs_its_broken_statement_with_a_clear_message(batch):
    # As in a notebook: the file is cut at its statements, and only `def resume_action(cp)` (no colon) is lost.
    result = batch["syntax_error.py"]
    assert result.warnings[0].startswith("La instrucción de la línea 4 tiene un error de sintaxis")
    # Its one graded definition was that statement: nothing graded is left, said once for every criterion.
    assert result.score == 0 and result.not_run
    assert "no define ninguno de los nombres" in result.error and "`resume_action`" in result.error


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("loop_module.py", "La instrucción de la línea 2 no terminó dentro de los 1,5 s"),
        ("sys_exit.py", "lanzó SystemExit"),
        ("big_output.py", "Tu código imprimió más de 64 KB; se guardaron los primeros 64 KB"),
    ],
)
def test_what_fails_at_load_is_reported_and_the_definitions_are_still_graded(batch, name, expected):
    result = batch[name]
    # These samples define resume_action and reconcile (not Nivel 0 nor the answers): those are graded in full.
    defined = [c for c in result.criteria if CRITERIA[c.id].function in ("resume_action", "reconcile")]
    assert result.error is None and defined and all(c.passed for c in defined), [c.feedback for c in defined]
    assert any(expected in w for w in result.warnings), result.warnings


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("loop_resume_action.py", "no terminó en 0,5 s, el límite de cada llamada (¿un bucle infinito?)"),
        ("sys_exit_in_call.py", "llamó a sys.exit()"),
        ("big_output_loop.py", "no terminó en 0,5 s, el límite de cada llamada"),
        ("memory_hog.py", "MemoryError"),
    ],
)
def test_a_broken_resume_action_costs_level_1_only(batch, name, expected):
    criteria = by_id(batch[name])
    assert expected in criteria["nivel1.cpA"].feedback
    assert not any(criteria[c].passed for c in ("nivel1.cpA", "nivel1.cpB", "nivel1.cpC", "nivel1.hidden"))
    # the multiple-choice answers are not in these samples: they are 0 for another reason
    assert all(c.passed for c in batch[name].criteria if CRITERIA[c.id].function == "reconcile")


@pytest.mark.parametrize(("name", "expected"), [("os_exit.py", "os._exit"), ("segfault.py", "SIGSEGV")])
def test_a_reconcile_that_kills_its_process_costs_level_2_only(batch, name, expected):
    criteria = by_id(batch[name])
    assert expected in criteria["nivel2.read_only_rerun"].feedback
    assert not any(c.passed for c in batch[name].criteria if c.id.startswith("nivel2."))
    assert all(c.passed for c in batch[name].criteria if CRITERIA[c.id].function == "resume_action")


@needs_protection_for("kill_parent.py")
def test_killing_the_parent_is_not_permitted(batch):
    criteria = by_id(batch["kill_parent.py"])
    assert "PermissionError" in criteria["nivel1.cpA"].feedback
    assert "sin privilegios" in criteria["nivel1.cpA"].feedback
    # The zygote that forked its judge is still serving.
    assert grade_submission(DATA / "good.py", CourseConfig(seed=3)).score > 0


def test_processes_cannot_be_started(batch):
    criteria = by_id(batch["fork_bomb.py"])
    assert "BlockingIOError" in criteria["nivel2.read_only_rerun"].feedback
    assert "no puede crear procesos" in criteria["nivel2.read_only_rerun"].feedback


@needs_protection_for("patch_grader.py")
def test_patching_the_grader_from_inside_changes_nothing(batch):
    # The batch fixture checked that autograder/ and lesson3/ are byte for byte what they were.
    criteria = by_id(batch["patch_grader.py"])
    # It replaced outbox_count, api_error_for, the judges and the snapshot in its own process:
    # the judge's copies are untouched, so the production reconcile it uses still fails.
    assert not criteria["nivel2.no_double_email"].passed
    assert "2 correos" in criteria["nivel2.no_double_email"].feedback
    assert not criteria["nivel2.high_impact_not_rerun"].passed


@needs_protection_for("sneaky_effects.py")
def test_a_learner_cannot_reach_the_check_workspaces(batch):
    criteria = by_id(batch["sneaky_effects.py"])
    assert criteria["nivel2.high_impact_not_rerun"].passed
    assert criteria["nivel2.no_double_email"].passed  # its hand-written email never landed
    assert batch["sneaky_effects.py"].flags == []


@needs_protection_for("read_secrets.py")
def test_secrets_of_the_grader_never_reach_learner_code(tmp_path, monkeypatch):
    secret = "sk-ant-api03-FAKE-grader-secret-0123456789"
    home = Path(tempfile.mkdtemp(prefix="grader-home-"))
    (home / ".anthropic").mkdir()
    (home / ".anthropic" / "api_key").write_text(secret)
    monkeypatch.setenv("ANTHROPIC_API_KEY", secret)
    monkeypatch.setenv("HOME", str(home))
    server = GradingServer()  # started now, with the secret in the grader's environment
    try:
        result = grade_many([MALICIOUS / "read_secrets.py"], CourseConfig(seed=3, limits=FAST), server=server)[0]
        zygote_environ = Path(f"/proc/{server._judges.proc.pid}/environ").read_bytes()
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)
    assert "sk-ant" not in json.dumps(result.to_json())
    # resume_action returns what it found; it found nothing, and says so in the feedback.
    assert "'nada'" in by_id(result)["nivel1.cpA"].feedback
    assert b"ANTHROPIC_API_KEY" not in zygote_environ and secret.encode() not in zygote_environ


def test_effects_outside_execute_tool_are_caught_when_the_learner_can_reach_the_workspace(tmp_path):
    """Were the confinement to fail (no root, no Landlock), the workspace snapshot still catches the effect.

    Landlock is turned off for this one learner, whose only target is this test's own scratch folder.
    """
    base = Path(tempfile.mkdtemp(prefix="autograder-test-"))
    os.chmod(base, 0o711)
    scratch = base / "corrector"
    scratch.mkdir()
    source = (
        (MALICIOUS / "sneaky_effects.py").read_text().replace('"/tmp/**/outbox/new"', repr(f"{scratch}/*/outbox/new"))
    )
    box = base / "alumno"
    prepare_box(box, None)
    session = Session(from_python(source, "x.py"), limits=FAST, box=box, uid=None, lang="es", landlock=False)
    try:
        session.start()
        grading = evaluate_criteria(session, CourseConfig(seed=3, levels=(2,)), scratch=scratch)
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
    result = grade_submission(path, CourseConfig(seed=3, limits=limits))
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


@pytest.fixture
def own_server():
    """A grading server of this test's own, stopped at its end."""
    server = GradingServer()
    server.start()
    yield server
    server.stop()


def stranger_is_answered(path: str, ask) -> bool:
    """Whether the zygote at ``path`` answers ``ask(sock)`` from a stranger (a fork of the grader, not a judge)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - a stranger to the zygote
        code = 3
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(10)
            sock.connect(path)
            ask(sock)
            protocol.recv_message(sock)
            code = 1  # it was answered
        except (EOFError, ConnectionError):
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) in (0, 1), "the stranger failed for another reason"
    return os.waitstatus_to_exitcode(status) == 1


def still_grades(server: GradingServer) -> None:
    good = grade_many([DATA / "good.py"], CourseConfig(seed=3, limits=FAST), server=server)[0]
    assert good.score == good.max_score


def test_only_the_grader_that_started_the_zygote_can_ask_it_for_a_judge(own_server):
    """A learner with the grader's uid can find the zygote's socket: the zygote must not serve it."""
    request = {
        "op": "grade",
        "submission": from_python("x = 1", "x.py").to_json(),
        "seed": 1,
        "lang": "es",
        "limits": Limits().to_json(),
        "levels": [1],
    }
    asked = stranger_is_answered(own_server._judges.socket_path, lambda sock: protocol.send_message(sock, request))
    assert not asked, "the zygote started a judge for a process that is not its grader"
    still_grades(own_server)


def test_only_the_grader_and_its_judges_can_ask_the_learner_zygote_for_a_child(own_server):
    """Nor a stranger (here a fork of the grader), which could ask for a child without Landlock."""

    def ask(sock: socket.socket) -> None:
        pipes = [os.pipe() for _ in range(3)]
        socket.send_fds(sock, [b"\0"], [pipes[0][0], pipes[1][1], pipes[2][1]])
        protocol.send_message(sock, {"limits": Limits().to_json(), "box": "/tmp", "uid": None, "landlock": False})

    assert own_server._learners is not None
    asked = stranger_is_answered(own_server._learners.socket_path, ask)
    assert not asked, "the learner zygote gave a child to a stranger"
    still_grades(own_server)


def test_a_grader_without_root_or_landlock_still_grades_and_warns_once(monkeypatch, capsys):
    import autograder.grading.pipeline as pipeline

    monkeypatch.setattr(pipeline, "protections", lambda: Protections(uid_drop=False, landlock_abi=0))
    monkeypatch.setattr(pipeline, "_warned_unconfined", False)
    first = grade_many([DATA / "good.py"], CourseConfig(seed=3, limits=FAST))[0]
    second = grade_many([DATA / "good.py"], CourseConfig(seed=3, lang="en", limits=FAST))[0]
    err = capsys.readouterr().err
    assert err.count("el código de las entregas se ejecuta sin confinamiento") == 1  # once per run, in Spanish
    assert first.score == first.max_score
    assert any("se ejecuta sin confinamiento" in w and "Landlock" in w for w in first.warnings)
    assert any("runs unconfined" in w for w in second.warnings)

    monkeypatch.setattr(pipeline, "protections", lambda: Protections(uid_drop=False, landlock_abi=5))
    partial = grade_many([DATA / "good.py"], CourseConfig(seed=3, limits=FAST))[0]
    assert any("no tus procesos" in w and "Landlock 5" in w for w in partial.warnings)

    # Files and signals confined, but no seccomp filter: said, never silently dropped.
    monkeypatch.setattr(pipeline, "protections", lambda: Protections(uid_drop=False, landlock_abi=6, seccomp=False))
    no_filter = grade_many([DATA / "good.py"], CourseConfig(seed=3, limits=FAST))[0]
    assert any("filtro seccomp" in w for w in no_filter.warnings)


@pytest.mark.skipif(
    not (PROTECTIONS.files and PROTECTIONS.signals and PROTECTIONS.seccomp),
    reason="this machine cannot confine learners",
)
def test_a_confined_grader_does_not_warn(capsys):
    result = grade_many([DATA / "good.py"], CourseConfig(seed=3, limits=FAST))[0]
    assert result.warnings == [] and "confinamiento" not in capsys.readouterr().err
