"""The text column beside a rendered board: who sees the picture, whose turn it is, each seat's
score and public zones (and the viewing seat's own hand), the table's shared zones, and a
legend of the board's colours. Only what the view holds is written; hidden values show as
their shape ("3 hidden").

Every word comes from the ruleset's texts (``texts.yaml``) in the view's language:

>>> import venedig_rules as vr
>>> from venedig_rules.engine.seat.wording import Wording
>>> wording = Wording(vr.load("venedig"))
>>> describe_value(wording, ["casa_card", "ponte_card"]), describe_value(wording, {"hidden": 3})
('Casa card; Ponte card', '3 hidden items')
>>> describe_value(Wording(vr.load("venedig"), "de"), ["casa_card", True])
'Casa-Karte; ja'
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.run.views import is_redacted
from ..engine.seat.wording import PLAYER, TEXT, Wording
from .svg import element, text

#: Characters per line of the column, and lines at most per value.
LINE_CHARS, MAX_LINES = 64, 4
#: Pixel sizes of the column's text.
FONT_PX, HEADING_PX, LINE_PX = 12.5, 15, 17
#: Signs in the text: no value, how many times, and between the items of a list (names may hold commas).
DASH, TIMES, SEPARATOR = "\u2013", "\u00d7", "; "


def describe_value(wording: Wording, value: Any, var: str | None = None) -> str:
    """A value of a view as short text: names for ids, repeats counted, shapes for hidden
    values (named as the zone of state variable ``var`` names its hidden items)."""
    if value is None:
        return DASH
    if isinstance(value, bool):
        return wording.engine("yes" if value else "no")
    if is_redacted(value):
        if isinstance(value, Mapping):
            return wording.hidden_many(value["hidden"], var)
        return wording.engine("hidden_one")
    if isinstance(value, str):
        return wording.name(value)
    if isinstance(value, Mapping):
        shown = [f"{wording.name(str(k))}: {describe_value(wording, v)}" for k, v in value.items() if v is not None]
        return ", ".join(shown) or wording.engine("none")
    if isinstance(value, list):
        if not value:
            return wording.engine("none")
        # equal items once, counted: five Casa cards read "Casa card", TIMES and 5
        parts: dict[str, int] = {}
        for item in value:
            key = f"({describe_value(wording, item)})" if isinstance(item, list) else describe_value(wording, item)
            parts[key] = parts.get(key, 0) + 1
        return SEPARATOR.join(k if n == 1 else f"{k} {TIMES}{n}" for k, n in parts.items())
    return str(value)


class Zones:
    """The column of text for one view; ``shown`` are the variables the board already draws."""

    def __init__(self, wording: Wording, view: Mapping[str, Any], colors: Sequence[str], shown: set[str]):
        self.wording, self.rules, self.view, self.colors = wording, wording.rules, view, colors
        self.state: Mapping[str, Any] = view["state"]
        self.seat = view.get("player")
        self.players = int(view.get("players") or 0)
        self.shown = shown
        compiled = self.rules.compiled.state if self.rules.compiled is not None else {}
        self.per = {name: info.per for name, info in compiled.items()}
        self.decls: Mapping[str, Any] = self.rules.data["game"].get("state") or {}

    def seen_by(self) -> str:
        """Who the picture is for."""
        if isinstance(self.seat, int) and 0 <= self.seat < self.players:
            return self.wording.engine("seen_by", player=(self.seat, PLAYER))
        return self.wording.engine("spectator")

    def panel(self, x: float, legend: Sequence[tuple[str, str]]) -> tuple[str, float]:
        """The column's SVG, starting at pixel ``x``, and its height in pixels."""
        lines: list[str] = []
        y = 24.0

        def write(content: str, *, size: float = FONT_PX, indent: float = 0, **style: Any) -> None:
            nonlocal y
            lines.append(element("text", text(content), x=x + indent, y=y, font_size=size, **style))
            y += LINE_PX if size <= FONT_PX else LINE_PX + 5

        write(f"{self.rules.title} ({self.rules.name})", size=HEADING_PX + 2, font_weight="bold")
        write(self.seen_by(), font_style="italic")
        write(self.status())
        y += 6

        def zone(name: str, value: Any, indent: float, player: int | None = None) -> None:
            start = len(lines)
            shown = self.player_text(name, value)
            label = self.wording.zone(name)
            for line in textwrap.wrap(f"{label}: {shown}", LINE_CHARS, subsequent_indent="    ")[:MAX_LINES]:
                write(line, indent=indent)
            # the zone's lines in one group holding its value as data, for a page to read
            raw = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            lines[start:] = [element("g", "".join(lines[start:]), data_zone=name, data_player=player, data_value=raw)]

        for p in range(self.players):
            lines.append(
                element("circle", cx=x + 6, cy=y - 5, r=6, fill=self.colors[p % len(self.colors)], stroke="#3b3024")
            )
            write(self.player_heading(p), size=HEADING_PX, indent=18, font_weight="bold")
            for name, value in self.player_zones(p):
                zone(name, value, 18, p)
            y += 4
        zones = self.table_zones()
        if zones:
            write(self.wording.engine("table"), size=HEADING_PX, font_weight="bold")
            for name, value in zones:
                zone(name, value, 8)
        if legend:
            y += 4
            write(self.wording.engine("on_the_board"), size=HEADING_PX, font_weight="bold")
            for fill, meaning in legend:
                lines.append(element("rect", x=x + 8, y=y - 10, width=11, height=11, fill=fill, stroke="#3b3024"))
                write(meaning, indent=26)
        return element("g", "".join(lines), class_="zones", fill="#2b2218"), y

    def status(self) -> str:
        if self.view.get("over"):
            key = "over_winner" if len(self.view.get("winners") or ()) == 1 else "over_winners"
            return self.wording.engine(key, players=(self.seats(self.view.get("winners")), TEXT))
        status = self.wording.engine("to_move", players=(self.seats(self.view.get("to_move")), TEXT))
        decision = self.view.get("decision")
        if decision:
            status += "; " + self.wording.engine("your_decision", prompt=(decision["prompt"], TEXT))
        return status

    def seats(self, players: Sequence[int] | None) -> str:
        """Seats by name, or "nobody"."""
        return ", ".join(self.wording.player(p) for p in players or ()) or self.wording.engine("nobody")

    def player_heading(self, p: int) -> str:
        track = self.rules.winner_track
        name = self.wording.engine("you", player=(p, PLAYER)) if p == self.seat else self.wording.player(p)
        if track and isinstance(self.state.get(track), list):
            return f"{name}: {self.state[track][p]} ({self.wording.zone(track)})"
        return name

    def player_zones(self, p: int) -> list[tuple[str, Any]]:
        """Seat ``p``'s zones and counters, as this view shows them; empty ones are left out."""
        return [
            (name, value[p])
            for name, value in self.state.items()
            if self.per.get(name) == "player"
            and name not in self.shown
            and name != self.rules.winner_track
            and isinstance(value, list)
            and p < len(value)
            and not _empty(value[p])
        ]

    def table_zones(self) -> list[tuple[str, Any]]:
        """The shared zones and values, and per-space values the board does not draw (those not
        empty); empty ones are left out."""
        out = []
        for name, value in self.state.items():
            if self.per.get(name) == "player" or name in self.shown:
                continue
            if isinstance(value, Mapping):  # per space: only the spaces holding something
                value = {space: v for space, v in value.items() if not _empty(v)}
            if not _empty(value) and value != {}:
                out.append((name, value))
        return out

    def player_text(self, name: str, value: Any) -> str:
        """A value as text; a value of a ``player`` variable as ``p1``."""
        if (self.decls.get(name) or {}).get("type") == "player" and isinstance(value, int):
            return self.wording.player(value)
        text = describe_value(self.wording, value, name)
        return text if len(text) <= LINE_CHARS * MAX_LINES - 40 else text[: LINE_CHARS * MAX_LINES - 42] + " …"


def _empty(value: Any) -> bool:
    """Nothing to show: none, zero, false, an empty list, or a hidden empty list."""
    return value in (None, 0, False, [], {"hidden": 0}) and not isinstance(value, float)
