"""The machine that runs a ruleset's compiled flow: frames of plain data, stopped at every
decision and resumed by an action.

A :class:`State` is one immutable snapshot (variables, frames, the pending decision, the
generator, the end); a :class:`Machine` runs from a snapshot to the next decision and
freezes a new one. The machine is also the context (``ctx``) the primitives see.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from ..effects.compile import RULE_FAILURES, WAIT, CallOp, ChooseOp, Fn, Locals, combine, freeze
from ..effects.context import Ref
from ..errors import Location, RuleRuntimeError
from . import events
from . import rng as rnglib
from .events import ChangeEvent, Event, MoveEvent, RulesetEvent
from .notation import PASS, Action, value_key
from .views import json_safe

if TYPE_CHECKING:
    from .ruleset_base import RulesetBase

#: How deep effects may call each other (procedures, item effects, scoring rules).
MAX_DEPTH = 64


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


class SavedFrame(NamedTuple):
    """A frame in a snapshot: which code, where in it, where its value goes, its names."""

    code: str
    pc: int
    target: str | None
    names: Locals


class Frame:
    """A frame while the machine runs; its names are copied before it first changes them
    (``owned``), so a snapshot's frames are never changed."""

    __slots__ = ("code", "names", "owned", "pc", "target")

    def __init__(self, code: str, pc: int, target: str | None, names: Locals, owned: bool = False):
        self.code = code
        self.pc = pc
        self.target = target
        self.names = names
        self.owned = owned

    def own(self) -> Locals:
        """The frame's names, its own to change."""
        if not self.owned:
            self.names, self.owned = dict(self.names), True
        return self.names


@dataclass(frozen=True)
class PendingChoice:
    """One player's decision: ``options`` in legal-action order; an ``optional`` one may
    be passed; a ``secret`` one's value is shown to its chooser only."""

    player: int
    label: str
    options: tuple[Any, ...]
    optional: bool
    target: str
    secret: bool = False

    def movers(self) -> tuple[int, ...]:
        """The players who must act now: the chooser."""
        return (self.player,)

    def legal_actions(self, player: int) -> tuple[Action, ...]:
        """``player``'s legal actions, in order (none when the decision is not theirs)."""
        if player != self.player:
            return ()
        return _actions(player, self.label, self.options, self.optional)

    def legal_by_player(self) -> dict[int, tuple[Action, ...]]:
        """Each mover's legal actions (what the game asks at every step: one call for all)."""
        return {self.player: _actions(self.player, self.label, self.options, self.optional)}

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


@dataclass(frozen=True)
class PendingCommits:
    """A simultaneous decision: each of ``players`` commits one of their own ``options``
    in secret (``commits[i]`` is ``(value,)`` once player ``players[i]`` committed)."""

    players: tuple[int, ...]
    label: str
    options: tuple[tuple[Any, ...], ...]
    commits: tuple[tuple[Any] | None, ...]
    target: str

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
        return tuple(p for p, c in zip(self.players, self.commits) if c is None)

    def legal_actions(self, player: int) -> tuple[Action, ...]:
        """``player``'s legal actions, in order (none once they committed, or when they do
        not take part)."""
        if player not in self.players:
            return ()
        i = self.players.index(player)
        if self.commits[i] is not None:
            return ()
        return _actions(player, self.label, self.options[i], False)

    def legal_by_player(self) -> dict[int, tuple[Action, ...]]:
        """Each mover's legal actions, in seat order."""
        label = self.label
        return {
            p: _actions(p, label, options, False)
            for p, options, commit in zip(self.players, self.options, self.commits)
            if commit is None
        }

    def accepts(self, action: Action) -> bool:
        """Whether ``action`` is legal now: a player yet to commit names one of their options."""
        if action.name != self.label or action.player not in self.players:
            return False
        i = self.players.index(action.player)
        return self.commits[i] is None and action.value in self.options[i]

    def commit_of(self, player: int) -> tuple[Any] | None:
        """``(value,)`` once ``player`` committed, else None."""
        return self.commits[self.players.index(player)] if player in self.players else None

    def committed(self, player: int, value: Any) -> PendingCommits:
        """The decision after ``player`` commits ``value``."""
        i = self.players.index(player)
        commits = self.commits[:i] + ((value,),) + self.commits[i + 1 :]
        return PendingCommits(self.players, self.label, self.options, commits, self.target)

    def revealed(self, player_count: int) -> tuple[Any, ...]:
        """Every player's committed value by seat (None for a player who took no part)."""
        by_player = dict(zip(self.players, self.commits))
        return tuple(freeze(c[0]) if c is not None else None for c in map(by_player.get, range(player_count)))


Pending = PendingChoice | PendingCommits


class State:
    """One immutable snapshot: variables, frames, the pending decision, the RNG, the end."""

    __slots__ = ("frames", "over", "pending", "rng", "vars", "winners")

    def __init__(
        self,
        vars: dict[str, Any],
        frames: tuple[SavedFrame, ...],
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
            "frames": [[c, pc, t, json_safe(L)] for c, pc, t, L in self.frames],
            "pending": None if self.pending is None else self.pending.to_json(),
            "rng": f"{self.rng:016x}",
            "over": self.over,
            "winners": None if self.winners is None else list(self.winners),
        }


def initial_state(rules: RulesetBase, players: int, seed: int) -> State:
    """The snapshot before the flow's first statement."""
    return State(
        _initial_vars(rules, players),
        (SavedFrame(rules.compiled_flow.main, 0, None, _base_locals(players)),),
        None,
        rnglib.seed_state(seed),
    )


class GameOver(Exception):
    """Raised by ``end_game()`` / ``win()`` to stop the machine wherever it is."""


class Machine:
    """A game's state while the machine runs: the context primitives see as ``ctx``.

    ``events`` is the game's event list, appended to in place (the game cuts it back when
    a run fails).
    """

    def __init__(self, rules: RulesetBase, players: int, state: State, events: list[Event]):
        self.rules = rules
        self.compiled = rules.compiled_flow
        self.player_count = players
        self.everyone = tuple(range(players))
        self.vars = state.vars  # copied on the first write
        self._own_vars = False
        self.frames = [Frame(c, pc, t, L) for c, pc, t, L in state.frames]
        self.pending = state.pending
        self.rng = state.rng
        self.over = state.over
        self.winners = state.winners
        self.events = events
        self._indexed = rules.indexed_vars
        self._player_vars = rules.player_vars

    # -- the machine -----------------------------------------------------------------------
    def resume(self, pending: Pending, action: Action) -> State:
        """Take ``action``, legal at ``pending`` (the snapshot's decision), and run on."""
        value = None if action.name == PASS else action.value
        if isinstance(pending, PendingCommits):
            pending = self.pending = pending.committed(action.player, value)
            self.events.append(events.commit(action.player, pending.label, value))
            if pending.movers():
                return self.freeze()
            value = pending.revealed(self.player_count)
            self.events.append(events.reveal(pending.label, value))
        else:
            # a secret choice's value is shown to the chooser only
            self.events.append(events.choice(action.player, pending.label, value, action.name == PASS, pending.secret))
        frame = self.frames[-1]
        frame.own()[pending.target] = freeze(value)
        frame.pc += 1
        self.pending = None
        return self.run()

    def run(self) -> State:
        """Run to the next decision or the end; a rule that fails raises a RuleRuntimeError
        located at the statement that ran."""
        try:
            return self._run()
        except RULE_FAILURES as exc:
            self._raise_located(exc)

    def _raise_located(self, exc: Exception) -> NoReturn:
        error = RuleRuntimeError.of(exc)
        if error.location is None:
            error.location = self._location(error.offset)
        raise error

    def _location(self, offset: int | None) -> Location | None:
        """The rule file place of the statement that failed: at ``offset`` in the running
        code's text (a statement inside a block knows it), else the current instruction's."""
        if not self.frames:
            return None
        code_id, pc = self.frames[-1].code, self.frames[-1].pc
        code = self.compiled.codes[code_id]
        if offset is None:
            offset = code.offsets[min(pc, len(code.offsets) - 1)] if code.offsets else 0
        return self.rules.positions.in_scalar(code_id, offset)

    def _run(self) -> State:
        codes = self.compiled.codes
        frames = self.frames
        try:
            while frames:
                frame = frames[-1]
                L = frame.own()
                code = codes[frame.code]
                steps, pc = code.steps, frame.pc
                end = len(steps)
                try:
                    while pc < end:
                        nxt = steps[pc](L, self)
                        if nxt >= 0:
                            pc = nxt
                        elif nxt == WAIT:
                            frame.pc = pc
                            if self.choose(code.instructions[pc], L):
                                return self.freeze()
                            pc += 1
                        else:
                            frame.pc = pc + 1
                            self.call(code.instructions[pc], L)
                            break
                    else:
                        frames.pop()
                        if frames and frame.target is not None:
                            frames[-1].own()[frame.target] = L.get("@")
                except GameOver:
                    raise
                except BaseException:
                    frame.pc = pc
                    raise
        except GameOver:
            frames.clear()
        if not self.over:
            self.over = True
            self.events.append(events.game_over())
        return self.freeze()

    def choose(self, op: ChooseOp, L: Locals) -> bool:
        """Set up a decision; False when there is nothing to decide (an optional choice
        without options resolves to none at once, unless it is secret: a secret choice is
        always asked, so that whether it has options shows nobody anything)."""
        _, target, player_f, options_f, label, optional, each, secret = op
        if each is None:
            player = self.player_index(player_f(L, self))
            options = _options(options_f(L, self), label)
            if not options:
                if optional and not secret:
                    L[target] = None
                    return False
                if not optional:
                    raise RuleRuntimeError(f"player {player} must choose {label!r} but has no option")
            self.pending = PendingChoice(player, label, options, bool(optional), target, bool(secret))
            return True
        players = tuple(self.player_index(p) for p in player_f(L, self))
        per: list[tuple[Any, ...]] = []
        for p in players:
            inner = dict(L)
            inner[each] = p
            options = _options(options_f(inner, self), label)
            if not options:
                raise RuleRuntimeError(f"player {p} must choose {label!r} but has no option")
            per.append(options)
        if not players:
            L[target] = tuple(None for _ in range(self.player_count))
            return False
        self.pending = PendingCommits(players, label, tuple(per), tuple(None for _ in players), target)
        return True

    def call(self, op: CallOp, L: Locals) -> None:
        _, target, kind, callee, args, kwargs = op
        frames = self.frames
        if kind == "proc":
            procedure = self.compiled.procedures[callee]
            names: Locals = {"players": self.everyone}
            for param, f in zip(procedure.params, args):
                names[param] = f(L, self)
            requests: tuple[tuple[str, Locals, bool], ...] = ((procedure.code, names, True),)
        else:
            requests = tuple(
                (r.code, r.names, r.returns)
                for r in callee(self, *[f(L, self) for f in args], **{k: f(L, self) for k, f in kwargs})
            )
        if len(frames) + len(requests) > MAX_DEPTH:
            raise RuleRuntimeError(f"effects call each other more than {MAX_DEPTH} deep")
        L[target] = None
        one = len(requests) == 1
        for code, names, returns in reversed(requests):
            if "self" not in names:
                names = {**names, "self": L.get("self")}  # (a request's names are never changed)
            frames.append(Frame(code, 0, target if returns and one else None, names))

    def freeze(self) -> State:
        if self.over:
            return State(self.vars, (), None, self.rng, self.over, self.winners)
        frames = tuple(SavedFrame(f.code, f.pc, f.target, f.names) for f in self.frames)
        return State(self.vars, frames, self.pending, self.rng, self.over, self.winners)

    # -- what primitives use ---------------------------------------------------------------
    def player_index(self, p: Any) -> int:
        if p.__class__ is int and 0 <= p < self.player_count:
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

    def _slot(self, name: str, index: Any) -> int:
        if name in self._player_vars:
            return index if index.__class__ is int and 0 <= index < self.player_count else self.player_index(index)
        return self.space_index(index)

    def write(self, name: str, index: Any, value: Any, why: str | None = "set") -> None:
        """Set a state variable (one player's or space's part with ``index``) and emit a
        ``change`` event saying ``why`` (none when ``why`` is None: the caller tells)."""
        if not self._own_vars:
            self.vars = dict(self.vars)
            self._own_vars = True
        if index is None:
            if name in self._indexed:
                size = len(self.vars[name])
                if not isinstance(value, tuple) or len(value) != size:
                    per = self.compiled.state[name].per
                    raise RuleRuntimeError(
                        f"{name!r} has one value per {per}: assign a list of {size} values or write {name}[...] = ..."
                    )
            self.vars[name] = value
            if why is not None:
                # events.change(), built in place: this runs at every step (so do move and narrate)
                whole: ChangeEvent = {"type": "change", "var": name, "value": value, "why": why}
                self.events.append(whole)
            return
        slot = self._slot(name, index)
        old = self.vars[name]
        self.vars[name] = old[:slot] + (value,) + old[slot + 1 :]
        if why is not None:
            part: ChangeEvent = {"type": "change", "var": name, "value": value, "why": why, "index": index}
            self.events.append(part)

    def assign(self, name: str, index_f: Fn | None, op: str, value_f: Fn, L: Locals) -> None:
        """``name = value``, ``name[index] += value``, ...: compiled assignments run this."""
        index = index_f(L, self) if index_f is not None else None
        value = freeze(value_f(L, self))
        if op != "=":
            value = combine(self.read(name, index), op, value)
        self.write(name, index, value, "set" if op == "=" else op)

    def move(self, item: Any, source: Ref, target: Ref, position: int) -> None:
        items = tuple(source.get())
        self.write(source.name, source.index, items[:position] + items[position + 1 :], None)
        self.write(target.name, target.index, tuple(target.get()) + (item,), None)
        event: MoveEvent = {
            "type": "move",
            "item": item,
            "from": [source.name, source.index],
            "to": [target.name, target.index],
        }
        self.events.append(event)

    def shuffled(self, items: Iterable[Any]) -> tuple[Any, ...]:
        self.rng, out = rnglib.shuffled(self.rng, tuple(items))
        return out

    def random_below(self, n: int) -> int:
        self.rng, value = rnglib.below(self.rng, n)
        return value

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def narrate(self, kind: str, fields: dict[str, Any]) -> None:
        event: RulesetEvent = {"type": kind, **{k: json_safe(v) for k, v in fields.items()}}
        self.events.append(event)

    def end(self, winners: tuple[int, ...] | None = None) -> NoReturn:
        """End the game now: the machine stops at once (nothing after this runs)."""
        if not self.over:
            self.winners = tuple(self.player_index(w) for w in winners) if winners is not None else None
            self.over = True
            self.events.append(events.game_over())
        raise GameOver

    def copies(self, kind: str) -> tuple[str, ...]:
        return self.rules.copies(kind, self.player_count)

    def ids(self, kind: str) -> tuple[str, ...]:
        return tuple(item["id"] for item in self.rules.items_of(kind))

    def item(self, ident: str) -> dict[str, Any]:
        return self.rules.item(ident)

    def param(self, ident: str, name: str, *default: Any) -> Any:
        return freeze(self.rules.item_param(ident, name, *default))

    def call_item(self, ident: str, field: str, bindings: dict[str, Any]) -> tuple[CallRequest, ...]:
        code, names = self.rules.item_call(ident, field)
        names.update({k: freeze(v) for k, v in bindings.items()})
        names["players"] = self.everyone
        return (CallRequest(code, names),)

    def call_rules(self, when: str, bindings: dict[str, Any]) -> tuple[CallRequest, ...]:
        names = {"players": self.everyone, **{k: freeze(v) for k, v in bindings.items()}}
        return tuple(
            CallRequest(code, {**names, "item": rule}, returns=False)
            for code, rule in self.compiled.rules_by_when.get(when, ())
        )


def _actions(player: int, label: str, options: tuple[Any, ...], optional: bool) -> tuple[Action, ...]:
    # Action(player, label, value) for each option, made without running Python code per option
    actions = tuple(map(tuple.__new__, repeat(Action), zip(repeat(player), repeat(label), options)))
    return actions + (Action(player, PASS),) if optional else actions


def _options(values: Any, label: str) -> tuple[Any, ...]:
    """The distinct options of a decision, in legal-action order."""
    if not isinstance(values, tuple):
        raise RuleRuntimeError(f"the options of {label!r} must be a list, got {values!r}")
    distinct = dict.fromkeys(values)
    kinds = set(map(type, distinct))
    if kinds == _TUPLE:
        kinds = set(map(type, chain.from_iterable(distinct))) or _STR
    if kinds in (_STR, _INT):  # one plain kind: Python's order is value_key's order
        return tuple(sorted(distinct))
    return tuple(sorted(distinct, key=value_key))


_TUPLE: set[type] = {tuple}
_STR: set[type] = {str}
_INT: set[type] = {int}


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
