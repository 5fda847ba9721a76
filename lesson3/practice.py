"""Práctica en el cuaderno: preguntas de opción múltiple con retroalimentación, pistas a pedido y pruebas.

The widgets are for clicking; every widget has a plain-text twin (``feedback``,
``hint``, ``attempt``) whose output is deterministic, so the committed notebooks
can show it and nbval can compare it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import ipywidgets


class MultipleChoice(Protocol):
    """A multiple-choice question as the grader defines it (``autograder.questions.Question``).

    ``prompt``, each option and ``explanation`` are either a string or a mapping
    language -> string.
    """

    @property
    def variable(self) -> str: ...
    @property
    def prompt(self) -> Mapping[str, str]: ...
    @property
    def options(self) -> Mapping[str, Mapping[str, str]]: ...
    @property
    def answer(self) -> str | None: ...
    @property
    def explanation(self) -> Mapping[str, str]: ...


def _tr(value: str | Mapping[str, str], lang: str) -> str:
    return value if isinstance(value, str) else value.get(lang) or next(iter(value.values()))


def answer_letter(value: object) -> str | None:
    """``"b"``, ``" B "``, ``"b)"`` y ``"(b)"`` son la misma respuesta; cualquier otra cosa, ``None``.

    Same reading as the grader's, so the notebook never says "correct" to an answer the grader refuses.
    """
    if not isinstance(value, str):
        return None
    letter = value.strip().strip("().").strip().lower()
    return letter if len(letter) == 1 and letter.isalpha() else None


_NO_CLICK = object()
"""The widget's "nothing selected": unlike a missing variable, the fix is a click, not a cell edit."""


def feedback(
    question: MultipleChoice, answer: object, *, retry_hint: str = "", lang: str = "es", widget: bool = False
) -> str:
    """La retroalimentación para ``answer`` (una letra), en texto; ``widget``: la pregunta también se responde
    con un clic en su widget (:func:`question_widget`), y el texto lo dice."""
    letters = ", ".join(question.options)
    if answer is None:
        click = "elige una letra en el widget de arriba y haz clic en «Comprobar», o " if widget else ""
        return (
            f"Todavía no respondiste: {click}escribe la letra de tu opción en «{question.variable}» "
            f"(una de {letters}) y vuelve a ejecutar la celda."
        )
    if answer is _NO_CLICK:
        return f"Todavía no elegiste: haz clic en una letra ({letters}) y después en «Comprobar»."
    letter = answer_letter(answer)
    if letter is None or letter not in question.options:
        return f"{answer!r} no es una de las opciones: «{question.variable}» tiene que ser una letra ({letters})."
    if question.answer is None:  # while grading, the learner's process never has the answers
        return f"Respuesta recibida ({letter}): se califica al entregar."
    if letter == question.answer:
        return f"✓ Correcto ({letter}). {_tr(question.explanation, lang)}".rstrip()
    return f"✗ La {letter} no es. {retry_hint}".rstrip() + " Vuelve a intentarlo."


def question_markdown(question: MultipleChoice, lang: str = "es") -> str:
    """El enunciado y las opciones en Markdown (se ve también sin ejecutar el cuaderno)."""
    lines = [f"**{_tr(question.prompt, lang)}**", ""]
    lines += [f"- **{letter})** {_tr(text, lang)}" for letter, text in question.options.items()]
    return "\n".join(lines)


def inline_code(text: str) -> str:
    """Escapa HTML y convierte `código` en <code>: lo único que usan las preguntas, las pistas y check()."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def _answer_display_id(question: MultipleChoice) -> str:
    return f"lesson3-answer-{question.variable}"


def show_feedback(question: MultipleChoice, answer: object, *, retry_hint: str = "", lang: str = "es") -> None:
    """The answer cell's feedback (:func:`feedback`, for a question that also has a widget), shown under a display
    id: a click in the question's widget replaces it, so the cell never says «Todavía no respondiste» to a learner
    who answered with the widget."""
    from IPython.display import display

    said = feedback(question, answer, retry_hint=retry_hint, lang=lang, widget=True)
    display({"text/plain": said}, raw=True, display_id=_answer_display_id(question))


def question_widget(question: MultipleChoice, *, retry_hint: str = "", lang: str = "es") -> ipywidgets.VBox:
    """Responder con un clic: una letra, «Comprobar» y la retroalimentación, aquí y en la celda de la respuesta
    (:func:`show_feedback`).

    The options' text is not repeated here: the cell shows it as Markdown
    (``question_markdown``), where long options wrap; widget labels do not.
    """
    import ipywidgets as w
    from IPython.display import update_display

    class QuestionBox(w.VBox):  # type: ignore[misc]
        def __repr__(self) -> str:
            return f"Pregunta interactiva ({question.variable}): ejecuta la celda en JupyterLab para responderla"

    tooltips = [_tr(text, lang) for text in question.options.values()]
    choices = w.ToggleButtons(options=list(question.options), value=None, tooltips=tooltips)
    choices.style.button_width = "44px"
    button = w.Button(description="Comprobar", button_style="primary")
    # No fixed width: 100% plus the widget's own margin was wider than the output area (a stray scrollbar).
    out = w.HTML()

    def on_click(_: object) -> None:
        picked = choices.value if choices.value is not None else _NO_CLICK
        text = feedback(question, picked, retry_hint=retry_hint, lang=lang)
        # No key (the learner's edition, or while grading): a received answer is neither right nor wrong.
        received = question.answer is None and picked is not _NO_CLICK and answer_letter(picked) in question.options
        color = "#37474f" if received else "#2e7d32" if text.startswith("✓") else "#c62828"
        out.value = f'<p style="color:{color}; white-space:normal">{inline_code(text)}</p>'
        if picked is not _NO_CLICK:
            said = f"Con un clic en el widget de arriba: {text}"
            update_display({"text/plain": said}, raw=True, display_id=_answer_display_id(question))

    button.on_click(on_click)
    row = w.HBox([w.HTML(value="<b>Tu respuesta:</b>"), choices, button], layout=w.Layout(flex_flow="row wrap"))
    return QuestionBox([row, out])


def hints(items: Sequence[str], title: str = "Pista") -> ipywidgets.Accordion:
    """Pistas a pedido: un acordeón cerrado; cada pista se abre por separado."""
    import ipywidgets as w

    class Hints(w.Accordion):  # type: ignore[misc]
        def __repr__(self) -> str:
            return f"{len(items)} pistas (ábrelas una por una en JupyterLab, o usa hint(n))"

    children = [w.HTML(value=f"<p>{inline_code(text)}</p>") for text in items]
    return Hints(children=children, titles=[f"{title} {n}" for n in range(1, len(items) + 1)], selected_index=None)


def hint(items: Sequence[str], n: int) -> str:
    """La pista número ``n`` (desde 1) en texto, para quien prefiere no usar el acordeón."""
    if not 1 <= n <= len(items):
        return f"No hay pista {n}: hay {len(items)} (de la 1 a la {len(items)})."
    return f"Pista {n}: {items[n - 1]}"


NOT_WRITTEN = "todavía sin escribir (la celda tiene «# TU CÓDIGO AQUÍ»)"


def attempt(fn: Callable[..., Any], *args: Any, show: Callable[[Any], str] = repr, **kwargs: Any) -> str:
    """Llama a una función del alumno y describe el resultado sin cortar el cuaderno si falla.

    ``show`` turns the result into text (``repr`` by default; ``str`` for text results).
    """
    try:
        return show(fn(*args, **kwargs))
    except NotImplementedError:
        return NOT_WRITTEN
    except Exception as e:  # noqa: BLE001 - the learner sees what went wrong and the notebook keeps going
        return f"falló con {type(e).__name__}: {e}"


def run_checks(checks: Sequence[tuple[str, Callable[[], object]]]) -> str:
    """Comprobaciones locales, una por línea: ✓, ✗ (con el motivo) o «sin escribir».

    Each check returns something truthy when it passes; an ``AssertionError``'s
    message says why it failed.
    """
    lines = []
    for description, check in checks:
        try:
            ok = check()
        except NotImplementedError:
            lines.append(f"… {description}: {NOT_WRITTEN}")
        except AssertionError as e:
            lines.append(f"✗ {description}: {e}" if str(e) else f"✗ {description}")
        except Exception as e:  # noqa: BLE001 - reported, the other checks still run
            lines.append(f"✗ {description}: falló con {type(e).__name__}: {e}")
        else:
            lines.append(f"✓ {description}" if ok else f"✗ {description}")
    passed = sum(line.startswith("✓") for line in lines)
    lines.append(f"{passed} de {len(checks)} comprobaciones pasan.")
    return "\n".join(lines)


# -- the exercises' hints ----------------------------------------------------------------------
# Each list escalates, from where to look to what the result must contain, and stops short of
# the code: a hint says what and why in words; the learner writes the how.

LEVEL1_HINTS: tuple[str, ...] = (
    "Empieza por el campo `pendingToolUse` del punto de control. Si está vacío, ¿en qué lugar del bucle pudo "
    "caerse el proceso? Mira el diagrama del cuaderno 1: fuera de la ventana roja no queda nada colgando.",
    "Si hay una llamada pendiente, para decidir te alcanza con una sola cosa: el nombre de la herramienta que "
    "guarda `pendingToolUse`.",
    "Las de solo lectura son las cuatro que nombra la lección: `read_file`, `grep`, `list_dir` y `web_search`. "
    "Cualquier otra, también una que no conozcas, trátala como de alto impacto: suponer que es inofensiva es el "
    "error caro.",
)

LEVEL2_HINTS: tuple[str, ...] = (
    "Vuelve a leer el reconcile de producción: ¿en qué línea decide si es seguro repetir la herramienta? "
    "En ninguna, y esa es la causa raíz.",
    "Es el mismo razonamiento que `resume_action`: el nombre de la herramienta pendiente decide el camino. "
    "El reconcile en JavaScript de la lección (cuaderno 3) ya tiene los dos caminos: tradúcelo.",
    "En el camino de alto impacto no se ejecuta nada. El `tool_result` se marca como error (con el booleano, "
    "no con un texto) y su contenido le dice al modelo la verdad: que no se sabe si la llamada tuvo efecto, "
    "y que reevalúe la situación.",
    "Al terminar, los dos caminos dejan el punto de control igual de completo: un mensaje nuevo del usuario al "
    "final de `messages`, con un único `tool_result` que responde al `id` de la llamada pendiente; "
    "`pendingToolUse` vacío otra vez; y nada más cambiado: ni los mensajes anteriores, ni `turns`, ni "
    "`tokensUsed`.",
)
