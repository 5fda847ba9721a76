"""Gradescope's ``autograder.zip``: the bundle an instructor uploads, built from this checkout.

Gradescope's documented contract (Autograder Specifications): the zip holds ``setup.sh`` and
``run_autograder`` at its root; inside the container the zip is extracted to ``/autograder/source``
and ``run_autograder`` runs :mod:`autograder.classrun.gradescope`, which grades the learner's upload.

The seed policy: Gradescope runs the grader once per submission, resubmissions included,
so the course's seed is fixed when the bundle is built (``autograder gradescope --seed S``,
written in the bundle as :data:`SEED_MEMBER`); each learner's scenarios derive from it and
the learner (:func:`autograder.classrun.gradescope.learner_seed`).
"""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

from autograder.course.catalogue import NoticeError, notice
from autograder.course.config import CourseConfig, to_file_json
from autograder.intake.collect import is_ignored
from lesson3.checkpoint import write_atomic

BUNDLE_TEMPLATES = Path(__file__).parents[1] / "templates" / "gradescope"
_COURSE_FILES = ("pyproject.toml", "README.md")
_COURSE_PACKAGES = ("lesson3", "autograder")
_FIXED_DATE = (1980, 1, 1, 0, 0, 0)  # a reproducible zip: same sources, same bytes
SEED_MEMBER = "course-seed"
"""The bundle's member holding the course's seed (a line with a whole number)."""
CONFIG_MEMBER = "course-config.json"
"""The bundle's member holding the course's configuration (``autograder gradescope --config``), when it has one."""


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
