"""Pictures of a position: an SVG of the board and of every seat's zones, as one seat (or a
spectator) sees them.

The picture is drawn from a view (``game.view(seat)``, or the spectator's view with only
public information), never from the hidden state, and from the board's layout
(:meth:`~venedig_rules.data.board.Board.layout`): nothing in it is written for one game.
``board.yaml`` ``layout.show`` says how each state variable is drawn on the board (pillars
as tokens on squares, councilmen as counts in districts, gondolas as pieces on their
track); every other variable is listed beside the board, per seat and for the table.

Every board space is one element with ``data-space="<id>"``; regions carry ``data-region``,
connections ``data-connection``, track steps ``data-track`` and ``data-step``, pieces
``data-player``.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=1)
>>> picture = render_svg(game)                       # a spectator's picture
>>> picture.startswith("<svg") and picture.count("data-space=") == len(game.rules.board.spaces)
True
>>> "casa_card" in render_svg(game, seat=0)          # p0's own hand (names, and ids in data-value)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..data.layout import Layout, ShowLayout, along, border, show_entry
from ..engine.seat.wording import Wording
from .svg import PLAYER_DEFAULT, color, element, number, points, readable_on, spare_color, text
from .zones import Zones, describe_value

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.ruleset_base import RulesetBase

#: Pixels per board unit, bounded so small boards stay legible and large ones fit a screen.
SCALE_RANGE = (28.0, 60.0)
#: The board's width in pixels aimed at.
BOARD_PIXELS = 880.0
#: Board units of margin around everything drawn.
MARGIN = 0.6
#: The width of the text column beside the board, in pixels.
PANEL_PIXELS = 440
#: Drawing colours that are not game facts.
STYLE = {
    "paper": "#f3efe6",
    "land": "#eadfbf",
    "water": "#9cc3e0",
    "ink": "#3b3024",
    "step": "#fbf7ea",
    "highlight": "#e0a800",
    "bridge_spot": "#ffffff",
}
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def spectator_view(game: Game) -> dict[str, Any]:
    """The view of a spectator: only public information (no seat's hand, no secret choice).

    >>> import venedig_rules as vr
    >>> view = spectator_view(vr.load("venedig").new_game(players=2, seed=1))
    >>> view["state"]["hand"], view["decision"]
    ([{'hidden': 3}, {'hidden': 3}], None)
    """
    return dict(game.view(None))


def render_svg(game: Game, seat: int | None = None, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """The position as ``seat`` sees it (a spectator when ``None``), as SVG text, its words in
    ``lang`` with the seats named ``names`` (else ``p0``, ``p1``, ...).

    >>> import venedig_rules as vr
    >>> game = vr.load("venedig").new_game(players=3, seed=7)
    >>> "Am Zug: Anna" in render_svg(game, seat=1, lang="de", names=["Anna", "Ben", "Cem"])
    True
    """
    return render_view(game.rules, game.view(seat, lang=lang, names=names), names)


def render_view(rules: RulesetBase, view: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """A view (``game.view(seat)`` or :func:`spectator_view`) of a game of ``rules`` as SVG text,
    in the view's language (its ``lang``), the seats named ``names``."""
    layout: Layout = rules.derived("present.layout", lambda r: r.board.layout())  # read only here
    wording = Wording(rules, str(view.get("lang") or "en"), names)
    canvas = _Canvas(wording, view, layout, _shows(rules, layout))
    board = canvas.board()
    scale = min(max(BOARD_PIXELS / canvas.width, SCALE_RANGE[0]), SCALE_RANGE[1])
    board_px = (canvas.width * scale, canvas.height * scale)
    zones = Zones(wording, view, canvas.colors, shown={s["var"] for s in canvas.shows if s["var"]})
    panel, panel_height = zones.panel(x=board_px[0] + 24, legend=canvas.legend)
    width, height = board_px[0] + 24 + PANEL_PIXELS, max(board_px[1], panel_height) + 16
    x0, y0 = canvas.origin
    return (
        element(
            "svg",
            "".join(
                [
                    element("title", text(f"{rules.title}: {zones.seen_by()}")),
                    element("rect", x=0, y=0, width=width, height=height, fill=STYLE["paper"]),
                    element(
                        "g",
                        board,
                        transform=f"scale({number(scale)}) translate({number(-x0)} {number(-y0)})",
                        class_="board",
                    ),
                    panel,
                ]
            ),
            xmlns="http://www.w3.org/2000/svg",
            width=round(width),
            height=round(height),
            viewBox=f"0 0 {round(width)} {round(height)}",
            font_family=FONT,
            data_ruleset=rules.name,
            data_seat="spectator" if view.get("player") is None else view["player"],
        )
        + "\n"
    )


def player_colors(rules: RulesetBase, layout: Layout | None = None) -> list[str]:
    """Each seat's colour as drawn: the colours of the component ``layout.player_colors_from``
    names (Venedig's gondolas), else a default palette.

    >>> import venedig_rules as vr
    >>> player_colors(vr.load("venedig"))[:2]
    ['#d33f3f', '#3c9a48']
    """
    source = (layout or rules.board.layout())["player_colors_from"]
    names = list(PLAYER_DEFAULT)
    if source:
        names = [str(c) for c in rules.item(source).get("colors") or ()] or names
    return [color(n) for n in names]


def _shows(rules: RulesetBase, layout: Layout) -> list[ShowLayout]:
    """The drawing declarations; a board that declares none shows each per-space variable as a
    label and each per-player number whose name is a board track's as pieces on it."""
    if layout["show"]:
        return layout["show"]
    state = rules.compiled.state if rules.compiled is not None else {}
    out = []
    for name, info in state.items():
        if info.per == "space":
            out.append(show_entry({"var": name, "as": "label"}))
        elif info.per == "player" and name in layout["tracks"]:
            out.append(show_entry({"var": name, "track": name}))
    return out


class _Piece(NamedTuple):
    """A player's piece on a track: the ``value`` it stands for and the ``lap`` it is on."""

    player: int
    value: int
    lap: int


@dataclass
class _Space:
    """What is drawn on one space, layer by layer."""

    fill: str | None = None
    pieces: list[tuple[str, str]] = field(default_factory=list)  # (colour, label)
    tokens: list[tuple[str, str]] = field(default_factory=list)  # (colour, text)
    labels: list[str] = field(default_factory=list)


class _Canvas:
    """The board part of the picture, in board units."""

    def __init__(self, wording: Wording, view: Mapping[str, Any], layout: Layout, shows: list[ShowLayout]):
        self.wording, self.rules, self.view, self.layout, self.shows = wording, wording.rules, view, layout, shows
        self.state: Mapping[str, Any] = view["state"]
        self.colors = player_colors(self.rules, layout)
        self.legend: list[tuple[str, str]] = []  # (colour, what it means)
        bounds = layout["bounds"]
        self.origin = (bounds["x"] - MARGIN, bounds["y"] - MARGIN)
        self.width = bounds["width"] + 2 * MARGIN
        self.height = bounds["height"] + 2 * MARGIN

    # -- the whole board -----------------------------------------------------------------------
    def board(self) -> str:
        x0, y0 = self.origin
        parts = [
            element("rect", x=x0, y=y0, width=self.width, height=self.height, fill=STYLE["water"], rx=0.3),
            *self.water(),
            *self.region_areas(),
            *self.spaces(),
            *self.outlines(),
            *self.region_borders(),
            *self.connections(),
            *self.regions(),
            *self.tracks(),
        ]
        return "".join(parts)

    def water(self) -> list[str]:
        out = []
        for w in self.layout["water"]:
            if w["outline"]:
                out.append(element("polygon", points=points(w["outline"]), fill=STYLE["water"], stroke="none"))
            if w["path"]:
                out.append(_line(w["path"], "#86b4da", w["width"] or 0.6, stroke_linecap="round"))
            if w["label"] and w["name"]:
                # the language's words may translate a water's name (Grand Canal: Canal Grande)
                name = self.wording.word(w["name"]) if w["name"] in self.wording.lang.words else w["name"]
                out.append(self.label(w["label"], name, size=0.32, fill="#2f5f8a", font_style="italic", opacity=0.85))
        return out

    def region_areas(self) -> list[str]:
        out = []
        for region in self.layout["regions"].values():
            if region["outline"]:
                out.append(
                    element(
                        "polygon",
                        points=points(region["outline"]),
                        fill=STYLE["land"],
                        stroke=STYLE["ink"],
                        stroke_width=0.05,
                        stroke_linejoin="round",
                    )
                )
        return out

    # -- spaces --------------------------------------------------------------------------------
    def spaces(self) -> list[str]:
        drawn = {sid: _Space() for sid in self.layout["spaces"]}
        for show in self.shows:
            if show["on"] == "spaces" and show["as"] != "outline":
                for sid, value in self.space_values(show).items():
                    self.put(drawn[sid], show, value)
        return [self.space(sid, drawn[sid]) for sid in self.layout["spaces"]]

    def space_values(self, show: ShowLayout) -> dict[str, Any]:
        spaces = self.layout["spaces"]
        if show["attr"]:
            return {sid: self.rules.board.attrs(sid).get(show["attr"]) for sid in spaces}
        value = self.state.get(show["var"] or "")
        if isinstance(value, Mapping):
            return {sid: value.get(sid) for sid in spaces}
        if show["where"] is None:
            return {}
        return {sid: value for sid in self.rules.board.spaces_where(**show["where"])}

    def put(self, space: _Space, show: ShowLayout, value: Any) -> None:
        if value is None or value is False:
            return
        kind = show["as"]
        fill = self.value_color(show, value)
        if kind == "fill":  # a fill covers what earlier layers put on the space (a tile over pillars)
            space.fill = fill
            space.pieces, space.tokens, space.labels = [], [], []
        elif kind == "piece":
            label = show["labels"].get(str(value))
            space.pieces.append((fill, self.wording.word(label) if label else ""))
        elif kind == "token":
            shown = "" if value is True or self.is_player(show, value) else describe_value(self.wording, value)
            space.tokens.append((fill, shown if len(shown) <= 3 else ""))
        else:
            space.labels.append(describe_value(self.wording, value))

    def space(self, sid: str, drawn: _Space) -> str:
        info = self.layout["spaces"][sid]
        cx, cy = info["center"]
        parts = [
            element("title", text(sid + (f" ({self.region_name(info['region'])})" if info["region"] else ""))),
            element(
                "polygon",
                points=points(info["outline"]),
                fill=drawn.fill or STYLE["land"],
                stroke=STYLE["ink"],
                stroke_width=0.025,
                stroke_opacity=0.55,
            ),
        ]
        half = 0.3 if info["shape"] == "hex" else 0.34
        for fill, label in drawn.pieces:
            parts.append(
                element(
                    "rect",
                    x=cx - half,
                    y=cy - half,
                    width=2 * half,
                    height=2 * half,
                    rx=0.08,
                    fill=fill,
                    stroke=STYLE["ink"],
                    stroke_width=0.04,
                )
            )
            if label:
                parts.append(
                    self.label([cx, cy], label, size=min(0.22, 1.1 / max(len(label), 1)), fill=readable_on(fill))
                )
        for depth, (fill, shown) in enumerate(drawn.tokens):
            r = max(0.1, 0.3 - 0.09 * depth)
            parts.append(element("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=STYLE["ink"], stroke_width=0.035))
            if shown:
                parts.append(self.label([cx, cy], shown, size=0.2, fill=readable_on(fill)))
        for i, label in enumerate(drawn.labels):
            parts.append(self.label([cx, cy + 0.26 * (i - (len(drawn.labels) - 1) / 2)], label, size=0.17))
        return element("g", "".join(parts), data_space=sid, class_="space")

    def outlines(self) -> list[str]:
        out = []
        for show in self.shows:
            if show["on"] != "spaces" or show["as"] != "outline":
                continue
            # each group is [item, [space, ...]]; anything else in the variable is not drawn
            for group in self.state.get(show["var"] or "") or ():
                if not (isinstance(group, list) and len(group) == 2 and isinstance(group[1], list)):
                    continue
                item, where = group
                spaces = [s for s in where if s in self.layout["spaces"]]
                out.append(
                    element(
                        "path",
                        element("title", text(describe_value(self.wording, item))),
                        d=_segments(border(self.layout, spaces)),
                        fill="none",
                        stroke=STYLE["ink"],
                        stroke_width=0.09,
                        stroke_linecap="round",
                        data_item=item,
                    )
                )
        return out

    # -- regions -------------------------------------------------------------------------------
    def region_borders(self) -> list[str]:
        out = []
        for region in self.layout["regions"].values():
            if region["outline"] or not region["border"]:
                continue
            out.append(
                element("path", d=_segments(region["border"]), fill="none", stroke=STYLE["ink"], stroke_width=0.06)
            )
        return out

    def regions(self) -> list[str]:
        highlight, numbers = set(), {}
        for show in self.shows:
            value = self.state.get(show["var"] or "")
            if show["on"] == "regions" and show["as"] == "highlight" and isinstance(value, str):
                highlight.add(value)
            if show["on"] == "regions" and show["as"] == "number" and isinstance(value, list):
                numbers.update({str(rid): i + 1 for i, rid in enumerate(value)})
        counts = [s for s in self.shows if s["on"] == "regions" and s["as"] == "count"]
        out = []
        for index, (rid, region) in enumerate(self.layout["regions"].items()):
            x, y = region["label"]
            parts = [element("title", text(region["name"]))]
            if rid in highlight:
                parts.append(self.highlight(region))
            parts.append(
                self.label([x, y], region["name"], size=0.36, font_weight="bold", fill=STYLE["ink"], halo=True)
            )
            if rid in numbers:
                parts.append(
                    element("circle", cx=x, cy=y - 0.62, r=0.25, fill="#ffffff", stroke=STYLE["ink"], stroke_width=0.04)
                )
                parts.append(self.label([x, y - 0.62], str(numbers[rid]), size=0.28, font_weight="bold"))
            for show in counts:
                parts += self.counts(show, index, [x, y + 0.62])
            out.append(element("g", "".join(parts), data_region=rid, class_="region"))
        return out

    def highlight(self, region: Mapping[str, Any]) -> str:
        style: dict[str, Any] = {"fill": "none", "stroke": STYLE["highlight"], "stroke_width": 0.16}
        if region["outline"]:
            return element("polygon", points=points(region["outline"]), stroke_linejoin="round", **style)
        return element("path", d=_segments(region["border"]), stroke_linecap="round", **style)

    def counts(self, show: ShowLayout, index: int, at: Sequence[float]) -> list[str]:
        per_player = self.state.get(show["var"] or "") or []
        here = [
            (p, row[index])
            for p, row in enumerate(per_player)
            if isinstance(row, list) and index < len(row) and isinstance(row[index], int) and row[index] > 0
        ]
        out = []
        for k, (p, n) in enumerate(here):
            x = at[0] + (k - (len(here) - 1) / 2) * 0.56
            fill = self.colors[p % len(self.colors)]
            out.append(self.disc(p, [x, at[1]], 0.25, f"p{p}: {n}"))
            out.append(self.label([x, at[1]], str(n), size=0.26, fill=readable_on(fill), font_weight="bold"))
        return out

    # -- connections ---------------------------------------------------------------------------
    def connections(self) -> list[str]:
        tiles: dict[int, Any] = {}
        tile_show: ShowLayout | None = None
        for show in self.shows:
            if show["on"] == "connections":
                tile_show = show
                tiles = dict(enumerate(self.state.get(show["var"] or "") or ()))
        out = []
        for index, (cid, con) in enumerate(self.layout["connections"].items()):
            names = " - ".join(self.region_name(r) for r in con["between"])
            parts = [element("title", text(f"{cid}: {names}"))]
            if con["spaces"]:  # a bridge spot between two spaces: a white dashed line, as printed
                parts.append(_line(con["path"], STYLE["bridge_spot"], 0.08, stroke_dasharray="0.16 0.12"))
            else:
                parts.append(_line(con["path"], "#2f5f8a", 0.05, stroke_dasharray="0.12 0.1"))
                parts.append(self.tile(con, tiles.get(index), tile_show))
            out.append(element("g", "".join(parts), data_connection=cid, class_="connection"))
        return out

    def tile(self, con: Mapping[str, Any], entry: Any, show: ShowLayout | None) -> str:
        """The slot of a connection, with the tile on it (``[tile, end, end]``) if any."""
        (ax, ay), (bx, by) = along(con["path"], 0.45), along(con["path"], 0.55)
        cx, cy = con["center"]
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        ux, uy = dx / length, dy / length
        angle = _degrees(ux, uy)
        placed = isinstance(entry, list) and entry
        tile, ends = (entry[0], entry[1:3]) if placed else (None, [])
        fill = self.value_color(show, tile) if placed and show else "#ffffff"
        parts = [
            element(
                "rect",
                x=cx - 0.6,
                y=cy - 0.27,
                width=1.2,
                height=0.54,
                rx=0.1,
                fill=fill if placed else "#ffffff",
                fill_opacity=1 if placed else 0.55,
                stroke=STYLE["ink"],
                stroke_width=0.04,
                stroke_dasharray=None if placed else "0.1 0.07",
                transform=f"rotate({number(angle)} {number(cx)} {number(cy)})",
            )
        ]
        if placed:
            parts.append(element("title", text(self.wording.name(str(tile), kind="tile"))))
            for sign, end in zip((-1, 1), ends):
                at = [cx + sign * 0.32 * ux, cy + sign * 0.32 * uy]
                parts.append(self.label(at, str(end), size=0.26, fill=readable_on(fill), font_weight="bold"))
        return element("g", "".join(parts), data_item=tile)

    # -- tracks --------------------------------------------------------------------------------
    def tracks(self) -> list[str]:
        out = []
        for tid, track in self.layout["tracks"].items():
            steps = [s for s in track["steps"] if s["space"] == s["step"]]
            parts = []
            for step in steps:
                x, y = step["center"]
                label = "/".join(dict.fromkeys(s["label"] for s in track["steps"] if s["space"] == step["step"]))
                r = 0.24 if step["post"] else 0.31
                parts.append(
                    element(
                        "g",
                        element("circle", cx=x, cy=y, r=r, fill=STYLE["step"], stroke=STYLE["ink"], stroke_width=0.03)
                        + self.label([x, y], label, size=min(0.2, 0.9 / max(len(label), 1)), fill=STYLE["ink"]),
                        data_track=tid,
                        data_step=step["step"],
                    )
                )
            if steps:
                x, y = steps[0]["center"]
                parts.append(
                    self.label(
                        [x, y - 0.5],
                        self.wording.name(tid, kind="track"),
                        size=0.26,
                        font_style="italic",
                        text_anchor="start",
                    )
                )
            out.append(element("g", "".join(parts), class_="track", data_track_name=tid))
        for show in self.shows:
            if show["on"] == "track" and show["track"] in self.layout["tracks"]:
                out.append(self.pieces(show))
        return out

    def pieces(self, show: ShowLayout) -> str:
        track = self.layout["tracks"][show["track"] or ""]
        by_step = {s["step"]: s for s in track["steps"]}
        count = len(track["steps"])
        values = self.state.get(show["var"] or "") or []
        order = self.state.get(show["stack"] or "") if show["stack"] else None
        rank = {p: i for i, p in enumerate(order)} if isinstance(order, list) else {}
        groups: dict[int, list[_Piece]] = {}  # by space
        for p, value in enumerate(values):
            if not isinstance(value, int) or isinstance(value, bool):
                continue
            lap, offset = divmod(value - track["first"], count) if show["laps"] else (0, value - track["first"])
            step = track["first"] + min(max(offset, 0), count - 1)
            groups.setdefault(by_step[step]["space"], []).append(_Piece(p, value, lap))
        parts = []
        for space, group in groups.items():
            x, y = by_step[space]["center"]
            # top first, in the stacking order the state keeps (``stack``); seats it does not name after, by number
            group.sort(key=lambda piece: rank.get(piece.player, len(rank) + piece.player))
            for k in reversed(range(len(group))):  # the first (top) piece is drawn last, highest
                p, value, lap = group[k]
                lift = 0.14 * (len(group) - 1 - k)
                px, py = x + lift, y - lift
                fill = self.colors[p % len(self.colors)]
                parts.append(self.disc(p, [px, py], 0.22, f"p{p}: {value}"))
                if lap:
                    parts.append(self.label([px, py], f"+{lap * count}", size=0.15, fill=readable_on(fill)))
        return element("g", "".join(parts), class_="pieces", data_track=show["track"], data_var=show["var"])

    # -- helpers -------------------------------------------------------------------------------
    def disc(self, player: int, at: Sequence[float], r: float, title: str) -> str:
        """A piece of ``player`` (a disc in their colour) with a tooltip."""
        return element(
            "circle",
            element("title", text(title)),
            cx=at[0],
            cy=at[1],
            r=r,
            fill=self.colors[player % len(self.colors)],
            stroke=STYLE["ink"],
            stroke_width=0.035,
            data_player=player,
        )

    def label(self, at: Sequence[float], content: str, size: float, halo: bool = False, **style: Any) -> str:
        """Text centred on ``at``; with ``halo`` a light outline drawn first keeps it legible on any ground."""
        style.setdefault("text_anchor", "middle")
        place = {"x": at[0], "y": at[1], "font_size": size, "dominant_baseline": "central"}
        under = ""
        if halo:
            outline = {**style, "fill": STYLE["paper"], "stroke": STYLE["paper"], "stroke_width": size / 4}
            under = element("text", text(content), **place, **outline, stroke_linejoin="round", opacity=0.85)
        return under + element("text", text(content), **place, **style)

    def value_color(self, show: ShowLayout | None, value: Any) -> str:
        if show is None:
            return spare_color(value)
        if self.is_player(show, value):
            return self.colors[int(value) % len(self.colors)]
        key = "true" if value is True else str(value)
        if key in show["colors"]:
            shown = color(show["colors"][key])
            self.remember(shown, show, value)
            return shown
        return spare_color(value)

    def remember(self, fill: str, show: ShowLayout, value: Any) -> None:
        """Note a colour for the legend, with the entry's ``labels`` text for the value, else its name."""
        key = "true" if value is True else str(value)
        if key in show["labels"]:
            meaning = self.wording.word(show["labels"][key])
        elif value == "?":
            meaning = self.wording.engine("hidden_one")
        elif show["as"] == "tile" and isinstance(value, str):  # a tile on a connection, not a card of its id
            meaning = self.wording.name(value, kind="tile")
        else:
            meaning = describe_value(self.wording, show["var"] or show["attr"] if value is True else value)
        if (fill, meaning) not in self.legend:
            self.legend.append((fill, meaning))

    def is_player(self, show: ShowLayout, value: Any) -> bool:
        if not show["var"] or isinstance(value, bool) or not isinstance(value, int):
            return False
        decl = (self.rules.data["game"].get("state") or {}).get(show["var"]) or {}
        return decl.get("type") == "player"

    def region_name(self, rid: str | None) -> str:
        region = self.layout["regions"].get(rid or "")
        if region is None:
            return str(rid)
        named = self.wording.name(str(rid), kind="district")
        return named if named != rid else region["name"]


def _line(path: Sequence[Sequence[float]], stroke: str, width: float, **style: Any) -> str:
    """A polyline along ``path``."""
    return element(
        "polyline",
        points=points(path),
        fill="none",
        stroke=stroke,
        stroke_width=width,
        stroke_linejoin="round",
        **style,
    )


def _segments(segments: Sequence[Sequence[Sequence[float]]]) -> str:
    """An SVG path of separate line segments."""
    return " ".join(f"M{points([a])} L{points([b])}" for a, b in segments)


def _degrees(ux: float, uy: float) -> float:
    angle = math.degrees(math.atan2(uy, ux))
    return angle - 180 if angle > 90 else angle + 180 if angle < -90 else angle  # text stays upright
