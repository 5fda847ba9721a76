"""The exercise's levels: the one list of them, each with its title in the lesson.

``check(level)`` accepts these, a grading run grades all of them, and every criterion and question
belongs to one (:mod:`autograder.course.criteria`, :mod:`autograder.course.questions`).
"""

from __future__ import annotations

TITLES: dict[int, str] = {
    0: "Nivel 0: la ruta de reanudación",
    1: "Nivel 1: Tres puntos de control, tres acciones de reanudación",
    2: "Nivel 2: Encontrar la causa raíz del correo duplicado",
}
"""Level -> the lesson's name for it (a criterion's ``lesson``, the lesson map's exercise)."""

TOPICS: dict[int, str] = {
    0: "la ruta de reanudación",
    1: "resume_action y las preguntas",
    2: "reconcile y el incidente",
}
"""Level -> what it grades, in a few words (the course file's comments, ``curso.toml.ejemplo``)."""

LEVELS: tuple[int, ...] = tuple(TITLES)
"""Every level, in order."""
