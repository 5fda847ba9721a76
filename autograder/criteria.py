"""Los criterios del ejercicio: cada uno se declara una sola vez, aquí.

A :class:`Criterion` says everything the rest of the grader needs: its id, level and
points, its title and hint in each language, the observation it judges (a name in
:data:`autograder.observe.OBSERVERS`), its judge (a pure function from that
observation to a :class:`Verdict`) and the feedback keys the judge may use.
``results.CRITERIA_IDS``, results.json, grades.csv, the HTML feedback, ``check()``,
``pista()`` and the lesson-to-criteria table all read :data:`CRITERIA`.

To add a criterion: declare it below (or :func:`register` it), write its judge in
:mod:`autograder.judges` and, when no existing observation fits, an observer in
:mod:`autograder.observe`. Nothing else changes.

This module is plain data: the grader's own process imports it for titles and ids
without loading lesson3 or the SDK. Judges are named ``"module:function"`` and only
imported in the judge process, when a criterion is graded.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from .questions import QUESTIONS
from .results import CriterionResult


class Verdict(NamedTuple):
    """What a judge decides: passed or not, and the feedback that says why."""

    passed: bool
    feedback: str


Judge = Callable[[Any, str], Verdict]


@dataclass(frozen=True)
class Criterion:
    id: str
    level: int
    points: float
    function: str
    """The learner's name it grades: ``resume_action``, ``reconcile`` or a question's variable."""
    title: dict[str, str]
    hint: dict[str, str]
    observes: str
    """The observation it judges: a key of :data:`autograder.observe.OBSERVERS`."""
    judge: str | Judge
    """``judge(observation, lang) -> Verdict``; a ``"module:function"`` of this package is imported lazily."""
    feedback: tuple[str, ...] = ()
    """The families of message keys (:mod:`autograder.messages`) its feedback is built from, e.g. ``"ro."``."""
    lesson: str = ""
    """The lesson's section whose completion criterion this grades."""
    optional: bool = False
    """Graded only when the submission defines :attr:`function` (the multiple-choice answers)."""
    grades: tuple[str, ...] = ()
    """The lesson's objectives, sections and completion criteria it grades: keys of :mod:`autograder.lesson_map`."""

    def judge_function(self) -> Judge:
        if callable(self.judge):
            return self.judge
        module, _, name = self.judge.partition(":")
        return getattr(importlib.import_module(f"{__package__}.{module}"), name)

    def in_language(self, field: dict[str, str], lang: str) -> str:
        return field.get(lang) or field["es"]

    def result(self, verdict: Verdict) -> CriterionResult:
        passed, feedback = verdict
        return CriterionResult(self.id, passed, self.points if passed else 0.0, self.points, feedback)

    def failed(self, feedback: str) -> CriterionResult:
        return CriterionResult(self.id, False, 0.0, self.points, feedback)


CRITERIA: dict[str, Criterion] = {}
"""Every criterion, in the order results list them."""


def register(criterion: Criterion) -> Criterion:
    if criterion.id in CRITERIA:
        raise ValueError(f"el criterio {criterion.id!r} ya está declarado")
    CRITERIA[criterion.id] = criterion
    return criterion


def unregister(criterion_id: str) -> None:
    del CRITERIA[criterion_id]


def required_ids() -> tuple[str, ...]:
    """The criteria every submission is graded on (``results.CRITERIA_IDS``)."""
    return tuple(c.id for c in CRITERIA.values() if not c.optional)


def graded(levels: Iterable[int], answers: dict[str, Any] | None = None) -> list[Criterion]:
    """The criteria a submission is graded on: its levels, and the optional ones it answered."""
    levels = set(levels)
    return [
        c
        for c in CRITERIA.values()
        if c.level in levels and (not c.optional or (answers is not None and c.function in answers))
    ]


def not_graded(
    message: str, *, levels: Iterable[int] = (0, 1, 2), answers: dict[str, Any] | None = None
) -> list[CriterionResult]:
    """Every criterion failed with the same reason (the submission did not load or the grader failed)."""
    return [c.failed(message) for c in graded(levels, answers)]


def learner_names() -> tuple[str, ...]:
    """The names a submission defines for grading, in the criteria's order."""
    return tuple(dict.fromkeys(c.function for c in CRITERIA.values()))


def title(criterion_id: str, lang: str = "es") -> str:
    known = CRITERIA.get(criterion_id)
    return known.in_language(known.title, lang) if known else criterion_id


def hint(criterion_id: str, lang: str = "es") -> str | None:
    known = CRITERIA.get(criterion_id)
    return known.in_language(known.hint, lang) if known else None


def lesson_table() -> dict[str, list[str]]:
    """Lesson section -> the criterion ids that grade it, in the lesson's order of appearance."""
    table: dict[str, list[str]] = {}
    for c in CRITERIA.values():
        table.setdefault(c.lesson, []).append(c.id)
    return table


# -- the exercise's criteria -----------------------------------------------------------------------

LEVEL0 = "Nivel 0: la ruta de reanudación"
LEVEL1 = "Nivel 1: Tres puntos de control, tres acciones de reanudación"
LEVEL2 = "Nivel 2: Encontrar la causa raíz del correo duplicado"

QUESTION_GRADES: dict[str, tuple[str, ...]] = {
    "nivel2.causa_raiz": ("fin.causa",),
    "nivel2.pregunta": ("objetivo.3", "seccion.manejar"),
}
"""What each multiple-choice question grades (the questions themselves live in :mod:`autograder.questions`)."""


def _resume_path(
    criterion_id: str, title: dict[str, str], hint: dict[str, str], observes: str, judge: str, grades: tuple[str, ...]
) -> Criterion:
    return Criterion(
        criterion_id,
        level=0,
        points=1,
        function="start_state" if criterion_id.endswith(("dangling_reconciled", "max_turns_across_lives")) else LOAD,
        title=title,
        hint=hint,
        observes=observes,
        judge=f"judges_resume:{judge}",
        feedback=("ruta.",),
        lesson=LEVEL0,
        grades=("objetivo.2", *grades),
    )


LOAD = "my_load_checkpoint"


def _lesson_checkpoint(name: str, title: dict[str, str], hint: dict[str, str], grades: tuple[str, ...]) -> Criterion:
    """nivel1.cpA/B/C: ``resume_action`` on one of the lesson's three checkpoints, exactly as printed."""
    return Criterion(
        f"nivel1.{name}",
        level=1,
        points=1,
        function="resume_action",
        title=title,
        hint=hint,
        observes=f"lesson.{name}",
        judge="judges:judge_lesson_checkpoint",
        feedback=("l1.", "why."),
        lesson=LEVEL1,
        grades=grades,
    )


for _criterion in (
    _resume_path(
        "nivel0.version_refused",
        {
            "es": "otra versión: se rechaza con el mensaje de la lección",
            "en": "another version: refused with the lesson's message",
        },
        {
            "es": 'Compara raw["version"] con CHECKPOINT_VERSION y lanza un error con el texto de la lección: '
            "«Versión de punto de control incompatible: el archivo es vN, el código es v1»; no escribas el archivo.",
            "en": 'Compare raw["version"] with CHECKPOINT_VERSION and raise an error with the lesson\'s text: '
            "«Versión de punto de control incompatible: el archivo es vN, el código es v1»; do not write the file.",
        },
        "resume.newer",
        "judge_version_refused",
        ("seccion.columna",),
    ),
    _resume_path(
        "nivel0.fresh_start",
        {"es": "sin archivo: se arranca de cero", "en": "no file: start from scratch"},
        {
            "es": "Si el archivo no existe, my_load_checkpoint devuelve None y start_state arma el estado inicial "
            "(turns 0, tokensUsed 0, un mensaje del usuario con la tarea); new_state(task) del paquete también sirve.",
            "en": "If the file does not exist, my_load_checkpoint returns None and start_state builds the initial "
            "state (turns 0, tokensUsed 0, one user message with the task); the package's new_state(task) works too.",
        },
        "resume.missing",
        "judge_fresh_start",
        ("seccion.columna",),
    ),
    _resume_path(
        "nivel0.malformed_error",
        {"es": "archivo roto: una excepción, no None", "en": "broken file: an exception, not None"},
        {
            "es": "Solo un archivo que no existe da None. Uno que existe y no es un punto de control (truncado, vacío, "
            "no JSON) termina en una excepción: json.loads ya la lanza, no la atrapes para devolver None.",
            "en": "Only a missing file gives None. One that exists and is not a checkpoint (truncated, empty, not "
            "JSON) ends in an exception: json.loads already raises one, do not catch it to return None.",
        },
        "resume.malformed",
        "judge_malformed",
        ("seccion.columna",),
    ),
    _resume_path(
        "nivel0.state_kept",
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
        "judge_state_kept",
        ("seccion.columna", "seccion.despues"),
    ),
    _resume_path(
        "nivel0.dangling_reconciled",
        {"es": "llamada colgante: pasa una vez por reconcile", "en": "dangling call: through reconcile once"},
        {
            "es": "Es la bifurcación con la que arranca runAgent: si el punto de control trae pendingToolUse, el "
            "estado es lo que devuelve el reconcile que recibe start_state (una sola vez); si no, el punto de control.",
            "en": "It is the fork runAgent starts with: if the checkpoint has a pendingToolUse, the state is what the "
            "reconcile given to start_state returns (once); otherwise the checkpoint itself.",
        },
        "resume.dangling",
        "judge_dangling",
        ("seccion.columna", "seccion.mitad_dificil"),
    ),
    _resume_path(
        "nivel0.max_turns_across_lives",
        {"es": "MAX_TURNS cuenta todas las vidas", "en": "MAX_TURNS counts every life"},
        {
            "es": "turns no vuelve a 0 al reanudar: sale del archivo y el bucle sigue contando desde ahí, así el tope "
            "MAX_TURNS vale para toda la tarea aunque se caiga una y otra vez.",
            "en": "turns does not go back to 0 on resume: it comes from the file and the loop keeps counting from "
            "there, so MAX_TURNS caps the whole task however often it crashes.",
        },
        "resume.lives",
        "judge_lives",
        ("seccion.despues",),
    ),
    _lesson_checkpoint(
        "cpA",
        {"es": "cpA: continuar", "en": "cpA: continue"},
        {
            "es": 'Mira solo cp["pendingToolUse"]: si es None, no hay llamada colgante.',
            "en": 'Look only at cp["pendingToolUse"]: if it is None there is no dangling call.',
        },
        ("objetivo.1", "fin.cpA"),
    ),
    _lesson_checkpoint(
        "cpB",
        {"es": "cpB: volver a ejecutar", "en": "cpB: re-run"},
        {
            "es": "read_file es de solo lectura: leer dos veces es igual que leer una.",
            "en": "read_file is read-only: reading twice is the same as reading once.",
        },
        ("objetivo.3", "fin.cpB"),
    ),
    _lesson_checkpoint(
        "cpC",
        {"es": "cpC: repliegue a is_error", "en": "cpC: is_error"},
        {
            "es": "send_email puede haberse ejecutado ya; sin registro de efectos no puedes saberlo.",
            "en": "send_email may already have run; with no effect ledger you cannot know.",
        },
        ("objetivo.3", "fin.cpC"),
    ),
    Criterion(
        "nivel1.hidden",
        level=1,
        points=2,
        function="resume_action",
        title={"es": "puntos de control nuevos", "en": "new checkpoints"},
        hint={
            "es": 'Usa un conjunto READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}: lo que '
            "no está ahí es de alto impacto.",
            "en": 'Use a READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"} set: anything '
            "outside it is high-impact.",
        },
        observes="actions.hidden",
        judge="judges:judge_hidden",
        feedback=("hidden.",),
        lesson=LEVEL1,
        grades=("objetivo.1", "objetivo.3", "fin.cpA", "fin.cpB", "fin.cpC"),
    ),
    Criterion(
        "nivel2.read_only_rerun",
        level=2,
        points=2,
        function="reconcile",
        title={"es": "solo lectura: se vuelve a ejecutar", "en": "read-only: re-run"},
        hint={
            "es": "Para solo lectura: output = execute_tool(name, input) con el name y el input de pendingToolUse, "
            "y ese output va como content del tool_result.",
            "en": "For read-only: output = execute_tool(name, input) with pendingToolUse's name and input, and "
            "that output is the tool_result's content.",
        },
        observes="reconcile.read_only",
        judge="judges:judge_read_only",
        feedback=("l2.", "effect.", "ro."),
        lesson=LEVEL2,
        grades=("objetivo.3", "seccion.reconcile", "fin.correccion", "fin.dos_caminos"),
    ),
    Criterion(
        "nivel2.high_impact_not_rerun",
        level=2,
        points=2,
        function="reconcile",
        title={"es": "alto impacto: no se vuelve a ejecutar", "en": "high-impact: not re-run"},
        hint={
            "es": "En la rama de alto impacto no llames a execute_tool (ni a nada que ejecute la herramienta).",
            "en": "In the high-impact branch do not call execute_tool (nor anything that runs the tool).",
        },
        observes="reconcile.high_impact",
        judge="judges:judge_high_impact",
        feedback=("l2.", "effect.", "hi."),
        lesson=LEVEL2,
        grades=("objetivo.3", "seccion.tres_maneras", "seccion.reconcile", "fin.correccion"),
    ),
    Criterion(
        "nivel2.is_error_fallback",
        level=2,
        points=2,
        function="reconcile",
        title={"es": "repliegue a is_error", "en": "is_error fallback"},
        hint={
            "es": 'El tool_result de alto impacto lleva "is_error": True y un content que diga «estado de '
            "ejecución desconocido».",
            "en": 'The high-impact tool_result carries "is_error": True and a content saying the execution '
            "state is unknown.",
        },
        observes="reconcile.high_impact",
        judge="judges:judge_is_error",
        feedback=("l2.", "effect.", "iserr."),
        lesson=LEVEL2,
        grades=("objetivo.3", "seccion.tres_maneras", "seccion.reconcile", "fin.correccion"),
    ),
    Criterion(
        "nivel2.tool_result_paired",
        level=2,
        points=2,
        function="reconcile",
        title={"es": "tool_result emparejado", "en": "paired tool_result"},
        hint={
            "es": 'Agrega {"role": "user", "content": [tool_result]} al final de cp["messages"], pon '
            'cp["pendingToolUse"] = None y devuelve cp; no borres ni cambies nada más.',
            "en": 'Append {"role": "user", "content": [tool_result]} to cp["messages"], set '
            'cp["pendingToolUse"] = None and return cp; do not delete or change anything else.',
        },
        observes="reconcile.both",
        judge="judges:judge_paired",
        feedback=("l2.", "effect.", "paired."),
        lesson=LEVEL2,
        grades=("objetivo.3", "seccion.mitad_dificil", "fin.dos_caminos"),
    ),
    Criterion(
        "nivel2.no_double_email",
        level=2,
        points=3,
        function="reconcile",
        title={"es": "el incidente: un solo correo", "en": "the incident: one email"},
        hint={
            "es": "Es el incidente de la lección: al reanudar, send_email no se vuelve a ejecutar; el modelo "
            "recibe is_error y revisa por su cuenta.",
            "en": "It is the lesson's incident: on resume send_email is not re-run; the model gets is_error and "
            "checks by itself.",
        },
        observes="incident",
        judge="judges:judge_incident",
        feedback=("email.",),
        lesson=LEVEL2,
        grades=("objetivo.3", "fin.causa", "fin.correccion"),
    ),
    *(
        Criterion(
            q.criterion,
            level=2,
            points=q.points,
            function=q.variable,
            title=q.title,
            hint=q.hint,
            observes=f"answer.{q.variable}",
            judge="judges:judge_question",
            feedback=("q.",),
            lesson=LEVEL2,
            optional=True,
            grades=QUESTION_GRADES.get(q.criterion, ()),
        )
        for q in QUESTIONS.values()
    ),
):
    register(_criterion)
