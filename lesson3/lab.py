"""El laboratorio de caídas: elegir dónde cae el proceso, herramienta y estrategia, y verlo pasar de verdad.

Each run is real: a child process runs the agent on the offline model and is
killed with SIGKILL at the chosen point (``crash_run``); a new process resumes
with the chosen strategy (``resume_run``). The report is plain text built from
what is on disk afterwards, so a notebook can print it and nbval compare it.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import functools
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .agent import CRASH_POINT_LABELS, CRASH_POINTS, check_crash_point, run_agent
from .answers import reconcile
from .checkpoint import Checkpoint
from .conversation import blocks, describe_pending, shorten
from .crash import CrashReport, RunReport, crash_run, fresh_run_dir, process_context, resume_run
from .diagram import POINT_NUMBERS, loop_svg
from .model import TASK_EMAIL, TASK_NOTES, offline_client
from .reconciliation import READ_ONLY_TOOLS, UNKNOWN_STATE_MESSAGE, delete_dangling, reconcile_production
from .tools import create_workspace, outbox_count
from .transcript import conversation_tail

if TYPE_CHECKING:
    import ipywidgets

LAB_TOOLS = ("read_file", "send_email")
TASK_FOR_TOOL = {"read_file": TASK_NOTES, "send_email": TASK_EMAIL}
TOOL_LABELS = {"read_file": "read_file (solo lectura)", "send_email": "send_email (alto impacto)"}


def is_error_fallback(cp: Checkpoint) -> Checkpoint:
    """Jugada tres aplicada a cualquier herramienta: un tool_result con ``is_error`` y la verdad."""
    pending = cp["pendingToolUse"]
    result = {"type": "tool_result", "tool_use_id": pending["id"], "content": UNKNOWN_STATE_MESSAGE, "is_error": True}
    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp


def leave_dangling(cp: Checkpoint) -> Checkpoint:
    """Ninguna conciliación: reanudar con la llamada colgante tal cual (la API lo rechaza)."""
    return cp


@dataclass(frozen=True)
class Strategy:
    label: str
    reconcile: Callable[[Checkpoint], Checkpoint]


LAB_STRATEGIES: dict[str, Strategy] = {
    "delete": Strategy("borrar el mensaje assistant (jugada uno)", delete_dangling),
    "rerun": Strategy("volver a ejecutar a ciegas (jugada dos)", reconcile_production),
    "is_error": Strategy("repliegue is_error (jugada tres)", is_error_fallback),
    "reconcile": Strategy("la regla de la lección: reconcile(cp)", reconcile),
    "none": Strategy("nada: reanudar sin conciliar", leave_dangling),
}
"""Module-level functions only: a forkserver child imports them by name."""


# -- scratch space ------------------------------------------------------------------------

_scratch: list[tempfile.TemporaryDirectory[str]] = []


def incident_verdict(emails: int, error: str | None = None, messages: list[dict[str, Any]] | None = None) -> str:
    """Lo que pasó con el correo del incidente al reanudar con el ``reconcile`` del alumno, dicho tal cual.

    The notebook's text under the cell cannot know the learner's result; this line does, from the outbox and,
    given the resumed conversation, from what the model was told and what it did next.
    """
    if error:
        return f"Con tu versión la reanudación no terminó ({error}): arregla eso antes de contar correos."
    told = _told(messages) if messages is not None else None
    if emails == 1:
        if told is None or (told.is_error and told.checked):
            return (
                "Con tu versión, el correo salió una sola vez: el modelo recibió is_error, revisó la bandeja de "
                "salida y vio que ya se había enviado."
            )
        if not told.is_error:
            return (
                "Con tu versión el correo salió una sola vez, pero no gracias a is_error: tu tool_result no lo lleva, "
                "así que el modelo lo leyó como un resultado normal y dio la tarea por hecha sin comprobar nada. "
                "Pon is_error: true para que sepa que el estado es desconocido."
            )
        return "Con tu versión, el correo salió una sola vez: el modelo recibió is_error y no lo volvió a enviar."
    if emails > 1:
        if told is None:
            who = "Mira el último mensaje de arriba: ¿quién lo volvió a enviar, tu reconcile o el modelo?"
        elif told.resent:
            who = "Lo volvió a enviar el modelo" + (
                ": el tool_result que le diste no llevaba is_error, así que creyó que faltaba enviarlo."
                if not told.is_error
                else "."
            )
        else:
            who = "Lo volvió a enviar tu reconcile: ejecutó send_email otra vez al reanudar."
        return f"Con tu versión, el correo salió {emails} veces: el incidente sigue. {who}"
    return f"Con tu versión la bandeja de salida quedó con {emails} correos; tenía que quedar exactamente uno."


@dataclass(frozen=True)
class _Told:
    """What the resumed model was told of the dangling send_email, and what it did after."""

    is_error: bool
    checked: bool  # it looked at the outbox before anything else
    resent: bool  # it called send_email again


def _told(messages: list[dict[str, Any]]) -> _Told | None:
    """Read from the resumed conversation: the tool_result answering the first send_email, and the calls after it."""
    said = [b for m in messages if isinstance(m.get("content"), list) for b in m["content"] if isinstance(b, dict)]
    first = next((b for b in said if b.get("type") == "tool_use" and b.get("name") == "send_email"), None)
    if first is None:
        return None
    at = next(
        (i for i, b in enumerate(said) if b.get("type") == "tool_result" and b.get("tool_use_id") == first["id"]),
        None,
    )
    if at is None:
        return None
    after = [b.get("name") for b in said[at + 1 :] if b.get("type") == "tool_use"]
    return _Told(
        is_error=said[at].get("is_error") is True,
        checked=bool(after) and after[0] in READ_ONLY_TOOLS,
        resent="send_email" in after,
    )


def scratch_dir() -> Path:
    """Una carpeta temporal para esta sesión (se borra al cerrar el kernel); nunca se imprime."""
    tmp = tempfile.TemporaryDirectory(prefix="lesson3-")
    _scratch.append(tmp)
    return Path(tmp.name)


def warm_up() -> None:
    """Arranca en segundo plano el servidor de procesos del arnés de caídas; vuelve enseguida.

    The forkserver's first start imports ``anthropic`` in a fresh interpreter (about a
    second). Started here, that import runs on the other core while the notebook's next
    cells run, instead of inside the first ``crash_run``. Calling it again is free.

    The kernel's own import of the SDK starts here too, in a thread: lesson3 imports it only when a client is
    built (:mod:`lesson3.model`), so the notebook's first cell does not wait for it, and the learner reading on
    finds it done by the first cell that builds one.
    """
    import importlib
    import multiprocessing.forkserver
    import sys
    import threading

    if "anthropic" not in sys.modules:
        # Safe beside the notebook's own imports: a cell that imports the SDK meanwhile waits on its module lock,
        # and the SDK imports nothing of lesson3 or autograder, so no two imports can wait on each other.
        threading.Thread(target=importlib.import_module, args=("anthropic",), name="lesson3-sdk", daemon=True).start()
    if process_context().get_start_method() == "forkserver":
        multiprocessing.forkserver.ensure_running()
        _stop_with_the_kernel()


def _stop_process_servers() -> None:
    """Stop the forkserver and its resource tracker the way they are meant to stop: closing their pipes."""
    import multiprocessing.forkserver
    import multiprocessing.resource_tracker

    for server in (multiprocessing.forkserver._forkserver, multiprocessing.resource_tracker._resource_tracker):
        with contextlib.suppress(Exception):
            server._stop()  # type: ignore[attr-defined]


def _stop_with_the_kernel() -> None:
    """Inside a Jupyter kernel, stop the crash harness's servers first when the kernel shuts down.

    ipykernel's shutdown SIGTERMs its children and waits for them to go. The resource
    tracker ignores SIGTERM and a dead forkserver stays a zombie until the kernel exits,
    so every notebook's kernel hung 2.5 s until jupyter_client SIGTERMed it. Outside a
    kernel (or with an ipykernel without this hook) nothing changes.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return
    kernel = getattr(get_ipython(), "kernel", None)
    original = getattr(kernel, "_at_shutdown", None)
    if original is None or getattr(original, "_lesson3", False):
        return

    async def at_shutdown() -> None:
        _stop_process_servers()
        await original()

    at_shutdown._lesson3 = True  # type: ignore[attr-defined]
    kernel._at_shutdown = at_shutdown  # type: ignore[union-attr]


@atexit.register
def _cleanup() -> None:
    while _scratch:
        _scratch.pop().cleanup()


# -- reference runs -------------------------------------------------------------------------


@functools.cache
def _uninterrupted(task: str, seed: int | str) -> tuple[Checkpoint, int]:
    with tempfile.TemporaryDirectory(prefix="lesson3-ref-") as tmp:
        ws = create_workspace(Path(tmp) / "workspace")
        client = offline_client(seed=seed)
        state = run_agent(task, client=client, checkpoint_path=Path(tmp) / "cp.json", workspace=ws, durable=False)
        return state, outbox_count(ws)


def uninterrupted_run(task: str, seed: int | str = 0) -> tuple[Checkpoint, int]:
    """La misma tarea sin caídas: (estado final, correos enviados). Para comparar."""
    state, sent = _uninterrupted(task, seed)
    return copy.deepcopy(state), sent


def first_call_turn(task: str, tool: str, seed: int | str = 0) -> int:
    """El turno en el que el modelo pide ``tool`` por primera vez en una ejecución sin caídas."""
    replies = [m for m in _uninterrupted(task, seed)[0]["messages"] if m["role"] == "assistant"]
    for turn, message in enumerate(replies, 1):
        if any(b.get("type") == "tool_use" and b.get("name") == tool for b in blocks(message)):
            return turn
    raise ValueError(f"la tarea «{task}» nunca llama a {tool}")


# -- one lab run -----------------------------------------------------------------------------


@dataclass
class LabResult:
    point: str
    tool: str
    strategy: str
    crash: CrashReport
    crash_checkpoint: Checkpoint | None
    run: RunReport
    reference_turns: int
    reference_outbox: int

    @property
    def dangling(self) -> bool:
        return bool(self.crash_checkpoint and self.crash_checkpoint["pendingToolUse"])

    @property
    def verdict(self) -> str:
        """Una línea: qué salió mal (o que no salió nada mal)."""
        if self.run.error:
            return "✗ la reanudación no pudo seguir: la API rechazó la conversación"
        problems = []
        if self.run.outbox > self.reference_outbox:
            problems.append(f"✗ el equipo recibió {self.run.outbox} correos en vez de {self.reference_outbox}")
        state = self.run.state
        if state is not None and state["turns"] > self.reference_turns:
            extra = state["turns"] - self.reference_turns
            told_unknown = any(
                b.get("type") == "tool_result" and b.get("is_error")
                for m in state["messages"]
                if m["role"] == "user"
                for b in blocks(m)
            )
            why = (
                "el modelo supo que no se sabía si la llamada se ejecutó y la reevaluó"
                if told_unknown
                else "el modelo olvidó una decisión que ya había tomado y la volvió a tomar"
            )
            problems.append(f"⚠ {extra} turno{'s' if extra > 1 else ''} más que sin caída: {why}")
        return "\n".join(problems) or "✓ la tarea terminó igual que sin caída: mismos turnos, mismos correos"

    def report(self) -> str:
        task = TASK_FOR_TOOL[self.tool]
        lines = [
            "Laboratorio de caídas",
            f"  caída:          {POINT_NUMBERS[self.point]} · {CRASH_POINT_LABELS[self.point]}",
            f"  herramienta:    {TOOL_LABELS[self.tool]} — tarea «{shorten(task, 60)}»",
            f"  estrategia:     {LAB_STRATEGIES[self.strategy].label}",
            "",
            "1) La caída",
        ]
        c = self.crash
        if c.killed:
            lines.append(f"   proceso hijo matado con {c.signal_name} (código de salida {c.exitcode})")
        else:
            lines.append(f"   el proceso no llegó a la caída elegida: {c.detail}")
        cp = self.crash_checkpoint
        if cp is None:
            lines.append("   punto de control en disco: ninguno (la caída llegó antes del primer guardado)")
        else:
            lines += [
                f"   punto de control en disco: turns={cp['turns']}, tokensUsed={cp['tokensUsed']}",
                f"   pendingToolUse: {describe_pending(cp['pendingToolUse'])}",
                "   → hay una llamada colgante: la estrategia elegida decide qué pasa"
                if self.dangling
                else "   → no hay llamada colgante: la reanudación no necesita conciliar (la estrategia no se usa)",
            ]
        lines.append(f"   correos en la bandeja de salida: {c.outbox}")
        lines += ["", "2) La reanudación, en un proceso nuevo"]
        r = self.run
        lines.append(f"   error de la API: {r.error or 'ninguno'}")
        if r.state is not None:
            lines.append("   cola de la conversación:")
            lines += ["     " + line for line in conversation_tail(r.state["messages"], 4).splitlines()]
            lines.append(f"   turns: {r.state['turns']} (sin caída: {self.reference_turns})")
        lines.append(f"   correos en la bandeja de salida: {r.outbox} (sin caída: {self.reference_outbox})")
        lines += ["", self.verdict]
        return "\n".join(lines)


def run_lab(
    point: str,
    tool: str,
    strategy: str,
    *,
    base: str | Path | None = None,
    seed: int | str = 0,
) -> LabResult:
    """Una caída real en ``point`` durante la primera llamada a ``tool`` y la reanudación con ``strategy``."""
    check_crash_point(point)
    if tool not in LAB_TOOLS:
        raise ValueError(f"herramienta «{tool}» fuera del laboratorio; las válidas: {', '.join(LAB_TOOLS)}")
    if strategy not in LAB_STRATEGIES:
        raise ValueError(f"estrategia desconocida «{strategy}»; las válidas: {', '.join(LAB_STRATEGIES)}")
    task = TASK_FOR_TOOL[tool]
    run_dir = (Path(base) if base is not None else scratch_dir()) / f"lab-{point}-{tool}-{strategy}"
    workspace, checkpoint_path = fresh_run_dir(run_dir)
    # "Before the call" of the turn whose answer will ask for the tool; the other points, at the tool's call.
    at = {"turn": first_call_turn(task, tool, seed)} if point == "before_call" else {"tool": tool}
    crash = crash_run(task, workspace=workspace, checkpoint_path=checkpoint_path, point=point, seed=seed, **at)
    run = resume_run(
        task,
        workspace=workspace,
        checkpoint_path=checkpoint_path,
        reconcile=LAB_STRATEGIES[strategy].reconcile,
        seed=seed,
    )
    reference, sent = _uninterrupted(task, seed)
    shutil.rmtree(run_dir, ignore_errors=True)
    return LabResult(point, tool, strategy, crash, copy.deepcopy(crash.checkpoint), run, reference["turns"], sent)


# -- the widget ------------------------------------------------------------------------------


def crash_lab(point: str = "after_tool", tool: str = "send_email", strategy: str = "rerun") -> ipywidgets.VBox:
    """El laboratorio como widget: tres selectores, un botón, el diagrama y la salida."""
    import ipywidgets as w

    class CrashLab(w.VBox):  # type: ignore[misc]
        def __repr__(self) -> str:
            return "Laboratorio de caídas (interactivo: ejecuta la celda en JupyterLab para usarlo)"

    point_w = w.Dropdown(
        options=[(f"{POINT_NUMBERS[p]} · {CRASH_POINT_LABELS[p]}", p) for p in CRASH_POINTS],
        value=point,
        description="Caída:",
        layout=w.Layout(width="auto", max_width="640px"),
    )
    tool_w = w.ToggleButtons(options=[(TOOL_LABELS[t], t) for t in LAB_TOOLS], value=tool, description="Herramienta:")
    strategy_w = w.Dropdown(
        options=[(s.label, key) for key, s in LAB_STRATEGIES.items()],
        value=strategy,
        description="Estrategia:",
        layout=w.Layout(width="auto", max_width="640px"),
    )
    # The dropdowns take the notebook's width up to the 640 px their longest option needs: cut off at 390 px before.
    for control in (point_w, tool_w, strategy_w):
        control.style.description_width = "90px"
    tool_w.style.button_width = "220px"  # the default width cuts "send_email (alto impacto)"
    button = w.Button(description="Provocar la caída y reanudar", button_style="danger", icon="bolt")
    button.layout.width = "260px"
    picture = w.HTML(value=loop_svg(point))
    out = w.Output(layout=w.Layout(border="1px solid #cfd8dc", padding="4px"))

    def on_point(change: dict[str, Any]) -> None:
        picture.value = loop_svg(change["new"])

    def on_click(_: object) -> None:
        button.disabled = True
        button.description = "Ejecutando…"
        out.clear_output()
        with out:
            try:
                print(run_lab(point_w.value, tool_w.value, strategy_w.value).report())
            except Exception as e:  # noqa: BLE001 - shown to the learner, the widget stays usable
                print(f"El laboratorio falló: {type(e).__name__}: {e}")
            finally:
                button.disabled = False
                button.description = "Provocar la caída y reanudar"

    point_w.observe(on_point, names="value")
    button.on_click(on_click)
    # The result right under the button that produced it, not below the tall diagram (off-screen after a click).
    return CrashLab([point_w, tool_w, strategy_w, button, out, picture])
