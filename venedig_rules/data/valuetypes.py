"""Value types: what the options of a decision, the fields of an event and a decision's
context hold, declared in ``game.yaml`` so that any client can name and link them.

A type is written in YAML as one of:

- an id kind: ``space``, ``card``, ``card_type``, ``tile``, ``shape``, ``building``,
  ``district`` (a board region), ``connection``, ``track``, ``component``;
- ``player`` (a seat), ``number``, ``word`` (a word with a text of its own in
  ``texts.yaml``), ``text`` (shown as it is) or ``any`` (named by what it turns out to be);
- ``{list: T}``: a list of T; ``[T1, T2, ...]``: a list whose items have these types by
  position (a shorter list leaves the last ones out); ``{one_of: [T1, ...]}``: the first
  type the value fits; ``{per_player: T}``: one T per seat; ``{word: [w1, ...]}``: one of
  these words.

>>> str(parse_type({"list": "space"})), str(parse_type(["building", {"word": ["alone", "joint"]}]))
('list of space', '[building, word (alone, joint)]')
>>> parse_type({"lst": "space"})
Traceback (most recent call last):
...
venedig_rules.data.valuetypes.TypeSpecError: unknown type form {'lst': ...}; expected one of list, one_of, ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import did_you_mean

#: Id kinds -> the namespace their ids live in (see ``data.checks.NAMESPACES``).
ID_KINDS: dict[str, str] = {
    "space": "space",
    "card": "card",
    "card_type": "card type",
    "tile": "tile",
    "shape": "shape",
    "building": "building",
    "district": "region",
    "connection": "connection",
    "track": "track",
    "component": "component",
}
#: Kinds that are not ids.
PLAIN_KINDS = ("player", "number", "word", "text", "any")
#: Every scalar kind a type may name.
SCALAR_KINDS = (*ID_KINDS, *PLAIN_KINDS)
#: The mapping forms: ``{list: T}``, ``{one_of: [T...]}``, ``{per_player: T}``, ``{word: [w...]}``.
FORMS = ("list", "one_of", "per_player", "word")


class TypeSpecError(ValueError):
    """A type written wrongly; ``path`` is the JSON pointer of the culprit inside the spec."""

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.message, self.path = message, path


@dataclass(frozen=True)
class ValueType:
    """A parsed type: ``kind`` is a scalar kind or ``list``, ``tuple``, ``one_of``,
    ``per_player``; ``items`` the inner types; ``words`` the words of a ``word`` type
    that names them (empty: any word)."""

    kind: str
    items: tuple[ValueType, ...] = ()
    words: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.kind == "list":
            return f"list of {self.items[0]}"
        if self.kind == "per_player":
            return f"{self.items[0]} per player"
        if self.kind == "tuple":
            return "[" + ", ".join(map(str, self.items)) + "]"
        if self.kind == "one_of":
            return "one of " + " | ".join(map(str, self.items))
        if self.kind == "word" and self.words:
            return f"word ({', '.join(self.words)})"
        return self.kind

    @property
    def is_list(self) -> bool:
        """Whether values of this type are lists (of one type, by position, or per player)."""
        return self.kind in ("list", "tuple", "per_player")

    def element(self, index: int) -> ValueType | None:
        """The type of item ``index`` of a list type (None when it has no such item)."""
        if self.kind in ("list", "per_player"):
            return self.items[0]
        if self.kind == "tuple" and 0 <= index < len(self.items):
            return self.items[index]
        return None

    def scalars(self) -> set[str]:
        """Every scalar kind this type may hold, inner types included."""
        if self.items:
            return set().union(*(t.scalars() for t in self.items))
        return {self.kind}

    def all_words(self) -> set[str]:
        """Every word a ``{word: [...]}`` inside this type names."""
        return set(self.words).union(*(t.all_words() for t in self.items)) if self.items else set(self.words)


ANY = ValueType("any")


def parse_type(spec: Any, path: str = "") -> ValueType:
    """The ValueType a YAML spec describes; TypeSpecError (with the place inside the spec)
    when it is not one."""
    if isinstance(spec, str):
        if spec not in SCALAR_KINDS:
            raise TypeSpecError(
                f"unknown type {spec!r}{did_you_mean(spec, SCALAR_KINDS)}; expected one of {', '.join(SCALAR_KINDS)}, "
                "or a form: {list: T}, [T, ...], {one_of: [T, ...]}, {per_player: T}, {word: [...]}",
                path,
            )
        return ValueType(spec)
    if isinstance(spec, list):
        if not spec:
            raise TypeSpecError("an empty list names no type; expected [T1, T2, ...] with a type per position", path)
        return ValueType("tuple", tuple(parse_type(s, f"{path}/{i}") for i, s in enumerate(spec)))
    if isinstance(spec, Mapping) and len(spec) == 1:
        ((form, inner),) = spec.items()
        at = f"{path}/{form}"
        if form in ("list", "per_player"):
            return ValueType(str(form), (parse_type(inner, at),))
        if form == "one_of":
            if not isinstance(inner, list) or len(inner) < 2:
                raise TypeSpecError("one_of takes a list of at least two types", at)
            return ValueType("one_of", tuple(parse_type(s, f"{at}/{i}") for i, s in enumerate(inner)))
        if form == "word":
            if not isinstance(inner, list) or not inner or not all(isinstance(w, str) for w in inner):
                raise TypeSpecError("word takes a list of the words it may be", at)
            return ValueType("word", words=tuple(inner))
    if isinstance(spec, Mapping):
        shown = "{" + ", ".join(f"{k!r}: ..." for k in spec) + "}"
        raise TypeSpecError(f"unknown type form {shown}; expected one of {', '.join(FORMS)}", path)
    raise TypeSpecError(
        f"{spec!r} is not a type; expected a kind such as 'space' or a form such as {{list: card}}", path
    )


@dataclass(frozen=True)
class Ids:
    """Which ids a ruleset has, by id kind (``space``, ``card``, ...), to type values with.

    >>> ids = Ids({"card": frozenset({"casa_card"}), "space": frozenset({"a1"})})
    >>> ids.kind_of("a1"), ids.kind_of("nothing")
    ('space', None)
    """

    by_kind: Mapping[str, frozenset[str]]

    def has(self, kind: str, ident: Any) -> bool:
        return isinstance(ident, str) and ident in self.by_kind.get(kind, frozenset())

    def kind_of(self, ident: Any) -> str | None:
        """The id kind of ``ident`` (the first that has it, in ID_KINDS order), or None."""
        if not isinstance(ident, str):
            return None
        for kind in ID_KINDS:
            if ident in self.by_kind.get(kind, frozenset()):
                return kind
        return None


def fits(vt: ValueType, value: Any, ids: Ids, players: int | None = None) -> bool:
    """Whether ``value`` (JSON or tuple form) is a value of type ``vt``.

    >>> ids = Ids({"space": frozenset({"a1", "b1"})})
    >>> fits(parse_type({"list": "space"}), ("a1", "b1"), ids), fits(parse_type("space"), "c9", ids)
    (True, False)
    """
    kind = vt.kind
    if kind in ID_KINDS:
        return ids.has(kind, value)
    if kind == "player":
        return type(value) is int and (players is None or 0 <= value < players)
    if kind == "number":
        return type(value) is int
    if kind == "word":
        return isinstance(value, str) and (not vt.words or value in vt.words)
    if kind == "text":
        return isinstance(value, str)
    if kind == "any":
        return True
    if kind == "one_of":
        return any(fits(t, value, ids, players) for t in vt.items)
    if not isinstance(value, (list, tuple)):
        return False
    if kind == "list":
        return all(fits(vt.items[0], v, ids, players) for v in value)
    if kind == "per_player":
        return all(v is None or fits(vt.items[0], v, ids, players) for v in value)
    return len(value) <= len(vt.items) and all(fits(t, v, ids, players) for t, v in zip(vt.items, value))


def resolve(vt: ValueType, value: Any, ids: Ids, players: int | None = None) -> ValueType:
    """The alternative of a ``one_of`` that ``value`` fits (``vt`` itself otherwise; the
    last alternative when none fits)."""
    if vt.kind != "one_of":
        return vt
    for alternative in vt.items:
        if fits(alternative, value, ids, players):
            return resolve(alternative, value, ids, players)
    return vt.items[-1]
