"""``autograder release --out DIR``: the learner's edition of the course (otter's ``assign``, nbgrader's ``release``).

What a learner gets, and nothing else: the learner notebooks (no ``soluciones/``, no ``src/`` with the
solution blocks), ``lesson3`` with its answers module compressed (the demos run it, nothing shows its text:
:func:`hidden_answers_source`), the ``autograder`` package with a questions module
that carries no key for the graded questions (``answer=None``, no explanation; ``check()`` then says
«respuesta recibida: se califica al entregar»), the course lock and ``pyproject.toml`` so the README's course
command works, the Binder files, JupyterLab's Spanish default and a README for learners. Not shipped: the
tests (they hold the answers), their submissions, ``docs/`` (links into ``src/``), CI, the grading recipes of
``examples/``, the benchmarks, the maintainers' lock and ``lesson3.build_notebooks`` (it needs ``src/``).

The practice questions of notebook 02 (``Question.practice``) keep their key: there they give feedback at once.

Every file is built in memory and checked for a key (the graded questions' letters and explanations, a
solution block, a filled-in graded answer) and for a graded answer's code (:func:`answer_leaks`: a function
alike to lesson3's answers or the solved notebooks', in a module, a cell or a cell's output) before anything
is written; ``DIR`` must not exist or be empty.
"""

from __future__ import annotations

import ast
import base64 as _base64
import json
import re
import zlib as _zlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from autograder.course.catalogue import NoticeError, notice, said_levels, text
from autograder.course.config import SHIPPED, CourseConfig, to_file_json
from autograder.course.levels import LEVELS
from autograder.course.questions import QUESTIONS
from lesson3.exercise_names import EXERCISE_NAMES

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
# jupyterlab_language_pack_es: the course's JupyterLab language pack, a package of the wheel (pyproject.toml).
FOLDERS = ("lesson3", "autograder", "binder", "jupyter-config", "jupyterlab_language_pack_es")
LEFT_OUT = ("lesson3/build_notebooks.py", "lesson3/build_language_pack.py")
"""Inside the shipped folders, what stays with the maintainers (the builders of the notebooks, from ``src/``, and of
the language pack the edition ships built)."""
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


HIDDEN_ANSWERS = "lesson3/answers.py"
"""Where every answer of lesson3 lives: shipped so the course's demos run it, but with no text to read."""
EXPECTED_ACTIONS = ("continue", "rerun", "is_error")
"""Level 1's answers, in the exercise's order (lesson3.answers.EXPECTED_ACTION's values): no file may list them so."""

_STUB = '''"""Las respuestas de los ejercicios de la lección, guardadas sin texto para leer en la edición del alumno.

Escribirlas es el ejercicio. El curso las usa igual (el laboratorio de caídas, la CLI, ``run_agent``), así que
están aquí, comprimidas: ``inspect.getsource`` no las encuentra, y ningún cuaderno las muestra.
"""

import base64 as _base64
import zlib as _zlib

_SOURCE = (
{blob}
)
exec(compile(_zlib.decompress(_base64.b85decode("".join(_SOURCE))), "<lesson3.answers>", "exec"), globals())
'''


def hidden_answers_source(source: str) -> str:
    """lesson3's answers module as the edition ships it: the same module when imported, nothing to read in the file.

    Deterrence, not secrecy: a learner set on it can decode it. The grade does not rest on it: reusing
    lesson3's code is found by provenance at run time, and pasting it by the class's copy comparison."""
    blob = _base64.b85encode(_zlib.compress(source.encode("utf-8"), 9)).decode("ascii")
    return _STUB.format(blob="\n".join(f'    "{blob[i : i + 100]}"' for i in range(0, len(blob), 100)))


def _code_of(path: str, content: bytes) -> list[str]:
    """The Python a shipped file holds: a module, or a notebook's code cells and what they print (a function's
    source shown by ``inspect.getsource`` is there to read too)."""
    if path.endswith(".py"):
        return [content.decode("utf-8", errors="replace")]
    if not path.endswith(".ipynb"):
        return []
    try:
        cells = json.loads(content).get("cells", [])
    except (ValueError, AttributeError):
        return []
    code = [c for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"]
    shown = [o.get("text") or (o.get("data") or {}).get("text/plain", "") for c in code for o in c.get("outputs", [])]
    return ["".join(c.get("source", "")) for c in code] + ["".join(text) for text in shown]


def answer_sources(root: Path = ROOT) -> list[str]:
    """Every graded answer's code in the instructor's checkout: lesson3's answers module, and the functions the
    exercises ask for as the solved notebooks write them (:data:`autograder.wire.calls.FUNCTIONS`)."""
    from autograder.wire.calls import FUNCTIONS

    sources = [(root / HIDDEN_ANSWERS).read_text(encoding="utf-8")]
    for notebook in sorted((root / "notebooks" / "soluciones").glob("*.ipynb")):
        for source in _code_of(notebook.name, notebook.read_bytes()):
            try:
                tree = ast.parse(source)
            except (SyntaxError, ValueError):
                continue
            graded = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in FUNCTIONS]
            sources += [ast.unparse(n) for n in graded]
    return sources


def answer_leaks(files: dict[str, bytes], answers: Sequence[str]) -> list[str]:
    """Where a graded answer's code shows in ``files``: a function alike to one of ``answers``' (sources:
    :func:`answer_sources`), or Level 1's key pairing the checkpoints with their actions. Judged by structure:
    renamed or reformatted, it is still there."""
    from autograder.grading.similarity import MIN_SUBTREES, SIMILAR, similarity, subtree_counts

    def parsed(source: str) -> ast.Module | None:
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError):
            return None

    def shapes(tree: ast.Module) -> Iterator[tuple[str, frozenset[tuple[bytes, int]]]]:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                shape = frozenset((h, k) for h, n in subtree_counts(node).items() for k in range(n))
                if len(shape) >= MIN_SUBTREES:
                    yield node.name, shape

    references = [shape for source in answers for shape in shapes(parsed(source) or ast.Module([], []))]
    found: list[str] = []
    for path, content in sorted(files.items()):
        for tree in filter(None, map(parsed, _code_of(path, content))):
            for name, shape in shapes(tree):
                found += [
                    f"{path}: {name} ({answer})"
                    for answer, reference in references
                    if similarity(shape, reference) >= SIMILAR
                ]
            found += [f"{path}: {EXPECTED_ACTIONS}" for node in ast.walk(tree) if _pairs_checkpoints_with_actions(node)]
    return found


def _constants(nodes: list[ast.expr | None]) -> tuple[object, ...]:
    return tuple(n.value if isinstance(n, ast.Constant) else None for n in nodes)


def _pairs_checkpoints_with_actions(node: ast.AST) -> bool:
    """``{"cpA": "continue", …}`` or ``zip(…, ("continue", "rerun", "is_error"))``: Level 1's key, however spelled."""
    if isinstance(node, ast.Dict):
        return _constants(node.keys) == EXERCISE_NAMES and _constants(node.values) == EXPECTED_ACTIONS
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "zip":
        return any(
            isinstance(arg, (ast.Tuple, ast.List)) and _constants(arg.elts) == EXPECTED_ACTIONS for arg in node.args
        )
    return False


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
    # A learner who keeps the edition in git must not see the course's .venv (hundreds of MB) as untracked.
    files[".gitignore"] = b".venv/\n__pycache__/\n.ipynb_checkpoints/\n*.egg-info/\n"
    files[HIDDEN_ANSWERS] = hidden_answers_source(files[HIDDEN_ANSWERS].decode("utf-8")).encode("utf-8")
    leaks = key_leaks(files) + answer_leaks(files, answer_sources(root))
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
