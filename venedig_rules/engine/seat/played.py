"""A game's play as one record (:class:`Played`), and the game as the modules that describe
and research it see it (:class:`PlayedGame`).

A :class:`~venedig_rules.engine.game.Game` holds everything its play consists of in one
``Played``: its rules, players and seed, its state, its events, its actions, its undo
history, its legal actions once asked, and what the modules that describe and research it
keep of it (the seats' views, each seat's knowledge for sampling, where a sample came from,
the texts of information-state strings). Those modules read the record through
``game.played``, so that none reaches into the game's private attributes, and what they
keep of a game is declared here and goes when the game goes.

>>> import venedig_rules as vr
>>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
>>> played = game.played
>>> played.players, played.actions, played.state is game.position.state
(2, [], True)
>>> game.apply(game.legal_actions(0)[0]).played.actions
[Action(player=0, name='bid', value='five')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from ..run.records import Logged, unpack
from ..run.untracked import settle_events

if TYPE_CHECKING:
    from ..run.events import Event
    from ..run.machine import State
    from ..run.notation import Action
    from ..run.ruleset_base import RulesetBase
    from ..run.undohistory import UndoHistory
    from ..run.views import GameView
    from .logs import ViewLogs


class SeatMemo(Protocol):
    """What a module above this floor keeps of a game for one seat (the sampler's knowledge,
    an observation's texts), brought up to date with the game's events: it is good while
    ``events`` go on from the ones it read."""

    def follows(self, events: Sequence[object]) -> bool: ...


class SampleOrigin:
    """Where a sample (``game.sample``) came from, for a sample of it: the seat it was drawn
    for, what that seat knew then of where hidden items may lie (item -> the sets of places,
    each ``(variable, slot)``, each pinned copy of it may be in), the sample's variables and
    how many events it started with (a sample of a sample draws from the same set)."""

    # a plain class: a NamedTuple or a dataclass compiles code when the engine is imported
    __slots__ = ("events", "pins", "player", "values")

    def __init__(
        self, player: int, pins: dict[Any, list[frozenset[tuple[str, int | None]]]], values: dict[str, Any], events: int
    ):
        self.player, self.pins, self.values, self.events = player, pins, values, events


class Played:
    """Everything a game's play consists of: ``rules``, ``players``, ``seed``; ``record``
    (whether it keeps its events and undo history) and ``keep`` (the event types it keeps
    all the same when not); ``state``; ``events`` (every event kept: see below) and
    ``unrecorded`` (those not kept, which still count in positions); ``actions`` as
    applied; ``history`` (the undo points, one per action); ``legal`` (each mover's legal
    actions, None until asked). And what the engine's modules keep of the game, each None
    until first asked: ``views`` (the seats' logs and what they share, :mod:`.logs`),
    ``knowledge`` (each seat's, for sampling), ``origin`` (a sample's) and ``texts`` (each
    seat's information-state texts).

    Only :class:`~venedig_rules.engine.game.Game` changes a game's record; the modules that
    describe and research a game read it, and keep their own slots (the last four) up to
    date.

    ``events`` gives the log as event dicts. The machine appends the events of every step
    as compact records (:mod:`~venedig_rules.engine.run.records`) to ``logged``, the very
    same list, and ``events`` makes those since it last did into their dicts, in place,
    before it gives the list: read it again after the game goes on (not a list kept from
    before), and cut it back through :meth:`cut_events`. ``logged`` is for the engine, which
    counts and appends without reading an event.
    """

    # a plain class: a dataclass compiles its methods when the engine is imported
    __slots__ = (
        "actions",
        "history",
        "keep",
        "knowledge",
        "legal",
        "logged",
        "origin",
        "players",
        "record",
        "rules",
        "seed",
        "state",
        "texts",
        "unpacked",
        "unrecorded",
        "views",
    )

    def __init__(
        self,
        rules: RulesetBase,
        players: int,
        seed: int,
        state: State,
        events: list[Logged],
        history: UndoHistory,
        *,
        record: bool = True,
        keep: frozenset[str] = frozenset(),
        unrecorded: int = 0,
        actions: list[Action] | None = None,
        origin: SampleOrigin | None = None,
        unpacked: int = 0,
    ):
        self.rules, self.players, self.seed = rules, players, seed
        self.record, self.keep = record, keep
        self.state, self.unrecorded = state, unrecorded
        self.logged: list[Logged] = events
        self.unpacked = unpacked  # logged[:unpacked] are event dicts; after them records may come
        self.actions: list[Action] = [] if actions is None else actions
        self.history = history
        self.legal: dict[int, tuple[Action, ...]] | None = None
        self.origin = origin
        self.views: ViewLogs | None = None
        self.knowledge: dict[int, SeatMemo] | None = None
        self.texts: dict[int, SeatMemo] | None = None

    @property
    def events(self) -> list[Event]:
        """The log, every record in it made its event dict (see the class)."""
        log, start = self.logged, self.unpacked
        stop = len(log)  # (once: what a move appends meanwhile is for the next read)
        if start < stop:
            unpack(log, start, stop)
            if settle_events is not None:  # the compiled build: the new dicts untracked too (untracked.py)
                settle_events(log, start)
            self.unpacked = stop
        return cast("list[Event]", log)  # (records no more: all unpacked)

    def cut_events(self, n: int) -> None:
        """Cut the log back to its first ``n`` events (an undo, a failed action)."""
        del self.logged[n:]
        self.unpacked = min(self.unpacked, n)

    def copy(self) -> Played:
        """The record of a clone: the same state and legal actions (never changed in
        place), its own lists and undo history, the seats' views following this game's
        (:meth:`~.logs.ViewLogs.followed`); the research slots start empty."""
        other = Played.__new__(Played)  # every slot set here: no keywords to sort out (clones are many)
        other.rules = self.rules
        other.players = self.players
        other.seed = self.seed
        other.record = self.record
        other.keep = self.keep
        other.state = self.state
        other.logged = list(self.logged)  # records as they are: a clone's are read when its log is
        other.unpacked = self.unpacked
        other.unrecorded = self.unrecorded
        other.actions = list(self.actions)
        other.history = self.history.copy()
        other.legal = self.legal
        other.views = None if self.views is None else self.views.followed()
        other.knowledge = other.origin = other.texts = None
        return other


class PlayedGame(Protocol):
    """A game as the modules that describe and research it see it
    (:class:`~venedig_rules.engine.game.Game` is one): its record, and what it answers."""

    @property
    def played(self) -> Played: ...

    @property
    def rules(self) -> RulesetBase: ...

    @property
    def players(self) -> int: ...

    @property
    def to_move(self) -> tuple[int, ...]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def scores(self) -> dict[int, int]: ...

    @property
    def actions(self) -> list[str]: ...

    def legal_actions(self, player: int | None = None) -> list[Action]: ...

    def view(
        self,
        player: int | None,
        since: int = 0,
        *,
        compact: bool = False,
        lang: str = "en",
        names: Sequence[str] | None = None,
    ) -> GameView: ...
