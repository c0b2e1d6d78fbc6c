"""The reference machine: runs a ruleset with the reference interpreter
(:mod:`reference.interpreter`: closures and instructions) instead of the generated code,
as the engine did before it compiled programs to Python source.

It exists for the tests: a game played by :class:`ReferenceGame` and the same game played
by :class:`~venedig_rules.engine.game.Game` must agree on every state and event (their
frames differ: a frame's ``pc`` counts instructions here and ``pc`` cases there).

>>> import venedig_rules as vr
>>> rules = vr.load("tests/rulesets/lagoon")
>>> game, reference = rules.new_game(2, seed=5), ReferenceGame(rules, 2, seed=5)
>>> for _ in range(6):
...     action = game.legal_actions(game.to_move[0])[0]
...     _ = game.apply(action), reference.apply(action)
>>> game.events == reference.events and game.value("points") == reference.value("points")
True
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from reference.interpreter import WAIT, CallOp, ChooseOp, Code, Fn, combine, compile_program
from venedig_rules.effects.runtime import freeze
from venedig_rules.engine.game import Game
from venedig_rules.engine.run import events
from venedig_rules.engine.run.machine import (
    MAX_DEPTH,
    Frame,
    GameOver,
    Locals,
    Machine,
    Pending,
    PendingChoice,
    PendingCommits,
    State,
    _options,
)
from venedig_rules.engine.run.notation import Action
from venedig_rules.engine.run.ruleset_base import RulesetBase
from venedig_rules.errors import Location, RuleRuntimeError

__all__ = ["ReferenceGame", "ReferenceMachine", "reference_codes"]


def reference_codes(rules: RulesetBase) -> dict[str, Code]:
    """Every program of a ruleset (but its invariants) compiled by the reference compiler."""
    return rules.derived(  # type: ignore[no-any-return]
        "engine.reference",
        lambda r: {
            code_id: compile_program(code_id, checked.program, checked.resolved)
            for code_id, checked in r.compiled_flow.programs.items()
            if checked.kind != "invariant"
        },
    )


class ReferenceMachine(Machine):
    """The machine running the reference interpreter's instructions."""

    @property
    def codes(self) -> dict[str, Code]:
        """The ruleset's programs as the reference compiler makes them (once per ruleset)."""
        return reference_codes(self.rules)

    def _raise_located(self, exc: Exception) -> NoReturn:
        error = RuleRuntimeError.of(exc)
        if error.location is None:
            error.location = self._offset_location(error.offset)
        raise error

    def _offset_location(self, offset: int | None) -> Location | None:
        """At ``offset`` in the running code's text (a statement inside a block knows it),
        else the current instruction's place."""
        if not self.frames:
            return None
        code_id, pc = self.frames[-1].code, self.frames[-1].pc
        code = self.codes[code_id]
        if offset is None:
            offset = code.offsets[min(pc, len(code.offsets) - 1)] if code.offsets else 0
        return self.rules.positions.in_scalar(code_id, offset)

    def _run(self) -> State:
        codes = self.codes
        frames = self.frames
        try:
            while frames:
                frame = frames[-1]
                if frame.shared:
                    frame = frames[-1] = frame.thaw()
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
                            self.call_op(code.instructions[pc], L)
                            break
                    else:
                        frames.pop()
                        if frames and frame.target is not None:
                            if frames[-1].shared:
                                frames[-1] = frames[-1].thaw()
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
            self.emit(events.game_over())
        return self.freeze()

    def choose(self, op: ChooseOp, L: Locals) -> bool:
        """Set up a decision; False when there is nothing to decide (an optional choice
        without options resolves to none at once, unless it is secret)."""
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

    def call_op(self, op: CallOp, L: Locals) -> None:
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

    def assign(self, name: str, index_f: Fn | None, op: str, value_f: Fn, L: Locals) -> None:
        """``name = value``, ``name[index] += value``, ...: compiled assignments run this."""
        index = index_f(L, self) if index_f is not None else None
        value = freeze(value_f(L, self))
        if op != "=":
            value = combine(self.read(name, index), op, value)
        self.write(name, index, value, "set" if op == "=" else op)


@contextmanager
def _reference_machine() -> Iterator[None]:
    """Within it, the module of :class:`Game` makes reference machines: its module-level
    ``Machine`` is swapped for the while (Game has no swap point of its own; tests play one
    game at a time in a thread, so the swap reaches no other game)."""
    module = sys.modules[Game.__module__]
    engine_machine = module.Machine
    module.Machine = ReferenceMachine
    try:
        yield
    finally:
        module.Machine = engine_machine


class ReferenceGame(Game):
    """A game played by the reference machine (for tests: compare it with a Game). Every
    method of :class:`Game` that runs the rules makes its machine in one of these three."""

    def __init__(self, rules: RulesetBase, players: int, seed: int | None = None, **options: Any):
        with _reference_machine():
            super().__init__(rules, players, seed, **options)

    def _resume(self, pending: Pending, action: Action) -> Game:
        with _reference_machine():
            return super()._resume(pending, action)

    def _step(self, state: State, action: Action) -> State:
        with _reference_machine():
            return super()._step(state, action)
