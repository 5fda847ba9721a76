"""The multiple-choice questions: one source for the notebooks and the grader."""

from __future__ import annotations

from autograder.criteria import CRITERIA
from autograder.questions import QUESTIONS, normalise_answer


def test_each_question_has_a_criterion_options_in_both_languages_and_a_valid_answer():
    assert set(QUESTIONS) == {"respuesta_causa_raiz", "respuesta_esta_en_lo_cierto"}
    for q in QUESTIONS.values():
        assert q.criterion in CRITERIA
        assert q.answer in q.options
        assert all(set(text) == {"es", "en"} for text in q.options.values())
        assert len(set(t["es"] for t in q.options.values())) == len(q.options)


def test_answers_are_normalised_to_one_letter():
    assert normalise_answer(" (B). ") == "b"
    assert normalise_answer("bc") is None
    assert normalise_answer(2) is None
