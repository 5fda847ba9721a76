"""What the course's configuration (``curso.toml``, :mod:`autograder.course.config`) and the graded
questions (:mod:`autograder.course.questions`) say.

Plain data, looked up by :func:`autograder.course.catalogue.text` (see the catalogue for why it lives here).
"""

TEXTS: dict[str, dict[str, str]] = {
    # -- questions -----------------------------------------------------------------------------
    "question.ok": {"es": "Correcto ({answer}). {explanation}", "en": "Correct ({answer}). {explanation}"},
    "question.wrong": {
        "es": "Respondiste «{got}»; no es la correcta. {hint}",
        "en": "You answered «{got}»; that is not right. {hint}",
    },
    "question.missing": {
        "es": "No definiste `{variable}`: la pregunta cuenta para todas las entregas y sin respuesta vale 0. "
        'Asigna la letra de tu opción, por ejemplo `{variable} = "a"`.',
        "en": "You did not define `{variable}`: the question counts for every submission and with no answer it "
        'scores 0. Assign the letter of your choice, for example `{variable} = "a"`.',
    },
    "question.unanswered": {
        "es": "`{variable}` sigue en None: todavía no respondiste. Asigna la letra de tu opción entre comillas.",
        "en": "`{variable}` is still None: you have not answered yet. Assign the letter of your choice in quotes.",
    },
    "question.received": {
        "es": "Respuesta recibida ({answer}): se califica al entregar.",
        "en": "Answer received ({answer}): graded on submission.",
    },
    "question.invalid": {
        "es": '`{variable}` tiene que ser una letra entre comillas (por ejemplo "a"); tiene {got}.',
        "en": '`{variable}` must be a letter in quotes (for example "a"); it holds {got}.',
    },
    # -- the course's configuration (curso.toml, autograder.course.config) ------------------------
    "config.error": {"es": "{where}: {what}", "en": "{where}: {what}"},
    "config.where": {"es": "«{file}»", "en": "«{file}»"},
    "config.where_line": {"es": "«{file}», línea {line}", "en": "«{file}», line {line}"},
    "config.where_column": {
        "es": "«{file}», línea {line}, columna {column}",
        "en": "«{file}», line {line}, column {column}",
    },
    "config.not_a_file": {
        "es": "No existe el archivo de configuración «{file}» (o no es un archivo).",
        "en": "The configuration file «{file}» does not exist (or is not a file).",
    },
    "config.unreadable": {
        "es": "No se pudo leer el archivo de configuración «{file}»: {reason}.",
        "en": "Could not read the configuration file «{file}»: {reason}.",
    },
    "config.too_big": {
        "es": "«{file}» no es un archivo de configuración: pasa de {max} KB.",
        "en": "«{file}» is not a configuration file: it is over {max} KB.",
    },
    "config.not_utf8": {"es": "el archivo no está en UTF-8", "en": "the file is not UTF-8"},
    "config.not_json": {
        "es": "no es la configuración en JSON que escribe autograder",
        "en": "it is not the JSON configuration autograder writes",
    },
    "config.no_toml": {
        "es": "No se puede leer «{file}»: este Python no trae tomllib (3.11+) ni está instalado tomli.",
        "en": "Cannot read «{file}»: this Python has no tomllib (3.11+) and tomli is not installed.",
    },
    "config.syntax": {
        "es": "no es TOML válido ({reason})",
        "en": "it is not valid TOML ({reason})",
    },
    "config.unknown_key": {
        "es": "clave desconocida «{name}»{suggest}; las claves son {known}",
        "en": "unknown key «{name}»{suggest}; the keys are {known}",
    },
    "config.unknown_criterion": {
        "es": "[puntos]: no hay ningún criterio «{name}»{suggest}; los criterios están en docs/criterios.md",
        "en": "[puntos]: there is no criterion «{name}»{suggest}; the criteria are listed in docs/criterios.md",
    },
    "config.unknown_limit": {
        "es": "[limites]: no hay ningún límite «{name}»{suggest}; los límites son {known}",
        "en": "[limites]: there is no limit «{name}»{suggest}; the limits are {known}",
    },
    "config.did_you_mean": {"es": " (¿quisiste decir {names}?)", "en": " (did you mean {names}?)"},
    "config.type": {
        "es": "«{name}» tiene que ser {expected}, y es {got}",
        "en": "«{name}» must be {expected}, and it is {got}",
    },
    "config.expected.table": {"es": "una tabla ([sección])", "en": "a table ([section])"},
    "config.expected.points": {"es": "un número de puntos", "en": "a number of points"},
    "config.expected.number": {"es": "un número", "en": "a number"},
    "config.expected.percent": {"es": "un porcentaje (un número de 0 a 100)", "en": "a percentage (0 to 100)"},
    "config.expected.integer": {"es": "un número entero", "en": "a whole number"},
    "config.expected.levels": {
        "es": "una lista no vacía de niveles, como [0, 1, 2]",
        "en": "a non-empty list of levels, such as [0, 1, 2]",
    },
    "config.expected.lang": {"es": '"es" o "en"', "en": '"es" or "en"'},
    "config.kind.bool": {"es": "un booleano", "en": "a boolean"},
    "config.kind.int": {"es": "un número entero", "en": "a whole number"},
    "config.kind.float": {"es": "un número con decimales", "en": "a decimal number"},
    "config.kind.str": {"es": "un texto", "en": "a string"},
    "config.kind.list": {"es": "una lista", "en": "a list"},
    "config.kind.table": {"es": "una tabla", "en": "a table"},
    "config.kind.date": {"es": "una fecha u hora", "en": "a date or time"},
    "config.range": {
        "es": "«{name}» = {value} está fuera de rango: tiene que estar entre {low} y {high}{unit}",
        "en": "«{name}» = {value} is out of range: it must be between {low} and {high}{unit}",
    },
    "config.level": {
        "es": "niveles: {value} no es un nivel del curso (los niveles son {levels})",
        "en": "niveles: {value} is not a level of the course (the levels are {levels})",
    },
    "config.level_twice": {"es": "niveles: un nivel aparece dos veces", "en": "niveles: a level appears twice"},
    "config.nothing_counts": {
        "es": "con estos niveles y puntos no queda nada que calificar: el máximo sería 0",
        "en": "with these levels and points nothing is left to grade: the maximum would be 0",
    },
    "config.call_over_check": {
        "es": "call_seconds ({call} s) no puede pasar de check_seconds ({check} s): cada llamada es parte del "
        "presupuesto de su criterio",
        "en": "call_seconds ({call} s) cannot exceed check_seconds ({check} s): each call is part of its "
        "criterion's budget",
    },
    "config.backstop": {
        "es": "submission_seconds ({total} s) tiene que pasar de load_seconds más check_seconds ({load} s + "
        "{check} s): es el tope de respaldo de toda la corrección",
        "en": "submission_seconds ({total} s) must exceed load_seconds plus check_seconds ({load} s + {check} s): "
        "it is the backstop on the whole grading",
    },
    "config.level_not_counted": {
        "es": "check(level={level}): el nivel {level} no cuenta en este curso (cuentan {levels})",
        "en": "check(level={level}): level {level} does not count in this course (counting: {levels})",
    },
    "config.shipped_damaged": {
        "es": "⚠ No se pudo usar la configuración del curso: {error}. check() y pista() siguen con la de por defecto "
        "(todos los niveles, los puntos y los límites de siempre); avisa a quien da el curso.",
        "en": "⚠ The course's configuration could not be used: {error}. check() and pista() go on with the default one "
        "(every level, the usual points and limits); tell whoever runs the course.",
    },
}
