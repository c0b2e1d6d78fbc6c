"""The state changes the human log tells: a seat's view of each state variable, followed
change by change, and the sentence of a change the language's ``texts.yaml`` ``changes:``
words (``gold_tiles+``: ``p0 takes a 2-gold swamp tile``; ``purse-``: ``p1 pays 1 coin``).

A change event holds the new value only; what it added or took away is found against the
value the seat saw before (or the variable's ``start`` in ``game.yaml``). A change no
sentence words is bookkeeping and stays untold; so does a shuffle.

>>> import venedig_rules as vr
>>> from venedig_rules.engine.seat.wording import Wording
>>> rules = vr.load("rialto")
>>> told = ToldChanges(rules, Wording(rules))
>>> told.see({"type": "change", "var": "purse", "value": 3, "why": "+=", "index": 2}).text
'p2 takes 3 coins'
>>> told.see({"type": "change", "var": "purse", "value": 2, "why": "-=", "index": 2}).text
'p2 pays 1 coin'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...data.valuetypes import ValueType
from ..run.views import is_redacted
from .wording import NUMBER, PLAYER, TEXT, Typed, Wording

if TYPE_CHECKING:
    from ..run.ruleset_base import RulesetBase


@dataclass(frozen=True)
class ToldChange:
    """A change the log tells: its sentence, whose part changed (a seat, else None) and by
    how many (so that a rule event that tells the same number is not told twice)."""

    text: str
    player: int | None
    n: int
    numeric: bool


#: How many checkpoints a seat's log keeps per language: those of the cursors asked last
#: (the pages that follow a table ask since one cursor or a few).
KEPT_CHECKPOINTS = 4


class Seen:
    """A seat's view of the followed variables after some of its events: a checkpoint kept
    on the seat's log (:class:`~.logs.SeatLog`, by that count of events), so that a log asked
    since a later cursor starts from it. Never changed once made (a clone's log shares it);
    an undo that takes back events it had seen drops it."""

    __slots__ = ("parts", "whole")

    def __init__(self, whole: dict[str, Any], parts: dict[str, dict[Any, Any]]):
        self.whole, self.parts = _copied(whole, parts)

    def copied(self) -> tuple[dict[str, Any], dict[str, dict[Any, Any]]]:
        """Its values in new mappings, to be changed."""
        return _copied(self.whole, self.parts)


class ToldChanges:
    """One seat's view of the state variables, and the sentences of their changes."""

    def __init__(self, rules: RulesetBase, wording: Wording):
        self.wording = wording
        self.templates = wording.lang.changes
        self.state: Mapping[str, Any] = (rules.data.get("game") or {}).get("state") or {}
        self.whole: dict[str, Any] = {}
        self.parts: dict[str, dict[Any, Any]] = {}
        #: the variables a sentence tells: only they are followed
        self.followed = frozenset(key.rstrip("+-") for key in self.templates)

    def value(self, var: str, index: Any = None) -> Any:
        """The value of ``var`` (its part ``index``) as the seat saw it last."""
        parts = self.parts.get(var, {})
        if index is not None and index in parts:
            return parts[index]
        if var in self.whole:
            whole = self.whole[var]
            if index is None:
                return whole
            if isinstance(whole, (list, tuple)) and type(index) is int and 0 <= index < len(whole):
                return whole[index]
            if isinstance(whole, Mapping):
                return whole.get(index)
            return None
        start = (self.state.get(var) or {}).get("start")
        return start if index is None or not isinstance(start, (list, dict)) else None

    def see(self, event: Mapping[str, Any], tell: bool = True) -> ToldChange | None:
        """Take in a change event: its sentence when the language tells it (and ``tell``:
        the changes before a log's first entry are only followed)."""
        var = str(event.get("var"))
        if var not in self.followed:
            return None
        index, new = event.get("index"), event.get("value")
        old = self.value(var, index)
        self._store(var, index, new)
        if event.get("why") == "shuffle" or not tell:
            return None
        return self.told(var, index, old, new)

    def follow(self, events: Sequence[Mapping[str, Any]], end: int, kept: dict[int, Seen] | None = None) -> None:
        """Take in the changes and moves of ``events[:end]`` without telling them (what a
        seat saw before the entries a log is asked for). With ``kept`` (a seat log's
        checkpoints for this language, by event count), start from the last one at or
        before ``end`` and keep one at ``end``: a log asked since each new cursor follows
        only the events since the cursor before."""
        followed = self.followed
        if not followed:
            return
        start = max((at for at in kept if at <= end), default=0) if kept is not None else 0
        if kept is not None and start in kept:
            self.whole, self.parts = kept[start].copied()
        for at in range(start, end):
            event = events[at]
            kind = event.get("type")
            if kind == "change" and event.get("var") in followed:
                self.see(event, tell=False)
            elif kind == "move" and (event["from"][0] in followed or event["to"][0] in followed):
                self.moved(event)
        if kept is not None and end > 0:  # (nothing is seen before the first event)
            kept.pop(end, None)  # the one asked last is kept longest
            kept[end] = Seen(self.whole, self.parts)
            while len(kept) > KEPT_CHECKPOINTS:
                del kept[next(iter(kept))]

    def moved(self, event: Mapping[str, Any]) -> None:
        """Take in a move event: the item leaves one variable and joins another (a move is
        told as a move, but the next change of either is told against what it left)."""
        item = event.get("item")
        (src, i), (dst, j) = event["from"], event["to"]
        if src in self.followed:
            self._store(src, i, _without(self.value(src, i), item))
        if dst in self.followed:
            self._store(dst, j, _with(self.value(dst, j), item))

    def _store(self, var: str, index: Any, value: Any) -> None:
        if index is None:
            self.whole[var] = value
            self.parts.pop(var, None)
        else:
            self.parts.setdefault(var, {})[index] = value

    def told(self, var: str, index: Any, old: Any, new: Any) -> ToldChange | None:
        """The sentence of ``var`` (part ``index``) going from ``old`` to ``new``, if any."""
        grew, shrank, n, items = _difference(old, new)
        keys = [f"{var}+"] if grew else [f"{var}-"] if shrank else []
        template = next((self.templates[k] for k in [*keys, var] if k in self.templates), None)
        reordered = n == 0 and isinstance(new, (list, tuple, dict))  # no item came or went
        emptied = new is None and not shrank  # a value gone to nothing tells nothing new
        if template is None or old == new or reordered or emptied:
            return None
        w = self.wording
        fields: dict[str, Typed] = {"n": (n, NUMBER), "item": (self.items_text(var, items, n), TEXT)}
        fields["value"] = (new, w.state_type(var))
        if type(index) is int:
            fields["player"] = (index, PLAYER)
        elif isinstance(index, str):
            fields["space"] = (index, ValueType("space"))
        player = index if type(index) is int else None
        return ToldChange(w.fill(template, fields), player, n, type(new) is int)

    def current(self, var: str) -> str | None:
        """The sentence of ``var``'s present value (the setup tells who begins)."""
        template = self.templates.get(var)
        if template is None:
            return None
        return self.wording.fill(template, {"value": (self.value(var), self.wording.state_type(var))})

    def items_text(self, var: str, items: list[Any] | None, n: int) -> str:
        """What came or went, in words: ``a 2-gold swamp tile``, ``3 cards`` (hidden)."""
        w = self.wording
        if items is None:  # hidden: only how many
            return counted_hidden(w, var, n)
        return listed(w, items, w.zone_kind(var))


def listed(wording: Wording, items: list[Any], kind: str | None = None) -> str:
    """Items in words: each with its article when no two are alike (``a Casa card and a
    Ponte card``), else counted (``2 Casa cards and 1 Ponte card``)."""
    known = [i for i in items if i is not None]
    if all(isinstance(i, str) for i in known) and len(set(known)) == len(known):
        return wording.join([wording.indefinite(i, kind) for i in known])
    return wording.counted(known, kind)


def counted_hidden(wording: Wording, var: str, n: int) -> str:
    """``n`` hidden items of state variable ``var``: ``a card``, ``3 cards``."""
    hidden = wording.hidden_item(var)
    if n == 1 and hidden is not None:
        return hidden
    zone = wording.lang.zones.get(var)
    if zone is not None and zone.hidden_other is not None:
        return wording.engine("count", n=(n, NUMBER), name=(zone.hidden_other, TEXT))
    return wording.hidden_many(n, var)


def _difference(old: Any, new: Any) -> tuple[bool, bool, int, list[Any] | None]:
    """(grew, shrank, by how much, the items that came or went: None when hidden)."""
    if old is None and type(new) is int:
        old = 0  # a track without a start in the state: a score track starts at nothing
    if type(old) is int and type(new) is int:
        return new > old, new < old, abs(new - old), []
    if _count(old) is None or _count(new) is None:
        return False, False, 0, []
    if is_redacted(old) or is_redacted(new) or not (_plain(old) and _plain(new)):
        before, after = _count(old) or 0, _count(new) or 0
        return after > before, after < before, abs(after - before), None
    before_items, after_items = Counter(map(_key, old or ())), Counter(map(_key, new or ()))
    came, went = after_items - before_items, before_items - after_items
    if went and not came:
        return False, True, sum(went.values()), list(went.elements())
    # items came (and maybe others went: the plain sentence tells what came)
    return bool(came) and not went, False, sum(came.values()), list(came.elements())


def _count(value: Any) -> int | None:
    """How many items a list value holds (a hidden one too), None for no list."""
    if isinstance(value, dict) and is_redacted(value):
        return int(value.get("hidden", 0))
    if isinstance(value, (list, tuple)):
        return len(value)
    return 0 if value is None else None


def _without(value: Any, item: Any) -> Any:
    """A list value with one ``item`` taken out (a hidden one: one fewer)."""
    if isinstance(value, dict) and is_redacted(value):
        return {"hidden": max(0, int(value.get("hidden", 0)) - 1)}
    if not isinstance(value, (list, tuple)) or not value:
        return value
    rest = list(value)
    if item in rest:
        rest.remove(item)
    else:  # a hidden item: one of the hidden ones, else the last
        at = next((k for k, v in enumerate(rest) if isinstance(v, dict)), len(rest) - 1)
        del rest[at]
    return rest


def _with(value: Any, item: Any) -> Any:
    """A list value with ``item`` added (a hidden one: one more)."""
    if isinstance(value, dict) and is_redacted(value):
        return {"hidden": int(value.get("hidden", 0)) + 1}
    if value is None or isinstance(value, (list, tuple)):
        return [*(value or ()), item]
    return value


def _copied(
    whole: dict[str, Any], parts: dict[str, dict[Any, Any]]
) -> tuple[dict[str, Any], dict[str, dict[Any, Any]]]:
    """New mappings of the same values (a value is replaced, never changed in place)."""
    return dict(whole), {var: dict(by_index) for var, by_index in parts.items()}


def _plain(value: Any) -> bool:
    """Whether a list holds no hidden item (its items can be told apart)."""
    return not any(isinstance(item, dict) for item in value or ())


def _key(item: Any) -> Any:
    return tuple(_key(i) for i in item) if isinstance(item, list) else item
