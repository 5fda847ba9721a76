"""sys.exit dentro de resume_action (y un except BaseException no lo salva)."""
import sys

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


def resume_action(cp):  # noqa: F811
    sys.exit("me voy")
