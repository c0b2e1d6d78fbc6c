"""A seat's position as text: every state variable of its view, named for people, with
hidden values named as hidden.

>>> import venedig_rules as vr
>>> from venedig_rules.engine.seat.wording import Wording
>>> game = vr.load("venedig").new_game(players=3, seed=7)
>>> lines = position_lines(Wording(game.rules), game.view(1))
>>> [line for line in lines if "hand" in line]
["p0's hand: 3 hidden items", "p1's hand: 1 Basilica card and 2 Palazzo cards", "p2's hand: 3 hidden items"]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.run.views import is_redacted
from ..engine.seat.wording import NUMBER, Wording


def position_lines(wording: Wording, view: Mapping[str, Any]) -> list[str]:
    """One line per state variable (per player for one held by each player; the occupied
    spaces of one held by each space on one line), empty ones left out."""
    rules = wording.rules
    assert rules.compiled is not None
    lines = []
    for var, value in view["state"].items():
        info = rules.compiled.state.get(var)
        per = info.per if info is not None else None
        if per == "player" and isinstance(value, list):
            lines += [f"{wording.zone(var, p)}: {_text(wording, var, v)}" for p, v in enumerate(value) if _shown(v)]
        elif per == "space" and isinstance(value, dict):
            taken = {s: v for s, v in value.items() if _shown(v)}
            if taken and all(is_redacted(v) for v in taken.values()):
                lines.append(f"{wording.zone(var)}: {wording.engine('hidden_many', n=(len(taken), NUMBER))}")
            elif taken:
                shown = ", ".join(f"{wording.name(s)} {_text(wording, var, v)}" for s, v in taken.items())
                lines.append(f"{wording.zone(var)}: {shown}")
        elif _shown(value):
            lines.append(f"{wording.zone(var)}: {_text(wording, var, value)}")
    return lines


def _text(wording: Wording, var: str, value: Any) -> str:
    """A value of a state variable: a list with repeats counted, else by the variable's type."""
    if isinstance(value, list) and len(set(map(str, value))) < len(value):
        return wording.counted(value)
    return wording.text(value, wording.state_type(var), hidden=wording.hidden_item(var))


def _shown(value: Any) -> bool:
    return value is not None and value != [] and value is not False and value != {"hidden": 0}
