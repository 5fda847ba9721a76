"""What the learner reads: the lesson's terms, one register, faithful code, links, lists, hints.

Every learner-facing text is checked: the notebook sources, what the committed notebooks
print, the strings of ``lesson3`` (CLI, widgets, diagram, reports) and the grader's
learner-facing strings (messages, questions, hints).
"""

from __future__ import annotations

import ast
import inspect
import io
import json
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

import lesson3
from lesson3.answers import reconcile as reference_reconcile
from lesson3.build_notebooks import SOLUTIONS_DIR, default_notebooks_dir, parse_source, render, targets
from lesson3.exercises import exercise_checkpoint
from lesson3.practice import LEVEL1_HINTS, LEVEL2_HINTS
from lesson3.reconciliation import UNKNOWN_STATE_MESSAGE, reconcile_production

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = default_notebooks_dir()
SOURCES = sorted((NOTEBOOKS / "src").glob("*.md"))
LESSON_DATA = Path(__file__).parent / "data" / "lesson"

LESSON_UNKNOWN_STATE = (
    "Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada terminara, así que no hay "
    "manera de confirmar si tuvo efecto. Por favor, reevalúa la situación actual."
)
"""The lesson's is_error text, word for word."""

# -- the glossary ----------------------------------------------------------------------------

BANNED: dict[str, str] = {
    r"\bcorr(?:er|erla|erlo|ió|ida|idas|ido|e|en|a|an|iendo|ía|ían)\b": "«ejecutar / se ejecutó», no «correr»",
    r"\bciclos?\b": "«bucle», no «ciclo»",
    r"\bpuntos? de caída\b": "«caída 1–4»: «punto» es solo para los puntos de guardado A y B",
    r"\bpuntos? [1-4]\b": "«caída N», no «punto N»",
    r"\bla caída cayó\b": "redundante: «la caída llegó / fue»",
    r"\bmatar al proceso\b": "«matar el proceso»",
    r"\bbuenas chances\b": "regionalismo: «es probable»",
    r"\bcomparado con\b": "calco: «frente a»",
    r"\bde a una?\b": "regionalismo: «una por una»",
    r"\bterminó normal\b": "«terminó sin errores»",
    r"\bllegó a matarse\b": "«no llegó a la caída elegida»",
    r"\b(?:usted|ustedes|podés|tenés|querés|sabés|mirá|fijate|probá|hacé|usá)\b": "un solo registro: tú",
    r"\b(?:encontré|pude|revisé|ejecuté|probé|corregí|miré)\b": "el corrector habla en impersonal, no en 1.ª persona",
    r"son justo la parte lenta": "la ventana A→B la abre cada turno con herramienta, no la lentitud",
    r"\bnunca duplica\b": "lo garantiza el modelo con guion; un modelo real decide",
}

REQUIRED_IN_NOTEBOOKS = (
    "punto de guardado A",
    "punto de guardado B",
    "llamada colgante",
    "bucle",
    "conciliar",
    "repliegue",
    "registro de efectos",
    "solo lectura",
    "alto impacto",
    "caídas 1 a 4",
    "se ejecutó",
)


def violations(text: str) -> list[str]:
    found = []
    for pattern, why in BANNED.items():
        for m in re.finditer(pattern, text, flags=re.IGNORECASE):
            start = max(0, m.start() - 40)
            found.append(f"«{m.group(0)}» ({why}) en: …{text[start : m.end() + 40]}…")
    return found


def _strings_of(path: Path) -> Iterator[str]:
    """Every string literal and comment of a Python module: what it can print or show."""
    source = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.string


def _notebook_text(path: Path) -> str:
    """Sources and outputs of a committed notebook, as the learner sees them."""
    nb = nbformat.read(path, as_version=4)
    parts = []
    for cell in nb.cells:
        parts.append(cell.source)
        for out in cell.get("outputs", []):
            parts.append(out.get("text", ""))
            for value in out.get("data", {}).values():
                parts.append(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
    return "\n".join(parts)


def _autograder_texts() -> list[str]:
    """What the grader says to a learner: its messages, the questions, each criterion's title and hint."""
    from autograder import questions
    from autograder.course import catalogue, criteria

    texts = [t["es"] for t in catalogue.entries().values() if "es" in t]
    for q in questions.QUESTIONS.values():
        texts += [q.prompt["es"], q.explanation["es"], q.title["es"], *(o["es"] for o in q.options.values())]
    for c in criteria.CRITERIA.values():
        texts += [c.title["es"], *criteria.hints(c.id, "es")]
    return texts


LEARNER_TEXTS = {
    **{f"src/{p.name}": p for p in SOURCES},
    **{f"ipynb/{t.path.relative_to(NOTEBOOKS)}": t.path for t in targets(NOTEBOOKS)},
    **{f"lesson3/{p.name}": p for p in sorted((REPO / "lesson3").glob("*.py"))},
}


@pytest.mark.parametrize("name", sorted(LEARNER_TEXTS))
def test_learner_facing_text_uses_the_lessons_terms(name: str) -> None:
    path = LEARNER_TEXTS[name]
    if path.suffix == ".py":
        text = "\n".join(_strings_of(path))
    elif path.suffix == ".ipynb":
        text = _notebook_text(path)
    else:
        text = path.read_text(encoding="utf-8")
    assert violations(text) == []


def test_the_autograder_texts_are_all_collected() -> None:
    texts = _autograder_texts()
    assert len(texts) > 50 and all(isinstance(t, str) and t for t in texts)
    assert any("pendingToolUse" in t for t in texts)  # the criteria's hints are in


def test_autograder_learner_facing_text_uses_the_lessons_terms() -> None:
    found = [v for text in _autograder_texts() for v in violations(text)]
    assert found == []


def test_the_glossary_catches_each_banned_spelling() -> None:
    for sample in (
        "la herramienta no corrió",
        "un ciclo infinito",
        "el punto de caída 3",
        "en los puntos 2 y 3",
        "la caída cayó fuera",
        "matar al proceso",
        "tiene buenas chances",
        "comparado con volver",
        "ábrelas de a una",
        "terminó normal",
        "no llegó a matarse",
        "podés verlo",
        "No encontré una función",
        "las herramientas son justo la parte lenta",
        "la jugada tres nunca duplica",
    ):
        assert violations(sample), sample
    for fine in ("el correo", "el corrector", "corresponde", "se ejecutó", "punto de guardado A", "la caída 3"):
        assert violations(fine) == [], fine


def test_the_notebooks_use_the_lessons_own_terms() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES)
    missing = [term for term in REQUIRED_IN_NOTEBOOKS if term not in text]
    assert missing == []


def _printed_sources() -> Iterator[tuple[str, object]]:
    for path in SOURCES:
        for name in re.findall(r"inspect\.getsource\((\w+)\)", path.read_text(encoding="utf-8")):
            yield f"{path.name}:{name}", getattr(lesson3, name)


ENGLISH = re.compile(r"\b(?:the|is|and|of|to|it|when|if|an|one|its|with|before|after)\b", re.IGNORECASE)


@pytest.mark.parametrize(("where", "obj"), list(_printed_sources()), ids=lambda v: v if isinstance(v, str) else "")
def test_code_the_notebooks_print_is_commented_in_spanish(where: str, obj: object) -> None:
    source = inspect.getsource(obj)  # type: ignore[arg-type]
    comments = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    docstring = inspect.getdoc(obj) or ""
    english = [c for c in [*comments, docstring] if ENGLISH.search(c)]
    assert english == []


# -- item 5: the lesson's JavaScript, never the reference Python, and hints short of the code -----


def _body_lines(fn: object) -> list[str]:
    lines = inspect.getsource(fn).splitlines()  # type: ignore[arg-type]
    code = [ln.strip() for ln in lines if not ln.strip().startswith(("#", '"""'))]
    return [ln for ln in code if len(ln) > 20 and not re.fullmatch(r'"\w+": [^,]*,', ln)]


LEARNER_NOTEBOOKS = [t.path for t in targets(NOTEBOOKS) if t.version == "learner"]


@pytest.mark.parametrize("path", LEARNER_NOTEBOOKS, ids=lambda p: p.name)
def test_learner_notebooks_never_show_the_reference_reconcile(path: Path) -> None:
    text = _notebook_text(path)
    assert "getsource(reconcile)" not in text
    # The production version is the exercise's subject and shares its plumbing; the rule is what must not show.
    rule = [line for line in _body_lines(reference_reconcile) if line not in _body_lines(reconcile_production)]
    assert [line for line in rule if line in text] == []


@pytest.mark.parametrize(
    ("snippet", "source"),
    [("reconcile.js", "03_reconcile_y_contadores.md"), ("save_load.js", "01_reanudar_no_reiniciar.md")],
)
def test_the_notebooks_teach_from_the_lessons_javascript_verbatim(snippet: str, source: str) -> None:
    js = (LESSON_DATA / snippet).read_text(encoding="utf-8")
    assert f"```javascript\n{js}```" in (NOTEBOOKS / "src" / source).read_text(encoding="utf-8")


CODE_IN_A_HINT = re.compile(r"[{}\[\]=]|\bTrue\b|\bNone\b|\.append\b|\w+\([^)\s]")


@pytest.mark.parametrize("hints", [LEVEL1_HINTS, LEVEL2_HINTS], ids=["nivel1", "nivel2"])
def test_hints_escalate_and_stop_short_of_the_code(hints: tuple[str, ...]) -> None:
    assert len(hints) >= 3
    assert [h for h in hints if CODE_IN_A_HINT.search(h)] == []


def test_the_graders_hints_stop_short_of_the_code() -> None:
    from autograder.course import criteria
    from autograder.course.criteria import CRITERIA

    found = {(c.id, lang): h for c in CRITERIA.values() for lang in ("es", "en") for h in criteria.hints(c.id, lang)}
    assert {key: h for key, h in found.items() if CODE_IN_A_HINT.search(h)} == {}


def test_the_exercise_notebook_shows_the_hints_from_lesson3() -> None:
    text = (NOTEBOOKS / "src" / "04_ejercicios.md").read_text(encoding="utf-8")
    assert "LEVEL1_HINTS" in text and "LEVEL2_HINTS" in text
    assert not re.search(r"hints\(\[", text)  # no hint list written a second time in the notebook


# -- item 9: the is_error text is the lesson's ---------------------------------------------------


def test_the_reference_is_error_text_is_the_lessons() -> None:
    assert UNKNOWN_STATE_MESSAGE == LESSON_UNKNOWN_STATE


def test_the_solved_notebooks_reconcile_answers_with_the_lessons_text(tmp_path: Path) -> None:
    nb = nbformat.read(NOTEBOOKS / SOLUTIONS_DIR / "04_ejercicios.ipynb", as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code" and "def reconcile(cp)" in c.source)
    namespace: dict[str, object] = {}
    exec(compile(cell.source, "reconcile-cell", "exec"), namespace)
    cp = namespace["reconcile"](exercise_checkpoint("cpC"))  # type: ignore[operator]
    result = cp["messages"][-1]["content"][0]
    assert result["is_error"] is True
    assert result["content"] == LESSON_UNKNOWN_STATE


# -- items 11 and 13: lists, structure and links -------------------------------------------------


def _markdown_cells(path: Path, version: str = "learner") -> list[str]:
    cells = render(parse_source(path.read_text(encoding="utf-8"), path.name), version)
    return [c.source for c in cells if c.kind == "markdown"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_numbered_lists_render_with_the_numbers_they_show(path: Path) -> None:
    for cell in _markdown_cells(path):
        numbers: list[int] = []
        in_fence = False
        for line in [*cell.splitlines(), ""]:
            if line.startswith("```"):
                in_fence = not in_fence
            m = re.match(r"(\d+)\. ", line)
            if m and not in_fence:
                numbers.append(int(m.group(1)))
            elif not line.strip() or not line.startswith(" "):
                if numbers:
                    # Markdown renders a list from its first number on, one by one.
                    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
                    assert numbers[0] == 1, f"{path.name}: una lista empieza en {numbers[0]}"
                numbers = []


def test_notebook_four_puts_what_you_submit_first_and_grading_mechanics_in_an_appendix() -> None:
    text = (NOTEBOOKS / "src" / "04_ejercicios.md").read_text(encoding="utf-8")
    submit, level1 = text.index("**Lo que entregas**"), text.index("## Nivel 1")
    appendix, together = text.index("## Apéndice: cómo se corrige"), text.index("## Todo junto")
    assert submit < level1 < together < appendix
    for mechanics in ("puntos de control **nuevos**", "mira los efectos de verdad", "autograder-skip`"):
        assert text.index(mechanics) > appendix, mechanics


LINK = re.compile(r"\]\(([^)\s]+\.ipynb)\)")


@pytest.mark.parametrize("target", targets(NOTEBOOKS), ids=lambda t: str(t.path.relative_to(NOTEBOOKS)))
def test_notebook_links_resolve_and_follow_the_course_order(target) -> None:  # type: ignore[no-untyped-def]
    text = "\n".join(_markdown_cells(target.source, target.version))
    links = LINK.findall(text)
    for link in links:
        assert (target.path.parent / link).resolve().is_file(), f"{target.path.name}: enlace roto {link}"
    order = [p.stem for p in SOURCES]
    i = order.index(target.source.stem)
    linked = {Path(link).stem for link in links}
    if i + 1 < len(order):
        assert order[i + 1] in linked, "falta el enlace al cuaderno siguiente"
    if i > 0:
        assert order[i - 1] in linked, "falta el enlace al cuaderno anterior"


def test_the_notebooks_point_back_to_lesson_2_and_on_to_lesson_4() -> None:
    first, last = SOURCES[0].read_text(encoding="utf-8"), SOURCES[-1].read_text(encoding="utf-8")
    assert "**Anterior:** Lección 2" in first
    assert "**Siguiente:** Lección 4" in last
