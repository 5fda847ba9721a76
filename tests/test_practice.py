"""Notebook practice helpers: multiple-choice feedback, hints, and running learner code gracefully."""

from __future__ import annotations

import dataclasses

import pytest

from autograder.course.questions import QUESTIONS, normalise_answer
from lesson3.practice import (
    NOT_WRITTEN,
    answer_letter,
    attempt,
    feedback,
    hint,
    hints,
    question_markdown,
    question_widget,
    run_checks,
    show_feedback,
)

ROOT = QUESTIONS["respuesta_causa_raiz"]


@pytest.mark.parametrize("raw", ["b", " B ", "b)", "(b)", "b.", "bb", "", "1", None, 2, "(", "a b"])
def test_answers_are_read_exactly_as_the_grader_reads_them(raw: object) -> None:
    assert answer_letter(raw) == normalise_answer(raw)


def test_feedback_correct_wrong_missing_and_invalid() -> None:
    assert feedback(ROOT, "(C)").startswith(f"✓ Correcto (c). {ROOT.explanation['es']}")
    wrong = feedback(ROOT, "a", retry_hint="Mira la línea de executeTool.")
    assert wrong == "✗ La a no es. Mira la línea de executeTool. Vuelve a intentarlo."
    assert "Todavía no respondiste" in feedback(ROOT, None)
    assert "respuesta_causa_raiz" in feedback(ROOT, None)
    assert "no es una de las opciones" in feedback(ROOT, "z")
    assert "no es una de las opciones" in feedback(ROOT, 3)


def test_markdown_lists_every_option_with_its_letter() -> None:
    md = question_markdown(ROOT)
    assert md.startswith(f"**{ROOT.prompt['es']}**")
    for letter, text in ROOT.options.items():
        assert f"- **{letter})** {text['es']}" in md


def test_question_widget_gives_feedback_on_click() -> None:
    box = question_widget(ROOT, retry_hint="Otra vez.")
    row, out = box.children
    _label, choices, button = row.children
    assert repr(box).startswith("Pregunta interactiva (respuesta_causa_raiz)")
    assert list(choices.options) == list(ROOT.options)  # letters only: the text is in the Markdown above
    assert list(choices.tooltips) == [text["es"] for text in ROOT.options.values()]
    button.click()
    assert "Todavía no elegiste: haz clic en una letra" in out.value  # a click fixes it, not a cell edit
    assert "respuesta_causa_raiz" not in out.value
    choices.value = "b"
    button.click()
    assert "✗ La b no es. Otra vez." in out.value and "#c62828" in out.value
    choices.value = ROOT.answer
    button.click()
    assert "✓ Correcto" in out.value and "#2e7d32" in out.value


def test_a_click_in_the_widget_replaces_what_the_answer_cell_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer cell (show_feedback) said «Todavía no respondiste»; the learner answers with the widget instead:
    the cell's output is replaced (same display id), so it never contradicts the click."""
    import IPython.display

    shown: list[tuple[str, str, bool]] = []

    def publish(data: dict[str, str], *, raw: bool, display_id: str, update: bool = False) -> None:
        shown.append((data["text/plain"], display_id, update))

    monkeypatch.setattr(IPython.display, "display", lambda data, **kw: publish(data, **kw))
    monkeypatch.setattr(IPython.display, "update_display", lambda data, **kw: publish(data, update=True, **kw))
    show_feedback(ROOT, None)
    (said, cell_id, update) = shown[-1]
    assert "Todavía no respondiste" in said and "widget de arriba" in said and not update
    box = question_widget(ROOT)
    (_label, choices, button), _out = box.children[0].children, box.children[1]
    button.click()  # nothing picked: the cell keeps its text
    assert len(shown) == 1
    choices.value = ROOT.answer
    button.click()
    (said, display_id, update) = shown[-1]
    assert update and display_id == cell_id and "✓ Correcto" in said and "Todavía" not in said
    assert "Todavía no respondiste" in feedback(ROOT, None) and "widget" not in feedback(ROOT, None)


@pytest.mark.parametrize("picked", ["a", "B", "(c)", "d"])
def test_without_a_key_the_widget_and_feedback_say_received_neither_right_nor_wrong(picked: str) -> None:
    """The learner's edition (autograder release) ships graded questions with ``answer=None``."""
    keyless = dataclasses.replace(ROOT, answer=None, explanation={})
    letter = answer_letter(picked)
    assert feedback(keyless, picked) == f"Respuesta recibida ({letter}): se califica al entregar."
    assert "Todavía no respondiste" in feedback(keyless, None) and "no es una" in feedback(keyless, "z")
    box = question_widget(keyless)
    (_label, choices, button), out = box.children[0].children, box.children[1]
    choices.value = letter
    button.click()
    assert "Respuesta recibida" in out.value and "#37474f" in out.value
    assert "✓" not in out.value and "✗" not in out.value
    choices.value = None
    button.click()
    assert "Todavía no elegiste" in out.value and "#c62828" in out.value


def test_hints_are_closed_until_opened_and_escape_html() -> None:
    items = ['Mira `cp["pendingToolUse"]`.', "Nada de <script>."]
    box = hints(items)
    assert box.selected_index is None
    assert [box.get_title(i) for i in range(2)] == ["Pista 1", "Pista 2"]
    assert "<code>cp[&quot;pendingToolUse&quot;]</code>" in box.children[0].value
    assert "&lt;script&gt;" in box.children[1].value
    assert repr(box) == "2 pistas (ábrelas una por una en JupyterLab, o usa hint(n))"
    assert hint(items, 2) == "Pista 2: Nada de <script>."
    assert hint(items, 3) == "No hay pista 3: hay 2 (de la 1 a la 2)."


def test_attempt_never_raises() -> None:
    def todo() -> None:
        raise NotImplementedError

    def broken() -> None:
        raise KeyError("pendingToolUse")

    assert attempt(todo) == NOT_WRITTEN
    assert attempt(broken) == "falló con KeyError: 'pendingToolUse'"
    assert attempt(lambda: "rerun") == "'rerun'"
    assert attempt(lambda: "a\nb", show=str) == "a\nb"


def test_run_checks_reports_each_check_and_a_total() -> None:
    def todo() -> bool:
        raise NotImplementedError

    def fails() -> bool:
        raise AssertionError("turns volvió a cero")

    def crashes() -> bool:
        raise ValueError("mal")

    out = run_checks([("pasa", lambda: True), ("falso", lambda: False), ("sin escribir", todo),
                      ("motivo", fails), ("explota", crashes)])  # fmt: skip
    assert out.splitlines() == [
        "✓ pasa",
        "✗ falso",
        f"… sin escribir: {NOT_WRITTEN}",
        "✗ motivo: turns volvió a cero",
        "✗ explota: falló con ValueError: mal",
        "1 de 5 comprobaciones pasan.",
    ]
