"""The grader's texts, in Spanish (the default) and English (``lang="en"``): one mechanism, texts beside their rooms.

``text(key, lang, **params)`` formats one; :func:`plural`, the decimal mark, :class:`Notice` and the lesson's
facts are written once, here. The texts themselves live beside the room that says them, each room's table a
plain-data ``TEXTS`` dict (its Spanish and English side by side) in a module that imports nothing of the
grader: ``intake/texts.py``, ``grading/texts.py``, ``sandbox/texts.py``, ``classrun/texts.py``,
``distribution/texts.py``, ``reporting/texts.py``,
``course/texts.py`` (the configuration and the questions), and each level's criteria module
(``course/level0.py``...) for its verdicts' feedback. :data:`ROOMS` says which table holds a key, by the
key's first part; a table is imported on the first text asked of it, so ``check()`` in a notebook loads only
the rooms it speaks from. A key's name says its room, so a key is never looked for in two places, and a test
(``tests/test_autograder_messages.py``) checks every room's placeholders match in both languages.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import Any

LANGS = ("es", "en")
"""Spanish is the default; every key has both (a test checks their placeholders match)."""

_ROOM_PREFIXES: dict[str, tuple[str, ...]] = {
    "autograder.intake.texts": ("intake", "choice", "cell"),
    "autograder.grading.texts": ("batch", "warn"),
    "autograder.sandbox.texts": ("load", "fail", "what", "call", "flag", "internal", "tool", "learner", "label"),
    "autograder.course.catalogue": ("levels", "list", "fact"),
    "autograder.course.level1": ("level1", "hidden"),
    "autograder.course.level2": ("level2", "read_only", "effect", "high_impact", "is_error", "paired", "email"),
    "autograder.course.texts": ("question", "config"),
    "autograder.distribution.texts": ("release",),
    "autograder.classrun.texts": ("shard", "merge", "grade"),
    "autograder.reporting.texts": (
        "cli",
        "report",
        "gradescope",
        "check",
        "review",
        "lms",
    ),
    "autograder.course.level0": ("resume_path",),
}
"""Each room's texts module and the first parts of the keys it holds (in the order :func:`keys` lists them)."""

ROOMS: dict[str, str] = {prefix: room for room, prefixes in _ROOM_PREFIXES.items() for prefix in prefixes}
"""A key's first part -> the module whose ``TEXTS`` holds it."""


def room_table(room: str) -> dict[str, dict[str, str]]:
    """The ``TEXTS`` of ``room`` (a module of :data:`ROOMS`), imported on first use."""
    return TEXTS if room == __name__ else import_module(room).TEXTS


def entry(key: str) -> dict[str, str]:
    """The table entry of ``key``: its text in each language (``KeyError`` for a key no room holds)."""
    room = ROOMS.get(key.partition(".")[0])
    if room is None:
        raise KeyError(key)
    return room_table(room)[key]


@cache
def entries() -> dict[str, dict[str, str]]:
    """Every room's texts in one table (for the tests and the generated guide; :func:`text` asks one room)."""
    return {key: value for room in _ROOM_PREFIXES for key, value in room_table(room).items()}


TEXTS: dict[str, dict[str, str]] = {
    "levels.one": {"es": "el nivel {list}", "en": "level {list}"},
    "levels.other": {"es": "los niveles {list}", "en": "levels {list}"},
    "list.and": {"es": "{first} y {last}", "en": "{first} and {last}"},
    "list.more": {"es": "y {more} más", "en": "and {more} more"},
    # -- the lesson's facts said in words (lesson_facts) ------------------------------------------
    # Feminine in Spanish: what is counted is herramientas. Past the last word, the digits.
    "fact.count_words": {
        "es": "cero una dos tres cuatro cinco seis siete ocho nueve diez",
        "en": "zero one two three four five six seven eight nine ten",
    },
}


class _Decimals(string.Formatter):
    """Fills a template writing each float with the language's decimal mark."""

    def __init__(self, mark: str) -> None:
        super().__init__()
        self.mark = mark

    def format_field(self, value: Any, format_spec: str) -> str:
        written = super().format_field(value, format_spec)
        return written.replace(".", self.mark) if isinstance(value, float) else written


def decimal_mark(lang: str) -> str:
    """How ``lang`` writes the decimal separator: «,» in Spanish, "." in English (one fact, ``report.decimal``)."""
    return text("report.decimal", lang)


def fmt_points(x: float, lang: str | None = None) -> str:
    """7.0 -> "7", 7.25 -> "7.25" ("7,25" in a Spanish page): points read like points, not floats.

    ``lang`` None is for machines (results.json's readers, the console's seed): a decimal point.
    """
    shown = f"{round(x, 2):g}"
    return shown if lang is None else shown.replace(".", decimal_mark(lang))


def text(key: str, lang: str = "es", **params: Any) -> str:
    """The message ``key`` in ``lang`` (Spanish when the language or the key's translation is missing).

    A number with decimals is written as the language writes it: «2,5 s» in Spanish, "2.5 s" in English.
    The lesson's facts it names (:data:`FACTS`) are filled in from lesson3 (:func:`with_facts`)."""
    texts = entry(key)
    written_in = lang if texts.get(lang) else "es"
    template = with_facts(texts[written_in], written_in)
    if not params:
        return template
    if any(isinstance(v, float) for v in params.values()) and (mark := decimal_mark(written_in)) != ".":
        return _Decimals(mark).format(template, **params)
    return template.format(**params)


LEARNER_PREFIX = "learner."


def learner_texts(lang: str) -> dict[str, str]:
    """The templates the learner's process speaks with (``learner.*``, without the prefix), in ``lang``.

    That process may import only its own folder and the wire formats: the judge sends it these with
    the load request, and it fills them in (:func:`autograder.learner.lesson3_view.say`).
    """
    return {
        key[len(LEARNER_PREFIX) :]: text(key, lang)
        for key in room_table(ROOMS[LEARNER_PREFIX[:-1]])
        if key.startswith(LEARNER_PREFIX)
    }


@dataclass(frozen=True)
class Notice:
    """A message of the catalogue not yet written out: its key and parameters (a parameter may be a Notice).

    For what is said later in a language not known yet (intake warnings, the names of the grader's cases)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, lang: str = "es") -> str:
        return text(self.key, lang, **{k: written(v, lang) for k, v in self.params.items()})


def notice(key: str, **params: Any) -> Notice:
    return Notice(key, params)


def written(value: str | Notice, lang: str) -> str:
    """A name said as is (a tool's, a version), or a :class:`Notice` in ``lang``."""
    return value.render(lang) if isinstance(value, Notice) else value


class NoticeError(Exception):
    """An error for whoever runs a command: a :class:`Notice`, written out in their language when shown."""

    def __init__(self, why: Notice, lang: str = "es") -> None:
        super().__init__(why, lang)
        self.notice, self.lang = why, lang

    def __str__(self) -> str:
        return self.notice.render(self.lang)


def plural(key: str, n: int, lang: str = "es", **params: Any) -> str:
    """``key.one`` when ``n`` is 1, ``key.zero`` when it is 0 and the key has one, else ``key.other``; with ``n``."""
    form = (
        "one" if n == 1 else "zero" if n == 0 and f"{key}.zero" in room_table(ROOMS[key.partition(".")[0]]) else "other"
    )
    return text(f"{key}.{form}", lang, n=n, **params)


def listed(names: Sequence[str], lang: str = "es") -> str:
    """«a», «a y b», «a, b y c» (a, b and c)."""
    return "".join(names) if len(names) < 2 else text("list.and", lang, first=", ".join(names[:-1]), last=names[-1])


def said_levels(levels: Sequence[int], lang: str = "es") -> str:
    """«el nivel 1», «los niveles 0 y 1», «los niveles 0, 1 y 2» (levels 0, 1 and 2)."""
    return text("levels.one" if len(levels) == 1 else "levels.other", lang, list=listed([str(n) for n in levels], lang))


def read_only_tools() -> tuple[str, ...]:
    """lesson3's ``READ_ONLY_TOOLS`` in the order the lesson lists them: its tools' order, any other name after.

    Imported here, when a text needs them: the grader's command starts without lesson3's tools."""
    from lesson3.reconciliation import READ_ONLY_TOOLS
    from lesson3.tools import TOOL_NAMES

    order = {name: i for i, name in enumerate(TOOL_NAMES)}
    return tuple(sorted(READ_ONLY_TOOLS, key=lambda t: (order.get(t, len(order)), t)))


def count_word(n: int, lang: str = "es") -> str:
    """``n`` in words («cuatro», "four") up to ten, in digits past it."""
    words = text("fact.count_words", lang).split()
    return words[n] if 0 <= n < len(words) else str(n)


FACTS = ("read_only", "read_only_commas", "read_only_count")
"""The placeholders of :func:`lesson_facts`: a text or hint names them instead of writing the fact out."""


def lesson_facts(lang: str = "es") -> dict[str, str]:
    """What a text may say of the lesson, read from lesson3 as it is now: the read-only tools, listed and counted."""
    tools = read_only_tools()
    return dict(zip(FACTS, (listed(tools, lang), ", ".join(tools), count_word(len(tools), lang)), strict=True))


_FACT_FIELD = re.compile(r"\{(" + "|".join(FACTS) + r")\}")


def with_facts(template: str, lang: str = "es") -> str:
    """``template`` with the lesson's facts it names filled in, its other placeholders left as they are."""
    if not _FACT_FIELD.search(template):
        return template
    facts = lesson_facts(lang)
    return _FACT_FIELD.sub(lambda m: facts[m[1]], template)


def keys() -> list[str]:
    return list(entries())


def section(prefix: str, lang: str = "es") -> dict[str, str]:
    """Every text under ``prefix.`` in ``lang``, keyed without the prefix (for the report templates)."""
    start = prefix + "."
    return {k.removeprefix(start): text(k, lang) for k in room_table(ROOMS[prefix]) if k.startswith(start)}
