"""Bots that play from a player's view, as a front end would.

>>> import venedig_rules as vr
>>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
>>> bots = {p: RandomBot(seed=p) for p in range(2)}
>>> play_out(game, bots).is_over
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Mapping, Protocol

if TYPE_CHECKING:
    from .engine import Game
    from .notation import Action


class Bot(Protocol):
    def act(self, view: dict, actions: list["Action"]) -> "Action":
        """Pick one of ``actions`` knowing only ``view`` (the player's view)."""


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.random = random.Random(seed)

    def act(self, view: dict, actions: list["Action"]) -> "Action":
        return self.random.choice(actions)


def play_out(game: "Game", bots: Mapping[int, Bot], max_actions: int | None = None) -> "Game":
    """Let the bots play ``game`` to the end (or ``max_actions``); returns the game.

    At a simultaneous decision every bot to move picks from its own view before any
    commit is applied, so none sees another's choice.
    """
    limit = max_actions if max_actions is not None else game.rules.max_actions
    applied = 0
    while not game.is_over and applied < limit:
        movers = game.to_move
        picks = [bots[p].act(game.view(p), game.legal_actions(p)) for p in movers]
        for action in picks:
            game.apply(action)
            applied += 1
    return game
