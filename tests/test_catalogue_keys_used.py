"""Every text of the catalogue is said somewhere by the product: a key does not outlive its last use.

A key counts as used when the product (autograder/, lesson3/: code and templates, not the tests)
names it in quotes, or builds it from a quoted name:
- a suffix added to a used key (``plural``'s ``.one``/``.other``/``.zero``, a verdict's ``.why``,
  ``_why`` and ``_importing``);
- a family below, built from a variable (an f-string, ``prefix + value``, a template's ``t[...]``):
  each family names the file and the line that builds it, and a member counts only when its last
  part stands quoted in the product (or is the attribute ``t.<part>`` of a template).
A family whose builder is gone fails too, so the list cannot go stale.
"""

from __future__ import annotations

import ast
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from autograder.course import catalogue

REPO = Path(__file__).resolve().parent.parent

SUFFIXES = (".one", ".other", ".zero", ".why", "_why", "_importing")
"""Added to a key the code names: plural()'s forms, verdicts' explanations, a limit hit while importing."""

FAMILIES: dict[str, tuple[str, str]] = {
    # prefix: (the file that builds the key, what the building looks like there)
    "cli.help.": ("autograder/cli.py", 'text(f"cli.help.{key}"'),
    "report.col_": ("autograder/reporting/report.py", 't[f"col_{c}"]'),
    "report.status_": ("autograder/reporting/report.py", 't[f"status_{state}"]'),
    "report.move.": ("autograder/reporting/misconceptions.py", 'text(f"report.move.{move}"'),
    "report.map_kind.": ("autograder/reporting/misconceptions.py", 'text(f"report.map_kind.{kind}"'),
    "report.map_role.": ("autograder/templates/_map.html.j2", 't["map_role." + row.role]'),
    "paired.schema_kind.": ("autograder/judging/verdicts_level2.py", 'text(f"paired.schema_kind.{k}"'),
    "paired.schema_": ("autograder/judging/verdicts_level2.py", '"paired.schema_" + problem.kind'),
    "check.": ("autograder/notebook.py", 'text(f"check.{column}"'),
    "choice.why.": ("autograder/intake/choice.py", 'text(f"choice.why.{'),
    "config.kind.": ("autograder/course/config.py", 'notice(f"config.kind.{name}")'),
    "config.expected.": ("autograder/course/config.py", 'notice(f"config.expected.{expected}")'),
    "call.": ("autograder/sandbox/session.py", 'text("call." + self.status'),
    "call.reused.": ("autograder/judging/delegation.py", 'f"call.reused.{kind}"'),
    "fail.": ("autograder/sandbox/session.py", 'key = "fail." + failure.kind'),
    "intake.skipped_": ("autograder/intake/collect.py", 'intake.warn(f"intake.skipped_{why}"'),
    "report.": ("autograder/reporting/report.py", 'section("report", lang'),
    # The learner's process gets the ``learner.*`` texts without the prefix and names them so.
    catalogue.LEARNER_PREFIX: ("autograder/course/catalogue.py", "key.startswith(LEARNER_PREFIX)"),
}


@cache
def product() -> str:
    """The product's code and templates; of the rooms' texts modules, only their code (a table names every key)."""
    tracked = subprocess.run(
        ["git", "ls-files", "autograder", "lesson3"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    parts = []
    for name in tracked:
        if not name.endswith((".py", ".j2", ".js", ".html")):
            continue
        source = (REPO / name).read_text(encoding="utf-8")
        parts.append(without_tables(source) if name.endswith(".py") else source)
    return "\n".join(parts)


def without_tables(source: str) -> str:
    """``source`` with its ``TEXTS`` table (a room's texts: :data:`autograder.course.catalogue.ROOMS`) left out."""
    lines = source.split("\n")
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign | ast.Assign) and "TEXTS" in {
            t.id for t in (getattr(node, "targets", None) or [node.target]) if isinstance(t, ast.Name)
        }:
            lines[node.lineno - 1 : node.end_lineno] = [""] * (node.end_lineno - node.lineno + 1)
    return "\n".join(lines)


def quoted(name: str) -> bool:
    return re.search(rf"""["']{re.escape(name)}["']""", product()) is not None


def used(key: str) -> bool:
    if quoted(key):
        return True
    if any(key.endswith(s) and used(key.removesuffix(s)) for s in SUFFIXES):
        return True
    for prefix in FAMILIES:
        if key.startswith(prefix):
            member = key.removeprefix(prefix)
            if quoted(member) or re.search(rf"\bt\.{re.escape(member)}\b", product()):
                return True
    return False


@pytest.mark.parametrize("prefix", FAMILIES)
def test_every_family_is_still_built_where_it_says(prefix):
    path, builder = FAMILIES[prefix]
    assert builder in (REPO / path).read_text(encoding="utf-8"), f"{prefix}: {path} no longer builds it as {builder!r}"
    assert any(k.startswith(prefix) for k in catalogue.keys()), f"{prefix}: no key of the catalogue has it"


def test_every_key_of_the_catalogue_is_used_by_the_product():
    unused = [k for k in catalogue.keys() if not used(k)]
    assert not unused, f"catalogue keys nothing says (delete them, or list the family that builds them): {unused}"


@pytest.mark.parametrize(
    "key, expected",
    [
        ("report.summary_title", True),  # a template's t.summary_title
        ("resume_path.malformed_ok", True),  # quoted
        ("resume_path.malformed_ok_why", True),  # ok_key + "_why"
        ("report.col_learner", True),  # a family member whose part is quoted in _COLUMNS
        ("report.col_nobody_has_this", False),
        ("cli.help.not_an_option_anywhere", False),
        ("choice.why.no_such_reason", False),
        ("nothing.at_all", False),
        ("read_only.not_called.why", True),  # _why("read_only.not_called", ...)
        ("read_only.not_called_but_never.why", False),
    ],
)
def test_the_rule_tells_a_used_key_from_an_unused_one(key, expected):
    assert used(key) is expected
