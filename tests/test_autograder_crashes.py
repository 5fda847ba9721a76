"""The crashes a seed's submissions share (autograder/judging/crashes.py): done once for real, laid down alike.

A judge whose incident or first life is the very case the zygote already crashed gets the same files the
crash left, byte for byte, and the same end (SIGKILL); any other case, or a crash that did not kill, is done
for real where it is asked for.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from autograder.judging import crashes, observe, scenarios
from autograder.judging.crashes import crash_once, tree
from lesson3.crash import at_point, crash_in_fork

SEED = 2026


@pytest.fixture(autouse=True)
def nothing_kept():
    crashes.forget()
    yield
    crashes.forget()


def counted(crash, calls: list[str]):
    def run() -> str:
        calls.append("crash")
        return crash()

    return run


def incident_crash(case: scenarios.IncidentCase) -> str:
    return observe.crash_after_delivery(case)


def test_the_incident_crashed_once_is_laid_down_as_it_was_left(tmp_path):
    calls: list[str] = []
    first = scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path / "a")
    key = ("incident", first.task, first.model_seed)
    assert crash_once(key, first.workspace, first.checkpoint_path, counted(lambda: incident_crash(first), calls)) == (
        "SIGKILL"
    )
    again = scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path / "b")
    ended = crash_once(key, again.workspace, again.checkpoint_path, counted(lambda: incident_crash(again), calls))
    assert ended == "SIGKILL" and calls == ["crash"]  # the second judge forked no child
    assert tree(again.workspace) == tree(first.workspace)  # the delivered email included
    assert again.checkpoint_path.read_bytes() == first.checkpoint_path.read_bytes()
    # And what a real crash of the second case leaves is the same (the email's Date header aside).
    crashes.forget()
    fresh = scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path / "c")
    assert incident_crash(fresh) == "SIGKILL"
    assert fresh.checkpoint_path.read_bytes() == again.checkpoint_path.read_bytes()
    assert [e[:2] for e in tree(fresh.workspace)] == [e[:2] for e in tree(again.workspace)]


def test_another_case_or_other_files_crash_for_real(tmp_path):
    calls: list[str] = []
    case = scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path / "a")
    key = ("incident", case.task, case.model_seed)
    crash_once(key, case.workspace, case.checkpoint_path, counted(lambda: incident_crash(case), calls))
    other = scenarios.incident_case(scenarios.rng_for(SEED + 1, "nivel2.no_double_email"), tmp_path / "b")
    other_key = ("incident", other.task, other.model_seed)
    crash_once(other_key, other.workspace, other.checkpoint_path, counted(lambda: incident_crash(other), calls))
    same = scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path / "c")
    (same.workspace / "notes" / "extra.md").write_text("# otra nota\n", encoding="utf-8")  # not the case crashed
    crash_once(key, same.workspace, same.checkpoint_path, counted(lambda: incident_crash(same), calls))
    assert calls == ["crash", "crash", "crash"]


def test_a_crash_that_did_not_kill_is_not_kept(tmp_path):
    calls: list[str] = []
    workspace, checkpoint = tmp_path / "ws", tmp_path / "cp.json"
    workspace.mkdir()
    assert crash_once(("x",), workspace, checkpoint, counted(lambda: "exit 1", calls)) == "exit 1"
    assert crash_once(("x",), workspace, checkpoint, counted(lambda: "exit 1", calls)) == "exit 1"
    assert calls == ["crash", "crash"]


def test_the_kept_crash_was_a_real_sigkill(tmp_path):
    """What is kept is the end a child really had: killed by SIGKILL at the point, in a fork of this process."""
    case = scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path)
    statuses: list[int] = []

    def crash() -> str:
        from lesson3 import run_agent
        from lesson3.model import offline_client

        status = crash_in_fork(
            at_point("after_tool", tool="send_email"),
            lambda hook: run_agent(
                case.task,
                client=offline_client(seed=case.model_seed),
                checkpoint_path=case.checkpoint_path,
                workspace=case.workspace,
                hook=hook,
                durable=False,
            ),
        )
        statuses.append(status)
        return observe._ended(status)

    assert crash_once(("incident", case.task, case.model_seed), case.workspace, case.checkpoint_path, crash) == (
        "SIGKILL"
    )
    assert os.WIFSIGNALED(statuses[0]) and os.WTERMSIG(statuses[0]) == signal.SIGKILL


def test_the_zygote_prepares_what_the_judges_then_lay_down(tmp_path):
    """prepare_crashes draws the cases as the observers do: a judge's incident and lives find them."""
    prepared = tmp_path / "zygote"
    prepared.mkdir()
    observe.prepare_crashes(SEED, prepared, {"resume.lives", "incident"})
    assert sorted(key[0][0] for key in crashes._kept) == ["incident", "lives", "lives"]  # each life, and the incident
    run = observe.Run(observe._NoCaller(), SEED, tmp_path / "judge")
    (tmp_path / "judge").mkdir()
    kept = dict(crashes._kept)
    lives, incident = observe._lives_case(run), observe._incident_case(run)
    for turn in lives.kill_turns:  # the file resumed as it is, as a correct start_state does
        assert observe._life_killed(lives, turn) == "SIGKILL"
    assert observe._incident_crash(incident) == "SIGKILL"
    assert dict(crashes._kept) == kept  # nothing new crashed: all three were laid down
    assert lives.path.exists() and incident.checkpoint_path.exists()


def test_a_life_resumed_from_another_state_is_killed_for_real(tmp_path):
    """A start_state that changed the state (here: one more turn) starts its life from other files: a real kill."""
    from lesson3.checkpoint import load_checkpoint, save_checkpoint

    observe.prepare_crashes(SEED, tmp_path / "zygote", {"resume.lives"})
    kept = dict(crashes._kept)
    (tmp_path / "judge").mkdir()
    lives = observe._lives_case(observe.Run(observe._NoCaller(), SEED, tmp_path / "judge"))
    first, second = lives.kill_turns
    assert observe._life_killed(lives, first) == "SIGKILL" and dict(crashes._kept) == kept
    state = load_checkpoint(lives.path)
    state["turns"] -= 1  # a resume that lost a turn: the next life runs one turn more before its kill
    save_checkpoint(state, lives.path, durable=False)
    assert observe._life_killed(lives, second) == "SIGKILL"
    assert len(crashes._kept) == len(kept) + 1  # killed here, for real
    assert load_checkpoint(lives.path)["turns"] == second - 1


def test_the_zygote_prepares_only_what_its_course_grades(tmp_path):
    observe.prepare_crashes(SEED, tmp_path, {"incident"})
    assert [key[0][0] for key in crashes._kept] == ["incident"]


def test_laying_down_keeps_modes_and_empty_folders(tmp_path: Path):
    root = tmp_path / "ws"
    (root / "a" / "empty").mkdir(parents=True)
    (root / "a" / "f.txt").write_bytes(b"hola")
    os.chmod(root / "a" / "f.txt", 0o600)
    before = tree(root)
    (root / "a" / "f.txt").write_bytes(b"otra cosa")
    (root / "b.txt").write_bytes(b"nuevo")
    crashes.lay_down(root, before)
    assert tree(root) == before
    assert (root / "a" / "f.txt").stat().st_mode & 0o777 == 0o600


def test_the_zygote_prepares_a_requests_seed_once(tmp_path):
    from autograder.course.config import CourseConfig
    from autograder.judging import zygote

    wire = CourseConfig(seed=SEED).for_run().to_wire()
    zygote._prepared.clear()
    zygote.prepare(wire, tmp_path)
    assert sorted(key[0][0] for key in crashes._kept) == ["incident", "lives", "lives"]
    crashes.forget()
    zygote.prepare(wire, tmp_path)  # the same seed and levels: nothing is crashed again
    assert not crashes._kept
    zygote.prepare(CourseConfig(seed=SEED, levels=(0,)).for_run().to_wire(), tmp_path)
    assert [key[0][0] for key in crashes._kept] == ["lives", "lives"]
    zygote.prepare({"not": "a course"}, tmp_path)  # never fatal: the judges crash their own cases
    assert list(tmp_path.iterdir()) == []  # the cases were drawn in folders it removed
    zygote._prepared.clear()


def test_a_workspace_holding_a_link_is_always_crashed_for_real(tmp_path):
    calls: list[str] = []
    case = scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path / "a")
    key = ("incident", case.task, case.model_seed)
    crash_once(key, case.workspace, case.checkpoint_path, counted(lambda: incident_crash(case), calls))
    linked = scenarios.incident_case(scenarios.rng_for(SEED, "nivel2.no_double_email"), tmp_path / "b")
    note = next((linked.workspace / "notes").iterdir())
    (linked.workspace / "guardada.md").write_bytes(note.read_bytes())
    note.unlink()
    note.symlink_to(linked.workspace / "guardada.md")  # the same text, through a link
    assert tree(linked.workspace) is None
    crash_once(key, linked.workspace, linked.checkpoint_path, counted(lambda: incident_crash(linked), calls))
    assert calls == ["crash", "crash"] and len(crashes._kept) == 1


@pytest.mark.warm_up("grading_server")
def test_the_grading_server_prepares_a_course_when_asked(tmp_path):
    """What autograder.warm_up() asks for check()'s course: done in the zygote, answered, no judge forked for it."""
    from autograder.course.config import CourseConfig
    from autograder.grading.pipeline import grade_submission
    from autograder.grading.server import shared_server
    from autograder.notebook import warm_up_course

    course = warm_up_course()
    assert course is not None and course["semilla"] == 20250825
    shared_server().prepare(course)  # an unanswered request would raise here
    shared_server().prepare({"semilla": "no es un curso"})  # never fatal
    good = Path(__file__).parent / "data" / "submissions" / "good.py"
    result = grade_submission(good, CourseConfig(seed=20250825))
    assert result.score == result.max_score > 0
