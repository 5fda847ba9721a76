"""Entrega de referencia: la regla de la lección."""

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
    cp["messages"].append({"role": "user", "content": [result]})
    cp["pendingToolUse"] = None
    return cp


respuesta_causa_raiz = "b"
respuesta_esta_en_lo_cierto = "b"

if __name__ == "__main__":
    print(resume_action({"pendingToolUse": None}))
