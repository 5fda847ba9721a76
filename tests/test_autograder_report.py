"""The instructor's and the learner's reports: schema, CSV columns, escaping, charts."""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from autograder.course.criteria import required_ids
from autograder.intake.collect import FoundSubmission, report_names
from autograder.reporting.report import (
    CriterionStats,
    ReportEntry,
    criterion_stats,
    criterion_title,
    feedback_html,
    feedback_markdown,
    grades_csv,
    histogram_svg,
    pass_rate_svg,
    results_document,
    score_bins,
    summary_html,
    write_reports,
)
from autograder.wire.results import CriterionResult, SubmissionResult

CRITERIA_IDS = required_ids()

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def make_result(name: str, passed: set[str], *, error: str | None = None, feedback: str = "ok") -> SubmissionResult:
    criteria = [
        CriterionResult(cid, cid in passed, 1.0 if cid in passed else 0.0, 1.0, f"{feedback} ({cid})")
        for cid in CRITERIA_IDS
    ]
    return SubmissionResult(name, float(len(passed)), float(len(CRITERIA_IDS)), criteria, error=error)


def entry(result: SubmissionResult, name: str | None = None) -> ReportEntry:
    return ReportEntry(result=result, source=f"entregas/{result.submission}", name=name or Path(result.submission).stem)


class TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(attrs)


def tags_of(html: str) -> TagCollector:
    parser = TagCollector()
    parser.feed(html)
    return parser


def test_every_criterion_has_a_title_in_both_languages():
    for cid in CRITERIA_IDS:
        es, en = criterion_title(cid, "es"), criterion_title(cid, "en")
        assert es.startswith("Nivel ") and en.startswith("Level ") and es != en


def test_results_document_has_the_exact_schema():
    doc = results_document([entry(make_result("ana.py", {"nivel1.cpA"}, error=None))], seed=7)
    doc = json.loads(json.dumps(doc))  # what lands on disk
    assert list(doc) == ["submissions"]
    (sub,) = doc["submissions"]
    assert {"submission", "score", "max_score", "criteria", "error"} <= set(sub)
    assert sub["submission"] == "ana.py" and sub["error"] is None and sub["seed"] == 7
    assert [c["id"] for c in sub["criteria"]] == list(CRITERIA_IDS)
    for c in sub["criteria"]:
        assert set(c) == {"id", "passed", "score", "max_score", "feedback"}
        assert isinstance(c["passed"], bool)
    assert sub["score"] == 1.0 and sub["max_score"] == len(CRITERIA_IDS)


def test_grades_csv_has_one_row_per_submission_and_one_column_per_criterion():
    results = [make_result("ana.py", {"nivel1.cpA", "nivel2.no_double_email"}), make_result("beto.ipynb", set())]
    rows = list(csv.DictReader(io.StringIO(grades_csv([entry(r) for r in results]))))
    assert len(rows) == 2
    assert list(rows[0]) == ["submission", "source", *CRITERIA_IDS, "total", "max_score", "error"]
    assert rows[0]["nivel1.cpA"] == "1" and rows[0]["nivel1.cpB"] == "0" and rows[0]["total"] == "2"
    assert rows[1]["total"] == "0" and rows[1]["max_score"] == str(len(CRITERIA_IDS))


def test_grades_csv_defuses_spreadsheet_formulas_in_learner_text():
    result = make_result("=HYPERLINK(1).py", set(), error="@SUM(A1)")
    (row,) = list(csv.DictReader(io.StringIO(grades_csv([entry(result, name="x")]))))
    assert row["submission"] == "'=HYPERLINK(1).py"
    assert row["error"] == "'@SUM(A1)"


def test_feedback_html_escapes_learner_text():
    result = make_result(f"{EVIL}.py", {"nivel1.cpA"}, error=f"SyntaxError en {EVIL}", feedback=EVIL)
    html = feedback_html(entry(result, name="evil"))
    assert EVIL not in html
    assert "&lt;script&gt;" in html
    parsed = tags_of(html)
    assert "script" not in parsed.tags and "img" not in parsed.tags
    assert not any(name.startswith("on") for name, _ in parsed.attrs)


def test_summary_html_escapes_learner_text_and_is_self_contained():
    results = [make_result(f"{EVIL}.py", set(), error=EVIL), make_result("ana.py", set(CRITERIA_IDS))]
    entries = [entry(results[0], name="evil"), entry(results[1])]
    html = summary_html(entries, seed=42, warnings=[f"Se rechazó «{EVIL}»"])
    assert EVIL not in html
    parsed = tags_of(html)
    assert "script" not in parsed.tags and "img" not in parsed.tags and "link" not in parsed.tags
    assert parsed.tags.count("svg") == 2
    # No CDN, no remote font or stylesheet: the only URL is the SVG namespace, which is never fetched.
    assert set(re.findall(r"https?://[^\s\"'<>]+", html)) == {"http://www.w3.org/2000/svg"}
    assert "--seed 42" in html
    assert 'href="feedback/evil.html"' in html


def test_markdown_feedback_shows_learner_text_literally():
    result = make_result(f"{EVIL}.py", set(), error="boom | `x` *y*", feedback=EVIL)
    md = feedback_markdown(entry(result, name="evil"))
    assert "<script>" not in md and "<img" not in md
    assert "&lt;script&gt;" in md
    assert r"boom \| \`x\` \*y\*" in md
    assert md.count("\n| ") == len(CRITERIA_IDS) + 1  # header + one table row per criterion


def test_feedback_in_english_with_lang_en():
    result = make_result("ana.py", {"nivel1.cpA"})
    english = feedback_html(entry(result), "en")
    assert "Feedback" in english and "Retroalimentación" not in english
    assert "Retroalimentación" in feedback_markdown(entry(result), "es")
    assert "Class summary" in summary_html([entry(result)], lang="en")


def test_pass_rate_counts_missing_criteria_as_not_passed():
    broken = SubmissionResult("roto.py", 0.0, 9.0, [], error="SyntaxError")
    ok = make_result("ana.py", set(CRITERIA_IDS))
    stats = {s.id: s for s in criterion_stats([broken, ok])}
    assert list(stats) == list(CRITERIA_IDS)
    assert all(s.passed == 1 and s.total == 2 and s.rate == 0.5 for s in stats.values())


def test_pass_rate_chart_bar_lengths_follow_the_rates():
    stats = [CriterionStats("a", 0, 4), CriterionStats("b", 2, 4), CriterionStats("c", 4, 4)]
    svg = str(pass_rate_svg(stats))
    widths = [float(w) for w in re.findall(r'<rect x="\d+" y="[\d.]+" width="([\d.]+)"', svg)]
    assert widths == [0.0, widths[2] / 2, widths[2]] and widths[2] > 0
    assert "50 % (2/4)" in svg


def test_score_bins_one_per_point_then_ten_equal_bins():
    assert score_bins([0, 4.5, 9, 9], 9) == [(str(k), {0: 1, 4: 1, 9: 2}.get(k, 0)) for k in range(10)]
    wide = score_bins([0, 50, 99.9, 100], 100)
    assert len(wide) == 10 and wide[0] == ("0–10", 1) and wide[5][1] == 1 and wide[9] == ("90–100", 2)
    assert sum(c for _, c in score_bins([], 9)) == 0


def test_histogram_column_heights_follow_the_counts():
    svg = str(histogram_svg([("0", 1), ("1", 0), ("2", 2)]))
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)" fill="#0969da"', svg)]
    assert heights == [heights[2] / 2, 0.0, heights[2]] and heights[2] > 0


def test_report_names_never_collide():
    subs = [
        FoundSubmission(Path("x"), "entregas.zip/grupo1/entrega.py"),
        FoundSubmission(Path("y"), "entregas.zip/grupo2/entrega.py"),
        FoundSubmission(Path("z"), "entregas.zip/grupo2/Entrega.ipynb"),
        FoundSubmission(Path("w"), "entregas.zip/ana_garcia_12345_attempt_2026-01-01.ipynb"),
        FoundSubmission(Path("v"), "../otra/../carpeta/evil name;rm -rf.py"),
    ]
    names = report_names(subs)
    assert len({n.casefold() for n in names}) == len(names)
    assert names[3] == "ana_garcia_12345_attempt_2026-01-01"  # a unique stem stays readable
    assert "grupo1" in names[0] and "grupo2" in names[1]
    assert all(re.fullmatch(r"[\w.\-]+", n) and not n.startswith(".") for n in names)


def test_write_reports_writes_every_file(tmp_path):
    results = [make_result("ana.py", {"nivel1.cpA"}), make_result("beto.ipynb", set(CRITERIA_IDS))]
    entries = [entry(r) for r in results]
    write_reports(tmp_path, entries, seed=3)
    assert json.loads((tmp_path / "results.json").read_text())["submissions"][1]["score"] == len(CRITERIA_IDS)
    assert (tmp_path / "grades.csv").read_text().count("\n") == 3
    for e in entries:
        assert (tmp_path / "feedback" / f"{e.name}.md").read_text().startswith("# Retroalimentación")
        assert (tmp_path / "feedback" / f"{e.name}.html").read_text().startswith("<!DOCTYPE html>")
    assert "<svg" in (tmp_path / "resumen.html").read_text()
    assert not list(tmp_path.rglob("*.tmp"))


def test_write_reports_refuses_two_entries_with_one_report_name(tmp_path):
    results = [make_result("a/ana.py", set()), make_result("b/ana.py", set())]
    with pytest.raises(ValueError):
        write_reports(tmp_path, [entry(r, name="ana") for r in results])
    assert not (tmp_path / "results.json").exists()


def test_learner_warnings_and_instructor_flags_reach_the_feedback_escaped():
    result = make_result("ana.ipynb", set())
    result.warnings = [f"La celda 3 lanzó ValueError ({EVIL})"]
    result.flags = ["delega en lesson3: reconcile usa lesson3.reconcile"]
    html = feedback_html(entry(result))
    assert "La celda 3 lanzó ValueError" in html and EVIL not in html
    assert "delega en lesson3" in html
    md = feedback_markdown(entry(result))
    assert "Avisos sobre tu entrega" in md and "La celda 3 lanzó ValueError" in md and "<script>" not in md


def test_the_seed_of_each_result_wins_over_the_run_seed():
    graded = make_result("ana.py", set())
    graded.seed = 5
    doc = results_document([entry(graded), entry(make_result("beto.py", set()))], seed=9)
    assert [s["seed"] for s in doc["submissions"]] == [5, 9]


def test_summary_mean_is_also_a_share_of_each_submissions_own_maximum():
    full = make_result("ana.py", set(CRITERIA_IDS))  # n / n
    half = SubmissionResult("beto.py", 5.0, 10.0, [])  # graded on fewer levels (--nivel), so a lower maximum
    html = summary_html([entry(full), entry(half)])
    assert f"{(len(CRITERIA_IDS) + 5) / 2:g} pts · 75 %" in html


def test_every_question_counts_over_the_whole_class_and_in_every_row():
    answered = make_result("ana.ipynb", {"nivel1.esta_en_lo_cierto"})
    unloaded = SubmissionResult("c.py", 0.0, 0.0, [], error="no cargó")
    stats = {s.id: s for s in criterion_stats([answered, make_result("beto.py", set()), unloaded])}
    assert (stats["nivel1.esta_en_lo_cierto"].passed, stats["nivel1.esta_en_lo_cierto"].total) == (1, 3)
    assert stats["nivel1.cpA"].total == 3
    rows = list(csv.DictReader(io.StringIO(grades_csv([entry(answered), entry(make_result("beto.py", set()))]))))
    assert list(rows[0])[-4:] == [CRITERIA_IDS[-1], "total", "max_score", "error"]
    assert rows[0]["nivel1.esta_en_lo_cierto"] == "1" and rows[1]["nivel1.esta_en_lo_cierto"] == "0"
    assert rows[0]["max_score"] == rows[1]["max_score"]
