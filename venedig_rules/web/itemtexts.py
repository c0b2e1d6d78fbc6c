"""Which items a page shows, for their texts on hover or tap: every card, building, tile or
district whose ``rules.describe_item`` says more than its name, found by its name in the texts
the page carries (options, summary, log). Only names already in those texts are looked up, and
a page's ``items`` are keyed by name, not by id (a name can be a card's, its type's and a
tile's: the id a page would pick could be one another seat holds in secret), so they tell
nothing the seat's texts do not; an item's text is the rules'.

>>> import venedig_rules as vr
>>> rules = vr.load("venedig")
>>> found = items_named(rules, "en", ["p0 lays out 2 Basilica cards", "C7 Palazzo"])
>>> [item["name"] for item in found]
['Basilica card', 'Palazzo']
>>> found[1]["text"][:31]
'Needs 3 cards and 2 spaces. 1 p'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from ..data.texts import NAMED
from ..engine.ruleset import Ruleset
from ..engine.seat.itemtext import ItemText
from ..errors import RuleRuntimeError


class ItemNames(NamedTuple):
    """The items of a ruleset that have a text in a language, and one pattern that finds their
    names in a text (the longest name first; a plural's ending belongs to the name)."""

    texts: dict[str, ItemText]
    by_name: dict[str, str]
    pattern: re.Pattern[str] | None


def item_names(rules: Ruleset, lang: str) -> ItemNames:
    """The described items of ``rules`` in ``lang`` (built once per ruleset and language)."""
    built: ItemNames = rules.derived(f"web.items.{lang}", lambda _: _build(rules, lang))
    return built


def items_named(rules: Ruleset, lang: str, texts: Iterable[str]) -> list[ItemText]:
    """``[{name, text}]`` of the items whose names occur in ``texts``, each once, in the order
    they first occur."""
    names = item_names(rules, lang)
    if names.pattern is None:
        return []
    found: dict[str, ItemText] = {}
    for text in texts:
        for match in names.pattern.finditer(text):
            name = match.group(1)
            if name not in found:
                found[name] = names.texts[names.by_name[name]]
    return list(found.values())


def _build(rules: Ruleset, lang: str) -> ItemNames:
    texts: dict[str, ItemText] = {}
    by_name: dict[str, str] = {}
    for lists in NAMED.values():
        for file_kind, key in lists:
            for item in rules.items(file_kind, key):
                ident = item.get("id")
                if not isinstance(ident, str) or ident in texts:
                    continue
                try:
                    described = rules.describe_item(ident, lang)
                except RuleRuntimeError:  # a list of shapes or tracks that are no items
                    continue
                name, text = described["name"].strip(), described["text"].strip()
                if not name or not text or text == name or name in by_name:
                    continue  # nothing to tell beyond the name; or told already (a card and its type)
                texts[ident] = described
                by_name[name] = ident
    if not by_name:
        return ItemNames(texts, by_name, None)
    names = sorted(by_name, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in names) + r")\w*")
    return ItemNames(texts, by_name, pattern)
