"""The game engine: runs a ruleset's compiled flow, stops at every decision, and applies
actions.

>>> import venedig_rules as vr
>>> rules = vr.load("tests/rulesets/lagoon")
>>> game = rules.new_game(players=2, seed=7)
>>> game.to_move
(0, 1)
>>> action = game.legal_actions(0)[0]
>>> str(action)
'p0 bid(five)'
>>> game.apply(action) is game
True
>>> game.to_move
(1,)
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from ..errors import GameArgumentError, RuleRuntimeError, VenedigError
from ..limits import MAX_SEED_BITS, SEED_BITS
from .run.draws import choice
from .run.events import Event
from .run.machine import (
    Machine,
    Pending,
    PendingChoice,
    State,
    actions_of,
    forget_actions,
    initial_state,
    picked_action,
)
from .run.notation import (
    Action,
    ActionSyntaxError,
    IllegalActionError,
    has_number,
    parse_action,
    plain_action,
    same_value,
)
from .run.records import Logged
from .run.ruleset_base import RulesetBase
from .run.undohistory import UndoHistory, UndoPoint
from .run.untracked import settle_events
from .run.views import GameView, json_safe
from .seat.played import Played

if TYPE_CHECKING:
    from .research.actions import ActionSpace
    from .seat.decisions import DecisionDescription
    from .seat.humanlog import LogEntry
    from .seat.tableundo import TableUndo

# Views, descriptions, refusals, table undo, sampling, numbering and observations are
# imported where they are first used: a process that loads a ruleset and plays needs none
# of them (a fast start, docs/embedding.md).

SAVE_FORMAT = "venedig-rules/game"
SAVE_VERSION = 2  # 2: a frame's pc counts the cases of generated code, not instructions

#: How :meth:`Game.playout` is told which action to take: ``policy(game, player, count)``
#: gives the index of one of ``player``'s ``count`` legal actions.
Policy = Callable[["Game", int, int], int]


class SaveFileError(VenedigError, ValueError):
    """A saved game that cannot be loaded: corrupt, from another ruleset, or inconsistent."""

    code = "save/invalid"


class NotRecordedError(VenedigError, ValueError):
    """What a game made with ``record=False`` cannot give: its past events, or an undo."""

    code = "play/not_recorded"


@dataclass(frozen=True, slots=True)
class Position:
    """Where a game stood (``game.position``): ``actions`` applied and ``events`` in its log
    by then. Ask the game later whether it still goes on from there: ``game.continues(p)``."""

    actions: int
    events: int
    state: State = field(repr=False, compare=False)  # the snapshot: known by identity


class Game:
    """A game in progress. Create it with ``ruleset.new_game(players, seed)``.

    Players are numbered 0 to n-1 clockwise. ``apply`` leaves the game untouched when it
    raises. Every state can be cloned, saved and resumed: a pending decision is data.
    With ``record=False`` the game keeps no event log and no undo history (for bots and
    simulations: faster, and small); everything else is the same. ``keep_events`` (with
    ``record=False``) names event types it keeps all the same, e.g. the decisions and the
    ruleset's own events a simulation's report counts.
    """

    # the whole play is one record (engine/seat/played.py): nothing else hangs on a game but
    # the machine its actions run on (made with its first; a clone or a sample makes its own)
    __slots__ = ("__weakref__", "_machine", "_play")

    def __init__(
        self,
        rules: RulesetBase,
        players: int,
        seed: int | None = None,
        *,
        record: bool = True,
        keep_events: Iterable[str] = (),
    ):
        if rules.compiled is None:
            raise VenedigError(f"ruleset {rules.name!r} has no flow yet: it can be validated and described, not played")
        if not isinstance(players, int) or isinstance(players, bool) or players not in rules.players:
            raise GameArgumentError(
                f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, not {_shown(players)}"
            )
        seed = secret_seed() if seed is None else checked_seed(seed)
        players, keep = int(players), _kept_types(keep_events, record)
        events: list[Logged] = []  # every event (none kept when not recording, but those of keep)
        run = Machine(rules, players, initial_state(rules, players, seed), *_event_sink(events, record, keep))
        self._machine: Machine | None = run
        self._play = Played(
            rules, players, seed, run.run(), events, UndoHistory(), record=record, keep=keep, unrecorded=run.unrecorded
        )
        if settle_events is not None:  # the compiled build: the log out of the collector's walks
            settle_events(events, 0)

    @classmethod
    def from_played(cls, played: Played) -> Game:
        """The game whose play ``played`` is (a record the engine made: a sample's, see
        :meth:`sample`). The game owns the record from then on."""
        game = cls.__new__(cls)
        game._play = played
        game._machine = None
        return game

    @property
    def played(self) -> Played:
        """Everything this game's play consists of, as one record
        (:class:`~venedig_rules.engine.seat.played.Played`): its state, events, actions, undo
        history, and what the engine's modules keep of it. They read it; only the game's
        own methods change it."""
        return self._play

    @property
    def rules(self) -> RulesetBase:
        """The ruleset the game is played by."""
        return self._play.rules

    @property
    def players(self) -> int:
        """How many players play (seats 0 to n-1)."""
        return self._play.players

    @property
    def seed(self) -> int:
        """The seed of its chance (replaying its actions from it gives the same game)."""
        return self._play.seed

    @property
    def record(self) -> bool:
        """Whether it keeps its event log and undo history (not when made with ``record=False``)."""
        return self._play.record

    # -- asking ----------------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        """The players who must act now (several at a simultaneous decision), in seat order."""
        state = self._play.state
        pending = state.pending
        if pending is None or state.over:
            return ()
        if type(pending) is PendingChoice:  # a search asks at every step: no method call
            return (pending.player,)
        return pending.movers()

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The legal actions of ``player`` (of the only player to move when omitted), sorted;
        ``[]`` for a seat that is not to move. A GameArgumentError for what is not a seat."""
        play = self._play
        if type(player) is not int or not 0 <= player < play.players:
            player = self._seat(self._only_mover() if player is None else player)
        state = play.state
        pending = state.pending
        if pending is None or state.over:
            return []
        return list(actions_of(pending, player))

    def _seat(self, player: Any) -> int:
        """``player`` when it is a seat of this game (a whole number from 0), else a GameArgumentError."""
        players = self._play.players
        if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < players:
            return int(player)
        raise GameArgumentError(
            f"{_shown(player)} is not a seat of this game; expected a whole number from 0 to {players - 1}"
            " (or None for a spectator's view)"
        )

    def _legal_by_player(self) -> dict[int, tuple[Action, ...]]:
        play = self._play
        if play.legal is None:
            pending = play.state.pending
            play.legal = {} if pending is None or play.state.over else pending.legal_by_player()
        return play.legal

    @property
    def is_over(self) -> bool:
        return self._play.state.over

    @property
    def scores(self) -> dict[int, int]:
        """Each player's score on the track that decides the winner."""
        play = self._play
        track = play.rules.winner_track
        return {p: play.state.vars[track][p] for p in range(play.players)} if track else {}

    @property
    def winners(self) -> tuple[int, ...]:
        """The winners once the game is over (several when tied and ties are shared)."""
        play = self._play
        state = play.state
        if not state.over:
            return ()
        if state.winners is not None:
            return tuple(state.winners)
        return play.rules.rank_winners(state.vars, play.players)

    @property
    def events(self) -> list[Event]:
        """Every event so far, unredacted (dicts with a ``type``: see :mod:`.events`); of a
        game made with ``record=False``, those of the types it was told to keep."""
        if not self._play.record and not self._play.keep:
            raise self._not_recorded("its events")
        return list(self._play.events)

    def _not_recorded(self, what: str) -> NotRecordedError:
        return NotRecordedError(
            f"this game keeps no event log and no undo history (it was made with record=False), "
            f"so it cannot give {what}; make it with record=True (the default) for that"
        )

    @property
    def actions(self) -> list[str]:
        """The text of every action applied so far."""
        return [str(a) for a in self._play.actions]

    @property
    def position(self) -> Position:
        """Where the game stands now, to ask :meth:`continues` later (cheap: nothing is copied)."""
        play = self._play
        return Position(len(play.actions), len(play.logged) + play.unrecorded, play.state)

    def continues(self, position: Position) -> bool:
        """Whether the game is at ``position`` or went on from it: no ``undo`` took it back
        past it (not even to play on another way). Costs the same however long the game.

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
        >>> start = game.position
        >>> first, second = game.legal_actions(0)[:2]
        >>> after_first = game.apply(first).position
        >>> game.continues(start), game.continues(after_first), after_first.events > start.events
        (True, True, True)
        >>> _ = game.undo().apply(second)  # another line of play from the start
        >>> game.continues(start), game.continues(after_first)
        (True, False)
        """
        n = position.actions
        play = self._play
        if n == len(play.actions):
            return play.state is position.state
        if not play.record:  # no undo: the game only goes on (a position of a clone is not told apart)
            return n < len(play.actions)
        return n < len(play.actions) == len(play.history) and play.history.holds(n, position.state)

    def value(self, name: str, index: Any = None) -> Any:
        """A state variable's value (a player's or space's with ``index``), unredacted."""
        rules, value = self._play.rules, self._play.state.vars[name]
        if index is None:
            return value
        info = rules.compiled_flow.state[name]
        return value[index if info.per == "player" else rules.space_index(index)]

    def view(
        self,
        player: int | None = None,
        since: int = 0,
        *,
        compact: bool = False,
        lang: str = "en",
        names: Sequence[str] | None = None,
        spectator: bool = False,
    ) -> GameView:
        """What ``player`` may know, JSON-safe: hidden values and others' secrets redacted,
        in the event log too, each event with its ``text``; the seat's ``decision``, who is
        ``waiting_for`` what, and the ``cursor``. ``since``: only the events after the first
        ``since`` the seat has received (pass the last view's ``cursor``). ``compact``: no
        null entries. ``lang``, ``names``: the language and the seats' names of the texts.
        ``player=None`` (or ``spectator=True``) is a spectator: only what every seat may know
        (the one public view that ``waiting_for``, board pictures and the web front end use).
        Anything else that is not a seat of the game (``view(True)``, ``view(99)``,
        ``view("0")``) or a ``since`` that is no count of received events is a GameArgumentError.
        A game made with ``record=False`` keeps no events: it gives only
        ``view(p, since=game.position.events)`` (no events; its ``cursor`` counts every event
        of the game) and refuses the others with NotRecordedError.

        >>> import venedig_rules as vr
        >>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")  # keeps the gold
        >>> view = game.view(1)
        >>> game.view(1, since=view["cursor"])["events"], view["waiting_for"][0]["prompt"]
        ([], 'p0 is laying out building cards')
        >>> game.view(None)["state"]["hand"], game.view(None)["decision"]
        ([{'hidden': 3}, {'hidden': 3}, {'hidden': 3}], None)
        >>> game.view(spectator=True) == game.view(None)
        True
        """
        if spectator and player is not None:
            raise GameArgumentError(f"a view is a seat's or a spectator's, not both (seat {_shown(player)})")
        seat = None if player is None else self._seat(player)
        if not self._play.record:
            if type(since) is not int or since != len(self._play.logged) + self._play.unrecorded:
                raise self._not_recorded(
                    f"the events since {_shown(since)} in a view (ask view(p, since=game.position.events))"
                )
            from .seat.seatview import build_view

            # a game without record gives a state only: the types keep_events keeps are no seat's whole log
            view = build_view(self, seat, 0, compact=compact, lang=lang, names=names, events=False)
            view["cursor"] = since
            return view
        from .seat.seatview import build_view

        return build_view(self, seat, since, compact=compact, lang=lang, names=names)

    def log(
        self, seat: int | None, lang: str = "en", since: int | None = None, names: Sequence[str] | None = None
    ) -> list[LogEntry]:
        """The human log of ``seat`` (``None``: a spectator's): one ``"action"`` entry per
        action applied, with what it caused in its ``details``, and ``"phase"``, ``"score"``
        and ``"end"`` entries; nothing the seat's view hides. ``since``: the entries after a
        view's ``cursor``. See :mod:`venedig_rules.engine.seat.humanlog`.

        >>> import venedig_rules as vr
        >>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")
        >>> [(e["kind"], e["actor"], e["text"]) for e in game.log(2)][-1]
        ('action', 0, 'p0 keeps the gold')
        """
        if not self.record:
            raise self._not_recorded("a log")
        from .seat.humanlog import human_log

        return human_log(self, seat, lang, since, names)

    def score_breakdown(self, lang: str = "en", names: Sequence[str] | None = None) -> dict[int, dict[str, int]]:
        """Each seat's score by reason (``{seat: {label: points}}``, labels in ``lang``),
        summing exactly to :attr:`scores`. See :mod:`venedig_rules.engine.seat.breakdown`.

        >>> import venedig_rules as vr
        >>> game = vr.load("venedig").new_game(players=3, seed=7)
        >>> game.score_breakdown()
        {0: {}, 1: {}, 2: {}}
        """
        if not self.record:
            raise self._not_recorded("a score breakdown (it reads the events)")
        from .seat.breakdown import breakdown

        return breakdown(self, lang, names)

    def decision(self, player: int, lang: str = "en", names: Sequence[str] | None = None) -> DecisionDescription | None:
        """The pending decision of ``player``, for people, or None when that seat is not to
        move: ``player``, ``label``, ``prompt``, ``secret``, ``simultaneous`` and ``options``
        (one per legal action, in ``legal_actions`` order: ``action``, ``text``, ``refs``).

        >>> import venedig_rules as vr
        >>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")  # keeps the gold
        >>> game.decision(0, lang="de")["options"][0]["text"]
        '1 Basilika-Karte ausspielen'
        >>> game.decision(1) is None
        True
        """
        from .seat.decisions import describe

        return describe(self, player, lang, names)

    def can_undo(self, player: int, lang: str = "en") -> TableUndo:
        """Whether ``player`` may take back its last action at the table (it is the last
        action, it revealed nothing, no chance was drawn after it), with the reason when
        not, a sentence in ``lang``; true exactly when allowed. ``undo()`` itself takes
        back any action.

        >>> import venedig_rules as vr
        >>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")
        >>> bool(game.can_undo(0)), game.can_undo(1).reason, game.can_undo(1, "de").reason
        (True, 'p1 has made no move yet', 'p1 hat noch keinen Zug gemacht')
        """
        from .seat.tableundo import check

        return check(self, player, self._undo_point, lang)

    # -- acting ----------------------------------------------------------------------------
    def apply(self, action: Action | str, *, seat: int | None = None) -> Game:
        """Apply a legal action (an Action or its text); raises IllegalActionError, and
        leaves the game untouched, when it is not legal now. ``seat`` is the seat that sent
        it, for a front end that acts for one seat: an action in another seat's name is
        refused in words that say nothing of that seat's options (which depend on its hidden
        hand), and a refusal of its own action tells only what that seat may know.

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
        >>> try:
        ...     game.apply("p1 bid(five)", seat=0)
        ... except vr.IllegalActionError as exc:
        ...     print(exc)
        p1 bid(five) is not legal: p0 may act only as p0, not in p1's name
        """
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ActionSyntaxError as exc:
                raise IllegalActionError(str(exc)) from None
        elif not isinstance(action, Action):
            raise IllegalActionError(
                f"a {type(action).__name__} is not an action; expected an Action or its text, e.g. 'p1 claim(c4)'"
            )
        if seat is not None:
            action = self._sent_by(plain_action(action), seat)
        state = self._play.state
        pending = state.pending
        if type(action) is Action and type(action.player) is int and pending is not None and not state.over:
            # a plain loop: faster than any(map(is_, ...)) in Python 3.11, a C loop compiled
            for legal in actions_of(pending, action.player):
                if legal is action:
                    # one of the very actions legal_actions gave: nothing to check or compare
                    return self._resume(pending, action)
        action = plain_action(action)  # typed fields of bounded size, or IllegalActionError
        if pending is None or state.over or not pending.accepts(action) or not self._offered(action):
            raise IllegalActionError(self._why_illegal(action, self._legal_by_player(), seat))
        return self._resume(pending, action)

    def _sent_by(self, action: Action, seat: int) -> Action:
        """``action`` when ``seat`` may send it (it is that seat's own), else the refusal."""
        if action.player != self._seat(seat):
            raise IllegalActionError(self._why_illegal(action, {}, seat))
        return action

    def _own(self, player: int | None, seat: int, what: str) -> int:
        """The player a front end acting for ``seat`` acts as (``seat`` when ``player`` is
        omitted); ``what`` it asked for is refused in another seat's name."""
        from .seat.refusal import not_in_name

        seat = self._seat(seat)
        if player is not None and self._seat(player) != seat:
            raise IllegalActionError(f"{what} of p{player} is not legal: {not_in_name(seat, player)}")
        return seat

    def apply_legal(self, index: int, player: int | None = None, *, seat: int | None = None) -> Game:
        """Apply ``legal_actions(player)[index]`` (of the only player to move when ``player``
        is omitted): the fast path for bots and adapters that pick by position, with no
        action to build or compare. IllegalActionError when there is no such action.

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
        >>> first = game.legal_actions(1)[0]
        >>> game.apply_legal(0, player=1).actions == [str(first)]
        True

        ``seat``, the seat that sent it, acts as itself only (see :meth:`apply`).
        """
        if seat is not None:
            player = self._own(player, seat, f"legal action {index!r}")
        state = self._play.state
        pending = state.pending
        player = self._only_mover() if player is None else self._seat(player)
        actions = actions_of(pending, player) if pending is not None and not state.over else ()
        if type(index) is not int or not 0 <= index < len(actions) or pending is None:
            raise IllegalActionError(
                f"no legal action {index!r} of player {player}: "
                + (f"they have {len(actions)} (0 to {len(actions) - 1})" if actions else "they have none now")
            )
        return self._resume(pending, actions[index])

    def playout(
        self,
        policy: Policy | None = None,
        seed: int | None = None,
        *,
        rand: random.Random | None = None,
        max_actions: int | None = None,
    ) -> Game:
        """Play on for every seat to the end, or for ``max_actions`` more actions; returns the
        game. It makes only the action it takes at each step, and acts for all seats: it is
        for a game the caller may see whole (a bot's sample, a simulation).

        Without a ``policy`` each action is drawn as ``rand.choice(legal_actions(to_move[0]))``
        draws it, from ``random.Random(seed)`` (seed 0 by default) or from ``rand``, a search's
        own generator: the very game of that loop. ``policy(game, player, count)`` instead
        gives the index of one of the first mover's ``count`` legal actions. An index out of
        range is an IllegalActionError; the actions taken before it stay (docs/embedding.md).

        >>> import random, venedig_rules as vr
        >>> rules = vr.load("tests/rulesets/lagoon")
        >>> game = rules.new_game(players=2, seed=7).playout(seed=3)
        >>> same, pick = rules.new_game(players=2, seed=7), random.Random(3)
        >>> while not same.is_over:
        ...     _ = same.apply(pick.choice(same.legal_actions(same.to_move[0])))
        >>> game.is_over, same.actions == game.actions
        (True, True)
        >>> rules.new_game(players=2, seed=7).playout(lambda game, player, count: 0).actions[:2]
        ['p0 bid(five)', 'p1 bid(five)']
        """
        if policy is not None and not callable(policy):
            raise GameArgumentError(f"a policy must be callable as policy(game, player, count), not {_shown(policy)}")
        rand = _playout_generator(seed, rand)
        limit = self._play.rules.max_actions if max_actions is None else _playout_limit(max_actions)
        pick = partial(_drawn_index, rand) if policy is None else partial(_policy_index, policy, self)
        play = self._play
        for _ in range(limit):
            state = play.state
            pending = state.pending
            if pending is None or state.over:
                break
            action = picked_action(pending, pick)
            if play.state is not state:  # a policy that played itself: its decision is gone
                raise GameArgumentError(
                    "the policy applied or undid actions itself; a policy only gives the index of one"
                )
            self._resume(pending, action)
        return self

    def _resume(self, pending: Pending, action: Action) -> Game:
        """Apply a legal ``action`` at ``pending``; the game is left as it was when a rule fails."""
        play = self._play
        before, events = play.state, play.logged  # (counted and cut, never read: see Played)
        n_events = len(events)
        # the machine read from the game at each use, not bound to a local: compiled, the
        # attribute is typed (engine/game.pxd) and its methods are called as C functions
        if self._machine is None:  # (a machine appends to the game's very event list: a clone makes its own)
            sink = _event_sink(events, play.record, play.keep)
            self._machine = Machine(play.rules, play.players, before, *sink)
        else:
            self._machine.start(before)
        try:
            play.state = self._machine.resume(pending, action)
        except Exception:
            play.state = before
            play.cut_events(n_events)
            raise
        if settle_events is not None and len(events) >> 6 != n_events >> 6:
            # the compiled build (engine/run/untracked.py says why), 64 events at a time:
            # every event since the last multiple of 64 (one call, not one an action)
            settle_events(events, n_events >> 6 << 6)
        if play.record:
            # the state goes into the undo history: its decision's actions are built again if
            # an undo comes back to it, rather than kept for every action of the game
            forget_actions(pending)
            play.history.append(before, n_events)
        else:
            play.unrecorded += self._machine.unrecorded
        play.actions.append(action)
        play.legal = None
        return self

    def _offered(self, action: Action) -> bool:
        """Whether an action ``accepts`` took is offered with the very kinds of its value:
        ``accepts`` compares with ``==``, to which ``True`` is ``1``."""
        if not has_number(action.value):
            return True
        legal = self._legal_by_player().get(action.player, ())
        return any(a.name == action.name and same_value(a.value, action.value) for a in legal)

    def _why_illegal(self, action: Action, legal: dict[int, tuple[Action, ...]], seat: int | None = None) -> str:
        if seat is not None:  # told to the seat that sent it: of the legal actions, its own alone
            legal = {seat: legal.get(seat, ())}
        text = str(action)
        if len(text) > 200 and all(len(str(a)) < len(text) for options in legal.values() for a in options):
            return f"{_short(text)} is not legal: it is {len(text)} characters long, longer than any legal action now"
        from .seat.refusal import why_illegal

        return why_illegal(self, action, seat=seat)

    def undo(self) -> Game:
        """Take back the last action."""
        play = self._play
        if not play.record:
            raise self._not_recorded("an undo")
        if not play.actions:
            raise IndexError("nothing to undo")
        play.state, n_events = self._complete_history().pop(play.actions, self._step)
        play.cut_events(n_events)
        play.actions.pop()
        play.legal = None
        return self

    def clone(self) -> Game:
        """An independent copy (cheap: states are shared, never changed in place)."""
        other = Game.__new__(Game)
        other._play = self._play.copy()  # the seats' views start from this game's (seat/played.py)
        other._machine = None  # never this game's: a machine's state is one run's, and changes
        return other

    # -- research (engine/research/: sampling, actions, observation) -----------------------
    def sample(self, player: int, seed: int, attempts: int = 20, rand: random.Random | None = None) -> Game:
        """A new game consistent with everything ``player`` has seen: the same
        ``view(player)``, with what that seat cannot see (other hands, face-down items,
        deck order, others' secret commits, future chance) drawn anew from ``seed``. For
        search; see :mod:`venedig_rules.engine.research.sampling` and docs/bots.md. When
        none of ``attempts`` deals fits what the seat has seen (a seat that is asked must
        have an option), :class:`~venedig_rules.errors.NoConsistentDealError`: the true
        hidden state is never given instead. A search taking many samples may pass its
        own generator as ``rand``: the deal is drawn from it (and advances it) instead of
        from a generator seeded from ``seed`` for the sample.

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=3, seed=7)
        >>> other = game.sample(0, seed=1)
        >>> other.view(0) == game.view(0), other.value("hand", 0) == game.value("hand", 0)
        (True, True)
        """
        if not self._play.record:
            raise self._not_recorded("a sample of what a seat cannot see (a sample follows the seat's events)")
        from .research.sampling import sample

        return sample(self, player, seed, attempts, rand)

    def projected_scores(self, when: str = "game_end") -> dict[int, int]:
        """Each player's score on the winner track if the game ended now: the scoring rules
        of ``when`` run on a copy (the game is untouched); see
        :mod:`venedig_rules.engine.research.projection`. For search bots' estimates.

        >>> import venedig_rules as vr
        >>> game = vr.load("rialto").new_game(players=2, seed=3)
        >>> game.scores, game.projected_scores()  # leftover councilmen and coins count at the end
        ({0: 3, 1: 3}, {0: 6, 1: 7})
        """
        from .research.projection import projected_scores

        return projected_scores(self, when)

    def legal_action_ids(self, player: int | None = None) -> list[int]:
        """The numbers of ``player``'s legal actions in ``rules.action_space(players)``,
        ascending (of the only player to move when omitted).

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
        >>> game.legal_action_ids(0), [str(game.decode(i, 0)) for i in game.legal_action_ids(0)]
        ([2, 4, 5], ['p0 bid(two)', 'p0 bid(four)', 'p0 bid(five)'])
        """
        if player is None:
            player = self._only_mover()
        return sorted(self._space().encode_all(self.legal_actions(player)))

    def apply_index(self, index: int, player: int | None = None, *, seat: int | None = None) -> Game:
        """Apply the legal action numbered ``index`` (of ``player``; of the only player to
        move when omitted). IllegalActionError, and the game untouched, when it is not legal.
        ``seat``, the seat that sent it, acts as itself only (see :meth:`apply`).

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
        >>> game.apply_index(5, player=0).actions
        ['p0 bid(five)']
        """
        if seat is not None:
            player = self._own(player, seat, f"action number {index!r}")
        if player is None:
            player = self._only_mover()
        try:
            action = self.decode(index, player)
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None
        return self.apply(action, seat=seat)

    def encode(self, action: Action) -> int:
        """The number of ``action`` now: ``rules.encode``, which for a decision numbered by
        ``ordinal`` needs the legal actions of the moment."""
        return self._space().encode(action, self.legal_actions(action.player))

    def decode(self, index: int, player: int | None = None) -> Action:
        """The action numbered ``index`` for ``player`` now (of the only player to move when
        omitted)."""
        if player is None:
            player = self._only_mover()
        return self._space().decode(index, player, self.legal_actions(player))

    def _space(self) -> ActionSpace:
        from .research.actions import action_space

        return action_space(self.rules, self.players)

    def _only_mover(self) -> int:
        """The one seat to move, else a GameArgumentError (several are, or nobody)."""
        movers = self.to_move
        if len(movers) != 1:
            raise GameArgumentError(
                f"say whose actions: players {list(movers)} are to move"
                if movers
                else "nobody is to move: the game is over"
            )
        return movers[0]

    def observation(self, player: int, kind: str = "full") -> list[float]:
        """What ``player`` may see, as a flat list of numbers of ``rules.observation_shape(players,
        kind)``: ``kind="full"`` (a place for every word of the ruleset, see
        :mod:`venedig_rules.engine.research.observation`) or ``"compact"`` (at most a few
        thousand counts and small one-hots, see :mod:`venedig_rules.engine.research.compact`);
        docs/research.md.

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
        >>> (len(game.observation(0)),) == game.rules.observation_shape(2)
        True
        >>> (len(game.observation(0, kind="compact")),) == game.rules.observation_shape(2, kind="compact")
        True
        """
        from .research.kinds import observation_kind

        return observation_kind(kind).vector(self, player)

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` knows, as text: the canonical JSON of ``view(player)`` (sorted
        keys, no spaces). Two positions the seat cannot tell apart give the same text.

        >>> import json, venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
        >>> json.loads(game.information_state_string(1)) == game.view(1)
        True
        """
        from .research.observation import information_state_string

        return information_state_string(self, player)

    # -- saving ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole game as JSON-safe data, with the ruleset's hash and a checksum (a game
        made with ``record=False`` is replayed to give the same save as a recorded one)."""
        if not self._play.record:
            return self._replayed().to_json()
        body = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "ruleset": self.rules.name,
            "rules_hash": self.rules.rules_hash,
            "players": self.players,
            "seed": self.seed,
            "actions": [str(a) for a in self._play.actions],
            "state": self._play.state.to_json(),
            "events": json_safe(self._play.events),
        }
        body["checksum"] = _checksum(body)
        return body

    @classmethod
    def from_json(cls, rules: RulesetBase, data: Any) -> Game:
        """A game from ``to_json`` data; refuses it, with the reason, when it is corrupt, was
        played with other rules, or its state does not follow from its actions."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFileError(f"not a venedig-rules saved game (expected format {SAVE_FORMAT!r})")
        if data.get("version") != SAVE_VERSION:
            raise SaveFileError(
                f"saved game version {data.get('version')!r} is not supported (expected {SAVE_VERSION})"
            )
        if data.get("rules_hash") != rules.rules_hash:
            raise SaveFileError(
                f"the game was played with other rules ({data.get('ruleset')!r}, rules_hash "
                f"{str(data.get('rules_hash'))[:12]}...), not {rules.name!r} "
                f"({rules.rules_hash[:12]}...)"
            )
        try:
            text = _json_text({k: v for k, v in data.items() if k != "checksum"})
        except (ValueError, TypeError, RecursionError):  # not JSON: a huge number, a loop, a key of another kind
            raise SaveFileError("the file holds data that is not JSON: it was changed or damaged") from None
        if data.get("checksum") != _digest(text):
            raise SaveFileError("the checksum does not match: the file was changed or damaged")
        players, seed, actions = data.get("players"), data.get("seed"), data.get("actions")
        if (
            not isinstance(players, int)
            or not isinstance(seed, int)
            or isinstance(players, bool)
            or isinstance(seed, bool)
            or not isinstance(actions, list)
            or not all(isinstance(a, str) for a in actions)
        ):
            raise SaveFileError("players and seed must be numbers and actions a list of action texts")
        if seed.bit_length() > MAX_SEED_BITS:
            raise SaveFileError(f"its seed has more than {MAX_SEED_BITS} bits; no game has such a seed")
        try:
            game = cls(rules, players, seed)
            for action in actions:
                game.apply(action)
        except Exception as exc:
            raise SaveFileError(f"its actions cannot be replayed: {exc}") from None
        _check_replayed(game.to_json(), data, text)
        return game

    def _complete_history(self) -> UndoHistory:
        """The undo history, made by replay if it has fewer points than the game has actions."""
        play = self._play
        if len(play.history) < len(play.actions):
            play.history = self._replayed()._play.history
        return play.history

    def _undo_point(self) -> UndoPoint:
        """The state before the last action and the length of the log then."""
        return self._complete_history().last(self._play.actions, self._step)

    def _step(self, state: State, action: Action) -> State:
        """The state after ``action`` at ``state``, telling no one (the undo history makes
        states it dropped again with it)."""
        pending = state.pending
        assert pending is not None, "a state before an action waits for it"
        return Machine(self._play.rules, self._play.players, state, None).resume(pending, action)

    def _replayed(self) -> Game:
        """This game played again with its events and undo history kept."""
        replayed = Game(self.rules, self.players, self.seed)
        for action in self._play.actions:
            replayed.apply(action)
        return replayed

    def fingerprint(self) -> tuple[str, int, int]:
        """A cheap identity of the game's position: its state and the length of its log
        (equal fingerprints: equal ``to_json`` but for events, which only grow)."""
        s = self._play.state
        try:  # json writes tuples as lists itself: the same text as from to_json(), made in C
            text = json.dumps(
                {
                    "vars": s.vars,
                    "frames": [[f.code, f.pc, f.target, f.names] for f in s.frames],
                    "pending": None if s.pending is None else s.pending.to_json(),
                    "rng": f"{s.rng:016x}",
                    "over": s.over,
                    "winners": s.winners,
                },
                sort_keys=True,
            )
        except TypeError:  # keys of mixed kinds: to_json() makes them all text first
            text = json.dumps(s.to_json(), sort_keys=True)
        return (text, len(self._play.logged) + self._play.unrecorded, len(self._play.actions))

    def check_invariants(self) -> list[str]:
        """The messages of the ruleset's invariants that do not hold now (those declared
        ``when: end`` only once the game is over)."""
        run = Machine(self.rules, self.players, self._play.state, None)
        checks = self.rules.generated.invariants
        failed = []
        for invariant in self.rules.compiled_flow.invariants:
            if invariant.when == "end" and not self._play.state.over:
                continue
            try:
                ok = checks[invariant.code](run, {"players": run.everyone})
            except RuleRuntimeError as exc:
                failed.append(f"{invariant.id}: {invariant.message} (could not be evaluated: {exc})")
                continue
            if not ok:
                failed.append(f"{invariant.id}: {invariant.message}")
        return failed


def _playout_generator(seed: Any, rand: Any) -> random.Random:
    """What :meth:`Game.playout` draws from: ``rand``, or a generator seeded with ``seed``
    (0 when neither is given); a GameArgumentError for anything else."""
    if rand is None:
        return random.Random(0 if seed is None else checked_seed(seed))
    if seed is not None:
        raise GameArgumentError("give a playout a seed or a generator (rand), not both")
    if not isinstance(rand, random.Random):
        raise GameArgumentError(f"rand must be a random.Random, not {_shown(rand)}")
    return rand


def _playout_limit(max_actions: Any) -> int:
    """``max_actions`` when it is a whole number from 0, else a GameArgumentError."""
    if type(max_actions) is int and max_actions >= 0:
        return max_actions
    raise GameArgumentError(f"max_actions must be a whole number from 0, not {_shown(max_actions)}")


def _drawn_index(rand: random.Random, player: int, count: int) -> int:
    """A playout's random pick: drawn as ``rand.choice`` draws from ``count`` actions."""
    return choice(rand, range(count))


def _policy_index(policy: Policy, game: Game, player: int, count: int) -> int:
    """The index ``policy`` gives for ``player``, checked to be one of its ``count`` actions."""
    index = policy(game, player, count)
    if type(index) is not int or not 0 <= index < count:
        raise IllegalActionError(
            f"the policy gave {_shown(index)} for player {player}, who has {count} legal action(s)"
            f" (an index from 0 to {count - 1})"
        )
    return index


def _event_sink(
    events: list[Logged], record: bool, keep: frozenset[str]
) -> tuple[list[Logged] | None, frozenset[str] | None]:
    """What a machine running a game appends its events to, and which types it keeps."""
    if record:
        return events, None
    return (events, keep) if keep else (None, None)


def _kept_types(keep_events: Iterable[str], record: bool) -> frozenset[str]:
    """The event types a game made with ``record=False`` keeps; a GameArgumentError for
    what is no list of type names, or for a game that keeps every event anyway."""
    if isinstance(keep_events, str) or not isinstance(keep_events, Iterable):
        raise GameArgumentError(f"keep_events must be a list of event types, not {_shown(keep_events)}")
    kept = tuple(keep_events)
    if not all(isinstance(kind, str) for kind in kept):
        raise GameArgumentError(f"keep_events must name event types (words), not {_shown(kept)}")
    if kept and record:
        raise GameArgumentError("keep_events is for a game made with record=False: a recorded game keeps every event")
    return frozenset(kept)


def secret_seed() -> int:
    """A seed no seat can guess: ``limits.SEED_BITS`` random bits from :mod:`secrets`, the
    width of the generator's state (what ``new_game`` uses when given no seed)."""
    return secrets.randbits(SEED_BITS)


def checked_seed(seed: Any) -> int:
    """``seed`` when it is a whole number of at most ``limits.MAX_SEED_BITS`` bits, else a
    GameArgumentError."""
    if isinstance(seed, int) and not isinstance(seed, bool) and seed.bit_length() <= MAX_SEED_BITS:
        return int(seed)
    what = f"a number of {seed.bit_length()} bits" if isinstance(seed, int) else _shown(seed)
    raise GameArgumentError(f"a seed is a whole number of at most {MAX_SEED_BITS} bits, not {what}")


def _shown(value: Any) -> str:
    """What a caller gave, for a message: short, and never the digits of a huge number."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of {value.bit_length()} bits"
    return _short(repr(value))


def _short(text: str) -> str:
    return text if len(text) <= 80 else f"{text[:60]}...{text[-14:]}"


def _check_replayed(replayed: dict[str, Any], data: dict[str, Any], text: str) -> None:
    """A SaveFileError unless ``data`` (``text`` as JSON, its checksum left out) is exactly
    ``replayed``, the save of the game its actions replay to. Compared as JSON text, not with
    ==: to Python true is 1 and 1.0 is 1, so a save whose event named seat true was taken for
    seat 1's, and its game then saved something else."""
    body = {k: v for k, v in replayed.items() if k != "checksum"}
    if _json_text(body) == text:
        return
    # not the same: which part, for the message (every field counts, the ruleset's name too)
    for part in ("state", "events"):
        if part not in data or _json_text(body[part]) != _json_text(data[part]):
            raise SaveFileError(f"its {part} does not follow from its seed and actions")
    differing = sorted(
        str(k)
        for k in set(body) | set(data)
        if k != "checksum" and (k not in body or k not in data or _json_text(body[k]) != _json_text(data[k]))
    )
    raise SaveFileError(f"its fields {', '.join(differing)} differ from the game its actions replay to")


def _json_text(value: Any) -> str:
    """``value`` as canonical JSON (sorted keys, no spaces): what a save holds, kinds and all."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _checksum(body: dict[str, Any]) -> str:
    return _digest(_json_text(body))
