"""Import after dropping privileges, even where Python is installed in a private folder.

When the interpreter lives somewhere the learner's uid cannot traverse (pyenv under
``/root`` is common on CI machines and containers), every module not preloaded would
fail to import once the child drops privileges. The child opens a directory file
descriptor for each ``sys.path`` entry *before* the drop; afterwards this finder reads
modules of the entries it can no longer reach through those descriptors (``openat``
checks permissions from the descriptor down, not along the private path above it).
Extension modules load through ``/proc/self/fd/N``. Read-only: nothing is granted
beyond reading the interpreter's own files.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import stat
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any


def open_path_entries() -> dict[str, int]:
    """Directory fds for every ``sys.path`` directory (call while still privileged)."""
    roots: dict[str, int] = {}
    for entry in sys.path:
        real = os.path.realpath(entry or ".")
        if real in roots or not os.path.isdir(real):
            continue
        with contextlib.suppress(OSError):
            roots[real] = os.open(real, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    return roots


def install(roots: dict[str, int]) -> None:
    """Keep the fds of the entries this (now unprivileged) process cannot reach; serve imports from them."""
    unreachable = {}
    for real, fd in roots.items():
        if os.access(real, os.R_OK | os.X_OK):
            os.close(fd)
        else:
            unreachable[real] = fd
    if unreachable:
        sys.meta_path.insert(0, FdFinder(unreachable))


class FdFinder(importlib.abc.MetaPathFinder):
    def __init__(self, roots: dict[str, int]) -> None:
        # Longest first, so a nested entry (site-packages inside lib/) wins over its parent.
        self.roots = dict(sorted(roots.items(), key=lambda item: -len(item[0])))

    def _locate(self, directory: str) -> tuple[int, str] | None:
        directory = os.path.realpath(directory) if not directory.startswith("/proc/") else directory
        for root, fd in self.roots.items():
            if directory == root:
                return fd, ""
            if directory.startswith(root + os.sep):
                return fd, directory[len(root) + 1 :] + "/"
        return None

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        tail = fullname.rpartition(".")[2]
        directories = list(path) if path is not None else list(self.roots)
        for directory in directories:
            located = self._locate(str(directory))
            if located is None:
                continue
            fd, prefix = located
            base = prefix + tail
            real_base = os.path.join(str(directory), tail)
            for suffix, package in (("/__init__.py", [real_base]), (".py", None)):
                if _is_file(fd, base + suffix):
                    loader = FdSourceLoader(fd, base + suffix, real_base + suffix)
                    return importlib.util.spec_from_file_location(
                        fullname, loader.path, loader=loader, submodule_search_locations=package
                    )
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                if _is_file(fd, base + suffix):
                    file_fd = os.open(base + suffix, os.O_RDONLY, dir_fd=fd)
                    # dlopen through the fd's magic link: no path walk through the private folder.
                    via = f"/proc/self/fd/{file_fd}"
                    loader = importlib.machinery.ExtensionFileLoader(fullname, via)
                    return importlib.util.spec_from_file_location(fullname, via, loader=loader)
        return None


class FdSourceLoader(importlib.abc.Loader):
    def __init__(self, dir_fd: int, relative: str, path: str) -> None:
        self.dir_fd, self.relative, self.path = dir_fd, relative, path

    def get_data(self, path: str) -> bytes:
        fd = os.open(self.relative, os.O_RDONLY, dir_fd=self.dir_fd)
        with os.fdopen(fd, "rb") as f:
            return f.read()

    def get_source(self, fullname: str) -> str:
        return importlib.util.decode_source(self.get_data(self.path))

    def exec_module(self, module: ModuleType) -> None:
        code = compile(self.get_data(self.path), self.path, "exec", dont_inherit=True)
        exec(code, module.__dict__)


def _is_file(dir_fd: int, relative: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(relative, dir_fd=dir_fd).st_mode)
    except OSError:
        return False
