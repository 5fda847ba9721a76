"""La línea de comandos ``lesson3``: ejecutar, reanudar, tirar abajo y mirar un punto de control.

Thin on purpose: every decision lives in the package modules; this file parses
arguments, calls them and prints in Spanish. Errors are one line on stderr and a
non-zero exit code (2 for an unusable checkpoint file), never a traceback.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import textwrap
from collections.abc import Sequence
from pathlib import Path

import anthropic

from .agent import (
    CRASH_POINT_LABELS,
    CRASH_POINTS,
    MAX_TURNS,
    ParallelToolUseError,
    ReconcileError,
    TruncatedToolUseError,
    run_agent,
)
from .answers import STRATEGIES, resume_plan
from .checkpoint import CHECKPOINT_FILENAME, Checkpoint, CheckpointError, load_checkpoint
from .console import SpanishParser, parse_in_spanish, reader_left
from .conversation import describe_pending
from .crash import crash_run
from .incident import INCIDENT_REPORT, IncidentError, IncidentOutcome, compare_strategies
from .model import (
    DEFAULT_MODEL,
    LIVE_ENV,
    MODEL_ENV,
    TASK_EMAIL,
    TASK_NOTES,
    LiveModeError,
    chosen_model,
    live_error_line,
    live_requested,
    make_client,
)
from .render import describe_call, final_text, format_checkpoint, task_finished
from .tools import TOOL_NAMES, create_workspace, outbox_count

DEFAULT_DIR = "lesson3-ejecucion"
TASKS = {"notas": TASK_NOTES, "correo": TASK_EMAIL}

EXIT_OK, EXIT_ERROR, EXIT_BAD_CHECKPOINT = 0, 1, 2

STRATEGY_LABELS = {
    "reconcile": "la de la lección (solo lectura se repite; alto impacto → is_error)",
    "production": "la de producción del incidente (repite todo a ciegas)",
    "delete": "borrar el mensaje colgante (jugada uno)",
}


class CliError(Exception):
    """Un error para el usuario: se imprime en una línea y sale con código 1."""


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_in_spanish(build_parser, argv)
    try:
        return int(args.handler(args))
    except ReconcileError as e:
        return _fail(f"la conciliación falló: {e}")
    except CheckpointError as e:
        return _fail(str(e), EXIT_BAD_CHECKPOINT)
    except (CliError, LiveModeError, ParallelToolUseError, TruncatedToolUseError, IncidentError) as e:
        return _fail(str(e))
    except anthropic.APIError as e:
        return _fail(live_error_line(e) or f"la API falló: {type(e).__name__}")
    except BrokenPipeError:  # ``lesson3 show | head``
        return reader_left()
    except OSError as e:
        where = f" ({e.filename})" if e.filename else ""
        return _fail(f"{e.strerror or e}{where}")
    except KeyboardInterrupt:
        return _fail("interrumpido", 130)


def build_parser() -> argparse.ArgumentParser:
    parser = SpanishParser(
        prog="lesson3",
        description=(
            "Lección 3: reanudar desde un punto de control. Ejecuta el agente sobre el modelo sin "
            "conexión, lo tira abajo con SIGKILL en un punto con nombre y lo reanuda desde checkpoint.json."
        ),
        epilog=(
            "ejemplos:\n"
            "  lesson3 run --task correo\n"
            "  lesson3 crash --at after_tool --tool send_email\n"
            "  lesson3 show\n"
            "  lesson3 resume\n"
            "  lesson3 incident\n\n"
            f"Sin conexión por defecto; la API real solo con {LIVE_ENV}=1 y ANTHROPIC_API_KEY en el entorno\n"
            f"(el modelo: --model o {MODEL_ENV}; por defecto {DEFAULT_MODEL})."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMANDO", title="comandos", required=True)

    def dir_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--dir",
            default=DEFAULT_DIR,
            metavar="CARPETA",
            help=f"carpeta con workspace/ y {CHECKPOINT_FILENAME}; se crea si falta (por defecto: {DEFAULT_DIR})",
        )

    def strategy_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--strategy",
            "--estrategia",
            dest="estrategia",
            choices=tuple(STRATEGIES),
            default="reconcile",
            help="cómo conciliar una llamada colgante: "
            + "; ".join(f"{k}: {v}" for k, v in STRATEGY_LABELS.items())
            + " (por defecto: reconcile)",
        )

    def model_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--model",
            "--modelo",
            dest="modelo",
            metavar="MODELO",
            help=f"el modelo de la API real (si no, {MODEL_ENV}; por defecto: {DEFAULT_MODEL}); "
            f"solo cuenta con {LIVE_ENV}=1",
        )

    task_help = (
        "la tarea: «notas» (juntar las notas de reunión), «correo» (avisar por correo las conclusiones) "
        "o un texto libre (por defecto: correo)"
    )

    p = sub.add_parser("run", help="ejecutar una tarea (reanuda sola si ya hay un punto de control)")
    p.add_argument("--task", "--tarea", dest="tarea", metavar="TAREA", help=task_help)
    dir_option(p)
    strategy_option(p)
    model_option(p)
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("resume", help="reanudar desde el punto de control de la carpeta")
    dir_option(p)
    strategy_option(p)
    model_option(p)
    p.set_defaults(handler=cmd_run, tarea=None)

    points = "; ".join(f"{k}: {v}" for k, v in CRASH_POINT_LABELS.items())
    p = sub.add_parser(
        "crash",
        help="ejecutar en un proceso hijo y matarlo con SIGKILL en una de las cuatro caídas",
        description=f"Caídas: {points}. Con {LIVE_ENV}=1, el proceso hijo usa la API real.",
    )
    p.add_argument(
        "--at",
        "--en",
        dest="en",
        required=True,
        choices=CRASH_POINTS,
        metavar="CAÍDA",
        help=f"dónde cae el proceso: {', '.join(CRASH_POINTS)}",
    )
    p.add_argument(
        "--tool",
        "--herramienta",
        dest="herramienta",
        choices=TOOL_NAMES,
        metavar="NOMBRE",
        help=f"la primera llamada a esta herramienta ({', '.join(TOOL_NAMES)})",
    )
    p.add_argument(
        "--turn",
        "--turno",
        dest="turno",
        type=int,
        metavar="N",
        help="con --at before_call: antes de la llamada del turno N",
    )
    p.add_argument("--task", "--tarea", dest="tarea", metavar="TAREA", help=task_help)
    dir_option(p)
    model_option(p)
    p.set_defaults(handler=cmd_crash)

    p = sub.add_parser("show", help="mostrar un punto de control de forma legible")
    p.add_argument(
        "path",
        nargs="?",
        default=DEFAULT_DIR,
        metavar="RUTA",
        help=f"el archivo, o una carpeta que tenga {CHECKPOINT_FILENAME} (por defecto: {DEFAULT_DIR})",
    )
    p.add_argument(
        "--last",
        "--ultimos",
        dest="ultimos",
        type=int,
        default=4,
        metavar="N",
        help="cuántos mensajes del final mostrar (4)",
    )
    p.set_defaults(handler=cmd_show)

    p = sub.add_parser(
        "incident",
        help="reproducir el incidente del correo doble: producción contra la lección",
        description=INCIDENT_REPORT,
    )
    p.add_argument("--dir", metavar="CARPETA", help="dejar las dos ejecuciones en esta carpeta nueva (si no, temporal)")
    p.set_defaults(handler=cmd_incident)
    return parser


# -- commands ----------------------------------------------------------------------------------


def cmd_run(args: argparse.Namespace) -> int:
    """``run`` and ``resume``: the same run, except that ``resume`` takes no task and needs a checkpoint."""
    run_dir, strategy = Path(args.dir), args.estrategia
    model = chosen_model(args.modelo)
    client = make_client()  # a live run without a key stops here, before any folder is touched
    checkpoint_path = run_dir / CHECKPOINT_FILENAME
    if args.command == "resume" and not checkpoint_path.exists():
        raise CliError(f"no hay punto de control en {checkpoint_path}; empieza con: lesson3 run --dir {run_dir}")
    workspace = _workspace(run_dir)
    cp = load_checkpoint(checkpoint_path)
    if cp is not None:
        if task_finished(cp):
            print(
                f"La tarea de {checkpoint_path} ya terminó en el turno {cp['turns']}: sin llamada colgante, no hay "
                "nada que conciliar, y el último mensaje es la respuesta final del modelo, así que reanudar no "
                "hace ninguna llamada."
            )
            print(f"Respuesta final: {final_text(cp)}")
            print("Para empezar de nuevo, usa otra --dir (el punto de control no se borra solo).")
            return EXIT_OK
        print(f"Reanudando desde {checkpoint_path}: turno {cp['turns']}, tokensUsed {cp['tokensUsed']}.")
        if args.tarea is not None and _task(args.tarea) != cp["task"]:
            print(f"Nota: el punto de control es de otra tarea; se reanuda esa: «{cp['task']}».")
        if cp["pendingToolUse"] is not None:
            print(f"Estrategia: {strategy}, {STRATEGY_LABELS[strategy]}.")
            if strategy == "reconcile":
                print(resume_plan(cp))
        task = cp["task"]
    else:
        task = _task(args.tarea)
        print(f"Tarea nueva: «{task}»")
    if live_requested():
        _say_live(model)
    state = run_agent(
        task,
        client=client,
        model=model,
        checkpoint_path=checkpoint_path,
        workspace=workspace,
        reconcile=STRATEGIES[strategy],
        hook=_progress,
    )
    answer = final_text(state)
    if answer is None and state["turns"] >= MAX_TURNS:
        print(f"Se alcanzó el tope de {MAX_TURNS} turnos sin respuesta final.")
    print(f"Terminado en el turno {state['turns']} (tokensUsed {state['tokensUsed']}).")
    if answer:
        print("Respuesta final:")
        print("\n".join("  " + line for line in answer.splitlines()))
    print(f"Bandeja de salida: {_emails(outbox_count(workspace))}. Punto de control: {checkpoint_path}")
    return EXIT_OK


def cmd_crash(args: argparse.Namespace) -> int:
    model = chosen_model(args.modelo)
    live = live_requested()
    if live:
        make_client()  # a live crash without a key stops here, before the child starts
    run_dir = Path(args.dir)
    workspace = _workspace(run_dir)
    checkpoint_path = run_dir / CHECKPOINT_FILENAME
    before = load_checkpoint(checkpoint_path)
    task = before["task"] if before else _task(args.tarea)
    if live:
        _say_live(model)
    if before:
        print(f"Ya hay un punto de control (turno {before['turns']}): el proceso hijo reanuda desde ahí.")
    report = crash_run(
        task,
        workspace=workspace,
        checkpoint_path=checkpoint_path,
        point=args.en,
        tool=args.herramienta,
        turn=args.turno,
        live=live,
        model=model,
    )
    where = CRASH_POINT_LABELS[args.en] + (f", en la primera llamada a {args.herramienta}" if args.herramienta else "")
    if report.killed:
        print(f"Proceso hijo matado con {report.signal_name} (código de salida {report.exitcode}) {where}.")
    else:
        print(f"El proceso no llegó a la caída elegida ({where}): {report.detail}.")
    print("Lo que sobrevivió en disco:")
    cp = report.checkpoint
    if cp is None:
        print(f"  {checkpoint_path}: no existe (la caída fue antes del primer guardado)")
    else:
        fields = f"turns={cp['turns']}, tokensUsed={cp['tokensUsed']}, {len(cp['messages'])} mensajes"
        print(f"  {checkpoint_path}: {fields}")
        print(f"  pendingToolUse: {describe_pending(cp['pendingToolUse'])}")
    print(f"  bandeja de salida: {_emails(report.outbox)}")
    if cp is not None:
        print(resume_plan(cp))
    if report.killed:
        print(f"Para reanudar: lesson3 resume --dir {run_dir}")
        return EXIT_OK
    return EXIT_ERROR


def cmd_show(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.is_dir():
        path = path / CHECKPOINT_FILENAME
    cp = load_checkpoint(path)
    if cp is None:
        raise CliError(f"no existe el punto de control {path}")
    print(format_checkpoint(cp, source=str(path), tail=args.ultimos))
    return EXIT_OK


def cmd_incident(args: argparse.Namespace) -> int:
    print(textwrap.fill(f"El incidente: «{INCIDENT_REPORT}»", width=100))
    print()
    print("Reproducción: el agente ejecuta la tarea del correo en un proceso hijo, que se mata con SIGKILL")
    print("después de que send_email entregó el correo y antes del punto de guardado B; un proceso nuevo")
    print("reanuda con cada versión de reconcile().")
    print()
    if args.dir:
        base = Path(args.dir)
        if base.exists() and any(base.iterdir()):
            raise CliError(f"la carpeta {base} ya existe y no está vacía; elige una nueva")
        outcomes = compare_strategies(base)
    else:
        with tempfile.TemporaryDirectory(prefix="lesson3-incidente-") as tmp:
            outcomes = compare_strategies(tmp)
    print(_side_by_side(outcomes))
    if args.dir:
        print(f"\nLas dos ejecuciones quedaron en {args.dir}/production y {args.dir}/reconcile (mira outbox/new/).")
    return EXIT_OK


# -- helpers -----------------------------------------------------------------------------------


def _say_live(model: str) -> None:
    print(f"API real ({LIVE_ENV}=1), modelo {model}: cada turno es una petición que se cobra.")


def _progress(point: str, state: Checkpoint) -> None:
    if point != "after_save_a":
        return
    pending = state["pendingToolUse"]
    step = describe_call(pending["name"], pending["input"]) if pending else "respuesta final"
    print(f"  turno {state['turns']:>2} · {step}")


def _workspace(run_dir: Path) -> Path:
    workspace = run_dir / "workspace"
    if workspace.is_dir():
        return workspace.resolve()  # never rewrite the learner's notes
    run_dir.mkdir(parents=True, exist_ok=True)
    return create_workspace(workspace)


def _task(arg: str | None) -> str:
    if arg is None:
        return TASK_EMAIL
    if not arg.strip():
        raise CliError("la tarea está vacía; usa --task notas, --task correo o un texto")
    return TASKS.get(arg.strip().lower(), arg)


def _emails(n: int) -> str:
    return "1 correo" if n == 1 else f"{n} correos"


def _side_by_side(outcomes: dict[str, IncidentOutcome]) -> str:
    headers = {"production": "reconcile de producción", "reconcile": "reconcile de la lección"}
    cols = list(outcomes.values())
    rows: list[tuple[str, list[str]]] = [
        ("", [headers.get(o.strategy, o.strategy) for o in cols]),
        ("la caída", [f"{o.crash.signal_name} con {_emails(o.crash.outbox)} enviado" for o in cols]),
        ("pendingToolUse", [_pending_name(o.crash.checkpoint) for o in cols]),
        ("al reanudar", [_what_reconcile_did(o) for o in cols]),
        ("la ejecución", [_finish(o) for o in cols]),
        ("correos al final", [_emails(o.emails) for o in cols]),
    ]
    table = [[label, *values] for label, values in rows]
    widths = [max(len(cell) for cell in column) for column in zip(*table, strict=True)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in table]
    lines.insert(1, "  ".join("-" * w for w in widths))  # under the header row
    verdict = ", ".join(f"{headers.get(o.strategy, o.strategy)}: {_emails(o.emails)}" for o in cols)
    lines += ["", f"Resultado: {verdict}."]
    return "\n".join(lines)


def _pending_name(cp: Checkpoint | None) -> str:
    if cp is None or cp["pendingToolUse"] is None:
        return "null"
    return f"{cp['pendingToolUse']['name']} (sin tool_result)"


def _what_reconcile_did(outcome: IncidentOutcome) -> str:
    cp, state = outcome.crash.checkpoint, outcome.resume.state
    if cp is None or state is None or len(state["messages"]) <= len(cp["messages"]):
        return "?"
    result = next(
        (b for b in state["messages"][len(cp["messages"])]["content"] if b.get("type") == "tool_result"), None
    )
    if result is None:
        return "?"
    return "tool_result con is_error" if result.get("is_error") else "volvió a ejecutar send_email"


def _finish(outcome: IncidentOutcome) -> str:
    state = outcome.resume.state
    if outcome.resume.error:
        return f"error: {outcome.resume.error}"
    if state is None:
        return "?"
    done = "terminó sin errores" if task_finished(state) else "sin terminar"
    return f"{done} (turno {state['turns']})"


def _fail(message: str, code: int = EXIT_ERROR) -> int:
    print(f"Error: {message}", file=sys.stderr)
    return code
