"""La consola en español: argparse con sus mensajes traducidos, para ``lesson3`` y ``autograder``.

argparse speaks English and looks its words up through ``argparse._`` (gettext) both
when a parser is built (section titles) and when it parses or prints (usage, errors).
:func:`parse_in_spanish` swaps in the Spanish table for exactly that span, so both
commands say the same thing the same way. Light on purpose: ``autograder --help``
imports it without the agent or the SDK.
"""

from __future__ import annotations

import argparse
import contextlib
import gettext
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import NoReturn

SPANISH = {
    "usage: ": "uso: ",
    "positional arguments": "argumentos",
    "options": "opciones",
    "optional arguments": "opciones",
    "show this help message and exit": "muestra esta ayuda y termina",
    "the following arguments are required: %s": "faltan argumentos obligatorios: %s",
    "unrecognized arguments: %s": "argumentos no reconocidos: %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "opción no válida: %(value)r (elige entre %(choices)s)",
    "argument %(argument_name)s: %(message)s": "argumento %(argument_name)s: %(message)s",
    "expected one argument": "le falta su valor",
    "expected at least one argument": "le falta al menos un valor",
    "invalid %(type)s value: %(value)r": "valor no válido (%(type)s): %(value)r",
    "ambiguous option: %(option)s could match %(matches)s": "opción ambigua: %(option)s puede ser %(matches)s",
    "one of the arguments %s is required": "hace falta uno de estos argumentos: %s",
    "not allowed with argument %s": "no se permite junto con %s",
}
"""argparse's messages that a user of these commands can meet, in Spanish."""


class SpanishParser(argparse.ArgumentParser):
    """An error ends with where to look for help, in Spanish, with exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\nUsa «{self.prog} --help» para ver las opciones.\n")


@contextlib.contextmanager
def spanish() -> Iterator[None]:
    original = argparse._  # type: ignore[attr-defined]
    argparse._ = lambda message: SPANISH.get(message, gettext.gettext(message))  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = original  # type: ignore[attr-defined]


def parse_in_spanish(build: Callable[[], argparse.ArgumentParser], argv: Sequence[str] | None) -> argparse.Namespace:
    """``build()`` then parse ``argv``, with argparse's own words in Spanish throughout."""
    with spanish():
        return build().parse_args(argv)
