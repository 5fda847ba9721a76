"""Reporting: what the instructor sees (results.json, grades.csv, resumen.html) and the learner (feedback/).

Learner-provided text (file names, error messages that quote learner code) is
escaped everywhere it lands: HTML through Jinja2's autoescape, Markdown by
neutralising markup characters, CSV by defusing spreadsheet formulas; in all three,
bidirectional controls are written out as their code, and names sit in ``<bdi>``.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from autograder.course import criteria
from autograder.course.catalogue import LANGS, section, text
from autograder.wire.results import SubmissionResult
from lesson3.checkpoint import write_atomic

TEMPLATES = Path(__file__).parents[1] / "templates"


@dataclass(frozen=True)
class ReportEntry:
    result: SubmissionResult
    source: str  # where the file came from, e.g. "entregas.zip/grupo1/ana.ipynb"
    name: str  # unique file stem for this submission's feedback files


def criterion_title(criterion_id: str, lang: str = "es") -> str:
    """«Nivel 2 · el incidente: un solo correo»: the criterion's declared title, with its level."""
    criterion = criteria.CRITERIA.get(criterion_id)
    if criterion is None:
        return criterion_id
    level = text("report.level", lang, level=criterion.level)
    return f"{level} · {criteria.title(criterion_id, lang)}"


def fmt_points(x: float) -> str:
    """7.0 -> "7", 7.25 -> "7.25": points read like points, not floats."""
    return f"{round(x, 2):g}"


def criteria_order(results: Iterable[SubmissionResult]) -> list[str]:
    """The required ids first, in the registry's order; anything else after, so nothing is dropped."""
    required = criteria.required_ids()
    return [*required, *dict.fromkeys(c.id for r in results for c in r.criteria if c.id not in required)]


# --- results.json -----------------------------------------------------------------------------


def results_document(
    entries: list[ReportEntry], *, seed: int | None = None, run: dict[str, Any] | None = None
) -> dict[str, Any]:
    submissions = []
    for e in entries:
        record = e.result.to_json()
        record["source"] = e.source
        record["feedback"] = f"feedback/{e.name}.html"
        if record.get("seed") is None and seed is not None:
            record["seed"] = seed
        submissions.append(record)
    # ``run`` (seed, course version, shard...) lets `autograder merge` check and join parts (reporting.shards).
    return {"submissions": submissions} if run is None else {"run": run, "submissions": submissions}


# --- grades.csv -------------------------------------------------------------------------------


_BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Characters that reorder the text around them (a «‮» in «ana‮yp.exe»): shown as their code, never obeyed."""
_BIDI_SHOWN = str.maketrans({c: f"\\u{ord(c):04X}" for c in _BIDI_CONTROLS})


def bidi_visible(text: str) -> str:
    """``text`` with its bidirectional controls written out (``\\u202E``), so they cannot reorder a report."""
    return text.translate(_BIDI_SHOWN)


def _csv_cell(value: object) -> str:
    text = bidi_visible("" if value is None else str(value))
    # A learner-chosen file name like "=HYPERLINK(...)" must stay text in a spreadsheet.
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        text = "'" + text
    return text


def grades_csv(entries: list[ReportEntry]) -> str:
    ids = criteria_order(e.result for e in entries)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["submission", "source", *ids, "total", "max_score", "error"])
    for e in entries:
        by_id = {c.id: c for c in e.result.criteria}
        writer.writerow(
            [
                _csv_cell(e.result.submission),
                _csv_cell(e.source),
                *(fmt_points(by_id[i].score) if i in by_id else "" for i in ids),
                fmt_points(e.result.score),
                fmt_points(e.result.max_score),
                _csv_cell(e.result.error or ""),
            ]
        )
    return buf.getvalue()


# --- Markdown feedback ------------------------------------------------------------------------

# Every character str.splitlines() breaks on: a file name with one must not start a new Markdown line.
_LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_CONTROLS = [chr(c) for c in [*range(0x20), 0x7F] if chr(c) not in _LINE_BREAKS]
_MD_SPECIAL = str.maketrans(
    {c: f"\\u{ord(c):04X}" for c in _BIDI_CONTROLS}  # before the backslash rule: a single pass, not escaped again
    | {c: "\\" + c for c in "\\`*_[]|~"}
    | {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
    | {c: "\u2424" for c in _LINE_BREAKS}  # ␤, visible where the name had a line break
    | {c: " " if c == "\t" else "\ufffd" for c in _CONTROLS}
)
# Where the text starts a line (a list item, a blockquote line), these would open a heading or a list.
_MD_BLOCK_MARK = re.compile(r"^(\s*)([#+=-])")
_MD_ORDERED_MARK = re.compile(r"^(\s*\d+)([.)])")


def md_escape(text: str) -> str:
    """Learner text shown literally on one Markdown line: no markup, no raw HTML, no line break."""
    escaped = text.translate(_MD_SPECIAL)
    escaped = _MD_BLOCK_MARK.sub(r"\1\\\2", escaped)
    return _MD_ORDERED_MARK.sub(r"\1\\\2", escaped)


def _md_block(text: str) -> str:
    # Feedback may be several lines; a blockquote keeps them together under their criterion.
    return "\n".join("> " + md_escape(line) if line else ">" for line in text.splitlines() or [""])


FEEDBACK_OUTPUT_KB = 4
"""Of what the learner printed (results.json keeps more), the feedback shows this much."""


def printed(result: SubmissionResult) -> str:
    """The start of what the learner's code printed, for the feedback."""
    return result.output[: FEEDBACK_OUTPUT_KB * 1024]


def feedback_markdown(entry: ReportEntry, lang: str = "es") -> str:
    t = section("report", lang)
    r = entry.result
    lines = [
        f"# {t['feedback_title']}: {md_escape(r.submission)}",
        "",
        f"*{t['lesson']}*",
        "",
        f"**{t['score']}:** {fmt_points(r.score)} / {fmt_points(r.max_score)}  ",
        f"**{t['source']}:** {md_escape(entry.source)}",
        "",
    ]
    if r.error:
        lines += [f"## {t['error']}", "", _md_block(r.error), ""]
    if r.warnings:
        lines += [f"## {t['warnings_learner']}", "", *(f"- {md_escape(w)}" for w in r.warnings), ""]
    if r.flags:
        lines += [f"## {t['flags']}", "", *(f"- {md_escape(f)}" for f in r.flags), ""]
    if r.output:
        lines += [f"## {t['output'].format(kb=FEEDBACK_OUTPUT_KB)}", "", _md_block(printed(r)), ""]
    lines += [f"| {t['criterion']} | {t['result']} | {t['points']} |", "|---|---|---|"]
    for c in r.criteria:
        mark = f"✅ {t['passed']}" if c.passed else f"❌ {t['failed']}"
        title = criterion_title(c.id, lang)
        lines.append(f"| {title} (`{c.id}`) | {mark} | {fmt_points(c.score)} / {fmt_points(c.max_score)} |")
    lines += ["", f"## {t['details']}", ""]
    for c in r.criteria:
        mark = "✅" if c.passed else "❌"
        lines += [
            f"### {mark} {criterion_title(c.id, lang)}",
            "",
            f"`{c.id}` · {fmt_points(c.score)} / {fmt_points(c.max_score)}",
            "",
            _md_block(c.feedback),
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


# --- HTML -------------------------------------------------------------------------------------


@functools.cache  # one compile per template per process, not one per learner's feedback page
def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(enabled_extensions=("html", "j2"), default=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Every value a page shows, learner text above all: no bidirectional control reorders the page.
        finalize=lambda value: bidi_visible(value) if isinstance(value, str) else value,
    )
    env.filters["points"] = fmt_points
    env.globals["criterion_title"] = criterion_title
    return env


def feedback_html(entry: ReportEntry, lang: str = "es") -> str:
    return (
        _environment()
        .get_template("feedback.html.j2")
        .render(
            e=entry,
            r=entry.result,
            t=section("report", lang),
            lang=lang,
            criteria=entry.result.criteria,
            printed=printed(entry.result),
            output_kb=FEEDBACK_OUTPUT_KB,
        )
    )


@dataclass(frozen=True)
class CriterionStats:
    id: str
    passed: int
    total: int

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0


def criterion_stats(results: list[SubmissionResult]) -> list[CriterionStats]:
    stats = []
    required = criteria.required_ids()
    for cid in criteria_order(results):
        graded = [c for r in results for c in r.criteria if c.id == cid]
        if cid not in required and not graded:
            continue
        # A required criterion missing from a submission (it could not be loaded, or only some levels
        # were graded) counts as not passed: every rate is over the whole class.
        total = len(results) if cid in required else len(graded)
        stats.append(CriterionStats(cid, sum(1 for c in graded if c.passed), total))
    return stats


def score_bins(scores: list[float], max_score: float) -> list[tuple[str, int]]:
    """(label, count) per bin: one bin per point up to 20 points, ten equal bins beyond."""
    if max_score <= 0:
        return [("0", len(scores))]
    points = max_score <= 20 and float(max_score).is_integer()
    width, n = (1, int(max_score) + 1) if points else (max_score / 10, 10)
    counts = [0] * n
    for s in scores:
        counts[min(max(math.floor(s / width + 1e-9), 0), n - 1)] += 1
    labels = [str(k) if points else f"{fmt_points(k * width)}–{fmt_points((k + 1) * width)}" for k in range(n)]
    return list(zip(labels, counts, strict=True))


_PASS, _FAIL, _INK, _GRID = "#1a7f37", "#cf222e", "#1f2328", "#d0d7de"


def pass_rate_svg(stats: list[CriterionStats], lang: str = "es") -> Markup:
    """Barras horizontales: porcentaje de entregas que aprueban cada criterio."""
    label_w, bar_w, row_h, top = 230, 360, 26, 8
    width, height = label_w + bar_w + 110, top + row_h * len(stats) + 24
    t = section("report", lang)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-labelledby="pass-title">',
        f'<title id="pass-title">{escape(t["pass_rate"])}</title>',
    ]
    for k in range(0, 101, 25):
        x = label_w + bar_w * k / 100
        out += [
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 20}" stroke="{_GRID}"/>',
            f'<text x="{x:.1f}" y="{height - 6}" font-size="11" text-anchor="middle" fill="{_INK}">{k} %</text>',
        ]
    for i, s in enumerate(stats):
        y = top + i * row_h
        w = bar_w * s.rate
        color = _PASS if s.rate >= 0.5 else _FAIL
        out += [
            f'<text x="{label_w - 8}" y="{y + 17}" font-size="12" text-anchor="end" '
            f'fill="{_INK}">{escape(s.id)}</text>',
            f'<rect x="{label_w}" y="{y + 4}" width="{w:.1f}" height="{row_h - 8}" fill="{color}">'
            f"<title>{escape(criterion_title(s.id, lang))}: {s.passed}/{s.total}</title></rect>",
            f'<text x="{label_w + w + 6:.1f}" y="{y + 17}" font-size="12" fill="{_INK}">'
            f"{round(100 * s.rate)} % ({s.passed}/{s.total})</text>",
        ]
    out.append("</svg>")
    return Markup("\n".join(out))


def histogram_svg(bins: list[tuple[str, int]], lang: str = "es") -> Markup:
    """Columnas: cuántas entregas cayeron en cada tramo de puntaje."""
    t = section("report", lang)
    col_w, plot_h, left, top, bottom = 44, 180, 40, 12, 40
    width = left + col_w * max(len(bins), 1) + 16
    height = top + plot_h + bottom
    peak = max((c for _, c in bins), default=0) or 1
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-labelledby="hist-title">',
        f'<title id="hist-title">{escape(t["distribution"])}</title>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{width - 8}" y2="{top + plot_h}" stroke="{_INK}"/>',
    ]
    for i, (label, count) in enumerate(bins):
        x = left + i * col_w
        h = plot_h * count / peak
        out.append(
            f'<rect x="{x + 6}" y="{top + plot_h - h:.1f}" width="{col_w - 12}" height="{h:.1f}" fill="#0969da">'
            f"<title>{escape(label)}: {count} {escape(t['count'])}</title></rect>"
        )
        if count:
            out.append(
                f'<text x="{x + col_w / 2:.1f}" y="{top + plot_h - h - 4:.1f}" font-size="11" '
                f'text-anchor="middle" fill="{_INK}">{count}</text>'
            )
        out.append(
            f'<text x="{x + col_w / 2:.1f}" y="{top + plot_h + 16}" font-size="11" '
            f'text-anchor="middle" fill="{_INK}">{escape(label)}</text>'
        )
    out += [
        f'<text x="{left + col_w * len(bins) / 2:.1f}" y="{height - 6}" font-size="12" '
        f'text-anchor="middle" fill="{_INK}">{escape(t["score"])}</text>',
        "</svg>",
    ]
    return Markup("\n".join(out))


def summary_html(
    entries: list[ReportEntry], *, lang: str = "es", seed: int | None = None, warnings: list[str] | None = None
) -> str:
    results = [e.result for e in entries]
    scores = [r.score for r in results]
    max_score = max((r.max_score for r in results), default=0.0)
    stats = criterion_stats(results)
    return (
        _environment()
        .get_template("resumen.html.j2")
        .render(
            entries=entries,
            t=section("report", lang),
            lang=lang,
            seed=seed,
            warnings=warnings or [],
            n=len(results),
            n_error=sum(1 for r in results if r.error),
            mean=statistics.fmean(scores) if scores else None,
            median=statistics.median(scores) if scores else None,
            # Optional questions make maxima differ between submissions: the share of each one's own maximum.
            mean_pct=round(100 * statistics.fmean(r.score / r.max_score if r.max_score else 0.0 for r in results))
            if results
            else None,
            max_score=max_score,
            stats=stats,
            pass_chart=pass_rate_svg(stats, lang),
            histogram=histogram_svg(score_bins(scores, max_score), lang),
        )
    )


# --- writing ----------------------------------------------------------------------------------


_SURROGATE = re.compile("[\ud800-\udfff]")


def write_text_atomic(path: Path, text: str) -> None:
    """Write whole or not at all: an interrupted run never leaves half a report.

    A file name that is not UTF-8 (Linux allows any bytes) reaches here as lone surrogates;
    they become U+FFFD, so one such name never costs the class its reports.
    """
    text = _SURROGATE.sub("\ufffd", text)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text.encode("utf-8"), durable=False)


def write_reports(
    out_dir: Path,
    entries: list[ReportEntry],
    *,
    lang: str = "es",
    seed: int | None = None,
    warnings: list[str] | None = None,
    run: dict[str, Any] | None = None,
) -> None:
    """Escribe results.json, grades.csv, feedback/<nombre>.md|.html y resumen.html en ``out_dir``."""
    if lang not in LANGS:
        raise ValueError(text("report.unknown_lang", given=repr(lang), langs=", ".join(LANGS)))
    names = [e.name for e in entries]
    if len({n.casefold() for n in names}) != len(names):
        raise ValueError(text("report.same_name", lang))
    for e in entries:
        write_text_atomic(out_dir / "feedback" / f"{e.name}.md", feedback_markdown(e, lang))
        write_text_atomic(out_dir / "feedback" / f"{e.name}.html", feedback_html(e, lang))
    write_text_atomic(out_dir / "grades.csv", grades_csv(entries))
    write_text_atomic(out_dir / "resumen.html", summary_html(entries, lang=lang, seed=seed, warnings=warnings))
    document = results_document(entries, seed=seed, run=run)
    write_text_atomic(out_dir / "results.json", json.dumps(document, ensure_ascii=False, indent=2) + "\n")
