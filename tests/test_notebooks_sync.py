"""The committed notebooks are exactly what ``python -m lesson3.build_notebooks`` makes of their sources.

Sources and structure are compared here, without executing; the outputs are
compared by nbval, which re-executes every committed notebook in the same test run.
"""

from __future__ import annotations

import nbformat

from lesson3.build_notebooks import SOLUTION_START, STUB_COMMENT, default_notebooks_dir, drift, targets


def test_committed_notebooks_match_their_sources() -> None:
    problems = drift()
    assert problems == [], "Regenera con `python -m lesson3.build_notebooks`:\n" + "\n".join(problems)


def test_every_source_has_a_learner_notebook_and_solutions_only_where_needed() -> None:
    found = targets(default_notebooks_dir())
    learners = [t for t in found if t.version == "learner"]
    assert len(learners) == len({t.source for t in found}) == len(list(default_notebooks_dir().glob("src/*.md")))
    for target in found:
        text = nbformat.read(target.path, as_version=4)
        code = "\n".join(c.source for c in text.cells if c.cell_type == "code")
        assert SOLUTION_START not in code and "ALUMNO:" not in code
        if target.version == "solution":
            assert STUB_COMMENT not in code, f"{target.path.name}: a solved notebook still has a stub"
    for target in (t for t in found if t.version == "solution"):
        learner = next(t for t in learners if t.source == target.source)
        code = "\n".join(c.source for c in nbformat.read(learner.path, as_version=4).cells)
        assert "TU CÓDIGO AQUÍ" in code or "TU RESPUESTA AQUÍ" in code or "Escribe aquí tu respuesta" in code
