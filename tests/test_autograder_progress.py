"""Progress as the output needs it: plain lines for a log, a bar redrawn in place on a terminal; learners by name."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest

from autograder import cli
from autograder.classrun import run as class_run
from autograder.wire.results import SubmissionResult
from tests.test_autograder_cli import TTY, FakeGrader, run, write


@pytest.fixture
def named_class(monkeypatch, tmp_path):
    """Three learners, one of whom the LMS names; graded by the fake pipeline (one fails)."""
    write(tmp_path / "e" / "a.py")
    write(tmp_path / "e" / "b.py", "# mal\n")
    write(tmp_path / "e" / "c.py")
    real_collect = class_run.collect_submissions

    def named(paths, lang="es", **kwargs):
        intake = real_collect(paths, lang=lang, **kwargs)
        intake.learners = [
            dataclasses.replace(s, label="José Núñez") if s.source.endswith("b.py") else s for s in intake.learners
        ]
        return intake

    monkeypatch.setattr(class_run, "collect_submissions", named)
    monkeypatch.setattr(class_run, "run_grading", FakeGrader())
    return tmp_path / "e"


def test_a_log_gets_one_plain_line_per_learner_with_the_count(named_class, tmp_path):
    code, stdout, _ = run("grade", named_class, "--out", tmp_path / "o")
    assert code == 0
    assert "\r" not in stdout and "█" not in stdout and "░" not in stdout
    lines = [line for line in stdout.splitlines() if line.startswith("[")]
    names = [line.split("] ", 1)[1].split(":", 1)[0] for line in lines]
    assert names == ["a", "José Núñez", "c"]  # as the reports name them: the LMS's name, else the file's
    assert [line.split("]")[0] + "]" for line in lines] == ["[1/3]", "[2/3]", "[3/3]"]
    line = r"^\[2/3\] José Núñez: 0 de \d+ puntos \(\d+,\d s desde el inicio\)$"
    assert re.search(line, stdout, re.MULTILINE), stdout


@pytest.mark.parametrize(
    ("lang", "error", "expected"),
    [
        ("es", None, r"\[4/9\] Ana: 7,5 de 25 puntos \(\d+,\d s desde el inicio\)"),
        ("en", None, r"\[4/9\] Ana: 7\.5 of 25 points \(\d+\.\d s since the start\)"),
        ("es", "No se pudo cargar", r"\[4/9\] Ana: 7,5 de 25 puntos, con error \(\d+,\d s desde el inicio\)"),
        ("en", "Could not load", r"\[4/9\] Ana: 7\.5 of 25 points, with an error \(\d+\.\d s since the start\)"),
    ],
)
def test_a_log_line_says_the_count_the_points_and_an_error(lang, error, expected):
    out = io.StringIO()
    lines = cli.ProgressLines(out, lambda index, result: "Ana", lang)
    lines(4, 9, SubmissionResult("ana.py", 7.5, 25.0, [], error=error), 3)
    assert re.fullmatch(expected + "\n", out.getvalue()), out.getvalue()


def test_a_terminal_gets_the_bar_with_the_learners_name_and_no_log_lines(named_class, tmp_path):
    code, stdout, _ = run("grade", named_class, "--out", tmp_path / "o", stdout=TTY())
    assert code == 0 and stdout.count("\r") == 3 and "█" in stdout
    assert "José Núñez" in stdout and "b.py" not in stdout.split("\n")[0]
    assert not re.search(r"^\[\d/\d\]", stdout, re.MULTILINE)


def test_a_learners_name_cannot_drive_the_terminal_or_break_the_log(monkeypatch, tmp_path):
    write(tmp_path / "e" / "a.py")
    real_collect = class_run.collect_submissions

    def named(paths, lang="es", **kwargs):
        intake = real_collect(paths, lang=lang, **kwargs)
        intake.learners = [dataclasses.replace(s, label="Ana\x1b]0;pwned\x07\nGarcía") for s in intake.learners]
        return intake

    monkeypatch.setattr(class_run, "collect_submissions", named)
    monkeypatch.setattr(class_run, "run_grading", FakeGrader())
    code, stdout, _ = run("grade", tmp_path / "e", "--out", tmp_path / "o")
    assert code == 0 and "\x1b" not in stdout and "\x07" not in stdout
    (line,) = [x for x in stdout.splitlines() if x.startswith("[1/1]")]
    assert "García" in line


@pytest.mark.parametrize(("lang", "label"), [("es", r"\d+,\d s desde el inicio"), ("en", r"\d+\.\d s since the start")])
def test_the_terminals_bar_labels_its_time_as_the_log_does(named_class, tmp_path, lang, label):
    # The seconds a bar shows are the run's so far, not the learner's: said in words, as each log line says them.
    code, stdout, _ = run("grade", named_class, "--out", tmp_path / "o", "--lang", lang, stdout=TTY())
    assert code == 0
    drawings = stdout.split("\n")[0].split("\r")[1:]
    assert len(drawings) == 3 and all(re.search(rf"· {label} · ", d) for d in drawings), drawings
    log = io.StringIO()
    cli.ProgressLines(log, lambda index, result: "Ana", lang)(1, 1, SubmissionResult("ana.py", 1.0, 2.0, []), 0)
    assert re.search(rf"\({label}\)$", log.getvalue().strip())


@pytest.mark.parametrize("columns", [60, 80, 132])
def test_each_drawing_of_the_bar_fits_the_terminal_and_erases_the_one_before(columns):
    # A drawing that wraps cannot be redrawn in place: the label's words narrow the bar, then cut the name.
    screen = TTY()
    names = ["Ana", "María José Núñez de la Fuente y Ortega de los Ríos", "Bo"]
    bar = cli.ProgressBar(screen, lambda index, result: names[index], "es", columns)
    for i in range(3):
        bar(i + 1, 3, SubmissionResult(f"{i}.py", 1.0, 2.0, []), i)
    bar.close()
    drawings = screen.getvalue().rstrip("\n").split("\r")[1:]
    assert [len(d) for d in drawings] == [columns - 1] * 3  # each as wide as the last, so none shows through
    assert "desde el inicio" in drawings[1] and ("…" in drawings[1]) == (columns < 100)
    assert drawings[2].rstrip().endswith(" · Bo")
