"""``check()`` in a notebook: grade the notebook's definitions without running them in the kernel.

The learner's functions are not called here. Their *source* is rebuilt from the
running namespace (``inspect.getsource`` of each function, plus what it references:
imports, plain constants such as ``READ_ONLY_TOOLS``, helper functions) and sent to
the same sandboxed judge the instructor's grader uses, with a fixed seed so the
table is the same on every run (nbval compares it).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import difflib
import html
import importlib
import inspect
import re
import sys
import textwrap
import types
from dataclasses import replace
from typing import Any

from autograder.course import criteria
from autograder.course.catalogue import text
from autograder.course.config import CourseConfig
from autograder.course.config import shipped as shipped_config
from autograder.course.lesson_map import NOTEBOOKS
from autograder.course.levels import LEVELS
from autograder.course.questions import QUESTIONS, graded_on_submission
from autograder.grading.pipeline import grade_loaded
from autograder.grading.resident import notebook_server
from autograder.intake.course_cells import course_code_cells
from autograder.intake.submission import from_python
from autograder.wire.cells import normalized
from autograder.wire.results import CriterionResult, SubmissionResult
from lesson3.practice import inline_code

PUBLIC_SEED = 20250825
"""check()'s seed: fixed, so its output is deterministic. Grading uses a random one."""

NOTEBOOK_NAME = "cuaderno"

_PLAIN = (str, int, float, bool, bytes, type(None))


class CheckResult(SubmissionResult):
    """What check() returns: the SubmissionResult, shown once (check() already displayed the table)."""

    lang = "es"

    def _ipython_display_(self) -> None:
        return None

    def __repr__(self) -> str:
        if not self.criteria and self.error:  # check()'s banner: nothing was graded, so no points to say
            return text("check.repr_nothing", self.lang)
        return text("check.repr", self.lang, total=_total(self, self.lang))


def check(
    level: int | None = None,
    *,
    lang: str | None = None,
    seed: int = PUBLIC_SEED,
    namespace: dict[str, Any] | None = None,
    _depth: int = 1,
) -> CheckResult:
    """Grade this notebook's exercise functions on every criterion, with check()'s fixed seed.

    ``level`` 0 (the resume path: ``my_load_checkpoint``, ``start_state``), 1
    (``resume_action`` and the reasons) or 2 (``reconcile`` and the root-cause answer); no level, every
    level that counts.

    Points, counted levels, limits and the default language are the course's
    (:func:`autograder.course.config.shipped`: the learner's edition carries them), as when it is graded.
    """
    course = _course(lang)
    lang = lang or course.lang or "es"
    if level not in (None, *LEVELS):
        raise ValueError(text("check.bad_level", lang, level=repr(level), levels=", ".join(map(str, LEVELS))))
    if level is not None and level not in course.levels:
        # Not an error in the learner's notebook: its check(level=N) cell stays, the course just does not grade it.
        counted = ", ".join(map(str, course.levels))
        print(text("config.level_not_counted", lang, level=level, levels=counted))
        empty = CheckResult(submission=NOTEBOOK_NAME, score=0.0, max_score=0.0, criteria=[])
        empty.lang = lang
        return empty
    levels = course.levels if level is None else (level,)
    ns = namespace if namespace is not None else sys._getframe(_depth).f_globals
    if not any(defined_here(ns, name) for name in criteria.learner_names()):
        # Notebooks 1-3 (or notebook 4 after a kernel restart): nothing to grade, and the graded names the
        # notebook imported from lesson3 for its demos are not the learner's. One banner, not a row per criterion.
        result = CheckResult(submission=NOTEBOOK_NAME, score=0.0, max_score=0.0, criteria=[])
        result.lang, result.error = lang, _nothing_here(ns, lang)
        show(result, lang=lang)
        return result
    course_imports = imported_by_course_cells(ns)
    own = {k: v for k, v in ns.items() if k not in course_imports}
    submission = from_python(extract_definitions(own), NOTEBOOK_NAME, kind="notebook")
    graded = grade_loaded(submission, replace(course, levels=levels, seed=seed, lang=lang), server=notebook_server())
    result = CheckResult(**{f: getattr(graded, f) for f in graded.__dataclass_fields__})
    result.lang = lang
    said = [text("check.course_import", lang, name=name, cell=cell) for name, cell in course_imports.items()]
    result.warnings = [*said, *result.warnings, *_changed_since_passed(result, own, lang)]
    show(result, lang=lang)
    return result


def defined_here(ns: dict[str, Any], name: str) -> bool:
    """Whether the notebook itself gives ``name`` its value: a function or class written in it, or a plain value
    (a question's letter); not an object a cell imported (notebook 3 imports lesson3's ``reconcile`` to show it)."""
    if name not in ns:
        return False
    value = ns[name]
    target = inspect.unwrap(value) if callable(value) else value
    if inspect.isfunction(target) or inspect.isclass(target):
        return getattr(target, "__module__", None) == ns.get("__name__", "__main__")
    return _is_plain(value)


def imported_by_course_cells(ns: dict[str, Any]) -> dict[str, int]:
    """The graded names a cell of the course's own notebooks imported (name -> that cell's number in ``In``).

    Those are the notebook's demos, not the learner's answer: graded as not written, never as delegation. A
    learner's own ``from lesson3 import reconcile`` (a cell the course does not have) still is delegation.
    """
    inputs = ns.get("In")
    if not isinstance(inputs, list):
        return {}
    found: dict[str, int] = {}
    for name in criteria.learner_names():
        if name not in ns or defined_here(ns, name):
            continue
        cell = _cell_that_bound(ns, name)
        if cell is not None and normalized(inputs[cell]) in course_code_cells():
            found[name] = cell
    return found


def _nothing_here(ns: dict[str, Any], lang: str) -> str:
    """The banner of a check() with no exercise of the learner's in its notebook: where the exercises are, and
    which graded names here are imports, not the learner's code."""
    functions = [n for n in criteria.learner_names() if n not in QUESTIONS]
    said = text(
        "check.nothing_here",
        lang,
        functions=", ".join(f"`{n}`" for n in functions),
        notebook=f"{NOTEBOOKS['04']}.ipynb",
    )
    imported = [n for n in criteria.learner_names() if n in ns and not defined_here(ns, n)]
    if imported:
        said += " " + text("check.nothing_here_imported", lang, names=", ".join(f"`{n}`" for n in imported))
    return said


_said_damaged: set[str] = set()
"""The damaged course files already reported in this kernel: once is enough."""


def warm_up_course() -> dict[str, Any] | None:
    """What check() will ask the grader for (the course's levels, check()'s seed), for the grading zygote to prepare.

    None when the course's file cannot be read quietly: check() says so itself, once.
    """
    course, problem = shipped_config()
    return None if problem is not None else replace(course, seed=PUBLIC_SEED).for_run().to_wire()


def _course(lang: str | None) -> CourseConfig:
    """The course's configuration (:func:`~autograder.course.config.shipped`); a damaged file is said once.

    In Spanish unless ``lang`` says otherwise: the file's own language is what could not be read.
    """
    course, problem = shipped_config()
    if problem is not None and (damage := problem.notice.render("es")) not in _said_damaged:
        _said_damaged.add(damage)
        error = problem.notice.render(lang or "es").rstrip(".")
        print(text("config.shipped_damaged", lang or "es", error=error), file=sys.stderr)
    return course


_passed_with: dict[str, dict[str, str]] = {}
"""Criterion id -> the plain globals its function read (name -> repr) when it last passed in this kernel."""


def _changed_since_passed(result: SubmissionResult, ns: dict[str, Any], lang: str) -> list[str]:
    """Warnings for the globals that changed since a now-failing criterion last passed.

    A correct answer can be undone by a later cell that rebinds a name it reads
    (``READ_ONLY_TOOLS = set()`` further down): the table alone would blame the function.
    """
    warnings: list[str] = []
    said: set[str] = set()
    for c in result.criteria:
        known = criteria.CRITERIA.get(c.id)
        if known is None:
            continue
        now = globals_read(ns, known.function)
        if c.passed:
            _passed_with[c.id] = now
            continue
        if c.pending:  # undecided is not failing: nothing to explain yet
            continue
        for name, before in _passed_with.get(c.id, {}).items():
            if name in said or now.get(name) == before:
                continue
            said.add(name)
            cell = _cell_that_bound(ns, name)
            key = "check.global_changed" if cell is not None else "check.global_changed_nocell"
            warnings.append(text(key, lang, name=name, cell=cell, criterion=c.id))
    return warnings


def globals_read(ns: dict[str, Any], name: str) -> dict[str, str]:
    """The plain-value globals (name -> repr) that ``ns[name]`` reads, through the notebook's helper functions."""
    module_name = ns.get("__name__", "__main__")
    found: dict[str, str] = {}
    seen: set[str] = set()
    pending = [name]
    while pending:
        current = pending.pop()
        if current in seen or current not in ns:
            continue
        seen.add(current)
        value = ns[current]
        target = inspect.unwrap(value) if callable(value) else value
        if (inspect.isfunction(target) or inspect.isclass(target)) and target.__module__ == module_name:
            try:
                source = textwrap.dedent(inspect.getsource(value))
            except (OSError, TypeError):
                continue
            pending += _referenced_names(source, target)
        elif current != name and _is_plain(value):
            found[current] = repr(value)
    return found


def _cell_that_bound(ns: dict[str, Any], name: str) -> int | None:
    """The execution count of the last cell that assigned or imported ``name`` at top level (IPython's ``In``)."""
    inputs = ns.get("In")
    if not isinstance(inputs, list):
        return None
    for count in range(len(inputs) - 1, 0, -1):
        try:
            tree = ast.parse(inputs[count])
        except (SyntaxError, ValueError, TypeError):
            continue  # magics and half-written cells
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if any((alias.asname or alias.name.split(".")[0]) == name for alias in node.names):
                    return count
                continue
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, (ast.AnnAssign, ast.AugAssign))
                else []
            )
            if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
                return count
    return None


_hints_seen: dict[str, int] = {}
"""Criterion id -> the last hint level ``pista(id)`` showed in this kernel."""


def pista(criterion: str | int | None = None, *, nivel: int | None = None, lang: str | None = None) -> None:
    """Print a criterion's next hint (or hint number ``nivel``); with no criterion, the first of each.

    The criteria are those the course counts (its configuration, as ``check()`` reads it), numbered as
    ``check()``'s table numbers them; the language, the course's unless given.
    """
    course = _course(lang)
    lang = lang or course.lang or "es"
    ids = [c.id for c in course.graded()]
    if criterion is None:
        chosen = ids
    elif isinstance(criterion, int) and not isinstance(criterion, bool) and 1 <= criterion <= len(ids):
        chosen = [ids[criterion - 1]]
    elif criterion in ids:
        chosen = [str(criterion)]
    else:
        # Said, not raised: a traceback under a hint cell tells a learner nothing they can act on.
        close = difflib.get_close_matches(str(criterion), ids, n=1, cutoff=0.6)
        said = text("check.did_you_mean", lang, id=close[0]) if close else ""
        print(text("check.no_criterion", lang, criterion=criterion, close=said, known=", ".join(ids)))
        return
    if nivel is not None and (isinstance(nivel, bool) or not isinstance(nivel, int) or nivel < 1):
        print(text("check.bad_hint_level", lang, nivel=repr(nivel)))
        return
    lines = []
    for cid in chosen:
        levels = criteria.hints(cid, lang)
        if nivel is not None:
            level = min(nivel, len(levels))
        elif criterion is None:
            level = 1
        else:
            level = min(_hints_seen.get(cid, 0) + 1, len(levels))
        _hints_seen[cid] = max(_hints_seen.get(cid, 0), level)
        if len(levels) == 1:
            lines.append(f"{cid}: {levels[0]}")
        else:
            lines.append(text("check.hint_level", lang, id=cid, level=level, n=len(levels), hint=levels[level - 1]))
    print("\n".join(lines))


# -- rebuilding the source -------------------------------------------------------------------------


def extract_definitions(ns: dict[str, Any]) -> str:
    """Source that recreates the exercise's names from a running namespace.

    Functions and classes defined in the notebook come back as their source; names
    they reference are followed: modules become imports, objects imported from a
    module become ``from ... import``, plain constants become literals. Anything
    else is left out (the sandbox will then report a NameError naming it).
    """
    module_name = ns.get("__name__", "__main__")
    imports: list[str] = []
    values: list[str] = []
    definitions: list[str] = []
    done: set[str] = set()

    def need(name: str) -> None:
        if name in done or name not in ns:
            return
        done.add(name)
        value = ns[name]
        if isinstance(value, types.ModuleType):
            imports.append(f"import {value.__name__} as {name}")
            return
        target = inspect.unwrap(value) if callable(value) else value  # decorated functions too
        if inspect.isfunction(target) or inspect.isclass(target):
            if getattr(target, "__module__", None) == module_name:
                try:
                    source = textwrap.dedent(inspect.getsource(value))
                except (OSError, TypeError):
                    definitions.append(text("check.source_unreadable", name=name))
                    return
                definitions.append(source.rstrip() + "\n")
                # `reconcile = mi_reconcile` needs the alias; a lambda's source is the assignment itself.
                if target.__name__ != name and target.__name__.isidentifier():
                    definitions.append(f"{name} = {target.__name__}\n")
                for dependency in _referenced_names(source, target):
                    need(dependency)
                return
        imported = _import_line(name, value)
        if imported:
            imports.append(imported)
        elif _is_plain(value):
            values.append(f"{name} = {value!r}")

    for name in criteria.learner_names():
        need(name)
    return "\n".join([*imports, *values, "", *definitions])


def _referenced_names(source: str, value: Any) -> list[str]:
    """The global names ``value``'s source reads (its defaults' and decorators' included), never its own
    parameters and locals: a function's ``cp`` is its argument, whatever a notebook cell bound ``cp`` to."""
    names: list[str] = []
    with contextlib.suppress(SyntaxError):
        names += [n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)]
    code = getattr(value, "__code__", None)
    stack = [code] if code is not None else []
    own: set[str] = set()
    globals_read: set[str] = set()
    while stack:
        current = stack.pop()
        globals_read.update(current.co_names)
        own.update(current.co_varnames, current.co_cellvars)
        stack += [c for c in current.co_consts if isinstance(c, types.CodeType)]
    names += sorted(globals_read)
    return list(dict.fromkeys(n for n in names if not hasattr(builtins, n) and (n in globals_read or n not in own)))


def _import_line(name: str, value: Any) -> str | None:
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if not (isinstance(module, str) and isinstance(qualname, str)) or module == "__main__" or "." in qualname:
        return None
    try:
        if getattr(importlib.import_module(module), qualname, None) is not value:
            return None
    except Exception:  # noqa: BLE001 - not importable means not reproducible this way
        return None
    return f"from {module} import {qualname}" + (f" as {name}" if name != qualname else "")


def _is_plain(value: Any, depth: int = 0) -> bool:
    if depth > 20:
        return False
    if isinstance(value, _PLAIN):
        return not (isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))))
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(_is_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(_is_plain(k, depth + 1) and _is_plain(v, depth + 1) for k, v in value.items())
    return False


# -- showing the table -----------------------------------------------------------------------------


def show(result: SubmissionResult, *, lang: str = "es") -> None:
    """HTML in Jupyter (with a deterministic text/plain twin for nbval), plain text elsewhere."""
    plain = render_text(result, lang=lang)
    if _ipython() is None:
        print(plain)
        return
    from IPython.display import display

    display({"text/plain": plain, "text/html": render_html(result, lang=lang)}, raw=True)


def _ipython() -> Any:
    module = sys.modules.get("IPython")
    if module is None:
        return None
    try:
        return module.get_ipython()
    except Exception:  # noqa: BLE001 - an odd IPython install just means "no rich display"
        return None


_HANG_KEYS = ("fail.timeout", "fail.call_timeout", "fail.budget", "fail.cpu")


def _template_pattern(template: str) -> str:
    # Without its final period: a later criterion quotes the hang inside parentheses (fail.poisoned).
    return re.sub(r"\\\{[^}]*\\\}", ".*?", re.escape(template.rstrip(".")))


def hung(feedback: str, lang: str) -> bool:
    """Whether the feedback reports code that did not finish (its words come from the catalogue)."""
    return any(re.search(_template_pattern(text(key, lang)), feedback) for key in _HANG_KEYS)


def _hint(criterion: CriterionResult, lang: str) -> str | None:
    """The hint under a failed criterion: none for a stub, the hang's own for a hang, never one said already."""
    if criterion.passed is not False or "NotImplementedError" in criterion.feedback or received(criterion, lang):
        return None
    if hung(criterion.feedback, lang):
        return text("check.hang_hint", lang)
    hint = criteria.hint(criterion.id, lang)
    return None if hint and hint in criterion.feedback else hint


def received(criterion: CriterionResult, lang: str) -> bool:
    """An answer the learner's edition only receives: graded on submission, where the key is (not unanswered)."""
    return graded_on_submission(criterion.id) and bool(
        re.fullmatch(_template_pattern(text("question.received", lang)) + r"\.?", criterion.feedback)
    )


def _total(result: SubmissionResult, lang: str) -> str:
    """«7/20 puntos», or «7/20 puntos (3 pendientes de revisión)»: pending points are neither 0 nor full marks.

    In the learner's edition the answers received are graded on submission: out of the total shown here,
    and said apart («22/22 puntos (6 por calificar al entregar)»), so a right answer never reads as lost.
    """
    on_submission = sum(c.max_score for c in result.criteria if received(c, lang))
    shown = f"{result.score:g}/{result.max_score - on_submission:g} {text('check.points', lang)}"
    apart = [text("check.pending_points", lang, points=f"{result.pending:g}")] if result.pending else []
    if on_submission:
        apart.append(text("check.received_points", lang, points=f"{on_submission:g}"))
    return shown + (f" ({'; '.join(apart)})" if apart else "")


def _mark(c: CriterionResult, lang: str) -> str:
    """○ left to a person; … an answer received, graded on submission; else ✔ or ✘."""
    if c.pending:
        return text("report.pending_mark", lang)
    if received(c, lang):
        return "…"
    return "✔" if c.passed else "✘"


def _points(c: CriterionResult, lang: str) -> str:
    """«1/1», «0/1»; «?/2» for points not decided here: pending review, or an answer graded on submission."""
    undecided = c.score is None or received(c, lang)
    return f"{'?' if undecided else f'{c.score:g}'}/{c.max_score:g}"


def _feedback(result: SubmissionResult, c: CriterionResult, lang: str) -> str:
    if result.not_run:  # the submission's error is said once, above the table
        return text("report.not_run_row", lang)
    return f"{text('check.pending', lang)}. {c.feedback}" if c.pending else c.feedback


def _heading(result: SubmissionResult, lang: str) -> str:
    """«Autocorrector · Lección 3 — 7/20 puntos»; without points when nothing was graded (check()'s banner)."""
    head = text("check.head", lang)
    return f"{head} — {_total(result, lang)}" if result.criteria else head


def _received_note(result: SubmissionResult, lang: str) -> list[str]:
    return [text("check.received_note", lang)] if any(received(c, lang) for c in result.criteria) else []


def render_text(result: SubmissionResult, *, lang: str = "es") -> str:
    lines = [_heading(result, lang), *_received_note(result, lang)]
    if result.error:
        lines.append("")
        lines += textwrap.wrap(result.error, 100)
    for warning in result.warnings:
        lines += textwrap.wrap("⚠ " + warning, 100)
    lines.append("")
    for c in result.criteria:
        lines.append(f"{_mark(c, lang)} {c.id}  ({criteria.title(c.id, lang)})  {_points(c, lang)}")
        lines += textwrap.wrap(_feedback(result, c, lang), 96, initial_indent="    ", subsequent_indent="    ")
        if not result.not_run and (hint := _hint(c, lang)):
            lines += textwrap.wrap(
                f"{text('check.hint', lang)}: {hint}", 96, initial_indent="    ", subsequent_indent="    "
            )
    return "\n".join(lines)


TABLE_CLASS = "lesson3-check"
"""The class of check()'s table (the browser test finds it by this)."""

# Inline on every cell: JupyterLab's `.jp-RenderedHTMLCommon td { text-align: right }` beats anything the
# table inherits, and a class of ours would need a stylesheet the output cannot ship. Words wrap only between
# words (`break-word` never narrows a column below its longest word, as `anywhere` did: «criteri/o» at 390 px);
# a long word breaks only when it alone is wider than the whole comment.
_CELL = "text-align:left;vertical-align:top;padding:4px 6px;overflow-wrap:break-word;word-break:normal"
# The mark and the points take their content's width and no more; the criterion and the comment share the rest.
_NARROW = f"{_CELL};width:1%;white-space:nowrap"
CRITERION_ROW = "criterion"
"""The class of a criterion's row; its comment is the next row, as wide as the table (no tall narrow column)."""


def _breakable_id(criterion_id: str) -> str:
    """A criterion's id that may wrap after a dot or an underscore (``nivel2.high_impact_not_rerun``), nowhere else."""
    return re.sub(r"([._])", r"\1<wbr>", html.escape(criterion_id))


def render_html(result: SubmissionResult, *, lang: str = "es") -> str:
    """The table, readable from 390 to 1280 px wide: a row per criterion (its mark, id and title, points), then its
    comment across the table; left-aligned, `code` shown as code, nothing scrolls sideways."""
    esc = html.escape
    rows = []
    for c in result.criteria:
        color = "#fff4e0" if c.pending else "#e6f4ea" if c.passed else "#eef1f5" if received(c, lang) else "#fce8e6"
        mark = _mark(c, lang)
        hint = None if result.not_run else _hint(c, lang)
        hint_html = f"<br><em>{esc(text('check.hint', lang))}: {inline_code(hint)}</em>" if hint else ""
        rows.append(
            f'<tr class="{CRITERION_ROW}" style="background:{color}"><td style="{_NARROW}">{mark}</td>'
            f'<td style="{_CELL}"><code>{_breakable_id(c.id)}</code> <small>{esc(criteria.title(c.id, lang))}</small>'
            f'</td><td style="{_NARROW}">{_points(c, lang)}</td></tr>'
            f'<tr style="background:{color};border-bottom:2px solid #fff"><td style="{_NARROW}"></td>'
            f'<td colspan="2" style="{_CELL}">{inline_code(_feedback(result, c, lang))}{hint_html}</td></tr>'
        )
    notes = "".join(f'<p style="text-align:left">{inline_code(n)}</p>' for n in _received_note(result, lang))
    notes += "".join(f'<p style="text-align:left">⚠ {inline_code(w)}</p>' for w in result.warnings)
    error = f'<p style="text-align:left"><strong>{inline_code(result.error)}</strong></p>' if result.error else ""
    criterion, points = (esc(text(f"check.{column}", lang)) for column in ("criterion", "points"))
    header = f'<th style="{_NARROW}"></th><th style="{_CELL}">{criterion}</th><th style="{_NARROW}">{points}</th>'
    table = (
        f'<table class="{TABLE_CLASS}" style="border-collapse:collapse;width:100%;max-width:100%">'
        f"<tr>{header}</tr>{''.join(rows)}</table>"
        if rows
        else ""  # check()'s banner: nothing was graded
    )
    return f"<div><h4>{esc(_heading(result, lang))}</h4>{error}{notes}{table}</div>"
