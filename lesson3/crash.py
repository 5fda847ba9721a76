"""El arnés de caídas: matar de verdad al agente con SIGKILL en un punto con nombre y reanudar.

The agent runs in a child process started by a multiprocessing *forkserver*
that has ``anthropic`` preloaded, so each child costs a fork, not a 2-second
interpreter start. At the chosen point the child tells the parent and waits;
the parent sends SIGKILL (what the OOM killer sends): no ``finally``, no
``atexit``, no flush. Whatever was on disk at that instant is all that survives.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import multiprocessing.connection
import os
import shutil
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agent import MAX_TURNS, Hook, Reconciler, check_crash_point, run_agent
from .answers import STRATEGIES
from .checkpoint import Checkpoint, CheckpointError, load_checkpoint
from .conversation import describe_run_error, last_tool_use
from .model import DEFAULT_MODEL, ScriptedModel, live_error_line, make_client, offline_client
from .tools import create_workspace, outbox_count

PRELOAD = ["anthropic", "httpx2", "lesson3.agent", "lesson3.model", "lesson3.crash", "lesson3.crash_warmup"]
CHILD_TIMEOUT = 60.0


@functools.cache
def process_context() -> Any:
    """The multiprocessing context for agent children (forkserver with the SDK preloaded)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover - non-POSIX
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


@dataclass
class CrashReport:
    """Lo que quedó después de matar el proceso."""

    point: str
    tool: str | None
    killed: bool
    exitcode: int | None
    checkpoint: Checkpoint | None
    outbox: int
    detail: str = ""

    @property
    def signal_name(self) -> str | None:
        if self.exitcode is not None and self.exitcode < 0:
            return signal.Signals(-self.exitcode).name
        return None


@dataclass
class RunReport:
    """Lo que dejó una ejecución (o reanudación) que terminó."""

    state: Checkpoint | None
    error: str | None
    outbox: int
    requests: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None


def crash_run(
    task: str,
    *,
    workspace: str | os.PathLike[str],
    checkpoint_path: str | os.PathLike[str],
    point: str,
    tool: str | None = None,
    turn: int | None = None,
    seed: int | str = 0,
    max_turns: int = MAX_TURNS,
    live: bool = False,
    model: str = DEFAULT_MODEL,
) -> CrashReport:
    """Arranca (o reanuda) el agente en un proceso hijo y lo mata con SIGKILL en ``point``.

    ``tool`` picks the first call of that tool (for the three points around a tool
    call; for ``before_call``, the model call right after that tool's result was
    recorded); ``turn`` picks a turn number for ``before_call``. Without either, the
    first time the point is reached. ``live=True`` makes the child talk to the real API
    (``make_client``) with this process's environment as it is now, asking for ``model``.
    """
    check_crash_point(point)
    proc, parent = _start_child(
        _crash_child,
        (task, str(workspace), str(checkpoint_path), point, tool, turn, seed, max_turns),
        # The forkserver's environment is the one it started with: hand a live child today's.
        {"live_env": dict(os.environ) if live else None, "model": model},
    )
    try:
        killed, detail = wait_and_kill(proc.pid, parent, CHILD_TIMEOUT)
    finally:
        proc.join()
        parent.close()
    try:
        cp = load_checkpoint(checkpoint_path)
    except CheckpointError as e:
        cp, detail = None, str(e)
    return CrashReport(point, tool, killed, proc.exitcode, cp, outbox_count(workspace), detail)


def resume_run(
    task: str,
    *,
    workspace: str | os.PathLike[str],
    checkpoint_path: str | os.PathLike[str],
    reconcile: Reconciler | str = "reconcile",
    seed: int | str = 0,
    new_process: bool = True,
    max_turns: int = MAX_TURNS,
) -> RunReport:
    """Reanuda (o arranca) hasta el final; por defecto en un proceso nuevo, como tras una caída real.

    ``reconcile`` is a callable or one of ``STRATEGIES``' names. A callable defined in a
    notebook cannot cross into a child process: use ``new_process=False`` for it (this
    process is still a different one from the process that was killed).
    """
    if not new_process:
        return _run_here(task, str(workspace), str(checkpoint_path), reconcile, seed, max_turns)
    proc, parent = _start_child(_resume_child, (task, str(workspace), str(checkpoint_path), reconcile, seed, max_turns))
    try:
        report = parent.recv() if parent.poll(CHILD_TIMEOUT) else None
    except EOFError:
        report = None
    finally:
        if report is None and proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
    if report is None:
        return RunReport(None, f"el proceso de reanudación murió (código {proc.exitcode})", outbox_count(workspace))
    return report


# -- the crash primitive: SIGKILL when a predicate on the hook event holds -----------------------

Predicate = Callable[[str, Checkpoint], bool]
"""``predicate(point, state)``: whether this hook event is the instant to kill the process."""


def at_point(point: str, *, tool: str | None = None, turn: int | None = None) -> Predicate:
    """The first time ``point`` is reached (for ``tool``'s call, or at ``turn`` for ``before_call``)."""

    def holds(at: str, state: Checkpoint) -> bool:
        if at != point:
            return False
        if tool is not None:
            # At before_call and after_save_b the call is already answered: look at the last tool_use.
            answered = at in ("before_call", "after_save_b")
            pending = last_tool_use(state["messages"]) if answered else state["pendingToolUse"]
            if not pending or pending["name"] != tool:
                return False
        return turn is None or at != "before_call" or state["turns"] + 1 == turn

    return holds


def wait_and_kill(pid: int, conn: multiprocessing.connection.Connection, timeout: float) -> tuple[bool, str]:
    """The parent's side: SIGKILL ``pid`` as soon as its hook says the point was reached.

    Returns ``(killed at the point, why not)``. A child that never gets there in
    ``timeout`` seconds is killed anyway, and that is not a kill at the point.
    """
    if not conn.poll(timeout):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        return False, f"el proceso no llegó al punto en {timeout:.0f} s"
    try:
        kind, info = conn.recv()
    except EOFError:
        kind, info = "exited", "el proceso terminó sin avisar"
    if kind != "at_point":
        return False, info
    os.kill(pid, signal.SIGKILL)
    return True, ""


def crash_in_fork(predicate: Predicate, run: Callable[[Hook], object], *, timeout: float = CHILD_TIMEOUT) -> int:
    """Run ``run(hook)`` in a plain ``os.fork`` child and SIGKILL it when ``predicate`` holds.

    For a caller that is itself a disposable single-threaded process with the agent
    already imported (the grader's judge); a notebook kernel uses :func:`crash_run`.
    Returns the child's wait status; raises :class:`CrashPointMissed` if it was
    never killed at the point.
    """
    parent, child = multiprocessing.Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child; observed through what it leaves on disk
        parent.close()
        try:
            _run_until_killed(child, predicate, run)
        finally:
            os._exit(1)
    child.close()
    try:
        killed, detail = wait_and_kill(pid, parent, timeout)
    finally:
        parent.close()
        _, status = os.waitpid(pid, 0)
    if not killed:
        raise CrashPointMissed(detail)
    return status


class CrashPointMissed(RuntimeError):
    """The run ended (or stalled) without reaching the instant it was to be killed at."""


def _run_until_killed(
    conn: multiprocessing.connection.Connection, predicate: Predicate, run: Callable[[Hook], object]
) -> None:
    def hook(at: str, state: Checkpoint) -> None:
        if predicate(at, state):
            conn.send(("at_point", at))
            while True:  # wait for the SIGKILL; never return into the loop
                signal.pause()

    try:
        run(hook)
        conn.send(("finished", "la tarea terminó antes de llegar a la caída elegida"))
    except BaseException as e:  # noqa: BLE001 - reported to the parent
        conn.send(("error", live_error_line(e) or f"{type(e).__name__}: {e}"))


# -- children ------------------------------------------------------------------------------


def _start_child(
    target: Callable[..., None], args: tuple[Any, ...], kwargs: dict[str, Any] | None = None
) -> tuple[Any, multiprocessing.connection.Connection]:
    """Start ``target(conn, *args, **kwargs)`` in a :func:`process_context` child; returns it and our end of conn."""
    ctx = process_context()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=target, args=(child, *args), kwargs=kwargs or {}, daemon=True)
    proc.start()
    child.close()
    return proc, parent


def _crash_child(
    conn: multiprocessing.connection.Connection,
    task: str,
    workspace: str,
    checkpoint_path: str,
    point: str,
    tool: str | None,
    turn: int | None,
    seed: int | str,
    max_turns: int = MAX_TURNS,
    live_env: dict[str, str] | None = None,
    model: str = DEFAULT_MODEL,
) -> None:
    def run(hook: Hook) -> None:
        if live_env is not None:
            os.environ.clear()
            os.environ.update(live_env)
        run_agent(
            task,
            client=make_client(live=True) if live_env is not None else offline_client(seed=seed),
            checkpoint_path=checkpoint_path,
            workspace=workspace,
            hook=hook,
            max_turns=max_turns,
            model=model,
        )

    _run_until_killed(conn, at_point(point, tool=tool, turn=turn), run)


def _resume_child(conn: multiprocessing.connection.Connection, *args: Any) -> None:
    """:func:`_run_here` in the child, its report sent back to the parent."""
    conn.send(_run_here(*args))


def _run_here(
    task: str,
    workspace: str,
    checkpoint_path: str,
    reconcile: Reconciler | str,
    seed: int | str,
    max_turns: int = MAX_TURNS,
) -> RunReport:
    model = ScriptedModel(seed=seed)
    try:
        state = run_agent(
            task,
            client=offline_client(model=model),
            checkpoint_path=checkpoint_path,
            workspace=workspace,
            reconcile=STRATEGIES[reconcile] if isinstance(reconcile, str) else reconcile,
            max_turns=max_turns,
        )
        error = None
    except Exception as e:  # noqa: BLE001 - the report carries it
        state, error = None, describe_run_error(e)
        with contextlib.suppress(CheckpointError):
            state = load_checkpoint(checkpoint_path)
    return RunReport(state, error, outbox_count(workspace), model.requests)


def fresh_run_dir(base: str | os.PathLike[str]) -> tuple[Path, Path]:
    """Una carpeta limpia con su espacio de trabajo y la ruta del punto de control."""
    base = Path(base)
    shutil.rmtree(base, ignore_errors=True)
    workspace = create_workspace(base / "workspace")
    return workspace, base / "checkpoint.json"
