"""How a panel words a seat's position (``present.summary``), as rule data: ``texts.yaml``
``summary:`` says which state variables the panel leaves out (the board shows them better),
the kind of thing a variable's items are (``of``) and what its list positions stand for
(``keys``); each language's ``summary:`` gives every variable a short label, the noun it
counts and optional templates; ``rules/texts.yaml`` gives each language's shared words
(``no {name}``).

>>> import venedig_rules as vr
>>> texts = summary_texts(vr.load("rialto").data, "de")
>>> texts.parts["purse"].label, texts.parts["purse"].noun.other
('Goldmünzen', 'Goldmünzen')
>>> texts.keys["in_district"], "ground" in summary_texts(vr.load("saeulen").data, "en").leave_out
('district', True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError, TextError, TextMissingWarning, did_you_mean
from .templates import Template, TemplateError, parse_template
from .textcheck import LANGUAGE_NAMES
from .textfallback import first_language
from .texts import Name, engine_defaults
from .valuetypes import TypeSpecError, ValueType, parse_type
from .yamlsource import PositionMap, pointer

#: The shared words of one language's panel and the fields each may use: a count of zero
#: (``no coins``), hidden items (``5 cards (hidden)``), an item that repeats (``2 x square``, with a times sign),
#: a flag that is set, and a thing's place (``San Polo: 2 councilmen``).
WORD_FIELDS: dict[str, tuple[str, ...]] = {
    "zero": ("name",),
    "hidden": ("count", "n"),
    "hidden_n": ("n",),
    "repeat": ("n", "text"),
    "true": (),
    "keyed": ("key", "value"),
    # the articles a generated label drops ("the hands": "Hands"), space-separated
    "articles": (),
}
#: The fields of a part's templates: the value (by the kind ``of`` says), the number it
#: counts and that number with the part's noun; an item's template also its key, its name
#: and the fields of the item it names (``{arms}`` of a city tile).
PART_FIELDS: dict[str, tuple[str, ...]] = {
    "value": ("value", "n", "count"),
    "item": ("value", "n", "count", "key", "name"),
    "hidden": ("n", "count"),
}
#: Kinds a list's positions may stand for (in the board's order, or by seat).
KEY_KINDS = ("district", "connection", "track", "player")


@dataclass(frozen=True)
class PartText:
    """One state variable's words in a panel: its ``label`` (``Coins``), the ``noun`` it
    counts (``coin``/``coins``), and templates for the whole value, each item, zero and
    hidden values."""

    label: str
    noun: Name | None = None
    value: Template | None = None
    item: Template | None = None
    zero: str | None = None
    hidden: Template | None = None


@dataclass(frozen=True)
class SummaryTexts:
    """One language's panel texts of a ruleset, with the ruleset's panel structure."""

    parts: Mapping[str, PartText]
    words: Mapping[str, Template]
    leave_out: frozenset[str]
    of: Mapping[str, ValueType]
    keys: Mapping[str, str]


def summary_texts(data: Mapping[str, Any], code: str) -> SummaryTexts:
    """The panel texts of checked rule data in language ``code`` (the shared words from
    ``rules/texts.yaml`` where the ruleset gives none)."""
    texts = _mapping(data.get("texts"))
    structure = _mapping(texts.get("summary"))
    tables = _mapping(texts.get("languages"))
    own = _mapping(_mapping(tables.get(code)).get("summary"))
    # a part this language lacks falls back to the first language's, as other texts do
    first = _mapping(_mapping(tables.get(first_language(data))).get("summary"))
    parts = {**_mapping(first.get("parts")), **_mapping(own.get("parts"))}
    shared = _mapping(_mapping(engine_defaults().get(code)).get("summary"))
    words = {**_mapping(shared.get("words")), **_mapping(own.get("words"))}
    return SummaryTexts(
        parts={var: _part(entry) for var, entry in parts.items() if isinstance(entry, dict)},
        words={key: _template(text) for key, text in words.items()},
        leave_out=frozenset(str(v) for v in _list(structure.get("leave_out"))),
        of={str(k): vt for k, v in _mapping(structure.get("of")).items() if (vt := _type(v)) is not None},
        keys={str(k): str(v) for k, v in _mapping(structure.get("keys")).items()},
    )


def _part(entry: Mapping[str, Any]) -> PartText:
    noun = entry.get("noun")
    return PartText(
        label=str(entry.get("label", "")),
        noun=_name(noun) if noun is not None else None,
        value=_template(entry["value"]) if isinstance(entry.get("value"), str) else None,
        item=_template(entry["item"]) if isinstance(entry.get("item"), str) else None,
        zero=str(entry["zero"]) if isinstance(entry.get("zero"), str) else None,
        hidden=_template(entry["hidden"]) if isinstance(entry.get("hidden"), str) else None,
    )


def check(data: Mapping[str, Any], positions: PositionMap) -> Iterator[RulesError]:
    """Every problem of the panel texts: a label, leave-out, ``of`` or ``keys`` for a state
    variable the game does not have; a type or key kind written wrongly; a template that
    does not parse or names a field its place does not have; a shared word the panel does
    not use."""
    texts = _mapping(data.get("texts"))
    tracks = [t.get("id") for t in _list(_mapping(data.get("scoring")).get("tracks")) if isinstance(t, dict)]
    variables = {str(v) for v in _mapping(_mapping(data.get("game")).get("state"))} | {
        t for t in tracks if isinstance(t, str)
    }
    yield from _structure(_mapping(texts.get("summary")), positions, variables)
    yield from _translations(_mapping(texts.get("languages")), first_language(data), positions)
    fields_of_items = _item_fields(data)
    for code, table in _mapping(texts.get("languages")).items():
        section = pointer(pointer("/texts/languages", code), "summary")
        own = _mapping(_mapping(table).get("summary"))
        for var, entry in _mapping(own.get("parts")).items():
            ptr = pointer(pointer(section, "parts"), var)
            if var not in variables:
                yield _unknown(var, variables, positions.key_at(ptr))
                continue
            for key, allowed in PART_FIELDS.items():
                extra = fields_of_items if key == "item" else frozenset()
                yield from _template_problems(
                    _mapping(entry).get(key), pointer(ptr, key), positions, {*allowed, *extra}, f"the {key} of {var!r}"
                )
        for key, text in _mapping(own.get("words")).items():
            ptr = pointer(pointer(section, "words"), key)
            if key not in WORD_FIELDS:
                yield TextError(
                    f"panel word {key!r} is not one the panel uses{did_you_mean(key, WORD_FIELDS)}; "
                    f"expected one of {', '.join(WORD_FIELDS)}",
                    positions.key_at(ptr),
                )
                continue
            yield from _template_problems(text, ptr, positions, set(WORD_FIELDS[key]), f"panel word {key!r}")


def _structure(structure: Mapping[str, Any], positions: PositionMap, variables: set[str]) -> Iterator[RulesError]:
    """The language-free part: ``leave_out``, ``of`` and ``keys`` name declared variables,
    ``of`` a type, ``keys`` a kind of key."""
    for i, var in enumerate(_list(structure.get("leave_out"))):
        if var not in variables:
            yield _unknown(var, variables, positions.at(f"/texts/summary/leave_out/{i}"))
    for key in ("of", "keys"):
        for var, spec in _mapping(structure.get(key)).items():
            ptr = pointer(f"/texts/summary/{key}", var)
            if var not in variables:
                yield _unknown(var, variables, positions.key_at(ptr))
            elif key == "keys" and spec not in KEY_KINDS:
                yield TextError(
                    f"the positions of {var!r} stand for {spec!r}{did_you_mean(str(spec), KEY_KINDS)}; "
                    f"expected one of {', '.join(KEY_KINDS)}",
                    positions.at(ptr),
                )
            elif key == "of":
                try:
                    parse_type(spec)
                except TypeSpecError as exc:
                    yield TextError(f"the items of {var!r}: {exc.message}", positions.at(ptr + exc.path))


def _translations(tables: Mapping[str, Any], first: str, positions: PositionMap) -> Iterator[RulesError]:
    """A part the first language gives and another lacks: a warning (it falls back)."""
    given = _mapping(_mapping(_mapping(tables.get(first)).get("summary")).get("parts"))
    at = pointer(pointer(pointer("/texts/languages", first), "summary"), "parts")
    for code, table in tables.items():
        if code == first:
            continue
        own = _mapping(_mapping(_mapping(table).get("summary")).get("parts"))
        for var in given:
            if var not in own:
                yield TextMissingWarning(
                    f"summary part {var!r} has a {_language(first)} text but no {_language(code)} one; expected "
                    f"languages/{code}/summary/parts/{var} in texts.yaml",
                    positions.key_at(pointer(at, var)),
                )


def _language(code: str) -> str:
    return f"{LANGUAGE_NAMES.get(code, code)} ({code})"


def _unknown(var: Any, variables: set[str], where: Any) -> RulesError:
    return TextError(
        f"panel text for state variable {var!r}, which game.yaml state does not declare"
        f"{did_you_mean(str(var), variables)}",
        where,
    )


def _template_problems(
    text: Any, ptr: str, positions: PositionMap, allowed: set[str], what: str
) -> Iterator[RulesError]:
    if not isinstance(text, str):
        return
    try:
        template = parse_template(text)
    except TemplateError as exc:
        yield TextError(f"{what}: {exc.message}", positions.in_scalar(ptr, exc.offset))
        return
    for p in template.placeholders:
        if p.field not in allowed:
            yield TextError(
                f"{what} names field {p.field!r}, which it does not have{did_you_mean(p.field, allowed)}; "
                f"fields: {', '.join(sorted(allowed))}",
                positions.in_scalar(ptr, p.offset + 1),
            )


def _item_fields(data: Mapping[str, Any]) -> frozenset[str]:
    """The plain fields and params of every card, tile and building: an item template may
    name them."""
    out: set[str] = set()
    for kind, key in (("cards", "cards"), ("cards", "types"), ("tiles", "tiles"), ("buildings", "buildings")):
        for item in _list(_mapping(data.get(kind)).get(key)):
            if isinstance(item, dict):
                out |= {str(k) for k in item}
                out |= {str(k) for k in _mapping(item.get("params"))}
    return frozenset(out)


def _type(spec: Any) -> ValueType | None:
    try:
        return parse_type(spec)
    except ValueError:  # reported by the checks
        return None


def _name(value: Any) -> Name:
    if isinstance(value, dict):
        one = str(value.get("one", ""))
        return Name(one, str(value.get("other", one)), str(value.get("a", one)))
    return Name(str(value), str(value), str(value))


def _template(text: Any) -> Template:
    try:
        return parse_template(str(text))
    except TemplateError:  # reported by the checks; shown as written
        return Template(str(text), (str(text),))


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
