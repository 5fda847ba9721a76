"""Level 1's feedback texts.

Plain data, looked up by :func:`autograder.course.catalogue.text` (see the catalogue for why it lives here).
"""

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
