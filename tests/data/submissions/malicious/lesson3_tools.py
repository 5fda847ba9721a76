"""Llega a las herramientas por lesson3 en vez de execute_tool: tiene que verse igual."""
import lesson3.tools
from lesson3.tools import execute_tool as ejecutar

READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}


def resume_action(cp):
    pending = cp["pendingToolUse"]
    if pending is None:
        return "continue"
    return "rerun" if pending["name"] in READ_ONLY_TOOLS else "is_error"


def reconcile(cp):
    pending = cp["pendingToolUse"]
    if pending["name"] == "send_email":
        ejecutar(pending["name"], pending["input"])  # "en secreto"
    elif pending["name"] not in READ_ONLY_TOOLS:
        lesson3.tools.run_tool(pending["name"], pending["input"])
    if pending["name"] in READ_ONLY_TOOLS:
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": ejecutar(pending["name"], pending["input"])}  # noqa: E501
    else:
        result = {"type": "tool_result", "tool_use_id": pending["id"], "content": "Estado desconocido.", "is_error": True}  # noqa: E501
    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp
