"""Every game constant and item param a ruleset declares is read by its rules.

A datum counts as read when a DSL program names it (a constant by its name, a param as
``param(item, "name")`` or as a name bound in an item's own code), or when a game module
that the ruleset loads declares that its Python reads it (``Registry.constants_read``,
``Registry.params_read``). One that nothing reads looks configurable and changes no game:
it is an :class:`~venedig_rules.errors.UnreadDataError` at its declaration (in a variant,
at the overlay's line), with "did you mean" against the names the rules do read, which
catches a misspelt constant in an overlay. A param that only tables and pictures show (a
building's colour) says so in its declaration: ``read_by: people``.

>>> from venedig_rules.effects.parse import parse
>>> from venedig_rules.effects.check import Scope, check
>>> program = parse("hand_limit + param(card, \\"stones\\")")
>>> _, resolved = check(program, Scope(locals={"card": "str"}, constants={"hand_limit": 5, "hand_limt": 6}))
>>> found = Reads()
>>> found.add(program, resolved, ())
>>> sorted(found.constants), sorted(found.params)
(['hand_limit'], ['stones'])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..data.yamlsource import PositionMap, pointer
from ..errors import RulesError, UnreadDataError, did_you_mean
from .check import ConstantValue, LocalName, PrimitiveCall, Resolution
from .parse import Call, Const, Name, Program
from .registry import Registry
from .visitor import NodeVisitor


@dataclass
class Reads:
    """The constants and params that the rules read."""

    constants: set[str] = field(default_factory=set)
    params: set[str] = field(default_factory=set)

    def add(self, program: Program, resolved: Resolution, item_params: Iterable[str]) -> None:
        """What ``program`` reads; ``item_params`` are the params bound as names in its scope."""
        finder = _ReadsOf(self, resolved, frozenset(item_params))
        for node in program.body:
            finder.visit(node)

    def add_registry(self, registry: Registry) -> None:
        """What the game modules' Python reads, as they declare it."""
        self.constants |= set(registry.constant_kinds)
        self.params |= registry.params_read


class _ReadsOf(NodeVisitor):
    """The reads pass of one program: a name that is a constant or a bound param, and
    ``param(item, "name")``, add to ``reads``."""

    def __init__(self, reads: Reads, resolved: Resolution, bound: frozenset[str]):
        self.reads = reads
        self.resolved = resolved
        self.bound = bound  # the frame slots of the params bound as names

    def visit_Name(self, node: Name) -> None:
        what = self.resolved.get(id(node))
        if isinstance(what, ConstantValue):
            self.reads.constants.add(node.name)
        elif isinstance(what, LocalName) and what.slot in self.bound:
            self.reads.params.add(node.name)

    def visit_Call(self, node: Call) -> None:
        what = self.resolved.get(id(node))
        if isinstance(what, PrimitiveCall) and what.primitive.name == "param" and len(node.args) > 1:
            name = node.args[1]
            if isinstance(name, Const) and isinstance(name.value, str):
                self.reads.params.add(name.value)
        self.generic_visit(node)


def unread(data: dict[str, Any], positions: PositionMap, reads: Reads) -> list[RulesError]:
    """An error for each declared constant and param of ``data`` that ``reads`` lacks."""
    game = data.get("game") or {}
    errors: list[RulesError] = []
    for name in game.get("constants") or {}:
        if name not in reads.constants:
            errors.append(
                UnreadDataError(
                    f"constant {name!r} is read by no rule (no DSL names it, no game module declares it)"
                    f"{did_you_mean(name, reads.constants)}; expected the rules to read it, or no such constant",
                    positions.key_at(pointer("/game/constants", name)),
                )
            )
    for kind, declared in (game.get("parameters") or {}).items():
        for name, decl in (declared or {}).items():
            if name not in reads.params and not (isinstance(decl, dict) and decl.get("read_by") == "people"):
                errors.append(
                    UnreadDataError(
                        f"param {name!r} of {kind} is read by no rule (no param(item, {name!r}), no name in an "
                        f"item's code, no game module declares it){did_you_mean(name, reads.params)}; "
                        "expected the rules to read it, or no such param",
                        positions.key_at(pointer(pointer("/game/parameters", kind), name)),
                    )
                )
    return errors
