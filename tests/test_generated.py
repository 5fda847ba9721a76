"""Every generated document is what the one command writes now (``python -m autograder.reporting.generated``)."""

from __future__ import annotations

import pytest

from autograder.reporting import generated


@pytest.mark.parametrize("path", sorted(generated.DOCUMENTS))
def test_the_committed_document_is_the_one_the_code_writes(path):
    committed = (generated.ROOT / path).read_text(encoding="utf-8")
    assert committed == generated.written(path), f"{path} is stale: run `python -m autograder.reporting.generated`"


def test_the_course_examples_points_table_is_rewritten_and_the_prose_kept():
    example = '# prosa\n[puntos]\n"nivel9.viejo" = 7\n\n[limites]\n# más prosa\n'
    out = generated.course_example(example)
    assert out.startswith("# prosa\n[puntos]\n# Nivel 0") and out.endswith("\n\n[limites]\n# más prosa\n")
    assert "nivel9.viejo" not in out and '"nivel2.no_double_email" = 3\n' in out
