"""Level 0, the resume path: its criteria (title, hints, the learner's function each calls) and their feedback texts.

Their verdict functions are in :mod:`autograder.judging.verdicts_level0`. To add a Level 0 criterion: declare it
below, write its feedback texts in :data:`TEXTS` (keys ``resume_path.*``), register its verdict there, then
regenerate the documents (``python -m autograder.course.generated``).
"""

from __future__ import annotations

from autograder.course.criterion import Criterion, Hints, register
from autograder.course.levels import TITLES
from autograder.wire.calls import LOAD, START
from lesson3.checkpoint import VERSION_MESSAGE_ANY


def _resume_path(
    criterion_id: str, function: str, title: dict[str, str], hint: Hints, observes: str, grades: tuple[str, ...]
) -> Criterion:
    """A Level 0 criterion: ``function`` (``my_load_checkpoint`` or ``start_state``) on a resume scenario."""
    return Criterion(
        criterion_id,
        level=0,
        points=1,
        function=function,
        title=title,
        hint=hint,
        observes=observes,
        feedback=("resume_path.",),
        lesson=TITLES[0],
        grades=("objetivo.2", *grades),
    )


# Hints escalate: the first points at the lesson's idea, the last names what is missing, and none
# writes the solution (tests/test_autograder_criteria.py and tests/test_course_text.py check it).
for _criterion in (
    _resume_path(
        "nivel0.version_refused",
        LOAD,
        {
            "es": "otra versión: se rechaza con el mensaje de la lección",
            "en": "another version: refused with the lesson's message",
        },
        {
            "es": (
                "Es uno de los cuatro pasos de la columna vertebral: leer, parsear, verificar version, desparramar.",
                "Si la version del archivo no es CHECKPOINT_VERSION, lanza un error con el texto de la lección "
                f"(«{VERSION_MESSAGE_ANY}») y no escribas el archivo.",
            ),
            "en": (
                "It is one of the spine's four steps: read, parse, check version, spread the fields.",
                "If the file's version is not CHECKPOINT_VERSION, raise an error with the lesson's text "
                f"(«{VERSION_MESSAGE_ANY}») and do not write the file.",
            ),
        },
        "resume.newer",
        ("seccion.columna",),
    ),
    _resume_path(
        "nivel0.fresh_start",
        LOAD,
        {"es": "sin archivo: se arranca de cero", "en": "no file: start from scratch"},
        {
            "es": (
                "Sin archivo no hay nada que reanudar: es el arranque desde cero de runAgent.",
                "my_load_checkpoint no devuelve ningún punto de control y start_state arma el estado inicial: "
                "turns y tokensUsed en cero y un único mensaje del usuario con la tarea.",
            ),
            "en": (
                "With no file there is nothing to resume: it is runAgent's start from scratch.",
                "my_load_checkpoint returns no checkpoint and start_state builds the initial state: turns and "
                "tokensUsed at zero and a single user message with the task.",
            ),
        },
        "resume.missing",
        ("seccion.columna",),
    ),
    _resume_path(
        "nivel0.malformed_error",
        LOAD,
        {"es": "archivo roto: una excepción, no None", "en": "broken file: an exception, not None"},
        {
            "es": (
                "Un archivo roto no es lo mismo que un archivo que no existe.",
                "Solo la falta de archivo significa «arrancar de cero». Uno que existe y no es un punto de control "
                "(truncado, vacío, no JSON) termina en una excepción: el parser de JSON ya la lanza, no la "
                "atrapes.",
            ),
            "en": (
                "A broken file is not the same as a missing file.",
                "Only a missing file means «start from scratch». One that exists and is not a checkpoint "
                "(truncated, empty, not JSON) ends in an exception: the JSON parser already raises one, do not "
                "catch it.",
            ),
        },
        "resume.malformed",
        ("seccion.columna",),
    ),
    _resume_path(
        "nivel0.state_kept",
        LOAD,
        {
            "es": "al reanudar: turns, tokensUsed y messages tal cual",
            "en": "on resume: turns, tokensUsed and messages as saved",
        },
        {
            "es": "Con punto de control, el estado es el del archivo tal cual: no recalcules turns ni tokensUsed, no "
            "toques messages y no uses la tarea que recibe start_state.",
            "en": "With a checkpoint, the state is the file's as it is: do not recompute turns or tokensUsed, do not "
            "touch messages and do not use the task start_state receives.",
        },
        "resume.saved",
        ("seccion.columna", "seccion.despues"),
    ),
    _resume_path(
        "nivel0.dangling_reconciled",
        START,
        {"es": "llamada colgante: pasa una vez por reconcile", "en": "dangling call: through reconcile once"},
        {
            "es": "Es la bifurcación con la que arranca runAgent: si el punto de control trae pendingToolUse, el "
            "estado es lo que devuelve el reconcile que recibe start_state (una sola vez); si no, el punto de control.",
            "en": "It is the fork runAgent starts with: if the checkpoint has a pendingToolUse, the state is what the "
            "reconcile given to start_state returns (once); otherwise the checkpoint itself.",
        },
        "resume.dangling",
        ("seccion.columna", "seccion.mitad_dificil"),
    ),
    _resume_path(
        "nivel0.max_turns_across_lives",
        START,
        {"es": "MAX_TURNS cuenta todas las vidas", "en": "MAX_TURNS counts every life"},
        {
            "es": "turns no vuelve a 0 al reanudar: sale del archivo y el bucle sigue contando desde ahí, así el tope "
            "MAX_TURNS vale para toda la tarea aunque se caiga una y otra vez.",
            "en": "turns does not go back to 0 on resume: it comes from the file and the loop keeps counting from "
            "there, so MAX_TURNS caps the whole task however often it crashes.",
        },
        "resume.lives",
        ("seccion.despues",),
    ),
):
    register(_criterion)


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
    "resume_path.lives_wrong_shifted": {
        "es": "La tarea se mató con SIGKILL y se reanudó con tu start_state: {items}. turns tiene que salir del "
        "archivo tal cual, sin sumarle ni restarle nada: el bucle ya suma uno en cada llamada al modelo, así que si "
        "start_state también lo cambia, MAX_TURNS cuenta turnos que no ocurrieron o se salta algunos.",
        "en": "The task was killed with SIGKILL and resumed with your start_state: {items}. turns must come from the "
        "file as it is, nothing added or taken away: the loop already adds one per call to the model, so if "
        "start_state changes it too, MAX_TURNS counts turns that never happened or skips some.",
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
