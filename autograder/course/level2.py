"""Level 2, ``reconcile`` and the incident: its criteria (title, hints, the learner's function each calls) and their
feedback texts.

Their verdict functions are in :mod:`autograder.judging.verdicts_level2`. To add a Level 2 criterion: declare it
below, write its feedback texts in :data:`TEXTS`, register its verdict there, then regenerate the documents
(``python -m autograder.course.generated``).
"""

from __future__ import annotations

from autograder.course.criterion import Criterion, question_criteria, register
from autograder.course.levels import TITLES
from autograder.wire.calls import RECONCILE

QUESTION_GRADES: dict[str, tuple[str, ...]] = {"nivel2.causa_raiz": ("fin.causa",)}
"""What each of the level's multiple-choice questions grades (the questions live in
:mod:`autograder.course.questions`)."""

for _criterion in (
    Criterion(
        "nivel2.read_only_rerun",
        level=2,
        points=2,
        function=RECONCILE,
        title={"es": "solo lectura: se vuelve a ejecutar", "en": "read-only: re-run"},
        hint={
            "es": (
                "Leer dos veces es igual que leer una: ¿qué gana el modelo si se vuelve a ejecutar una "
                "herramienta de solo lectura?",
                "El resultado real sale de execute_tool, llamada una sola vez con lo que guarda pendingToolUse.",
                "Lo que devuelve execute_tool va tal cual como content del tool_result, sin is_error.",
            ),
            "en": (
                "Reading twice is the same as reading once: what does the model gain when a read-only tool is re-run?",
                "The real output comes from execute_tool, called once with what pendingToolUse holds.",
                "What execute_tool returns goes as it is into the tool_result's content, without is_error.",
            ),
        },
        observes="reconcile.read_only",
        feedback=("level2.", "effect.", "read_only."),
        lesson=TITLES[2],
        grades=("objetivo.3", "seccion.reconcile", "fin.correccion", "fin.dos_caminos"),
    ),
    Criterion(
        "nivel2.high_impact_not_rerun",
        level=2,
        points=2,
        function=RECONCILE,
        title={"es": "alto impacto: no se vuelve a ejecutar", "en": "high-impact: not re-run"},
        hint={
            "es": (
                "Una herramienta de alto impacto que quizá ya se ejecutó: ¿qué pasa si se ejecuta otra vez?",
                "En la rama de alto impacto no se ejecuta nada (ni execute_tool ni otra vía), pero la llamada "
                "igual recibe su tool_result.",
            ),
            "en": (
                "A high-impact tool that may already have run: what happens if it runs again?",
                "In the high-impact branch nothing runs (neither execute_tool nor any other way), but the call "
                "still gets its tool_result.",
            ),
        },
        observes="reconcile.high_impact",
        feedback=("level2.", "effect.", "high_impact."),
        lesson=TITLES[2],
        grades=("objetivo.3", "seccion.tres_maneras", "seccion.reconcile", "fin.correccion"),
    ),
    Criterion(
        "nivel2.is_error_fallback",
        level=2,
        points=2,
        function=RECONCILE,
        title={"es": "repliegue a is_error", "en": "is_error fallback"},
        hint={
            "es": (
                "Cuando no puedes saber si la herramienta tuvo efecto, la lección dice la verdad al modelo: "
                "relee la jugada tres.",
                "El tool_result de alto impacto se marca como error con el campo is_error (el booleano, no un texto).",
                "El content tiene que decirle al modelo que no se sabe (o no se puede confirmar) si la llamada "
                "se ejecutó; un texto que afirma que funcionó, o un «Error» a secas, no sirve.",
            ),
            "en": (
                "When you cannot know whether the tool took effect, the lesson tells the model the truth: "
                "re-read move three.",
                "The high-impact tool_result is marked as an error with the is_error field (the boolean, not a "
                "string).",
                "The content must tell the model that whether the call ran is unknown (or cannot be confirmed); "
                "a text claiming it worked, or a bare «Error», does not do.",
            ),
        },
        observes="reconcile.high_impact",
        feedback=("level2.", "effect.", "is_error."),
        lesson=TITLES[2],
        grades=("objetivo.3", "seccion.tres_maneras", "seccion.reconcile", "fin.correccion"),
    ),
    Criterion(
        "nivel2.tool_result_paired",
        level=2,
        points=2,
        function=RECONCILE,
        title={"es": "tool_result emparejado", "en": "paired tool_result"},
        hint={
            "es": (
                "El protocolo pide un tool_result por cada tool_use, en el siguiente mensaje del usuario.",
                "Los dos caminos terminan igual: un único mensaje nuevo del usuario al final de messages, con "
                "el tool_result cuyo tool_use_id es el id pendiente.",
                "Después, pendingToolUse queda vacío (null) y se devuelve el mismo punto de control; lo "
                "anterior (mensajes, turns, tokensUsed) no se toca.",
            ),
            "en": (
                "The protocol asks for one tool_result per tool_use, in the next user message.",
                "Both paths end the same way: a single new user message at the end of messages, holding the "
                "tool_result whose tool_use_id is the pending id.",
                "Then pendingToolUse is emptied (null) and the same checkpoint is returned; what was there "
                "(messages, turns, tokensUsed) is not touched.",
            ),
        },
        observes="reconcile.both",
        feedback=("level2.", "effect.", "paired."),
        lesson=TITLES[2],
        grades=("objetivo.3", "seccion.mitad_dificil", "fin.dos_caminos"),
    ),
    Criterion(
        "nivel2.no_double_email",
        level=2,
        points=3,
        function=RECONCILE,
        title={"es": "el incidente: un solo correo", "en": "the incident: one email"},
        hint={
            "es": (
                "Es el incidente de la lección: el proceso muere después de enviar el correo y antes del punto "
                "de guardado B.",
                "Al reanudar, send_email no se vuelve a ejecutar; el modelo recibe is_error y revisa por su "
                "cuenta; el agente tiene que llegar a su respuesta final.",
            ),
            "en": (
                "It is the lesson's incident: the process dies after the email is sent and before save point B.",
                "On resume send_email is not re-run; the model gets is_error and checks by itself; the agent "
                "must reach its final answer.",
            ),
        },
        observes="incident",
        feedback=("email.",),
        lesson=TITLES[2],
        grades=("objetivo.3", "fin.causa", "fin.correccion"),
    ),
    *question_criteria(2, QUESTION_GRADES),
):
    register(_criterion)


TEXTS: dict[str, dict[str, str]] = {
    # -- Level 2 -----------------------------------------------------------------------------
    "level2.failed_items": {
        "es": "Falló en {bad} de {n} casos: {items}.",
        "en": "Failed on {bad} of {n} cases: {items}.",
    },
    "level2.not_dict": {
        "es": "reconcile devolvió {got} en vez del punto de control (un dict con messages)",
        "en": "reconcile returned {got} instead of the checkpoint (a dict with messages)",
    },
    "level2.none_returned": {
        "es": "reconcile devolvió None: tiene que devolver cp",
        "en": "reconcile returned None: it must return cp",
    },
    "level2.no_result": {
        "es": "no hay un tool_result para la llamada pendiente al final de messages",
        "en": "there is no tool_result for the pending call at the end of messages",
    },
    "read_only.ok": {
        "es": "Correcto: {read_only} (con entradas al azar) se volvieron a ejecutar "
        "una vez cada una, con su nombre y su entrada, y cada tool_result trae la salida real.",
        "en": "Correct: {read_only} (random inputs) were each re-run once, with "
        "their name and input, and each tool_result carries the real output.",
    },
    "read_only.not_called": {
        "es": "{label}: execute_tool no se llamó",
        "en": "{label}: execute_tool was not called",
    },
    "read_only.not_called.why": {
        "es": "Una herramienta de solo lectura se vuelve a ejecutar para obtener su resultado real.",
        "en": "A read-only tool is re-run to get its real output.",
    },
    "read_only.wrong_call": {
        "es": "{label}: se ejecutó {calls} en vez de {expected}",
        "en": "{label}: ran {calls} instead of {expected}",
    },
    "read_only.times": {
        "es": "{label}: se ejecutó {times} veces; tiene que ser exactamente una",
        "en": "{label}: it ran {times} times; it must be exactly once",
    },
    "read_only.extra": {
        "es": "{label}: además de la llamada pendiente se ejecutó {calls}",
        "en": "{label}: besides the pending call, {calls} ran",
    },
    "read_only.wrong_content": {
        "es": "{label}: el tool_result no trae la salida real de la herramienta (trae {got})",
        "en": "{label}: the tool_result does not carry the tool's real output (it carries {got})",
    },
    "read_only.marked_error": {
        "es": "{label}: el tool_result está marcado is_error, pero la herramienta funcionó",
        "en": "{label}: the tool_result is marked is_error, but the tool worked",
    },
    "effect.changed": {
        "es": "{label}: el espacio de trabajo cambió por fuera de execute_tool ({paths})",
        "en": "{label}: the workspace changed outside execute_tool ({paths})",
    },
    "high_impact.ok": {
        "es": "Correcto: ninguna herramienta se ejecutó al conciliar send_email ni {names} (mirado en la capa de "
        "herramientas y en el espacio de trabajo), y cada llamada recibió su tool_result.",
        "en": "Correct: no tool ran while reconciling send_email or {names} (checked at the tool layer and in "
        "the workspace), and every call got its tool_result.",
    },
    "high_impact.unanswered": {
        "es": "{label}: no se ejecutó nada, pero la llamada pendiente tampoco recibió su tool_result",
        "en": "{label}: nothing ran, but the pending call got no tool_result either",
    },
    "high_impact.unanswered.why": {
        "es": "No volver a ejecutar no basta: la llamada colgante tiene que quedar respondida, con su "
        "tool_result en el mensaje user que sigue a su tool_use.",
        "en": "Not re-running is not enough: the dangling call must be answered, with its tool_result in the "
        "user message after its tool_use.",
    },
    "high_impact.ran": {
        "es": "{label}: se ejecutó {calls}",
        "en": "{label}: {calls} ran",
    },
    "high_impact.ran.why": {
        "es": "Una herramienta de alto impacto que quizá ya se ejecutó no se vuelve a ejecutar al reanudar.",
        "en": "A high-impact tool that may already have run is not re-run on resume.",
    },
    "is_error.ok": {
        "es": "Correcto: cada llamada de alto impacto recibió un tool_result con is_error: true y un texto que "
        "le dice al modelo que el estado de ejecución es desconocido.",
        "en": "Correct: every high-impact call got a tool_result with is_error: true and a text telling the model "
        "the execution state is unknown.",
    },
    "is_error.not_unknown": {
        "es": "{label}: el content del tool_result ({got}) no le dice al modelo que el estado de ejecución es "
        "desconocido",
        "en": "{label}: the tool_result's content ({got}) does not tell the model the execution state is unknown",
    },
    "is_error.not_unknown.why": {
        "es": "El texto tiene que decir que no se puede confirmar si la llamada se ejecutó; uno que afirma que "
        "funcionó, o un error a secas, lleva al modelo a repetir o a creer algo falso.",
        "en": "The text must say that whether the call ran cannot be confirmed; one claiming it worked, or a bare "
        "error, leads the model to repeat the call or to believe something false.",
    },
    "is_error.review": {
        "es": "{label}: el corrector no pudo decidir si el content del tool_result ({got}) le dice al modelo que "
        "el estado de ejecución es desconocido; queda pendiente de revisión por el profesor",
        "en": "{label}: the grader could not decide whether the tool_result's content ({got}) tells the model the "
        "execution state is unknown; it is left for the instructor to review",
    },
    "is_error.other_id": {
        "es": "{label}: el tool_result responde a {got}, no a la llamada pendiente ({id})",
        "en": "{label}: the tool_result answers {got}, not the pending call ({id})",
    },
    "is_error.missing": {
        "es": "{label}: el tool_result no tiene is_error: true",
        "en": "{label}: the tool_result has no is_error: true",
    },
    "is_error.not_bool": {
        "es": "{label}: is_error es {got}; tiene que ser el booleano True",
        "en": "{label}: is_error is {got}; it must be the boolean True",
    },
    "is_error.empty": {
        "es": "{label}: el tool_result no explica nada (contenido vacío)",
        "en": "{label}: the tool_result explains nothing (empty content)",
    },
    "is_error.empty.why": {
        "es": "Dile al modelo que el estado de ejecución es desconocido.",
        "en": "Tell the model the execution state is unknown.",
    },
    "paired.ok": {
        "es": "Correcto: en los dos caminos se conservan los mensajes anteriores, se agrega un único mensaje "
        "user que empieza con el tool_result de la llamada pendiente, pendingToolUse queda en None, turns y "
        "tokensUsed no cambian, y la API acepta la conversación.",
        "en": "Correct: on both paths earlier messages are kept, a single user message starting with the "
        "tool_result of the pending call is appended, pendingToolUse becomes None, turns and tokensUsed stay, "
        "and the API accepts the conversation.",
    },
    "paired.changed_history": {
        "es": "{label}: se modificaron o borraron mensajes anteriores (el mensaje assistant con el tool_use "
        "tiene que quedar tal cual)",
        "en": "{label}: earlier messages were changed or removed (the assistant message with the tool_use must "
        "stay as it was)",
    },
    "paired.count": {
        "es": "{label}: se agregaron {added} mensajes; tiene que ser exactamente uno",
        "en": "{label}: {added} messages were appended; it must be exactly one",
    },
    "paired.shape": {
        "es": '{label}: el mensaje agregado tiene que ser role "user" y su content una lista que empiece con el '
        "tool_result (después puede llevar texto)",
        "en": '{label}: the appended message must be role "user" and its content a list that starts with the '
        "tool_result (text may follow it)",
    },
    "paired.id": {
        "es": "{label}: el tool_result responde a {got} y no a la llamada pendiente {expected}",
        "en": "{label}: the tool_result answers {got}, not the pending call {expected}",
    },
    "paired.not_first": {
        "es": "{label}: el mensaje agregado empieza con un bloque {first} y el tool_result viene después; la API "
        "rechazaría la conversación: el tool_result va primero y lo demás (un texto, por ejemplo) después",
        "en": "{label}: the appended message starts with a {first} block and the tool_result comes after it; the "
        "API would reject the conversation: the tool_result goes first and anything else (a text, say) after it",
    },
    "paired.duplicate": {
        "es": "{label}: el mensaje agregado tiene {times} tool_result para {id}; la API rechazaría la conversación: "
        "cada tool_use lleva un solo tool_result",
        "en": "{label}: the appended message has {times} tool_results for {id}; the API would reject the "
        "conversation: each tool_use takes a single tool_result",
    },
    "paired.unexpected": {
        "es": "{label}: el mensaje agregado tiene un tool_result para {got}, que no es ninguna llamada del último "
        "mensaje assistant; la API rechazaría la conversación",
        "en": "{label}: the appended message has a tool_result for {got}, which is no call of the last assistant "
        "message; the API would reject the conversation",
    },
    "paired.missing": {
        "es": "{label}: la API rechazaría la conversación: a {ids} le falta su tool_result al principio del mensaje "
        "agregado (cada tool_use del último mensaje assistant necesita el suyo)",
        "en": "{label}: the API would reject the conversation: {ids} lacks its tool_result at the start of the "
        "appended message (every tool_use of the last assistant message needs its own)",
    },
    "paired.pending": {
        "es": "{label}: pendingToolUse tiene que quedar en None después de conciliar",
        "en": "{label}: pendingToolUse must be None after reconciling",
    },
    "paired.counters": {
        "es": "{label}: {field} cambió ({before} → {after})",
        "en": "{label}: {field} changed ({before} → {after})",
    },
    "paired.counters.why": {
        "es": "reconcile no toca los contadores: turns y tokensUsed se arrastran del punto de control.",
        "en": "reconcile does not touch the counters: turns and tokensUsed carry over from the checkpoint.",
    },
    "paired.schema_extra": {
        "es": "{label}: la API rechazaría la conversación: {where} no es un campo que acepte {container} (sus "
        "campos son {allowed}); la API responde «{error}»",
        "en": "{label}: the API would reject the conversation: {where} is not a field {container} accepts (its "
        "fields are {allowed}); the API answers «{error}»",
    },
    "paired.schema_missing": {
        "es": "{label}: la API rechazaría la conversación: a {container} ({where}) le falta el campo obligatorio "
        "«{field}»; la API responde «{error}»",
        "en": "{label}: the API would reject the conversation: {container} ({where}) lacks the required field "
        "«{field}»; the API answers «{error}»",
    },
    "paired.schema_type": {
        "es": "{label}: la API rechazaría la conversación: {where} tiene que ser {expected} y es {got}; la API "
        "responde «{error}»",
        "en": "{label}: the API would reject the conversation: {where} must be {expected} and is {got}; the API "
        "answers «{error}»",
    },
    "paired.schema_value": {
        "es": "{label}: la API rechazaría la conversación: {where} vale {got} y tiene que ser uno de estos: "
        "{expected}; la API responde «{error}»",
        "en": "{label}: the API would reject the conversation: {where} is {got} and must be one of these: "
        "{expected}; the API answers «{error}»",
    },
    "paired.schema_tag": {
        "es": "{label}: la API rechazaría la conversación: {where} es un bloque de tipo «{got}», que la API no acepta "
        "ahí (acepta {expected}); la API responde «{error}»",
        "en": "{label}: the API would reject the conversation: {where} is a block of type «{got}», which the API "
        "does not accept there (it accepts {expected}); the API answers «{error}»",
    },
    "paired.schema_no_tag": {
        "es": "{label}: la API rechazaría la conversación: {where} es un bloque sin el campo «type» (cada bloque dice "
        "de qué tipo es: {expected}); la API responde «{error}»",
        "en": "{label}: the API would reject the conversation: {where} is a block without the «type» field (every "
        "block says what type it is: {expected}); the API answers «{error}»",
    },
    "paired.schema_message": {"es": "un mensaje", "en": "a message"},
    "paired.schema_block": {"es": "un bloque {type}", "en": "a {type} block"},
    "paired.schema_or": {"es": " o ", "en": " or "},
    "paired.schema_kind.string": {"es": "un texto (str)", "en": "a text (str)"},
    "paired.schema_kind.list": {"es": "una lista", "en": "a list"},
    "paired.schema_kind.dict": {"es": "un dict", "en": "a dict"},
    "paired.schema_kind.boolean": {"es": "un booleano (True o False)", "en": "a boolean (True or False)"},
    "paired.schema_kind.integer": {"es": "un número entero", "en": "an integer"},
    "paired.schema_kind.number": {"es": "un número", "en": "a number"},
    "paired.api": {
        "es": "{label}: la API rechazaría la conversación: {error}",
        "en": "{label}: the API would reject the conversation: {error}",
    },
    "email.ok": {
        "es": "Correcto: el proceso murió con SIGKILL después de que send_email entregó el correo y antes del "
        "punto de guardado B; un proceso nuevo reanudó con tu reconcile, la llamada colgante recibió su "
        "tool_result, el agente siguió el bucle (llamadas al modelo: {calls}) y terminó con su respuesta "
        "final, y {to} recibió un solo correo.",
        "en": "Correct: the process was SIGKILLed after send_email delivered the email and before save point "
        "B; a new process resumed with your reconcile, the dangling call got its tool_result, the agent went on "
        "with the loop (model calls: {calls}) and finished with its final answer, and {to} got a single email.",
    },
    "email.unanswered": {
        "es": "Hay un solo correo, pero la llamada colgante de send_email no quedó respondida: después de tu "
        "reconcile, el mensaje assistant con el tool_use ya no está o el mensaje siguiente no trae su "
        "tool_result.",
        "en": "There is a single email, but the dangling send_email call was not answered: after your reconcile "
        "the assistant message with the tool_use is gone or the next message does not carry its tool_result.",
    },
    "email.no_model_call": {
        "es": "Hay un solo correo, pero el agente nunca reanudó: después de tu reconcile el bucle no hizo "
        "ninguna llamada al modelo (turns={turns}, MAX_TURNS={max_turns}). reconcile no toca turns.",
        "en": "There is a single email, but the agent never resumed: after your reconcile the loop made no "
        "model call (turns={turns}, MAX_TURNS={max_turns}). reconcile does not touch turns.",
    },
    "email.no_final_answer": {
        "es": "Hay un solo correo, pero el agente no llegó a su respuesta final: el bucle se detuvo en "
        "turns={turns} (MAX_TURNS={max_turns}; llamadas al modelo: {calls}) sin una respuesta de texto del "
        "modelo al final.",
        "en": "There is a single email, but the agent did not reach its final answer: the loop stopped at "
        "turns={turns} (MAX_TURNS={max_turns}; model calls: {calls}) with no text answer from the model at "
        "the end.",
    },
    "email.double": {
        "es": "{to} recibió {count} correos «{subject}»: es exactamente el incidente. El proceso murió después "
        "de que send_email entregó el correo; al reanudar, se volvió a enviar.",
        "en": "{to} got {count} «{subject}» emails: that is exactly the incident. The process died after "
        "send_email delivered; on resume it was sent again.",
    },
    "email.double_deleted": {
        "es": "{to} recibió {count} correos «{subject}», pero tu reconcile no volvió a ejecutar send_email: el "
        "segundo lo envió el modelo. Al reanudar, la llamada colgante ya no estaba en messages (o no quedó "
        "respondida), así que el modelo no supo que el correo ya había salido y lo envió otra vez. Es la jugada "
        "uno de la lección, borrar: esconde el hecho, no el riesgo.",
        "en": "{to} got {count} «{subject}» emails, but your reconcile did not re-run send_email: the model sent "
        "the second one. On resume the dangling call was gone from messages (or left unanswered), so the model "
        "did not know the email had gone out and sent it again. It is the lesson's move one, deleting: it hides "
        "the fact, not the risk.",
    },
    "email.double_model": {
        "es": "{to} recibió {count} correos «{subject}», pero tu reconcile no volvió a ejecutar send_email: el "
        "segundo lo envió el modelo, porque el tool_result que recibió no le dijo que no se sabe si el correo "
        "ya salió. Dile la verdad: «estado de ejecución desconocido».",
        "en": "{to} got {count} «{subject}» emails, but your reconcile did not re-run send_email: the model sent "
        "the second one, because the tool_result it got did not tell it that whether the email went out is "
        "unknown. Tell it the truth: «unknown execution state».",
    },
    "email.none": {
        "es": "La bandeja de salida quedó con {count} correos; tenía que quedar exactamente uno.",
        "en": "The outbox ended with {count} emails; it had to be exactly one.",
    },
    "email.run_error": {"es": "La reanudación no terminó: {error}", "en": "The resumed run did not finish: {error}"},
    "email.reconcile_failed": {
        "es": "La reanudación se detuvo en tu reconcile: {reason}",
        "en": "The resumed run stopped in your reconcile: {reason}",
    },
}
