"""The primitives the effect DSL may call: each declares its parameters, result and whether
it hands control to another effect; the checker reads these, the compiler calls them.

Types are small on purpose: ``int``, ``bool``, ``str`` (ids and words), ``player`` (a seat
number), ``list``, ``none`` and ``any`` (accepts everything). A parameter of kind ``ref``
takes a state variable (``deck`` or ``hand[p]``) that the primitive may change.

>>> prim = CORE.get("half_down")
>>> prim.signature()
'half_down(x: int) -> int'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

TYPES = ("int", "bool", "str", "player", "list", "none", "any")
REQUIRED = object()


@dataclass(frozen=True)
class Param:
    name: str
    type: str = "any"
    default: Any = REQUIRED
    ref: bool = False  # takes a state variable to change, not a value
    variadic: bool = False  # takes any number of further values


@dataclass(frozen=True)
class Primitive:
    name: str
    params: tuple[Param, ...]
    result: str
    fn: Callable[..., Any]
    doc: str = ""
    keywords: bool = False  # accepts free keyword arguments (passed as a dict)
    calls: bool = False  # runs another effect (may wait for decisions): statement level only
    changes: bool = False  # changes the game state (not allowed in invariants)
    example: str = ""

    def signature(self) -> str:
        parts = []
        for p in self.params:
            text = f"{'*' if p.variadic else ''}{p.name}: {'ref ' if p.ref else ''}{p.type}"
            if p.default is not REQUIRED:
                text += f" = {p.default!r}".replace("None", "none")
            parts.append(text)
        if self.keywords:
            parts.append("name: value ...")
        return f"{self.name}({', '.join(parts)}) -> {self.result}"


@dataclass(eq=False)
class Registry:
    """A set of primitives; ``extend`` makes a new registry with more (a game's own)."""

    primitives: dict[str, Primitive] = field(default_factory=dict)

    def get(self, name: str) -> Primitive | None:
        return self.primitives.get(name)

    def names(self) -> Iterable[str]:
        return self.primitives.keys()

    def extend(self, other: Registry) -> Registry:
        return Registry({**self.primitives, **other.primitives})

    def primitive(
        self,
        name: str | None = None,
        *,
        params: Iterable[Param | str] = (),
        result: str = "none",
        keywords: bool = False,
        calls: bool = False,
        changes: bool = False,
        example: str = "",
    ):
        """Decorator registering ``fn(ctx, *args)`` as a primitive; ``params`` as
        ``Param`` or ``"name:type"`` strings (``"name:ref list"`` for a ref)."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            parsed = tuple(_param(p) for p in params)
            prim = Primitive(
                name or fn.__name__.rstrip("_"),
                parsed,
                result,
                fn,
                (fn.__doc__ or "").strip(),
                keywords,
                calls,
                changes or calls,
                example,
            )
            self.primitives[prim.name] = prim
            return fn

        return register


def _param(spec: Param | str) -> Param:
    if isinstance(spec, Param):
        return spec
    name, _, kind = spec.partition(":")
    variadic = name.startswith("*")
    ref = kind.startswith("ref ")
    kind = kind.removeprefix("ref ").strip() or "any"
    default = REQUIRED
    if "=" in kind:
        kind, text = (s.strip() for s in kind.split("=", 1))
        default = {"none": None, "true": True, "false": False}.get(text, text)
        if isinstance(default, str) and default.lstrip("-").isdigit():
            default = int(default)
    assert kind in TYPES, (spec, kind)
    return Param(name.lstrip("*"), kind, default, ref, variadic)


def compatible(want: str, have: str) -> bool:
    """Whether a value of type ``have`` may be passed where ``want`` is expected."""
    if want == "any" or have == "any" or want == have:
        return True
    if have == "none":
        return True  # none is every type's "nothing"
    return {("int", "player"), ("player", "int")}.__contains__((want, have))


#: The primitives every ruleset has (filled in by ``venedig_rules.effects.primitives``).
CORE = Registry()
