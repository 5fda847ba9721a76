"""No verdict depends on the seed: a corpus of partial solutions, each graded under 50 seeds.

Every scenario draws its cases from the seed, and Gradescope gives every learner a seed of
their own (autograder.classrun.gradescope.learner_seed): a grade that moved with the seed
would move with the learner, or with a resubmission. Each submission below is the lesson's
solution (tests/data/submissions/good.py) with one function replaced by a mistake, or a
spelling a learner might write; each must get the same verdict on every criterion under
every seed, and lose what its mistake costs.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder.course.config import CourseConfig
from autograder.course.levels import LEVELS
from autograder.grading.pipeline import grade_loaded
from autograder.intake.submission import Submission, load_submission
from autograder.wire.results import SubmissionResult

GOOD = (Path(__file__).parent / "data" / "submissions" / "good.py").read_text(encoding="utf-8")
SEEDS = range(50)

_LOADER = """
def my_load_checkpoint(path):
    path = Path(path)
    if not path.exists():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    {rewrite}
    if {refuse}:
        raise ValueError(
            f"Versión de punto de control incompatible: el archivo es v{{raw['version']}}, el código es v1"
        )
    return raw
"""


def loader(rewrite: str = "pass", refuse: str = "raw['version'] != CHECKPOINT_VERSION") -> str:
    return _LOADER.format(rewrite=rewrite, refuse=refuse)


def rewriting(dumps: str) -> str:
    return loader(rewrite=f"path.write_text({dumps}, encoding='utf-8')")


START_IGNORING_RECONCILE = """
def start_state(task, path, reconcile):
    cp = my_load_checkpoint(path)
    if cp:
        if cp["pendingToolUse"]:
            reconcile(cp)
        return cp
    return {"version": 1, "task": task, "turns": 0, "tokensUsed": 0,
            "messages": [{"role": "user", "content": task}], "pendingToolUse": None}
"""

START_RESETTING_TURNS = """
_start = start_state


def start_state(task, path, reconcile):
    state = _start(task, path, reconcile)
    state["turns"] = 0
    return state
"""

RECONCILE_RERUNNING_ALL = """
def reconcile(cp):
    pending = cp["pendingToolUse"]
    output = execute_tool(pending["name"], pending["input"])
    cp["messages"].append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": pending["id"], "content": output}]})
    cp["pendingToolUse"] = None
    return cp
"""

RECONCILE_DELETING = """
def reconcile(cp):
    cp["messages"].pop()
    cp["pendingToolUse"] = None
    return cp
"""

ACTION_ONLY_SEND_EMAIL = """
def resume_action(cp):
    pending = cp["pendingToolUse"]
    if pending is None:
        return "continue"
    return "is_error" if pending["name"] == "send_email" else "rerun"
"""

LOADER_SWALLOWING = """
_load = my_load_checkpoint


def my_load_checkpoint(path):
    try:
        return _load(path)
    except json.JSONDecodeError:
        return None
"""

# name: (what is appended to the lesson's solution, a criterion the mistake must cost)
CORPUS: dict[str, tuple[str, str | None]] = {
    "the lesson's solution": ("", None),
    "rewrites with indent=2": (rewriting("json.dumps(raw, indent=2)"), "nivel0.state_kept"),
    "rewrites compact": (rewriting("json.dumps(raw)"), "nivel0.state_kept"),
    "rewrites as lesson3 saves": (
        rewriting("json.dumps(raw, ensure_ascii=False, indent=2) + '\\n'"),
        "nivel0.dangling_reconciled",
    ),
    "rewrites sorted, indent=4": (rewriting("json.dumps(raw, indent=4, sort_keys=True)"), "nivel0.version_refused"),
    "version > 1": (loader(refuse="raw['version'] > 1"), "nivel0.version_refused"),
    "int(version) != 1": (loader(refuse="int(raw['version']) != CHECKPOINT_VERSION"), "nivel0.version_refused"),
    "version not in (1, '1')": (loader(refuse="raw['version'] not in (1, '1')"), "nivel0.version_refused"),
    "ignores what reconcile returns": (START_IGNORING_RECONCILE, "nivel0.dangling_reconciled"),
    "resets turns": (START_RESETTING_TURNS, "nivel0.max_turns_across_lives"),
    "broken file as no file": (LOADER_SWALLOWING, "nivel0.malformed_error"),
    "re-runs send_email": (RECONCILE_RERUNNING_ALL, "nivel2.no_double_email"),
    "deletes the dangling call": (RECONCILE_DELETING, "nivel2.no_double_email"),
    "only send_email is high impact": (ACTION_ONLY_SEND_EMAIL, "nivel1.hidden"),
}


@pytest.mark.slow
@pytest.mark.warm_up("grading_server")
def test_no_verdict_moves_with_the_seed(tmp_path):
    submissions = []
    for i, (name, (extra, _)) in enumerate(CORPUS.items()):
        path = tmp_path / f"entrega_{i}.py"
        path.write_text(GOOD + "\n" + extra, encoding="utf-8")
        submissions.append((name, load_submission(path)))
    work = [(name, submission, seed) for name, submission in submissions for seed in SEEDS]

    def grade(name: str, submission: Submission, seed: int) -> SubmissionResult:
        # A mistake changes one level's functions; the others are the lesson's, graded in full below.
        costs = CORPUS[name][1]
        levels = LEVELS if costs is None else (0,) if costs.startswith("nivel0.") else (1, 2)
        return grade_loaded(submission, CourseConfig(seed=seed, levels=levels))

    # Every (submission, seed) at once, two at a time: the judges share one grading server.
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda w: grade(*w), work))
    verdicts: dict[str, dict[tuple[tuple[str, bool], ...], list[int]]] = {name: {} for name in CORPUS}
    for (name, _, seed), result in zip(work, results, strict=True):
        assert result.error is None, (name, seed, result.error)
        verdict = tuple((c.id, c.passed) for c in result.criteria)
        verdicts[name].setdefault(verdict, []).append(seed)
    moved = {name: {sum(p for _, p in v): seeds[:5] for v, seeds in found.items()} for name, found in verdicts.items()}
    assert all(len(found) == 1 for found in verdicts.values()), {n: m for n, m in moved.items() if len(m) > 1}
    for name, (_, costs) in CORPUS.items():
        (verdict,) = verdicts[name]
        failed = {criterion for criterion, passed in verdict if not passed}
        assert failed == set() if costs is None else costs in failed, (name, failed)
