"""``autograder release --out DIR``: the learner's edition of the course (otter's ``assign``, nbgrader's ``release``).

What a learner gets, and nothing else: the learner notebooks (no ``soluciones/``, no ``src/`` with the
solution blocks), ``lesson3`` (the taught lesson: its reference ``reconcile`` is shown in the lesson
text, and grading flags a function that delegates to it), the ``autograder`` package with a questions module
that carries no key for the graded questions (``answer=None``, no explanation; ``check()`` then says
«respuesta recibida: se califica al entregar»), the course lock and ``pyproject.toml`` so the README's course
command works, the Binder files, JupyterLab's Spanish default and a README for learners. Not shipped: the
tests (they hold the answers), their submissions, ``docs/`` (links into ``src/``), CI, the grading recipes of
``examples/``, the benchmarks, the maintainers' lock and ``lesson3.build_notebooks`` (it needs ``src/``).

The practice questions of notebook 02 (``Question.practice``) keep their key: there they give feedback at once.

Every file is built in memory and checked for a key (the graded questions' letters and explanations, a
solution block, a filled-in graded answer) before anything is written; ``DIR`` must not exist or be empty.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from autograder.course.catalogue import NoticeError, notice, said_levels, text
from autograder.course.config import SHIPPED, CourseConfig, to_file_json
from autograder.course.levels import LEVELS
from autograder.course.questions import QUESTIONS

ROOT = Path(__file__).resolve().parents[2]
"""The instructor's checkout the edition is made from (the folder ``autograder/`` is in)."""

NOTEBOOKS = (
    "01_reanudar_no_reiniciar.ipynb",
    "02_la_llamada_colgante.ipynb",
    "03_reconcile_y_contadores.ipynb",
    "04_ejercicios.ipynb",
)
"""The learner versions that ``lesson3.build_notebooks`` writes into ``notebooks/``."""

FILES = ("pyproject.toml", "requirements.lock")
FOLDERS = ("lesson3", "autograder", "binder", "jupyter-config")
LEFT_OUT = ("lesson3/build_notebooks.py",)
"""Inside the shipped folders, what stays with the maintainers (it builds the notebooks from ``src/``)."""
QUESTIONS_MODULE = "autograder/course/questions.py"
SHIPPED_CONFIG = f"autograder/course/{SHIPPED.name}"
"""The course's configuration in the edition, read by ``check()`` (:func:`autograder.course.config.shipped`)."""
README = "README.md"


class ReleaseError(NoticeError):
    """The edition cannot be written (or would hold a key): a message for whoever runs the command."""


def keyless_questions_source(source: str) -> str:
    """``autograder/course/questions.py`` without the key: each graded question's answer and explanation emptied.

    Rewrites the keyword values in place (by their positions in the parsed source), so the rest of the
    module, its layout and comments, is the instructor's own.
    """
    raw = source.encode("utf-8")
    starts = [0]
    for line in raw.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    edits: list[tuple[int, int, bytes]] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Question"):
            continue
        keywords = {k.arg: k.value for k in node.keywords}
        practice = keywords.get("practice")
        if isinstance(practice, ast.Constant) and practice.value is True:
            continue
        for name, empty in (("answer", b"None"), ("explanation", b"{}")):
            value = keywords[name]
            begin = starts[value.lineno - 1] + value.col_offset  # col_offset counts UTF-8 bytes
            end = starts[value.end_lineno - 1] + value.end_col_offset  # type: ignore[operator]
            edits.append((begin, end, empty))
    for begin, end, empty in sorted(edits, reverse=True):
        raw = raw[:begin] + empty + raw[end:]
    return raw.decode("utf-8")


def key_leaks(files: dict[str, bytes]) -> list[str]:
    """Where an answer key shows in ``files`` (path -> content): empty when the edition is clean."""
    from lesson3 import build_notebooks as build  # the solution markers (a maintainer's module: not shipped)

    graded = [q for q in QUESTIONS.values() if not q.practice]
    markers = (build.SOLUTION_START, build.SOLUTION_END, build.MARKDOWN_START, build.MARKDOWN_END)
    needles = [*markers, *(said for q in graded for said in q.explanation.values() if said)]
    filled = re.compile(r"\b(" + "|".join(re.escape(q.variable) for q in graded) + r")\s*=\s*\\?[\"'][a-zA-Z]\b")
    found: list[str] = []
    for path, content in sorted(files.items()):
        body = content.decode("utf-8", errors="replace")
        found += [f"{path}: {needle[:40]}…" for needle in needles if needle in body]
        found += [f"{path}: {m.group(1)}" for m in filled.finditer(body)]
    questions = files.get(QUESTIONS_MODULE)
    if questions is not None:
        for node in ast.walk(ast.parse(questions.decode("utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Question":
                keywords = {k.arg: k.value for k in node.keywords}
                practice = keywords.get("practice")
                answer = keywords.get("answer")
                if not (isinstance(practice, ast.Constant) and practice.value is True) and not (
                    isinstance(answer, ast.Constant) and answer.value is None
                ):
                    found.append(f"{QUESTIONS_MODULE}: answer")
    return found


def course_command(root: Path = ROOT) -> str:
    """The README's course command (its ``command:course`` block): the one the learner's README gives."""
    readme = (root / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- command:course -->\n```sh\n(.+?)\n```", readme, re.S)
    if block is None:
        raise ReleaseError(notice("release.no_checkout", root=str(root)))
    return block.group(1)


def binder_badge(root: Path = ROOT) -> str:
    """The README's Binder badge (its first line that links to mybinder.org), for the learner's README."""
    readme = (root / "README.md").read_text(encoding="utf-8")
    badge = re.search(r"^\[!\[[^\]]*\]\([^)]*\)\]\(https://mybinder\.org/[^)]*\)$", readme, re.M)
    if badge is None:
        raise ReleaseError(notice("release.no_checkout", root=str(root)))
    return badge.group(0)


def _walk(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield path


def edition_files(root: Path = ROOT, lang: str = "es", config: CourseConfig | None = None) -> dict[str, bytes]:
    """Every file of the learner's edition (relative path -> content), checked for keys; nothing written.

    ``config`` (``autograder release --config``, without its seed) is shipped as the package's
    ``autograder/course/curso.json``, so ``check()`` scores with the course's points and levels.
    """
    if not all((root / n).is_file() for n in ("notebooks/" + NOTEBOOKS[0], *FILES)):
        raise ReleaseError(notice("release.no_checkout", root=str(root)))
    if any(q.answer is None for q in QUESTIONS.values()):
        raise ReleaseError(notice("release.already_keyless"))
    files: dict[str, bytes] = {}
    for name in FILES:
        files[name] = (root / name).read_bytes()
    for name in NOTEBOOKS:
        files[f"notebooks/{name}"] = (root / "notebooks" / name).read_bytes()
    for folder in FOLDERS:
        for path in _walk(root / folder):
            relative = path.relative_to(root).as_posix()
            if relative not in LEFT_OUT:
                files[relative] = path.read_bytes()
    files.pop(SHIPPED_CONFIG, None)  # only the configuration given now, never one lying in the checkout
    if config is not None:
        files[SHIPPED_CONFIG] = to_file_json(config.for_learners()).encode("utf-8")
    files[QUESTIONS_MODULE] = keyless_questions_source(files[QUESTIONS_MODULE].decode("utf-8")).encode("utf-8")
    counted = config.levels if config is not None else LEVELS
    readme = text(
        "release.readme",
        lang,
        command=course_command(root),
        badge=binder_badge(root),
        levels=said_levels(counted, lang),
    )
    files[README] = readme.encode("utf-8")
    leaks = key_leaks(files)
    if leaks:
        raise ReleaseError(notice("release.leak", where="; ".join(leaks[:5])))
    return files


def write_edition(out: Path, root: Path = ROOT, lang: str = "es", config: CourseConfig | None = None) -> list[Path]:
    """Write the learner's edition into ``out`` (which must not exist, or be empty); the files written."""
    files = edition_files(root, lang, config)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ReleaseError(notice("release.out_not_empty", out=str(out)))
    written = []
    for relative, content in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        if relative.startswith("binder/") and (root / relative).stat().st_mode & 0o111:
            path.chmod(0o755)  # postBuild is run by repo2docker as an executable
        written.append(path)
    return written
