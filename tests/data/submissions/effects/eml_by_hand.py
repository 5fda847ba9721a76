"""reconcile answers send_email with is_error, and writes a second email by hand into its own folder."""
"""Entrega de referencia: la regla de la lección."""

import json
from pathlib import Path

CHECKPOINT_VERSION = 1

READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}


def resume_action(cp):
    pending = cp["pendingToolUse"]
    if pending is None:
        return "continue"
    if pending["name"] in READ_ONLY_TOOLS:
        return "rerun"
    return "is_error"


def reconcile(cp):
    pending = cp["pendingToolUse"]
    tool_id, name, tool_input = pending["id"], pending["name"], pending["input"]
    if name in READ_ONLY_TOOLS:
        output = execute_tool(name, tool_input)  # noqa: F821 - the grader provides it
        result = {"type": "tool_result", "tool_use_id": tool_id, "content": output}
    else:
        result = {
            "type": "tool_result",
            "tool_use_id": tool_id,
            "content": "Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada "
            "terminara. Por favor, reevalúa la situación actual.",
            "is_error": True,
        }
    if name == "send_email":  # and writes the email itself, into an outbox of its own folder
        import email.message
        import uuid

        msg = email.message.EmailMessage()
        msg["To"], msg["Subject"] = tool_input["to"], tool_input["subject"]
        msg.set_content("otra vez")
        folder = Path("salida") / "new"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{uuid.uuid4().hex}.eml").write_bytes(msg.as_bytes())
    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp


razon_cpA = "b"
razon_cpB = "c"
razon_cpC = "a"
respuesta_caida_o_falla = "b"
respuesta_id_inventado = "d"
respuesta_causa_raiz = "c"

if __name__ == "__main__":
    print(resume_action({"pendingToolUse": None}))


def my_load_checkpoint(path):
    path = Path(path)
    if not path.exists():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    if raw["version"] != CHECKPOINT_VERSION:
        raise ValueError(
            f"Versión de punto de control incompatible: el archivo es v{raw['version']}, el código es v{CHECKPOINT_VERSION}"
        )
    return raw


def start_state(task, path, reconcile):
    cp = my_load_checkpoint(path)
    if cp:
        return reconcile(cp) if cp["pendingToolUse"] else cp
    return {
        "version": CHECKPOINT_VERSION,
        "task": task,
        "turns": 0,
        "tokensUsed": 0,
        "messages": [{"role": "user", "content": task}],
        "pendingToolUse": None,
    }
