"""The kinds of observation a seat can ask for (``game.observation(p, kind)``): ``full``
(:mod:`.observation`, a place for every word of the ruleset) and ``compact``
(:mod:`.compact`, counts and small one-hots for learning); docs/research.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ..seat.played import PlayedGame
from .compact import compact_layout, compact_observation, compact_observed
from .observation import Observed, observation, observation_layout, observed

if TYPE_CHECKING:
    from ..run.ruleset_base import RulesetBase


class ObservationKind(NamedTuple):
    """One way to turn what a seat sees into numbers: its vector, its sparse form and its
    length at a player count."""

    name: str
    vector: Callable[[PlayedGame, int], list[float]]
    observed: Callable[[PlayedGame, int], Observed]
    size: Callable[[RulesetBase, int], int]


#: The observation kinds ``game.observation(p, kind)`` knows, default first.
OBSERVATION_KINDS = ("full", "compact")


def observation_kind(kind: str) -> ObservationKind:
    """The observation kind named ``kind`` (``full`` or ``compact``); a ValueError names
    them for any other.

    >>> import venedig_rules as vr
    >>> rules = vr.load("tests/rulesets/lagoon")
    >>> observation_kind("full").size(rules, 2), observation_kind("compact").size(rules, 2) < 175
    (175, True)
    """
    if kind == "full":
        return ObservationKind(kind, observation, observed, lambda rules, n: observation_layout(rules, n).size)
    if kind == "compact":
        return ObservationKind(
            kind, compact_observation, compact_observed, lambda rules, n: compact_layout(rules, n).size
        )
    raise ValueError(f"{kind!r} is no kind of observation; expected one of {', '.join(OBSERVATION_KINDS)}")
