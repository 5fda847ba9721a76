"""The is_error text classifier: the labelled dev corpus, then focused cases per rule, each with variants.

Every text must get its label or None (left to a person), never the opposite verdict.
The held-out corpus (tests/data/unknown_state/heldout.jsonl) is only measured, by
bench/bench_unknown_state.py, and never tuned on; here only its shape is checked.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

import pytest

from autograder.judging.unknown_state import REASONS, Assessment, assess, clauses, mend, normalise
from lesson3.reconciliation import UNKNOWN_STATE_MESSAGE

DATA = Path(__file__).parent / "data" / "unknown_state"
LESSON_TEXT = (
    "Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada terminara, así que no hay "
    "manera de confirmar si tuvo efecto. Por favor, reevalúa la situación actual."
)


def corpus(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


DEV = corpus("dev.jsonl")


def passes(text: str) -> None:
    got = assess(text)
    assert got.verdict is True, (text, got)


def fails(text: str) -> None:
    got = assess(text)
    assert got.verdict is False, (text, got)


def left_to_a_person(text: str) -> None:
    got = assess(text)
    assert got.verdict is None, (text, got)


# --- the corpus --------------------------------------------------------------------------------


@pytest.mark.parametrize("row", DEV, ids=[f"{i}:{r['note']}" for i, r in enumerate(DEV)])
def test_every_dev_text_gets_its_label_or_is_left_to_a_person(row: dict[str, object]) -> None:
    got = assess(str(row["text"]))
    assert got.verdict in (row["label"], None), (row, got)


@pytest.mark.parametrize("name", ["dev.jsonl", "heldout.jsonl"])
def test_the_corpora_are_labelled_balanced_and_bilingual(name: str) -> None:
    rows = corpus(name)
    assert all(set(r) == {"text", "label", "lang", "note"} and isinstance(r["label"], bool) for r in rows)
    assert all(r["lang"] in ("es", "en", "mixed") for r in rows)
    passing = sum(1 for r in rows if r["label"])
    assert len(rows) >= 150 and 0.4 <= passing / len(rows) <= 0.6
    assert sum(r["lang"] == "es" for r in rows) >= 50 and sum(r["lang"] == "en" for r in rows) >= 30
    assert len({str(r["text"]) for r in rows}) == len(rows)


def test_the_learners_corpus_labels_every_text_by_meaning_with_a_reason() -> None:
    rows = corpus("heldout_learners.jsonl")
    assert all(set(r) == {"text", "label", "lang", "reason"} and str(r["reason"]).strip() for r in rows)
    labels = [r["label"] for r in rows]
    assert set(labels) == {"right", "wrong", "ambiguous"} and len(rows) >= 300
    assert len({str(r["text"]) for r in rows}) == len(rows)


def test_the_two_corpora_share_no_text_and_hold_over_300() -> None:
    dev = {str(r["text"]) for r in DEV}
    held = {str(r["text"]) for r in corpus("heldout.jsonl")}
    assert not dev & held and len(dev) + len(held) >= 300


def test_the_dev_corpus_is_mostly_decided() -> None:
    decided = sum(1 for r in DEV if assess(str(r["text"])).verdict is not None)
    assert decided / len(DEV) >= 0.95


def test_the_lessons_own_texts_pass() -> None:
    passes(LESSON_TEXT)
    passes(UNKNOWN_STATE_MESSAGE)


def test_every_reason_given_is_documented_and_matches_its_verdict() -> None:
    seen = {assess(str(r["text"])) for r in DEV} | {assess(t) for t in ("", "Probablemente se envió.", "Unknown.")}
    for got in seen:
        assert got.reason in REASONS
        assert REASONS[got.reason].startswith({True: "passes", False: "fails", None: "left to a person"}[got.verdict])
    assert len({got.reason for got in seen}) >= 10


def test_an_assessment_is_frozen_and_says_why() -> None:
    got = assess(LESSON_TEXT)
    assert isinstance(got, Assessment) and got.reason == "unknown_execution"
    with pytest.raises(AttributeError):
        got.verdict = False  # type: ignore[misc]


# --- negation scope ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "El estado de ejecución NO es desconocido: la herramienta terminó.",
        "No es desconocido.",
        "el estado no es incierto",
        "The execution state is not unknown.",
        "State: not unknown.",
        "No es que no sepamos si se ejecutó.",
        "It is not that we do not know whether it ran.",
        "No es cierto que no se sepa si se envió.",
    ],
)
def test_a_negated_unknown_says_the_state_is_known(text: str) -> None:
    fails(text)
    assert assess(text).reason in ("state_known", "claims_outcome")


@pytest.mark.parametrize(
    "text",
    [
        "No sabemos si se ejecutó.",
        "no se sabe si se ejecuto",
        "Nadie sabe si la llamada terminó.",
        "Nunca sabremos si se envió; revisa la bandeja.",
        "No tengo ni la menor idea de si se ejecutó.",
        "No está nada claro si se envió.",
        "No hay garantía de que no se haya ejecutado ya.",
        "La ejecución de esta herramienta no está garantizada.",
        "No hay forma de saber si tuvo efecto.",
        "Sin poder comprobar si se completó.",
        "We do not know if it ran.",
        "Nobody can tell whether it executed.",
        "There is no way to confirm the call went through.",
        "It is impossible to say whether the email was sent.",
    ],
)
def test_a_negator_before_a_knowledge_word_says_it_is_not_known(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "No se ejecutó la herramienta.",
        "La llamada no se completó.",
        "No se pudo enviar el correo.",
        "No llegó a ejecutarse nada.",
        "The call did not run.",
        "It never executed.",
        "Herramienta no encontrada.",
        "Tool not found.",
    ],
)
def test_a_negated_outcome_is_a_claim_not_an_unknown(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    [
        "No estado desconocido ni nada, simplemente se ejecutó",
        "Nada de estado desconocido: terminó bien.",
    ],
)
def test_negation_does_not_reach_past_its_clause_but_the_claim_still_fails(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    [
        "Tampoco hay nada incierto aquí.",
        "Nunca fue del todo desconocido para el sistema.",
    ],
)
def test_a_negator_the_rules_cannot_place_is_left_to_a_person(text: str) -> None:
    left_to_a_person(text)


# --- conditionals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Si ya se había ejecutado, listo: no la repitas",
        "Si ya se envió, no lo reenvíes.",
        "si se ejecuto, no la vuelvas a ejecutar",
        "En caso de que ya se haya enviado, no lo repitas.",
        "If it already ran, do not run it again.",
        "If the email was sent, don't send it again.",
    ],
)
def test_a_condition_on_the_call_having_run_says_it_is_not_known(text: str) -> None:
    passes(text)
    assert assess(text).reason == "conditional_on_execution"


@pytest.mark.parametrize(
    "text",
    [
        "Si el correo se envió correctamente, avisa al usuario. No sabemos si salió.",
        "If it completed successfully, tell the user; we cannot confirm whether it did.",
    ],
)
def test_a_success_word_inside_a_condition_is_no_claim(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Estado desconocido; si no se envió, reenvíalo después de comprobarlo.",
        "No sabemos si salió. Si hace falta, vuelve a enviarlo tras verificar la bandeja.",
        "Unknown execution state: if it did not go out, resend it after checking.",
        "Estado desconocido: comprueba la bandeja y luego reenvía si no está.",
    ],
)
def test_a_re_run_behind_a_condition_or_a_check_is_not_blind(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Estado desconocido, vuelve a enviarlo.",
        "No sabemos si se envió, así que reenvíalo.",
        "Unknown state. Retry the call.",
        "Execution state unknown, just run it again.",
        "Ante la duda, repite la llamada.",
        "No se sabe si salió: mándalo de nuevo por si acaso.",
    ],
)
def test_a_blind_re_run_fails_even_after_an_unknown(text: str) -> None:
    fails(text)
    assert assess(text).reason == "blind_rerun"


# --- what the uncertainty is about ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Herramienta desconocida.",
        "Error desconocido.",
        "Unknown tool: send_email",
        "Unknown error.",
        "Usuario desconocido.",
        "Unknown recipient",
        "No sé qué herramienta es esta.",
        "We don't know which tool you mean.",
        "No sabemos por qué falló.",
        "We do not know why it failed.",
        "No conocemos al destinatario.",
        "Comando desconocido en la herramienta.",
    ],
)
def test_an_unknown_about_something_else_is_not_the_execution_state(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    [
        "Unknown tool execution state",
        "unknown execution state",
        "Estado de ejecución desconocido",
        "El resultado de esta llamada es desconocido.",
        "Its outcome is unknown.",
        "Estado: desconocido",
        "Execution status: unknown",
        "Desconozco el estado de la llamada.",
        "Se desconoce el resultado.",
        "Ejecución: ¿sí o no? No lo sabemos.",
    ],
)
def test_an_unknown_about_the_execution_passes_whatever_the_phrase_shape(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "desconocido",
        "Unknown.",
        "Estado de la herramienta: desconocido.",
    ],
)
def test_an_unknown_about_nothing_identifiable_is_left_to_a_person(text: str) -> None:
    left_to_a_person(text)


# --- person, tense, mood ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Desconozco si se ejecutó.",
        "Desconocemos si se ejecutó.",
        "Se desconoce si se ejecutó.",
        "No sé si se ejecutó.",
        "No sabía si se había ejecutado.",
        "No tengo manera de saber si se ejecutó.",
        "No tenemos forma de confirmarlo: la llamada quedó a medias.",
        "La llamada pudo completarse antes de la caída.",
        "Pudo haberse enviado.",
        "Puede que se haya enviado.",
        "Podría haberse ejecutado.",
        "Quizá se ejecutó.",
        "It may or may not have run.",
        "It might have been sent already.",
        "I cannot tell if it ran.",
        "I have no idea whether it executed.",
    ],
)
def test_not_knowing_is_read_in_every_person_and_tense(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Se ejecutó.",
        "Se ha ejecutado.",
        "Fue enviado.",
        "Ya está enviado.",
        "La herramienta funcionó.",
        "Sabemos que se ejecutó.",
        "Sí sabemos que se ejecutó.",
        "It ran.",
        "It has been sent.",
        "We know it was sent.",
        "Estado de ejecución conocido.",
        "Known execution state.",
    ],
)
def test_an_asserted_outcome_fails_in_every_tense(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    [
        "Se envió correctamente, pero no se puede confirmar.",
        "Estado desconocido, aunque el correo se envió correctamente.",
        "Completed successfully; state unknown.",
        "The call definitely went through, do not worry. Maybe the user already saw it",
        "Se ejecutó bien, aunque no sabemos si el usuario lo leyó.",
    ],
)
def test_a_claim_beside_an_unknown_still_fails(text: str) -> None:
    fails(text)
    assert assess(text).reason == "claims_outcome"


@pytest.mark.parametrize(
    "text",
    [
        "Envío completado. Estado de ejecución desconocido.",
        "Ejecutada; no sabemos si tuvo efecto.",
        "Correo enviado, estado de ejecucion desconocido",
    ],
)
def test_an_unknown_beside_a_word_that_may_be_a_noun_or_a_claim_is_left_to_a_person(text: str) -> None:
    left_to_a_person(text)
    assert assess(text).reason in ("review_contradiction", "review_unrecognised")


@pytest.mark.parametrize(
    "text",
    [
        "Se envió. Estado de ejecución desconocido.",
        "Terminó bien; no sabemos si tuvo efecto.",
        "It ran; state unknown.",
    ],
)
def test_an_unknown_beside_a_plain_claim_fails(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    [
        "Estado de ejecución desconocido: el correo probablemente se envió.",
        "Unknown state, though it most likely went through.",
        "No podemos confirmarlo, pero lo más probable es que el pago ya se haya cobrado.",
    ],
)
def test_an_unknown_that_leans_one_way_is_left_to_a_person(text: str) -> None:
    left_to_a_person(text)


@pytest.mark.parametrize(
    "text",
    [
        "Probablemente se envió.",
        "Seguramente ya se ejecutó.",
        "It probably ran.",
        "It likely went through.",
        "Creo que el pago se cobró sin problemas.",
        "Diría que la herramienta terminó bien.",
        "Lo más seguro es que no haya llegado.",
        "Me parece que falló.",
        "I believe the payment went through.",
        "Apparently the tool never ran.",
    ],
)
def test_a_belief_about_the_outcome_that_never_says_it_is_unknown_fails(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    [
        "No sabemos si se envió, pero asume que sí.",
        "Estado desconocido; asume que no se envió.",
        "Unknown state; assume it was sent.",
    ],
)
def test_telling_the_model_to_assume_an_outcome_is_a_claim(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    [
        "No asumas que no se envió: estado desconocido.",
        "Do not assume it was sent; the state is unknown.",
        "No des por hecho que falló: no sabemos si se ejecutó.",
    ],
)
def test_telling_the_model_not_to_assume_an_outcome_is_no_claim(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "¿Se envió? No lo sabemos.",
        "Did it run? We do not know.",
        "¿se ejecutó o no? ni idea",
    ],
)
def test_a_question_asks_and_asserts_nothing(text: str) -> None:
    passes(text)


@pytest.mark.parametrize("text", ["¿Se ejecutó?", "Did it run?", "Resultado: ??? (el proceso murió)"])
def test_a_question_alone_is_left_to_a_person(text: str) -> None:
    left_to_a_person(text)


@pytest.mark.parametrize(
    "text",
    [
        "Estado de ejecución desconocido para send_email({'to': 'ana@example.com', 'subject': 'Informe enviado'})",
        'Unknown execution state for send_email {"subject": "Report sent", "status": "done"}',
        "No sabemos si salió: revisa la bandeja de enviados.",
        "We cannot tell whether it ran; look in the sent folder.",
        "Fallo en la reanudación: estado de ejecución desconocido.",
        "Error durante la reanudación: no se sabe si se ejecutó.",
    ],
)
def test_data_and_names_are_not_claims(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Estado desconocido: reenvíalo solo si no está en enviados.",
        "Unknown state: only retry if you confirm it was not sent.",
        "No sabemos si salió; vuelve a enviarlo a menos que ya esté en la bandeja.",
        "Estado desconocido. No lo reenvíes sin mirar.",
        "Unknown state. Do not send it again before checking.",
        "No sabemos si se envió: no hace falta repetirla sin comprobar.",
    ],
)
def test_a_re_run_under_a_condition_or_a_negation_after_or_before_is_not_blind(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "No sabemos si se envió; asume que no y reenvíalo.",
        "Estado desconocido: mándalo de nuevo, por si acaso.",
        "Unknown state: no idea, so send it again.",
    ],
)
def test_a_negator_or_por_si_that_does_not_govern_the_re_run_leaves_it_blind(text: str) -> None:
    fails(text)


# --- spelling, accents, languages -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Estado de ejecución desconocido.",
        "estado de ejecucion desconocido",
        "ESTADO DE EJECUCIÓN DESCONOCIDO",
        "Estado de ejecuciòn desconocído",
        "estado de ejecucion desconocdo",
        "Estado de ejecusion desconosido",
        "unkown execution state",
        "exectuion state unknwon",
        "Execution state: desconocido",
        "Estado de ejecución: unknown",
        "no se si ran",
    ],
)
def test_accents_case_typos_and_mixed_languages_do_not_change_the_reading(text: str) -> None:
    passes(text)


def test_normalising_drops_accents_case_contractions_and_extra_spaces() -> None:
    assert normalise("  Ejecución   DESCONOCIDA\n") == "ejecucion desconocida"
    assert normalise("We don't know, it can't be told") == "we do not know, it can not be told"
    assert normalise("Sí, si") == "siyes, si"


def test_mending_fixes_only_near_misses_of_the_meaning_words() -> None:
    assert [mend(w) for w in ("unkown", "desconocdo", "ejecusion", "exectuion")] == [
        "unknown",
        "desconocido",
        "ejecucion",
        "execution",
    ]
    assert [mend(w) for w in ("conocido", "known", "estado", "usuario", "herramienta")] == [
        "conocido",
        "known",
        "estado",
        "usuario",
        "herramienta",
    ]


def test_clauses_break_at_punctuation_and_contrastive_conjunctions() -> None:
    got = [c.text for c in clauses(normalise("Se envió, pero no se sabe: quizá. Otra"))]
    assert got == ["se envio", "no se sabe", "quiza", "otra"]


# --- empty, terse, off-topic ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "   ", "...", "?", "Error", "ok", "Hecho.", "Falló.", "Reevalúa.", "Please re-evaluate.", "Timeout"],
)
def test_texts_that_say_nothing_about_the_state_fail(text: str) -> None:
    fails(text)


def test_the_judge_is_fast_enough_to_run_on_every_submission() -> None:
    texts = [str(r["text"]) for r in DEV]
    start = time.perf_counter()
    for text in texts:
        assess(text)
    assert (time.perf_counter() - start) / len(texts) < 0.01


def test_the_bench_prints_its_figures_for_both_corpora(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = Path(__file__).parent.parent / "bench" / "bench_unknown_state.py"
    spec = importlib.util.spec_from_file_location("bench_unknown_state", path)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, bench)  # its dataclass looks its module up there
    spec.loader.exec_module(bench)
    bench.main(["--quick"])
    out = capsys.readouterr().out
    for name in ("heldout_learners.jsonl", "heldout.jsonl", "dev.jsonl"):
        assert f"{name}: " in out
    assert out.count("precisión") == 3 and out.count("pendientes de revisión") == 3
    assert out.count("ambiguos: ") == 1
    assert "veredictos equivocados" in out and "tiempo por texto" in out


# --- issue 28: constants, code and structures are read as words ----------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "STATE_OF_EXECUTION_UNKNOWN",
        "ErrEstadoDesconocido: send_email",
        "ResultadoLlamada.DESCONOCIDO",
        "execution_outcome=unknown",
        "tool send_email => UNKNOWN",
        "{'estado_de_la_llamada': 'desconocido'}",
        "ToolError(reason='execution_state_unknown', resend=False)",
    ],
)
def test_a_constant_or_structure_that_says_the_state_is_unknown_passes(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    ["EMAIL_WAS_SENT", "SendEmail.DELIVERED", "{'estado': 'enviado'}", "ToolError(reason='unknown_tool')"],
)
def test_a_constant_or_structure_that_claims_an_outcome_or_names_another_unknown_fails(text: str) -> None:
    fails(text)


def test_data_given_to_the_call_is_still_not_read_as_said() -> None:
    passes("Estado desconocido para send_email {'asunto': 'Pago enviado correctamente'}")


# --- issue 28: an outcome said of the crash, the process or the checkpoint is not said of the call ------


@pytest.mark.parametrize(
    "text",
    [
        "Se produjo un corte de luz en la máquina; no se sabe si la herramienta llegó a ejecutarse.",
        "Sucedió una caída del contenedor. Desconocemos si el mensaje salió.",
        "El worker recibió SIGTERM a mitad del envío: estado de ejecución desconocido.",
        "El checkpoint se escribió correctamente; el resultado de la llamada es desconocido.",
        "Falló la máquina, así que no hay manera de saber si se completó el pago.",
        "The container crashed and was restarted successfully; whether the payment went through is unknown.",
        "The harness recovered successfully. Outcome of the tool call: unknown.",
        "A crash happened mid-call, so we cannot tell if the message went out.",
    ],
)
def test_an_outcome_said_of_the_crash_beside_an_unknown_passes(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "El sistema envió el correo justo antes de caerse; estado desconocido.",
        "Antes de la caída del proceso se envió. Estado desconocido.",
        "The process crashed after the payment went through; unknown state.",
        "El punto de control se guardó bien y la llamada se completó; estado desconocido.",
    ],
)
def test_an_outcome_said_of_the_call_beside_a_crash_still_fails(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    ["No sabemos cuánto duró la caída del proceso.", "We do not know what time the crash happened."],
)
def test_not_knowing_something_about_the_crash_is_not_the_calls_state(text: str) -> None:
    assert assess(text).verdict is not True


# --- issue 28: negations that leave the outcome open, and outcome claims the old words missed --------


@pytest.mark.parametrize(
    "text",
    [
        "No descartamos que el pago ya se haya cobrado.",
        "No es posible descartar que la herramienta se ejecutara.",
        "It can't be ruled out that the payment was charged.",
        "We can't exclude that the message went out.",
        "Ni la entrega ni el error de la llamada se han podido confirmar.",
        "Neither success nor failure of the payment can be verified.",
        "We can confirm neither that it ran nor that it did not.",
        "No puedo afirmar que se haya ejecutado ni que no.",
        "No cacho si se ejecutó la herramienta.",
        "No tengo ni puta idea de si salió el correo.",
        "No confirmation of the payment either way.",
        "La herramienta se ejecutó o no, no podemos saberlo.",
    ],
)
def test_a_negation_that_leaves_the_outcome_open_passes(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "La entrega está confirmada.",
        "El servidor de correo confirmó el envío.",
        "Payment confirmed.",
        "Estado desconocido, aunque la entrega quedó verificada.",
        "El servidor devolvió 250 OK.",
        "HTTP 202 Accepted",
        "Unknown state, but SMTP said 250 2.0.0 queued as 9ABC.",
        "Estado: desconocido (status 200).",
        "Mensaje aceptado por el servidor.",
    ],
)
def test_an_outcome_claimed_by_a_confirmation_or_a_protocol_code_fails(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    ["Descartamos que se haya enviado.", "We can rule out that it ran."],
)
def test_ruling_out_an_outcome_is_not_leaving_it_open(text: str) -> None:
    assert assess(text).verdict is not True


# --- issue 28: orders to send again, said without «otra vez» -----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "No sabemos si se cobró. Ejecuta el pago ahora.",
        "Resultado desconocido; mándalo ya.",
        "Estado de ejecución desconocido. Por favor, envíe el mensaje.",
        "Unknown outcome. Send the email now.",
        "Unknown execution state; just run it.",
        "No se sabe si salió: volvelo a mandar.",
        "Estado desconocido. Lo volveremos a intentar en un minuto.",
        "Outcome unknown, so it was requeued.",
        "We couldn't tell if it went out, so we will send it again.",
    ],
)
def test_an_order_or_announcement_to_send_again_fails_even_after_an_unknown(text: str) -> None:
    fails(text)
    assert assess(text).reason == "blind_rerun"


@pytest.mark.parametrize(
    "text",
    [
        "Estado desconocido: volver a enviarlo sin comprobar podría cobrar dos veces.",
        "No sabemos si el pago se hizo; reintentarlo puede duplicar el cargo.",
        "Unknown state. Resending blindly might double the charge; reassess.",
        "Unknown outcome: retrying would risk a second email.",
        "Estado desconocido. Envía el correo solo si compruebas que no llegó.",
        "Unknown state: send it only if the outbox shows nothing.",
    ],
)
def test_a_re_run_named_in_a_warning_or_under_a_condition_is_no_order(text: str) -> None:
    passes(text)


# --- issue 28: what the unknown is about, read from the clause -----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "El contenedor murió y no sé qué pasó con el pago.",
        "No tenemos idea de si el mensaje llegó a mandarse.",
        "The worker was restarted successfully after the call; what happened to the payment is unknown.",
        "The container failed during the call, so its outcome is unknown.",
        "Unknown. Do not resend without checking the sent folder.",
    ],
)
def test_an_unknown_about_the_call_passes_beside_what_the_crash_did(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    ["No sabemos qué pasó con el proceso.", "No se sabe a qué hora ocurrió la caída del contenedor."],
)
def test_an_unknown_about_the_crash_alone_does_not_pass(text: str) -> None:
    assert assess(text).verdict is not True


@pytest.mark.parametrize(
    "text",
    [
        "There is no way of telling whether the payment was charged.",
        "Whether the tool ran cannot be verified after the restart.",
        "No se puede excluir que el cargo ya se haya hecho.",
    ],
)
def test_not_knowing_said_with_a_gerund_a_subject_clause_or_excluir_passes(text: str) -> None:
    passes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Resultado desconocido. Lanza send_email de nuevo.",
        "No sabemos si se cobró; procede a ejecutar el pago.",
        "Unknown outcome, so we will run the tool.",
        "Estado desconocido: tenemos que mandar el correo.",
    ],
)
def test_an_order_to_proceed_with_the_call_fails(text: str) -> None:
    fails(text)


@pytest.mark.parametrize(
    "text",
    [
        "Estado desconocido; el pago ya ha sido procesado.",
        "Estado desconocido, pero el cliente ya tiene su factura.",
        "Unknown state; the message is already in their mailbox.",
    ],
)
def test_a_passive_or_an_arrival_beside_an_unknown_claims_the_outcome(text: str) -> None:
    fails(text)


@pytest.mark.parametrize("text", ["Sabe Dios si el pago se cobró.", "Vaya uno a saber si la llamada terminó."])
def test_idioms_of_not_knowing_pass(text: str) -> None:
    passes(text)
