"""Checks of the grammar of the texts (``rules/text``, located): a case or number after a
format that takes none or is unknown (``{from:the.dative}``), and a noun without the
gender its language needs where a template asks for its article (``{building:a.nom}`` in
German with a building named ``Casa`` and no ``gender``).

>>> from venedig_rules.data.templates import parse_template
>>> p = parse_template("{to:the.dativ}").placeholders[0]
>>> mods_problem(p, ZONE)
"asks for 'dativ', which is no case or number (did you mean 'dat'?); expected nom, acc, dat, gen, one or other"
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError, TextError, did_you_mean
from .templates import Placeholder
from .texts import ARTICLE_FORMATS, CASES, NAMED, NUMBERS, engine_defaults
from .valuetypes import ValueType
from .yamlsource import PositionMap, pointer

#: The type of a template field that holds a state variable's name (a move's ``from`` and
#: ``to``): text the engine makes, but a noun the template may decline.
ZONE = ValueType("zone")
#: The kinds of thing a move's ``item`` may be, whose names need genders when the move's
#: sentence asks for the item's article.
MOVED_KINDS = ("card", "card_type", "tile", "building")
#: The kinds named by proper names, which take no article (``aus Cannaregio``).
PROPER_KINDS = ("district", "space")


def mods_problem(p: Placeholder, vt: ValueType) -> str:
    """What is wrong with a placeholder's case and number (``""`` when nothing)."""
    fmt = p.format or "name"
    if vt.kind == "zone" and fmt not in ARTICLE_FORMATS:
        return f"formats place {p.field!r} as {fmt!r}; a place takes {', '.join(ARTICLE_FORMATS)}"
    if not p.mods:
        return ""
    if fmt == "of" and (len(p.mods) > 1 or p.mods[0] not in CASES):
        return f"gives format 'of' {'.'.join(p.mods)}; it takes one case (of.acc=...), its number is the count's"
    if fmt not in (*ARTICLE_FORMATS, "of"):
        return (
            f"gives format {fmt!r} a case or number ({'.'.join(p.mods)}); "
            f"only {', '.join(ARTICLE_FORMATS)} and of take one"
        )
    for mod in p.mods:
        if mod not in CASES and mod not in NUMBERS:
            known = (*CASES, *NUMBERS)
            return (
                f"asks for {mod!r}, which is no case or number{did_you_mean(mod, known)}; "
                f"expected {', '.join(known[:-1])} or {known[-1]}"
            )
    if sum(m in CASES for m in p.mods) > 1 or sum(m in NUMBERS for m in p.mods) > 1:
        return f"asks for {'.'.join(p.mods)}: at most one case and one number"
    if fmt == "plural" and "one" in p.mods:
        return "asks for the plural and for one at once"
    return ""


@dataclass(frozen=True)
class ArticleNeed:
    """A placeholder that asks for an article: where its template is, and its field's type."""

    ptr: str
    placeholder: Placeholder
    vt: ValueType


def needs_article(p: Placeholder) -> bool:
    """Whether a placeholder asks for an article or a case, which a gendered language can
    only give a noun with a gender (an ``a`` without a case may use an old ``a`` form)."""
    return p.format in ("the", "a") or (p.format in ARTICLE_FORMATS and any(m in CASES for m in p.mods))


def gender_problems(data: Mapping[str, Any], positions: PositionMap, needs: list[ArticleNeed]) -> Iterator[RulesError]:
    """A noun without a gender (or with one its language lacks) where a template of that
    language asks for its article; once per noun, located at the noun."""
    tables = _mapping(_mapping(data.get("texts")).get("languages"))
    told: set[tuple[str, ...]] = set()
    for need in needs:
        code = need.ptr.split("/")[3] if need.ptr.startswith("/texts/languages/") else ""
        genders = _genders(code, _mapping(tables.get(code)))
        if not genders:
            continue
        for where, entry, what in _nouns_of(need, _mapping(tables.get(code)), code):
            if where in told:
                continue
            gender = entry.get("gender") if isinstance(entry, dict) else None
            if gender in genders or (_old_a_will_do(need.placeholder, entry) and gender is None):
                continue
            told.add(where)
            ptr = "/".join(where)
            template = need.ptr.split("/", 4)[-1].replace("~1", "/").replace("~0", "~")
            if gender is not None:
                continue  # told by unknown_genders
            yield TextError(
                f"{what} has no gender, but the text {template!r} asks for its article "
                f"({{{need.placeholder.field}:{need.placeholder.format}"
                f"{''.join('.' + m for m in need.placeholder.mods)}}}); expected "
                f"{{one: ..., other: ..., gender: {'|'.join(genders)}}}",
                positions.at(ptr),
            )


def unknown_genders(data: Mapping[str, Any], positions: PositionMap) -> Iterator[RulesError]:
    """A noun whose gender its language does not have (``gender: x``), located at it."""
    tables = _mapping(_mapping(data.get("texts")).get("languages"))
    for code, table in tables.items():
        genders = _genders(str(code), _mapping(table))
        for where, entry in _every_noun(_mapping(table)):
            gender = _mapping(entry).get("gender")
            if gender is not None and gender not in genders:
                known = f"one of {', '.join(genders)}" if genders else f"none: {code} has no genders"
                yield TextError(
                    f"the {code} noun {'/'.join(where)} has gender {gender!r}{did_you_mean(str(gender), genders)}; "
                    f"expected {known}",
                    positions.at(pointer("/".join(("", "texts", "languages", _escape(str(code)), *where)), "gender")),
                )


def _every_noun(table: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], Any]]:
    for kind, entries in _mapping(table.get("names")).items():
        yield from ((("names", _escape(kind), _escape(i)), e) for i, e in _mapping(entries).items())
    yield from ((("words", _escape(w)), e) for w, e in _mapping(table.get("words")).items())
    for var, zone in _mapping(table.get("zones")).items():
        for key in ("name", "all", "hidden"):
            yield ("zones", _escape(var), key), _mapping(zone).get(key)


def _nouns_of(need: ArticleNeed, table: Mapping[str, Any], code: str) -> Iterator[tuple[tuple[str, ...], Any, str]]:
    """(pointer parts, entry, what) of every noun a placeholder may tell."""
    base = ("", "texts", "languages", code)
    kinds = need.vt.scalars()
    if "any" in kinds and need.placeholder.field == "item" and "/moves/" in need.ptr:
        kinds = set(MOVED_KINDS)
    names = _mapping(table.get("names"))
    for kind in sorted(kinds & set(NAMED) - set(PROPER_KINDS)):
        for ident, entry in _mapping(names.get(kind)).items():
            yield (*base, "names", kind, _escape(ident)), entry, f"the {code} name of {kind} {ident!r}"
    words = _mapping(table.get("words"))
    for word in need.vt.all_words() if "word" in kinds else ():
        if word in words:
            yield (*base, "words", _escape(word)), words[word], f"the {code} word {word!r}"
    if need.vt.kind == "zone" and "/moves/" in need.ptr:
        key = need.ptr.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
        parts = key.split(">")
        var = parts[0] if need.placeholder.field == "from" else parts[-1]
        zone = _mapping(_mapping(table.get("zones")).get(var))
        if zone:
            yield (*base, "zones", _escape(var), "name"), zone.get("name"), f"the {code} name of state variable {var!r}"


def _old_a_will_do(p: Placeholder, entry: Any) -> bool:
    """An ``{x:a}`` in the accusative takes a name's written ``a`` form, or a name written as
    a string as it is, as before genders (a designer's variant may name a card so)."""
    old_form = isinstance(entry, str) or (isinstance(entry, dict) and "a" in entry)
    return p.format == "a" and all(m in ("acc", "one") for m in p.mods) and old_form


def _genders(code: str, table: Mapping[str, Any]) -> tuple[str, ...]:
    grammar = {**_mapping(_mapping(engine_defaults().get(code)).get("grammar")), **_mapping(table.get("grammar"))}
    return tuple(str(g) for g in grammar.get("genders") or ())


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}
