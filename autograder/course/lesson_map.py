"""The lesson, point by point: which notebook teaches it and which criteria grade it.

Each item of the lesson (its objectives, sections, exercises and completion criteria)
is listed here once, with the notebook heading that teaches it. Which criteria grade
it is not written here: it comes from the criteria themselves (``Criterion.grades``
and, for an exercise, the criteria of its level), so :func:`table_markdown` cannot
drift from :mod:`autograder.course.criteria`. ``docs/criterios.md`` is its output, and a test
regenerates it and compares.
"""

from __future__ import annotations

from dataclasses import dataclass

from autograder.course import criteria
from autograder.course.criterion import completion_key
from autograder.course.levels import TITLES
from lesson3.exercise_names import EXERCISE_NAMES

NOTEBOOKS = {
    "01": "01_reanudar_no_reiniciar",
    "02": "02_la_llamada_colgante",
    "03": "03_reconcile_y_contadores",
    "04": "04_ejercicios",
}


@dataclass(frozen=True)
class Heading:
    notebook: str  # a key of NOTEBOOKS
    text: str  # the heading as written in notebooks/src/<notebook>.md, without the #s

    @property
    def source(self) -> str:
        return f"notebooks/src/{NOTEBOOKS[self.notebook]}.md"


@dataclass(frozen=True)
class LessonItem:
    key: str
    kind: str  # "objetivo", "sección", "ejercicio" or "criterio de finalización"
    text: str  # the lesson's words (shortened for a table)
    taught: tuple[Heading, ...]
    level: int | None = None  # an exercise: the criteria of this level grade it


KINDS = ("objetivo", "sección", "ejercicio", "criterio de finalización")

ITEMS: tuple[LessonItem, ...] = (
    # -- objectives ------------------------------------------------------------------------------
    LessonItem(
        "objetivo.1",
        "objetivo",
        "Decir por qué una «llamada colgante» aparece sí o sí en un escenario de recuperación tras una caída, y en "
        "qué se diferencia de una falla común de ejecución de herramienta",
        (Heading("02", "Por qué aparece sí o sí"), Heading("02", "No es una falla común de herramienta")),
    ),
    LessonItem(
        "objetivo.2",
        "objetivo",
        "Escribir la ruta de reanudación completa desde loadCheckpoint() de vuelta al bucle, verificación de versión "
        "y reconstrucción del estado incluidas",
        (Heading("01", "Tu turno: la ruta de reanudación"), Heading("04", "Nivel 0: la ruta de reanudación")),
    ),
    LessonItem(
        "objetivo.3",
        "objetivo",
        "Conciliar una llamada colgante según la naturaleza de la herramienta, en vez de volver a ejecutar a ciegas o "
        "borrar a ciegas",
        (Heading("03", "`reconcile(cp)`: la regla hecha función"), Heading("04", "Reescribir `reconcile(cp)`")),
    ),
    # -- sections --------------------------------------------------------------------------------
    LessonItem("seccion.reanudar", "sección", "Reanudar, no reiniciar", (Heading("01", "Reanudar, no reiniciar"),)),
    LessonItem(
        "seccion.columna",
        "sección",
        "La columna vertebral de la reanudación: una mitad es fácil",
        (
            Heading("01", "La columna vertebral de la reanudación: la mitad fácil"),
            Heading("01", "Cargar y verificar la versión"),
        ),
    ),
    LessonItem(
        "seccion.mitad_dificil",
        "sección",
        "La mitad difícil: conciliar una llamada colgante",
        (Heading("02", "La mitad difícil"),),
    ),
    LessonItem(
        "seccion.tres_maneras",
        "sección",
        "Tres maneras de manejarlo, solo una se sostiene",
        (Heading("02", "Tres maneras de manejarlo; solo una se sostiene"),),
    ),
    LessonItem(
        "seccion.manejar",
        "sección",
        "Manejar una llamada colgante",
        (
            Heading("02", "Manejar una llamada colgante: ¿está en lo cierto?"),
            Heading("04", "Dos preguntas sobre la llamada colgante"),
        ),
    ),
    LessonItem(
        "seccion.reconcile",
        "sección",
        "reconcile(cp): convertir la conciliación en código",
        (Heading("03", "`reconcile(cp)`: la regla hecha función"),),
    ),
    LessonItem(
        "seccion.despues",
        "sección",
        "Después de reanudar: contar turns y tokensUsed",
        (Heading("03", "Después de reanudar: `turns` y `tokensUsed`"),),
    ),
    LessonItem("seccion.resumen", "sección", "Resumen", (Heading("03", "Resumen de la lección"),)),
    # -- exercises -------------------------------------------------------------------------------
    LessonItem(
        "ejercicio.nivel0",
        "ejercicio",
        "Nivel 0 (del curso): la ruta de reanudación, el objetivo 2 hecho código",
        (Heading("04", "Nivel 0: la ruta de reanudación"),),
        level=0,
    ),
    LessonItem(
        "ejercicio.nivel1",
        "ejercicio",
        TITLES[1],
        (Heading("04", "Nivel 1: tres puntos de control, tres acciones de reanudación"),),
        level=1,
    ),
    LessonItem(
        "ejercicio.nivel2",
        "ejercicio",
        TITLES[2],
        (Heading("04", "Nivel 2: encontrar la causa raíz del correo duplicado"),),
        level=2,
    ),
    # -- completion criteria ---------------------------------------------------------------------
    *(
        LessonItem(
            completion_key(name),
            "criterio de finalización",
            f"{name}: {text}",
            (Heading("04", "Nivel 1: tres puntos de control, tres acciones de reanudación"),),
        )
        for name, text in zip(
            EXERCISE_NAMES,
            (
                "pendingToolUse es null; al reanudar basta con tomar messages y disparar la llamada siguiente",
                "read_file es de solo lectura; volver a ejecutarla, rellenar un tool_result y continuar",
                "send_email es de alto impacto; replegarse a is_error («estado de ejecución desconocido»)",
            ),
            strict=True,
        )
    ),
    LessonItem(
        "fin.causa",
        "criterio de finalización",
        "Causa raíz: reconcile() vuelve a ejecutar cada pendingToolUse sin distinguir solo lectura de alto impacto",
        (Heading("04", "La causa raíz"),),
    ),
    LessonItem(
        "fin.correccion",
        "criterio de finalización",
        "Corrección: READ_ONLY_TOOLS enruta por nombre; solo las de solo lectura llaman a executeTool(); las de alto "
        "impacto reciben un tool_result con is_error: true",
        (Heading("04", "Reescribir `reconcile(cp)`"), Heading("04", "El incidente ya no se reproduce")),
    ),
    LessonItem(
        "fin.dos_caminos",
        "criterio de finalización",
        "Los dos caminos terminan proveyéndole a messages un tool_result que corresponda",
        (Heading("04", "Reescribir `reconcile(cp)`"),),
    ),
)

BY_KEY = {item.key: item for item in ITEMS}


def graded_by(item: LessonItem) -> list[str]:
    """The criterion ids that grade a lesson item, read from the criteria themselves."""
    if item.level is not None:
        return [c.id for c in criteria.CRITERIA.values() if c.level == item.level]
    return [c.id for c in criteria.CRITERIA.values() if item.key in c.grades]


def unknown_keys() -> dict[str, list[str]]:
    """Criterion id -> the keys it names in ``grades`` that are not lesson items (a typo, a removed item)."""
    unknown = {c.id: [k for k in c.grades if k not in BY_KEY] for c in criteria.CRITERIA.values()}
    return {cid: keys for cid, keys in unknown.items() if keys}


def table_markdown() -> str:
    """docs/criterios.md: every item of the lesson, where it is taught and which criteria grade it."""
    titles = {
        "objetivo": "Learning objectives (Objetivos de aprendizaje)",
        "sección": "Lesson sections",
        "ejercicio": "Exercises",
        "criterio de finalización": "Completion criteria (Criterios de finalización)",
    }
    lines = [
        "# Lesson 3: where each point is taught and which criteria grade it",
        "",
        "<!-- Generated by `python -m autograder.reporting.generated` from the criteria (autograder/course/level0.py",
        "     and its siblings) and autograder/course/lesson_map.py; tests/test_generated.py fails when stale. -->",
        "",
        "Each objective, section, exercise and completion criterion of the lesson, the notebook heading that",
        'teaches it, and the autograder criteria that grade it (`pista("<id>")` prints a criterion\'s hint).',
    ]
    for kind in KINDS:
        lines += ["", f"## {titles[kind]}", "", "| Lesson | Taught in | Graded by |", "|---|---|---|"]
        for item in (i for i in ITEMS if i.kind == kind):
            taught = "<br>".join(f"[Cuaderno {int(h.notebook)} · {h.text}](../{h.source})" for h in item.taught)
            graded = ", ".join(f"`{cid}`" for cid in graded_by(item)) or "—"
            lines.append(f"| {item.text} | {taught} | {graded} |")
    lines += [
        "",
        "## Criteria",
        "",
        "| Criterion | Level | Points | Title (as the learner sees it) |",
        "|---|---|---|---|",
    ]
    for c in criteria.CRITERIA.values():
        lines.append(f"| `{c.id}` | {c.level} | {c.points:g} | {c.title['es']} |")
    return "\n".join(lines) + "\n"
