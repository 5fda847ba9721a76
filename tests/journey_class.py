"""A realistic class for the instructor's journey: 34 learners as Moodle and Canvas hand them out.

One list of people and of what each handed in; :func:`moodle_download` and :func:`canvas_download`
write it as each LMS does (folders or flat files, the LMS's ids, a late upload, a JupyterLab copy beside
the final notebook), with the worksheet or gradebook that LMS exports. The same learners in both, so
a journey can check that either LMS gives the same grades.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLVED = ROOT / "notebooks" / "soluciones" / "04_ejercicios.ipynb"
STARTER = ROOT / "notebooks" / "04_ejercicios.ipynb"
SUBMISSIONS = ROOT / "tests" / "data" / "submissions"
UNKNOWN = (
    "Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada terminara, así que no hay "
    "manera de confirmar si tuvo efecto. Por favor, reevalúa la situación actual."
)
UNCLEAR = "Probablemente el correo ya se envió, pero no podemos confirmarlo."
"""An is_error text no rule can decide: it leaves nivel2.is_error_fallback to a person."""


def _solved(**changes: str) -> bytes:
    """The solved notebook with some of its text replaced (a wrong answer, another is_error text)."""
    notebook = json.loads(SOLVED.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        for old, new in changes.items():
            source = source.replace(old, new)
        cell["source"] = source
    return json.dumps(notebook, ensure_ascii=False, indent=1).encode("utf-8")


KINDS: dict[str, tuple[tuple[str, bytes], ...]] = {
    "solved": (("04_ejercicios.ipynb", SOLVED.read_bytes()),),
    "script": (("04_ejercicios.py", (SUBMISSIONS / "good.py").read_bytes()),),
    "incident": (("04_ejercicios.py", (SUBMISSIONS / "production.py").read_bytes()),),
    "deletes": (("04_ejercicios.py", (SUBMISSIONS / "delete_dangling.py").read_bytes()),),
    "turns_reset": (("entrega.py", (SUBMISSIONS / "resume_turns_reset.py").read_bytes()),),
    "starter": (("04_ejercicios.ipynb", STARTER.read_bytes()),),
    "unclear": (("04_ejercicios.ipynb", _solved(**{UNKNOWN: UNCLEAR})),),
    "wrong_letters": (("04_ejercicios.ipynb", _solved(**{'razon_cpA = "b"': 'razon_cpA = "a"'})),),
    # JupyterLab's duplicate of an earlier attempt, handed in beside the final notebook.
    "with_copy": (("04_ejercicios-Copy1.ipynb", STARTER.read_bytes()), ("04_ejercicios.ipynb", SOLVED.read_bytes())),
}

NAMES = (
    ("Ana", "García Núñez"),
    ("Álvaro", "Ruiz Gil"),
    ("Íñigo", "Ñúñez"),
    ("Óscar", "Pérez Ibáñez"),
    ("Teresa", "Abad"),
    ("María José", "Núñez"),
    ("Beto", "Sanz"),
    ("Carla", "Gil"),
    ("Diego", "Martín"),
    ("Elena", "Vidal"),
    ("Fernando", "López"),
    ("Gloria", "Ortega"),
    ("Héctor", "Díaz"),
    ("Irene", "Castro"),
    ("Jorge", "Molina"),
    ("Laura", "Rubio"),
    ("Manuel", "Serrano"),
    ("Nuria", "Blanco"),
    ("Pablo", "Romero"),
    ("Quique", "Navarro"),
    ("Rocío", "Torres"),
    ("Sergio", "Domínguez"),
    ("Úrsula", "Vázquez"),
    ("Víctor", "Ramos"),
    ("Ximena", "Iglesias"),
    ("Yolanda", "Cano"),
    ("Zoe", "Prieto"),
    ("Adrián", "Méndez"),
    ("Belén", "Cruz"),
    ("César", "Herrera"),
    ("Dolores", "Peña"),
    ("Ernesto", "Flores"),
    ("Fátima", "Campos"),
    ("Gonzalo", "Vega"),
)


@dataclass(frozen=True)
class Learner:
    first: str
    last: str
    ident: int
    kind: str
    late: bool = False

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def canvas_key(self) -> str:
        """Canvas's «apellidonombre»: lower case, no spaces, accents kept."""
        return (self.last + self.first).lower().replace(" ", "")


LOCKED = 5
"""The learner whose Moodle row the instructor locked (a grade of 70,00 validated by hand)."""
GRADED_BY_HAND = 6
"""The learner whose Moodle row already holds a grade and a comment the instructor wrote."""
NO_SUBMISSION = ("María", "Sin Entrega", 999)
"""In the worksheet and the gradebook, with nothing handed in."""


def learners() -> list[Learner]:
    kinds = list(KINDS)
    return [
        Learner(first, last, 101 + i, kinds[i % len(kinds)], late=i % 7 == 3) for i, (first, last) in enumerate(NAMES)
    ]


def moodle_download(path: Path, people: list[Learner], *, wrapped: bool = False) -> Path:
    """Moodle's «Descargar todas las entregas»: a folder per participant; wrapped, that zip in «Tarea 4/» in a zip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for person in people:
            folder = f"{person.full}_{person.ident}_assignsubmission_file_"
            for name, content in KINDS[person.kind]:
                zf.writestr(f"{folder}/{name}", content)
    if not wrapped:
        path.write_bytes(buffer.getvalue())
        return path
    with zipfile.ZipFile(path, "w") as outer:
        outer.writestr("Tarea 4/tarea4-descarga.zip", buffer.getvalue())
    return path


def moodle_worksheet(path: Path, people: list[Learner], lang: str = "es") -> Path:
    """The grading worksheet as Moodle exports it (Spanish or English headers), every cell quoted as Moodle does."""
    es = lang == "es"
    header = [
        *("Identificador", "Nombre completo", "Dirección de correo", "Estado", "Calificación", "Calificación máxima"),
        *("La calificación puede ser cambiada", "Última modificación (entrega)"),
        *("Última modificación (calificación)", "Comentarios de retroalimentación"),
    ]
    if not es:
        header = [
            *("Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade", "Grade can be changed"),
            *("Last modified (submission)", "Last modified (grade)", "Feedback comments"),
        ]
    rows = []
    everyone = [*people, Learner(NO_SUBMISSION[0], NO_SUBMISSION[1], NO_SUBMISSION[2], "none")]
    for i, person in enumerate(everyone):
        submitted = person.kind != "none"
        status = ("Enviado para calificar" if es else "Submitted for grading") if submitted else "Sin entrega"
        if person.late:
            status += " - Retrasado por: 2 horas" if es else " - Late by: 2 hours"
        grade, changeable, comment = "", "Sí" if es else "Yes", ""
        if i == LOCKED:
            grade, changeable, comment = "70,00" if es else "70.00", "No", "Nota bloqueada (convalidación)."
        elif i == GRADED_BY_HAND:
            grade, comment = ("55,00" if es else "55.00"), "Corregido a mano antes de la exportación."
        email = unicodedata.normalize("NFKD", f"{person.first}.{person.last.split()[0]}").encode("ascii", "ignore")
        rows.append(
            [
                f"{'Participante' if es else 'Participant'} {person.ident}",
                person.full,
                email.decode().lower().replace(" ", "") + "@example.edu",
                status,
                grade,
                "100,00" if es else "100.00",
                changeable,
                "lunes, 30 de noviembre de 2026, 18:02" if submitted else "-",
                "-",
                comment,
            ]
        )
    with path.open("w", encoding="utf-8-sig" if es else "utf-8", newline="") as f:
        writer = csv.writer(f, quoting=csv.QUOTE_ALL)
        writer.writerow(header)
        writer.writerows(rows)
    return path


CANVAS_COLUMN = "Lección 3: reanudar desde un punto de control (4521)"


def canvas_download(path: Path, people: list[Learner]) -> Path:
    """Canvas's «Descargar entregas»: flat files ``apellidonombre[_LATE]_USERID_ATTACHID_name``."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        attach = 90000
        for person in people:
            for name, content in KINDS[person.kind]:
                attach += 1
                late = "_LATE" if person.late else ""
                zf.writestr(f"{person.canvas_key}{late}_{person.ident}_{attach}_{name}", content)
    return path


def canvas_gradebook(path: Path, people: list[Learner]) -> Path:
    """Canvas's gradebook export: a «Points Possible» row, other assignments and totals around the column."""
    everyone = [*people, Learner(NO_SUBMISSION[0], NO_SUBMISSION[1], NO_SUBMISSION[2], "none")]
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(
            [
                *("Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lección 2: guardar el estado (4400)"),
                *(CANVAS_COLUMN, "Assignments Current Score", "Current Score", "Final Score"),
            ]
        )
        writer.writerow(
            ["    Points Possible", "", "", "", "", "5.00", "10.00", "(read only)", "(read only)", "(read only)"]
        )
        for person in everyone:
            who = (f"{person.last}, {person.first}", person.ident, f"A{person.ident}", f"u{person.ident}", "Grupo A")
            writer.writerow([*who, "4.50", "", "90.00", "90.00", "45.00"])
    return path
