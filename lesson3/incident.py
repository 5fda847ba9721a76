"""El incidente de la lección, reproducido de punta a punta con procesos y caídas reales.

A child process runs the email task and is SIGKILLed right after ``send_email``
delivered and before save point B (what the OOM killer did); a new process resumes
with a given reconcile. The outbox then says how many emails the team got.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .agent import Reconciler
from .crash import CrashReport, RunReport, crash_run, fresh_run_dir, resume_run
from .model import TASK_EMAIL

INCIDENT_REPORT = (
    "El proceso fue matado y reiniciado por el OOM killer después de la llamada a la herramienta "
    "send_email pero antes de que el resultado quedara registrado. Al reiniciar, el arnés hizo "
    "--resume automáticamente, y unos minutos después un usuario reportó haber recibido dos correos "
    "idénticos."
)
"""The lesson's operations report, word for word."""

INCIDENT_POINT = "after_tool"
INCIDENT_TOOL = "send_email"


class IncidentError(RuntimeError):
    """La caída del incidente no se pudo reproducir (el proceso no llegó al punto)."""


@dataclass
class IncidentOutcome:
    """Una reproducción del incidente: la caída, la reanudación y dónde quedó todo."""

    strategy: str
    workspace: Path
    checkpoint_path: Path
    crash: CrashReport
    resume: RunReport

    @property
    def emails(self) -> int:
        """Cuántos correos recibió el equipo al final."""
        return self.resume.outbox


def replay_incident(
    base: str | os.PathLike[str],
    *,
    reconcile: Reconciler | str = "reconcile",
    task: str = TASK_EMAIL,
    seed: int | str = 0,
) -> IncidentOutcome:
    """Caída tras ``send_email`` y antes del punto B, y reanudación con ``reconcile``, en ``base``.

    ``base`` is emptied first. A strategy name (see ``STRATEGIES``) resumes in a new
    process; a callable (a notebook's function cannot cross into a child process)
    resumes in this one, which is still not the process that was killed.
    """
    workspace, checkpoint_path = fresh_run_dir(base)
    crash = crash_run(
        task, workspace=workspace, checkpoint_path=checkpoint_path, point=INCIDENT_POINT, tool=INCIDENT_TOOL, seed=seed
    )
    if not crash.killed:
        raise IncidentError(f"no se pudo reproducir la caída del incidente: {crash.detail}")
    by_name = isinstance(reconcile, str)
    resume = resume_run(
        task,
        workspace=workspace,
        checkpoint_path=checkpoint_path,
        reconcile=reconcile,
        seed=seed,
        new_process=by_name,
    )
    name = reconcile if by_name else getattr(reconcile, "__name__", "reconcile")
    return IncidentOutcome(name, workspace, checkpoint_path, crash, resume)


def compare_strategies(
    base: str | os.PathLike[str], strategies: tuple[str, ...] = ("production", "reconcile"), *, seed: int | str = 0
) -> dict[str, IncidentOutcome]:
    """El incidente una vez por estrategia, cada una en su carpeta nueva ``base/<estrategia>``."""
    return {name: replay_incident(Path(base) / name, reconcile=name, seed=seed) for name in strategies}
