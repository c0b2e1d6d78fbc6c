"""The primitives the effect DSL may call: each declares its parameters, result and whether
it hands control to another effect; the checker reads these, the compiler calls them.

Types are small on purpose: ``int``, ``bool``, ``str`` (ids and words), ``player`` (a seat
number), ``list``, ``none`` and ``any`` (accepts everything). A parameter of kind ``ref``
takes a state variable (``deck`` or ``hand[p]``) that the primitive may change.

A primitive is a function ``fn(ctx, ...)``; its Python annotations are its DSL types, read
once when it is registered, so one place states them:

- ``int``, ``bool``, ``str``: the same; :data:`Player` (an ``int``): ``player``;
- ``tuple[...]`` or ``Sequence[...]``: ``list``; ``Any`` or a union of several types:
  ``any``; ``X | None``: the type of ``X`` (none is every type's "nothing"); a return of
  ``None``: ``none``;
- :data:`ListRef` (a :class:`~venedig_rules.effects.context.Ref`): ``ref list``;
- ``Annotated[X, "type"]``: ``type``, for a value Python sees as ``X``;
- ``*values``: any number of further values; ``**names``: free keywords (``name: value``);
  a default: the argument may be left out (:data:`OMITTED` when the primitive must tell
  that from none).

>>> from venedig_rules.effects.context import Context
>>> numbers = Registry()
>>> @numbers.primitive(example="half_down(5)  # 2")
... def half_down(ctx: Context, x: int) -> int:
...     return x // 2
>>> numbers.get("half_down").signature()
'half_down(x: int) -> int'
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from .constant_kinds import ConstantKind
from .context import Ref

TYPES = ("int", "bool", "str", "player", "list", "none", "any")
REQUIRED = object()
#: The default of a parameter that may be left out when the primitive must tell that from
#: none (``param(item, name)`` asks the declared default); signatures show it as none.
OMITTED: Any = object()

#: A seat number, 0 to the player count - 1 (DSL type ``player``).
Player = Annotated[int, "player"]
#: A list state variable the primitive may change (DSL ``ref list``): ``deck``, ``hand[p]``.
ListRef = Annotated[Ref, "list"]

F = TypeVar("F", bound=Callable[..., Any])


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
    """A set of primitives; ``extend`` makes a new registry with more (a game's own).

    A game module's Python may read ``game.yaml`` constants and item params directly
    (``rules.constant("hand_limit")``): it declares them in ``constants_read`` (each name
    with the kind of value it reads, which validate checks: :mod:`.constant_kinds`; a
    set of names reads any value) and ``params_read``, so the check that every declared
    datum is read counts them (``tests/test_reads.py`` checks each declaration against
    the module's source). A
    primitive reading hidden or owner-only state through ``ctx`` says which in
    ``secret_reads`` (for the information-flow check, :mod:`venedig_rules.effects.flow`)."""

    primitives: dict[str, Primitive] = field(default_factory=dict)
    constants_read: Mapping[str, ConstantKind] | AbstractSet[str] = field(default_factory=dict)
    params_read: frozenset[str] = frozenset()
    #: primitive name -> the state variables it reads through ``ctx`` that some seat may not
    #: see (the flow check makes its value secret as theirs; ``tests/test_flow.py`` checks it)
    secret_reads: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: primitive name -> the parameters of which it reads only what every view shows of a
    #: state variable (which entries are none, how long it is): a hidden one passed there
    #: gives away nothing
    shape_only: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def constant_kinds(self) -> Mapping[str, ConstantKind]:
        """Each constant the module's Python reads, with the kind of value it reads."""
        read = self.constants_read
        return read if isinstance(read, Mapping) else dict.fromkeys(sorted(read), ConstantKind.ANY)

    def get(self, name: str) -> Primitive | None:
        return self.primitives.get(name)

    def names(self) -> Iterable[str]:
        return self.primitives.keys()

    def extend(self, other: Registry) -> Registry:
        return Registry(
            {**self.primitives, **other.primitives},
            {**self.constant_kinds, **other.constant_kinds},
            self.params_read | other.params_read,
            {**self.secret_reads, **other.secret_reads},
            {**self.shape_only, **other.shape_only},
        )

    def primitive(
        self,
        name: str | None = None,
        *,
        result: str | None = None,
        calls: bool = False,
        changes: bool = False,
        example: str = "",
    ) -> Callable[[F], F]:
        """Decorator registering ``fn(ctx, ...)`` as a primitive, named as the function
        (a trailing ``_`` dropped) unless ``name`` is given; its DSL types are its annotations.

        ``result`` is the DSL type of what a primitive that ``calls`` another effect gives
        (the called effect's value; the function itself returns the calls to make)."""

        def register(fn: F) -> F:
            if (result is None) == calls:
                raise TypeError(f"{fn.__name__}: give result= exactly when calls=True")
            signature = inspect.signature(fn, eval_str=True)
            parsed, keywords = _params(fn, signature)
            prim = Primitive(
                name or fn.__name__.rstrip("_"),
                parsed,
                result if result is not None else _dsl_type(fn, "return", signature.return_annotation)[0],
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

    def add_cpdef(self, fn: F, returns: str, **options: Any) -> F:
        """Register ``fn`` as :meth:`primitive` does (``options`` are its), for a function
        its module's ``.pxd`` makes ``cpdef`` (to type its ``ctx``, as ``games/rialto.pxd``
        does): Cython drops such a function's decorators and the return annotation of its
        Python face, so the module registers it after its def, giving that annotation again
        as ``returns`` (``tests/test_pxd.py`` checks that it is the def's)."""
        fn.__annotations__.setdefault("return", returns)
        return self.primitive(**options)(fn)


def _params(fn: Callable[..., Any], signature: inspect.Signature) -> tuple[tuple[Param, ...], bool]:
    """The DSL parameters of ``fn`` (after ``ctx``) and whether it takes free keywords."""
    params: list[Param] = []
    keywords = False
    for p in list(signature.parameters.values())[1:]:
        if p.kind is p.VAR_KEYWORD:
            keywords = True
            continue
        kind, ref = _dsl_type(fn, p.name, p.annotation)
        default = p.default
        if default is p.empty:
            default = REQUIRED
        elif default is OMITTED:
            default = None
        params.append(Param(p.name, kind, default, ref, p.kind is p.VAR_POSITIONAL))
    return tuple(params), keywords


def _dsl_type(fn: Callable[..., Any], where: str, hint: Any) -> tuple[str, bool]:
    """The DSL type of an annotation, and whether it is a ref (see the module docstring)."""
    if hint is inspect.Parameter.empty:
        raise TypeError(f"{fn.__name__}: {where} has no annotation, so no DSL type")
    if get_origin(hint) is Annotated:
        base, tag = get_args(hint)[:2]
        if tag in TYPES:
            return tag, base is Ref
    elif hint is Ref:
        return "any", True
    elif hint is Any:
        return "any", False
    elif hint is None or hint is types.NoneType:
        return "none", False
    elif hint in (int, bool, str):
        return hint.__name__, False
    elif hint is tuple or get_origin(hint) in (tuple, Sequence):
        return "list", False
    elif get_origin(hint) in (Union, types.UnionType):
        members = [_dsl_type(fn, where, h) for h in get_args(hint) if h is not types.NoneType]
        kinds = {kind for kind, _ in members}
        if not any(ref for _, ref in members):  # a ref is a variable, never "or something else"
            return (kinds.pop() if len(kinds) == 1 else "any"), False
    raise TypeError(f"{fn.__name__}: {where} is annotated {hint!r}, which is no DSL type")


def compatible(want: str, have: str) -> bool:
    """Whether a value of type ``have`` may be passed where ``want`` is expected."""
    if want == "any" or have == "any" or want == have:
        return True
    if have == "none":
        return True  # none is every type's "nothing"
    return {("int", "player"), ("player", "int")}.__contains__((want, have))


#: The primitives every ruleset has (filled in by ``venedig_rules.effects.primitives``).
CORE = Registry()
