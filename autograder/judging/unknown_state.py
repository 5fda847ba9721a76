"""Does the tool_result's text tell the model that the execution state is unknown?

The lesson's fallback for a high-impact call is a ``tool_result`` with ``is_error:
true`` whose content "le devuelve al modelo el juicio de «estado de ejecución
desconocido»". :func:`assess` reads a learner's content, in Spanish, English or a mix,
and answers with one of three outcomes: it says so (``True``), it does not
(``False``), or the rules are not sure (``None``: left to a person). A wrong verdict
is worse than a review, so every rule that cannot decide says so.

How a text is read:

1. **Normalise** (:func:`normalise`): identifiers spelled out as words
   (``ERROR_UNKNOWN_EXECUTION_STATE``, ``Estado.DESCONOCIDO``, ``retry=False`` = ``no retry``), a structure
   standing alone read key by key, lower case, accents gone (``ejecución`` =
   ``ejecucion``; an accented ``sí`` is kept apart from the conditional ``si``),
   English contractions expanded (``don't`` = ``do not``), and near-misses of the
   few words that carry the meaning mended (``unkown``, ``desconocdo``).
2. **Split** into sentences and clauses (:func:`clauses`) at punctuation and at
   contrastive conjunctions (``pero``, ``aunque``, ``but``...): negation and
   hedges reach no further than their clause.
3. **Find cues** in each clause (:func:`read_clause`):

   - *not knowing*: a negator before a knowledge word (``no sabemos``, ``no hay
     manera de confirmar``, ``cannot tell``), an unknown word (``desconocido``,
     ``desconozco``, ``unclear``), a possibility (``puede que``, ``pudo
     completarse``, ``may or may not have``) or a condition on the call having run
     (``si ya se había ejecutado``);
   - *what it is about*: the complement after the cue (``si``/``whether`` +
     clause, an interrogative, a noun phrase) or the noun phrase the adjective
     qualifies; the execution (verbs like ``ejecutar``/``run``, nouns like
     ``resultado``/``outcome``) or something else (an unknown *tool*, *error*,
     *user*): an unknown error still claims a failure;
   - *claims*: an asserted outcome (``se envió``, ``falló``, ``was sent``,
     ``correctamente``, ``está confirmado``, ``250 OK``, ``ya lo tiene en su buzón``), unless a cue,
     a condition or a complementiser before it in the clause, or a question, puts it out of
     assertion (``no sé si se envió``), it is an arm of a negation or a disjunction (``ni el
     éxito ni el fracaso``, ``se envió o no``), or its subject is the crash, the process or the
     checkpoint rather than the call (``se produjo una caída``, ``el punto de control se guardó
     correctamente``); data in braces after a name (the call's input) and names (``bandeja de
     enviados``) are no claims;
   - *denied unknowns* (``no es desconocido``, ``it's not that we don't know``);
   - *blind re-runs*: an order to run the call again (``vuelve a enviarlo``,
     ``retry``, or an order heading its clause to send: ``Envía el correo ahora``) that no
     negator, condition or check governs; a re-run named before a modal (``reenviarlo podría
     duplicarlo``) is a warning, not an order.
4. **Decide** (:func:`assess`, reasons in :data:`REASONS`): a denied unknown, a claim
   or a blind re-run fails, except that an unknown beside a claim word that may be a
   noun (``envío``, ``enviado``) is left to a person; a belief about the outcome with no
   unknown (``creo que se envió``) fails; not knowing about the execution
   passes; only other unknowns fail; an unexplained negator, an unknown that leans
   (``no se sabe; probablemente se envió``), a cue about nothing identifiable, or epistemic words or a
   question no rule understood leave it to a person; no cue at all fails.

tests/test_autograder_unknown_state.py holds focused cases per rule, and
tests/data/unknown_state/ labelled corpora (dev.jsonl to develop on; heldout.jsonl and
heldout_learners.jsonl measured by bench/bench_unknown_state.py and never tuned on).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

REASONS: dict[str, str] = {
    "unknown_execution": "passes: says whether the call ran or took effect is not known",
    "conditional_on_execution": "passes: conditions on the call having run («si ya se había ejecutado...»)",
    "empty": "fails: no words",
    "claims_outcome": "fails: asserts the call ran, did not, worked, failed, or the tool does not exist",
    "state_known": "fails: says the state is known («no es desconocido», «estado conocido»)",
    "blind_rerun": "fails: orders the call run again without a check or a condition",
    "unknown_other_topic": "fails: what is unknown is something else (a tool, an error, a user)",
    "no_unknown_cue": "fails: says nothing about not knowing",
    "belief_about_outcome": "fails: believes an outcome («creo que se envió») and never says it is unknown",
    "review_negation": "left to a person: a negator the rules cannot place",
    "review_contradiction": "left to a person: unknown, beside a word that may claim an outcome («enviado»)",
    "review_lean": "left to a person: says it is unknown but leans one way («no se sabe; probablemente se envió»)",
    "review_topic": "left to a person: unknown, but about nothing the rules can identify",
    "review_unrecognised": "left to a person: epistemic words or a question no rule understood",
}
"""Every ``Assessment.reason``, with what it means."""


@dataclass(frozen=True)
class Assessment:
    """The classifier's outcome: ``verdict`` True/False, or None (left to a person); ``reason`` says which rule."""

    verdict: bool | None
    reason: str


# --- lexicons ---------------------------------------------------------------------------------
# Word alternations are regex fragments matched on normalised text (lower case, no accents).

NEG = r"(?:no|not|nadie|nobody|ni|sin|without|nunca|never|imposible|impossible|unable|nothing|nada)"
"""Words that negate a knowledge word after them (``no sabemos``, ``unable to verify``)."""

GAP = (
    r"(?:se|lo|la|le|les|nos|me|te|puede|puedo|podemos|pueden|pude|pudo|pudimos|podia|podiamos|podra|podremos"
    r"|podria|podriamos|ha|han|hemos|he|habia|hay|habra|sido|podido|es|fue|era|sera|esta|estaba|queda|quedo"
    r"|posible|tengo|tenemos|tiene|tienen|tenia|teniamos|forma|manera|modo|como|de|para|poder|con|ya|todavia|aun"
    r"|realmente|del|todo|a|i|we|you|it|is|are|was|do|does|did|can|could|will|would|there|to|be|been|have|has"
    r"|had|any|way|of|possible|able|really|yet|the|for|us|fully|100|ni|one|real|menor|mas|minima|nada|muy|hay)"
)
"""Words that may stand between the negator and the knowledge word (``no hay manera de confirmar``)."""

KNOW = (
    r"(?:sabe|sabemos|saben|saber|saberlo|sabia|sabiamos|sabria|sabriamos|sabremos|sabra|sabran|sepa|sepamos|sepan"
    r"|conoce|conocemos|conozco|conocen|conocer|confirmarlo|confirmar|confirma|confirmamos|confirmado|confirmada"
    r"|confirmados|confirmadas|confirmacion|verificarlo|verificar|verificado|verificada|verificacion|comprobarlo"
    r"|comprobar|comprobado|comprobada|asegurarlo|asegurar|determinarlo|determinar|determinado|garantizar"
    r"|garantizarlo|garantizado|garantizada|garantia|constatar|decirte|decirle|decirlo|decir|averiguar|precisar|establecer|seguro|segura|claro|clara"
    r"|certeza|constancia|consta|registro|evidencia|pruebas|idea|descartar|descartarlo|descarta|descartamos"
    r"|descartado|descartada|excluir|excluirlo|afirmar|afirmarlo|cachar|cacho|cachamos|cacha|cachan|cachai"
    r"|know|knows|known|tell|confirm|confirmed|verify|verified|determine|determined|say|sure|certain|ascertain"
    r"|establish|clear|check|checked|record|evidence|clue|confirmation|confirms|rule out|ruled out|exclude|knowing"
    r"|telling|confirming|verifying|determining"
    r"|excluded)"
)
"""Knowing, confirming, being sure: negated, they say the thing is not known."""

UNKNOWN_ADJ = (
    r"(?:desconocid[oa]s?|incierto|incierta|inciertos|inciertas|indeterminad[oa]s?|dudos[oa]|inverificable"
    r"|unknown|uncertain|unclear|unsure|indeterminate|unconfirmed|unverified|unverifiable|undetermined)"
)
"""Adjectives saying something is not known: what they qualify is what is unknown."""

UNKNOWN_NOUN_VERB = (
    r"(?:incertidumbre|uncertainty|desconozco|desconocemos|desconoce|desconocen|desconocia|desconociamos"
    r"|(?:ignoro|ignoramos|ignora|ignoran|se ignora)(?= (?:si|que|whether|if)\b)"
    r"|quien sabe|who knows|vete a saber|vaya (?:usted |uno )?a saber|^a saber|sabe dios|dios sabe|god knows"
    r"|heaven knows|en duda|in doubt|hay dudas|la duda es|dudamos|dudo)"
)
"""Not-knowing said without a negator (``desconozco si``, ``who knows``)."""

MODAL = (
    r"(?:puede que|pueda que|es posible que|sea posible que|posiblemente|quizas?|tal vez|talvez|a lo mejor|capaz que"
    r"|(?:puede|pueden|podria|podrian|pudiera|pudieran)(?: o no)? haber(?:se)?|(?:puede|podria|pudo) o no"
    r"|(?<!se )(?<!no )(?:pudo|pudieron)(?: o no)? (?:haber(?:se)?|\w+(?:rse|r|rlo|rla))\b"
    r"|maybe|perhaps|possibly|it is possible that|(?:may|might|could)(?: or (?:may|might|could) not)?(?: not)?"
    r" (?:have|already|be)\b|may or may not|might or might not)"
)
"""Possibility: the clause after it (or around it) may or may not be so."""

LEAN = (
    r"(?:probablemente|seguramente|presumiblemente|supongo|imagino|aparentemente|parece que|es probable|creo que"
    r"|casi seguro|lo mas seguro(?: es)? que|lo mas probable(?: es)? que|diria que|almost certainly|almost surely"
    r"|most likely"
    r"|creemos que|probably|likely|presumably|i guess|i suppose|apparently|it seems|seems|i think|we think"
    r"|i believe|we believe)"
)
"""Leaning one way without saying it is unknown: a person judges these."""

FLIPPER = (
    r"(?:no es que|no es cierto que|no es verdad que|es falso que|not that|not true that|it is false that"
    r"|it is not that)"
)
"""A frame that negates what follows: ``no es que no sepamos`` says it is known."""

CONDITIONAL = r"^(?:si|if|en caso de que|in case|suponiendo que|assuming|if it)\b"
"""A clause opening with these is the antecedent of a condition, not an assertion."""

OPENERS = (
    r"\b(?:si|if|whether|en caso de que|in case|antes de que|antes de \w+(?:ar|er|ir)(?:lo|la|se)?"
    r"|before|hasta que|until|sin que|por si|para que"
    r"|para ver si|a ver si|de si|asumas|asumir|asume|supongas|suponer|des por hecho|dar por hecho|creas|creer"
    r"|assume|assuming|suppose|take for granted|believe|think)\b"
)
"""Words after which a verb in the same clause is not asserted (``no hay registro de si terminó``)."""

EXEC_VERB = re.compile(
    r"\b(?:ejecut\w*|envi(?:o|a|e|ar|arlo|arla|ado|ada|ados|adas|aron|ara|ase|arse)"
    r"|mand(?:o|a|e|ar|arlo|ado|ada|aron|ara|arse)|acab(?:o|ado|ara|e)|retry\w*|resend\w*|rerun\w*|reenvi\w*|reintent\w*"
    r"|complet(?:o|ado|ada|ar|ara|e|arse|aron)|termin(?:o|ado|ada|ar|ara|e|aron)|realiz\w*|hizo|hecho|hecha|hacer"
    r"|hiciera|haga|corrio|corrido|correr|corriera|corra|sali(?:o|do|da|r|era)|salga|lleg(?:o|ado|ada|ar|ara|ue|aron)"
    r"|produj\w*|produc\w*|efecto|funcion(?:o|ado|ara|e)|procesad\w*|procesar|ocurri\w*|sucedi\w*|recibi\w*"
    r"|entreg\w*|run|ran|runs|running|execut\w*|sent|send|sends|sending|complet\w*|finish\w*|went|go through"
    r"|gone|happen\w*|effect|deliver\w*|exito|fracas\w*|success\w*"
    r"|processed|receiv\w*|work|worked|succe\w*|took place|fail|failed)\b"
)
"""Verbs (any form) about the call running, its effect or outcome: they make a clause about the execution."""
OCCURRENCE = re.compile(r"produj\w*|produc\w*|ocurri\w*|sucedi\w*|happen\w*|took place|recibi\w*|receiv\w*|fail\w*")
"""Verbs that say something occurred: about the crash when the crash is their only subject."""

STRONG_EXEC_NOUNS = frozenset(
    "ejecucion ejecuciones execution resultado result outcome efecto effect llamada call envio accion action"
    " operacion operation transferencia transfer pago payment cargo desenlace".split()
)
WEAK_EXEC_NOUNS = frozenset("estado state status".split())
"""A state is the execution's unless the phrase names something else (``estado de la herramienta``)."""
OTHER_NOUNS = frozenset(
    "error errores errors fallo fallos failure excepcion exception herramienta herramientas tool tools comando"
    " command funcion function usuario user destinatario recipient remitente sender argumento argumentos argument"
    " arguments parametro parametros parameter parameters formato format respuesta response servidor server causa"
    " cause motivo reason nombre name tipo type valor value codigo code clave key destino destination direccion"
    " address persona person cliente customer client".split()
)
"""Things whose being unknown is not the execution's state: an unknown tool or error claims a failure."""

CLAIM = re.compile(
    r"(?P<verb>\b(?:ejecuto|ejecutaron|enviaron|mandaron|completaron|terminaron|realizo|realizaron|hizo|hicieron"
    r"|corrio|salio|salieron|fallaron|funciono|llego|llegaron|produjo|ocurrio|sucedio|entrego|recibio|tuvo efecto"
    r"|ran|executed|sent|completed|finished|succeeded|failed|worked|delivered|processed|went through|went out"
    r"|took effect|got sent)\b)"
    r"|(?P<ambiguous>\b(?:envio|mando|completo|termino|fallo|hecho)\b)"
    r"|(?P<participle>\b(?:ejecutad|enviad|mandad|completad|terminad|realizad|procesad|entregad|fallid)(?:o|a|os|as)\b)"
    r"|(?P<failed_to>\bno (?:se )?(?:pudo|pudieron|ha podido|han podido|puede|pueden|podemos|pude|es posible"
    r"|fue posible) (?:\w+ )?"
    r"(?:ejecut|envi|mand|complet|realiz|termin)\w*)"
    r"|(?P<negated>\b(?:did not|never) (?:run|execute|complete|go|send|finish|work|happen)\b)"
    r"|(?P<success>\b(?:correctamente|con exito|exitosamente|exitos[oa]|satisfactoriamente|sin problemas|sin errores"
    r"|todo (?:bien|correcto)|successfully|successful|success|all good)\b)"
    r"|(?P<assumed>\b(?:asum\w*|supon\w*|da por hecho) que (?:si|siyes|no|ya)\b"
    r"|\bassume (?:that )?it (?:was|did|has|ran|went)\b)"
    r"|(?P<confirmed>\b(?:confirmad[oa]s?|confirmo|confirmaron|confirmed|verificad[oa]|verified|aceptad[oa]"
    r"|accepted|queued|encolad[oa])\b)"
    r"|(?P<protocol>\b2\d\d(?: [\d.]+)?(?: ok)?:? (?:ok|accepted|aceptado|queued|created)\b|\b(?:http|smtp|status"
    r"|estado|code|codigo)[: ]+2\d\d\b"
    r"|\b(?:respondio|devolvio|returned|responded|replied|answered)(?: \w+){0,2} 2\d\d\b)"
    r"|(?P<arrived>\b(?:destinatario|recipient|cliente|customer|usuario|user)(?: \w+){0,2}"
    r" (?:tiene|tienen|has|have|got)\b"
    r"|\b(?:landed|arrived) in\b|\b(?:esta|estan|is|are|sits) (?:ya |already )?(?:en|in) (?:su|la|el|the|their|his|her)"
    r" (?:bandeja de entrada|buzon|inbox|mailbox)\b)"
    r"|(?P<missing>\b(?:no existe|not found|no encontrad[oa]|does not exist|not registered|no esta registrad[oa]"
    r"|no registrad[oa])\b)"
)
"""Asserted outcomes: the call ran, did not, worked, failed, or the tool does not exist."""

PASSIVE_AUX = frozenset("fue fueron ha han sido esta estan quedo quedaron".split())
"""Before a participle they make it a finished passive verb: an asserted outcome."""
WEAK_CLAIMS = frozenset({"ambiguous", "participle"})
"""Claim forms that are also nouns or adjectives («envío», «enviados»): beside an unknown, a person decides."""
DETERMINERS = frozenset("el un del al su este ese ante mi tu nuestro the an".split())
NON_ASSERTING_AUX = frozenset("haber haberse haya hayan hubiera hubiese hubieran habria habrian hayamos".split())
"""A participle after these is not asserted (``puede que se haya enviado``)."""
NOUN_RIGHT = frozenset("de del en durante por con interno general grave critico inesperado of in".split())
"""After an ambiguous form, these make it a noun: «fallo en la reanudación», «envío de datos»."""
CLITICS = frozenset("se ya lo la le les no nunca".split())
VERB_LEFT = frozenset("se ya lo la le les no nunca que y e o ni bien tambien solo todavia aun it".split())

CALL_NOUNS = frozenset(
    "correo correos email emails mail mails mensaje mensajes message messages llamada call envio envios herramienta"
    " tool accion action operacion operation pago payment cargo transferencia transfer entrega delivery"
    " resultado result outcome ejecucion execution".split()
)
"""What the dangling call is, did or produced: an outcome said of these is said of the call."""
CRASH_NOUNS = frozenset(
    "proceso process caida crash checkpoint control reanudacion resume reinicio restart sigkill sigterm oom killer"
    " agente agent worker sistema system programa program kernel arnes harness corte apagon laboratorio lab"
    " interrupcion interruption bucle loop contenedor container maquina machine servicio".split()
)
"""What crashed, was killed, restarted or saved: an outcome said of these («se produjo una caída», «el punto de
control se guardó correctamente», "the agent resumed successfully") says nothing of the call."""
PREPOSITIONS = frozenset("de del en con desde por durante of in with from by during within at".split())
"""A noun after these is a complement («antes de la caída del proceso se envió»), not the verb's subject."""
NOUN_DETERMINERS = frozenset(
    "el la los las un una unos unas su sus este esta ese esa the a an this that its their our".split()
)
TEMPORAL = frozenset("antes despues tras durante mientras before after during while until hasta".split())
SUBJECT_SKIP = frozenset(
    "se ya no lo la le les ha han habia fue ha sido was were has had been is it also tambien".split()
)
"""Words that may stand between a Spanish verb and the start of its clause without being its subject."""
CRASH_VERB = re.compile(
    r"\b(?:reanud\w*|resum\w*|reinici\w*|restart\w*|guard\w*|saved?|escrib\w*|escrit\w*|writ\w*|wrote|recuper\w*"
    r"|recover\w*|carg\w*|load\w*|cay\w*|crash\w*|murio|died|killed|matad\w*)\b"
)
"""Verbs of the crash and the resume: a success adverb right after one («se reanudó correctamente») is theirs."""


def _noun_class(word: str) -> str | None:
    return "call" if word in CALL_NOUNS else "crash" if word in CRASH_NOUNS else None


def _subject_before(words: list[str]) -> str | None:
    """The nearest noun before a verb that is not a prepositional complement: its subject, in SV order."""
    for i in range(len(words) - 1, -1, -1):
        kind = _noun_class(words[i])
        if kind is None:
            continue
        j = i - 1
        while j >= 0 and words[j] in NOUN_DETERMINERS:
            j -= 1
        if j >= 0 and words[j] in PREPOSITIONS:
            continue
        return kind
    return None


def _phrase_after(words: list[str]) -> str | None:
    """What the noun phrase right after a verb names (its postverbal subject or object): call, crash or None."""
    kinds = [_noun_class(w) for w in words[:5]]
    return "call" if "call" in kinds else "crash" if "crash" in kinds else None


def _said_of_the_crash(clause: str, match: re.Match[str]) -> bool:
    """Whether the outcome word ``match`` is said of the crash, the process or the checkpoint, not of the call."""
    before, after = clause[: match.start()].split(), clause[match.end() :].split()
    # «el proceso envió el correo» still says the email went out; «antes de la llamada» names no object
    obj = None if after and after[0] in PREPOSITIONS | TEMPORAL else _phrase_after(after[:3])
    if match.lastgroup == "success" and CRASH_VERB.search(" ".join(before[-2:])) and obj != "call":
        return True  # «se reanudó correctamente»: the adverb is the resume's
    subject = _subject_before(before)
    if subject is None and all(w in SUBJECT_SKIP for w in before):
        subject = _phrase_after(after)  # «se produjo una caída», «falló el proceso»: the subject follows
    return subject == "crash" and obj != "call"


RERUN = re.compile(
    r"\b(?:vuelv|volv)\w* a (?:ejecutar|enviar|mandar|llamar|lanzar|intentar|correr|hacer|probar"
    r"|invocar|encolar)\w*|\bresent\b|\brequeu\w*|\b(?:sent|queued|enqueued|called|executed|fired) again\b"
    r"|\breenvi\w*|\breintent\w*|\brepit\w*|\brepetir\w*"
    r"|\b(?:ejecut|mand|envi|lanz|llam|corr|hac|dispar|invoc|cobr|realiz|proces)\w* (?:\w+ ){0,3}?"
    r"(?:otra vez|de nuevo|nuevamente)\b"
    r"|\b(?:procede|proceda|procedo|procedemos|hay que|tienes que|tenemos que|debes|debemos|deberias|toca|go ahead and"
    r"|proceed to|you should|you must|we must|we should|voy a|vamos a|i will|we will)(?: \w+)?"
    r" (?:enviar|mandar|ejecutar|lanzar|disparar|send|run|execute|fire)\w*"
    r"|\b(?:retry|retrying|rerun|rerunning|resend|resending|reexecute|reexecuting|try again)\b"
    r"|\b(?:run|send|execute|call|fire|invoke|redo)(?: \w+){0,3}? again\b"
)
"""Orders to run the call again: blind, they undo what the fallback is for."""
SEND_ORDER = re.compile(
    r"^(?:(?:y|e|entonces|ahora|ya|mejor|pues|por favor|porfa|so|then|now|just|simply|please|simplemente) )*"
    r"(?:(?:envia|manda|ejecuta|lanza|dispara|envie|mande|ejecute)(?:lo|la|los|las)?"
    r"(?= (?:el|la|los|las|un|una|ahora|ya|de una|al|a|send)\b|$)"
    r"|(?:envia|manda|ejecuta|lanza|envie|mande|ejecute)(?:lo|la)"
    r"|llama (?:a|otra)\b"
    r"|(?:send|run|execute|call|fire|invoke|dispatch) (?:it|them|the (?:email|mail|message|tool|call|payment)"
    r"|send email|this|that|now)\b)"
)
"""An order, heading its clause, to send or run: for the dangling call, a re-run («Envía el correo ahora»)."""
WARNING_AFTER = re.compile(
    r"\b(?:podria\w*|puede|pueden|causaria|duplicaria|seria|implicaria|arriesga\w*|could|might|may|would|can|risks?"
    r"|causes?|means?)\b"
)
"""After a re-run named as a thing («reenviarlo a ciegas podría duplicarlo»), these make it a warning, not an order."""
CHECK = r"(?:comprueba\w*|verifica\w*|revisa\w*|mira|fijate|check|verify|look)"
CHECK_FIRST = re.compile(rf"\b{CHECK}\b")
"""A check ordered earlier in the sentence makes a later re-run its second step («comprueba y reenvía»)."""
RERUN_GUARD_BEFORE = re.compile(
    rf"\b(?:antes de|before|despues de|after|tras|una vez|once|si|if|en caso|in case|cuando|when|{CHECK})\b"
)
RERUN_GUARD_AFTER = re.compile(r"\b(?<!por )(?:si|if|unless|a menos que|salvo que|only after|solo despues)\b")
"""A condition after the re-run governs it («reenvíalo solo si no está»); «por si acaso» is no condition."""
RERUN_GUARD_ANYWHERE = re.compile(
    r"\b(?:despues de|tras|after) (?:comprobar|verificar|revisar|mirar|confirmar|checking|verifying|confirming)"
    r"|\b(?:si hace falta|si es necesario|if needed|if necessary)\b"
)
NEGATORS = re.compile(r"\b(?:no|not|nunca|never|ni|tampoco|nadie|nobody|nothing|nada|sin|without|neither)\b")
INTERROGATIVE_OTHER = re.compile(
    r"^(?:(?:a|de|con|para|to|for|with|by) )?(?:por que|porque|why|donde|where|quien|quienes|who|whom)\b"
)
"""Why, where, who: the call running is taken for granted, the unknown is something else."""
WHAT_HAPPENED = re.compile(r"^(?:que|what) (?:paso|ocurrio|sucedio|fue|happened|became)\b")
INTERROGATIVE_OPEN = re.compile(r"^(?:como|how|cuando|when)\b")
COMPLEMENT = re.compile(
    r"^(?:de |of |sobre |about |as to )?(?:si|if|whether|que|that|cual|cuales|quien|quienes"
    r"|what|which|who)\b"
)
POSITIVE_KNOW_AFTER_SI = re.compile(r"^si (?:sabemos|se sabe|sabe|consta|esta confirmado|sabia)\b")
KNOWN_ADJ = re.compile(r"\b(?:conocid[oa]s?|known)\b")
HEDGE_WORDS = re.compile(
    r"\b(?:sab\w*|sep(?:a|amos|an)|conoc\w*|desconoc\w*|segur\w*|clar[oa]|confirm\w*|verific\w*|comprob\w*"
    r"|consta\w*|certez\w*|duda\w*|doubt\w*|idea|quiz\w*|tal ?vez|posib\w*|probab\w*|incier\w*|incertidumbre"
    r"|ignor\w*|garant\w*|asegur\w*|guarante\w*|know\w*|sure|unsure|clear|unclear|certain\w*|uncertain\w*|verif\w*|maybe|perhaps|possib\w*"
    r"|likely|whether|guess\w*|unknown|dunno|suppos\w*|supon\w*)\b"
)
"""Epistemic words: a text holding one that no rule understood is left to a person, not failed."""

CLAUSE_PUNCT = frozenset(',:()/"«»¿¡[]—–-*')
SENTENCE_PUNCT = frozenset(".!?;\n")
CONJUNCTIONS = re.compile(
    r"\b(?:pero|aunque|but|although|though|however|sin embargo|no obstante|asi que|por lo que|por eso|porque"
    r"|because|so that)\b"
)

MENDABLE = (
    "desconocido desconocida desconocidos desconocidas desconozco desconocemos incierto incierta incertidumbre"
    " ejecucion execution unknown uncertain unclear confirmar confirmado confirmada verificar determinar resultado"
    " quizas estado"
).split()
"""The words whose misspelling would hide the meaning; near-misses of these are mended."""

CONTRACTIONS = (
    (r"\bcan'?t\b", "can not"),
    (r"\bcannot\b", "can not"),
    (r"\bwon'?t\b", "will not"),
    (r"n't\b", " not"),
    (r"\b(i)'m\b", r"\1 am"),
    (r"\b(it|there|that|what)'s\b", r"\1 is"),
    (r"'ve\b", " have"),
    (r"'re\b", " are"),
    (r"'ll\b", " will"),
    (r"'d\b", " would"),
    (r"\bidk\b", "i do not know"),
    (r"\bdunno\b", "do not know"),
    (r"\b(?:nose|nc)\b(?= si\b)", "no se"),  # chat spellings of «no sé»
)


IDENTIFIER_FALSE = re.compile(r"\b([A-Za-z_]+)\s*[=:]\s*(?:False|false|FALSE|None|none|0)\b")
"""``retry=False``: the key is denied."""

_CONTRACTIONS = tuple((re.compile(pattern), replacement) for pattern, replacement in CONTRACTIONS)


# --- text preparation -------------------------------------------------------------------------


def _spell_out_identifiers(content: str) -> str:
    """Constants and code read as words: ``ERROR_UNKNOWN_EXECUTION_STATE``, ``EstadoEjecucion.DESCONOCIDO``."""
    text = IDENTIFIER_FALSE.sub(r" no \1 ", content)  # «retry=False» says no re-run
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)  # CamelCase
    text = re.sub(r"(?<=[A-Za-z])_(?=[A-Za-z])|(?<=[A-Za-z])\.(?=[A-Z_]{2,}\b)", " ", text)  # snake, Enum.MEMBER
    return re.sub(r"(?<=\w)\s*(?:=|->|=>|→)\s*", ": ", text)  # key=value, a -> b: the value is said of the key


def _unbrace(text: str) -> str:
    """A dict or list right after a name is the call's data (its input); one standing alone is the message itself."""
    while True:
        block = re.search(r"\{[^{}]*\}|\[[^\[\]]*\]", text)
        if not block:
            return text
        before = text[: block.start()].rstrip()
        inner = block.group(0)[1:-1]
        if re.search(r"[\w(]$", before) or not re.search(r"[a-z]", inner):
            said = " "  # send_email({...}), "for send_email {...}": what the call was given, not a claim
        else:
            said = ". " + re.sub(r"[\"']|,(?=\s*[\"'\w])", lambda m: "" if m.group(0) != "," else ". ", inner) + ". "
        text = text[: block.start()] + said + text[block.end() :]


def normalise(content: str) -> str:
    """Lower case, no accents (an accented «sí» becomes ``siyes``), contractions expanded, one space between words.

    Line breaks are kept (one each): they end a sentence. Identifiers are spelled out as words; braced or
    bracketed data after a name (the call's input) is dropped, a structure standing alone is read key by key.
    """
    text = _spell_out_identifiers(content).casefold().replace("\u2019", "'").replace("`", "'")
    text = _unbrace(text)
    text = re.sub(r"(?<!\w)sí(?!\w)", "siyes", text)
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    for pattern, replacement in _CONTRACTIONS:
        plain = pattern.sub(replacement, plain)
    plain = re.sub(r"(?<=[a-z])-(?=[a-z])", "", plain)  # re-run = rerun, mid-call = midcall
    plain = re.sub(r"\s*\n\s*", "\n", plain.strip())  # a line break ends a sentence, like a full stop
    return re.sub(r"[^\S\n]+", " ", plain)


def _distance(a: str, b: str, cap: int) -> int:
    """Damerau-Levenshtein distance (adjacent swaps count one), stopping early past ``cap``."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) > cap:
            return cap + 1
        prev2, prev = prev, row
    return prev[-1]


_KNOWN_WORDS = re.compile(
    "|".join((NEG, GAP, KNOW, UNKNOWN_ADJ, MODAL, LEAN, EXEC_VERB.pattern, r"(?:conocid[oa]s?|known)"))
)


def mend(word: str) -> str:
    """``word``, or the one word of :data:`MENDABLE` it misspells (one edit; two in long words)."""
    if len(word) < 6 or word in MENDABLE or _KNOWN_WORDS.fullmatch(word):
        return word
    cap = 2 if len(word) >= 11 else 1
    distances = {m: _distance(word, m, cap) for m in MENDABLE if m[:2] == word[:2]}
    best = min(distances.values(), default=cap + 1)
    nearest = [m for m, d in distances.items() if d == best]
    return nearest[0] if best <= cap and len(nearest) == 1 else word


@dataclass
class Clause:
    """A stretch of text between clause breaks; ``sentence`` numbers the sentence it belongs to."""

    text: str
    sentence: int
    question: bool = False
    """Part of a question («¿se envió?»): it asks, it does not assert."""


def clauses(normalised: str) -> list[Clause]:
    """Split normalised text into clauses: at punctuation, and at contrastive or causal conjunctions."""
    result: list[Clause] = []
    sentence = 0
    words: list[str] = []
    opened_question = False

    def close() -> None:
        pieces = (piece.strip() for piece in CONJUNCTIONS.split(" ".join(words)))
        result.extend(Clause(piece, sentence) for piece in pieces if piece)
        words.clear()

    for token in re.findall(r"[a-z0-9_%]+|\n|[^\sa-z0-9_%]", normalised):
        if token in SENTENCE_PUNCT:
            close()
            if token == "?" or opened_question:
                for clause in result:
                    clause.question = clause.question or clause.sentence == sentence
            opened_question = False
            sentence += 1
        elif token == "¿":
            opened_question = True
            close()
        elif token in CLAUSE_PUNCT or not re.match(r"[a-z0-9_%]", token):
            close()
        else:
            words.append(mend(token))
    close()
    if opened_question:
        for clause in result:
            clause.question = clause.question or clause.sentence == sentence
    return result


# --- reading one clause -----------------------------------------------------------------------


def classify(text: str) -> str | None:
    """What a stretch of text is about: "exec", "other", "mixed" (a state of something else) or None (nothing)."""
    words = text.split()
    kinds = {_noun_class(w) for w in words}
    occurrences = [m.group(0) for m in EXEC_VERB.finditer(text)]
    if "crash" in kinds and "call" not in kinds and occurrences and all(OCCURRENCE.fullmatch(o) for o in occurrences):
        return "other"  # «a qué hora se produjo la caída»: when the crash happened, not whether the call ran
    if EXEC_VERB.search(text) or any(w in STRONG_EXEC_NOUNS for w in words):
        return "exec"
    weak = any(w in WEAK_EXEC_NOUNS for w in words)
    other = any(w in OTHER_NOUNS for w in words)
    if weak and other:
        return "mixed"
    return "exec" if weak else "other" if other else None


def complement_topic(rest: str) -> tuple[bool, str | None]:
    """The topic of what follows a cue, and whether a complement was there at all."""
    rest = rest.strip()
    if not rest:
        return False, None
    if INTERROGATIVE_OTHER.match(rest):
        return True, "other"  # why/where it happened presupposes that it did
    if INTERROGATIVE_OPEN.match(rest):
        return True, None
    if WHAT_HAPPENED.match(rest) and any(_noun_class(w) == "call" for w in rest.split()[:7]):
        return True, "exec"  # «qué pasó con el correo»: what became of the call
    match = re.match(r"^(?:que|cual|cuales|what|which)( \w+)", rest)
    if match and match.group(1).strip() in OTHER_NOUNS | STRONG_EXEC_NOUNS | WEAK_EXEC_NOUNS:
        return True, classify(match.group(1))  # «qué herramienta se ejecutó» is about the tool
    return True, classify(rest)


@dataclass
class Cue:
    """A place where a clause says something is not known (or, for ``lean``, leans one way)."""

    kind: str
    start: int
    end: int
    topic: str | None = None


@dataclass
class Reading:
    """What one clause says."""

    cues: list[Cue] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    """The claim kinds (:data:`CLAIM` group names) the clause asserts."""
    says_known: bool = False
    unclear: bool = False
    reruns: list[int] = field(default_factory=list)
    conditional: bool = False
    openers: list[int] = field(default_factory=list)


_NEG_KNOW = re.compile(
    rf"\b(?:ni|neither|nor)(?: \w+){{1,12}}? {KNOW}\b|\b{KNOW} (?:\w+ )?(?:ni|neither)\b"
    rf"|\b(?:no (?:\w+ ){{0,2}})?ni (?:la |una )?(?:\w+ )?idea\b"
    rf"|\b{NEG}(?: {GAP}){{0,6}} {KNOW}\b|\bno se(?= (?:si|if|que|cual|quien|por que|como|cuando"
    rf"|donde)\b)|\bno (?:lo )?se$|\bni idea\b|\bno idea\b"
)
"""A negated knowledge word; «no se si» and a clause-final «no (lo) se» are «no sé» written without its accent."""
_ADJ = re.compile(rf"\b{UNKNOWN_ADJ}\b")
_NOUN_VERB = re.compile(rf"\b{UNKNOWN_NOUN_VERB}\b")
_MODAL = re.compile(rf"\b{MODAL}")
_LEAN = re.compile(rf"\b{LEAN}\b")
_FLIPPER = re.compile(rf"\b{FLIPPER}\b")
COPULAS = frozenset("es esta son estan era fue resulta queda sea el un estado is was are were remains seems".split())
"""Between a negator and an unknown-adjective they make it its denial: «no es desconocido», "not unknown"."""
_ENGLISH_ADJ = re.compile(r"^(?:unknown|uncertain|unclear|unconfirmed|unverified|undetermined|indeterminate)$")


def _adjective_topic(clause: str, cue: re.Match[str]) -> str | None:
    """The noun phrase an unknown-adjective qualifies: after it in English (head last), before it otherwise."""
    after = clause[cue.end() :].split()
    before = clause[: cue.start()].split()
    chain: list[str] = []
    if _ENGLISH_ADJ.match(cue.group(0)):
        for word in after:
            if word in OTHER_NOUNS | STRONG_EXEC_NOUNS | WEAK_EXEC_NOUNS or (chain and word in ("de", "del")):
                chain.append(word)
            elif word not in ("el", "la", "de", "the"):
                break
        if chain:
            return classify(" ".join(chain))
    window = " ".join(before[-6:])
    if topic := classify(window):
        return topic
    return None if _ENGLISH_ADJ.match(cue.group(0)) else classify(" ".join(after[:4]))


def _prefix_negation(
    clause: str, start: int, spans: list[tuple[int, int]], adjective: bool, reruns: list[int]
) -> str | None:
    """A negator before a cue that no cue explains: "negated" (no es desconocido), "unclear" or None."""
    prefix = clause[:start]
    if _FLIPPER.search(prefix):
        return "negated"
    for match in NEGATORS.finditer(prefix):
        if any(s <= match.start() < e for s, e in spans):
            continue
        if any(0 <= len(clause[match.end() : r].split()) <= 2 for r in reruns if r > match.start()):
            continue  # «no la repitas»: the negator belongs to the re-run
        between = prefix[match.end() :].split()
        if adjective and len(between) <= 2 and all(w in COPULAS for w in between):
            return "negated"
        return "unclear"
    return None


def _claims(clause: str, openers: list[int], covered: bool, spans: list[tuple[int, int]]) -> list[str]:
    """Outcomes this clause asserts: claim words not preceded, in the clause, by a cue or complementiser."""
    if covered:
        return []
    found = []
    coordinated = bool(re.match(r"(?:ni|nor|neither|o|or)\b", clause))
    for match in CLAIM.finditer(clause):
        if coordinated or any(s <= match.start() < e for s, e in spans):
            continue  # «no se ha podido confirmar», "nor that it succeeded": under the cue or its negation
        near_before = [w for w in clause[: match.start()].split()[-3:] if w not in NOUN_DETERMINERS]
        if near_before and near_before[-1] in ("ni", "neither", "nor"):
            continue  # «ni el éxito ni el fracaso», "neither success nor failure": arms of a negation
        if re.match(r" (?:\w+ )?(?:o no|or not|o fallo|or failed|o nunca|o no se)\b", clause[match.end() :]):
            continue  # «se envió o no»: a disjunction asserts neither arm
        # «asume que sí» opens its own complement: it is the claim, not what is under it
        if match.lastgroup != "assumed" and any(o <= match.start() for o in openers):
            continue
        words_before = clause[: match.start()].split()
        previous = words_before[-1] if words_before else ""
        kind = match.lastgroup or ""
        if kind == "assumed" and previous in ("no", "not", "nunca", "never"):
            continue  # «no asumas que no se envió» tells the model not to assume
        if kind in ("participle", "ambiguous") and previous in NON_ASSERTING_AUX:
            continue
        if kind == "participle" and {previous, *words_before[-2:-1]} & PASSIVE_AUX:
            kind = "verb"  # «ya fue entregado», «ha sido enviado»: a passive, not a noun or a name
        if kind in ("participle", "verb") and previous in DETERMINERS | {"de", "los", "las"}:
            continue  # «la bandeja de enviados», "the sent folder": a name, not an outcome
        if kind == "ambiguous":
            following = clause[match.end() :].split()
            nominal = previous in DETERMINERS or bool(
                following and (following[0] in NOUN_RIGHT or _ADJ.match(following[0]))
            )
            verbal = (
                previous in VERB_LEFT
                or previous in STRONG_EXEC_NOUNS | OTHER_NOUNS | CALL_NOUNS | CRASH_NOUNS
                or previous in ("correo", "email", "mensaje", "mail", "message")
            )
            if nominal or not (verbal or not previous):
                continue
            if (
                previous in CLITICS | CALL_NOUNS | CRASH_NOUNS
                or (following and following[0] in ("bien", "mal"))
                or (following and following[0] in NOUN_DETERMINERS)
            ):
                kind = "verb"  # «se envió», «terminó bien»: no noun stands there
        following_word = (clause[match.end() :].split() or [""])[0]
        if re.match(r"term|fini", match.group(0).split()[-1]) and (
            following_word == "de" or following_word.endswith("ing")
        ):
            continue  # «no terminó de registrarse», "did not finish being recorded": about the recording
        if _said_of_the_crash(clause, match):
            continue
        found.append(kind)
    return found


def read_clause(clause: str, covered: bool) -> Reading:
    """Cues, claims, negations and re-runs in one clause; ``covered`` when a condition or hedge before it reaches it."""
    reading = Reading()
    spans: list[tuple[int, int]] = []
    for match in _NEG_KNOW.finditer(clause):
        spans.append(match.span())
        has, topic = complement_topic(clause[match.end() :])
        if not has or topic is None:  # «ni el envío ni su error se pueden confirmar», "whether it ran cannot be"
            topic = classify(clause[: match.end()]) or topic
        reading.cues.append(Cue("know", *match.span(), topic))
        reading.openers.append(match.end())
    for match in _NOUN_VERB.finditer(clause):
        if any(s <= match.start() < e for s, e in spans):
            continue
        spans.append(match.span())
        has, topic = complement_topic(clause[match.end() :])
        if not has:
            topic = classify(clause[: match.start()])
        reading.cues.append(Cue("know", *match.span(), topic))
        reading.openers.append(match.end())
    for match in _ADJ.finditer(clause):
        if any(s <= match.start() < e for s, e in spans):
            continue
        spans.append(match.span())
        rest = clause[match.end() :].strip()
        if COMPLEMENT.match(rest) and not re.match(r"^(?:que|that)\b", rest):
            topic = complement_topic(rest)[1]
            reading.openers.append(match.end())
        else:
            topic = _adjective_topic(clause, match)
        reading.cues.append(Cue("adjective", *match.span(), topic))
    for match in _MODAL.finditer(clause):
        if any(s <= match.start() < e for s, e in spans):
            continue
        spans.append(match.span())
        topic = classify(clause[: match.start()] + " " + clause[match.end() :])
        reading.cues.append(Cue("modal", *match.span(), topic))
        reading.openers.append(match.start())
    for match in _LEAN.finditer(clause):
        spans.append(match.span())
        reading.cues.append(Cue("lean", *match.span(), None))
        reading.openers.append(match.start())

    reading.reruns = [m.start() for m in RERUN.finditer(clause) if not _names_a_rerun(clause, m)]
    if order := SEND_ORDER.match(clause):
        reading.reruns.append(order.end() - len(order.group(0).split()[-1]))
    for cue in reading.cues:
        if cue.kind == "lean":
            continue
        outcome = _prefix_negation(clause, cue.start, spans, cue.kind == "adjective", reading.reruns)
        if outcome == "negated" or (outcome and cue.kind == "modal" and clause[: cue.start].endswith("no ")):
            reading.says_known = True
        elif outcome == "unclear":
            reading.unclear = True

    reading.openers += [m.start() for m in re.finditer(OPENERS, clause)]
    reading.conditional = bool(re.match(CONDITIONAL, clause))
    if POSITIVE_KNOW_AFTER_SI.match(clause):
        reading.unclear = True  # «si sabemos que...» without an accent: "if we know" or "yes, we know"?
    reading.claims = _claims(clause, reading.openers, covered or reading.conditional, spans)
    outcome_named = (m.lastgroup for m in CLAIM.finditer(clause))
    if reading.conditional and any(
        g in ("verb", "ambiguous", "participle", "negated", "success") for g in outcome_named
    ):
        reading.cues.append(Cue("conditional", 0, 0, "exec"))  # «si ya se había ejecutado»: whether it did is open
    if not covered and not reading.cues:
        known = KNOWN_ADJ.search(clause)
        if known and classify(clause) == "exec" and not NEGATORS.search(clause[: known.start()]):
            reading.says_known = True  # «estado de ejecución conocido»
    return reading


def _names_a_rerun(clause: str, match: re.Match[str]) -> bool:
    """A re-run as an infinitive or gerund that a modal follows is the subject of a warning, not an order."""
    head = match.group(0).split()
    nonfinite = re.search(r"(?:ar|er|ir|arlo|erlo|irlo|arla|ing)$", head[-1]) or head[0] in ("volver", "retry", "rerun")
    return bool(nonfinite) and bool(WARNING_AFTER.search(clause[match.end() :]))


def _rerun_is_blind(clause: str, start: int, sentence_before: str, covered: bool) -> bool:
    """An order to run again with no negation, condition or check before it (or a condition or check after it)."""
    if covered or RERUN_GUARD_ANYWHERE.search(clause) or RERUN_GUARD_AFTER.search(clause[start:]):
        return False
    before = clause[:start]
    near = before.split()[-3:]  # «no la vuelvas a», "do not send": the negator governs the re-run
    negated = any(NEGATORS.fullmatch(w) for w in near) and not any(
        w in ("y", "e", "and", "then", "luego") for w in near
    )
    if negated or RERUN_GUARD_BEFORE.search(before):
        return False
    return not CHECK_FIRST.search(sentence_before)


# --- the verdict ------------------------------------------------------------------------------


def read(text: str) -> list[tuple[Clause, Reading]]:
    """Each clause of normalised ``text`` with its reading, bare cues given their neighbours' topic."""
    parts = clauses(text)
    pairs: list[tuple[Clause, Reading]] = []
    covered = False
    for i, part in enumerate(parts):
        reading = read_clause(part.text, covered or part.question)
        pairs.append((part, reading))
        # A condition reaches its consequent; a clause that is only a hedge («tal vez,») reaches the next one.
        bare_hedge = bool(reading.cues) and all(
            len((part.text[: c.start] + part.text[c.end :]).split()) <= 1 for c in reading.cues
        )
        next_same = i + 1 < len(parts) and parts[i + 1].sentence == part.sentence
        covered = next_same and (reading.conditional or (bare_hedge and reading.cues[0].kind in ("modal", "know")))
    for i, (_, reading) in enumerate(pairs):
        for cue in reading.cues:
            if cue.topic is None and cue.kind != "lean":
                cue.topic = _neighbour_topic(parts, i)
    return pairs


def _any_blind_rerun(pairs: list[tuple[Clause, Reading]]) -> bool:
    for i, (part, reading) in enumerate(pairs):
        earlier = [(p, r) for p, r in pairs[:i] if p.sentence == part.sentence]
        sentence_before = " ".join(p.text for p, _ in earlier)
        after_condition = bool(earlier) and (earlier[-1][1].conditional or earlier[-1][0].question)
        if any(_rerun_is_blind(part.text, s, sentence_before, after_condition) for s in reading.reruns):
            return True
    return False


def assess(content: str) -> Assessment:
    """Does ``content`` say the call's execution state is unknown? True, False, or None (left to a person)."""
    text = normalise(content)
    if not re.search(r"[a-z]", text):
        return Assessment(False, "empty")
    pairs = read(text)
    readings = [reading for _, reading in pairs]
    if any(r.says_known for r in readings):
        return Assessment(False, "state_known")
    claims = {kind for r in readings for kind in r.claims}
    cues = [c for r in readings for c in r.cues]
    about_exec = [c for c in cues if c.kind != "lean" and c.topic == "exec"]
    if claims and about_exec and claims <= WEAK_CLAIMS:
        return Assessment(None, "review_contradiction")
    if claims:
        return Assessment(False, "claims_outcome")
    if _any_blind_rerun(pairs):
        return Assessment(False, "blind_rerun")
    unclear = any(r.unclear for r in readings)
    leaning = any(c.kind == "lean" for c in cues)
    if leaning and not about_exec and _believes_an_outcome(pairs):
        return Assessment(False, "belief_about_outcome")
    if about_exec and not unclear and not leaning:
        conditional = about_exec[0].kind == "conditional"
        return Assessment(True, "conditional_on_execution" if conditional else "unknown_execution")
    if unclear:
        return Assessment(None, "review_negation")
    if leaning:
        return Assessment(None, "review_lean")
    if any(c.topic in (None, "mixed") for c in cues):
        return Assessment(None, "review_topic")
    if cues:
        return Assessment(False, "unknown_other_topic")
    if HEDGE_WORDS.search(text) or "?" in text:
        return Assessment(None, "review_unrecognised")
    return Assessment(False, "no_unknown_cue")


def _believes_an_outcome(pairs: list[tuple[Clause, Reading]]) -> bool:
    """A lean with an outcome under it («creo que se envió», "it probably failed"): a belief, still a claim."""
    for part, reading in pairs:
        for cue in reading.cues:
            if cue.kind != "lean":
                continue
            around = part.text[: cue.start] + " " + part.text[cue.end :]
            if CLAIM.search(around) or EXEC_VERB.search(around):
                return True
    return False


def _neighbour_topic(parts: list[Clause], index: int) -> str | None:
    """The topic of a bare cue («Estado: desconocido», «No lo sabemos»): the clauses before it, else the next one."""
    for back in (index - 1, index - 2):
        if back >= 0 and (topic := classify(parts[back].text)):
            return topic
    if index + 1 < len(parts):
        return classify(parts[index + 1].text)
    return None
