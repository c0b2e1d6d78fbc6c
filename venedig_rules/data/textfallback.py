"""Translations that fall back: a text the ruleset's first language has and another language
lacks is no error but a warning (``rules/text-missing``), and in play that language shows
the first language's text. So a designer who writes a new card, building or decision in
English alone can validate (``validate --strict`` fails on the warning) and play, and a
German table reads the English text, never a raw id.

The first language is the first one ``texts.yaml`` lists under ``languages:`` (English in
the bundled rulesets). What falls back: names (per kind and id), words, zone names, move and
event sentences, items' texts, score reasons, and a decision's texts (per text, and an option or done text per word).

>>> tables = {"en": {"words": {"pile": "the pile", "pool": "the pool"},
...                  "decisions": {"draw": {"prompt": "Draw?", "option": {"pile": "Pile", "pool": "Pool"}}}},
...           "de": {"words": {"pile": "der Stapel"}, "decisions": {"draw": {"option": {"pile": "Stapel"}}}}}
>>> de = with_fallback(tables, "en")["de"]
>>> de["words"], de["decisions"]["draw"]
({'pile': 'der Stapel', 'pool': 'the pool'}, {'prompt': 'Draw?', 'option': {'pile': 'Stapel', 'pool': 'Pool'}})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import Location, RulesError, TextError, TextMissingWarning

#: The sections of a language's table whose entries none needs, but one given in the first
#: language is to be translated: an item's text, a score reason.
OPTIONAL_SECTIONS = ("items", "reasons")
#: The sections of a language's table whose entries fall back one by one.
FALLBACK_SECTIONS = ("words", "zones", "moves", "events", *OPTIONAL_SECTIONS)
#: A decision's texts given per word of its value.
_BY_WORD = ("option", "done")


def first_language(data: Mapping[str, Any]) -> str:
    """The code of the ruleset's first language: the first under ``texts.yaml``
    ``languages:``, English when there is none.

    >>> first_language({"texts": {"languages": {"de": {}, "en": {}}}}), first_language({})
    ('de', 'en')
    """
    return next(iter(_mapping(_mapping(data.get("texts")).get("languages"))), "en")


def missing_text(message: str, location: Location, *, translation: bool) -> RulesError:
    """The finding of a missing text: a warning when it is a ``translation`` (a language
    other than the first lacks it, and falls back), else an error."""
    return TextMissingWarning(message, location) if translation else TextError(message, location)


def with_fallback(
    tables: Mapping[str, Mapping[str, Any]], first: str, first_names: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, dict[str, Any]]:
    """Each language's table (as read from ``texts.yaml``) with what it lacks of the
    ``first`` language's filled in; ``first_names`` are names the first language has
    besides its table's (``{kind: {id: name}}``: English names from the items' ``name``
    fields). The first language's table is returned as it is."""
    base = _mapping(tables.get(first))
    names: dict[str, dict[str, Any]] = {kind: dict(_mapping(n)) for kind, n in (first_names or {}).items()}
    for kind, entries in _mapping(base.get("names")).items():
        names.setdefault(kind, {}).update(_mapping(entries))
    out: dict[str, dict[str, Any]] = {}
    for code, table in tables.items():
        if code == first:
            out[code] = dict(table)
            continue
        merged = dict(table)
        for section in FALLBACK_SECTIONS:
            merged[section] = {**_mapping(base.get(section)), **_mapping(table.get(section))}
        own_names = _mapping(table.get("names"))
        merged["names"] = {
            kind: {**names.get(kind, {}), **_mapping(own_names.get(kind))}
            for kind in dict.fromkeys([*names, *own_names])
        }
        own_decisions = _mapping(table.get("decisions"))
        base_decisions = _mapping(base.get("decisions"))
        merged["decisions"] = {
            label: _decision(_mapping(base_decisions.get(label)), _mapping(own_decisions.get(label)))
            for label in dict.fromkeys([*base_decisions, *own_decisions])
        }
        out[code] = merged
    return out


def _decision(base: Mapping[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """A decision's texts: its own, and the first language's where it has none; an option or
    done text given per word takes the first language's for the words it lacks."""
    merged = {**base, **own}
    for key in _BY_WORD:
        mine, theirs = own.get(key), base.get(key)
        if isinstance(mine, dict) and "" not in mine and theirs is not None:
            merged[key] = {**(theirs if isinstance(theirs, dict) else {"": theirs}), **mine}
    return merged


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}
