"""The whole pipeline on sample submissions: load -> run isolated -> observe -> judge -> report."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA, required_ids
from autograder.grading.pipeline import grade_many, grade_submission
from autograder.questions import QUESTIONS

CRITERIA_IDS = required_ids()

pytestmark = pytest.mark.warm_up("grading_server")

QUESTION_IDS = {q.criterion for q in QUESTIONS.values() if not q.practice}

SUBMISSIONS = Path(__file__).parent / "data" / "submissions"


def by_id(result):
    return {c.id: c for c in result.criteria}


@pytest.mark.slow
def test_reference_solution_scores_full_marks():
    result = grade_submission(SUBMISSIONS / "good.py", CourseConfig(seed=11))
    assert result.error is None
    assert [c.id for c in result.criteria][: len(CRITERIA_IDS)] == list(CRITERIA_IDS)
    assert all(c.passed for c in result.criteria), [c.feedback for c in result.criteria if not c.passed]
    assert result.score == result.max_score > 0
    assert result.flags == []
    assert result.seed == 11


def test_production_reconcile_sends_two_emails_and_reruns_high_impact_tools():
    criteria = by_id(grade_submission(SUBMISSIONS / "production.py", CourseConfig(seed=11)))
    assert not criteria["nivel2.no_double_email"].passed
    assert "2 correos" in criteria["nivel2.no_double_email"].feedback
    assert not criteria["nivel2.high_impact_not_rerun"].passed
    assert "send_email" in criteria["nivel2.high_impact_not_rerun"].feedback
    assert not criteria["nivel2.is_error_fallback"].passed
    # Its read-only path is right, and so is its Level 1.
    assert criteria["nivel2.read_only_rerun"].passed
    assert all(criteria[c].passed for c in ("nivel1.cpA", "nivel1.cpB", "nivel1.cpC", "nivel1.hidden"))


def test_grade_many_keeps_the_order_and_reports_progress():
    seen = []
    paths = [SUBMISSIONS / "production.py", SUBMISSIONS / "good.py"]
    results = grade_many(
        paths, CourseConfig(seed=5), jobs=2, progress=lambda done, total, r, i: seen.append((done, total, r, i))
    )
    assert [r.submission for r in results] == ["production.py", "good.py"]
    assert sorted((done, total) for done, total, _, _ in seen) == [(1, 2), (2, 2)]
    # Each report says whose result it is, whichever finished first.
    assert all(results[i] is r for _, _, r, i in seen)
    assert results[1].score == results[1].max_score
    assert results[0].score < results[0].max_score


def test_a_notebook_with_magics_a_failing_cell_and_a_syntax_error_still_grades(tmp_path):
    marker = Path("/tmp/autograder-bash-magic-ran")
    marker.unlink(missing_ok=True)
    result = grade_submission(SUBMISSIONS / "good_notebook.ipynb", CourseConfig(seed=11))
    assert result.error is None
    assert result.warnings == [
        # Named by their place among all cells (its title is a markdown cell) and their first line.
        "La celda 5 («# Una celda que falla: las siguientes tienen que…») lanzó ZeroDivisionError en la línea 2 "
        "(division by zero); las celdas siguientes se ejecutaron igual.",
        "La celda 6 («def mal_escrita(:») tiene un error de sintaxis en la línea 1 (invalid syntax); se saltó.",
    ]
    criteria = by_id(result)
    # resume_action was defined inside %%capture, reconcile is async and awaits execute_tool.
    functions = [c for c in CRITERIA_IDS if c not in QUESTION_IDS]
    assert all(criteria[c].passed for c in functions), [criteria[c].feedback for c in functions]
    assert criteria["nivel2.causa_raiz"].passed  # "c)" counts as "c"
    assert criteria["nivel1.llamada_colgante"].passed  # and "(b)" as "b"
    assert not criteria["nivel1.esta_en_lo_cierto"].passed and "«a»" in criteria["nivel1.esta_en_lo_cierto"].feedback
    assert not marker.exists()  # the %%bash cell never ran


def test_tuned_answers_pass_the_lesson_checkpoints_and_fail_the_hidden_ones():
    criteria = by_id(grade_submission(SUBMISSIONS / "tuned.py", CourseConfig(seed=11)))
    assert all(criteria[c].passed for c in ("nivel1.cpA", "nivel1.cpB", "nivel1.cpC"))
    assert not criteria["nivel1.hidden"].passed
    # Only send_email is treated as high impact: the unseen names are re-run.
    assert not criteria["nivel2.high_impact_not_rerun"].passed
    assert "write_file" in criteria["nivel2.high_impact_not_rerun"].feedback
    assert criteria["nivel2.no_double_email"].passed


def test_delegating_to_lesson3_gets_no_credit_and_a_flag():
    result = grade_submission(SUBMISSIONS / "delegating.py", CourseConfig(seed=11, levels=(1, 2)))
    assert result.score == 0
    assert sorted(result.flags) == [
        "delega en lesson3: reconcile usa lesson3.reconcile",
        "delega en lesson3: resume_action usa lesson3.answers.EXPECTED_ACTION",
    ]
    assert all("No cuenta" in c.feedback for c in result.criteria if c.id not in QUESTION_IDS)
    assert all("No definiste" in c.feedback for c in result.criteria if c.id in QUESTION_IDS)


def test_delegation_hidden_behind_a_runtime_import_is_caught_when_called():
    result = grade_submission(SUBMISSIONS / "delegating_helper.py", CourseConfig(seed=11))
    # The module's name is built at run time, so the source does not spell it: the flag names what ran.
    assert result.flags == ["delega en lesson3: reconcile usa lesson3.answers.reconcile"]
    criteria = by_id(result)
    assert criteria["nivel1.hidden"].passed
    assert not any(c.passed for c in result.criteria if c.id.startswith("nivel2."))


def test_the_template_stub_is_not_implemented_yet_everywhere():
    result = grade_submission(SUBMISSIONS / "stub.py", CourseConfig(seed=11))
    assert result.error is None and result.score == 0
    assert all("Todavía no implementado" in c.feedback for c in result.criteria if c.id not in QUESTION_IDS)
    assert all("todavía no respondiste" in c.feedback for c in result.criteria if c.id in QUESTION_IDS)


def test_feedback_in_english():
    result = grade_submission(SUBMISSIONS / "production.py", CourseConfig(seed=11, lang="en"))
    criteria = by_id(result)
    assert "got 2" in criteria["nivel2.no_double_email"].feedback
    assert criteria["nivel1.cpA"].feedback.startswith("Correct:")


def test_an_unreadable_file_in_a_batch_is_one_error_row(tmp_path):
    bad = tmp_path / "roto.ipynb"
    bad.write_text("{esto no es json")
    results = grade_many([bad, SUBMISSIONS / "good.py"], CourseConfig(seed=2))
    assert results[0].error.startswith("«roto.ipynb» no es un cuaderno de Jupyter válido")
    assert results[0].score == 0 and len(results[0].criteria) == len(CRITERIA_IDS)
    assert results[1].score == results[1].max_score


def test_without_a_seed_one_is_drawn_and_recorded_for_the_whole_run():
    results = grade_many([SUBMISSIONS / "good.py", SUBMISSIONS / "tuned.py"])
    assert results[0].seed is not None and results[0].seed == results[1].seed
    again = grade_submission(SUBMISSIONS / "tuned.py", CourseConfig(seed=results[1].seed))
    assert [c.feedback for c in again.criteria] == [c.feedback for c in results[1].criteria]


def test_a_grading_server_that_cannot_start_gives_error_rows_not_a_traceback(monkeypatch):
    from autograder.grading.server import GradingServer, ServerError

    def broken(self):
        raise ServerError("the grading server did not start (b'')")

    monkeypatch.setattr(GradingServer, "start", broken)
    results = grade_many([SUBMISSIONS / "good.py"], CourseConfig(seed=1), server=GradingServer())
    assert results[0].score == 0
    assert results[0].error.startswith("Error interno del corrector (the grading server did not start")


@pytest.mark.slow  # starts the zygotes
@pytest.mark.parametrize("failing", ["the grading server", "the learner zygote"])
def test_a_zygote_that_does_not_start_leaves_no_process_nor_folder_behind(monkeypatch, failing):
    from autograder.grading.server import GradingServer, ServerError
    from autograder.wire import forking

    started: list[forking.Zygote] = []
    real_init, real_wait = forking.Zygote.__init__, forking.Zygote.wait_ready

    def recorded(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        started.append(self)

    def wait_ready(self):
        if self.name != failing:
            return real_wait(self)
        raise forking.ZygoteError(f"{self.name} did not start (b'')")

    monkeypatch.setattr(forking.Zygote, "__init__", recorded)
    monkeypatch.setattr(forking.Zygote, "wait_ready", wait_ready)
    server = GradingServer()
    with pytest.raises(ServerError, match=f"{failing} did not start"):
        server.start()
    learners = next(z for z in started if z.name == "the learner zygote")
    assert len(started) == 2 and all(z.proc.poll() is not None for z in started)
    assert not server.running and server.run_dir is None and not learners.run_dir.exists()


def test_every_submission_has_the_same_maximum_whatever_it_answers(tmp_path):
    partial = tmp_path / "sin_preguntas.py"
    lines = (SUBMISSIONS / "good.py").read_text().splitlines(keepends=True)
    answers = tuple(f"{variable} =" for variable in QUESTIONS)
    partial.write_text("".join(line for line in lines if not line.startswith(answers)))
    results = grade_many([SUBMISSIONS / "good.py", SUBMISSIONS / "stub.py", partial], CourseConfig(seed=11), jobs=1)
    assert len({r.max_score for r in results}) == 1
    good, stub, unanswered = results
    assert good.score == good.max_score and stub.score == 0
    assert unanswered.score == good.score - sum(CRITERIA[q].points for q in QUESTION_IDS)
    assert all("No definiste" in c.feedback for c in unanswered.criteria if c.id in QUESTION_IDS)


# -- where a run keeps its folders ---------------------------------------------------------------


class _Room:
    def __init__(self, free: int) -> None:
        self.f_bavail, self.f_frsize = free, 1


@pytest.mark.parametrize(
    ("tmpdir", "free", "writable", "expected"),
    [
        (None, 8 << 30, True, "ram"),  # room in RAM: there
        ("/elegido", 8 << 30, True, None),  # $TMPDIR set: the instructor's choice wins
        (None, 64 << 20, True, None),  # a container's 64 MB /dev/shm: too small for the boxes
        (None, 8 << 30, False, None),  # not ours to write in
        (None, None, True, None),  # no /dev/shm at all (not Linux)
    ],
)
def test_scratch_folders_go_to_ram_only_when_it_has_room_and_tmpdir_is_not_set(
    monkeypatch, tmp_path, tmpdir, free, writable, expected
):
    from autograder.grading import server

    ram = tmp_path / "shm"
    ram.mkdir()
    monkeypatch.setattr(server, "RAM_FOLDER", ram)
    if tmpdir is None:
        monkeypatch.delenv("TMPDIR", raising=False)
    else:
        monkeypatch.setenv("TMPDIR", tmpdir)

    def statvfs(path):
        if free is None:
            raise FileNotFoundError(path)
        return _Room(free)

    monkeypatch.setattr(server.os, "statvfs", statvfs)
    monkeypatch.setattr(server.os, "access", lambda path, mode: writable)
    assert server.scratch_root() == (ram if expected == "ram" else None)


@pytest.mark.slow  # starts two grading servers
def test_a_run_in_ram_grades_as_one_on_disk_and_leaves_nothing_behind(monkeypatch):
    from autograder.grading.server import GradingServer, scratch_root

    # Not tmp_path: pytest's base folder is private to root, and the learner must reach its box.
    disk = Path(tempfile.mkdtemp(prefix="autograder-test-", dir="/var/tmp"))
    disk.chmod(0o711)
    graded = {}
    try:
        for where in ("ram", "disk"):
            monkeypatch.setattr(tempfile, "tempdir", None)  # read $TMPDIR again, as a new process would
            if where == "disk":
                monkeypatch.setenv("TMPDIR", str(disk))
            else:
                monkeypatch.delenv("TMPDIR", raising=False)
            root = scratch_root()
            if where == "ram" and root is None:
                pytest.skip("this machine has no /dev/shm with room for a run")
            server = GradingServer()
            try:
                results = grade_many(
                    [SUBMISSIONS / "good.py", SUBMISSIONS / "production.py"], CourseConfig(seed=9), server=server
                )
                run_dir = server.run_dir
            finally:
                server.stop()
            assert run_dir is not None and run_dir.parent == (root or disk)
            assert not run_dir.exists()
            graded[where] = [r.to_json() for r in results]
        assert list(disk.iterdir()) == []
    finally:
        shutil.rmtree(disk, ignore_errors=True)
    assert graded["ram"] == graded["disk"]
    assert graded["ram"][0]["score"] == graded["ram"][0]["max_score"]


@pytest.mark.slow  # starts a grading server
def test_a_long_tmpdir_still_grades_and_leaves_no_socket_folder(monkeypatch):
    from autograder.grading.server import GradingServer
    from autograder.wire.forking import SOCKET_PATH_BYTES

    base = Path(tempfile.mkdtemp(prefix="autograder-test-", dir="/var/tmp"))
    base.chmod(0o711)
    long = base / ("carpeta-de-la-clase-con-un-nombre-largo-" * 3)
    long.mkdir(mode=0o711)
    assert len(str(long)) + len("/autograder-xxxxxxxx/control/learner.sock") >= SOCKET_PATH_BYTES
    before = set(Path("/tmp").glob("ag-*"))
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setenv("TMPDIR", str(long))
    server = GradingServer()
    try:
        results = grade_many([SUBMISSIONS / "good.py"], CourseConfig(seed=9), server=server)
        assert server.run_dir is not None and server.run_dir.parent == long
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)
    assert results[0].error is None and results[0].score == results[0].max_score
    assert set(Path("/tmp").glob("ag-*")) == before
