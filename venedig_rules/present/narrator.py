"""The narrator: a game's events as a log of sentences, for the ``play`` command, golden
playthroughs and any front end that prints a log.

Every event has a sentence (``engine.seat.wording``); a log shows the rule events and the
players' choices, and with ``verbose`` also the state changes (``change`` and ``move``
events: a card drawn, a variable set). Seats are ``p0``, ``p1``, ... or the names given.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass").apply("p0 pass")
>>> narrator = Narrator(game.rules, names=["Ada", "Ben", "Cy"])
>>> narrator.lines(game.events)
["Ada's turn (turn 1)", 'Ada keeps the gold', 'Ada lays out no cards']
>>> narrator.lines(game.events, verbose=True)[:2]
['the draw pile: 42 items', 'Ada draws a Palazzo card']
>>> narrator.result(game)
'not over; scores: Ada 0, Ben 0, Cy 0'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..engine.seat.wording import Wording

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.ruleset_base import RulesetBase

#: The event types that only record a change of the state (shown with ``verbose``).
STATE_CHANGES = frozenset({"change", "move"})


def is_state_change(event: Mapping[str, Any]) -> bool:
    """Whether an event only records a change of the state (a ``change`` or a ``move``)."""
    return event.get("type") in STATE_CHANGES


class Narrator:
    """Sentences for one ruleset, in one language, for one table of players."""

    def __init__(self, rules: RulesetBase, lang: str = "en", names: Sequence[str] | None = None):
        self.wording = Wording(rules, lang, names)

    def sentence(self, event: Mapping[str, Any]) -> str:
        """One event as a sentence."""
        return self.wording.event(event)

    def lines(self, events: Iterable[Mapping[str, Any]], verbose: bool = False) -> list[str]:
        """The sentences of ``events``; state changes only with ``verbose``."""
        return [self.sentence(e) for e in events if verbose or not is_state_change(e)]

    def player(self, seat: int) -> str:
        return self.wording.player(seat)

    def result(self, game: Game) -> str:
        """``scores: p0 12, p1 9; winners: p0`` (or ``not over; scores: ...``)."""
        scores = ", ".join(f"{self.player(p)} {s}" for p, s in game.scores.items())
        if not game.is_over:
            return f"not over; scores: {scores}"
        return f"scores: {scores}; winners: {', '.join(self.player(p) for p in game.winners)}"
