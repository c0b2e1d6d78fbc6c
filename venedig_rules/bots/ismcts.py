"""ISMCTSBot: information-set Monte Carlo tree search on samples (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012).

Each iteration takes a new sample of what the bot's seat cannot see, walks down one tree
of the seat's information sets with UCB (counting, for each child, how often it was
available), adds one node, plays on at random for ``rollout_depth`` actions (or to the
end), and backs up each player's :func:`~venedig_rules.bots.evaluate.estimate`: their
share of the win at the end, else a win chance from their lead. The seat never sees
another seat's secret choice, so the tree does not branch on those: such moves are played
at random inside the iteration. The move made is the root's most visited action.

>>> import venedig_rules as vr
>>> from venedig_rules.bots import decide
>>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
>>> decide(ISMCTSBot(seed=1, iterations=20), game, 0) in game.legal_actions(0)
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from .evaluate import estimate
from .seat import Sampler, only_action

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.notation import Action
    from ..engine.run.views import GameView


@dataclass
class _Node:
    """One information set of the tree, reached by ``player``'s move."""

    player: int = -1
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[str, _Node] = field(default_factory=dict)


class _Tried(NamedTuple):
    """A root action the search tried, in the order the best is chosen by."""

    visits: int
    mean: float  # reward per visit
    key: str  # the action's text


class ISMCTSBot:
    """Information-set MCTS. ``iterations`` and ``seconds`` bound the search per decision
    (whichever ends first; ``iterations`` alone is deterministic for a seed);
    ``exploration`` is the UCB constant; ``rollout_depth`` the actions played at random
    after the tree before the position is estimated (None: to the end of the game). The
    defaults are the budget ``benchmarks/bots.py`` measures (docs/bots.md)."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 40,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int | None = 6,
    ):
        if iterations is None and seconds is None:
            raise ValueError("give ISMCTSBot a budget: iterations=, seconds= or both")
        self.random = random.Random(seed)
        self.iterations, self.seconds = iterations, seconds
        self.exploration, self.rollout_depth = exploration, rollout_depth
        self._secret: dict[str, bool] = {}  # decision label -> whether others' choices are hidden

    def act(self, view: GameView, actions: list[Action]) -> Action:
        return only_action(self, actions)

    def act_with_samples(self, view: GameView, actions: list[Action], sample: Sampler) -> Action:
        if len(actions) == 1:
            return actions[0]
        me = actions[0].player  # the seat asked (all its actions are its own)
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while (self.iterations is None or done < self.iterations) and (
            deadline is None or time.perf_counter() < deadline
        ):
            self._iterate(root, sample(self.random.getrandbits(32)), me)
            done += 1
        by_text = {str(a): a for a in actions}
        tried = [
            _Tried(child.visits, child.reward / child.visits, key)
            for key, child in root.children.items()
            if child.visits and key in by_text
        ]
        if not tried:
            return self.random.choice(actions)
        # the most visited action; among as many visits the best mean, then the greatest text
        return by_text[max(tried).key]

    def _iterate(self, root: _Node, game: Game, me: int) -> None:
        """One iteration: down the tree (a new node at the end), a rollout, and the estimate
        backed up along the path."""
        node, path = root, []
        while not game.is_over:
            movers = game.to_move
            # at a simultaneous decision the bot's own seat goes first, so its choices are the
            # root's children however many others still have to commit
            mover = me if me in movers else movers[0]
            actions = game.legal_actions(mover)
            label = next((a.name for a in actions if a.name != "pass"), "pass")
            # another seat moves at random (no model of the opponents); until a decision has
            # been seen to show its choice, it is taken to be secret
            if mover != me and self._secret.get(label, True):
                child = self._other_seat_move(node, game, mover, actions, label)
                if child is None:  # the bot cannot tell these branches apart: they share its node
                    continue
            else:
                child = self._tree_move(node, game, mover, actions)
            path.append(child)
            if child.visits == 0:  # new in this iteration: one per iteration, the rollout goes on
                break
            node = child
        self._rollout(game)
        value = estimate(game)
        root.visits += 1
        for child in path:
            child.visits += 1
            child.reward += value[child.player]

    def _other_seat_move(self, node: _Node, game: Game, mover: int, actions: list[Action], label: str) -> _Node | None:
        """Play a random move of another seat; its node under ``node`` (made if new), or None
        when the move was hidden from the bot's seat."""
        action = self.random.choice(actions)
        seen = len(game.events)
        game.apply(action)
        secret = any(
            e.get("player") == mover and (e["type"] == "commit" or e.get("hidden")) for e in game.events[seen:]
        )
        self._secret[label] = secret
        if secret:
            return None
        child = node.children.get(str(action))
        if child is None:
            node.children[str(action)] = child = _Node(mover, available=1)
        else:
            child.available += 1
        return child

    def _tree_move(self, node: _Node, game: Game, mover: int, actions: list[Action]) -> _Node:
        """Play the bot's seat's move: an untried one at random (its new node), else the child
        with the best UCB."""
        keys = [str(a) for a in actions]
        untried = [i for i, key in enumerate(keys) if key not in node.children]
        # a sample offers only some of the actions of the information set: UCB weighs a
        # child by how often it was on offer (``available``), not by the parent's visits
        for key in keys:
            if key in node.children:
                node.children[key].available += 1
        if untried:
            i = self.random.choice(untried)
            node.children[keys[i]] = child = _Node(mover, available=1)
        else:
            i = max(range(len(keys)), key=lambda j: self._ucb(node.children[keys[j]]))
            child = node.children[keys[i]]
        game.apply(actions[i])
        return child

    def _ucb(self, child: _Node) -> float:
        return child.reward / child.visits + self.exploration * math.sqrt(math.log(child.available) / child.visits)

    def _rollout(self, game: Game) -> None:
        # a few random actions, then the estimate from the scores: whole games played at
        # random would cost most of the budget and tell little
        steps = 0
        while not game.is_over and (self.rollout_depth is None or steps < self.rollout_depth):
            movers = game.to_move
            game.apply(self.random.choice(game.legal_actions(movers[0])))
            steps += 1
