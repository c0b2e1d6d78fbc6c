"""What people read, as rule data: names, decision prompts and option texts, event sentences,
per language; and the declarations in ``game.yaml`` that type decision values and event
fields.

A ruleset's ``texts.yaml`` holds one table per language under ``languages:`` (``en``,
``de``, ...), each with the sections of :data:`SECTIONS`. The engine's own sentences
(choices, commits, moves, ...) and the words lists are made of have defaults for English
and German in ``rules/texts.yaml``; a ruleset's ``engine:`` section overrides them.
English names default to the items' ``name`` fields. ``game.yaml`` ``decisions:`` gives
each decision label the type of its options (and of the names of the choosing code its
texts use, ``context:``); ``events:`` the typed fields of each rule event kind.

>>> import venedig_rules as vr
>>> rules = vr.load("venedig")
>>> tables = languages(rules.data)
>>> sorted(tables), tables["de"].decisions["drain"].option_for("f11").text
(['de', 'en'], '{value} trockenlegen')
>>> str(declarations(rules.data).decisions["site"].value)
'list of space'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .resources import rules_root
from .templates import Template, TemplateError, parse_template
from .textfallback import first_language, with_fallback
from .valuetypes import ValueType, parse_type
from .yamlsource import load as load_yaml

#: The sections of one language's table.
SECTIONS = ("names", "words", "zones", "decisions", "events", "moves", "changes", "reasons", "items", "engine")
#: The texts of one decision: the required ones, then the optional ones.
DECISION_KEYS = ("prompt", "waiting", "option")
DECISION_OPTIONAL = ("pass", "done", "passed")
#: The fields each decision text may use besides the decision's context names (``*``).
DECISION_FIELDS: dict[str, tuple[str, ...]] = {
    "prompt": ("player", "*"),
    "waiting": ("player",),
    "option": ("player", "value", "*"),
    "pass": ("player", "*"),
    "done": ("player", "value"),
    "passed": ("player",),
}
#: The engine's own texts and the fields each may use.
ENGINE_FIELDS: dict[str, tuple[str, ...]] = {
    "player": ("seat",),
    "choice": ("player", "value"),
    "passed": ("player",),
    "choice_secret": ("player",),
    "commit": ("player",),
    "commit_shown": ("player", "value"),
    "reveal": ("values",),
    "reveal_value": ("player", "value"),
    "game_over": (),
    "move": ("item", "from", "to"),
    "move_plain": ("item", "from", "to"),
    "change": ("var", "value"),
    "shuffle": ("var",),
    "event": ("type", "fields"),
    "zone": ("var",),
    "zone_player": ("var", "player"),
    "zone_space": ("var", "space"),
    "hidden_one": (),
    "hidden_many": ("n",),
    "hidden_named": ("n", "name"),
    "items": ("n",),
    "and": (),
    "none": (),
    "nothing": (),
    "yes": (),
    "no": (),
    "range": ("first", "last"),
    "cells": ("word", "spaces"),
    "count": ("n", "name"),
    "count_zero": ("name",),
    "labelled": ("name", "value"),
    "pass_option": (),
    # the text column beside a board picture (present.zones)
    "seen_by": ("player",),
    "spectator": (),
    "to_move": ("players",),
    "nobody": (),
    "your_decision": ("prompt",),
    "over_winners": ("players",),
    "over_winner": ("players",),
    "you": ("player",),
    "table": (),
    "on_the_board": (),
    # the human log (engine.seat.humanlog) and the score breakdown (engine.seat.breakdown)
    "setup": (),
    "times": ("text", "n"),
    "final_score": ("player", "points"),
    "reason_start": (),
    "reason_other": (),
    # the terminal's own words (present.table)
    "your_position": ("player",),
    "answer_hint": (),
    "input_ended": (),
    "no_option": ("text",),
    "more_lines": ("n",),
    "table_line": ("title", "n", "seed"),
    "you_play": ("players",),
    "forced_answer": ("text",),
    "taken_back": ("text",),
    "cannot_undo": ("reason",),
    "save_needs_name": (),
    "saved_to": ("file",),
    "cannot_save": ("file", "reason"),
    "help": (),
    # why a seat may not take back its last move at the table (engine.seat.tableundo)
    "undo_no_move": ("player",),
    "undo_over": (),
    "undo_not_last": ("player",),
    "undo_chance": ("action",),
    "undo_revealed": ("action",),
    "undo_revealed_what": ("action", "what"),
}
#: The fields a change's sentence (``changes:``) may use: the player or space whose part
#: changed, the new value, the amount it grew or shrank by (a number, or how many items
#: came or went) and the items that came or went, in words (``a 2-gold swamp tile``).
CHANGE_FIELDS = ("player", "space", "value", "n", "item")
#: Placeholder formats: ``name`` (the default), ``a`` (with the indefinite article: ``a
#: Casa card``), ``the`` (with the definite article: ``the Casa card``), ``plural`` (the
#: name for several: ``Casa cards``), ``list``, ``count`` (``2 Casa cards and 1 Ponte
#: card``), ``range`` (first to last space: ``A5`` to ``B6``), ``cells=F`` (each space with
#: the word of the pattern of tile F on it), ``of=X`` (a number of X: ``3 Doge cards``),
#: ``index1`` (a 0-based number shown from 1).
FORMATS = ("name", "a", "the", "plural", "list", "count", "range", "cells", "of", "index1")
#: The formats that tell a noun, with the article each gives (``none``: no article); they
#: may take a case and a number after dots (``{from:the.dat}``, ``{item:a.nom}``).
ARTICLE_FORMATS = {"the": "the", "a": "a", "name": "none", "plural": "none"}
#: The cases a template may ask for, and the numbers.
CASES = ("nom", "acc", "dat", "gen")
NUMBERS = ("one", "other")
#: The case of an article format without one: the object of a verb, as most sentences use
#: them (``a`` took the accusative before cases could be chosen); a bare name is nominative.
DEFAULT_CASE = {"a": "acc", "the": "acc", "name": "nom", "plural": "nom"}
#: Id kinds whose ids are named (``names: {kind: {id: name}}``), with the item lists that
#: hold them; English names default to the items' ``name`` fields.
NAMED: dict[str, tuple[tuple[str, str], ...]] = {
    "card": (("cards", "cards"),),
    "card_type": (("cards", "types"),),
    "tile": (("tiles", "tiles"),),
    "shape": (("tiles", "shapes"),),
    "building": (("buildings", "buildings"),),
    "district": (("board", "regions"),),
    "connection": (("board", "connections"),),
    "track": (("board", "tracks"), ("scoring", "tracks")),
}
#: Kinds that may be named but need not be: board spaces (else their id in capitals) and
#: components.
NAMED_OPTIONAL = ("space", "component")
#: Board space attributes whose values are space kinds, named in ``words``.
SPACE_KIND_ATTRS = ("terrain", "start", "tags")
#: The file of the engine's default texts, next to the bundled rulesets.
ENGINE_TEXTS = "texts.yaml"


@dataclass(frozen=True)
class Name:
    """A thing's name, one and several (``Casa card``, ``Casa cards``), and with its
    indefinite article (``a Casa card``; the ``a`` format).

    A noun may say more, so that templates can choose article, case and number
    (``engine.seat.grammar``): its ``gender`` (``m``, ``f``, ``n``), an ``adjective`` stem
    declined before it (``grün``: "ein grünes Gebäude 1", "dem grünen Gebäude 1"), text
    ``after`` it that stays as it is (``1``, ``mit 3 Gold``, ``von {player}`` in a zone's
    name) and case ``forms`` where they differ from ``one`` and ``other`` (``dat_other:
    Gebäuden``, ``acc: Advokaten``). A noun given only for several (``plural_only``) is
    always told in the plural (``die Gebäude von p1``); one with an ``article`` (``the``)
    takes it where a template names it bare."""

    one: str
    other: str
    a: str
    gender: str | None = None
    adjective: str | None = None
    after: str = ""
    forms: Mapping[str, str] = field(default_factory=dict)
    plural_only: bool = False
    #: whether ``a`` was written (else it is ``one``, or made from the gender)
    a_given: bool = False
    #: the article it takes where a template gives none (``the``: a unique thing such as
    #: "der imaginäre Spieler"); none when not given
    article: str | None = None

    def by_count(self, n: int) -> str:
        return self.one if n == 1 else self.other

    @property
    def is_noun(self) -> bool:
        """Whether it has a gender, so that an article can be chosen for it."""
        return self.gender is not None


@dataclass(frozen=True)
class Zone:
    """A state variable's name (a template with ``{player}`` or ``{space}`` for one of
    several; ``whole`` names all of them at once) and what one hidden item of it is
    called (``a card``)."""

    name: Template
    whole: Template | None
    hidden: str | None
    #: what several hidden items of it are called (``cards``: "3 hidden cards")
    hidden_other: str | None = None
    #: the kind of id it holds, where an id names things of two kinds (``tile``)
    of: str | None = None
    #: its name as a noun (``after`` a template with ``{player}`` or ``{space}``), so that
    #: templates can decline it: "vom Gebäudevorrat", "zu den Gebäuden von p1"
    noun: Name | None = None
    #: the whole of it as a noun, where ``all`` is one
    whole_noun: Name | None = None
    #: one hidden item of it as a noun, where ``hidden`` is one
    hidden_noun: Name | None = None


@dataclass(frozen=True)
class DecisionTexts:
    """The texts of one decision label (see :data:`DECISION_FIELDS`). ``option`` and
    ``done`` map a word to the template for values that are (or start with) that word;
    the key ``""`` holds the template for all other values."""

    prompt: Template
    waiting: Template
    option: Mapping[str, Template]
    pass_option: Template | None
    done: Mapping[str, Template] | None
    passed: Template | None

    def option_for(self, value: Any) -> Template:
        return by_word(self.option, value) or Template("", ())

    def done_for(self, value: Any) -> Template | None:
        return by_word(self.done, value) if self.done else None


def by_word(templates: Mapping[str, Template], value: Any) -> Template | None:
    """The template of ``value``'s word (the value, or its first item), else the ``""`` one."""
    word = value[0] if isinstance(value, (list, tuple)) and value else value
    if isinstance(word, str) and word in templates:
        return templates[word]
    return templates.get("")


@dataclass(frozen=True)
class Language:
    """Every text of one language, templates parsed."""

    code: str
    names: Mapping[str, Mapping[str, Name]]
    words: Mapping[str, Name]
    zones: Mapping[str, Zone]
    decisions: Mapping[str, DecisionTexts]
    events: Mapping[str, Template]
    moves: Mapping[str, Template]
    engine: Mapping[str, Template]
    reasons: Mapping[str, Template] = field(default_factory=dict)
    items: Mapping[str, Template] = field(default_factory=dict)
    #: the articles, adjective endings and contractions of the language (``grammar:``)
    grammar: Mapping[str, Any] = field(default_factory=dict)
    #: ``var``, ``var+`` (it grew), ``var-`` (it shrank) -> the sentence the human log
    #: tells a change of that state variable with (:data:`CHANGE_FIELDS`)
    changes: Mapping[str, Template] = field(default_factory=dict)


@dataclass(frozen=True)
class LogKinds:
    """How the human log groups a ruleset's rule events (``texts.yaml`` ``log:``): the
    kinds that open a phase entry (a turn, a round) and those that open a score entry."""

    phases: frozenset[str]
    scores: frozenset[str]
    #: state variables the setup entry tells the value of (who begins), and no entry after
    setup: tuple[str, ...] = ()


def log_kinds(data: Mapping[str, Any]) -> LogKinds:
    """The ``log:`` groups of checked rule data (none when not given).

    >>> import venedig_rules as vr
    >>> sorted(log_kinds(vr.load("venedig").data).phases)
    ['turn']
    """
    log = _mapping(_mapping(data.get("texts")).get("log"))
    return LogKinds(
        frozenset(str(k) for k in log.get("phases") or ()),
        frozenset(str(k) for k in log.get("scores") or ()),
        tuple(str(k) for k in log.get("setup") or ()),
    )


@dataclass(frozen=True)
class DecisionDecl:
    """A decision label's declaration: the type of its options and of its context names."""

    label: str
    value: ValueType
    context: Mapping[str, ValueType]
    description: str = ""


@dataclass(frozen=True)
class Declarations:
    """The decisions and the rule events of a ruleset, typed."""

    decisions: Mapping[str, DecisionDecl]
    events: Mapping[str, Mapping[str, ValueType]]


def declarations(data: Mapping[str, Any]) -> Declarations:
    """The typed decisions and events of checked rule data (a spec that does not parse is
    left out: the load has reported it)."""
    game = data.get("game") or {}
    decisions: dict[str, DecisionDecl] = {}
    for label, decl in _mapping(game.get("decisions")).items():
        value = _type_or_none(_mapping(decl).get("value"))
        if value is None:
            continue
        context = {n: t for n, spec in _mapping(decl.get("context")).items() if (t := _type_or_none(spec)) is not None}
        decisions[label] = DecisionDecl(label, value, context, str(decl.get("description", "")))
    events: dict[str, dict[str, ValueType]] = {}
    for kind, decl in _mapping(game.get("events")).items():
        fields = _mapping(_mapping(decl).get("fields"))
        events[kind] = {n: t for n, spec in fields.items() if (t := _type_or_none(spec)) is not None}
    return Declarations(decisions, events)


def languages(data: Mapping[str, Any]) -> dict[str, Language]:
    """Every language of checked rule data (at least English), with the engine's defaults
    and the items' English names filled in, and what a language lacks of the first
    language's texts taken from it (:mod:`.textfallback`)."""
    tables = {code: dict(table) for code, table in _mapping(_mapping(data.get("texts")).get("languages")).items()}
    tables.setdefault("en", {})
    first = first_language(data)
    own: dict[str, dict[str, Any]] = {}
    for kind, ident, name in english_names(data) if first == "en" else ():
        if kind in NAMED:  # a component's name field is no text to translate: none is asked
            own.setdefault(kind, {})[ident] = name.one
    tables = with_fallback(tables, first, own)  # a missing translation reads the first language's text
    defaults = engine_defaults()
    out = {}
    for code, table in tables.items():
        engine = {**_mapping(_mapping(defaults.get(code)).get("engine")), **_mapping(table.get("engine"))}
        grammar = {**_mapping(_mapping(defaults.get(code)).get("grammar")), **_mapping(table.get("grammar"))}
        names: dict[str, dict[str, Name]] = {}
        if code == "en":
            for kind, ident, name in english_names(data):
                names.setdefault(kind, {})[ident] = name
        for kind, entries in _mapping(table.get("names")).items():
            names.setdefault(kind, {}).update({ident: _name(value) for ident, value in _mapping(entries).items()})
        out[code] = Language(
            code=code,
            names=names,
            words={k: _name(v) for k, v in _mapping(table.get("words")).items()},
            zones={var: _zone(var, z) for var, z in _mapping(table.get("zones")).items() if isinstance(z, dict)},
            decisions={label: _decision(d) for label, d in _mapping(table.get("decisions")).items()},
            events={kind: _template(t) for kind, t in _mapping(table.get("events")).items()},
            moves={key: _template(t) for key, t in _mapping(table.get("moves")).items()},
            engine={key: _template(t) for key, t in engine.items()},
            reasons={kind: _template(t) for kind, t in _mapping(table.get("reasons")).items()},
            items={ident: _template(t) for ident, t in _mapping(table.get("items")).items()},
            grammar=grammar,
            changes={key: _template(t) for key, t in _mapping(table.get("changes")).items()},
        )
    return out


def english_names(data: Mapping[str, Any]) -> Iterator[tuple[str, str, Name]]:
    """(kind, id, name) of every item with a ``name`` field, in NAMED order."""
    for kind, lists in {**NAMED, "component": (("components", "components"),)}.items():
        for file_kind, key in lists:
            for item in _mapping(data.get(file_kind)).get(key) or []:
                if isinstance(item, dict) and isinstance(item.get("id"), str) and isinstance(item.get("name"), str):
                    yield kind, item["id"], Name(item["name"], item["name"], item["name"])


@cache
def engine_defaults() -> Mapping[str, Any]:
    """The engine's default tables by language code (``rules/texts.yaml``, read once)."""
    return _mapping(_mapping(load_yaml(rules_root() / ENGINE_TEXTS).data).get("languages"))


def _decision(d: Mapping[str, Any]) -> DecisionTexts:
    def optional(key: str) -> Template | None:
        return _template(d[key]) if isinstance(d.get(key), str) else None

    def by_words(key: str) -> dict[str, Template] | None:
        value = d.get(key)
        if isinstance(value, dict):
            return {str(w): _template(t) for w, t in value.items()}
        return {"": _template(value)} if isinstance(value, str) else None

    return DecisionTexts(
        prompt=_template(d.get("prompt", "")),
        waiting=_template(d.get("waiting", "")),
        option=by_words("option") or {"": _template("")},
        pass_option=optional("pass"),
        done=by_words("done"),
        passed=optional("passed"),
    )


#: The keys of a noun's case forms: a case, alone for one or with ``_other`` for several.
FORM_KEYS = tuple(f"{case}{number}" for number in ("", "_other") for case in ("acc", "dat", "gen"))


def _name(value: Any) -> Name:
    if not isinstance(value, dict):  # written as it is shown, with any article it takes
        return Name(str(value), str(value), str(value), a_given=True)
    plural_only = "one" not in value and "other" in value
    one = str(value.get("one", value.get("other", "")))
    gender = value.get("gender")
    return Name(
        one,
        str(value.get("other", one)),
        str(value.get("a", one)),
        gender=str(gender) if isinstance(gender, str) else None,
        adjective=str(value["adjective"]) if isinstance(value.get("adjective"), str) else None,
        after=str(value.get("after", "")),
        forms={k: str(value[k]) for k in FORM_KEYS if isinstance(value.get(k), str)},
        plural_only=plural_only,
        a_given="a" in value,
        article=str(value["article"]) if value.get("article") in ("the", "a") else None,
    )


def _zone(var: str, z: Mapping[str, Any]) -> Zone:
    """A zone's texts: a name (a template, or a noun), the whole, what one hidden item is."""
    name, whole, hidden = z.get("name", var), z.get("all"), z.get("hidden")
    noun = _name(name) if isinstance(name, dict) else None
    whole_noun = _name(whole) if isinstance(whole, dict) else None
    hidden_noun = _name(hidden) if isinstance(hidden, dict) else None
    return Zone(
        _template(name if noun is None else noun_text(noun)),
        _template(whole) if isinstance(whole, str) else _template(noun_text(whole_noun)) if whole_noun else None,
        hidden_noun.a if hidden_noun is not None else str(hidden) if hidden is not None else None,
        hidden_noun.other if hidden_noun is not None else None,
        z["of"] if isinstance(z.get("of"), str) else None,
        noun,
        whole_noun,
        hidden_noun,
    )


def noun_text(noun: Name, number: str = "one") -> str:
    """A noun's words without an article, undeclined: adjective stem, noun, what follows."""
    head = noun.other if number == "other" or noun.plural_only else noun.one
    return join_words(noun.adjective or "", head, noun.after)


def join_words(*words: str) -> str:
    """Words joined by spaces, empty ones left out; no space before a comma or the like.

    >>> join_words("die", "", "Spieler", ", die noch spielen")
    'die Spieler, die noch spielen'
    """
    out = ""
    for word in words:
        if word:
            out += word if not out or word[0] in ",.;:)" else " " + word
    return out


def _template(text: Any) -> Template:
    try:
        return parse_template(str(text))
    except TemplateError:  # reported by the checks; shown as written
        return Template(str(text), (str(text),))


def _type_or_none(spec: Any) -> ValueType | None:
    try:
        return parse_type(spec)
    except ValueError:
        return None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}
