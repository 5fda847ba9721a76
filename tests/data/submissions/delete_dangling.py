"""Jugada uno: borrar el mensaje assistant colgante y hacer de cuenta que nunca pasó."""


def resume_action(cp):
    return "continue"


def reconcile(cp):
    if cp["messages"] and cp["messages"][-1]["role"] == "assistant":
        cp["messages"].pop()
    cp["pendingToolUse"] = None
    return cp
