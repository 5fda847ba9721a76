"""The course's questions as the notebooks import them: ``from autograder.questions import QUESTIONS``.

A face: the questions are course data and live in :mod:`autograder.course.questions` with the rest of it.
"""

from autograder.course.questions import QUESTIONS, Question

__all__ = ["QUESTIONS", "Question"]
