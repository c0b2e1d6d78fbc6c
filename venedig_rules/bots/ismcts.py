"""ISMCTSBot: information-set Monte Carlo tree search on samples (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012), with progressive widening and root parallelism.

Each iteration takes a new sample of what the bot's seat cannot see, walks down one tree
of the seat's information sets with UCB (counting, for each child, how often it was
available), adds one node, plays on at random for ``rollout_depth`` actions, and backs
up each player's :func:`~venedig_rules.bots.evaluate.estimate` (their share of the win at
the end, else a win chance from their lead on the winner track the rules declare, in the
scores projected by the ruleset's end scoring: ``game.projected_scores()``). A node may
have tried only as many of its options as its visits allow
(:class:`~venedig_rules.bots.widening.Widening`); at the root, options are tried best
first by their one-ply estimate, deeper down in random order. The seat never sees another
seat's secret choice, so the tree does not branch on those: such moves are played at
random inside the iteration. With ``workers`` above 1, forked processes search at the same
time with other seeds and their root statistics are added up. The move made is the root's
most visited action.

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
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from ..engine.run.draws import choice
from .evaluate import estimate, score_scale
from .greedy import TurnSearch, judge, my_turn
from .parallel import RootStat, can_fork, merge, run_forked
from .seat import Sampler, only_action
from .widening import Widening

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.notation import Action
    from ..engine.run.views import GameView


#: The iterations of a search given no budget (``--bots ismcts``).
DEFAULT_ITERATIONS = 30


class _Node:
    """One information set of the tree, reached by ``player``'s move. A plain class: the
    compiled build makes it an extension type (``bots/ismcts.pxd``), whose counts a search
    reads as C fields at every child it weighs."""

    __slots__ = ("available", "children", "player", "reward", "visits")

    def __init__(self, player: int = -1, available: int = 0) -> None:
        self.player = player
        self.visits = 0
        self.available = available
        self.reward = 0.0
        # keyed by the action itself: an Action hashes as a tuple, and its text costs more
        self.children: dict[Action, _Node] = {}


class _Ranked(NamedTuple):
    """A root action, in the order the best is chosen by."""

    visits: int  # the search's and the prior's
    mean: float  # value per visit
    prior: float  # the turn-end win chance alone
    key: str  # the action's text (the last tie-breaker)


class _Step:
    """One move of an iteration down the tree. A plain class, not a NamedTuple: a
    NamedTuple is made by a Python function, some three times an iteration (compiled, an
    extension type, ``bots/ismcts.pxd``)."""

    __slots__ = ("child", "new_leaf")

    def __init__(self, child: _Node | None, new_leaf: bool) -> None:
        self.child = child  # the node the move reaches; None for a secret move, which stays put
        self.new_leaf = new_leaf  # the node was made by this move: the walk down ends there


class ISMCTSBot:
    """Information-set MCTS.

    - ``iterations`` and ``seconds`` bound the search per decision (whichever ends first;
      ``iterations`` alone is deterministic for a seed; neither: :data:`DEFAULT_ITERATIONS`).
      ``iterations`` is the total over all workers; ``seconds`` is wall time, which every
      worker spends.
    - ``exploration``: the UCB constant.
    - ``finish_turn``: where the tree ends, the player deciding there plays the rest of
      its turn (while it alone decides), each step the best by :func:`~venedig_rules.bots.
      greedy.judge` of ``finish_turn`` options picked at random (0: not at all), so that a
      cost that comes later in a turn is paid before the position is estimated.
    - ``rollout_depth``: actions played at random after that (0: the estimate is taken
      there; None: to the end of the game).
    - ``projection``: the estimate reads the projected scores of the position (the
      ruleset's end scoring run on a copy, ``game.projected_scores()``), else the scores
      as they stand.
    - ``widening``: how many options a node may have tried for its visits
      (:class:`~venedig_rules.bots.widening.Widening`; ``Widening(1e9, 0)`` tries all).
    - ``lookahead`` and ``prior_visits``: before the search, each root option is played
      through the rest of the seat's turn on one sample, as GreedyBot does
      (:class:`~venedig_rules.bots.greedy.TurnSearch`, ``lookahead`` actions in all), and
      its win chance from the lead there counts as ``prior_visits`` visits; widening tries
      the root's options in that order. With ``lookahead=0`` there is no prior: the root's
      options are tried in random order, as deeper down.
    - ``workers``: processes searching at once (root parallelism, needs ``os.fork``).

    The defaults are the budget of ``--bots ismcts`` (docs/bots.md).

    >>> ISMCTSBot(workers=2, seconds=1).iterations is None
    True
    """

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int | None = 10,
        finish_turn: int = 2,
        lookahead: int = 200,
        prior_visits: int = 3,
        workers: int = 1,
        widening: Widening = Widening(),  # noqa: B008 - an immutable NamedTuple
        projection: bool = True,
    ):
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and iterations < 1:
            raise ValueError(f"ISMCTSBot needs at least one iteration, not {iterations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"ISMCTSBot needs a positive time budget, not seconds={seconds}")
        if rollout_depth is not None and (type(rollout_depth) is not int or rollout_depth < 0):
            raise ValueError(f"ISMCTSBot needs a rollout depth of 0 or more actions (or None), not {rollout_depth!r}")
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"ISMCTSBot needs at least one worker, not workers={workers!r}")
        if workers > 1 and not can_fork():
            raise ValueError("ISMCTSBot(workers=N) forks processes, and this platform has no os.fork")
        self.random = random.Random(seed)
        self.iterations, self.seconds = iterations, seconds
        self.exploration, self.rollout_depth, self.finish_turn = exploration, rollout_depth, finish_turn
        self.workers, self.widening = workers, widening
        self.lookahead, self.prior_visits = lookahead, prior_visits
        self.projection = projection
        #: the root statistics of the last search (action text -> visits and summed reward)
        self.last_search: dict[str, RootStat] = {}

    def act(self, view: GameView, actions: list[Action]) -> Action:
        return only_action(self, actions)

    def act_with_samples(self, view: GameView, actions: list[Action], sample: Sampler) -> Action:
        if len(actions) == 1:
            return actions[0]
        me = actions[0].player  # the seat asked (all its actions are its own)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        # no look-ahead, no prior (playing each option through its turn at random would
        # apply more than ``lookahead`` actions)
        prior = self._root_prior(sample(self.random.getrandbits(64)), actions, me) if self.lookahead > 0 else {}
        order = sorted(prior, key=lambda key: -prior[key])
        seeds = [self.random.getrandbits(64) for _ in range(self.workers)]
        shares = _shares(self.iterations, self.workers)
        jobs: list[Callable[[], dict[str, RootStat]]] = [
            partial(self._search, seed, share, deadline, sample, me, order, prior) for seed, share in zip(seeds, shares)
        ]
        self.last_search = merge(run_forked(jobs))
        return self._pick(actions, {str(a): chance for a, chance in prior.items()})

    def _pick(self, actions: list[Action], prior: dict[str, float]) -> Action:
        """The most visited action counting the prior's visits (then the best mean)."""
        by_text = {str(a): a for a in actions}
        ranked = []
        for key in by_text:
            stat = self.last_search.get(key, RootStat(0, 0.0))
            visits = stat.visits + self.prior_visits
            reward = stat.reward + self.prior_visits * prior.get(key, 0.0)
            ranked.append(_Ranked(visits, reward / visits if visits else 0.0, prior.get(key, 0.0), key))
        return by_text[max(ranked).key]

    def _root_prior(self, game: Game, actions: list[Action], me: int) -> dict[Action, float]:
        """The seat's win chance after each root option played through the rest of its turn
        (:class:`~venedig_rules.bots.greedy.TurnSearch`, ``lookahead`` actions shared among
        the options), on one sample, from its lead as in :func:`estimate`; in insertion
        order best first (ties in random order)."""
        scale = score_scale(game)
        share = max(0, self.lookahead // len(actions) - 1)
        scored = []
        for i, action in enumerate(actions):
            game.apply(action)
            value = TurnSearch().best(game, me, share, self.random)
            game.undo()
            chance = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, value / scale))))
            scored.append((-chance, self.random.random(), i))
        return {actions[i]: -negative for negative, _, i in sorted(scored)}

    def _search(
        self,
        seed: int,
        iterations: int | None,
        deadline: float | None,
        sample: Sampler,
        me: int,
        order: list[Action],
        prior: dict[Action, float] | None = None,
    ) -> dict[str, RootStat]:
        """One search's root statistics (the prior's visits not counted)."""
        rand = random.Random(seed)
        root = _Node()
        rank = {key: i for i, key in enumerate(order)}
        secret: dict[str, bool] = {}  # decision label -> whether others' choices there are hidden
        done = 0
        while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
            # the sample's deal drawn from the search's generator: one seeded a sample costs more
            self._iterate(root, sample(rand.getrandbits(64), rand), me, rand, rank, secret, prior or {})
            done += 1
        seeded = self.prior_visits if prior else 0
        return {
            str(key): RootStat(child.visits - seeded, child.reward - seeded * (prior or {}).get(key, 0.0))
            for key, child in root.children.items()
        }

    def _iterate(
        self,
        root: _Node,
        game: Game,
        me: int,
        rand: random.Random,
        rank: dict[Action, int],
        secret: dict[str, bool],
        prior: dict[Action, float],
    ) -> None:
        node, path = root, []
        while not game.is_over:
            movers = game.to_move
            # at a simultaneous decision the bot's own seat goes first, so its choices are the
            # root's children however many others still have to commit
            mover = me if me in movers else movers[0]
            actions = game.legal_actions(mover)
            label = _label(actions)
            # another seat moves at random (no model of the opponents); until a decision has
            # been seen to show its choice, it is taken to be secret
            if mover != me and secret.get(label, True):
                step = self._others_move(node, game, mover, actions, label, rand, secret)
            else:
                step = self._tree_move(node, root, game, mover, actions, rand, rank, prior)
            if step.child is None:  # a secret move: the tree cannot tell it from the others
                continue
            path.append(step.child)
            if step.new_leaf:
                break
            node = step.child
        self._rollout(game, rand)
        value = estimate(game, self.projection)
        root.visits += 1
        for child in path:
            child.visits += 1
            child.reward += value[child.player]

    @staticmethod
    def _others_move(
        node: _Node,
        game: Game,
        mover: int,
        actions: list[Action],
        label: str,
        rand: random.Random,
        secret: dict[str, bool],
    ) -> _Step:
        """Another seat's random move: no step in the tree when it turns out secret."""
        action = choice(rand, actions)
        played = game.played  # the sample's own log, read in place (game.events copies it)
        seen = len(played.logged)
        game.apply(action)
        told = played.events[seen:]  # (read after the move: its events are made dicts then)
        hidden = any([e.get("player") == mover and (e["type"] == "commit" or e.get("hidden")) for e in told])
        secret[label] = hidden
        if hidden:
            return _Step(None, False)
        child = node.children.get(action)
        if child is None:
            node.children[action] = child = _Node(mover, available=1)
            return _Step(child, True)
        child.available += 1
        return _Step(child, False)

    def _tree_move(
        self,
        node: _Node,
        root: _Node,
        game: Game,
        mover: int,
        actions: list[Action],
        rand: random.Random,
        rank: dict[Action, int],
        prior: dict[Action, float],
    ) -> _Step:
        """A move the tree chooses: a new child where widening allows one, else the best by UCB."""
        children = node.children
        found = list(map(children.get, actions))  # each action's child, None where untried
        tried = [child for child in found if child is not None]
        # a sample offers only some of the actions of the information set: UCB weighs a
        # child by how often it was on offer (``available``), not by the parent's visits
        for child in tried:
            child.available += 1
        if len(tried) < len(actions) and self.widening.widens(node.visits, len(tried)):
            untried = [a for a, child in zip(actions, found) if child is None]
            action = _to_try(untried, rank if node is root and rank else None, rand)
            children[action] = child = _Node(mover, available=1)
            if node is root and action in prior:  # the prior counts as visits already made
                child.visits, child.reward = self.prior_visits, self.prior_visits * prior[action]
            game.apply(action)
            return _Step(child, True)
        action = _best_by_ucb(actions, found, self.exploration)
        game.apply(action)
        return _Step(children[action], False)

    def _rollout(self, game: Game, rand: random.Random) -> None:
        if self.finish_turn and not game.is_over:
            finish(game, game.to_move[0], self.finish_turn, rand)
        # each action drawn as choice(rand, legal_actions(to_move[0])) draws it, without the
        # legal actions made at every step
        game.playout(rand=rand, max_actions=self.rollout_depth)


#: log(n) of the first counts of a node's offers, made at the first search (``_log_table``):
#: an item of a tuple costs less than a call of math.log, once per child of every node a
#: search passes
_LOGS: tuple[float, ...] = ()


def _log_table() -> tuple[float, ...]:
    """:data:`_LOGS`, made whole and then set at once: two threads starting their first
    searches together each set a complete table (appending to a shared list, both would)."""
    global _LOGS
    _LOGS = (0.0, *[math.log(n) for n in range(1, 4096)])
    return _LOGS


def _best_by_ucb(actions: list[Action], found: list[_Node | None], exploration: float) -> Action:
    """The first of ``actions`` whose child (``found``, None where untried) has the highest
    UCB value: its mean reward plus ``exploration`` times the square root of log(offers) /
    visits. A plain loop, not ``max`` with a key (compiled, ``bots/ismcts.pxd`` types it)."""
    logs = _LOGS or _log_table()
    best, pick = -math.inf, None
    for action, child in zip(actions, found):
        if child is not None:
            visits = child.visits
            reward = child.reward
            available = child.available
            logged = logs[available] if available < len(logs) else math.log(available)
            value = reward / visits + exploration * (logged / visits) ** 0.5
            if value > best:
                best, pick = value, action
    if pick is None:
        raise ValueError("no option of this node has been tried")
    return pick


def finish(game: Game, player: int, candidates: int, rand: random.Random, longest: int = 100) -> None:
    """Play the rest of ``player``'s turn on ``game`` (while it alone decides, at most
    ``longest`` decisions): each step the best by :func:`judge` of ``candidates`` options
    picked at random (ties to the first picked)."""
    for _ in range(longest):
        if not my_turn(game, player):
            return
        actions = game.legal_actions(player)
        if len(actions) == 1:
            game.apply(actions[0])
            continue
        best, pick = -math.inf, actions[0]
        for action in rand.sample(actions, min(candidates, len(actions))):
            value = judge(game.apply(action), player)
            game.undo()
            if value > best:
                best, pick = value, action
        game.apply(pick)


def _label(actions: list[Action]) -> str:
    """The decision's name: its first option's that is not a pass (a plain loop, not a
    generator: a search names some five decisions an iteration)."""
    for action in actions:
        if action.name != "pass":
            return action.name
    return "pass"


def _to_try(untried: list[Action], rank: dict[Action, int] | None, rand: random.Random) -> Action:
    """Which untried option widening adds: the best-ranked at the root (by the one-ply
    estimate), one at random deeper down (a ranking there would cost more than it saves)
    or where there is no ranking (``lookahead=0``)."""
    if rank is None:
        return choice(rand, untried)
    return min(untried, key=lambda a: rank.get(a, len(rank)))


def _shares(iterations: int | None, workers: int) -> list[int | None]:
    """``iterations`` split among ``workers`` as evenly as can be (None: no bound).

    >>> _shares(10, 3), _shares(None, 2)
    ([4, 3, 3], [None, None])
    """
    if iterations is None:
        return [None] * workers
    base, extra = divmod(iterations, workers)
    return [base + (1 if i < extra else 0) for i in range(workers)]
