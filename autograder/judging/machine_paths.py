"""What leaves the judging process names no folder of the grading machine.

The learner's code runs on the instructor's machine, so anything it raises or prints may carry the
machine's paths: a ``PermissionError`` on ``/home/prof/curso/autograder/judging/__init__.py``, a
message built from ``lesson3.__file__``, ``sys.prefix`` printed in a loop, the folder it runs in. The
result goes to the learner (feedback pages, the LMS's comments, Gradescope) whatever field carries
it, so the whole result is rewritten once, here, rather than each message where it is formatted:
the packages' folder goes (``autograder/judging/__init__.py``), the learner's own folder goes (a path
inside it reads as the learner wrote it), Python's installation reads ``<python>``, the temporary
folder ``<tmp>`` and the home folder ``~``.
"""

from __future__ import annotations

import functools
import os
import pwd
import re
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def _machine_folders(extra: Iterable[tuple[str | os.PathLike[str], str]]) -> list[tuple[str, str]]:
    packages = Path(__file__).resolve().parents[2]  # the checkout or site-packages (autograder/judging/this)
    found = [
        *((os.fspath(folder), shown) for folder, shown in extra),
        (str(packages), ""),
        *((prefix, "<python>") for prefix in {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix}),
        (tempfile.gettempdir(), "<tmp>"),
        *((home, "~") for home in _homes()),
    ]
    folders: dict[str, str] = {}
    for folder, shown in found:
        for spelling in {folder, os.path.realpath(folder)}:  # /tmp may be a link, and either may be printed
            if len(spelling) > 1:  # never "/" itself
                folders.setdefault(spelling.rstrip("/"), shown)
    return sorted(folders.items(), key=lambda item: -len(item[0]))  # the most specific folder first


def _homes() -> set[str]:
    # The judging process runs with a clean HOME (wire.forking): the instructor's own is the account's.
    found = {str(Path.home())}
    try:
        found.add(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:  # a uid without an account (a container's)
        pass
    return found


@functools.cache
def _pattern(folders: tuple[tuple[str, str], ...]) -> re.Pattern[str]:
    # A folder only as a whole path: /tmp in /tmp/x and at a sentence's full stop, not in /tmpfoo,
    # /tmp.bak, /var/tmp or a URL's /tmp.
    return re.compile("|".join(f"(?<![\\w.-])({re.escape(folder)})(?![\\w-]|\\.[\\w-])/?" for folder, _ in folders))


_PATH_TAIL = re.compile(r"[\w./-]*$")


def _as_read(text: str) -> str:
    """``text`` as a person reads it: compatibility forms folded (NFKC), invisible and combining marks and
    line breaks dropped, ``//`` and ``/./`` made one ``/``."""
    if text.isascii():  # NFKC and NFKD leave ASCII as it is, and no ASCII character is Cf or Mn
        kept = text.replace("\r", "").replace("\n", "")
    else:
        folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
        kept = "".join(ch for ch in folded if unicodedata.category(ch) not in ("Cf", "Mn") and ch not in "\r\n")
    return _REPEATED_SLASHES.sub("/", kept) if "/" in kept else kept


_REPEATED_SLASHES = re.compile(r"/(?:\.?/)+")


def hiding(*extra: tuple[str | os.PathLike[str], str]) -> Callable[[T], T]:
    """A function that rewrites every string inside a JSON-like value (dicts, lists, strings) without
    the machine's folders; ``extra`` adds folders of this judgment (a folder, what to show instead)."""
    folders = tuple(_machine_folders(extra))
    pattern = _pattern(folders)
    shown = [s for _, s in folders]
    spelled = [f for f, _ in folders]

    def replace(match: re.Match[str]) -> str:
        instead = shown[match.lastindex - 1] if match.lastindex else ""
        if match.group(0).endswith("/"):
            return f"{instead}/" if instead else ""
        return instead or "."

    def cut_short(text: str) -> str:
        # A message cut to its length limit in the learner's process may end inside a folder's path.
        tail = _PATH_TAIL.search(text).group(0)  # type: ignore[union-attr] - the pattern matches "" at least
        if len(tail) > 4:
            for folder, instead in folders:
                if folder.startswith(tail) and folder != tail:
                    return text[: len(text) - len(tail)] + (instead or ".") + "…"
        return text

    def names_one(text: str) -> bool:
        # Every alternative of the pattern starts with a folder's own spelling: without one, nothing matches.
        return any(folder in text for folder in spelled)

    def rewritten(text: str) -> str:
        text = cut_short(pattern.sub(replace, text) if names_one(text) else text)
        # Written to slip past a plain match (a zero-width space, a soft hyphen, fullwidth slashes,
        # "//" or "/./", one piece a line): the text read as a person reads it, and rewritten so, when
        # that reading names a folder. Encodings a person must decode (base64, hex) stay out of reach.
        plain = _as_read(text)
        return cut_short(pattern.sub(replace, plain)) if names_one(plain) and pattern.search(plain) else text

    def rewrite(value: Any) -> Any:
        if isinstance(value, str):
            return rewritten(value)
        if isinstance(value, dict):
            return {k: rewrite(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rewrite(v) for v in value]
        return value

    return rewrite
