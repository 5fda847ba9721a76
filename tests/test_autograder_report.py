"""The instructor's and the learner's reports: schema, CSV columns, escaping, charts."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest

from autograder.course.criteria import required_ids
from autograder.reporting.report import (
    CriterionStats,
    ReportEntry,
    criterion_stats,
    criterion_title,
    display_name,
    feedback_html,
    feedback_markdown,
    feedback_names,
    grades_csv,
    histogram_svg,
    learner_labels,
    pass_rate_svg,
    results_document,
    score_bins,
    sheet_csv,
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
    assert list(doc) == ["report", "submissions"]
    assert doc["report"] == {"lang": "es", "seed": 7, "warnings": []}
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
    assert list(rows[0]) == [
        *("learner", "learner_id", "submission", "source"),
        *CRITERIA_IDS,
        *("total", "max_score", "pending", "grade_10", "status", "error", "warnings", "flags"),
    ]
    assert rows[0]["nivel1.cpA"] == "1" and rows[0]["nivel1.cpB"] == "0" and rows[0]["total"] == "2"
    assert rows[1]["total"] == "0" and rows[1]["max_score"] == str(len(CRITERIA_IDS))
    assert rows[0]["learner"] == "ana" and rows[1]["learner"] == "beto" and rows[1]["status"] == "needs_help"


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
    # One script, the page's own (sorting the table), with no learner text in it.
    assert parsed.tags.count("script") == 1 and "alert" not in html.split("<script>")[1]
    assert "img" not in parsed.tags and "link" not in parsed.tags
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
    assert r"boom \| `x` \*y\*" in md  # code spans stay code (literal in Markdown); the rest escaped
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
    assert score_bins([0, 4.5, 9, 9], 9) == [(k, k + 1, {0: 1, 4: 1, 9: 2}.get(k, 0)) for k in range(10)]
    wide = score_bins([0, 50, 99.9, 100], 100)
    assert len(wide) == 10 and wide[0] == (0, 10, 1) and wide[5][2] == 1 and wide[9] == (90, 100, 2)
    assert sum(c for _, _, c in score_bins([], 9)) == 0


def test_histogram_column_heights_follow_the_counts():
    svg = str(histogram_svg([(0, 1, 1), (1, 2, 0), (2, 3, 2)]))
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)" fill="#0969da"', svg)]
    assert heights == [heights[2] / 2, 0.0, heights[2]] and heights[2] > 0


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


@pytest.mark.parametrize(
    ("feedback", "shown", "never"),
    [
        ("No hay una función `my_load_checkpoint` en tu entrega", "<code>my_load_checkpoint</code>", "`"),
        ("`a` y `b`", "<code>a</code> y <code>b</code>", "`"),
        ("usa `<script>alert(1)</script>`", "<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>", "<script>alert"),
        ("tu texto «\u202eabc»", "\\u202E", "\u202e"),
        ("sin código <b>negrita</b>", "&lt;b&gt;negrita&lt;/b&gt;", "<b>negrita"),
    ],
)
def test_feedback_pages_show_code_as_code_and_nothing_of_the_learner_as_markup(tmp_path, feedback, shown, never):
    write_reports(tmp_path, [entry(make_result("ana.py", set(), feedback=feedback))], seed=3)
    page = (tmp_path / "feedback" / "ana.html").read_text(encoding="utf-8")
    cells = re.findall(r'<div class="feedback">(.*?)</div>', page, flags=re.S)
    assert cells and all(shown in cell and never not in cell for cell in cells)


def test_write_reports_refuses_two_entries_with_one_report_name(tmp_path):
    results = [make_result("a/ana.py", set()), make_result("b/ana.py", set())]
    with pytest.raises(ValueError):
        write_reports(tmp_path, [entry(r, name="ana") for r in results])
    assert not (tmp_path / "results.json").exists()


def test_learner_warnings_reach_the_feedback_escaped_and_instructor_flags_do_not():
    result = make_result("ana.ipynb", set())
    result.warnings = [f"La celda 3 lanzó ValueError ({EVIL})"]
    result.flags = ["delega en lesson3: reconcile usa lesson3.reconcile"]
    html = feedback_html(entry(result))
    assert "La celda 3 lanzó ValueError" in html and EVIL not in html
    md = feedback_markdown(entry(result))
    assert "Avisos sobre tu entrega" in md and "La celda 3 lanzó ValueError" in md and "<script>" not in md
    for page in (html, md, feedback_html(entry(result), "en"), feedback_markdown(entry(result), "en")):
        assert "delega en lesson3" not in page and "Señales" not in page and "Flags" not in page
    # They are the instructor's: in the summary, as text (no hover needed), and in results.json.
    summary = summary_html([entry(result)])
    assert "delega en lesson3: reconcile usa lesson3.reconcile</li>" in summary and "⚑" not in summary
    assert results_document([entry(result)])["submissions"][0]["flags"] == result.flags


def test_the_seed_of_each_result_wins_over_the_run_seed():
    graded = make_result("ana.py", set())
    graded.seed = 5
    doc = results_document([entry(graded), entry(make_result("beto.py", set()))], seed=9)
    assert [s["seed"] for s in doc["submissions"]] == [5, 9]


def test_summary_mean_is_also_a_share_of_each_submissions_own_maximum():
    full = make_result("ana.py", set(CRITERIA_IDS))  # n / n
    half = SubmissionResult("beto.py", 5.0, 10.0, [])  # graded on fewer levels (--nivel), so a lower maximum
    html = summary_html([entry(full), entry(half)])
    assert f"{(len(CRITERIA_IDS) + 5) / 2:g} pts · 75 %".replace(".", ",") in html


def test_every_question_counts_over_the_whole_class_and_in_every_row():
    answered = make_result("ana.ipynb", {"nivel1.esta_en_lo_cierto"})
    unloaded = SubmissionResult("c.py", 0.0, 0.0, [], error="no cargó")
    stats = {s.id: s for s in criterion_stats([answered, make_result("beto.py", set()), unloaded])}
    assert (stats["nivel1.esta_en_lo_cierto"].passed, stats["nivel1.esta_en_lo_cierto"].total) == (1, 3)
    assert stats["nivel1.cpA"].total == 3
    rows = list(csv.DictReader(io.StringIO(grades_csv([entry(answered), entry(make_result("beto.py", set()))]))))
    assert list(rows[0])[-9:-7] == [CRITERIA_IDS[-1], "total"]
    assert rows[0]["nivel1.esta_en_lo_cierto"] == "1" and rows[1]["nivel1.esta_en_lo_cierto"] == "0"
    assert rows[0]["max_score"] == rows[1]["max_score"]


# --- the learner's feedback is the learner's (issue 16.8) ----------------------------------------

SECRET_PATH = "/home/profesora/privado/2026/entregas-lms.zip/Ana García_4711_assignsubmission_file_/tarea4.ipynb"


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("graded", [True, False])
def test_feedback_names_the_submission_never_the_instructors_path(lang, graded):
    result = make_result("tarea4.ipynb", {"nivel1.cpA"})
    e = ReportEntry(result, SECRET_PATH, "Ana_García", learner="Ana García", graded=graded)
    for page in (feedback_html(e, lang), feedback_markdown(e, lang)):
        assert "/home/profesora" not in page and "privado" not in page and "4711" not in page
        assert "Origen" not in page and "Source" not in page
        assert "tarea4.ipynb" in page and "Ana García" in page
    # The instructor's views keep where it came from.
    assert SECRET_PATH in grades_csv([e]) and results_document([e])["submissions"][0]["source"] == SECRET_PATH


def test_feedback_page_title_and_heading_carry_the_learners_name():
    e = ReportEntry(make_result("tarea4.ipynb", set()), "x/tarea4.ipynb", "Zoe", learner="Zoë O'Brien")
    html = feedback_html(e)
    assert re.search(r"<title>Retroalimentación: Zoë O&#39;Brien</title>", html)
    assert "<h1>Retroalimentación: <bdi>Zoë O&#39;Brien</bdi></h1>" in html
    assert feedback_markdown(e).startswith("# Retroalimentación: Zoë O'Brien\n")
    # Without a name from intake, the result record's `learner` (when the grader records one), else the file's.
    plain = make_result("tarea4.ipynb", set())
    assert "<title>Retroalimentación: tarea4</title>" in feedback_html(entry(plain))
    plain.learner = {"name": "Beto Ruiz", "id": 77}  # type: ignore[attr-defined]
    assert "<title>Retroalimentación: Beto Ruiz</title>" in feedback_html(entry(plain))
    assert results_document([entry(plain)])["submissions"][0]["learner_id"] == "77"


def test_feedback_reads_on_a_phone():
    html = feedback_html(entry(make_result("a" * 300 + ".ipynb", set())))
    css = html.split("<style>")[1].split("</style>")[0]
    # The table turns into one card per criterion below 40rem, and long words wrap instead of overflowing.
    assert '<table class="cards">' in html and "@media (max-width: 40rem)" in css
    assert re.search(r"code[^{]*\{[^}]*overflow-wrap: anywhere", css)
    assert 'data-label="Puntos"' in html


# --- resumen.html for an instructor (issue 16.9, 20.7) -------------------------------------------


def test_pass_rate_bars_have_one_colour_whatever_the_rate_and_say_it_in_text():
    stats = [CriterionStats("a", 1, 10), CriterionStats("b", 5, 10), CriterionStats("c", 9, 10)]
    svg = str(pass_rate_svg(stats))
    fills = set(re.findall(r'<rect [^>]*fill="([^"]+)"', svg))
    assert len(fills) == 1
    assert "10 % (1/10)" in svg and "50 % (5/10)" in svg and "90 % (9/10)" in svg


def _label_boxes(svg: str) -> list[tuple[float, float]]:
    # The x-axis labels: centred at x, as wide as their characters at the chart's generous width.
    from autograder.reporting.report import _CHAR_PX

    found = re.findall(r'<text class="xlabel" x="([\d.]+)"[^>]*>([^<]+)</text>', svg)
    return [(float(x) - len(t) * _CHAR_PX / 2, float(x) + len(t) * _CHAR_PX / 2) for x, t in found]


@pytest.mark.parametrize("max_score", [25, 100, 7.5, 20, 18, 3, 1000.5])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_histogram_labels_never_overlap(max_score, lang):
    bins = score_bins([0, max_score / 3, max_score], max_score)
    boxes = _label_boxes(str(histogram_svg(bins, lang)))
    assert len(boxes) >= len(bins)
    for (_, right), (left, _) in itertools.pairwise(boxes):
        assert right + 2 <= left, boxes


@pytest.mark.parametrize("scores", [[], [0.0, 0.0]])
def test_a_class_with_nothing_to_score_has_one_column_labelled_once(scores):
    svg = str(histogram_svg(score_bins(scores, 0.0)))
    assert re.findall(r'<text class="xlabel"[^>]*>([^<]+)</text>', svg) == ["0"]


def test_numbers_are_written_in_the_reports_language():
    half = SubmissionResult("ana.py", 12.5, 25.0, [CriterionResult("nivel1.cpA", False, 0.5, 1.0, "x")])
    third = SubmissionResult("beto.py", 7.0, 9.0, [])
    entries = [entry(half), entry(third)]
    es, en = summary_html(entries, lang="es"), summary_html(entries, lang="en")
    assert "12,5 / 25" in es and "7,78" in es and "9,75 pts" in es  # score, 0–10 grade, mean
    assert "12.5 / 25" in en and "7.78" in en and "9.75 pts" in en
    assert "12.5" not in es.split("<script>")[0].replace('data-sort="12.5"', "")
    assert "0,5 / 1" in feedback_html(entry(half), "es") and "0,5 / 1" in feedback_markdown(entry(half), "es")
    assert ">2,5<" in str(histogram_svg(score_bins([1.0], 25), "es"))
    assert ">2.5<" in str(histogram_svg(score_bins([1.0], 25), "en"))


def test_no_row_is_coloured_green_and_every_status_is_written():
    low = make_result("ana.py", {"nivel1.cpA", "nivel1.cpB"})  # 2 of 18: with problems
    full = make_result("beto.py", set(CRITERIA_IDS))
    broken = make_result("carla.py", set(CRITERIA_IDS), error="SyntaxError")
    html = summary_html([entry(low), entry(full), entry(broken)])
    assert "ok-row" not in html and "ko-row" not in html and "border-left" not in html
    rows = re.findall(r"<tr data-name=\"(\w+) [^\"]*\" data-problem=\"(\d)\">", html)
    assert rows == [("ana", "1"), ("beto", "0"), ("carla", "1")]
    assert html.count(">con problemas</span>") == 2
    assert "«Con problemas»: la entrega no se calificó" in html  # defined on the page


def test_learner_by_criterion_table_has_a_row_per_learner_and_a_column_per_criterion():
    results = [make_result("ana.py", {"nivel1.cpA"}), make_result("beto.py", set(CRITERIA_IDS))]
    results[0].warnings = ["La celda 3 tardó demasiado", "No existe el módulo «numpy»"]
    results[1].flags = ["delega en lesson3: reconcile usa lesson3.reconcile"]
    html = summary_html([entry(r) for r in results])
    table = html.split('<table class="matrix" id="matrix">')[1].split("</table>")[0]
    head, body = table.split("</thead>")
    assert len(re.findall(r"<th[ >]", head)) == 6 + len(CRITERIA_IDS)
    assert body.count("<tr ") == 2
    first = body.split("<tr ")[1]
    assert first.count("✔") == 1 and first.count("✘") == len(CRITERIA_IDS) - 1
    # Every column is spelled out under the table, and warnings and flags are text on the page.
    for cid in CRITERIA_IDS:
        assert f"<code>{cid}</code></dd>" in html
    for note in [*results[0].warnings, *results[1].flags]:
        assert f"<li>{html_escape(note)}</li>" in html
    # The controls are hidden until the script shows them: without it the table still reads.
    assert 'id="matrix-controls" hidden' in html


def html_escape(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


# --- learner names in reports and file names (issue 20.3) ----------------------------------------

NAMES = {
    "accents": ["José García", "Íñigo Muñoz"],
    "nfd_and_nfc": ["Jose\u0301 Garci\u0301a", "José García"],
    "same_name": ["Ana García", "Ana García", "ANA GARCÍA"],
    "only_symbols": ["☺☺☺", "!!!", "???"],
    "only_marks": ["\u0301\u0301", "\u0308", " \u0301 "],
    "very_long": ["María " * 80, "María " * 80 + "x", "𝐀" * 200],
    "windows": ["CON", "nul", "Com1"],
    "blank_and_controls": ["", "   ", "\x1b[2J\n"],
    "cjk_and_rtl": ["李小龙", "محمد علي", "Ωμέγα"],
    "surrogates": ["\udcff\udcfeana", "\udcff"],
}


@pytest.mark.parametrize("case", sorted(NAMES))
def test_feedback_names_are_bounded_unique_readable_and_never_empty(case):
    from autograder.reporting.results_json import _REPORT_NAME

    labels = NAMES[case]
    names = feedback_names(labels)
    assert len({n.casefold() for n in names}) == len(names)
    for label, name in zip(labels, names, strict=True):
        assert name and _REPORT_NAME.fullmatch(name), name
        assert len(name) <= 64 and len(f"{name}.html".encode()) <= 200
        assert name.split(".")[0].upper() not in {"CON", "NUL", "COM1"}
        letters = [ch for ch in unicodedata.normalize("NFC", label) if ch.isalnum()]
        if letters:  # a name with letters keeps them (its start, when long)
            assert name.startswith(letters[0]), (label, name)
    assert feedback_names(labels) == names  # the same class gets the same names on every machine


def test_an_nfd_name_and_its_nfc_twin_share_a_stem_and_stay_apart():
    nfd, nfc = feedback_names(["Jose\u0301 Garci\u0301a", "José García"])
    assert nfd == "José_García" and nfc == "José_García-2"


@pytest.mark.parametrize("case", sorted(NAMES))
def test_display_names_are_bounded_one_line_and_never_blank(case):
    for label in NAMES[case]:
        shown = display_name(label)
        assert shown.strip() and len(shown) <= 80 and "\n" not in shown and "\x1b" not in shown
        assert any(unicodedata.category(ch)[0] not in "MCZ" for ch in shown)
        assert unicodedata.category(shown[0])[0] != "M"
        if len(label) > 80 and label.strip():
            assert shown.endswith("…")
    # Two blank names stay two people.
    assert display_name("\u0301") != display_name("\u0308")


def test_a_long_name_is_cut_before_an_accent_never_between_a_letter_and_it():
    label = "a" * 78 + "q\u0303" + "zzz"  # q̃ has no precomposed form
    assert display_name(label) == "a" * 78 + "…"


def test_learner_labels_name_the_folder_when_everyone_handed_in_the_same_file():
    sources = [
        "lms.zip/Ana García_11_assignsubmission_file_/04_ejercicios.ipynb",
        "lms.zip/Beto Ruiz_12_assignsubmission_file_/04_ejercicios.ipynb",
        "lms.zip/carla.py",
    ]
    labels = learner_labels(sources)
    assert labels[0].startswith("Ana García") and labels[1].startswith("Beto Ruiz") and labels[2] == "carla"
    assert learner_labels(sources, ["Ana", None, "  "]) == ["Ana", labels[1], "carla"]


# --- grades.csv and notas.csv (issue 20.2) -------------------------------------------------------


def _class() -> list[ReportEntry]:
    ana = make_result("ana.ipynb", {"nivel1.cpA", "nivel1.cpB"})
    ana.score = 2.5  # a partial point, to see the decimal mark
    ana.warnings = ["La celda 3 lanzó ValueError", "No existe el módulo «numpy»"]
    ana.flags = ["delega en lesson3"]
    odd = make_result("odd.py", set())
    return [
        ReportEntry(ana, "x/ana.ipynb", "ana", learner='Ana García; "la Peque"', learner_id="4711"),
        ReportEntry(odd, "x/odd.py", "odd", learner="=1+1", graded=False),
    ]


def test_the_spreadsheet_csv_opens_in_a_spanish_spreadsheet():
    raw = sheet_csv(_class(), "es")
    assert raw.startswith("\ufeff") and "\r\n" in raw
    rows = list(csv.reader(io.StringIO(raw[1:], newline=""), delimiter=";"))
    header, ana, odd = rows
    assert header[:4] == ["Estudiante", "Id del estudiante", "Archivo entregado", "Origen"]
    assert f"{criterion_title('nivel1.cpA')} [nivel1.cpA]" in header
    col = dict(zip(header, ana, strict=True))
    assert col["Estudiante"] == 'Ana García; "la Peque"' and col["Id del estudiante"] == "4711"
    assert col["Total"] == "2,5" and col["Máximo"] == str(len(CRITERIA_IDS))
    assert col["Nota (0–10)"] == f"{round(25 / len(CRITERIA_IDS), 2):g}".replace(".", ",")
    assert col["Avisos"] == "La celda 3 lanzó ValueError\nNo existe el módulo «numpy»"
    assert col["Señales para revisar"] == "delega en lesson3" and col["Estado"] == "con problemas"
    blank = dict(zip(header, odd, strict=True))
    assert blank["Estudiante"] == "'=1+1"  # a formula stays text
    assert blank["Total"] == "" and blank["Nota (0–10)"] == "" and blank["Estado"] == "no calificada"
    assert all(blank[f"{criterion_title(c)} [{c}]"] == "" for c in CRITERIA_IDS)


def test_the_standard_csv_stays_standard_and_the_english_sheet_uses_commas():
    rows = list(csv.DictReader(io.StringIO(grades_csv(_class()))))
    assert rows[0]["total"] == "2.5" and rows[0]["learner_id"] == "4711" and rows[1]["total"] == ""
    assert rows[1]["status"] == "not_graded" and rows[0]["flags"] == "delega en lesson3"
    assert not grades_csv(_class()).startswith("\ufeff")
    en = list(csv.DictReader(io.StringIO(sheet_csv(_class(), "en")[1:], newline="")))
    assert en[0]["Total"] == "2.5" and en[0]["Learner"] == 'Ana García; "la Peque"'


# --- an interrupted run says so (issue 20.4) -----------------------------------------------------


def test_an_interrupted_class_says_so_everywhere(tmp_path):
    entries = [entry(make_result(f"e{i}.py", set(CRITERIA_IDS) if i < 2 else set())) for i in range(5)]
    entries = [e if i < 2 else ReportEntry(e.result, e.source, e.name, graded=False) for i, e in enumerate(entries)]
    written = write_reports(tmp_path, entries, lang="es")
    html = (tmp_path / "resumen.html").read_text()
    assert html.index("Calificación interrumpida: 2 de 5") < html.index("Estudiante × criterio")
    assert "Alumnos calificados<strong>2 / 5</strong>" in html
    assert f"{len(CRITERIA_IDS)} pts · 100 %" in html  # the mean is over what was graded
    doc = json.loads((tmp_path / "results.json").read_text())
    assert doc["interrupted"] == {"graded": 2, "total": 5}
    assert [s["score"] for s in doc["submissions"]] == [len(CRITERIA_IDS)] * 2 + [None] * 3
    assert [s["graded"] for s in doc["submissions"]] == [True, True, False, False, False]
    totals = [r["total"] for r in csv.DictReader((tmp_path / "grades.csv").open())]
    assert totals == [str(len(CRITERIA_IDS))] * 2 + [""] * 3
    assert sorted(written) == sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    english = summary_html(entries, lang="en")
    assert "Grading interrupted: 2 of 5" in english


def test_a_complete_class_has_no_interruption_record():
    doc = results_document([entry(make_result("ana.py", set()))])
    assert "interrupted" not in doc and doc["submissions"][0]["graded"] is True
    assert "Calificación interrumpida" not in summary_html([entry(make_result("ana.py", set()))])


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize(
    ("key", "params"), [("warn.unconfined", {}), ("warn.signals", {"abi": 4}), ("warn.seccomp", {})]
)
def test_the_machines_confinement_warning_is_the_instructors_not_the_learners(lang, key, params):
    from autograder.course.catalogue import text

    machine = text(key, lang, **params)
    results = [make_result("ana.py", set()), make_result("beto.py", set())]
    for r in results:  # the grading adds it to every result
        r.warnings = ["La celda 3 lanzó ValueError", machine]
    e = entry(results[0])
    for page in (feedback_html(e, lang), feedback_markdown(e, lang)):
        assert "La celda 3 lanzó ValueError" in page
        assert "Landlock" not in page and "seccomp" not in page
    summary = summary_html([entry(r) for r in results], lang=lang)
    assert summary.count(f"<li>{html_escape(machine)}</li>") == 1  # once, at the top
    assert summary.index(html_escape(machine)) < summary.index('id="matrix"')
    assert next(csv.DictReader(io.StringIO(grades_csv([e]))))["warnings"] == "La celda 3 lanzó ValueError"
    assert results_document([e])["submissions"][0]["warnings"] == results[0].warnings  # results.json keeps all


@pytest.mark.parametrize(
    ("lang", "one", "many"), [("es", ": 1 alumno<", ": 2 alumnos<"), ("en", ": 1 learner<", ": 2 learners<")]
)
def test_the_distributions_counts_agree_in_number(lang, one, many):
    from autograder.reporting.report import histogram_svg

    svg = str(histogram_svg([(0.0, 5.0, 1), (5.0, 10.0, 2), (10.0, 15.0, 0)], lang))
    assert one in svg and many in svg and ": 0 " in svg


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("No hay una función `my_load_checkpoint`.", "No hay una función `my_load_checkpoint`."),
        ("`reconcile(cp)` devolvió *otra* cosa", "`reconcile(cp)` devolvió \\*otra\\* cosa"),
        ("texto del alumno: <b>hola</b> y `<script>`", "texto del alumno: &lt;b&gt;hola&lt;/b&gt; y `<script>`"),
        ("# no es un título, ni `este`", "\\# no es un título, ni `este`"),
        ("un ` suelto no abre código", None),
    ],
)
def test_feedback_in_markdown_keeps_code_as_code_and_the_rest_literal(line, expected):
    from autograder.reporting.report import md_escape, md_with_code

    shown = md_with_code(line)
    assert shown == (md_escape(line) if expected is None else expected)


def test_markdown_feedback_marks_are_the_ones_every_default_font_has():
    # ✅/❌ are emoji: without an emoji font they are boxes. The pages use ✔/✘ and the pending mark.
    md = feedback_markdown(entry(make_result("ana.py", {"nivel1.cpA"})))
    assert "✔" in md and "✘" in md
    assert not [ch for ch in md if 0x1F000 <= ord(ch) or ord(ch) in (0x2705, 0x274C, 0x23F3)]


def test_the_decimal_mark_is_one_fact_for_messages_and_points(monkeypatch):
    from autograder.course import catalogue
    from autograder.reporting.report import fmt_points

    key = "internal.timeout"  # «… no terminó en {seconds:g} s …»
    assert "2.5" in catalogue.text(key, "en", seconds=2.5) and "2,5" in catalogue.text(key, "es", seconds=2.5)
    assert (fmt_points(7.25, "es"), fmt_points(7.25, "en"), fmt_points(7.0, "es")) == ("7,25", "7.25", "7")
    monkeypatch.setitem(catalogue.entry("report.decimal"), "es", "'")
    monkeypatch.setitem(catalogue.entry("report.decimal"), "en", "·")
    assert "2·5" in catalogue.text(key, "en", seconds=2.5) and "2'5" in catalogue.text(key, "es", seconds=2.5)
    assert (fmt_points(7.25, "en"), fmt_points(7.25, "es")) == ("7·25", "7'25")
    assert "in 3 s" in catalogue.text(key, "en", seconds=3)  # an int has no decimals to mark


def test_the_summary_lists_learners_as_spanish_orders_names_and_finds_them_without_accents_or_by_id():
    names = ["Teresa Abad", "Óscar Pérez", "Álvaro Ruiz", "Íñigo Ñúñez", "Nuria Blanco", "Ñoño Gil", "Ana Vidal"]
    entries = [
        ReportEntry(make_result(f"{i}.ipynb", set()), f"x/{i}", f"p{i}", learner=n, learner_id=str(2801100 + i))
        for i, n in enumerate(names)
    ]
    html = summary_html(entries)
    rows = re.findall(r'<tr data-name="([^"]*)"', html)
    assert [r.split(" 28")[0] for r in rows] == [
        "alvaro ruiz",
        "ana vidal",
        "inigo nunez",
        "nuria blanco",
        "nono gil",
        "oscar perez",
        "teresa abad",
    ]
    assert "inigo nunez 2801103" in rows[2]  # «nunez» and the LMS id find Íñigo Ñúñez
