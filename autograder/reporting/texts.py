"""What the reports and the commands say: results, feedback, resumen.html, ``check()``, Gradescope,
the review, the LMS export and the ``autograder`` console.

Plain data, looked up by :func:`autograder.course.catalogue.text` (see the catalogue for why it lives here).
"""

TEXTS: dict[str, dict[str, str]] = {
    "cli.help.config": {
        "es": "archivo de configuración del curso (curso.toml: puntos, niveles, límites, semilla, idioma); "
        "--seed y --lang dados aquí ganan al archivo",
        "en": "the course's configuration file (curso.toml: points, levels, limits, seed, language); --seed and "
        "--lang given here win over the file",
    },
    "cli.help.release_config": {
        "es": "configuración del curso (curso.toml) que check() usa en la edición: mismos puntos y niveles; "
        "la semilla no se incluye",
        "en": "the course's configuration (curso.toml) that check() uses in the edition: the same points and "
        "levels; the seed is left out",
    },
    # -- reports (results, feedback/, resumen.html) ---------------------------------------------
    "report.feedback_title": {"es": "Retroalimentación", "en": "Feedback"},
    "report.summary_title": {"es": "Resumen de la clase", "en": "Class summary"},
    "report.lesson": {
        "es": "Lección 3 · Reanudar desde un punto de control",
        "en": "Lesson 3 · Resuming from a checkpoint",
    },
    "report.score": {"es": "Puntaje", "en": "Score"},
    "report.criterion": {"es": "Criterio", "en": "Criterion"},
    "report.result": {"es": "Resultado", "en": "Result"},
    "report.points": {"es": "Puntos", "en": "Points"},
    "report.passed": {"es": "aprobado", "en": "passed"},
    "report.passing": {"es": "aprueban", "en": "passing"},
    "report.failed": {"es": "no aprobado", "en": "not passed"},
    "report.error": {"es": "Problema con la entrega", "en": "Problem with the submission"},
    "report.not_run_row": {"es": "No calificado: ver arriba.", "en": "Not graded: see above."},
    "report.flags": {"es": "Señales para revisar", "en": "Flags to review"},
    "report.details": {"es": "Detalle por criterio", "en": "Details by criterion"},
    "report.n_submissions": {"es": "Alumnos calificados", "en": "Learners graded"},
    "report.with_error": {"es": "Con problemas", "en": "With problems"},
    "report.mean": {"es": "Media", "en": "Mean"},
    "report.median": {"es": "Mediana", "en": "Median"},
    "report.mean_over": {
        "es": "sobre {n} con nota (sin los pendientes de revisión ni los no calificados)",
        "en": "over {n} with a grade (not those pending review or not graded)",
    },
    "report.rate_pending.one": {"es": "· 1 pendiente de revisión", "en": "· 1 pending review"},
    "report.rate_pending.other": {"es": "· {n} pendientes de revisión", "en": "· {n} pending review"},
    "report.pass_rate": {"es": "Porcentaje de aprobación por criterio", "en": "Pass rate per criterion"},
    "report.distribution": {"es": "Distribución de puntajes", "en": "Score distribution"},
    "report.learners.one": {"es": "1 alumno", "en": "1 learner"},
    "report.learners.other": {"es": "{n} alumnos", "en": "{n} learners"},
    "report.feedback": {"es": "Retroalimentación", "en": "Feedback"},
    "report.seed": {"es": "Semilla", "en": "Seed"},
    "report.seed_hint": {
        "es": "usa --seed {seed} para repetir exactamente esta calificación",
        "en": "use --seed {seed} to repeat exactly this grading",
    },
    "report.warnings": {"es": "Archivos rechazados u omitidos", "en": "Refused or skipped files"},
    "report.none": {"es": "Sin entregas.", "en": "No submissions."},
    "report.level": {"es": "Nivel {level}", "en": "Level {level}"},
    "report.pts": {"es": "pts", "en": "pts"},
    "report.warnings_learner": {"es": "Avisos sobre tu entrega", "en": "Notes on your submission"},
    "report.output": {
        "es": "Lo que imprimió tu código (los primeros {kb} KB)",
        "en": "What your code printed (the first {kb} KB)",
    },
    "report.your_file": {"es": "Tu entrega", "en": "Your submission"},
    "report.decimal": {"es": ",", "en": "."},
    "report.csv_delimiter": {"es": ";", "en": ","},
    "report.file_fallback": {"es": "estudiante", "en": "learner"},
    "report.interrupted": {
        "es": "Calificación interrumpida: {graded} de {n}. Las demás entregas no tienen nota (no calificada); "
        "vuelve a calificar la clase para completarla.",
        "en": "Grading interrupted: {graded} of {n}. The other submissions have no grade (not graded); "
        "grade the class again to complete it.",
    },
    "report.with_error_def": {
        "es": "«Con problemas»: la entrega no se calificó (la calificación se interrumpió), tuvo un problema que "
        "impidió calificarla entera, o no llega a la mitad de los puntos.",
        "en": "«With problems»: the submission was not graded (the grading was interrupted), had a problem that "
        "kept it from being graded in full, or scored under half the points.",
    },
    "report.matrix_title": {"es": "Estudiante × criterio", "en": "Learner × criterion"},
    "report.matrix_help": {
        "es": "Una fila por entrega y una columna por criterio (la leyenda, debajo). Pulsa el título de una "
        "columna para ordenar por ella.",
        "en": "One row per submission and one column per criterion (the legend is below). Press a column's "
        "title to sort by it.",
    },
    "report.legend_points": {"es": "el número son los puntos obtenidos", "en": "the number is the points earned"},
    "report.column_code": {"es": "N{level}.{n}", "en": "L{level}.{n}"},
    "report.filter_name": {"es": "Filtrar por nombre:", "en": "Filter by name:"},
    "report.filter_problems": {"es": "solo «con problemas»", "en": "only «with problems»"},
    "report.filter_count": {"es": "{shown} de {total} filas", "en": "{shown} of {total} rows"},
    "report.learner": {"es": "Estudiante", "en": "Learner"},
    "report.grade_10": {"es": "Nota (0–10)", "en": "Grade (0–10)"},
    "report.status": {"es": "Estado", "en": "Status"},
    "report.status_ok": {"es": "bien", "en": "fine"},
    "report.status_needs_help": {"es": "con problemas", "en": "with problems"},
    "report.status_not_graded": {"es": "no calificada", "en": "not graded"},
    "report.warnings_col": {"es": "Avisos", "en": "Warnings"},
    "report.flags_col": {"es": "Señales", "en": "Flags"},
    "report.notes_title": {"es": "Avisos y señales por estudiante", "en": "Warnings and flags per learner"},
    "report.copies_title": {"es": "Código casi idéntico", "en": "Near-identical code"},
    "report.copies_help": {
        "es": "Funciones calificadas que, por su estructura, son casi idénticas a las de otro estudiante o al código "
        "de lesson3 (renombrar variables, reordenar ramas o cambiar comentarios no las separa). Es información "
        "para que compares los archivos; no cambia ninguna nota.",
        "en": "Graded functions whose structure is near-identical to another learner's or to lesson3's code "
        "(renaming variables, reordering branches or changing comments does not set them apart). It is "
        "information for you to compare the files; it changes no grade.",
    },
    "report.copies_none": {
        "es": "Ninguna función calificada es casi idéntica a la de otro estudiante ni a lesson3.",
        "en": "No graded function is near-identical to another learner's or to lesson3's.",
    },
    "report.copies_function": {"es": "Función", "en": "Function"},
    "report.copies_other": {"es": "Igual a", "en": "Same as"},
    "report.copies_similarity": {"es": "Parecido", "en": "Similarity"},
    "report.notes_help": {
        "es": "Avisos: lo que el estudiante también ve en su retroalimentación (celdas que fallaron o tardaron "
        "demasiado, módulos que faltan). Señales: solo para ti, para revisar a mano (p. ej. una función que "
        "delega en lesson3).",
        "en": "Warnings: what the learner also sees in their feedback (cells that failed or took too long, "
        "missing modules). Flags: for you only, to review by hand (e.g. a function that delegates to lesson3).",
    },
    "report.machine_warnings": {
        "es": "Esta máquina no confinó del todo el código de las entregas",
        "en": "This machine did not fully confine the submissions' code",
    },
    "report.no_notes": {"es": "Ninguna entrega tiene avisos ni señales.", "en": "No submission has warnings or flags."},
    "report.pass_rate_help": {
        "es": "Qué parte de las entregas calificadas aprueba cada criterio; la cifra junto a cada barra es el "
        "porcentaje y cuántas lo aprueban.",
        "en": "Which share of the graded submissions passes each criterion; the figure beside each bar is the "
        "percentage and how many pass it.",
    },
    "report.col_learner": {"es": "Estudiante", "en": "Learner"},
    "report.col_learner_id": {"es": "Id del estudiante", "en": "Learner id"},
    "report.col_submission": {"es": "Archivo entregado", "en": "File submitted"},
    "report.col_source": {"es": "Origen", "en": "Source"},
    "report.col_total": {"es": "Total", "en": "Total"},
    "report.col_max_score": {"es": "Máximo", "en": "Maximum"},
    "report.col_grade_10": {"es": "Nota (0–10)", "en": "Grade (0–10)"},
    "report.col_status": {"es": "Estado", "en": "Status"},
    "report.col_error": {"es": "Problema", "en": "Problem"},
    "report.col_warnings": {"es": "Avisos", "en": "Warnings"},
    "report.col_flags": {"es": "Señales para revisar", "en": "Flags to review"},
    "report.col_pending": {"es": "Puntos pendientes", "en": "Points pending"},
    "report.pending": {"es": "pendiente de revisión", "en": "pending review"},
    "report.pending_cell": {"es": "pendiente", "en": "pending"},
    # WGL4's white circle: every default font draws it (⏳, an emoji, is a box in JupyterLab without an emoji font).
    "report.pending_mark": {"es": "○", "en": "○"},
    "report.pending_points": {
        "es": "{points} puntos pendientes de revisión",
        "en": "{points} points pending review",
    },
    "report.status_pending": {"es": "pendiente de revisión", "en": "pending review"},
    "report.pending_help": {
        "es": "Un criterio «pendiente de revisión» es uno que el corrector no pudo decidir: sus puntos no cuentan "
        "ni como 0 ni como aprobados hasta que el profesor decide (autograder review); mientras tanto el total es "
        "sobre los criterios decididos y la nota de 0 a 10 queda vacía.",
        "en": "A criterion «pending review» is one the grader could not decide: its points count neither as 0 nor "
        "as passed until the instructor decides (autograder review); meanwhile the total is over the decided "
        "criteria and the 0–10 grade is left empty.",
    },
    "report.decided_by": {
        "es": "Decidido por {by} el {at}: {why}",
        "en": "Decided by {by} on {at}: {why}",
    },
    "report.unknown_lang": {
        "es": "idioma desconocido: {given}; hay {langs}",
        "en": "unknown language: {given}; there are {langs}",
    },
    "report.same_name": {
        "es": "dos entregas comparten el mismo nombre de reporte",
        "en": "two submissions share the same report name",
    },
    # -- resumen.html: the class's misconception map (reporting.misconceptions) -----------------
    "report.map_title": {"es": "Mapa de errores de concepto", "en": "Misconception map"},
    "report.map_none": {
        "es": "Ningún estudiante tiene el Nivel 2 calificado en esta corrección (no se calificó, o no cuenta en el "
        "curso): no hay jugadas que contar.",
        "en": "No learner has Level 2 graded in this run (it was not graded, or the course does not count it): "
        "there are no moves to count.",
    },
    "report.map_help": {
        "es": "Qué hizo el reconcile de cada estudiante con una llamada colgante, según el tipo de herramienta: "
        "lo que se observó al llamarlo en los casos del Nivel 2 (qué herramientas se ejecutaron y qué punto de "
        "control devolvió), no cómo está escrito. Quien respondió distinto a dos herramientas del mismo tipo "
        "cuenta en las dos jugadas; por eso una tabla puede sumar más estudiantes que la clase.",
        "en": "What each learner's reconcile did with a dangling call, by tool kind: what was observed when it "
        "was called on the Level 2 cases (which tools ran and which checkpoint it returned), not how it is "
        "written. A learner who answered two tools of one kind differently counts under both moves, so a table "
        "can add up to more learners than the class.",
    },
    "report.map_kind.read_only": {
        "es": "Herramientas de solo lectura ({read_only_commas})",
        "en": "Read-only tools ({read_only_commas})",
    },
    "report.map_kind.high_impact": {
        "es": "Herramientas de alto impacto (send_email, write_file, charge_card… y nombres que la lección no vio)",
        "en": "High-impact tools (send_email, write_file, charge_card… and names the lesson never showed)",
    },
    "report.map_move": {"es": "Jugada", "en": "Move"},
    "report.map_role": {"es": "Según la lección", "en": "By the lesson"},
    "report.map_count": {"es": "Estudiantes", "en": "Learners"},
    "report.map_who": {"es": "Quiénes", "en": "Who"},
    "report.map_role.lesson": {"es": "✔ la jugada de la lección", "en": "✔ the lesson's move"},
    "report.map_role.warned": {
        "es": "✘ una jugada que la lección descarta aquí",
        "en": "✘ a move the lesson rules out here",
    },
    "report.map_role.none": {"es": "✘ ninguna de las tres jugadas", "en": "✘ none of the three moves"},
    "report.map_counted": {
        "es": "{n} de {total} estudiantes con esta observación.",
        "en": "{n} of {total} learners with this observation.",
    },
    "report.map_apart": {
        "es": "Fuera del mapa (sin calificar, sin poder ejecutarse o sin el Nivel 2 calificado): {n}.",
        "en": "Left out of the map (not graded, could not run, or Level 2 not graded): {n}.",
    },
    "report.move.rerun": {
        "es": "Volver a ejecutar la herramienta (jugada dos)",
        "en": "Re-run the tool (move two)",
    },
    "report.move.is_error": {
        "es": "Responder con un tool_result con is_error: true (jugada tres)",
        "en": "Answer with a tool_result with is_error: true (move three)",
    },
    "report.move.delete": {
        "es": "Borrar la llamada colgante de messages (jugada uno)",
        "en": "Delete the dangling call from messages (move one)",
    },
    "report.move.dangling": {
        "es": "Dejarla colgante, sin tool_result (la API rechazaría la conversación)",
        "en": "Leave it dangling, with no tool_result (the API would refuse the conversation)",
    },
    "report.move.other": {
        "es": "Otra cosa (p. ej., un resultado de éxito inventado, o no devolver un punto de control)",
        "en": "Something else (e.g. a made-up success result, or no checkpoint returned)",
    },
    "report.move.not_run": {
        "es": "reconcile no terminó (falló, tardó demasiado o no está definida)",
        "en": "reconcile did not finish (it failed, took too long or is not defined)",
    },
    # -- Gradescope's results.json ---------------------------------------------------------------
    "gradescope.graded": {
        "es": "Se calificó «{name}»: {score} / {max_score} puntos.",
        "en": "Graded «{name}»: {score} / {max_score} points.",
    },
    "gradescope.error": {"es": "Problema con la entrega: {error}", "en": "Problem with the submission: {error}"},
    "gradescope.pending": {
        "es": "{points} puntos quedan pendientes de revisión: el corrector no pudo decidirlos y tu profesor lo "
        "hará; la puntuación de arriba todavía no los cuenta.",
        "en": "{points} points are pending review: the grader could not decide them and your instructor will; "
        "the score above does not count them yet.",
    },
    "gradescope.internal": {
        "es": "El autocorrector falló por un error interno, no por tu entrega. Avisa a tu docente.",
        "en": "The autograder failed with an internal error, not because of your submission. Tell your teacher.",
    },
    "gradescope.flags": {"es": "Señales para revisar (solo docentes)", "en": "Flags to review (instructors only)"},
    "gradescope.warnings": {"es": "Archivos omitidos: {warnings}", "en": "Skipped files: {warnings}"},
    "gradescope.bundle_missing": {
        "es": "Falta {files} en «{root}»: arma el paquete desde una copia del repositorio del curso.",
        "en": "{files} missing in «{root}»: build the bundle from a copy of the course's repository.",
    },
    "gradescope.no_seed": {
        "es": "autograder: el paquete no trae su semilla (course-seed); esta entrega usa una al azar, {seed}. "
        "Arma el paquete con «autograder gradescope --seed S».",
        "en": "autograder: the bundle carries no seed (course-seed); this submission uses a random one, {seed}. "
        "Build the bundle with «autograder gradescope --seed S».",
    },
    "gradescope.console": {
        "es": "autograder: semilla {seed}; resultados en {path}",
        "en": "autograder: seed {seed}; results in {path}",
    },
    "check.source_unreadable": {
        "es": "# {name}: no se pudo leer su código fuente",
        "en": "# {name}: its source code could not be read",
    },
    "check.head": {"es": "Autocorrector · Lección 3", "en": "Autograder · Lesson 3"},
    "check.received_note": {
        "es": "Las preguntas marcadas con … se califican al entregar: aquí no suman, y su respuesta quedó recibida.",
        "en": "The questions marked … are graded on submission: they add nothing here, and their answer was received.",
    },
    "check.points": {"es": "puntos", "en": "points"},
    "check.hint": {"es": "Pista", "en": "Hint"},
    "check.pending": {
        "es": "pendiente de revisión: el corrector no pudo decidirlo y lo decidirá tu profesor",
        "en": "pending review: the grader could not decide it and your instructor will",
    },
    "check.pending_points": {"es": "{points} pendientes de revisión", "en": "{points} pending review"},
    "check.received_points": {
        "es": "{points} por calificar al entregar",
        "en": "{points} to be graded on submission",
    },
    "check.hint_level": {"es": "{id} ({level} de {n}): {hint}", "en": "{id} ({level} of {n}): {hint}"},
    "check.criterion": {"es": "criterio", "en": "criterion"},
    "check.hang_hint": {
        "es": "tu código se colgó: no terminó a tiempo, así que el corrector no llegó a ver qué devuelve. Antes "
        "que la regla del ejercicio, busca un bucle que no termina (un while cuya condición nunca cambia, una "
        "función que se llama a sí misma) o una espera sin fin.",
        "en": "your code hung: it did not finish in time, so the grader never saw what it returns. Before the "
        "exercise's rule, look for a loop that never ends (a while whose condition never changes, a function "
        "calling itself) or an endless wait.",
    },
    "check.global_changed": {
        "es": "{name} cambió en la celda [{cell}] desde que {criterion} pasó: tu función lee {name}, y su valor "
        "ya no es el de entonces. Si no querías cambiarlo, vuelve a ejecutar la celda donde lo definiste.",
        "en": "{name} changed in cell [{cell}] since {criterion} passed: your function reads {name}, and its "
        "value is no longer the one it had. If you did not mean to change it, run the cell that defines it again.",
    },
    "check.global_changed_nocell": {
        "es": "{name} cambió desde que {criterion} pasó: tu función lee {name}, y su valor ya no es el de "
        "entonces. Si no querías cambiarlo, vuelve a ejecutar la celda donde lo definiste.",
        "en": "{name} changed since {criterion} passed: your function reads {name}, and its value is no longer "
        "the one it had. If you did not mean to change it, run the cell that defines it again.",
    },
    "check.repr": {"es": "<check: {total}>", "en": "<check: {total}>"},
    "check.repr_nothing": {"es": "<check: nada que corregir aquí>", "en": "<check: nothing to grade here>"},
    "check.nothing_here": {
        "es": "check() no encontró aquí ningún ejercicio tuyo: ninguna de las funciones que se califican ({functions}) "
        "ni las respuestas a las preguntas están definidas en este cuaderno. Los ejercicios que entregas están en el "
        "cuaderno 4, {notebook}: ábrelo y ejecuta sus celdas (Ejecutar › Ejecutar todas las celdas) antes de "
        "check(). Si ya estás en él (o en el cuaderno 1, con tus funciones del Nivel 0) y reiniciaste el kernel, "
        "vuelve a ejecutar las celdas con tu código.",
        "en": "check() found no exercise of yours here: none of the graded functions ({functions}) nor the answers to "
        "the questions are defined in this notebook. The exercises you hand in are in notebook 4, {notebook}: open "
        "it and run its cells (Ejecutar › Ejecutar todas las celdas) before check(). If you are already there (or in "
        "notebook 1, with your Level 0 functions) and restarted the kernel, run the cells with your code again.",
    },
    "check.nothing_here_imported": {
        "es": "Aquí {names} es el de lesson3, que importa el cuaderno para sus demostraciones: no es tu código y "
        "check() no lo corrige.",
        "en": "Here {names} is lesson3's, imported by the notebook for its demos: it is not your code and check() "
        "does not grade it.",
    },
    "check.course_import": {
        "es": "{name} es el de lesson3 que importa la celda [{cell}], una celda del curso: no es tu código, así que "
        "check() lo corrige como no escrito. Escribe el tuyo en el cuaderno 4.",
        "en": "{name} is lesson3's, imported by cell [{cell}], one of the course's cells: it is not your code, so "
        "check() grades it as not written. Write your own in notebook 4.",
    },
    "check.bad_level": {
        "es": "check(level): el nivel tiene que ser {levels} o nada (todos); se recibió {level}",
        "en": "check(level): the level must be {levels} or nothing (all); got {level}",
    },
    "check.no_criterion": {
        "es": "pista(): no hay un criterio «{criterion}».{close} Los criterios son {known} (o su número en la tabla "
        "de check()); pista() sin nada da la primera pista de cada uno.",
        "en": "pista(): there is no criterion «{criterion}».{close} The criteria are {known} (or their number in "
        "check()'s table); pista() with nothing gives each one's first hint.",
    },
    "check.did_you_mean": {"es": " ¿Quisiste decir «{id}»?", "en": " Did you mean «{id}»?"},
    "check.bad_hint_level": {
        "es": "pista(nivel=...): el nivel es un número desde 1; se recibió {nivel}. Prueba con nivel=1.",
        "en": "pista(nivel=...): the level is a number from 1; got {nivel}. Try nivel=1.",
    },
    # -- the autograder command's console ------------------------------------------------------------
    "cli.warning": {"es": "aviso: {warning}", "en": "warning: {warning}"},
    "cli.not_a_folder": {
        "es": "--out tiene que ser una carpeta, y «{out}» es un archivo.",
        "en": "--out must be a folder, and «{out}» is a file.",
    },
    "cli.previous": {
        "es": "La carpeta «{out}» ya tiene resultados de una calificación anterior ({files}). Elige otra carpeta "
        "con --out, o agrega --force para reemplazarlos.",
        "en": "The folder «{out}» already holds results of an earlier grading ({files}). Choose another folder "
        "with --out, or add --force to replace them.",
    },
    "cli.foreign": {
        "es": "La carpeta «{out}» tiene archivos que no escribió el autocorrector ({files}). Elige una carpeta "
        "vacía con --out, o agrega --force: se escribirá al lado sin tocarlos.",
        "en": "The folder «{out}» holds files the grader did not write ({files}). Choose an empty folder "
        "with --out, or add --force: the reports are written beside them, leaving them untouched.",
    },
    "cli.foreign_clash": {
        "es": "La carpeta «{out}» tiene archivos que no escribió el autocorrector (o que se cambiaron después) "
        "con los nombres que hay que escribir ({files}). Ni con --force se reemplazan: muévelos o elige otra "
        "carpeta con --out.",
        "en": "The folder «{out}» holds files the grader did not write (or that were changed since) under the "
        "names this run must write ({files}). Not even --force replaces them: move them or choose another "
        "folder with --out.",
    },
    "cli.and_more": {"es": " y {n} más", "en": " and {n} more"},
    "cli.locked": {
        "es": "Otra calificación está escribiendo en «{out}» ahora mismo. Espera a que termine o elige otra "
        "carpeta con --out.",
        "en": "Another grading is writing to «{out}» right now. Wait for it to finish or choose another "
        "folder with --out.",
    },
    "cli.lock_failed": {
        "es": "No se pudo reservar la carpeta «{out}» para esta calificación ({reason}).",
        "en": "Could not reserve the folder «{out}» for this grading ({reason}).",
    },
    "cli.files_written": {
        "es": "Se escribieron {n} archivos en «{out}»:",
        "en": "{n} files were written to «{out}»:",
    },
    "cli.nothing": {
        "es": "No se encontró ninguna entrega (.py o .ipynb) en {paths}.",
        "en": "No submission (.py or .ipynb) was found in {paths}.",
    },
    # The time a progress line or the terminal's bar shows is the run's so far, not the learner's: said once, here.
    "cli.progress_elapsed": {"es": "{seconds:.1f} s desde el inicio", "en": "{seconds:.1f} s since the start"},
    "cli.progress": {
        "es": "[{done}/{total}] {name}: {score} de {max} puntos ({elapsed})",
        "en": "[{done}/{total}] {name}: {score} of {max} points ({elapsed})",
    },
    "cli.progress_error": {
        "es": "[{done}/{total}] {name}: {score} de {max} puntos, con error ({elapsed})",
        "en": "[{done}/{total}] {name}: {score} of {max} points, with an error ({elapsed})",
    },
    "cli.progress_pending": {
        "es": "[{done}/{total}] {name}: {score} de {max} puntos por ahora; {pending} puntos, pendientes de revisión "
        "({elapsed})",
        "en": "[{done}/{total}] {name}: {score} of {max} points so far; {pending} points are left pending review "
        "({elapsed})",
    },
    "cli.graded.one": {
        "es": "Se calificó 1 alumno en {seconds:.1f} s (--jobs {jobs}, semilla {seed}).",
        "en": "Graded 1 learner in {seconds:.1f} s (--jobs {jobs}, seed {seed}).",
    },
    "cli.graded.other": {
        "es": "Se calificaron {n} alumnos en {seconds:.1f} s (--jobs {jobs}, semilla {seed}).",
        "en": "Graded {n} learners in {seconds:.1f} s (--jobs {jobs}, seed {seed}).",
    },
    "cli.tally": {
        "es": "Alumnos: {learners} (con un archivo calificado: {with_file}; sin .py ni .ipynb que calificar: "
        "{without}). Archivos: {files} (calificados, uno por alumno: {with_file}; no calificados, nombrados en la "
        "fila de su alumno: {others}; no calificados, sin alumno: {unowned}).",
        "en": "Learners: {learners} (with one graded file: {with_file}; with no .py or .ipynb to grade: {without}). "
        "Files: {files} (graded, one per learner: {with_file}; not graded, named in their learner's row: {others}; "
        "not graded, in no learner's folder: {unowned}).",
    },
    "cli.mean": {
        "es": "Puntaje medio: {mean} puntos ({pct:.0%} del máximo), sobre los {counted} alumnos con nota, como en "
        "resumen.html; con problemas: {errors}.",
        "en": "Mean score: {mean} points ({pct:.0%} of the maximum), over the {counted} learners with a grade, as in "
        "resumen.html; with problems: {errors}.",
    },
    "cli.mean_none": {
        "es": "Puntaje medio: ninguno todavía (ningún alumno tiene nota: pendientes de revisión o sin calificar); "
        "con problemas: {errors}.",
        "en": "Mean score: none yet (no learner has a grade: pending review or not graded); with problems: {errors}.",
    },
    "cli.unowned.one": {
        "es": "No se calificó 1 archivo de la clase que no está en la carpeta de ningún alumno: {files}. Lo "
        "calificado está escrito en «{out}»; si es una entrega, ponlo en la carpeta de su alumno y vuelve a "
        "calificar con --force. El comando termina con el código {code}.",
        "en": "1 file of the class in no learner's folder was not graded: {files}. What was graded is written in "
        "«{out}»; if it is a submission, put it in its learner's folder and grade again with --force. The command "
        "ends with exit code {code}.",
    },
    "cli.unowned.other": {
        "es": "No se calificaron {n} archivos de la clase que no están en la carpeta de ningún alumno: {files}. Lo "
        "calificado está escrito en «{out}»; si alguno es una entrega, ponlo en la carpeta de su alumno y vuelve a "
        "calificar con --force. El comando termina con el código {code}.",
        "en": "{n} files of the class in no learner's folder were not graded: {files}. What was graded is written in "
        "«{out}»; if one is a submission, put it in its learner's folder and grade again with --force. The command "
        "ends with exit code {code}.",
    },
    "cli.pending.one": {
        "es": "1 alumno tiene puntos pendientes de revisión: «autograder review {out}» los lista.",
        "en": "1 learner has points pending review: «autograder review {out}» lists them.",
    },
    "cli.pending.other": {
        "es": "{n} alumnos tienen puntos pendientes de revisión: «autograder review {out}» los lista.",
        "en": "{n} learners have points pending review: «autograder review {out}» lists them.",
    },
    "cli.repeat": {
        "es": "Para repetir exactamente esta calificación: --seed {seed}",
        "en": "To repeat exactly this grading: --seed {seed}",
    },
    "cli.bundle": {
        "es": "Paquete de Gradescope escrito en «{path}», con la semilla del curso {seed} (cada alumno tiene la "
        "suya, derivada de ella). Súbelo en «Configure Autograder». Para rearmarlo igual: --seed {seed}; "
        "no la compartas con los alumnos.",
        "en": "Gradescope bundle written to «{path}», with the course's seed {seed} (each learner gets their own, "
        "derived from it). Upload it in «Configure Autograder». To build it again the same: --seed {seed}; "
        "do not share it with learners.",
    },
    "cli.lost_results": {
        "es": "se calificaron {graded} de {n} entregas",
        "en": "{graded} of {n} submissions were graded",
    },
    "cli.not_whole": {"es": "«{value}» no es un número entero", "en": "«{value}» is not a whole number"},
    "cli.too_small": {"es": "tiene que ser {rule}, no {value}", "en": "it must be {rule}, not {value}"},
    "cli.rule_at_least_one": {"es": "al menos 1", "en": "at least 1"},
    "cli.rule_zero_or_more": {"es": "0 o mayor", "en": "0 or more"},
    # argparse's --help, in the language of the --lang given anywhere on the command line
    "cli.help.description": {
        "es": "Autocorrector de la Lección 3 (reanudar desde un punto de control).",
        "en": "Autograder of Lesson 3 (resuming from a checkpoint).",
    },
    "cli.help.commands": {"es": "órdenes", "en": "commands"},
    "cli.help.metavar_command": {"es": "ORDEN", "en": "COMMAND"},
    "cli.help.metavar_path": {"es": "RUTA", "en": "PATH"},
    "cli.help.metavar_folder": {"es": "CARPETA", "en": "FOLDER"},
    "cli.help.grade": {
        "es": "califica entregas (.py, .ipynb, carpetas o zips del LMS)",
        "en": "grades submissions (.py, .ipynb, folders or LMS zips)",
    },
    "cli.help.grade_description": {
        "es": "Califica entregas y escribe results.json, grades.csv, resumen.html y feedback/ en --out.",
        "en": "Grades submissions and writes results.json, grades.csv, resumen.html and feedback/ to --out.",
    },
    "cli.help.paths": {"es": "archivo .py/.ipynb, carpeta o zip", "en": ".py/.ipynb file, folder or zip"},
    "cli.help.out": {"es": "dónde escribir los resultados", "en": "where to write the results"},
    "cli.help.jobs": {
        "es": "entregas calificadas en paralelo (por defecto, todos los núcleos)",
        "en": "submissions graded in parallel (all cores by default)",
    },
    "cli.help.seed": {
        "es": "semilla de las variantes aleatorias, para repetir",
        "en": "seed of the random variants, to repeat a grading",
    },
    "cli.help.lang_top": {
        "es": "idioma de lo que escribe la orden (también vale después de la orden)",
        "en": "language of what the command writes (also accepted after the command)",
    },
    "cli.help.lang_grade": {
        "es": "idioma de los informes y de la consola (es por defecto, o en)",
        "en": "language of the reports and the console (es by default, or en)",
    },
    "cli.help.lang_merge": {
        "es": "idioma de la consola (por defecto, el de las partes; los informes son los de las partes)",
        "en": "language of the console (by default the parts' own; the reports are the parts' own)",
    },
    "cli.help.release": {
        "es": "escribe la edición del alumno: el curso sin soluciones ni clave de las preguntas",
        "en": "writes the learner's edition: the course without solutions or the questions' key",
    },
    "cli.help.release_description": {
        "es": "Escribe en --out la edición del curso para los alumnos, como «assign» de otter o «release» de "
        "nbgrader: los cuadernos sin soluciones, el paquete sin la clave de las preguntas calificadas (check() "
        "dice «respuesta recibida: se califica al entregar»), un README para alumnos, Binder y los locks. "
        "Tu copia del curso lo guarda todo y califica con la clave.",
        "en": "Writes into --out the learners' edition of the course, as otter's assign or nbgrader's release do: "
        "the notebooks without solutions, the package without the graded questions' key (check() says «answer "
        "received: graded on submission»), a README for learners, Binder and the locks. Your checkout keeps "
        "everything and grades with the key.",
    },
    "cli.help.release_out": {
        "es": "carpeta a escribir (no debe existir, o estar vacía)",
        "en": "folder to write (must not exist, or be empty)",
    },
    "cli.help.lang_release": {
        "es": "idioma de la consola y del README (es por defecto, o en)",
        "en": "language of the console and of the README (es by default, or en)",
    },
    "cli.help.lang_gradescope": {
        "es": "idioma de la consola (es por defecto, o en)",
        "en": "language of the console (es by default, or en)",
    },
    "cli.help.force": {
        "es": "escribe en un --out ya calificado: los alumnos dados se califican otra vez, con la semilla de la "
        "clase, y los demás quedan como estaban, con su retroalimentación y sus decisiones (nunca borra archivos "
        "ajenos)",
        "en": "writes into an --out already graded: the learners given are graded again, with the class's seed, "
        "and everyone else is kept, with their feedback and decisions (never deletes anybody else's files)",
    },
    "cli.help.export_overwrite": {
        "es": "reemplazar también las notas y comentarios que la hoja ya tiene (nunca las filas bloqueadas)",
        "en": "also replace the grades and comments the sheet already has (never a locked row)",
    },
    "cli.help.export_partial": {
        "es": "exportar una corrección interrumpida: solo lo calificado; las filas de los demás quedan como estaban",
        "en": "export an interrupted run: only what was graded; the others' rows stay as they were",
    },
    "cli.help.metavar_choose": {"es": "ALUMNO=ARCHIVO", "en": "LEARNER=FILE"},
    "cli.help.choose": {
        "es": "califica ese archivo del alumno (su nombre o id del LMS; el archivo como lo nombra su fila) en vez "
        "del que elige la regla, sin renombrar nada; se guarda en decisions.json y vale en cada recalificación "
        "(ALUMNO= vuelve a la regla); se puede repetir. Con un --out ya calificado, junto con --force",
        "en": "grades that file of the learner (their name or LMS id; the file as their row names it) instead of "
        "the one the rule chooses, renaming nothing; kept in decisions.json and applied on every regrade "
        "(LEARNER= goes back to the rule); may be repeated. Into an --out already graded, with --force",
    },
    "cli.help.replace": {
        "es": "con --force, reemplaza la clase de --out entera por esta, aunque sea otra clase",
        "en": "with --force, replaces the whole class in --out with this one, even another class",
    },
    "cli.kept.one": {
        "es": "La clase en «{out}» tiene {total} alumnos: 1 quedó como estaba.",
        "en": "The class in «{out}» has {total} learners: 1 was kept as it was.",
    },
    "cli.kept.other": {
        "es": "La clase en «{out}» tiene {total} alumnos: {n} quedaron como estaban.",
        "en": "The class in «{out}» has {total} learners: {n} were kept as they were.",
    },
    "cli.help.shard": {
        "es": "califica solo la parte I de N de la clase (con --seed; luego «autograder merge»)",
        "en": "grades only part I of N of the class (with --seed; then «autograder merge»)",
    },
    "cli.help.merge": {
        "es": "junta las partes calificadas con --shard en una sola clase",
        "en": "joins the parts graded with --shard into one class",
    },
    "cli.help.merge_description": {
        "es": "Junta las carpetas de «autograder grade --shard I/N» en un results.json, grades.csv, "
        "resumen.html y feedback/, como si se hubiera calificado todo en una máquina.",
        "en": "Joins the folders of «autograder grade --shard I/N» into one results.json, grades.csv, "
        "resumen.html and feedback/, as if everything had been graded on one machine.",
    },
    "cli.help.folders": {"es": "la salida (--out) de cada parte", "en": "the output (--out) of each part"},
    "cli.help.merge_out": {"es": "dónde escribir la clase completa", "en": "where to write the whole class"},
    "cli.help.merge_force": {
        "es": "reemplaza los resultados anteriores en --out (nunca borra archivos ajenos)",
        "en": "replaces the earlier results in --out (never deletes anybody else's files)",
    },
    "cli.help.review": {
        "es": "lista lo pendiente de revisión y aplica las decisiones del profesor",
        "en": "lists what is pending review and applies the instructor's decisions",
    },
    "cli.help.review_description": {
        "es": "Sin --apply: lista los criterios pendientes de revisión (o, con --criterion/--learner, los pedidos en "
        "una solicitud de recorrección) y escribe un CSV para rellenar. Con --apply: registra cada decisión (quién, "
        "cuándo, por qué) y vuelve a escribir results.json, grades.csv, notas.csv, feedback/ y resumen.html.",
        "en": "Without --apply: lists the criteria pending review (or, with --criterion/--learner, those of a regrade "
        "request) and writes a CSV to fill in. With --apply: records each decision (who, when, why) and writes "
        "results.json, grades.csv, notas.csv, feedback/ and resumen.html again.",
    },
    "cli.help.results": {
        "es": "la carpeta --out de una corrección (o su results.json)",
        "en": "the --out folder of a grading run (or its results.json)",
    },
    "cli.help.apply": {
        "es": "el CSV rellenado con las decisiones (decision: pass, fail o los puntos; reviewer; reason)",
        "en": "the filled-in CSV of decisions (decision: pass, fail or the points; reviewer; reason)",
    },
    "cli.help.criterion": {
        "es": "lista este criterio aunque ya esté decidido (recorrección)",
        "en": "lists this criterion even when it is decided (a regrade)",
    },
    "cli.help.learner": {
        "es": "lista solo a este alumno (su nombre, su id o el nombre de su archivo)",
        "en": "lists only this learner (their name, id or file name)",
    },
    "cli.help.csv": {
        "es": "dónde escribir el CSV para rellenar (por defecto, revision.csv)",
        "en": "where to write the CSV to fill in (by default revision.csv)",
    },
    "cli.help.review_force": {
        "es": "sustituye un CSV que ya existe en --csv",
        "en": "replaces a CSV already at --csv",
    },
    "cli.help.lang_review": {
        "es": "idioma de la consola y del CSV (los informes siguen en el idioma de la corrección)",
        "en": "language of the console and the CSV (the reports stay in the grading run's language)",
    },
    "review.row": {
        "es": "{learner} · {submission} · {criterion} ({state}): {feedback}",
        "en": "{learner} · {submission} · {criterion} ({state}): {feedback}",
    },
    "review.bad_line": {
        "es": "«{file}», línea {line}: {why}. No se escribió nada.",
        "en": "«{file}», line {line}: {why}. Nothing was written.",
    },
    "review.why_cells": {
        "es": "tiene {n} columnas y deben ser {expected}",
        "en": "it has {n} columns and must have {expected}",
    },
    "review.why_other_run": {
        "es": "la entrega «{submission}» de «{learner}» con ese sha256 no está en estos resultados (¿es el CSV de "
        "otra corrección, o la entrega cambió desde que se escribió?)",
        "en": "the submission «{submission}» of «{learner}» with that sha256 is not in these results (is it the CSV "
        "of another run, or did the submission change since it was written?)",
    },
    "review.why_ambiguous": {
        "es": "dos alumnos se llaman «{learner}» y entregaron el mismo archivo «{submission}» con el mismo contenido: "
        "esta fila no dice a cuál de los dos se aplica (escribe en learner el id del alumno en el LMS)",
        "en": "two learners are called «{learner}» and handed in the same file «{submission}» with the same "
        "content: this row does not say which of them it is for (write the learner's LMS id in learner)",
    },
    "review.why_criterion": {
        "es": "la entrega no tiene el criterio «{criterion}»",
        "en": "the submission has no criterion «{criterion}»",
    },
    "review.why_duplicate": {
        "es": "repite la entrega y el criterio de la línea {other}",
        "en": "it repeats the submission and criterion of line {other}",
    },
    "review.why_decision": {
        "es": "la decisión «{got}» no es pass, fail ni un número de puntos entre 0 y {max}",
        "en": "the decision «{got}» is neither pass, fail nor a number of points from 0 to {max}",
    },
    "review.why_reviewer": {
        "es": "falta quién decide (columna reviewer)",
        "en": "who decides is missing (column reviewer)",
    },
    "review.why_reason": {
        "es": "falta el motivo (columna reason)",
        "en": "the reason is missing (column reason)",
    },
    "review.csv_too_big": {
        "es": "«{file}» es demasiado grande para un CSV de revisión.",
        "en": "«{file}» is too large for a review CSV.",
    },
    "review.csv_not_utf8": {
        "es": "«{file}» no es texto UTF-8: guárdalo como «CSV UTF-8».",
        "en": "«{file}» is not UTF-8 text: save it as «CSV UTF-8».",
    },
    "review.csv_unreadable": {
        "es": "No se pudo leer «{file}» ({reason}).",
        "en": "Could not read «{file}» ({reason}).",
    },
    "review.csv_garbled": {
        "es": "«{file}» no es un CSV válido ({reason}).",
        "en": "«{file}» is not a valid CSV ({reason}).",
    },
    "review.csv_header": {
        "es": "La primera línea de «{file}» no es la cabecera de un CSV de revisión ({columns}): escribe uno con "
        "«autograder review».",
        "en": "The first line of «{file}» is not a review CSV's header ({columns}): write one with "
        "«autograder review».",
    },
    "review.decisions_garbled": {
        "es": "«{file}» está dañado: no se pueden recuperar las decisiones guardadas. Restáuralo o bórralo a mano "
        "si quieres descartarlas.",
        "en": "«{file}» is damaged: the saved decisions cannot be read. Restore it, or delete it by hand to discard "
        "them.",
    },
    "review.verdict_changed": {
        "es": "«{criterion}» de {learner} estaba «{was}» cuando {by} lo decidió y ahora está «{now}», con la "
        "misma entrega: esa decisión ya no vale y se descarta; revísalo otra vez.",
        "en": "{learner}'s «{criterion}» was «{was}» when {by} decided it and is «{now}» now, with the same "
        "submission: that decision no longer holds and is dropped; review it again.",
    },
    "review.dropped": {
        "es": "La entrega de {learner} cambió desde que {by} decidió «{criterion}»: esa decisión ya no vale y se "
        "descarta.",
        "en": "{learner}'s submission changed since {by} decided «{criterion}»: that decision no longer holds and "
        "is dropped.",
    },
    "review.no_results": {
        "es": "En «{out}» no hay results.json: indica la carpeta --out de una corrección.",
        "en": "«{out}» has no results.json: give the --out folder of a grading run.",
    },
    "review.none": {
        "es": "No hay criterios pendientes de revisión en «{out}».",
        "en": "No criteria are pending review in «{out}».",
    },
    "review.none_matching": {
        "es": "Ningún criterio calificado coincide con --criterion/--learner en «{out}».",
        "en": "No graded criterion matches --criterion/--learner in «{out}».",
    },
    "review.written.one": {
        "es": "1 fila para decidir en «{path}»: rellena decision (pass, fail o los puntos), reviewer y reason, "
        "y aplícala con «autograder review {out} --apply {path}».",
        "en": "1 row to decide in «{path}»: fill in decision (pass, fail or the points), reviewer and reason, "
        "and apply it with «autograder review {out} --apply {path}».",
    },
    "review.written.other": {
        "es": "{n} filas para decidir en «{path}»: rellena decision (pass, fail o los puntos), reviewer y reason, "
        "y aplícalas con «autograder review {out} --apply {path}».",
        "en": "{n} rows to decide in «{path}»: fill in decision (pass, fail or the points), reviewer and reason, "
        "and apply them with «autograder review {out} --apply {path}».",
    },
    "review.csv_exists": {
        "es": "«{path}» ya existe: elige otro --csv o añade --force para sustituirlo.",
        "en": "«{path}» already exists: choose another --csv or add --force to replace it.",
    },
    "review.applied.one": {
        "es": "Se registró 1 decisión en «{out}».",
        "en": "1 decision was recorded in «{out}».",
    },
    "review.applied.other": {
        "es": "Se registraron {n} decisiones en «{out}».",
        "en": "{n} decisions were recorded in «{out}».",
    },
    "review.nothing_decided": {
        "es": "«{file}» no tiene ninguna fila decidida: no se cambió nada.",
        "en": "«{file}» has no decided row: nothing was changed.",
    },
    "review.unknown_criterion": {
        "es": "«{criterion}» no es un criterio de estos resultados. Criterios: {ids}.",
        "en": "«{criterion}» is not a criterion of these results. Criteria: {ids}.",
    },
    "review.unknown_learner": {
        "es": "Ningún alumno de estos resultados se llama «{learner}» (ni tiene ese id o ese archivo).",
        "en": "No learner in these results is called «{learner}» (or has that id or file).",
    },
    "cli.help.gradescope": {
        "es": "arma el autograder.zip para subir a Gradescope",
        "en": "builds the autograder.zip to upload to Gradescope",
    },
    "cli.help.gradescope_description": {
        "es": "Arma el paquete de autocorrección de Gradescope (setup.sh, run_autograder y el curso).",
        "en": "Builds Gradescope's autograder bundle (setup.sh, run_autograder and the course).",
    },
    "cli.help.bundle_out": {"es": "archivo a escribir", "en": "file to write"},
    "cli.help.bundle_seed": {
        "es": "semilla del curso (al azar si falta): los casos de cada alumno derivan de ella y del alumno",
        "en": "the course's seed (random if omitted): each learner's cases derive from it and the learner",
    },
    "cli.error": {"es": "autograder: error: {error}", "en": "autograder: error: {error}"},
    "cli.interrupted": {
        "es": "autograder: interrumpido; no se escribieron resultados nuevos.",
        "en": "autograder: interrupted; no new results were written.",
    },
    "cli.interrupted_kept": {
        "es": "autograder: interrumpido; se calificaron {graded} de {n} entregas. Las demás quedaron marcadas "
        "«no calificada» en «{path}».",
        "en": "autograder: interrupted; {graded} of {n} submissions were graded. The others are marked "
        "«not graded» in «{path}».",
    },
    "cli.internal": {
        "es": "autograder: error interno del autocorrector: {error}",
        "en": "autograder: internal error of the grader: {error}",
    },
    # -- export: grades back into the LMS (reporting.lms) -----------------------------------------
    "cli.help.export": {
        "es": "pasar las notas al LMS (Moodle o Canvas)",
        "en": "put the grades back into the LMS (Moodle or Canvas)",
    },
    "cli.help.export_description": {
        "es": "Rellena la hoja que descargaste del LMS con las notas de results.json, para subirla de nuevo.",
        "en": "Fills the sheet downloaded from the LMS with the grades of results.json, to upload it again.",
    },
    "cli.help.lms": {"es": "LMS", "en": "LMS"},
    "cli.help.export_moodle": {
        "es": "la hoja de calificaciones de una tarea de Moodle",
        "en": "the grading worksheet of a Moodle assignment",
    },
    "cli.help.export_canvas": {
        "es": "el libro de calificaciones exportado de Canvas",
        "en": "the gradebook exported from Canvas",
    },
    "cli.help.export_results": {
        "es": "la carpeta de «autograder grade» (o su results.json)",
        "en": "the folder of «autograder grade» (or its results.json)",
    },
    "cli.help.worksheet": {
        "es": "la hoja de calificaciones descargada de Moodle (CSV)",
        "en": "the grading worksheet downloaded from Moodle (CSV)",
    },
    "cli.help.gradebook": {
        "es": "el libro de calificaciones exportado de Canvas (CSV)",
        "en": "the gradebook exported from Canvas (CSV)",
    },
    "cli.help.column": {
        "es": "el principio del nombre de la columna de la tarea",
        "en": "the start of the assignment column's name",
    },
    "cli.help.export_out": {"es": "el CSV a escribir, para subirlo", "en": "the CSV to write, to upload it"},
    "cli.help.feedback_zip": {
        "es": "escribir también el zip de archivos de retroalimentación para Moodle",
        "en": "also write the zip of feedback files for Moodle",
    },
    "lms.results_missing": {"es": "No existe «{file}».", "en": "«{file}» does not exist."},
    "lms.results_unreadable": {
        "es": "«{file}» no es un results.json de «autograder grade».",
        "en": "«{file}» is not a results.json of «autograder grade».",
    },
    "lms.results_duplicate": {
        "es": "«{file}»: el identificador {ident} del LMS está en dos entregas ({a} y {b}); no se escribió nada.",
        "en": "«{file}»: the LMS id {ident} is on two submissions ({a} and {b}); nothing was written.",
    },
    "lms.sheet_missing": {"es": "No existe «{file}».", "en": "«{file}» does not exist."},
    "lms.sheet_unreadable": {
        "es": "No se pudo leer «{file}»: {reason}.",
        "en": "Could not read «{file}»: {reason}.",
    },
    "lms.sheet_encoding": {
        "es": "«{file}», línea {line}: el archivo no está en UTF-8 (¿se guardó desde Excel con otra codificación?). "
        "Descárgalo de nuevo del LMS o guárdalo como «CSV UTF-8»; no se escribió nada.",
        "en": "«{file}», line {line}: the file is not UTF-8 (was it saved from Excel in another encoding?). "
        "Download it again from the LMS or save it as «CSV UTF-8»; nothing was written.",
    },
    "lms.sheet_empty": {"es": "«{file}» está vacío.", "en": "«{file}» is empty."},
    "lms.sheet_malformed": {
        "es": "«{file}», línea {line}: no es una fila de CSV válida (¿unas comillas sin cerrar?); no se escribió nada.",
        "en": "«{file}», line {line}: not a valid CSV row (an unclosed quote?); nothing was written.",
    },
    "lms.column_missing": {
        "es": "«{file}», línea {line}: no hay columna «{column}»; no se escribió nada.",
        "en": "«{file}», line {line}: there is no column «{column}»; nothing was written.",
    },
    "lms.column_twice": {
        "es": "«{file}», línea {line}: la columna «{column}» está dos veces; no se escribió nada.",
        "en": "«{file}», line {line}: the column «{column}» is there twice; nothing was written.",
    },
    "lms.column_ambiguous": {
        "es": "«{file}», línea {line}: varias columnas empiezan por «{column}» ({found}); "
        "da más del nombre; no se escribió nada.",
        "en": "«{file}», line {line}: several columns start with «{column}» ({found}); "
        "give more of the name; nothing was written.",
    },
    "lms.bad_identifier": {
        "es": "«{file}», línea {line}: «{value}» no es un identificador de Moodle («Participante N»); "
        "no se escribió nada.",
        "en": "«{file}», line {line}: «{value}» is not a Moodle identifier («Participant N»); nothing was written.",
    },
    "lms.sheet_duplicate": {
        "es": "«{file}», línea {line}: el identificador {ident} ya estaba en la línea {first}; no se escribió nada.",
        "en": "«{file}», line {line}: the identifier {ident} was already on line {first}; nothing was written.",
    },
    "lms.bad_maximum": {
        "es": "«{file}», línea {line}: «{value}» no es una calificación máxima; no se escribió nada.",
        "en": "«{file}», line {line}: «{value}» is not a maximum grade; nothing was written.",
    },
    "lms.no_points": {
        "es": "«{file}»: no tiene la fila «Points Possible» de Canvas; no se escribió nada.",
        "en": "«{file}»: it has no Canvas «Points Possible» row; nothing was written.",
    },
    "lms.no_names": {
        "es": "«{file}»: no tiene nombres de alumnos con su id: se esperaba el libro de calificaciones de Canvas "
        "(columnas «Student» e «ID») o la hoja de calificaciones de Moodle («Nombre completo» e «Identificador»).",
        "en": "«{file}»: it has no learners' names with their ids: expected Canvas's gradebook («Student» and «ID» "
        "columns) or Moodle's grading worksheet («Full name» and «Identifier»).",
    },
    "cli.help.grade_gradebook": {
        "es": "el libro de calificaciones de Canvas (o la hoja de Moodle) en CSV: los informes nombran a cada alumno "
        "como lo nombra (la descarga de Canvas solo dice «núñezmaría»); una recalificación sin él conserva los "
        "nombres de la clase",
        "en": "Canvas's gradebook (or Moodle's worksheet) as CSV: the reports name each learner as it does (Canvas's "
        "download only says «núñezmaría»); a regrade without it keeps the class's names",
    },
    "lms.no_match": {
        "es": "«{file}»: ningún alumno de la hoja está en los resultados. ¿Es la hoja de otra tarea, "
        "o se calificó una carpeta sin los nombres del LMS? No se escribió nada.",
        "en": "«{file}»: no learner of the sheet is in the results. Is it another assignment's sheet, "
        "or was a folder without the LMS's names graded? Nothing was written.",
    },
    "lms.out_is_input": {
        "es": "«{file}» es el archivo que se lee: elige otro --out para no sobrescribirlo.",
        "en": "«{file}» is the file being read: choose another --out so as not to overwrite it.",
    },
    "lms.out_unwritable": {
        "es": "No se pudo escribir «{file}»: {reason}.",
        "en": "Could not write «{file}»: {reason}.",
    },
    "lms.zip_empty": {
        "es": "«{file}»: ningún alumno con identificador del LMS y nota tiene página de retroalimentación; "
        "no se escribió el zip.",
        "en": "«{file}»: no learner with an LMS id and a grade has a feedback page; the zip was not written.",
    },
    "lms.comment": {
        "es": "Nota automática: {grade} sobre {top}. El detalle de cada criterio está en tu archivo de "
        "retroalimentación.",
        "en": "Automatic grade: {grade} out of {top}. Each criterion's detail is in your feedback file.",
    },
    "lms.interrupted.one": {
        "es": "«{file}» es de una corrección interrumpida: 1 alumno no se calificó (no está pendiente de revisión: "
        "no tiene nota). Califica la clase entera, o exporta lo calificado con --partial; su fila queda como "
        "estaba y la orden lo lista.",
        "en": "«{file}» is from an interrupted grading run: 1 learner was never graded (not pending review: there "
        "is no grade). Grade the whole class, or export what was graded with --partial; their row stays as it was "
        "and the command lists them.",
    },
    "lms.interrupted.other": {
        "es": "«{file}» es de una corrección interrumpida: {n} alumnos no se calificaron (no están pendientes de "
        "revisión: no tienen nota). Califica la clase entera, o exporta lo calificado con --partial; sus filas "
        "quedan como estaban y la orden los lista.",
        "en": "«{file}» is from an interrupted grading run: {n} learners were never graded (not pending review: "
        "there is no grade). Grade the whole class, or export what was graded with --partial; their rows stay "
        "as they were and the command lists them.",
    },
    "lms.changed": {"es": "  {name}: {before} → {after}", "en": "  {name}: {before} → {after}"},
    "lms.locked": {
        "es": "Bloqueadas en el LMS, no se tocaron ({n}): {names}.",
        "en": "Locked in the LMS, left untouched ({n}): {names}.",
    },
    "lms.kept": {
        "es": "Ya tenían nota o comentario y se dejaron como estaban ({n}; --overwrite los reemplaza): {names}.",
        "en": "Already had a grade or a comment and were left as they were ({n}; --overwrite replaces them): {names}.",
    },
    "lms.late_listed": {
        "es": "Entregaron tarde, según el LMS ({n}): {names}.",
        "en": "Handed in late, according to the LMS ({n}): {names}.",
    },
    "lms.late_penalty": {
        "es": "Con un {pct} % menos por entrega tardía, como dice penalizacion_tarde en la configuración del curso "
        "({n}): {names}.",
        "en": "With {pct} % taken off for late work, as the course's penalizacion_tarde says ({n}): {names}.",
    },
    "lms.late_penalty_later": {
        "es": "Entregaron tarde y tienen puntos pendientes de revisión: su celda queda como estaba y el {pct} % se "
        "restará de la nota que se exporte cuando se decida ({n}): {names}.",
        "en": "Handed in late and with points pending review: their cell stays as it was, and the {pct} % comes off "
        "the grade exported once they are decided ({n}): {names}.",
    },
    "lms.comment_late": {
        "es": "Entrega tardía: se restó un {pct} %.",
        "en": "Late submission: {pct} % was taken off.",
    },
    "lms.late": {
        "es": "Entregaron tarde, según el LMS ({n}; la nota no cambia por eso): {names}.",
        "en": "Handed in late, according to the LMS ({n}; the grade does not change for it): {names}.",
    },
    "lms.not_graded": {
        "es": "No calificados: la corrección se interrumpió antes ({n}): {names}.",
        "en": "Not graded: the run was interrupted before them ({n}): {names}.",
    },
    "lms.written": {"es": "Notas escritas: {n}.", "en": "Grades written: {n}."},
    "lms.pending": {
        "es": "Pendientes de revisión, sin nota ({n}): {names}.",
        "en": "Pending review, no grade ({n}): {names}.",
    },
    "lms.not_in_sheet": {
        "es": "Calificados pero no están en la hoja ({n}): {names}.",
        "en": "Graded but not in the sheet ({n}): {names}.",
    },
    "lms.no_result": {
        "es": "En la hoja pero sin resultado ({n}): {names}.",
        "en": "In the sheet but with no result ({n}): {names}.",
    },
    "lms.zip_written": {
        "es": "Zip de retroalimentación para Moodle: {path} ({n} alumnos).",
        "en": "Feedback zip for Moodle: {path} ({n} learners).",
    },
    "lms.out_written": {"es": "Escrito: {path}", "en": "Written: {path}"},
}
