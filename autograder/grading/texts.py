"""What the grader's process says of a batch: an interrupted run, and the machine's protections it lacks.

Plain data, looked up by :func:`autograder.course.catalogue.text` (see the catalogue for why it lives here).
"""

TEXTS: dict[str, dict[str, str]] = {
    "batch.interrupted": {
        "es": "No calificada: la calificación se interrumpió (Ctrl-C) antes de terminar esta entrega.",
        "en": "Not graded: grading was interrupted (Ctrl-C) before this submission was finished.",
    },
    # -- the judge itself ----------------------------------------------------------------------
    "warn.unconfined": {
        "es": "Aviso: el código de las entregas se ejecuta sin confinamiento. El corrector no es root y este sistema "
        "no ofrece Landlock (Linux 5.13 o posterior), así que una entrega puede leer o modificar tus archivos y "
        "mandar señales a tus procesos. Corrige entregas ajenas como root (por ejemplo, en un contenedor) o en "
        "un Linux con Landlock.",
        "en": "Warning: submission code runs unconfined. The grader is not root and this system has no Landlock "
        "(Linux 5.13 or later), so a submission can read or change your files and signal your processes. Grade "
        "other people's submissions as root (in a container, for example) or on a Linux with Landlock.",
    },
    "warn.seccomp": {
        "es": "Aviso: este sistema no permite el filtro seccomp del corrector: el código de las entregas no puede "
        "crear hilos y, sin root, podría conectarse a los sockets unix de tu usuario.",
        "en": "Warning: this system does not allow the grader's seccomp filter: submission code cannot start "
        "threads and, without root, could connect to your user's unix sockets.",
    },
    "warn.signals": {
        "es": "Aviso: tus archivos están protegidos del código de las entregas, pero no tus procesos: sin root, "
        "solo Landlock 6 o posterior (Linux 6.12) impide que una entrega les mande señales, y este sistema "
        "tiene Landlock {abi}.",
        "en": "Warning: your files are protected from submission code, but your processes are not: without root, "
        "only Landlock 6 or later (Linux 6.12) stops a submission from signalling them, and this system has "
        "Landlock {abi}.",
    },
}
