"""The tool layer's watch of the workspace and of the learner's folder, and the result's path rewriting:
what they see is what a plain ``os.walk`` and a plain reading see, on every kind of path."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.judging import machine_paths
from autograder.judging.tool_layer import NOT_EFFECTS, folder_state, snapshot


def walked(root: Path, skip: frozenset[str] = frozenset()) -> dict[str, os.stat_result | str]:
    """Every path under ``root`` as os.walk finds it -> its lstat, or "link:" plus its target for a link."""
    found: dict[str, os.stat_result | str] = {}
    for directory, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in skip]
        for name in dirs + files:
            path = os.path.join(directory, name)
            key = os.path.normpath(os.path.join(os.path.relpath(directory, root), name))
            found[key] = os.lstat(path)
    return found


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Files, nested folders, links to a file, to a folder and to nowhere, and __pycache__ as a folder, a file
    and a link."""
    root = tmp_path / "root"
    (root / "a" / "b" / "c").mkdir(parents=True)
    (root / "a" / "b" / "c" / "deep.txt").write_text("deep")
    (root / "nota.md").write_text("hola")
    (root / "a" / "otra.eml").write_bytes(b"To: x@example.com\n\ncuerpo")
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "m.pyc").write_bytes(b"\0")
    (root / "a" / "__pycache__").write_text("a file with that name")
    (root / "a" / "b" / "__pycache__").symlink_to(root / "a")
    (root / "to_file").symlink_to(root / "nota.md")
    (root / "to_folder").symlink_to(root / "a")
    (root / "to_nowhere").symlink_to(root / "missing")
    (root / "empty").mkdir()
    return root


def test_the_learners_folder_is_seen_path_for_path_as_os_walk_lists_it(tree):
    expected = walked(tree, NOT_EFFECTS)
    state = folder_state(tree)
    assert sorted(state) == sorted(expected)
    for key, st_ in expected.items():
        assert isinstance(st_, os.stat_result)
        assert state[key] == f"{st_.st_ino}:{st_.st_size}:{st_.st_mtime_ns}:{st_.st_ctime_ns}:{st_.st_mode}"


def test_the_workspace_is_seen_path_for_path_as_os_walk_lists_it(tree):
    assert sorted(snapshot(tree)) == sorted(walked(tree))


def test_the_workspace_is_seen_by_content_links_by_target_folders_as_folders(tree):
    shot = snapshot(tree)
    assert shot["a/b/c/deep.txt"] == hashlib.sha256(b"deep").hexdigest()
    assert shot["a/b/c"] == shot["empty"] == shot["__pycache__"] == "dir"
    assert shot["to_folder"] == "link:" + str(tree / "a")
    assert shot["to_nowhere"] == "link:" + str(tree / "missing")
    assert shot["a/b/__pycache__"] == "link:" + str(tree / "a")
    assert "to_folder/otra.eml" not in shot  # a folder reached through a link is not entered
    assert "./" not in "".join(shot)


def test_a_changed_file_is_a_changed_snapshot_and_state(tree):
    shot, state = snapshot(tree), folder_state(tree)
    (tree / "a" / "b" / "c" / "deep.txt").write_text("DEEP")
    assert snapshot(tree)["a/b/c/deep.txt"] != shot["a/b/c/deep.txt"]
    assert folder_state(tree)["a/b/c/deep.txt"] != state["a/b/c/deep.txt"]


def read_slowly(text: str) -> str:
    """machine_paths._as_read without its shortcut for ASCII: every text through the Unicode reading."""
    import re
    import unicodedata

    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    kept = "".join(ch for ch in folded if unicodedata.category(ch) not in ("Cf", "Mn") and ch not in "\r\n")
    return re.sub(r"/(?:\.?/)+", "/", kept)


@given(st.text(alphabet=st.characters(max_codepoint=0x7F)))
def test_ascii_text_is_read_as_the_unicode_reading_reads_it(text):
    assert machine_paths._as_read(text) == read_slowly(text)


PIECES = ["/", ".", "\n", "\r", "a", "tmp", "\u200b", "\u00ad", "\uff0f", "é", " "]
"""What a path is written with to slip past a plain match: links, breaks, invisible marks, fullwidth slashes."""


@given(st.lists(st.sampled_from(PIECES)).map("".join))
def test_any_text_is_read_as_before(text):
    assert machine_paths._as_read(text) == read_slowly(text)


@pytest.mark.parametrize(
    "text",
    [
        "sin carpetas",
        "{tmp}/x/y.json",
        "en {tmp}.",
        "{tmp}\u200b/x",
        "{tmp_a}\n{tmp_b}/cp.json",
        "{tmp_a}//{tmp_b}",
        "{box}/estado.json y {tmp}/otra",
        "{home}/curso",
    ],
)
def test_a_path_is_hidden_however_it_is_written(tmp_path, text):
    box = tmp_path / "judge-1" / "learner"
    tmp = os.path.realpath(machine_paths.tempfile.gettempdir())
    filled = text.format(tmp=tmp, tmp_a=tmp[: len(tmp) // 2], tmp_b=tmp[len(tmp) // 2 :], box=box, home=Path.home())
    out = machine_paths.hiding((box, ""), (tmp_path, "<tmp>"))({"k": [filled]})["k"][0]
    assert tmp not in out and str(box) not in out and tmp not in read_slowly(out)
