"""A seat's position as labelled sections for a panel (``present.summary``): the table's
parts and each player's, every part a ``{"label", "value"}`` in plain words from the
ruleset's texts, holding exactly what the seat's view holds (hidden values named as
hidden). Front ends show it instead of a view's raw state.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7)
>>> panel = summary(game, 1)
>>> [s["title"] for s in panel["sections"]][:2]
['Table', 'p0']
>>> mine = panel["sections"][2]
>>> mine["title"], [part for part in mine["parts"] if part["label"] == "p1's hand"]
('p1 (you)', [{'label': "p1's hand", 'value': '1 Basilica card and 2 Palazzo cards'}])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

from ..engine.seat.wording import PLAYER, Wording
from .position import position

if TYPE_CHECKING:
    from ..engine.game import Game


class Part(TypedDict):
    """One labelled value: ``{"label": "p1's hand", "value": "2 Casa cards"}``."""

    label: str
    value: str


class Section(TypedDict):
    """The parts of the table (``player`` None) or of one player."""

    title: str
    player: int | None
    parts: list[Part]


class Summary(TypedDict):
    """A seat's labelled position: ``seat`` (None: a spectator's) and its ``sections``,
    the table's first, then one per player in seat order."""

    seat: int | None
    sections: list[Section]


def summary(game: Game, seat: int | None, lang: str = "en", names: Sequence[str] | None = None) -> Summary:
    """The labelled position of ``seat`` (a spectator's when None), in ``lang``."""
    wording = Wording(game.rules, lang, names)
    lines = position(wording, game.view(seat, lang=lang, names=names))
    sections: list[Section] = [
        {
            "title": wording.engine("table"),
            "player": None,
            "parts": [{"label": line.label, "value": line.value} for line in lines if line.owner is None],
        }
    ]
    for p in range(game.players):
        title = wording.engine("you", player=(p, PLAYER)) if p == seat else wording.player(p)
        parts: list[Part] = [{"label": line.label, "value": line.value} for line in lines if line.owner == p]
        sections.append({"title": title, "player": p, "parts": parts})
    return {"seat": seat, "sections": sections}
