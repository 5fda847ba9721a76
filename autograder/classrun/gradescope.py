"""What runs inside Gradescope's container (``run_autograder``): the learner's upload graded as a class of one.

Inside the container the bundle (:mod:`autograder.distribution.bundle`) is extracted to
``/autograder/source``, the learner's files are in ``/autograder/submission`` and this module
(``python -m autograder.classrun.gradescope``) writes ``/autograder/results/results.json`` in
Gradescope's schema (:mod:`autograder.reporting.gradescope`). The root is ``$AUTOGRADER_ROOT``
(default ``/autograder``) so a test can lay the same tree out in a temporary directory.

The seed policy: the course's seed is the bundle's (:data:`~autograder.distribution.bundle.SEED_MEMBER`)
and each learner's scenarios derive from it and the learner (:func:`learner_seed`, keyed by the
Gradescope user ids in ``submission_metadata.json``): a resubmission or a regrade sees the same cases,
and two learners comparing feedback see different ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from autograder.classrun import run
from autograder.course.catalogue import LANGS, NoticeError, text
from autograder.course.config import DEFAULT, CourseConfig, load
from autograder.distribution.bundle import CONFIG_MEMBER, SEED_MEMBER
from autograder.reporting.gradescope import no_tests, to_gradescope
from autograder.reporting.report import write_text_atomic

DEFAULT_ROOT = Path("/autograder")
_METADATA_CAP = 1 << 20  # Gradescope's submission_metadata.json is a few KB


def grade_for_gradescope(submission_dir: Path, course: CourseConfig) -> dict[str, Any]:
    """The learner's upload is one learner, graded by the rule ``autograder grade`` applies to each learner.

    One file is graded, chosen as :func:`autograder.intake.choice.choose` says (never the best
    score of several: that would grade what the learner did not choose to hand in); the others are
    named in the output; an upload with nothing gradable gets 0 and what was found.
    """
    result, warnings = run.grade_one(submission_dir, course)
    return to_gradescope(result, lang=course.lang or "es", warnings=warnings)


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
        document = no_tests(text("gradescope.internal", lang))
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
