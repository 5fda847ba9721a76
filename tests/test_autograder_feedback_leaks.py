"""No criterion's feedback gives away the key of a question: check() shows every row at once.

A learner runs ``check(level=1)`` with ``resume_action`` written and the ``razon_*`` letters not yet
chosen; a row that explains *why* cpC is ``"is_error"`` answers ``razon_cpC`` for them. So every text a
criterion's feedback is built from (its catalogue families, a question's explanation, the hint check()
shows under a failure) is compared with each other graded question's options: it must not restate the
right one, neither word for word nor as a paraphrase that matches it far better than the wrong ones.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from autograder.course import criteria
from autograder.course.catalogue import entries
from autograder.course.criteria import CRITERIA, Criterion
from autograder.judging.observe import LessonObservation
from autograder.judging.verdicts_level1 import lesson_checkpoint_verdict
from autograder.questions import QUESTIONS, Question
from autograder.sandbox.session import Outcome
from lesson3.answers import EXPECTED_ACTION

LANGS = ("es", "en")
GRADED = [q for q in QUESTIONS.values() if any(c.observes == f"answer.{q.variable}" for c in CRITERIA.values())]
RESTATES = 0.6
"""Share of the right option's words a text holds (mean over languages) to count as restating it..."""
SINGLES_OUT = 0.25
"""...when it also holds that much more of it than of the closest wrong option."""


def words(text: str) -> set[str]:
    """Content words, accents and case folded (short function words left out)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))
    return {w for w in re.findall(r"[a-z_]+", folded) if len(w) >= 4}


def gives_away(text: dict[str, str], question: Question) -> bool:
    """Whether ``text`` (per language) holds ``question``'s key: its explanation, or its right option restated."""
    if any(question.explanation[lang] and question.explanation[lang] in text[lang] for lang in LANGS):
        return True
    right, margin = [], []
    for lang in LANGS:
        said = words(text[lang])
        cover = {letter: len(words(o[lang]) & said) / len(words(o[lang])) for letter, o in question.options.items()}
        right.append(cover[question.answer])
        margin.append(cover[question.answer] - max(v for letter, v in cover.items() if letter != question.answer))
    return sum(right) / len(LANGS) >= RESTATES and sum(margin) / len(LANGS) >= SINGLES_OUT


def feedback_texts(criterion: Criterion) -> list[tuple[str, dict[str, str]]]:
    """Every text the criterion's feedback is built from, per language (placeholders left blank)."""
    found = [
        (key, {lang: re.sub(r"\{[^}]*\}", " ", texts[lang]) for lang in LANGS})
        for key, texts in entries().items()
        if key.startswith(criterion.feedback) and all(lang in texts for lang in LANGS)
    ]
    own = [q for q in QUESTIONS.values() if q.criterion == criterion.id]
    found += [(f"{q.variable}.explanation", dict(q.explanation)) for q in own]
    found.append(("hint 1", {lang: criteria.hints(criterion.id, lang)[0] for lang in LANGS}))
    return found


@pytest.mark.parametrize("criterion", list(CRITERIA.values()), ids=list(CRITERIA))
def test_no_feedback_text_gives_away_another_questions_key(criterion):
    assert GRADED
    leaks = [
        (key, q.variable)
        for key, text in feedback_texts(criterion)
        for q in GRADED
        if q.criterion != criterion.id and gives_away(text, q)
    ]
    assert leaks == []


@pytest.mark.parametrize("name", sorted(EXPECTED_ACTION))
@pytest.mark.parametrize("lang", LANGS)
def test_a_lesson_checkpoint_row_says_the_action_never_the_reason(name, lang):
    reason = QUESTIONS[f"razon_{name}"]
    right = lesson_checkpoint_verdict(
        LessonObservation(name, Outcome("ok", value=EXPECTED_ACTION[name], fn="resume_action")), lang
    )
    wrong_value = next(a for a in ("continue", "rerun", "is_error") if a != EXPECTED_ACTION[name])
    wrong = lesson_checkpoint_verdict(
        LessonObservation(name, Outcome("ok", value=wrong_value, fn="resume_action")), lang
    )
    assert right.passed and not wrong.passed
    for verdict in (right, wrong):
        assert f'"{EXPECTED_ACTION[name]}"' in verdict.feedback
        assert not gives_away({other: verdict.feedback for other in LANGS}, reason), verdict.feedback
        assert not words(verdict.feedback) >= words(reason.options[reason.answer][lang]) - {"pendingtooluse"}


# -- the detector itself: it finds what a leak looks like, and only that -------------------------------------

# How nivel1.cpA/B/C explained themselves before: each the reason that razon_cpA/B/C asks for, reworded.
OLD_REASONS = {
    "razon_cpA": {
        "es": "pendingToolUse es null, así que la caída fue después del punto de guardado B: se toma messages y "
        "se dispara la llamada siguiente, sin conciliar nada.",
        "en": "pendingToolUse is null, so the crash came after save point B: take messages and make the next "
        "call, with nothing to reconcile.",
    },
    "razon_cpB": {
        "es": "pendingToolUse apunta a read_file, una herramienta de solo lectura: volver a ejecutarla no tiene "
        "efectos secundarios, así que se ejecuta otra vez y su resultado va en un tool_result.",
        "en": "pendingToolUse points to read_file, a read-only tool: running it again has no side effects, so it "
        "is re-run and its output goes into a tool_result.",
    },
    "razon_cpC": {
        "es": "pendingToolUse apunta a send_email, una herramienta de alto impacto que quizá ya se ejecutó; sin "
        "registro de efectos se repliega a is_error («estado de ejecución desconocido») en vez de volver a "
        "ejecutarla.",
        "en": "pendingToolUse points to send_email, a high-impact tool that may already have run; with no effect "
        "ledger it falls back to is_error («unknown execution state») instead of running it again.",
    },
}


@pytest.mark.parametrize("variable", sorted(OLD_REASONS))
def test_the_detector_finds_a_reason_reworded(variable):
    assert gives_away(OLD_REASONS[variable], QUESTIONS[variable])
    assert not any(gives_away(OLD_REASONS[variable], q) for q in GRADED if q.variable != variable)


@pytest.mark.parametrize("question", GRADED, ids=[q.variable for q in GRADED])
def test_the_detector_finds_the_right_option_and_the_explanation_and_spares_the_wrong_ones(question):
    right = {lang: question.options[question.answer][lang] for lang in LANGS}
    assert gives_away(right, question)
    assert gives_away({lang: f"Correcto (x). {question.explanation[lang]}" for lang in LANGS}, question)
    for letter, option in question.options.items():
        if letter != question.answer:
            assert not gives_away(dict(option), question), letter


PRACTICE = [q for q in QUESTIONS.values() if q.practice]


@pytest.mark.parametrize("practice", PRACTICE, ids=[q.variable for q in PRACTICE])
def test_a_practice_questions_shipped_key_answers_no_graded_question(practice):
    # Notebook 02's practice keeps its key in the learner's edition (instant feedback): what it shows for
    # the right answer must not be, restated, the right answer of a question that is graded.
    shown = {lang: f"{practice.options[practice.answer][lang]} {practice.explanation[lang]}" for lang in LANGS}
    leaked = [q.variable for q in GRADED if gives_away(shown, q)]
    assert not leaked, f"{practice.variable}'s key answers {leaked}"
    assert practice.variable not in {q.variable for q in GRADED}
