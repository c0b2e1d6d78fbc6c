"""Draws docs/architecture.svg: the package's layers as bands, and the data flowing up through them.

Run ``python docs/architecture_svg.py`` after changing the tables below; it rewrites the SVG
next to it. Plain SVG 1.1, no script, no external font, on a white ground, so that GitHub
shows it the same in light and dark mode. tests/test_architecture_doc.py fails when the
SVG is not what this script draws.
"""

from __future__ import annotations

from html import escape
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

WIDTH = 1040
BAND_X, BAND_W = 20, 600  # the layer bands, on the left
FLOW_X, FLOW_W = 640, 210  # the data flow boxes, on the right
SIDE_X, SIDE_W = 880, 136  # boxes that feed the flow from the side
TOP = 96  # below the title and the key


class Band(NamedTuple):
    """A layer of the package (or the rule files outside it) as one horizontal band."""

    layer: str  # its number in tests/test_architecture.py's LAYERS, or "" outside the package
    name: str
    what: str
    modules: str
    height: int
    fill: str


class Step(NamedTuple):
    """A box of the data flow, drawn in the band of the code that makes it."""

    band: str  # the name of its Band
    title: str
    detail: str
    offset: int = 0  # up from the band's vertical middle, for two boxes in one band
    side: bool = False  # feeds the flow from the side instead of standing in it


CLIENTS = "bots/ testing/ adapters/ simulate/ web/"

BANDS = (
    Band("8", "venedig_rules/__init__.py", "the public facade; nothing inside imports it", "", 46, "#f3f3f3"),
    Band("7", "cli/", "the venedig-rules command (python -m venedig_rules)", "", 46, "#eaf2fb"),
    Band(
        "6",
        CLIENTS,
        "clients: bots, the test kit, research adapters, balance reports, the web",
        "bots · testing (api_test) · OpenSpiel, PettingZoo · simulate · serve",
        64,
        "#eaf2fb",
    ),
    Band("5", "present/", "text and pictures for people", "narrator · describe · table · render (SVG)", 64, "#fdf3e1"),
    Band(
        "4",
        "engine/",
        "game · ruleset · loading (the API of play) on three floors:",
        "run/ (machine, views, rng) · seat/ (wording, seatview) · research/",
        128,
        "#e6f4ea",
    ),
    Band(
        "3",
        "games/",
        "game modules: primitives too procedural for the DSL",
        "venedig · saeulen · rialto",
        64,
        "#f7eafa",
    ),
    Band(
        "2",
        "effects/",
        "the effect DSL",
        "parse · check · flow · compile · runtime · registry · primitives · context",
        64,
        "#fbeaea",
    ),
    Band(
        "1",
        "data/",
        "rule data: read, merged, checked",
        "reading · yamlsource · schema · variants · checks · board · layout · texts",
        64,
        "#fff9db",
    ),
    Band(
        "0",
        "errors.py  limits.py  _version.py",
        "foundation: every error, located; every limit; the version",
        "",
        46,
        "#f3f3f3",
    ),
    Band("", "rules/  schemas/", "outside the package (in the wheel: venedig_rules/_data/)", "", 56, "#ffffff"),
)

FLOW = (
    Step("rules/  schemas/", "rule files", "YAML rules, JSON Schemas"),
    Step("data/", "checked data", "RawRules: data + positions"),
    Step("effects/", "compiled effects", "Compiled: programs → Python"),
    Step("games/", "game primitives", "a Registry per module", side=True),
    Step("engine/", "a running game", "Ruleset → Game → Machine, State", offset=-28),
    Step("engine/", "views and events", "view(p) and events, per seat", offset=28),
    Step("present/", "sentences and pictures", "narrator, describe, render"),
    Step(CLIENTS, "clients", "bots, test kit, adapters, web, …"),
)

BOX_H = 40


def _tops() -> dict[str, int]:
    tops, y = {}, TOP
    for band in BANDS:
        tops[band.name] = y
        y += band.height
    return tops


def _box_y(step: Step) -> int:
    band = next(b for b in BANDS if b.name == step.band)
    return _tops()[band.name] + band.height // 2 - BOX_H // 2 - step.offset


def _text(
    x: float, y: float, text: str, size: int = 13, weight: str = "normal", mono: bool = False, **extra: str
) -> str:
    family = "DejaVu Sans Mono, Menlo, Consolas, monospace" if mono else "DejaVu Sans, Helvetica, Arial, sans-serif"
    attrs = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in extra.items())
    return (
        f'<text x="{x}" y="{y}" font-family="{family}" font-size="{size}" font-weight="{weight}"'
        f' fill="#1f2328"{attrs}>{escape(text)}</text>'
    )


def _arrow(x1: float, y1: float, x2: float, y2: float) -> str:
    return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#0b6e4f" stroke-width="2" marker-end="url(#head)"/>'


def render() -> str:
    """The whole SVG text."""
    tops = _tops()
    height = TOP + sum(b.height for b in BANDS) + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}">',
        "<title>venedig-rules: the package's layers and the data flowing through them</title>",
        '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7"'
        ' orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#0b6e4f"/></marker></defs>',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        _text(BAND_X, 30, "venedig-rules: layers and data flow", 18, "bold"),
        _text(BAND_X, 54, "Layers (left): a module imports from its own layer and below, never above,"),
        _text(BAND_X, 72, "never in a circle; tests/test_architecture.py enforces it."),
        _text(FLOW_X, 54, "Data flow (right), from the rule files"),
        _text(FLOW_X, 72, "up to the clients:"),
    ]
    for band in BANDS:
        y = tops[band.name]
        dash = ' stroke-dasharray="5,4"' if not band.layer else ""
        out.append(
            f'<rect x="{BAND_X}" y="{y}" width="{WIDTH - 2 * BAND_X}" height="{band.height}"'
            f' fill="{band.fill}" stroke="#c9ced6"{dash}/>'
        )
        if band.layer:
            out.append(_text(BAND_X + 10, y + 20, band.layer, 13, "bold", fill_opacity="0.55"))
        out.append(_text(BAND_X + 34, y + 20, band.name, 14, "bold", mono=True))
        out.append(_text(BAND_X + 34, y + 38, band.what))
        if band.modules:
            out.append(_text(BAND_X + 34, y + 56, band.modules, 12, mono=True))
    main = [s for s in FLOW if not s.side]
    for step in FLOW:
        x, w = (SIDE_X, SIDE_W) if step.side else (FLOW_X, FLOW_W)
        y = _box_y(step)
        out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{BOX_H}" rx="6" fill="#ffffff" stroke="#0b6e4f"/>')
        out.append(_text(x + w / 2, y + 16, step.title, 13, "bold", text_anchor="middle"))
        out.append(_text(x + w / 2, y + 32, step.detail, 11, text_anchor="middle"))
    centre = FLOW_X + FLOW_W / 2
    for lower, upper in pairwise(main):
        out.append(_arrow(centre, _box_y(lower), centre, _box_y(upper) + BOX_H))
    for step in FLOW:
        if step.side:  # a side box feeds the nearest step below it
            below = min((s for s in main if _box_y(s) > _box_y(step)), key=_box_y)
            out.append(_arrow(SIDE_X + SIDE_W / 2, _box_y(step) + BOX_H, FLOW_X + FLOW_W, _box_y(below) + BOX_H / 2))
    views, clients = _box_y(main[-3]), _box_y(main[-1])  # bots read views, not sentences
    out.append(
        f'<path d="M{FLOW_X + FLOW_W},{views + BOX_H / 2} h60 V{clients + BOX_H / 2} h-58" fill="none"'
        ' stroke="#0b6e4f" stroke-width="2" marker-end="url(#head)"/>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    (Path(__file__).parent / "architecture.svg").write_text(render(), encoding="utf-8")
