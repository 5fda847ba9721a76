"""A criterion left to a person: pending in every report, decided with `autograder review`, kept across runs."""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
from pathlib import Path

import pytest

from autograder import cli
from autograder.classrun import run as class_run
from autograder.course.catalogue import text
from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA, Criterion, Verdict, required_ids
from autograder.notebook import CheckResult, render_html, render_text
from autograder.reporting import out_folder, results_json
from autograder.reporting.gradescope import to_gradescope
from autograder.reporting.report import (
    ReportEntry,
    feedback_html,
    feedback_markdown,
    grade_10,
    grades_csv,
    results_document,
    sheet_csv,
    summary_html,
)
from autograder.wire.results import CriterionResult, SubmissionResult

CRITERIA_IDS = required_ids()
UNDECIDED = "nivel2.is_error_fallback"
MARK = text("report.pending_mark")
WGL4_SYMBOLS = "■□▪▫▬▲►▼◄◊○●◘◙◦"
"""The geometric shapes of WGL4, the character set every default Windows, macOS and Linux font covers."""
FIXED_AT = "2026-12-03T12:00:00+00:00"


# --- a class whose "dudosa" files the grader cannot decide ---------------------------------------------


def fake_grading(learners, course, *, jobs, progress):
    """Passes on «correcta», leaves UNDECIDED to a person on «dudosa»; the content's digest, as the pipeline records."""
    seed, lang = course.seed, course.lang
    results = []
    for learner in learners:
        found = learner.files[0]
        raw = Path(found.file).read_bytes()
        content = raw.decode("utf-8", errors="replace")
        criteria = []
        for cid in CRITERIA_IDS:
            if cid == UNDECIDED and "dudosa" in content:
                criteria.append(CriterionResult(cid, None, None, 2.0, f"{lang}: «quizá se envió»", review=True))
            else:
                ok = "correcta" in content or "dudosa" in content
                criteria.append(CriterionResult(cid, ok, 2.0 if ok else 0.0, 2.0, f"{lang}: {cid} {ok}"))
        result = SubmissionResult.from_criteria(found.name, criteria, seed=seed)
        result.sha256 = hashlib.sha256(raw).hexdigest()
        results.append(result)
    return results


class FixedClock:
    @staticmethod
    def now(tz=None):
        from datetime import datetime

        return datetime.fromisoformat(FIXED_AT)


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(class_run, "run_grading", fake_grading)
    monkeypatch.setattr(class_run, "datetime", FixedClock)


def run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def make_class(root: Path) -> Path:
    cls = root / "clase"
    cls.mkdir()
    (cls / "ana.py").write_text("# dudosa\n", encoding="utf-8")
    (cls / "beto.py").write_text("# correcta\n", encoding="utf-8")
    (cls / "carla.py").write_text("# dudosa, otra\n", encoding="utf-8")
    (cls / "dani.py").write_text("# mal\n", encoding="utf-8")
    return cls


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def submissions(out: Path) -> dict[str, dict]:
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {s["submission"]: s for s in doc["submissions"]}


def criterion(out: Path, name: str, cid: str = UNDECIDED) -> dict:
    return next(c for c in submissions(out)[name]["criteria"] if c["id"] == cid)


def fill(path: Path, decide: dict[str, tuple[str, str, str]]) -> Path:
    """Fill the review CSV: submission -> (decision, reviewer, reason)."""
    rows = list(csv.reader(path.open(encoding="utf-8")))
    for row in rows[1:]:
        if row[0] in decide:
            row[-3:] = decide[row[0]]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


@pytest.fixture
def graded(fake, tmp_path) -> Path:
    out = tmp_path / "out"
    code, _, stderr = run("grade", make_class(tmp_path), "--out", out, "--seed", "3")
    assert code == 0, stderr
    return out


# --- the third outcome -----------------------------------------------------------------------------------


def test_any_verdict_function_may_leave_a_criterion_to_a_person():
    base = CRITERIA[UNDECIDED]
    other = Criterion("x.y", 1, 3.0, "f", {"es": "t", "en": "t"}, {"es": "h"}, "o")
    for known in (base, other):
        result = known.result(Verdict(None, "no sé"))
        assert (result.passed, result.score, result.review, result.max_score) == (None, None, True, known.points)
    decided = base.result(Verdict(False, "no"))
    assert (decided.passed, decided.score, decided.review) == (False, 0.0, False)


def pending_result(name: str = "ana.py") -> SubmissionResult:
    criteria = [
        CriterionResult(cid, None, None, 2.0, "«quizá»", review=True)
        if cid == UNDECIDED
        else CriterionResult(cid, True, 1.0, 1.0, "bien")
        for cid in CRITERIA_IDS
    ]
    return SubmissionResult.from_criteria(name, criteria, seed=1)


def entry(result: SubmissionResult) -> ReportEntry:
    return ReportEntry(result=result, source=f"e/{result.submission}", name=Path(result.submission).stem)


def test_pending_points_are_neither_a_zero_nor_full_marks():
    r = pending_result()
    assert r.score == len(CRITERIA_IDS) - 1 and r.max_score == len(CRITERIA_IDS) + 1 and r.pending == 2.0
    assert grade_10(entry(r)) is None
    decided = pending_result()
    (c,) = [c for c in decided.criteria if c.id == UNDECIDED]
    c.passed, c.score = True, 2.0
    decided.rescore()
    assert decided.pending == 0 and decided.score == decided.max_score and grade_10(entry(decided)) == 10


@pytest.mark.parametrize(
    ("decided", "pending", "help_"), [(1.0, 6.0, False), (1.0, 2.0, True), (5.0, 0.0, False), (1.0, 0.0, True)]
)
def test_under_half_counts_only_when_pending_points_cannot_lift_it(decided, pending, help_):
    from autograder.reporting.report import needs_help

    criteria = [CriterionResult("a", decided > 0, decided, 5.0, "f"), CriterionResult("b", False, 0.0, 3.0, "f")]
    if pending:
        criteria.append(CriterionResult("c", None, None, pending, "?", review=True))
    r = SubmissionResult.from_criteria("ana.py", criteria)
    assert needs_help(entry(r)) is help_


def test_results_json_says_null_and_review_and_reads_back():
    doc = json.loads(json.dumps(results_document([entry(pending_result())], seed=1)))
    (sub,) = doc["submissions"]
    (c,) = [c for c in sub["criteria"] if c["id"] == UNDECIDED]
    assert c == {
        "id": UNDECIDED,
        "passed": None,
        "score": None,
        "max_score": 2.0,
        "feedback": "«quizá»",
        "review": True,
    }
    assert all("review" not in c for c in sub["criteria"] if c["id"] != UNDECIDED)
    assert sub["pending"] == 2.0
    back = SubmissionResult.from_json(sub)
    assert back.criteria == pending_result().criteria and back.pending == 2.0


@pytest.mark.parametrize(
    ("lang", "word", "cell"), [("es", "pendiente de revisión", "pendiente"), ("en", "pending review", "pending")]
)
def test_a_pending_criterion_is_shown_as_pending_in_every_report(lang, word, cell):
    e = entry(pending_result())
    md = feedback_markdown(e, lang)
    row_md = next(line for line in md.splitlines() if line.startswith("|") and UNDECIDED in line)
    assert f"{MARK} {word}" in row_md and row_md.endswith(f"| {cell} / 2 |")
    points = "2 puntos pendientes de revisión" if lang == "es" else "2 points pending review"
    assert points in md
    page = feedback_html(e, lang)
    assert word in page and f"{cell} / 2" in page and points in page
    row = next(csv.DictReader(io.StringIO(grades_csv([e]))))
    assert (row[UNDECIDED], row["pending"], row["grade_10"], row["status"]) == ("pending", "2", "", "pending")
    sheet = sheet_csv([e], lang)
    assert cell in sheet and word in sheet
    summary = summary_html([e], lang=lang)
    assert f"{MARK} {cell}" in summary and word in summary
    tests = to_gradescope(e.result, lang=lang)["tests"]
    (pending,) = [t for t in tests if UNDECIDED in t["name"]]
    assert "score" not in pending and "status" not in pending and pending["output"].startswith(word)
    assert ("2 puntos" if lang == "es" else "2 points") in to_gradescope(e.result, lang=lang)["output"]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_check_shows_a_pending_criterion_without_points_or_a_hint(lang):
    r = pending_result()
    shown = render_text(r, lang=lang)
    line = next(line for line in shown.splitlines() if UNDECIDED in line)
    assert line.startswith(MARK) and line.endswith("?/2")
    assert ("pendiente de revisión" if lang == "es" else "pending review") in shown
    page = render_html(r, lang=lang)
    assert MARK in page and "?/2" in page and "#fff4e0" in page


def as_check(result: SubmissionResult, lang: str) -> CheckResult:
    shown = CheckResult(**{f: getattr(result, f) for f in result.__dataclass_fields__})
    shown.lang = lang
    return shown


@pytest.mark.parametrize("lang", ["es", "en"])
def test_checks_repr_shows_the_pending_points_as_its_table_does(lang):
    """What a cell shows for ``check()`` as text (text/plain, a terminal): the same total as the table's head."""
    result = as_check(pending_result(), lang)
    pending = "2 pendientes de revisión" if lang == "es" else "2 pending review"
    total = f"{result.score:g}/{result.max_score:g} {'puntos' if lang == 'es' else 'points'} ({pending})"
    assert repr(result) == f"<check: {total}>"
    assert f"— {total}\n" in render_text(result, lang=lang) and f"— {total}</h4>" in render_html(result, lang=lang)
    decided = [CriterionResult(cid, True, 1.0, 1.0, "bien") for cid in CRITERIA_IDS]
    assert repr(as_check(SubmissionResult.from_criteria("ana.py", decided), lang)).startswith(
        f"<check: {len(CRITERIA_IDS)}/{len(CRITERIA_IDS)} p"
    )


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_pending_mark_is_one_glyph_of_every_default_font_everywhere(lang):
    """Not ⏳ (an emoji: a box without an emoji font). Each view draws the one mark of the catalogue."""
    assert len(MARK) == 1 and MARK in WGL4_SYMBOLS and "⏳" not in MARK
    e = entry(pending_result())
    for page in (
        render_text(e.result, lang=lang),
        render_html(e.result, lang=lang),
        feedback_markdown(e, lang),
        feedback_html(e, lang),
        summary_html([e], lang=lang),
    ):
        assert MARK in page and "⏳" not in page


@pytest.mark.parametrize(
    "change",
    [
        {"passed": None},  # no verdict, yet not marked for review
        {"passed": None, "review": True},  # no verdict but a score
        {"score": None},  # a verdict without points
        {"passed": True, "score": None, "review": True},
        {"review": "yes"},
        {"decision": "Marta"},
    ],
)
def test_merge_refuses_a_criterion_that_is_neither_decided_nor_pending(change):
    raw = {"id": "a", "passed": True, "score": 1.0, "max_score": 1.0, "feedback": "f"} | change
    assert results_json._criterion(raw) is None


def test_merge_reads_a_pending_and_a_decided_criterion_back():
    pending = {"id": "a", "passed": None, "score": None, "max_score": 2.0, "feedback": "f", "review": True}
    assert results_json._criterion(pending) == CriterionResult("a", None, None, 2.0, "f", review=True)
    decision = {"by": "Marta", "at": FIXED_AT, "why": "dice que no se sabe", "was": "pending"}
    decided = pending | {"passed": True, "score": 2.0, "decision": decision}
    assert results_json._criterion(decided).decision == decision


# --- the judges: an undecided case leaves it to a person, a failing one decides ------------------------


def test_is_error_fallback_leaves_an_undecidable_text_to_a_person(hi_cases):
    from test_autograder_checks import FakeCaller, reconcile, variant

    from autograder.judging.observe import observe_reconciles
    from autograder.judging.verdicts_level2 import is_error_verdict

    undecidable = "Correo enviado, estado de ejecucion desconocido"

    def say(text: str):
        return variant(lambda cp, block: block.update(content=text, is_error=True))

    def verdict(fn):
        return is_error_verdict(observe_reconciles(FakeCaller(reconcile=fn), hi_cases), "es")

    left = verdict(say(undecidable))
    assert left.passed is None and "pendiente de revisión" in left.feedback and undecidable in left.feedback

    def one_case_wrong(cp, execute_tool):
        first = cp["pendingToolUse"]["id"] == hi_cases[0].pending["id"]
        out = reconcile(cp, execute_tool)
        out["messages"][-1]["content"][0].update(content="Se envió bien." if first else undecidable, is_error=True)
        return out

    failed = verdict(one_case_wrong)
    assert failed.passed is False and "Falló en 1 de" in failed.feedback
    assert verdict(reconcile).passed is True


@pytest.fixture
def hi_cases(tmp_path):
    from autograder.judging import scenarios

    return scenarios.high_impact_cases(scenarios.rng_for(7, "nivel2.high_impact_not_rerun"), tmp_path)


# --- autograder review ----------------------------------------------------------------------------------


def test_grade_says_how_many_learners_have_points_pending(fake, tmp_path):
    code, stdout, _ = run("grade", make_class(tmp_path), "--out", tmp_path / "o", "--seed", "3")
    assert code == 0 and "2 alumnos tienen puntos pendientes de revisión" in stdout
    code, stdout, _ = run("grade", tmp_path / "clase" / "ana.py", "--out", tmp_path / "p", "--lang", "en")
    assert code == 0 and "1 learner has points pending review" in stdout
    code, stdout, _ = run("grade", tmp_path / "clase" / "beto.py", "--out", tmp_path / "q")
    assert code == 0 and "pendiente" not in stdout


def test_a_graded_run_records_pending_criteria_and_each_files_digest(graded, tmp_path):
    subs = submissions(graded)
    assert subs["ana.py"]["sha256"] == hashlib.sha256(b"# dudosa\n").hexdigest()
    assert criterion(graded, "ana.py")["passed"] is None and subs["ana.py"]["pending"] == 2.0
    rows = {r["submission"]: r for r in csv.DictReader((graded / "grades.csv").open(encoding="utf-8"))}
    assert rows["ana.py"]["grade_10"] == "" and rows["beto.py"]["grade_10"] == "10"
    assert not (graded / "decisions.json").exists()


def test_review_lists_what_is_pending_and_writes_the_csv(graded, tmp_path):
    sheet = tmp_path / "revision.csv"
    code, stdout, stderr = run("review", graded, "--csv", sheet)
    assert code == 0, stderr
    assert "ana" in stdout and "carla" in stdout and "beto" not in stdout and "«quizá se envió»" in stdout
    assert "(pendiente de revisión)" in stdout
    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))
    assert [(r["submission"], r["criterion"]) for r in rows] == [("ana.py", UNDECIDED), ("carla.py", UNDECIDED)]
    assert all(r["decision"] == r["reviewer"] == r["reason"] == "" for r in rows)
    assert rows[0]["sha256"] == submissions(graded)["ana.py"]["sha256"] and rows[0]["max_score"] == "2"
    code, _, stderr = run("review", graded, "--csv", sheet)
    assert code == 2 and "ya existe" in stderr
    assert run("review", graded / "results.json", "--csv", sheet, "--force")[0] == 0


def test_a_class_with_nothing_pending_says_so(fake, tmp_path):
    cls = tmp_path / "c"
    cls.mkdir()
    (cls / "beto.py").write_text("# correcta\n", encoding="utf-8")
    code, _, _ = run("grade", cls, "--out", tmp_path / "out", "--seed", "1")
    assert code == 0
    code, stdout, _ = run("review", tmp_path / "out", "--csv", tmp_path / "r.csv")
    assert code == 0 and "No hay criterios pendientes" in stdout and not (tmp_path / "r.csv").exists()


@pytest.mark.parametrize(
    ("decision", "passed", "score"), [("pass", True, 2.0), ("fail", False, 0.0), ("1,5", False, 1.5)]
)
def test_apply_records_the_decision_and_rewrites_every_report(graded, tmp_path, decision, passed, score):
    sheet = tmp_path / "revision.csv"
    assert run("review", graded, "--csv", sheet)[0] == 0
    fill(sheet, {"ana.py": (decision, "Marta Ruiz", "dice que no consta si se envió")})
    code, stdout, stderr = run("review", graded, "--apply", sheet)
    assert code == 0 and "Se registró 1 decisión en" in stdout, stderr
    c = criterion(graded, "ana.py")
    assert (c["passed"], c["score"]) == (passed, score)
    assert c["decision"] == {
        "by": "Marta Ruiz",
        "at": FIXED_AT,
        "why": "dice que no consta si se envió",
        "was": "pending",
    }
    ana = submissions(graded)["ana.py"]
    assert ana["score"] == 2.0 * (len(CRITERIA_IDS) - 1) + score and "pending" not in ana
    assert criterion(graded, "carla.py")["passed"] is None  # left blank: still pending
    rows = {r["submission"]: r for r in csv.DictReader((graded / "grades.csv").open(encoding="utf-8"))}
    assert rows["ana.py"]["status"] != "pending" and rows["ana.py"]["grade_10"] != ""
    assert rows["carla.py"]["status"] == "pending"
    assert "Marta Ruiz" in (graded / "feedback" / "ana.html").read_text(encoding="utf-8")
    assert "Marta Ruiz" in (graded / "feedback" / "ana.md").read_text(encoding="utf-8")
    assert "pendiente de revisión" not in (graded / "feedback" / "ana.md").read_text(encoding="utf-8")
    # The grader's words on a criterion it left to a person explain why it is pending: once a person decided,
    # the page says the decision instead, while an undecided learner's page still says them.
    pending_words = criterion(graded, "carla.py")["feedback"]
    assert pending_words and c["feedback"] == pending_words
    assert pending_words not in (graded / "feedback" / "ana.md").read_text(encoding="utf-8")
    assert pending_words in (graded / "feedback" / "carla.md").read_text(encoding="utf-8")
    decisions = json.loads((graded / "decisions.json").read_text(encoding="utf-8"))["decisions"]
    assert [(d["submission"], d["criterion"], d["score"]) for d in decisions] == [("ana.py", UNDECIDED, score)]
    manifest = json.loads((graded / out_folder.MANIFEST_FILE).read_text(encoding="utf-8"))["files"]
    assert "decisions.json" in manifest and manifest["grades.csv"] is not None


def test_a_regrade_request_reaches_a_decided_criterion(graded, tmp_path):
    sheet = tmp_path / "regrade.csv"
    cid = CRITERIA_IDS[0]
    code, _, stderr = run("review", graded, "--criterion", cid, "--learner", "dani", "--csv", sheet)
    assert code == 0, stderr
    (row,) = list(csv.DictReader(sheet.open(encoding="utf-8")))
    assert (row["submission"], row["criterion"]) == ("dani.py", cid)
    code, stdout, _ = run("review", graded, "--criterion", cid, "--csv", sheet, "--force", "--lang", "en")
    assert code == 0 and f"dani · dani.py · {cid} (not passed)" in stdout and "beto.py" in stdout
    fill(sheet, {"dani.py": ("pass", "Luis", "solicitud de recorrección aceptada")})
    assert run("review", graded, "--apply", sheet)[0] == 0
    assert criterion(graded, "dani.py", cid)["decision"]["was"] == "failed"
    assert criterion(graded, "dani.py", cid)["score"] == 2.0
    assert run("review", graded, "--criterion", "no.existe")[0] == 2
    code, _, stderr = run("review", graded, "--learner", "nadie")
    assert code == 2 and "nadie" in stderr


def add_row(sheet: Path, row: list[str]) -> None:
    with sheet.open("a", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerow(row)


BAD = {
    "another run": lambda r: [r[0], "0" * 64, *r[2:7], "pass", "M", "x"],
    "unknown criterion": lambda r: [*r[:3], "nivel9.nada", *r[4:7], "pass", "M", "x"],
    "not a decision": lambda r: [*r[:7], "quizá", "M", "x"],
    "negative points": lambda r: [*r[:7], "-1", "M", "x"],
    "points over the maximum": lambda r: [*r[:7], "3", "M", "x"],
    "not a number": lambda r: [*r[:7], "nan", "M", "x"],
    "no reviewer": lambda r: [*r[:7], "pass", "", "x"],
    "no reason": lambda r: [*r[:7], "pass", "M", ""],
    "a missing column": lambda r: [*r[:7], "pass", "M"],
    "a duplicated row": lambda r: [*r[:7], "fail", "M", "x"],
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_line_names_file_and_line_and_writes_nothing(graded, tmp_path, case):
    sheet = tmp_path / "revision.csv"
    assert run("review", graded, "--csv", sheet)[0] == 0
    fill(sheet, {"carla.py": ("pass", "Marta", "correcta")})
    first = next(r for r in csv.reader(sheet.open(encoding="utf-8")) if r[0] == "ana.py")
    add_row(sheet, BAD[case](first))
    before = tree(graded)
    code, _, stderr = run("review", graded, "--apply", sheet)
    assert code == 2, stderr
    assert f"«{sheet}», línea 4" in stderr and "No se escribió nada" in stderr and "Traceback" not in stderr
    assert tree(graded) == before


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("a,b,c\n", "cabecera"),
        (b"submission\xff", "UTF-8"),
        ("", "cabecera"),
    ],
)
def test_a_file_that_is_no_review_csv_is_refused(graded, tmp_path, content, expected):
    sheet = tmp_path / "otra.csv"
    sheet.write_bytes(content if isinstance(content, bytes) else content.encode())
    before = tree(graded)
    code, _, stderr = run("review", graded, "--apply", sheet)
    assert code == 2 and expected in stderr and str(sheet) in stderr
    assert tree(graded) == before


def test_a_spreadsheets_semicolon_csv_is_read(graded, tmp_path):
    sheet = tmp_path / "revision.csv"
    assert run("review", graded, "--csv", sheet)[0] == 0
    fill(sheet, {"ana.py": ("2", "Marta", "vale")})
    rows = list(csv.reader(sheet.open(encoding="utf-8")))
    buf = io.StringIO()
    csv.writer(buf, delimiter=";", lineterminator="\r\n").writerows(rows)
    sheet.write_text("\ufeff" + buf.getvalue(), encoding="utf-8")
    assert run("review", graded, "--apply", sheet)[0] == 0
    assert criterion(graded, "ana.py")["passed"] is True


def test_apply_refuses_to_overwrite_a_report_the_instructor_edited(graded, tmp_path):
    sheet = tmp_path / "r.csv"
    assert run("review", graded, "--csv", sheet)[0] == 0
    fill(sheet, {"ana.py": ("pass", "Marta", "vale")})
    (graded / "grades.csv").write_text("mis notas\n", encoding="utf-8")
    code, _, stderr = run("review", graded, "--apply", sheet)
    assert code == 2 and "grades.csv" in stderr
    assert (graded / "grades.csv").read_text(encoding="utf-8") == "mis notas\n"
    assert criterion(graded, "ana.py")["passed"] is None


# --- decisions survive a re-grade of the same content, and merge -----------------------------------------


def decide_all(out: Path, tmp_path: Path, name: str = "r.csv") -> None:
    sheet = tmp_path / name
    assert run("review", out, "--csv", sheet, "--force")[0] == 0
    names = [r["submission"] for r in csv.DictReader(sheet.open(encoding="utf-8"))]
    fill(sheet, dict.fromkeys(names, ("pass", "Marta", "dice que no se sabe si se envió")))
    code, _, stderr = run("review", out, "--apply", sheet)
    assert code == 0, stderr


def test_a_regrade_of_the_same_content_keeps_the_decisions(graded, tmp_path):
    decide_all(graded, tmp_path)
    reviewed = tree(graded)
    code, _, stderr = run("grade", tmp_path / "clase", "--out", graded, "--seed", "3", "--force")
    assert code == 0 and "cambió" not in stderr, stderr
    assert tree(graded) == reviewed


@pytest.mark.parametrize("changed", ["ana.py", "carla.py"])
def test_a_changed_submission_drops_its_decision_with_a_warning(graded, tmp_path, changed):
    decide_all(graded, tmp_path)
    (tmp_path / "clase" / changed).write_text("# dudosa, con otro texto\n", encoding="utf-8")
    code, _, stderr = run("grade", tmp_path / "clase", "--out", graded, "--seed", "3", "--force")
    assert code == 0, stderr
    learner = Path(changed).stem
    assert f"La entrega de {learner} cambió" in stderr and UNDECIDED in stderr
    assert criterion(graded, changed)["passed"] is None
    (other,) = {"ana.py", "carla.py"} - {changed}
    assert criterion(graded, other)["passed"] is True
    decisions = json.loads((graded / "decisions.json").read_text(encoding="utf-8"))["decisions"]
    assert [d["submission"] for d in decisions] == [other]


@pytest.mark.parametrize(("now", "word"), [(False, "no aprobado"), (True, "aprobado")])
def test_the_same_file_with_another_verdict_drops_its_decision_with_a_warning(graded, tmp_path, monkeypatch, now, word):
    decide_all(graded, tmp_path)

    def on_another_run(learners, course, **kw):  # the same bytes, decided otherwise (a file that reads the clock)
        results = fake_grading(learners, course, **kw)
        for c in results[0].criteria:  # ana.py
            if c.id == UNDECIDED:
                c.passed, c.score, c.review = now, 2.0 if now else 0.0, False
        return results

    monkeypatch.setattr(class_run, "run_grading", on_another_run)
    code, _, stderr = run("grade", tmp_path / "clase", "--out", graded, "--seed", "3", "--force")
    assert code == 0, stderr
    assert f"estaba «pendiente de revisión» cuando Marta lo decidió y ahora está «{word}»" in stderr
    assert "cambió" not in stderr  # the file did not
    assert criterion(graded, "ana.py")["passed"] is now and "decision" not in criterion(graded, "ana.py")
    assert criterion(graded, "carla.py")["passed"] is True  # decided, and still pending when graded again
    decisions = json.loads((graded / "decisions.json").read_text(encoding="utf-8"))["decisions"]
    assert [d["submission"] for d in decisions] == ["carla.py"]


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: "{",
        lambda d: "[]",
        lambda d: json.dumps({"decisions": [{**d[0], "score": "2"}]}),
        lambda d: json.dumps({"decisions": [{**d[0], "passed": None}]}),
        lambda d: json.dumps({"decisions": [{**d[0], "at": 3}]}),
        lambda d: json.dumps({"decisions": [{**d[0], "extra": 1}]}),
    ],
)
def test_a_damaged_decisions_file_stops_a_regrade(graded, tmp_path, damage):
    decide_all(graded, tmp_path)
    decisions = json.loads((graded / "decisions.json").read_text(encoding="utf-8"))["decisions"]
    (graded / "decisions.json").write_text(damage(decisions), encoding="utf-8")
    before = tree(graded)
    code, _, stderr = run("grade", tmp_path / "clase", "--out", graded, "--seed", "3", "--force")
    assert code == 2 and "decisions.json" in stderr
    assert tree(graded) == before


def test_merged_reviewed_parts_are_the_reviewed_one_machine_run(fake, tmp_path):
    cls = make_class(tmp_path)
    one = tmp_path / "una"
    assert run("grade", cls, "--out", one, "--seed", "5")[0] == 0
    decide_all(one, tmp_path)
    parts = []
    for i in (1, 2):
        part = tmp_path / f"parte-{i}"
        assert run("grade", cls, "--out", part, "--seed", "5", "--shard", f"{i}/2")[0] == 0
        decide_all(part, tmp_path, f"r{i}.csv")
        parts.append(part)
    code, _, stderr = run("merge", *parts, "--out", tmp_path / "junta")
    assert code == 0, stderr
    assert tree(tmp_path / "junta") == tree(one)
    # And a re-grade of the merged folder keeps them too.
    code, _, stderr = run("grade", cls, "--out", tmp_path / "junta", "--seed", "5", "--force")
    assert code == 0, stderr
    assert tree(tmp_path / "junta") == tree(one)


NOTEBOOK_BYTES = json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("ana.py", b"# a\n"),
        ("ana.py", b"\xef\xbb\xbfx = 1\n"),
        ("ana.py", b"# coding: latin-1\nx = '\xf1'\n"),
        ("ana.ipynb", NOTEBOOK_BYTES),
    ],
)
def test_the_pipeline_records_the_digest_of_the_bytes_it_graded(tmp_path, monkeypatch, name, data):
    from autograder.grading import pipeline
    from autograder.intake.collect import learner_of_file
    from autograder.wire.results import SubmissionResult

    path = tmp_path / name
    path.write_bytes(data)
    graded = []

    def grade_loaded(submission, course, *, server=None):
        graded.append(submission)
        path.write_bytes(b"# changed while it was graded\n")  # what the digest must not describe
        return SubmissionResult.from_criteria(submission.name, [], seed=1)

    monkeypatch.setattr(pipeline, "grade_loaded", grade_loaded)
    result = pipeline.grade_learner(learner_of_file(path))
    assert graded and result.sha256 == hashlib.sha256(data).hexdigest()


def test_a_file_that_was_not_graded_has_no_digest(tmp_path):
    from autograder.grading import pipeline
    from autograder.intake.collect import learner_of_file

    path = tmp_path / "ana.py"
    path.write_bytes(b"\xff\xfe no es utf-8")
    result = pipeline.grade_learner(learner_of_file(path))
    assert result.error and result.sha256 is None


@pytest.mark.warm_up("grading_server")
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("Correo enviado, estado de ejecucion desconocido", None),  # the text classifier cannot tell
        ("Estado de ejecución desconocido: no sé si se envió.", True),
        ("La herramienta se ejecutó y terminó bien.", False),
    ],
)
def test_a_real_grading_leaves_an_undecidable_text_to_a_person(tmp_path, content, expected):
    from autograder.grading.pipeline import grade_submission

    source = (Path(__file__).parent / "data" / "submissions" / "good.py").read_text(encoding="utf-8")
    original = (
        '"Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada "\n'
        '            "terminara. Por favor, reevalúa la situación actual."'
    )
    assert original in source
    path = tmp_path / "ana.py"
    path.write_text(source.replace(original, json.dumps(content, ensure_ascii=False)), encoding="utf-8")
    result = grade_submission(path, CourseConfig(seed=11))
    (c,) = [c for c in result.criteria if c.id == UNDECIDED]
    assert c.passed is expected and c.review is (expected is None), c.feedback
    assert (c.score is None) is (expected is None)
    assert result.pending == (c.max_score if expected is None else 0)
    assert result.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", ["=HYPERLINK(x).py", "+1.py", "ana\u202egnp.py", "@a.py"])
def test_a_hostile_file_name_stays_text_in_the_csv_and_still_matches(fake, tmp_path, name):
    cls = tmp_path / "c"
    cls.mkdir()
    (cls / name).write_text("# dudosa\n", encoding="utf-8")
    out, sheet = tmp_path / "out", tmp_path / "r.csv"
    assert run("grade", cls, "--out", out, "--seed", "1")[0] == 0
    assert run("review", out, "--csv", sheet)[0] == 0
    (row,) = list(csv.DictReader(sheet.open(encoding="utf-8")))
    assert row["submission"] != name and row["submission"][:1] not in "=+@" and "\u202e" not in row["submission"]
    fill(sheet, {row["submission"]: ("pass", "Marta", "vale")})
    code, _, stderr = run("review", out, "--apply", sheet)
    assert code == 0, stderr
    assert criterion(out, name)["passed"] is True


@pytest.mark.parametrize(("passed", "warned"), [(None, False), (False, True)])
def test_check_explains_a_changed_global_only_for_a_failure_not_for_a_pending_criterion(monkeypatch, passed, warned):
    from autograder import notebook

    monkeypatch.setattr(notebook, "_passed_with", {UNDECIDED: {"MENSAJE": "'antes'"}})
    ns = {"__name__": "__main__", "MENSAJE": "después"}
    exec("def reconcile(cp, execute_tool):\n    return MENSAJE", ns)
    score = None if passed is None else 0.0
    result = SubmissionResult.from_criteria(
        "x", [CriterionResult(UNDECIDED, passed, score, 2.0, "?", review=not warned)]
    )
    warnings = notebook._changed_since_passed(result, ns, "es")
    assert bool([w for w in warnings if "MENSAJE" in w]) is warned


@pytest.mark.parametrize("where", ["nada", "vacia", "vacia/results.json"])
def test_review_of_a_folder_without_results_says_so_and_makes_nothing(tmp_path, where):
    (tmp_path / "vacia").mkdir()
    code, _, stderr = run("review", tmp_path / where)
    assert code == 2 and "no hay results.json" in stderr and "Traceback" not in stderr
    assert not (tmp_path / "nada").exists() and list((tmp_path / "vacia").iterdir()) == []


# --- decisions belong to a learner, not to a file name ---------------------------------------------------
# Every learner hands in a file of the same name (04_ejercicios.py), and a copied notebook has the same
# digest as its original: a decision must reach the learner it was made for, and no one else.


def folder_class(root: Path, files: dict[str, str], name: str = "04_ejercicios.py") -> Path:
    cls = root / "carpetas"
    for learner, content in files.items():
        (cls / learner).mkdir(parents=True, exist_ok=True)
        for old in (cls / learner).iterdir():
            old.unlink()
        (cls / learner / name).write_text(content, encoding="utf-8")
    return cls


def by_learner(out: Path) -> dict[str, dict]:
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {s["learner"]: s for s in doc["submissions"]}


def undecided(out: Path, learner: str) -> dict:
    return next(c for c in by_learner(out)[learner]["criteria"] if c["id"] == UNDECIDED)


def fill_for(path: Path, decide: dict[str, tuple[str, str, str]]) -> Path:
    """Fill the review CSV by learner: learner -> (decision, reviewer, reason)."""
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for row in rows:
        if row["learner"] in decide:
            row["decision"], row["reviewer"], row["reason"] = decide[row["learner"]]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


@pytest.mark.parametrize("copied", ["# dudosa\n", "# dudosa, copiada de Ana tal cual\n"])
def test_a_decision_for_one_learner_never_reaches_another_with_the_same_file(fake, tmp_path, copied):
    cls = folder_class(tmp_path, {"Ana": "# dudosa\n", "Beto": copied, "Carla": "# correcta\n"})
    out = tmp_path / "out"
    assert run("grade", cls, "--out", out, "--seed", "3")[0] == 0
    assert set(by_learner(out)) == {"Ana", "Beto", "Carla"}
    sheet = tmp_path / "r.csv"
    assert run("review", out, "--csv", sheet)[0] == 0
    fill_for(sheet, {"Ana": ("fail", "Marta", "no dice nada de la ejecución")})
    code, _, stderr = run("review", out, "--apply", sheet)
    assert code == 0, stderr
    assert undecided(out, "Ana")["passed"] is False
    assert undecided(out, "Beto")["passed"] is None and "decision" not in undecided(out, "Beto")
    # ...and a regrade of the same bytes keeps it where it was made.
    assert run("grade", cls, "--out", out, "--seed", "3", "--force")[0] == 0
    assert undecided(out, "Ana")["passed"] is False and undecided(out, "Beto")["passed"] is None
    decisions = json.loads((out / "decisions.json").read_text(encoding="utf-8"))["decisions"]
    assert [d["learner"] for d in decisions] == ["Ana"]


@pytest.mark.parametrize("rename", [None, "mi_entrega.py"])
def test_a_changed_submission_warns_about_its_own_learner_and_says_so_in_results(fake, tmp_path, rename):
    learners = {"José": "# dudosa\n", "Pablo Ruiz": "# dudosa\n"}
    cls = folder_class(tmp_path, learners)
    out = tmp_path / "out"
    assert run("grade", cls, "--out", out, "--seed", "3")[0] == 0
    sheet = tmp_path / "r.csv"
    assert run("review", out, "--csv", sheet)[0] == 0
    fill_for(sheet, dict.fromkeys(learners, ("pass", "Profesora Soto", "dice que no consta")))
    assert run("review", out, "--apply", sheet)[0] == 0
    if rename:  # José hands in the same idea under another file name: still José's, still changed
        folder_class(tmp_path, {"José": "# dudosa, otra versión\n"}, name=rename)
    else:
        folder_class(tmp_path, {"José": "# dudosa, otra versión\n"})
    code, _, stderr = run("grade", cls, "--out", out, "--seed", "3", "--force")
    assert code == 0, stderr
    assert "La entrega de José cambió" in stderr and "Pablo" not in stderr
    assert undecided(out, "José")["passed"] is None and undecided(out, "Pablo Ruiz")["passed"] is True
    warnings = json.loads((out / "results.json").read_text(encoding="utf-8"))["report"]["warnings"]
    assert any("La entrega de José cambió" in w for w in warnings)


def test_two_namesakes_rows_stay_apart_as_written_and_a_bare_name_is_refused(fake, tmp_path):
    # Moodle's download: two learners of the same name, told apart only by their ids, same copied file.
    cls = tmp_path / "moodle"
    for ident in ("123", "456"):
        folder = cls / f"Ana García_{ident}_assignsubmission_file_"
        folder.mkdir(parents=True)
        (folder / "04_ejercicios.py").write_text("# dudosa\n", encoding="utf-8")
    out = tmp_path / "out"
    assert run("grade", cls, "--out", out, "--seed", "3")[0] == 0
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert sorted((s["learner"], s["learner_id"]) for s in doc["submissions"]) == [
        ("Ana García", "123"),
        ("Ana García", "456"),
    ]

    def verdicts() -> dict[str, bool | None]:
        doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
        return {
            s["learner_id"]: next(c for c in s["criteria"] if c["id"] == UNDECIDED)["passed"]
            for s in doc["submissions"]
        }

    # The CSV and the listing name each one with the LMS's id: the row applies as written.
    sheet = tmp_path / "r.csv"
    code, stdout, _ = run("review", out, "--csv", sheet)
    assert code == 0 and "Ana García (123)" in stdout and "Ana García (456)" in stdout
    assert run("review", out, "--csv", tmp_path / "solo.csv", "--learner", "456")[0] == 0
    fill_for(tmp_path / "solo.csv", {"Ana García (456)": ("pass", "Marta", "vale")})
    code, _, stderr = run("review", out, "--apply", tmp_path / "solo.csv")
    assert code == 0, stderr
    assert verdicts() == {"456": True, "123": None}
    # A row written by hand with the bare name cannot say which of the two it is for.
    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))
    rows = [dict(r, learner="Ana García", decision="fail", reviewer="Marta", reason="no") for r in rows[:1]]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    sheet.write_text(buf.getvalue(), encoding="utf-8")
    before = tree(out)
    code, _, stderr = run("review", out, "--apply", sheet)
    assert code == 2 and "línea 2" in stderr and "dos alumnos" in stderr
    assert tree(out) == before
    # ...and the id alone does.
    sheet.write_text(buf.getvalue().replace(",Ana García,", ",123,"), encoding="utf-8")
    code, _, stderr = run("review", out, "--apply", sheet)
    assert code == 0, stderr
    assert verdicts() == {"456": True, "123": False}


def test_decisions_saved_before_learner_ids_still_apply(fake, tmp_path):
    cls = folder_class(tmp_path, {"Ana": "# dudosa\n", "Beto": "# dudosa\n"})
    out = tmp_path / "out"
    assert run("grade", cls, "--out", out, "--seed", "3")[0] == 0
    sheet = tmp_path / "r.csv"
    assert run("review", out, "--csv", sheet)[0] == 0
    fill_for(sheet, {"Beto": ("pass", "Marta", "vale")})
    assert run("review", out, "--apply", sheet)[0] == 0
    saved = json.loads((out / "decisions.json").read_text(encoding="utf-8"))
    for d in saved["decisions"]:
        del d["learner_id"]
    old = json.dumps(saved).encode("utf-8")
    (out / "decisions.json").write_bytes(old)
    manifest = json.loads((out / out_folder.MANIFEST_FILE).read_text(encoding="utf-8"))
    manifest["files"]["decisions.json"] = hashlib.sha256(old).hexdigest()  # as that older grader wrote it
    (out / out_folder.MANIFEST_FILE).write_text(json.dumps(manifest), encoding="utf-8")
    code, _, stderr = run("grade", cls, "--out", out, "--seed", "3", "--force")
    assert code == 0, stderr
    assert undecided(out, "Beto")["passed"] is True and undecided(out, "Ana")["passed"] is None


def test_review_counts_its_rows_and_decisions_in_the_singular_too(graded, tmp_path):
    sheet = tmp_path / "r.csv"
    code, stdout, _ = run("review", graded, "--csv", sheet, "--learner", "ana", "--criterion", UNDECIDED)
    assert code == 0 and "1 fila para decidir" in stdout and "aplícala" in stdout
    code, stdout, _ = run("review", graded, "--csv", tmp_path / "e.csv", "--lang", "en")
    assert code == 0 and "2 rows to decide" in stdout
    fill(sheet, {"ana.py": ("pass", "Marta", "vale")})
    code, stdout, _ = run("review", graded, "--apply", sheet, "--lang", "en")
    assert code == 0 and "1 decision was recorded" in stdout


def test_one_rule_says_whose_decision_or_file_choice_it_is_and_the_latest_of_each_is_kept():
    from autograder.reporting.review import Decision, FileChoice, learner_key, merged_decisions, merged_file_choices

    def decided(learner: str, ident: str, at: str, why: str) -> Decision:
        return Decision("ab" * 32, "04.ipynb", learner, CRITERIA_IDS[0], True, 1.0, "Prof.", at, why, "pending", ident)

    # The gradebook renamed the learner with id 101: the same learner, by id; a namesake without one is another.
    early, renamed = (
        decided("Ana García", "101", "2026-12-01T10:00", "a"),
        decided("García, Ana", "101", "2026-12-02", "b"),
    )
    namesake = decided("Ana García", "", "2026-12-03T10:00", "c")
    assert early.who == renamed.who == learner_key("Ana García", "101") == ("id", "101")
    assert namesake.who == learner_key("Ana García", "") == ("name", "Ana García")
    assert merged_decisions([renamed], [early, namesake]) == merged_decisions([namesake, early], [renamed])
    assert merged_decisions([renamed], [early, namesake]) == [namesake, renamed]  # the latest of each, in a fixed order
    tie = decided("García, Ana", "101", "2026-12-02", "given last")
    assert merged_decisions([renamed, tie]) == [tie]  # at the same moment, the one given last

    chosen = [
        FileChoice("Ana García", "a.ipynb", "2026-12-01", "101"),
        FileChoice("García, Ana", "b.ipynb", "2026-12-02", "101"),
    ]
    assert chosen[0].who == chosen[1].who == early.who  # a file choice is the learner's by the same rule
    assert merged_file_choices(chosen[1:], chosen[:1]) == [chosen[1]]
    assert merged_file_choices([FileChoice("Ana García", "c.ipynb", "2026-12-09", "")], chosen)[0].file == "c.ipynb"
