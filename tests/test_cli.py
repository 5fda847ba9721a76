"""The ``lesson3`` command: each subcommand, Spanish output, one-line errors and their exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lesson3.checkpoint import load_checkpoint, save_checkpoint
from lesson3.cli import build_parser, main
from lesson3.exercises import exercise_checkpoint
from lesson3.model import TASK_EMAIL
from lesson3.tools import outbox_count

pytestmark = pytest.mark.warm_up("crash_harness")

LESSON_VERSION_MESSAGE = "Versión de punto de control incompatible: el archivo es v2, el código es v1"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LESSON3_LIVE", raising=False)


def test_help_is_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0
    assert out.startswith("uso: lesson3")
    assert "opciones:" in out and "muestra esta ayuda y termina" in out
    for command in ("run", "resume", "crash", "show", "incident"):
        assert command in out
    assert "usage:" not in out and "show this help" not in out


def test_usage_errors_are_spanish_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["crash", "--en", "en_cualquier_lado"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert "opción no válida: 'en_cualquier_lado'" in err and "after_tool" in err
    assert "Usa «lesson3 crash --help»" in err  # the same words as the autograder command
    with pytest.raises(SystemExit):
        main([])
    assert "faltan argumentos obligatorios: COMANDO" in capsys.readouterr().err


@pytest.mark.parametrize("flags", [("--at", "--tool", "--task"), ("--en", "--herramienta", "--tarea")])
def test_english_flags_and_their_spanish_aliases_mean_the_same(flags):
    at, tool, task = flags
    args = build_parser().parse_args(["crash", at, "after_tool", tool, "send_email", task, "correo"])
    assert (args.en, args.herramienta, args.tarea) == ("after_tool", "send_email", "correo")


def test_run_a_task_from_scratch_then_again_when_it_already_finished(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "run"
    code, out, err = run(capsys, "run", "--tarea", "notas", "--dir", str(folder))
    assert code == 0, err
    assert "Tarea nueva: «Ayúdame a juntar las notas de reunión de esta semana»" in out
    assert "turno  1 · list_dir" in out and "turno  9 · respuesta final" in out
    assert "Terminado en el turno 9" in out and "Junté las notas de la semana" in out
    assert "Bandeja de salida: 0 correos" in out
    assert (folder / "workspace" / "notes").is_dir()
    path = folder / "checkpoint.json"
    saved = path.read_bytes()

    code, out, _ = run(capsys, "run", "--tarea", "notas", "--dir", str(folder))
    assert code == 0
    assert "ya terminó en el turno 9: sin llamada colgante" in out and "reanudar no hace ninguna llamada" in out
    assert path.read_bytes() == saved


def test_run_with_free_text_gets_the_offline_models_answer(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "run", "--tarea", "Escríbeme un poema", "--dir", str(tmp_path / "run"))
    assert code == 0
    assert "Terminado en el turno 1" in out and "modo sin conexión" in out


def test_run_keeps_a_workspace_that_is_already_there(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    notes = tmp_path / "run" / "workspace" / "notes"
    notes.mkdir(parents=True)
    (notes / "mia.md").write_text("Acuerdo: no tocar mis notas\n", encoding="utf-8")
    code, out, _ = run(capsys, "run", "--tarea", "notas", "--dir", str(tmp_path / "run"))
    assert code == 0
    assert [p.name for p in notes.iterdir()] == ["mia.md"]
    assert "no tocar mis notas" in out


def test_crash_then_show_then_resume(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "run"
    code, out, err = run(capsys, "crash", "--en", "after_tool", "--herramienta", "send_email", "--dir", str(folder))
    assert code == 0, err
    assert "Proceso hijo matado con SIGKILL (código de salida -9)" in out
    assert "después de ejecutar la herramienta y antes del punto B" in out
    assert "pendingToolUse: send_email" in out
    assert "bandeja de salida: 1 correo" in out
    assert f"lesson3 resume --dir {folder}" in out

    code, out, _ = run(capsys, "show", str(folder))
    assert code == 0
    assert f"Punto de control: {folder / 'checkpoint.json'}" in out
    assert "turns           9" in out and "tokensUsed" in out
    assert "→ tool_use send_email" in out
    assert "Llamada colgante:" in out and "de alto impacto" in out and "is_error" in out

    code, out, _ = run(capsys, "resume", "--dir", str(folder))
    assert code == 0
    assert "Reanudando desde" in out and "turno 9" in out
    assert "turno 10 · grep" in out  # the model checks the outbox instead of sending again
    assert "ya había salido antes de la caída: no lo reenvío" in out
    assert "Bandeja de salida: 1 correo." in out
    assert outbox_count(folder / "workspace") == 1


def test_resume_with_the_production_strategy_sends_twice(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run(capsys, "crash", "--en", "after_tool", "--herramienta", "send_email", "--dir", str(folder))
    code, out, _ = run(capsys, "run", "--dir", str(folder), "--estrategia", "production")
    assert code == 0
    assert "Estrategia: production, la de producción del incidente" in out
    assert "Bandeja de salida: 2 correos." in out


def test_crash_at_a_point_never_reached_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "run"
    code, out, _ = run(
        capsys, "crash", "--en", "after_tool", "--herramienta", "web_search", "--tarea", "notas", "--dir", str(folder)
    )
    assert code == 1
    assert "El proceso no llegó a la caída elegida" in out and "la tarea terminó antes" in out
    assert "la tarea ya había terminado" in out


def test_crash_before_the_first_save(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "run"
    code, out, _ = run(capsys, "crash", "--en", "before_call", "--turno", "1", "--dir", str(folder))
    assert code == 0
    assert "no existe (la caída fue antes del primer guardado)" in out
    assert not (folder / "checkpoint.json").exists()


def test_resume_without_a_checkpoint_is_a_one_line_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "resume", "--dir", str(tmp_path / "vacia"))
    assert code == 1 and out == ""
    assert err.startswith("Error: no hay punto de control en ") and err.count("\n") == 1
    assert "lesson3 run" in err


def test_show_a_bad_file_exits_2_with_the_checkpoint_error_and_leaves_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "checkpoint.json"
    path.write_bytes(b'{"version": 1, "task": "x", "turns": "siete"')
    code, out, err = run(capsys, "show", str(path))
    assert code == 2 and out == ""
    assert (
        err == f"Error: {path}: el JSON está truncado (termina en la línea 1, columna 45); ¿se cortó una escritura?\n"
    )
    assert path.read_bytes() == b'{"version": 1, "task": "x", "turns": "siete"'


def test_show_a_v2_file_gives_the_lessons_message(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "checkpoint.json"
    content = json.dumps({**exercise_checkpoint("cpA"), "version": 2}, indent=2)
    path.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "show", str(path))
    assert code == 2 and err == f"Error: {LESSON_VERSION_MESSAGE}\n"
    assert path.read_text(encoding="utf-8") == content


def test_run_on_a_bad_checkpoint_exits_2_and_leaves_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "checkpoint.json").write_text("[]", encoding="utf-8")
    code, _, err = run(capsys, "run", "--dir", str(folder))
    assert code == 2 and "se esperaba un objeto JSON y hay una lista" in err
    assert (folder / "checkpoint.json").read_text(encoding="utf-8") == "[]"


def test_show_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "show", str(tmp_path / "nada.json"))
    assert code == 1 and err == f"Error: no existe el punto de control {tmp_path / 'nada.json'}\n"


@pytest.mark.parametrize(
    ("name", "words"),
    [("cpA", "el bucle toma messages y hace la llamada siguiente"), ("cpB", "de solo lectura: reconcile() la vuelve")],
)
def test_show_the_exercise_checkpoints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, words: str
) -> None:
    path = tmp_path / "checkpoint.json"
    save_checkpoint(exercise_checkpoint(name), path)
    code, out, _ = run(capsys, "show", str(path), "--ultimos", "2")
    assert code == 0 and words in out
    assert "Últimos 2 mensajes:" in out
    assert out.count("\n  [") == 2


def test_incident_prints_both_outcomes_side_by_side(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "incident", "--dir", str(tmp_path / "incidente"))
    assert code == 0, err
    assert "OOM killer" in out
    header = next(line for line in out.splitlines() if "reconcile de producción" in line)
    assert header.index("reconcile de producción") < header.index("reconcile de la lección")
    emails = next(line for line in out.splitlines() if line.startswith("correos al final"))
    assert emails.split()[-4:] == ["2", "correos", "1", "correo"]
    assert "volvió a ejecutar send_email" in out and "tool_result con is_error" in out
    assert "Resultado: reconcile de producción: 2 correos, reconcile de la lección: 1 correo." in out
    assert outbox_count(tmp_path / "incidente" / "production" / "workspace") == 2
    assert outbox_count(tmp_path / "incidente" / "reconcile" / "workspace") == 1


def test_incident_refuses_a_folder_with_something_in_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "mio.txt").write_text("no borrar", encoding="utf-8")
    code, _, err = run(capsys, "incident", "--dir", str(tmp_path))
    assert code == 1 and "ya existe y no está vacía" in err
    assert (tmp_path / "mio.txt").read_text(encoding="utf-8") == "no borrar"


def test_live_without_a_key_is_a_one_line_spanish_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LESSON3_LIVE", "1")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    code, _, err = run(capsys, "run", "--dir", str(tmp_path / "run"))
    assert code == 1
    assert err == "Error: Pediste la API real (LESSON3_LIVE=1) pero falta ANTHROPIC_API_KEY en el entorno.\n"
    assert load_checkpoint(tmp_path / "run" / "checkpoint.json") is None


@pytest.mark.slow
def test_python_dash_m_lesson3_exits_2_on_a_bad_file_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "checkpoint.json"
    path.write_text("esto no es JSON", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "lesson3", "show", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"Error: {path}: no es JSON válido (línea 1, columna 1")
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert path.read_text(encoding="utf-8") == "esto no es JSON"


def test_a_reader_that_leaves_early_ends_show_quietly(tmp_path: Path) -> None:
    # `lesson3 show | head`: the pipe closes before the checkpoint is printed; a shell's 141, no message.
    from lesson3.checkpoint import save_checkpoint
    from lesson3.exercises import exercise_checkpoint

    path = tmp_path / "checkpoint.json"
    save_checkpoint(exercise_checkpoint("cpB"), path)
    child = subprocess.Popen(
        [sys.executable, "-m", "lesson3", "show", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    child.stdout.close()
    stderr = child.stderr.read().decode()
    assert child.wait(timeout=120) == 141
    assert stderr == "", stderr


def test_the_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "lesson3"
    assert script.is_file()
    assert "lesson3.cli" in script.read_text(encoding="utf-8")


def test_the_default_task_is_the_email_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "run", "--dir", str(tmp_path / "run"))
    assert code == 0 and f"Tarea nueva: «{TASK_EMAIL}»" in out and "1 correo" in out
