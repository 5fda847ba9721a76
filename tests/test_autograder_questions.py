"""The multiple-choice questions: one source for the notebooks and the grader, and not guessable."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from autograder.course.criteria import CRITERIA
from autograder.course.questions import QUESTIONS, normalise_answer

LENGTH_RATIO = 1.35
"""Longest option / shortest option, per question and language: no option stands out by its length."""


GRADED = [q for q in QUESTIONS.values() if not q.practice]
PRACTICE = [q for q in QUESTIONS.values() if q.practice]
SOURCES = Path(__file__).resolve().parent.parent / "notebooks" / "src"


def test_each_question_has_options_in_both_languages_and_a_valid_answer():
    assert set(QUESTIONS) == {
        "respuesta_llamada_colgante",
        "respuesta_caida_o_falla",
        "razon_cpA",
        "razon_cpB",
        "razon_cpC",
        "respuesta_causa_raiz",
        "respuesta_esta_en_lo_cierto",
        "respuesta_id_inventado",
    }
    for q in QUESTIONS.values():
        assert q.answer in q.options
        assert all(set(text) == {"es", "en"} for text in q.options.values())
        assert len(set(t["es"] for t in q.options.values())) == len(q.options)


def test_a_question_is_either_practice_or_graded_by_exactly_one_criterion():
    """The registry grades every graded question and no practice one (whose key ships to learners)."""
    read = [c.observes.removeprefix("answer.") for c in CRITERIA.values() if c.observes.startswith("answer.")]
    assert sorted(read) == sorted(q.variable for q in GRADED)  # each once
    for q in GRADED:
        assert q.criterion in CRITERIA and CRITERIA[q.criterion].function == q.variable
        assert CRITERIA[q.criterion].level == q.level and CRITERIA[q.criterion].points == q.points > 0
    for q in PRACTICE:
        assert q.criterion is None and q.points == 0
        assert all(c.function != q.variable for c in CRITERIA.values())


@pytest.mark.parametrize("practice", [True, False])
def test_a_question_cannot_be_practice_and_graded_at_once(practice):
    model = next(iter(GRADED if practice else PRACTICE))
    with pytest.raises(ValueError, match="either practice"):
        replace(model, practice=practice)


def test_practice_is_asked_in_notebook_2_and_graded_questions_in_notebook_4():
    """Instant feedback (the key) belongs to practice; a graded question is asked only where it is graded."""
    sources = {p.name[:2]: p.read_text(encoding="utf-8") for p in SOURCES.glob("*.md")}
    for q in PRACTICE:
        assert f'QUESTIONS["{q.variable}"]' in sources["02"], q.variable
        assert all(q.variable not in text for name, text in sources.items() if name != "02"), q.variable
    for q in GRADED:
        assert f"{q.variable} = " in sources["04"], q.variable
        assert all(q.variable not in text for name, text in sources.items() if name != "04"), q.variable
    # A click is no answer (only the variable is handed in): the edition would say «recibida» for nothing.
    assert "question_widget(" not in sources["04"] and "question_widget(" in sources["02"]


def test_every_practice_question_has_a_graded_twin_that_asks_something_else():
    """Practice prepares a graded objective; the graded question is another one (its key is not the practice's)."""
    for p in PRACTICE:
        twins = [g for g in GRADED if g.lesson == p.lesson]
        assert twins, p.variable
        for g in twins:
            assert g.prompt["es"] != p.prompt["es"] and g.variable != p.variable
            practised = {o["es"] for o in p.options.values()}
            assert not practised & {o["es"] for o in g.options.values()}, (p.variable, g.variable)
            assert g.explanation["es"] != p.explanation["es"]


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("question", list(QUESTIONS.values()), ids=list(QUESTIONS))
def test_options_have_comparable_lengths_and_the_right_one_is_not_the_longest(question, lang):
    lengths = {letter: len(text[lang]) for letter, text in question.options.items()}
    assert max(lengths.values()) / min(lengths.values()) <= LENGTH_RATIO, lengths
    others = [n for letter, n in lengths.items() if letter != question.answer]
    assert lengths[question.answer] <= max(others), f"the right option is the longest one: {lengths}"


def test_the_right_letters_vary_across_questions():
    """No letter is "usually right": the answers spread over the letters as evenly as their number allows."""
    letters = [q.answer for q in QUESTIONS.values()]
    n_options = len(next(iter(QUESTIONS.values())).options)
    assert max(letters.count(letter) for letter in set(letters)) <= -(-len(letters) // n_options), letters


def test_objective_one_is_graded_and_practised_and_the_root_cause_is_graded():
    graded = QUESTIONS["respuesta_caida_o_falla"]
    assert graded.level == 1 and graded.criterion == "nivel1.llamada_colgante" and not graded.practice
    right = graded.options[graded.answer]["es"]
    assert "B" in right and "pendingToolUse" in right and "nadie sabe" in right
    practice = QUESTIONS["respuesta_llamada_colgante"]
    assert practice.practice and "sí o sí" in practice.prompt["es"] and "falla común" in practice.prompt["es"]
    assert {"nivel2.causa_raiz", "nivel1.llamada_colgante", "nivel1.esta_en_lo_cierto"} <= set(CRITERIA)


def test_answers_are_normalised_to_one_letter():
    assert normalise_answer(" (B). ") == "b"
    assert normalise_answer("bc") is None
    assert normalise_answer(2) is None
