"""A seat's position as text: every state variable of its view, named for people, with
hidden values named as hidden.

>>> import venedig_rules as vr
>>> from venedig_rules.engine.seat.wording import Wording
>>> game = vr.load("venedig").new_game(players=3, seed=7)
>>> lines = position_lines(Wording(game.rules), game.view(1))
>>> [line for line in lines if "hand" in line]
["p0's hand: 3 hidden cards", "p1's hand: 1 Basilica card and 2 Palazzo cards", "p2's hand: 3 hidden cards"]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..data.valuetypes import ANY, parse_type
from ..engine.run.views import is_redacted
from ..engine.seat.wording import NUMBER, Wording


def position_lines(wording: Wording, view: Mapping[str, Any]) -> list[str]:
    """One line per state variable (per player for one held by each player; the occupied
    spaces of one held by each space on one line, in natural order: C3 before C10), empty
    ones left out."""
    return [f"{line.label}: {line.value}" for line in position(wording, view)]


def compact_lines(wording: Wording, view: Mapping[str, Any], player: int, limit: int = 15) -> list[str]:
    """The lines of :func:`position_lines` a seat reads before a decision: the table's and
    its own (not the other players'), at most ``limit`` with a last one telling how many
    more there are.

    >>> import venedig_rules as vr
    >>> from venedig_rules.engine.seat.wording import Wording
    >>> game = vr.load("venedig").new_game(players=3, seed=7)
    >>> lines = compact_lines(Wording(game.rules), game.view(1), 1)
    >>> len(lines) <= 15, any(line.startswith("p0's") for line in lines)
    (True, False)
    """
    lines = [f"{line.label}: {line.value}" for line in position(wording, view) if line.owner in (None, player)]
    if len(lines) <= limit:
        return lines
    return [*lines[: limit - 1], wording.engine("more_lines", n=(len(lines) - limit + 1, NUMBER))]


class Line(NamedTuple):
    """One labelled part of a position: whose it is (None: the table's), its label (the
    state variable's name) and its value in words."""

    owner: int | None
    label: str
    value: str


def position(wording: Wording, view: Mapping[str, Any]) -> list[Line]:
    """Each non-empty part of the position a view holds, labelled, with the seat it belongs to."""
    rules = wording.rules
    assert rules.compiled is not None
    lines: list[Line] = []
    for var, value in view["state"].items():
        info = rules.compiled.state.get(var)
        per = info.per if info is not None else None
        if per == "player" and isinstance(value, list):
            lines += [Line(p, wording.zone(var, p), _text(wording, var, v)) for p, v in enumerate(value) if _shown(v)]
        elif per == "space" and isinstance(value, dict):
            taken = {s: value[s] for s in sorted(value, key=natural) if _shown(value[s])}
            if taken and all(is_redacted(v) for v in taken.values()):
                lines.append(Line(None, wording.zone(var), wording.hidden_many(len(taken), var)))
            elif taken:
                shown = ", ".join(f"{wording.name(s)} {_text(wording, var, v)}" for s, v in taken.items())
                lines.append(Line(None, wording.zone(var), shown))
        elif _shown(value):
            lines.append(Line(None, wording.zone(var), _text(wording, var, value)))
    return lines


def natural(text: str) -> tuple[Any, ...]:
    """A key that sorts the numbers within texts by value: ``c3`` before ``c10``.

    >>> sorted(["c10", "c3", "b12"], key=natural)
    ['b12', 'c3', 'c10']
    """
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(text)))


def _text(wording: Wording, var: str, value: Any) -> str:
    """A value of a state variable: a list with repeats counted, else by the variable's type."""
    kind = wording.zone_kind(var)
    if isinstance(value, list) and len(set(map(str, value))) < len(value):
        return wording.counted(value, kind)
    vt = wording.state_type(var)
    if kind is not None and vt == ANY:
        vt = parse_type({"list": kind}) if isinstance(value, list) else parse_type(kind)
    return wording.text(value, vt, hidden=wording.hidden_item(var), var=var)


def _shown(value: Any) -> bool:
    return value is not None and value != [] and value is not False and value != {"hidden": 0}
