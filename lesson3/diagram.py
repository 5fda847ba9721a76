"""El dibujo del bucle: los puntos de guardado A y B, la ventana de caída y la ruta de reanudación.

The SVG is built from plain strings so the same call always returns the same
bytes: the notebooks embed it and nbval compares it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from xml.sax.saxutils import escape

from .agent import CRASH_POINTS, check_crash_point

POINT_NUMBERS = {point: n for n, point in enumerate(CRASH_POINTS, 1)}

_SHORT_LABELS = {
    "before_call": "antes de llamar al modelo",
    "after_save_a": "justo después de A",
    "after_tool": "la herramienta ya se ejecutó, B todavía no",
    "after_save_b": "justo después de B",
}

_IN_THE_WINDOW = ("after_save_a", "after_tool")
"""The crash points between save points A and B: a crash there leaves a dangling call."""

_RED = "#c62828"
_RED_LIGHT = "#fdecea"
_BLUE = "#1565c0"
_BLUE_LIGHT = "#e3f2fd"
_GREEN = "#2e7d32"
_GREEN_LIGHT = "#e8f5e9"
_GREY = "#455a64"
_GREY_LIGHT = "#eceff1"


def _text(
    x: float,
    y: float,
    s: str,
    *,
    size: int = 13,
    weight: str = "normal",
    fill: str = "#212121",
    anchor: str = "middle",
    family: str = "sans-serif",
) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-family="{family}" font-size="{size}" font-weight="{weight}" '
        f'fill="{fill}" text-anchor="{anchor}">{escape(s)}</text>'
    )


def _box(
    x: float, y: float, w: float, h: float, lines: list[str], *, fill: str, stroke: str, mono_first: bool = True
) -> str:
    parts = [
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="8" fill="{fill}" stroke="{stroke}" '
        'stroke-width="1.6"/>'
    ]
    top = y + h / 2 - (len(lines) - 1) * 8 + 4
    for i, line in enumerate(lines):
        parts.append(
            _text(
                x + w / 2,
                top + i * 16,
                line,
                size=13 if i == 0 else 11,
                weight="bold" if i == 0 else "normal",
                family="monospace" if mono_first and i == 0 else "sans-serif",
                fill="#212121" if i == 0 else _GREY,
            )
        )
    return "".join(parts)


def _arrow(x1: float, y1: float, x2: float, y2: float, *, color: str = _GREY, dashed: bool = False) -> str:
    dash = ' stroke-dasharray="5 4"' if dashed else ""
    return (
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{color}" stroke-width="1.8"{dash} '
        'marker-end="url(#flecha)"/>'
    )


def _point(x: float, y: float, point: str, highlighted: bool) -> str:
    color = _RED if point in _IN_THE_WINDOW else _BLUE
    r = 15 if highlighted else 11
    ring = (
        f'<circle cx="{x:g}" cy="{y:g}" r="{r + 6}" fill="none" stroke="{color}" stroke-width="2.5" '
        'stroke-dasharray="4 3"/>'
        if highlighted
        else ""
    )
    return f'{ring}<circle cx="{x:g}" cy="{y:g}" r="{r}" fill="{color}"/>' + _text(
        x, y + 4.5, str(POINT_NUMBERS[point]), size=13 if highlighted else 12, weight="bold", fill="#ffffff"
    )


def _known(highlight: str | None) -> str | None:
    if highlight is not None:
        check_crash_point(highlight)
    return highlight


def loop_svg(highlight: str | None = None) -> str:
    """El SVG del bucle; ``highlight`` (uno de ``CRASH_POINTS``) resalta una caída."""
    _known(highlight)
    w, h = 900, 500
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'role="img" aria-label="El bucle del agente con los puntos de guardado A y B y la ventana de caída">',
        '<defs><marker id="flecha" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        f'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{_GREY}"/></marker></defs>',
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>',
        _text(20, 28, "runAgent: la ruta de reanudación y el bucle", size=16, weight="bold", anchor="start"),
    ]

    # Resume path (top row): every branch joins one line that enters the loop.
    top, join = 48, 150
    boxes = [
        (20, 200, ["load_checkpoint()", "leer · JSON · verificar version"], _GREY_LIGHT, _GREY),
        (290, 200, ["¿pendingToolUse?", "¿quedó una llamada colgante?"], _GREY_LIGHT, _GREY),
        (560, 220, ["reconcile(cp)", "rellena el tool_result que falta"], _GREEN_LIGHT, _GREEN),
    ]
    for x, bw, lines, fill, stroke in boxes:
        out.append(_box(x, top, bw, 54, lines, fill=fill, stroke=stroke))
    for x, label in ((220, "hay archivo"), (490, "sí")):
        out += [_arrow(x, top + 27, x + 68, top + 27), _text(x + 34, top + 20, label, size=11, fill=_GREY)]
    dashed = f'stroke="{_GREY}" stroke-width="1.8" stroke-dasharray="5 4"'
    for x, label in ((120, "no hay: estado nuevo, turns = 0"), (390, "no"), (670, "")):
        out.append(f'<line x1="{x}" y1="{top + 54}" x2="{x}" y2="{join}" {dashed}/>')
        if label:
            out.append(_text(x + 8, top + 74, label, size=11, fill=_GREY, anchor="start"))
    out.append(f'<line x1="670" y1="{join}" x2="125" y2="{join}" {dashed}/>')
    out.append(_arrow(125, join, 125, 198, dashed=True))
    out.append(_text(135, 180, "entrada al bucle", size=11, fill=_GREY, anchor="start"))

    # The crash window: everything between the two renames.
    y, bh = 200, 70
    out.append(
        f'<rect x="392" y="{y - 22}" width="280" height="{bh + 44}" rx="10" fill="{_RED_LIGHT}" stroke="{_RED}" '
        'stroke-width="1.2" stroke-dasharray="6 4"/>'
    )
    out.append(_text(532, y - 7, "ventana de caída: entre A y B", size=12, weight="bold", fill=_RED))
    out.append(_text(532, y + bh + 16, "una caída aquí deja una llamada colgante", size=11, fill=_RED))

    # The loop (middle row).
    loop = [
        (30, 190, ["messages.create()", "turns += 1", "tokensUsed = uso actual"], _BLUE_LIGHT, _BLUE, True),
        (262, 140, ["guardar A", "assistant con tool_use", "pendingToolUse = {…}"], "#ffffff", _BLUE, False),
        (452, 150, ["execute_tool()", "efecto en el mundo", "(¿un correo enviado?)"], "#ffffff", _GREY, True),
        (652, 140, ["guardar B", "user con tool_result", "pendingToolUse = null"], "#ffffff", _BLUE, False),
    ]
    for x, bw, lines, fill, stroke, mono in loop:
        out.append(_box(x, y, bw, bh, lines, fill=fill, stroke=stroke, mono_first=mono))
    for (x1, w1, *_), (x2, *_) in itertools.pairwise(loop):
        out.append(_arrow(x1 + w1, y + 35, x2 - 2, y + 35))
    # Back to the next turn.
    back = y + 125
    out.append(
        f'<path d="M 792 {y + 35} L 850 {y + 35} L 850 {back} L 125 {back} L 125 {y + bh + 4}" '
        f'fill="none" stroke="{_GREY}" stroke-width="1.8" marker-end="url(#flecha)"/>'
    )
    out.append(_text(300, back + 16, "siguiente turno (mientras turns < MAX_TURNS)", size=11, fill=_GREY))
    # After save point A the loop ends when the answer asked for no tool.
    out.append(_arrow(332, y, 332, y - 26))
    out.append(_text(326, y - 14, "sin tool_use: fin", size=11, fill=_GREY, anchor="end"))

    where = {
        "before_call": (125, y + bh + 27),
        "after_save_a": (427, y + 35),
        "after_tool": (627, y + 35),
        "after_save_b": (821, y + 35),
    }
    for point, (px, py) in where.items():
        out.append(_point(px, py, point, highlight == point))

    # Legend.
    ly = 376
    out.append(_text(20, ly, "Caídas (SIGKILL del proceso):", size=13, weight="bold", anchor="start"))
    for i, point in enumerate(CRASH_POINTS):
        yy = ly + 28 + i * 28
        dangling = point in _IN_THE_WINDOW
        out.append(_point(40, yy - 4, point, False))
        note = "deja una llamada colgante" if dangling else "sin llamada colgante"
        out.append(
            _text(
                66,
                yy,
                f"{_SHORT_LABELS[point]}: {note}",
                size=12,
                anchor="start",
                fill=_RED if dangling else "#212121",
                weight="bold" if highlight == point else "normal",
            )
        )
    out.append("</svg>")
    return "".join(out)


@dataclass(frozen=True)
class LoopDiagram:
    """Se dibuja solo en Jupyter (``_repr_svg_``); en texto dice qué es."""

    highlight: str | None = None

    def _repr_svg_(self) -> str:
        return loop_svg(self.highlight)

    def __repr__(self) -> str:
        if self.highlight is None:
            return "Diagrama del bucle: puntos de guardado A y B, ventana de caída y las caídas 1 a 4"
        return f"Diagrama del bucle, con la caída {POINT_NUMBERS[self.highlight]} resaltada"


def loop_diagram(highlight: str | None = None) -> LoopDiagram:
    """El diagrama, listo para mostrar en un cuaderno (última expresión de una celda)."""
    return LoopDiagram(_known(highlight))
