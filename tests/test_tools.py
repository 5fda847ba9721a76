"""The agent's tools: confined to the workspace, errors as results, a real Maildir outbox."""

from __future__ import annotations

import contextvars
import email
import email.policy
import os
from pathlib import Path

import pytest

from lesson3.tools import (
    OUTBOX,
    TOOL_SCHEMAS,
    ToolError,
    active_workspace,
    create_workspace,
    execute_tool,
    outbox_count,
    outbox_messages,
    run_tool,
    set_workspace,
    use_workspace,
)

SHIPPED_NOTES = {
    "agenda-semana.md",
    "asistentes.md",
    "decisiones-abiertas.md",
    "glosario.md",
    "indice.md",
    "meeting-08-25.md",
    "meeting-08-27.md",
}


# -- the workspace ----------------------------------------------------------------------------------


def test_create_workspace_ships_the_course_notes_and_an_empty_maildir(tmp_path: Path) -> None:
    ws = create_workspace(tmp_path / "ws")
    assert ws == (tmp_path / "ws").resolve()
    assert {p.name for p in (ws / "notes").iterdir()} == SHIPPED_NOTES
    assert all((ws / OUTBOX / sub).is_dir() for sub in ("tmp", "new", "cur"))
    assert outbox_count(ws) == 0
    assert "Acuerdo:" in (ws / "notes" / "meeting-08-25.md").read_text(encoding="utf-8")


def test_create_workspace_with_given_notes_and_refusing_to_overwrite(tmp_path: Path) -> None:
    ws = create_workspace(tmp_path / "ws", notes={"a.md": "Acuerdo: sí"})
    assert [p.name for p in (ws / "notes").iterdir()] == ["a.md"]
    with pytest.raises(FileExistsError):
        create_workspace(tmp_path / "ws")
    assert (ws / "notes" / "a.md").read_text(encoding="utf-8") == "Acuerdo: sí"


def test_use_workspace_is_scoped_and_set_workspace_is_not(tmp_path: Path) -> None:
    a = create_workspace(tmp_path / "a", notes={"a.md": "A"})
    b = create_workspace(tmp_path / "b", notes={"b.md": "B"})

    def scenario() -> None:
        with pytest.raises(ToolError, match="no hay espacio de trabajo activo"):
            active_workspace()
        assert run_tool("read_file", {"path": "notes/a.md"}).is_error
        with use_workspace(a):
            assert active_workspace() == a
            with use_workspace(b):
                assert execute_tool("read_file", {"path": "notes/b.md"}) == "B"
            assert execute_tool("read_file", {"path": "notes/a.md"}) == "A"
        with pytest.raises(ToolError):
            active_workspace()
        assert set_workspace(b) == b
        assert active_workspace() == b

    contextvars.Context().run(scenario)  # a context of its own: no workspace leaks in or out


def test_a_missing_workspace_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="no existe"), use_workspace(tmp_path / "nada"):
        pass
    with pytest.raises(ToolError, match="no existe"):
        set_workspace(tmp_path / "nada")


# -- the read-only tools ------------------------------------------------------------------------------


def test_read_file_returns_the_text(active_workspace: Path) -> None:
    expected = (active_workspace / "notes" / "glosario.md").read_text(encoding="utf-8")
    assert execute_tool("read_file", {"path": "notes/glosario.md"}) == expected
    assert execute_tool("read_file", {"path": "./notes/../notes/glosario.md"}) == expected
    assert run_tool("read_file", {"path": "notes/glosario.md"}).is_error is False


@pytest.mark.parametrize(
    ("input", "words"),
    [
        ({"path": "notes/no-existe.md"}, "no existe el archivo"),
        ({"path": "notes"}, "no existe el archivo"),
        ({}, "falta «path»"),
        ({"path": 3}, "falta «path»"),
    ],
)
def test_read_file_failures_are_error_results(active_workspace: Path, input: dict, words: str) -> None:
    outcome = run_tool("read_file", input)
    assert outcome.is_error
    assert outcome.content.startswith("Error: ")
    assert words in outcome.content


def test_read_file_of_a_binary_file_is_an_error_result(active_workspace: Path) -> None:
    (active_workspace / "foto.bin").write_bytes(b"\xff\xd8\xff\x00")
    outcome = run_tool("read_file", {"path": "foto.bin"})
    assert outcome.is_error and "no es un archivo de texto" in outcome.content


@pytest.mark.parametrize("tool", ["read_file", "list_dir", "grep"])
@pytest.mark.parametrize("path", ["../secreto.txt", "../../etc/passwd", "/etc/passwd", "notes/../../secreto.txt"])
def test_a_path_escaping_the_workspace_is_an_error_result_not_a_crash(
    active_workspace: Path, tool: str, path: str
) -> None:
    (active_workspace.parent / "secreto.txt").write_text("clave: 1234", encoding="utf-8")
    input = {"path": path, "pattern": "clave"} if tool == "grep" else {"path": path}
    outcome = run_tool(tool, input)
    assert outcome.is_error
    assert "sale del espacio de trabajo" in outcome.content
    assert "1234" not in outcome.content


def test_a_symlink_out_of_the_workspace_is_refused_and_one_inside_is_followed(active_workspace: Path) -> None:
    outside = active_workspace.parent / "fuera.txt"
    outside.write_text("clave: 1234", encoding="utf-8")
    os.symlink(outside, active_workspace / "atajo.txt")
    os.symlink(active_workspace.parent, active_workspace / "arriba")
    os.symlink(active_workspace / "notes" / "glosario.md", active_workspace / "glosario.md")

    for input in ({"path": "atajo.txt"}, {"path": "arriba/fuera.txt"}):
        outcome = run_tool("read_file", input)
        assert outcome.is_error and "sale del espacio de trabajo" in outcome.content
    assert "Glosario" in execute_tool("read_file", {"path": "glosario.md"})


def test_list_dir_lists_folders_with_a_slash_and_hides_dotfiles(active_workspace: Path) -> None:
    (active_workspace / ".oculto").write_text("x", encoding="utf-8")
    assert execute_tool("list_dir", {}) == "notes/\noutbox/"
    assert execute_tool("list_dir", {"path": "notes"}).splitlines() == sorted(SHIPPED_NOTES)
    (active_workspace / "vacia").mkdir()
    assert execute_tool("list_dir", {"path": "vacia"}) == "(carpeta vacía)"
    outcome = run_tool("list_dir", {"path": "no-existe"})
    assert outcome.is_error and "no existe la carpeta" in outcome.content


def test_grep_reports_path_line_and_text(active_workspace: Path) -> None:
    hits = execute_tool("grep", {"pattern": "^Acuerdo:", "path": "notes"}).splitlines()
    assert hits and all(h.startswith("notes/meeting-08-2") for h in hits)
    path, line, text = hits[0].split(":", 2)
    lines = (active_workspace / path).read_text(encoding="utf-8").splitlines()
    assert lines[int(line) - 1] == text.strip()
    assert execute_tool("grep", {"pattern": "no aparece en ningún lado"}) == "(sin coincidencias)"
    assert (
        execute_tool("grep", {"pattern": "Glosario", "path": "notes/glosario.md"}) == "notes/glosario.md:1: # Glosario"
    )


@pytest.mark.parametrize(
    ("input", "words"),
    [
        ({"pattern": "("}, "expresión regular inválida"),
        ({"pattern": ""}, "falta «pattern»"),
        ({}, "falta «pattern»"),
        ({"pattern": "x", "path": "no-existe"}, "no existe"),
    ],
)
def test_grep_failures_are_error_results(active_workspace: Path, input: dict, words: str) -> None:
    outcome = run_tool("grep", input)
    assert outcome.is_error and words in outcome.content


def test_web_search_searches_the_offline_corpus(active_workspace: Path) -> None:
    result = execute_tool("web_search", {"query": "multi-agent research system"})
    assert "https://" in result
    assert result.count("\n\n") <= 2  # at most three hits
    assert execute_tool("web_search", {"query": "zzzz qqqq"}) == "(sin resultados)"
    outcome = run_tool("web_search", {"query": "  "})
    assert outcome.is_error and "falta «query»" in outcome.content


# -- send_email: a real message in a real Maildir ------------------------------------------------------


def test_send_email_delivers_a_parseable_rfc5322_message_into_the_maildir(active_workspace: Path) -> None:
    result = execute_tool(
        "send_email",
        {"to": "team@example.com", "subject": "Conclusiones de esta semana", "body": "Hola, equipo: ñandú"},
    )
    assert result == "Correo enviado a team@example.com con el asunto «Conclusiones de esta semana»."
    files = sorted((active_workspace / OUTBOX / "new").iterdir())
    assert [f.name for f in files] == ["000001.lesson3"]
    assert not any((active_workspace / OUTBOX / "tmp").iterdir())

    raw = files[0].read_bytes()
    assert b"\r\n" in raw  # SMTP line endings, as RFC 5322 says
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg["To"] == "team@example.com"
    assert msg["Subject"] == "Conclusiones de esta semana"
    assert msg["From"] == "agente@example.com"
    assert msg["Date"].datetime is not None
    assert msg["Message-ID"].startswith("<") and msg["Message-ID"].endswith(">")
    assert msg.get_content().strip() == "Hola, equipo: ñandú"
    assert not msg.defects


def test_each_send_is_one_more_file_and_outbox_helpers_see_them_in_order(active_workspace: Path) -> None:
    for n in range(3):
        execute_tool("send_email", {"to": f"p{n}@example.com", "subject": f"Asunto {n} — ñ"})
    assert outbox_count(active_workspace) == 3
    assert [m["To"] for m in outbox_messages(active_workspace)] == [f"p{n}@example.com" for n in range(3)]
    assert sorted(f.name for f in (active_workspace / OUTBOX / "new").iterdir()) == [
        "000001.lesson3",
        "000002.lesson3",
        "000003.lesson3",
    ]


def test_outbox_helpers_on_a_folder_without_an_outbox(tmp_path: Path) -> None:
    assert outbox_count(tmp_path) == 0
    assert outbox_messages(tmp_path) == []


@pytest.mark.parametrize(
    ("input", "words"),
    [
        ({"to": "nadie", "subject": "x"}, "destinatario inválido"),
        ({"to": 3, "subject": "x"}, "destinatario inválido"),
        ({"to": "team@example.com"}, "falta «subject»"),
        ({"to": "team@example.com", "subject": ""}, "falta «subject»"),
    ],
)
def test_a_bad_email_is_an_error_result_and_sends_nothing(active_workspace: Path, input: dict, words: str) -> None:
    outcome = run_tool("send_email", input)
    assert outcome.is_error and words in outcome.content
    assert outbox_count(active_workspace) == 0


# -- dispatch ----------------------------------------------------------------------------------------


def test_an_unknown_tool_is_an_error_result(active_workspace: Path) -> None:
    outcome = run_tool("write_file", {"path": "x"})
    assert outcome.is_error and outcome.content == "Error: herramienta desconocida «write_file»"
    assert execute_tool("write_file", {"path": "x"}) == outcome.content
    assert not (active_workspace / "x").exists()


def test_an_input_that_is_not_an_object_is_an_error_result(active_workspace: Path) -> None:
    outcome = run_tool("read_file", ["notes/glosario.md"])  # type: ignore[arg-type]
    assert outcome.is_error and "debe ser un objeto" in outcome.content


def test_the_tool_schemas_describe_exactly_the_tools_that_run(active_workspace: Path) -> None:
    names = [t["name"] for t in TOOL_SCHEMAS]
    assert names == ["read_file", "grep", "list_dir", "web_search", "send_email"]
    for schema in TOOL_SCHEMAS:
        assert schema["description"]
        assert schema["input_schema"]["type"] == "object"
        assert set(schema["input_schema"].get("required", [])) <= set(schema["input_schema"]["properties"])
        assert "herramienta desconocida" not in execute_tool(schema["name"], {})


def test_grep_does_not_follow_a_symlink_out_of_the_workspace(active_workspace: Path) -> None:
    outside = active_workspace.parent / "fuera"
    outside.mkdir()
    (outside / "secreto.txt").write_text("clave: 1234", encoding="utf-8")
    os.symlink(outside / "secreto.txt", active_workspace / "notes" / "atajo.txt")
    os.symlink(outside, active_workspace / "notes" / "arriba")
    assert execute_tool("grep", {"pattern": "clave"}) == "(sin coincidencias)"
    assert execute_tool("grep", {"pattern": "clave", "path": "notes"}) == "(sin coincidencias)"
