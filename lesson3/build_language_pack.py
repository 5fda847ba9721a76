"""The course's JupyterLab language pack: Spanish for every menu, dialog and status a learner of the course uses.

``python -m lesson3.build_language_pack`` writes ``jupyterlab_language_pack_es/`` (locale ``es``) from the
Spain-Spanish pack (``jupyterlab-language-pack-es-ES``: its wheel from PyPI, kept in ``vendor/`` and checked against
:data:`UPSTREAM_SHA256`) and this module's :data:`CORRECTIONS`. That pack leaves the Run, Kernel and Tabs menus,
«Run Selected Cell», the restart dialog and the file browser's «Modified» in English, and calls the kernel
«intérprete», «Kernel» and «Núcleo» in one menu. The course says *kernel* (notebooks/src/*.md), so every
translation is rewritten to that one word.

Why a pack of our own and not the upstream pack plus a patch: JupyterLab's server can merge a package's own
strings into a language pack (entry point ``jupyterlab.locale``) only when both catalogues carry comparable
versions, and the upstream pack's is the word ``jupyterlab`` (``packaging`` refuses it, so the merge would break
every translation). A language pack is the other mechanism JupyterLab offers: an entry point
``jupyterlab.languagepack`` naming a module whose ``locale/<locale>/LC_MESSAGES`` holds, per domain, the
front end's catalogue (``<domain>.json``) and the server's (``<domain>.mo``: menu titles, settings). The server
imports ``jupyterlab_language_pack_<locale>`` by that name for the ``.mo``, hence the top-level package.

The upstream pack is this builder's input, never installed: installed beside the course's, it would be a second
Spanish in Configuración › Idioma (its own locale, ``es_ES``, uncorrected), and the course's pack could not take that
locale instead, since the server finds a pack's ``.mo`` by the module name ``jupyterlab_language_pack_<locale>``,
which would then be upstream's. To move to a new upstream version, put its wheel in ``vendor/`` in place of the old
one, set :data:`UPSTREAM_WHEEL` and :data:`UPSTREAM_SHA256` (PyPI's ``sha256`` of the file) and run the builder.

The committed pack is what this module writes (``tests/test_language_pack.py`` checks it is not stale).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import struct
import sys
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path

LOCALE = "es"
"""The course's locale: plain Spanish, beside the upstream ``es_ES`` (whose module name it cannot reuse)."""
UPSTREAM_MODULE = "jupyterlab_language_pack_es_ES"
UPSTREAM_LOCALE = "es_ES"
REPO = Path(__file__).resolve().parents[1]
PACK = REPO / f"jupyterlab_language_pack_{LOCALE}"
UPSTREAM_WHEEL = REPO / "vendor" / "jupyterlab_language_pack_es_es-4.5.post3-py2.py3-none-any.whl"
"""The upstream pack as PyPI serves it (its version is the one JupyterLab's major version translates)."""
UPSTREAM_SHA256 = "8b315de006bc48d5798988cff6141f00694e411265011ea21570b4f459070381"
CONTEXT = "\x04"
"""gettext's separator between a message's context and its id (``menu\\x04Run``), in both catalogues."""

# Upstream's words for the kernel, each with the course's: «Reiniciar el intérprete», «Reiniciar Núcleo y
# Depurador…», «Apagar todos los núcleos…», «Reconectar al Kernel» all become the course's «kernel».
KERNEL_WORDS = (
    (re.compile(r"\bintérpretes\b"), "kernels"),
    (re.compile(r"\bintérprete\b"), "kernel"),
    (re.compile(r"\b[Nn]úcleos\b"), "kernels"),
    (re.compile(r"\b[Nn]úcleo\b"), "kernel"),
    (re.compile(r"(?<=\S )Kernels?\b"), lambda m: m.group(0).lower()),
)

CORRECTIONS: dict[str, str | tuple[str, str]] = {
    # The menu bar (the server's catalogue: the titles come from the menus' settings schema).
    f"menu{CONTEXT}Run": "Ejecutar",
    f"menu{CONTEXT}Kernel": "Kernel",
    f"menu{CONTEXT}Tabs": "Pestañas",
    # Ejecutar (Run)
    "Run Selected Cell": ("Ejecutar la celda seleccionada", "Ejecutar las celdas seleccionadas"),
    "Run Selected Cell and Insert Below": (
        "Ejecutar la celda seleccionada e insertar una debajo",
        "Ejecutar las celdas seleccionadas e insertar una debajo",
    ),
    "Run Selected Cell and Do not Advance": (
        "Ejecutar la celda seleccionada sin avanzar",
        "Ejecutar las celdas seleccionadas sin avanzar",
    ),
    "Run Selected Cell and All Below": "Ejecutar la celda seleccionada y todas las de debajo",
    "Run All Above Selected Cell": "Ejecutar todas las celdas de arriba",
    "Render All Markdown Cells": "Mostrar todas las celdas Markdown",
    "Run All Cells": "Ejecutar todas las celdas",
    "Run All": "Ejecutar todo",
    "Run Selected": "Ejecutar la selección",
    "Run this cell and advance": ("Ejecutar esta celda y avanzar", "Ejecutar estas %1 celdas y avanzar"),
    "%1 and %2": "%1 y %2",
    # Kernel
    "Interrupt Kernel": "Interrumpir el kernel",
    "Restart Kernel…": "Reiniciar el kernel…",
    "Restart Kernel": "Reiniciar el kernel",
    "Restart Kernel and Clear Outputs of All Cells…": "Reiniciar el kernel y borrar todos los resultados…",
    "Restart Kernel and Clear…": "Reiniciar el kernel y borrar…",
    "Restart Kernel and Run All Cells…": "Reiniciar el kernel y ejecutar todas las celdas…",
    "Restart Kernel and Run All": "Reiniciar el kernel y ejecutar todo",
    "Restart Kernel and Run up to Selected Cell…": "Reiniciar el kernel y ejecutar hasta la celda seleccionada…",
    "Restart Kernel and Debug…": "Reiniciar el kernel y depurar…",
    "Reconnect to Kernel": "Reconectar con el kernel",
    "Shut Down Kernel": "Apagar el kernel",
    "Shut Down All Kernels…": "Apagar todos los kernels…",
    "Change Kernel…": "Cambiar de kernel…",
    "Interrupt the kernel": "Interrumpir el kernel",
    "Restart the kernel": "Reiniciar el kernel",
    "Restart the kernel and run all cells": "Reiniciar el kernel y ejecutar todas las celdas",
    "Restart the kernel and clear all outputs of all cells": "Reiniciar el kernel y borrar todos los resultados",
    # The restart dialog
    "Restart Kernel?": "¿Reiniciar el kernel?",
    "Do you want to restart the kernel of %1? All variables will be lost.": (
        "¿Quieres reiniciar el kernel de %1? Se perderán todas las variables."
    ),
    "Do not ask me again.": "No volver a preguntar.",
    "Do not ask me again": "No volver a preguntar",
    "Confirm Kernel Restart": "Confirmar el reinicio del kernel",
    "Cancel Kernel Restart": "Cancelar el reinicio del kernel",
    # Pestañas (Tabs)
    "Activate Next Tab": "Ir a la pestaña siguiente",
    "Activate Previous Tab": "Ir a la pestaña anterior",
    "Activate Next Tab Bar": "Ir a la barra de pestañas siguiente",
    "Activate Previous Tab Bar": "Ir a la barra de pestañas anterior",
    "Activate Previously Used Tab": "Ir a la última pestaña usada",
    "Close Tab": "Cerrar la pestaña",
    "Close All Tabs": "Cerrar todas las pestañas",
    "Close All Other Tabs": "Cerrar las demás pestañas",
    "Close Tabs to Right": "Cerrar las pestañas de la derecha",
    # Archivo (File) and Editar (Edit): what a learner of the course saves, downloads, copies and moves
    "New Notebook": "Nuevo cuaderno",
    "New Console": "Nueva consola",
    "Open from URL…": "Abrir desde una URL…",
    "Open Recent": "Abiertos recientemente",
    "Close and Shut Down Notebook…": "Cerrar y apagar el cuaderno…",
    "Close and Shut Down…": "Cerrar y apagar…",
    "Revert %1 to Checkpoint…": "Revertir %1 al punto de control…",
    "Rename%1…": "Renombrar%1…",
    f"menu{CONTEXT}Save and Export Notebook As": "Guardar y exportar el cuaderno como",
    "Duplicate %1": "Duplicar %1",
    "Print…": "Imprimir…",
    "Cut Cell": ("Cortar la celda", "Cortar las celdas"),
    "Copy Cell": ("Copiar la celda", "Copiar las celdas"),
    "Paste Cell Below": ("Pegar la celda debajo", "Pegar las celdas debajo"),
    "Paste Cell Above": ("Pegar la celda arriba", "Pegar las celdas arriba"),
    "Paste Cell and Replace": ("Pegar la celda y reemplazar", "Pegar las celdas y reemplazar"),
    "Delete Cell": ("Borrar la celda", "Borrar las celdas"),
    "Move Cell Up": ("Subir la celda", "Subir las celdas"),
    "Move Cell Down": ("Bajar la celda", "Bajar las celdas"),
    "Merge Cell Above": "Unir con la celda de arriba",
    "Merge Cell Below": "Unir con la celda de abajo",
    "Clear Cell Output": "Borrar el resultado de la celda",
    "Clear Outputs of All Cells": "Borrar los resultados de todas las celdas",
    "Cut this cell": ("Cortar esta celda", "Cortar estas %1 celdas"),
    "Copy this cell": ("Copiar esta celda", "Copiar estas %1 celdas"),
    "Paste this cell from the clipboard": (
        "Pegar esta celda desde el portapapeles",
        "Pegar estas %1 celdas desde el portapapeles",
    ),
    # The file browser, the status bar and the notebook's own bar
    "Modified": "Modificado",
    "Idle": "Inactivo",
    "Busy": "Ocupado",
    "Restarting": "Reiniciando",
    "Kernel status: %1": "Estado del kernel: %1",
    "Command": "Comando",
    "Edit": "Edición",
    "Cell %1/%2": "Celda %1/%2",
    "Notebook is in %1 mode": "El cuaderno está en modo %1",
    "Go to cell…": "Ir a la celda…",
    # Archivo: items named after the document (%1 is its file type, see FILE TYPES below), Nuevo, Workspaces
    "New View for %1": "Nueva vista del %1",
    "Reload %1 from Disk": "Recargar el %1 desde el disco",
    "Console": "Consola",  # Nuevo › Consola (upstream's text was the one of «Run Selected Text or Current Line»)
    "%1 File": "Archivo de %1",
    "New %1 File": "Nuevo archivo de %1",
    "Text File": "Archivo de texto",
    "Open from Path…": "Abrir desde una ruta…",
    "Reopen Closed Document": "Reabrir el documento cerrado",
    "Clear Recent Documents": "Borrar los documentos recientes",
    f"menu{CONTEXT}Workspaces": "Espacios de trabajo",
    "Open Workspace…": "Abrir un espacio de trabajo…",
    "Create New Workspace…": "Crear un espacio de trabajo…",
    "Clone Workspace…": "Duplicar el espacio de trabajo…",
    "Rename Workspace…": "Renombrar el espacio de trabajo…",
    "Save Current Workspace": "Guardar el espacio de trabajo",
    "Save Current Workspace As…": "Guardar el espacio de trabajo como…",
    "Import Workspace…": "Importar un espacio de trabajo…",
    "Export Workspace…": "Exportar el espacio de trabajo…",
    "Reset Workspace…": "Restablecer el espacio de trabajo…",
    "Delete Workspace…": "Borrar el espacio de trabajo…",
    # Ver (View)
    "Sessions and Tabs": "Sesiones y pestañas",
    "Debugger Panel": "Panel del depurador",
    "Show Notifications": "Mostrar las notificaciones",
    "Show Line Numbers": "Mostrar los números de línea",
    "Match Brackets": "Resaltar los paréntesis emparejados",
    f"menu{CONTEXT}Code Folding": "Plegado de código",
    "Fold Current Region": "Plegar la región actual",
    "Unfold Current Region": "Desplegar la región actual",
    "Fold All Subregions": "Plegar todas las subregiones",
    "Unfold All Subregions": "Desplegar todas las subregiones",
    "Fold All Regions": "Plegar todas las regiones",
    "Unfold All Regions": "Desplegar todas las regiones",
    "Render Side-by-Side": "Mostrar lado a lado",
    "Fullscreen Mode": "Pantalla completa",
    "Show Left Activity Bar": "Mostrar la barra de actividades izquierda",
    "Show Right Activity Bar": "Mostrar la barra de actividades derecha",
    "Show Down Area": "Mostrar el área inferior",
    "Show Workspace Indicator": "Mostrar el indicador del espacio de trabajo",
    "Show Minimap": "Mostrar el minimapa",
    f"menu{CONTEXT}Activity Bar Position": "Posición de la barra de actividades",
    "Activity Bar Position: %1": "Posición de la barra de actividades: %1",
    "Set Activity Bar Position": "Colocar la barra de actividades",
    "Side": "Al lado",
    "Top": "Arriba",
    "Bottom": "Abajo",
    "Reset Default Layout": "Restablecer la disposición predeterminada",
    f"menu{CONTEXT}Text Editor Syntax Highlighting": "Resaltado de sintaxis del editor de texto",
    # Configuración (Settings)
    "Theme Scrollbars": "Barras de desplazamiento del tema",
    "JupyterLab Dark High Contrast": "JupyterLab modo oscuro de alto contraste",
    "Synchronize with System Settings": "Seguir la configuración del sistema",
    "Show Active File in File Browser": "Mostrar el archivo activo en el explorador de archivos",
    f"menu{CONTEXT}Console Run Keystroke": "Tecla para ejecutar en la consola",
    f"v4{CONTEXT}Spaces: %1": "Espacios: %1",
    "Auto Close Brackets": "Cerrar los paréntesis automáticamente",
    "Settings Editor": "Editor de la configuración",
    "Install more languages…": "Instalar más idiomas…",
    # Ayuda (Help)
    "Licenses": "Licencias",
    "Show Keyboard Shortcuts…": "Mostrar los atajos de teclado…",
    "Jupyter Forum": "Foro de Jupyter",
    # FILE TYPES: the course's extension lesson3-file-types names each file type with the context «file type» (a
    # document's name inside a sentence: «Guardar cuaderno», as the course's texts cite Archivo › Guardar cuaderno),
    # else as JupyterLab does; JupyterLab's own registry keeps the English names («Guardar Notebook»).
    f"file type{CONTEXT}Notebook": "cuaderno",
    f"file type{CONTEXT}Text": "archivo de texto",
    f"file type{CONTEXT}Markdown File": "archivo Markdown",
    f"file type{CONTEXT}Python File": "archivo de Python",
    f"file type{CONTEXT}File": "archivo",
}
"""The course's translations in the ``jupyterlab`` domain, by message id (``context\\x04id`` for a context's): they
win over upstream's. A pair is a message with a plural (JupyterLab's ``_n``): its singular and plural forms, keyed by
the singular."""

DOMAIN_CORRECTIONS: dict[str, dict[str, str | tuple[str, str]]] = {
    "jupyterlab": CORRECTIONS,
    # Configuración's item of the widgets' extension (@jupyter-widgets/jupyterlab-manager)
    "jupyterlab_widgets": {"Save Widget State Automatically": "Guardar el estado de los widgets automáticamente"},
}
"""What each domain's catalogue gains (an extension translates its own strings in a domain of its own name); a
message already in another domain's catalogue takes :data:`CORRECTIONS` too, and its domain's own, which win."""


def _forms(correction: str | tuple[str, str]) -> list[str]:
    return [correction] if isinstance(correction, str) else list(correction)


def spanish_for_the_course(msgid: str, translation: str, form: int = 0, domain: str = "jupyterlab") -> str:
    """One translation (plural ``form``) as the course says it: its own correction if it has one, else upstream's
    with the kernel called «kernel»."""
    corrections = {**CORRECTIONS, **DOMAIN_CORRECTIONS.get(domain, {})}
    if msgid in corrections:
        forms = _forms(corrections[msgid])
        return forms[min(form, len(forms) - 1)]
    for pattern, word in KERNEL_WORDS:
        translation = pattern.sub(word, translation)
    return translation


def read_mo(data: bytes) -> dict[str, str]:
    """A GNU ``.mo`` catalogue's raw entries (plural ids and forms joined by NUL, as stored)."""
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(endian + "4I", data[4:20])
    entries = {}
    for i in range(count):
        olen, ooff = struct.unpack(endian + "2I", data[originals + 8 * i : originals + 8 * i + 8])
        tlen, toff = struct.unpack(endian + "2I", data[translations + 8 * i : translations + 8 * i + 8])
        entries[data[ooff : ooff + olen].decode("utf-8")] = data[toff : toff + tlen].decode("utf-8")
    return entries


def write_mo(entries: Mapping[str, str]) -> bytes:
    """A GNU ``.mo`` catalogue (sorted ids, no hash table), byte for byte the same for the same entries."""
    keys = sorted(entries)
    ids = [k.encode("utf-8") for k in keys]
    strs = [entries[k].encode("utf-8") for k in keys]
    header_size = 7 * 4
    table_size = 8 * len(keys)
    offset = header_size + 2 * table_size
    ids_table, strs_table, blob = [], [], b""
    for chunk, table in ((ids, ids_table), (strs, strs_table)):
        for item in chunk:
            table.append((len(item), offset + len(blob)))
            blob += item + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, len(keys), header_size, header_size + table_size, 0, 0)
    tables = b"".join(struct.pack("<2I", *pair) for pair in ids_table + strs_table)
    return head + tables + blob


def _translate_json(catalogue: dict[str, object], domain: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for msgid, value in catalogue.items():
        if msgid == "":
            out[msgid] = {**value, "language": LOCALE} if isinstance(value, dict) else value
        elif isinstance(value, list):
            out[msgid] = [spanish_for_the_course(msgid, text, i, domain) for i, text in enumerate(value)]
        else:
            out[msgid] = value
    return out


def _translate_mo(entries: dict[str, str], domain: str) -> dict[str, str]:
    out = {}
    for msgid, value in entries.items():
        if msgid == "":  # the header: Language: es
            out[msgid] = re.sub(r"(?m)^Language: .*$", f"Language: {LOCALE}", value)
        else:
            singular = msgid.split("\0")[0]
            forms = value.split("\0")
            out[msgid] = "\0".join(spanish_for_the_course(singular, text, i, domain) for i, text in enumerate(forms))
    return out


def build(upstream: Mapping[str, bytes]) -> Iterator[tuple[str, bytes]]:
    """Each file of the pack (its path inside the package, its bytes), from the upstream pack's catalogues (file name
    in ``LC_MESSAGES`` -> bytes)."""
    target = f"locale/{LOCALE}/LC_MESSAGES"
    domains = sorted(name.removesuffix(".json") for name in upstream if name.endswith(".json"))
    for domain in domains:
        corrections = DOMAIN_CORRECTIONS.get(domain, {})
        catalogue = json.loads(upstream[f"{domain}.json"].decode("utf-8"))
        catalogue.update({k: _forms(v) for k, v in corrections.items() if k not in catalogue})
        text = json.dumps(_translate_json(catalogue, domain), ensure_ascii=False, indent=0, sort_keys=True) + "\n"
        yield f"{target}/{domain}.json", text.encode("utf-8")
        mo = upstream.get(f"{domain}.mo")
        if mo is not None:
            entries = read_mo(mo)
            # The server translates settings schemas, which have no plurals.
            entries.update({k: v for k, v in corrections.items() if isinstance(v, str) and k not in entries})
            yield f"{target}/{domain}.mo", write_mo(_translate_mo(entries, domain))


def upstream_pack(wheel: Path = UPSTREAM_WHEEL) -> dict[str, bytes]:
    """The upstream pack's catalogues, read from its wheel (refused if it is not the file :data:`UPSTREAM_SHA256`
    names)."""
    data = wheel.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != UPSTREAM_SHA256:
        raise ValueError(f"{wheel.name}: sha256 {digest}, expected {UPSTREAM_SHA256}")
    folder = f"{UPSTREAM_MODULE}/locale/{UPSTREAM_LOCALE}/LC_MESSAGES/"
    with zipfile.ZipFile(wheel) as zf:
        return {
            name.removeprefix(folder): zf.read(name)
            for name in zf.namelist()
            if name.startswith(folder) and name.endswith((".json", ".mo"))
        }


def upstream_version(wheel: Path = UPSTREAM_WHEEL) -> str:
    """The upstream pack's version, from its wheel's name (``<name>-<version>-<tags>.whl``)."""
    return wheel.name.split("-")[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    written = dict(build(upstream_pack()))
    locale_dir = PACK / "locale"
    for old in sorted(locale_dir.rglob("*"), reverse=True) if locale_dir.exists() else []:
        if old.is_file() and old.relative_to(PACK).as_posix() not in written:
            old.unlink()
    for rel, data in written.items():
        path = PACK / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"{len(written)} files in {PACK}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
