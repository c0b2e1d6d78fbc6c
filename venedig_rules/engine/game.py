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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import RuleRuntimeError, VenedigError
from .decisions import DecisionDescription, describe
from .events import Event
from .machine import Machine, State, initial_state
from .notation import Action, ActionSyntaxError, IllegalActionError, parse_action
from .refusal import why_illegal
from .ruleset_base import RulesetBase
from .seatview import build_view
from .tableundo import TableUndo
from .tableundo import check as check_table_undo
from .views import GameView, json_safe

SAVE_FORMAT = "venedig-rules/game"
SAVE_VERSION = 1


class SaveFileError(VenedigError, ValueError):
    """A saved game that cannot be loaded: corrupt, from another ruleset, or inconsistent."""

    code = "save/invalid"


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
    """

    def __init__(self, rules: RulesetBase, players: int, seed: int, *, _start: bool = True):
        if rules.compiled is None:
            raise VenedigError(f"ruleset {rules.name!r} has no flow yet: it can be validated and described, not played")
        if players not in rules.players:
            raise ValueError(
                f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, not {players}"
            )
        self.rules = rules
        self.players = players
        self.seed = seed
        self._events: list[Event] = []
        self._actions: list[Action] = []  # as applied; their text on demand
        self._history: list[tuple[State, int]] = []
        self._legal: dict[int, tuple[Action, ...]] | None = None
        if _start:
            self._state = Machine(rules, players, initial_state(rules, players, seed), self._events).run()

    # -- asking ----------------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        """The players who must act now (several at a simultaneous decision), in seat order."""
        pending = self._state.pending
        if pending is None or self._state.over:
            return ()
        return pending.movers()

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The legal actions of ``player`` (of the only player to move when omitted), sorted."""
        if player is None:
            movers = self.to_move
            if len(movers) != 1:
                raise ValueError(
                    f"say whose actions: players {list(movers)} are to move"
                    if movers
                    else "nobody is to move: the game is over"
                )
            player = movers[0]
        return list(self._legal_by_player().get(player, ()))

    def _legal_by_player(self) -> dict[int, tuple[Action, ...]]:
        if self._legal is None:
            pending = self._state.pending
            self._legal = {} if pending is None or self._state.over else pending.legal_by_player()
        return self._legal

    @property
    def is_over(self) -> bool:
        return self._state.over

    @property
    def scores(self) -> dict[int, int]:
        """Each player's score on the track that decides the winner."""
        track = self.rules.winner_track
        return {p: self._state.vars[track][p] for p in range(self.players)} if track else {}

    @property
    def winners(self) -> tuple[int, ...]:
        """The winners once the game is over (several when tied and ties are shared)."""
        if not self._state.over:
            return ()
        if self._state.winners is not None:
            return tuple(self._state.winners)
        return self.rules.rank_winners(self._state.vars, self.players)

    @property
    def events(self) -> list[Event]:
        """Every event so far, unredacted (dicts with a ``type``: see :mod:`.events`)."""
        return list(self._events)

    @property
    def actions(self) -> list[str]:
        """The text of every action applied so far."""
        return [str(a) for a in self._actions]

    @property
    def position(self) -> Position:
        """Where the game stands now, to ask :meth:`continues` later (cheap: nothing is copied)."""
        return Position(len(self._actions), len(self._events), self._state)

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
        if n == len(self._actions):
            return self._state is position.state
        return n < len(self._actions) == len(self._history) and self._history[n][0] is position.state

    def value(self, name: str, index: Any = None) -> Any:
        """A state variable's value (a player's or space's with ``index``), unredacted."""
        value = self._state.vars[name]
        if index is None:
            return value
        info = self.rules.compiled_flow.state[name]
        return value[index if info.per == "player" else self.rules.space_index(index)]

    def view(
        self,
        player: int | None,
        since: int = 0,
        *,
        compact: bool = False,
        lang: str = "en",
        names: Sequence[str] | None = None,
    ) -> GameView:
        """What ``player`` may know, JSON-safe: hidden values and others' secrets redacted,
        in the event log too, each event with its ``text``; the seat's ``decision``, who is
        ``waiting_for`` what, and the ``cursor``. ``since``: only the events after the first
        ``since`` the seat has received (pass the last view's ``cursor``). ``compact``: no
        null entries. ``lang``, ``names``: the language and the seats' names of the texts.
        ``player=None`` is a spectator: only what every seat may know (the one public view
        that ``waiting_for``, board pictures and the web front end use).

        >>> import venedig_rules as vr
        >>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")  # keeps the gold
        >>> view = game.view(1)
        >>> game.view(1, since=view["cursor"])["events"], view["waiting_for"][0]["prompt"]
        ([], 'p0 is laying out building cards')
        >>> game.view(None)["state"]["hand"], game.view(None)["decision"]
        ([{'hidden': 3}, {'hidden': 3}, {'hidden': 3}], None)
        """
        return build_view(self, player, since, compact=compact, lang=lang, names=names)

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
        return describe(self, player, lang, names)

    def can_undo(self, player: int) -> TableUndo:
        """Whether ``player`` may take back its last action at the table (it is the last
        action, it revealed nothing, no chance was drawn after it), with the reason when
        not; true exactly when allowed. ``undo()`` itself takes back any action.

        >>> import venedig_rules as vr
        >>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")
        >>> bool(game.can_undo(0)), game.can_undo(1).reason
        (True, 'p1 has not acted yet')
        """
        return check_table_undo(self, player)

    # -- acting ----------------------------------------------------------------------------
    def apply(self, action: Action | str) -> Game:
        """Apply a legal action (an Action or its text); raises IllegalActionError, and
        leaves the game untouched, when it is not legal now."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ActionSyntaxError as exc:
                raise IllegalActionError(str(exc)) from None
        elif not isinstance(action, Action):
            raise IllegalActionError(
                f"{action!r} is not an action; expected an Action or its text, e.g. 'p1 claim(c4)'"
            )
        before, n_events = self._state, len(self._events)
        pending = before.pending
        if pending is None or before.over or not pending.accepts(action):
            raise IllegalActionError(self._why_illegal(action, self._legal_by_player()))
        try:
            self._state = Machine(self.rules, self.players, before, self._events).resume(pending, action)
        except Exception:
            self._state = before
            del self._events[n_events:]
            raise
        self._history.append((before, n_events))
        self._actions.append(action)
        self._legal = None
        return self

    def _why_illegal(self, action: Action, legal: dict[int, tuple[Action, ...]]) -> str:
        return why_illegal(self, action)

    def undo(self) -> Game:
        """Take back the last action."""
        if not self._history:
            if self._actions:
                self._rebuild_history()
            if not self._history:
                raise IndexError("nothing to undo")
        self._state, n_events = self._history.pop()
        del self._events[n_events:]
        self._actions.pop()
        self._legal = None
        return self

    def clone(self) -> Game:
        """An independent copy (cheap: states are shared, never changed in place)."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other.players = self.players
        other.seed = self.seed
        other._state = self._state
        other._legal = self._legal
        other._events = list(self._events)
        other._actions = list(self._actions)
        other._history = list(self._history)
        return other

    # -- saving ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole game as JSON-safe data, with the ruleset's hash and a checksum."""
        body = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "ruleset": self.rules.name,
            "rules_hash": self.rules.rules_hash,
            "players": self.players,
            "seed": self.seed,
            "actions": [str(a) for a in self._actions],
            "state": self._state.to_json(),
            "events": json_safe(self._events),
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
        if data.get("checksum") != _checksum({k: v for k, v in data.items() if k != "checksum"}):
            raise SaveFileError("the checksum does not match: the file was changed or damaged")
        players, seed, actions = data.get("players"), data.get("seed"), data.get("actions")
        if (
            not isinstance(players, int)
            or not isinstance(seed, int)
            or not isinstance(actions, list)
            or not all(isinstance(a, str) for a in actions)
        ):
            raise SaveFileError("players and seed must be numbers and actions a list of action texts")
        try:
            game = cls(rules, players, seed)
            for action in actions:
                game.apply(action)
        except Exception as exc:
            raise SaveFileError(f"its actions cannot be replayed: {exc}") from None
        replayed = game.to_json()
        for part in ("state", "events"):
            if replayed[part] != data.get(part):
                raise SaveFileError(f"its {part} does not follow from its seed and actions")
        return game

    def _rebuild_history(self) -> None:
        replayed = Game(self.rules, self.players, self.seed)
        for action in self._actions:
            replayed.apply(action)
        self._history = replayed._history

    def fingerprint(self) -> tuple[str, int, int]:
        """A cheap identity of the game's position: its state and the length of its log
        (equal fingerprints: equal ``to_json`` but for events, which only grow)."""
        s = self._state
        try:  # json writes tuples as lists itself: the same text as from to_json(), made in C
            text = json.dumps(
                {
                    "vars": s.vars,
                    "frames": s.frames,
                    "pending": None if s.pending is None else s.pending.to_json(),
                    "rng": f"{s.rng:016x}",
                    "over": s.over,
                    "winners": s.winners,
                },
                sort_keys=True,
            )
        except TypeError:  # keys of mixed kinds: to_json() makes them all text first
            text = json.dumps(s.to_json(), sort_keys=True)
        return (text, len(self._events), len(self._actions))

    def check_invariants(self) -> list[str]:
        """The messages of the ruleset's invariants that do not hold now (those declared
        ``when: end`` only once the game is over)."""
        run = Machine(self.rules, self.players, self._state, self._events)
        failed = []
        for invariant in self.rules.compiled_flow.invariants:
            if invariant.when == "end" and not self._state.over:
                continue
            try:
                ok = invariant.check({"players": tuple(range(self.players))}, run)
            except RuleRuntimeError as exc:
                failed.append(f"{invariant.id}: {invariant.message} (could not be evaluated: {exc})")
                continue
            if not ok:
                failed.append(f"{invariant.id}: {invariant.message}")
        return failed


def _checksum(body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
