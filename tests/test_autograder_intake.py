"""Intake is untrusted input: symlinks, FIFOs, devices, huge and malformed files, names, Ctrl-C.

Everything here is what the grader meets *before* the sandbox. The rule under test:
only regular files are read, never beyond a cap, notebooks are parsed in a limited
child, no byte of a file ever reaches an output, one bad file never costs the batch,
and an interrupted batch keeps what it graded.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder import cli
from autograder.classrun import run as class_run
from autograder.course.criteria import required_ids
from autograder.intake import safe_files
from autograder.intake import submission as sub
from autograder.intake.collect import collect_submissions, member_name
from autograder.intake.submission import SubmissionError, load_submission
from autograder.reporting.report import ReportEntry, feedback_markdown
from autograder.wire.results import CriterionResult, SubmissionResult

CRITERIA_IDS = required_ids()

REPO = Path(__file__).resolve().parent.parent
SUBMISSIONS = REPO / "tests" / "data" / "submissions"
SECRET = "sk-ant-SECRETO-del-corrector-7f3a"


def load_in_thread(path: Path, seconds: float = 20) -> SubmissionError | object:
    """load_submission(path), but a hang fails the test instead of stalling it."""
    box: list[object] = []

    def go() -> None:
        try:
            box.append(load_submission(path))
        except BaseException as e:  # noqa: BLE001
            box.append(e)

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(seconds)
    assert box, f"loading {path.name} did not return in {seconds} s"
    return box[0]


def refused(path: Path) -> SubmissionError:
    got = load_in_thread(path)
    assert isinstance(got, SubmissionError), got
    return got


# --- only regular files, never followed ----------------------------------------------------------


def test_a_fifo_named_like_a_submission_is_refused_without_blocking(tmp_path):
    for name in ("x.py", "cuaderno.ipynb"):
        os.mkfifo(tmp_path / name)
        err = refused(tmp_path / name)
        assert err.key == "load.fifo" and name in err.message("es") and "FIFO" in err.message("en")


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_symlink_to_a_device_is_refused_not_read(tmp_path, target):
    link = tmp_path / "entrega.py"
    link.symlink_to(target)
    assert refused(link).key == "load.symlink"


def test_a_symlink_to_a_private_file_is_refused_and_its_content_never_shown(tmp_path):
    private = tmp_path / "privado" / "clave.txt"
    private.parent.mkdir()
    private.write_text(f"{SECRET}\n", encoding="utf-8")
    for name in ("robo.py", "robo.ipynb"):
        (tmp_path / name).symlink_to(private)
        err = refused(tmp_path / name)
        assert err.key == "load.symlink"
        assert SECRET not in err.message("es") and SECRET not in err.message("en")


def test_symlinks_to_folders_dangling_and_relative_are_refused(tmp_path):
    (tmp_path / "carpeta").mkdir()
    (tmp_path / "a.py").symlink_to(tmp_path / "carpeta")
    (tmp_path / "b.py").symlink_to(tmp_path / "no-existe.py")
    (tmp_path / "real.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "c.py").symlink_to("real.py")
    for name in ("a.py", "b.py", "c.py"):
        assert refused(tmp_path / name).key == "load.symlink", name


def test_a_socket_and_a_device_node_are_refused(tmp_path):
    sock_path = tmp_path / "s.py"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(sock_path))
    try:
        assert refused(sock_path).key == "load.not_regular"
    finally:
        server.close()
    node = tmp_path / "d.py"
    try:
        os.mknod(node, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # a second /dev/zero
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD")
    assert refused(node).key == "load.device"


def test_a_swap_between_the_check_and_the_open_is_caught_by_the_open_itself(tmp_path, monkeypatch):
    """lstat is only a first look: O_NOFOLLOW, O_NONBLOCK and fstat on the descriptor decide."""
    regular = os.lstat(SUBMISSIONS / "good.py")
    monkeypatch.setattr(safe_files.os, "lstat", lambda path, **where: regular)
    (tmp_path / "cambiado.py").symlink_to("/dev/zero")
    assert refused(tmp_path / "cambiado.py").key == "load.symlink"
    os.mkfifo(tmp_path / "tuberia.py")
    assert refused(tmp_path / "tuberia.py").key == "load.fifo"


def test_size_is_capped_before_reading_and_while_reading(tmp_path, monkeypatch):
    sparse = tmp_path / "enorme.py"
    with open(sparse, "wb") as f:
        f.truncate(8 * 1024**3)  # 8 GiB claimed, nothing on disk
    read: list[int] = []
    real_read = os.read
    monkeypatch.setattr(safe_files.os, "read", lambda fd, n: (read.append(n), real_read(fd, n))[1])
    assert refused(sparse).key == "load.too_big"
    assert read == []  # refused on its size, before one byte
    # /proc files say st_size 0 and still have content: the cap holds while reading too.
    with pytest.raises(safe_files.ReadRefused) as info:
        safe_files.read_regular("/proc/self/maps", max_bytes=100)
    assert info.value.key == "load.too_big"
    assert sum(read) <= 101


def test_a_large_file_just_over_the_cap_is_refused_and_one_at_the_cap_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(sub, "MAX_BYTES", 4096)
    (tmp_path / "justo.py").write_text("#" * 4095 + "\n", encoding="utf-8")
    (tmp_path / "pasado.py").write_text("#" * 4096 + "\n", encoding="utf-8")
    assert load_submission(tmp_path / "justo.py").cells
    assert refused(tmp_path / "pasado.py").key == "load.too_big"


# --- notebooks: parsed in a limited child, never quoted -----------------------------------------


BROKEN_NOTEBOOKS = {
    "no_json.ipynb": f"{SECRET} esto no es JSON",
    "json_cortado.ipynb": '{"nbformat": 4, "cells": [{"cell_type": "code", "source": "' + SECRET,
    "celda_rara.ipynb": json.dumps(
        {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "source": {SECRET: 1}}]}
    ),
    "lista.ipynb": json.dumps([SECRET, {"cells": []}]),
    "version.ipynb": json.dumps({"nbformat": SECRET, "cells": []}),
    "profundo.ipynb": "[" * 200_000 + SECRET,
}


@pytest.mark.parametrize("name", sorted(BROKEN_NOTEBOOKS))
def test_a_malformed_notebook_is_refused_without_quoting_it(tmp_path, name):
    path = tmp_path / name
    path.write_text(BROKEN_NOTEBOOKS[name], encoding="utf-8")
    err = refused(path)
    assert err.key.startswith("load.notebook_"), err.key
    for lang in ("es", "en"):
        assert SECRET not in err.message(lang)
        assert name in err.message(lang)


def test_notebook_parse_has_a_memory_limit(tmp_path, monkeypatch):
    # Millions of {} in 5 MB of JSON need ~150 MB once parsed: over a 64 MB limit, the child dies, not the grader.
    path = tmp_path / "llaves.ipynb"
    path.write_text('{"nbformat": 4, "cells": [' + ",".join(["{}"] * 1_500_000) + "]}", encoding="utf-8")
    monkeypatch.setattr(safe_files, "NOTEBOOK_MEMORY_BYTES", 64 * 1024 * 1024)
    assert refused(path).key == "load.notebook_too_complex"
    monkeypatch.setattr(safe_files, "NOTEBOOK_MEMORY_BYTES", 512 * 1024 * 1024)
    assert load_submission(path).cells == ()  # within the real limit it is just a notebook without code


def test_notebook_parse_has_a_time_limit(tmp_path, monkeypatch):
    path = tmp_path / "lento.ipynb"
    path.write_text((SUBMISSIONS / "good_notebook.ipynb").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(safe_files, "NOTEBOOK_SECONDS", 0.001)
    err = refused(path)
    assert err.key == "load.notebook_timeout" and "0,001" in err.message("es") and "0.001" in err.message("en")


def test_notebook_parse_does_not_happen_in_the_graders_process(tmp_path, monkeypatch):
    def no(*args, **kwargs):
        raise AssertionError("the notebook's JSON was parsed in the grader's own process")

    monkeypatch.setattr(nbformat, "reads", no)
    monkeypatch.setattr(json, "loads", no)
    monkeypatch.setattr(json, "load", no)
    with pytest.raises(AssertionError):  # the child's answer is read with json, in the parent: that is ours
        load_submission(SUBMISSIONS / "good_notebook.ipynb")
    monkeypatch.undo()
    monkeypatch.setattr(nbformat, "reads", no)
    assert load_submission(SUBMISSIONS / "good_notebook.ipynb").cells


def _nbformat_cells(path: Path) -> list[tuple[str, bool]]:
    nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    return [(c.source, sub.SKIP_TAG in (c.metadata.get("tags") or [])) for c in nb.cells if c.cell_type == "code"]


def test_good_notebooks_load_exactly_as_nbformat_reads_them(tmp_path):
    for path in [SUBMISSIONS / "good_notebook.ipynb", *sorted((REPO / "notebooks").glob("*.ipynb"))[:3]]:
        loaded = load_submission(path)
        expected = _nbformat_cells(path)
        assert [(c.source, c.skipped) for c in loaded.cells] == [(src, skipped) for src, skipped in expected], path
    # nbformat 3 (worksheets, "input") still loads, and sources given as lists of lines are joined.
    v3 = tmp_path / "viejo.ipynb"
    v3.write_text(
        json.dumps(
            {
                "nbformat": 3,
                "nbformat_minor": 0,
                "metadata": {},
                "worksheets": [
                    {"cells": [{"cell_type": "code", "input": ["x = 1\n", "y = 2"], "metadata": {}, "outputs": []}]}
                ],
            }
        ),
        encoding="utf-8",
    )
    assert [c.source for c in load_submission(v3).cells] == ["x = 1\ny = 2"]
    assert [c.source for c in load_submission(v3).cells] == [s for s, _ in _nbformat_cells(v3)]


# --- collecting: folders, symlinks, zips --------------------------------------------------------


def run_cli(*argv: str | Path, seconds: float = 60) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    box: list[int] = []

    def go() -> None:
        box.append(cli.main([str(a) for a in argv], stdout=out, stderr=err))

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(seconds)
    assert box, f"autograder {' '.join(map(str, argv))} did not return in {seconds} s"
    return box[0], out.getvalue(), err.getvalue()


class FakeGrader:
    """The pipeline's stand-in: loads each path the real way and grades what loads as all-passed."""

    def __call__(self, learners, course, *, jobs, progress):
        lang = course.lang
        results = []
        for p in (learner.files[0].file for learner in learners):  # the classes here: one file per learner
            try:
                load_submission(p)
            except SubmissionError as e:
                results.append(SubmissionResult(Path(p).name, 0.0, 1.0, [], error=e.message(lang)))
                continue
            criteria = [CriterionResult(c, True, 1.0, 1.0, "bien") for c in CRITERIA_IDS]
            results.append(SubmissionResult(Path(p).name, len(criteria), len(criteria), criteria))
        return results


@pytest.fixture
def fake(monkeypatch) -> FakeGrader:
    grader = FakeGrader()
    monkeypatch.setattr(class_run, "run_grading", grader)
    return grader


def rows(out: Path) -> list[dict]:
    return json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]


def test_two_symlinks_to_one_file_are_two_rows_each_refused(fake, tmp_path):
    root = tmp_path / "entregas"
    root.mkdir()
    (tmp_path / "original.py").write_text("x = 1\n", encoding="utf-8")
    (root / "ana.py").symlink_to(tmp_path / "original.py")
    (root / "beto.py").symlink_to(tmp_path / "original.py")
    (root / "carla.py").write_text("x = 1\n", encoding="utf-8")
    code, _, _ = run_cli("grade", root, "--out", tmp_path / "out")
    assert code == 0
    got = {r["submission"]: r for r in rows(tmp_path / "out")}
    assert sorted(got) == ["ana.py", "beto.py", "carla.py"]
    assert "enlace simbólico" in got["ana.py"]["error"] and "enlace simbólico" in got["beto.py"]["error"]
    assert got["carla.py"]["error"] is None


def test_hard_links_and_a_folder_given_twice(fake, tmp_path):
    root = tmp_path / "entregas"
    root.mkdir()
    (root / "ana.py").write_text("x = 1\n", encoding="utf-8")
    os.link(root / "ana.py", root / "copia.py")
    intake = collect_submissions([root, root / "ana.py", Path(f"{root}/./ana.py")])
    with intake:
        assert [s.path.name for s in intake.submissions] == ["ana.py", "copia.py"]


def test_symlinked_folders_and_zips_are_not_followed_and_say_so(fake, tmp_path):
    elsewhere = tmp_path / "privado"
    elsewhere.mkdir()
    (elsewhere / "ajeno.py").write_text("x = 1\n", encoding="utf-8")
    with zipfile.ZipFile(elsewhere / "ajeno.zip", "w") as zf:
        zf.writestr("dentro.py", "x = 1\n")
    root = tmp_path / "entregas"
    root.mkdir()
    (root / "ana.py").write_text("x = 1\n", encoding="utf-8")
    (root / "carpeta").symlink_to(elsewhere)
    (root / "otro.zip").symlink_to(elsewhere / "ajeno.zip")
    top = tmp_path / "atajo"
    top.symlink_to(elsewhere)
    code, _, stderr = run_cli("grade", root, top, "--out", tmp_path / "out")
    assert code == 0
    assert [r["submission"] for r in rows(tmp_path / "out")] == ["ana.py"]
    assert stderr.count("enlace simbólico") == 3, stderr


def test_a_fifo_named_zip_does_not_hang_the_batch(fake, tmp_path):
    root = tmp_path / "entregas"
    root.mkdir()
    (root / "ana.py").write_text("x = 1\n", encoding="utf-8")
    os.mkfifo(root / "trampa.zip")
    os.mkfifo(root / "trampa.py")
    code, _, stderr = run_cli("grade", root, "--out", tmp_path / "out")
    assert code == 0
    got = {r["submission"]: r for r in rows(tmp_path / "out")}
    assert got["ana.py"]["error"] is None and "FIFO" in got["trampa.py"]["error"]
    assert "trampa.zip" in stderr and "FIFO" in stderr


# --- every folder below the given one is hostile: walked, and read, without following a link ----------


def class_folder(tmp_path: Path, layout: dict[str, str]) -> Path:
    root = tmp_path / "clase"
    for rel, content in layout.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content, encoding="utf-8")
    return root


def someone_elses(tmp_path: Path, rel: str) -> Path:
    """Another user's folder holding ``rel`` with a secret in it; returns the folder."""
    private = tmp_path / "otro_usuario"
    (private / rel).parent.mkdir(parents=True, exist_ok=True)
    (private / rel).write_text(f"CLAVE = {SECRET!r}\n", encoding="utf-8")
    return private


def swap_for_link(folder: Path, target: Path | str) -> None:
    """What a learner can do to its own folder between the listing and the reading."""
    folder.rename(folder.with_name(folder.name + "-antes"))
    folder.symlink_to(target)


def grade_after(monkeypatch, fake: FakeGrader, swap) -> None:
    """Run ``swap()`` after intake listed the class and before anything is read."""

    def swapped_then_graded(paths, course, **kwargs):
        swap()
        return fake(paths, course, **kwargs)

    monkeypatch.setattr(class_run, "run_grading", swapped_then_graded)


def all_output(out: Path) -> str:
    return "".join(f.read_text(encoding="utf-8", errors="replace") for f in out.rglob("*") if f.is_file())


NESTED = {
    "grupo1/ana/entrega.py": "x = 1\n",
    "grupo1/beto/tarea/entrega.ipynb": nbformat.writes(nbformat.v4.new_notebook()),
    "grupo2/carla.py": "x = 1\n",
}
LEARNER_OF = {
    "grupo1/ana/entrega.py": "grupo1/ana",
    "grupo1/beto/tarea/entrega.ipynb": "grupo1/beto",
    "grupo2/carla.py": "grupo2",
}
"""«grupo1» holds only folders, so its folders are the learners; «grupo2» holds a file: it is one."""


def test_a_nested_class_folder_is_collected_and_read(fake, tmp_path):
    root = class_folder(tmp_path, NESTED)
    code, _, stderr = run_cli("grade", root, "--out", tmp_path / "out")
    assert code == 0 and "Se omitió" not in stderr
    got = {r["source"]: r["error"] for r in rows(tmp_path / "out")}
    assert got == {f"{root}/{learner}": None for learner in LEARNER_OF.values()}


@pytest.mark.parametrize(
    ("swapped", "target", "folder"),
    [
        ("grupo1/ana", "otro_usuario", "grupo1/ana"),  # to another user's folder with the same layout
        ("grupo1/ana", "/proc/self", "grupo1/ana"),
        ("grupo1", "otro_usuario", "grupo1"),  # the top of a deep path
        ("grupo1/beto", "otro_usuario", "grupo1/beto"),  # a middle folder of grupo1/beto/tarea/entrega.ipynb
    ],
)
def test_a_folder_swapped_for_a_link_after_the_listing_is_an_error_row(
    fake, monkeypatch, tmp_path, swapped, target, folder
):
    root = class_folder(tmp_path, NESTED)
    for rel in NESTED:
        if rel.startswith(swapped + "/"):
            someone_elses(tmp_path, rel.removeprefix(swapped + "/"))
    destination = tmp_path / target if target == "otro_usuario" else Path(target)
    grade_after(monkeypatch, fake, lambda: swap_for_link(root / swapped, destination))
    code, _, _ = run_cli("grade", root, "--out", tmp_path / "out")
    assert code == 0
    got = {r["source"].removeprefix(f"{root}/"): r["error"] for r in rows(tmp_path / "out")}
    assert sorted(got) == sorted(LEARNER_OF.values())  # one row each: the swap costs its own files, never the batch
    for rel, learner in LEARNER_OF.items():
        error = got[learner]
        if rel.startswith(swapped + "/"):
            assert error is not None and f"«{folder}», en su ruta, es un enlace simbólico" in error, error
            assert Path(rel).name in error
        else:
            assert error is None, (rel, error)
    assert SECRET not in all_output(tmp_path / "out")


@pytest.mark.parametrize(
    ("make", "key"),
    [
        (lambda root, private: (root / "ana").symlink_to(private), "load.folder_symlink"),
        (lambda root, private: (root / "ana").symlink_to("/proc/self"), "load.folder_symlink"),
        (lambda root, private: (root / "ana").symlink_to(os.path.relpath(private, root)), "load.folder_symlink"),
        (lambda root, private: (root / "ana").write_text("x = 1\n"), "load.folder_not_dir"),
        (lambda root, private: os.mkfifo(root / "ana"), "load.folder_not_dir"),
    ],
    ids=["link to a folder", "link to /proc/self", "relative link", "a file", "a FIFO"],
)
def test_a_path_through_something_that_is_not_a_folder_is_refused_not_followed(tmp_path, make, key):
    """Race-free: the folder on the path is a link (or no folder) from the start; the loader walks, never follows."""
    private = someone_elses(tmp_path, "entrega.py")
    root = tmp_path / "clase"
    root.mkdir()
    make(root, private)
    got = load_in_thread(safe_files.Beneath(root, ("ana", "entrega.py")))
    assert isinstance(got, SubmissionError), got
    assert got.key == key and "«ana»" in got.message("es") and "entrega.py" in got.message("es")
    assert SECRET not in got.message("es") + got.message("en")


def test_a_deep_path_is_refused_at_its_linked_middle_folder(tmp_path):
    root = class_folder(tmp_path, {"a/b/c/d/entrega.py": "x = 1\n"})
    assert load_submission(safe_files.Beneath(root, ("a", "b", "c", "d", "entrega.py"))).cells
    private = someone_elses(tmp_path, "c/d/entrega.py")
    swap_for_link(root / "a" / "b", private)
    err = load_in_thread(safe_files.Beneath(root, ("a", "b", "c", "d", "entrega.py")))
    assert isinstance(err, SubmissionError) and err.key == "load.folder_symlink"
    assert "«a/b»" in err.message("es") and SECRET not in err.message("es")
    # The root is the instructor's: named through a link, it is followed (only what is below it is not).
    real = class_folder(tmp_path / "real", {"a/b/entrega.py": "x = 1\n"})
    (tmp_path / "atajo").symlink_to(real)
    assert load_submission(safe_files.Beneath(tmp_path / "atajo", ("a", "b", "entrega.py"))).cells


class SwappingScandir:
    """``os.scandir`` that runs ``swap()`` once: when the class listing is read through, or when a folder is listed."""

    def __init__(self, real, swap, when: str) -> None:
        self.real, self.swap, self.when, self.calls = real, swap, when, 0

    def __call__(self, *args):
        self.calls += 1
        if self.when == "as a folder is listed" and self.calls == 2:
            self.swap()
        it = self.real(*args)
        if self.when != "after the class listing" or self.calls > 1:
            return it
        swap = self.swap

        class Listing:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                it.close()

            def __iter__(self):
                return self

            def __next__(self):
                try:
                    return next(it)
                except StopIteration:
                    swap()
                    raise

            def close(self):
                it.close()

        return Listing()


def collect_in_thread(paths: list[Path], seconds: float = 20):
    box: list[object] = []
    t = threading.Thread(target=lambda: box.append(collect_submissions(paths)), daemon=True)
    t.start()
    t.join(seconds)
    assert box, f"collecting {paths} did not return in {seconds} s"
    return box[0]


@pytest.mark.parametrize("when", ["after the class listing", "as a folder is listed"])
@pytest.mark.parametrize("target", ["otro_usuario", "/", "/proc/self"])
def test_a_folder_swapped_while_the_class_is_listed_is_not_walked(monkeypatch, tmp_path, target, when):
    """A link to / walked would list the whole disk; to another user's folder, show its names. Neither happens."""
    root = class_folder(tmp_path, {"ana/entrega.py": "x = 1\n", "beto.py": "x = 1\n"})
    someone_elses(tmp_path, "ajeno.py")
    destination = tmp_path / target if target == "otro_usuario" else Path(target)
    swap = SwappingScandir(os.scandir, lambda: swap_for_link(root / "ana", destination), when)
    monkeypatch.setattr(os, "scandir", swap)
    with collect_in_thread([root]) as intake:
        monkeypatch.undo()
        sources = [s.source for s in intake.submissions]
        assert f"{root}/beto.py" in sources and set(sources) <= {f"{root}/beto.py", f"{root}/ana/entrega.py"}
        if when == "after the class listing":  # never entered: said so
            (warning,) = intake.warnings
            assert f"«{root}/ana»" in warning and "no se sigue" in warning
        for found in intake.submissions:  # listed before the swap: refused when read
            if found.source.endswith("ana/entrega.py"):
                err = load_in_thread(found.file)
                assert isinstance(err, SubmissionError) and err.key == "load.folder_symlink", err


def test_folders_nested_past_the_limit_are_skipped_with_a_warning(tmp_path):
    from autograder.intake import collect

    deep = tmp_path / "clase" / Path(*[f"n{i}" for i in range(collect.MAX_FOLDER_DEPTH + 5)])
    deep.mkdir(parents=True)
    (deep / "hondo.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "clase" / "n0" / "arriba.py").write_text("x = 1\n", encoding="utf-8")
    with collect_submissions([tmp_path / "clase"]) as intake:
        assert [s.path.name for s in intake.submissions] == ["arriba.py"]
        (warning,) = intake.warnings
        assert f"más de {collect.MAX_FOLDER_DEPTH} niveles" in warning


class RawNameInfo(zipfile.ZipInfo):
    """A member whose name is written as the given bytes, without the UTF-8 flag (as many tools do)."""

    raw: bytes = b""

    def _encodeFilenameFlags(self):
        return self.raw, self.flag_bits & ~0x800


def zip_with_raw_names(path: Path, names: list[bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for raw in names:
            info = RawNameInfo(raw.decode("latin-1"))
            info.raw = raw
            zf.writestr(info, "x = 1\n")
    return path


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Tarea 3/José Núñez.py".encode(), "Tarea 3/José Núñez.py"),  # UTF-8 without the flag
        ("Tarea 3/José Núñez.py".encode("cp437"), "Tarea 3/José Núñez.py"),  # DOS / Windows "OEM"
        ("Tarea 3/José Núñez.py".encode("cp850"), "Tarea 3/José Núñez.py"),
        ("Tarea 3/José Núñez.py".encode("cp1252"), "Tarea 3/José Núñez.py"),  # Windows "ANSI"
        ("¿Qué?/año.ipynb".encode("cp1252"), "¿Qué?/año.ipynb"),
        (b"plain.py", "plain.py"),
    ],
)
def test_zip_member_names_without_the_utf8_flag_read_as_meant(tmp_path, raw, expected):
    archive = zip_with_raw_names(tmp_path / "lms.zip", [raw])
    with zipfile.ZipFile(archive) as zf:
        (info,) = zf.infolist()
        assert not info.flag_bits & 0x800
        assert member_name(info) == expected


def test_zip_member_names_flagged_utf8_and_unflagged_give_the_same_sources(fake, tmp_path):
    flagged = tmp_path / "con_bandera.zip"
    with zipfile.ZipFile(flagged, "w") as zf:
        zf.writestr("José.py", "x = 1\n")  # Python sets the UTF-8 flag for non-ASCII names
    unflagged = zip_with_raw_names(tmp_path / "sin_bandera.zip", ["José.py".encode(), "Inés.py".encode("cp1252")])
    code, _, _ = run_cli("grade", flagged, unflagged, "--out", tmp_path / "out")
    assert code == 0
    assert [r["source"] for r in rows(tmp_path / "out")] == [
        "con_bandera.zip/José.py",
        "sin_bandera.zip/Inés.py",
        "sin_bandera.zip/José.py",
    ]


# --- names in the reports -------------------------------------------------------------------------


EVIL_NAMES = [
    "ana\n# Nota final: 10 de 10\n- [descarga](https:malo.example).py",
    "beto\r\n<img src=x onerror=alert(1)>.py",
    "carla\u2028## Aprobado.py",
    '=HYPERLINK("https:malo.example")\n1. uno.py',
]


def test_file_names_cannot_inject_markdown_html_or_csv_rows(fake, tmp_path):
    root = tmp_path / "entregas"
    root.mkdir()
    for name in EVIL_NAMES:
        (root / name).write_text("x = 1\n", encoding="utf-8")
    out = tmp_path / "out"
    code, _, _ = run_cli("grade", root, "--out", out)
    assert code == 0
    got = rows(out)
    assert sorted(r["submission"] for r in got) == sorted(EVIL_NAMES)
    for md in (out / "feedback").glob("*.md"):
        text = md.read_text(encoding="utf-8")
        headings = [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]
        assert not any(h.startswith(("Nota final", "Aprobado")) for h in headings), headings
        assert not any(line.startswith(("- [", "1. ", "<img")) for line in text.splitlines())
        assert not re.search(r"(?<!\\)\]\(", text) and "<img" not in text  # no live link, no raw HTML
    for page in [*(out / "feedback").glob("*.html"), out / "resumen.html"]:
        assert "<img src=x" not in page.read_text(encoding="utf-8")
    table = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8", newline="")))
    assert len(table) == len(EVIL_NAMES)
    assert {r["submission"].lstrip("'") for r in table} == set(EVIL_NAMES)


def test_learner_text_with_line_breaks_stays_inside_its_list_item():
    criteria = [CriterionResult("nivel1.cpA", False, 0.0, 1.0, "línea 1\n# Aprobado\n- [x](http://e)")]
    result = SubmissionResult(
        "ana.py", 0.0, 1.0, criteria, warnings=["La celda 2 lanzó ValueError\n# Nota: 10\n1. todo bien"]
    )
    md = feedback_markdown(ReportEntry(result, "ana.py", "ana"))
    lines = md.splitlines()
    assert not any(line.startswith(("# Aprobado", "# Nota", "- [x]", "1. ")) for line in lines), md
    assert not any(line.lstrip("> ").startswith(("# ", "- [", "1. ")) for line in lines if line.startswith(">"))


def test_names_cannot_drive_the_instructors_terminal(fake, tmp_path):
    root = tmp_path / "entregas"
    root.mkdir()
    (root / "ana\x1b]0;hackeado\x07\x1b[2J.py").write_text("x = 1\n", encoding="utf-8")
    archive = tmp_path / "lms.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("../\x1b[31mrojo\nfalso aviso.py", "x = 1\n")  # refused (zip slip): named in a warning
    code, stdout, stderr = run_cli("grade", root, archive, "--out", tmp_path / "out")
    assert code == 0
    assert "\x1b" not in stdout + stderr and "\x07" not in stdout + stderr
    assert "zip slip" in stderr and "\nfalso aviso" not in stderr


def test_a_file_name_that_is_not_utf8_does_not_cost_the_class_its_reports(fake, tmp_path):
    root = tmp_path / "entregas"
    root.mkdir()
    (root / "ana.py").write_text("x = 1\n", encoding="utf-8")
    with open(os.path.join(os.fsencode(root), b"jos\xe9.py"), "w", encoding="utf-8") as f:  # a Latin-1 name
        f.write("x = 1\n")
    os.symlink("/dev/zero", os.path.join(os.fsencode(root), b"ne\xf1a.py"))  # and its error message names it
    out = tmp_path / "out"
    code, _, _ = run_cli("grade", root, "--out", out)
    assert code == 0
    assert sorted(r["submission"] for r in rows(out)) == ["ana.py", "jos\ufffd.py", "ne\ufffda.py"]
    assert len(list(csv.DictReader((out / "grades.csv").open(encoding="utf-8")))) == 3
    assert len(list((out / "feedback").glob("*.md"))) == 3


# --- the whole batch, for real --------------------------------------------------------------------


def _limited_memory() -> None:
    # If intake ever reads /dev/zero again, the grader fails alone instead of eating the machine.
    resource.setrlimit(resource.RLIMIT_AS, (6 * 1024**3, 6 * 1024**3))


@pytest.mark.slow
def test_a_hostile_folder_never_costs_the_batch_nor_leaks_a_byte(tmp_path):
    root = tmp_path / "entregas"
    root.mkdir()
    (root / "a_buena.py").write_text((SUBMISSIONS / "good.py").read_text(encoding="utf-8"), encoding="utf-8")
    private = tmp_path / "privado.txt"
    private.write_text(f"{SECRET}\n", encoding="utf-8")
    private.chmod(0o600)
    (root / "b_robo.ipynb").symlink_to(private)
    (root / "c_robo.py").symlink_to(private)
    (root / "d_cero.py").symlink_to("/dev/zero")
    os.mkfifo(root / "e_tuberia.py")
    (root / "f_roto.ipynb").write_text(f"{SECRET} no es un cuaderno", encoding="utf-8")
    (root / "g_roto2.ipynb").write_text('{"nbformat": 4, "cells": "' + SECRET + '"}', encoding="utf-8")
    with open(root / "h_enorme.py", "wb") as f:
        f.truncate(2 * 1024**3)
    (root / "z_buena.ipynb").write_bytes((SUBMISSIONS / "good_notebook.ipynb").read_bytes())
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(root), "--out", str(out), "--jobs", "2", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        preexec_fn=_limited_memory,
    )
    assert proc.returncode == 0, proc.stderr
    got = {r["submission"]: r for r in rows(out)}
    assert len(got) == 9
    for good in ("a_buena.py", "z_buena.ipynb"):
        passed = {c["id"]: c["passed"] for c in got[good]["criteria"]}
        # good_notebook.ipynb answers «¿está en lo cierto?» wrongly on purpose (a wrong letter is graded, not lost)
        expected = [c for c in CRITERIA_IDS if not (good.endswith(".ipynb") and c == "nivel1.esta_en_lo_cierto")]
        assert got[good]["error"] is None and all(passed[c] for c in expected), got[good]
    for bad in set(got) - {"a_buena.py", "z_buena.ipynb"}:
        assert got[bad]["error"] and got[bad]["score"] == 0, bad
    assert "enlace simbólico" in got["d_cero.py"]["error"] and "FIFO" in got["e_tuberia.py"]["error"]
    assert "MB" in got["h_enorme.py"]["error"]
    outputs = [p for p in out.rglob("*") if p.is_file()]
    assert len(outputs) >= 3 + 2 * 9
    for p in outputs:
        assert SECRET not in p.read_text(encoding="utf-8"), p
    assert SECRET not in proc.stdout + proc.stderr


def _processes_mentioning(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.parametrize("presses", [1, 2])
@pytest.mark.slow
def test_ctrl_c_keeps_what_was_graded_and_leaves_nothing_behind(tmp_path, presses):
    root = tmp_path / "entregas"
    root.mkdir()
    good = (SUBMISSIONS / "good.py").read_text(encoding="utf-8")
    (root / "a1.py").write_text(good, encoding="utf-8")
    (root / "a2.py").write_text(good, encoding="utf-8")
    # Each slow one would take its whole load limit; the first tells the test that it started.
    slow = "open('empece', 'w').close()\nimport time\nwhile True:\n    time.sleep(1)\n"
    for name in ("z1.py", "z2.py", "z3.py", "z4.py"):
        (root / name).write_text(slow, encoding="utf-8")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "autograder", "grade", str(root), "--out", str(out), "--jobs", "1", "--seed", "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp)},
    )
    try:
        deadline = time.monotonic() + 240
        while not list(tmp.glob("autograder-*/judge-*/learner/empece")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the slow submission never started"
            time.sleep(0.05)
        for _ in range(presses):  # an impatient second Ctrl-C must not lose the results either
            proc.send_signal(signal.SIGINT)
            time.sleep(0.2)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # A second press may land once the results are written, while the interpreter exits: killed by SIGINT then.
    assert proc.returncode in ((130,) if presses == 1 else (130, -signal.SIGINT)), stderr
    assert "interrumpido" in stderr and "Traceback" not in stderr
    got = {r["submission"]: r for r in rows(out)}
    assert sorted(got) == ["a1.py", "a2.py", "z1.py", "z2.py", "z3.py", "z4.py"]
    for name in ("a1.py", "a2.py"):
        assert got[name]["error"] is None and got[name]["score"] == got[name]["max_score"] > 0
    for name in ("z1.py", "z2.py", "z3.py", "z4.py"):
        # Not graded: no total (null, not a 0 nobody earned), and the report says the run was cut short.
        assert "interrumpió" in got[name]["error"] and got[name]["score"] is None, got[name]
        assert got[name]["graded"] is False
    assert len(list((out / "feedback").glob("*.md"))) == 6
    assert "Calificación interrumpida: 2 de 6" in (out / "resumen.html").read_text(encoding="utf-8")
    assert list(tmp.iterdir()) == []  # no temporary folder left
    deadline = time.monotonic() + 10
    while (left := _processes_mentioning(str(tmp))) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert left == [], "processes of the interrupted run are still alive"
