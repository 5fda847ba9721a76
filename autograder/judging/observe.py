"""Observe: run the learner's functions on the scenarios and record what happened, from outside.

Each observer takes the :class:`Run` of one submission and returns an observation:
the learner's function called through a :class:`~autograder.sandbox.session.Caller` on
scenarios from :mod:`autograder.judging.scenarios`, with the returned data, every tool the
judge executed for it and whether the workspace changed. Each is registered
(:func:`~autograder.judging.registry.observer`) under the name a
:class:`~autograder.course.criteria.Criterion` gives in ``observes``; each runs at most once per
submission, however many criteria judge its observation. Its scenarios are drawn from the stream
of the criterion that observes it (:meth:`Run.draws`), never from a criterion id spelled here.
Nothing printed or patched inside the learner's process counts.
"""

from __future__ import annotations

import copy
import itertools
import os
import random
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anthropic

from autograder.course.catalogue import text
from autograder.course.questions import QUESTIONS
from autograder.judging import scenarios
from autograder.judging.crashes import crash_once
from autograder.judging.learner_files import place, read_back
from autograder.judging.registry import OBSERVERS, Observer, drawn_for, observer
from autograder.judging.scenarios import ActionCase, IncidentCase, LivesCase, ReconcileCase, ResumeFile
from autograder.judging.tool_layer import ToolCall, ToolLayer
from autograder.sandbox.session import Caller, Outcome
from autograder.wire.calls import ACTION, LOAD, RECONCILE, START, pack, stand_in_reconcile
from lesson3.agent import MAX_TURNS, Hook, run_agent
from lesson3.checkpoint import CheckpointError, load_checkpoint, save_checkpoint, validate_checkpoint
from lesson3.conversation import blocks, describe_run_error, leading_tool_results
from lesson3.crash import CrashPointMissed, at_point, crash_in_fork
from lesson3.exercises import EXERCISE_NAMES, exercise_checkpoint
from lesson3.model import ScriptedModel, offline_client
from lesson3.tools import outbox_count


@dataclass
class Run:
    """One submission's grading: what observers need, and what they noticed on the way."""

    caller: Caller
    seed: int
    scratch: Path
    lang: str = "es"
    answers: dict[str, Any] | None = None
    box: Path | None = None
    """The learner's own folder (its working directory): the files its code reads go there."""
    flags: dict[str, str] = field(default_factory=dict)
    """One instructor flag per kind (the first one seen)."""
    delegated: dict[str, str] = field(default_factory=dict)
    """Function -> the lesson3 reference object a call of it tripped at run time."""
    prebuilt: dict[str, Any] = field(default_factory=dict)
    """Cases drawn before the learner's process was ready (:func:`prebuild`), by observation."""
    _seen: dict[str, Any] = field(default_factory=dict)

    def observed(self, name: str) -> Any:
        if name not in self._seen:
            self._seen[name] = OBSERVERS[name](self)
        return self._seen[name]

    def observe_all(self, names: list[str]) -> list[Any]:
        """Each named observation, in order (one that several criteria judge is still observed once)."""
        return [self.observed(name) for name in names]

    def note(self, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            if outcome.delegated:
                self.delegated.setdefault(outcome.fn, outcome.delegated[0])

    def cases(self, observation: str) -> Any:
        """``observation``'s cases in the judge's own folders: prebuilt, or drawn now (the same either way)."""
        if observation not in self.prebuilt:
            return CASES[observation](self)
        cases = self.prebuilt.pop(observation)
        if isinstance(cases, BaseException):  # drawing them ahead failed: as it would have here
            raise cases
        return cases

    def rng(self, stream: str) -> Any:
        return scenarios.rng_for(self.seed, stream)

    def draws(self, observation: str) -> Any:
        """The stream of ``observation``'s scenarios, named by the criterion that observes it."""
        return self.rng(drawn_for(observation))

    def learner_folder(self) -> Path:
        if self.box is None:
            self.box = self.scratch / "learner"
            self.box.mkdir(parents=True, exist_ok=True)
        return self.box


# -- Nivel 0: the resume path (my_load_checkpoint, start_state) ------------------------------------


@dataclass
class ResumeObservation:
    """The learner's calls on one file of its folder, and the file's bytes afterwards."""

    case: ResumeFile
    outcomes: dict[str, Outcome]
    after: bytes | None  # None: there is no file (any more)


def start_args(task: str, relpath: str, nonce: str) -> dict[str, Any]:
    """``start_state(task, path, reconcile)`` with the judge's stand-in reconcile."""
    return pack(task, relpath, stand_in_reconcile(nonce))


def _stopped(outcome: Outcome) -> bool:
    """The call that hit a limit (not the later ones, refused because of it)."""
    return outcome.status == "failure" and (outcome.failure is None or outcome.failure.kind != "poisoned")


def observe_resume(caller: Caller, cases: list[ResumeFile]) -> list[ResumeObservation]:
    """Both functions on every file, in the cases' order; the files are read back once every call is done.

    Reading back at the end catches a call that changes any file, its own or another case's.
    A function stopped by a limit (``failure``) is not called again, so which files it still got
    would depend on the shuffled order: its failure stands for it on every file instead, the
    same whatever the seed.
    """
    batch = [
        call
        for case in cases
        for call in ((LOAD, case.relpath), (START, start_args(case.task, case.relpath, case.nonce)))
    ]
    # One budget per file: its two calls (the per-call limit is the one that binds).
    replies = caller.calls(batch, groups=[i // 2 for i in range(len(batch))])
    outcomes = [{LOAD: replies[i], START: replies[i + 1]} for i in range(0, len(replies), 2)]
    stopped: dict[str, Outcome] = {}
    for calls in outcomes:
        for fn, outcome in calls.items():
            if _stopped(outcome):
                stopped.setdefault(fn, outcome)
    return [
        ResumeObservation(
            case,
            {fn: stopped.get(fn, outcome) for fn, outcome in calls.items()},
            read_back(case.box, case.relpath, max_bytes=len(case.content or b"") + 1),
        )
        for case, calls in zip(cases, outcomes, strict=True)
    ]


@observer("resume.files")
def _resume_files(run: Run) -> list[ResumeObservation]:
    # One stream for every Nivel 0 file, and one for the folders the killed task's file shares with them.
    box = run.learner_folder()
    folders = scenarios.resume_folders(run.rng(scenarios.LEVEL0_FOLDERS))
    files = scenarios.resume_files(run.rng(scenarios.LEVEL0_FILES), box, folders)
    observations = observe_resume(run.caller, files)
    run.note([o for obs in observations for o in obs.outcomes.values()])
    return observations


def _resume_kind(kind: str, fns: tuple[str, ...]) -> Observer:
    """One criterion's files out of the shared set, with the calls that criterion judges."""

    def observe(run: Run) -> list[ResumeObservation]:
        return [
            ResumeObservation(obs.case, {fn: obs.outcomes[fn] for fn in fns}, obs.after)
            for obs in run.observed("resume.files")
            if obs.case.kind == kind
        ]

    return observe


observer("resume.newer")(_resume_kind("newer", (LOAD, START)))
observer("resume.missing")(_resume_kind("missing", (LOAD, START)))
observer("resume.malformed")(_resume_kind("malformed", (LOAD, START)))
observer("resume.saved")(_resume_kind("saved", (LOAD, START)))
# What my_load_checkpoint makes of a dangling file is not judged (start_state's result is); it is
# still called on it, as on every file, so that the calls say nothing about the case.
observer("resume.dangling")(_resume_kind("dangling", (START,)))


@dataclass
class Life:
    """One resume: the turns the file had, and what the learner's start_state made of it."""

    file_turns: int
    outcome: Outcome


@dataclass
class LivesObservation:
    case: LivesCase
    lives: list[Life]
    killed: list[str]  # how each killed life ended ("SIGKILL"), or why it was not killed there
    final: dict[str, Any] | None  # the checkpoint after the last life
    error: str | None = None  # what start_state returned could not drive the loop

    @property
    def model_calls(self) -> int:
        """Model calls over every life: each left its assistant message in the file (kills come before a call)."""
        messages = (self.final or {}).get("messages") or []
        return sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")


def _lives_run(case: LivesCase) -> Callable[[Hook | None], dict[str, Any]]:
    """One life of the case's task: lesson3's loop on the judge's checkpoint, with the case's MAX_TURNS."""

    def run(hook: Hook | None = None) -> dict[str, Any]:
        return run_agent(
            case.task,
            client=offline_client(seed=case.model_seed),
            checkpoint_path=case.path,
            workspace=case.workspace,
            max_turns=case.max_turns,
            hook=hook,
            durable=False,  # SIGKILL never loses the page cache; fsync would only cost time
        )

    return run


def _kill_before(case: LivesCase, turn: int) -> str:
    """A life run in a forked child, SIGKILLed before its model call of ``turn``: how it ended, or why not."""

    def at_turn(point: str, state: dict[str, Any]) -> bool:
        return point == "before_call" and state["turns"] + 1 == turn

    try:
        return _ended(crash_in_fork(at_turn, _lives_run(case)))
    except CrashPointMissed as e:
        return str(e)


def _life_killed(case: LivesCase, turn: int) -> str:
    """A life killed before ``turn``, from the checkpoint and workspace as they are.

    The first life is the same for every submission of a seed; a later one starts from what the learner's
    start_state returned. Each is a pure function of the files it starts from: a life starting from the very
    files a kill already started from (the zygote kills each life once from the file as the last kill left it,
    which is what a start_state that resumes the file as it is hands back) ends as that kill did, which is laid
    down instead (:func:`~autograder.judging.crashes.crash_once`); any other life is killed here.
    """
    key = ("lives", case.task, case.model_seed, case.max_turns, turn)
    return crash_once(key, case.workspace, case.path, lambda: _kill_before(case, turn))


def observe_lives(caller: Caller, case: LivesCase) -> LivesObservation:
    """Run lesson3's loop, SIGKILL it, resume through the learner's start_state; again; then to the end.

    The loop of each new life starts from the state start_state returned: the judge
    saves it as the checkpoint and lesson3's run_agent (which loads exactly what was
    saved) carries on from there, with the case's MAX_TURNS.
    """
    run = _lives_run(case)
    killed = [_life_killed(case, case.kill_turns[0])]
    if killed[0] != "SIGKILL":
        raise IncidentSetupError(f"the first life was not killed before turn {case.kill_turns[0]}: {killed[0]}")
    lives: list[Life] = []
    error = None
    for next_kill in [*case.kill_turns[1:], None]:
        before = load_checkpoint(case.path)
        if before is None:
            raise IncidentSetupError("the first life left no checkpoint")
        # The learner reads a copy in its own folder, written like every other file it gets
        # (scenarios.encode_json); the loop's file stays the judge's.
        layout = random.Random(case.layout_seed + len(lives))
        place(case.box, case.relpath, scenarios.encode_json(before, layout))
        # One budget per resume: the judge's own runs and kills in between are not the learner's time.
        with caller.budget():
            outcome = caller.call(START, start_args(case.task, case.relpath, case.nonce))
        lives.append(Life(before["turns"], outcome))
        if not outcome.ok:
            break
        try:
            state = validate_checkpoint(copy.deepcopy(outcome.value), source=START)
        except CheckpointError as e:
            error = str(e)
            break
        save_checkpoint(state, case.path, durable=False)
        if next_kill is None:
            try:
                run()
            except (anthropic.APIStatusError, CheckpointError) as e:
                # What start_state handed on can fail only this way: the API refusing the conversation.
                error = describe_run_error(e)
        else:
            killed.append(_life_killed(case, next_kill))
    return LivesObservation(case, lives, killed, load_checkpoint(case.path), error)


def _lives_case(run: Run) -> LivesCase:
    folders = scenarios.resume_folders(run.rng(scenarios.LEVEL0_FOLDERS))
    return scenarios.lives_case(run.draws("resume.lives"), run.learner_folder(), run.scratch, folders)


@observer("resume.lives")
def _lives(run: Run) -> LivesObservation:
    obs = observe_lives(run.caller, run.cases("resume.lives"))
    run.note([life.outcome for life in obs.lives])
    return obs


# -- Level 1: resume_action --------------------------------------------------------------------


@dataclass
class LessonObservation:
    name: str  # "cpA", "cpB" or "cpC": the lesson's checkpoint, exactly as printed
    outcome: Outcome


@dataclass
class ActionObservation:
    case: ActionCase
    outcome: Outcome


@observer("lesson.checkpoints")
def _lesson_checkpoints(run: Run) -> dict[str, LessonObservation]:
    # The lesson's checkpoints in one request, each call with a budget of its own (one per criterion).
    batch = [(ACTION, exercise_checkpoint(name)) for name in EXERCISE_NAMES]
    outcomes = run.caller.calls(batch, groups=range(len(batch)))
    run.note(outcomes)
    return {name: LessonObservation(name, outcome) for name, outcome in zip(EXERCISE_NAMES, outcomes, strict=True)}


def _lesson_checkpoint(name: str) -> Observer:
    def observe(run: Run) -> LessonObservation:
        return run.observed("lesson.checkpoints")[name]

    return observe


for _name in EXERCISE_NAMES:
    observer(f"lesson.{_name}")(_lesson_checkpoint(_name))


def observe_actions(caller: Caller, cases: list[ActionCase]) -> list[ActionObservation]:
    outcomes = caller.calls([(ACTION, case.checkpoint) for case in cases])  # one budget for all
    return [ActionObservation(case, outcome) for case, outcome in zip(cases, outcomes, strict=True)]


@observer("actions.hidden")
def _hidden(run: Run) -> list[ActionObservation]:
    observations = observe_actions(run.caller, run.cases("actions.hidden"))
    run.note([o.outcome for o in observations])
    return observations


# -- Level 2: reconcile ----------------------------------------------------------------------------


@dataclass
class ReconcileObservation:
    case: ReconcileCase
    outcome: Outcome
    calls: list[ToolCall]
    changed: list[str]


def calls_of(kind: str) -> str:
    """What a reconcile that hangs on a ``kind`` of tool poisons (:meth:`Session.call`'s ``poison``): that kind's
    calls, not the other kind's."""
    return f"{RECONCILE}:{kind}"


def observe_reconcile(caller: Caller, case: ReconcileCase, box: Path | None = None) -> ReconcileObservation:
    """One reconcile call: tools run through the judge's logged layer, which also sees any other change (in the
    workspace or in the learner's own folder ``box``)."""
    layer = ToolLayer(case.workspace, box)
    # A reconcile stuck on one kind of tool is not blamed on the other: each kind's calls stand for themselves.
    outcome = caller.call(RECONCILE, copy.deepcopy(case.checkpoint), on_tool=layer, poison=calls_of(case.kind))
    return ReconcileObservation(case, outcome, layer.log, layer.changed_elsewhere())


def observe_reconciles(
    caller: Caller, cases: list[ReconcileCase], box: Path | None = None
) -> list[ReconcileObservation]:
    with caller.budget():
        return [observe_reconcile(caller, case, box) for case in cases]


def _reconciles(run: Run, cases: list[ReconcileCase]) -> list[ReconcileObservation]:
    observations = observe_reconciles(run.caller, cases, run.box)
    run.note([o.outcome for o in observations])
    for obs in observations:
        if obs.changed:
            run.flags.setdefault("effect", text("flag.effect", run.lang, paths=", ".join(obs.changed[:3])))
    return observations


@observer("reconcile.cases")
def _reconcile_cases(run: Run) -> list[ReconcileObservation]:
    # Both kinds in one shuffled order: the place of a call in the sequence says nothing about
    # which answer it needs (only the pending tool's name does). One budget for all of them.
    cases = run.cases("reconcile.cases")
    order = list(range(len(cases)))
    run.rng(scenarios.LEVEL2_ORDER).shuffle(order)
    observed = dict(zip(order, _reconciles(run, [cases[i] for i in order]), strict=True))
    observations = [observed[i] for i in range(len(cases))]  # the feedback lists them as drawn
    for kind in {o.case.kind for o in observations}:
        if stopped := next((o.outcome for o in observations if o.case.kind == kind and _stopped(o.outcome)), None):
            # Which cases of its kind a stopped reconcile still got depends on the order: its failure stands for
            # it on all of them, and on none of the other kind's (a verdict depends only on its own calls).
            observations = [
                ReconcileObservation(o.case, stopped, o.calls, o.changed) if o.case.kind == kind else o
                for o in observations
            ]
    return observations


@observer("reconcile.read_only")
def _read_only(run: Run) -> list[ReconcileObservation]:
    return [o for o in run.observed("reconcile.cases") if o.case.kind == "read_only"]


@observer("reconcile.high_impact")
def _high_impact(run: Run) -> list[ReconcileObservation]:
    return [o for o in run.observed("reconcile.cases") if o.case.kind == "high_impact"]


@observer("reconcile.both")
def _both(run: Run) -> list[ReconcileObservation]:
    return run.observed("reconcile.read_only") + run.observed("reconcile.high_impact")


# -- Level 2: the incident, for real -------------------------------------------------------------


class IncidentSetupError(RuntimeError):
    """The crash did not happen where it had to: a grader bug, not the learner's."""


@dataclass
class IncidentObservation:
    case: IncidentCase
    killed_by: str | None
    emails: int
    error: str | None = None
    reconcile: Outcome | None = None
    calls: list[ToolCall] = field(default_factory=list)
    model_calls: int = 0
    """Requests the resumed agent sent to the model (counted by the model, not by the loop)."""
    answered: bool = False
    """The dangling tool_use is still in messages and the next message carries its tool_result."""
    final_answer: bool = False
    """The resumed run ended on an assistant message with text and no tool_use."""
    reconcile_answered: bool = False
    """What reconcile returned kept the dangling tool_use and answered it (read before the loop goes on)."""
    turns: int | None = None
    max_turns: int = MAX_TURNS


class _ReconcileFailed(Exception):
    """Stops the resumed loop; the failed call itself is kept in ``seen`` for the judge."""


def crash_after_delivery(case: IncidentCase, *, timeout: float = 20.0) -> str:
    """Run the agent in a child process and SIGKILL it after send_email delivered, before save point B.

    Returns the signal's name. The child is a fork of this (trusted) judge, so it
    costs milliseconds; the kill is real: no ``finally`` runs, nothing is flushed.
    """
    try:
        status = crash_in_fork(
            at_point("after_tool", tool="send_email"),
            lambda hook: run_agent(
                case.task,
                client=offline_client(seed=case.model_seed),
                checkpoint_path=case.checkpoint_path,
                workspace=case.workspace,
                hook=hook,
                durable=False,  # a throwaway workspace, and SIGKILL never loses the page cache
            ),
            timeout=timeout,
        )
    except CrashPointMissed as e:
        raise IncidentSetupError(f"the agent never reached the point after send_email: {e}") from e
    return _ended(status)


def _ended(status: int) -> str:
    """How a forked run ended: the signal's name ("SIGKILL"), or its exit status."""
    return signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}"


def _incident_crash(case: IncidentCase) -> str:
    """:func:`crash_after_delivery`, the same for every submission of a seed: crashed once (in the zygote)."""
    key = ("incident", case.task, case.model_seed)
    return crash_once(key, case.workspace, case.checkpoint_path, lambda: crash_after_delivery(case))


def observe_incident(caller: Caller, case: IncidentCase, box: Path | None = None) -> IncidentObservation:
    killed_by = _incident_crash(case)
    at_crash = outbox_count(case.workspace)
    cp = load_checkpoint(case.checkpoint_path)
    if at_crash != 1 or cp is None or (cp["pendingToolUse"] or {}).get("name") != "send_email":
        raise IncidentSetupError(f"after the crash: {at_crash} emails, pending {cp and cp['pendingToolUse']}")

    layer = ToolLayer(case.workspace, box)
    seen: dict[str, Outcome] = {}
    kept = [False]  # the run goes on with reconcile's value and changes it: read it as returned

    def learner_reconcile(checkpoint: dict[str, Any]) -> Any:
        pending_id = checkpoint["pendingToolUse"]["id"]
        # A send_email left pending: a high-impact call, refused at once if that kind's cases already hung.
        outcome = caller.call(RECONCILE, checkpoint, on_tool=layer, poison=calls_of("high_impact"))
        seen["outcome"] = outcome
        if not outcome.ok:
            raise _ReconcileFailed
        value = outcome.value
        kept[0] = isinstance(value, dict) and isinstance(value.get("messages"), list)
        kept[0] = kept[0] and answered(value["messages"], pending_id)
        return value

    # This process is not the one that was killed: the resume is a new process, as after the incident.
    error = None
    model = ScriptedModel(seed=case.model_seed)
    final: dict[str, Any] | None = None
    with caller.budget():
        try:
            final = run_agent(
                case.task,
                client=offline_client(model=model),
                checkpoint_path=case.checkpoint_path,
                workspace=case.workspace,
                reconcile=learner_reconcile,
                durable=False,
            )
        except _ReconcileFailed:
            error = None
        except (anthropic.APIStatusError, CheckpointError) as e:
            # What the learner's reconcile handed on can fail only this way: the API refusing the
            # conversation, or the loop refusing the checkpoint. Anything else is the grader's own
            # bug and propagates, to be reported as an internal error, not as lost points.
            error = describe_run_error(e)
    messages = final.get("messages") if isinstance(final, dict) else None
    return IncidentObservation(
        case,
        killed_by,
        # The team's outbox, and any email the learner's code wrote by itself in its own folder.
        outbox_count(case.workspace) + layer.messages_elsewhere(),
        error,
        seen.get("outcome"),
        layer.log,
        model_calls=len(model.requests),
        answered=isinstance(messages, list) and answered(messages, cp["pendingToolUse"]["id"]),
        final_answer=isinstance(messages, list) and ends_with_final_answer(messages),
        turns=final.get("turns") if isinstance(final, dict) else None,
        reconcile_answered=kept[0],
    )


def answered(messages: list[Any], tool_use_id: str) -> bool:
    """The assistant message with ``tool_use_id`` is still there and the next message answers it.

    Answers it as the API reads it: a user message that starts with the tool_result
    (a tool_result after other blocks answers nothing).
    """
    for message, reply in itertools.pairwise(messages):
        if (
            isinstance(message, dict)
            and message.get("role") == "assistant"
            and any(b.get("type") == "tool_use" and b.get("id") == tool_use_id for b in blocks(message))
        ):
            return (
                isinstance(reply, dict)
                and reply.get("role") == "user"
                and any(b.get("tool_use_id") == tool_use_id for b in leading_tool_results(reply))
            )
    return False


def ends_with_final_answer(messages: list[Any]) -> bool:
    """The conversation ends on the model's answer: assistant, some text, no tool_use."""
    last = messages[-1] if messages else None
    if not isinstance(last, dict) or last.get("role") != "assistant":
        return False
    content = last.get("content")
    if isinstance(content, str):
        return bool(content.strip())
    if not isinstance(content, list) or any(isinstance(b, dict) and b.get("type") == "tool_use" for b in content):
        return False
    return any(isinstance(b, dict) and b.get("type") == "text" and str(b.get("text", "")).strip() for b in content)


def _incident_case(run: Run) -> IncidentCase:
    return scenarios.incident_case(run.draws("incident"), run.scratch)


@observer("incident")
def _incident(run: Run) -> IncidentObservation:
    obs = observe_incident(run.caller, run.cases("incident"), run.box)
    if obs.reconcile is not None:
        run.note([obs.reconcile])
    return obs


# -- cases drawn ahead ------------------------------------------------------------------------------


def _reconcile_cases_drawn(run: Run) -> list[ReconcileCase]:
    cases = scenarios.read_only_cases(run.draws("reconcile.read_only"), run.scratch)
    return cases + scenarios.high_impact_cases(run.draws("reconcile.high_impact"), run.scratch)


CASES: dict[str, Callable[[Run], Any]] = {
    "actions.hidden": lambda run: scenarios.hidden_action_cases(run.draws("actions.hidden")),
    "reconcile.cases": _reconcile_cases_drawn,
    "incident": _incident_case,
    "resume.lives": _lives_case,
}
"""The cases an observer draws in the judge's own folders (never in the learner's): each is a function of the seed
and its stream alone, so drawing it before the learner's process is ready changes nothing of it."""

PREBUILT_FOR = {
    "actions.hidden": "actions.hidden",
    "reconcile.read_only": "reconcile.cases",
    "reconcile.high_impact": "reconcile.cases",
    "reconcile.both": "reconcile.cases",
    "reconcile.cases": "reconcile.cases",
    "incident": "incident",
    "resume.lives": "resume.lives",
}
"""Which cases each graded observation needs."""


def prebuild(run: Run, observations: set[str]) -> None:
    """Draw, into ``run.prebuilt``, the cases the ``observations`` need, while the learner's process starts.

    For a thread of the judge beside :meth:`Session.start <autograder.sandbox.session.Session.start>`, which only
    waits for the learner zygote and the load meanwhile: it writes only under ``run.scratch`` (workspaces,
    notes), forks nothing and calls no learner. What it did not get to the observer draws itself; what failed, its
    observer raises.
    """
    wanted = {PREBUILT_FOR[o] for o in observations if o in PREBUILT_FOR}
    for name in (name for name in CASES if name in wanted):  # in CASES' order, whatever the set's
        try:
            run.prebuilt[name] = CASES[name](run)
        except Exception as e:  # noqa: BLE001 - raised by its observer, where drawing them would have raised it
            run.prebuilt[name] = e
            return


# -- the crashes every submission of a seed shares -------------------------------------------------


class _NoCaller:
    """The zygote has no learner: preparing a seed's crashes never calls one."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"preparing a seed's crashes asked the learner ({name})")


def prepare_crashes(seed: int, scratch: Path, observations: set[str]) -> None:
    """Crash, once, what every submission of ``seed`` shares: Level 0's lives from the file as it is, the incident.

    For the grading zygote, before it forks the judges of ``seed`` (:mod:`autograder.judging.crashes`): each is a
    real SIGKILL of a child forked here, and a judge starting a crash from the same files lays down what it left
    (a later life only when the learner's start_state handed back the file as it is). Only the
    ``observations`` a course grades are prepared. The cases are drawn in ``scratch``, which the caller removes.
    """
    run = Run(_NoCaller(), seed, scratch)
    if "resume.lives" in observations:
        case = _lives_case(run)
        # Each life from the file as the kill before it left it: what a start_state resuming it as it is returns.
        for turn in case.kill_turns:
            if _life_killed(case, turn) != "SIGKILL":
                break
            state = load_checkpoint(case.path)
            if state is None:
                break
            save_checkpoint(validate_checkpoint(copy.deepcopy(state), source=START), case.path, durable=False)
    if "incident" in observations:
        _incident_crash(_incident_case(run))


# -- questions -------------------------------------------------------------------------------------


@dataclass
class AnswerObservation:
    variable: str
    value: Any
    defined: bool = True
    """False when the submission never assigned the variable (scored 0, like a wrong answer)."""


def _answer(variable: str) -> Observer:
    def observe(run: Run) -> AnswerObservation:
        answers = run.answers or {}
        return AnswerObservation(variable, answers.get(variable), variable in answers)

    return observe


for _variable, _question in QUESTIONS.items():
    if not _question.practice:  # notebook 02's practice questions are answered there, never graded
        observer(f"answer.{_variable}")(_answer(_variable))
