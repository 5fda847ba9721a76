"""One source per fact: the grader's texts and data read the lesson's names from lesson3, never spell them."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lesson3.exercise_names import EXERCISE_NAMES

REPO = Path(__file__).resolve().parent.parent

# -- the exercise's checkpoint names: lesson3.exercise_names --------------------------------------

RENAMED = """
import json
import lesson3.exercise_names
lesson3.exercise_names.EXERCISE_NAMES = ("cp1", "cp2", "cp3")
from autograder.judging.process import evaluate_criteria  # the judging process's imports: the judges and observers
from autograder.course import criteria, lesson_map
from autograder.judging.registry import OBSERVERS, VERDICTS
from autograder.questions import QUESTIONS
from lesson3.answers import EXPECTED_ACTION
from lesson3.exercises import LESSON_FIELDS, SAVE_POINT
print(json.dumps({
    "criteria": {c.id: [c.observes, c.title, c.hint, c.grades] for c in criteria.CRITERIA.values()},
    "items": {i.key: i.text for i in lesson_map.ITEMS},
    "questions": {q.variable: [q.criterion, q.title, q.prompt] for q in QUESTIONS.values()},
    "verdicts": sorted(VERDICTS),
    "observers": sorted(OBSERVERS),
    "lesson3": [sorted(EXPECTED_ACTION), sorted(LESSON_FIELDS), sorted(SAVE_POINT)],
}, ensure_ascii=False))
"""


def test_renaming_the_checkpoints_in_lesson3_renames_them_everywhere():
    done = subprocess.run([sys.executable, "-c", RENAMED], capture_output=True, text=True, timeout=300, cwd="/")
    assert done.returncode == 0, done.stderr
    assert not re.search(r"\bcp[ABC]\b", done.stdout)
    found = json.loads(done.stdout)
    new = ["cp1", "cp2", "cp3"]
    assert found["lesson3"] == [new] * 3
    ids = [f"nivel1.{n}" for n in new]
    assert set(ids) <= set(found["criteria"]) and set(found["verdicts"]) == set(found["criteria"])
    assert {found["criteria"][i][0] for i in ids} <= set(found["observers"])
    assert [found["criteria"][i][1]["es"] for i in ids] == [
        "cp1: continuar",
        "cp2: volver a ejecutar",
        "cp3: repliegue a is_error",
    ]
    assert "¿Hay una llamada colgante en cp1?" in found["criteria"]["nivel1.cp1"][2]["es"][0]
    assert "cp2's pending tool" in found["criteria"]["nivel1.cp2"][2]["en"][0]
    assert [found["criteria"][i][3][-1] for i in ids] == [f"fin.{n}" for n in new]
    assert [found["items"][f"fin.{n}"].split(":")[0] for n in new] == new
    for n in new:
        criterion, title, prompt = found["questions"][f"razon_{n}"]
        assert criterion == f"nivel1.razon_{n}" and title["en"] == f"{n}: why" and prompt["es"].startswith(f"{n}: ")
        assert found["criteria"][criterion][3][-1] == f"fin.{n}"


def _data_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_module_but_lesson3s_spells_a_checkpoints_name():
    spelled = re.compile(rf"\b({'|'.join(EXERCISE_NAMES)})\b")
    source = REPO / "lesson3" / "exercise_names.py"
    found = [
        (path.relative_to(REPO).as_posix(), line, value)
        for folder in ("autograder", "lesson3")
        for path in sorted((REPO / folder).rglob("*.py"))
        if path != source
        for line, value in _data_strings(path)
        if spelled.search(value)
    ]
    assert found == []


def test_a_spelled_checkpoint_name_is_found(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""cpA in a docstring is prose."""\nTITLE = {"es": "cpB: por qué"}\n', encoding="utf-8")
    assert [v for _, v in _data_strings(module) if re.search(r"\bcp[ABC]\b", v)] == ["cpB: por qué"]


# -- the read-only tools: lesson3.reconciliation.READ_ONLY_TOOLS ----------------------------------

TODAY = {
    ("read_only.ok", "es"): "Correcto: read_file, grep, list_dir y web_search (con entradas al azar) se volvieron a "
    "ejecutar una vez cada una, con su nombre y su entrada, y cada tool_result trae la salida real.",
    ("read_only.ok", "en"): "Correct: read_file, grep, list_dir and web_search (random inputs) were each re-run once, "
    "with their name and input, and each tool_result carries the real output.",
    ("hidden.why_read", "es"): " Las cuatro herramientas de solo lectura (read_file, grep, list_dir, web_search) se "
    "vuelven a ejecutar.",
    ("hidden.why_read", "en"): " All four read-only tools (read_file, grep, list_dir, web_search) are re-run.",
    ("report.map_kind.read_only", "es"): "Herramientas de solo lectura (read_file, grep, list_dir, web_search)",
    ("report.map_kind.read_only", "en"): "Read-only tools (read_file, grep, list_dir, web_search)",
}


def test_the_texts_that_name_the_read_only_tools_read_today_as_before():
    from autograder.course import catalogue, criteria

    for (key, lang), written in TODAY.items():
        assert catalogue.text(key, lang) == written
    assert catalogue.section("report", "en")["map_kind.read_only"] == TODAY[("report.map_kind.read_only", "en")]
    assert catalogue.text("hidden.ok", "es", n=12, k=5) == (
        "Correcto en los 12 puntos de control nuevos (ids, nombres y entradas al azar): sin llamada pendiente, las "
        "cuatro herramientas de solo lectura y 5 de alto impacto que el ejercicio no muestra."
    )
    assert catalogue.text("hidden.ok", "en", n=12, k=5) == (
        "Correct on the 12 new checkpoints (random ids, names and inputs): no pending call, the four read-only "
        "tools and 5 high-impact tools the exercise never shows."
    )
    assert (
        criteria.hints("nivel1.hidden", "es")[-1]
        == "Son cuatro las de solo lectura: read_file, grep, list_dir y web_search."
    )
    assert criteria.hints("nivel1.hidden", "en")[-1] == (
        "There are four read-only tools: read_file, grep, list_dir and web_search."
    )


@pytest.mark.parametrize(
    ("tools", "es", "en", "commas", "count"),
    [
        (
            {"grep", "read_file", "search_docs"},
            "read_file, grep y search_docs",
            "read_file, grep and search_docs",
            "read_file, grep, search_docs",
            ("tres", "three"),
        ),
        (
            {"web_search", "list_dir"},
            "list_dir y web_search",
            "list_dir and web_search",
            "list_dir, web_search",
            ("dos", "two"),
        ),
        (
            {"read_file", "grep", "list_dir", "web_search", "b_tool", "a_tool"},
            "read_file, grep, list_dir, web_search, a_tool y b_tool",
            "read_file, grep, list_dir, web_search, a_tool and b_tool",
            "read_file, grep, list_dir, web_search, a_tool, b_tool",
            ("seis", "six"),
        ),
        (
            {f"t{i:02}" for i in range(12)},
            ", ".join(f"t{i:02}" for i in range(11)) + " y t11",
            ", ".join(f"t{i:02}" for i in range(11)) + " and t11",
            ", ".join(f"t{i:02}" for i in range(12)),
            ("12", "12"),
        ),
    ],
)
def test_the_texts_follow_lesson3s_read_only_tools(monkeypatch, tools, es, en, commas, count):
    import lesson3.reconciliation
    from autograder.course import catalogue, criteria

    monkeypatch.setattr(lesson3.reconciliation, "READ_ONLY_TOOLS", frozenset(tools))
    hint = {"es": "Son {n} las de solo lectura: {joined}.", "en": "There are {n} read-only tools: {joined}."}
    for lang, joined, n in (("es", es, count[0]), ("en", en, count[1])):
        opening = TODAY[("read_only.ok", lang)].split(":")[0]
        assert catalogue.text("read_only.ok", lang).startswith(f"{opening}: {joined} (")
        assert f" {n} " in catalogue.text("hidden.why_read", lang)
        assert catalogue.text("hidden.why_read", lang).endswith(TODAY[("hidden.why_read", lang)].split(")")[-1])
        assert f"({commas})" in catalogue.text("hidden.why_read", lang)
        assert catalogue.section("report", lang)["map_kind.read_only"].endswith(f"({commas})")
        assert f" {n} " in catalogue.text("hidden.ok", lang, n=3, k=1)
        assert criteria.hints("nivel1.hidden", lang)[-1] == hint[lang].format(n=n, joined=joined)
