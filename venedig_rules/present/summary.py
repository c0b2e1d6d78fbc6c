"""A seat's position as labelled sections for a panel (``present.summary``): the table's
parts and each player's, every part a ``{"label", "value"}`` worded as a board-game site
shows it, from the ruleset's ``summary`` texts (``texts.yaml``), holding exactly what the
seat's view holds (hidden values counted, never named). Front ends show it instead of a
view's raw state.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7)
>>> panel = summary(game, 1)
>>> [s["title"] for s in panel["sections"]][:2]
['Table', 'p0']
>>> mine = panel["sections"][2]
>>> mine["title"], [part for part in mine["parts"] if part["label"] == "Hand"]
('p1 (you)', [{'label': 'Hand', 'value': '1 Basilica card and 2 Palazzo cards'}])
>>> [part for part in panel["sections"][1]["parts"] if part["label"] == "Hand"]
[{'label': 'Hand', 'value': '3 cards (hidden)'}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from ..engine.seat.wording import PLAYER, Wording
from .summary_words import PanelWords

if TYPE_CHECKING:
    from ..engine.game import Game


class Part(TypedDict):
    """One labelled value: ``{"label": "Hand", "value": "2 Casa cards"}``."""

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
    return summary_of_view(wording, game.view(seat, lang=lang, names=names))


def summary_of_view(wording: Wording, view: Mapping[str, Any]) -> Summary:
    """The labelled position a view holds, in the language of ``wording``: one part per
    state variable the panel shows (parts of one label joined), empty ones left out."""
    words = PanelWords(wording)
    players = int(view.get("players") or 0)
    seat = view.get("player")
    parts: dict[int | None, dict[str, list[str]]] = {owner: {} for owner in [None, *range(players)]}
    compiled = wording.rules.compiled.state if wording.rules.compiled is not None else {}
    for var, value in view["state"].items():
        if var in words.texts.leave_out:
            continue
        info = compiled.get(var)
        per = info.per if info is not None else None
        label = words.label(var)
        found: list[tuple[int | None, str | None]]
        if per == "player" and isinstance(value, list):
            found = [(p, words.value(var, v)) for p, v in enumerate(value[:players])]
        elif per == "space" and isinstance(value, dict):
            found = [*words.spaces(var, value, players)]
        else:
            found = [(None, words.value(var, value))]
        for owner, text in found:
            if text:
                parts[owner].setdefault(label, []).append(text)
    sections: list[Section] = []
    for owner, labelled in parts.items():
        if owner is None:
            title = wording.engine("table")
        else:
            title = wording.engine("you", player=(owner, PLAYER)) if owner == seat else wording.player(owner)
        shown: list[Part] = [{"label": label, "value": "; ".join(texts)} for label, texts in labelled.items()]
        sections.append({"title": title, "player": owner, "parts": shown})
    return {"seat": seat if isinstance(seat, int) else None, "sections": sections}
