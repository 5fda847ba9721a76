"""Level 0's feedback texts.

Plain data, looked up by :func:`autograder.course.catalogue.text` (see the catalogue for why it lives here).
"""

from lesson3.checkpoint import VERSION_MESSAGE_ANY

TEXTS: dict[str, dict[str, str]] = {
    # -- Nivel 0: the resume path -----------------------------------------------------------
    "resume_path.call": {"es": "{fn} con «{label}»", "en": "{fn} on «{label}»"},
    "resume_path.wrong": {"es": "Falló en {bad} casos: {items}.", "en": "Wrong in {bad} cases: {items}."},
    "resume_path.file_gone": {
        "es": "el archivo «{label}» ya no está: cargar nunca borra el punto de control",
        "en": "the file «{label}» is gone: loading never deletes the checkpoint",
    },
    "resume_path.file_changed": {
        "es": "el archivo «{label}» cambió: cargar solo lee, el punto de control queda como estaba",
        "en": "the file «{label}» changed: loading only reads, the checkpoint stays as it was",
    },
    "resume_path.version_ok": {
        "es": 'Los {n} archivos de otra versión (mayor y menor que 1, 0, con decimales y el texto "1", al azar) '
        "se rechazan con el mensaje de la lección y quedan intactos, byte a byte; start_state tampoco arranca de "
        "cero con ellos.",
        "en": 'The {n} files of another version (above and below 1, 0, a fraction and the text "1", random) are '
        "refused with the lesson's message and left byte-identical; start_state does not start from scratch on "
        "them either.",
    },
    "resume_path.version_ok_why": {
        "es": " Si version no es exactamente CHECKPOINT_VERSION (ni mayor ni menor, ni un texto), lanza un error "
        f"con el texto exacto «{VERSION_MESSAGE_ANY}» y no "
        "toques el archivo; start_state deja pasar ese error.",
        "en": " If version is not exactly CHECKPOINT_VERSION (not above, not below, not a text), raise an error "
        f"whose text is exactly «{VERSION_MESSAGE_ANY}» and "
        "leave the file alone; start_state lets that error through.",
    },
    "resume_path.loaded_anyway": {
        "es": "{where}: devolvió {got} en vez de lanzar el error de versión",
        "en": "{where}: returned {got} instead of raising the version error",
    },
    "resume_path.started_anyway": {
        "es": "{where}: devolvió {got}; con un archivo de otra versión no se sigue (y arrancar de cero pisaría el "
        "punto de control en el siguiente guardado)",
        "en": "{where}: returned {got}; a file of another version stops the run (and starting from scratch would "
        "overwrite the checkpoint at the next save)",
    },
    "resume_path.other_message": {
        "es": "{where}: lanzó {etype} con {got}, y el mensaje tiene que ser «{expected}»",
        "en": "{where}: raised {etype} with {got}, and the message must be «{expected}»",
    },
    "resume_path.fresh_ok": {
        "es": "Sin archivo, my_load_checkpoint devuelve None y start_state arma el estado inicial: turns 0, "
        "tokensUsed 0 y un solo mensaje del usuario con la tarea.",
        "en": "With no file, my_load_checkpoint returns None and start_state builds the initial state: turns 0, "
        "tokensUsed 0 and a single user message with the task.",
    },
    "resume_path.fresh_ok_why": {
        "es": " Sin punto de control, el estado inicial es version 1, la tarea, turns 0, tokensUsed 0, messages con "
        "un solo mensaje del usuario que lleva la tarea, y pendingToolUse None (es lo que da new_state(task)).",
        "en": " With no checkpoint the initial state is version 1, the task, turns 0, tokensUsed 0, messages with a "
        "single user message carrying the task, and pendingToolUse None (what new_state(task) gives).",
    },
    "resume_path.not_none": {
        "es": "{where}: devolvió {got}; si el archivo no existe, devuelve None",
        "en": "{where}: returned {got}; when the file does not exist, return None",
    },
    "resume_path.fresh_differs": {
        "es": "{where}: el estado inicial no es el de la lección ({diff})",
        "en": "{where}: the initial state is not the lesson's ({diff})",
    },
    "resume_path.reconciled_nothing": {
        "es": "{where}: llamó a reconcile sin ninguna llamada colgante",
        "en": "{where}: called reconcile with no dangling call",
    },
    "resume_path.malformed_ok": {
        "es": "Los {n} archivos rotos (truncado, vacío, texto que no es JSON, JSON que no es un objeto) terminan "
        "en una excepción, no en un estado ni en None, y quedan intactos.",
        "en": "The {n} broken files (truncated, empty, text that is not JSON, JSON that is not an object) end in "
        "an exception, not in a state nor in None, and are left as they were.",
    },
    "resume_path.malformed_ok_why": {
        "es": " Un archivo que existe pero no se puede leer no es «no hay punto de control»: deja que json.loads "
        "lance su error (o lanza el tuyo); devolver None haría arrancar de cero y pisar el archivo.",
        "en": " A file that exists but cannot be read is not «no checkpoint»: let json.loads raise (or raise your "
        "own); returning None would start from scratch and overwrite the file.",
    },
    "resume_path.broken_as_missing": {
        "es": "{where}: devolvió {got} en vez de lanzar un error (un archivo roto no es un archivo que no existe)",
        "en": "{where}: returned {got} instead of raising (a broken file is not a missing file)",
    },
    "resume_path.broken_loaded": {
        "es": "{where}: devolvió {got} en vez de lanzar un error",
        "en": "{where}: returned {got} instead of raising",
    },
    "resume_path.kept_ok": {
        "es": "Los {n} puntos de control guardados vuelven tal cual: turns, tokensUsed, messages y la tarea del "
        "archivo, sin pasar por reconcile.",
        "en": "The {n} saved checkpoints come back as they were: turns, tokensUsed, messages and the file's task, "
        "without going through reconcile.",
    },
    "resume_path.kept_ok_why": {
        "es": " Al reanudar el estado sale del archivo: turns y tokensUsed se arrastran, messages no se toca y la "
        "tarea que recibe start_state se ignora.",
        "en": " On resume the state comes from the file: turns and tokensUsed carry over, messages is not touched "
        "and the task given to start_state is ignored.",
    },
    "resume_path.kept_differs": {
        "es": "{where}: el estado no es el del archivo ({diff})",
        "en": "{where}: the state is not the file's ({diff})",
    },
    "resume_path.dangling_ok": {
        "es": "Con pendingToolUse, start_state pasa una vez por reconcile(cp) y devuelve lo que reconcile devolvió.",
        "en": "With a pendingToolUse, start_state goes through reconcile(cp) once and returns what reconcile returned.",
    },
    "resume_path.dangling_ok_why": {
        "es": ' Si cp["pendingToolUse"] no es None, el estado es reconcile(cp) (una sola vez, con el reconcile que '
        "recibe start_state); si no, es cp.",
        "en": ' If cp["pendingToolUse"] is not None the state is reconcile(cp) (once, with the reconcile given to '
        "start_state); otherwise it is cp.",
    },
    "resume_path.not_reconciled": {
        "es": "{where}: el estado devuelto no trae la respuesta de reconcile a la llamada colgante (o no se llamó a "
        "reconcile(cp), o se siguió con cp en vez de con lo que reconcile devolvió)",
        "en": "{where}: the state returned does not carry reconcile's answer to the dangling call (either "
        "reconcile(cp) was not called, or cp was used instead of what reconcile returned)",
    },
    "resume_path.reconciled_twice": {
        "es": "{where}: pasó {times} veces por reconcile (tiene que ser una)",
        "en": "{where}: went through reconcile {times} times (it must be once)",
    },
    "resume_path.reconciled_differs": {
        "es": "{where}: el estado no es el que devolvió reconcile ({diff})",
        "en": "{where}: the state is not the one reconcile returned ({diff})",
    },
    "resume_path.not_a_state": {"es": "devolvió {got}, no un diccionario", "en": "returned {got}, not a dict"},
    "resume_path.field_missing": {"es": "falta «{field}»", "en": "«{field}» is missing"},
    "resume_path.field_differs": {
        "es": "{field} es {got} y tenía que ser {expected}",
        "en": "{field} is {got}, expected {expected}",
    },
    "resume_path.messages_differ": {
        "es": "messages no es el mismo (tenía que tener {expected} mensajes; tiene {got})",
        "en": "messages is not the same (it should have {expected} messages; it has {got})",
    },
    "resume_path.field_extra": {"es": "sobran campos: {fields}", "en": "extra fields: {fields}"},
    "resume_path.lives_ok": {
        "es": "En {lives} vidas (SIGKILL antes de los turnos {kills}), turns siguió desde el archivo cada vez y el "
        "agente se detuvo en MAX_TURNS = {max} contando todas.",
        "en": "Over {lives} lives (SIGKILL before turns {kills}), turns carried on from the file each time and the "
        "agent stopped at MAX_TURNS = {max} counting them all.",
    },
    "resume_path.lives_wrong": {
        "es": "La tarea se mató con SIGKILL y se reanudó con tu start_state: {items}. turns cuenta los turnos de "
        "toda la tarea, no los de este proceso: si vuelve a 0, una tarea que se cae una y otra vez esquiva el tope.",
        "en": "The task was killed with SIGKILL and resumed with your start_state: {items}. turns counts the whole "
        "task's turns, not this process's: reset to 0, a task that keeps crashing dodges the cap.",
    },
    "resume_path.lives_bad_state": {
        "es": "Lo que devolvió start_state al reanudar no es un punto de control con el que el bucle pueda "
        "seguir: {error}.",
        "en": "What start_state returned on resume is not a checkpoint the loop can carry on from: {error}.",
    },
    "resume_path.turns_restarted": {
        "es": "en la vida {life} el archivo tenía turns = {file} y start_state devolvió turns = {got}",
        "en": "in life {life} the file had turns = {file} and start_state returned turns = {got}",
    },
    "resume_path.over_cap": {
        "es": "el modelo recibió {calls} llamadas en {lives} vidas, con MAX_TURNS = {max}",
        "en": "the model got {calls} calls over {lives} lives, with MAX_TURNS = {max}",
    },
    "resume_path.turns_not_total": {
        "es": "al final turns es {turns} y el modelo recibió {calls} llamadas",
        "en": "at the end turns is {turns} and the model got {calls} calls",
    },
}
