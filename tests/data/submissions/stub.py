"""La plantilla del cuaderno sin completar."""

READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}


def resume_action(cp):
    # TU CÓDIGO AQUÍ
    raise NotImplementedError


def reconcile(cp):
    # TU CÓDIGO AQUÍ
    raise NotImplementedError


def my_load_checkpoint(path):
    # TU CÓDIGO AQUÍ
    raise NotImplementedError


def start_state(task, path, reconcile):
    # TU CÓDIGO AQUÍ
    raise NotImplementedError


razon_cpA = None  # TU RESPUESTA AQUÍ
razon_cpB = None  # TU RESPUESTA AQUÍ
razon_cpC = None  # TU RESPUESTA AQUÍ
respuesta_caida_o_falla = None  # TU RESPUESTA AQUÍ
respuesta_id_inventado = None  # TU RESPUESTA AQUÍ
respuesta_causa_raiz = None  # TU RESPUESTA AQUÍ
