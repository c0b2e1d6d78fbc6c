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
SECTIONS = ("names", "words", "zones", "decisions", "events", "moves", "reasons", "items", "engine")
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
    "labelled": ("name", "value"),
    "pass_option": (),
    # the text column beside a board picture (present.zones)
    "seen_by": ("player",),
    "spectator": (),
    "to_move": ("players",),
    "nobody": (),
    "your_decision": ("prompt",),
    "over_winners": ("players",),
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
}
#: Placeholder formats: ``name`` (the default), ``a`` (with the indefinite article: ``a
#: Casa card``), ``plural`` (the name for several: ``Casa cards``), ``list``, ``count``
#: (``2 Casa cards and 1 Ponte card``), ``range`` (first to last space: ``A5`` to ``B6``),
#: ``cells=F`` (each space with the word of the pattern of tile F on it), ``of=X`` (a
#: number of X: ``3 Doge cards``), ``index1`` (a 0-based number shown from 1).
FORMATS = ("name", "a", "plural", "list", "count", "range", "cells", "of", "index1")
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
    indefinite article (``a Casa card``; the ``a`` format)."""

    one: str
    other: str
    a: str

    def by_count(self, n: int) -> str:
        return self.one if n == 1 else self.other


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


@dataclass(frozen=True)
class LogKinds:
    """How the human log groups a ruleset's rule events (``texts.yaml`` ``log:``): the
    kinds that open a phase entry (a turn, a round) and those that open a score entry."""

    phases: frozenset[str]
    scores: frozenset[str]


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
            zones={
                var: Zone(
                    _template(z.get("name", var)),
                    _template(z["all"]) if isinstance(z.get("all"), str) else None,
                    _name(z["hidden"]).a if z.get("hidden") is not None else None,
                    _name(z["hidden"]).other if isinstance(z.get("hidden"), dict) else None,
                    z["of"] if isinstance(z.get("of"), str) else None,
                )
                for var, z in _mapping(table.get("zones")).items()
                if isinstance(z, dict)
            },
            decisions={label: _decision(d) for label, d in _mapping(table.get("decisions")).items()},
            events={kind: _template(t) for kind, t in _mapping(table.get("events")).items()},
            moves={key: _template(t) for key, t in _mapping(table.get("moves")).items()},
            engine={key: _template(t) for key, t in engine.items()},
            reasons={kind: _template(t) for kind, t in _mapping(table.get("reasons")).items()},
            items={ident: _template(t) for ident, t in _mapping(table.get("items")).items()},
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


def _type_or_none(spec: Any) -> ValueType | None:
    try:
        return parse_type(spec)
    except ValueError:
        return None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}
