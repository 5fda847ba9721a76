"""The exercise's criteria: each is declared once, here.

A :class:`Criterion` says everything the rest of the grader needs: its id, level and
points, its title and escalating hints in each language, the observation it judges (a name an
observer is registered under) and the feedback keys its verdict function may use.
results.json, grades.csv, the HTML feedback, ``check()``,
``pista()`` and the lesson-to-criteria table all read :data:`CRITERIA`.

To add a criterion: declare it below (or :func:`register` it); write its verdict function, a pure function
from the observation to a :class:`Verdict`, in :mod:`autograder.judging.verdicts` (Level 0:
:mod:`autograder.judging.verdicts_resume`), registered for the criterion's id with
``@verdict("nivelN.name")``; and, when no existing observation fits, an observer in
:mod:`autograder.judging.observe` registered with ``@observer("name")``, drawing its scenarios
from ``run.draws("name")``. Nothing else changes; ``tests/test_autograder_criteria.py`` fails
while a criterion has no verdict function or no observer, or one of those has no criterion.

This module is plain data: the grader's own process imports it for titles and ids
without loading any verdict function, lesson3's agent or the SDK. Verdict functions and observers are registered
(:mod:`autograder.judging.registry`) only in the judging process, which imports them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

from autograder.course.catalogue import with_facts
from autograder.course.levels import TITLES
from autograder.course.questions import QUESTIONS, Question, reason_variable
from autograder.wire.calls import ACTION, LOAD, RECONCILE, START
from autograder.wire.results import CriterionResult, from_verdicts
from lesson3.checkpoint import VERSION_MESSAGE_ANY
from lesson3.exercise_names import EXERCISE_NAMES


class Verdict(NamedTuple):
    """What a verdict function decides: passed, not passed or ``None`` (left to a person); and the feedback saying why.

    Any verdict function may return ``None`` where its rules cannot decide: the criterion's points are then
    pending (``review``) until ``autograder review --apply`` records a person's decision.
    """

    passed: bool | None
    feedback: str


Hints = dict[str, str | tuple[str, ...]]
"""Per language, one hint or an escalating list of them."""


@dataclass(frozen=True)
class Criterion:
    id: str
    level: int
    points: float
    function: str
    """The learner's name it grades: ``resume_action``, ``reconcile`` or a question's variable."""
    title: dict[str, str]
    hint: Hints
    """Per language, one hint or an escalating list: each says more than the one before, none gives the code."""
    observes: str
    """The observation it judges: a key of :data:`autograder.judging.registry.OBSERVERS`."""
    feedback: tuple[str, ...] = ()
    """The families of message keys (:mod:`autograder.course.catalogue`) its feedback uses, e.g. ``"read_only."``."""
    lesson: str = ""
    """The lesson's section whose completion criterion this grades."""
    grades: tuple[str, ...] = ()
    """The lesson's objectives, sections and completion criteria it grades.

    Keys of :mod:`autograder.course.lesson_map`."""

    def hints(self, lang: str = "es") -> tuple[str, ...]:
        """The escalating hints in ``lang``, gentlest first."""
        chosen = self.hint.get(lang) or self.hint["es"]
        return tuple(with_facts(h, lang) for h in ((chosen,) if isinstance(chosen, str) else chosen))

    def result(self, verdict: Verdict) -> CriterionResult:
        (result,) = from_verdicts([(self.id, self.points, *verdict)])
        return result

    def failed(self, feedback: str) -> CriterionResult:
        return CriterionResult(self.id, False, 0.0, self.points, feedback)

    def left_to_a_person(self, feedback: str) -> CriterionResult:
        return CriterionResult(self.id, None, None, self.points, feedback, review=True)


CRITERIA: dict[str, Criterion] = {}
"""Every criterion, in the order results list them."""


def register(criterion: Criterion) -> Criterion:
    if criterion.id in CRITERIA:
        raise ValueError(f"criterion {criterion.id!r} is already declared")
    CRITERIA[criterion.id] = criterion
    return criterion


def unregister(criterion_id: str) -> None:
    del CRITERIA[criterion_id]


def required_ids() -> tuple[str, ...]:
    """The criteria every submission is graded on : all of them, so one maximum."""
    return tuple(CRITERIA)


def graded(levels: Iterable[int], points: Mapping[str, float] | None = None) -> list[Criterion]:
    """The criteria of ``levels``; the same for every submission, whatever it defines or answers.

    ``points`` (criterion id -> points, the course's configuration: :mod:`autograder.course.config`)
    replaces the declared points; a criterion it does not name keeps its own.
    """
    levels = set(levels)
    chosen = [c for c in CRITERIA.values() if c.level in levels]
    if points:
        chosen = [replace(c, points=float(points[c.id])) if c.id in points else c for c in chosen]
    return chosen


def scored(verdicts: Iterable[tuple[Criterion, Verdict]]) -> list[CriterionResult]:
    """Each criterion's result from its verdict, in the order given."""
    return from_verdicts([(c.id, c.points, *verdict) for c, verdict in verdicts])


def learner_names() -> tuple[str, ...]:
    """The names a submission defines for grading, in the criteria's order."""
    return tuple(dict.fromkeys(c.function for c in CRITERIA.values()))


def title(criterion_id: str, lang: str = "es") -> str:
    known = CRITERIA.get(criterion_id)
    return (known.title.get(lang) or known.title["es"]) if known else criterion_id


def hints(criterion_id: str, lang: str = "es") -> tuple[str, ...]:
    """A criterion's escalating hints (empty for an unknown id)."""
    known = CRITERIA.get(criterion_id)
    return known.hints(lang) if known else ()


def hint(criterion_id: str, lang: str = "es", level: int = 1) -> str | None:
    """Hint number ``level`` (1 = the gentlest; past the last, the last)."""
    levels = hints(criterion_id, lang)
    return levels[min(max(level, 1), len(levels)) - 1] if levels else None


# -- the exercise's criteria -----------------------------------------------------------------------

LEVEL0, LEVEL1, LEVEL2 = TITLES[0], TITLES[1], TITLES[2]


def completion_key(name: str) -> str:
    """The key in :mod:`autograder.course.lesson_map` of the lesson's completion criterion for checkpoint ``name``."""
    return f"fin.{name}"


QUESTION_GRADES: dict[str, tuple[str, ...]] = {
    "nivel1.llamada_colgante": ("objetivo.1", "seccion.mitad_dificil"),
    "nivel2.causa_raiz": ("fin.causa",),
    **{
        QUESTIONS[reason_variable(name)].criterion: (*grades, completion_key(name))
        for name, grades in zip(
            EXERCISE_NAMES, ((), ("objetivo.3",), ("objetivo.3", "seccion.tres_maneras")), strict=True
        )
    },
    "nivel1.esta_en_lo_cierto": ("objetivo.3", "seccion.manejar"),
}
"""What each multiple-choice question grades (the questions themselves live in :mod:`autograder.course.questions`)."""


def _question(q: Question) -> Criterion:
    """A graded question's criterion (a practice question, whose key ships to learners, has none)."""
    assert q.criterion is not None, q.variable
    return Criterion(
        q.criterion,
        level=q.level,
        points=q.points,
        function=q.variable,
        title=q.title,
        hint=q.hint,
        observes=f"answer.{q.variable}",
        feedback=("question.",),
        lesson=q.lesson,
        grades=QUESTION_GRADES.get(q.criterion, ()),
    )


def _resume_path(
    criterion_id: str, title: dict[str, str], hint: Hints, observes: str, grades: tuple[str, ...]
) -> Criterion:
    return Criterion(
        criterion_id,
        level=0,
        points=1,
        function=START if criterion_id.endswith(("dangling_reconciled", "max_turns_across_lives")) else LOAD,
        title=title,
        hint=hint,
        observes=observes,
        feedback=("resume_path.",),
        lesson=LEVEL0,
        grades=("objetivo.2", *grades),
    )


def checkpoint_criterion(name: str) -> str:
    """The id of the criterion grading ``resume_action`` on the lesson's checkpoint ``name``."""
    return f"nivel1.{name}"


def _lesson_checkpoint(
    name: str, title: dict[str, str], hint: dict[str, tuple[str, ...]], grades: tuple[str, ...]
) -> Criterion:
    """nivel1.cpA/B/C: ``resume_action`` on one of the lesson's three checkpoints, exactly as printed."""
    return Criterion(
        checkpoint_criterion(name),
        level=1,
        points=1,
        function=ACTION,
        title={lang: t.format(name=name) for lang, t in title.items()},
        hint={lang: tuple(h.format(name=name) for h in hs) for lang, hs in hint.items()},
        observes=f"lesson.{name}",
        feedback=("level1.",),
        lesson=LEVEL1,
        grades=(*grades, completion_key(name)),
    )


_LESSON_CHECKPOINTS: tuple[tuple[dict[str, str], dict[str, tuple[str, ...]], tuple[str, ...]], ...] = (
    (
        {"es": "{name}: continuar", "en": "{name}: continue"},
        {
            "es": (
                "¿Hay una llamada colgante en {name}? Mira el campo que la lección usa para saberlo.",
                "Mira solo el campo pendingToolUse: si está vacío (null en el archivo), no hay llamada "
                "colgante ni nada que conciliar.",
            ),
            "en": (
                "Is there a dangling call in {name}? Look at the field the lesson uses to tell.",
                "Look only at the pendingToolUse field: if it is empty (null in the file) there is no dangling "
                "call and nothing to reconcile.",
            ),
        },
        ("objetivo.1",),
    ),
    (
        {"es": "{name}: volver a ejecutar", "en": "{name}: re-run"},
        {
            "es": (
                "¿Qué efecto secundario tiene la herramienta pendiente de {name}?",
                "read_file es de solo lectura: leer dos veces es igual que leer una.",
            ),
            "en": (
                "What side effect does {name}'s pending tool have?",
                "read_file is read-only: reading twice is the same as reading once.",
            ),
        },
        ("objetivo.3",),
    ),
    (
        {"es": "{name}: repliegue a is_error", "en": "{name}: is_error"},
        {
            "es": (
                "¿Puedes saber, mirando solo el punto de control, si send_email ya se ejecutó?",
                "send_email puede haberse ejecutado ya; sin registro de efectos no puedes saberlo.",
            ),
            "en": (
                "Looking only at the checkpoint, can you tell whether send_email already ran?",
                "send_email may already have run; with no effect ledger you cannot know.",
            ),
        },
        ("objetivo.3",),
    ),
)
"""The lesson's checkpoints in its order (:data:`EXERCISE_NAMES`): title, hints (``{name}``: the checkpoint's),
and what it grades besides its own completion criterion."""


# Hints escalate: the first points at the lesson's idea, the last names what is missing, and none
# writes the solution (tests/test_autograder_criteria.py and tests/test_course_text.py check it).
for _criterion in (
    _resume_path(
        "nivel0.version_refused",
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
    *(_lesson_checkpoint(name, *spec) for name, spec in zip(EXERCISE_NAMES, _LESSON_CHECKPOINTS, strict=True)),
    Criterion(
        "nivel1.hidden",
        level=1,
        points=2,
        function=ACTION,
        title={"es": "puntos de control nuevos", "en": "new checkpoints"},
        hint={
            "es": (
                "El corrector usa nombres de herramientas que el ejercicio no muestra: decide por la regla, "
                "no por los ejemplos.",
                "La lección nombra las herramientas de solo lectura en un conjunto, READ_ONLY_TOOLS; todo lo "
                "que no está en él es de alto impacto.",
                "Son {read_only_count} las de solo lectura: {read_only}.",
            ),
            "en": (
                "The grader uses tool names the exercise never shows: decide by the rule, not by the examples.",
                "The lesson names the read-only tools in a set, READ_ONLY_TOOLS; anything outside it is high-impact.",
                "There are {read_only_count} read-only tools: {read_only}.",
            ),
        },
        observes="actions.hidden",
        feedback=("hidden.",),
        lesson=LEVEL1,
        grades=("objetivo.1", "objetivo.3", *map(completion_key, EXERCISE_NAMES)),
    ),
    *(_question(q) for q in QUESTIONS.values() if q.level == 1 and not q.practice),
    Criterion(
        "nivel2.read_only_rerun",
        level=2,
        points=2,
        function=RECONCILE,
        title={"es": "solo lectura: se vuelve a ejecutar", "en": "read-only: re-run"},
        hint={
            "es": (
                "Leer dos veces es igual que leer una: ¿qué gana el modelo si se vuelve a ejecutar una "
                "herramienta de solo lectura?",
                "El resultado real sale de execute_tool, llamada una sola vez con lo que guarda pendingToolUse.",
                "Lo que devuelve execute_tool va tal cual como content del tool_result, sin is_error.",
            ),
            "en": (
                "Reading twice is the same as reading once: what does the model gain when a read-only tool is re-run?",
                "The real output comes from execute_tool, called once with what pendingToolUse holds.",
                "What execute_tool returns goes as it is into the tool_result's content, without is_error.",
            ),
        },
        observes="reconcile.read_only",
        feedback=("level2.", "effect.", "read_only."),
        lesson=LEVEL2,
        grades=("objetivo.3", "seccion.reconcile", "fin.correccion", "fin.dos_caminos"),
    ),
    Criterion(
        "nivel2.high_impact_not_rerun",
        level=2,
        points=2,
        function=RECONCILE,
        title={"es": "alto impacto: no se vuelve a ejecutar", "en": "high-impact: not re-run"},
        hint={
            "es": (
                "Una herramienta de alto impacto que quizá ya se ejecutó: ¿qué pasa si se ejecuta otra vez?",
                "En la rama de alto impacto no se ejecuta nada (ni execute_tool ni otra vía), pero la llamada "
                "igual recibe su tool_result.",
            ),
            "en": (
                "A high-impact tool that may already have run: what happens if it runs again?",
                "In the high-impact branch nothing runs (neither execute_tool nor any other way), but the call "
                "still gets its tool_result.",
            ),
        },
        observes="reconcile.high_impact",
        feedback=("level2.", "effect.", "high_impact."),
        lesson=LEVEL2,
        grades=("objetivo.3", "seccion.tres_maneras", "seccion.reconcile", "fin.correccion"),
    ),
    Criterion(
        "nivel2.is_error_fallback",
        level=2,
        points=2,
        function=RECONCILE,
        title={"es": "repliegue a is_error", "en": "is_error fallback"},
        hint={
            "es": (
                "Cuando no puedes saber si la herramienta tuvo efecto, la lección dice la verdad al modelo: "
                "relee la jugada tres.",
                "El tool_result de alto impacto se marca como error con el campo is_error (el booleano, no un texto).",
                "El content tiene que decirle al modelo que no se sabe (o no se puede confirmar) si la llamada "
                "se ejecutó; un texto que afirma que funcionó, o un «Error» a secas, no sirve.",
            ),
            "en": (
                "When you cannot know whether the tool took effect, the lesson tells the model the truth: "
                "re-read move three.",
                "The high-impact tool_result is marked as an error with the is_error field (the boolean, not a "
                "string).",
                "The content must tell the model that whether the call ran is unknown (or cannot be confirmed); "
                "a text claiming it worked, or a bare «Error», does not do.",
            ),
        },
        observes="reconcile.high_impact",
        feedback=("level2.", "effect.", "is_error."),
        lesson=LEVEL2,
        grades=("objetivo.3", "seccion.tres_maneras", "seccion.reconcile", "fin.correccion"),
    ),
    Criterion(
        "nivel2.tool_result_paired",
        level=2,
        points=2,
        function=RECONCILE,
        title={"es": "tool_result emparejado", "en": "paired tool_result"},
        hint={
            "es": (
                "El protocolo pide un tool_result por cada tool_use, en el siguiente mensaje del usuario.",
                "Los dos caminos terminan igual: un único mensaje nuevo del usuario al final de messages, con "
                "el tool_result cuyo tool_use_id es el id pendiente.",
                "Después, pendingToolUse queda vacío (null) y se devuelve el mismo punto de control; lo "
                "anterior (mensajes, turns, tokensUsed) no se toca.",
            ),
            "en": (
                "The protocol asks for one tool_result per tool_use, in the next user message.",
                "Both paths end the same way: a single new user message at the end of messages, holding the "
                "tool_result whose tool_use_id is the pending id.",
                "Then pendingToolUse is emptied (null) and the same checkpoint is returned; what was there "
                "(messages, turns, tokensUsed) is not touched.",
            ),
        },
        observes="reconcile.both",
        feedback=("level2.", "effect.", "paired."),
        lesson=LEVEL2,
        grades=("objetivo.3", "seccion.mitad_dificil", "fin.dos_caminos"),
    ),
    Criterion(
        "nivel2.no_double_email",
        level=2,
        points=3,
        function=RECONCILE,
        title={"es": "el incidente: un solo correo", "en": "the incident: one email"},
        hint={
            "es": (
                "Es el incidente de la lección: el proceso muere después de enviar el correo y antes del punto "
                "de guardado B.",
                "Al reanudar, send_email no se vuelve a ejecutar; el modelo recibe is_error y revisa por su "
                "cuenta; el agente tiene que llegar a su respuesta final.",
            ),
            "en": (
                "It is the lesson's incident: the process dies after the email is sent and before save point B.",
                "On resume send_email is not re-run; the model gets is_error and checks by itself; the agent "
                "must reach its final answer.",
            ),
        },
        observes="incident",
        feedback=("email.",),
        lesson=LEVEL2,
        grades=("objetivo.3", "fin.causa", "fin.correccion"),
    ),
    *(_question(q) for q in QUESTIONS.values() if q.level == 2 and not q.practice),
):
    register(_criterion)
