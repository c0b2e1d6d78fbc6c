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
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any, Iterable

from . import rng as rnglib
from .effects.compile import WAIT, Ref, combine, freeze
from .errors import RuleRuntimeError, VenedigError
from .notation import PASS, Action, ActionSyntaxError, IllegalActionError, parse_action, value_key
from .views import json_safe, redact_event, redact_state

if TYPE_CHECKING:
    from .ruleset import Ruleset

SAVE_FORMAT = "venedig-rules/game"
SAVE_VERSION = 1
#: How deep effects may call each other (procedures, item effects, scoring rules).
MAX_DEPTH = 64


class SaveFileError(VenedigError, ValueError):
    """A saved game that cannot be loaded: corrupt, from another ruleset, or inconsistent."""

    code = "save/invalid"


class CallRequest:
    """What a primitive that runs another effect hands the machine: code, bound names, and
    whether the caller receives the effect's value."""

    __slots__ = ("code", "names", "returns")

    def __init__(self, code: str, names: dict, returns: bool = True):
        self.code, self.names, self.returns = code, names, returns

    def __repr__(self) -> str:
        return f"CallRequest({self.code!r}, {self.names!r}, returns={self.returns})"


class _State:
    """One immutable snapshot: variables, frames, the pending decision, the RNG, the end."""

    __slots__ = ("vars", "frames", "pending", "rng", "over", "winners")

    def __init__(self, vars, frames, pending, rng, over=False, winners=None):
        self.vars, self.frames, self.pending, self.rng = vars, frames, pending, rng
        self.over, self.winners = over, winners

    def to_json(self) -> dict:
        return {"vars": json_safe(self.vars), "frames": [[c, pc, t, json_safe(L)] for c, pc, t, L in self.frames],
                "pending": json_safe(self.pending), "rng": f"{self.rng:016x}", "over": self.over,
                "winners": None if self.winners is None else list(self.winners)}


class Game:
    """A game in progress. Create it with ``ruleset.new_game(players, seed)``.

    Players are numbered 0 to n-1 clockwise. ``apply`` leaves the game untouched when it
    raises. Every state can be cloned, saved and resumed: a pending decision is data.
    """

    def __init__(self, rules: "Ruleset", players: int, seed: int, *, _start: bool = True):
        if rules.compiled is None:
            raise VenedigError(f"ruleset {rules.name!r} has no flow yet: it can be validated and described, "
                               "not played")
        if players not in rules.players:
            raise ValueError(f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, "
                             f"not {players}")
        self.rules, self.players, self.seed = rules, players, seed
        self._events: list[dict] = []
        self._actions: list[Action] = []  # as applied; their text on demand
        self._history: list[tuple[_State, int]] = []
        self._legal: dict[int, tuple[Action, ...]] | None = None
        if _start:
            state = _State(_initial_vars(rules, players), ((rules.compiled.main, 0, None, _base_locals(players)),),
                           None, rnglib.seed_state(seed))
            self._state = _Run(self, state).run()

    # -- asking ----------------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        """The players who must act now (several at a simultaneous decision), in seat order."""
        pending = self._state.pending
        if pending is None or self._state.over:
            return ()
        if pending["kind"] == "each":
            return tuple(p for p, c in zip(pending["players"], pending["commits"]) if c is None)
        return (pending["player"],)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The legal actions of ``player`` (of the only player to move when omitted), sorted."""
        if player is None:
            movers = self.to_move
            if len(movers) != 1:
                raise ValueError(f"say whose actions: players {list(movers)} are to move" if movers
                                 else "nobody is to move: the game is over")
            player = movers[0]
        return list(self._legal_by_player().get(player, ()))

    def _legal_by_player(self) -> dict[int, tuple[Action, ...]]:
        if self._legal is None:
            self._legal = {}
            pending = self._state.pending
            if pending is not None and not self._state.over:
                if pending["kind"] == "each":
                    for p, options, commit in zip(pending["players"], pending["options"], pending["commits"]):
                        if commit is None:
                            self._legal[p] = _actions(p, pending["label"], options, False)
                else:
                    p = pending["player"]
                    self._legal[p] = _actions(p, pending["label"], pending["options"], pending["optional"])
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
    def events(self) -> list[dict]:
        """Every event so far, unredacted (dicts with a ``type``)."""
        return list(self._events)

    @property
    def actions(self) -> list[str]:
        """The text of every action applied so far."""
        return [str(a) for a in self._actions]

    def value(self, name: str, index: Any = None) -> Any:
        """A state variable's value (a player's or space's with ``index``), unredacted."""
        value = self._state.vars[name]
        if index is None:
            return value
        info = self.rules.compiled.state[name]
        return value[index if info.per == "player" else self.rules.space_index(index)]

    def view(self, player: int, since: int = 0) -> dict:
        """What ``player`` may know, JSON-safe: hidden values and others' secrets redacted,
        in the event log too. ``since``: only the events from ``game.events[since:]`` (a
        front end that already showed the earlier ones asks for the new ones only)."""
        s = self._state
        pending = s.pending
        decision = None
        if pending is not None and player in self.to_move:
            decision = {"label": pending["label"], "actions": [str(a) for a in self.legal_actions(player)]}
        committed = None
        if pending is not None and pending["kind"] == "each" and player in pending["players"]:
            commit = pending["commits"][pending["players"].index(player)]
            committed = json_safe(commit[0]) if commit is not None else None
        return {"ruleset": self.rules.name, "player": player, "players": self.players,
                "to_move": list(self.to_move), "over": s.over, "winners": list(self.winners),
                "state": redact_state(self.rules, s.vars, player, self.players),
                "decision": decision, "your_commit": committed,
                "events": [e for e in (redact_event(self.rules, ev, player) for ev in self._events[since:]) if e]}

    # -- acting ----------------------------------------------------------------------------
    def apply(self, action: Action | str) -> "Game":
        """Apply a legal action (an Action or its text); raises IllegalActionError, and
        leaves the game untouched, when it is not legal now."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ActionSyntaxError as exc:
                raise IllegalActionError(str(exc)) from None
        elif not isinstance(action, Action):
            raise IllegalActionError(f"{action!r} is not an action; expected an Action or its text, "
                                     "e.g. 'p1 claim(c4)'")
        if not self._is_legal(action):
            raise IllegalActionError(self._why_illegal(action, self._legal_by_player()))
        before, n_events = self._state, len(self._events)
        try:
            self._state = _Run(self, before).resume(action)
        except Exception:
            self._state = before
            del self._events[n_events:]
            raise
        self._history.append((before, n_events))
        self._actions.append(action)
        self._legal = None
        return self

    def _is_legal(self, action: Action) -> bool:
        pending = self._state.pending
        if pending is None or self._state.over:
            return False
        if action.name == PASS and action.value is None:
            return pending["kind"] == "one" and pending["optional"] and action.player == pending["player"]
        if action.name != pending["label"]:
            return False
        if pending["kind"] == "one":
            return action.player == pending["player"] and action.value in pending["options"]
        players = pending["players"]
        if action.player not in players:
            return False
        i = players.index(action.player)
        return pending["commits"][i] is None and action.value in pending["options"][i]

    def _why_illegal(self, action: Action, legal: dict[int, tuple[Action, ...]]) -> str:
        if self._state.over:
            return f"{action} is not legal: the game is over"
        if action.player not in legal:
            return f"{action} is not legal: player {action.player} is not to move (to move: {list(self.to_move)})"
        options = ", ".join(str(a) for a in legal[action.player][:8])
        more = "" if len(legal[action.player]) <= 8 else f", ... ({len(legal[action.player])} in all)"
        return f"{action} is not legal now; legal: {options}{more}"

    def undo(self) -> "Game":
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

    def clone(self) -> "Game":
        """An independent copy (cheap: states are shared, never changed in place)."""
        other = Game.__new__(Game)
        other.rules, other.players, other.seed = self.rules, self.players, self.seed
        other._state, other._legal = self._state, self._legal
        other._events, other._actions, other._history = list(self._events), list(self._actions), list(self._history)
        return other

    # -- saving ----------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The whole game as JSON-safe data, with the ruleset's hash and a checksum."""
        body = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "ruleset": self.rules.name,
                "rules_hash": self.rules.rules_hash, "players": self.players, "seed": self.seed,
                "actions": [str(a) for a in self._actions], "state": self._state.to_json(), "events": json_safe(self._events)}
        body["checksum"] = _checksum(body)
        return body

    @classmethod
    def from_json(cls, rules: "Ruleset", data: Any) -> "Game":
        """A game from ``to_json`` data; refuses it, with the reason, when it is corrupt, was
        played with other rules, or its state does not follow from its actions."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFileError(f"not a venedig-rules saved game (expected format {SAVE_FORMAT!r})")
        if data.get("version") != SAVE_VERSION:
            raise SaveFileError(f"saved game version {data.get('version')!r} is not supported (expected {SAVE_VERSION})")
        if data.get("rules_hash") != rules.rules_hash:
            raise SaveFileError(f"the game was played with other rules ({data.get('ruleset')!r}, rules_hash "
                                f"{str(data.get('rules_hash'))[:12]}...), not {rules.name!r} "
                                f"({rules.rules_hash[:12]}...)")
        if data.get("checksum") != _checksum({k: v for k, v in data.items() if k != "checksum"}):
            raise SaveFileError("the checksum does not match: the file was changed or damaged")
        players, seed, actions = data.get("players"), data.get("seed"), data.get("actions")
        if not isinstance(players, int) or not isinstance(seed, int) or not isinstance(actions, list) \
                or not all(isinstance(a, str) for a in actions):
            raise SaveFileError("players and seed must be numbers and actions a list of action texts")
        try:
            game = rules.replay(players, seed, actions)
        except Exception as exc:  # noqa: BLE001 - any failure means the file is not a game of these rules
            raise SaveFileError(f"its actions cannot be replayed: {exc}") from None
        replayed = game.to_json()
        for part in ("state", "events"):
            if replayed[part] != data.get(part):
                raise SaveFileError(f"its {part} does not follow from its seed and actions")
        return game

    def _rebuild_history(self) -> None:
        replayed = self.rules.replay(self.players, self.seed, self._actions)
        self._history = replayed._history

    def fingerprint(self) -> tuple:
        """A cheap identity of the game's position: its state and the length of its log
        (equal fingerprints: equal ``to_json`` but for events, which only grow)."""
        s = self._state
        try:  # json writes tuples as lists itself: the same text as from to_json(), made in C
            text = json.dumps({"vars": s.vars, "frames": s.frames, "pending": s.pending, "rng": f"{s.rng:016x}",
                               "over": s.over, "winners": s.winners}, sort_keys=True)
        except TypeError:  # keys of mixed kinds: to_json() makes them all text first
            text = json.dumps(s.to_json(), sort_keys=True)
        return (text, len(self._events), len(self._actions))

    def check_invariants(self) -> list[str]:
        """The messages of the ruleset's invariants that do not hold now (those declared
        ``when: end`` only once the game is over)."""
        run = _Run(self, self._state)
        failed = []
        for ident, message, when, check in self.rules.compiled.invariants:
            if when == "end" and not self._state.over:
                continue
            try:
                ok = check({"players": tuple(range(self.players))}, run)
            except RuleRuntimeError as exc:
                failed.append(f"{ident}: {message} (could not be evaluated: {exc})")
                continue
            if not ok:
                failed.append(f"{ident}: {message}")
        return failed


class _GameOver(Exception):
    """Raised by ``end_game()`` / ``win()`` to stop the machine wherever it is."""


class _Run:
    """A game's state while the machine runs: the context primitives see as ``ctx``."""

    def __init__(self, game: Game, state: _State):
        self.game, self.rules, self.compiled = game, game.rules, game.rules.compiled
        self.player_count = game.players
        self.vars = state.vars  # copied on the first write
        self._own_vars = False
        # [code, pc, target, locals, owned]: a frame's locals are copied before it runs
        self.frames = [[c, pc, t, L, False] for c, pc, t, L in state.frames]
        self.everyone = tuple(range(game.players))
        self.pending, self.rng, self.over, self.winners = state.pending, state.rng, state.over, state.winners
        self.events = game._events
        self._indexed, self._player_vars = game.rules.indexed_vars, game.rules.player_vars

    # -- the machine -----------------------------------------------------------------------
    def resume(self, action: Action) -> _State:
        pending = self.pending
        value = None if action.name == PASS else action.value
        if pending["kind"] == "each":
            i = pending["players"].index(action.player)
            commits = pending["commits"][:i] + ((value,),) + pending["commits"][i + 1:]
            self.pending = {**pending, "commits": commits}
            self.emit({"type": "commit", "player": action.player, "label": pending["label"], "value": value,
                       "hidden": True})
            if any(c is None for c in commits):
                return self.freeze()
            value = tuple(freeze(c[0]) if c is not None else None for c in self._per_player(pending, commits))
            self.emit({"type": "reveal", "label": pending["label"], "values": value})
        else:
            event = {"type": "choice", "player": action.player, "label": pending["label"], "value": value,
                     "passed": action.name == PASS}
            if pending.get("secret"):
                event["hidden"] = True  # only the chooser sees the value
            self.emit(event)
        frame = self.frames[-1]
        frame[3], frame[4] = dict(frame[3]), True
        frame[3][pending["target"]] = freeze(value)
        frame[1] += 1
        self.pending = None
        return self.run()

    def _per_player(self, pending, commits):
        by_player = dict(zip(pending["players"], commits))
        return [by_player.get(p) for p in range(self.player_count)]

    def run(self) -> _State:
        try:
            return self._run()
        except RuleRuntimeError as exc:
            raise RuleRuntimeError(f"{self._where(exc)}: {exc}") from None
        except (TypeError, ValueError, KeyError, IndexError) as exc:
            raise RuleRuntimeError(f"{self._where(exc)}: {type(exc).__name__}: {exc}") from exc

    def _where(self, exc: Exception) -> str:
        """The rule file place of the statement that failed (a statement inside a block
        tells its own place on the exception, as ``dsl_offset``)."""
        if not self.frames:
            return self.rules.name
        code_id, pc = self.frames[-1][0], self.frames[-1][1]
        code = self.compiled.codes[code_id]
        offset = getattr(exc, "dsl_offset", None)
        if offset is None:
            offset = code.offsets[min(pc, len(code.offsets) - 1)] if code.offsets else 0
        return str(self.rules.positions.in_scalar(code_id, offset))

    def _run(self) -> _State:
        codes = self.compiled.codes
        frames = self.frames
        try:
            while frames:
                frame = frames[-1]
                if not frame[4]:
                    frame[3], frame[4] = dict(frame[3]), True
                code = codes[frame[0]]
                steps, L, pc = code.steps, frame[3], frame[1]
                end = len(steps)
                try:
                    while pc < end:
                        nxt = steps[pc](L, self)
                        if nxt >= 0:
                            pc = nxt
                        elif nxt == WAIT:
                            frame[1] = pc
                            if self.choose(code.instructions[pc], L):
                                return self.freeze()
                            pc += 1
                        else:
                            frame[1] = pc + 1
                            self.call(code.instructions[pc], L)
                            break
                    else:
                        frames.pop()
                        if frames and frame[2] is not None:
                            caller = frames[-1]
                            if not caller[4]:
                                caller[3], caller[4] = dict(caller[3]), True
                            caller[3][frame[2]] = L.get("@")
                except _GameOver:
                    raise
                except BaseException:
                    frame[1] = pc
                    raise
        except _GameOver:
            frames.clear()
        if not self.over:
            self.over = True
            self.emit({"type": "game_over"})
        return self.freeze()

    def choose(self, op: tuple, L: dict) -> bool:
        """Set up a decision; False when there is nothing to decide (an optional choice
        without options resolves to none at once)."""
        _, target, player_f, options_f, label, optional, each, secret = op
        if each is None:
            player = self.player_index(player_f(L, self))
            options = _options(options_f(L, self), label)
            if not options:
                if optional:
                    L[target] = None
                    return False
                raise RuleRuntimeError(f"player {player} must choose {label!r} but has no option")
            self.pending = {"kind": "one", "player": player, "label": label, "options": options,
                            "optional": bool(optional), "target": target}
            if secret:
                self.pending["secret"] = True
            return True
        players = tuple(self.player_index(p) for p in player_f(L, self))
        per = []
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
        self.pending = {"kind": "each", "players": players, "label": label, "options": tuple(per),
                        "commits": tuple(None for _ in players), "target": target}
        return True

    def call(self, op: tuple, L: dict) -> None:
        _, target, kind, callee, args, kwargs = op
        frames = self.frames
        if kind == "proc":
            code, params = self.compiled.procedures[callee]
            names = {"players": self.everyone}
            for param, f in zip(params, args):
                names[param] = f(L, self)
            requests = ((code, names, True),)
        else:
            requests = tuple((r.code, r.names, r.returns)
                             for r in callee(self, *[f(L, self) for f in args], **{k: f(L, self) for k, f in kwargs}))
        if len(frames) + len(requests) > MAX_DEPTH:
            raise RuleRuntimeError(f"effects call each other more than {MAX_DEPTH} deep")
        L[target] = None
        one = len(requests) == 1
        for code, names, returns in reversed(requests):
            if "self" not in names:
                names = {**names, "self": L.get("self")}  # (a request's names are never changed)
            frames.append([code, 0, target if returns and one else None, names, False])

    def freeze(self) -> _State:
        frames = tuple((c, pc, t, L) for c, pc, t, L, _ in self.frames) if not self.over else ()
        return _State(self.vars, frames, self.pending if not self.over else None, self.rng, self.over, self.winners)

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
                    raise RuleRuntimeError(f"{name!r} has one value per {per}: assign a list of {size} values "
                                           f"or write {name}[...] = ...")
            self.vars[name] = value
            if why is not None:
                self.events.append({"type": "change", "var": name, "value": value, "why": why})
            return
        slot = self._slot(name, index)
        old = self.vars[name]
        self.vars[name] = old[:slot] + (value,) + old[slot + 1:]
        if why is not None:
            self.events.append({"type": "change", "var": name, "value": value, "why": why, "index": index})

    def assign(self, name: str, index_f, op: str, value_f, L: dict) -> None:
        index = index_f(L, self) if index_f is not None else None
        value = freeze(value_f(L, self))
        if op != "=":
            value = combine(self.read(name, index), op, value)
        self.write(name, index, value, "set" if op == "=" else op)

    def move(self, item: Any, source: Ref, target: Ref, position: int) -> None:
        items = tuple(source.get())
        self.write(source.name, source.index, items[:position] + items[position + 1:], None)
        self.write(target.name, target.index, tuple(target.get()) + (item,), None)
        self.emit({"type": "move", "item": item, "from": [source.name, source.index], "to": [target.name, target.index]})

    def shuffled(self, items: Iterable) -> tuple:
        self.rng, out = rnglib.shuffled(self.rng, tuple(items))
        return out

    def random_below(self, n: int) -> int:
        self.rng, value = rnglib.below(self.rng, n)
        return value

    def emit(self, event: dict) -> None:
        self.events.append(event)

    def narrate(self, kind: str, fields: dict) -> None:
        self.emit({"type": kind, **{k: json_safe(v) for k, v in fields.items()}})

    def end(self, winners: tuple | None = None) -> None:
        """End the game now: the machine stops at once (nothing after this runs)."""
        if not self.over:
            self.winners = tuple(self.player_index(w) for w in winners) if winners is not None else None
            self.over = True
            self.emit({"type": "game_over"})
        raise _GameOver

    def copies(self, kind: str) -> tuple:
        return self.rules.copies(kind, self.player_count)

    def ids(self, kind: str) -> tuple:
        return tuple(item["id"] for item in self.rules.items_of(kind))

    def item(self, ident: str) -> dict:
        return self.rules.item(ident)

    def param(self, ident: str, name: str, *default: Any) -> Any:
        return freeze(self.rules.item_param(ident, name, *default))

    def call_item(self, ident: str, field: str, bindings: dict) -> tuple[CallRequest, ...]:
        code, names = self.rules.item_call(ident, field)
        names.update({k: freeze(v) for k, v in bindings.items()})
        names["players"] = self.everyone
        return (CallRequest(code, names),)

    def call_rules(self, when: str, bindings: dict) -> tuple[CallRequest, ...]:
        names = {"players": self.everyone, **{k: freeze(v) for k, v in bindings.items()}}
        return tuple(CallRequest(code, {**names, "item": rule}, returns=False)
                     for code, rule in self.compiled.rules_by_when.get(when, ()))


def _options(values: Any, label: str) -> tuple:
    """The distinct options of a decision, in legal-action order."""
    if not isinstance(values, tuple):
        raise RuleRuntimeError(f"the options of {label!r} must be a list, got {values!r}")
    distinct = dict.fromkeys(values)
    kinds = set(map(type, distinct))
    if kinds == _TUPLE:
        kinds = set(map(type, chain.from_iterable(distinct))) or _STR
    if kinds == _STR or kinds == _INT:  # one plain kind: Python's order is value_key's order
        return tuple(sorted(distinct))
    return tuple(sorted(distinct, key=value_key))


_TUPLE, _STR, _INT = {tuple}, {str}, {int}


def _actions(player: int, label: str, options: tuple, optional: bool) -> tuple[Action, ...]:
    # Action(player, label, value) for each option, made without running Python code per option
    actions = tuple(map(tuple.__new__, repeat(Action), zip(repeat(player), repeat(label), options)))
    return actions + (Action(player, PASS),) if optional else actions


def _base_locals(players: int) -> dict:
    return {"players": tuple(range(players))}


def _initial_vars(rules: "Ruleset", players: int) -> dict:
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


def _checksum(body: dict) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
