"""The course's configuration: points, counted levels, limits, seed and language in one file.

An instructor changes how the course is graded without editing Python: ``autograder grade
--config curso.toml`` (and ``gradescope``, ``release``). The file is TOML with Spanish keys
(``curso.toml.ejemplo`` at the repository's root documents each one)::

    semilla = 2026             # --seed
    idioma = "es"              # --lang
    niveles = [0, 1, 2]        # which levels count
    [puntos]                   # criterion id -> points
    "nivel2.no_double_email" = 4
    [limites]                  # autograder.wire.limits.Limits: same names and units
    call_seconds = 2

Every key is checked before anything is graded; a mistake stops the command with a message
naming the file, the line and what is wrong (:class:`ConfigError`). A flag given on the command
line wins over the file.

What a run used is recorded in results.json (:meth:`CourseConfig.record`: the values and their
SHA-256), so ``merge`` can refuse parts graded under different configurations. The Gradescope
bundle and the learner's edition carry it as JSON in the same shape (:func:`to_file_json`):
Python 3.10, Gradescope's, has no ``tomllib``, and JSON needs nothing installed. The learner's
copy leaves the seed out (:meth:`CourseConfig.for_learners`): with it and the grader's source,
anyone could replay the hidden cases.

Plain data: the grader's and the notebook's processes import it without lesson3, the SDK or
anything that judges.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import json
import math
import secrets
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from autograder.course import criteria
from autograder.course.catalogue import LANGS, Notice, NoticeError, notice
from autograder.course.levels import LEVELS
from autograder.wire.limits import Limits
from autograder.wire.results import CriterionResult

CONFIG_MAX_BYTES = 256 * 1024
"""A course file is a few hundred bytes; anything much bigger is not one."""
SHIPPED = Path(__file__).with_name("curso.json")
"""Where the learner's edition (``autograder release --config``) keeps the course's configuration for ``check()``."""
SEED_MAX = 2**31
"""Seeds are drawn below this (``--seed``'s range, Gradescope's learner seeds)."""
POINTS_MAX = 100.0
LATE_PENALTY_MAX = 100.0
"""``penalizacion_tarde`` is a share of the grade: at most all of it."""

LIMIT_RANGES: dict[str, tuple[float, float]] = {
    "load_seconds": (0.1, 120.0),
    "call_seconds": (0.1, 60.0),
    "check_seconds": (0.1, 600.0),
    "cpu_seconds": (1, 3600),
    "memory_mb": (128, 16384),
    "output_kb": (1, 10240),
    "file_mb": (1, 1024),
    "disk_mb": (1, 16384),
    "disk_files": (10, 1_000_000),
    "threads": (0, 64),
    "submission_seconds": (10.0, 3600.0),
}
"""The limits a course may set, and their ranges (in :class:`~autograder.wire.limits.Limits`' units).

``processes`` is not here: the learner's process never starts another, whatever the course."""

KEYS = ("semilla", "idioma", "niveles", "puntos", "limites", "penalizacion_tarde")
"""The file's top-level keys."""


class ConfigError(NoticeError):
    """The course file cannot be used: ``notice`` names the file, the line and what is wrong."""


def _canonical_points(points: Mapping[str, float]) -> dict[str, float]:
    return {cid: float(points.get(cid, c.points)) for cid, c in criteria.CRITERIA.items()}


@dataclass(frozen=True)
class CourseConfig:
    """How the course is graded: the registry's defaults unless a file (or a flag) said otherwise."""

    points: dict[str, float] = field(default_factory=dict)
    """Criterion id -> points: every criterion's when read from a file; a criterion not named keeps the registry's."""
    levels: tuple[int, ...] = LEVELS
    """The levels that count, ascending."""
    limits: Limits = field(default_factory=Limits)
    seed: int | None = None
    lang: str | None = None
    source: str | None = field(default=None, compare=False)
    """The file it was read from (for messages; not part of what it means)."""
    late_penalty: float = 0.0
    """Per cent of the grade taken off work the LMS marks as late (``penalizacion_tarde``), when it goes to the
    LMS (``export``): 0, the default, takes nothing off."""

    def graded(self) -> list[criteria.Criterion]:
        """The criteria a submission is graded on, with their configured points."""
        return criteria.graded(self.levels, self.points)

    def not_graded(self, message: str) -> list[CriterionResult]:
        """Every criterion failed with the same reason (the submission did not load, or the grader failed)."""
        return [c.failed(message) for c in self.graded()]

    @property
    def max_score(self) -> float:
        return float(sum(c.points for c in self.graded()))

    def with_run(self, *, seed: int | None = None, lang: str | None = None) -> CourseConfig:
        """The configuration a run actually used: its seed and language (the flags', or the file's)."""
        return replace(self, seed=seed, lang=lang)

    def for_run(self) -> CourseConfig:
        """What a run grades with: a seed (drawn when none was given) and a language (Spanish when none was)."""
        seed = secrets.randbelow(SEED_MAX) if self.seed is None else self.seed
        return self.with_run(seed=seed, lang=self.lang or "es")

    def to_wire(self) -> dict[str, Any]:
        """What the judging request carries (:meth:`from_wire` reads it): the points as given, every limit."""
        return {**self.to_json(), "puntos": dict(self.points), "limites": self.limits.to_json()}

    @classmethod
    def from_wire(cls, raw: dict[str, Any]) -> CourseConfig:
        """The grader's configuration in the judging process (checked where it was read)."""
        points = {str(k): float(v) for k, v in raw["puntos"].items()}
        levels = tuple(int(level) for level in raw["niveles"])
        limits = Limits.from_json(raw["limites"])
        return cls(points, levels, limits, raw.get("semilla"), raw.get("idioma"), late_penalty=late_penalty(raw))

    def to_json(self) -> dict[str, Any]:
        """The values, in the file's own keys (what the bundle and the learner's edition carry)."""
        record: dict[str, Any] = {
            "puntos": _canonical_points(self.points),
            "niveles": list(self.levels),
            "limites": {name: getattr(self.limits, name) for name in LIMIT_RANGES},
        }
        if self.seed is not None:
            record["semilla"] = self.seed
        if self.lang is not None:
            record["idioma"] = self.lang
        if self.late_penalty:  # only when set: a course without one keeps the digest it always had
            record["penalizacion_tarde"] = self.late_penalty
        return record

    def digest(self) -> str:
        """SHA-256 of the values: two runs with the same digest graded alike."""
        return values_digest(self.to_json())

    def record(self) -> dict[str, Any]:
        """What results.json says about the configuration a run used: its values and their digest."""
        return {"sha256": self.digest(), **self.to_json()}

    def for_learners(self) -> CourseConfig:
        """What the learner's edition may carry: no seed (with it, a learner could replay the hidden cases)."""
        return replace(self, seed=None)


def late_penalty(values: Mapping[str, Any] | None) -> float:
    """The per cent a course's record (results.json's ``report.config``) takes off late work; 0 when none."""
    late = (values or {}).get("penalizacion_tarde", 0)
    return float(late) if is_number(late) and 0 <= late <= LATE_PENALTY_MAX else 0.0


def values_digest(values: Mapping[str, Any]) -> str:
    """SHA-256 of a configuration's values (:meth:`CourseConfig.to_json`, or its record read back from results.json)."""
    shown = {k: v for k, v in values.items() if k != "sha256"}
    canonical = json.dumps(shown, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


DEFAULT = CourseConfig()
"""The built-in configuration: the registry's points, every level, the default limits."""


# --- where a key is: TOML has no line numbers once parsed -------------------------------------


def _split_key(raw: str) -> list[str]:
    """``a."b.c" . d`` -> ["a", "b.c", "d"]: a TOML dotted key's parts, quotes removed."""
    parts, current, quote, quoted = [], "", None, False
    for ch in raw:
        if quote:
            if ch == quote:
                quote = None
            else:
                current += ch
        elif ch in "\"'":
            quote, quoted = ch, True
        elif ch == ".":
            parts.append(current if quoted else current.strip())
            current, quoted = "", False
        elif not ch.isspace() or quoted:
            current += ch if not ch.isspace() else ""
    parts.append(current if quoted else current.strip())
    return parts


def _before_equals(line: str) -> str | None:
    """The key of a ``key = value`` line (None for anything else)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return None
        elif ch == "=":
            return line[:i]
    return None


class Locator:
    """The line of each key in a TOML text, by its dotted path (``puntos.nivel0.fresh_start``)."""

    def __init__(self, source: str | None) -> None:
        self.lines: list[tuple[int, str]] = []
        if source is None:
            return
        table: list[str] = []
        for number, line in enumerate(source.splitlines(), start=1):
            stripped = line.strip()
            if stripped.startswith("[") and not stripped.startswith("[["):
                end = stripped.find("]")
                if end > 0:
                    table = _split_key(stripped[1:end])
                    self.lines.append((number, ".".join(table)))
                continue
            key = _before_equals(stripped)
            if key is not None and key.strip():
                self.lines.append((number, ".".join([*table, *_split_key(key)])))

    def line(self, *path: str) -> int | None:
        """The line of ``path``, or of the nearest enclosing key or table that is in the file."""
        for end in range(len(path), 0, -1):
            wanted = ".".join(path[:end])
            for number, found in self.lines:
                if found == wanted:
                    return number
        return None


# --- reading and checking ---------------------------------------------------------------------


def _toml_reader() -> Any:
    """tomllib (Python 3.11+), else tomli, its backport (a dependency on Python 3.10, pyproject.toml)."""
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib
    try:
        return importlib.import_module("tomli")
    except ModuleNotFoundError:
        return None


def load(path: str | Path) -> CourseConfig:
    """Read and check a course file (TOML, or the JSON a bundle or an edition carries)."""
    path = Path(path)
    shown = str(path)
    try:
        if not path.is_file():
            raise ConfigError(notice("config.not_a_file", file=shown))
        with path.open("rb") as f:
            data = f.read(CONFIG_MAX_BYTES + 1)
    except OSError as exc:
        raise ConfigError(notice("config.unreadable", file=shown, reason=exc.strerror or type(exc).__name__)) from None
    if len(data) > CONFIG_MAX_BYTES:
        raise ConfigError(notice("config.too_big", file=shown, max=CONFIG_MAX_BYTES // 1024))
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(notice("config.error", where=_where(shown, line), what=notice("config.not_utf8"))) from None
    if path.suffix == ".json":
        return parse_json(source, shown)
    return parse_toml(source, shown)


def parse_toml(source: str, shown: str = "curso.toml") -> CourseConfig:
    reader = _toml_reader()
    if reader is None:
        raise ConfigError(notice("config.no_toml", file=shown))
    try:
        raw = reader.loads(source)
    except reader.TOMLDecodeError as exc:
        line, column, reason = _syntax_position(str(exc))
        if line is None and reason.endswith(_AT_END):  # an array or a string left open: the file's last line
            line, reason = max(len(source.splitlines()), 1), reason.removesuffix(_AT_END)
        where = _where(shown, line, column)
        raise ConfigError(notice("config.error", where=where, what=notice("config.syntax", reason=reason))) from None
    return check(raw, Locator(source), shown)


def parse_json(source: str, shown: str) -> CourseConfig:
    try:
        raw = json.loads(source)
    except (ValueError, RecursionError):
        raise ConfigError(notice("config.error", where=_where(shown), what=notice("config.not_json"))) from None
    if not isinstance(raw, dict):
        raise ConfigError(notice("config.error", where=_where(shown), what=notice("config.not_json")))
    return check(raw, Locator(None), shown)


_AT_END = " (at end of document)"


def _syntax_position(message: str) -> tuple[int | None, int | None, str]:
    """tomllib's «Reason (at line 3, column 5)»: the line, the column and the reason."""
    head, _, tail = message.rpartition(" (at line ")
    if not head:
        return None, None, message
    line, _, column = tail.rstrip(")").partition(", column ")
    return (int(line) if line.isdigit() else None), (int(column) if column.isdigit() else None), head


def _where(shown: str, line: int | None = None, column: int | None = None) -> Notice:
    if line is None:
        return notice("config.where", file=shown)
    if column is None:
        return notice("config.where_line", file=shown, line=line)
    return notice("config.where_column", file=shown, line=line, column=column)


def _kind(value: object) -> Notice:
    """What a value is, in words: «un texto», «una lista»…"""
    if isinstance(value, bool):
        name = "bool"
    elif isinstance(value, int):
        name = "int"
    elif isinstance(value, float):
        name = "float"
    elif isinstance(value, str):
        name = "str"
    elif isinstance(value, list):
        name = "list"
    elif isinstance(value, dict):
        name = "table"
    else:
        name = "date"
    return notice(f"config.kind.{name}")


def _suggest(given: str, known: list[str]) -> Notice | str:
    close = difflib.get_close_matches(given, known, n=3, cutoff=0.5)
    return notice("config.did_you_mean", names=", ".join(f"«{c}»" for c in close)) if close else ""


def is_number(value: object) -> bool:
    """A finite int or float, not a bool: what a number in curso.toml or results.json may be."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _flatten(table: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """``[puntos] nivel0.fresh_start = 1`` is a nested table in TOML: back to the criterion's id."""
    found: list[tuple[str, Any]] = []
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and name not in criteria.CRITERIA:
            found += _flatten(value, f"{name}.")
        else:
            found.append((name, value))
    return found


def check(raw: dict[str, Any], where: Locator, shown: str) -> CourseConfig:
    """A parsed course file as a :class:`CourseConfig`; the first mistake as a :class:`ConfigError`."""

    def fail(path: tuple[str, ...], what: Notice) -> ConfigError:
        return ConfigError(notice("config.error", where=_where(shown, where.line(*path)), what=what))

    def expect(path: tuple[str, ...], ok: Callable[[Any], bool], expected: str, value: Any) -> None:
        if not ok(value):
            # A wrong word is named as written (the instructor's own file); anything else by its kind.
            got = f'"{value[:20]}"' if isinstance(value, str) and expected == "lang" else _kind(value)
            what = notice("config.type", name=path[-1], expected=notice(f"config.expected.{expected}"), got=got)
            raise fail(path, what)

    for key in raw:
        if key not in KEYS:
            raise fail(
                (key,), notice("config.unknown_key", name=key, suggest=_suggest(key, list(KEYS)), known=", ".join(KEYS))
            )

    points: dict[str, float] = {}
    table = raw.get("puntos", {})
    expect(("puntos",), lambda v: isinstance(v, dict), "table", table)
    for cid, value in _flatten(table):
        path = ("puntos", cid)
        if cid not in criteria.CRITERIA:
            known = list(criteria.CRITERIA)
            raise fail(path, notice("config.unknown_criterion", name=cid, suggest=_suggest(cid, known)))
        expect(path, is_number, "points", value)
        if not 0 <= value <= POINTS_MAX:
            raise fail(path, notice("config.range", name=cid, value=str(value), low=0, high=f"{POINTS_MAX:g}", unit=""))
        points[cid] = float(value)

    levels = LEVELS
    if "niveles" in raw:
        given = raw["niveles"]
        expect(("niveles",), lambda v: isinstance(v, list) and bool(v), "levels", given)
        for value in given:
            if isinstance(value, bool) or not isinstance(value, int) or value not in LEVELS:
                # As the file writes it (1.5): a value quoted back from TOML keeps TOML's decimal point.
                shown_value = str(value) if is_number(value) else _kind(value)
                raise fail(("niveles",), notice("config.level", value=shown_value, levels=", ".join(map(str, LEVELS))))
        if len(set(given)) != len(given):
            raise fail(("niveles",), notice("config.level_twice"))
        levels = tuple(sorted(given))

    limits = Limits()
    table = raw.get("limites", {})
    expect(("limites",), lambda v: isinstance(v, dict), "table", table)
    given_limits: dict[str, float] = {}
    for name, value in table.items():
        path = ("limites", name)
        if name not in LIMIT_RANGES:
            known = list(LIMIT_RANGES)
            raise fail(
                path, notice("config.unknown_limit", name=name, suggest=_suggest(name, known), known=", ".join(known))
            )
        whole = isinstance(getattr(limits, name), int)  # counts (MB, files, threads), not seconds
        if whole:
            expect(path, lambda v: is_number(v) and not isinstance(v, float), "integer", value)
        else:
            expect(path, is_number, "number", value)
        low, high = LIMIT_RANGES[name]
        if not low <= value <= high:
            unit = _unit(name)
            raise fail(
                path, notice("config.range", name=name, value=str(value), low=f"{low:g}", high=f"{high:g}", unit=unit)
            )
        given_limits[name] = int(value) if whole else float(value)
    limits = replace(limits, **given_limits)
    if limits.call_seconds > limits.check_seconds:
        path = ("limites", "call_seconds" if "call_seconds" in given_limits else "check_seconds")
        raise fail(
            path, notice("config.call_over_check", call=f"{limits.call_seconds:g}", check=f"{limits.check_seconds:g}")
        )
    if limits.load_seconds + limits.check_seconds >= limits.submission_seconds:
        name = next((n for n in ("submission_seconds", "load_seconds", "check_seconds") if n in given_limits), "")
        raise fail(
            ("limites", name),
            notice(
                "config.backstop",
                load=f"{limits.load_seconds:g}",
                check=f"{limits.check_seconds:g}",
                total=f"{limits.submission_seconds:g}",
            ),
        )

    seed = raw.get("semilla")
    if seed is not None:
        expect(("semilla",), lambda v: isinstance(v, int) and not isinstance(v, bool), "integer", seed)
        if not 0 <= seed < SEED_MAX:
            raise fail(
                ("semilla",), notice("config.range", name="semilla", value=seed, low=0, high=SEED_MAX - 1, unit="")
            )
    lang = raw.get("idioma")
    if lang is not None:
        expect(("idioma",), lambda v: v in LANGS, "lang", lang)

    late = raw.get("penalizacion_tarde", 0)
    expect(("penalizacion_tarde",), is_number, "percent", late)
    if not 0 <= late <= LATE_PENALTY_MAX:
        what = notice(
            "config.range", name="penalizacion_tarde", value=str(late), low=0, high=f"{LATE_PENALTY_MAX:g}", unit=" %"
        )
        raise fail(("penalizacion_tarde",), what)

    config = CourseConfig(_canonical_points(points), levels, limits, seed, lang, shown, float(late))
    if config.max_score <= 0:
        raise fail(("niveles",) if "niveles" in raw else ("puntos",), notice("config.nothing_counts"))
    return config


def _unit(name: str) -> str:
    return {"seconds": " s", "mb": " MB", "kb": " KB"}.get(name.rpartition("_")[2], "")


def to_file_json(config: CourseConfig) -> str:
    """The configuration as the JSON file a bundle or an edition carries (read back by :func:`load`)."""
    return json.dumps(config.to_json(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def shipped() -> tuple[CourseConfig, ConfigError | None]:
    """The course's configuration in the learner's edition (``autograder release --config``), else the defaults.

    A damaged file must not break the learner's ``check()``: the defaults are used, and the error says
    what is wrong with it (``check()`` and ``pista()`` show it).
    """
    try:
        return (load(SHIPPED), None) if SHIPPED.exists() else (DEFAULT, None)
    except ConfigError as exc:
        return DEFAULT, exc
    except OSError as exc:  # its folder cannot even be searched
        return DEFAULT, ConfigError(notice("config.unreadable", file=str(SHIPPED), reason=exc.strerror or "OSError"))
