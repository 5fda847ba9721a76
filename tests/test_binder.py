"""Binder and JupyterHub: the binder/ folder repo2docker reads, the README's badge, and the notebooks
run by a user who is not root, with the course installed where that user cannot write.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BINDER = REPO / "binder"
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb")) + sorted((REPO / "notebooks" / "soluciones").glob("*.ipynb"))
# A uid and gid no account uses: the hub's learner, who owns their home and nothing else.
LEARNER = 64_123
NBVAL = ["--nbval", "--nbval-current-env", "--nbval-cell-timeout=300"]  # as pyproject's addopts


def test_binder_installs_the_lock_then_the_course():
    lines = [
        line.strip()
        for line in (BINDER / "requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    # pip resolves -r relative to the file that holds it: binder/../requirements.lock.
    assert lines == ["-r ../requirements.lock"]
    assert (BINDER / lines[0].split()[1]).resolve() == REPO / "requirements.lock"
    post_build = BINDER / "postBuild"
    assert post_build.stat().st_mode & stat.S_IXUSR, "repo2docker runs postBuild only when it is executable"
    assert subprocess.run(["bash", "-n", str(post_build)]).returncode == 0
    assert "pip install --no-cache-dir --no-deps ." in post_build.read_text()
    runtime = (BINDER / "runtime.txt").read_text().strip()
    version = re.fullmatch(r"python-3\.(\d+)", runtime)
    requires = re.search(r'^requires-python = ">=3\.(\d+)"$', (REPO / "pyproject.toml").read_text(), re.M)
    assert version and requires and int(version[1]) >= int(requires[1])


def test_the_readme_badge_opens_a_notebook_that_exists():
    readme = (REPO / "README.md").read_text()
    badge = re.search(
        r"\[!\[Abrir en Binder\]\(https://mybinder\.org/badge_logo\.svg\)\]"
        r"\((https://mybinder\.org/v2/gh/[^/\s]+/[^/\s]+/[^?\s]+)\?urlpath=lab/tree/([^)\s]+)\)",
        readme,
    )
    assert badge, "README has no «Abrir en Binder» badge"
    assert (REPO / badge[2]).is_file(), badge[2]


def _learner_python(learner: list[str]) -> str | None:
    """This Python's version, at a path the learner can execute without root's capabilities."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [
        sys.executable,
        os.path.realpath(sys.executable),
        shutil.which(f"python{version}", path="/usr/bin:/bin"),
    ]
    for candidate in dict.fromkeys(c for c in candidates if c):
        # Through env: setpriv itself may still hold root's capabilities when it executes its command.
        probe = [*learner, "/usr/bin/env", candidate, "-c", f"import sys; assert sys.version.startswith('{version}.')"]
        if subprocess.run(probe, capture_output=True, timeout=60).returncode == 0:
            return candidate
    return None


def _hub_install(python: str, prefix: Path) -> Path:
    """The course installed by the hub's admin: a root-owned environment the learner can only read.

    The course's packages sit in its site-packages; the locked dependencies are this test run's,
    reached through a .pth file, as an admin's shared install would be. The editable install's own
    path hook lives in a .pth inside that folder, which Python never reads from there: only the copy counts.
    """
    subprocess.run([python, "-m", "venv", "--without-pip", str(prefix)], check=True, capture_output=True)
    purelib = subprocess.run(
        [str(prefix / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    site = Path(purelib)
    for package in ("lesson3", "autograder"):
        shutil.copytree(REPO / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
    (site / "lesson3-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    for path in [prefix, *prefix.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o555 if path.is_dir() else 0o444 | (path.stat().st_mode & 0o111))
    return site


@pytest.mark.slow
def test_the_notebooks_run_for_a_learner_who_is_not_root_with_a_read_only_install():
    if os.geteuid() != 0:
        pytest.skip("needs root to become a throwaway unprivileged user (as the hub's learner)")
    if shutil.which("setpriv") is None:
        pytest.skip("needs setpriv (util-linux) to become an unprivileged user")
    learner = ["setpriv", f"--reuid={LEARNER}", f"--regid={LEARNER}", "--clear-groups", "--"]
    python = _learner_python(learner)
    if python is None:
        pytest.skip(f"no Python {sys.version_info.major}.{sys.version_info.minor} that an unprivileged user can run")
    deps = sysconfig.get_paths()["purelib"]
    if subprocess.run([*learner, "test", "-r", deps, "-a", "-x", deps], capture_output=True).returncode != 0:
        # The hub's install reaches this run's locked dependencies; from a checkout inside a
        # root-only folder (mktemp -d, /root) no other user can, as no learner on a hub could.
        pytest.skip(f"an unprivileged user cannot read this run's dependencies ({deps}): check out somewhere readable")
    # Not pytest's tmp_path: it lives in a root-only folder the learner could not even enter.
    base = Path(tempfile.mkdtemp(prefix="lesson3-hub-"))
    try:
        base.chmod(0o755)
        site = _hub_install(python, base / "hub")
        hub_python = str(base / "hub" / "bin" / "python")
        home = base / "home"  # the learner's home: their notebooks, their files
        (home / "soluciones").mkdir(parents=True)
        for notebook in NOTEBOOKS:
            shutil.copy2(notebook, home / notebook.relative_to(REPO / "notebooks"))
        for path in [home, *home.rglob("*")]:
            os.chown(path, LEARNER, LEARNER)
        env = {"PATH": f"{base / 'hub' / 'bin'}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
        where = subprocess.run(
            [*learner, hub_python, "-c", "import lesson3, autograder; print(lesson3.__file__, autograder.__file__)"],
            cwd=home,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert where.returncode == 0, where.stderr
        assert all(p.startswith(str(site)) for p in where.stdout.split()), where.stdout
        denied = subprocess.run([*learner, "touch", str(site / "lesson3" / "x")], env=env, capture_output=True)
        assert denied.returncode != 0, "the learner could write into the installed course"
        proc = subprocess.run(
            [*learner, hub_python, "-m", "pytest", "-p", "no:cacheprovider", *NBVAL, "-q", "."],
            cwd=home,
            env=env,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
        passed = re.search(r"(\d+) passed", proc.stdout)
        assert passed and int(passed[1]) >= len(NOTEBOOKS) and "failed" not in proc.stdout, proc.stdout[-2000:]
        assert not list(site.rglob("__pycache__"))
    finally:
        shutil.rmtree(base, ignore_errors=True)
