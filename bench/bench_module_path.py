"""How far one submission travels through the grader's modules: changes of module along its path.

Prints figures, asserts nothing. One correct submission is graded on one level (``--level``,
Level 1 by default: resume_action and its questions, nine criteria) while every call into and return to an
``autograder`` module is recorded, in the grader's process and in the judging process (the
learner's zygote and child run untraced: confined, and bound by time limits). The path is the sequence of autograder
modules that are current one after another; a *change* is a step to another module, and a
*return* is a step straight back to the module before (A -> B -> A).

    .venv/bin/python bench/bench_module_path.py                          # this checkout, Level 1
    .venv/bin/python bench/bench_module_path.py --level 0 --criterion nivel0.state_kept   # one criterion
    .venv/bin/python bench/bench_module_path.py --root DIR               # another checkout of the course
    .venv/bin/python bench/bench_module_path.py --level 0 --each --against DIR   # each criterion, and the ratio

``--root`` reads an older layout too (the grading zygote's module was ``autograder.zygote``).
"""

from __future__ import annotations

import argparse
import collections
import importlib
import inspect
import itertools
import os
import re
import subprocess
import sys
import tempfile
import types
from pathlib import Path


def criteria_module() -> types.ModuleType:
    """The criteria's registry: in this layout, or in the flat one of older checkouts."""
    for name in ("autograder.course.criteria", "autograder.criteria"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError("no criteria registry in this checkout")


# Run in every traced process (its sitecustomize) and in the grader's own, with criteria_module's source before it.
ONE_CRITERION = """
def _only_one_criterion():
    criteria = criteria_module()
    every = criteria.graded
    # Graded, not unregistered: the other criteria still name the scenarios' random streams.
    criteria.graded = lambda *args, **kwargs: [c for c in every(*args, **kwargs) if c.id == {only!r}]

import sys
if {only!r} and not (sys.argv[1:2] and sys.argv[1].endswith("learner.sock")):  # not on the learner's side
    _only_one_criterion()
"""

TRACER = """
import os, sys, threading
_OUT = {out!r}
_files = {{}}

def _write(module):
    pid = os.getpid()
    f = _files.get(pid)
    if f is None:
        try:
            f = _files[pid] = open(os.path.join(_OUT, f"{{pid}}.trace"), "a", buffering=1)
        except OSError:  # a confined learner's child: it may not write here, so it is not traced
            sys.setprofile(None)
            threading.setprofile(None)
            return
    f.write(module + "\\n")

def _profile(frame, event, arg):
    if event == "return":
        frame = frame.f_back
    elif event != "call":
        return
    module = frame.f_globals.get("__name__") if frame is not None else None
    if isinstance(module, str) and module.startswith("autograder"):
        _write(module)

if not sys.argv[1:2] or not sys.argv[1].endswith("learner.sock"):  # the learner's side runs untraced
    sys.setprofile(_profile)
    threading.setprofile(_profile)
"""


def path_of(lines: list[str]) -> list[str]:
    """The modules one after another, each repeat of the current one dropped."""
    path: list[str] = []
    for module in lines:
        if not path or path[-1] != module:
            path.append(module)
    return path


def figures(path: list[str]) -> tuple[int, int, int]:
    changes = max(len(path) - 1, 0)
    returns = sum(1 for i in range(len(path) - 2) if path[i] == path[i + 2])
    return len(set(path)), changes, returns


ALL = re.compile(r"^  all +\d+ modules +(\d+) changes of module", re.MULTILINE)


def changes_alone(root: Path, level: int, criterion: str) -> int | None:
    """The changes of module of one submission graded on ``criterion`` alone (None: that checkout has no such one)."""
    command = [sys.executable, __file__, "--root", str(root), "--level", str(level), "--criterion", criterion]
    ran = subprocess.run(command, capture_output=True, text=True, check=False)
    found = ALL.search(ran.stdout)
    return int(found.group(1)) if ran.returncode == 0 and found and "not passed" not in ran.stdout else None


def each_criterion(root: Path, level: int, against: Path | None) -> None:
    criteria = criteria_module()
    where = f"{root} and {against}, and the ratio" if against else str(root)
    print(f"Level {level}, each criterion alone: changes of module in {where}")
    for criterion in [c.id for c in criteria.graded([level])]:
        here = changes_alone(root, level, criterion)
        line = f"  {criterion:<32} {here if here is not None else '-':>5}"
        if against is not None:
            there = changes_alone(against.resolve(), level, criterion)
            ratio = f"{here / there:.2f}" if here is not None and there else "-"
            line += f"  {there if there is not None else '-':>5}  {ratio:>5}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument(
        "--criterion", metavar="ID", default="", help="grade only this criterion of the level (e.g. nivel1.cpA)"
    )
    parser.add_argument("--pairs", type=int, default=0, metavar="N", help="also print the N most frequent changes")
    parser.add_argument("--each", action="store_true", help="each criterion of the level alone, a line each")
    parser.add_argument("--against", type=Path, metavar="DIR", help="with --each: the same on another checkout")
    args = parser.parse_args()
    root = args.root.resolve()
    sys.path.insert(0, str(root))
    if args.each:
        each_criterion(root, args.level, args.against)
        return
    out = Path(tempfile.mkdtemp(prefix="module-path-"))
    site = out / "site"
    site.mkdir()
    only = "import importlib, types\n" + inspect.getsource(criteria_module) + ONE_CRITERION.format(only=args.criterion)
    tracer = only + TRACER.format(out=str(out))
    (site / "sitecustomize.py").write_text(tracer, encoding="utf-8")

    for name in ("autograder.wire.forking", "autograder.learner.forking", "autograder.zygote"):
        try:
            forking = importlib.import_module(name)
            break
        except ImportError:
            continue
    original = forking.clean_environment

    def traced_environment(home: Path) -> dict[str, str]:
        env = original(home)
        env["PYTHONPATH"] = os.pathsep.join([str(site), env["PYTHONPATH"]])
        return env

    forking.clean_environment = traced_environment
    exec(only, {})  # before the pipeline's modules bind the criteria's functions
    pipeline = importlib.import_module(
        "autograder.grading.pipeline" if (root / "autograder" / "grading").is_dir() else "autograder.pipeline"
    )
    submission = root / "tests" / "data" / "submissions" / "good.py"

    def grade() -> object:
        if "course" not in inspect.signature(pipeline.grade_many).parameters:  # a checkout from before CourseConfig
            return pipeline.grade_many([submission], jobs=1, seed=1, levels=(args.level,))[0]
        config = importlib.import_module("autograder.course.config")
        return pipeline.grade_many([submission], config.CourseConfig(seed=1, levels=(args.level,)), jobs=1)[0]

    if not grade().criteria:  # warm: zygotes start, then trace
        parser.error(f"Level {args.level} has no criterion {args.criterion!r}")
    for stale in out.glob("*.trace"):
        stale.unlink()
    exec(tracer, {})  # the grader's own process, from here on
    result = grade()
    sys.setprofile(None)

    print(f"checkout: {root}  (traces in {out})")
    print(f"one submission ({submission.name}), Level {args.level}: {result.score:g}/{result.max_score:g} points")
    for criterion in result.criteria:
        if not criterion.passed:  # a path that fails is not the path of a correct submission
            print(f"  not passed: {criterion.id}: {criterion.feedback}")
    rows = []
    total = collections.Counter()
    pairs: collections.Counter[tuple[str, str]] = collections.Counter()
    for trace in sorted(out.glob("*.trace")):
        lines = trace.read_text(encoding="utf-8").split()
        if not lines:
            continue
        path = path_of(lines)
        # Any other trace is a judging process's: it starts where the grading zygote forked it.
        kind = "grader's process" if trace.stem == str(os.getpid()) else "judging process"
        modules, changes, returns = figures(path)
        rows.append((kind, modules, changes, returns))
        total.update(set(path))
        pairs.update(itertools.pairwise(path))
    for kind, modules, changes, returns in sorted(rows):
        print(f"  {kind:<18} {modules:>3} modules  {changes:>4} changes of module  {returns:>4} straight back")
    changes = sum(r[2] for r in rows)
    returns = sum(r[3] for r in rows)
    print(f"  {'all':<18} {len(total):>3} modules  {changes:>4} changes of module  {returns:>4} straight back")
    for (a, b), n in pairs.most_common(args.pairs):
        print(f"  {n:>4}  {a.removeprefix('autograder.')} -> {b.removeprefix('autograder.')}")


if __name__ == "__main__":
    main()
