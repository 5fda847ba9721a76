"""The limits of each submission: the only thing that can stop learner code.

Shared by the judge (which enforces the wall-clock, output and disk limits from
outside) and the learner's child (which sets its own resource limits before any
learner code runs). Only time, memory, CPU and disk end a run; printed output never
does: past ``output_kb`` it is read and dropped.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

NOBODY = 65534
"""The uid a learner's child runs as when no uid of its own can be mapped (the judge and the child agree on it)."""
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
"""The PATH of every process the grader starts: no folder of the instructor's."""


@dataclass(frozen=True)
class Limits:
    """The limits of each submission (seconds, MB, KB).

    Time is limited piece by piece, and the pieces have no total here: loading the
    submission gets ``load_seconds``; each call of a learner function gets
    ``call_seconds``; the calls that gather one observation together (a criterion's
    scenarios, the two calls on one Level 0 file, one resume of the task killed with
    SIGKILL) share a budget of ``check_seconds``. A grading opens one budget per observation
    (Level 0 alone opens seventeen: fifteen files, two resumes), so load plus one budget
    bounds nothing; a timed-out function is not called again, and the learner's CPU is
    capped by ``cpu_seconds``. The only bound on a whole grading is ``submission_seconds``,
    the grader's backstop on the judge.
    Honest code needs milliseconds per call, far below every one of these.
    The guide's «Límites» table is generated from these values (``python -m autograder.reporting.generated``).
    """

    load_seconds: float = 5.0
    """Wall time to run every cell (or top-level statement) of the submission."""
    call_seconds: float = 1.0
    """Wall time for one call of ``resume_action`` or ``reconcile``: honest code needs a few ms."""
    check_seconds: float = 6.0
    """Wall time for all calls of one criterion together (e.g. the 14 hidden variants)."""
    cpu_seconds: int = 15
    """RLIMIT_CPU for the learner's process over the whole grading (a backstop for the wall limits)."""
    memory_mb: int = 512
    """Address space the learner may add on top of the preloaded interpreter (RLIMIT_AS)."""
    output_kb: int = 64
    """Printed output kept (stdout and stderr together) for the feedback; the rest is read and dropped."""
    file_mb: int = 16
    """RLIMIT_FSIZE: the largest file the learner may write in its own folder."""
    disk_mb: int = 64
    """Everything the learner's folder may hold at once (files and their sizes, checked while it runs)."""
    disk_files: int = 2000
    """Files and folders the learner's folder may hold at once."""
    threads: int = 8
    """Threads the learner's process may run besides its main one (where the kernel lets us forbid processes)."""
    processes: int = 1
    """RLIMIT_NPROC for the learner's own uid when threads cannot be told from processes: 1 means no fork."""
    submission_seconds: float = 90.0
    """Backstop enforced by the grader on the whole judge (the judge's own limits come first).

    Above the load plus every budget a grading opens (about 50 s when each call runs just
    under its limit), so only a stuck judge ever meets it, never a slow honest submission.
    """

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any] | None) -> Limits:
        return cls(**{k: v for k, v in (raw or {}).items() if k in cls.__dataclass_fields__})
