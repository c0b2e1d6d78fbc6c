"""Bots that play from a player's view, as a front end would (docs/bots.md): ``RandomBot``,
``GreedyBot`` (one ply on the score) and ``ISMCTSBot`` (search on samples of what the
seat cannot see); :func:`decide` asks any bot, :func:`play_out` plays a game with them.

May import: ``errors``, ``data``, ``effects``, ``engine``, ``present`` (a bot sees views, never the state).

>>> import venedig_rules as vr
>>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
>>> bots = {p: RandomBot(seed=p) for p in range(2)}
>>> play_out(game, bots).is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar, NamedTuple, Protocol

from ..errors import did_you_mean
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .seat import NeedsSamples, Sampler, SamplingBot, decide, reads_view

if TYPE_CHECKING:
    from ..engine.game import Game, Position
    from ..engine.run.events import Event
    from ..engine.run.notation import Action
    from ..engine.run.views import GameView


__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "ISMCTSBot",
    "NeedsSamples",
    "RandomBot",
    "Sampler",
    "SamplingBot",
    "SeatViews",
    "bot_names",
    "decide",
    "make_bot",
    "play_out",
    "reads_view",
]


class Bot(Protocol):
    """What every bot does; a bot that searches also has ``act_with_samples`` (see
    :class:`~venedig_rules.bots.seat.SamplingBot`)."""

    def act(self, view: GameView, actions: list[Action]) -> Action:
        """Pick one of ``actions`` knowing only ``view`` (the player's view). A bot whose
        class says ``reads_view = False`` is given None instead, and no view is built."""


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator (it never
    reads its view, so it is given none: building one would cost more than the game's own
    step)."""

    reads_view: ClassVar[bool] = False

    def __init__(self, seed: int = 0):
        self.random = random.Random(seed)

    def act(self, view: GameView | None, actions: list[Action]) -> Action:
        return self.random.choice(actions)


#: Bots by the name ``play``, ``serve`` and ``simulate`` take (``--bots random,...``): name ->
#: a factory taking the bot's seed.
BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "ismcts": ISMCTSBot}


def bot_names() -> list[str]:
    """The names of the bots :func:`make_bot` makes.

    >>> bot_names()
    ['greedy', 'ismcts', 'random']
    """
    return sorted(BOTS)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by its name, with its own seed; ValueError names the bots there are.

    >>> make_bot("random", seed=1).__class__.__name__
    'RandomBot'
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot {name!r}{did_you_mean(name, BOTS)}; bots: {', '.join(bot_names())}") from None
    return factory(seed)


def play_out(game: Game, bots: Mapping[int, Bot], max_actions: int | None = None) -> Game:
    """Let the bots play ``game`` to the end (or ``max_actions``); returns the game.

    At a simultaneous decision every bot to move picks from its own view before any
    commit is applied, so none sees another's choice. A searching bot gets samples of its
    seat's information set too (:func:`decide`).
    """
    limit = max_actions if max_actions is not None else game.rules.max_actions
    applied = 0
    views = SeatViews(game)
    while not game.is_over and applied < limit:
        movers = game.to_move
        # every pick first, then every apply: a commit applied would change the next seat's view
        picks = [
            decide(bots[p], game, p, views(p) if reads_view(bots[p]) else None, game.legal_actions(p)) for p in movers
        ]
        for action in picks:
            game.apply(action)
            applied += 1
    return game


class SeatViews:
    """``game.view(p)``, built from the events that are new since the seat's last view
    (``view(p, since=n)``), so following a whole game costs time in its length, not in its
    square. Each view is a fresh dict with a fresh events list; the event dicts in it are
    shared with the seat's later views (read them, do not change them). When the game no
    longer continues the position of a seat's last view (after an ``undo``), that seat's
    view is built again from the start. A game made with ``record=False`` gives its seats
    the state only: their views hold no events.

    >>> import venedig_rules as vr
    >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
    >>> views = SeatViews(game)
    >>> first = views(0)
    >>> _ = game.apply(game.legal_actions(0)[0]).apply(game.legal_actions(1)[0])
    >>> views(0) == game.view(0) and views(1) == game.view(1)
    True
    """

    def __init__(self, game: Game):
        self.game = game
        self._last: dict[int, _SeatSeen] = {}

    def __call__(self, player: int) -> GameView:
        game = self.game
        last = self._last.get(player)
        if not game.record:  # no past events to give: the state only
            return game.view(player, since=game.position.events)
        # after an undo the seat's events may have been taken back: start again from none
        cursor, events = (last.cursor, last.events) if last and game.continues(last.position) else (0, [])
        view = game.view(player, since=cursor)
        events.extend(view["events"])  # the seat's own list, never handed out
        self._last[player] = _SeatSeen(game.position, view["cursor"], events)
        view["events"] = list(events)
        return view


class _SeatSeen(NamedTuple):
    """Where the game stood at a seat's last view, that view's ``cursor`` (the events the
    seat had received), and the seat's events up to then."""

    position: Position
    cursor: int
    events: list[Event]
