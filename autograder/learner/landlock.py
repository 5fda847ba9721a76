"""Confine with Landlock: learner code writes only in its folder and reads only what Python needs.

A grader that is not root cannot give the learner a uid of its own, so without this the
learner's code would run as the instructor: their checkout (an editable install of this
very grader), their ``~/.anthropic`` and every process they own within reach. Landlock
(Linux >= 5.13) lets any process, privileged or not, take rights away from itself and its
future children for good. The learner's child applies it after the fork and before any
learner code runs, as root too (defence in depth on top of the uid drop):

- write, create, remove, rename, truncate: only beneath the learner's folder, plus /dev/null;
- read: the interpreter's own files (the prefixes, site-packages), the packages it imported
  from elsewhere (lesson3 and autograder of a checkout, not the checkout), the system
  libraries, the time zone data and its own ``/proc`` entry; not the home folder, not the
  grader's work folders;
- execute: nothing (no program is needed to answer the exercise);
- TCP bind/connect: none (ABI 4); signals and abstract unix sockets: only inside its own
  domain, so not the judge, the zygote or pytest (ABI 6); pathname unix sockets: none (ABI 9),
  and before ABI 9 a seccomp filter refuses connect() itself, as well as chmod, chown,
  utime and extended attributes, which Landlock never governs (:func:`deny_syscalls`).

Rights the running kernel does not know are masked out, as the Landlock documentation
recommends ("best effort"); :func:`abi_version` says which of these protections hold.
Landlock does not restrict stat(), chdir() or path traversal, and never touches files
opened before the restriction (the judge's pipes).
"""

from __future__ import annotations

import ctypes
import errno
import functools
import operator
import os
import pwd
import stat
import sys
from pathlib import Path

# The same numbers on every architecture since Linux 5.1's unified syscall table (x86_64,
# aarch64, i386, arm, riscv...); only alpha differs, and it reports ENOSYS like an old kernel.
SYS_LANDLOCK_CREATE_RULESET = 444
SYS_LANDLOCK_ADD_RULE = 445
SYS_LANDLOCK_RESTRICT_SELF = 446
LANDLOCK_CREATE_RULESET_VERSION = 1 << 0
LANDLOCK_RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

# include/uapi/linux/landlock.h
FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_REMOVE_DIR = 1 << 4
FS_REMOVE_FILE = 1 << 5
FS_MAKE_CHAR = 1 << 6
FS_MAKE_DIR = 1 << 7
FS_MAKE_REG = 1 << 8
FS_MAKE_SOCK = 1 << 9
FS_MAKE_FIFO = 1 << 10
FS_MAKE_BLOCK = 1 << 11
FS_MAKE_SYM = 1 << 12
FS_REFER = 1 << 13  # ABI 2
FS_TRUNCATE = 1 << 14  # ABI 3
FS_IOCTL_DEV = 1 << 15  # ABI 5
FS_RESOLVE_UNIX = 1 << 16  # ABI 9
NET_BIND_TCP = 1 << 0  # ABI 4
NET_CONNECT_TCP = 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1  # ABI 6

FS_ABI_1 = (1 << 13) - 1  # EXECUTE .. MAKE_SYM
FS_BY_ABI = {1: FS_ABI_1, 2: FS_REFER, 3: FS_TRUNCATE, 5: FS_IOCTL_DEV, 9: FS_RESOLVE_UNIX}
FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
"""The only rights a rule on a file (not a directory) may carry."""

READ = FS_READ_FILE | FS_READ_DIR
WRITE = FS_ABI_1 & ~(FS_EXECUTE | FS_MAKE_CHAR | FS_MAKE_BLOCK) | FS_REFER | FS_TRUNCATE
"""The learner's own folder: everything but executing, device nodes and device ioctls."""

SYSTEM_READ = (
    "/usr/lib",
    "/usr/lib64",
    "/lib",
    "/lib64",
    "/usr/share/zoneinfo",
    "/etc/localtime",
    "/etc/ld.so.cache",
    "/sys/devices/system/cpu",
)
"""Shared libraries (extension modules link against them), time zones, os.cpu_count()."""

DEVICES = {
    "/dev/null": FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE | FS_IOCTL_DEV,
    "/dev/zero": FS_READ_FILE,
    "/dev/urandom": FS_READ_FILE,
    "/dev/random": FS_READ_FILE,
}


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),  # ABI 4
        ("scoped", ctypes.c_uint64),  # ABI 6
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # __attribute__((packed)) in the uapi header: 12 bytes
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def handled(abi: int) -> tuple[_RulesetAttr, int]:
    """What a ruleset takes away on a kernel with Landlock ABI ``abi``, and the size of the struct as that
    ABI knows it (an older kernel would refuse non-zero unknown fields)."""
    fs = functools.reduce(operator.or_, (rights for version, rights in FS_BY_ABI.items() if abi >= version), 0)
    net = NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0
    return _RulesetAttr(fs, net, scoped), 24 if abi >= 6 else 16 if abi >= 4 else 8


@functools.cache
def libc() -> ctypes.CDLL:
    """The C library, with ``errno`` kept for :func:`errno_error` (loaded once)."""
    library = ctypes.CDLL(None, use_errno=True)
    library.syscall.restype = ctypes.c_long
    return library


def errno_error() -> OSError:
    """The failure the last call through :func:`libc` reported."""
    code = ctypes.get_errno()
    return OSError(code, os.strerror(code))


def _syscall(number: int, *args: object) -> int:
    result = libc().syscall(ctypes.c_long(number), *args)
    if result < 0:
        raise errno_error()
    return int(result)


@functools.cache
def abi_version() -> int:
    """The Landlock ABI of the running kernel; 0 when there is none (not Linux, too old, disabled)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        version = ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION)
        return _syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), version)
    except OSError:  # ENOSYS (no syscall), EOPNOTSUPP (disabled at boot), EPERM (seccomp)
        return 0
    except (AttributeError, TypeError):  # pragma: no cover - no libc.syscall
        return 0


# -- what the learner may read ---------------------------------------------------------------------------

_hidden: tuple[str, ...] = ()


def hide(folders: list[Path]) -> None:
    """Folders the learner must not read even where they sit inside a readable root (lesson3/, autograder/).

    Their modules the learner's process needs were loaded before the lockdown; on disk
    they hold the reference answers and the grader's tables. Call before :func:`warm_up`.
    """
    global _hidden
    _hidden = tuple(sorted({os.path.realpath(f) for f in folders}))
    python_roots.cache_clear()


@functools.cache
def python_roots() -> tuple[str, ...]:
    """Where Python reads what the learner may import (cached: the zygote computes it once).

    Whole: the prefixes, site-packages folders and zipped path entries. Any other
    ``sys.path`` entry (a checkout on PYTHONPATH, an editable install, pytest's rootdir)
    only for the top-level packages and modules that were imported from it: lesson3/
    and autograder/ of a checkout, never the checkout (tests, submissions, .git).
    """
    prefixes = (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix)
    whole = {os.path.realpath(p) for p in prefixes}
    partial: list[str] = []
    for entry in sys.path:
        if not entry:
            continue  # the current folder: the learner's own, reachable anyway
        real = os.path.realpath(entry)
        if any(_is_ancestor_or_same(root, real) for root in whole):
            continue
        if os.path.basename(real) in ("site-packages", "dist-packages") or os.path.isfile(real):
            whole.add(real)
        elif os.path.isdir(real):
            partial.append(real)
    roots = set(whole)
    for name, module in list(sys.modules.items()):
        if "." in name or module is None:
            continue
        for location in _module_locations(module):
            real = os.path.realpath(location)
            if any(_is_ancestor_or_same(root, real) for root in whole):
                continue
            for entry in partial:
                if real.startswith(entry + os.sep):
                    top = real[len(entry) + 1 :].split(os.sep, 1)[0]
                    roots.add(os.path.join(entry, top))
    for package in ("lesson3", "autograder"):  # wherever they came from
        roots.update(os.path.realpath(p) for p in _module_locations(sys.modules.get(package)))
    return tuple(sorted(path for root in roots for path in _without_hidden(root)))


def _without_hidden(root: str) -> list[str]:
    """``root``, or, when a hidden folder lies beneath it, each of its entries but that folder (recursively)."""
    if any(_is_ancestor_or_same(h, root) for h in _hidden):
        return []
    if not any(_is_ancestor_or_same(root, h) for h in _hidden) or not os.path.isdir(root):
        return [root]
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    return [path for name in names for path in _without_hidden(os.path.join(root, name))]


def _module_locations(module: object) -> list[str]:
    paths = getattr(module, "__path__", None)
    if paths is not None:
        try:
            return [str(p) for p in paths]
        except TypeError:  # pragma: no cover - a namespace path that refuses iteration
            return []
    file = getattr(module, "__file__", None)
    return [file] if isinstance(file, str) else []


def _is_ancestor_or_same(candidate: str, path: str) -> bool:
    return path == candidate or path.startswith(candidate.rstrip(os.sep) + os.sep)


def _homes() -> set[str]:
    """The grader's home folders: $HOME (it varies) and the passwd entry."""
    homes = [_passwd_home(), os.path.realpath(os.environ["HOME"]) if os.environ.get("HOME") else None]
    return {home for home in homes if home}


def warm_up() -> None:
    """Compute what every learner's policy shares, once, before the forks (the zygote calls this)."""
    abi_version()
    python_roots()
    _homes()


@functools.cache
def _passwd_home() -> str | None:
    """The passwd entry's home folder, resolved (read once: it opens /etc/passwd)."""
    try:
        home = pwd.getpwuid(os.geteuid()).pw_dir
    except (KeyError, OSError):
        return None
    return os.path.realpath(home) if home else None


def policy(box: Path) -> list[tuple[str, int]]:
    """The learner's policy: paths and the rights granted beneath each (its folder read-write, the
    interpreter's files read-only); everything else the ruleset handles is denied.

    No read root may contain the box (that would open the judge's work folders next to
    it), be ``/`` or contain a home folder: an odd ``sys.path`` then loses that entry
    (its imports may fail) rather than exposing the instructor's files.
    """
    box_real = os.path.realpath(box)
    forbidden = {box_real, *_homes()}
    rules: list[tuple[str, int]] = [(box_real, WRITE)]
    for root in (*python_roots(), *SYSTEM_READ, f"/proc/{os.getpid()}"):
        if root == os.sep or any(_is_ancestor_or_same(root, f) for f in forbidden):
            continue
        rules.append((root, READ))
    return [*rules, *DEVICES.items()]


# -- applying it ------------------------------------------------------------------------------------------


def prepare(box: Path, abi: int | None = None) -> int | None:
    """The learner's ruleset, built while the child can still open everything; None when the kernel has no Landlock."""
    abi = abi_version() if abi is None else abi
    if abi < 1:
        return None
    attr, size = handled(abi)
    fd = _syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    try:
        for path, allowed in policy(box):
            _add_path_rule(fd, path, allowed & attr.handled_access_fs)
    except BaseException:
        os.close(fd)
        raise
    return fd


def enforce(ruleset: int) -> None:
    """Restrict this process and its future children for good, after the uid drop (needs no_new_privs or
    CAP_SYS_ADMIN)."""
    try:
        _syscall(SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)


def _add_path_rule(ruleset_fd: int, path: str, allowed: int) -> None:
    try:
        target = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # not on this system (/lib64 on aarch64, a removed site-packages): nothing to grant
    try:
        if not stat.S_ISDIR(os.fstat(target).st_mode):
            allowed &= FILE_RIGHTS
        if not allowed:
            return
        beneath = _PathBeneathAttr(allowed, target)
        try:
            _syscall(
                SYS_LANDLOCK_ADD_RULE,
                ctypes.c_int(ruleset_fd),
                ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH),
                ctypes.byref(beneath),
                ctypes.c_uint32(0),
            )
        except OSError as e:
            # A pseudo filesystem that cannot carry rules: no access there, which is the safe side.
            if e.errno != errno.EBADFD:
                raise
    finally:
        os.close(target)


def no_new_privs() -> None:
    """PR_SET_NO_NEW_PRIVS: no setuid program can give privileges back (and Landlock requires it)."""
    if not sys.platform.startswith("linux"):
        return
    if libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise errno_error()


# -- a seccomp filter for what Landlock does not govern ----------------------------------------------------

# Running as the instructor, a learner could still (1) connect to the instructor's unix
# sockets: the D-Bus session bus (start any program through systemd --user),
# /var/run/docker.sock (root, for members of the docker group), an ssh-agent; Landlock
# governs pathname sockets only from ABI 9. And (2) change the metadata of any of their
# files, which Landlock never governs: chmod 000 on their checkout or ~/.ssh, chown, utime,
# extended attributes. Nothing the learner must do needs any of these (the judge talks over
# inherited pipes, TCP is refused by Landlock), so a seccomp filter refuses them outright
# with EACCES, and io_uring too, which could connect behind the filter's back.
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
REFUSED_SYSCALLS = {
    # connect, chmod, fchmod, chown, fchown, lchown, utime, setxattr, lsetxattr, fsetxattr,
    # removexattr, lremovexattr, fremovexattr, utimes, fchownat, futimesat, fchmodat, utimensat
    "x86_64": (42, 90, 91, 92, 93, 94, 132, 188, 189, 190, 197, 198, 199, 235, 260, 261, 268, 280),
    # connect, setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr, fremovexattr,
    # fchmod, fchmodat, fchownat, fchown, utimensat (the generic table has no chmod, chown...)
    "aarch64": (203, 5, 6, 7, 14, 15, 16, 52, 53, 54, 55, 88),
}
REFUSED_EVERYWHERE = (425, 452, 463, 466)
"""io_uring_setup, fchmodat2, setxattrat, removexattrat: numbers of the unified table."""
X32_SYSCALL_BIT = 0x40000000
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
_BPF_LD_W_ABS, _BPF_JEQ_K, _BPF_JGE_K, _BPF_RET_K = 0x20, 0x15, 0x35, 0x06
_SECCOMP_DATA_NR, _SECCOMP_DATA_ARCH = 0, 4  # offsets in struct seccomp_data


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _prologue(machine: str, other_convention: int) -> list[tuple[int, int, int, int]]:
    """Load the syscall number, after returning ``other_convention`` for a call of another architecture."""
    return [
        (_BPF_LD_W_ABS, 0, 0, _SECCOMP_DATA_ARCH),
        (_BPF_JEQ_K, 1, 0, AUDIT_ARCH[machine]),
        (_BPF_RET_K, 0, 0, other_convention),
        (_BPF_LD_W_ABS, 0, 0, _SECCOMP_DATA_NR),
    ]


def syscall_filter(machine: str) -> list[tuple[int, int, int, int]] | None:
    """The BPF program (code, jt, jf, k) refusing those syscalls with EACCES on ``machine``; None if unknown."""
    if machine not in AUDIT_ARCH:
        return None
    deny = SECCOMP_RET_ERRNO | errno.EACCES
    refused = [(_BPF_JEQ_K, nr) for nr in (*REFUSED_SYSCALLS[machine], *REFUSED_EVERYWHERE)]
    if machine == "x86_64":
        refused.insert(0, (_BPF_JGE_K, X32_SYSCALL_BIT))  # the x32 table has a connect() of its own
    program = _prologue(machine, deny)  # another calling convention (int 0x80 on x86_64): nothing needs it
    for i, (code, k) in enumerate(refused):
        program.append((code, len(refused) - i, 0, k))  # true: jump over the rest and the allow, to deny
    program += [(_BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW), (_BPF_RET_K, 0, 0, deny)]
    return program


PROCESS_SYSCALLS = {
    # clone, fork, vfork, clone3
    "x86_64": (56, 57, 58, 435),
    # clone, (no fork), (no vfork), clone3: the generic table has only clone and clone3
    "aarch64": (220, None, None, 435),
}
CLONE_THREAD = 0x00010000
_BPF_JSET_K = 0x45
_SECCOMP_DATA_ARG0 = 16  # low 32 bits of args[0] (both architectures are little-endian)


def process_filter(machine: str) -> list[tuple[int, int, int, int]] | None:
    """A BPF program letting the learner start threads but not processes; None if ``machine`` is unknown.

    clone() is allowed only with CLONE_THREAD; fork, vfork and a clone() without it fail
    with EAGAIN (what a process limit gives, so the learner reads the same message);
    clone3() (whose flags sit behind a pointer a filter cannot read) fails with ENOSYS,
    on which the C library falls back to clone().
    """
    if machine not in AUDIT_ARCH:
        return None
    clone, fork, vfork, clone3 = PROCESS_SYSCALLS[machine]
    eagain = SECCOMP_RET_ERRNO | errno.EAGAIN
    forks = [nr for nr in (fork, vfork) if nr is not None]
    program = _prologue(machine, SECCOMP_RET_ALLOW)  # another convention: the other filter refuses it all
    program += [(_BPF_JEQ_K, 0, 1, clone3), (_BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.ENOSYS)]
    for i, nr in enumerate(forks):
        # true: over the rest of these, the clone test (3) and the allow, to EAGAIN
        program.append((_BPF_JEQ_K, len(forks) - i - 1 + 4, 0, nr))
    program += [
        (_BPF_JEQ_K, 0, 2, clone),
        (_BPF_LD_W_ABS, 0, 0, _SECCOMP_DATA_ARG0),
        (_BPF_JSET_K, 0, 1, CLONE_THREAD),
        (_BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW),
        (_BPF_RET_K, 0, 0, eagain),
    ]
    return program


def seccomp_available() -> bool:
    """Whether the learner's child installs the seccomp filter on this machine."""
    return sys.platform.startswith("linux") and syscall_filter(os.uname().machine) is not None


def deny_syscalls() -> bool:
    """Install the filters on this process and its future children (after no_new_privs); False if not possible."""
    if not seccomp_available():
        return False
    machine = os.uname().machine
    return _install(syscall_filter(machine)) and _install(process_filter(machine))


def _install(program: list[tuple[int, int, int, int]] | None) -> bool:
    assert program is not None  # both filters know the same machines (AUDIT_ARCH)
    filters = (_SockFilter * len(program))(*(_SockFilter(*instruction) for instruction in program))
    fprog = _SockFprog(len(program), filters)
    if libc().prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        error = errno_error()
        if error.errno == errno.EINVAL:  # a kernel built without seccomp filters
            return False
        raise error
    return True
