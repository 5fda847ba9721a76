"""El arnés de caídas: matar de verdad al agente con SIGKILL en un punto con nombre y reanudar.

The agent runs in a child process started by a multiprocessing *forkserver*
that has ``anthropic`` preloaded, so each child costs a fork, not a 2-second
interpreter start. At the chosen point the child tells the parent and waits;
the parent sends SIGKILL (what the OOM killer sends): no ``finally``, no
``atexit``, no flush. Whatever was on disk at that instant is all that survives.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agent import CRASH_POINTS, MAX_TURNS, Reconciler, run_agent
from .checkpoint import Checkpoint, CheckpointError, load_checkpoint
from .model import DEFAULT_MODEL, live_error_line, make_client, offline_client
from .reconcile import STRATEGIES
from .tools import outbox_count

PRELOAD = ["anthropic", "httpx2", "lesson3.agent", "lesson3.model", "lesson3.crash"]
CHILD_TIMEOUT = 60.0

_context: Any = None


def process_context() -> Any:
    """The multiprocessing context for agent children (forkserver with the SDK preloaded)."""
    global _context
    if _context is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            _context = multiprocessing.get_context("forkserver")
            _context.set_forkserver_preload(PRELOAD)
        else:  # pragma: no cover - non-POSIX
            _context = multiprocessing.get_context("spawn")
    return _context


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
    if point not in CRASH_POINTS:
        raise ValueError(f"caída desconocida «{point}»; los válidos: {', '.join(CRASH_POINTS)}")
    ctx = process_context()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_crash_child,
        args=(child, task, str(workspace), str(checkpoint_path), point, tool, turn, seed, max_turns),
        # The forkserver's environment is the one it started with: hand a live child today's.
        kwargs={"live_env": dict(os.environ) if live else None, "model": model},
        daemon=True,
    )
    proc.start()
    child.close()
    killed, detail = False, ""
    try:
        if parent.poll(CHILD_TIMEOUT):
            try:
                kind, info = parent.recv()
            except EOFError:
                kind, info = "exited", "el proceso terminó sin avisar"
            if kind == "at_point":
                os.kill(proc.pid, signal.SIGKILL)
                killed = True
            else:
                detail = info
        else:
            proc.kill()
            detail = f"el proceso no llegó al punto en {CHILD_TIMEOUT:.0f} s"
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
    ctx = process_context()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_resume_child,
        args=(child, task, str(workspace), str(checkpoint_path), reconcile, seed, max_turns),
        daemon=True,
    )
    proc.start()
    child.close()
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


# -- children ------------------------------------------------------------------------------


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
    def hook(at: str, state: Checkpoint) -> None:
        if at != point:
            return
        if tool is not None:
            # At before_call and after_save_b the call is already answered: look at the last tool_use.
            answered = at in ("before_call", "after_save_b")
            pending = _last_tool_use(state) if answered else state["pendingToolUse"]
            if not pending or pending["name"] != tool:
                return
        if turn is not None and at == "before_call" and state["turns"] + 1 != turn:
            return
        conn.send(("at_point", at))
        signal.pause()  # wait for the SIGKILL; never return into the loop
        while True:  # pragma: no cover - only if a stray signal wakes us
            signal.pause()

    try:
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
        conn.send(("finished", "la tarea terminó antes de llegar a la caída elegida"))
    except BaseException as e:  # noqa: BLE001 - reported to the parent
        conn.send(("error", live_error_line(e) or f"{type(e).__name__}: {e}"))


def _resume_child(
    conn: multiprocessing.connection.Connection,
    task: str,
    workspace: str,
    checkpoint_path: str,
    reconcile: Reconciler | str,
    seed: int | str,
    max_turns: int = MAX_TURNS,
) -> None:
    conn.send(_run_here(task, workspace, checkpoint_path, reconcile, seed, max_turns))


def _run_here(
    task: str,
    workspace: str,
    checkpoint_path: str,
    reconcile: Reconciler | str,
    seed: int | str,
    max_turns: int = MAX_TURNS,
) -> RunReport:
    from .model import ScriptedModel

    fn = STRATEGIES[reconcile] if isinstance(reconcile, str) else reconcile
    model = ScriptedModel(seed=seed)
    try:
        state = run_agent(
            task,
            client=offline_client(model=model),
            checkpoint_path=checkpoint_path,
            workspace=workspace,
            reconcile=fn,
            max_turns=max_turns,
        )
        error = None
    except Exception as e:  # noqa: BLE001 - the report carries it
        state, error = None, _describe(e)
        try:
            state = load_checkpoint(checkpoint_path)
        except CheckpointError:
            pass
    return RunReport(state, error, outbox_count(workspace), model.requests)


def _describe(e: BaseException) -> str:
    import anthropic

    if isinstance(e, anthropic.APIStatusError):
        body = e.body if isinstance(e.body, dict) else {}
        msg = (body.get("error") or {}).get("message") or str(e)
        return f"HTTP {e.status_code} {type(e).__name__}: {msg}"
    if isinstance(e, (CheckpointError, RuntimeError)):
        return f"{type(e).__name__}: {e}"
    return "".join(traceback.format_exception_only(type(e), e)).strip()


def _last_tool_use(state: Checkpoint) -> dict[str, Any] | None:
    for m in reversed(state["messages"]):
        if m["role"] == "assistant":
            for b in m["content"] if isinstance(m["content"], list) else []:
                if b.get("type") == "tool_use":
                    return b
            return None
    return None


def fresh_run_dir(base: str | os.PathLike[str]) -> tuple[Path, Path]:
    """Una carpeta limpia con su espacio de trabajo y la ruta del punto de control."""
    import shutil

    from .tools import create_workspace

    base = Path(base)
    shutil.rmtree(base, ignore_errors=True)
    workspace = create_workspace(base / "workspace")
    return workspace, base / "checkpoint.json"
