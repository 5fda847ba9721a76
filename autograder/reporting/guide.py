"""The generated parts of the instructor's guide, ``docs/guia-docente.md``.

The guide is prose written by hand, except for the parts that restate the code: the points
table (the registry, :mod:`autograder.course.criteria`), the limits (:class:`autograder.wire.limits.Limits`
and the messages a learner reads when one is hit), the CSV columns and statuses (the
code that writes them, :mod:`autograder.reporting.report`) and the messages a report may
carry (the catalogue's keys). Each of those sits between ``<!-- generado: NAME -->`` and
``<!-- fin: NAME -->``; ``python -m autograder.reporting.generated`` rewrites them in place and
``tests/test_generated.py`` fails when the committed guide differs from what this module writes.

What the code cannot say (what a column means to an instructor, what a group of messages asks
them to do) is written here once, keyed by the code's own names, and a test fails when the code
gains a column, a status or a message this module does not describe.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from autograder.course import config, criteria
from autograder.course.catalogue import keys, section, text
from autograder.reporting import out_folder, report, review
from autograder.wire.limits import Limits

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guia-docente.md"

_BLOCK = re.compile(r"(<!-- generado: (?P<name>[a-z_]+) -->\n)(?P<body>.*?)(<!-- fin: (?P=name) -->)", re.DOTALL)

COLUMNS: dict[str, str] = {
    "learner": "el nombre del estudiante: el del LMS cuando la descarga lo trae (Moodle, Canvas); si no, el del "
    "archivo, o el de su carpeta cuando todos entregaron el mismo nombre de archivo",
    "learner_id": "el id del LMS (Moodle: el número de participante; Canvas: el id de usuario); vacío si la "
    "entrega no lo dice",
    "submission": "el archivo calificado (o la carpeta del estudiante, si no había nada que calificar)",
    "source": "de dónde salió, tal como se le pasó la ruta a `grade`: el zip o la carpeta y la entrada del alumno",
    "total": "los puntos sobre los criterios decididos; vacío si la entrega quedó «no calificada» (Ctrl-C)",
    "max_score": "el máximo del curso (la suma de los puntos de la tabla de arriba), el mismo para todos",
    "pending": "los puntos que esperan la decisión de una persona (`autograder review`)",
    "grade_10": "la nota de 0 a 10, con dos decimales; vacía mientras haya puntos pendientes o si no se calificó",
    "status": "el estado de la fila (ver la tabla de estados)",
    "error": "por qué la entrega no se pudo calificar (todos sus criterios a 0); vacío si se calificó",
    "warnings": "los avisos de la carga (celdas que fallaron o tardaron, módulos que no existen), uno por línea "
    "dentro de la celda; el alumno los ve también en su retroalimentación",
    "flags": "las señales para revisar (ver «Señales»), una por línea; el alumno no las ve",
}
"""Each column of grades.csv and notas.csv other than the criteria, by its name in grades.csv."""

OUT_FILES: dict[str, tuple[str, str]] = {
    "resumen.html": (
        "el docente",
        "la clase de un vistazo: la tabla alumno × criterio, los avisos y señales de cada uno, los porcentajes "
        "de aprobados por criterio y la distribución de puntajes",
    ),
    "feedback/": (
        "cada alumno, el suyo",
        "`feedback/<nombre>.html` y `.md`: su nombre, el archivo calificado, su puntaje y la retroalimentación "
        "de cada criterio; nunca las rutas del docente ni las señales",
    ),
    "grades.csv": (
        "programas, importaciones a un LMS",
        "la tabla de notas en CSV estándar: `,`, punto decimal, UTF-8, ids como encabezados",
    ),
    "notas.csv": (
        "una hoja de cálculo, con doble clic",
        "la misma tabla con `;`, coma decimal (`7,5`), marca de orden de bytes UTF-8 y el título de cada "
        "criterio junto a su id",
    ),
    "results.json": (
        "todo lo que viene después (`review`, `export`, `merge`)",
        "cada resultado: el alumno, el archivo y su SHA-256, su origen, lo que imprimió su código, los avisos, "
        "las señales, la semilla",
    ),
    "decisions.json": (
        "`review` y las recalificaciones",
        "las decisiones de revisión (quién, cuándo, por qué), por alumno, SHA-256 del archivo y criterio",
    ),
    ".autograder-files.json": (
        "el corrector",
        "qué archivos escribió y su resumen SHA-256: solo esos se reemplazan con `--force`",
    ),
    ".autograder.lock": (
        "el corrector",
        "el cerrojo de la corrección en curso, con el número de su proceso; existe solo mientras dura (si el "
        "proceso muere, el cerrojo se libera igual y una nueva corrección lo toma)",
    ),
}
"""Each file the grader writes in ``--out``, by its name in the code: for whom, and what it holds."""


def out_files() -> list[str]:
    """What the grader writes in ``--out``, as the code names it (``feedback/`` for the learners' pages)."""
    return [*report.SUMMARY_FILES, "feedback/", review.DECISIONS_JSON, out_folder.MANIFEST_FILE, out_folder.LOCK_FILE]


STATUSES: dict[str, str] = {
    "ok": "calificada, sin error y con al menos la mitad de los puntos",
    "needs_help": "un error, o menos de la mitad de los puntos; resumen.html llama «con problemas» a estas filas y a "
    "las no calificadas",
    "pending": "algún criterio espera la decisión de una persona; la nota 0–10 queda vacía hasta entonces",
    "not_graded": "la calificación se interrumpió (Ctrl-C) antes de llegar a esta entrega: sin total ni nota",
}
"""Each value of the ``status`` column (:func:`autograder.reporting.report.status`)."""

RESULTS_DOCUMENT: dict[str, str] = {
    "report": "con qué se escribieron los informes: `lang`, `seed`, `warnings` (los avisos de la recogida, de la "
    "máquina y de las decisiones de revisión descartadas) y `config`, la configuración con que se calificó: "
    "`puntos`, `niveles`, `limites`, `semilla`, `idioma` y su `sha256`",
    "run": "solo en una parte de `--shard` (lo que `merge` comprueba antes de juntar): la semilla, el idioma, la "
    "versión del curso, qué parte es y el lugar de cada entrega en la clase",
    "interrupted": "solo tras un Ctrl-C: `graded` (cuántas entregas se calificaron) y `total`",
    "submissions": "una entrada por alumno, con los campos de la tabla siguiente",
}
"""results.json's top-level keys (:func:`autograder.reporting.report.results_document`)."""

RESULTS_SUBMISSION: dict[str, str] = {
    "submission": "el archivo calificado (o la carpeta del alumno, si no había nada que calificar)",
    "learner": "el nombre del alumno, como lo escriben todos los informes",
    "learner_id": "el id del LMS, o `null`",
    "source": "de dónde salió la entrega, con la ruta tal como se le pasó a `grade`",
    "feedback": "su página de retroalimentación, `feedback/<nombre>.html`",
    "graded": "`false` si un Ctrl-C la dejó sin calificar",
    "score": "los puntos sobre los criterios decididos; `null` si no se calificó",
    "max_score": "el máximo del curso",
    "pending": "los puntos pendientes de revisión; solo si los hay",
    "criteria": "cada criterio: `id`, `passed` (`true`, `false`, o `null` si espera revisión), `score`, "
    "`max_score` y `feedback`; `review: true` mientras espera a una persona, y `decision` (`by`, `at`, `why`, "
    "`was`) cuando una persona lo decidió",
    "error": "por qué no se pudo calificar, o `null`",
    "warnings": "los avisos de la carga",
    "flags": "las señales para revisar",
    "seed": "la semilla con que se calificó",
    "output": "lo que imprimió el código del alumno (como mucho 64 KB)",
    "sha256": "el SHA-256 del archivo calificado, cuando se pudo leer: con él (y el alumno) se guardan las "
    "decisiones de revisión",
    "moves": "solo si se calificó el nivel 2: por tipo de herramienta (`read_only`, `high_impact`), qué jugadas "
    "hizo su `reconcile` con una llamada colgante (`rerun`, `is_error`, `delete`, `dangling`, `other`, `not_run`)",
}
"""Each key of a submission in results.json (a test compares them with what ``results_document`` writes)."""


MESSAGE_GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "error": (
        "**Errores** (columna `error`, «Problema» en notas.csv; en la retroalimentación del alumno, bajo "
        "«Problema con la entrega»): la entrega no se pudo calificar y todos sus criterios valen 0; tras un "
        "Ctrl-C (`batch.interrupted`) la fila no tiene total, ni siquiera 0. El mensaje ya dice al alumno qué "
        "entregar; «Error interno del corrector» es un fallo nuestro, no suyo: vuelve a calificar esa entrega "
        "y, si se repite, guarda el archivo y avisa a quien mantiene el curso.",
        (
            "load.bad_suffix",
            "load.too_big",
            "load.code_too_big",
            "load.course_notebook",
            "load.missing",
            "load.unreadable",
            "load.not_utf8",
            "load.symlink",
            "load.folder_symlink",
            "load.folder_not_dir",
            "load.fifo",
            "load.device",
            "load.not_regular",
            "load.notebook_",
            "load.syntax",
            "load.failed",
            "load.nothing_defined",
            "choice.nothing.",
            "choice.renamed.",
            "internal",
            "internal.",
            "batch.interrupted",
        ),
    ),
    "warning": (
        "**Avisos de la entrega** (columna `warnings`, «Avisos»; en la retroalimentación del alumno y en "
        "resumen.html): algo de la entrega falló pero el resto se calificó. Una celda que falla se salta, "
        "como en Jupyter; el aviso dice cuál y por qué. No cuestan puntos por sí mismos: cuesta lo que la "
        "celda saltada dejó sin definir.",
        (
            "load.cell_",
            "load.statement_",
            "load.output_cut",
            "load.process_hint",
            "load.permission_hint",
        ),
    ),
    "choice": (
        "**Qué archivo se calificó** (en la retroalimentación del alumno): de los archivos `.py` e `.ipynb` de "
        "un alumno se califica uno, por la regla del apartado «Recoger las entregas»; estas notas dicen cuál y "
        "por qué, y cuáles no se calificaron.",
        (
            "choice.graded",
            "choice.why.",
            "choice.others.",
            "choice.unreadable.",
            "choice.late_canvas",
            "choice.late_canvas_penalty",
        ),
    ),
    "limit": (
        "**Límites** (en la retroalimentación de un criterio): una llamada del código del alumno llegó a un "
        "límite y se detuvo; el criterio no se aprueba y el mensaje dice cuál límite. Los valores están en la "
        "tabla «Límites». «El corrector no pudo aislar tu código» es un fallo del corrector.",
        ("fail.",),
    ),
    "flag": (
        "**Señales** (columna `flags`, «Señales para revisar»; en resumen.html, nunca en la retroalimentación "
        "del alumno): el corrector vio algo que merece la mirada de una persona. «delega en lesson3»: una "
        "función calificada llamó algo de lesson3 que el ejercicio no deja reutilizar (su `load_checkpoint`, "
        "el `reconcile` del incidente, `delete_dangling` o una respuesta de la lección): sus criterios no dan "
        "puntos y la señal dice qué llamó. «efecto fuera de execute_tool»: el código cambió archivos del "
        "espacio de trabajo sin pasar por las herramientas; puede ser una trampa o un descuido, y solo "
        "leyendo el código se sabe (la retroalimentación del criterio afectado se lo dice al alumno con "
        "`effect.changed`).",
        ("flag.", "effect."),
    ),
    "intake": (
        "**Avisos de la recogida** (en la consola, con «aviso:», y en resumen.html, para el docente): qué se "
        "omitió o rechazó al leer las carpetas y los zips, y por qué (un entorno virtual, una carpeta oculta, un "
        "`instrucciones.pdf` suelto, un enlace simbólico, una bomba zip). Ninguno le cuesta la nota a nadie: "
        "léelos para saber si falta algo de un alumno.",
        ("intake.",),
    ),
    "machine": (
        "**Avisos de la máquina** (en la consola y, una vez, en resumen.html; nunca llegan al alumno): esta "
        "máquina no confina del todo el código de las entregas. Las notas valen igual; lo que falta es "
        "protección para la máquina y para tus archivos. Para que no aparezcan, califica como root (por "
        "ejemplo, en un contenedor) en un Linux que permita seccomp; sin root hace falta Landlock 6 (Linux 6.12 "
        "o posterior).",
        ("warn.",),
    ),
}
"""Each group of messages a report may carry: what it means to the instructor, and its catalogue keys
(a key, or a prefix ending in a dot or an underscore)."""

MESSAGE_FAMILIES = ("intake.", "load.", "choice.", "fail.", "flag.", "effect.", "warn.", "internal", "batch.")
"""The catalogue's families whose every key must belong to a group above (a test checks it)."""


def _matches(key: str, pattern: str) -> bool:
    return key.startswith(pattern) if pattern.endswith((".", "_")) else key == pattern


def group_keys(group: str) -> list[str]:
    """The catalogue keys of a message group, in the catalogue's order."""
    patterns = MESSAGE_GROUPS[group][1]
    return [k for k in keys() if any(_matches(k, p) for p in patterns)]


def _cell(value: str) -> str:
    """A Markdown table cell: one line, no column break, placeholders shown as ‹name›."""
    value = re.sub(r"\{(\w+)(?::[^}]*)?\}", r"‹\1›", value)
    return value.replace("|", "\\|").replace("\n", " ").strip()


def _said(key: str, **params: object) -> str:
    """What the learner reads when a limit is hit, with an example call (``resume_action``) and cell."""
    example = {"what": text("what.call", "es", fn="resume_action"), "cell": "3", "line": 12}
    return f"«{_cell(text(key, 'es', **{**example, **params}))}»"


LIMITS: dict[str, tuple[str, Callable[[Limits], str]]] = {
    "load_seconds": (
        "cargar la entrega (todas las celdas o instrucciones)",
        lambda lim: (
            f"se interrumpe lo que se ejecutaba y se avisa: {_said('load.cell_timeout')} o "
            f"{_said('load.statement_timeout', seconds=lim.load_seconds)}; el resto se ejecuta igual"
        ),
    ),
    "call_seconds": (
        "cada llamada a una función del alumno",
        lambda lim: f"{_said('fail.call_timeout', limit=lim.call_seconds)}; esa función no se llama más",
    ),
    "check_seconds": (
        "todas las llamadas de un criterio juntas (cada archivo del nivel 0 y cada reanudación, aparte)",
        lambda lim: _said("fail.budget", limit=lim.check_seconds),
    ),
    "cpu_seconds": ("tiempo de CPU de toda la entrega", lambda lim: _said("fail.cpu")),
    "memory_mb": (
        "memoria, además del intérprete",
        lambda lim: "el código del alumno recibe `MemoryError`, que se avisa con su línea",
    ),
    "output_kb": (
        "lo impreso (stdout y stderr) que se guarda",
        lambda lim: (
            f"{_said('load.output_cut', kb=lim.output_kb)}; la retroalimentación muestra los primeros "
            f"{report.FEEDBACK_OUTPUT_KB} KB"
        ),
    ),
    "file_mb": ("cada archivo que escribe", lambda lim: "escribir uno mayor falla con `OSError`"),
    "disk_mb": (
        "todo lo que cabe en su carpeta",
        lambda lim: _said("fail.disk", limit=lim.disk_mb, detail=lim.disk_files),
    ),
    "disk_files": ("archivos y carpetas en su carpeta", lambda lim: "como `disk_mb`"),
    "threads": (
        "hilos, además del principal (cuando el corrector se ejecuta como root)",
        lambda lim: (
            f"los demás fallan con `RuntimeError` («can't start new thread»), avisado con {_said('load.process_hint')}"
        ),
    ),
    "processes": (
        "procesos: solo el suyo",
        lambda lim: f"crear uno falla con `BlockingIOError`, avisado con {_said('load.process_hint')}",
    ),
    "submission_seconds": (
        "toda la entrega (el tope del corrector, por encima de la carga y de todos los presupuestos)",
        lambda lim: f"todos los criterios fallan con {_said('internal.timeout', seconds=lim.submission_seconds)}",
    ),
}
"""Each field of :class:`Limits`: what it limits, and what the learner reads when it is hit."""

_UNITS = {"_seconds": " s", "_mb": " MB", "_kb": " KB", "_files": " archivos"}


def _number(x: float) -> str:
    """A range's end as a Spanish reader reads it: decimal comma, thousands apart from 10 000 (1 000 000)."""
    if float(x).is_integer() and x >= 10_000:
        return f"{int(x):,}".replace(",", "\u00a0")
    return report.fmt_points(x, "es")


def limits_table() -> str:
    """Every limit of :class:`Limits` with its default value, what it limits and what the learner sees."""
    default = Limits()
    header = "| Límite (`[limites]`) | Por defecto | Rango en curso.toml | Qué limita | Qué ve el alumno |"
    lines = [header, "|---|---|---|---|---|"]
    for field in default.to_json():
        what, seen = LIMITS[field]
        unit = next((u for suffix, u in _UNITS.items() if field.endswith(suffix)), "")
        value = report.fmt_points(getattr(default, field), "es")
        low, high = config.LIMIT_RANGES.get(field, (None, None))
        span = "no se configura" if low is None else f"{_number(low)}–{_number(high)}"
        lines.append(f"| `{field}` | {value}{unit} | {span} | {what} | {seen(default)} |")
    return "\n".join(lines)


def points_table() -> str:
    """Every criterion of the registry with its level and points; a total per level and for the course."""
    lines = ["| Criterio | Nivel | Puntos | Título (como lo ve el alumno) |", "|---|---|---|---|"]
    for c in criteria.CRITERIA.values():
        title = _cell(report.criterion_title(c.id, "es"))
        lines.append(f"| `{c.id}` | {c.level} | {report.fmt_points(c.points, 'es')} | {title} |")
    levels: dict[int, float] = {}
    for c in criteria.CRITERIA.values():
        levels[c.level] = levels.get(c.level, 0) + c.points
    total = sum(levels.values())
    by_level = ", ".join(f"nivel {level}: {report.fmt_points(p, 'es')}" for level, p in sorted(levels.items()))
    count = len(criteria.CRITERIA)
    lines += ["", f"{count} criterios; **máximo: {report.fmt_points(total, 'es')} puntos** ({by_level})."]
    return "\n".join(lines)


def files_table() -> str:
    """The files in ``--out``, in the guide's order; a file written but not described (or the reverse) is an error."""
    written = out_files()
    if sorted(written) != sorted(OUT_FILES):
        raise KeyError(f"guide.OUT_FILES describes {sorted(OUT_FILES)}, the grader writes {sorted(written)}")
    lines = ["| Archivo | Para quién | Qué tiene |", "|---|---|---|"]
    lines += [f"| `{name}` | {who} | {_cell(what)} |" for name, (who, what) in OUT_FILES.items()]
    return "\n".join(lines)


def columns_table() -> str:
    """grades.csv's and notas.csv's columns, in the order ``report`` writes them, with their Spanish headers."""
    es = section("report", "es")

    def rows(names: tuple[str, ...]) -> list[str]:
        return [f"| `{name}` | {es[f'col_{name}']} | {_cell(COLUMNS[name])} |" for name in names]

    lines = ["| grades.csv | notas.csv | Qué contiene |", "|---|---|---|", *rows(report.CSV_COLUMNS)]
    first = next(iter(criteria.CRITERIA.values()))
    title = report.criterion_title(first.id, "es")
    lines.append(
        f"| `<criterio>`, p. ej. `{first.id}` | «‹título› [‹criterio›]», p. ej. «{_cell(title)} [{first.id}]» | "
        f"una columna por criterio, en el orden de la tabla de puntos: sus puntos; "
        f"`{text('report.pending_cell', 'en')}` («{text('report.pending_cell', 'es')}») si espera revisión; "
        f"vacía si la entrega no se calificó |"
    )
    return "\n".join([*lines, *rows(report.CSV_TOTALS)])


def results_table() -> str:
    """results.json: its top-level keys, then a submission's."""
    lines = ["| Clave | Qué tiene |", "|---|---|"]
    lines += [f"| `{k}` | {_cell(v)} |" for k, v in RESULTS_DOCUMENT.items()]
    lines += ["", "| Clave de cada entrega | Qué tiene |", "|---|---|"]
    lines += [f"| `{k}` | {_cell(v)} |" for k, v in RESULTS_SUBMISSION.items()]
    return "\n".join(lines)


def status_names() -> list[str]:
    """The values of the ``status`` column, read from the catalogue's ``report.status_*`` keys."""
    return [k.removeprefix("status_") for k in section("report", "es") if k.startswith("status_")]


def statuses_table() -> str:
    lines = ["| `status` (grades.csv) | Estado (notas.csv, resumen.html) | Qué significa |", "|---|---|---|"]
    lines += [f"| `{n}` | {text(f'report.status_{n}', 'es')} | {_cell(STATUSES[n])} |" for n in status_names()]
    return "\n".join(lines)


def messages_tables() -> str:
    """One table per message group: its meaning, then each key and its Spanish text."""
    parts = []
    for group, (meaning, _) in MESSAGE_GROUPS.items():
        rows = [meaning, "", "| Clave | Mensaje (español) |", "|---|---|"]
        # text() without parameters is the template itself: its placeholders still in braces.
        rows += [f"| `{k}` | {_cell(text(k, 'es'))} |" for k in group_keys(group)]
        parts.append("\n".join(rows))
    return "\n\n".join(parts)


GENERATED: dict[str, Callable[[], str]] = {
    "puntos": points_table,
    "limites": limits_table,
    "archivos": files_table,
    "columnas": columns_table,
    "estados": statuses_table,
    "resultados": results_table,
    "mensajes": messages_tables,
}
"""Each generated block of the guide, by the name in its markers."""


def block_names(guide: str) -> list[str]:
    return [m.group("name") for m in _BLOCK.finditer(guide)]


def render(guide: str) -> str:
    """``guide`` with every generated block written again from the code (the prose left as it is)."""

    def fill(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in GENERATED:
            raise KeyError(f"docs/guia-docente.md: unknown generated block {name!r}")
        return f"{match.group(1)}{GENERATED[name]()}\n{match.group(4)}"

    return _BLOCK.sub(fill, guide)
