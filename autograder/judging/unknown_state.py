"""Does the tool_result's text tell the model that the execution state is unknown?

The lesson's fallback for a high-impact call is a ``tool_result`` with ``is_error:
true`` whose content "le devuelve al modelo el juicio de «estado de ejecución
desconocido»". :func:`says_state_unknown` decides whether a learner's content does
that, in Spanish or English, in the learner's own words.

How it reads a text:

1. Normalise: lower case, accents removed (``ejecución`` = ``ejecucion``), spaces
   collapsed. Phrases that use "unknown" for something else (``error desconocido``,
   ``unknown tool``) are blanked first: an unknown *error* claims a failure.
2. Require an *unknown* notion (:data:`UNKNOWN`): "desconocido", "no se sabe si",
   "no se puede confirmar/verificar/saber", "quizá ya se ejecutó", "unknown",
   "cannot confirm", "may or may not have run", ... A bare "Error", "Falló" or
   "Por favor, reevalúa" says nothing about the state and is rejected.
3. Reject a *success claim* (:data:`SUCCESS`: "correctamente", "con éxito",
   "successfully", "OK", ...) unless the clause it sits in is hedged: negated
   ("no", "not"), conditional ("si", "whether", "if") or itself uncertain.
   Clauses end at punctuation and at "pero", "but", "aunque"...: "Se envió
   correctamente, pero no se puede confirmar" still claims success, while "no se
   pudo confirmar si se envió correctamente" does not.

It is a classifier, not a parser: tests/test_autograder_unknown_state.py holds the
hand-labelled phrasings it must get right; a new phrasing it misjudges goes there first.
"""

from __future__ import annotations

import re
import unicodedata

OTHER_UNKNOWNS = re.compile(
    r"\b(error|fallo|falla|excepcion|herramienta|tool|comando|command|funcion|function)(es|s)?"
    r" (desconocid[oa]s?|inesperad[oa]s?)\b"
    r"|\b(unknown|unexpected) (error|failure|exception|tool|command|function)s?\b"
)
""""Unknown" about something other than whether the call ran: an unknown error is still a failure."""

_KNOW_ES = r"(confirmar|verificar|saber|determinar|comprobar|asegurar|garantizar|constatar)"
_KNOW_EN = r"(confirm|verif|know|tell|determine|ascertain|be sure|be certain|establish|check)"

UNKNOWN = re.compile(
    "|".join(
        (
            # Spanish
            r"\bdesconocid[oa]s?\b",
            r"\bdesconoce(mos|n)?\b",
            r"\b(incierto|incierta|incertidumbre|indeterminad[oa])\b",
            r"\bno (se )?(sabe|sabemos|se sabe|conoce|conocemos)\b",
            r"\bno se (si|cual|cuantas?)\b",  # "no sé si" once accents are gone
            r"\bno (se |nos |me |le )?(puede|pudo|pueden|pudimos|podemos|podia|podra|es posible|fue posible"
            r"|hay (manera|forma|modo|como)( de)?|tenemos (manera|forma|modo)( de)?)\b[^.;]{0,40}\b" + _KNOW_ES,
            r"\b(sin|imposible|no hay como) (poder |forma de |manera de |modo de )?" + _KNOW_ES,
            r"\bno (esta|queda|es) (claro|seguro)\b",
            r"\b(quiza|quizas|tal vez|a lo mejor|posiblemente|probablemente|puede que|es posible que)\b",
            r"\bpuede(n)? (o no )?(haber|haberse)\b",
            r"\bpodria(n)? (o no )?(haber|haberse)\b",
            r"\bse haya (o no )?\w+",  # "no hay forma de saber si se haya enviado"
            # English
            r"\bunknown\b",
            r"\b(unclear|uncertain|uncertainty|indeterminate|unsure|unverified|unconfirmed)\b",
            r"\bnot (known|sure|certain|clear)\b",
            r"\b(cannot|can ?not|can't|could not|couldn't|unable to|impossible to|no way to|no way of|not possible to"
            r"|there is no way to|we do not|we don't|i do not|i don't)\b[^.;]{0,40}\b" + _KNOW_EN,
            r"\b(may|might|could) (or (may|might|could) not )?(have|already)\b",
            r"\b(may|might) not have\b",
            r"\b(possibly|perhaps|maybe)\b",
        )
    )
)
"""Phrasings that say whether the call ran is not known."""

SUCCESS = re.compile(
    r"\b(correctamente|con exito|exitosamente|exitos[oa]|satisfactoriamente|sin problemas|sin errores"
    r"|successfully|succeeded|success|successful|completed|done|ok|okay|listo)\b"
)
"""Words that claim the call ran and worked."""

HEDGE = re.compile(
    r"\b(no|not|nunca|never|ni|nor|si|whether|if|sin|without|haya|hayan|may|might|could|quiza|quizas|tal vez"
    r"|puede|podria)\b|n't\b"
)
"""A success word in the same clause as one of these is not a claim ("no se confirma si ... correctamente")."""

CLAUSE_BREAK = re.compile(
    r"[.;:!?¡¿,\n()\[\]]|\b(pero|but|aunque|although|though|however|sin embargo|no obstante|y ademas|and also)\b"
)


def normalise(content: str) -> str:
    """Lower case, no accents, one space between words."""
    decomposed = unicodedata.normalize("NFKD", content.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"\s+", " ", plain).strip()


def success_claim(clause: str) -> bool:
    """The clause claims success: a success word, with nothing in the clause negating or hedging it."""
    return bool(SUCCESS.search(clause)) and not HEDGE.search(clause) and not UNKNOWN.search(clause)


def says_state_unknown(content: str) -> bool:
    """True when ``content`` tells the model the call's execution state is unknown, and claims no success."""
    text = OTHER_UNKNOWNS.sub(" ", normalise(content))
    if not UNKNOWN.search(text):
        return False
    return not any(success_claim(clause) for clause in CLAUSE_BREAK.split(text) if clause)
