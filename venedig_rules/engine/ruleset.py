"""A loaded, checked ruleset and the ways to play it: new games, replays and saved games.

>>> import venedig_rules as vr
>>> rules = vr.load("venedig")
>>> rules.id, rules.players
('venedig', range(2, 6))
>>> len(rules.rules_hash)
64
>>> vr.load("venedig", variants=["no_imaginary_player"]).rules_hash != rules.rules_hash
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .game import Game
from .notation import Action, parse_action
from .ruleset_base import RulesetBase


@dataclass(frozen=True)
class Ruleset(RulesetBase):
    """A loaded, checked ruleset. Treat ``data`` as read-only.

    ``data`` maps each file kind (``game``, ``cards``, ...) to its merged content;
    ``rules_hash`` is the sha256 of that data in canonical JSON, so it changes whenever
    any datum changes, and replays and save files record it.
    """

    def new_game(self, players: int, seed: int = 0) -> Game:
        """A new game for ``players`` players; ``seed`` fixes every random event.

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=3, seed=1)
        >>> game.players, game.is_over
        (3, False)
        """
        return Game(self, players, seed)

    def replay(self, players: int, seed: int, actions: Iterable[Action | str]) -> Game:
        """The game reached by applying ``actions`` to a new game with that seed."""
        game = self.new_game(players, seed)
        for action in actions:
            game.apply(action)
        return game

    def game_from_json(self, data: Any) -> Game:
        """A game saved with ``game.to_json()``; refuses corrupt data, or data played with
        another ``rules_hash``, with a reason (:class:`~venedig_rules.engine.SaveFileError`)."""
        return Game.from_json(self, data)

    @staticmethod
    def parse_action(text: str) -> Action:
        """The Action a text like ``"p1 drain(c4)"`` names."""
        return parse_action(text)
