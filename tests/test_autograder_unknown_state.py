"""The is_error content classifier: hand-labelled phrasings, both verdicts, Spanish and English."""

from __future__ import annotations

import pytest

from autograder.judging.unknown_state import normalise, says_state_unknown
from lesson3.reconciliation import UNKNOWN_STATE_MESSAGE

LESSON_TEXT = (
    "Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada terminara, así que no hay "
    "manera de confirmar si tuvo efecto. Por favor, reevalúa la situación actual."
)

ACCEPT = [
    LESSON_TEXT,
    UNKNOWN_STATE_MESSAGE,
    "estado de ejecución desconocido, por favor reevalúa",
    "ESTADO DE EJECUCION DESCONOCIDO",
    "No se pudo confirmar si se envió.",
    "no se pudo confirmar si se envió correctamente",
    "No sé si el correo salió: revisa la bandeja antes de reenviarlo.",
    "No se sabe si la herramienta llegó a ejecutarse.",
    "No hay forma de saber si send_email tuvo efecto antes de la caída.",
    "Quizá ya se ejecutó; verifica antes de repetirla.",
    "Tal vez se envió, tal vez no.",
    "Puede haberse ejecutado o no: el proceso murió en medio.",
    "El resultado es incierto porque el proceso se cayó.",
    "Imposible confirmar el resultado de la llamada.",
    "Sin poder verificar si la llamada se completó.",
    "unknown execution state, please re-evaluate",
    "Execution state unknown: the process crashed before the result was recorded.",
    "The email may or may not have been sent.",
    "It is unclear whether the tool ran.",
    "We cannot confirm whether send_email completed successfully.",
    "Could not verify if the call took effect; check before retrying.",
    "The tool might have already run. Please re-check the outbox.",
    "Unable to determine whether the message was delivered.",
    "Possibly executed before the crash; the state is not known.",
    "no es posible saber si se completó con éxito",
]

REJECT = [
    "x",
    "",
    "Error",
    "error",
    "Falló.",
    "Por favor, reevalúa la situación.",
    "Enviado correctamente",
    "OK: enviado correctamente.",
    "El correo se envió con éxito.",
    "Se envió correctamente, pero no se puede confirmar.",
    "Estado desconocido, aunque el correo se envió correctamente.",
    "Error desconocido",
    "Unknown error",
    "Herramienta desconocida: send_email",
    "No se pudo ejecutar send_email.",
    "No se envió el correo.",
    "El proceso se cayó.",
    "The tool failed.",
    "Failed to send the email.",
    "Email sent successfully.",
    "Done.",
    "Completed successfully; state unknown.",
    "The tool returned an error, please retry.",
    "Tool execution error: timeout",
    "ok",
]


@pytest.mark.parametrize("content", ACCEPT)
def test_saying_the_state_is_unknown_is_accepted(content):
    assert says_state_unknown(content), content


@pytest.mark.parametrize("content", REJECT)
def test_silence_failures_and_claims_of_success_are_rejected(content):
    assert not says_state_unknown(content), content


def test_the_table_is_big_and_balanced():
    assert len(ACCEPT) >= 15 and len(REJECT) >= 15 and len(ACCEPT) + len(REJECT) >= 30
    spanish = [t for t in ACCEPT + REJECT if any(w in normalise(t) for w in ("se ", "el ", "estado", "no "))]
    assert len(spanish) >= 10 and len(ACCEPT + REJECT) - len(spanish) >= 10


def test_normalising_drops_accents_case_and_extra_spaces():
    assert normalise("  Ejecución   DESCONOCIDA\n") == "ejecucion desconocida"
