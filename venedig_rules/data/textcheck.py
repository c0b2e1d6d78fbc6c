"""Checks of the texts and declarations (``texts.yaml``; ``game.yaml`` ``decisions`` and
``events``), each problem located in its file.

They find: a type written wrongly; a declared decision or event without its texts in a
declared language; a thing without a name, a word without its text, or an entry that one
language has and another lacks; a text for something that does not exist; a template that
does not parse, names a field its place does not have, or uses a format that does not fit
the field's type.

>>> from venedig_rules.data.yamlsource import loads
>>> src = loads('''
... game:
...   decisions: {drain: {value: space}}
... texts:
...   languages:
...     en:
...       decisions:
...         drain: {prompt: Drain?, waiting: "{player} drains", option: "Drain {valeu}"}
... ''', "x.yaml")
>>> for err in check(src.data, src.positions, {"space": {"a1": ""}}, {}):
...     print(err.line())
x.yaml:8:77: rules/text: the option text of decision 'drain' names field 'valeu', ... (did you mean 'value'?)...
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import DeclarationError, RulesError, TextError, TextMissingWarning, did_you_mean
from .grammarcheck import ZONE, ArticleNeed, gender_problems, mods_problem, needs_article, unknown_genders
from .templates import Placeholder, TemplateError, parse_template
from .textfallback import OPTIONAL_SECTIONS, first_language, missing_text
from .texts import (
    DECISION_FIELDS,
    DECISION_KEYS,
    DECISION_OPTIONAL,
    ENGINE_FIELDS,
    FORMATS,
    NAMED,
    NAMED_OPTIONAL,
    SPACE_KIND_ATTRS,
    engine_defaults,
    english_names,
)
from .valuetypes import ANY, TypeSpecError, ValueType, parse_type
from .yamlsource import PositionMap, pointer

#: Language names for messages.
LANGUAGE_NAMES = {"en": "English", "de": "German", "fr": "French", "it": "Italian", "es": "Spanish", "nl": "Dutch"}
_PLAYER = ValueType("player")
_NUMBER = ValueType("number")
_TEXT = ValueType("text")
#: The types of the engine texts' fields (the others are text the engine has made).
_ENGINE_TYPES = {"player": _PLAYER, "seat": _NUMBER, "n": _NUMBER, "item": ANY, "value": ANY, "from": ZONE, "to": ZONE}


def check(
    data: Mapping[str, Any], positions: PositionMap, ids: Mapping[str, Mapping[str, str]], spaces: Mapping[str, Any]
) -> Iterator[RulesError]:
    """Every problem of the texts and declarations of ``data``; ``ids`` maps each namespace
    (``card``, ``space``, ...) to its ids, ``spaces`` each board space to its attributes."""
    yield from _Check(data, positions, ids, spaces).run()


class _Check:
    def __init__(
        self,
        data: Mapping[str, Any],
        positions: PositionMap,
        ids: Mapping[str, Mapping[str, str]],
        spaces: Mapping[str, Any],
    ):
        self.data, self.positions, self.ids, self.spaces = data, positions, ids, spaces
        game = _mapping(data.get("game"))
        self.state = _mapping(game.get("state"))
        self.tracks = {t.get("id") for t in _list(_mapping(data.get("scoring")).get("tracks")) if isinstance(t, dict)}
        self.decisions: dict[str, tuple[ValueType, dict[str, ValueType]]] = {}
        self.events: dict[str, dict[str, ValueType]] = {}
        texts = _mapping(data.get("texts"))
        self.tables = {code: _mapping(t) for code, t in _mapping(texts.get("languages")).items()}
        self.words_needed: dict[str, str] = {}  # word -> pointer of where it is needed
        self.all_words = {w for t in self.tables.values() for w in _mapping(t.get("words"))}
        self.first = first_language(data)
        self.article_needs: list[ArticleNeed] = []  # placeholders that ask for an article

    # -- helpers ---------------------------------------------------------------------------
    def at(self, ptr: str) -> Any:
        return self.positions.at(ptr)

    def key_at(self, ptr: str) -> Any:
        return self.positions.key_at(ptr)

    def language(self, code: str) -> str:
        name = self.tables.get(code, {}).get("name")
        return f"{LANGUAGE_NAMES.get(code, name or code)} ({code})"

    def missing(self, code: str, message: str, location: Any) -> RulesError:
        """A text ``code`` lacks: an error in the first language, else a warning (the
        translation falls back to the first language's text; :mod:`.textfallback`)."""
        return missing_text(message, location, translation=code != self.first)

    def where(self, code: str, *parts: str) -> str:
        """The pointer of a place in a language's table (its deepest existing part)."""
        ptr = pointer("/texts/languages", code)
        node: Any = self.tables.get(code)
        for part in parts:
            if not isinstance(node, dict) or part not in node:
                break
            ptr, node = pointer(ptr, part), node[part]
        return ptr

    # -- the checks ------------------------------------------------------------------------
    def run(self) -> Iterator[RulesError]:
        yield from self.declared_decisions()
        yield from self.declared_events()
        codes = sorted(set(self.tables) | {"en"})
        self.board_words()
        for code in codes:
            yield from self.language_table(code)
        yield from self.same_entries(codes)
        yield from self.optional_translations(codes)
        yield from self.log_groups()
        yield from gender_problems(self.data, self.positions, self.article_needs)
        yield from unknown_genders(self.data, self.positions)

    def parse(self, spec: Any, ptr: str, what: str) -> Iterator[RulesError | ValueType]:
        try:
            vt = parse_type(spec)
        except TypeSpecError as exc:
            yield DeclarationError(f"{what}: {exc.message}", self.at(ptr + exc.path))
            return
        for word in sorted(vt.all_words()):
            self.words_needed.setdefault(word, ptr)
        yield vt

    def declared_decisions(self) -> Iterator[RulesError]:
        game = _mapping(self.data.get("game"))
        for label, decl in _mapping(game.get("decisions")).items():
            ptr = pointer("/game/decisions", label)
            if not isinstance(decl, dict):
                continue
            value: ValueType | None = None
            for item in self.parse(decl.get("value"), pointer(ptr, "value"), f"the options of decision {label!r}"):
                if isinstance(item, ValueType):
                    value = item
                else:
                    yield item
            context: dict[str, ValueType] = {}
            for name, spec in _mapping(decl.get("context")).items():
                cptr = pointer(pointer(ptr, "context"), name)
                if name in ("player", "value"):
                    yield DeclarationError(
                        f"decision {label!r} names a context field {name!r}, which its texts have anyway; "
                        "expected another name",
                        self.key_at(cptr),
                    )
                    continue
                for item in self.parse(spec, cptr, f"context {name!r} of decision {label!r}"):
                    if isinstance(item, ValueType):
                        context[name] = item
                    else:
                        yield item
            self.decisions[label] = (value or ANY, context)

    def declared_events(self) -> Iterator[RulesError]:
        game = _mapping(self.data.get("game"))
        for kind, decl in _mapping(game.get("events")).items():
            ptr = pointer("/game/events", kind)
            fields: dict[str, ValueType] = {}
            for name, spec in _mapping(_mapping(decl).get("fields")).items():
                fptr = pointer(pointer(ptr, "fields"), name)
                if name in ("type", "text"):
                    yield DeclarationError(
                        f"event {kind!r} declares a field {name!r}, which every event has already "
                        "(its kind; its sentence, in views); expected another name",
                        self.key_at(fptr),
                    )
                    continue
                for item in self.parse(spec, fptr, f"field {name!r} of event {kind!r}"):
                    if isinstance(item, ValueType):
                        fields[name] = item
                    else:
                        yield item
            self.events[kind] = fields

    def board_words(self) -> None:
        """Every space kind (terrain, start, tag) and every label of the board picture
        (``show`` ``labels``) needs a word."""
        board = _mapping(self.data.get("board"))
        legend = _mapping(_mapping(board.get("grid")).get("legend"))
        sources = [(pointer("/board/grid/legend", k), v) for k, v in legend.items()]
        sources += [(pointer("/board/spaces", k), v) for k, v in _mapping(board.get("spaces")).items()]
        for ptr, attrs in sources:
            for attr in SPACE_KIND_ATTRS:
                value = _mapping(attrs).get(attr)
                for word in value if isinstance(value, list) else [value]:
                    if isinstance(word, str):
                        self.words_needed.setdefault(word, pointer(ptr, attr))
        # the board picture's legend and piece labels are words, so each language names them
        shows = _mapping(board.get("layout")).get("show")
        for i, show in enumerate(shows if isinstance(shows, list) else []):
            for key, label in _mapping(_mapping(show).get("labels")).items():
                if isinstance(label, str):
                    at = pointer(pointer(pointer("/board/layout/show", i), "labels"), key)
                    self.words_needed.setdefault(label, at)

    def language_table(self, code: str) -> Iterator[RulesError]:
        table = self.tables.get(code, {})
        lang = self.language(code)
        if "texts" not in self.data:  # names and words are asked of rulesets that have texts
            yield from self.decision_texts(code, table)
            yield from self.event_texts(code, table)
            return
        yield from self.names(code, table)
        for word, ptr in sorted(self.words_needed.items()):
            if word not in _mapping(table.get("words")):
                yield self.missing(
                    code,
                    f"word {word!r} has no {lang} text; expected it under languages/{code}/words in texts.yaml",
                    self.at(ptr),
                )
        yield from self.decision_texts(code, table)
        yield from self.event_texts(code, table)
        yield from self.zone_texts(code, table)
        yield from self.move_texts(code, table)
        yield from self.change_texts(code, table)
        yield from self.reason_texts(code, table)
        yield from self.engine_texts(code, table)

    def names(self, code: str, table: Mapping[str, Any]) -> Iterator[RulesError]:
        named = _mapping(table.get("names"))
        fallback = {(kind, ident) for kind, ident, _ in english_names(self.data)} if code == "en" else set()
        section = self.where(code, "names")
        for kind, lists in NAMED.items():
            entries = _mapping(named.get(kind))
            for file_kind, key in lists:
                for ptr, item in self.items(file_kind, key):
                    ident = item.get("id")
                    if isinstance(ident, str) and ident not in entries and (kind, ident) not in fallback:
                        yield self.missing(
                            code,
                            f"{kind.replace('_', ' ')} {ident!r} has no {self.language(code)} name; expected "
                            f"languages/{code}/names/{kind}/{ident} in texts.yaml"
                            + (" or a name field here" if code == "en" else ""),
                            self.at(ptr + "/id"),
                        )
        # A name of an id the ruleset lacks is left alone: a variant that removes an item need
        # not remove its names (a misspelt id shows as the real one's missing name).
        for kind in named:
            if kind not in NAMED and kind not in NAMED_OPTIONAL:
                yield TextError(
                    f"names of {kind!r}, which is no kind of thing with names"
                    f"{did_you_mean(kind, [*NAMED, *NAMED_OPTIONAL])}; expected one of "
                    f"{', '.join([*NAMED, *NAMED_OPTIONAL])}",
                    self.key_at(pointer(section, kind)),
                )

    def items(self, file_kind: str, key: str) -> Iterator[tuple[str, dict[str, Any]]]:
        values = _mapping(self.data.get(file_kind)).get(key)
        for i, item in enumerate(values if isinstance(values, list) else []):
            if isinstance(item, dict):
                yield f"/{file_kind}/{key}/{i}", item

    def decision_texts(self, code: str, table: Mapping[str, Any]) -> Iterator[RulesError]:
        texts = _mapping(table.get("decisions"))
        lang = self.language(code)
        for label, (value, context) in self.decisions.items():
            entry = texts.get(label)
            missing = [k for k in DECISION_KEYS if not isinstance(_mapping(entry).get(k), (str, dict))]
            if missing:
                what = "texts" if entry is None else " and ".join(missing)
                yield self.missing(
                    code,
                    f"decision {label!r} has no {lang} {what}; expected "
                    f"languages/{code}/decisions/{label}: {{{', '.join(f'{k}: ...' for k in missing)}}} in texts.yaml",
                    self.key_at(pointer("/game/decisions", label))
                    if code == "en" or entry is None
                    else self.key_at(pointer(self.where(code, "decisions"), label)),
                )
            fields_all = {"player": _PLAYER, "value": value, **context}
            for key in (*DECISION_KEYS, *DECISION_OPTIONAL):
                text = _mapping(entry).get(key)
                allowed = DECISION_FIELDS[key]
                fields = {n: t for n, t in fields_all.items() if n in allowed or ("*" in allowed and n in context)}
                ptr = pointer(pointer(self.where(code, "decisions"), label), key)
                what = f"the {key} text of decision {label!r}"
                if isinstance(text, str):
                    yield from self.template(text, ptr, fields, what)
                elif isinstance(text, dict) and key in ("option", "done"):
                    yield from self.by_word(text, ptr, fields, what, value, code)
        for label in texts:
            if label not in self.decisions:
                yield TextError(
                    f"texts for decision {label!r}, which game.yaml decisions does not declare"
                    f"{did_you_mean(label, self.decisions)}",
                    self.key_at(pointer(self.where(code, "decisions"), label)),
                )

    def by_word(
        self,
        texts: Mapping[str, Any],
        ptr: str,
        fields: Mapping[str, ValueType],
        what: str,
        value: ValueType,
        code: str,
    ) -> Iterator[RulesError]:
        """A text given per word of the value (the value itself, or its first item)."""
        head = value.items[0] if value.kind == "tuple" else value
        words = head.words if head.kind == "word" else ()
        if head.kind not in ("word", "any"):
            yield TextError(
                f"{what} is given per word, but the options ({value}) are no words and do not start with one",
                self.at(ptr),
            )
            return
        for word, text in texts.items():
            wptr = pointer(ptr, word)
            if word and words and word not in words:
                yield TextError(
                    f"{what} has a text for word {word!r}, which the options ({value}) never are"
                    f"{did_you_mean(word, words)}",
                    self.key_at(wptr),
                )
            yield from self.template(text, wptr, fields, f"{what} ({word or 'other words'})")
        uncovered = [w for w in words if w not in texts]
        if "" not in texts and (uncovered or not words):
            yield self.missing(
                code,
                f"{what} has no {self.language(code)} text for "
                + (", ".join(map(repr, uncovered)) if uncovered else "other words")
                + '; expected one per word, or "" for the rest',
                self.key_at(ptr),
            )

    def event_texts(self, code: str, table: Mapping[str, Any]) -> Iterator[RulesError]:
        texts = _mapping(table.get("events"))
        for kind, fields in self.events.items():
            if not isinstance(texts.get(kind), str):
                yield self.missing(
                    code,
                    f"event {kind!r} has no {self.language(code)} sentence; expected "
                    f"languages/{code}/events/{kind} in texts.yaml",
                    self.key_at(pointer("/game/events", kind)),  # where the event is declared: the designer's file
                )
                continue
            ptr = pointer(self.where(code, "events"), kind)
            yield from self.template(texts[kind], ptr, {**fields, "to": _PLAYER}, f"the sentence of event {kind!r}")
        for kind in texts:
            if kind not in self.events:
                yield TextError(
                    f"a sentence for event {kind!r}, which game.yaml events does not declare"
                    f"{did_you_mean(kind, self.events)}",
                    self.key_at(pointer(self.where(code, "events"), kind)),
                )

    def reason_texts(self, code: str, table: Mapping[str, Any]) -> Iterator[RulesError]:
        """A score breakdown's label per rule event kind: of a declared kind, of its fields."""
        for kind, text in _mapping(table.get("reasons")).items():
            ptr = pointer(self.where(code, "reasons"), kind)
            if kind in self.decisions and kind not in self.events:
                yield from self.template(text, ptr, {}, f"the score reason of decision {kind!r}")
                continue
            if kind not in self.events:
                yield TextError(
                    f"a score reason for event {kind!r}, which game.yaml declares neither as an event nor a decision"
                    f"{did_you_mean(kind, self.events)}",
                    self.key_at(ptr),
                )
                continue
            yield from self.template(text, ptr, self.events[kind], f"the score reason of event {kind!r}")

    def log_groups(self) -> Iterator[RulesError]:
        """The log's phase and score groups name declared rule event kinds."""
        log = _mapping(_mapping(self.data.get("texts")).get("log"))
        for group in ("phases", "scores"):
            for i, kind in enumerate(_list(log.get(group))):
                if kind not in self.events:
                    yield TextError(
                        f"log {group} names event {kind!r}, which game.yaml events does not declare"
                        f"{did_you_mean(str(kind), self.events)}",
                        self.at(f"/texts/log/{group}/{i}"),
                    )
        for i, var in enumerate(_list(log.get("setup"))):
            if var not in self.state:
                yield TextError(
                    f"log setup names state variable {var!r}, which game.yaml state does not declare"
                    f"{did_you_mean(str(var), self.state)}",
                    self.at(f"/texts/log/setup/{i}"),
                )

    def zone_texts(self, code: str, table: Mapping[str, Any]) -> Iterator[RulesError]:
        zones = _mapping(table.get("zones"))
        variables = set(self.state) | {t for t in self.tracks if isinstance(t, str)}
        for var, entry in zones.items():
            ptr = pointer(self.where(code, "zones"), var)
            if var not in variables:
                yield TextError(
                    f"a name for state variable {var!r}, which game.yaml state does not declare"
                    f"{did_you_mean(var, variables)}",
                    self.key_at(ptr),
                )
                continue
            per = _mapping(self.state.get(var)).get("per") if var in self.state else "player"
            fields = {"player": _PLAYER} if per == "player" else {"space": ValueType("space")} if per else {}
            name = _mapping(entry).get("name")
            if isinstance(name, str):
                yield from self.template(name, pointer(ptr, "name"), fields, f"the name of {var!r}")
            elif isinstance(_mapping(name).get("after"), str):  # a noun: what follows it may name the part
                after = pointer(pointer(ptr, "name"), "after")
                yield from self.template(_mapping(name)["after"], after, fields, f"the name of {var!r}")

    def move_texts(self, code: str, table: Mapping[str, Any]) -> Iterator[RulesError]:
        variables = set(self.state) | {t for t in self.tracks if isinstance(t, str)}
        for key, text in _mapping(table.get("moves")).items():
            ptr = pointer(self.where(code, "moves"), key)
            parts = key.split(">")
            bad = [p for p in parts if p not in variables]
            if len(parts) != 2 or bad:
                yield TextError(
                    f"move {key!r} should be 'from>to', two state variables"
                    + (f"; {bad[0]!r} is none{did_you_mean(bad[0], variables)}" if bad else ""),
                    self.key_at(ptr),
                )
                continue
            fields = {"item": ANY, "from": ZONE, "to": ZONE}
            for side, var in zip(("from", "to"), parts):
                per = _mapping(self.state.get(var)).get("per")
                if per == "player":
                    fields[f"{side}_player"] = _PLAYER
                elif per == "space":
                    fields[f"{side}_space"] = ValueType("space")
            yield from self.template(text, ptr, fields, f"the sentence of move {key!r}")

    def change_texts(self, code: str, table: Mapping[str, Any]) -> Iterator[RulesError]:
        """A change's sentence names a declared state variable and uses its fields."""
        for key, text in _mapping(table.get("changes")).items():
            ptr = pointer(self.where(code, "changes"), key)
            var, variables = key.rstrip("+-"), set(self.state) | {t for t in self.tracks if isinstance(t, str)}
            if var not in variables:
                yield TextError(
                    f"a sentence for changes of {var!r}, which game.yaml state does not declare"
                    f"{did_you_mean(var, variables)}",
                    self.key_at(ptr),
                )
                continue
            fields = {"player": _PLAYER, "space": ValueType("space"), "value": ANY, "n": _NUMBER, "item": _TEXT}
            yield from self.template(text, ptr, fields, f"the sentence of a change of {var!r}")

    def engine_texts(self, code: str, table: Mapping[str, Any]) -> Iterator[RulesError]:
        own = _mapping(table.get("engine"))
        defaults = _mapping(_mapping(engine_defaults().get(code)).get("engine"))
        for key, text in own.items():
            ptr = pointer(self.where(code, "engine"), key)
            if key not in ENGINE_FIELDS:
                yield TextError(
                    f"engine text {key!r} is not one the engine uses{did_you_mean(key, ENGINE_FIELDS)}",
                    self.key_at(ptr),
                )
                continue
            fields = {n: _ENGINE_TYPES.get(n, _TEXT) for n in ENGINE_FIELDS[key]}
            yield from self.template(text, ptr, fields, f"engine text {key!r}")
        missing = [k for k in ENGINE_FIELDS if k not in own and k not in defaults]
        if missing:
            yield TextError(
                f"{self.language(code)} has no default engine texts; expected languages/{code}/engine with "
                f"{', '.join(missing[:6])}{', ...' if len(missing) > 6 else ''} in texts.yaml",
                self.key_at(pointer("/texts/languages", code)),
            )

    def same_entries(self, codes: list[str]) -> Iterator[RulesError]:
        """An entry one declared language has, every other declared language has too
        (English names excepted: they default to the items' names). The first language
        lacking one is an error; another lacking one of the first's, a warning (it falls
        back), told once: against the first language only."""
        for code in codes:
            for other in codes if code == self.first else [self.first]:
                if other == code:
                    continue
                for path in sorted(_entries(self.tables.get(other, {})) - _entries(self.tables.get(code, {}))):
                    section, key = path[:2]  # a name's key is its kind; a word's, the word
                    if (section == "names" and (code == "en" or key in NAMED)) or (
                        section == "words" and key in self.words_needed
                    ):
                        continue  # English names default to the items'; needed names and words are told once
                    shown = "/".join(path)
                    yield self.missing(
                        code,
                        f"{shown} has a {self.language(other)} text but no {self.language(code)} one; "
                        f"expected languages/{code}/{shown} in texts.yaml",
                        self.key_at("/".join([pointer("/texts/languages", other), *map(_escape, path)])),
                    )

    def optional_translations(self, codes: list[str]) -> Iterator[RulesError]:
        """An item's text or a score reason the first language gives and another lacks:
        none is needed, but one given is a text to translate (a warning; it falls back)."""
        first = self.tables.get(self.first, {})
        for code in codes:
            if code == self.first:
                continue
            table = self.tables.get(code, {})
            for section in OPTIONAL_SECTIONS:
                for key in _mapping(first.get(section)):
                    if key not in _mapping(table.get(section)):
                        yield TextMissingWarning(
                            f"{section}/{key} has a {self.language(self.first)} text but no {self.language(code)} "
                            f"one; expected languages/{code}/{section}/{key} in texts.yaml",
                            self.key_at(pointer(pointer(pointer("/texts/languages", self.first), section), key)),
                        )

    # -- templates -------------------------------------------------------------------------
    def template(self, text: Any, ptr: str, fields: Mapping[str, ValueType], what: str) -> Iterator[RulesError]:
        if not isinstance(text, str):
            return
        try:
            template = parse_template(text)
        except TemplateError as exc:
            yield TextError(f"{what}: {exc.message}", self.positions.in_scalar(ptr, exc.offset))
            return
        for p in template.placeholders:
            problem = self.placeholder(p, fields)
            if problem:
                yield TextError(f"{what} {problem}", self.positions.in_scalar(ptr, p.offset + 1))
            elif needs_article(p) and p.field in fields:
                vt: ValueType | None = fields[p.field]
                for i in p.path:
                    vt = vt.element(i) if vt is not None and vt.is_list else None
                self.article_needs.append(ArticleNeed(ptr, p, vt or ANY))

    def placeholder(self, p: Placeholder, fields: Mapping[str, ValueType]) -> str:
        if p.field not in fields:
            names = ", ".join(sorted(fields)) or "none"
            return f"names field {p.field!r}, which it does not have{did_you_mean(p.field, fields)}; fields: {names}"
        vt: ValueType | None = fields[p.field]
        for i in p.path:
            if vt is None or (vt.kind != "any" and not vt.is_list):
                return f"takes item {i} of {p.field!r}, which is no list"
            vt = ANY if vt.kind == "any" else vt.element(i)
            if vt is None:
                return f"takes item {i} of {p.field!r}, which has fewer items"
        if p.format is None or vt is None:
            return ""
        if vt.kind == "text":
            return f"gives {p.field!r} a format ({p.format!r}), but it is text made already: it takes none"
        if p.format not in FORMATS:
            return f"uses format {p.format!r}{did_you_mean(p.format, FORMATS)}; expected one of {', '.join(FORMATS)}"
        return mods_problem(p, vt) or self.format_problem(p, vt, fields)

    def format_problem(self, p: Placeholder, vt: ValueType, fields: Mapping[str, ValueType]) -> str:
        kinds = vt.scalars()
        is_any = "any" in kinds
        takes_arg = p.format in ("cells", "of")
        if takes_arg != (p.arg is not None):
            return f"writes {{...:{p.format}{'=' + p.arg if p.arg else ''}}}; " + (
                f"{p.format} takes an argument: {{{p.field}:{p.format}=...}}" if takes_arg else f"{p.format} takes none"
            )
        if p.format in ("list", "count") and not (vt.is_list or is_any):
            return f"formats {p.field!r} ({vt}) as a list, which it is not"
        if p.format in ("range", "cells") and not (is_any or (vt.kind == "list" and kinds == {"space"})):
            return f"formats {p.field!r} ({vt}) as spaces; {p.format} takes a list of space"
        if p.format in ("of", "index1") and not (is_any or kinds == {"number"}):
            return f"formats {p.field!r} ({vt}) as a number, which it is not"
        if p.format == "cells" and p.arg is not None:
            arg = fields.get(p.arg)
            if arg is None or not ({"tile", "any"} & arg.scalars()):
                return f"shows the cells of {p.arg!r}, which is no tile field; expected a field of type tile"
        if p.format == "of" and p.arg is not None and p.arg not in fields:
            known = set().union(*(set(v) for v in self.ids.values())) | self.all_words
            if p.arg not in known:
                return f"counts {p.arg!r}, which is no field, id or word{did_you_mean(p.arg, known)}"
        return ""


def _entries(table: Mapping[str, Any]) -> set[tuple[str, ...]]:
    """The entries of a language table that every language must have alike: names (by
    kind), words, zones and moves."""
    out: set[tuple[str, ...]] = set()
    for kind, names in _mapping(table.get("names")).items():
        out |= {("names", kind, ident) for ident in _mapping(names)}
    for section in ("words", "zones", "moves"):
        out |= {(section, key) for key in _mapping(table.get(section))}
    return out


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
