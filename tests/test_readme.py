"""The README is a front door: short, and it sends each reader to a page that exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_the_readme_stays_a_front_door():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 250
    assert [n for n, line in enumerate(lines, 1) if len(line) > 300] == []


def test_each_reader_is_sent_to_a_page_that_exists():
    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## Where to go next\n") :]
    linked = re.findall(r"\]\(([^)#\s]+)\)", section[: section.index("\n## ", 1)])
    for page in ("notebooks/LEEME.md", "docs/guia-docente.md", "docs/maintainers.md"):
        assert page in linked, page
    assert [page for page in linked if not (ROOT / page).is_file()] == []
