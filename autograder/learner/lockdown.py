"""Lock down: what the learner's process does to itself before running a single line of its code.

Runs in the learner's child (a fork of the learner zygote, :mod:`autograder.learner.zygote`):
a new session (its own process group), stdin from /dev/null and stdout/stderr into the
pipe the judge reads, every other file descriptor closed, a private working directory,
resource limits (CPU, address space, file size, open files, processes), an
unprivileged uid when the grader is root, ``no_new_privs``, Landlock and a seccomp
filter (:mod:`autograder.learner.landlock`), death with its keeper, and an environment rebuilt
from scratch. Nothing here imports the judge's side.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import sys
from pathlib import Path
from typing import Any

from autograder.learner import import_paths, landlock
from autograder.wire.limits import NOBODY, SAFE_PATH, Limits


def confine(
    limits: Limits, box: Path, uid: int | None, out_fd: int, *, keep: tuple[int, ...], use_landlock: bool = True
) -> dict[str, Any]:
    """Lock this process down for good; returns what was applied (sent with the load report)."""
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    _close_other_fds({0, 1, 2, *keep})
    # Fresh stream objects on the new fds: whatever wrapped them in the parent is gone.
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    os.chdir(box)
    path_entries = import_paths.open_path_entries()
    # Built while everything can still be opened (the rules hold O_PATH descriptors), enforced after the drop.
    try:
        ruleset = landlock.prepare(box) if use_landlock else None
    except OSError as e:
        # The kernel said it has Landlock: failing to build the ruleset leaves the learner
        # unconfined, so this submission is not run (the judge reports a grader problem).
        raise RuntimeError(f"Landlock: {e}") from e
    # With the seccomp filter no process can start, so threads may: RLIMIT_NPROC need not forbid them.
    _set_limits(limits, uid, threads=use_landlock and landlock.seccomp_available())
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    import_paths.install(path_entries)
    try:
        landlock.no_new_privs()
    except (OSError, AttributeError):  # pragma: no cover - not Linux (no prctl)
        if landlock.abi_version():
            raise
    if ruleset is not None:
        landlock.enforce(ruleset)
    seccomp = False
    if use_landlock:
        seccomp = landlock.deny_syscalls()
        if not seccomp and landlock.seccomp_available():
            # The grader promised this filter (Protections.seccomp): going on without it would be a lie.
            raise RuntimeError("seccomp: the filter could not be installed")
    with contextlib.suppress(OSError, AttributeError):  # not Linux
        landlock.libc().prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG, after the uid change (which clears it)
    scrub_environment(box)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    return {"landlock": ruleset is not None, "seccomp": seccomp, "uid": uid}


def _close_other_fds(keep: set[int]) -> None:
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:  # pragma: no cover - no procfs
        fds = list(range(3, 1024))
    for fd in fds:
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def _set_limits(limits: Limits, uid: int | None, *, threads: bool) -> None:
    mb = 1024 * 1024
    address_space = _vm_size() + limits.memory_mb * mb
    wanted = [
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1),
        (resource.RLIMIT_FSIZE, limits.file_mb * mb, limits.file_mb * mb),
        (resource.RLIMIT_NOFILE, 128, 128),
        (resource.RLIMIT_AS, address_space, address_space),
    ]
    # RLIMIT_NPROC counts threads too: it allows the learner's threads where seccomp stops processes.
    allowed = limits.processes + (limits.threads if threads else 0)
    if uid is not None:
        # With a uid of its own the count is exact; the shared «nobody» fallback needs room
        # for the other learners running at the same time.
        nproc = allowed if uid != NOBODY else allowed + 256
        wanted.append((resource.RLIMIT_NPROC, nproc, nproc))
    elif limits.processes <= 1 and not threads:
        # The grader's own uid already has processes (this one, the judge...), so a limit of 1
        # forbids every fork and thread here and nowhere else. A larger limit could not be
        # counted exactly against a uid shared with the instructor, so it is left alone.
        wanted.append((resource.RLIMIT_NPROC, 1, 1))
    for which, soft, hard in wanted:
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError):
            # Some platforms (macOS for RLIMIT_AS) refuse a limit: keep the others and the wall clock.
            if uid is not None:
                raise


def _vm_size() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover
        pass
    return 1024 * 1024 * 1024


def scrub_environment(home: Path) -> None:
    """Rebuild the environment from nothing: no key or token of the grader can survive.

    Clearing ``os.environ`` also clears ``posix.environ`` (its backing dict) and the C
    environment. The zygote itself was started with an allow-listed environment, so
    no secret is in this process's memory to begin with.
    """
    import tempfile

    os.environ.clear()
    os.environ.update(
        {
            "PATH": SAFE_PATH,
            "HOME": str(home),
            "TMPDIR": str(home),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "USER": "alumno",  # what the learner's code sees as its user: a word of the course, not of the code
            "LOGNAME": "alumno",
        }
    )
    tempfile.tempdir = str(home)
