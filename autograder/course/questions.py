"""The multiple-choice questions: the one source of their prompts, options and correct letters.

The learner answers with a variable holding a letter; :mod:`autograder.course.criteria`
declares a criterion per graded question, graded for every submission (a missing answer scores 0).
The practice questions of notebook 02 (``practice=True``) are formative: no criterion reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autograder.course.levels import TITLES
from lesson3.exercise_names import EXERCISE_NAMES
from lesson3.practice import answer_letter


@dataclass(frozen=True)
class Question:
    variable: str
    """The name the learner assigns a letter to, e.g. ``respuesta_causa_raiz``."""
    criterion: str | None
    """The criterion that grades it; ``None`` for a practice question, which no criterion grades."""
    points: float
    level: int
    """The exercise level whose ``check(level)`` grades it (for a practice question, the level it prepares)."""
    lesson: str
    """The lesson's section (or exercise) it checks."""
    title: dict[str, str]
    """A short name for result tables and reports."""
    prompt: dict[str, str]
    options: dict[str, dict[str, str]]
    """Letter -> text per language; of comparable length, so the right one does not stand out."""
    answer: str | None
    """The correct letter; ``None`` in the learner's edition (``autograder release``), where the key is not shipped."""
    explanation: dict[str, str]
    hint: dict[str, str]
    practice: bool = False
    """Asked in notebook 02 with instant feedback and never graded: its key ships in the learner's edition.

    A graded question is asked in notebook 04 and its key stays in the instructor's checkout, so a question
    is one or the other: practice, or graded by a criterion (a different question on the same objective).
    """

    def __post_init__(self) -> None:
        if self.practice != (self.criterion is None):
            raise ValueError(
                f"question {self.variable!r} must be either practice (no criterion) or graded (one criterion)"
            )


def reason_variable(name: str) -> str:
    """The variable where the learner answers why ``resume_action`` does what it does on checkpoint ``name``."""
    return f"razon_{name}"


def _reason(name: str) -> dict[str, Any]:
    """What Level 1's question on one of the lesson's checkpoints (why that action on resume?) has but its key.

    Its options, ``answer`` and ``explanation`` stay written in each ``Question(...)`` call: the learner's
    edition empties the key there (:func:`autograder.distribution.release.keyless_questions_source`)."""
    variable = reason_variable(name)
    return {
        "variable": variable,
        "criterion": f"nivel1.{variable}",
        "points": 1,
        "level": 1,
        "lesson": TITLES[1],
        "title": {"es": f"{name}: por qué", "en": f"{name}: why"},
        "prompt": {"es": f"{name}: ¿por qué esa acción al reanudar?", "en": f"{name}: why that action on resume?"},
    }


QUESTIONS: dict[str, Question] = {
    q.variable: q
    for q in (
        Question(
            variable="respuesta_llamada_colgante",
            criterion=None,
            practice=True,
            points=0,
            level=1,
            lesson="La mitad difícil: conciliar una llamada colgante",
            title={"es": "por qué aparece la llamada colgante", "en": "why the dangling call appears"},
            prompt={
                "es": "¿Por qué una llamada colgante aparece sí o sí en un escenario de recuperación tras una "
                "caída, y en qué se diferencia de una falla común de ejecución de herramienta?",
                "en": "Why does a dangling call always show up when recovering from a crash, and how does it "
                "differ from an ordinary tool execution failure?",
            },
            options={
                "a": {
                    "es": "La herramienta se ejecuta entre los puntos de guardado A y B; en una falla común se "
                    "sabe qué pasó, y aquí no se sabe si tuvo efecto.",
                    "en": "The tool runs between save points A and B; an ordinary failure says what happened, "
                    "here you cannot tell if it took effect.",
                },
                "b": {
                    "es": "El punto de guardado B se escribe antes de ejecutar la herramienta; se diferencia en "
                    "que la herramienta sí le devolvió un error al modelo.",
                    "en": "Save point B is written before the tool runs; it differs in that the tool did send "
                    "an error back to the model.",
                },
                "c": {
                    "es": "La API borra el tool_result cuando el proceso muere; es una falla común más y basta "
                    "con volver a ejecutar la herramienta.",
                    "en": "The API deletes the tool_result when the process dies; it is one more ordinary "
                    "failure, and re-running the tool is enough.",
                },
                "d": {
                    "es": "Solo aparece si el modelo pide varias herramientas a la vez; una falla común nunca "
                    "deja un tool_use sin respuesta.",
                    "en": "It only appears when the model asks for several tools at once; an ordinary failure "
                    "never leaves a tool_use unanswered.",
                },
            },
            answer="a",
            explanation={
                "es": "El punto de guardado A deja pendingToolUse con algo, el B lo vuelve a null, y la herramienta se "
                "ejecuta entre los dos: toda caída en esa ventana deja la llamada colgante. Una falla común "
                "trae su resultado (un error conocido); una llamada colgante no trae nada, y no se puede saber "
                "si la herramienta llegó a tener efecto.",
                "en": "Save point A sets pendingToolUse, save point B clears it, and the tool runs in between: "
                "any crash in that window leaves the call dangling. An ordinary failure comes back with its "
                "result (a known error); a dangling call comes back with nothing, and whether the tool took "
                "effect cannot be known.",
            },
            hint={
                "es": "¿Qué punto de guardado pone algo en pendingToolUse, cuál lo vuelve a null y qué pasa entre "
                "los dos?",
                "en": "Which save point sets pendingToolUse, which one clears it, and what happens in between?",
            },
        ),
        # Graded in notebook 04 on the objective notebook 02's practice question prepares (objective 1):
        # a different situation, so the practice's shipped key does not answer it. Every wrong option is
        # one of the lesson's own wrong moves (restart, save points in the wrong order, blind re-run).
        Question(
            variable="respuesta_caida_o_falla",
            criterion="nivel1.llamada_colgante",
            points=1,
            level=1,
            lesson="La mitad difícil: conciliar una llamada colgante",
            title={"es": "falla común o llamada colgante", "en": "ordinary failure or dangling call"},
            prompt={
                "es": "Dos ejecuciones de la misma tarea. En la primera, send_email contesta «buzón lleno» y el "
                "bucle sigue. En la segunda, el proceso muere con SIGKILL mientras send_email se ejecuta. ¿Qué deja "
                "cada una en el punto de control?",
                "en": "Two runs of the same task. In the first, send_email answers «mailbox full» and the loop "
                "goes on. In the second, the process is killed with SIGKILL while send_email runs. What does each "
                "leave in the checkpoint?",
            },
            options={
                "a": {
                    "es": "La segunda deja un punto de control a medias, que ya no sirve para nada: se arranca la "
                    "tarea de cero; la primera, un tool_result normal.",
                    "en": "The second leaves a half-written checkpoint that is of no use any more: start the whole "
                    "task from scratch; the first, a normal tool_result.",
                },
                "b": {
                    "es": "La primera, un tool_result con is_error guardado en B; la segunda, solo la llamada en "
                    "pendingToolUse: nadie sabe si el correo salió.",
                    "en": "The first, a tool_result with is_error saved at B; the second, the call in "
                    "pendingToolUse and no tool_result: nobody knows if it went out.",
                },
                "c": {
                    "es": "La segunda, pendingToolUse en null, porque B se guarda antes de ejecutar la "
                    "herramienta; solo la primera pide conciliar algo.",
                    "en": "The second, pendingToolUse null, because B is saved before the tool runs; only the "
                    "first needs anything reconciled.",
                },
                "d": {
                    "es": "Las dos, un send_email que falló: al reanudar se vuelve a ejecutar en ambas y se "
                    "rellena su tool_result, sin más.",
                    "en": "Both, a send_email that failed: on resume it is re-run in both and its tool_result is "
                    "filled in, nothing more.",
                },
            },
            answer="b",
            explanation={
                "es": "Una falla común termina: la herramienta contesta con un error, el bucle lo registra como "
                "tool_result con is_error en el punto de guardado B y el modelo se adapta. Una caída entre A y B "
                "no deja nada de eso: el punto A ya guardó la llamada en pendingToolUse, el B nunca llegó, y "
                "desde el archivo no se puede saber si el correo salió; esa llamada colgante hay que conciliarla "
                "antes de volver al bucle.",
                "en": "An ordinary failure finishes: the tool answers with an error, the loop records it as a "
                "tool_result with is_error at save point B and the model adapts. A crash between A and B leaves "
                "none of that: save point A already put the call in pendingToolUse, B never came, and the file "
                "cannot tell whether the email went out; that dangling call must be reconciled before going "
                "back to the loop.",
            },
            hint={
                "es": "¿Cuál de las dos ejecuciones llegó al punto de guardado B? Y en la otra, ¿qué sabe el "
                "archivo del correo?",
                "en": "Which of the two runs reached save point B? And in the other, what does the file know "
                "about the email?",
            },
        ),
        # Level 1 asks for the action *and why*: the why is the lesson's completion criterion of each
        # checkpoint. Every wrong option is one of the lesson's own wrong moves (delete, blind re-run,
        # restart, a ledger this lesson does not have), so guessing from the words alone does not work.
        Question(
            **_reason(EXERCISE_NAMES[0]),
            options={
                "a": {
                    "es": "El último mensaje es un tool_result: la tarea ya terminó, así que se arranca de nuevo con "
                    "la tarea guardada, desde turns en 0.",
                    "en": "The last message is a tool_result: the task is over, so start again with the saved "
                    "task, from turns 0.",
                },
                "b": {
                    "es": "pendingToolUse es null: la caída fue tras el punto de guardado B y antes del siguiente "
                    "create(); se hace la llamada siguiente.",
                    "en": "pendingToolUse is null: the crash came after save point B and before the next "
                    "create(); fire the next call.",
                },
                "c": {
                    "es": "pendingToolUse es null porque el resultado se perdió en la caída: se vuelve a ejecutar "
                    "la última herramienta de messages.",
                    "en": "pendingToolUse is null because the result was lost in the crash: re-run the last tool "
                    "found in messages.",
                },
                "d": {
                    "es": "Sin pendingToolUse no se sabe dónde quedó el bucle: se borra el último mensaje de "
                    "messages y el modelo vuelve a decidir.",
                    "en": "With no pendingToolUse you cannot tell where the loop was: delete the last message of "
                    "messages and let the model decide again.",
                },
            },
            answer="b",
            explanation={
                "es": "Es el criterio de la lección: con pendingToolUse en null no hay llamada colgante; la caída "
                "fue después del punto de guardado B y antes del siguiente create(), así que basta con tomar "
                "messages y disparar la llamada siguiente, sin ninguna conciliación.",
                "en": "It is the lesson's criterion: with pendingToolUse null there is no dangling call; the crash "
                "came after save point B and before the next create(), so it is enough to take messages and fire "
                "the next call, with no reconciling at all.",
            },
            hint={
                "es": "¿Qué punto de guardado deja pendingToolUse en null, y qué hace el bucle justo después?",
                "en": "Which save point leaves pendingToolUse null, and what does the loop do right after it?",
            },
        ),
        Question(
            **_reason(EXERCISE_NAMES[1]),
            options={
                "a": {
                    "es": "No se puede saber si read_file llegó a ejecutarse: se repliega a is_error y el modelo "
                    "decide si vuelve a leer.",
                    "en": "Whether read_file ran cannot be known: fall back to is_error and let the model decide "
                    "whether to read again.",
                },
                "b": {
                    "es": "Leer es barato: se borra el mensaje assistant con el tool_use y el modelo vuelve a "
                    "pedir la lectura si la necesita.",
                    "en": "Reading is cheap: delete the assistant message with the tool_use and the model asks "
                    "for the read again if it needs it.",
                },
                "c": {
                    "es": "read_file es de solo lectura, sin efectos: se vuelve a ejecutar, su resultado va en "
                    "un tool_result y se sigue.",
                    "en": "read_file is read-only, with no side effects: re-run it, put its output in a "
                    "tool_result and go on.",
                },
                "d": {
                    "es": "read_file no cambia nada, así que no hace falta conciliar: se toma messages tal cual "
                    "y se dispara la llamada siguiente.",
                    "en": "read_file changes nothing, so there is nothing to reconcile: take messages as they are "
                    "and fire the next call.",
                },
            },
            answer="c",
            explanation={
                "es": "pendingToolUse apunta a read_file, de solo lectura y con cero efectos secundarios: leer dos "
                "veces es igual que leer una, así que se vuelve a ejecutar para obtener el resultado real, se "
                "rellena el tool_result y se continúa. Sin ese tool_result la API rechaza la llamada siguiente.",
                "en": "pendingToolUse points to read_file, read-only with zero side effects: reading twice is the "
                "same as reading once, so it is re-run for the real output, the tool_result is filled in and the "
                "loop goes on. Without that tool_result the API rejects the next call.",
            },
            hint={
                "es": "¿Qué efecto secundario tiene leer un archivo otra vez? ¿Y qué le falta a messages para la "
                "llamada siguiente?",
                "en": "What side effect does reading a file again have? And what does messages lack for the next call?",
            },
        ),
        Question(
            **_reason(EXERCISE_NAMES[2]),
            options={
                "a": {
                    "es": "send_email es de alto impacto y quizá ya se ejecutó; sin registro de efectos, "
                    "repliegue a is_error («estado desconocido»).",
                    "en": "send_email is high-impact and may already have run; with no effect ledger, fall back "
                    "to is_error («unknown state»).",
                },
                "b": {
                    "es": "El resultado de send_email nunca quedó registrado, así que el correo no salió: se "
                    "vuelve a ejecutar y su resultado va en un tool_result.",
                    "en": "send_email's result was never recorded, so the email did not go out: re-run it and "
                    "put its output in a tool_result.",
                },
                "c": {
                    "es": "Se consulta el registro de efectos: si el correo no figura como enviado, se vuelve a "
                    "ejecutar send_email; si figura, no.",
                    "en": "Check the effect ledger: if the email is not recorded as sent, re-run send_email; if "
                    "it is, do not.",
                },
                "d": {
                    "es": "Para no arriesgar un segundo correo, se borra de messages el mensaje assistant con el "
                    "tool_use y el modelo vuelve a decidir.",
                    "en": "Not to risk a second email, delete the assistant message with the tool_use from "
                    "messages and let the model decide again.",
                },
            },
            answer="a",
            explanation={
                "es": "pendingToolUse apunta a send_email, de alto impacto: no se puede volver a ejecutar sin "
                "condiciones. En esta lección todavía no hay registro de efectos (llega en la Lección 4), así que "
                "se repliega a is_error y se le dice la verdad al modelo («estado de ejecución desconocido») en "
                "vez de reenviar un correo.",
                "en": "pendingToolUse points to send_email, high-impact: it cannot be re-run unconditionally. This "
                "lesson has no effect ledger yet (it comes in Lesson 4), so it falls back to is_error and tells "
                "the model the truth («unknown execution state») instead of sending the email again.",
            },
            hint={
                "es": "Mirando solo el punto de control, ¿puedes saber si el correo ya salió? ¿Hay registro de "
                "efectos en esta lección?",
                "en": "Looking only at the checkpoint, can you tell whether the email went out? Is there an effect "
                "ledger in this lesson?",
            },
        ),
        Question(
            variable="respuesta_causa_raiz",
            criterion="nivel2.causa_raiz",
            points=1,
            level=2,
            lesson=TITLES[2],
            title={"es": "la causa raíz del correo doble", "en": "the root cause of the double email"},
            prompt={
                "es": "¿Cuál es la causa raíz del correo duplicado del reporte de incidente?",
                "en": "What is the root cause of the duplicate email in the incident report?",
            },
            options={
                "a": {
                    "es": "El OOM killer mató el proceso; con más memoria no habría caída y el correo no se "
                    "habría duplicado.",
                    "en": "The OOM killer killed the process; with more memory there would be no crash and no "
                    "second email.",
                },
                "b": {
                    "es": "El punto de guardado B se escribió antes de ejecutar send_email, así que el punto de "
                    "control mentía sobre lo ocurrido.",
                    "en": "Save point B was written before send_email ran, so the checkpoint was lying about "
                    "what had happened.",
                },
                "c": {
                    "es": "reconcile() vuelve a ejecutar todo pendingToolUse sin mirar si es de solo lectura; "
                    "send_email ya se había ejecutado.",
                    "en": "reconcile() re-runs every pendingToolUse, read-only or not; send_email had already run.",
                },
                "d": {
                    "es": "El modelo olvidó que ya había enviado el correo y decidió por su cuenta enviarlo "
                    "otra vez al equipo.",
                    "en": "The model forgot it had already sent the email and decided on its own to send it "
                    "to the team again.",
                },
            },
            answer="c",
            explanation={
                "es": "El modelo no volvió a decidir nada: fue el arnés el que, al reanudar, ejecutó otra vez "
                "send_email a ciegas: reconcile() no distingue las herramientas de solo lectura de las de alto "
                "impacto, y send_email muy probablemente ya se había ejecutado antes de la caída.",
                "en": "The model did not decide anything again: the harness blindly re-ran send_email on resume. "
                "reconcile() does not tell read-only tools from high-impact ones, and send_email had very likely "
                "already run before the crash.",
            },
            hint={
                "es": "¿Quién volvió a ejecutar send_email: el modelo o el arnés?",
                "en": "Who ran send_email again: the model or the harness?",
            },
        ),
        Question(
            variable="respuesta_esta_en_lo_cierto",
            criterion=None,
            practice=True,
            points=0,
            level=1,
            lesson="Manejar una llamada colgante",
            title={"es": "¿Está en lo cierto? (borrar el mensaje)", "en": "Are they right? (deleting the message)"},
            prompt={
                "es": "Alguien sostiene que lo más limpio es borrar de messages el mensaje assistant con la llamada "
                "colgante y hacer de cuenta que nunca pasó. ¿Está en lo cierto?",
                "en": "Someone argues the cleanest move is to delete the assistant message with the dangling call "
                "from messages and pretend it never happened. Are they right?",
            },
            options={
                "a": {
                    "es": "Sí: la conversación reanudada queda sin huecos y el modelo simplemente vuelve a "
                    "decidir qué hacer ahora.",
                    "en": "Yes: the resumed conversation has no gap and the model simply decides again what to do.",
                },
                "b": {
                    "es": "Sí, siempre que la herramienta sea de alto impacto: así es seguro que no se vuelve "
                    "a ejecutar.",
                    "en": "Yes, as long as the tool is high-impact: that way it is sure not to run a second time.",
                },
                "c": {
                    "es": "No, porque la API rechaza toda conversación a la que le falte un mensaje assistant "
                    "intermedio.",
                    "en": "No, because the API rejects any conversation that is missing an assistant message "
                    "somewhere in between.",
                },
                "d": {
                    "es": "No: el modelo olvida una decisión ya tomada y, si la herramienta ya se ejecutó, se "
                    "esconde el efecto.",
                    "en": "No: the model forgets a decision it made and, if the tool had already run, the "
                    "effect is hidden.",
                },
            },
            answer="d",
            explanation={
                "es": "Borrar esconde el hecho, no el riesgo: si el correo ya salió, el modelo no lo sabe y puede "
                "volver a enviarlo; y aunque no hubiera salido, el modelo pierde una decisión y repite trabajo.",
                "en": "Deleting hides the fact, not the risk: if the email already went out, the model does not "
                "know and may send it again; and even if it had not, the model loses a decision and repeats work.",
            },
            hint={
                "es": "Borrar el mensaje, ¿deshace un efecto que ya ocurrió?",
                "en": "Does deleting the message undo an effect that already happened?",
            },
        ),
        # Graded in notebook 04 on the section notebook 02's «¿Está en lo cierto?» practises (the lesson's
        # «Manejar una llamada colgante»), on another of its facts: what pairs a tool_result with its call.
        # The practice's shipped key (deleting hides the effect) settles nothing here.
        Question(
            variable="respuesta_id_inventado",
            criterion="nivel1.esta_en_lo_cierto",
            points=1,
            level=1,
            lesson="Manejar una llamada colgante",
            title={
                "es": "un tool_use_id nuevo: ¿está en lo cierto?",
                "en": "a new tool_use_id: is he right?",
            },
            prompt={
                "es": "Al reanudar, pendingToolUse apunta a send_email. Un compañero concilia con un tool_result "
                "is_error: true, pero le pone un tool_use_id nuevo, inventado: «el id de la llamada colgante es de "
                "una vida del agente que ya murió». ¿Está en lo cierto?",
                "en": "On resume, pendingToolUse points to send_email. A colleague reconciles with an is_error: "
                "true tool_result, but gives it a new, made-up tool_use_id: «the dangling call's id belongs to a "
                "life of the agent that already died». Is he right?",
            },
            options={
                "a": {
                    "es": "Sí: cada vida del agente empieza con ids nuevos, y la API ya no reconoce los de antes de "
                    "la caída.",
                    "en": "Yes: each life of the agent starts with new ids, and the API no longer knows the ones from "
                    "before the crash.",
                },
                "b": {
                    "es": "Sí, porque es un error: con is_error: true la API no mira a qué llamada responde el "
                    "resultado.",
                    "en": "Yes, because it is an error: with is_error: true the API does not check which call the "
                    "result answers.",
                },
                "c": {
                    "es": "No: con send_email lo correcto es borrar el mensaje con el tool_use, y así no queda ningún "
                    "id que emparejar.",
                    "en": "No: with send_email the right move is to delete the message with the tool_use, so no id is "
                    "left to pair.",
                },
                "d": {
                    "es": "No: un tool_result responde a su llamada por el tool_use_id; con otro, la llamada sigue "
                    "colgando.",
                    "en": "No: a tool_result answers its call by the tool_use_id; with another one, the call still "
                    "dangles.",
                },
            },
            answer="d",
            explanation={
                "es": "El protocolo pide un tool_result por cada tool_use, con su mismo tool_use_id, en el siguiente "
                "mensaje del usuario; el id no caduca con la caída porque vive en checkpoint.json. Un id inventado no "
                "responde a nadie: la llamada colgante sigue colgando y la API rechaza la conversación.",
                "en": "The protocol asks for one tool_result per tool_use, with the same tool_use_id, in the next "
                "user message; the id does not expire with the crash, since it lives in checkpoint.json. A made-up "
                "id answers nothing: the dangling call still dangles and the API refuses the conversation.",
            },
            hint={
                "es": "¿Cómo sabe la API a qué tool_use responde un tool_result? ¿Dónde quedó guardado ese dato?",
                "en": "How does the API know which tool_use a tool_result answers? Where was that saved?",
            },
        ),
    )
}


def graded_on_submission(criterion: str) -> bool:
    """Whether ``criterion`` is a question whose key this package does not hold (the learner's edition).

    There ``check()`` only says the answer was received; the instructor's checkout grades it.
    """
    return any(q.criterion == criterion and q.answer is None for q in QUESTIONS.values())


# ``"b"``, ``" B "``, ``"b)"`` and ``"(b)"`` all mean ``"b"``: the notebook's own reading, so it never
# says "correct" to an answer the grader refuses.
normalise_answer = answer_letter
