"""The course's configuration (``curso.toml``, :mod:`autograder.course.config`): points, levels, limits, seed, language.

Read and checked with messages naming the file and the line; applied by ``grade``, recorded in results.json,
honoured by ``merge``, the Gradescope bundle and ``check()`` in the learner's edition.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import subprocess
import sys
import types
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from autograder import cli
from autograder.classrun import gradescope
from autograder.classrun import run as class_run
from autograder.course import config, criteria
from autograder.course.config import DEFAULT, ConfigError, CourseConfig, Locator, parse_toml
from autograder.distribution import bundle, release
from autograder.wire.limits import Limits
from autograder.wire.results import SubmissionResult

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "curso.toml.ejemplo"
SUBMISSIONS = REPO / "tests" / "data" / "submissions"

COURSE = """\
# un curso que cambia puntos, niveles y límites
semilla = 2026
niveles = [0, 1]

[puntos]
"nivel1.hidden" = 5
"nivel0.fresh_start" = 2.5
"nivel2.no_double_email" = 10   # no cuenta: el nivel 2 no está en niveles

[limites]
call_seconds = 2
memory_mb = 768
"""
COURSE_MAX = 20.5  # levels 0 and 1: 6 + 9 + 1.5 (fresh_start) + 3 (hidden)


def run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, text: str, name: str = "curso.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def nothing_gradable_class(root: Path, n: int = 2) -> Path:
    """Learners who handed in no code: graded for real, each a row with 0 out of the course's maximum, no judge."""
    cls = root / "clase"
    for i in range(n):
        (cls / f"alumno{i}").mkdir(parents=True)
        (cls / f"alumno{i}" / "tarea.pdf").write_bytes(b"%PDF-1.4\n")
    return cls


# --- the file --------------------------------------------------------------------------------


def test_the_example_file_is_the_built_in_configuration_and_names_every_criterion_and_limit():
    loaded = config.load(EXAMPLE)
    # The same values; DEFAULT's points are the registry's own, which results.json writes as declared (1, not 1.0).
    assert loaded.to_json() == DEFAULT.to_json() and loaded.digest() == DEFAULT.digest() and DEFAULT.points == {}
    assert loaded.graded() == [replace(c, points=float(c.points)) for c in DEFAULT.graded()]
    text = EXAMPLE.read_text(encoding="utf-8")
    for name in config.LIMIT_RANGES:
        assert f"\n{name} = {getattr(Limits(), name)!r}" in text, name
    assert "processes" not in config.LIMIT_RANGES  # never configurable: the learner's process forks nothing


def test_a_course_file_sets_points_levels_limits_seed_and_language(tmp_path):
    course = config.load(write(tmp_path, 'idioma = "en"\n' + COURSE))
    assert course.points["nivel1.hidden"] == 5 and course.points["nivel0.fresh_start"] == 2.5
    assert course.points["nivel1.cpA"] == criteria.CRITERIA["nivel1.cpA"].points  # not named: the registry's
    assert course.levels == (0, 1) and course.seed == 2026 and course.lang == "en"
    assert course.limits == Limits(call_seconds=2.0, memory_mb=768)
    assert [c.id for c in course.graded()] == [c.id for c in criteria.CRITERIA.values() if c.level < 2]
    assert course.max_score == COURSE_MAX


@pytest.mark.parametrize(
    "spelling",
    [
        '[puntos]\n"nivel0.fresh_start" = 3\n',
        "[puntos]\nnivel0.fresh_start = 3\n",  # a dotted key: a nested table in TOML
        "[puntos.nivel0]\nfresh_start = 3\n",
        'puntos = { "nivel0.fresh_start" = 3 }\n',
    ],
)
def test_a_criterion_id_may_be_written_as_toml_allows(spelling):
    assert parse_toml(spelling).points["nivel0.fresh_start"] == 3.0


def test_the_digest_follows_the_values_not_the_spelling():
    a = parse_toml('niveles = [1, 0]\n[puntos]\n"nivel1.cpA" = 2\n')
    b = parse_toml("niveles = [0, 1]\n[puntos]\nnivel1.cpA = 2.0\n# un comentario\n")
    assert a.digest() == b.digest() and a.record()["sha256"] == a.digest()
    assert parse_toml('[puntos]\n"nivel1.cpA" = 3\n').digest() != a.digest() != DEFAULT.digest()
    assert a.with_run(seed=1, lang="es").digest() != a.with_run(seed=2, lang="es").digest()


def test_the_learners_copy_has_no_seed():
    course = parse_toml("semilla = 99\n")
    assert "semilla" in course.to_json() and "semilla" not in course.for_learners().to_json()


# --- every mistake names the file and the line ---------------------------------------------------

ERRORS = [
    # (kind, file, line, Spanish words, English words)
    ("syntax", "semilla = 1\nniveles = [0, 1\n[puntos]\n", 3, "no es TOML válido", "not valid TOML"),
    ("syntax", "\n\nsemilla == 3\n", 3, "no es TOML válido", "not valid TOML"),
    ("syntax", "semilla = 1\nsemilla = 2\n", 2, "no es TOML válido", "not valid TOML"),
    ("syntax", '[puntos]\n"nivel1.cpA" = 1\n"nivel1.cpA" = 2\n', 3, "no es TOML válido", "not valid TOML"),
    (
        "unknown key",
        "# comentario\nsemila = 3\n",
        2,
        "clave desconocida «semila» (¿quisiste decir «semilla»?)",
        "did you mean «semilla»",
    ),
    (
        "unknown key",
        "niveles = [0]\n\n[limite]\ncall_seconds = 2\n",
        3,
        "«limite» (¿quisiste decir «limites»?)",
        "unknown key «limite»",
    ),
    (
        "unknown key",
        "[limites]\ncall_second = 2\n",
        2,
        "no hay ningún límite «call_second» (¿quisiste decir «call_seconds»",
        "there is no limit «call_second»",
    ),
    (
        "unknown key",
        "[limites]\nload_seconds = 2\nprocesses = 2\n",
        3,
        "no hay ningún límite «processes»",
        "there is no limit «processes»",
    ),
    (
        "unknown criterion",
        '[puntos]\n"nivel0.fresh_start" = 1\n"nivel0.fresh_strat" = 2\n',
        3,
        "no hay ningún criterio «nivel0.fresh_strat» (¿quisiste decir «nivel0.fresh_start»",
        "no criterion",
    ),
    ("unknown criterion", "[puntos]\nnivel1.cpD = 1\n", 2, "«nivel1.cpD» (¿quisiste decir «nivel1.cpC»", "nivel1.cpC"),
    (
        "unknown criterion",
        "[puntos.nivel2]\n\nno_double_mail = 1\n",
        3,
        "«nivel2.no_double_mail»",
        "did you mean «nivel2.no_double_email»",
    ),
    ("unknown criterion", '[puntos]\n"otro" = 1\n', 2, "no hay ningún criterio «otro»", "no criterion «otro»"),
    (
        "wrong type",
        '[puntos]\n"nivel1.cpA" = "uno"\n',
        2,
        "«nivel1.cpA» tiene que ser un número de puntos, y es un texto",
        "must be a number of points, and it is a string",
    ),
    ("wrong type", '[puntos]\n"nivel1.cpA" = true\n', 2, "y es un booleano", "it is a boolean"),
    (
        "wrong type",
        'semilla = "2026"\n',
        1,
        "«semilla» tiene que ser un número entero, y es un texto",
        "a whole number",
    ),
    ("wrong type", "niveles = 2\n", 1, "«niveles» tiene que ser una lista no vacía", "non-empty list"),
    ("wrong type", "niveles = []\n", 1, "una lista no vacía", "non-empty list"),
    ("wrong type", "puntos = 3\n", 1, "«puntos» tiene que ser una tabla", "must be a table"),
    (
        "wrong type",
        "[limites]\ncpu_seconds = 2.5\n",
        2,
        "«cpu_seconds» tiene que ser un número entero, y es un número con decimales",
        "a whole number",
    ),
    ("wrong type", 'idioma = "fr"\n', 1, '«idioma» tiene que ser "es" o "en", y es "fr"', 'must be "es" or "en"'),
    ("wrong type", "semilla = 1979-05-27\n", 1, "y es una fecha u hora", "a date or time"),
    (
        "out of range",
        "[limites]\nmemory_mb = 5\n",
        2,
        "«memory_mb» = 5 está fuera de rango: tiene que estar entre 128 y 16384 MB",
        "out of range",
    ),
    ("out of range", "[limites]\n\ncall_seconds = 0\n", 3, "entre 0.1 y 60 s", "between 0.1 and 60 s"),
    ("out of range", "[limites]\nthreads = -1\n", 2, "«threads» = -1 está fuera de rango", "out of range"),
    ("out of range", "[limites]\nsubmission_seconds = 1e9\n", 2, "«submission_seconds»", "out of range"),
    ("out of range", '[puntos]\n"nivel1.cpA" = -1\n', 2, "«nivel1.cpA» = -1 está fuera de rango", "out of range"),
    ("out of range", "semilla = -5\n", 1, "«semilla» = -5 está fuera de rango", "out of range"),
    (
        "out of range",
        "[limites]\ncall_seconds = 7\n",
        2,
        "call_seconds (7 s) no puede pasar de check_seconds (6 s)",
        "cannot exceed",
    ),
    (
        "out of range",
        "[limites]\nload_seconds = 60\ncheck_seconds = 40\n",
        2,
        "submission_seconds (90 s) tiene que pasar",
        "backstop",
    ),
    ("level", "niveles = [0, 3]\n", 1, "niveles: 3 no es un nivel del curso (los niveles son 0, 1, 2)", "not a level"),
    ("level", "semilla = 1\nniveles = [-1]\n", 2, "niveles: -1 no es un nivel", "-1 is not a level"),
    ("level", 'niveles = ["2"]\n', 1, "niveles: un texto no es un nivel", "a string is not a level"),
    ("level", "niveles = [1.5]\n", 1, "niveles: 1.5 no es un nivel", "1.5 is not a level"),
    ("level", "niveles = [1, 1]\n", 1, "un nivel aparece dos veces", "appears twice"),
    (
        "level",
        "niveles = [2]\n[puntos]\n" + "".join(f'"{c.id}" = 0\n' for c in criteria.graded([2])),
        1,
        "no queda nada que calificar",
        "nothing is left to grade",
    ),
]


@pytest.mark.parametrize(
    ("kind", "source", "line", "es", "en"), ERRORS, ids=[f"{e[0]}-{i}" for i, e in enumerate(ERRORS)]
)
def test_every_mistake_names_the_file_and_the_line_in_both_languages(tmp_path, kind, source, line, es, en):
    path = write(tmp_path, source)
    with pytest.raises(ConfigError) as caught:
        config.load(path)
    spanish, english = caught.value.notice.render("es"), caught.value.notice.render("en")
    assert spanish.startswith(f"«{path}», línea {line}"), spanish
    assert english.startswith(f"«{path}», line {line}"), english
    assert es in spanish and en in english


@pytest.mark.parametrize(
    ("source", "where"),
    [
        ("semilla = 1\nniveles = [0, 1\n", "línea 2: "),  # open at the end of the file: its last line
        ('semilla = 1\n\nidioma = "es\n', "línea 3, columna "),
        ("semilla = 1\n[puntos\n", "línea 2, columna "),
        ("[limites]\ncall_seconds = 1 2\n", "línea 2, columna "),
    ],
)
def test_a_syntax_error_names_the_line_and_tomllibs_column(tmp_path, source, where):
    path = write(tmp_path, source)
    with pytest.raises(ConfigError) as caught:
        config.load(path)
    assert str(caught.value).startswith(f"«{path}», {where}"), str(caught.value)
    assert "no es TOML válido" in str(caught.value) and "at end of document" not in str(caught.value)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "No existe el archivo de configuración"),
        (b"semilla = 1\n# \xff\xfe\n", "línea 2: el archivo no está en UTF-8"),
        (b"# x\n" * 70_000, "pasa de 256 KB"),
    ],
)
def test_an_unreadable_file_is_said_plainly(tmp_path, content, expected):
    path = tmp_path / "curso.toml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ConfigError, match=expected):
        config.load(path)


@pytest.mark.parametrize(
    ("source", "path", "line"),
    [
        ('a = 1\n[puntos]\n"x.y" = 2\n', ("puntos", "x.y"), 3),
        ("a = 1\n[puntos]\nx . y = 2\n", ("puntos", "x.y"), 3),
        ("[puntos.x]\n# y = 1\ny = 2\n", ("puntos", "x.y"), 3),
        ("[limites]  # comentario\n\nz = 1\n", ("limites", "z"), 3),
        ("puntos = { y = 1 }\n", ("puntos", "y"), 1),  # an inline table: its line
        ("[limites]\nz = 1\n", ("limites", "w"), 1),  # a key that is not there: its table's line
    ],
)
def test_the_locator_finds_a_keys_line(source, path, line):
    assert Locator(source).line(*path) == line


@pytest.mark.parametrize("argv_lang", [(), ("--lang", "en")])
@pytest.mark.parametrize("command", ["grade", "gradescope", "release"])
def test_a_bad_file_stops_every_command_with_exit_2_and_writes_nothing(tmp_path, command, argv_lang):
    bad = write(tmp_path, "[limites]\nmemory_mb = 5\n")
    (tmp_path / "ana.py").write_text("x = 1\n")
    out = tmp_path / ("salida.zip" if command == "gradescope" else "salida")
    paths = [tmp_path / "ana.py"] if command == "grade" else []
    code, _, stderr = run(command, *paths, "--out", out, "--config", bad, *argv_lang)
    assert code == 2 and not out.exists() and "Traceback" not in stderr
    words = "line 2" if argv_lang else "línea 2"
    assert f"autograder: error: «{bad}», {words}: «memory_mb» = 5" in stderr, stderr


def test_the_help_says_flags_win_over_the_file():
    for lang, words in (("es", "ganan al archivo"), ("en", "win over the file")):
        code, stdout, _ = run("grade", "--help", "--lang", lang)
        assert code == 0 and "--config" in stdout and words in " ".join(stdout.split())


# --- grade applies it and records it ------------------------------------------------------------


def test_grade_with_a_config_changes_the_criteria_and_the_maximum_in_every_report(tmp_path):
    cls = nothing_gradable_class(tmp_path)
    code, _, stderr = run("grade", cls, "--out", tmp_path / "out", "--config", write(tmp_path, COURSE))
    assert code == 0, stderr
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    counted = [c.id for c in criteria.CRITERIA.values() if c.level < 2]
    for sub in doc["submissions"]:
        assert sub["max_score"] == COURSE_MAX and [c["id"] for c in sub["criteria"]] == counted
        by_id = {c["id"]: c["max_score"] for c in sub["criteria"]}
        assert by_id["nivel1.hidden"] == 5 and by_id["nivel0.fresh_start"] == 2.5 and by_id["nivel1.cpA"] == 1
    recorded = doc["report"]["config"]
    assert recorded["niveles"] == [0, 1] and recorded["semilla"] == 2026 and recorded["idioma"] == "es"
    assert recorded["puntos"]["nivel1.hidden"] == 5 and recorded["limites"]["memory_mb"] == 768
    course = parse_toml(COURSE).with_run(seed=2026, lang="es")
    assert recorded["sha256"] == course.digest() and doc["report"]["seed"] == 2026
    for name, delimiter in (("grades.csv", ","), ("notas.csv", ";")):
        rows = list(
            csv.reader(io.StringIO((tmp_path / "out" / name).read_text(encoding="utf-8-sig")), delimiter=delimiter)
        )
        header = rows[0]
        assert not any(h.startswith("nivel2.") for h in header), (name, header)
        assert "nivel1.hidden" in " ".join(header)
        assert all(any(cell in ("20.5", "20,5") for cell in row) for row in rows[1:]), (name, rows)
    assert "20,5" in (tmp_path / "out" / "resumen.html").read_text(encoding="utf-8")


def test_grade_without_a_config_records_the_built_in_one(tmp_path):
    cls = nothing_gradable_class(tmp_path, 1)
    code, _, stderr = run("grade", cls, "--out", tmp_path / "out", "--seed", "5")
    assert code == 0, stderr
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert doc["report"]["config"]["sha256"] == DEFAULT.with_run(seed=5, lang="es").digest()
    assert doc["submissions"][0]["max_score"] == DEFAULT.max_score == sum(c.points for c in criteria.CRITERIA.values())


class Recorder:
    """A run_grading that records what it was asked to grade with."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __call__(self, learners, course: CourseConfig, *, jobs, progress):
        self.calls.append({"seed": course.seed, "lang": course.lang, "course": course})
        return [
            SubmissionResult.from_criteria(Path(s.source).name, course.not_graded("x"), seed=course.seed)
            for s in learners
        ]


@pytest.mark.parametrize(
    ("flags", "seed", "lang"),
    [
        ((), 2026, "en"),  # the file's
        (("--seed", "7"), 7, "en"),
        (("--lang", "es"), 2026, "es"),
        (("--seed", "0", "--lang", "es"), 0, "es"),
    ],
)
def test_flags_given_on_the_command_line_win_over_the_file(tmp_path, monkeypatch, flags, seed, lang):
    grader = Recorder()
    monkeypatch.setattr(class_run, "run_grading", grader)
    (tmp_path / "ana.py").write_text("x = 1\n")
    path = write(tmp_path, 'idioma = "en"\n' + COURSE)
    code, stdout, stderr = run("grade", tmp_path / "ana.py", "--out", tmp_path / "out", "--config", path, *flags)
    assert code == 0, stderr
    (call,) = grader.calls
    assert call["seed"] == seed and call["lang"] == lang
    assert call["course"].limits.call_seconds == 2 and call["course"].levels == (0, 1)
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert doc["report"]["config"]["semilla"] == seed and doc["report"]["config"]["idioma"] == lang
    assert doc["report"]["lang"] == lang and doc["report"]["seed"] == seed
    printed = "Graded" if lang == "en" else "Se calific"
    assert printed in stdout


def test_the_top_level_lang_flag_also_wins(tmp_path, monkeypatch):
    grader = Recorder()
    monkeypatch.setattr(class_run, "run_grading", grader)
    (tmp_path / "ana.py").write_text("x = 1\n")
    path = write(tmp_path, 'idioma = "en"\n')
    code, _, stderr = run("--lang", "es", "grade", tmp_path / "ana.py", "--out", tmp_path / "out", "--config", path)
    assert code == 0, stderr
    assert grader.calls[0]["lang"] == "es"


def test_the_files_seed_is_enough_for_a_shard(tmp_path, monkeypatch):
    monkeypatch.setattr(class_run, "run_grading", Recorder())
    (tmp_path / "ana.py").write_text("x = 1\n")
    code, _, stderr = run(
        "grade", tmp_path / "ana.py", "--out", tmp_path / "p", "--shard", "1/1", "--config", write(tmp_path, COURSE)
    )
    assert code == 0, stderr
    doc = json.loads((tmp_path / "p" / "results.json").read_text(encoding="utf-8"))
    assert doc["run"]["seed"] == 2026 and doc["run"]["config"] == doc["report"]["config"]


def test_the_pipeline_sends_the_points_and_scores_with_them(monkeypatch):
    from autograder.grading import pipeline
    from autograder.intake.submission import from_python

    sent = {}

    class Server:
        def grade(self, request, timeout):
            sent.update(request)
            raise pipeline.ServerError("no judge here")

    course = parse_toml(COURSE)
    result = pipeline.grade_loaded(from_python("x = 1\n", "ana.py", kind="py"), course, server=Server())
    judged = CourseConfig.from_wire(sent["course"])  # as the judging process reads it
    assert judged == course.for_run() and judged.seed == 2026 and judged.lang == "es"
    assert judged.points["nivel1.hidden"] == 5 and judged.levels == (0, 1) and judged.limits.memory_mb == 768
    assert result.max_score == COURSE_MAX and len(result.criteria) == len(course.graded())


def test_without_a_file_the_judge_scores_with_the_registrys_own_points(monkeypatch):
    """Byte for byte as before: results.json writes a declared 1 as 1 without --config, as 1.0 with one."""
    from autograder.grading import pipeline
    from autograder.intake.submission import from_python

    sent = {}

    class Server:
        def grade(self, request, timeout):
            sent.update(request)
            raise pipeline.ServerError("no judge here")

    result = pipeline.grade_loaded(from_python("x = 1\n", "ana.py", kind="py"), server=Server())
    assert sent["course"]["puntos"] == {} and CourseConfig.from_wire(sent["course"]).points == {}
    assert 0 <= sent["course"]["semilla"] < config.SEED_MAX and sent["course"]["idioma"] == "es"
    declared = [c.points for c in criteria.CRITERIA.values()]
    assert [(c.max_score, type(c.max_score)) for c in result.criteria] == [(p, type(p)) for p in declared]
    assert '"max_score": 1,' in json.dumps(result.to_json()) and '"max_score": 1.0,' not in json.dumps(result.to_json())
    with_file = parse_toml("").not_graded("x")
    assert all(type(c.max_score) is float for c in with_file)


@pytest.mark.parametrize(
    "course",
    [
        CourseConfig(seed=3, lang="en"),
        CourseConfig(points={"nivel1.hidden": 4}, levels=(1,), limits=Limits(processes=3, call_seconds=0.5), seed=0),
        parse_toml(COURSE).for_run(),
    ],
)
def test_the_judging_process_reads_the_configuration_the_grader_sent(course):
    wire = json.loads(json.dumps(course.to_wire()))  # framed JSON between the processes
    assert CourseConfig.from_wire(wire) == course


def test_the_registry_gives_the_criteria_with_the_configured_points_and_keeps_its_own():
    points = {"nivel1.cpA": 4.0, "nivel1.hidden": 7.0}
    chosen = {c.id: c for c in criteria.graded([1], points)}
    assert chosen["nivel1.cpA"].points == 4.0 and chosen["nivel1.cpB"].points == 1
    assert chosen["nivel1.cpA"].result((True, "ok")).score == 4.0
    not_graded = CourseConfig(points=points, levels=(1,)).not_graded("x")
    assert {c.id: c.max_score for c in not_graded}["nivel1.hidden"] == 7.0
    assert criteria.CRITERIA["nivel1.cpA"].points == 1  # the registry itself is never changed


# --- merge ------------------------------------------------------------------------------------


def grade_part(tmp_path: Path, cls: Path, name: str, shard: str, *extra: str | Path) -> Path:
    out = tmp_path / name
    code, _, stderr = run("grade", cls, "--out", out, "--seed", "3", "--shard", shard, *extra)
    assert code == 0, stderr
    return out


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (COURSE, COURSE.replace('"nivel1.hidden" = 5', '"nivel1.hidden" = 6')),  # points
        (COURSE, COURSE.replace("niveles = [0, 1]", "niveles = [0, 1, 2]")),  # levels
        (COURSE, COURSE.replace("memory_mb = 768", "memory_mb = 1024")),  # limits
        (COURSE, None),  # one part without --config
    ],
)
def test_merge_refuses_parts_graded_under_different_configs(tmp_path, monkeypatch, first, second):
    monkeypatch.setattr(class_run, "run_grading", Recorder())
    cls = nothing_gradable_class(tmp_path, 6)
    a = grade_part(tmp_path, cls, "a", "1/2", "--config", write(tmp_path, first, "a.toml"))
    b_config = () if second is None else ("--config", write(tmp_path, second, "b.toml"))
    b = grade_part(tmp_path, cls, "b", "2/2", *b_config)
    code, _, stderr = run("merge", a, b, "--out", tmp_path / "junta")
    assert code == 2 and not (tmp_path / "junta").exists()
    assert "configuraciones distintas del curso" in stderr
    assert f"«{a / 'results.json'}»" in stderr and f"«{b / 'results.json'}»" in stderr
    code, _, stderr = run("merge", a, b, "--out", tmp_path / "junta", "--lang", "en")
    assert code == 2 and "different course configurations" in stderr


@pytest.mark.parametrize(
    "tamper",
    [
        lambda c: c["puntos"].update({"nivel1.hidden": 50}),  # values changed, digest kept: it no longer matches
        lambda c: c.update({"sha256": "0" * 64}),
        lambda c: c.pop("sha256"),
        lambda c: c.clear(),
    ],
)
def test_merge_refuses_a_part_whose_recorded_config_does_not_match_its_digest(tmp_path, monkeypatch, tamper):
    monkeypatch.setattr(class_run, "run_grading", Recorder())
    cls = nothing_gradable_class(tmp_path, 6)
    path = write(tmp_path, COURSE)
    a, b = (grade_part(tmp_path, cls, f"p{i}", f"{i}/2", "--config", path) for i in (1, 2))
    results = b / "results.json"
    doc = json.loads(results.read_text(encoding="utf-8"))
    tamper(doc["run"]["config"])
    results.write_text(json.dumps(doc), encoding="utf-8")
    code, _, stderr = run("merge", a, b, "--out", tmp_path / "junta")
    assert code == 2 and "run.config" in stderr and not (tmp_path / "junta").exists(), stderr


def test_merge_joins_parts_of_one_config_and_keeps_it(tmp_path, monkeypatch):
    monkeypatch.setattr(class_run, "run_grading", Recorder())
    cls = nothing_gradable_class(tmp_path, 6)
    path = write(tmp_path, COURSE)
    parts = [grade_part(tmp_path, cls, f"p{i}", f"{i}/2", "--config", path) for i in (1, 2)]
    code, _, stderr = run("merge", *parts, "--out", tmp_path / "junta")
    assert code == 0, stderr
    merged = json.loads((tmp_path / "junta" / "results.json").read_text(encoding="utf-8"))
    one = grade_part(tmp_path, cls, "una", "1/1", "--config", path)
    single = json.loads((one / "results.json").read_text(encoding="utf-8"))
    assert merged["report"]["config"] == single["report"]["config"] == single["run"]["config"]
    assert {s["max_score"] for s in merged["submissions"]} == {COURSE_MAX}


def test_review_keeps_the_config_when_it_writes_the_reports_again(tmp_path):
    cls = nothing_gradable_class(tmp_path, 1)
    out = tmp_path / "out"
    code, _, stderr = run("grade", cls, "--out", out, "--config", write(tmp_path, COURSE))
    assert code == 0, stderr
    before = json.loads((out / "results.json").read_text(encoding="utf-8"))
    sheet = tmp_path / "revision.csv"
    code, _, stderr = run("review", out, "--criterion", "nivel1.hidden", "--csv", sheet)
    assert code == 0, stderr
    rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    for row in rows:
        row |= {"decision": "pass", "reviewer": "profe", "reason": "entregó en papel"}
    with sheet.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    code, _, stderr = run("review", out, "--apply", sheet)
    assert code == 0, stderr
    after = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert after["report"]["config"] == before["report"]["config"]
    assert after["submissions"][0]["score"] == 5 and after["submissions"][0]["max_score"] == COURSE_MAX


# --- Gradescope --------------------------------------------------------------------------------


def test_the_bundle_carries_the_config_without_its_seed(tmp_path):
    path = write(tmp_path, 'idioma = "en"\n' + COURSE)
    code, _, stderr = run("gradescope", "--out", tmp_path / "a.zip", "--config", path, "--seed", "11")
    assert code == 0, stderr
    with zipfile.ZipFile(tmp_path / "a.zip") as zf:
        baked = json.loads(zf.read(bundle.CONFIG_MEMBER))
        assert zf.read(bundle.SEED_MEMBER) == b"11\n"
    assert baked["puntos"]["nivel1.hidden"] == 5 and baked["niveles"] == [0, 1] and baked["idioma"] == "en"
    assert baked["limites"]["call_seconds"] == 2 and "semilla" not in baked
    code, _, _ = run("gradescope", "--out", tmp_path / "b.zip")
    with zipfile.ZipFile(tmp_path / "b.zip") as zf:
        assert bundle.CONFIG_MEMBER not in zf.namelist()


@pytest.fixture
def layout(tmp_path, monkeypatch):
    root = tmp_path / "autograder"
    for d in ("source", "submission", "results"):
        (root / d).mkdir(parents=True)
    monkeypatch.setenv("AUTOGRADER_ROOT", str(root))
    monkeypatch.delenv("AUTOGRADER_LANG", raising=False)
    (root / "source" / bundle.SEED_MEMBER).write_text("5\n")
    (root / "submission" / "entrega.py").write_text("x = 1\n")
    return root


def fake_pipeline(monkeypatch) -> list[CourseConfig]:
    calls: list[CourseConfig] = []

    def grade_many(learners, course, *, jobs):
        calls.append(course)
        return [SubmissionResult.from_criteria("entrega.py", course.not_graded("no"), seed=course.seed)]

    monkeypatch.setitem(sys.modules, "autograder.grading.pipeline", types.SimpleNamespace(grade_many=grade_many))
    return calls


@pytest.mark.parametrize(("env_lang", "lang"), [(None, "en"), ("es", "es")])
def test_the_runner_grades_with_the_bundles_config(layout, monkeypatch, env_lang, lang):
    calls = fake_pipeline(monkeypatch)
    course = parse_toml('idioma = "en"\n' + COURSE).with_run(seed=None, lang="en")
    (layout / "source" / bundle.CONFIG_MEMBER).write_text(config.to_file_json(course))
    if env_lang:
        monkeypatch.setenv("AUTOGRADER_LANG", env_lang)
    assert gradescope.main() == 0
    (call,) = calls
    assert call.levels == (0, 1) and call.points["nivel1.hidden"] == 5 and call.limits.memory_mb == 768
    assert call.lang == lang and call.seed == 5
    doc = json.loads((layout / "results" / "results.json").read_text(encoding="utf-8"))
    assert sum(t["max_score"] for t in doc["tests"]) == COURSE_MAX
    assert doc["extra_data"]["config"] == course.digest()


def test_the_runner_without_a_config_grades_as_built_in(layout, monkeypatch):
    calls = fake_pipeline(monkeypatch)
    assert gradescope.main() == 0
    assert calls == [DEFAULT.with_run(seed=5, lang="es")]
    doc = json.loads((layout / "results" / "results.json").read_text(encoding="utf-8"))
    assert "config" not in doc["extra_data"]


@pytest.mark.parametrize("damage", ["{", '{"niveles": [7]}', '["no"]'])
def test_a_damaged_bundle_config_gives_0_and_says_why_to_instructors_only(layout, monkeypatch, capsys, damage):
    calls = fake_pipeline(monkeypatch)
    (layout / "source" / bundle.CONFIG_MEMBER).write_text(damage)
    assert gradescope.main() == 0
    doc = json.loads((layout / "results" / "results.json").read_text(encoding="utf-8"))
    assert calls == [] and doc["score"] == 0 and doc["tests"] == []
    assert bundle.CONFIG_MEMBER in capsys.readouterr().out


# --- the learner's edition and check() ---------------------------------------------------------


def test_the_edition_ships_the_config_without_the_seed_and_only_when_given(tmp_path):
    course = parse_toml(COURSE)
    files = release.edition_files(config=course)
    shipped = json.loads(files[release.SHIPPED_CONFIG])
    assert shipped["puntos"]["nivel1.hidden"] == 5 and shipped["niveles"] == [0, 1] and "semilla" not in shipped
    assert release.SHIPPED_CONFIG not in release.edition_files()
    code, _, stderr = run("release", "--out", tmp_path / "ed", "--config", write(tmp_path, COURSE))
    assert code == 0, stderr
    assert config.load(tmp_path / "ed" / release.SHIPPED_CONFIG) == course.for_learners()


@pytest.mark.parametrize(
    ("levels", "es", "en"),
    [
        ((0, 1, 2), "los niveles 0, 1 y 2", "levels 0, 1 and 2"),
        ((0, 1), "los niveles 0 y 1", "levels 0 and 1"),
        ((2,), "el nivel 2", "level 2"),
    ],
)
def test_what_learners_read_about_levels_follows_the_course(levels, es, en):
    from autograder.course.catalogue import said_levels

    assert (said_levels(levels, "es"), said_levels(levels, "en")) == (es, en)
    course = parse_toml(f"niveles = {list(levels)}\n")
    readme = release.edition_files(config=course)[release.README].decode("utf-8")
    assert f"tus funciones de {es} y" in readme
    english = release.edition_files(lang="en", config=course)[release.README].decode("utf-8")
    assert f"your functions for {en} and" in english


@pytest.mark.parametrize(("levels", "said"), [((0, 1), "resolviste los niveles 0 y 1."), ((0, 1, 2), "0, 1 y 2.")])
def test_the_wrong_notebook_message_names_the_levels_graded(tmp_path, levels, said):
    from autograder.grading.pipeline import grade_learner
    from autograder.intake.collect import collect_submissions

    notebook = release.ROOT / "notebooks" / "01_reanudar_no_reiniciar.ipynb"
    (tmp_path / "ana").mkdir()
    (tmp_path / "ana" / "01.ipynb").write_bytes(notebook.read_bytes())
    (learner,) = collect_submissions([tmp_path]).learners
    result = grade_learner(learner, CourseConfig(seed=1, levels=levels))
    assert said in (result.error or ""), result.error


def test_check_skips_a_level_the_course_does_not_count(monkeypatch, tmp_path, capsys):
    from autograder import notebook

    shipped = tmp_path / "curso.json"
    shipped.write_text(config.to_file_json(parse_toml(COURSE)))
    monkeypatch.setattr(config, "SHIPPED", shipped)
    for lang, words in (("es", "el nivel 2 no cuenta en este curso (cuentan 0, 1)"), ("en", "level 2 does not count")):
        result = notebook.check(2, lang=lang, namespace={})
        assert result.criteria == [] and result.max_score == 0
        assert words in capsys.readouterr().out


def test_pista_offers_the_hints_of_the_levels_the_course_counts_in_its_language(monkeypatch, tmp_path, capsys):
    from autograder import notebook

    shipped = tmp_path / "curso.json"
    shipped.write_text(config.to_file_json(parse_toml('idioma = "en"\n' + COURSE)))
    monkeypatch.setattr(config, "SHIPPED", shipped)
    notebook.pista()
    listed = capsys.readouterr().out
    assert "nivel1.hidden" in listed and "nivel0.fresh_start" in listed and "nivel2." not in listed
    assert criteria.hints("nivel1.hidden", "en")[0] in listed  # the course's language
    notebook.pista("nivel2.no_double_email")  # a level the course does not count: said, with the ones it does
    said = capsys.readouterr().out
    assert "no criterion «nivel2.no_double_email»" in said and "nivel1.hidden" in said
    assert "nivel2.is_error_fallback" not in said
    counted = [c for c in criteria.CRITERIA.values() if c.level in (0, 1)]
    notebook.pista(len(counted), nivel=1)  # numbered as check()'s table: the last counted criterion
    assert capsys.readouterr().out.startswith(counted[-1].id)
    notebook.pista(len(counted) + 1)
    assert f"no criterion «{len(counted) + 1}»" in capsys.readouterr().out
    notebook.pista("nivel1.hidden", lang="es", nivel=1)
    assert criteria.hints("nivel1.hidden", "es")[0] in capsys.readouterr().out


MARK = "CONTENIDO-DEL-ARCHIVO"
"""Written into each damaged file: the warning names the file and what is wrong, never what it holds."""


def _not_json(path: Path) -> None:
    path.write_text("{ " + MARK)


def _wrong_type(path: Path) -> None:
    path.write_text(json.dumps({"puntos": {"nivel1.cpA": MARK}}))


def _unknown_key(path: Path) -> None:
    path.write_text(json.dumps({"nivelez": [0, 1], "puntos": {"nivel1.cpA": 2}, "x": MARK}))


def _not_utf8(path: Path) -> None:
    path.write_bytes(b'{"idioma": "\xff' + MARK.encode() + b'"}')


def _a_folder(path: Path) -> None:
    path.mkdir()
    (path / MARK).write_text(MARK)


def _no_permission(path: Path) -> None:
    path.write_text(config.to_file_json(parse_toml(COURSE)) + MARK)
    path.chmod(0)


def _folder_shut(path: Path) -> None:
    path.parent.mkdir()
    path.write_text(config.to_file_json(parse_toml(COURSE)))
    path.parent.chmod(0)


ROOT = os.geteuid() == 0
DAMAGES = [
    pytest.param(_not_json, "no es la configuración en JSON", id="not-json"),
    pytest.param(_wrong_type, "«nivel1.cpA» tiene que ser un número de puntos, y es un texto", id="wrong-type"),
    pytest.param(_unknown_key, "clave desconocida «nivelez»", id="unknown-key"),
    pytest.param(_not_utf8, "no está en UTF-8", id="not-utf8"),
    pytest.param(_a_folder, "o no es un archivo", id="folder"),
    pytest.param(
        _no_permission, "No se pudo leer", id="mode-0000", marks=pytest.mark.skipif(ROOT, reason="root reads it")
    ),
    pytest.param(
        _folder_shut, "No se pudo leer", id="folder-0000", marks=pytest.mark.skipif(ROOT, reason="root reads it")
    ),
]


@pytest.fixture
def damaged(monkeypatch, tmp_path, request):
    from autograder import notebook

    path = tmp_path / "curso" / "curso.json" if request.param is _folder_shut else tmp_path / "curso.json"
    request.param(path)
    monkeypatch.setattr(config, "SHIPPED", path)
    monkeypatch.setattr(notebook, "_said_damaged", set())
    yield path
    for p in (path.parent, path):
        with contextlib.suppress(OSError):
            p.chmod(0o700)


@pytest.mark.parametrize(("damaged", "what"), DAMAGES, indirect=["damaged"])
def test_a_damaged_shipped_config_gives_the_defaults_and_says_what_is_wrong(damaged, what):
    course, problem = config.shipped()
    assert course is DEFAULT
    said = problem.notice.render("es")
    assert f"«{damaged}»" in said and what in said and MARK not in said


@pytest.mark.parametrize(("damaged", "what"), DAMAGES, indirect=["damaged"])
def test_pista_warns_once_about_a_damaged_shipped_config_and_goes_on_with_the_defaults(damaged, what, capsys):
    from autograder import notebook

    notebook.pista()
    out, err = capsys.readouterr()
    assert err.count("⚠") == 1 and f"«{damaged}»" in err and what in err and MARK not in err + out
    assert "configuración por defecto" not in out and "siguen con la de por defecto" in err
    assert all(c.id in out for c in criteria.CRITERIA.values())  # every level: the defaults
    notebook.pista("nivel2.no_double_email")
    assert capsys.readouterr().err == ""  # once, not on every call


@pytest.mark.parametrize(("damaged", "what"), DAMAGES[:2], indirect=["damaged"])
def test_check_warns_once_about_a_damaged_shipped_config_in_its_language_and_grades_with_the_defaults(
    damaged, what, capsys, monkeypatch
):
    from autograder import notebook

    sent = []

    def grade_loaded(submission, course, *, server=None):
        sent.append(course)
        return SubmissionResult.from_criteria(submission.name, course.not_graded("x"), seed=course.seed)

    monkeypatch.setattr(notebook, "grade_loaded", grade_loaded)
    answered = {"__name__": "__main__", "razon_cpA": "a"}  # one exercise of the learner's: check() grades
    notebook.check(lang="en", namespace=answered)
    err = capsys.readouterr().err
    assert "could not be used" in err and f"«{damaged}»" in err and what not in err and MARK not in err
    notebook.check(namespace=answered)
    notebook.check(level=1, namespace=answered)
    assert capsys.readouterr().err == ""  # once, not on every call
    assert [c.levels for c in sent] == [DEFAULT.levels, DEFAULT.levels, (1,)]
    assert all(c.points == DEFAULT.points and c.limits == DEFAULT.limits for c in sent)


@pytest.mark.parametrize("refused", ["open", "exists"])
def test_a_shipped_config_the_system_will_not_let_us_read_is_said_even_as_root(monkeypatch, tmp_path, capsys, refused):
    """The 0000 cases above skip as root, who reads anything: the same refusal, raised where the system raises it.

    ``open`` refuses the file itself; ``exists`` is what a folder without search permission refuses first.
    """
    from autograder import notebook

    path = tmp_path / "curso.json"
    path.write_text(config.to_file_json(parse_toml(COURSE)))
    real = getattr(Path, refused)

    def refuse(self, *args, **kwargs):
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, refused, refuse)
    monkeypatch.setattr(config, "SHIPPED", path)
    monkeypatch.setattr(notebook, "_said_damaged", set())
    course, problem = config.shipped()
    assert (
        course is DEFAULT
        and problem.notice.render("es") == f"No se pudo leer el archivo de configuración «{path}»: Permission denied."
    )
    notebook.pista()
    out, err = capsys.readouterr()
    assert err.count("No se pudo leer") == 1 and all(c.id in out for c in criteria.CRITERIA.values())


def test_a_shipped_config_that_is_not_there_is_no_warning(monkeypatch, tmp_path, capsys):
    from autograder import notebook

    monkeypatch.setattr(config, "SHIPPED", tmp_path / "no-existe.json")
    assert config.shipped() == (DEFAULT, None)
    notebook.pista()
    assert capsys.readouterr().err == ""


# --- for real: the judge, the bundle's runner, the edition's check() ---------------------------


@pytest.mark.slow
@pytest.mark.warm_up("grading_server")
def test_a_real_grading_scores_with_the_configs_points(tmp_path):
    path = write(tmp_path, COURSE.replace("niveles = [0, 1]", "niveles = [1, 2]"))
    course = config.load(path)
    code, _, stderr = run(
        "grade", SUBMISSIONS / "good.py", SUBMISSIONS / "delegating.py", "--out", tmp_path / "out", "--config", path
    )
    assert code == 0, stderr
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    good, delegating = doc["submissions"]
    expected_max = course.max_score
    assert good["max_score"] == expected_max == good["score"]
    assert {c["id"]: c["score"] for c in good["criteria"]}["nivel2.no_double_email"] == 10
    assert {c["id"] for c in good["criteria"]} == {c.id for c in course.graded()}
    # A function that delegates loses its criteria: at the configured points, not the declared ones.
    assert delegating["max_score"] == expected_max and delegating["flags"]
    lost = [c for c in delegating["criteria"] if not c["passed"]]
    assert lost and all(c["max_score"] == course.points[c["id"]] for c in delegating["criteria"])


@pytest.mark.slow
def test_the_bundles_run_autograder_honours_its_config(tmp_path):
    path = write(tmp_path, COURSE)
    assert run("gradescope", "--out", tmp_path / "autograder.zip", "--config", path, "--seed", "4")[0] == 0
    root = tmp_path / "autograder"
    with zipfile.ZipFile(tmp_path / "autograder.zip") as zf:
        zf.extractall(root / "source")
    for d in ("submission", "results"):
        (root / d).mkdir()
    (root / "submission" / "good.py").write_bytes((SUBMISSIONS / "good.py").read_bytes())
    (root / "source" / "run_autograder").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AUTOGRADER_SEED", "AUTOGRADER_LANG")}
    env |= {"AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable}
    proc = subprocess.run(
        [str(root / "source" / "run_autograder")], env=env, cwd=root, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert doc["score"] == COURSE_MAX == sum(t["max_score"] for t in doc["tests"] if "max_score" in t)
    assert not any("[nivel2." in t["name"] for t in doc["tests"])


CHECK_IN_EDITION = """
import json, runpy, sys
import autograder
from autograder.notebook import check
ns = runpy.run_path(sys.argv[1])
result = check(namespace=ns)
skipped = check(2, namespace=ns)
print("RESULT" + json.dumps({"file": autograder.__file__, "max": result.max_score,
      "criteria": {c.id: c.max_score for c in result.criteria}, "skipped": len(skipped.criteria)}))
"""


@pytest.mark.slow
def test_check_in_the_edition_shows_the_courses_points_and_levels(tmp_path):
    edition = tmp_path / "edicion"
    code, _, stderr = run("release", "--out", edition, "--config", write(tmp_path, COURSE))
    assert code == 0, stderr
    env = {**os.environ, "PYTHONPATH": str(edition), "PYTHONDONTWRITEBYTECODE": "1"}
    ran = subprocess.run(
        [sys.executable, "-c", CHECK_IN_EDITION, str(SUBMISSIONS / "good.py")],
        cwd=edition,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    (line,) = [line for line in ran.stdout.splitlines() if line.startswith("RESULT")]
    seen = json.loads(line.removeprefix("RESULT"))
    assert Path(seen["file"]).is_relative_to(edition)
    course = parse_toml(COURSE)
    assert seen["criteria"] == {c.id: c.points for c in course.graded()} and seen["max"] == COURSE_MAX
    assert seen["skipped"] == 0 and "no cuenta en este curso" in ran.stdout


def test_check_in_this_checkout_uses_the_built_in_configuration():
    assert not config.SHIPPED.exists()  # only an edition written with --config has one
    assert config.shipped() == (DEFAULT, None)
