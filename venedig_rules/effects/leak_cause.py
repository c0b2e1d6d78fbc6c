"""Where a leak's cause is when a variant changed who sees a state variable.

The information-flow check (:mod:`.flow`) finds a leak where the secret escapes: in a base
rule file the designer did not touch, when the designer's overlay made a hand ``visible:
all``. A leak that goes away when that one variable has another visibility is caused by the
change, so it is reported at the overlay's ``visible:`` line (where the designer is looking),
naming the base line where the secret escapes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from ..data.locate import in_variant
from ..data.yamlsource import PositionMap, pointer
from ..errors import Location

#: Every visibility a state variable may have (schemas/game.schema.json).
VISIBILITIES = ("all", "owner", "hidden")

#: The leaks' places (program pointer, offset) under a visibility of every state variable.
LeakPlaces = Callable[[Mapping[str, str]], frozenset[tuple[str, int]]]


class Cause(NamedTuple):
    """A variant's change of one state variable's visibility, which makes some leaks."""

    variable: str
    visible: str
    at: Location


def changed_by_variant(visibility: Mapping[str, str], positions: PositionMap) -> list[Cause]:
    """Each state variable whose ``visible`` a variant's file set."""
    out = []
    for name, visible in visibility.items():
        at = positions.at(pointer(pointer("/game/state", name), "visible"))
        if at.line and in_variant(at):
            out.append(Cause(name, visible, at))
    return out


def causes(
    leaks: frozenset[tuple[str, int]], visibility: Mapping[str, str], positions: PositionMap, places: LeakPlaces
) -> dict[tuple[str, int], Cause]:
    """For each leak (program pointer, offset) a variant's visibility change causes: the
    change (the first variable whose other visibilities all end that leak)."""
    found: dict[tuple[str, int], Cause] = {}
    for cause in changed_by_variant(visibility, positions):
        remaining = set(leaks) - set(found)
        for other in VISIBILITIES:
            if other == cause.visible or not remaining:
                continue
            remaining &= places({**visibility, cause.variable: other})
        for leak in leaks:
            if leak not in remaining and leak not in found:
                found[leak] = cause
    return found
