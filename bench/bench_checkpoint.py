"""Checkpoint figures: save/load time against size, the fsync share of a save, one crash + resume cycle.

Run: .venv/bin/python bench/bench_checkpoint.py [--quick]
Prints figures, asserts nothing. ``--quick`` uses tiny sizes (the test suite runs it so it cannot rot).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from lesson3.checkpoint import load_checkpoint, new_state, save_checkpoint
from lesson3.crash import crash_run, fresh_run_dir, resume_run
from lesson3.model import TASK_EMAIL, TASK_NOTES

SIZES = (10, 50, 100, 200, 400)
QUICK_SIZES = (2, 10)


def realistic_state(turns: int) -> dict[str, Any]:
    """A notes-task conversation of ``turns`` turns: text + read_file call, then the note as the result."""
    notes_dir = resources.files("lesson3") / "data" / "workspace" / "notes"
    notes = sorted((f.name, f.read_text(encoding="utf-8")) for f in notes_dir.iterdir() if f.name.endswith(".md"))
    state = new_state(TASK_NOTES)
    for turn in range(1, turns + 1):
        name, text = notes[turn % len(notes)]
        tool_id = f"toolu_01{turn:022d}"
        state["messages"].append(
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": f"Leo notes/{name}."},
                    {"type": "tool_use", "id": tool_id, "name": "read_file", "input": {"path": f"notes/{name}"}},
                ],
            }
        )
        state["messages"].append(
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": text}]}
        )
    state["turns"] = turns
    state["tokensUsed"] = 250 * turns
    return state


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


@contextlib.contextmanager
def fsync_disabled() -> Iterator[None]:
    """Bench only: os.fsync made a no-op, to see what the durability costs."""
    real = os.fsync
    os.fsync = lambda fd: None
    try:
        yield
    finally:
        os.fsync = real


def bench_sizes(sizes: tuple[int, ...], repeat: int, folder: Path) -> None:
    print(f"Guardar y cargar checkpoint.json (mediana de {repeat} rondas intercaladas; carpeta {folder})")
    header = (
        f"{'turnos':>7} {'tamaño':>10} {'JSON':>9} {'guardar':>9} {'sin fsync':>10} {'parte fsync':>12} {'cargar':>9}"
    )
    print(header)
    print("-" * len(header))
    path = folder / "checkpoint.json"
    for turns in sizes:
        state = realistic_state(turns)
        save_checkpoint(state, path)
        size_kb = path.stat().st_size / 1024
        rounds: dict[str, list[float]] = {"json": [], "save": [], "no_fsync": [], "load": []}
        for _ in range(repeat):  # interleaved, so drift in machine load hits every column alike
            rounds["json"].append(timed(lambda s=state: json.dumps(s, ensure_ascii=False, indent=2).encode()))
            rounds["save"].append(timed(lambda s=state: save_checkpoint(s, path)))
            with fsync_disabled():
                rounds["no_fsync"].append(timed(lambda s=state: save_checkpoint(s, path)))
            rounds["load"].append(timed(lambda: load_checkpoint(path)))
        m = {k: statistics.median(v) for k, v in rounds.items()}
        share = max(0.0, 1 - m["no_fsync"] / m["save"]) if m["save"] else 0.0
        print(
            f"{turns:>7} {size_kb:>8.1f}KB {m['json']:>7.2f}ms {m['save']:>7.2f}ms {m['no_fsync']:>8.2f}ms "
            f"{share:>12.0%} {m['load']:>7.2f}ms"
        )
    print("JSON: solo json.dumps(indent=2); guardar: JSON + .tmp + fsync + os.replace + fsync de la carpeta.")


def crash_resume_cycle(base: Path) -> tuple[float, int]:
    """The incident's crash (after send_email, before save point B) and a resume in a new process."""
    workspace, path = fresh_run_dir(base)
    start = time.perf_counter()
    crash = crash_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path, point="after_tool", tool="send_email")
    run = resume_run(TASK_EMAIL, workspace=workspace, checkpoint_path=path)
    elapsed = time.perf_counter() - start
    if not crash.killed or not run.ok:
        raise SystemExit(f"el ciclo falló: {crash.detail or run.error}")
    return elapsed, run.outbox


def bench_cycle(warm_repeat: int, folder: Path) -> None:
    print()
    print("Un ciclo caída + reanudación (SIGKILL tras send_email y antes del punto B; reanudar en un proceso nuevo)")
    cold, emails = crash_resume_cycle(folder / "frio")
    warm = [crash_resume_cycle(folder / f"tibio-{n}")[0] for n in range(warm_repeat)]
    print(f"  en frío (arranca el forkserver, que precarga anthropic): {cold * 1000:8.0f} ms")
    print(f"  en caliente (mediana de {warm_repeat}):                       {statistics.median(warm) * 1000:8.0f} ms")
    print(f"  correos en la bandeja al final: {emails}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tamaños mínimos, una repetición (para la prueba)")
    args = parser.parse_args(argv)
    sizes, repeat, warm = (QUICK_SIZES, 2, 1) if args.quick else (SIZES, 30, 5)
    with tempfile.TemporaryDirectory(prefix="bench-checkpoint-") as tmp:
        bench_sizes(sizes, repeat, Path(tmp))
        bench_cycle(warm, Path(tmp))


if __name__ == "__main__":  # the crash harness's forkserver re-imports the main module
    main()
