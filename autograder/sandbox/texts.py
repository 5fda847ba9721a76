"""What the learner's process and its judge say: the load, each call's outcome, the tool layer, the flags
and the scenarios' labels.

Here, not in ``judging/``: the grader's process writes these in its reports, and it loads no judging module.

Plain data, looked up by :func:`autograder.course.catalogue.text` (see the catalogue for why it lives here).
"""

TEXTS: dict[str, dict[str, str]] = {
    # -- loading ---------------------------------------------------------------------------
    "load.bad_suffix": {
        "es": "«{name}» no es una entrega: tiene que ser un archivo .py o un cuaderno .ipynb.",
        "en": "«{name}» is not a submission: it must be a .py file or an .ipynb notebook.",
    },
    "load.too_big": {
        "es": "«{name}» pesa más de {mb} MB; ninguna respuesta del ejercicio es tan grande.",
        "en": "«{name}» is larger than {mb} MB; no answer to the exercise is that big.",
    },
    "load.code_too_big": {
        "es": "El código de «{name}» pesa más de {mb} MB entre todas sus celdas; ninguna respuesta del "
        "ejercicio es tan grande.",
        "en": "The code of «{name}» is larger than {mb} MB across its cells; no answer to the exercise is that big.",
    },
    "load.course_notebook": {
        "es": "«{name}» es el cuaderno {number} del curso («{notebook}»), no el de los ejercicios, así que no se "
        "calificó. Entrega «{exercises}», el cuaderno donde resolviste {levels}.",
        "en": "«{name}» is the course's notebook {number} («{notebook}»), not the exercises', so it was not "
        "graded. Hand in «{exercises}», the notebook where you solved {levels}.",
    },
    "load.missing": {"es": "No existe el archivo «{name}».", "en": "The file «{name}» does not exist."},
    "load.unreadable": {"es": "No se pudo leer «{name}»: {reason}.", "en": "Could not read «{name}»: {reason}."},
    "load.not_utf8": {
        "es": "«{name}» no es texto UTF-8 (byte inválido en la posición {pos}).",
        "en": "«{name}» is not UTF-8 text (invalid byte at position {pos}).",
    },
    "load.symlink": {
        "es": "«{name}» es un enlace simbólico; el corrector no sigue enlaces: entrega el archivo mismo.",
        "en": "«{name}» is a symbolic link; the grader does not follow links: submit the file itself.",
    },
    "load.folder_symlink": {
        "es": "No se leyó «{name}»: «{folder}», en su ruta, es un enlace simbólico y no una carpeta (¿se cambió la "
        "carpeta por un enlace?); el corrector no sigue enlaces.",
        "en": "«{name}» was not read: «{folder}», on its path, is a symbolic link, not a folder (was the folder "
        "swapped for a link?); the grader does not follow links.",
    },
    "load.folder_not_dir": {
        "es": "No se leyó «{name}»: «{folder}», en su ruta, ya no es una carpeta.",
        "en": "«{name}» was not read: «{folder}», on its path, is no longer a folder.",
    },
    "load.fifo": {
        "es": "«{name}» es una tubería con nombre (FIFO), no un archivo; no se leyó.",
        "en": "«{name}» is a named pipe (FIFO), not a file; it was not read.",
    },
    "load.device": {
        "es": "«{name}» es un dispositivo, no un archivo; no se leyó.",
        "en": "«{name}» is a device, not a file; it was not read.",
    },
    "load.not_regular": {
        "es": "«{name}» no es un archivo común (es una carpeta, un socket u otro tipo especial); no se leyó.",
        "en": "«{name}» is not a regular file (it is a folder, a socket or another special kind); it was not read.",
    },
    "load.notebook_not_json": {
        "es": "«{name}» no es un cuaderno de Jupyter válido: su contenido no es JSON.",
        "en": "«{name}» is not a valid Jupyter notebook: its content is not JSON.",
    },
    "load.notebook_not_notebook": {
        "es": "«{name}» no es un cuaderno de Jupyter válido: es JSON, pero no tiene la lista de celdas de un cuaderno.",
        "en": "«{name}» is not a valid Jupyter notebook: it is JSON, but it lacks a notebook's list of cells.",
    },
    "load.notebook_version": {
        "es": "«{name}» usa una versión del formato de cuadernos que el corrector no lee (solo la 3 y la 4); "
        "guárdalo de nuevo con Jupyter.",
        "en": "«{name}» uses a notebook format version the grader cannot read (only 3 and 4); "
        "save it again with Jupyter.",
    },
    "load.notebook_bad_cell": {
        "es": "«{name}» no es un cuaderno de Jupyter válido: la celda {cell} (contando todas, las de texto "
        "también) no tiene el formato esperado.",
        "en": "«{name}» is not a valid Jupyter notebook: cell {cell} (counting them all, text cells included) "
        "does not have the expected format.",
    },
    "load.notebook_too_complex": {
        "es": "«{name}» no se pudo leer dentro de los límites de memoria y tiempo del corrector; "
        "no parece un cuaderno guardado por Jupyter.",
        "en": "«{name}» could not be read within the grader's memory and time limits; "
        "it does not look like a notebook saved by Jupyter.",
    },
    "load.notebook_timeout": {
        "es": "Leer el cuaderno «{name}» tardó más de {seconds:g} s; se detuvo.",
        "en": "Reading the notebook «{name}» took longer than {seconds:g} s; it was stopped.",
    },
    "load.syntax": {
        "es": "Error de sintaxis en {file}, línea {line}: {message}. No se pudo ejecutar nada de la entrega.",
        "en": "Syntax error in {file}, line {line}: {message}. Nothing in the submission could run.",
    },
    "load.statement_error": {
        "es": "La instrucción de la línea {line} lanzó {etype}{detail}; se saltó y el resto del archivo se "
        "ejecutó igual (como en un cuaderno). Si es código de prueba, ponlo bajo "
        '`if __name__ == "__main__":`.',
        "en": "The statement at line {line} raised {etype}{detail}; it was skipped and the rest of the file "
        'still ran (as in a notebook). If it is test code, put it under `if __name__ == "__main__":`.',
    },
    "load.statement_syntax": {
        "es": "La instrucción de la línea {line} tiene un error de sintaxis ({message}); se saltó y el resto del "
        "archivo se ejecutó igual, como las demás celdas de un cuaderno.",
        "en": "The statement at line {line} has a syntax error ({message}); it was skipped and the rest of the "
        "file still ran, as a notebook's other cells would.",
    },
    "load.cell_module": {
        "es": "La celda {cell} importa «{module}» en la línea {line}, y «{module}» no está instalado donde se "
        "corrige (el curso no lo usa): la celda se saltó. Si no lo necesitas, quita ese import (quizás venía de "
        "Colab u otro entorno).",
        "en": "Cell {cell} imports «{module}» at line {line}, and «{module}» is not installed where grading runs "
        "(the course does not use it): the cell was skipped. If you do not need it, remove that import (it may "
        "come from Colab or another environment).",
    },
    "load.statement_module": {
        "es": "La instrucción de la línea {line} importa «{module}», que no está instalado donde se corrige (el "
        "curso no lo usa): se saltó. Si no lo necesitas, quita ese import (quizás venía de Colab u otro entorno).",
        "en": "The statement at line {line} imports «{module}», which is not installed where grading runs (the "
        "course does not use it): it was skipped. If you do not need it, remove that import (it may come from "
        "Colab or another environment).",
    },
    "load.statement_timeout": {
        "es": "La instrucción de la línea {line} no terminó dentro de los {seconds:g} s que tiene la carga del "
        "archivo (¿un bucle infinito al nivel del módulo?); se interrumpió.",
        "en": "The statement at line {line} did not finish within the {seconds:g} s the file has to load "
        "(an infinite loop at module level?); it was interrupted.",
    },
    "load.output_cut": {
        "es": "Tu código imprimió más de {kb} KB; se guardaron los primeros {kb} KB y el resto se descartó "
        "(imprimir no cuesta puntos).",
        "en": "Your code printed more than {kb} KB; the first {kb} KB were kept and the rest was dropped "
        "(printing costs no points).",
    },
    "load.cell_label": {"es": "{position} («{first}»)", "en": "{position} («{first}»)"},
    "load.cell_syntax": {
        "es": "La celda {cell} tiene un error de sintaxis en la línea {line} ({message}); se saltó.",
        "en": "Cell {cell} has a syntax error at line {line} ({message}); it was skipped.",
    },
    "load.cell_error": {
        "es": "La celda {cell} lanzó {etype} en la línea {line}{detail}; las celdas siguientes se ejecutaron igual.",
        "en": "Cell {cell} raised {etype} at line {line}{detail}; the following cells still ran.",
    },
    "load.cell_timeout": {
        "es": "La celda {cell} tardó demasiado y se interrumpió; las celdas siguientes se ejecutaron igual.",
        "en": "Cell {cell} took too long and was interrupted; the following cells still ran.",
    },
    "load.nothing_defined": {
        "es": "La entrega no define ninguno de los nombres que se califican ({names}), así que no se pudo "
        "calificar nada. ¿Es el cuaderno de los ejercicios, con esas definiciones en sus celdas?",
        "en": "The submission defines none of the names that are graded ({names}), so nothing could be "
        "graded. Is it the exercises notebook, with those definitions in its cells?",
    },
    "load.failed": {
        "es": "No se pudo cargar la entrega: {reason}",
        "en": "The submission could not be loaded: {reason}",
    },
    "load.process_hint": {
        "es": " (al corregir, tu código no puede crear procesos, y solo unos pocos hilos)",
        "en": " (while grading, your code cannot start processes, and only a few threads)",
    },
    "load.permission_hint": {
        "es": " (tu código se ejecuta sin privilegios: el corrector no permite eso)",
        "en": " (your code runs unprivileged: the grader does not allow that)",
    },
    # -- what the learner's process did --------------------------------------------------------
    "fail.timeout": {
        "es": "{what} no terminó en {limit:g} s (¿un bucle infinito?); se detuvo el proceso.",
        "en": "{what} did not finish in {limit:g} s (an infinite loop?); the process was stopped.",
    },
    "fail.call_timeout": {
        "es": "{what} no terminó en {limit:g} s, el límite de cada llamada (¿un bucle infinito?); se detuvo "
        "el proceso.",
        "en": "{what} did not finish in {limit:g} s, the limit for each call (an infinite loop?); the process "
        "was stopped.",
    },
    "fail.call_timeout_importing": {
        "es": "{what} no terminó en {limit:g} s, el límite de cada llamada: cuando se cumplió el plazo, la llamada "
        "seguía importando el módulo {module}; se detuvo el proceso. Importa los módulos al principio, fuera de la "
        "función, o revisa qué hace {module} al importarse.",
        "en": "{what} did not finish in {limit:g} s, the limit for each call: when the time ran out, the call was "
        "still importing the module {module}; the process was stopped. Import modules at the top, outside the "
        "function, or check what {module} does when it is imported.",
    },
    "fail.budget_importing": {
        "es": "{what}: las llamadas de este criterio juntas no terminaron en {limit:g} s: cuando se cumplió el plazo, "
        "la llamada seguía importando el módulo {module}; se detuvo el proceso. Importa los módulos al principio, "
        "fuera de la función, o revisa qué hace {module} al importarse.",
        "en": "{what}: this criterion's calls together did not finish in {limit:g} s: when the time ran out, the call "
        "was still importing the module {module}; the process was stopped. Import modules at the top, outside the "
        "function, or check what {module} does when it is imported.",
    },
    "fail.cpu": {
        "es": "{what} se pasó del límite de tiempo de CPU; se detuvo el proceso.",
        "en": "{what} went over the CPU time limit; the process was stopped.",
    },
    "fail.crashed": {
        "es": "El proceso de tu código se cayó ({detail}) mientras ejecutaba {what}.",
        "en": "Your code's process crashed ({detail}) while running {what}.",
    },
    "fail.exited": {
        "es": "Tu código terminó su propio proceso (código de salida {detail}, ¿os._exit?) mientras ejecutaba {what}.",
        "en": "Your code ended its own process (exit code {detail}, os._exit?) while running {what}.",
    },
    "fail.budget": {
        "es": "{what}: las llamadas de este criterio juntas no terminaron en {limit:g} s; se detuvo el proceso.",
        "en": "{what}: this criterion's calls together did not finish in {limit:g} s; the process was stopped.",
    },
    "fail.disk": {
        "es": "{what} llenó tu carpeta (el límite es {limit:g} MB en total, y {detail} archivos); se detuvo "
        "el proceso.",
        "en": "{what} filled your folder (the limit is {limit:g} MB in all, and {detail} files); the process "
        "was stopped.",
    },
    "fail.protocol": {
        "es": "{what} rompió la comunicación con el corrector ({detail}); se detuvo el proceso.",
        "en": "{what} broke the channel to the grader ({detail}); the process was stopped.",
    },
    "fail.internal": {
        "es": "El corrector no pudo aislar tu código ({detail}): es un problema del corrector, no tuyo. "
        "Avisa al equipo docente.",
        "en": "The grader could not isolate your code ({detail}): a grader problem, not yours. Tell the teaching team.",
    },
    "fail.poisoned": {
        "es": "No se evaluó: {fn} ya había fallado antes ({reason})",
        "en": "Not evaluated: {fn} had already failed ({reason})",
    },
    "what.load": {"es": "La carga de tu entrega", "en": "Loading your submission"},
    "what.call": {"es": "{fn}(cp)", "en": "{fn}(cp)"},
    # -- a call's outcome ----------------------------------------------------------------------
    "call.missing": {
        "es": "No hay una función `{fn}` en tu entrega.",
        "en": "There is no function `{fn}` in your submission.",
    },
    "call.not_callable": {
        "es": "`{fn}` existe pero no es una función (es {type}).",
        "en": "`{fn}` exists but is not a function (it is {type}).",
    },
    "call.not_implemented": {
        "es": "Todavía no implementado: `{fn}` lanza NotImplementedError. Completa la parte marcada con "
        "# TU CÓDIGO AQUÍ.",
        "en": "Not implemented yet: `{fn}` raises NotImplementedError. Fill in the part marked # TU CÓDIGO AQUÍ.",
    },
    "call.raised": {"es": "`{fn}` lanzó {etype}{where}{detail}.", "en": "`{fn}` raised {etype}{where}{detail}."},
    "call.where": {"es": " en la línea {line}", "en": " at line {line}"},
    "call.where_cell": {"es": " en la línea {line} de la celda {cell}", "en": " at line {line} of cell {cell}"},
    "call.system_exit": {
        "es": "`{fn}` llamó a sys.exit(){where}: una función del ejercicio tiene que devolver un valor, no "
        "terminar el programa.",
        "en": "`{fn}` called sys.exit(){where}: an exercise function must return a value, not end the program.",
    },
    "call.bad_value": {
        "es": "`{fn}` devolvió un valor de tipo {type} que no se puede guardar como JSON ({detail}); "
        "un punto de control solo tiene textos, números, listas y diccionarios.",
        "en": "`{fn}` returned a value of type {type} that cannot be stored as JSON ({detail}); "
        "a checkpoint only holds strings, numbers, lists and dicts.",
    },
    "call.delegated": {
        "es": "No cuenta: `{fn}` usa {target}, la solución de referencia de lesson3. Escribe tu propia versión.",
        "en": "Does not count: `{fn}` uses {target}, lesson3's reference solution. Write your own version.",
    },
    "call.tampered": {
        "es": "No cuenta: durante la llamada, `{fn}` desactivó o reemplazó la protección del corrector sobre las "
        "funciones de lesson3 que no se pueden reutilizar. Escribe tu propia versión sin tocarla.",
        "en": "Does not count: during the call, `{fn}` switched off or replaced the grader's guard on the lesson3 "
        "functions that may not be reused. Write your own version without touching it.",
    },
    "call.reused.exercise": {
        "es": "No cuenta: `{fn}` usa {target}, la función de lesson3 que este ejercicio te pide escribir. Escribe "
        "tu propia versión.",
        "en": "Does not count: `{fn}` uses {target}, the lesson3 function this exercise asks you to write. Write "
        "your own version.",
    },
    "call.reused.incident": {
        "es": "No cuenta: `{fn}` usa {target}, el reconcile de producción del incidente (el que vuelve a ejecutar "
        "todo y mandó el correo dos veces), no una versión tuya. Escribe tu propia versión.",
        "en": "Does not count: `{fn}` uses {target}, the incident's production reconcile (the one that re-runs "
        "everything and sent the email twice), not a version of your own. Write your own version.",
    },
    "call.reused.wrong_move": {
        "es": "No cuenta: `{fn}` usa {target}, la jugada uno de lesson3 (borrar el mensaje colgante), no una "
        "versión tuya. Escribe tu propia versión.",
        "en": "Does not count: `{fn}` uses {target}, lesson3's move one (delete the dangling message), not a "
        "version of your own. Write your own version.",
    },
    "call.reused.lab_move": {
        "es": "No cuenta: `{fn}` usa {target}, una jugada del laboratorio de caídas de lesson3, no una versión "
        "tuya. Escribe tu propia versión.",
        "en": "Does not count: `{fn}` uses {target}, a move of lesson3's crash lab, not a version of your own. "
        "Write your own version.",
    },
    "flag.delegated": {"es": "delega en lesson3: {fn} usa {target}", "en": "delegates to lesson3: {fn} uses {target}"},
    "flag.effect": {
        "es": "efecto fuera de execute_tool en el espacio de trabajo ({paths})",
        "en": "effect outside execute_tool in the workspace ({paths})",
    },
    "flag.copy": {
        "es": "posible copia: {function} es casi idéntica a la de {others}; compáralas antes de decidir nada (no "
        "cambia la nota)",
        "en": "possible copy: {function} is near-identical to {others}'s; compare them before deciding anything (the "
        "grade is unchanged)",
    },
    "flag.copy_other": {"es": "{other} ({pct} %)", "en": "{other} ({pct}%)"},
    "internal.timeout": {
        "es": "La corrección de esta entrega no terminó en {seconds:g} s y se detuvo.",
        "en": "Grading this submission did not finish in {seconds:g} s and was stopped.",
    },
    "internal": {
        "es": "Error interno del corrector ({detail}); esta entrega no se pudo corregir. Avisa al equipo docente.",
        "en": "Internal grader error ({detail}); this submission could not be graded. Tell the teaching team.",
    },
    # -- check() in a notebook and list labels in feedback ----------------------------------------
    # -- the judge's tool layer: what a learner's execute_tool gets back (the course's world speaks Spanish)
    "tool.too_many_calls": {
        "es": "Error: demasiadas llamadas a herramientas (más de {limit})",
        "en": "Error: too many tool calls (more than {limit})",
    },
    "tool.bad_name": {
        "es": "Error: el nombre de una herramienta tiene que ser un texto de 1 a {limit} caracteres",
        "en": "Error: a tool's name must be a text of 1 to {limit} characters",
    },
    "tool.reply_too_big": {
        "es": "Error: la respuesta de la herramienta es demasiado grande para devolverla",
        "en": "Error: the tool's answer is too big to send back",
    },
    "tool.input_too_big": {
        "es": "Error: la entrada de {name} es demasiado grande ({size} bytes)",
        "en": "Error: the input of {name} is too big ({size} bytes)",
    },
    "tool.input_not_object": {
        "es": "Error: la entrada de {name} debe ser un objeto",
        "en": "Error: the input of {name} must be an object",
    },
    # What the learner's own process says (it may not import this catalogue: the judge sends these
    # with the load, in the grading's language; see learner_texts).
    "learner.placeholder_refused": {
        "es": "{label} es la solución de referencia de lesson3: no existe mientras se corrige (el ejercicio es "
        "escribirla)",
        "en": "{label} is lesson3's reference solution: it does not exist while grading (the exercise is to write it)",
    },
    "learner.reuse_refused": {
        "es": "{label} no se puede reutilizar dentro de una función que se califica: el ejercicio es escribir "
        "tu propia versión",
        "en": "{label} may not be reused inside a graded function: the exercise is to write your own version",
    },
    "learner.placeholder_repr": {
        "es": "<{label}: no disponible al corregir>",
        "en": "<{label}: not available while grading>",
    },
    "learner.answers_doc": {
        "es": "No disponible al corregir: las respuestas de la lección.",
        "en": "Not available while grading: the lesson's answers.",
    },
    "learner.magic_skipped": {"es": "[%{name}: no se ejecuta al corregir]", "en": "[%{name}: not run while grading]"},
    "learner.no_process": {"es": "[no se ejecuta al corregir: {command}]", "en": "[not run while grading: {command}]"},
    "learner.tool_not_json": {
        "es": "execute_tool: name e input tienen que ser JSON ({error})",
        "en": "execute_tool: name and input must be JSON ({error})",
    },
    "tool.stand_in_done": {"es": "Hecho: {name} se ejecutó.", "en": "Done: {name} ran."},
    "tool.failed": {"es": "Error: {name} falló", "en": "Error: {name} failed"},
    "tool.too_slow": {
        "es": "Error: {name} tardó más de {seconds:g} s (¿una expresión regular catastrófica?)",
        "en": "Error: {name} took more than {seconds:g} s (a catastrophic regular expression?)",
    },
    "label.no_pending": {"es": "sin llamada pendiente", "en": "no pending call"},
    "label.no_pending_after_b": {
        "es": "sin llamada pendiente (caída después del punto de guardado B)",
        "en": "no pending call (crash after save point B)",
    },
    "label.no_file": {"es": "sin archivo", "en": "no file"},
    "label.truncated": {"es": "JSON truncado (una escritura cortada)", "en": "truncated JSON (a cut-off write)"},
    "label.empty_file": {"es": "archivo vacío", "en": "empty file"},
    "label.not_json": {"es": "texto que no es JSON", "en": "text that is not JSON"},
    "label.not_object": {"es": "JSON que no es un objeto", "en": "JSON that is not an object"},
}
