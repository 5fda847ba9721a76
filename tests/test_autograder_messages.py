"""One catalogue of the grader's texts: Spanish by default, English beside it, nothing inline."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from autograder.course import catalogue

ROOT = Path(__file__).resolve().parent.parent


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("key", catalogue.keys())
def test_every_text_exists_in_both_languages_with_the_same_placeholders(key):
    entry = catalogue.entry(key)
    assert set(entry) == set(catalogue.LANGS)
    assert entry["es"].strip() and entry["en"].strip()
    assert fields(entry["es"]) == fields(entry["en"]), key


@pytest.mark.parametrize("room", sorted(set(catalogue.ROOMS.values())))
def test_every_key_lives_in_the_room_its_first_part_names(room):
    table = catalogue.room_table(room)
    assert table and {key for key in table if catalogue.ROOMS.get(key.partition(".")[0]) != room} == set()


EXIT_CODE_SPELLED = re.compile(r"(?:código|exit code|status)(?: de salida)? \d", re.IGNORECASE)


def test_no_text_spells_an_exit_code_the_command_decides():
    # The command's constant (cli.EXIT_UNOWNED...) fills it in: a text cannot say 3 while the command returns 4.
    spelled = {
        f"{key} ({lang})": said
        for key in catalogue.keys()
        for lang, said in catalogue.entry(key).items()
        if EXIT_CODE_SPELLED.search(said)
    }
    assert spelled == {}


def test_spanish_is_the_default_and_params_are_filled():
    assert catalogue.text("cli.repeat", seed=7) == "Para repetir exactamente esta calificación: --seed 7"
    assert catalogue.text("cli.repeat", "en", seed=7) == "To repeat exactly this grading: --seed 7"
    assert catalogue.section("report", "en")["feedback_title"] == "Feedback"


def test_no_module_of_the_grader_branches_on_the_language_inline():
    """``if lang == "es"`` and friends: a translation outside the catalogue."""
    found = []
    for path in sorted((ROOT / "autograder").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                isinstance(side, ast.Constant) and side.value in ("es", "en") for side in (node.left, *node.comparators)
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_an_error_made_of_a_notice_survives_pickling_and_speaks_each_language():
    import pickle

    from autograder.classrun.shards import MergeError
    from autograder.course.catalogue import notice
    from autograder.distribution.bundle import BundleError
    from autograder.intake.collect import IntakeError

    for error in (
        IntakeError(notice("intake.missing", name="x.py"), "en"),
        MergeError(notice("merge.garbled", folder="p", what=notice("merge.where_submission", n=2))),
        BundleError(notice("gradescope.bundle_missing", files="a", root="/r")),
    ):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert again.notice.render("es") != again.notice.render("en")
