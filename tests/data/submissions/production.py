"""El reconcile que estaba en producción durante el incidente (vuelve a ejecutar todo)."""

READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}


def resume_action(cp):
    if cp["pendingToolUse"] is None:
        return "continue"
    return "rerun" if cp["pendingToolUse"]["name"] in READ_ONLY_TOOLS else "is_error"


def reconcile(cp):
    pending = cp["pendingToolUse"]
    output = execute_tool(pending["name"], pending["input"])  # noqa: F821
    cp["messages"].append(
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": pending["id"], "content": output}]}
    )
    cp["pendingToolUse"] = None
    return cp
