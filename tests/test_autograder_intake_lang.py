"""Intake speaks the command's language: every refusal and warning, on the console, in reports and Gradescope.

What collect meets (a symlink, zip slip, an encrypted member, a zip bomb, zips nested too
deep, an unreadable folder, a .zip that is not a zip...) becomes a catalogue key and its
parameters; ``autograder grade --lang en`` and ``collect_submissions(..., lang="en")`` write
it out in English with no Spanish left, and Spanish (the default) keeps today's exact wording.
"""

from __future__ import annotations

import contextlib
import errno
import html
import io
import json
import os
import re
import struct
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from autograder import cli
from autograder.classrun import gradescope
from autograder.classrun import run as class_run
from autograder.course import catalogue
from autograder.course.config import CourseConfig
from autograder.course.criteria import required_ids
from autograder.intake import collect
from autograder.intake.collect import IntakeError, collect_submissions
from autograder.wire.results import CriterionResult, SubmissionResult

CRITERIA_IDS = required_ids()

# Spanish that no English message of the grader holds (file names in these tests are English on purpose).
SPANISH = re.compile(
    r"[áéíóúñÁÉÍÓÚÑ¿¡]|\b(se|omitió|rechazó|carpetas?|enlace|simbólico|contraseña|bomba|extrajo|leer|leyó|pudo|"
    r"ruta|sale|niveles|dentro|archivos?|existe|entregas?|aviso|protegido|descomprimido|comprimido|válido|"
    r"tubería|semilla|calificaron|elementos|máximo)\b",
    re.IGNORECASE,
)


def spanish_in(text: str) -> list[str]:
    return [m.group() for m in SPANISH.finditer(text)]


def make_zip(path: Path, members: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def encrypted_zip(path: Path, locked: str, clear: str) -> Path:
    """A zip whose member ``locked`` says it is password-protected (the bit set in both headers)."""
    make_zip(path, {locked: "x = 1\n", clear: "x = 1\n"})
    raw = bytearray(path.read_bytes())
    name = locked.encode()
    # (signature, where the flags are, where the name's length is, where the name starts): local, then central.
    for signature, flags_at, length_at, name_at in ((b"PK\x03\x04", 6, 26, 30), (b"PK\x01\x02", 8, 28, 46)):
        start = 0
        while (start := raw.find(signature, start)) != -1:
            (length,) = struct.unpack_from("<H", raw, start + length_at)
            if raw[start + name_at : start + name_at + length] == name:
                raw[start + flags_at] |= 0x1
            start += 4
    path.write_bytes(bytes(raw))
    with zipfile.ZipFile(path) as zf:
        assert zf.getinfo(locked).flag_bits & 0x1 and not zf.getinfo(clear).flag_bits & 0x1
    return path


def nested_zip(path: Path, depth: int) -> list[str]:
    """``path`` holding a zip holding a zip ... ``depth`` zips in all; the sources of each, outermost first."""
    data = b""
    inner: dict[str, bytes | str] = {"deep.py": "x = 1\n"}
    for level in range(depth, 1, -1):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            for name, content in inner.items():
                zf.writestr(name, content)
        data = buf.getvalue()
        inner = {f"z{level}.zip": data, "ok.py": "x = 1\n"}
    make_zip(path, inner)
    return [path.name, *(f"z{level}.zip" for level in range(2, depth + 1))]


@dataclass
class Case:
    paths: list[Path]
    es: list[str]  # today's wording, exactly
    en: list[str]
    fatal: bool = False  # an IntakeError (exit 2), not a warning


def with_good_file(tmp_path: Path) -> Path:
    good = tmp_path / "class"
    good.mkdir(exist_ok=True)
    (good / "ok.py").write_text("x = 1\n", encoding="utf-8")
    return good


def symlink_given(tmp_path: Path) -> Case:
    (tmp_path / "elsewhere").mkdir()
    link = tmp_path / "shortcut"
    link.symlink_to(tmp_path / "elsewhere")
    return Case(
        [with_good_file(tmp_path), link],
        [f"Se omitió «{link}»: es un enlace simbólico y no se sigue; pasa la carpeta o el zip real."],
        [f"Skipped «{link}»: it is a symbolic link and is not followed; pass the real folder or zip."],
    )


def link_to_folder(tmp_path: Path) -> Case:
    (tmp_path / "elsewhere").mkdir()
    good = with_good_file(tmp_path)
    (good / "linked").symlink_to(tmp_path / "elsewhere")
    return Case(
        [good],
        [f"Se omitió «{good}/linked»: es un enlace simbólico a una carpeta y no se sigue."],
        [f"Skipped «{good}/linked»: it is a symbolic link to a folder and is not followed."],
    )


def zip_slip(tmp_path: Path) -> Case:
    archive = make_zip(tmp_path / "slip.zip", {"../evil.py": "x = 1\n", "/abs/evil2.py": "x", "ok.py": "x = 1\n"})
    return Case(
        [archive],
        [
            "Se rechazó «../evil.py» en «slip.zip»: su ruta sale de la carpeta del zip (zip slip); no se extrajo.",
            "Se rechazó «/abs/evil2.py» en «slip.zip»: su ruta sale de la carpeta del zip (zip slip); no se extrajo.",
        ],
        [
            "Refused «../evil.py» in «slip.zip»: its path leads out of the zip's folder (zip slip); not extracted.",
            "Refused «/abs/evil2.py» in «slip.zip»: its path leads out of the zip's folder (zip slip); not extracted.",
        ],
    )


def symlink_member(tmp_path: Path) -> Case:
    archive = tmp_path / "link.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        info = zipfile.ZipInfo("pointer.py")
        info.external_attr = 0o120777 << 16
        zf.writestr(info, "/etc/passwd")
        zf.writestr("ok.py", "x = 1\n")
    return Case(
        [archive],
        ["Se rechazó «pointer.py» en «link.zip»: es un enlace simbólico; no se extrajo."],
        ["Refused «pointer.py» in «link.zip»: it is a symbolic link; not extracted."],
    )


def encrypted_member(tmp_path: Path) -> Case:
    archive = encrypted_zip(tmp_path / "locked.zip", "locked.py", "ok.py")
    return Case(
        [archive],
        ["Se omitió «locked.py» en «locked.zip»: está protegido con contraseña."],
        ["Skipped «locked.py» in «locked.zip»: it is password-protected."],
    )


def zip_bomb(tmp_path: Path) -> Case:
    # Past the member cap (64 MiB) by its declared size: refused unread; a smaller one is streamed and cut.
    archive = make_zip(tmp_path / "boom.zip", {"boom.py": b"#" * (65 * 1024 * 1024), "ok.py": "x = 1\n"})
    with zipfile.ZipFile(archive) as zf:
        packed = zf.getinfo("boom.py").compress_size / (1024 * 1024)
    return Case(
        [archive],
        [
            f"Se rechazó «boom.py» en «boom.zip»: descomprimido ocuparía 65.0 MiB (comprimido {packed:.1f} MiB); "
            "parece una bomba zip, no se extrajo."
        ],
        [
            f"Refused «boom.py» in «boom.zip»: uncompressed it would take 65.0 MiB (compressed {packed:.1f} MiB); "
            "it looks like a zip bomb, not extracted."
        ],
    )


def zips_too_deep(tmp_path: Path) -> Case:
    sources = nested_zip(tmp_path / "outer.zip", collect.MAX_ZIP_DEPTH + 1)
    shown = "/".join(sources)
    n = collect.MAX_ZIP_DEPTH
    return Case(
        [tmp_path / "outer.zip"],
        [f"Se omitió «{shown}»: hay zips dentro de zips más de {n} niveles."],
        [f"Skipped «{shown}»: zips are nested inside zips more than {n} levels deep."],
    )


def folders_too_deep(tmp_path: Path) -> Case:
    good = with_good_file(tmp_path)
    n = collect.MAX_FOLDER_DEPTH
    parts = [f"d{i}" for i in range(n + 2)]
    (good / Path(*parts)).mkdir(parents=True)
    shown = "/".join([str(good), *parts[: n + 1]])
    return Case(
        [good],
        [f"Se omitió «{shown}»: hay carpetas dentro de carpetas más de {n} niveles."],
        [f"Skipped «{shown}»: folders are nested inside folders more than {n} levels deep."],
    )


def not_a_zip_inside(tmp_path: Path) -> Case:
    good = with_good_file(tmp_path)
    (good / "broken.zip").write_bytes(b"this is not a zip")
    return Case(
        [good],
        [f"No se pudo leer el zip «{good}/broken.zip»: no es un archivo zip válido. Se omitió."],
        [f"Could not read the zip «{good}/broken.zip»: it is not a valid zip file. Skipped."],
    )


def not_a_zip_given(tmp_path: Path) -> Case:
    (tmp_path / "broken.zip").write_bytes(b"PK but not really")
    return Case(
        [tmp_path / "broken.zip"],
        ["No se pudo leer el zip «broken.zip»: no es un archivo zip válido."],
        ["Could not read the zip «broken.zip»: it is not a valid zip file."],
        fatal=True,
    )


def fifo_named_zip(tmp_path: Path) -> Case:
    good = with_good_file(tmp_path)
    os.mkfifo(good / "pipe.zip")
    return Case(
        [good],
        [f"No se leyó el zip. «{good}/pipe.zip» es una tubería con nombre (FIFO), no un archivo; no se leyó."],
        [f"The zip was not read. «{good}/pipe.zip» is a named pipe (FIFO), not a file; it was not read."],
    )


def unextractable_member(tmp_path: Path) -> Case:
    long = "x" * 300 + ".py"
    archive = make_zip(tmp_path / "odd.zip", {long: "x = 1\n", "ok.py": "x = 1\n"})
    return Case(
        [archive],
        [
            f"El nombre de «{long}» en «odd.zip» pasa de 255 bytes, más de lo que guarda un sistema de archivos "
            "Linux: se extrajo con un nombre más corto y se calificó igual."
        ],
        [
            f"The name of «{long}» in «odd.zip» is longer than 255 bytes, more than a Linux file system stores: "
            "it was extracted under a shorter name and graded all the same."
        ],
    )


def missing_path(tmp_path: Path) -> Case:
    gone = tmp_path / "gone.py"
    return Case([gone], [f"No existe «{gone}»."], [f"«{gone}» does not exist."], fatal=True)


def not_a_submission(tmp_path: Path) -> Case:
    notes = tmp_path / "notes.txt"
    notes.write_text("x", encoding="utf-8")
    return Case(
        [notes],
        [f"«{notes}» no es una entrega: se aceptan archivos .py o .ipynb, carpetas y archivos .zip."],
        [f"«{notes}» is not a submission: .py or .ipynb files, folders and .zip files are accepted."],
        fatal=True,
    )


CASES: dict[str, Callable[[Path], Case]] = {
    f.__name__: f
    for f in (
        symlink_given,
        link_to_folder,
        zip_slip,
        symlink_member,
        encrypted_member,
        zip_bomb,
        zips_too_deep,
        folders_too_deep,
        not_a_zip_inside,
        not_a_zip_given,
        fifo_named_zip,
        unextractable_member,
        missing_path,
        not_a_submission,
    )
}


class FakeGrader:
    """The pipeline's stand-in: intake is what is under test, so every file passes."""

    def __call__(self, learners, course, *, jobs, progress):
        criteria = [CriterionResult(c, True, 1.0, 1.0, "ok") for c in CRITERIA_IDS]
        names = [learner.files[0].name if learner.files else learner.name for learner in learners]
        return [SubmissionResult(name, len(criteria), len(criteria), list(criteria)) for name in names]


@pytest.fixture
def fake(monkeypatch) -> FakeGrader:
    grader = FakeGrader()
    monkeypatch.setattr(class_run, "run_grading", grader)
    return grader


def run_cli(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def console_lines(case: Case, lang: str) -> list[str]:
    """What the console says for each expected message: a warning line, or the error that ended the run."""
    expected = case.en if lang == "en" else case.es
    if case.fatal:
        return [catalogue.text("cli.error", lang, error=m) for m in expected]
    return [catalogue.text("cli.warning", lang, warning=m) for m in expected]


@pytest.mark.parametrize("name", CASES)
def test_grade_lang_en_says_every_intake_problem_in_english(fake, tmp_path, name):
    case = CASES[name](tmp_path)
    out = tmp_path / "out"
    code, stdout, stderr = run_cli("grade", *case.paths, "--out", out, "--lang", "en")
    assert code == (cli.EXIT_USAGE if case.fatal else cli.EXIT_OK), stderr
    for line in console_lines(case, "en"):
        assert line in stderr.splitlines(), (line, stderr)
    assert spanish_in(stderr) == [] and spanish_in(stdout) == [], stderr
    if not case.fatal:  # the class summary lists them too, in the report's language
        summary = html.unescape((out / "resumen.html").read_text(encoding="utf-8"))
        assert all(m in summary for m in case.en), summary


@pytest.mark.parametrize("name", CASES)
def test_grade_in_spanish_keeps_todays_wording(fake, tmp_path, name):
    case = CASES[name](tmp_path)
    code, _, stderr = run_cli("grade", *case.paths, "--out", tmp_path / "out")
    assert code == (cli.EXIT_USAGE if case.fatal else cli.EXIT_OK), stderr
    for line in console_lines(case, "es"):
        assert line in stderr.splitlines(), (line, stderr)
    assert not any(m in stderr for m in case.en)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("name", CASES)
def test_collect_submissions_speaks_the_language_it_is_given(tmp_path, name, lang):
    case = CASES[name](tmp_path)
    expected = case.en if lang == "en" else case.es
    if case.fatal:
        with pytest.raises(IntakeError) as raised:
            collect_submissions(case.paths, lang=lang)
        said = [str(raised.value)]
        other = "es" if lang == "en" else "en"
        assert raised.value.notice.render(other) == (case.es if lang == "en" else case.en)[0]
    else:
        with collect_submissions(case.paths, lang=lang) as intake:
            said = intake.warnings
            assert intake.submissions, "the good file next to the hostile one is still collected"
            # The same intake, written out in the other language: a key and parameters, not a sentence.
            other = "es" if lang == "en" else "en"
            assert [n.render(other) for n in intake.notices] == (case.es if lang == "en" else case.en)
    assert said == expected
    if lang == "en":
        assert spanish_in(" ".join(said)) == []


def test_spanish_is_still_the_default_of_collect_submissions(tmp_path):
    case = zip_slip(tmp_path)
    with collect_submissions(case.paths) as intake:
        assert intake.warnings == case.es
        assert {n.key for n in intake.notices} == {"intake.member_slip"}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_too_many_members_is_said_in_the_language_asked(monkeypatch, tmp_path, lang):
    monkeypatch.setattr(collect, "MAX_ZIP_MEMBERS", 2)
    archive = make_zip(tmp_path / "crowd.zip", {"a.py": "x", "b.py": "x", "c.py": "x"})
    with pytest.raises(IntakeError) as raised:
        collect_submissions([archive], lang=lang)
    assert (
        str(raised.value)
        == {
            "es": "No se pudo leer el zip «crowd.zip»: tiene 3 elementos (el máximo es 2).",
            "en": "Could not read the zip «crowd.zip»: it has 3 members (the maximum is 2).",
        }[lang]
    )
    inside = with_good_file(tmp_path)
    archive.rename(inside / "crowd.zip")
    with collect_submissions([inside], lang=lang) as intake:
        assert intake.warnings == [
            {
                "es": f"No se pudo leer el zip «{inside}/crowd.zip»: tiene 3 elementos (el máximo es 2). Se omitió.",
                "en": f"Could not read the zip «{inside}/crowd.zip»: it has 3 members (the maximum is 2). Skipped.",
            }[lang]
        ]


UNREADABLE = {
    "es": "Se omitió la carpeta «{}»: no se pudo leer ({}).",
    "en": "Skipped the folder «{}»: it could not be read ({}).",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_unreadable_folder_is_skipped_in_the_language_asked(fake, tmp_path, lang):
    if os.geteuid() == 0:
        pytest.skip("root reads a folder whatever its mode; the next test makes the open fail instead")
    good = with_good_file(tmp_path)
    (good / "closed").mkdir()
    (good / "closed" / "hidden.py").write_text("x = 1\n", encoding="utf-8")
    (good / "closed").chmod(0)
    try:
        code, _, stderr = run_cli("grade", good, "--out", tmp_path / "out", "--lang", lang)
    finally:
        (good / "closed").chmod(0o755)
    expected = UNREADABLE[lang].format(f"{good}/closed", os.strerror(errno.EACCES))
    assert code == 0 and catalogue.text("cli.warning", lang, warning=expected) in stderr.splitlines(), stderr


@pytest.mark.parametrize("where", ["given", "below"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_folder_that_cannot_be_opened_is_skipped_in_the_language_asked(fake, monkeypatch, tmp_path, lang, where):
    """The open fails as it would for a folder of another user (root is let in anywhere, so it is made to fail)."""
    good = with_good_file(tmp_path)
    closed = tmp_path / "closed" if where == "given" else good / "closed"
    closed.mkdir()
    real_open = os.open

    def refusing_open(path, flags, mode=0o777, *, dir_fd=None):
        if os.fspath(path) in (str(closed), "closed"):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", refusing_open)
    paths = [good, closed] if where == "given" else [good]
    code, _, stderr = run_cli("grade", *paths, "--out", tmp_path / "out", "--lang", lang)
    monkeypatch.undo()
    expected = UNREADABLE[lang].format(closed, os.strerror(errno.EACCES))
    assert code == 0 and catalogue.text("cli.warning", lang, warning=expected) in stderr.splitlines(), stderr
    if lang == "en":
        assert spanish_in(stderr) == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_sharded_part_records_its_intake_warnings_in_its_language(fake, tmp_path, lang):
    case = zip_slip(tmp_path)
    out = tmp_path / "part1"
    code, _, stderr = run_cli("grade", *case.paths, "--out", out, "--lang", lang, "--seed", "3", "--shard", "1/1")
    assert code == 0, stderr
    run = json.loads((out / "results.json").read_text(encoding="utf-8"))["run"]
    assert run["warnings"] == (case.en if lang == "en" else case.es)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_gradescope_says_what_was_skipped_in_the_assignments_language(tmp_path, lang):
    submission = tmp_path / "submission"
    submission.mkdir()
    make_zip(submission / "slip.zip", {"../evil.py": "x = 1\n"})
    document = gradescope.grade_for_gradescope(submission, CourseConfig(seed=1, lang=lang))
    slip = {
        "es": f"Se rechazó «../evil.py» en «{submission}/slip.zip»: su ruta sale de la carpeta del zip (zip slip); "
        "no se extrajo.",
        "en": f"Refused «../evil.py» in «{submission}/slip.zip»: its path leads out of the zip's folder (zip slip); "
        "not extracted.",
    }[lang]
    assert document["output"].splitlines()[-1] == catalogue.text("gradescope.warnings", lang, warnings=slip)
    if lang == "en":
        assert spanish_in(document["output"]) == []


def test_a_name_from_the_zip_is_neutralised_on_the_console_in_either_language(fake, tmp_path):
    archive = make_zip(tmp_path / "evil.zip", {"../\x1b[31mred\nfake warning.py": "x", "ok.py": "x = 1\n"})
    for lang in ("en", "es"):
        code, _, stderr = run_cli("grade", archive, "--out", tmp_path / lang, "--lang", lang)
        assert code == 0 and "\x1b" not in stderr and "\nfake warning" not in stderr, stderr
        assert "zip slip" in stderr


def test_every_intake_key_collect_uses_is_in_the_catalogue_in_both_languages():
    """The keys collect.py names (a typo would only show when a hostile zip finally arrives)."""
    source = Path(collect.__file__).read_text(encoding="utf-8")
    used = set(re.findall(r"\"(intake\.[a-z_]+)\"", source))
    assert len(used) >= 18, used
    missing = {k for k in used if k not in catalogue.keys()}
    assert missing == set()
    for key in used:
        assert set(catalogue.entry(key)) == set(catalogue.LANGS), key
