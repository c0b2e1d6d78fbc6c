"""GreedyBot: one ply on the score.

>>> import venedig_rules as vr
>>> from venedig_rules.bots import play_out
>>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
>>> play_out(game, {0: GreedyBot(seed=0), 1: GreedyBot(seed=1)}).is_over
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .evaluate import margin, outcome
from .seat import Sampler, only_action

if TYPE_CHECKING:
    from ..engine.run.notation import Action
    from ..engine.run.views import GameView


class GreedyBot:
    """Takes the action that leaves its score furthest ahead of the best other score right
    after it, averaged over ``samples`` samples of what its seat cannot see; a win counts
    above any lead. Ties (a commit changes no score) are broken at random."""

    def __init__(self, seed: int = 0, samples: int = 4):
        self.random = random.Random(seed)
        self.samples = samples

    def act(self, view: GameView, actions: list[Action]) -> Action:
        return only_action(self, actions)

    def act_with_samples(self, view: GameView, actions: list[Action], sample: Sampler) -> Action:
        if len(actions) == 1:
            return actions[0]
        me = actions[0].player  # the seat asked (all its actions are its own)
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            game = sample(self.random.getrandbits(32))
            # one sample serves every action: each is applied and taken back
            for i, action in enumerate(actions):
                game.apply(action)
                won = outcome(game)[me] if game.is_over else 0.0
                totals[i] += margin(game, me) + 1000.0 * won  # no lead of points outweighs a win
                game.undo()
        best = max(totals)
        return self.random.choice([a for a, t in zip(actions, totals) if t == best])
