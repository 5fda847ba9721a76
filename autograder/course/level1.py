"""Level 1, ``resume_action`` and the questions: its criteria (title, hints, the learner's function each calls) and
their feedback texts.

Their verdict functions are in :mod:`autograder.judging.verdicts_level1`. To add a Level 1 criterion: declare it
below, write its feedback texts in :data:`TEXTS`, register its verdict there, then regenerate the documents
(``python -m autograder.course.generated``).
"""

from __future__ import annotations

from autograder.course.criterion import (
    Criterion,
    checkpoint_criterion,
    completion_key,
    question_criteria,
    register,
)
from autograder.course.levels import TITLES
from autograder.course.questions import QUESTIONS, reason_variable
from autograder.wire.calls import ACTION
from lesson3.exercise_names import EXERCISE_NAMES

QUESTION_GRADES: dict[str, tuple[str, ...]] = {
    "nivel1.llamada_colgante": ("objetivo.1", "seccion.mitad_dificil"),
    **{
        QUESTIONS[reason_variable(name)].criterion: (*grades, completion_key(name))
        for name, grades in zip(
            EXERCISE_NAMES, ((), ("objetivo.3",), ("objetivo.3", "seccion.tres_maneras")), strict=True
        )
    },
    "nivel1.esta_en_lo_cierto": ("objetivo.3", "seccion.manejar"),
}
"""What each multiple-choice question grades (the questions themselves live in :mod:`autograder.course.questions`)."""


def _lesson_checkpoint(
    name: str, title: dict[str, str], hint: dict[str, tuple[str, ...]], grades: tuple[str, ...]
) -> Criterion:
    """nivel1.cpA/B/C: ``resume_action`` on one of the lesson's three checkpoints, exactly as printed."""
    return Criterion(
        checkpoint_criterion(name),
        level=1,
        points=1,
        function=ACTION,
        title={lang: t.format(name=name) for lang, t in title.items()},
        hint={lang: tuple(h.format(name=name) for h in hs) for lang, hs in hint.items()},
        observes=f"lesson.{name}",
        feedback=("level1.",),
        lesson=TITLES[1],
        grades=(*grades, completion_key(name)),
    )


_LESSON_CHECKPOINTS: tuple[tuple[dict[str, str], dict[str, tuple[str, ...]], tuple[str, ...]], ...] = (
    (
        {"es": "{name}: continuar", "en": "{name}: continue"},
        {
            "es": (
                "¿Hay una llamada colgante en {name}? Mira el campo que la lección usa para saberlo.",
                "Mira solo el campo pendingToolUse: si está vacío (null en el archivo), no hay llamada "
                "colgante ni nada que conciliar.",
            ),
            "en": (
                "Is there a dangling call in {name}? Look at the field the lesson uses to tell.",
                "Look only at the pendingToolUse field: if it is empty (null in the file) there is no dangling "
                "call and nothing to reconcile.",
            ),
        },
        ("objetivo.1",),
    ),
    (
        {"es": "{name}: volver a ejecutar", "en": "{name}: re-run"},
        {
            "es": (
                "¿Qué efecto secundario tiene la herramienta pendiente de {name}?",
                "read_file es de solo lectura: leer dos veces es igual que leer una.",
            ),
            "en": (
                "What side effect does {name}'s pending tool have?",
                "read_file is read-only: reading twice is the same as reading once.",
            ),
        },
        ("objetivo.3",),
    ),
    (
        {"es": "{name}: repliegue a is_error", "en": "{name}: is_error"},
        {
            "es": (
                "¿Puedes saber, mirando solo el punto de control, si send_email ya se ejecutó?",
                "send_email puede haberse ejecutado ya; sin registro de efectos no puedes saberlo.",
            ),
            "en": (
                "Looking only at the checkpoint, can you tell whether send_email already ran?",
                "send_email may already have run; with no effect ledger you cannot know.",
            ),
        },
        ("objetivo.3",),
    ),
)
"""The lesson's checkpoints in its order (:data:`EXERCISE_NAMES`): title, hints (``{name}``: the checkpoint's),
and what it grades besides its own completion criterion."""


for _criterion in (
    *(_lesson_checkpoint(name, *spec) for name, spec in zip(EXERCISE_NAMES, _LESSON_CHECKPOINTS, strict=True)),
    Criterion(
        "nivel1.hidden",
        level=1,
        points=2,
        function=ACTION,
        title={"es": "puntos de control nuevos", "en": "new checkpoints"},
        hint={
            "es": (
                "El corrector usa nombres de herramientas que el ejercicio no muestra: decide por la regla, "
                "no por los ejemplos.",
                "La lección nombra las herramientas de solo lectura en un conjunto, READ_ONLY_TOOLS; todo lo "
                "que no está en él es de alto impacto.",
                "Son {read_only_count} las de solo lectura: {read_only}.",
            ),
            "en": (
                "The grader uses tool names the exercise never shows: decide by the rule, not by the examples.",
                "The lesson names the read-only tools in a set, READ_ONLY_TOOLS; anything outside it is high-impact.",
                "There are {read_only_count} read-only tools: {read_only}.",
            ),
        },
        observes="actions.hidden",
        feedback=("hidden.",),
        lesson=TITLES[1],
        grades=("objetivo.1", "objetivo.3", *map(completion_key, EXERCISE_NAMES)),
    ),
    *question_criteria(1, QUESTION_GRADES),
):
    register(_criterion)


TEXTS: dict[str, dict[str, str]] = {
    # -- Level 1 -----------------------------------------------------------------------------
    # Never the reason: razon_cpA/B/C ask for it, and this row shows while they may be unanswered.
    "level1.ok": {
        "es": 'Correcto: resume_action({name}) devolvió "{expected}". El porqué lo pregunta razon_{name}.',
        "en": 'Correct: resume_action({name}) returned "{expected}". razon_{name} asks why.',
    },
    "level1.wrong": {
        "es": 'resume_action({name}) devolvió {got}, pero tenía que devolver "{expected}".',
        "en": 'resume_action({name}) returned {got}, but it had to return "{expected}".',
    },
    "level1.invalid": {
        "es": 'resume_action({name}) devolvió {got}, que no es ninguna de las tres acciones: "continue", '
        '"rerun" o "is_error".',
        "en": 'resume_action({name}) returned {got}, which is none of the three actions: "continue", '
        '"rerun" or "is_error".',
    },
    "hidden.ok": {
        "es": "Correcto en los {n} puntos de control nuevos (ids, nombres y entradas al azar): sin llamada "
        "pendiente, las {read_only_count} herramientas de solo lectura y {k} de alto impacto que el ejercicio no "
        "muestra.",
        "en": "Correct on the {n} new checkpoints (random ids, names and inputs): no pending call, the "
        "{read_only_count} read-only tools and {k} high-impact tools the exercise never shows.",
    },
    "hidden.wrong": {
        "es": "Falló en {bad} de {n} puntos de control nuevos (ids, nombres y entradas al azar): {items}.",
        "en": "Wrong on {bad} of {n} new checkpoints (random ids, names and inputs): {items}.",
    },
    "hidden.item": {
        "es": '{label}: devolvió {got} en vez de "{expected}"',
        "en": '{label}: returned {got} instead of "{expected}"',
    },
    "hidden.why_high": {
        "es": " Toda herramienta que no es de solo lectura es de alto impacto, aunque el ejercicio no la "
        'muestre: decide con READ_ONLY_TOOLS, no comparando con "send_email".',
        "en": " Any tool that is not read-only is high-impact, even if the exercise never shows it: decide "
        'with READ_ONLY_TOOLS, not by comparing with "send_email".',
    },
    "hidden.why_read": {
        "es": " Las {read_only_count} herramientas de solo lectura ({read_only_commas}) se vuelven a ejecutar.",
        "en": " All {read_only_count} read-only tools ({read_only_commas}) are re-run.",
    },
    "hidden.why_none": {
        "es": " Sin pendingToolUse no hay nada que conciliar, sea cual sea el último mensaje.",
        "en": " With no pendingToolUse there is nothing to reconcile, whatever the last message is.",
    },
}
