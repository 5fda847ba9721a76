"""The multiple-choice questions: one source for the notebooks and the grader, and not guessable."""

from __future__ import annotations

import pytest

from autograder.course.criteria import CRITERIA
from autograder.questions import QUESTIONS, normalise_answer

LENGTH_RATIO = 1.35
"""Longest option / shortest option, per question and language: no option stands out by its length."""


def test_each_question_has_a_criterion_options_in_both_languages_and_a_valid_answer():
    assert set(QUESTIONS) == {
        "respuesta_llamada_colgante",
        "razon_cpA",
        "razon_cpB",
        "razon_cpC",
        "respuesta_causa_raiz",
        "respuesta_esta_en_lo_cierto",
    }
    for q in QUESTIONS.values():
        assert q.criterion in CRITERIA and CRITERIA[q.criterion].level == q.level
        assert q.answer in q.options
        assert all(set(text) == {"es", "en"} for text in q.options.values())
        assert len(set(t["es"] for t in q.options.values())) == len(q.options)


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


def test_objective_one_has_its_question_and_the_root_cause_is_graded():
    dangling = QUESTIONS["respuesta_llamada_colgante"]
    assert dangling.level == 1 and "sí o sí" in dangling.prompt["es"] and "falla común" in dangling.prompt["es"]
    right = dangling.options[dangling.answer]["es"]
    assert "A y B" in right and "no se sabe" in right
    assert {"nivel2.causa_raiz", "nivel1.llamada_colgante", "nivel1.esta_en_lo_cierto"} <= set(CRITERIA)


def test_answers_are_normalised_to_one_letter():
    assert normalise_answer(" (B). ") == "b"
    assert normalise_answer("bc") is None
    assert normalise_answer(2) is None
