"""What a card, building, tile, role or district does and is worth, for people
(``rules.describe_item``): its name and a text from the language's ``texts.yaml``
``items:``, looked up by the item's id, then by its type's (a card's card type), its
component's (every Venedig swamp tile: ``swamp_tile``) and its kind's (every ``district``);
the text is a template of the item's params, its type's, its other plain fields (a Venedig
card's ``building``) and the game's constants. So a designer's new card, tile or district
of a known type or component is described by that text, with its own numbers; an item no
language text describes at all is described by its ``description`` field.

>>> import venedig_rules as vr
>>> describe_item(vr.load("venedig"), "ponte", "de")["name"]
'Ponte'
>>> describe_item(vr.load("saeulen"), "councillor_4_p2")["text"]
'Take city tiles from the tops of the piles, up to 4 stones in all.'
>>> describe_item(vr.load("venedig"), "palazzo_card", "de")["text"][:35]
'Auslegen, um einen Palazzo zu bauen'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from ...data.texts import NAMED
from ...data.valuetypes import ANY
from .wording import TEXT, Typed, Wording, tables

if TYPE_CHECKING:
    from ..run.ruleset_base import RulesetBase

#: The kinds of items that are described: cards, roles (card types), buildings, tiles and
#: districts (not board connections, tracks or tile shapes).
DESCRIBED_KINDS = ("card", "card_type", "building", "tile", "district")
#: The fields of an item that hold rule code: an item with one (or whose type has one) has
#: a rule effect.
EFFECT_FIELDS = ("effect", "ability", "points", "check")


class ItemText(TypedDict):
    """An item for people: its ``name`` and what it does and is worth (``text``)."""

    name: str
    text: str


def describe_item(rules: RulesetBase, item_id: str, lang: str = "en") -> ItemText:
    """The name and text of an item (a RuleRuntimeError names the ids when it is none)."""
    item = rules.item(item_id)
    wording = Wording(rules, lang)
    kind = wording.tables.ids.kind_of(item_id)
    name = wording.name(item_id, kind=kind)
    kind_of_type = _type_of(rules, item)
    template = next((wording.lang.items[k] for k in text_keys(rules, item) if k in wording.lang.items), None)
    if template is None:
        own = item.get("description") or (kind_of_type or {}).get("description")
        return {"name": name, "text": " ".join(str(own or name).split())}
    return {"name": name, "text": wording.fill(template, _fields(rules, wording, item, kind_of_type))}


def text_keys(rules: RulesetBase, item: Mapping[str, Any]) -> list[str]:
    """The ``items:`` keys that may describe an item, nearest first: its id, its type's, its
    component's, its kind's."""
    keys = [str(item.get("id"))]
    kind_of_type = _type_of(rules, item)
    if kind_of_type is not None:
        keys.append(str(kind_of_type.get("id")))
    if isinstance(item.get("component"), str):
        keys.append(item["component"])
    kind = tables(rules).ids.kind_of(str(item.get("id")))
    if kind is not None:
        keys.append(kind)
    return keys


def is_described(rules: RulesetBase, item: Mapping[str, Any]) -> bool:
    """Whether people need a text for an item: it has a rule effect or a worth (numbers of
    its own: gold, a value, stones), or it is a district (where the scoring happens)."""
    kind = tables(rules).ids.kind_of(str(item.get("id")))
    return has_effect(rules, item) or bool(item.get("params")) or kind == "district"


def described_items(rules: RulesetBase) -> Iterator[str]:
    """The ids of every card, card type, building, tile and district people need a text
    for (:func:`is_described`), in file order."""
    for kind in DESCRIBED_KINDS:
        for file_kind, key in NAMED[kind]:
            for item in rules.items(file_kind, key):
                if isinstance(item.get("id"), str) and is_described(rules, item):
                    yield item["id"]


def has_effect(rules: RulesetBase, item: Mapping[str, Any]) -> bool:
    """Whether an item (or its type) holds rule code."""
    kind_of_type = _type_of(rules, item)
    return any(f in item for f in EFFECT_FIELDS) or (
        kind_of_type is not None and any(f in kind_of_type for f in EFFECT_FIELDS)
    )


def items_with_effects(rules: RulesetBase) -> Iterator[str]:
    """The ids of every named item (card, card type, building, tile, district, ...) with a
    rule effect, in file order."""
    for lists in NAMED.values():
        for file_kind, key in lists:
            for item in rules.items(file_kind, key):
                if isinstance(item.get("id"), str) and has_effect(rules, item):
                    yield item["id"]


def _type_of(rules: RulesetBase, item: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """A card's card type (another item of the ruleset), if it has one."""
    ident = item.get("type")
    if not isinstance(ident, str):
        return None
    for kind_of_type in rules.items("cards", "types"):
        if kind_of_type.get("id") == ident:
            return kind_of_type
    return None


def _fields(
    rules: RulesetBase, wording: Wording, item: Mapping[str, Any], kind_of_type: Mapping[str, Any] | None
) -> dict[str, Typed]:
    """The names an item's text may use: the game's constants (their default value), then
    its type's params, its own plain fields and its params, the nearer one winning."""
    fields: dict[str, Typed] = {}
    for name, spec in ((rules.data.get("game") or {}).get("constants") or {}).items():
        if isinstance(spec, dict) and "value" in spec:
            fields[name] = (spec["value"], ANY)
    for source in (kind_of_type or {}, item):
        fields.update({k: (v, ANY) for k, v in source.items() if isinstance(v, (str, int)) and k != "id"})
        fields.update({k: (v, ANY) for k, v in (source.get("params") or {}).items()})
    # a card type itself: a param its cards hold reads as their range (3 to 6)
    ranges: dict[str, list[int]] = {}
    for card in rules.items("cards", "cards"):
        if card.get("type") == item.get("id"):
            for k, v in (card.get("params") or {}).items():
                if type(v) is int and k not in fields:
                    ranges.setdefault(k, []).append(v)
    for k, values in ranges.items():
        low, high = min(values), max(values)
        shown = wording.engine("range", first=(str(low), TEXT), last=(str(high), TEXT))
        fields[k] = (low, ANY) if low == high else (shown, TEXT)
    return fields
