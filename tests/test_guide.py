"""The instructor's guide (docs/guia-docente.md): its generated parts match the code, and its claims hold."""

from __future__ import annotations

import csv
import io
import os
import re
import stat
from pathlib import Path

import pytest

from autograder import cli
from autograder.course import criteria
from autograder.course.catalogue import keys
from autograder.course.catalogue import text as catalogue_text
from autograder.course.config import parse_toml
from autograder.reporting import guide, report
from autograder.reporting.report import ReportEntry, grades_csv, sheet_csv, status, write_reports
from autograder.wire.results import CriterionResult, SubmissionResult

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guia-docente.md"


def make_entry(name: str, scores: dict[str, float | None], *, graded: bool = True, error: str | None = None):
    """An entry whose criteria are the registry's, each scored 1 point out of 1 unless ``scores`` says otherwise."""
    results = []
    for cid in criteria.required_ids():
        score = scores.get(cid, 1.0)
        results.append(CriterionResult(cid, None if score is None else score > 0, score, 1.0, "ok"))
    total = sum(c.score or 0.0 for c in results)
    pending = sum(c.max_score for c in results if c.score is None)
    result = SubmissionResult(name, total, float(len(results)), results, error=error)
    assert result.pending == pending
    return ReportEntry(result, f"entregas/{name}", Path(name).stem, learner=Path(name).stem, graded=graded)


def header(text: str, delimiter: str) -> list[str]:
    return next(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter))


def test_every_generated_block_is_in_the_guide_once():
    assert sorted(guide.block_names(GUIDE.read_text(encoding="utf-8"))) == sorted(guide.GENERATED)


def test_an_unknown_block_is_an_error_not_left_as_it_was():
    with pytest.raises(KeyError, match="nada"):
        guide.render("<!-- generado: nada -->\nviejo\n<!-- fin: nada -->\n")


def test_rendering_replaces_only_between_the_markers():
    prose = "antes\n<!-- generado: puntos -->\nviejo\n<!-- fin: puntos -->\ndespués\n"
    out = guide.render(prose)
    assert out.startswith("antes\n<!-- generado: puntos -->\n") and out.endswith("<!-- fin: puntos -->\ndespués\n")
    assert "viejo" not in out and "`nivel2.causa_raiz`" in out
    assert guide.render(out) == out


def test_a_new_criterion_appears_in_the_points_table_and_the_committed_guide_goes_stale(add_criterion):
    add_criterion("nivel1.juguete", points=4, title={"es": "un juguete", "en": "a toy"})
    table = guide.points_table()
    assert "| `nivel1.juguete` | 1 | 4 | Nivel 1 · un juguete |" in table
    total = sum(c.points for c in criteria.CRITERIA.values())
    assert f"**máximo: {report.fmt_points(total, 'es')} puntos**" in table
    text = GUIDE.read_text(encoding="utf-8")
    assert guide.render(text) != text


@pytest.mark.parametrize("points", [0.5, 2.25])
def test_fractional_points_are_written_as_a_spanish_reader_reads_them(add_criterion, points):
    add_criterion("nivel2.juguete", level=2, points=points)
    shown = report.fmt_points(points, "es")
    assert "," in shown and f"| `nivel2.juguete` | 2 | {shown} |" in guide.points_table()


def test_the_columns_listed_are_the_columns_both_csvs_write():
    entries = [make_entry("ana.py", {}), make_entry("jose.py", {"nivel1.cpA": None})]
    ids = list(criteria.required_ids())
    assert header(grades_csv(entries), ",") == [*report.CSV_COLUMNS, *ids, *report.CSV_TOTALS]
    described = list(guide.COLUMNS)
    assert described == [*report.CSV_COLUMNS, *report.CSV_TOTALS]
    sheet = header(sheet_csv(entries, "es"), ";")
    table = guide.columns_table()
    for name in described:  # notas.csv's header, as the guide names it, beside grades.csv's
        spanish = sheet[[*report.CSV_COLUMNS, *ids, *report.CSV_TOTALS].index(name)]
        assert f"| `{name}` | {spanish} |" in table


def test_a_column_without_a_description_cannot_be_generated(monkeypatch):
    monkeypatch.setattr(report, "CSV_TOTALS", (*report.CSV_TOTALS, "nueva"))
    with pytest.raises(KeyError):
        guide.columns_table()


def test_a_limit_without_a_description_cannot_be_generated(monkeypatch):
    monkeypatch.delitem(guide.LIMITS, "memory_mb")
    with pytest.raises(KeyError, match="memory_mb"):
        guide.limits_table()


def test_every_status_a_row_can_have_is_described():
    entries = [
        make_entry("ok.py", {}),
        make_entry("pendiente.py", {"nivel2.is_error_fallback": None}),
        make_entry("problemas.py", dict.fromkeys(criteria.required_ids(), 0.0)),
        make_entry("error.py", {}, error="No se pudo cargar"),
        make_entry("sin.py", {}, graded=False),
    ]
    seen = {status(e) for e in entries}
    assert seen == set(guide.status_names()) == set(guide.STATUSES)


def test_every_message_of_the_reports_belongs_to_exactly_one_group():
    covered = [k for k in keys() if k.startswith(guide.MESSAGE_FAMILIES)]
    assert len(covered) > 60
    groups = {k: [g for g in guide.MESSAGE_GROUPS if k in guide.group_keys(g)] for k in covered}
    assert {k: g for k, g in groups.items() if len(g) != 1} == {}


def test_every_pattern_of_a_group_names_a_message_that_exists():
    for group, (_, patterns) in guide.MESSAGE_GROUPS.items():
        for pattern in patterns:
            assert any(guide._matches(k, pattern) for k in keys()), (group, pattern)


@pytest.mark.parametrize(
    ("template", "shown"),
    [
        ("«{name}» pesa más de {mb} MB", "«‹name›» pesa más de ‹mb› MB"),
        ("tardó más de {seconds:g} s", "tardó más de ‹seconds› s"),
        ("a | b\nc", "a \\| b c"),
    ],
)
def test_a_message_becomes_one_table_cell(template, shown):
    assert guide._cell(template) == shown


@pytest.mark.parametrize("change", ["written", "described"])
def test_the_files_table_fails_on_a_file_written_but_not_described_or_the_reverse(monkeypatch, change):
    if change == "written":
        monkeypatch.setattr(report, "SUMMARY_FILES", (*report.SUMMARY_FILES, "nuevo.txt"))
    else:
        # A new dict, not a deletion: monkeypatch would put the key back at the end, reordering the table.
        monkeypatch.setattr(guide, "OUT_FILES", {k: v for k, v in guide.OUT_FILES.items() if k != "notas.csv"})
    with pytest.raises(KeyError):
        guide.files_table()


def test_the_reports_are_readable_by_their_owner_only_whatever_the_umask(tmp_path):
    """The guide's «Privacidad» says the grader writes every file 0600; this is what makes it true."""
    before = os.umask(0o000)  # the most permissive umask: nothing may come from it
    try:
        written = write_reports(tmp_path / "out", [make_entry("Ana García.py", {})], seed=1)
    finally:
        os.umask(before)
    assert written
    for name in written:
        assert stat.S_IMODE((tmp_path / "out" / name).stat().st_mode) == 0o600, name
    text = GUIDE.read_text(encoding="utf-8")
    assert "`-rw-------`, 0600" in text


def test_the_guide_shows_the_commands_as_the_cli_spells_them(capsys):
    """Every `autograder ORDER ... --flag` the guide shows is an order, and a flag of that order's --help."""
    text = GUIDE.read_text(encoding="utf-8")
    shown = re.findall(r"^autograder (\w+)((?: [^\n]*)?)$", text, flags=re.MULTILINE)
    assert {order for order, _ in shown} >= {"release", "grade", "review", "export", "gradescope", "merge"}
    for order, rest in shown:
        words = [order, *rest.split()[:1]] if order == "export" else [order]
        with pytest.raises(SystemExit) as ended:
            cli.main([*words, "--help"])
        assert ended.value.code == 0
        usage = capsys.readouterr().out
        for flag in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", rest):
            assert flag in usage, (order, flag)


def _template(key: str) -> re.Pattern[str]:
    """A catalogue text as a pattern: its fixed words as they are, each placeholder any text."""
    parts = re.split(r"\{[^{}]*\}", catalogue_text(key, "es"))
    return re.compile("(.+?)".join(re.escape(p) for p in parts) + r"\Z", re.DOTALL)


def test_every_console_line_the_guide_shows_is_one_the_grader_can_print():
    """The outputs copied into the guide were real; a changed message makes them stale here."""
    guide_text = GUIDE.read_text(encoding="utf-8")
    patterns = [_template(k) for k in keys()]
    blocks = re.findall(r"```text\n(.*?)```", guide_text, flags=re.DOTALL)
    assert len(blocks) >= 8
    shown = [line for block in blocks for line in block.splitlines() if line and not line.startswith(("  ", "…"))]
    assert [line for line in shown if not any(p.match(line) for p in patterns)] == []


@pytest.mark.parametrize(
    ("line", "matches"),
    [
        ("Se registraron 2 decisiones en «resultados».", True),
        ("Se registraron 2 decisiones en resultados.", False),
        ("Notas escritas: 3.", True),
        ("Notas escritas 3.", False),
    ],
)
def test_a_console_line_matches_only_its_own_wording(line, matches):
    assert any(_template(k).match(line) for k in keys()) is matches


def test_the_results_json_keys_described_are_the_ones_written():
    entries = [make_entry("ana.py", {"nivel2.is_error_fallback": None}), make_entry("sin.py", {}, graded=False)]
    entries[0].result.sha256 = "ab" * 32  # written only for a file that was read
    decided = entries[0].result.criteria[0]
    decided.decision = {"by": "Profesora", "at": "2026-12-03T10:00:00+00:00", "why": "recorrección", "was": "passed"}
    entries[0].result.moves = {"read_only": ["rerun"], "high_impact": ["is_error"]}  # Level 2 was graded
    config = parse_toml("", "curso.toml").with_run(seed=7, lang="es").record()
    document = report.results_document(entries, seed=7, run={"seed": 7}, warnings=["aviso"], config=config)
    assert set(document) == set(guide.RESULTS_DOCUMENT)
    submission = document["submissions"][0]
    assert set(submission) == set(guide.RESULTS_SUBMISSION)
    criterion_keys = {k for c in submission["criteria"] for k in c} | set(decided.decision)
    for key in criterion_keys:
        assert f"`{key}`" in guide.RESULTS_SUBMISSION["criteria"], key
    for key in document["report"]:
        assert f"`{key}`" in guide.RESULTS_DOCUMENT["report"], key
    for key in document["report"]["config"]:
        assert f"`{key}`" in guide.RESULTS_DOCUMENT["report"], key
