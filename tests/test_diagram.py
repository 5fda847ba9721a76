"""The loop picture: valid SVG, the four crash points, the window, and the highlight."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from lesson3 import CRASH_POINTS
from lesson3.diagram import POINT_NUMBERS, loop_diagram, loop_svg

SVG = "{http://www.w3.org/2000/svg}"


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_svg_is_well_formed_and_names_both_save_points_and_the_window() -> None:
    root = ET.fromstring(loop_svg())
    assert root.tag == f"{SVG}svg"
    texts = _texts(root)
    assert "guardar A" in texts and "guardar B" in texts
    assert any("ventana de caída" in t for t in texts)
    assert "reconcile(cp)" in texts and "load_checkpoint()" in texts


def test_every_crash_point_is_drawn_on_the_loop_and_in_the_legend() -> None:
    texts = _texts(ET.fromstring(loop_svg()))
    for point in CRASH_POINTS:
        assert texts.count(str(POINT_NUMBERS[point])) == 2, point  # once on the loop, once in the legend
    legend = [t for t in texts if "colgante" in t and ":" in t]
    dangling = [t for t in legend if "deja una llamada colgante" in t]
    assert len(dangling) == 2  # only the two points inside the window leave one


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_highlight_rings_exactly_one_point(point: str) -> None:
    plain, marked = loop_svg(), loop_svg(point)
    assert plain.count('stroke-dasharray="4 3"') == 0
    assert marked.count('stroke-dasharray="4 3"') == 1
    ET.fromstring(marked)


def test_same_call_same_bytes() -> None:
    assert loop_svg("after_tool") == loop_svg("after_tool")


def test_unknown_point_is_a_clear_spanish_error() -> None:
    with pytest.raises(ValueError, match="caída desconocida «en_medio»"):
        loop_svg("en_medio")
    with pytest.raises(ValueError, match="los válidos: before_call"):
        loop_diagram("en_medio")


def test_notebook_display_is_svg_with_a_text_twin() -> None:
    d = loop_diagram("after_save_a")
    assert d._repr_svg_() == loop_svg("after_save_a")
    assert repr(d) == "Diagrama del bucle, con la caída 2 resaltada"
    assert "las caídas 1 a 4" in repr(loop_diagram())
