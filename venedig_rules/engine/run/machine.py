"""The machine that runs a ruleset's compiled flow: frames of plain data, stopped at every
decision and resumed by an action.

A :class:`State` is one immutable snapshot (variables, frames, the pending decision, the
generator, the end); a :class:`Machine` runs from a snapshot to the next decision and
freezes a new one. The machine is also the context (``ctx``) the primitives see, and the
``C`` of the generated code (:mod:`venedig_rules.effects.compile`): it keeps the budgets
of one action (:mod:`venedig_rules.effects.runtime`) and locates every rule error at the
DSL statement that raised it.

A frame is ``(code id, pc, target, names)``: the program, where in it (the ``pc`` case of
its resumable function; at a decision, the decision's own case), which local of the caller
receives its value, and its local names. A program runs from its frame until it stops at a
decision (``STOP``) or ends; a call of a program that may stop pushes the callee's frame
and runs it at once, so the dispatch loop of :meth:`Machine.run` only turns when a game
resumes after a decision, to finish the callers waiting below.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, fields
from itertools import repeat
from typing import TYPE_CHECKING, Any, NoReturn

from ...effects.compile import Function, Generated
from ...effects.context import CallRequestLike, Ref, StateAccess
from ...effects.runtime import RULE_FAILURES, STOP, Stop, freeze, out_of_steps, sized, too_big_int, too_many_events
from ...errors import Location, RuleRuntimeError
from ...limits import MAX_CALL_DEPTH, MAX_EVENTS, MAX_INT, MAX_STEPS
from . import events, records, rngloops, slotted
from . import rng as rnglib
from .events import Event
from .notation import PASS, Action, value_key
from .ordered import LOOKED_UP_FROM, RISING_FROM, looked_up, rising
from .records import CHANGE_RECORD, CHOICE_RECORD, MOVE_RECORD, PART_RECORD, RULESET_RECORD, Logged
from .views import json_safe

if TYPE_CHECKING:
    from .ruleset_base import RulesetBase

#: The generator's draws: rngloops' C loops in the compiled build, rng's own in the pure
#: package (the same states and numbers).
_below = rngloops.below or rnglib.below
_shuffled = rngloops.shuffled or rnglib.shuffled

#: How deep effects may call each other (procedures, item effects, scoring rules).
MAX_DEPTH = MAX_CALL_DEPTH

Locals = dict[str, Any]

#: The plain kind of a decision's options when not worked out yet (see ``_plain_kind``).
UNKNOWN_KIND = "unknown"


class CallRequest:
    """What a primitive that runs another effect hands the machine: code, bound names, and
    whether the caller receives the effect's value."""

    __slots__ = ("code", "names", "returns")

    def __init__(self, code: str, names: dict[str, Any], returns: bool = True):
        self.code = code
        self.names = names
        self.returns = returns

    def __repr__(self) -> str:
        return f"CallRequest({self.code!r}, {self.names!r}, returns={self.returns})"


class Frame:
    """A running program: which code, where in it (``pc``), which local of the caller gets
    its value (``target``), its local names.

    A snapshot holds its frames as they were (``shared``): a machine that runs one again
    runs a copy (:meth:`thaw`), whose names are copied in turn before it first changes
    them (``owned``), so a snapshot's frames never change.
    """

    __slots__ = ("code", "names", "owned", "pc", "shared", "target")

    def __init__(
        self, code: str, pc: int, target: str | None, names: Locals, owned: bool = False, shared: bool = False
    ):
        self.code = code
        self.pc = pc
        self.target = target
        self.names = names
        self.owned = owned
        self.shared = shared  # a snapshot's: a machine runs a copy of it

    def own(self) -> Locals:
        """The frame's names, its own to change."""
        if not self.owned:
            self.names, self.owned = dict(self.names), True
        return self.names

    def thaw(self) -> Frame:
        """A copy of a snapshot's frame to run on, with its names its own: a frame is thawed
        to be run or to take a value at once, either of which would copy them (:meth:`own`).
        Its fields are set as :func:`_frame` sets them, written out: every action thaws two
        frames or so, and a call is most of the cost."""
        frame = Frame.__new__(Frame)
        frame.code = self.code
        frame.pc = self.pc
        frame.target = self.target
        frame.names = dict(self.names)
        frame.owned = True
        frame.shared = False
        return frame

    def to_json(self) -> list[Any]:
        return [self.code, self.pc, self.target, json_safe(self.names)]

    def __repr__(self) -> str:
        return f"Frame({self.code!r}, {self.pc}, {self.target!r}, {self.names!r})"


def _frame(code: str, pc: int, target: str | None, names: Locals, owned: bool) -> Frame:
    """A Frame that is not a snapshot's, as the machine makes one for a program a rule asks
    to run (:meth:`Machine.requests`; :meth:`Frame.thaw` and :meth:`Machine.call`, which run
    at nearly every action, set the same fields themselves, a call fewer): in the compiled
    build its fields are set as a struct's, where the class's ``__init__`` is a Python call
    that parses its arguments first."""
    frame = Frame.__new__(Frame)
    frame.code = code
    frame.pc = pc
    frame.target = target
    frame.names = names
    frame.owned = owned
    frame.shared = False
    return frame


def _request(code: str, names: dict[str, Any]) -> CallRequest:
    """``CallRequest(code, names)``, as the machine makes one for every rule item it runs
    (:meth:`Machine.call_item`): compiled, its fields are set as a struct's (see _frame)."""
    request = CallRequest.__new__(CallRequest)
    request.code = code
    request.names = names
    request.returns = True
    return request


@dataclass(frozen=True, slots=True)
class PendingChoice:
    """One player's decision: ``options`` in legal-action order; an ``optional`` one may
    be passed; a ``secret`` one's value is shown to its chooser only."""

    player: int
    label: str
    options: tuple[Any, ...]
    optional: bool
    target: str
    secret: bool = False
    #: the chooser's legal actions once asked (see :attr:`actions`): a cache, no part of the
    #: decision (not compared, not shown, not saved)
    _actions: tuple[Action, ...] | None = field(default=None, init=False, repr=False, compare=False)
    #: the options' plain kind (see _plain_kind) when the machine knows it already, else
    #: UNKNOWN_KIND: a cache, no part of the decision
    _kind: str | None = field(default=UNKNOWN_KIND, init=False, repr=False, compare=False)

    @classmethod
    def at_once(
        cls,
        player: int,
        label: str,
        options: tuple[Any, ...],
        optional: bool,
        target: str,
        secret: bool,
        kind: str | None = UNKNOWN_KIND,
    ) -> PendingChoice:
        """The same as ``PendingChoice(...)``, as the machine makes one at every decision
        (:func:`_new_choice`): a frozen dataclass's ``__init__`` sets each field through
        ``object.__setattr__``, at several times the cost."""
        return _new_choice(player, label, options, optional, target, secret, kind)

    def movers(self) -> tuple[int, ...]:
        """The players who must act now: the chooser."""
        return (self.player,)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The chooser's legal actions, in order: built once per decision (the snapshot and
        every clone share it)."""
        # not functools.cached_property: it takes a lock on every first use (Python 3.11),
        # and every decision is a first use
        built = self._actions
        return actions_of(self, self.player) if built is None else built

    def forget_actions(self) -> None:
        """Let go of the legal actions built (a state the undo history keeps: they are built
        again if an undo comes back to it, rather than kept for every action of the game)."""
        _set_choice_actions(self, None)

    def legal_actions(self, player: int) -> tuple[Action, ...]:
        """``player``'s legal actions, in order (none when the decision is not theirs)."""
        return self.actions if player == self.player else ()

    def legal_by_player(self) -> dict[int, tuple[Action, ...]]:
        """Each mover's legal actions (what the game asks at every step: one call for all)."""
        return {self.player: self.actions}

    def accepts(self, action: Action) -> bool:
        """Whether ``action`` is legal now: the chooser names an option, or passes an optional choice."""
        if action.player != self.player:
            return False
        if action.name == PASS and action.value is None:
            return self.optional
        return action.name == self.label and action.value in self.options

    def commit_of(self, player: int) -> tuple[Any] | None:
        """None: nobody commits at a one-player decision (see :meth:`PendingCommits.commit_of`)."""
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": "one",
            "player": self.player,
            "label": self.label,
            "options": json_safe(self.options),
            "optional": self.optional,
            "target": self.target,
        }
        if self.secret:
            out["secret"] = True
        return out


@dataclass(frozen=True, slots=True)
class PendingCommits:
    """A simultaneous decision: each of ``players`` commits one of their own ``options``
    in secret (``commits[i]`` is ``(value,)`` once player ``players[i]`` committed)."""

    players: tuple[int, ...]
    label: str
    options: tuple[tuple[Any, ...], ...]
    commits: tuple[tuple[Any] | None, ...]
    target: str
    #: each taking part player's legal actions once asked (see :attr:`actions`): a cache, no
    #: part of the decision (not compared, not shown, not saved)
    _actions: tuple[tuple[Action, ...], ...] | None = field(default=None, init=False, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "each",
            "players": list(self.players),
            "label": self.label,
            "options": json_safe(self.options),
            "commits": json_safe(self.commits),
            "target": self.target,
        }

    def movers(self) -> tuple[int, ...]:
        """The players who must act now: those who have not committed yet, in seat order."""
        return tuple([p for p, c in zip(self.players, self.commits) if c is None])

    @property
    def actions(self) -> tuple[tuple[Action, ...], ...]:
        """Each taking part player's actions, in order (built once per decision)."""
        built = self._actions
        if built is None:
            built = tuple([_actions(p, self.label, o, False) for p, o in zip(self.players, self.options)])
            _set_commits_actions(self, built)
        return built

    def forget_actions(self) -> None:
        """Let go of the legal actions built (see :meth:`PendingChoice.forget_actions`)."""
        _set_commits_actions(self, None)

    def legal_actions(self, player: int) -> tuple[Action, ...]:
        """``player``'s legal actions, in order (none once they committed, or when they do
        not take part)."""
        return actions_of(self, player)

    def legal_by_player(self) -> dict[int, tuple[Action, ...]]:
        """Each mover's legal actions, in seat order."""
        return {p: actions for p, actions, commit in zip(self.players, self.actions, self.commits) if commit is None}

    def accepts(self, action: Action) -> bool:
        """Whether ``action`` is legal now: a player yet to commit names one of their options."""
        if action.name != self.label or action.player not in self.players:
            return False
        i = self.players.index(action.player)
        return self.commits[i] is None and action.value in self.options[i]

    def commit_of(self, player: int) -> tuple[Any] | None:
        """``(value,)`` once ``player`` committed, else None."""
        return self.commits[self.players.index(player)] if player in self.players else None

    @classmethod
    def at_once(
        cls,
        players: tuple[int, ...],
        label: str,
        options: tuple[tuple[Any, ...], ...],
        commits: tuple[tuple[Any] | None, ...],
        target: str,
    ) -> PendingCommits:
        """The same as ``PendingCommits(...)``, as the machine makes one at every commit
        (:func:`_new_commits`, as :meth:`PendingChoice.at_once`)."""
        return _new_commits(players, label, options, commits, target, None)

    def committed(self, player: int, value: Any) -> PendingCommits:
        """The decision after ``player`` commits ``value`` (with the actions built already,
        which are the same: see :attr:`actions`)."""
        i = self.players.index(player)
        commits = self.commits[:i] + ((value,),) + self.commits[i + 1 :]
        return _new_commits(self.players, self.label, self.options, commits, self.target, self._actions)

    def revealed(self, player_count: int) -> tuple[Any, ...]:
        """Every player's committed value by seat (None for a player who took no part)."""
        by_player = dict(zip(self.players, self.commits))
        return tuple([freeze(c[0]) if c is not None else None for c in map(by_player.get, range(player_count))])


Pending = PendingChoice | PendingCommits

# Setting a slot through its descriptor: what a frozen dataclass's own methods may do (the
# decisions' caches), at half the cost of ``object.__setattr__``.
(_set_choice_actions,) = (getattr(PendingChoice, f.name).__set__ for f in fields(PendingChoice) if f.name == "_actions")
(_set_commits_actions,) = (getattr(PendingCommits, f.name).__set__ for f in fields(PendingCommits) if not f.init)


def actions_of(pending: Pending, player: int) -> tuple[Action, ...]:
    """``pending.legal_actions(player)``, as the game asks it at every action (to list a
    seat's actions, and to find the one applied among them): a decision's actions are read
    here, not through two method calls (compiled, this is a C call), and built and kept
    here at their first use. A simultaneous decision's are none once the player committed,
    or when they do not take part."""
    if type(pending) is PendingChoice:
        if player != pending.player:
            return ()
        built = pending._actions
        if built is None:
            built = _actions(pending.player, pending.label, pending.options, pending.optional, pending._kind)
            _set_choice_actions(pending, built)
        return built
    if type(pending) is PendingCommits:
        players = pending.players
        if player not in players:
            return ()
        i = players.index(player)
        if pending.commits[i] is not None:
            return ()
        each = pending._actions
        return (pending.actions if each is None else each)[i]
    raise TypeError(f"not a decision: {pending!r}")


def forget_actions(pending: Pending) -> None:
    """``pending.forget_actions()``, as the game calls it after every recorded action."""
    if type(pending) is PendingChoice:
        _set_choice_actions(pending, None)
    else:
        _set_commits_actions(pending, None)


class _UnfrozenChoice:
    """A PendingChoice's slots, settable: what :func:`_new_choice` fills before it makes
    the object a PendingChoice."""

    __slots__ = PendingChoice.__slots__


class _UnfrozenCommits:
    """A PendingCommits' slots, settable: what :func:`_new_commits` fills."""

    __slots__ = PendingCommits.__slots__


#: Each decision's fields in order (the order of the makers' values below).
_CHOICE_FIELDS = tuple([f.name for f in fields(PendingChoice)])
_COMMITS_FIELDS = tuple([f.name for f in fields(PendingCommits)])
#: The compiled build's makers of decisions, which write the slots at once (slotted.py says
#: why); None in the pure package, which fills the twin classes above.
_make_choice = None if slotted.maker is None else slotted.maker(PendingChoice, _CHOICE_FIELDS)
_make_commits = None if slotted.maker is None else slotted.maker(PendingCommits, _COMMITS_FIELDS)


def _new_commits(
    players: tuple[int, ...],
    label: str,
    options: tuple[tuple[Any, ...], ...],
    commits: tuple[tuple[Any] | None, ...],
    target: str,
    actions: tuple[tuple[Action, ...], ...] | None,
) -> PendingCommits:
    """A PendingCommits made as :func:`_new_choice` makes a PendingChoice: a frozen
    dataclass's ``__init__`` is Python code that sets each field through
    ``object.__setattr__`` (some 7,400 instructions compiled), and the machine makes one at
    every commit of a simultaneous decision. Written out slot by slot, as there: one
    function setting either class's slots in a loop by name made the pure package's
    action 3.4% dearer."""
    if _make_commits is not None:
        return _make_commits(players, label, options, commits, target, actions)  # type: ignore[no-any-return]
    made: Any = _UnfrozenCommits()
    made.players = players
    made.label = label
    made.options = options
    made.commits = commits
    made.target = target
    made._actions = actions
    made.__class__ = PendingCommits
    return made  # type: ignore[no-any-return]


def _new_choice(
    player: int, label: str, options: tuple[Any, ...], optional: bool, target: str, secret: bool, kind: str | None
) -> PendingChoice:
    """A PendingChoice (:meth:`PendingChoice.at_once`), its slots set plainly on a twin
    class of the very same slots, which then becomes a PendingChoice (``__class__``
    assignment, allowed between classes of one layout): each slot's setter called as a
    function costs more than twice as much, and the machine makes one at every decision.
    The compiled build writes the slots of a PendingChoice at once instead (slotted.py)."""
    if _make_choice is not None:
        return _make_choice(player, label, options, optional, target, secret, None, kind)  # type: ignore[no-any-return]
    made: Any = _UnfrozenChoice()
    made.player = player
    made.label = label
    made.options = options
    made.optional = optional
    made.target = target
    made.secret = secret
    made._actions = None
    made._kind = kind
    made.__class__ = PendingChoice
    return made  # type: ignore[no-any-return]


class State:
    """One immutable snapshot: variables, frames, the pending decision, the RNG, the end."""

    # weak references: the undo history keeps most states only while something else does
    __slots__ = ("__weakref__", "frames", "over", "pending", "rng", "vars", "winners")

    def __init__(
        self,
        vars: dict[str, Any],
        frames: tuple[Frame, ...],
        pending: Pending | None,
        rng: int,
        over: bool = False,
        winners: tuple[int, ...] | None = None,
    ):
        self.vars = vars
        self.frames = frames
        self.pending = pending
        self.rng = rng
        self.over = over
        self.winners = winners

    def to_json(self) -> dict[str, Any]:
        return {
            "vars": json_safe(self.vars),
            "frames": [f.to_json() for f in self.frames],
            "pending": None if self.pending is None else self.pending.to_json(),
            "rng": f"{self.rng:016x}",
            "over": self.over,
            "winners": None if self.winners is None else list(self.winners),
        }


def initial_state(rules: RulesetBase, players: int, seed: int) -> State:
    """The snapshot before the flow's first statement."""
    # the same for every game of a player count (its values are never changed in place)
    start = rules.derived(f"initial vars {players}", lambda r: _initial_vars(r, players))
    return State(
        dict(start),
        (Frame(rules.compiled_flow.main, 0, None, _base_locals(players)),),
        None,
        rnglib.seed_state(seed),
    )


class GameOver(Exception):
    """Raised by ``end_game()`` / ``win()`` to stop the machine wherever it is."""


class Machine(StateAccess):
    """A game's state while the machine runs: the context primitives see as ``ctx``.

    ``events`` is the game's event list, appended to in place (the game cuts it back when
    a run fails): the events of every step as records (:mod:`.records`; the game's
    ``Played.events`` makes them dicts when read), the others as dicts. None for a game
    that keeps no events (``record=False``), which only counts them in ``unrecorded``.
    ``keep``: with ``events``, keep only the events of these types (decision events,
    ``game_over`` and the ruleset's own), as dicts, and count the others.
    """

    def __init__(
        self,
        rules: RulesetBase,
        players: int,
        state: State,
        events: list[Logged] | None,
        keep: frozenset[str] | None = None,
    ):
        self.rules = rules
        self.compiled = rules.compiled_flow
        self.code: Generated = rules.generated
        self.player_count = players
        self.everyone = tuple(range(players))
        self.record = events is not None and keep is None
        self.events: list[Logged] = events if events is not None else []
        self.keep = keep if events is not None and keep else None  # types kept when not recording all
        self._indexed = rules.indexed_vars
        self._player_vars = rules.player_vars
        self._spaces = rules.space_indexes
        self._items = rules.items_by_id
        self.start(state)

    def start(self, state: State) -> Machine:
        """Set the machine to run from ``state``, with a new action's budgets: a game runs
        all its actions on one machine (:meth:`Game.apply
        <venedig_rules.engine.game.Game.apply>`), as making one costs more than this. What
        an earlier run left (a failed one's too) is all replaced here."""
        self.vars = dict(state.vars)  # the run's own: compiled code keeps it as V
        self.frames = list(state.frames)  # a snapshot's, shared: each thawed before it runs
        self.pending = state.pending
        self.rng = state.rng
        self.over = state.over
        self.winners = state.winners
        self.unrecorded = 0  # events not kept (record=False)
        self.left = MAX_STEPS  # steps this action may still take
        self.events_left = MAX_EVENTS  # events of the rules this action may still emit
        self.depth = 0  # direct calls running (frames count besides)
        return self

    # -- the machine -----------------------------------------------------------------------
    def resume(self, pending: Pending, action: Action) -> State:
        """Take ``action``, legal at ``pending`` (the snapshot's decision), and run on."""
        value = None if action.name == PASS else action.value
        if isinstance(pending, PendingCommits):
            pending = self.pending = pending.committed(action.player, value)
            if self.record or self.keep:
                self.emit(events.commit(action.player, pending.label, value))
            else:
                self.unrecorded += 1
            if pending.movers():
                return self.freeze()
            value = pending.revealed(self.player_count)
            if self.record or self.keep:
                self.emit(events.reveal(pending.label, value))
            else:
                self.unrecorded += 1
        elif self.record:
            # a record of events.choice() (records.py says why): this runs at every action (a
            # secret choice's value is shown to the chooser only)
            self.events.append(
                (CHOICE_RECORD, action.player, pending.label, value, action.name == PASS, pending.secret)
            )
        elif self.keep:
            self.emit(events.choice(action.player, pending.label, value, action.name == PASS, pending.secret))
        else:
            self.unrecorded += 1
        frame = self.frames[-1]
        frame = self.frames[-1] = frame.thaw()  # read first: compiled, a typed Frame thaws by a C call
        frame.names[pending.target] = value if type(value) is not list else freeze(value)
        frame.pc += 1  # from the decision's case to the one after it
        self.pending = None
        try:  # (run's own, without its call: this is every action's)
            return self._run()
        except RULE_FAILURES as exc:
            self._raise_located(exc)

    def run(self) -> State:
        """Run to the next decision or the end; a rule that fails raises a RuleRuntimeError
        located at the statement that ran."""
        try:
            return self._run()
        except RULE_FAILURES as exc:
            self._raise_located(exc)

    def value_of(self, code: str, names: Locals) -> Any:
        """The value of program ``code`` run on this machine's state with ``names`` bound,
        for a program that never stops at a decision (an action space's ``values``); a rule
        that fails, or a decision, raises a located RuleRuntimeError."""
        try:
            value = self.code.resume[code](self, Frame(code, 0, None, dict(names), owned=True))
        except RULE_FAILURES as exc:
            self._raise_located(exc)
        if value is STOP:
            raise RuleRuntimeError("it stops at a decision; it must give its value at once")
        return value

    def _raise_located(self, exc: Exception) -> NoReturn:
        error = RuleRuntimeError.of(exc)
        if error.location is None:
            error.location = self._location(exc)
        raise error

    def _location(self, exc: Exception) -> Location | None:
        """The rule file place of the statement that failed: the innermost generated line
        in the traceback, through the line table; else the case the top frame was in."""
        where = self.code.locate(exc.__traceback__)
        if where is not None:
            return self.rules.positions.in_scalar(*where)
        if not self.frames:
            return None
        frame = self.frames[-1]
        offsets = self.code.cases.get(frame.code) or (0,)
        return self.rules.positions.in_scalar(frame.code, offsets[min(frame.pc, len(offsets) - 1)])

    def _run(self) -> State:
        resume = self.code.resume
        frames = self.frames
        try:
            while frames:
                frame = frames[-1]
                if frame.shared:
                    frame = frames[-1] = frame.thaw()
                value = resume[frame.code](self, frame)
                if value is STOP:
                    return self.freeze()
                frames.pop()
                if frames and frame.target is not None:
                    caller = frames[-1]
                    if caller.shared:
                        caller = frames[-1] = caller.thaw()
                    (caller.names if caller.owned else caller.own())[frame.target] = value
        except GameOver:
            frames.clear()
        if not self.over:
            self.over = True
            self.emit(events.game_over())
        return self.freeze()

    # -- what compiled code calls: decisions ---------------------------------------------------
    def choose_one(
        self, L: Locals, target: str, player: int, values: Any, label: str, optional: bool, secret: bool
    ) -> bool:
        """Set up ``player``'s decision; False when there is nothing to decide (an optional
        choice without options is none at once, unless it is secret: a secret choice is
        always asked, so that whether it has options shows nobody anything)."""
        options, kind = _options_of_kind(values, label)
        if not options:
            if optional and not secret:
                L[target] = None
                return False
            if not optional:
                raise RuleRuntimeError(f"player {player} must choose {label!r} but has no option")
        self.pending = _new_choice(player, label, options, optional, target, secret, kind)
        return True

    def choosers(self, players: Any) -> tuple[int, ...]:
        """The players of a ``choose each``, checked to be seats."""
        return tuple([self.player_index(p) for p in players])

    def options(self, values: Any, label: str, player: int) -> tuple[Any, ...]:
        """One chooser's options at a ``choose each``: there must be some."""
        options = _options(values, label)
        if not options:
            raise RuleRuntimeError(f"player {player} must choose {label!r} but has no option")
        return options

    def choose_each(
        self, L: Locals, target: str, players: tuple[int, ...], options: list[tuple[Any, ...]], label: str
    ) -> bool:
        """Set up a simultaneous decision; False when nobody takes part (the value is then
        none for everyone)."""
        if not players:
            L[target] = (None,) * self.player_count
            return False
        self.pending = _new_commits(players, label, tuple(options), (None,) * len(players), target, None)
        return True

    # -- what compiled code calls: other programs -------------------------------------------------
    def enter(self) -> None:
        """A direct call begins: count it against the depth and the step budget."""
        self.depth += 1
        if self.depth + len(self.frames) > MAX_DEPTH:
            self._too_deep()
        self.left -= 1
        if self.left < 0:
            out_of_steps()

    def _too_deep(self) -> NoReturn:
        raise RuleRuntimeError(f"effects call each other more than {MAX_DEPTH} deep")

    def charged(self, value: Any, a: Any = None, b: Any = None) -> Any:
        """``value``, a primitive's, after charging the step budget the items of the longest
        of ``value`` and the list arguments ``a`` and ``b``: what the primitive's charged
        wrapper does (effects/runtime.py, :func:`~venedig_rules.effects.runtime.charged`),
        which generated code calls here instead for a primitive of plain parameters."""
        cost = len(value) if type(value) is tuple else 0
        if type(a) is tuple and len(a) > cost:
            cost = len(a)
        if type(b) is tuple and len(b) > cost:
            cost = len(b)
        self.left -= cost
        if self.left < 0:
            out_of_steps()
        return value

    def call(self, run: Function, code: str, target: str, names: Locals) -> Any:
        """Run a procedure that may stop, in a frame of its own on top of the caller's; its
        value, or STOP when it waits for a decision (its frame stays)."""
        frames = self.frames
        if len(frames) + self.depth >= MAX_DEPTH:
            self._too_deep()
        self.left -= 1
        if self.left < 0:
            out_of_steps()
        frame = Frame.__new__(Frame)  # (as _frame makes one: a call fewer at every call)
        frame.code = code
        frame.pc = 0
        frame.target = target
        frame.names = names
        frame.owned = True
        frame.shared = False
        frames.append(frame)
        value = run(self, frame)
        if value is not STOP:
            frames.pop()
        return value

    def requests(self, requests: Sequence[CallRequestLike], self_value: Any, target: str) -> Any:
        """Run the programs a primitive asks for (``effect``, ``trigger``), in order: the
        value of the only one that returns one (else none), or STOP when one waits for a
        decision (the ones after it wait in frames beneath it)."""
        n = len(requests)
        frames = self.frames
        if len(frames) + self.depth + n > MAX_DEPTH:
            self._too_deep()
        self.left -= n
        if self.left < 0:
            out_of_steps()
        one = n == 1
        value = None
        direct, resume = self.code.direct, self.code.resume
        for i, request in enumerate(requests):
            names = request.names
            if "self" not in names:
                names = {**names, "self": self_value}  # (a request's names are never changed)
            fn = direct[request.code]
            if fn is not None:
                self.depth += 1
                result = fn(self, names)
                self.depth -= 1
            else:
                frame = _frame(request.code, 0, target if request.returns and one else None, names, False)
                at = len(frames)
                frames.append(frame)
                result = resume[request.code](self, frame)
                if result is STOP:
                    frames[at:at] = [
                        Frame(r.code, 0, None, r.names if "self" in r.names else {**r.names, "self": self_value})
                        for r in reversed(requests[i + 1 :])
                    ]
                    return STOP
                frames.pop()
            if request.returns and one:
                value = result
        return value

    def requests_direct(self, requests: Sequence[CallRequestLike], self_value: Any) -> Any:
        """:meth:`requests` from a program that cannot stop: none of them may stop either."""
        value = self.requests(requests, self_value, "@")
        if isinstance(value, Stop):
            raise RuleRuntimeError("a program that cannot wait for a decision ran one that did")
        return value

    def freeze(self) -> State:
        """The state the machine stands at, as a snapshot (its frames marked shared). Its
        fields are set one by one: compiled, as a struct's, where ``State(...)`` is a Python
        call that parses its arguments first."""
        state = State.__new__(State)
        state.vars = self.vars
        if self.over:
            state.frames, state.pending = (), None
        else:
            for frame in self.frames:
                frame.shared = True
            state.frames, state.pending = tuple(self.frames), self.pending
        state.rng = self.rng
        state.over = self.over
        state.winners = self.winners
        return state

    # -- what primitives use ---------------------------------------------------------------
    def player_index(self, p: Any) -> int:
        if type(p) is int and 0 <= p < self.player_count:
            return p
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < self.player_count:
            raise RuleRuntimeError(f"{p!r} is not a player (0 to {self.player_count - 1})")
        return p

    def space_index(self, space: Any) -> int:
        return self.rules.space_index(space)

    def read(self, name: str, index: Any = None) -> Any:
        value = self.vars[name]
        if index is None:
            return value
        return value[self._slot(name, index)]

    def _part(self, name: str, index: Any) -> int:
        """Where part ``index`` of variable ``name`` lies in its value: a seat's part at
        once, else :meth:`_slot`'s answer (``write`` asks the same in place)."""
        if type(index) is int and 0 <= index < self.player_count and name in self._player_vars:
            return index
        return self._slot(name, index)

    def _slot(self, name: str, index: Any) -> int:
        if name in self._player_vars:
            return index if type(index) is int and 0 <= index < self.player_count else self.player_index(index)
        # a space's place looked up here: the ruleset's space_index is two calls more, for its error
        slot = self._spaces.get(index) if type(index) is str else None
        return slot if slot is not None else self.space_index(index)

    def write(self, name: str, index: Any, value: Any, why: str | None = "set") -> None:
        """Set a state variable (one player's or space's part with ``index``) and emit a
        ``change`` event saying ``why`` (none when ``why`` is None: the caller tells)."""
        if why is not None:
            self.events_left -= 1
            if self.events_left < 0:
                too_many_events()
        if why == "set" or why == "put":  # a value made anywhere: within the value budgets
            if type(value) is int:
                if not -MAX_INT <= value <= MAX_INT:
                    too_big_int(value)
            elif type(value) is tuple:
                if len(value) > 16:
                    sized(value)
                else:
                    for item in value:
                        kind = type(item)
                        if kind is int:  # (a list of players: the walk below would cost more)
                            if not -MAX_INT <= item <= MAX_INT:
                                too_big_int(item)
                        elif kind not in _PLAIN:
                            sized(value)
                            break
        if index is None:
            if name in self._indexed:
                self._check_whole(name, value)
            self.vars[name] = value
            if why is not None:
                if self.record:
                    # a record of events.change() (records.py): this runs at every step
                    self.events.append((CHANGE_RECORD, name, value, why))
                elif self.keep is None:
                    self.unrecorded += 1
                else:
                    self.emit(events.change(name, value, why))
            return
        if type(index) is int and 0 <= index < self.player_count and name in self._player_vars:
            slot = index  # a seat's part (what most writes of a part are): _part's first case
        else:
            slot = self._slot(name, index)
        changed = list(self.vars[name])  # one copy to change, then the new tuple: no slices
        changed[slot] = value
        self.vars[name] = tuple(changed)
        if why is not None:
            if self.record:
                self.events.append((PART_RECORD, name, value, why, index))
            elif self.keep is None:
                self.unrecorded += 1
            else:
                self.emit(events.change(name, value, why, index))

    def _check_whole(self, name: str, value: Any) -> None:
        """A RuleRuntimeError unless ``value`` is a whole new value of a variable with one
        value per player or space: a list of as many values."""
        size = len(self.vars[name])
        if not isinstance(value, tuple) or len(value) != size:
            per = self.compiled.state[name].per
            raise RuleRuntimeError(
                f"{name!r} has one value per {per}: assign a list of {size} values or write {name}[...] = ..."
            )

    def move(self, item: Any, source: Ref, target: Ref, position: int | None = None) -> None:
        """Move ``item`` from ``position`` in ``source`` (its first copy when None, a
        RuleRuntimeError when there is none) to the end of ``target``; emit a ``move`` event."""
        self.move_between(item, source.name, source.index, target.name, target.index, position)

    def move_between(
        self, item: Any, source: str, source_index: Any, target: str, target_index: Any, position: int | None = None
    ) -> None:
        """:meth:`move` from variable ``source`` (its part ``source_index`` unless None) to
        ``target``: the DSL's ``move(item, source, target)``, which generated code calls here
        at once, with no references to make."""
        # read and written here, not by read and write: two moves in three actions, and
        # four method calls are most of a move's cost in the pure package
        variables = self.vars
        if source_index is None:
            items = tuple(variables[source])
        else:
            source_slot = self._part(source, source_index)
            items = tuple(variables[source][source_slot])
        if position is None:
            try:
                position = items.index(item)  # (one walk: no test of membership first)
            except ValueError:
                raise RuleRuntimeError(f"move(): {item!r} is not in {Ref(self, source, source_index)}") from None
        rest = items[:position] + items[position + 1 :]
        if source_index is None:
            if source in self._indexed:
                self._check_whole(source, rest)
            variables[source] = rest
        else:
            changed = list(variables[source])
            changed[source_slot] = rest
            variables[source] = tuple(changed)
        if target_index is None:
            grown = tuple(variables[target]) + (item,)
            if target in self._indexed:
                self._check_whole(target, grown)
            variables[target] = grown
        else:
            target_slot = self._part(target, target_index)
            changed = list(variables[target])
            changed[target_slot] = tuple(changed[target_slot]) + (item,)
            variables[target] = tuple(changed)
        self.events_left -= 1
        if self.events_left < 0:
            too_many_events()
        if self.record:
            # a record of events.move() (records.py): this runs at every step (so do change
            # and narrate)
            self.events.append((MOVE_RECORD, item, source, source_index, target, target_index))
        elif self.keep is None:
            self.unrecorded += 1
        else:
            self.emit(events.move(item, [source, source_index], [target, target_index]))

    def shuffled(self, items: Iterable[Any]) -> tuple[Any, ...]:
        self.rng, out = _shuffled(self.rng, tuple(items))
        return out

    def random_below(self, n: int) -> int:
        if not 0 < n <= MAX_INT:
            raise RuleRuntimeError(f"random() needs a number from 1 to {MAX_INT}, got {n!r}")
        self.rng, value = _below(self.rng, n)
        return value

    def emit(self, event: Event) -> None:
        if self.record or (self.keep and event["type"] in self.keep):
            self.events.append(event)
        else:
            self.unrecorded += 1

    def narrate(self, kind: str, fields: dict[str, Any]) -> None:
        """Emit an event of the ruleset's own ``kind``. A recording machine keeps ``fields``
        in its record until the log is read (records.py): the caller's dict, made for this
        event, of values the rules made (frozen)."""
        self.events_left -= 1
        if self.events_left < 0:
            too_many_events()
        if self.record:
            self.events.append((RULESET_RECORD, kind, fields))
        elif self.keep and kind in self.keep:
            self.events.append(records.ruleset_event(kind, fields))
        else:
            self.unrecorded += 1

    def end(self, winners: tuple[int, ...] | None = None) -> NoReturn:
        """End the game now: the machine stops at once (nothing after this runs)."""
        if not self.over:
            self.winners = tuple([self.player_index(w) for w in winners]) if winners is not None else None
            self.over = True
            self.emit(events.game_over())
        raise GameOver

    def copies(self, kind: str) -> tuple[str, ...]:
        return self.rules.copies(kind, self.player_count)

    def ids(self, kind: str) -> tuple[str, ...]:
        return tuple([item["id"] for item in self.rules.items_of(kind)])

    def item(self, ident: str) -> dict[str, Any]:
        # looked up here (the ruleset's item is a call more), the ruleset's for its error
        found = self._items.get(ident) if type(ident) is str else None
        return found if found is not None else self.rules.item(ident)

    def param(self, ident: str, name: str, *default: Any) -> Any:
        # asked at every step and the same for the ruleset's whole life: frozen once
        key = (ident, name, default)
        known = self.rules.param_values
        try:
            return known[key]
        except KeyError:
            keep = True
        except TypeError:  # a key that cannot be looked up (a value the DSL never makes)
            keep = False
        value = freeze(self.rules.item_param(ident, name, *default))  # outside the except: its errors chain nothing
        if keep:
            known[key] = value
        return value

    def call_item(self, ident: str, field: str, bindings: dict[str, Any]) -> tuple[CallRequest, ...]:
        code, bound = self.rules.item_call(ident, field)
        names = dict(bound)  # (the ruleset's: bound in a copy, one dict made a call)
        for name, value in bindings.items():
            names[name] = value if type(value) is not list else freeze(value)
        names["players"] = self.everyone
        return (_request(code, names),)

    def call_rules(self, when: str, bindings: dict[str, Any]) -> tuple[CallRequest, ...]:
        names = {"players": self.everyone, **{k: v if type(v) is not list else freeze(v) for k, v in bindings.items()}}
        return tuple(  # (a list, not a generator: compiled, a generator is an object and a call a step)
            [
                CallRequest(code, {**names, "item": rule}, returns=False)
                for code, rule in self.compiled.rules_by_when.get(when, ())
            ]
        )


def _actions(
    player: int, label: str, options: tuple[Any, ...], optional: bool, kind: str | None = UNKNOWN_KIND
) -> tuple[Action, ...]:
    if not options:
        return (_pass(player),) if optional else ()
    if kind is UNKNOWN_KIND:
        kind = _plain_kind(options)
    if kind is None:
        # Action(player, label, value) for each option, made without running Python code per option
        actions = tuple(map(tuple.__new__, repeat(Action), zip(repeat(player), repeat(label), options)))
    else:
        # an option offered before gets the Action made then (making one costs three times
        # as much as finding it)
        stores = _made
        made = stores.get((player, label, kind))
        if made is None:
            made = stores[player, label, kind] = {}
        if len(options) >= LOOKED_UP_FROM:  # (the pure package's long decisions: ordered.py)
            found = looked_up(made, options)
            if not all(found):  # (an action is a tuple of three: true)
                for i, option in enumerate(options):
                    if found[i] is None:
                        found[i] = _make_action(made, player, label, option)
        else:
            # a plain loop: compiled, ``made`` is typed (machine.pxd), so ``made.get`` is the
            # dictionary's own C look-up, where a bound ``get`` is a Python call per option
            found = []
            for option in options:
                action = made.get(option)
                if action is None:
                    action = _make_action(made, player, label, option)
                found.append(action)
        actions = tuple(found)
    return actions + (_pass(player),) if optional else actions


def picked_action(pending: Pending, pick: Callable[[int, int], int]) -> Action:
    """The legal action of the first player to move at ``pending`` (``Game.to_move``'s
    first) that ``pick(player, count)`` names by its index among that player's ``count``
    legal actions: ``actions_of(pending, player)[index]``, made alone rather than with all
    the others (:meth:`Game.playout <venedig_rules.engine.game.Game.playout>`). ``pick``
    gives an index from 0 to ``count - 1``; the order is :func:`_actions`'s."""
    if isinstance(pending, PendingChoice):
        player, options = pending.player, pending.options
        count = len(options) + 1 if pending.optional else len(options)
    else:  # a simultaneous decision: its first mover yet to commit, as movers() lists them
        mover = pending.commits.index(None)
        player, options = pending.players[mover], pending.options[mover]
        count = len(options)
    index = pick(player, count)
    if index == len(options):  # an optional choice's pass, last as in _actions
        return _pass(player)
    return tuple.__new__(Action, (player, pending.label, options[index]))


def _pass(player: int) -> Action:
    """``Action(player, PASS)``: one per seat, made once (as the tuple it is: a NamedTuple's
    own ``__new__`` is Python code, even in the compiled build)."""
    passes = _passes
    action = passes.get(player)
    if action is None:
        action = passes[player] = tuple.__new__(Action, (player, PASS, None))
    return action


#: Each seat's pass, by seat number: offered at every optional decision.
_passes: dict[int, Action] = {}


def _make_action(made: dict[Any, Action], player: int, label: str, option: Any) -> Action:
    global _made_count
    if _made_count >= MADE_MAX:
        _made.clear()  # all the stores start again (``made`` is left to this decision)
        _made_count = 0
    # as the tuple it is (see _pass): Action(...) runs the NamedTuple's Python __new__
    action = made[option] = tuple.__new__(Action, (player, label, option))
    _made_count += 1
    return action


def _plain_kind(options: Collection[Any]) -> str | None:
    """The one plain kind of a decision's options (words, whole numbers, or lists of one of
    those), None for any other mixture. Options of one such kind sort in Python's own order,
    and share their actions: equal options of different kinds (``1`` and ``True``, ``(1,)``
    and ``(True,)``) must stay different actions."""
    # plain loops rather than sets of map(type, ...): compiled, type() in a loop is a field
    # read, where map calls type as a function for every option; and the lists' items in a
    # loop within the options' rather than a function called per list (a Python call an
    # option in the pure package, where Venedig offers some twenty building sites a decision)
    kind: Any = _NO_ITEMS
    for value in options:
        if kind is _NO_ITEMS:
            kind = type(value)
        elif type(value) is not kind:
            return None
    if kind is str:
        return "str"
    if kind is int:
        return "int"
    if kind is tuple:
        inner: Any = _NO_ITEMS
        for option in options:
            for value in option:
                if inner is _NO_ITEMS:
                    inner = type(value)
                elif type(value) is not inner:
                    return None
        if inner is str or inner is _NO_ITEMS:
            return "tuple of str"
        if inner is int:
            return "tuple of int"
    return None


#: The kind of no values at all in _plain_kind (a type no option ever has).
_NO_ITEMS = type("_NO_ITEMS", (), {})


#: The actions made so far, by (player, decision label, the options' plain kind) and option:
#: decisions offer the same options again and again (a board's spaces, a hand's cards).
#: They all start again once MADE_MAX are kept, so that they stay small (a few megabytes
#: at most; a store is made with its first action, so there are never more stores).
_made: dict[tuple[int, str, str], dict[Any, Action]] = {}
_made_count = 0
MADE_MAX = 50_000


def _options(values: Any, label: str) -> tuple[Any, ...]:
    """The distinct options of a decision, in legal-action order."""
    return _options_of_kind(values, label)[0]


def _options_of_kind(values: Any, label: str) -> tuple[tuple[Any, ...], str | None]:
    """The distinct options of a decision, in legal-action order, and their plain kind
    (:func:`_plain_kind`; UNKNOWN_KIND for fewer than two, where it costs nothing to find)."""
    if not isinstance(values, tuple):
        raise RuleRuntimeError(f"the options of {label!r} must be a list, got {values!r}")
    if len(values) < 2:  # none or one: nothing to sort (a third of Rialto's decisions offer none)
        return values, UNKNOWN_KIND
    if len(values) >= RISING_FROM and rising(values):  # (ordered.py says why not always)
        return values, ("str" if type(values[0]) is str else "int")
    kind = _plain_kind(values)
    if kind is not None:  # one plain kind: Python's order is value_key's order
        # sorted first, then each value unlike the one before it: equal options lie side by
        # side, and comparing neighbours costs less than hashing every option into a dict
        ordered = sorted(values)
        distinct = [ordered[0]]
        last = ordered[0]
        for value in ordered:
            if value != last:
                distinct.append(value)
                last = value
        return tuple(distinct), kind
    return tuple(sorted(dict.fromkeys(values), key=value_key)), kind


#: The kinds of item a short list may hold without a closer look at its size.
_PLAIN: frozenset[type] = frozenset({str, bool, type(None)})


def _base_locals(players: int) -> Locals:
    return {"players": tuple(range(players))}


def _initial_vars(rules: RulesetBase, players: int) -> dict[str, Any]:
    out = {}
    for name, (per, start) in rules.state_starts().items():
        value = freeze(start)
        if per == "player":
            out[name] = tuple(value for _ in range(players))
        elif per == "space":
            out[name] = tuple(value for _ in range(len(rules.space_ids)))
        else:
            out[name] = value
    return out
