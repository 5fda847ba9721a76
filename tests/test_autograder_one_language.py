"""One language in code: what the grader says comes from the catalogue, in the grading's language.

The learner's process may not import the catalogue (tests/test_autograder_layout.py): the judge sends
it its sentences with the load, so a placeholder refused, its repr and a skipped magic speak the
run's language; the code itself holds no Spanish sentence.
"""

from __future__ import annotations

import ast
import inspect
import io
import os
import re
import tokenize
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

import autograder
import autograder.learner.runner  # imported before forking, as the zygote does
from autograder.course import catalogue
from autograder.course.catalogue import keys, learner_texts, text
from autograder.intake.submission import from_notebook_text
from autograder.sandbox.learner_process import learner_uid, prepare_box, running_as_root
from autograder.sandbox.session import Session
from autograder.wire.limits import Limits

pytestmark = pytest.mark.warm_up("learner_zygote")

PACKAGE = Path(autograder.__file__).parent

CELLS = (
    "%pip install numpy\n!ls -la",
    "import lesson3.answers as respuestas\nprint(respuestas.__doc__)\nprint(repr(respuestas.reconcile))",
    "import lesson3.answers\nlesson3.answers.reconcile({})",
)

SAID = {
    "es": [
        "[%pip: no se ejecuta al corregir]",
        "[no se ejecuta al corregir: ls -la]",
        "No disponible al corregir: las respuestas de la lección.",
        "<lesson3.answers.reconcile: no disponible al corregir>",
    ],
    "en": [
        "[%pip: not run while grading]",
        "[not run while grading: ls -la]",
        "Not available while grading: the lesson's answers.",
        "<lesson3.answers.reconcile: not available while grading>",
    ],
}
REFUSED = {
    "es": "lesson3.answers.reconcile es la solución de referencia de lesson3",
    "en": "lesson3.answers.reconcile is lesson3's reference solution",
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_learners_process_speaks_the_grading_language(tmp_path, lang):
    uid = learner_uid(os.getpid()) if running_as_root() else None
    box = tmp_path / "alumno"
    prepare_box(box, uid)
    submission = from_notebook_text(nbformat.writes(new_notebook(cells=[new_code_cell(c) for c in CELLS])), "x.ipynb")
    session = Session(submission, limits=Limits(), box=box, uid=uid, lang=lang)
    try:
        summary = session.start()
        printed = session.printed_text()
    finally:
        session.close()
    assert summary.fatal is None, summary.fatal
    for said in SAID[lang]:
        assert said in printed, printed
    (warning,) = summary.warnings
    assert "DelegationError" in warning and REFUSED[lang] in warning, warning
    other = "en" if lang == "es" else "es"
    assert not any(said in printed for said in SAID[other])


def test_the_learners_texts_are_the_catalogues_learner_keys():
    es, en = learner_texts("es"), learner_texts("en")
    assert set(es) == set(en) >= {"placeholder_refused", "placeholder_repr", "answers_doc", "magic_skipped"}
    assert es["magic_skipped"] == text("learner.magic_skipped", "es") and es != en


SPANISH = re.compile(r"[áéíóúñ¿¡]|\b(?:corregir|entrega|celda|alumno|falló|ejecutó|Hecho|tienen que)\b")
"""What gives a Spanish sentence away (accents, ¿¡, the course's words)."""


def documentation(tree: ast.AST) -> list[ast.Constant]:
    """Every string that documents rather than says: docstrings, and a string statement after an assignment
    (an attribute's documentation)."""
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    ]


def sentences(path: Path) -> list[tuple[int, str]]:
    """String literals of a module that are not documentation (f-strings' literal parts included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    documenting = {id(node) for node in documentation(tree)}
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documenting
    ]


SPANISH_DATA = {
    "course/catalogue.py": "every text the grader says, in Spanish and English",
    "course/levels.py": "the levels' titles",
    "course/lesson_map.py": "the lesson's objectives and sections, quoted from the lesson",
    "course/questions.py": "the questions' prompts and options",
    "reporting/guide.py": "the generated parts of docs/guia-docente.md, a Spanish document",
    "reporting/lms.py": "Moodle's own column names in a Spanish worksheet",
    "distribution/release.py": "the docstring of the edition's lesson3/answers stub: a module of the Spanish course",
    "intake/notebook_json.py": "the notebook's title line it recognises («Lección 3»)",
    "judging/scenarios.py": "the tasks and notes the offline model and the learner's tools read: the course's language",
    "judging/unknown_state.py": "the Spanish the is_error text classifier reads",
    **{
        room.removeprefix("autograder.").replace(".", "/") + ".py": "a room's texts, in Spanish and English"
        for room in catalogue.ROOMS.values()
    },
}
"""Where Spanish is data, with why; anywhere else a Spanish sentence belongs in the catalogue."""


@pytest.mark.parametrize(
    "module",
    sorted(p for p in PACKAGE.rglob("*.py") if str(p.relative_to(PACKAGE)) not in SPANISH_DATA),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_no_spanish_sentence_is_hard_coded_where_the_catalogue_should_say_it(module):
    # A sentence has words: a file or folder name («entrega.py», «alumno») is a name, not something said.
    found = [(line, s) for line, s in sentences(module) if len(s.split()) > 1 and SPANISH.search(s)]
    assert not found, found


def test_the_spanish_data_modules_exist_and_hold_spanish():
    for name in SPANISH_DATA:
        assert any(len(s.split()) > 1 and SPANISH.search(s) for _, s in sentences(PACKAGE / name)), name


SPANISH_WORDS = frozenset(
    "el la los las una un que del con para por se es sin cuando cada entrega celda alumno lo le y o de en al "
    "su sus ya si más hay".split()
)
ENGLISH_WORDS = frozenset("the a an of to is and in for it that with on as be this not by are from its or when".split())
QUOTED = re.compile(r"«[^»]*»|``[^`]*``|`[^`]*`|\"[^\"]*\"")
LEARNERS_HELP = {("__init__.py", "check"), ("__init__.py", "pista")}
"""What ``check?`` and ``pista?`` show the learner in a notebook: help for the learner, in the course's Spanish."""


WORD = re.compile(r"[a-záéíóúñü]+")


def _catalogue_words(lang: str) -> set[str]:
    return {w for key in keys() for w in WORD.findall(text(key, lang).lower())}


# The course's own vocabulary: a word only its Spanish texts use gives Spanish away even in a line with no
# function words («Corregir entregas: cargar → …»), a word only its English texts use gives English.
SPANISH_LEXICON = SPANISH_WORDS | (_catalogue_words("es") - _catalogue_words("en"))
ENGLISH_LEXICON = ENGLISH_WORDS | (_catalogue_words("en") - _catalogue_words("es"))


def spanish(prose: str) -> bool:
    """More Spanish words than English ones in the summary line or in any paragraph, quotations («…», ``…``,
    "…") and literal blocks (indented: a command line, an example) aside."""
    plain = [line for line in inspect.cleandoc(QUOTED.sub("", prose)).splitlines() if not line[:1].isspace()]
    paragraphs = "\n".join(plain).split("\n\n")
    for unit in [plain[0] if plain else "", *paragraphs]:
        words = WORD.findall(unit.lower())
        es, en = sum(w in SPANISH_LEXICON for w in words), sum(w in ENGLISH_LEXICON for w in words)
        if es >= 2 and es > en:
            return True
    return False


def test_a_docstring_that_opens_in_spanish_is_found_however_it_goes_on():
    english = "Grade submissions: load, run confined, observe, judge, report.\n\nThe grader's process reads files."
    assert not spanish(english)
    assert spanish(english.replace("Grade submissions: load, run confined, observe, judge, report.", OPENER))
    assert spanish("Escribe results.json y resumen.html en ``out``.\n\nReturns the files written, as listed.")
    usage = "The command.\n\n    autograder grade PATH [--lang es|en] [--out DIR]\n\nExit codes: 0 when it ran."
    assert not spanish(usage)
    assert spanish(usage.replace("Exit codes: 0 when it ran.", "Sale con 0 cuando se ejecutó, si no con 2."))


OPENER = "Corregir entregas: cargar → correr aislado → observar → juzgar → informar."
"""How the pipeline's docstring opened, in Spanish with no function word, before this test judged lines."""


def prose(path: Path) -> list[tuple[str, str]]:
    """(where, text) of every docstring and comment of a module."""
    source = path.read_text(encoding="utf-8")
    found = []
    tree = ast.parse(source)
    learners_help = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (path.name, node.name) in LEARNERS_HELP:
            learners_help.add(id(node.body[0].value))
    found += [(f"line {doc.lineno}", doc.value) for doc in documentation(tree) if id(doc) not in learners_help]
    found += [
        (f"line {t.start[0]}", t.string)
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type == tokenize.COMMENT
    ]
    return found


@pytest.mark.parametrize(
    "module",
    sorted(p for p in PACKAGE.rglob("*.py") if p.name != "catalogue.py"),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_docstrings_and_comments_are_in_english(module):
    assert not [(where, said[:80]) for where, said in prose(module) if spanish(said)]
