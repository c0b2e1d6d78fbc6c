"""The one door between a running game and the code it runs: what a primitive (core or a
game module's) may ask of the game, as ``ctx``, and of its ruleset, as ``ctx.rules``.

The engine's machine implements :class:`Context`; primitives are typed against it, so a
game module reads state only through ``read`` and the read-only ``vars``, and changes it
only through ``write`` and ``move``: every change is an event. Both protocols hold only
what primitives use; the ruleset's data they return is shared, so it is typed read-only
(``Mapping``, ``Sequence``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NoReturn, Protocol, TypeVar

from ..data.board import Board

T = TypeVar("T")


class RulesQuery(Protocol):
    """What code running in a game may ask of its ruleset."""

    @property
    def data(self) -> Mapping[str, Any]:
        """The merged content of each rule file, by kind (``game``, ``cards``, ...)."""
        ...

    @property
    def board(self) -> Board: ...

    @property
    def space_ids(self) -> tuple[str, ...]:
        """Every board space id: the order of per-space state values."""
        ...

    def derived(self, key: str, build: Callable[[RulesQuery], T]) -> T:
        """``build(rules)``, computed once per ruleset and kept under ``key``."""
        ...

    def items(self, kind: str, key: str | None = None) -> Sequence[Mapping[str, Any]]: ...

    def item(self, ident: str) -> Mapping[str, Any]: ...

    def item_param(self, ident: str, name: str, default: Any = ...) -> Any: ...

    def constant(self, name: str, players: int | None = None) -> Any: ...


class CallRequestLike(Protocol):
    """Another effect to run: its code id, bound names, and whether its value comes back."""

    @property
    def code(self) -> str: ...

    @property
    def names(self) -> dict[str, Any]: ...

    @property
    def returns(self) -> bool: ...


class Context(Protocol):
    """A game while its rules run: the only way code reaches the game's state."""

    @property
    def rules(self) -> RulesQuery: ...

    @property
    def player_count(self) -> int: ...

    @property
    def vars(self) -> Mapping[str, Any]:
        """Every state variable's value by name, read-only: ``vars[name]`` is
        ``read(name)`` without a call, for primitives that read several variables at every
        turn (in the pure package a call costs more than the look-up). Valid while the
        primitive runs: a ``write`` or ``move`` may put a new mapping in its place."""
        ...

    def read(self, name: str, index: Any = None) -> Any:
        """A state variable's value (one player's or space's with ``index``)."""
        ...

    def write(self, name: str, index: Any, value: Any, why: str | None = "set") -> None:
        """Set a state variable and emit a ``change`` event (none when ``why`` is None)."""
        ...

    def move(self, item: Any, source: Ref, target: Ref, position: int | None = None) -> None:
        """Move one item between two lists (from ``position`` in ``source``, its first copy
        when None, a RuleRuntimeError if none); emits ``move``."""
        ...

    def narrate(self, kind: str, fields: dict[str, Any]) -> None:
        """Emit an event of ``kind`` with ``fields`` (made JSON-safe)."""
        ...

    def player_index(self, p: Any) -> int:
        """``p`` as a seat number; raises when it is none."""
        ...

    def space_index(self, space: Any) -> int:
        """The index of a board space in per-space values; raises when it is none."""
        ...

    def shuffled(self, items: Iterable[T]) -> tuple[T, ...]:
        """The items in a random order, from the game's seeded generator."""
        ...

    def random_below(self, n: int) -> int: ...

    def end(self, winners: tuple[Any, ...] | None = None) -> NoReturn:
        """End the game now with ``winners`` (checked to be seats), else winners by the
        scoring rules; never returns."""
        ...

    def copies(self, kind: str) -> tuple[str, ...]: ...

    def ids(self, kind: str) -> tuple[str, ...]: ...

    def item(self, ident: str) -> Mapping[str, Any]: ...

    def param(self, ident: str, name: str, *default: Any) -> Any: ...

    def call_item(self, ident: str, field: str, bindings: dict[str, Any]) -> tuple[CallRequestLike, ...]: ...

    def call_rules(self, when: str, bindings: dict[str, Any]) -> tuple[CallRequestLike, ...]: ...


class StateAccess:
    """The machine's reads and writes of the state as a class: the engine's machine derives
    from it. It holds nothing and adds nothing in Python; the compiled build declares it an
    extension type (``effects/context.pxd``), so that a game module, which knows the
    effects layer but not the engine, can type the ``ctx`` of its busiest functions as one
    (``games/rialto.pxd``), call ``read`` and ``write`` as C functions, not by name, and
    read ``vars`` as a C field."""

    __slots__ = ()

    def read(self, name: str, index: Any = None) -> Any:
        raise NotImplementedError

    def write(self, name: str, index: Any, value: Any, why: str | None = "set") -> None:
        raise NotImplementedError


class Ref:
    """A state variable (optionally one player's or space's value) a primitive may change."""

    __slots__ = ("ctx", "index", "name")

    def __init__(self, ctx: Context, name: str, index: Any = None) -> None:
        self.ctx, self.name, self.index = ctx, name, index

    def get(self) -> Any:
        return self.ctx.read(self.name, self.index)

    def set(self, value: Any, why: str = "set") -> None:
        self.ctx.write(self.name, self.index, tuple(value) if isinstance(value, list) else value, why)

    def __str__(self) -> str:
        return self.name if self.index is None else f"{self.name}[{self.index}]"

    __repr__ = __str__


def per_ruleset(key: str, build: Callable[[RulesQuery], T]) -> Callable[[Context], T]:
    """``ctx -> ctx.rules.derived(key, build)``, for a game module whose primitives ask it
    at nearly every call: a game asks it of its one ruleset only, so the last ruleset asked
    and its value are kept at hand (``derived`` is a method call and a look-up; this is a
    comparison). The last ruleset stays alive while its module keeps it.

    >>> import types, venedig_rules as vr
    >>> spaces = per_ruleset("space count", lambda rules: len(rules.space_ids))
    >>> ctx = types.SimpleNamespace(rules=vr.load("rialto"))
    >>> spaces(ctx) == len(ctx.rules.space_ids), spaces(ctx) is ctx.rules.derived("space count", len)
    (True, True)
    """
    last: tuple[Any, Any] = (None, None)

    def value(ctx: Context) -> T:
        nonlocal last
        rules = ctx.rules
        seen = last  # one read: another thread may set a new pair, never half of one
        if seen[0] is rules:
            return seen[1]  # type: ignore[no-any-return]
        found = rules.derived(key, build)
        last = (rules, found)
        return found

    return value
