"""Un error de sintaxis en la línea 4."""


def resume_action(cp)
    return "continue"
