"""Nivel 0, the resume path: what each criterion observes and how it judges, on stand-in learners.

The stand-ins run in this process through :class:`ResumeCaller`, which speaks the same
wire as the sandbox (JSON in and out, several arguments packed, the judge's stand-in
reconcile rebuilt on the learner's side, the learner's folder as working directory).
The real sandbox is exercised at the end on files in tests/data/submissions/.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_autograder_checks import OneByOne

from autograder.course.config import CourseConfig
from autograder.course.criteria import CRITERIA
from autograder.grading.pipeline import grade_submission
from autograder.judging import scenarios
from autograder.judging.observe import Run
from autograder.judging.process import evaluate_criteria
from autograder.sandbox.learner_process import Failure
from autograder.sandbox.session import Outcome
from autograder.wire.calls import pack, stand_in_reconcile, unpack
from lesson3.checkpoint import CHECKPOINT_VERSION
from lesson3.checkpoint import version_message as lesson_version_message

DATA = Path(__file__).parent / "data" / "submissions"
LEVEL0 = [c for c in CRITERIA if c.startswith("nivel0.")]


@contextlib.contextmanager
def inside(folder: Path) -> Iterator[None]:
    previous = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


class ResumeCaller(OneByOne):
    """Calls trusted stand-ins in-process, in the learner's folder, through JSON like the sandbox."""

    def __init__(self, box: Path, **functions: Callable[..., Any]) -> None:
        self.box = box
        self.functions = functions

    def budget(self, seconds: float | None = None) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def call(self, fn: str, arg: Any, *, on_tool: Any = None, poison: Any = None) -> Outcome:
        function = self.functions.get(fn)
        if function is None:
            return Outcome("missing", fn=fn)
        args = unpack(json.loads(json.dumps(arg)))
        try:
            with inside(self.box):
                value = function(*args)
        except NotImplementedError:
            return Outcome("not_implemented", fn=fn)
        except BaseException as e:  # noqa: BLE001 - as the sandbox: the judge gets type and message
            return Outcome("error", info={"etype": type(e).__name__, "message": str(e)}, fn=fn)
        return Outcome("ok", value=json.loads(json.dumps(value)), fn=fn)


def grade(tmp_path: Path, seed: int = 3, **functions: Callable[..., Any]) -> dict[str, Any]:
    box = tmp_path / "learner"
    box.mkdir()
    scratch = tmp_path / "grader"
    scratch.mkdir()
    grading = evaluate_criteria(
        ResumeCaller(box, **functions), CourseConfig(seed=seed, levels=(0,)), scratch=scratch, box=box
    )
    return {c.id: c for c in grading.criteria}


# -- the stand-in learners --------------------------------------------------------------------------


def version_error(version: Any) -> ValueError:
    return ValueError(
        f"Versión de punto de control incompatible: el archivo es v{version}, el código es v{CHECKPOINT_VERSION}"
    )


def load(path):
    """The lesson's loadCheckpoint."""
    path = Path(path)
    if not path.exists():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    if raw["version"] != CHECKPOINT_VERSION:
        raise version_error(raw["version"])
    return raw


def fresh(task):
    return {
        "version": CHECKPOINT_VERSION,
        "task": task,
        "turns": 0,
        "tokensUsed": 0,
        "messages": [{"role": "user", "content": task}],
        "pendingToolUse": None,
    }


def start_with(loader: Callable[[str], Any]) -> Callable[..., Any]:
    def start(task, path, reconcile):
        cp = loader(path)
        if cp:
            return reconcile(cp) if cp["pendingToolUse"] else cp
        return fresh(task)

    return start


start = start_with(load)


def load_no_version_check(path):
    path = Path(path)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def load_other_message(path):
    raw = load_no_version_check(path)
    if raw is not None and raw["version"] != CHECKPOINT_VERSION:
        raise ValueError(f"version mismatch: {raw['version']}")
    return raw


def load_migrating(path):
    """Rewrites a newer file as v1: the file is not the one that was there any more."""
    raw = load_no_version_check(path)
    if raw is not None and raw["version"] != CHECKPOINT_VERSION:
        raw["version"] = CHECKPOINT_VERSION
        Path(path).write_text(json.dumps(raw), encoding="utf-8")
    return raw


def load_deleting_bad_files(path):
    try:
        return load(path)
    except Exception:
        Path(path).unlink()
        raise


def load_swallowing(path):
    """A broken file looks like no file: the run would start from scratch and overwrite it."""
    try:
        return load(path)
    except json.JSONDecodeError:
        return None


def load_exiting(path):
    try:
        return load(path)
    except json.JSONDecodeError:
        sys.exit("punto de control roto")


def load_raising_when_missing(path):
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if raw["version"] != CHECKPOINT_VERSION:
        raise version_error(raw["version"])
    return raw


def start_fresh_on_any_error(task, path, reconcile):
    try:
        return start(task, path, reconcile)
    except Exception:  # noqa: BLE001 - the mistake under test
        return fresh(task)


def start_resetting_turns(task, path, reconcile):
    state = start(task, path, reconcile)
    state["turns"] = 0
    return state


def start_counting_the_resume_as_a_turn(task, path, reconcile):
    state = start(task, path, reconcile)
    if Path(path).exists():
        state["turns"] += 1  # off by one: the loop already counts each call to the model
    return state


def start_zeroing_tokens(task, path, reconcile):
    state = start(task, path, reconcile)
    state["tokensUsed"] = 0
    return state


def start_with_given_task(task, path, reconcile):
    state = start(task, path, reconcile)
    state["task"] = task
    return state


def start_always_reconciling(task, path, reconcile):
    cp = load(path)
    return reconcile(cp) if cp else fresh(task)


def start_never_reconciling(task, path, reconcile):
    return load(path) or fresh(task)


def start_reconciling_twice(task, path, reconcile):
    cp = load(path)
    if cp and cp["pendingToolUse"]:
        return reconcile(reconcile(cp))
    return cp or fresh(task)


def start_deleting_the_dangling_call(task, path, reconcile):
    cp = load(path)
    if cp and cp["pendingToolUse"]:
        cp["messages"].pop()
        cp["pendingToolUse"] = None
        return cp
    return cp or fresh(task)


def start_fresh_with_one_turn(task, path, reconcile):
    cp = load(path)
    if cp:
        return reconcile(cp) if cp["pendingToolUse"] else cp
    return fresh(task) | {"turns": 1}


def start_fresh_without_messages(task, path, reconcile):
    cp = load(path)
    if cp:
        return reconcile(cp) if cp["pendingToolUse"] else cp
    return fresh(task) | {"messages": []}


def start_ignoring_reconcile(task, path, reconcile):
    """Calls reconcile and carries on with cp: right only with a reconcile that changes its argument."""
    cp = load(path)
    if cp and cp["pendingToolUse"]:
        reconcile(cp)
        return cp
    return cp or fresh(task)


def start_merging_into_cp(task, path, reconcile):
    """Keeps cp and copies only the new messages in: pendingToolUse stays set."""
    cp = load(path)
    if cp and cp["pendingToolUse"]:
        cp["messages"] = reconcile(cp)["messages"]
        return cp
    return cp or fresh(task)


def _load_refusing(refuse: Callable[[Any], bool]) -> Callable[[str], Any]:
    def loader(path):
        raw = load_no_version_check(path)
        if raw is not None and refuse(raw["version"]):
            raise version_error(raw["version"])
        return raw

    return loader


load_above_only = _load_refusing(lambda v: v > 1 if isinstance(v, int | float) else False)
load_numbers_only = _load_refusing(lambda v: v < 1 or v > 1)
load_coercing = _load_refusing(lambda v: int(v) != CHECKPOINT_VERSION)
load_only_v2 = _load_refusing(lambda v: v == 2)


def load_repr_message(path):
    raw = load_no_version_check(path)
    if raw is not None and raw["version"] != CHECKPOINT_VERSION:
        raise ValueError(
            f"Versión de punto de control incompatible: el archivo es v{raw['version']!r}, el código es v1"
        )
    return raw


def turns_from_messages(task, path, reconcile):
    """Counts turns as the assistant messages kept: right on the lesson's files, so it passes."""
    state = start(task, path, reconcile)
    state["turns"] = max(state["turns"], sum(1 for m in state["messages"] if m["role"] == "assistant"))
    return state


# -- the reference passes every criterion, on several seeds -------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lessons_resume_path_passes_every_criterion(tmp_path, seed):
    results = grade(tmp_path, seed, my_load_checkpoint=load, start_state=start)
    assert sorted(results) == sorted(LEVEL0)
    assert all(c.passed for c in results.values()), {c.id: c.feedback for c in results.values() if not c.passed}


# -- each criterion fails for each reason -------------------------------------------------------------

NOT_RECONCILED = "no trae la respuesta de reconcile"

CASES = [
    # (criterion, why, my_load_checkpoint, start_state, words the feedback must say)
    (
        "nivel0.version_refused",
        "no version check",
        load_no_version_check,
        start_with(load_no_version_check),
        "en vez de lanzar el error de versión",
    ),
    (
        "nivel0.version_refused",
        "another message",
        load_other_message,
        start_with(load_other_message),
        "el mensaje tiene que ser «Versión de punto de control incompatible",
    ),
    ("nivel0.version_refused", "rewrites the file", load_migrating, start_with(load_migrating), "cambió"),
    (
        "nivel0.version_refused",
        "deletes the file",
        load_deleting_bad_files,
        start_with(load_deleting_bad_files),
        "ya no está",
    ),
    ("nivel0.version_refused", "starts fresh instead", load, start_fresh_on_any_error, "pisaría el punto de control"),
    (
        "nivel0.fresh_start",
        "raises when missing",
        load_raising_when_missing,
        start_with(load_raising_when_missing),
        "FileNotFoundError",
    ),
    ("nivel0.fresh_start", "turns 1", load, start_fresh_with_one_turn, "turns es 1"),
    ("nivel0.fresh_start", "no messages", load, start_fresh_without_messages, "messages no es el mismo"),
    (
        "nivel0.malformed_error",
        "broken file as no file",
        load_swallowing,
        start_with(load_swallowing),
        "un archivo roto no es un archivo que no existe",
    ),
    ("nivel0.malformed_error", "sys.exit", load_exiting, start_with(load_exiting), "llamó a sys.exit()"),
    ("nivel0.malformed_error", "starts fresh instead", load, start_fresh_on_any_error, "en vez de lanzar un error"),
    ("nivel0.state_kept", "turns reset", load, start_resetting_turns, "turns es 0"),
    ("nivel0.state_kept", "tokensUsed recomputed", load, start_zeroing_tokens, "tokensUsed es 0"),
    ("nivel0.state_kept", "the argument's task", load, start_with_given_task, "task es"),
    ("nivel0.state_kept", "reconciles nothing", load, start_always_reconciling, "sin ninguna llamada colgante"),
    ("nivel0.dangling_reconciled", "never reconciles", load, start_never_reconciling, NOT_RECONCILED),
    ("nivel0.dangling_reconciled", "reconciles twice", load, start_reconciling_twice, "pasó 2 veces"),
    ("nivel0.dangling_reconciled", "deletes the call", load, start_deleting_the_dangling_call, NOT_RECONCILED),
    ("nivel0.dangling_reconciled", "ignores what reconcile returns", load, start_ignoring_reconcile, NOT_RECONCILED),
    (
        "nivel0.dangling_reconciled",
        "keeps cp, copies reconcile's answer in",
        load,
        start_merging_into_cp,
        "el estado no es el que devolvió reconcile",
    ),
    ("nivel0.version_refused", "version > 1", load_above_only, start_with(load_above_only), "en vez de lanzar"),
    ("nivel0.version_refused", "version < 1 or > 1", load_numbers_only, start_with(load_numbers_only), "TypeError"),
    ("nivel0.version_refused", "int(version)", load_coercing, start_with(load_coercing), "en vez de lanzar"),
    ("nivel0.version_refused", "version == 2", load_only_v2, start_with(load_only_v2), "en vez de lanzar"),
    ("nivel0.version_refused", "repr in the message", load_repr_message, start_with(load_repr_message), 'con «v"1"»'),
    ("nivel0.max_turns_across_lives", "turns reset", load, start_resetting_turns, "turns = 0"),
    ("nivel0.max_turns_across_lives", "turns reset", load, start_resetting_turns, "con MAX_TURNS ="),
    ("nivel0.max_turns_across_lives", "turns reset", load, start_resetting_turns, "si vuelve a 0"),
    # Off by one at resume: the numbers are said, and the explanation is about adding, not about resetting.
    ("nivel0.max_turns_across_lives", "+1 at resume", load, start_counting_the_resume_as_a_turn, "sin sumarle"),
]


@pytest.mark.parametrize(
    ("criterion", "loader", "starter", "said"),
    [pytest.param(c, lo, st, said, id=f"{c}: {why}") for c, why, lo, st, said in CASES],
)
def test_each_mistake_fails_its_criterion_and_says_why(tmp_path, criterion, loader, starter, said):
    results = grade(tmp_path, my_load_checkpoint=loader, start_state=starter)
    assert not results[criterion].passed and results[criterion].score == 0
    assert said in results[criterion].feedback, results[criterion].feedback


def test_turns_counted_from_the_messages_kept_is_not_a_mistake(tmp_path):
    results = grade(tmp_path, my_load_checkpoint=load, start_state=turns_from_messages)
    assert results["nivel0.max_turns_across_lives"].passed, results["nivel0.max_turns_across_lives"].feedback


class Hang(Exception):
    """What a stand-in raises to play a call that runs past its limit."""


class LimitedCaller(ResumeCaller):
    """Like the session: a call past its limit is a ``failure``, and that function is not called again."""

    def __init__(self, box: Path, **functions: Callable[..., Any]) -> None:
        super().__init__(box, **functions)
        self.poisoned: dict[str, Outcome] = {}

    def call(self, fn: str, arg: Any, *, on_tool: Any = None, poison: Any = None) -> Outcome:
        if fn in self.poisoned:
            reason = self.poisoned[fn].describe("es")
            return Outcome("failure", failure=Failure("poisoned", reason), info={"message": reason}, fn=fn)
        outcome = super().call(fn, arg, on_tool=on_tool)
        if outcome.status == "error" and outcome.info["etype"] == "Hang":
            outcome = Outcome("failure", failure=Failure("call_timeout", limit=1.0), fn=fn)
            self.poisoned[fn] = outcome
        return outcome


def load_hanging_on_broken_files(path):
    try:
        return load(path)
    except json.JSONDecodeError:
        raise Hang from None


def test_a_function_stopped_by_a_limit_fails_the_same_criteria_whatever_the_order(tmp_path):
    # The files come in a shuffled order; which ones a stopped function still got must not count.
    verdicts = set()
    for seed in range(8):
        box, scratch = tmp_path / f"a{seed}", tmp_path / f"c{seed}"
        box.mkdir()
        scratch.mkdir()
        caller = LimitedCaller(
            box, my_load_checkpoint=load_hanging_on_broken_files, start_state=start_with(load_hanging_on_broken_files)
        )
        grading = evaluate_criteria(caller, CourseConfig(seed=seed, levels=(0,)), scratch=scratch, box=box)
        verdicts.add(tuple((c.id, c.passed, c.feedback) for c in grading.criteria))
    (only,) = verdicts
    assert [passed for _, passed, _ in only] == [False] * len(LEVEL0)
    assert all("no terminó en 1 s" in feedback for _, _, feedback in only), only


def test_missing_functions_and_stubs_pass_nothing(tmp_path):
    def stub(*args):
        raise NotImplementedError

    (tmp_path / "none").mkdir()
    results = grade(tmp_path / "none")
    assert not any(c.passed for c in results.values())
    assert "my_load_checkpoint" in results["nivel0.version_refused"].feedback
    (tmp_path / "stub").mkdir()
    results = grade(tmp_path / "stub", my_load_checkpoint=stub, start_state=stub)
    assert not any(c.passed for c in results.values())


# -- the files: in the learner's folder, random per seed, never changed by a refusal -------------------


def _files(seed: int, box: Path) -> list[scenarios.ResumeFile]:
    box.mkdir(parents=True, exist_ok=True)
    folders = scenarios.resume_folders(scenarios.rng_for(seed, "nivel0.folders"))
    return scenarios.resume_files(scenarios.rng_for(seed, "nivel0.files"), box, folders)


def _lives(seed: int, tmp_path: Path) -> scenarios.LivesCase:
    folders = scenarios.resume_folders(scenarios.rng_for(seed, "nivel0.folders"))
    rng = scenarios.rng_for(seed, "nivel0.max_turns_across_lives")
    return scenarios.lives_case(rng, tmp_path / f"v{seed}", tmp_path / f"w{seed}", folders)


def test_hidden_variants_differ_per_seed_and_repeat_with_the_same_seed(tmp_path):
    def shape(files: list[scenarios.ResumeFile]) -> list[tuple[Any, ...]]:
        return [(f.relpath, f.content, f.task, f.nonce, f.version) for f in files]

    one, again, other = (_files(s, tmp_path / name) for s, name in ((1, "a"), (1, "b"), (2, "c")))
    assert shape(one) == shape(again)
    assert all(a != b for a, b in zip(shape(one), shape(other), strict=True))
    assert [f.kind for f in one] != [f.kind for f in other]  # the order is drawn too
    assert {f.version for f in one if f.kind == "newer"} != {f.version for f in other if f.kind == "newer"}
    lives = [_lives(s, tmp_path) for s in (1, 2, 3)]
    assert len({(c.max_turns, tuple(c.kill_turns), c.task, c.relpath) for c in lives}) == 3


class Watching(ResumeCaller):
    """Notes what the learner's code could see at each call: the argument, and its folder's listing with sizes."""

    def __init__(self, box: Path, **functions: Callable[..., Any]) -> None:
        super().__init__(box, **functions)
        self.seen: list[tuple[str, Any, tuple[tuple[str, int], ...]]] = []

    def call(self, fn: str, arg: Any, *, on_tool: Any = None, poison: Any = None) -> Outcome:
        listing = tuple(sorted((str(p.relative_to(self.box)), p.stat().st_size) for p in self.box.rglob("*")))
        self.seen.append((fn, unpack(arg)[:2] if fn == "start_state" else arg, listing))
        return super().call(fn, arg, on_tool=on_tool)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_call_sees_the_same_folder_and_a_path_like_every_others(tmp_path, seed):
    box, scratch = tmp_path / "learner", tmp_path / "grader"
    box.mkdir()
    scratch.mkdir()
    caller = Watching(box, my_load_checkpoint=load, start_state=start)
    run = Run(caller, seed, scratch, box=box)
    observations = run.observed("resume.files")
    calls = caller.seen
    assert len(calls) == 2 * len(observations)
    assert len({listing for _, _, listing in calls}) == 1  # nothing appears, goes or changes size between calls
    # Each file gets my_load_checkpoint, then start_state, on the same path: the same for every case.
    for obs, (load_call, start_call) in zip(observations, zip(calls[::2], calls[1::2], strict=True), strict=True):
        assert load_call[:2] == ("my_load_checkpoint", obs.case.relpath)
        assert start_call[:2] == ("start_state", (obs.case.task, obs.case.relpath))


def test_every_file_is_inside_the_learners_folder(tmp_path):
    box = tmp_path / "learner"
    for f in _files(5, box):
        assert not Path(f.relpath).is_absolute() and ".." not in Path(f.relpath).parts
        assert f.path == box / f.relpath
        assert f.path.is_file() == (f.content is not None)


def test_a_refused_newer_file_is_byte_identical_afterwards(tmp_path):
    box = tmp_path / "learner"
    box.mkdir()
    files = [f for f in _files(9, box) if f.kind == "newer"]
    before = {f.path: f.path.read_bytes() for f in files}
    caller = ResumeCaller(box, my_load_checkpoint=load, start_state=start)
    for f in files:
        outcome = caller.call("my_load_checkpoint", f.relpath)
        assert outcome.status == "error" and outcome.info["message"] == lesson_version_message(f.version)
        outcome = caller.call("start_state", pack(f.task, f.relpath, stand_in_reconcile(f.nonce)))
        assert outcome.status == "error" and outcome.info["message"] == lesson_version_message(f.version)
        assert f.path.read_bytes() == before[f.path] == f.content


@pytest.mark.parametrize(
    ("version", "shown"), [(2, "v2"), (0, "v0"), (-7, "v-7"), (1.3, "v1.3"), ("1", "v1"), ("12", "v12")]
)
def test_the_version_message_is_the_lessons_word_for_word(version, shown):
    # As the lesson's JavaScript template writes it: ${raw.version} shows a text without quotes.
    assert lesson_version_message(version) == (
        f"Versión de punto de control incompatible: el archivo es {shown}, el código es v1"
    )


# -- the real sandbox ---------------------------------------------------------------------------------


@pytest.mark.warm_up("grading_server")
@pytest.mark.parametrize(
    ("name", "failing"),
    [
        ("good.py", set()),
        ("resume_turns_reset.py", {"nivel0.state_kept", "nivel0.dangling_reconciled", "nivel0.max_turns_across_lives"}),
        ("resume_swallows_errors.py", {"nivel0.version_refused", "nivel0.malformed_error"}),
        ("resume_delegating.py", set(LEVEL0)),
    ],
)
def test_submissions_in_the_sandbox(name, failing):
    result = grade_submission(DATA / name, CourseConfig(seed=11, levels=(0,)))
    assert result.error is None, result.error
    failed = {c.id for c in result.criteria if not c.passed}
    assert failed == failing, {c.id: c.feedback for c in result.criteria if not c.passed}
    if name == "resume_delegating.py":
        assert all("lesson3.load_checkpoint" in c.feedback for c in result.criteria)


def test_feedback_exists_in_both_languages_and_english_is_english(tmp_path):
    from autograder.course import catalogue

    keys = [k for k in catalogue.keys() if k.startswith("resume_path.")]
    assert keys and all(catalogue.text(k, "en") != catalogue.text(k, "es") for k in keys)  # no Spanish fallback
    box = tmp_path / "learner"
    box.mkdir()
    (tmp_path / "grader").mkdir()
    caller = ResumeCaller(box, my_load_checkpoint=load_swallowing, start_state=start_with(load_swallowing))
    grading = evaluate_criteria(
        caller, CourseConfig(seed=4, lang="en", levels=(0,)), scratch=tmp_path / "grader", box=box
    )
    feedback = {c.id: c.feedback for c in grading.criteria}
    assert "instead of raising" in feedback["nivel0.malformed_error"]
    assert "Falló" not in " ".join(feedback.values())


# -- the judge writes and reads in the learner's folder without following its links ---------------------


def test_a_planted_symlink_is_replaced_not_written_through(tmp_path):
    from autograder.judging.learner_files import place, read_back

    box, outside = tmp_path / "learner", tmp_path / "fuera"
    box.mkdir()
    outside.mkdir()
    (outside / "checkpoint.json").write_text("del corrector")
    (box / "plan-123").symlink_to(outside)  # a whole folder swapped for a link
    place(box, "plan-123/checkpoint.json", b"{}")
    assert (outside / "checkpoint.json").read_text() == "del corrector"
    assert not (box / "plan-123").is_symlink() and (box / "plan-123" / "checkpoint.json").read_bytes() == b"{}"

    (box / "nuevo-5").mkdir()
    (box / "nuevo-5" / "estado.json").symlink_to(outside / "checkpoint.json")  # the file itself a link
    place(box, "nuevo-5/estado.json", b"[]")
    assert (outside / "checkpoint.json").read_text() == "del corrector"
    assert read_back(box, "nuevo-5/estado.json", 10) == b"[]"


def test_reading_back_refuses_links_fifos_and_huge_files_without_blocking(tmp_path):
    from autograder.judging.learner_files import NOT_A_FILE, read_back

    box = tmp_path / "learner"
    (box / "c").mkdir(parents=True)
    (box / "c" / "link.json").symlink_to("/dev/zero")
    os.mkfifo(box / "c" / "fifo.json")
    (box / "c" / "big.json").write_bytes(b"x" * 100)
    (box / "d").symlink_to(box / "c")
    assert read_back(box, "c/link.json", 10) == NOT_A_FILE
    assert read_back(box, "c/fifo.json", 10) == NOT_A_FILE
    assert read_back(box, "c/big.json", 10) == NOT_A_FILE
    assert read_back(box, "d/big.json", 1000) is None  # a linked folder is not followed
    assert read_back(box, "c/missing.json", 10) is None
    with pytest.raises(ValueError):
        read_back(box, "../fuera.json", 10)


def test_a_learner_that_swaps_its_file_for_a_link_fails_the_byte_identical_check(tmp_path):
    def load_and_swap(path):
        path = Path(path)
        path.unlink()
        path.symlink_to("/etc/hostname")
        raise version_error(2)

    results = grade(tmp_path, my_load_checkpoint=load_and_swap, start_state=start)
    assert not results["nivel0.version_refused"].passed
    assert "cambió" in results["nivel0.version_refused"].feedback


@pytest.mark.parametrize(
    ("kind", "es", "en"),
    [
        (
            "malformed",
            [
                "JSON truncado (una escritura cortada)",
                "archivo vacío",
                "texto que no es JSON",
                "JSON que no es un objeto",
            ],
            ["truncated JSON (a cut-off write)", "empty file", "text that is not JSON", "JSON that is not an object"],
        ),
        ("missing", ["sin archivo"], ["no file"]),
    ],
)
def test_the_files_feedback_names_are_said_in_the_reports_language(tmp_path, kind, es, en):
    from autograder.judging.observe import LOAD, START, ResumeObservation
    from autograder.judging.verdicts_level0 import fresh_start_verdict, malformed_verdict

    files = [f for f in _files(5, tmp_path) if f.kind == kind]
    # Every call answers with a number: wrong for a broken file and for a missing one, so each file is named.
    observations = [
        ResumeObservation(f, {fn: Outcome("ok", value=7) for fn in (LOAD, START)}, f.content) for f in files
    ]
    for obs in observations:
        for fn, outcome in obs.outcomes.items():
            outcome.fn = fn
    judge = malformed_verdict if kind == "malformed" else fresh_start_verdict
    spanish, english = judge(observations, "es").feedback, judge(observations, "en").feedback
    # The feedback lists the first few cases: the same ones in both languages, each in its own.
    named = [(label in spanish, label_en in english) for label, label_en in zip(es, en, strict=True)]
    assert all(a == b for a, b in named) and any(a for a, _ in named), (spanish, english)
    assert not [label for label in es if label in english], english


@pytest.mark.parametrize(
    ("message", "version", "ok"),
    [
        ("Versión de punto de control incompatible: el archivo es v2, el código es v1", 2, True),
        ("ValueError: Versión de punto de control incompatible: el archivo es v7, el código es v1.", 7, True),
        ("checkpoint v2 no es v1", 2, False),  # names both versions, but is not the lesson's text
        ("Versión incompatible: v2 (se esperaba v1)", 2, False),
        ("Versión de punto de control incompatible: el archivo es v3, el código es v1", 2, False),
    ],
)
def test_one_rule_for_the_refusal_text_in_the_grader_and_notebook_1(message, version, ok):
    from lesson3.checkpoint import says_version_refused

    assert says_version_refused(message, version) is ok
    source = (Path(__file__).resolve().parents[1] / "notebooks/src/01_reanudar_no_reiniciar.md").read_text()
    assert "says_version_refused(str(e), 2)" in source and '"v2" in str(e)' not in source


def test_an_off_by_one_at_resume_is_not_explained_as_a_reset(tmp_path):
    results = grade(tmp_path, my_load_checkpoint=load, start_state=start_counting_the_resume_as_a_turn)
    said = results["nivel0.max_turns_across_lives"].feedback
    assert not results["nivel0.max_turns_across_lives"].passed and "si vuelve a 0" not in said, said
