"""The grader's texts, in Spanish (the default) and English (``lang="en"``).

One table so both languages stay side by side; ``text(key, lang, **params)`` formats one.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lesson3.checkpoint import VERSION_MESSAGE_ANY

LANGS = ("es", "en")
"""Spanish is the default; every key has both (a test checks their placeholders match)."""

_TEXTS: dict[str, dict[str, str]] = {
    # -- intake: what was given to grade (files, folders, LMS zips) -----------------------------
    "intake.missing": {"es": "No existe «{name}».", "en": "«{name}» does not exist."},
    "intake.not_submission": {
        "es": "«{name}» no es una entrega: se aceptan archivos .py o .ipynb, carpetas y archivos .zip.",
        "en": "«{name}» is not a submission: .py or .ipynb files, folders and .zip files are accepted.",
    },
    "intake.symlink_given": {
        "es": "Se omitió «{name}»: es un enlace simbólico y no se sigue; pasa la carpeta o el zip real.",
        "en": "Skipped «{name}»: it is a symbolic link and is not followed; pass the real folder or zip.",
    },
    "intake.folder_unreadable": {
        "es": "Se omitió la carpeta «{name}»: no se pudo leer ({reason}).",
        "en": "Skipped the folder «{name}»: it could not be read ({reason}).",
    },
    "intake.link_to_folder": {
        "es": "Se omitió «{name}»: es un enlace simbólico a una carpeta y no se sigue.",
        "en": "Skipped «{name}»: it is a symbolic link to a folder and is not followed.",
    },
    "intake.folder_swapped": {
        "es": "Se omitió «{name}»: ya no es una carpeta (¿se cambió por un enlace simbólico?) y no se sigue.",
        "en": "Skipped «{name}»: it is no longer a folder (was it swapped for a symbolic link?) and is not followed.",
    },
    "intake.folder_depth": {
        "es": "Se omitió «{name}»: hay carpetas dentro de carpetas más de {max} niveles.",
        "en": "Skipped «{name}»: folders are nested inside folders more than {max} levels deep.",
    },
    "intake.zip_depth": {
        "es": "Se omitió «{name}»: hay zips dentro de zips más de {max} niveles.",
        "en": "Skipped «{name}»: zips are nested inside zips more than {max} levels deep.",
    },
    "intake.zip_refused": {"es": "No se leyó el zip. {reason}", "en": "The zip was not read. {reason}"},
    "intake.zip_unreadable": {
        "es": "No se pudo leer el zip «{name}»: {reason}.",
        "en": "Could not read the zip «{name}»: {reason}.",
    },
    "intake.zip_unreadable_skipped": {
        "es": "No se pudo leer el zip «{name}»: {reason}. Se omitió.",
        "en": "Could not read the zip «{name}»: {reason}. Skipped.",
    },
    "intake.zip_not_zip": {"es": "no es un archivo zip válido", "en": "it is not a valid zip file"},
    "intake.zip_too_many": {
        "es": "tiene {n} elementos (el máximo es {max})",
        "en": "it has {n} members (the maximum is {max})",
    },
    "intake.member_slip": {
        "es": "Se rechazó «{member}» en «{zip}»: su ruta sale de la carpeta del zip (zip slip); no se extrajo.",
        "en": "Refused «{member}» in «{zip}»: its path leads out of the zip's folder (zip slip); not extracted.",
    },
    "intake.member_symlink": {
        "es": "Se rechazó «{member}» en «{zip}»: es un enlace simbólico; no se extrajo.",
        "en": "Refused «{member}» in «{zip}»: it is a symbolic link; not extracted.",
    },
    "intake.member_encrypted": {
        "es": "Se omitió «{member}» en «{zip}»: está protegido con contraseña.",
        "en": "Skipped «{member}» in «{zip}»: it is password-protected.",
    },
    "intake.member_bomb": {
        "es": "Se rechazó «{member}» en «{zip}»: descomprimido ocuparía {size} (comprimido {packed}); parece una "
        "bomba zip, no se extrajo.",
        "en": "Refused «{member}» in «{zip}»: uncompressed it would take {size} (compressed {packed}); it looks "
        "like a zip bomb, not extracted.",
    },
    "intake.member_bomb_streamed": {
        "es": "Se rechazó «{member}» en «{zip}»: al descomprimirlo pasó de {limit}; parece una bomba zip, "
        "no se extrajo.",
        "en": "Refused «{member}» in «{zip}»: decompressing it went past {limit}; it looks like a zip bomb, "
        "not extracted.",
    },
    "intake.member_shortened": {
        "es": "El nombre de «{member}» en «{zip}» pasa de {max} bytes, más de lo que guarda un sistema de archivos "
        "Linux: se extrajo con un nombre más corto y se calificó igual.",
        "en": "The name of «{member}» in «{zip}» is longer than {max} bytes, more than a Linux file system stores: "
        "it was extracted under a shorter name and graded all the same.",
    },
    "intake.member_duplicate": {
        "es": "«{member}» aparece más de una vez en «{zip}»: vale la última copia, como con `unzip -o`.",
        "en": "«{member}» appears more than once in «{zip}»: the last copy counts, as with `unzip -o`.",
    },
    "intake.skipped_venv": {
        "es": "Se omitió la carpeta «{name}»: es un entorno virtual de Python (venv), no una entrega.",
        "en": "Skipped the folder «{name}»: it is a Python virtual environment (venv), not a submission.",
    },
    "intake.skipped_packages": {
        "es": "Se omitió la carpeta «{name}»: son paquetes instalados, no una entrega.",
        "en": "Skipped the folder «{name}»: it holds installed packages, not a submission.",
    },
    "intake.skipped_cache": {
        "es": "Se omitió la carpeta «{name}»: es la caché de Python (__pycache__), no una entrega.",
        "en": "Skipped the folder «{name}»: it is Python's cache (__pycache__), not a submission.",
    },
    "intake.skipped_checkpoints": {
        "es": "Se omitió la carpeta «{name}»: son las copias automáticas de Jupyter (.ipynb_checkpoints), "
        "no una entrega.",
        "en": "Skipped the folder «{name}»: it holds Jupyter's automatic copies (.ipynb_checkpoints), "
        "not a submission.",
    },
    "intake.skipped_hidden": {
        "es": "Se omitió la carpeta oculta «{name}».",
        "en": "Skipped the hidden folder «{name}».",
    },
    "intake.loose_other": {
        "es": "No se calificó «{name}»: no es un .py ni un .ipynb, y no está en la carpeta de ningún alumno.",
        "en": "«{name}» was not graded: it is not a .py or an .ipynb, and it is in no learner's folder.",
    },
    # -- one learner, one row: which file is graded -----------------------------------------------
    "choice.graded": {
        "es": "Se calificó «{name}»: {why}.",
        "en": "Graded «{name}»: {why}.",
    },
    "choice.why.only": {
        "es": "es tu único cuaderno (.ipynb) o archivo .py",
        "en": "it is your only notebook (.ipynb) or .py file",
    },
    "choice.why.readable": {
        "es": "es el que se pudo leer",
        "en": "it is the one that could be read",
    },
    "choice.why.not_course": {
        "es": "los demás son cuadernos del curso (01 a 03), no el de los ejercicios",
        "en": "the others are the course's notebooks (01 to 03), not the exercises'",
    },
    "choice.why.exercises": {
        "es": "el cuaderno 04 de los ejercicios va primero",
        "en": "notebook 04, the exercises', comes first",
    },
    "choice.why.not_copy": {
        "es": "los demás tienen nombre de copia (como «-Copy1» de JupyterLab, « (1)» de un navegador o «copia de»), "
        "que rara vez es la versión final",
        "en": "the others are named like copies (JupyterLab's «-Copy1», a browser's « (1)», «copy of»), which are "
        "seldom the final version",
    },
    "choice.why.newest": {
        "es": "es la entrega más reciente según el LMS",
        "en": "it is the latest upload according to the LMS",
    },
    "choice.why.most_names": {
        "es": "es el que define más de los nombres que se califican (reconcile, start_state…)",
        "en": "it defines the most of the names that are graded (reconcile, start_state…)",
    },
    "choice.why.notebook": {
        "es": "el cuaderno va antes que un .py (que suele ser su copia exportada)",
        "en": "the notebook comes before a .py (usually its exported copy)",
    },
    "choice.why.first": {
        "es": "entre archivos iguales para la regla, el primero por su ruta",
        "en": "among files the rule cannot tell apart, the first by its path",
    },
    "choice.others.one": {
        "es": "No se calificó el otro archivo que entregaste: {files}.",
        "en": "The other file you handed in was not graded: {files}.",
    },
    "choice.others.other": {
        "es": "No se calificaron los otros {n} archivos que entregaste: {files}.",
        "en": "The other {n} files you handed in were not graded: {files}.",
    },
    "choice.unreadable.one": {
        "es": "No se pudo leer {files}.",
        "en": "{files} could not be read.",
    },
    "choice.unreadable.other": {
        "es": "No se pudieron leer {n} de ellos: {files}.",
        "en": "{n} of them could not be read: {files}.",
    },
    "choice.nothing.zero": {
        "es": "No hay nada que calificar: la entrega no tiene ningún cuaderno (.ipynb) ni archivo .py{files}.",
        "en": "Nothing to grade: the submission has no notebook (.ipynb) and no .py file{files}.",
    },
    "choice.nothing.one": {
        "es": "No hay nada que calificar: no hay ningún cuaderno (.ipynb) ni archivo .py, solo un archivo: "
        "{files}. Entrega el cuaderno 04_ejercicios.ipynb.",
        "en": "Nothing to grade: there is no notebook (.ipynb) and no .py file, only one file: "
        "{files}. Hand in the notebook 04_ejercicios.ipynb.",
    },
    "choice.nothing.other": {
        "es": "No hay nada que calificar: no hay ningún cuaderno (.ipynb) ni archivo .py, solo {n} archivos: "
        "{files}. Entrega el cuaderno 04_ejercicios.ipynb.",
        "en": "Nothing to grade: there is no notebook (.ipynb) and no .py file, only {n} files: "
        "{files}. Hand in the notebook 04_ejercicios.ipynb.",
    },
    "choice.renamed.one": {
        "es": "{files} parece un cuaderno o un .py con otra extensión añadida: vuelve a subirlo con el nombre "
        "terminado en .ipynb o .py.",
        "en": "{files} looks like a notebook or a .py with another extension added: upload it again with the "
        "name ending in .ipynb or .py.",
    },
    "choice.renamed.other": {
        "es": "{files} parecen cuadernos o .py con otra extensión añadida: vuelve a subirlos con el nombre "
        "terminado en .ipynb o .py.",
        "en": "{files} look like notebooks or .py files with another extension added: upload them again with "
        "the name ending in .ipynb or .py.",
    },
    "intake.member_unextractable": {
        "es": "Se omitió «{member}» en «{zip}»: no se pudo extraer ({reason}).",
        "en": "Skipped «{member}» in «{zip}»: it could not be extracted ({reason}).",
    },
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
    "levels.one": {"es": "el nivel {list}", "en": "level {list}"},
    "levels.other": {"es": "los niveles {list}", "en": "levels {list}"},
    "list.and": {"es": "{first} y {last}", "en": "{first} and {last}"},
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
    "batch.interrupted": {
        "es": "No calificada: la calificación se interrumpió (Ctrl-C) antes de terminar esta entrega.",
        "en": "Not graded: grading was interrupted (Ctrl-C) before this submission was finished.",
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
    "call.guard": {
        "es": "Queda para que lo revise una persona: tu código usa {what}, con lo que se puede desactivar la "
        "protección del corrector sobre las funciones de lesson3 que no se pueden reutilizar o copiar su código. "
        "Si no lo necesitas, quítalo y vuelve a entregar.",
        "en": "Left to a person to review: your code uses {what}, which can switch off the grader's guard on the "
        "lesson3 functions that may not be reused, or copy their code. If you do not need it, remove it and "
        "hand in again.",
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
    "flag.delegated": {"es": "delega en lesson3: {fn} usa {target}", "en": "delegates to lesson3: {fn} uses {target}"},
    "flag.guard": {
        "es": "revisar: el código toca la protección del corrector sobre lesson3 ({what})",
        "en": "review: the code reaches into the grader's guard on lesson3 ({what})",
    },
    "flag.effect": {
        "es": "efecto fuera de execute_tool en el espacio de trabajo ({paths})",
        "en": "effect outside execute_tool in the workspace ({paths})",
    },
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
    # -- the learner's edition (autograder release) ---------------------------------------------
    "release.done": {
        "es": "Edición del alumno escrita en «{out}»: {n} archivos, sin soluciones ni la clave de las preguntas "
        "calificadas. Publícala como un repositorio aparte y cambia OWNER/REPO en el enlace de Binder de su README "
        "por ese repositorio; tu copia califica con la clave.",
        "en": "Learner's edition written to «{out}»: {n} files, without solutions or the graded questions' key. "
        "Publish it as a repository of its own and replace OWNER/REPO in its README's Binder link with that "
        "repository; your checkout grades with the key.",
    },
    "release.no_checkout": {
        "es": "No encuentro el curso completo en «{root}» (los cuadernos, pyproject.toml, requirements.lock y el "
        "README con su comando): autograder release se ejecuta desde la copia del curso del docente.",
        "en": "The whole course is not at «{root}» (the notebooks, pyproject.toml, requirements.lock and the README "
        "with its command): run autograder release from the instructor's checkout of the course.",
    },
    "release.already_keyless": {
        "es": "Este paquete es una edición del alumno (sus preguntas no tienen clave): la edición se escribe desde "
        "la copia del curso del docente.",
        "en": "This package is a learner's edition (its questions have no key): write the edition from the "
        "instructor's checkout of the course.",
    },
    "release.grade_without_key": {
        "es": "Este paquete es una edición del alumno: sus preguntas no tienen clave y no puede calificar. "
        "Califica desde la copia del curso del docente.",
        "en": "This package is a learner's edition: its questions have no key and it cannot grade. Grade from "
        "the instructor's checkout of the course.",
    },
    "release.out_not_empty": {
        "es": "«{out}» ya existe y no es una carpeta vacía: elige otra --out (no se borra ni se sobrescribe nada).",
        "en": "«{out}» already exists and is not an empty folder: choose another --out (nothing is deleted or "
        "overwritten).",
    },
    "release.leak": {
        "es": "La edición del alumno llevaría una clave de respuestas, así que no se escribió nada: {where}",
        "en": "The learner's edition would carry an answer key, so nothing was written: {where}",
    },
    "release.readme": {
        "es": """# Lección 3 · Reanudar desde un punto de control: reiniciar el bucle

Del módulo **Gestión de estado y persistencia: que las tareas largas sobrevivan a una interrupción** · Lección 3 de 6.

## Abrir el curso

Con Python 3.10 o más nuevo, desde esta carpeta, un solo comando instala lo necesario (la primera vez) y
abre el curso en JupyterLab, en español:

```sh
{command}
```

O sin instalar nada, en el navegador: {badge}

## Los cuadernos

Ábrelos en orden, en `notebooks/`:

1. `01_reanudar_no_reiniciar.ipynb`: guardar, cargar, verificar la versión y volver al bucle.
2. `02_la_llamada_colgante.ipynb`: la caída entre los puntos A y B, las tres jugadas y el laboratorio de
   caídas. Sus preguntas son de práctica: no cuentan para la nota y te dicen al momento si acertaste.
3. `03_reconcile_y_contadores.ipynb`: `reconcile(cp)` en código; `turns` y `tokensUsed` al reanudar.
4. `04_ejercicios.ipynb`: los ejercicios de la lección. Es el que entregas.

## Entregar el cuaderno 4

1. Escribe tu código donde dice `# TU CÓDIGO AQUÍ` y tus respuestas donde dice `TU RESPUESTA AQUÍ`.
2. Ejecuta todo el cuaderno (**Run › Ejecutar todas las celdas**) y mira la tabla de `check()` al final:
   cada criterio de código en verde o en rojo, con el porqué. Las preguntas de opción múltiple no se
   corrigen aquí: `check()` dice «respuesta recibida: se califica al entregar».
3. Guarda (**Archivo › Guardar Notebook**, o Ctrl+S) y entrega `notebooks/04_ejercicios.ipynb` tal como te indique tu
   docente (en Binder, descárgalo antes con **Archivo › Descargar**: la sesión de Binder no se guarda).

Se entrega el cuaderno 4, no los otros: en el 4 tienen que estar tus funciones de {levels} y
todas tus respuestas.
""",
        "en": """# Lesson 3 · Resuming from a checkpoint: restarting the loop

From the module **State management and persistence: long tasks that survive an interruption** · Lesson 3 of 6.

## Opening the course

With Python 3.10 or newer, from this folder, one command installs what is needed (the first time) and opens
the course in JupyterLab, in Spanish:

```sh
{command}
```

Or with nothing installed, in the browser: {badge}

## The notebooks

Open them in order, in `notebooks/`:

1. `01_reanudar_no_reiniciar.ipynb`: save, load, check the version and go back to the loop.
2. `02_la_llamada_colgante.ipynb`: the crash between save points A and B, the three moves and the crash lab.
   Its questions are practice: they do not count towards the grade and tell you at once whether you got them
   right.
3. `03_reconcile_y_contadores.ipynb`: `reconcile(cp)` in code; `turns` and `tokensUsed` on resume.
4. `04_ejercicios.ipynb`: the lesson's exercises. It is the one you hand in.

## Handing in notebook 4

1. Write your code where it says `# TU CÓDIGO AQUÍ` and your answers where it says `TU RESPUESTA AQUÍ`.
2. Run the whole notebook (**Run › Ejecutar todas las celdas**) and look at `check()`'s table at the end: each
   code criterion green or red, with the reason. The multiple-choice questions are not graded here: `check()`
   says «respuesta recibida: se califica al entregar».
3. Save (**Archivo › Guardar Notebook**, or Ctrl+S) and hand in `notebooks/04_ejercicios.ipynb` as your instructor says
   (on Binder, download it first with **Archivo › Descargar**: a Binder session is not kept).

Hand in notebook 4, not the others: it must hold your functions for {levels} and all your answers.
""",
    },
    # -- a big class: shards and merge (autograder grade --shard, autograder merge) -------------
    "shard.bad_spec": {
        "es": "«{spec}» no es una parte: escribe I/N, por ejemplo --shard 2/4 (la parte 2 de 4).",
        "en": "«{spec}» is not a shard: write I/N, for example --shard 2/4 (part 2 of 4).",
    },
    "shard.bad_count": {
        "es": "en «{spec}», N (el número de partes) tiene que estar entre 1 y {max}.",
        "en": "in «{spec}», N (the number of parts) must be between 1 and {max}.",
    },
    "shard.bad_index": {
        "es": "en «{spec}», I tiene que estar entre 1 y {count}: las partes se cuentan desde 1.",
        "en": "in «{spec}», I must be between 1 and {count}: parts are counted from 1.",
    },
    "shard.needs_seed": {
        "es": "Con --shard hace falta --seed S, la misma en todas las partes: así todas califican con las mismas "
        "variantes aleatorias y «autograder merge» puede juntarlas.",
        "en": "--shard needs --seed S, the same in every part: so every part grades with the same random "
        "variants and «autograder merge» can join them.",
    },
    "shard.graded.one": {
        "es": "Parte {shard}: la clase tiene 1 alumno, y a esta parte le tocan {mine}.",
        "en": "Part {shard}: the class has 1 learner, and {mine} fall in this part.",
    },
    "shard.graded.other": {
        "es": "Parte {shard}: a esta parte le tocan {mine} de los {n} alumnos de la clase.",
        "en": "Part {shard}: {mine} of the class's {n} learners fall in this part.",
    },
    "merge.no_folder": {
        "es": "«{folder}» no existe o no es una carpeta.",
        "en": "«{folder}» does not exist or is not a folder.",
    },
    "merge.no_results": {
        "es": "En «{folder}» no hay results.json: ¿terminó esa parte? Vuelve a ejecutarla con la misma --seed.",
        "en": "«{folder}» has no results.json: did that part finish? Run it again with the same --seed.",
    },
    "merge.unreadable": {
        "es": "No se pudo leer el results.json de «{folder}» ({reason}).",
        "en": "Could not read the results.json in «{folder}» ({reason}).",
    },
    "merge.garbled": {
        "es": "El results.json de «{folder}» está dañado o no lo escribió autograder ({what}). Vuelve a ejecutar "
        "esa parte con la misma --seed.",
        "en": "The results.json in «{folder}» is damaged or was not written by autograder ({what}). Run that part "
        "again with the same --seed.",
    },
    "merge.where_submission": {"es": "entrega n.º {n}", "en": "submission no. {n}"},
    "merge.where_size": {"es": "demasiado grande", "en": "too large"},
    "merge.where_encoding": {"es": "no es texto UTF-8", "en": "not UTF-8 text"},
    "merge.where_json": {
        "es": "JSON inválido en la línea {line}, columna {col}",
        "en": "invalid JSON at line {line}, column {col}",
    },
    "merge.where_json_deep": {"es": "JSON anidado demasiado hondo", "en": "JSON nested too deep"},
    "merge.not_a_shard": {
        "es": "«{folder}» no es la salida de una parte: se califica con «autograder grade ... --shard I/N --seed S».",
        "en": "«{folder}» is not the output of a part: grade with «autograder grade ... --shard I/N --seed S».",
    },
    "merge.interrupted": {
        "es": "La parte {shard} («{folder}») se interrumpió antes de terminar: vuelve a ejecutarla con la misma "
        "--seed y luego junta las partes.",
        "en": "Part {shard} («{folder}») was interrupted before it finished: run it again with the same --seed, "
        "then merge the parts.",
    },
    "merge.same_folder": {
        "es": "«{folder}» y «{other}» son la misma carpeta: cada parte se junta una sola vez.",
        "en": "«{folder}» and «{other}» are the same folder: each part is merged once.",
    },
    "merge.seed": {
        "es": "Las partes se calificaron con semillas distintas: «{a}» con --seed {sa} y «{b}» con --seed {sb}. "
        "Califica todas las partes con la misma --seed.",
        "en": "The parts were graded with different seeds: «{a}» with --seed {sa} and «{b}» with --seed {sb}. "
        "Grade every part with the same --seed.",
    },
    "merge.version": {
        "es": "Las partes son de versiones distintas del curso: «{a}» es {va} y «{b}» es {vb}. Califica todas las "
        "partes con la misma versión instalada.",
        "en": "The parts come from different course versions: «{a}» is {va} and «{b}» is {vb}. Grade every part "
        "with the same installed version.",
    },
    "merge.version_here": {
        "es": "Las partes son de la versión {theirs} del curso (en «{folder}»), y aquí está instalada la {ours}. "
        "Junta las partes con la misma versión con la que se calificaron.",
        "en": "The parts come from course version {theirs} (in «{folder}»), and {ours} is installed here. Merge "
        "the parts with the version they were graded with.",
    },
    "merge.config": {
        "es": "Las partes se calificaron con configuraciones distintas del curso: «{a}» con {ca} y «{b}» con {cb} "
        "(SHA-256 de los valores). Califica todas las partes con el mismo --config.",
        "en": "The parts were graded under different course configurations: «{a}» with {ca} and «{b}» with {cb} "
        "(SHA-256 of the values). Grade every part with the same --config.",
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
    "merge.lang": {
        "es": "Las partes tienen idiomas distintos: «{a}» con --lang {la} y «{b}» con --lang {lb}.",
        "en": "The parts are in different languages: «{a}» with --lang {la} and «{b}» with --lang {lb}.",
    },
    "merge.count": {
        "es": "Las partes no dividen la clase igual: «{a}» es la parte {sa} y «{b}» la {sb}. Usa el mismo N en todas.",
        "en": "The parts do not split the class the same way: «{a}» is part {sa} and «{b}» is {sb}. Use the same "
        "N in all of them.",
    },
    "merge.inputs": {
        "es": "«{a}» y «{b}» no calificaron la misma clase (tiene otro número de entregas). Todas las partes "
        "reciben las mismas rutas.",
        "en": "«{a}» and «{b}» did not grade the same class (it has another number of submissions). Every part "
        "gets the same paths.",
    },
    "merge.overlap": {
        "es": "La parte {shard} aparece dos veces: en «{a}» y en «{b}».",
        "en": "Part {shard} appears twice: in «{a}» and in «{b}».",
    },
    "merge.overlap_submission": {
        "es": "La entrega n.º {n} de la clase está en dos partes: «{a}» y «{b}».",
        "en": "Submission no. {n} of the class is in two parts: «{a}» and «{b}».",
    },
    "merge.missing": {
        "es": "Faltan partes: {shards} (de {count}). Junta las {count} carpetas.",
        "en": "Parts are missing: {shards} (of {count}). Merge all {count} folders.",
    },
    "merge.incomplete": {
        "es": "Las partes suman {got} entregas, pero la clase tiene {total}.",
        "en": "The parts add up to {got} submissions, but the class has {total}.",
    },
    "merge.names": {
        "es": "Dos entregas de las partes tienen el mismo nombre de reporte; las partes no son de una misma clase.",
        "en": "Two submissions in the parts share a report name; the parts are not from one class.",
    },
    "merge.out_is_input": {
        "es": "--out «{out}» es una de las carpetas que se juntan; elige otra carpeta.",
        "en": "--out «{out}» is one of the folders being merged; choose another folder.",
    },
    "merge.done": {
        "es": "Se juntaron {shards} partes: {n} alumnos (semilla {seed}).",
        "en": "Merged {shards} parts: {n} learners (seed {seed}).",
    },
    # -- the judge itself ----------------------------------------------------------------------
    "warn.unconfined": {
        "es": "Aviso: el código de las entregas se ejecuta sin confinamiento. El corrector no es root y este sistema "
        "no ofrece Landlock (Linux 5.13 o posterior), así que una entrega puede leer o modificar tus archivos y "
        "mandar señales a tus procesos. Corrige entregas ajenas como root (por ejemplo, en un contenedor) o en "
        "un Linux con Landlock.",
        "en": "Warning: submission code runs unconfined. The grader is not root and this system has no Landlock "
        "(Linux 5.13 or later), so a submission can read or change your files and signal your processes. Grade "
        "other people's submissions as root (in a container, for example) or on a Linux with Landlock.",
    },
    "warn.seccomp": {
        "es": "Aviso: este sistema no permite el filtro seccomp del corrector: el código de las entregas no puede "
        "crear hilos y, sin root, podría conectarse a los sockets unix de tu usuario.",
        "en": "Warning: this system does not allow the grader's seccomp filter: submission code cannot start "
        "threads and, without root, could connect to your user's unix sockets.",
    },
    "warn.signals": {
        "es": "Aviso: tus archivos están protegidos del código de las entregas, pero no tus procesos: sin root, "
        "solo Landlock 6 o posterior (Linux 6.12) impide que una entrega les mande señales, y este sistema "
        "tiene Landlock {abi}.",
        "en": "Warning: your files are protected from submission code, but your processes are not: without root, "
        "only Landlock 6 or later (Linux 6.12) stops a submission from signalling them, and this system has "
        "Landlock {abi}.",
    },
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
    "internal": {
        "es": "Error interno del corrector ({detail}); esta entrega no se pudo corregir. Avisa al equipo docente.",
        "en": "Internal grader error ({detail}); this submission could not be graded. Tell the teaching team.",
    },
    "internal.timeout": {
        "es": "La corrección de esta entrega no terminó en {seconds:g} s y se detuvo.",
        "en": "Grading this submission did not finish in {seconds:g} s and was stopped.",
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
    "check.feedback": {"es": "comentario", "en": "feedback"},
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
    "check.bad_level": {
        "es": "check(level): el nivel tiene que ser {levels} o nada (todos); se recibió {level}",
        "en": "check(level): the level must be {levels} or nothing (all); got {level}",
    },
    "check.no_criterion": {
        "es": "pista(): no hay un criterio «{criterion}»; los criterios son {known} (o su número)",
        "en": "pista(): there is no criterion «{criterion}»; the criteria are {known} (or their number)",
    },
    "check.bad_hint_level": {
        "es": "pista(nivel=...): el nivel es un número desde 1; se recibió {nivel}",
        "en": "pista(nivel=...): the level is a number from 1; got {nivel}",
    },
    "list.more": {"es": "y {more} más", "en": "and {more} more"},
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
    "cli.progress": {
        "es": "[{done}/{total}] {name}: {score} de {max} puntos ({seconds:.1f} s)",
        "en": "[{done}/{total}] {name}: {score} of {max} points ({seconds:.1f} s)",
    },
    "cli.progress_error": {
        "es": "[{done}/{total}] {name}: {score} de {max} puntos, con error ({seconds:.1f} s)",
        "en": "[{done}/{total}] {name}: {score} of {max} points, with an error ({seconds:.1f} s)",
    },
    "cli.graded.one": {
        "es": "Se calificó 1 alumno en {seconds:.1f} s (--jobs {jobs}, semilla {seed}).",
        "en": "Graded 1 learner in {seconds:.1f} s (--jobs {jobs}, seed {seed}).",
    },
    "cli.graded.other": {
        "es": "Se calificaron {n} alumnos en {seconds:.1f} s (--jobs {jobs}, semilla {seed}).",
        "en": "Graded {n} learners in {seconds:.1f} s (--jobs {jobs}, seed {seed}).",
    },
    "cli.files": {
        "es": "Archivos: {graded}; {ignored} (cada alumno tiene una fila, con un archivo calificado).",
        "en": "Files: {graded}; {ignored} (each learner has one row, with one graded file).",
    },
    "cli.graded_files.one": {"es": "1 calificado", "en": "1 graded"},
    "cli.graded_files.other": {"es": "{n} calificados", "en": "{n} graded"},
    "cli.ignored_files.one": {"es": "1 no calificado", "en": "1 not graded"},
    "cli.ignored_files.other": {"es": "{n} no calificados", "en": "{n} not graded"},
    "cli.mean": {
        "es": "Puntaje medio: {mean} puntos ({pct:.0%} del máximo); con problemas: {errors}.",
        "en": "Mean score: {mean} points ({pct:.0%} of the maximum); with problems: {errors}.",
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
    "grade.previous_unreadable": {
        "es": "«{out}» ya tiene una calificación, pero no se puede leer ({why}). Califica en otra carpeta, o "
        "reemplázala con --force --replace.",
        "en": "«{out}» already holds a grading run, but it cannot be read ({why}). Grade into another folder, or "
        "replace it with --force --replace.",
    },
    "grade.other_seed": {
        "es": "La clase en «{out}» se calificó con la semilla {seed}, no {given}: recalifica con --seed {seed} "
        "(o sin --seed), para que sus alumnos se comparen con los mismos casos, o califica en otra carpeta.",
        "en": "The class in «{out}» was graded with seed {seed}, not {given}: grade again with --seed {seed} (or "
        "without --seed), so its learners are compared on the same cases, or grade into another folder.",
    },
    "grade.other_config": {
        "es": "La clase en «{out}» se calificó con otra configuración del curso (puntos, niveles o límites): "
        "recalifica con la misma --config, o califica en otra carpeta.",
        "en": "The class in «{out}» was graded with another course configuration (points, levels or limits): "
        "grade again with the same --config, or grade into another folder.",
    },
    "grade.other_class.one": {
        "es": "Ninguno de los alumnos dados está en la clase de «{out}» (1 alumno): no se escribió nada. Para "
        "reemplazarla por esta, añade --replace; para calificar esta aparte, usa otra carpeta.",
        "en": "None of the learners given is in the class in «{out}» (1 learner): nothing was written. To replace "
        "it with this one, add --replace; to grade this one apart, use another folder.",
    },
    "grade.other_class.other": {
        "es": "Ninguno de los alumnos dados está en la clase de «{out}» ({n} alumnos): no se escribió nada. Para "
        "reemplazarla por esta, añade --replace; para calificar esta aparte, usa otra carpeta.",
        "en": "None of the learners given is in the class in «{out}» ({n} learners): nothing was written. To "
        "replace it with this one, add --replace; to grade this one apart, use another folder.",
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
        "es": "el results.json de «autograder grade»",
        "en": "the results.json of «autograder grade»",
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
    "cli.help.export_overwrite": {
        "es": "reemplazar también las notas y comentarios que la hoja ya tiene (nunca las filas bloqueadas)",
        "en": "also replace the grades and comments the sheet already has (never a locked row)",
    },
    "cli.help.export_partial": {
        "es": "exportar una corrección interrumpida: solo lo calificado; las filas de los demás quedan como estaban",
        "en": "export an interrupted run: only what was graded; the others' rows stay as they were",
    },
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
    # -- what learner code is compiled under in a notebook (Cell.compiled_name) --------------------
    "cell.compiled_name": {"es": "<celda {position}>", "en": "<cell {position}>"},
    # -- the lesson's facts said in words (lesson_facts) ------------------------------------------
    # Feminine in Spanish: what is counted is herramientas. Past the last word, the digits.
    "fact.count_words": {
        "es": "cero una dos tres cuatro cinco seis siete ocho nueve diez",
        "en": "zero one two three four five six seven eight nine ten",
    },
}


class _Decimals(string.Formatter):
    """Fills a template writing each float with the language's decimal mark."""

    def __init__(self, mark: str) -> None:
        super().__init__()
        self.mark = mark

    def format_field(self, value: Any, format_spec: str) -> str:
        written = super().format_field(value, format_spec)
        return written.replace(".", self.mark) if isinstance(value, float) else written


def decimal_mark(lang: str) -> str:
    """How ``lang`` writes the decimal separator: «,» in Spanish, "." in English (one fact, ``report.decimal``)."""
    return text("report.decimal", lang)


def text(key: str, lang: str = "es", **params: Any) -> str:
    """The message ``key`` in ``lang`` (Spanish when the language or the key's translation is missing).

    A number with decimals is written as the language writes it: «2,5 s» in Spanish, "2.5 s" in English.
    The lesson's facts it names (:data:`FACTS`) are filled in from lesson3 (:func:`with_facts`)."""
    entry = _TEXTS[key]
    written_in = lang if entry.get(lang) else "es"
    template = with_facts(entry[written_in], written_in)
    if not params:
        return template
    if any(isinstance(v, float) for v in params.values()) and (mark := decimal_mark(written_in)) != ".":
        return _Decimals(mark).format(template, **params)
    return template.format(**params)


LEARNER_PREFIX = "learner."


def learner_texts(lang: str) -> dict[str, str]:
    """The templates the learner's process speaks with (``learner.*``, without the prefix), in ``lang``.

    That process may import only its own folder and the wire formats: the judge sends it these with
    the load request, and it fills them in (:func:`autograder.learner.lesson3_view.say`).
    """
    return {key[len(LEARNER_PREFIX) :]: text(key, lang) for key in _TEXTS if key.startswith(LEARNER_PREFIX)}


@dataclass(frozen=True)
class Notice:
    """A message of the catalogue not yet written out: its key and parameters (a parameter may be a Notice).

    For what is said later in a language not known yet (intake warnings, the names of the grader's cases)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, lang: str = "es") -> str:
        return text(self.key, lang, **{k: written(v, lang) for k, v in self.params.items()})


def notice(key: str, **params: Any) -> Notice:
    return Notice(key, params)


def written(value: str | Notice, lang: str) -> str:
    """A name said as is (a tool's, a version), or a :class:`Notice` in ``lang``."""
    return value.render(lang) if isinstance(value, Notice) else value


class NoticeError(Exception):
    """An error for whoever runs a command: a :class:`Notice`, written out in their language when shown."""

    def __init__(self, why: Notice, lang: str = "es") -> None:
        super().__init__(why, lang)
        self.notice, self.lang = why, lang

    def __str__(self) -> str:
        return self.notice.render(self.lang)


def plural(key: str, n: int, lang: str = "es", **params: Any) -> str:
    """``key.one`` when ``n`` is 1, ``key.zero`` when it is 0 and the key has one, else ``key.other``; with ``n``."""
    form = "one" if n == 1 else "zero" if n == 0 and f"{key}.zero" in _TEXTS else "other"
    return text(f"{key}.{form}", lang, n=n, **params)


def listed(names: Sequence[str], lang: str = "es") -> str:
    """«a», «a y b», «a, b y c» (a, b and c)."""
    return "".join(names) if len(names) < 2 else text("list.and", lang, first=", ".join(names[:-1]), last=names[-1])


def said_levels(levels: Sequence[int], lang: str = "es") -> str:
    """«el nivel 1», «los niveles 0 y 1», «los niveles 0, 1 y 2» (levels 0, 1 and 2)."""
    return text("levels.one" if len(levels) == 1 else "levels.other", lang, list=listed([str(n) for n in levels], lang))


def read_only_tools() -> tuple[str, ...]:
    """lesson3's ``READ_ONLY_TOOLS`` in the order the lesson lists them: its tools' order, any other name after.

    Imported here, when a text needs them: the grader's command starts without lesson3's tools."""
    from lesson3.reconciliation import READ_ONLY_TOOLS
    from lesson3.tools import TOOL_NAMES

    order = {name: i for i, name in enumerate(TOOL_NAMES)}
    return tuple(sorted(READ_ONLY_TOOLS, key=lambda t: (order.get(t, len(order)), t)))


def count_word(n: int, lang: str = "es") -> str:
    """``n`` in words («cuatro», "four") up to ten, in digits past it."""
    words = text("fact.count_words", lang).split()
    return words[n] if 0 <= n < len(words) else str(n)


FACTS = ("read_only", "read_only_commas", "read_only_count")
"""The placeholders of :func:`lesson_facts`: a text or hint names them instead of writing the fact out."""


def lesson_facts(lang: str = "es") -> dict[str, str]:
    """What a text may say of the lesson, read from lesson3 as it is now: the read-only tools, listed and counted."""
    tools = read_only_tools()
    return dict(zip(FACTS, (listed(tools, lang), ", ".join(tools), count_word(len(tools), lang)), strict=True))


_FACT_FIELD = re.compile(r"\{(" + "|".join(FACTS) + r")\}")


def with_facts(template: str, lang: str = "es") -> str:
    """``template`` with the lesson's facts it names filled in, its other placeholders left as they are."""
    if not _FACT_FIELD.search(template):
        return template
    facts = lesson_facts(lang)
    return _FACT_FIELD.sub(lambda m: facts[m[1]], template)


def keys() -> list[str]:
    return list(_TEXTS)


def section(prefix: str, lang: str = "es") -> dict[str, str]:
    """Every text under ``prefix.`` in ``lang``, keyed without the prefix (for the report templates)."""
    start = prefix + "."
    return {k.removeprefix(start): text(k, lang) for k in _TEXTS if k.startswith(start)}
