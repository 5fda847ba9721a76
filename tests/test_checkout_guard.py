"""The suite's guard against files left in the checkout (tests/checkout_guard.py), run on a checkout of its own.

Each test runs a small session with the guard watching pytester's folder as if it were the repository.
"""

from __future__ import annotations

import pytest

from tests.checkout_guard import CheckoutGuard, files

pytest_plugins = ["pytester"]

GITIGNORE = ".venv/\n__pycache__/\n*.egg-info/\n.hypothesis/\n/build/\ntest-artifacts/\n"


@pytest.fixture
def checkout(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # the inner sessions need pytest alone: seconds less
    pytester.makefile("", **{".gitignore": GITIGNORE})
    pytester.mkdir("lesson3")
    (pytester.path / "lesson3" / "model.py").write_text("X = 1\n")
    return pytester


def session(checkout: pytest.Pytester, source: str) -> tuple[pytest.RunResult, CheckoutGuard]:
    checkout.makepyfile(test_writes=source)
    guard = CheckoutGuard(checkout.path)
    return checkout.runpytest_inprocess("-p", "no:cacheprovider", plugins=[guard]), guard


def test_a_file_a_test_leaves_in_the_checkout_fails_the_run_and_is_named(checkout):
    result, guard = session(
        checkout,
        """
        from pathlib import Path

        def test_writes_a_table():
            Path("x.csv").write_text("a,b\\n")  # the working folder is the checkout, as under `pytest`

        def test_writes_beside_the_code(request):
            (request.config.rootpath / "lesson3" / "checkpoint.json").write_text("{}")
        """,
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert guard.new == ["lesson3/checkpoint.json", "x.csv"]
    result.stdout.fnmatch_lines(["*2 new file(s) in the checkout*", "  lesson3/checkpoint.json", "  x.csv"])
    result.stdout.fnmatch_lines(["FAILED *the suite left no file in the checkout*", "*1 failed, 2 passed*"])


def test_a_file_written_while_the_tests_are_collected_is_caught_too(checkout):
    result, guard = session(checkout, 'open("collected.txt", "w").close()\n\ndef test_nothing():\n    pass\n')
    assert result.ret == pytest.ExitCode.TESTS_FAILED and guard.new == ["collected.txt"]


def test_tmp_folders_ignored_files_and_files_there_before_are_not_the_suites(checkout):
    (checkout.path / "notas-del-docente.txt").write_text("mine, from before the run\n")
    result, guard = session(
        checkout,
        """
        from pathlib import Path

        def test_writes_where_it_may(tmp_path):
            (tmp_path / "x.csv").write_text("a,b\\n")
            for ignored in ("__pycache__/m.cpython-311.pyc", ".hypothesis/examples/1", "test-artifacts/a.png",
                            "build/lib/x.py", "lesson3/__pycache__/model.pyc"):
                Path(ignored).parent.mkdir(parents=True, exist_ok=True)
                Path(ignored).write_text("")
        """,
    )
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    assert guard.new == [] and "in the checkout" not in result.stdout.str()


def test_a_folder_named_like_an_anchored_pattern_deeper_down_is_still_watched(tmp_path):
    (tmp_path / ".gitignore").write_text(GITIGNORE)
    for name in ("build/a.py", "lesson3/build/b.py", "x.egg-info/PKG-INFO", "link"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "lesson3" / "build" / "b.py").write_text("")
    (tmp_path / "build" / "a.py").write_text("")
    (tmp_path / "link").symlink_to("/")  # listed as a file, never followed
    assert files(tmp_path) == {".gitignore", "lesson3/build/b.py", "link"}
    assert files(tmp_path, skip=(tmp_path / "lesson3",)) == {".gitignore", "link"}
