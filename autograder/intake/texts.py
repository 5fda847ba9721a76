"""What intake says: files, folders and LMS zips read, skipped or refused, and which file of a learner is graded.

Plain data, looked up by :func:`autograder.course.catalogue.text` (see the catalogue for why it lives here).
"""

TEXTS: dict[str, dict[str, str]] = {
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
    "choice.late_canvas": {
        "es": "Canvas marcó «{name}» como entregado después de la fecha límite (LATE); la nota no cambia por eso.",
        "en": "Canvas marked «{name}» as handed in after the due date (LATE); the grade does not change for it.",
    },
    "choice.late_canvas_penalty": {
        "es": "Canvas marcó «{name}» como entregado después de la fecha límite (LATE): el curso resta un {pct} % a "
        "la nota al pasarla al LMS.",
        "en": "Canvas marked «{name}» as handed in after the due date (LATE): the course takes {pct} % off the grade "
        "when it goes to the LMS.",
    },
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
    "choice.why.person": {
        "es": "lo eligió quien califica, en vez del que elegía la regla (autograder grade --choose)",
        "en": "the instructor chose it instead of the one the rule chose (autograder grade --choose)",
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
    # -- what learner code is compiled under in a notebook (Cell.compiled_name) --------------------
    "cell.compiled_name": {"es": "<celda {position}>", "en": "<cell {position}>"},
}
