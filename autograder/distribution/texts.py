"""What the learner's edition (``autograder release``) says.

Plain data, looked up by :func:`autograder.course.catalogue.text` (see the catalogue for why it lives here).
"""

TEXTS: dict[str, dict[str, str]] = {
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
2. Ejecuta todo el cuaderno (**Ejecutar › Ejecutar todas las celdas**) y mira la tabla de `check()` al final:
   cada criterio de código en verde o en rojo, con el porqué. Las preguntas de opción múltiple no se
   corrigen aquí: `check()` dice «respuesta recibida: se califica al entregar».
3. Guarda (**Archivo › Guardar cuaderno**, o Ctrl+S) y entrega `notebooks/04_ejercicios.ipynb` tal como te indique tu
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
2. Run the whole notebook (**Ejecutar › Ejecutar todas las celdas**) and look at `check()`'s table at the end: each
   code criterion green or red, with the reason. The multiple-choice questions are not graded here: `check()`
   says «respuesta recibida: se califica al entregar».
3. Save (**Archivo › Guardar cuaderno**, or Ctrl+S) and hand in `notebooks/04_ejercicios.ipynb` as your instructor says
   (on Binder, download it first with **Archivo › Descargar**: a Binder session is not kept).

Hand in notebook 4, not the others: it must hold your functions for {levels} and all your answers.
""",
    },
}
