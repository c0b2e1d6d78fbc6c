"""Checks that a game describes itself to people, for any ruleset (a designer's variant
too): every decision has a prompt and distinct option texts whose ``refs`` name things
that exist; every event in a view has a sentence; every rule event and its fields are
declared and typed; the ``play`` log tells no state change and no seat by a bare number;
the panel of ``present.summary`` names no thing by its id and no seat by its number.
Each check gives the first problem as a sentence, or None. ``api_test`` runs them.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7)
>>> decision_problem(game), view_problem(game, game.view(1))
(None, None)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..data.valuetypes import ID_KINDS, Ids, ValueType, fits, resolve
from ..engine.seat.decisions import option_texts
from ..engine.seat.decisions import waiting as waiting_for
from ..engine.seat.seatview import cursor
from ..engine.seat.wording import Wording, language_codes, tables
from ..present.narrator import Narrator, is_state_change
from ..present.summary import summary

if TYPE_CHECKING:
    from ..engine.game import Game

#: The engine's own event types (every other type is a rule event, declared in game.yaml).
ENGINE_EVENTS = frozenset({"choice", "commit", "reveal", "game_over", "move", "change"})
#: Seat names the log check plays with: no seat can then be told by a bare number.
TEST_NAMES = ("Ada", "Bea", "Cyd", "Dov", "Eli", "Fay", "Gus", "Hal")
_BARE_SEAT = re.compile(r"\bp\d+\b")
_LEFTOVER = re.compile(r"\{[a-z_][a-z0-9_.:=]*\}")


def decision_problem(game: Game) -> str | None:
    """The first problem of the pending decisions, as every seat and spectator sees them."""
    movers = game.to_move
    waiting = waiting_for(game)
    if [w["player"] for w in waiting] != list(movers):
        return f"waiting_for lists {[w['player'] for w in waiting]}, but {list(movers)} are to move"
    for entry in waiting:
        if not entry["prompt"].strip():
            return f"p{entry['player']}'s decision {entry['label']!r} has no public prompt"
    for p in range(game.players):
        described = game.decision(p)
        if p not in movers:
            if described is not None:
                return f"p{p} is not to move but has a decision"
            continue
        if described is None:
            return f"p{p} is to move but game.decision(p{p}) is None"
        problem = _options_problem(game, p, described)
        if problem:
            return f"p{p}'s decision {described['label']!r}: {problem}"
    return None


def _options_problem(game: Game, player: int, described: Mapping[str, Any]) -> str | None:
    if not described["prompt"].strip():
        return "no prompt"
    actions = game.legal_actions(player)
    if [o["action"] for o in described["options"]] != [str(a) for a in actions]:
        return "its options are not the legal actions, in their order"
    for code in language_codes(game.rules):
        texts = option_texts(game, Wording(game.rules, code), player, actions)
        empty = [str(a) for a, t in zip(actions, texts) if not t.strip()]
        if empty:
            return f"the {code} text of {empty[0]} is empty"
        seen: dict[str, str] = {}
        for action, text in zip(actions, texts):
            if text in seen:
                return f"{seen[text]} and {action} have the same {code} text {text!r}"
            if _LEFTOVER.search(text):
                return f"the {code} text of {action} has a placeholder left: {text!r}"
            seen[text] = str(action)
    for option in described["options"]:
        for ref in option["refs"]:
            problem = ref_problem(game, ref)
            if problem:
                return f"option {option['action']}: {problem}"
    return None


def ref_problem(game: Game, ref: Mapping[str, Any]) -> str | None:
    """What is wrong with one ``ref`` (``{"kind", "id", "name"}``), or None."""
    kind, ident, name = ref.get("kind"), ref.get("id"), ref.get("name")
    if not isinstance(name, str) or not name.strip():
        return f"ref {ref!r} has no name"
    t = tables(game.rules)
    if kind in ID_KINDS:
        return None if t.ids.has(str(kind), ident) else f"ref {ref!r} names no {kind} of the ruleset"
    if kind == "player":
        return None if type(ident) is int and 0 <= ident < game.players else f"ref {ref!r} names no seat"
    if kind == "number":
        return None if type(ident) is int else f"ref {ref!r} is no number"
    if kind == "word":
        missing = [c for c, lang in t.languages.items() if ident not in lang.words]
        return f"word {ident!r} has no {missing[0]} text" if missing else None
    return f"ref {ref!r} has an unknown kind"


def view_problem(game: Game, view: Mapping[str, Any]) -> str | None:
    """The first event of a view without a sentence, or a rule event that does not fit its
    declaration, or a cursor that does not count the seat's events."""
    if view["cursor"] != cursor(game, view["player"]):
        return f"the view's cursor is {view['cursor']}, but the seat has received {cursor(game, view['player'])} events"
    for event in view["events"]:
        text = event.get("text")
        if not isinstance(text, str) or not text.strip():
            return f"event {event!r} has no text"
        if _LEFTOVER.search(text):
            return f"the text of event {event!r} has a placeholder left: {text!r}"
    return events_problem(game, view["events"])


def events_problem(game: Game, events: Iterable[Mapping[str, Any]]) -> str | None:
    """The first rule event whose kind or fields game.yaml does not declare, or whose field
    values do not fit their declared types (redacted values aside), or a word without texts."""
    t = tables(game.rules)
    declared = t.declarations.events
    for event in events:
        kind = str(event.get("type"))
        if kind in ENGINE_EVENTS:
            continue
        if kind not in declared:
            return f"event {kind!r} is not declared in game.yaml events"
        fields = declared[kind]
        for name, value in event.items():
            if name in ("type", "text", "to"):
                continue
            if name not in fields:
                return f"event {kind!r} has field {name!r}, which game.yaml events/{kind} does not declare"
            # a redacted value ("?", None, {"hidden": n}) has no type to check
            if value not in ("?", None) and not isinstance(value, dict) and not fits(fields[name], value, t.ids):
                return f"field {name!r} of event {kind!r} is {value!r}, which is no {fields[name]}"
            for word in _words(fields[name], value, t.ids):
                missing = [c for c, lang in t.languages.items() if word not in lang.words]
                if missing:
                    return f"word {word!r} (event {kind!r}, field {name!r}) has no {missing[0]} text"
    return None


def _words(vt: ValueType, value: Any, ids: Ids) -> list[str]:
    """The words a value of type ``vt`` holds (by the alternative of a one_of it fits)."""
    if value is None or isinstance(value, dict):
        return []
    vt = resolve(vt, value, ids)
    if vt.kind == "word" and isinstance(value, str):
        return [value]
    if vt.is_list and isinstance(value, (list, tuple)):
        return [w for i, v in enumerate(value) if (inner := vt.element(i)) is not None for w in _words(inner, v, ids)]
    return []


def log_problem(game: Game, names: Sequence[str] = TEST_NAMES) -> str | None:
    """The first line of the ``play`` log (in every language of the ruleset, the seats
    named) that tells a state change, a seat by a bare number or a thing by its id, or
    leaves a placeholder."""
    seats = list(names[: game.players])
    raw = _raw_ids(game)
    for code in language_codes(game.rules):
        narrator = Narrator(game.rules, code, seats)
        told = [e for e in game.events if not is_state_change(e)]
        lines = narrator.lines(game.events)
        if len(lines) != len(told):
            return f"the {code} log has {len(lines)} lines for {len(told)} events that are no state change"
        for event, line in zip(told, lines):
            if _BARE_SEAT.search(line):
                return f"the {code} log line {line!r} names a seat by its number"
            if _LEFTOVER.search(line) or "->" in line:
                return f"the {code} log line {line!r} has a placeholder or an arrow left"
            shown = raw.intersection(re.findall(r"[a-z][a-z0-9_]*", line))
            if shown:
                return f"the {code} log line {line!r} names {sorted(shown)[0]!r} by its id"
            bare = _untyped_seats(game, event) & set(re.findall(r"\b\d+\b", line))
            if bare:
                return f"the {code} log line {line!r} shows a seat as {sorted(bare)[0]} (a field of type any)"
            for seat in _seats(game, event):
                if seats[seat] not in line:
                    return f"the {code} log line {line!r} does not name {seats[seat]} (seat {seat})"
    return None


def summary_problem(game: Game, names: Sequence[str] = TEST_NAMES) -> str | None:
    """The first part of a panel (``present.summary``, in every language of the ruleset, for
    a spectator and every seat, the seats named) that is empty, names a thing by its id or a
    seat by its number, leaves a placeholder, or names its own player again in its label."""
    seats = list(names[: game.players])
    raw = _raw_ids(game)
    for code in language_codes(game.rules):
        for seat in [None, *range(game.players)]:
            for section in summary(game, seat, code, seats)["sections"]:
                for part in section["parts"]:
                    shown = f"{part['label']}: {part['value']}"
                    where = f"the {code} panel part {shown!r}"
                    if not part["label"].strip() or not part["value"].strip():
                        return f"{where} is empty"
                    if _BARE_SEAT.search(shown):
                        return f"{where} names a seat by its number"
                    if _LEFTOVER.search(shown):
                        return f"{where} has a placeholder left"
                    ids = raw.intersection(re.findall(r"[a-z][a-z0-9_]*", shown))
                    if ids:
                        return f"{where} names {sorted(ids)[0]!r} by its id"
                    owner = section["player"]
                    if owner is not None and seats[owner] in part["label"]:
                        return f"{where} names its player {seats[owner]} again in its label"
    return None


def _raw_ids(game: Game) -> set[str]:
    """Ids and state variable names that would show a thing unnamed (those with a ``_`` or
    a digit: plain words like ``gondola`` may be words of a sentence too)."""
    t = tables(game.rules)
    names = set().union(*t.ids.by_kind.values())
    assert game.rules.compiled is not None
    names |= set(game.rules.compiled.state)
    return {n for n in names if "_" in n or any(c.isdigit() for c in n)}


def _untyped_seats(game: Game, event: Mapping[str, Any]) -> set[str]:
    """The seat numbers held by fields of an event declared ``any`` (as text): such a field
    names a seat as a bare number."""
    fields = tables(game.rules).declarations.events.get(str(event.get("type")), {})
    return {
        str(v)
        for n, v in event.items()
        if n in fields and fields[n].kind == "any" and type(v) is int and 0 <= v < game.players
    }


def _seats(game: Game, event: Mapping[str, Any]) -> list[int]:
    """The seats an event names in fields typed ``player``."""
    kind = event.get("type")
    if kind in ("choice", "commit"):
        return [event["player"]]
    fields = tables(game.rules).declarations.events.get(str(kind), {})
    return [v for n, v in event.items() if n in fields and fields[n].kind == "player" and type(v) is int]
