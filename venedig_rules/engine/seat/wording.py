"""Words for people, from a ruleset's text tables: names of things, typed values and their
``refs``, filled templates, and a sentence per event (the narrator).

A :class:`Wording` speaks one language of one ruleset to one table of players (``p0``,
``p1``, ... unless ``names`` are given). Values are named by their declared type
(``game.yaml`` ``decisions`` and ``events``); a value a view has redacted is named as
hidden (``a card``).

>>> import venedig_rules as vr
>>> w = Wording(vr.load("venedig"), "en")
>>> w.event({"type": "drain", "player": 1, "space": "f11"})
'p1 drains F11'
>>> Wording(vr.load("venedig"), "de", names=["Anna", "Ben"]).event({"type": "drain", "player": 1, "space": "f11"})
'Ben legt F11 trocken'
>>> w.refs(["casa_card", "ponte_card"], w.decision_type("play"))
[{'kind': 'card', 'id': 'casa_card', 'name': 'Casa card'}, {'kind': 'card', 'id': 'ponte_card', 'name': 'Ponte card'}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from ...data.templates import Placeholder, Template, TemplateError, parse_template
from ...data.texts import NAMED, Declarations, Language, Name, declarations, languages
from ...data.valuetypes import ANY, ID_KINDS, Ids, ValueType, resolve
from ..run.views import is_redacted
from .grammar import ARTICLE_FORMATS, CASES, DEFAULT_CASE, Grammar

if TYPE_CHECKING:
    from ..run.ruleset_base import RulesetBase

PLAYER = ValueType("player")
NUMBER = ValueType("number")
TEXT = ValueType("text")
#: Value types of the DSL's state variable types.
_STATE_TYPES = {"player": PLAYER, "int": NUMBER}
#: Lists longer than this are told by their length in ``change`` sentences.
LONG_LIST = 6
#: A value with its type, as templates are filled with.
Typed = tuple[Any, ValueType]


@dataclass(frozen=True)
class Phrase:
    """A noun a template may decline (a zone's name, a hidden item): the noun, the text
    after it (filled), and the article and case it takes in a template that gives none."""

    noun: Name
    after: str
    article: str = "the"
    case: str = "nom"


class RefView(TypedDict):
    """A thing a value refers to: ``kind`` (``space``, ``card``, ``player``, ``number``, ...),
    its ``id`` (an id of the ruleset, a seat or a number) and its ``name`` for people."""

    kind: str
    id: str | int
    name: str


@dataclass(frozen=True)
class Tables:
    """A ruleset's text tables, declarations and ids, made once per ruleset."""

    languages: Mapping[str, Language]
    declarations: Declarations
    ids: Ids
    space_order: Mapping[str, int]


def tables(rules: RulesetBase) -> Tables:
    """The cached :class:`Tables` of a ruleset."""
    return rules.derived("wording", _build_tables)  # type: ignore[no-any-return]


def _build_tables(rules: RulesetBase) -> Tables:
    by_kind: dict[str, frozenset[str]] = {"space": frozenset(rules.space_ids)}
    for kind, lists in {**NAMED, "component": (("components", "components"),)}.items():
        by_kind[kind] = frozenset(
            item["id"]
            for file_kind, key in lists
            for item in rules.items(file_kind, key)
            if isinstance(item.get("id"), str)
        )
    return Tables(
        languages(rules.data),
        declarations(rules.data),
        Ids(by_kind),
        {s: i for i, s in enumerate(rules.space_ids)},
    )


def language_codes(rules: RulesetBase) -> list[str]:
    """The languages a ruleset speaks (``en`` first).

    >>> import venedig_rules as vr
    >>> language_codes(vr.load("rialto"))
    ['en', 'de']
    """
    return sorted(tables(rules).languages, key=lambda code: (code != "en", code))


class Wording:
    """Texts of one ruleset in one language, for a table of players.

    ``names`` name the seats (``["Ada", "Ben"]``); without them seats are ``p0``, ``p1``, ...
    (the engine text ``player``). A ValueError names the languages when ``lang`` is not one.
    """

    def __init__(self, rules: RulesetBase, lang: str = "en", names: Sequence[str] | None = None):
        t = tables(rules)
        if lang not in t.languages:
            raise ValueError(
                f"{rules.name} has no texts in {lang!r}; its languages: {', '.join(language_codes(rules))}"
            )
        self.rules = rules
        self.tables = t
        self.lang = t.languages[lang]
        self.code = lang
        self.names = tuple(names) if names is not None else None
        self.grammar = Grammar(self.lang.grammar)

    # -- names -----------------------------------------------------------------------------
    def player(self, seat: Any) -> str:
        """A seat's name (``p1`` or the name given)."""
        if type(seat) is int:
            if self.names is not None and 0 <= seat < len(self.names):
                return self.names[seat]
            return self.engine("player", seat=(seat, NUMBER))
        return self.generic(seat)

    def name(self, ident: str, count: int = 1, kind: str | None = None) -> str:
        """The name of an id of ``kind`` (found from the id when not given; a board space
        without a name is its id in capitals), or of a word."""
        found = self._found(ident, kind)
        if found is not None:
            return self.grammar.phrase(found, found.article or "none", "nom", "one" if count == 1 else "other")
        if ident in self.tables.space_order:
            return ident.upper()
        return ident

    def indefinite(self, ident: str, kind: str | None = None) -> str:
        """An id's or word's name with its indefinite article (``a Casa card``)."""
        found = self._found(ident, kind)
        return self.grammar.phrase(found, "a", "acc") if found is not None else self.name(ident, kind=kind)

    def noun(self, ident: str, kind: str | None = None) -> Name | None:
        """The name of an id of ``kind`` or of a word, with its gender where given."""
        return self._found(ident, kind)

    def _found(self, ident: str, kind: str | None) -> Name | None:
        kind = kind or self.tables.ids.kind_of(ident)
        found = self.lang.names.get(kind, {}).get(ident) if kind else None
        return found if found is not None else self.lang.words.get(ident)

    def word(self, word: str, count: int = 1) -> str:
        """A word's text (an id's name when it is no word)."""
        found = self.lang.words.get(word)
        if found is None:
            return self.name(word, count)
        return self.grammar.phrase(found, found.article or "none", "nom", "one" if count == 1 else "other")

    def engine(self, key: str, **fields: Typed) -> str:
        """One of the engine's texts, filled."""
        template = self.lang.engine.get(key)
        return self.fill(template, fields) if template is not None else key

    def decision_type(self, label: str) -> ValueType:
        """The declared type of a decision's options (``any`` when undeclared)."""
        decl = self.tables.declarations.decisions.get(label)
        return decl.value if decl is not None else ANY

    # -- values ----------------------------------------------------------------------------
    def text(self, value: Any, vt: ValueType = ANY, hidden: str | None = None, var: str | None = None) -> str:
        """A value as words, by its type; ``hidden`` names a redacted item (``a card``),
        the zone of state variable ``var`` several (``3 hidden cards``); no player is
        ``nobody``."""
        if value is None:
            return self.engine("nobody" if vt.kind == "player" else "none")
        if is_redacted(value):
            if isinstance(value, dict):
                return self.hidden_many(value["hidden"], var)
            return hidden or self.engine("hidden_one")
        vt = resolve(vt, value, self.tables.ids)
        kind = vt.kind
        if kind in ID_KINDS or kind == "word":
            if not isinstance(value, str):
                return self.generic(value)
            return self.word(value) if kind == "word" else self.name(value, kind=kind)
        if kind == "player":
            return self.player(value)
        if kind in ("number", "text"):
            return str(value)
        if kind == "any" or not isinstance(value, (list, tuple)):
            return self.generic(value)
        if kind == "per_player":
            return self.join(
                [
                    self.engine("reveal_value", player=(p, PLAYER), value=(v, vt.items[0]))
                    for p, v in enumerate(value)
                    if v is not None
                ]
            )
        return self.join([self.text(v, vt.element(i) or ANY) for i, v in enumerate(value)])

    def generic(self, value: Any) -> str:
        """A value without a type: a known id or word by its name, lists item by item."""
        if value is None:
            return self.engine("none")
        if isinstance(value, bool):
            return self.engine("yes" if value else "no")
        if isinstance(value, str):
            return self.name(value)
        if isinstance(value, (list, tuple)):
            if len(value) == 2 and self.tables.ids.kind_of(value[0]) and self.tables.ids.kind_of(value[1]) is None:
                # a thing and what goes with it ([building, its master builder]): "Palazzo: p1"
                return self.engine("labelled", name=(self.name(value[0]), TEXT), value=(self.generic(value[1]), TEXT))
            return self.join([self.generic(v) for v in value])
        if is_redacted(value):
            return self.text(value)
        return str(value)

    def join(self, parts: Sequence[str]) -> str:
        """``A, B and C``."""
        if not parts:
            return self.engine("nothing")
        if len(parts) == 1:
            return parts[0]
        return f"{', '.join(parts[:-1])} {self.engine('and')} {parts[-1]}"

    def counted(self, items: Sequence[Any], kind: str | None = None) -> str:
        """``2 Casa cards and 1 Ponte card``: equal items counted, in first-seen order (empty
        slots, ``None``, left out), named as ids of ``kind`` when given."""
        counts: dict[Any, int] = {}
        for item in items:
            if item is None:  # an empty slot is no item
                continue
            key = tuple(item) if isinstance(item, list) else item
            counts[key] = counts.get(key, 0) + 1
        return self.join(
            [
                self.engine(
                    "count",
                    n=(n, NUMBER),
                    name=(self.name(i, n, kind) if isinstance(i, str) else self.generic(i), TEXT),
                )
                for i, n in counts.items()
            ]
        )

    def refs(self, value: Any, vt: ValueType = ANY) -> list[RefView]:
        """What a value refers to, typed: ``{"kind", "id", "name"}`` per thing, in order."""
        if value is None or is_redacted(value):
            return []
        vt = resolve(vt, value, self.tables.ids)
        kind = vt.kind
        if kind == "any":
            kind = self.tables.ids.kind_of(value) or ("list" if isinstance(value, (list, tuple)) else "")
            if kind == "list":
                return [r for v in value for r in self.refs(v)]
        if kind in ID_KINDS:
            has = self.tables.ids.has(kind, value)
            return [{"kind": kind, "id": value, "name": self.name(value, kind=kind)}] if has else []
        if kind == "player" and type(value) is int:
            return [{"kind": "player", "id": value, "name": self.player(value)}]
        if kind == "number" and type(value) is int:
            return [{"kind": "number", "id": value, "name": str(value)}]
        if kind == "word" and isinstance(value, str):
            return [{"kind": "word", "id": value, "name": self.word(value)}]
        if vt.is_list and isinstance(value, (list, tuple)):
            return [r for i, v in enumerate(value) for r in self.refs(v, vt.element(i) or ANY)]
        return []

    # -- templates -------------------------------------------------------------------------
    def fill(self, template: Template, fields: Mapping[str, Typed]) -> str:
        """A template with its placeholders named from ``fields`` (name -> (value, type));
        a preposition and the article after it may become one word (``vom``)."""
        parts = [p if isinstance(p, str) else self._placeholder(p, fields) for p in template.parts]
        filled = {i for i, p in enumerate(template.parts) if not isinstance(p, str)}
        return self.grammar.contract(parts, filled)

    def _placeholder(self, p: Placeholder, fields: Mapping[str, Typed]) -> str:
        if p.field not in fields:
            return "{" + p.field + "}"
        value, vt = fields[p.field]
        for i in p.path:
            if not isinstance(value, (list, tuple)) or i >= len(value):
                return ""
            vt = resolve(vt, value, self.tables.ids).element(i) or ANY
            value = value[i]
        fmt = p.format
        if isinstance(value, Phrase):
            return self._phrase(value, p)
        if fmt in ARTICLE_FORMATS and isinstance(value, str) and vt.kind != "text" and (fmt in ("a", "the") or p.mods):
            kind = vt.kind if vt.kind in ID_KINDS else None
            found = self._found(value, kind)
            if found is not None:
                return self.grammar.phrase(found, ARTICLE_FORMATS[fmt], *self._case_number(fmt, p.mods))
        if (
            fmt in (None, "name", "list", "the")
            or value is None
            or is_redacted(value)
            or (vt.kind == "text" and fmt != "of")
        ):
            return self.text(value, vt)
        if fmt in ("a", "plural") and isinstance(value, str):
            kind = vt.kind if vt.kind in ID_KINDS else None
            return self.indefinite(value, kind) if fmt == "a" else self.name(value, 2, kind)
        if fmt == "count" and isinstance(value, (list, tuple)):
            return self.counted(value)
        if fmt == "range" and isinstance(value, (list, tuple)):
            return self.space_range(value)
        if fmt == "cells" and isinstance(value, (list, tuple)):
            tile = fields.get(p.arg or "", (None, ANY))[0]
            return self.cells(value, tile)
        if fmt == "of" and (type(value) is int or vt.kind == "text") and p.arg is not None:
            return self._counted_of(value, p, fields)
        if fmt == "index1" and type(value) is int:
            return str(value + 1)
        return self.text(value, vt)

    def _counted_of(self, value: Any, p: Placeholder, fields: Mapping[str, Typed]) -> str:
        """``{n:of=noun}``: a number of things (``3 cards``, ``no Jokers``); a text (a range:
        3 to 6) takes the noun for several. The noun is a word, or the item a field holds."""
        noun, noun_vt = fields.get(p.arg or "", (p.arg, ANY))
        many = value if type(value) is int else 2
        if isinstance(noun, str) and noun_vt.kind in ID_KINDS:
            name = self.name(noun, many, noun_vt.kind)  # an item's own name, not a word spelt alike
        else:
            name = self.word(noun, many) if isinstance(noun, str) else self.generic(noun)
        found = self.lang.words.get(noun) if isinstance(noun, str) and p.mods else None
        if found is not None:  # a case asked for: "1 eigenen Säulenmarker"
            name = self.grammar.phrase(found, "none", p.mods[0], "one" if many == 1 else "other")
        if value == 0 and not p.mods and "count_zero" in self.lang.engine:
            return self.engine("count_zero", name=(name, TEXT))
        return self.engine("count", n=(value, NUMBER), name=(name, TEXT))

    def _phrase(self, value: Phrase, p: Placeholder) -> str:
        """A declinable noun: as the format asks, else with its own article and case."""
        if p.format in ARTICLE_FORMATS:
            article, (case, number) = ARTICLE_FORMATS[p.format], self._case_number(p.format, p.mods)
        else:
            article, case, number = value.article, value.case, "one"
        return self.grammar.phrase(value.noun, article, case, number, after=value.after)

    @staticmethod
    def _case_number(fmt: str, mods: Sequence[str]) -> tuple[str, str]:
        case = next((m for m in mods if m in CASES), DEFAULT_CASE.get(fmt, "nom"))
        number = "other" if fmt == "plural" or "other" in mods else "one"
        return case, number

    def space_range(self, spaces: Sequence[Any]) -> str:
        """The first and last of the spaces in board order (``A5`` to ``B6``), as the
        engine text ``range`` joins them."""
        order = self.tables.space_order
        known = sorted((s for s in spaces if s in order), key=order.__getitem__)
        if not known:
            return self.generic(spaces)
        first, last = known[0], known[-1]
        if first == last:
            return self.name(first)
        return self.engine("range", first=(self.name(first), TEXT), last=(self.name(last), TEXT))

    def cells(self, spaces: Sequence[Any], tile: Any) -> str:
        """``building on A5 and B5, field on C5``: each space with the word its tile cell shows."""
        item = self.rules.item(tile) if isinstance(tile, str) and self.tables.ids.kind_of(tile) else {}
        pattern = item.get("pattern") or []
        if len(pattern) != len(spaces):
            return self.join([self.text(s, ValueType("space")) for s in spaces])
        groups: dict[str, list[str]] = {}
        for space, word in zip(spaces, pattern):
            groups.setdefault(word, []).append(self.name(space))
        return ", ".join(
            self.engine("cells", word=(self.word(w), TEXT), spaces=(self.join(s), TEXT)) for w, s in groups.items()
        )

    # -- state variables -------------------------------------------------------------------
    def zone(self, var: str, index: Any = None) -> str:
        """A state variable's name (one player's or space's part with ``index``)."""
        phrase = self.zone_phrase(var, index)
        if phrase is not None:
            return self.grammar.phrase(phrase.noun, phrase.article, phrase.case, after=phrase.after)
        zone = self.lang.zones.get(var)
        if zone is not None and (index is not None or var not in self.rules.indexed_vars):
            return self.fill(zone.name, {"player": (index, PLAYER), "space": (index, ValueType("space"))})
        if zone is not None and zone.whole is not None:
            return self.fill(zone.whole, {})
        shown = var.replace("_", " ")
        if index is None:
            return self.engine("zone", var=(shown, TEXT))
        if type(index) is int:
            return self.engine("zone_player", var=(shown, TEXT), player=(index, PLAYER))
        return self.engine("zone_space", var=(shown, TEXT), space=(self.name(str(index)), TEXT))

    def zone_phrase(self, var: str, index: Any = None) -> Phrase | None:
        """A state variable's name as a noun templates can decline (``{from:the.dat}``),
        where its zone gives one."""
        zone = self.lang.zones.get(var)
        if zone is None:
            return None
        one_part = index is not None or var not in self.rules.indexed_vars
        noun = zone.noun if one_part else zone.whole_noun
        if noun is None:
            return None
        fields: dict[str, Typed] = {"player": (index, PLAYER), "space": (index, ValueType("space"))}
        return Phrase(noun, self.fill(_parsed(noun.after), fields) if one_part else noun.after)

    def state_type(self, var: str) -> ValueType:
        """The type of one value of a state variable (one player's or space's part)."""
        info = self.rules.compiled.state.get(var) if self.rules.compiled is not None else None
        return _STATE_TYPES.get(info.type, ANY) if info is not None else ANY

    def hidden_many(self, n: int, var: str | None = None) -> str:
        """``n`` hidden items of state variable ``var``, by the name its zone gives several
        (``86 hidden swamp tiles``), else as items (``86 hidden items``)."""
        zone = self.lang.zones.get(var) if var is not None else None
        if zone is not None and zone.hidden is not None and n == 1:
            return self.hidden_item(var) or zone.hidden
        if zone is not None and zone.hidden_other is not None:
            return self.engine("hidden_named", n=(n, NUMBER), name=(zone.hidden_other, TEXT))
        return self.engine("hidden_many", n=(n, NUMBER))

    def zone_kind(self, var: str) -> str | None:
        """The kind of id state variable ``var`` holds, where its zone says (``tile``)."""
        zone = self.lang.zones.get(var)
        return zone.of if zone is not None else None

    def hidden_item(self, var: str | None) -> str | None:
        """One hidden item of state variable ``var`` (``a card``), where its zone says."""
        zone = self.lang.zones.get(var) if var is not None else None
        if zone is not None and zone.hidden_noun is not None:
            return self.grammar.phrase(zone.hidden_noun, "a", "nom")
        return zone.hidden if zone is not None else None

    def _hidden_phrase(self, var: str) -> Phrase | None:
        zone = self.lang.zones.get(var)
        noun = zone.hidden_noun if zone is not None else None
        return Phrase(noun, noun.after, "a", "acc") if noun is not None else None

    # -- the narrator ----------------------------------------------------------------------
    def event(self, event: Mapping[str, Any]) -> str:
        """One event as a sentence: a rule event by its template, the engine's own by the
        engine's texts and the decision's; a redacted value is named as hidden."""
        kind = event.get("type")
        declared = self.tables.declarations.events.get(str(kind))
        template = self.lang.events.get(str(kind))
        if declared is not None and template is not None:
            fields: dict[str, Typed] = {k: (v, declared.get(k, ANY)) for k, v in event.items() if k != "type"}
            if "to" in fields:
                fields["to"] = (event["to"], PLAYER)
            return self.fill(template, fields)
        if kind in ("choice", "commit", "reveal"):
            return self._decision_event(event)
        if kind == "game_over":
            return self.engine("game_over")
        if kind == "move":
            return self._move(event)
        if kind == "change":
            var = (self.zone(event["var"], event.get("index")), TEXT)
            if event.get("why") == "shuffle":
                return self.engine("shuffle", var=var)
            return self.engine("change", var=var, value=(self._change_value(event), TEXT))
        shown = ", ".join(f"{k}={self.generic(v)}" for k, v in event.items() if k != "type")
        return self.engine("event", type=(str(kind), TEXT), fields=(shown, TEXT))

    def _decision_event(self, event: Mapping[str, Any]) -> str:
        kind, label = event["type"], event.get("label", "")
        vt = self.decision_type(label)
        texts = self.lang.decisions.get(label)
        if kind == "reveal":
            values = [
                self.engine("reveal_value", player=(p, PLAYER), value=(v, vt))
                for p, v in enumerate(event.get("values") or ())
                if v is not None
            ]
            return self.engine("reveal", values=(self.join(values), TEXT))
        player, value = (event["player"], PLAYER), (event.get("value"), vt)
        if kind == "commit":
            if is_redacted(event.get("value")):
                return self.engine("commit", player=player)
            return self.engine("commit_shown", player=player, value=value)
        if event.get("passed"):
            if texts is not None and texts.passed is not None:
                return self.fill(texts.passed, {"player": player})
            return self.engine("passed", player=player)
        if event.get("hidden") and is_redacted(event.get("value")):
            return self.engine("choice_secret", player=player)
        done = texts.done_for(event.get("value")) if texts is not None else None
        if done is not None:
            return self.fill(done, {"player": player, "value": value})
        return self.engine("choice", player=player, value=value)

    def moved(self, event: Mapping[str, Any], items: str) -> str:
        """A move's sentence for several items moved the same way, ``items`` in words."""
        return self._move(event, items)

    def _move(self, event: Mapping[str, Any], items: str | None = None) -> str:
        (src, i), (dst, j) = event["from"], event["to"]
        item = event["item"]
        hidden = self._hidden_phrase(src) or self._hidden_phrase(dst)
        shown: Typed = (item, ANY)
        if is_redacted(item):
            text = self.text(item, hidden=self.hidden_item(src) or self.hidden_item(dst))
            shown = (hidden, TEXT) if hidden is not None and not isinstance(item, dict) else (text, TEXT)
        if items is not None:
            shown = (items, TEXT)
        places = self.zone_phrase(src, i), self.zone_phrase(dst, j)
        fields: dict[str, Typed] = {
            "item": shown,
            "from": (places[0] or self.zone(src, i), TEXT),
            "to": (places[1] or self.zone(dst, j), TEXT),
        }
        for side, index in (("from", i), ("to", j)):
            if type(index) is int:
                fields[f"{side}_player"] = (index, PLAYER)
            elif isinstance(index, str):
                fields[f"{side}_space"] = (index, ValueType("space"))
        template = self.lang.moves.get(f"{src}>{dst}")
        if template is None:
            # a language that declines needs both places as nouns for its sentence
            plain = self.grammar.declines and None in places
            template = self.lang.engine.get("move_plain" if plain else "move") or self.lang.engine.get("move")
        return self.fill(template, fields) if template is not None else "move"

    def _change_value(self, event: Mapping[str, Any]) -> str:
        value = event.get("value")
        if isinstance(value, (list, tuple)) and len(value) > LONG_LIST:
            return self.engine("items", n=(len(value), NUMBER))
        info = self.rules.compiled.state.get(event["var"]) if self.rules.compiled is not None else None
        one_value = info is not None and (not info.per or event.get("index") is not None)
        vt = self.state_type(event["var"]) if one_value else ANY
        return self.text(value, vt, hidden=self.hidden_item(event["var"]), var=event["var"])


def _parsed(text: str) -> Template:
    try:
        return parse_template(text)
    except TemplateError:  # reported by the checks; shown as written
        return Template(text, (text,))


__all__ = ["Name", "Phrase", "RefView", "Tables", "Wording", "language_codes", "tables"]
