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
import difflib
import gettext
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

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
    "did you mean %s?": "¿quisiste decir %s?",
}
"""argparse's messages that a user of these commands can meet, in Spanish."""


EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a command whose reader left (``| head``)."""


def reader_left(stream: Any = None) -> int:
    """After a ``BrokenPipeError``: nobody is there to read a message, so none is written, and the
    interpreter's last flush must not fail again on the same pipe. Returns the exit code to use."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), (stream or sys.stdout).fileno())
    return EXIT_BROKEN_PIPE


class SuggestingParser(argparse.ArgumentParser):
    """A parser that takes no abbreviation and answers a near miss with "did you mean".

    ``--se 3`` is not silently ``--seed 3`` (a later option that starts the same would change
    its meaning), an unknown option is reported by the (sub)command it was given to, with that
    command's own usage, and a mistyped option, subcommand or choice names the closest one.
    Subcommands are built with the same class (argparse's default ``parser_class``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error(self.unrecognized(extras))
        return parsed

    def parse_known_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        self._given = list(sys.argv[1:] if args is None else args)
        parsed, extras = super().parse_known_args(args, namespace)
        # A command without subcommands owns what it did not recognise: it says so with its own usage,
        # instead of passing it up to the top command (whose usage does not show the option meant).
        if extras and self._subparsers is None:
            self.error(self.unrecognized(extras))
        return parsed, extras

    def unrecognized(self, extras: list[str]) -> str:
        message = argparse._("unrecognized arguments: %s") % " ".join(extras)  # type: ignore[attr-defined]
        options = [o for o in self._option_string_actions if o.startswith("--")]
        for given in extras:
            if given.startswith("-"):
                close = difflib.get_close_matches(given.split("=", 1)[0], options, n=1)
                if close:
                    return message + "\n" + argparse._("did you mean %s?") % close[0]  # type: ignore[attr-defined]
        return message

    def error(self, message: str) -> NoReturn:
        # A mistyped option is the cause of whatever else went wrong (``--ot x`` leaves --out missing): say it first.
        unknown = self.unknown_options()
        self.fail(self.unrecognized(unknown) if unknown else message)

    def fail(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, argparse._("%(prog)s: error: %(message)s\n") % {"prog": self.prog, "message": message})  # type: ignore[attr-defined]

    def unknown_options(self) -> list[str]:
        """The options given to this command that it does not have (before its subcommand, if it has some)."""
        given = getattr(self, "_given", [])
        given = given[: given.index("--")] if "--" in given else given
        if self._subparsers is not None:
            # This command's own options end at the subcommand: its first word that is not an option or an
            # option's value, known or mistyped (``grde x --out y``: --out is the subcommand's, not ours).
            end, i = len(given), 0
            while i < len(given):
                word = given[i]
                if not word.startswith("-") or len(word) == 1:
                    end = i
                    break
                action = self._option_string_actions.get(word)
                i += 2 if action is not None and action.nargs is None else 1
            given = given[:end]
        return [
            word
            for word in given
            if word.startswith("-")
            and len(word) > 1
            and not self._negative_number_matcher.match(word)
            and word.split("=", 1)[0] not in self._option_string_actions
        ]

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and value not in choices:
            close = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1)
            if close:
                names = {"value": value, "choices": ", ".join(map(repr, choices))}
                message = argparse._("invalid choice: %(value)r (choose from %(choices)s)") % names  # type: ignore[attr-defined]
                hint = argparse._("did you mean %s?") % close[0]  # type: ignore[attr-defined]
                raise argparse.ArgumentError(action, f"{message}; {hint}")
        super()._check_value(action, value)  # type: ignore[misc]


class SpanishParser(SuggestingParser):
    """An error ends with where to look for help, in Spanish, with exit code 2."""

    def fail(self, message: str) -> NoReturn:
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
