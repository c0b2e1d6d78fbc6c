"""GreedyBot: the best score at the end of its own turn.

>>> import venedig_rules as vr
>>> from venedig_rules.bots import play_out
>>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
>>> play_out(game, {0: GreedyBot(seed=0), 1: GreedyBot(seed=1)}).is_over
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..engine.run.draws import choice
from .evaluate import margin, outcome
from .seat import Sampler, only_action

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.notation import Action
    from ..engine.run.views import GameView

#: What a win is worth above any lead in :func:`judge`.
WIN = 1000.0


def judge(game: Game, player: int) -> float:
    """How good ``game`` is for ``player``: its lead over the best other score on the winner
    track, and :data:`WIN` more for (its share of) a win in a finished game."""
    won = outcome(game)[player] if game.is_over else 0.0
    return margin(game, player) + WIN * won


def my_turn(game: Game, player: int) -> bool:
    """Whether ``player`` alone decides next (its turn goes on)."""
    return not game.is_over and tuple(game.to_move) == (player,)


class TurnSearch:
    """The best :func:`judge` ``player`` can reach by the end of its own turn (while it alone
    decides), within ``budget`` actions applied:

    - where the budget covers every option with some to spare, every option is tried and
      the spare is shared among them (so a small turn is looked through completely);
    - where it does not, ``candidates`` options picked at random are judged one step ahead
      and the best is followed;
    - once it is spent, the turn is played to its end at random (so a cost that comes
      later in the turn is still paid, as it would be).

    ``longest`` bounds the decisions followed. The game is left as it was.

    >>> import random, venedig_rules as vr
    >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
    >>> after = game.apply(game.legal_actions(0)[0])
    >>> TurnSearch().best(after, 0, budget=50, rand=random.Random(1)) == judge(after, 0)  # its turn is over
    True
    """

    def __init__(self, candidates: int = 4, longest: int = 100):
        self.candidates, self.longest = candidates, longest

    def best(self, game: Game, player: int, budget: int, rand: random.Random) -> float:
        """The value for ``player`` of ``game`` (after one of its actions) at its turn's end."""
        return self._best(game, player, budget, 0, rand)

    def _best(self, game: Game, player: int, budget: int, depth: int, rand: random.Random) -> float:
        if not my_turn(game, player) or depth >= self.longest:
            return judge(game, player)
        actions = game.legal_actions(player)
        if budget <= 0:  # spent: the rest of the turn at random
            return self._then(game, player, choice(rand, actions), 0, depth, rand)
        if len(actions) == 1:
            return self._then(game, player, actions[0], budget - 1, depth, rand)
        if budget >= 2 * len(actions):  # every way on, the spare shared
            share = budget // len(actions) - 1
            return max([self._then(game, player, action, share, depth, rand) for action in actions])
        tried = rand.sample(actions, min(self.candidates, len(actions)))
        values = []
        for action in tried:
            game.apply(action)
            values.append(judge(game, player))
            game.undo()
        pick = tried[values.index(max(values))]
        return self._then(game, player, pick, budget - len(tried) - 1, depth, rand)

    def _then(self, game: Game, player: int, action: Action, budget: int, depth: int, rand: random.Random) -> float:
        game.apply(action)
        try:
            return self._best(game, player, budget, depth + 1, rand)
        finally:
            game.undo()


class GreedyBot:
    """Takes the action after which its score can end its turn furthest ahead of the best
    other score (:class:`TurnSearch`: it looks through all of its own consecutive decisions,
    so a cost that comes one decision later counts against the gain), averaged over
    ``samples`` samples of what its seat cannot see; a win counts above any lead.
    ``lookahead`` is how many actions it may apply per sample to look through the rest of
    its turn, shared evenly among its options (see :class:`TurnSearch`). Ties (a commit
    changes no score) are broken at random."""

    def __init__(self, seed: int = 0, samples: int = 2, lookahead: int = 400):
        if samples < 1:
            raise ValueError(f"GreedyBot needs at least one sample, not {samples}")
        self.random = random.Random(seed)
        self.samples, self.lookahead = samples, lookahead
        self.turn = TurnSearch()

    def act(self, view: GameView, actions: list[Action]) -> Action:
        return only_action(self, actions)

    def act_with_samples(self, view: GameView, actions: list[Action], sample: Sampler) -> Action:
        if len(actions) == 1:
            return actions[0]
        me = actions[0].player  # the seat asked (all its actions are its own)
        totals = [0.0] * len(actions)
        share = self.lookahead // len(actions) - 1
        for _ in range(self.samples):
            game = sample(self.random.getrandbits(32))
            # one sample serves every action: each is applied and taken back
            for i, action in enumerate(actions):
                game.apply(action)
                totals[i] += self.turn.best(game, me, share, self.random)
                game.undo()
        best = max(totals)
        return self.random.choice([a for a, t in zip(actions, totals) if t == best])
