"""The course's JupyterLab language pack (jupyterlab_language_pack_es): current, one word for the kernel, read
back by the same gettext JupyterLab's server uses."""

from __future__ import annotations

import gettext
import io
import json
import re

import pytest

from lesson3 import build_language_pack as pack

MESSAGES = pack.PACK / "locale" / pack.LOCALE / "LC_MESSAGES"


def test_the_committed_pack_is_the_one_the_builder_writes():
    written = dict(pack.build(pack.upstream_pack()))
    committed = {p.relative_to(pack.PACK).as_posix(): p.read_bytes() for p in (pack.PACK / "locale").rglob("*.*")}
    assert committed.keys() == written.keys(), "run: python -m lesson3.build_language_pack"
    stale = [rel for rel, data in written.items() if committed[rel] != data]
    assert not stale, f"stale {stale}: run python -m lesson3.build_language_pack"


def test_upstream_is_read_from_the_wheel_pypi_serves_and_no_other(tmp_path):
    catalogues = pack.upstream_pack()
    assert {"jupyterlab.json", "jupyterlab.mo"} <= catalogues.keys()
    changed = tmp_path / pack.UPSTREAM_WHEEL.name
    changed.write_bytes(pack.UPSTREAM_WHEEL.read_bytes() + b"\0")
    with pytest.raises(ValueError, match="sha256"):
        pack.upstream_pack(changed)


def _every_translation() -> list[tuple[str, str, str]]:
    found = []
    for path in MESSAGES.glob("*.json"):
        for msgid, forms in json.loads(path.read_text(encoding="utf-8")).items():
            if msgid:
                found.extend((path.name, msgid, form) for form in forms)
    for path in MESSAGES.glob("*.mo"):
        for msgid, value in pack.read_mo(path.read_bytes()).items():
            if msgid:
                found.extend((path.name, msgid, form) for form in value.split("\0"))
    return found


def test_the_kernel_has_one_name_the_courses():
    others = [t for t in _every_translation() if re.search(r"intérprete|[Nn]úcleo", t[2])]
    assert not others, others[:10]
    capitalised = [t for t in _every_translation() if re.search(r"\S Kernel", t[2])]
    assert not capitalised, capitalised[:10]


@pytest.mark.parametrize(
    ("english", "wrong", "right"),
    [
        ("Reiniciar el intérprete y ejecutar", "intérprete", "kernel"),
        ("Apagar todos los núcleos…", "núcleos", "kernels"),
        ("Reiniciar Núcleo y Depurador…", "Núcleo", "kernel"),
        ("Reconectar al Kernel", "Kernel", "kernel"),
    ],
)
def test_upstreams_other_words_for_the_kernel_become_kernel(english, wrong, right):
    said = pack.spanish_for_the_course("(no correction)", english)
    assert wrong not in said and right in said


def test_what_a_learner_touches_is_spanish_in_both_catalogues():
    front = json.loads((MESSAGES / "jupyterlab.json").read_text(encoding="utf-8"))
    server = gettext.GNUTranslations(io.BytesIO((MESSAGES / "jupyterlab.mo").read_bytes()))
    for title, spanish in (("Run", "Ejecutar"), ("Kernel", "Kernel"), ("Tabs", "Pestañas"), ("File", "Archivo")):
        assert server.pgettext("menu", title) == spanish
        assert front[f"menu\x04{title}"] == [spanish]
    # A message with a plural has both forms, or JupyterLab shows the English.
    assert front["Run Selected Cell"] == ["Ejecutar la celda seleccionada", "Ejecutar las celdas seleccionadas"]
    restart = "Do you want to restart the kernel of %1? All variables will be lost."
    for msgid in ("Restart Kernel?", restart, "Modified"):
        (spanish,) = front[msgid]
        assert spanish != msgid
    assert front[""]["language"] == pack.LOCALE


def test_mo_round_trip():
    entries = {"": "Content-Type: text/plain; charset=UTF-8\n", "a": "b", "menu\x04Run": "Ejecutar", "x\0xs": "y\0ys"}
    assert pack.read_mo(pack.write_mo(entries)) == entries
    catalogue = gettext.GNUTranslations(io.BytesIO(pack.write_mo(entries)))
    assert catalogue.ngettext("x", "xs", 2) == "ys" and catalogue.pgettext("menu", "Run") == "Ejecutar"


def test_documents_are_named_as_the_course_cites_them():
    # lesson3-file-types names a file type with the context «file type»: «Save %1» is then «Guardar cuaderno», the
    # item the learner's edition cites (Archivo › Guardar cuaderno), not «Guardar Notebook».
    front = json.loads((MESSAGES / "jupyterlab.json").read_text(encoding="utf-8"))
    (notebook,) = front["file type\x04Notebook"]
    assert front["Save %1"][0].replace("%1", notebook) == "Guardar cuaderno"
    extension = (pack.REPO / "jupyter-config/labextensions/lesson3-file-types/static/remoteEntry.js").read_text()
    assert 'trans._p("file type", english)' in extension


def test_other_domains_take_their_own_corrections():
    widgets = json.loads((MESSAGES / "jupyterlab_widgets.json").read_text(encoding="utf-8"))
    assert widgets["Save Widget State Automatically"] == ["Guardar el estado de los widgets automáticamente"]
    said = pack.spanish_for_the_course("Save Widget State Automatically", "x", domain="jupyterlab_widgets")
    assert said.startswith("Guardar")
    # The jupyterlab domain's corrections hold wherever the message is (retrolab's «New Notebook»).
    assert pack.spanish_for_the_course("New Notebook", "Nuevo Notebook", domain="retrolab") == "Nuevo cuaderno"


def test_the_kernels_help_links_are_spanish():
    config = json.loads((pack.REPO / "jupyter-config/ipython/ipython_kernel_config.json").read_text())
    texts = [link["text"] for link in config["IPythonKernel"]["help_links"]]
    assert texts and all(text.startswith("Referencia de ") for text in texts)
