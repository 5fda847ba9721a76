"""A mistyped option, subcommand or choice gets its command's own usage and a "did you mean"; no abbreviation passes."""

from __future__ import annotations

import contextlib
import io

import pytest

from autograder import cli as autograder_cli
from lesson3 import cli as lesson3_cli


def run(main, *argv: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code
    return code, err.getvalue()


@pytest.mark.parametrize(
    ("argv", "usage", "suggestion"),
    [
        # The brief's case: --out missing too, but the mistyped option is what the instructor must hear about.
        (["grade", "--seeed", "3"], "uso: autograder grade", "¿quisiste decir --seed?"),
        (["grade", "x.py", "--out", "o", "--jbos", "2"], "uso: autograder grade", "¿quisiste decir --jobs?"),
        (["grade", "x.py", "--ot", "o"], "uso: autograder grade", "¿quisiste decir --out?"),
        (["grade", "x.py", "--out", "o", "--seed=3", "--forse"], "uso: autograder grade", "¿quisiste decir --force?"),
        (["merge", "p1", "--out", "o", "--froce"], "uso: autograder merge", "¿quisiste decir --force?"),
        (["export", "moodel"], "uso: autograder export", "¿quisiste decir moodle?"),
        (["grad", "x.py"], "uso: autograder [", "¿quisiste decir grade?"),
        # A mistyped command followed by its own options: the command is what is wrong, not --out.
        (["grde", "clase", "--out", "o5"], "uso: autograder [", "¿quisiste decir grade?"),
        (["gardescope", "--out", "x.zip", "--seed", "1"], "uso: autograder [", "¿quisiste decir gradescope?"),
        (["--lang", "en", "reveiw", "out", "--csv", "r.csv"], "usage: autograder [", "did you mean review?"),
        (["--lnag", "en", "grade"], "uso: autograder [", "¿quisiste decir --lang?"),
        (
            ["--lang", "en", "grade", "x.py", "--out", "o", "--sed", "1"],
            "usage: autograder grade",
            "did you mean --seed?",
        ),
        (["gradescope", "--lang", "en", "--outt", "b.zip"], "usage: autograder gradescope", "did you mean --out?"),
    ],
)
def test_autograder_names_the_option_meant_with_the_commands_own_usage(argv, usage, suggestion):
    code, stderr = run(autograder_cli.main, *argv)
    assert code == 2
    assert stderr.startswith(usage), stderr
    assert suggestion in stderr, stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["grade", "x.py", "--out", "o", "--se", "3"],
        ["grade", "x.py", "--ou", "o"],
        ["grade", "x.py", "--out", "o", "--la", "en"],
        ["gradescope", "--o", "b.zip"],
    ],
)
def test_autograder_takes_no_abbreviation(argv):
    code, stderr = run(autograder_cli.main, *argv)
    assert code == 2 and "argumentos no reconocidos: " + argv[-2] in stderr, stderr


@pytest.mark.parametrize(
    ("argv", "usage", "suggestion"),
    [
        (["run", "--tsk", "correo"], "uso: lesson3 run", "¿quisiste decir --task?"),
        (["run", "--ta", "correo"], "uso: lesson3 run", "¿quisiste decir --task?"),
        (["crsh"], "uso: lesson3 [", "¿quisiste decir crash?"),
        (["resume", "--strategy", "reconcil"], "uso: lesson3 resume", "¿quisiste decir reconcile?"),
        (["crash", "--at", "after_tol"], "uso: lesson3 crash", "¿quisiste decir after_tool?"),
        (["show", "--lats", "3"], "uso: lesson3 show", "¿quisiste decir --last?"),
    ],
)
def test_lesson3_names_the_option_meant_with_the_commands_own_usage(argv, usage, suggestion):
    code, stderr = run(lesson3_cli.main, *argv)
    assert code == 2
    assert stderr.startswith(usage), stderr
    assert suggestion in stderr and "Usa «lesson3" in stderr, stderr


def test_nothing_close_gets_no_guess():
    code, stderr = run(autograder_cli.main, "grade", "x.py", "--out", "o", "--zzzzzz")
    assert code == 2 and "argumentos no reconocidos: --zzzzzz" in stderr and "quisiste" not in stderr
