"""Las preguntas de opción múltiple: única fuente de enunciados, opciones y respuesta correcta.

The learner answers with a variable holding a letter; :mod:`autograder.criteria`
declares a criterion per question, graded when the submission defines the variable.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Question:
    variable: str
    """The name the learner assigns, e.g. ``respuesta_causa_raiz = "b"``."""
    criterion: str
    points: float
    title: dict[str, str]
    """A short name for result tables and reports."""
    prompt: dict[str, str]
    options: dict[str, dict[str, str]]
    """Letter -> text per language."""
    answer: str
    explanation: dict[str, str]
    hint: dict[str, str]


QUESTIONS: dict[str, Question] = {
    q.variable: q
    for q in (
        Question(
            variable="respuesta_causa_raiz",
            criterion="nivel2.causa_raiz",
            points=1,
            title={"es": "la causa raíz del correo doble", "en": "the root cause of the double email"},
            prompt={
                "es": "¿Cuál es la causa raíz del correo duplicado del reporte de incidente?",
                "en": "What is the root cause of the duplicate email in the incident report?",
            },
            options={
                "a": {
                    "es": "El OOM killer mató el proceso: con más memoria el correo no se habría duplicado.",
                    "en": "The OOM killer killed the process: with more memory the email would not have been doubled.",
                },
                "b": {
                    "es": "reconcile() vuelve a ejecutar con executeTool() cualquier pendingToolUse, sin distinguir "
                    "solo lectura de alto impacto; send_email ya se había ejecutado antes de la caída, así que "
                    "se ejecutó por segunda vez.",
                    "en": "reconcile() re-runs any pendingToolUse with executeTool(), without telling read-only from "
                    "high-impact tools; send_email had already run before the crash, so it ran a second time.",
                },
                "c": {
                    "es": "El punto de guardado B se escribió antes de ejecutar la herramienta, así que el punto de "
                    "control mentía.",
                    "en": "Save point B was written before the tool ran, so the checkpoint was lying.",
                },
                "d": {
                    "es": "El modelo olvidó que ya había enviado el correo y decidió enviarlo otra vez.",
                    "en": "The model forgot it had already sent the email and decided to send it again.",
                },
            },
            answer="b",
            explanation={
                "es": "El modelo no volvió a decidir nada: fue el arnés el que, al reanudar, ejecutó otra vez "
                "send_email a ciegas. Una herramienta de alto impacto sin registro de efectos se repliega a is_error.",
                "en": "The model did not decide anything again: the harness blindly re-ran send_email on resume. "
                "A high-impact tool with no effect ledger falls back to is_error.",
            },
            hint={
                "es": "¿Quién volvió a ejecutar send_email: el modelo o el arnés?",
                "en": "Who ran send_email again: the model or the harness?",
            },
        ),
        Question(
            variable="respuesta_esta_en_lo_cierto",
            criterion="nivel2.pregunta",
            points=1,
            title={"es": "¿Está en lo cierto? (borrar el mensaje)", "en": "Are they right? (deleting the message)"},
            prompt={
                "es": "Alguien sostiene que lo más limpio es borrar de messages el mensaje assistant con la llamada "
                "colgante y hacer de cuenta que nunca pasó. ¿Está en lo cierto?",
                "en": "Someone argues the cleanest move is to delete the assistant message with the dangling call "
                "from messages and pretend it never happened. Are they right?",
            },
            options={
                "a": {
                    "es": "Sí: la conversación reanudada queda sin huecos y el modelo simplemente vuelve a decidir.",
                    "en": "Yes: the resumed conversation has no gap and the model simply decides again.",
                },
                "b": {
                    "es": "No: el modelo olvida una decisión que ya tomó (y puede repetir trabajo), y si la "
                    "herramienta ya se había ejecutado, borrar no deshace el efecto: solo esconde que ocurrió.",
                    "en": "No: the model forgets a decision it already made (and may repeat work), and if the tool "
                    "had already run, deleting does not undo the effect: it only hides that it happened.",
                },
                "c": {
                    "es": "Sí, siempre que la herramienta sea de alto impacto: así no se vuelve a ejecutar.",
                    "en": "Yes, as long as the tool is high-impact: that way it does not run again.",
                },
                "d": {
                    "es": "No, porque la API rechaza cualquier conversación a la que le falte un mensaje assistant.",
                    "en": "No, because the API rejects any conversation that is missing an assistant message.",
                },
            },
            answer="b",
            explanation={
                "es": "Borrar esconde el hecho, no el riesgo: si el correo ya salió, el modelo no lo sabe y puede "
                "volver a enviarlo.",
                "en": "Deleting hides the fact, not the risk: if the email already went out, the model does not "
                "know and may send it again.",
            },
            hint={
                "es": "Borrar el mensaje, ¿deshace un efecto que ya ocurrió?",
                "en": "Does deleting the message undo an effect that already happened?",
            },
        ),
    )
}


def normalise_answer(value: object) -> str | None:
    """``"b"``, ``" B "``, ``"b)"`` and ``"(b)"`` all mean ``"b"``; anything else is None."""
    if not isinstance(value, str):
        return None
    letter = value.strip().strip("().").strip().lower()
    return letter if len(letter) == 1 and letter.isalpha() else None
