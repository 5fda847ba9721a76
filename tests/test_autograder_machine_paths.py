"""No folder of the grading machine reaches the learner: whatever the learner's code raises, at load
or in a graded call, the result names the packages, Python, the temporary and home folders and the
learner's own folder without the machine's paths (autograder.judging.machine_paths)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest

import autograder
from autograder.course.config import CourseConfig
from autograder.grading.pipeline import grade_many
from autograder.judging.machine_paths import hiding

PACKAGES = Path(autograder.__file__).resolve().parent.parent


def machine_folders() -> list[str]:
    found = {str(PACKAGES), sys.prefix, sys.base_prefix, tempfile.gettempdir(), str(Path.home())}
    return sorted({f for folder in found for f in (folder, os.path.realpath(folder)) if len(f) > 1})


def test_each_kind_of_folder_is_shown_its_way(tmp_path):
    box = tmp_path / "judge-1" / "learner"
    shown = hiding((box, ""), (tmp_path, "<tmp>"))
    assert shown(f"{PACKAGES}/autograder/judging/__init__.py") == "autograder/judging/__init__.py"
    assert shown(f"open {box}/checkpoint.json failed") == "open checkpoint.json failed"
    assert shown(f"cwd={box}") == "cwd=."
    assert shown(f"{tmp_path}/judge-1/grader/x") == "<tmp>/judge-1/grader/x"
    assert shown(f"{sys.prefix}/lib/site.py") == "<python>/lib/site.py"
    assert shown(f"{Path.home()}/.bashrc").endswith("/.bashrc")
    assert str(Path.home()) not in shown(f"{Path.home()}/.bashrc")


def test_a_path_cut_short_at_the_end_of_a_message_is_hidden_too(tmp_path):
    shown = hiding((tmp_path / "box", ""))
    for cut in (len(str(tmp_path)) - 3, len(str(tmp_path)) - 1):
        assert str(tmp_path)[:cut] not in shown(f"opened {str(tmp_path)[:cut]}")
    assert shown("a /b") == "a /b"  # too short to be a cut folder: kept as written


@pytest.mark.parametrize(
    "disguise",
    [
        lambda p: p.replace("/", "//"),
        lambda p: p.replace("/", "/./"),
        lambda p: "\u200b".join(p),  # a zero-width space between letters
        lambda p: p.replace("/", "/\u00ad"),  # a soft hyphen after each slash
        lambda p: p.replace("/", "\uff0f"),  # fullwidth slashes
        lambda p: "\n".join(p),  # one letter a line
        lambda p: "".join(ch + "\u0301" if ch.isalpha() else ch for ch in p),  # combining accents
    ],
    ids=["double_slash", "dot_slash", "zero_width", "soft_hyphen", "fullwidth", "one_a_line", "combining"],
)
def test_a_folder_written_to_slip_past_a_plain_match_is_hidden_too(tmp_path, disguise):
    folder = tmp_path / "instructor" / "course"
    shown = hiding((folder, "<course>"))(f"mira {disguise(str(folder))}/x.py")
    assert "<course>" in shown and "instructor" not in shown.replace("\u200b", "").replace("\n", ""), shown


def test_text_without_a_folder_keeps_its_own_spelling():
    text = "Ｆｕｌｌ width, a\u200bb, line\nbreak, café // a/./b"
    assert hiding()(text) == text


def test_the_accounts_home_is_hidden_even_when_home_is_set_elsewhere(monkeypatch, tmp_path):
    import pwd

    real = pwd.getpwuid(os.getuid()).pw_dir
    monkeypatch.setenv("HOME", str(tmp_path))
    assert real not in hiding()(f"{real}/.ssh/id_ed25519") or len(real) <= 1


def test_a_folder_counts_only_as_a_whole_component(tmp_path):
    shown = hiding((tmp_path / "box", ""))
    assert shown(f"{tmp_path}/boxes/x") == f"{shown(str(tmp_path))}/boxes/x"
    assert shown(f"{tmp_path}/box.bak") == f"{shown(str(tmp_path))}/box.bak"
    assert shown(f"{sys.prefix}.") == "<python>."
    assert shown("/") == "/" and shown("a/b") == "a/b" and shown("") == ""
    inner = str(tmp_path / "box")
    assert shown(f"/var{inner}/x") == f"/var{inner}/x" and shown(f"https://example.com{inner}").endswith(inner)


def test_every_string_of_a_result_is_rewritten_and_nothing_else(tmp_path):
    shown = hiding((tmp_path, ""))
    value = {"error": f"{tmp_path}/a", "warnings": [f"x {tmp_path}/b", 3], "seed": 7, "ok": None, str(tmp_path): 1}
    assert shown(value) == {"error": "a", "warnings": ["x b", 3], "seed": 7, "ok": None, str(tmp_path): 1}


LEAKS = {
    "load_lesson3_file": 'import lesson3\nraise RuntimeError("mira " + lesson3.__file__)\n',
    "load_prefix": 'import sys\nraise RuntimeError(sys.prefix + "/lib")\n',
    "call_cwd": (
        "import os\n\ndef resume_action(cp):\n"
        '    raise ValueError(os.path.join(os.getcwd(), "checkpoint.json") + " | " + os.getcwd())\n'
    ),
    "call_tmp_and_home": (
        "import tempfile, pathlib, sys\n\ndef resume_action(cp):\n"
        '    raise ValueError(tempfile.gettempdir() + "/x " + str(pathlib.Path.home()) + " " + sys.base_prefix)\n'
    ),
    "call_autograder_file": (
        "import lesson3.checkpoint\n\ndef resume_action(cp):\n"
        "    raise ValueError(lesson3.checkpoint.__file__.replace('lesson3', 'autograder'))\n"
    ),
}


@pytest.fixture(scope="module")
def leaked(tmp_path_factory):
    folder = tmp_path_factory.mktemp("leaks")
    paths = []
    for name, source in LEAKS.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
        paths.append(folder / f"{name}.py")
    results = grade_many(paths, CourseConfig(seed=5, levels=(1,)), jobs=2)
    return {name: json.dumps(r.to_json(), ensure_ascii=False) for name, r in zip(LEAKS, results, strict=True)}


@pytest.mark.parametrize("name", LEAKS)
def test_no_machine_folder_in_what_the_learner_is_shown(leaked, name):
    shown = leaked[name]
    assert "RuntimeError" in shown or "ValueError" in shown  # the message itself still reaches the learner
    assert [folder for folder in machine_folders() if folder in shown] == []


def test_the_messages_still_say_what_they_said(leaked):
    assert "mira lesson3/__init__.py" in leaked["load_lesson3_file"]
    assert "<python>/lib" in leaked["load_prefix"]
    assert "checkpoint.json | ." in leaked["call_cwd"]
    assert "autograder/checkpoint.py" in leaked["call_autograder_file"]
