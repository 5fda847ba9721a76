"""The recipes in examples/ and the CI workflow: valid for their engines, and they run every part and one merge.

Syntax is checked offline with validators that ship their schemas (check-jsonschema's vendored
GitHub workflow schema, kubernetes-validate's Kubernetes schemas, ``bash -n``). Then each recipe's
commands are run the way its engine would run them, with a stand-in ``autograder`` that records
its arguments: every part 1..N is graded once, with one seed, and the merge receives every part.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from autograder import cli

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
WORKFLOWS = [EXAMPLES / "github-actions" / "calificar-clase.yml", REPO / ".github" / "workflows" / "ci.yml"]
K8S = sorted((EXAMPLES / "kubernetes").glob("*.yaml"))
SLURM = EXAMPLES / "slurm"
# Any attempt to reach the network during validation fails at once instead of fetching a schema.
OFFLINE = {"HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}


@pytest.mark.slow  # check-jsonschema in a subprocess: seconds
def test_the_github_workflows_match_githubs_schema_offline():
    proc = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
        env={**os.environ, **OFFLINE},
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow  # check-jsonschema in a subprocess: seconds
def test_a_broken_workflow_is_caught():
    # The validator is not a rubber stamp: a matrix job with no steps and a misspelt key fails.
    broken = Path(__file__).parent / "_broken_workflow.yml"
    try:
        broken.write_text("on: push\njobs:\n  grade:\n    runs-on: ubuntu-latest\n    stepz: []\n")
        proc = subprocess.run(
            [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(broken)],
            capture_output=True,
            text=True,
            env={**os.environ, **OFFLINE},
            timeout=120,
        )
    finally:
        broken.unlink(missing_ok=True)
    assert proc.returncode != 0


@pytest.mark.parametrize("path", K8S, ids=lambda p: p.name)
def test_the_kubernetes_jobs_match_the_kubernetes_schema(path):
    docs = [d for d in yaml.safe_load_all(path.read_text()) if d]
    assert docs
    for doc in docs:
        kubernetes_validate.validate(doc, kubernetes_validate.latest_version(), strict=True)


def test_the_shell_scripts_parse():
    for script in [*SLURM.iterdir(), REPO / ".ci" / "run"]:
        proc = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert proc.returncode == 0, (script, proc.stderr)


def test_the_ci_workflow_runs_the_single_ci_script():
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "ci.yml").read_text())
    runs = [step["run"] for job in workflow["jobs"].values() for step in job["steps"] if "run" in step]
    assert runs == ["bash .ci/run"]


# --- the recipes, run as their engines run them ----------------------------------------------------------


@pytest.fixture
def fake_autograder(tmp_path):
    """A stand-in ``autograder`` on PATH: records argv, makes --out like the real one."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.jsonl"
    script = bin_dir / "autograder"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, pathlib, sys\n"
        "with open(os.environ['FAKE_LOG'], 'a') as f: f.write(json.dumps(sys.argv[1:]) + '\\n')\n"
        "pathlib.Path(sys.argv[sys.argv.index('--out') + 1]).mkdir(parents=True, exist_ok=False)\n"
    )
    script.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_LOG": str(log)}
    return env, log


def check_calls(log: Path, n: int, cwd: Path) -> None:
    """Every part 1..n graded once with one seed into its own folder; one merge of exactly those folders."""
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    parser = cli.build_parser()
    parsed = [parser.parse_args(argv) for argv in calls]  # the recipes' command lines are valid for this CLI
    grades = [a for a in parsed if a.command == "grade"]
    merges = [a for a in parsed if a.command == "merge"]
    assert sorted(str(a.shard) for a in grades) == sorted(f"{i}/{n}" for i in range(1, n + 1))
    assert len({a.seed for a in grades}) == 1 and grades[0].seed is not None
    assert len(merges) == 1
    outs = {(cwd / a.out).resolve() for a in grades}
    assert len(outs) == n
    assert {(cwd / f).resolve() for f in merges[0].folders} == outs
    assert (cwd / merges[0].out).resolve() not in outs


def test_the_slurm_array_grades_every_part_and_merges_after(tmp_path, fake_autograder):
    env, log = fake_autograder
    site = tmp_path / "clase"
    shutil.copytree(SLURM, site / "examples" / "slurm")
    (site / "entregas").mkdir()
    sbatch_file = (SLURM / "calificar.sbatch").read_text()
    first, last = map(int, re.search(r"^#SBATCH --array=(\d+)-(\d+)$", sbatch_file, re.M).groups())
    # A stand-in sbatch: an array script runs once per task, --wrap runs its command; both from the submit dir.
    sbatch = tmp_path / "bin" / "sbatch"
    sbatch.write_text(
        "#!/bin/bash\nset -e\nwrap=''\nscript=''\nfor a in \"$@\"; do case $a in --wrap) wrap=next;; "
        '--*) ;; *) if [ "$wrap" = next ]; then wrap=$a; else script=$a; fi;; esac; done\n'
        f'if [ -n "$script" ]; then for i in $(seq {first} {last}); do SLURM_ARRAY_TASK_ID=$i '
        f'SLURM_ARRAY_TASK_COUNT={last - first + 1} SLURM_CPUS_PER_TASK=2 bash "$script"; done; echo "4242;cluster"; '
        'else bash -c "$wrap"; fi\n'
    )
    sbatch.chmod(0o755)
    proc = subprocess.run(
        ["bash", str(site / "examples" / "slurm" / "enviar.sh")], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    check_calls(log, last - first + 1, site)


def test_the_kubernetes_indexed_job_grades_every_part_and_the_merge_job_joins_them(tmp_path, fake_autograder):
    env, log = fake_autograder
    (grade_job,) = yaml.safe_load_all((EXAMPLES / "kubernetes" / "calificar-job.yaml").read_text())
    (merge_job,) = yaml.safe_load_all((EXAMPLES / "kubernetes" / "juntar-job.yaml").read_text())
    assert grade_job["spec"]["completionMode"] == "Indexed"
    n = grade_job["spec"]["completions"]

    def run_pod(job: dict, extra_env: dict[str, str]) -> None:
        (container,) = job["spec"]["template"]["spec"]["containers"]
        mount = container["volumeMounts"][0]["mountPath"]
        pod_env = {e["name"]: e["value"] for e in container.get("env", [])}
        command = [part.replace(mount, str(tmp_path / "volumen")) for part in container["command"]]
        proc = subprocess.run(command, env={**env, **pod_env, **extra_env}, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr

    for k in range(n):
        run_pod(grade_job, {"JOB_COMPLETION_INDEX": str(k)})
    run_pod(merge_job, {})
    check_calls(log, n, tmp_path)


def _expand(text: str, matrix: dict[str, object]) -> str:
    return re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", lambda m: str(matrix[m[1]]), text)


def test_the_github_matrix_grades_every_part_and_the_merge_job_joins_the_artifacts(tmp_path, fake_autograder):
    env, log = fake_autograder
    workflow = yaml.safe_load(WORKFLOWS[0].read_text())
    wf_env = {k: str(v) for k, v in workflow["env"].items()}
    grade, merge = workflow["jobs"]["grade"], workflow["jobs"]["merge"]
    assert merge["needs"] == "grade"
    shards = grade["strategy"]["matrix"]["shard"]
    assert sorted(shards) == list(range(1, int(wf_env["SHARDS"]) + 1))
    artifacts: dict[str, Path] = {}
    for shard in shards:
        runner = tmp_path / f"runner-{shard}"
        runner.mkdir()
        for step in grade["steps"]:
            if "run" in step and "autograder" in step["run"]:
                subprocess.run(
                    ["bash", "-ec", _expand(step["run"], {"shard": shard})],
                    cwd=runner,
                    env={**env, **wf_env},
                    check=True,
                )
            elif step.get("uses", "").startswith("actions/upload-artifact"):
                name, path = (_expand(step["with"][k], {"shard": shard}) for k in ("name", "path"))
                artifacts[name] = runner / path
    runner = tmp_path / "runner-merge"
    runner.mkdir()
    for step in merge["steps"]:
        if step.get("uses", "").startswith("actions/download-artifact"):
            pattern, into = step["with"]["pattern"], runner / step["with"]["path"]
            # Without merge-multiple, each artifact matching the pattern lands in <path>/<artifact name>.
            for name, src in artifacts.items():
                if re.fullmatch(pattern.replace("*", ".*"), name):
                    shutil.copytree(src, into / name)
        elif "run" in step and "autograder" in step["run"]:
            subprocess.run(["bash", "-ec", step["run"]], cwd=runner, env={**env, **wf_env}, check=True)
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    # The parts ran on different runners: compare folder names, not paths.
    parsed = [cli.build_parser().parse_args(argv) for argv in calls]
    grades = [a for a in parsed if a.command == "grade"]
    (merged,) = [a for a in parsed if a.command == "merge"]
    assert sorted(str(a.shard) for a in grades) == [f"{i}/{len(shards)}" for i in range(1, len(shards) + 1)]
    assert len({a.seed for a in grades}) == 1
    assert sorted(Path(f).name for f in merged.folders) == sorted(a.out.name for a in grades)
