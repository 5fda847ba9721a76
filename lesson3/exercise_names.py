"""Los nombres de los tres puntos de control de los ejercicios, en el orden de la lección.

A module of its own that imports nothing: the grader's own process names the Level 1 criteria,
questions and texts after these, and must not load :mod:`lesson3.exercises`, which plays the
checkpoints on the agent and the Anthropic SDK.
"""

from __future__ import annotations

EXERCISE_NAMES: tuple[str, ...] = ("cpA", "cpB", "cpC")
"""The exercise's checkpoints, in the lesson's order: the one list of their names."""
