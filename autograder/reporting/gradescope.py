"""Gradescope: the ``autograder.zip`` bundle and what runs inside its container.

Gradescope's documented contract (Autograder Specifications): the zip holds
``setup.sh`` and ``run_autograder`` at its root; inside the container the zip is
extracted to ``/autograder/source``, the learner's files are in
``/autograder/submission`` and ``run_autograder`` must write
``/autograder/results/results.json``::

    {"score": float, "output": str, "tests": [{"name", "number", "score", "max_score",
     "status": "passed"|"failed", "output", "visibility"?}], ...}

``python -m autograder.reporting.gradescope`` is that ``run_autograder`` step. The root is
``$AUTOGRADER_ROOT`` (default ``/autograder``) so a test can lay the same tree
out in a temporary directory.

The seed policy: Gradescope runs the grader once per submission, resubmissions included,
so the course's seed is fixed when the bundle is built (``autograder gradescope --seed S``,
written in the bundle as ``course-seed``) and each learner's scenarios derive from it and
the learner (:func:`learner_seed`, keyed by the Gradescope user ids in
``submission_metadata.json``): a resubmission or a regrade sees the same cases, and two
learners comparing feedback see different ones.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import secrets
import sys
import time
import traceback
import zipfile
from pathlib import Path
from typing import Any

from autograder.course.catalogue import LANGS, NoticeError, notice, text
from autograder.course.config import DEFAULT, CourseConfig, load, to_file_json
from autograder.intake.collect import Learner, collect_submissions, is_ignored, shown_name
from autograder.reporting.report import bidi_visible, criterion_title, fmt_points, write_text_atomic
from autograder.wire.results import CriterionResult, SubmissionResult
from lesson3.checkpoint import write_atomic

BUNDLE_TEMPLATES = Path(__file__).parents[1] / "templates" / "gradescope"
DEFAULT_ROOT = Path("/autograder")
_COURSE_FILES = ("pyproject.toml", "README.md")
_COURSE_PACKAGES = ("lesson3", "autograder")
_FIXED_DATE = (1980, 1, 1, 0, 0, 0)  # a reproducible zip: same sources, same bytes
SEED_MEMBER = "course-seed"
"""The bundle's member holding the course's seed (a line with a whole number)."""
CONFIG_MEMBER = "course-config.json"
"""The bundle's member holding the course's configuration (``autograder gradescope --config``), when it has one."""
_METADATA_CAP = 1 << 20  # Gradescope's submission_metadata.json is a few KB


class BundleError(NoticeError):
    """The bundle cannot be built from here (``notice`` says what is missing)."""


# --- building autograder.zip ------------------------------------------------------------------


def bundle_members(root: Path | None = None) -> dict[str, Path]:
    """Name inside the zip -> source file, in a stable order."""
    root = root or Path(__file__).resolve().parents[2]
    needed = [root / name for name in _COURSE_FILES]
    missing = [p.name for p in needed if not p.is_file()]
    if missing:
        raise BundleError(notice("gradescope.bundle_missing", files=", ".join(missing), root=root))
    members: dict[str, Path] = {
        "setup.sh": BUNDLE_TEMPLATES / "setup.sh",
        "run_autograder": BUNDLE_TEMPLATES / "run_autograder",
        # Only what grading imports (no JupyterLab, no test tools), pinned as in the course lock.
        "requirements.lock": BUNDLE_TEMPLATES / "requirements.lock",
    }
    for name in _COURSE_FILES:
        members[f"course/{name}"] = root / name
    for package in _COURSE_PACKAGES:
        for dirpath, dirnames, filenames in os.walk(root / package):
            dirnames[:] = sorted(d for d in dirnames if not is_ignored(d))
            for name in sorted(filenames):
                if is_ignored(name) or name.endswith((".pyc", ".pyo")):
                    continue
                path = Path(dirpath) / name
                members[f"course/{path.relative_to(root).as_posix()}"] = path
    return members


def build_bundle(out: Path, root: Path | None = None, *, seed: int, config: CourseConfig | None = None) -> Path:
    """Write ``out`` (a zip with setup.sh and run_autograder at its root) and return its path.

    ``seed`` is the course's seed (see the module's seed policy): the same sources and seed
    give the same bytes. ``config``, the course's configuration, is baked in as JSON
    (:data:`CONFIG_MEMBER`): the runner grades with its points, levels, limits and language.
    """
    members = bundle_members(root)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for arcname, path in members.items():
            info = zipfile.ZipInfo(arcname, date_time=_FIXED_DATE)
            executable = arcname in ("setup.sh", "run_autograder")
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes())
        info = zipfile.ZipInfo(SEED_MEMBER, date_time=_FIXED_DATE)
        info.external_attr = 0o100644 << 16
        zf.writestr(info, f"{seed}\n")
        if config is not None:
            info = zipfile.ZipInfo(CONFIG_MEMBER, date_time=_FIXED_DATE)
            info.external_attr = 0o100644 << 16
            zf.writestr(info, to_file_json(config))
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, buffer.getvalue(), durable=False)
    return out


# --- inside the container: run_autograder -----------------------------------------------------


def to_gradescope(result: SubmissionResult, *, lang: str = "es", warnings: list[str] | None = None) -> dict[str, Any]:
    """A ``SubmissionResult`` in Gradescope's results.json schema."""
    score, max_score = fmt_points(result.score, lang), fmt_points(result.max_score, lang)
    lines = [text("gradescope.graded", lang, name=result.submission, score=score, max_score=max_score)]
    if result.pending:
        lines.append(text("gradescope.pending", lang, points=fmt_points(result.pending, lang)))
    if result.error:
        lines.append(text("gradescope.error", lang, error=result.error))
    lines += result.warnings
    if warnings:
        lines.append(text("gradescope.warnings", lang, warnings=" ".join(warnings)))
    tests = [_test(c, i, lang, not_run=result.not_run) for i, c in enumerate(result.criteria, start=1)]
    if result.flags:
        # Hidden tests carry no points and only instructors see them.
        tests.append(
            {
                "name": text("gradescope.flags", lang),
                "status": "failed",
                "output": "\n".join(result.flags),
                "visibility": "hidden",
            }
        )
    return {
        "score": result.score,
        "output": bidi_visible("\n".join(lines)),  # a name's U+202E must not reorder the page
        # Learner text (file names, quoted errors) must never be rendered as HTML.
        "output_format": "text",
        "test_output_format": "text",
        "test_name_format": "text",
        "tests": tests,
    }


def _test(c: CriterionResult, number: int, lang: str, *, not_run: bool = False) -> dict[str, Any]:
    test: dict[str, Any] = {"name": f"{criterion_title(c.id, lang)} [{c.id}]", "number": str(number)}
    if c.pending:
        # No score and no status: Gradescope then counts no points for it and shows no verdict; the
        # instructor decides it in Gradescope itself (a manual adjustment), where the learner's result lives.
        test |= {"max_score": c.max_score, "output": bidi_visible(f"{text('report.pending', lang)}: {c.feedback}")}
        return test
    return test | {
        "score": c.score,
        "max_score": c.max_score,
        "status": "passed" if c.passed else "failed",
        # The submission's error is the top output (gradescope.error): the tests point to it.
        "output": bidi_visible(text("report.not_run_row", lang) if not_run else c.feedback),
    }


def _no_tests(output: str) -> dict[str, Any]:
    """A results.json that gives 0 and says why: no submission, or the grader failed."""
    return {"score": 0.0, "output": output, "output_format": "text", "tests": []}


def grade_for_gradescope(submission_dir: Path, course: CourseConfig) -> dict[str, Any]:
    """The learner's upload is one learner, graded by the rule ``autograder grade`` applies to each learner.

    One file is graded, chosen as :func:`autograder.intake.choice.choose` says (never the best
    score of several: that would grade what the learner did not choose to hand in); the others are
    named in the output; an upload with nothing gradable gets 0 and what was found.
    """
    course = course.for_run()
    with collect_submissions([submission_dir], lang=course.lang, one_learner=True) as intake:
        learners = intake.learners or [Learner(shown_name(submission_dir.name), ())]
        from autograder.grading.pipeline import grade_many

        (result,) = grade_many(learners, course, jobs=os.cpu_count() or 1)
        return to_gradescope(result, lang=course.lang, warnings=intake.warnings)


def learner_seed(course_seed: int, learner: str) -> int:
    """One learner's seed: SHA-256 of the course's seed and the learner's key, in ``--seed``'s range.

    The same learner always gets the same one (a resubmission, a regrade); another learner
    gets another; nobody can work a learner's seed out without the course's, which only the
    bundle holds (learners never see either).
    """
    digest = hashlib.sha256(f"{course_seed}\0{learner}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 2**31


def learner_key(root: Path) -> str | None:
    """The submission's learners as Gradescope names them: their user ids, sorted (a group is one key).

    Read from ``submission_metadata.json``; None when it is missing, too big or not as
    Gradescope writes it.
    """
    try:
        with open(root / "submission_metadata.json", "rb") as f:
            data = f.read(_METADATA_CAP + 1)
        users = json.loads(data)["users"] if len(data) <= _METADATA_CAP else None
        ids = sorted(str(u["id"]) for u in users)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return ",".join(ids) if ids and all(i.strip() for i in ids) else None


def course_seed(root: Path) -> int | None:
    """The course's seed: ``$AUTOGRADER_SEED`` (to try a bundle by hand), else the bundle's own."""
    given = os.environ.get("AUTOGRADER_SEED", "")
    if not given:
        try:
            given = (root / "source" / SEED_MEMBER).read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
    return int(given) if given.isdigit() else None


def course_config(root: Path) -> CourseConfig | None:
    """The course's configuration baked into the bundle (``autograder gradescope --config``), if it has one."""
    path = root / "source" / CONFIG_MEMBER
    return load(path) if path.exists() else None


def main() -> int:
    root = Path(os.environ.get("AUTOGRADER_ROOT") or DEFAULT_ROOT)
    submission_dir, results_dir = root / "submission", root / "results"
    try:
        config = course_config(root)
    except NoticeError as exc:  # a damaged bundle: instructors see why (stdout), the learner a sentence
        print(exc.notice.render("es"))
        config, broken = None, True
    else:
        broken = False
    # AUTOGRADER_LANG (to try a bundle by hand) wins over the course's idioma, as a flag wins over the file.
    lang = os.environ.get("AUTOGRADER_LANG") or (config.lang if config is not None else None) or "es"
    if lang not in LANGS:
        lang = "es"
    course = course_seed(root)
    key = learner_key(root)
    if course is None:
        # A bundle always carries its seed; only a tree laid out by hand lacks it.
        course = secrets.randbelow(2**31)
        print(text("gradescope.no_seed", lang, seed=course))
    seed = learner_seed(course, key) if key is not None else course
    started = time.monotonic()
    try:
        if broken:
            raise RuntimeError(CONFIG_MEMBER)
        document = grade_for_gradescope(submission_dir, (config or DEFAULT).with_run(seed=seed, lang=lang))
    except Exception:  # noqa: BLE001 — Gradescope must still get a results.json that says what happened
        # stdout is shown to instructors only: the traceback goes there, the learner gets a sentence.
        traceback.print_exc(file=sys.stdout)
        document = _no_tests(text("gradescope.internal", lang))
    document["execution_time"] = round(time.monotonic() - started, 3)
    # Gradescope stores extra_data without showing it to learners: the seeds stay with instructors.
    document["extra_data"] = {"seed": seed, "course_seed": course, "learner": key, "lang": lang}
    if config is not None:
        document["extra_data"]["config"] = config.digest()
    print(text("gradescope.console", lang, seed=seed, path=results_dir / "results.json"))
    write_text_atomic(results_dir / "results.json", json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
