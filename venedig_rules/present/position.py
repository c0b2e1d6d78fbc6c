"""A seat's position as lines of text for a terminal: the panel of ``present.summary``, a
heading per section and a ``label: value`` line per part, and the compact lines a seat
reads before a decision; spaces sorted naturally (C3 before C10).

>>> import venedig_rules as vr
>>> from venedig_rules.engine.seat.wording import Wording
>>> game = vr.load("venedig").new_game(players=3, seed=7)
>>> lines = position_lines(Wording(game.rules), game.view(1))
>>> [line for line in lines if "Hand" in line]
['  Hand: 3 cards (hidden)', '  Hand: 1 Basilica card and 2 Palazzo cards', '  Hand: 3 cards (hidden)']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.seat.wording import NUMBER, Wording
from .summary import summary_of_view
from .summary_words import natural


def position_lines(wording: Wording, view: Mapping[str, Any]) -> list[str]:
    """Every section of the view's panel: its title, then one indented ``label: value``
    line per part."""
    lines = []
    for section in summary_of_view(wording, view)["sections"]:
        lines.append(f"{section['title']}:")
        lines += [f"  {part['label']}: {part['value']}" for part in section["parts"]]
    return lines


def compact_lines(wording: Wording, view: Mapping[str, Any], player: int, limit: int = 15) -> list[str]:
    """The lines a seat reads before a decision: its own parts, then the table's (not the
    other players'), at most ``limit`` with a last one telling how many more there are.

    >>> import venedig_rules as vr
    >>> from venedig_rules.engine.seat.wording import Wording
    >>> game = vr.load("venedig").new_game(players=3, seed=7)
    >>> lines = compact_lines(Wording(game.rules), game.view(1), 1)
    >>> len(lines) <= 15, "Hand: 1 Basilica card and 2 Palazzo cards" in lines
    (True, True)
    """
    sections = summary_of_view(wording, view)["sections"]
    ordered = [s for s in sections if s["player"] == player] + [s for s in sections if s["player"] is None]
    lines = [f"{p['label']}: {p['value']}" for s in ordered for p in s["parts"]]
    if len(lines) <= limit:
        return lines
    return [*lines[: limit - 1], wording.engine("more_lines", n=(len(lines) - limit + 1, NUMBER))]


__all__ = ["compact_lines", "natural", "position_lines"]
