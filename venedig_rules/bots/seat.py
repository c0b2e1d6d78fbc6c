"""What a bot may know: its seat's view, and samples of what the seat cannot see.

A bot implements ``act(view, actions)`` (:class:`~venedig_rules.bots.Bot`). A bot that
searches also implements ``act_with_samples(view, actions, sample)``
(:class:`SamplingBot`): ``sample(seed)`` gives a new game its seat cannot tell from the
real one (``game.sample(player, seed)``), to play on as it likes. Neither is ever handed
the real game. :func:`decide` asks a bot the right way.

>>> import venedig_rules as vr
>>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
>>> sample = Sampler(game, 0)
>>> sample(seed=1).view(0) == game.view(0)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import NoConsistentDealError

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.notation import Action
    from ..engine.run.views import GameView


#: Seeds a :class:`Sampler` tries for one sample before it lets ``NoConsistentDealError``
#: through: each seed is ``game.sample``'s 20 deals more of the same rejection sampling, so
#: the sample stays one of the information set's (in random play of the bundled games no
#: sample needed a second seed).
SEEDS = 5


class Sampler:
    """Samples of one seat's information set: ``sampler(seed)`` is a new game the seat
    cannot tell from the real one, for the bot to play on.

    The sampler keeps no reference to the real game: it is made with one sample of it
    (``game.sample(player, 0)``), and every ``sampler(seed)`` is a sample of that sample,
    which draws from the same information set (the sample keeps the seat's knowledge, see
    :mod:`venedig_rules.engine.research.sampling`). ``tests/test_bots_reach.py`` walks
    every attribute, slot and closure reachable from a sampler and its samples.
    """

    __slots__ = ("_base", "player")

    def __init__(self, game: Game, player: int):
        self.player = player
        self._base = _retried(lambda seed: game.sample(player, seed), 0, SEEDS)

    def __call__(self, seed: int, rand: random.Random | None = None) -> Game:
        """A sample drawn from ``seed`` (``game.sample``; its deal from ``rand`` when one
        is given, which a search passes to draw every sample from its own generator)."""
        base, player = self._base, self.player
        try:  # the first seed without a closure: nearly every sample needs only it
            return base.sample(player, seed, rand=rand)
        except NoConsistentDealError:
            return _retried(lambda s: base.sample(player, s, rand=rand), _next_seed(seed), SEEDS - 1)

    def __repr__(self) -> str:
        return f"Sampler(player={self.player})"


def _retried(sample: Callable[[int], Game], seed: int, seeds: int) -> Game:
    """``sample(seed)``, else with the next seeds (each from the last), up to ``seeds`` in all."""
    for _ in range(seeds - 1):
        try:
            return sample(seed)
        except NoConsistentDealError:
            seed = _next_seed(seed)
    return sample(seed)


def _next_seed(seed: int) -> int:
    """The seed tried after ``seed`` found no deal (a step of a 64-bit LCG)."""
    return (seed * 6364136223846793005 + 1442695040888963407) % 2**64


class SamplingBot(Protocol):
    """A bot that looks ahead: it picks one of ``actions`` from ``view`` and from games
    ``sample(seed)`` consistent with it (see :mod:`venedig_rules.engine.research.sampling`)."""

    def act(self, view: GameView, actions: list[Action]) -> Action: ...

    def act_with_samples(self, view: GameView, actions: list[Action], sample: Sampler) -> Action: ...


class NeedsSamples(ValueError):
    """A searching bot was asked to act from a view alone."""


def only_action(bot: object, actions: list[Action]) -> Action:
    """The ``act`` of a bot that cannot decide from a view alone: the only legal action, or
    :class:`NeedsSamples` saying how to ask it."""
    if len(actions) == 1:
        return actions[0]
    raise NeedsSamples(
        f"{type(bot).__name__} looks ahead on samples of what its seat cannot see: "
        "ask it with venedig_rules.bots.decide(bot, game, player)"
    )


def decide(
    bot: Any, game: Game, player: int, view: GameView | None = None, actions: list[Action] | None = None
) -> Action:
    """The action ``bot`` picks for ``player``: from the seat's view (``view``, else
    ``game.view(player)``) and, for a :class:`SamplingBot`, samples of that seat's
    information set. A bot that never reads its view (``reads_view = False``) is given
    None for it, and no view is built.

    >>> import venedig_rules as vr
    >>> from venedig_rules.bots import RandomBot, GreedyBot
    >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
    >>> decide(GreedyBot(seed=1), game, 0) in game.legal_actions(0)
    True
    """
    if view is None and reads_view(bot):
        view = game.view(player)
    if actions is None:
        actions = game.legal_actions(player)
    search = getattr(bot, "act_with_samples", None)
    if search is not None:
        picked: Action = search(view, actions, Sampler(game, player))
        return picked
    chosen: Action = bot.act(view, actions)
    return chosen


def reads_view(bot: Any) -> bool:
    """Whether ``bot`` reads the view it is given (all do, but those that say
    ``reads_view = False``): a view costs about a millisecond to build."""
    return getattr(bot, "reads_view", True) is not False
