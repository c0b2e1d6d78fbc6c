"""The words of a panel: one state variable's value as a board-game site shows it, from the
ruleset's ``summary`` texts (``data.summarytexts``): counts with their noun (``3 coins``, a
zero as ``no coins``), lists by their items' names, list positions by what they stand for
(``San Polo: 2 councilmen``), seats by their names, hidden values by how many there are.

>>> import venedig_rules as vr
>>> from venedig_rules.engine.seat.wording import Wording
>>> words = PanelWords(Wording(vr.load("rialto"), "de"))
>>> words.label("purse"), words.value("purse", 0), words.value("purse", 3)
('Goldmünzen', 'keine Goldmünzen', '3 Goldmünzen')
>>> words.value("in_district", [0, 1, 0, 0, 4, 0])
'San Marco: 1 Ratsherr, San Polo: 4 Ratsherren'
>>> words.value("hand", {"hidden": 5})
'5 Karten (verdeckt)'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..data.summarytexts import PartText, SummaryTexts, summary_texts
from ..data.templates import Template
from ..data.texts import Name
from ..data.valuetypes import ANY, ID_KINDS, ValueType
from ..engine.run.ruleset_base import RulesetBase
from ..engine.run.views import is_redacted
from ..engine.seat.wording import NUMBER, TEXT, Typed, Wording

_NO_TEXT = PartText("")


@lru_cache(maxsize=4096)  # every page sorts the same space names
def natural(text: str) -> tuple[Any, ...]:
    """A key that sorts the numbers within texts by value: ``c3`` before ``c10``.

    >>> sorted(["c10", "c3", "b12"], key=natural)
    ['b12', 'c3', 'c10']
    """
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(text)))


def panel_texts(rules: RulesetBase, code: str) -> SummaryTexts:
    """The cached panel texts of a ruleset in one language."""
    return rules.derived(f"summary:{code}", lambda r: summary_texts(r.data, code))  # type: ignore[no-any-return]


class PanelWords:
    """A ruleset's panel words in the language of ``wording``."""

    def __init__(self, wording: Wording):
        self.wording = wording
        self.rules = wording.rules
        self.texts = panel_texts(wording.rules, wording.code)
        zones = self.rules.data.get("texts", {}).get("languages", {}).get(wording.code, {}).get("zones")
        self.zones: Mapping[str, Any] = zones if isinstance(zones, dict) else {}

    # -- labels --------------------------------------------------------------------------------
    def label(self, var: str) -> str:
        """The panel label of state variable ``var``: its ``summary`` label, else its zone's
        name where that names the whole variable (not one player's or space's part), without
        its article and capitalised, else its id in words ("Purse")."""
        entry = self.texts.parts.get(var)
        if entry is not None and entry.label:
            return entry.label
        zone = self.zones.get(var)
        name = zone.get("name") if isinstance(zone, dict) else None
        # a per-player or per-space zone names one player's part ("{player}'s hand"): not a label
        text = str(name) if isinstance(name, str) and "{" not in name else var.replace("_", " ")
        # a declined noun (German) names the whole variable as a string does; one player's
        # part ("{player}'s purse") is no label, as above
        whole = isinstance(name, dict) and var not in self.rules.indexed_vars
        phrase = self.wording.zone_phrase(var) if whole else None
        if phrase is not None and "{" not in str(phrase.after or ""):
            text = self.wording.grammar.phrase(phrase.noun, "none", after=phrase.after)
        first, _, rest = text.partition(" ")
        if rest and first.lower() in self.word("articles").split():
            text = rest
        return text[:1].upper() + text[1:]

    def word(self, which: str, /, **fields: Typed) -> str:
        """One of the panel's shared words, filled."""
        template = self.texts.words.get(which)
        return self.wording.fill(template, fields) if template is not None else ""

    # -- values --------------------------------------------------------------------------------
    def value(self, var: str, value: Any) -> str | None:
        """One value of ``var`` (one player's part of a per-player one) in words; None when
        the panel leaves it out (nothing there, and no text for nothing)."""
        entry = self.texts.parts.get(var, _NO_TEXT)
        if is_redacted(value):
            n = value["hidden"] if isinstance(value, dict) else 1
            return self.hidden(var, entry, n) if n else None
        keys = self.texts.keys.get(var)
        if keys is not None and isinstance(value, list):
            return self.keyed(var, entry, value, keys)
        if value is None or value is False or value == []:
            return entry.zero
        if value is True:
            return self.fill(entry.value, value=(value, ANY)) if entry.value else self.word("true")
        vt = self.kind(var)
        if type(value) is int and vt.kind != "player":
            return self.number(entry, value)
        if isinstance(value, list):
            if entry.noun is not None and entry.item is None and entry.value is None:
                return self.count(len(value), entry.noun)
            items = self.items(var, entry, value)
            if entry.value is None:
                return items
            return self.fill(entry.value, value=(items, TEXT), **self.counted(entry, len(value)))
        if entry.value is not None:
            return self.fill(entry.value, value=(value, vt))
        return self.wording.text(value, vt, var=var)

    def number(self, entry: PartText, n: int) -> str | None:
        """A number: by the part's template, else counted by its noun; a zero by the part's
        text for zero (empty: left out), else by its noun (``no coins``), else left out."""
        if n == 0:
            if entry.zero is not None:
                return entry.zero
            return self.count(0, entry.noun) if entry.noun is not None else None
        if entry.value is not None:
            return self.fill(entry.value, value=(n, NUMBER), **self.counted(entry, n))
        if entry.noun is not None:
            return self.count(n, entry.noun)
        return str(n)

    def count(self, n: int, noun: Name) -> str:
        """``3 coins``, ``1 coin``, ``no coins``."""
        if n == 0:
            return self.word("zero", name=(noun.other, TEXT))
        return self.wording.engine("count", n=(n, NUMBER), name=(noun.by_count(n), TEXT))

    def counted(self, entry: PartText, n: int) -> dict[str, Typed]:
        fields: dict[str, Typed] = {"n": (n, NUMBER)}
        fields["count"] = (self.count(n, entry.noun) if entry.noun is not None else str(n), TEXT)
        return fields

    def hidden(self, var: str, entry: PartText, n: int) -> str:
        """``n`` hidden items: ``5 cards (hidden)``, by the part's noun or the zone's name
        for a hidden item; the part's ``hidden`` template where it has one."""
        noun = entry.noun or self.hidden_noun(var)
        fields: dict[str, Typed] = {"n": (n, NUMBER)}
        if noun is not None:
            fields["count"] = (self.count(n, noun), TEXT)
        if entry.hidden is not None:
            fields.setdefault("count", (str(n), TEXT))
            return self.fill(entry.hidden, **fields)
        return self.word("hidden" if noun is not None else "hidden_n", **fields)

    def hidden_noun(self, var: str) -> Name | None:
        zone = self.zones.get(var)
        hidden = zone.get("hidden") if isinstance(zone, dict) else None
        if isinstance(hidden, dict) and "one" in hidden:
            one = str(hidden["one"])
            return Name(one, str(hidden.get("other", one)), str(hidden.get("a", one)))
        return None

    def kind(self, var: str) -> ValueType:
        """The type of one item (or scalar value) of ``var``: the kind ``of`` says, else the
        zone's, else the state variable's."""
        of = self.texts.of.get(var)
        if of is not None:
            return of
        zone = self.zones.get(var)
        kind = zone.get("of") if isinstance(zone, dict) else None
        return ValueType(str(kind)) if kind else self.wording.state_type(var)

    # -- lists ---------------------------------------------------------------------------------
    def items(self, var: str, entry: PartText, value: Sequence[Any]) -> str:
        """A list by its items: seats in order; else each item by the part's ``item``
        template or its name, equal items counted."""
        vt = self.kind(var)
        present = [v for v in value if v is not None]
        if vt.kind == "player":
            return self.wording.join([self.wording.player(v) for v in present])
        if entry.item is not None:
            texts = [self.item(entry, v, vt) for v in present]
        else:
            kind = vt.kind if vt.kind not in ("any", "number", "text") else None
            if len({str(v) for v in present}) < len(present) and all(isinstance(v, str) for v in present):
                return self.wording.counted(present, kind)
            texts = [self.wording.text(v, vt) if kind else self.wording.generic(v) for v in present]
        counts: dict[str, int] = {}
        for text in texts:
            counts[text] = counts.get(text, 0) + 1
        shown = [t if n == 1 else self.word("repeat", n=(n, NUMBER), text=(t, TEXT)) for t, n in counts.items()]
        # an item's own text may hold commas and "and": items are told apart by semicolons
        return "; ".join(shown) if entry.item is not None else self.wording.join(shown)

    def item(self, entry: PartText, value: Any, vt: ValueType, key: str | None = None) -> str:
        """One item by the part's ``item`` template: its value, name, key and (for an id of
        the ruleset) the item's own fields and params."""
        assert entry.item is not None
        fields: dict[str, Typed] = {"value": (value, vt)}
        if key is not None:
            fields["key"] = (key, TEXT)
        if type(value) is int:
            fields.update(self.counted(entry, value))
        ident = value[0] if isinstance(value, list) and value and isinstance(value[0], str) else value
        if isinstance(ident, str):
            head = vt.element(0) if isinstance(value, list) and vt.is_list else vt
            kind = head.kind if head is not None and head.kind in ID_KINDS else None
            fields["name"] = (self.wording.name(ident, kind=kind), TEXT)
            if self.wording.tables.ids.kind_of(ident) is not None:
                fields.update(self.item_fields(ident))
        return self.fill(entry.item, **fields)

    def item_fields(self, ident: str) -> dict[str, Typed]:
        data = self.rules.item(ident)
        params = data.get("params")
        plain = {**data, **(params if isinstance(params, dict) else {})}
        return {
            k: (v, ANY)
            for k, v in plain.items()
            if k not in ("id", "name")
            and (isinstance(v, (str, int)) or (isinstance(v, list) and all(isinstance(x, str) for x in v)))
        }

    def keyed(self, var: str, entry: PartText, value: Sequence[Any], keys: str) -> str | None:
        """A list whose positions stand for things (the board's districts, the seats): each
        non-empty position as ``key: value``; nothing as the part's zero."""
        names = self.key_names(keys, len(value))
        vt = self.kind(var)
        texts = []
        for name, v in zip(names, value):
            if v is None or v == 0 or v == [] or v is False:
                continue
            if entry.item is not None:
                texts.append(self.item(entry, v, vt, name))
            else:
                shown = self.count(v, entry.noun) if type(v) is int and entry.noun else self.wording.text(v, vt)
                texts.append(self.word("keyed", key=(name, TEXT), value=(shown, TEXT)))
        if texts:
            return ("; " if entry.item is not None else ", ").join(texts)
        if entry.zero is not None:
            return entry.zero
        return self.count(0, entry.noun) if entry.noun is not None else None

    def key_names(self, keys: str, n: int) -> list[str]:
        board = self.rules.board
        order: Sequence[Any] = {
            "district": list(board.regions),
            "connection": list(board.connections),
            "track": list(board.tracks),
        }.get(keys, range(n))
        if keys == "player":
            return [self.wording.player(p) for p in range(n)]
        return [self.wording.name(str(k), kind=keys) for k in order]

    # -- spaces --------------------------------------------------------------------------------
    def spaces(self, var: str, value: Mapping[str, Any], players: int) -> list[tuple[int | None, str]]:
        """The parts of a per-space variable, with whose they are: hidden tiles counted;
        flags counted; a seat's pieces counted in its own section; other values with the
        spaces holding them (``Casa: C2 and E3``)."""
        entry = self.texts.parts.get(var, _NO_TEXT)
        taken = {s: value[s] for s in sorted(value, key=natural) if value[s] is not None and value[s] is not False}
        if taken and all(is_redacted(v) for v in taken.values()):
            return [(None, self.hidden(var, entry, len(taken)))]
        vt = self.wording.state_type(var)
        out: list[tuple[int | None, str | None]] = []
        if vt.kind == "player":
            owners = list(taken.values())
            out = [(p, self.number(entry, owners.count(p))) for p in range(players)]
        elif all(v is True for v in taken.values()):
            out = [(None, self.number(entry, len(taken)))]
        elif taken:
            groups: dict[str, list[str]] = {}
            for space, v in taken.items():
                groups.setdefault(self.wording.text(v, self.kind(var)), []).append(self.wording.name(space))
            shown = "; ".join(
                self.word("keyed", key=(name, TEXT), value=(self.wording.join(where), TEXT))
                for name, where in groups.items()
            )
            out = [(None, self.fill(entry.value, value=(shown, TEXT)) if entry.value else shown)]
        return [(owner, text) for owner, text in out if text]

    def fill(self, template: Template | None, **fields: Typed) -> str:
        return self.wording.fill(template, fields) if template is not None else ""


__all__ = ["PanelWords", "natural", "panel_texts"]
