"""The human log (``game.log``): one entry per move, as a board-game site shows it, built
from a seat's redacted events, so it tells no seat more than its view does.

An entry is ``{"index", "kind", "actor", "text", "details"}``:

- ``"action"``: exactly one per action applied, opened by its ``choice`` or ``commit``
  event; ``text`` is the move in words (the rule event that tells it, when the mover's
  first rule event does: ``p0 drains F6`` rather than ``p0 chooses to drain F6``; a secret
  choice reads ``p1 chooses in secret`` to the others; a rule event that lists the choice
  among others, the group it completes, never tells the move: ``p1 sets a pillar on K8``
  with the detail ``p1's new pillars: J7, K7 and K8``), ``details`` what it caused (cards
  moved, points, gold, a reveal), each told once: moves along one way in a row are one
  detail (``p1 draws 3 cards``), a state change is told where the language's ``texts.yaml``
  ``changes:`` words it (:mod:`.logchanges`), unless a rule event of the move gives it.
- ``"phase"``: a rule event the ruleset's ``texts.yaml`` ``log: phases`` names (a turn, a
  round, a stage) and what follows it before the next move. The first entry is always the
  setup (index 0): what was dealt, and the values ``log: setup`` names (who begins).
- ``"score"``: a rule event ``log: scores`` names (a scoring of the round or the end).
- ``"end"``: the game is over and who won, with each player's final score in its details.

Other state changes are bookkeeping for machines and never told; equal details in a row
are told once with their count. ``index`` is the position in the seat's event log where
the entry starts, the same count as a view's ``cursor``: ``since=cursor`` gives the entries
that started after that view.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass").apply("p0 pass")
>>> game = game.apply("p0 drain(k8)")
>>> for entry in human_log(game, 1):
...     print(entry["kind"], entry["actor"], entry["text"], entry["details"][-1:])
phase None The game is set up ['p0 begins']
phase 0 p0's turn (turn 1) []
action 0 p0 keeps the gold []
action 0 p0 lays out no cards []
action 0 p0 drains K8 ['p0 takes a gold tile']
>>> human_log(game, 1)[0]["details"][:2]
['p0 draws 3 cards', 'p1 draws 1 Basilica card and 2 Palazzo cards']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from ...data.templates import Placeholder
from ...data.texts import LogKinds, log_kinds
from ...errors import GameArgumentError
from ..run.views import HIDDEN, SPECTATOR, is_redacted
from .logchanges import Seen, ToldChange, ToldChanges, counted_hidden, listed
from .seatview import seat_log
from .wording import NUMBER, PLAYER, TEXT, Wording

if TYPE_CHECKING:
    from .played import PlayedGame

EntryKind = Literal["action", "phase", "score", "end"]
#: The events that open an action entry: every action applied makes exactly one of them.
ACTION_EVENTS = frozenset({"choice", "commit"})
#: The engine's events a log tells in its details (besides the ruleset's own events).
TOLD_ENGINE_EVENTS = frozenset({"move", "reveal"})


class LogEntry(TypedDict):
    """One line of the human log and what it caused (see the module's docstring)."""

    index: int
    kind: EntryKind
    actor: int | None
    text: str
    details: list[str]


@dataclass
class _Detail:
    """A detail of an entry: a rule or engine event, a run of moves along one route (their
    ``items``), or a state change the language tells (``change``)."""

    event: Mapping[str, Any]
    items: list[Any] = field(default_factory=list)
    change: ToldChange | None = None

    def text(self, wording: Wording, told: ToldChanges) -> str:
        if self.change is not None:
            return self.change.text
        if len(self.items) > 1:
            return wording.moved(self.event, _items_text(wording, told, self.event, self.items))
        return wording.event(self.event)

    def joins(self, move: Mapping[str, Any]) -> bool:
        """Whether ``move`` goes the same way as this run of moves (and is as hidden)."""
        mine = self.event
        return (
            self.change is None
            and mine.get("type") == "move"
            and mine["from"] == move["from"]
            and mine["to"] == move["to"]
            and is_redacted(mine["item"]) == is_redacted(move["item"])
        )


@dataclass
class _Open:
    """An entry being built: its events so far."""

    index: int
    kind: EntryKind
    actor: int | None
    text: str
    retell: bool = False  # an action whose mover's first rule event may tell it instead
    details: list[_Detail] = field(default_factory=list)
    told: list[Mapping[str, Any]] = field(default_factory=list)  # its rule events
    chosen: Any = None  # the value an action's choice names
    lines: list[str] = field(default_factory=list)  # details already in words (the end's)
    before: str | None = None  # the text of the same mover's action entry just before

    def close(self, wording: Wording, told: ToldChanges) -> LogEntry:
        kept = [d for d in self.details if not self._retold(d, wording)]
        texts = [d.text(wording, told) for d in kept]
        # a rule event saying, item unnamed, what a move the seat sees says ("p2 takes a
        # gold treasure" beside "p2 takes a 6-gold treasure") gives way to the move
        said = {wording.event({**d.event, "item": HIDDEN}): t for d, t in zip(kept, texts) if _seen_move(d)}
        text = said.pop(self.text, self.text) if self.kind == "action" else self.text
        details = [t for d, t in zip(kept, texts) if not (d.change is None and not _seen_move(d) and t in said)]
        return {
            "index": self.index,
            "kind": self.kind,
            "actor": self.actor,
            "text": text,
            "details": _counted([t for t in details if t != text], wording) + self.lines,
        }

    def _retold(self, detail: _Detail, wording: Wording) -> bool:
        """Whether a rule event of this entry already tells a detail: a move whose item it
        names (or, the item hidden, any rule event telling the move in its own words), or a
        change of a number it gives for the same player."""
        change = detail.change
        if change is not None:
            return change.numeric and any(_tells_number(wording, e, change) for e in self.told)
        move = detail.event
        if move.get("type") != "move":
            return False
        item = move.get("item")
        if is_redacted(item):
            return bool(self.told)
        chosen = self.chosen
        if item == chosen or (isinstance(chosen, (list, tuple)) and item in chosen):
            return True
        return any(_names(event, item) for event in self.told)


def human_log(
    game: PlayedGame,
    seat: int | None,
    lang: str = "en",
    since: int | None = None,
    names: Sequence[str] | None = None,
) -> list[LogEntry]:
    """The human log of ``seat`` (a spectator's when None): its entries from the one that
    starts at event ``since`` on (all when None). A GameArgumentError for what is no seat
    or no count of the seat's events."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.players):
        raise GameArgumentError(
            f"{seat!r} is not a seat of this game: expected 0 to {game.players - 1}, or None for a spectator"
        )
    log = seat_log(game, SPECTATOR if seat is None else seat)
    if since is not None and (type(since) is not int or not 0 <= since <= len(log.events)):
        raise GameArgumentError(
            f"since={since!r} is not a count of the events the seat has received (0 to {len(log.events)})"
        )
    wording = Wording(game.rules, lang, names)
    kinds = log_kinds(game.rules.data)
    start = 0 if since is None else _opener_at_or_before(log.events, since, kinds)
    kept = log.seen.setdefault(wording.code, {})  # what the seat had seen at the cursors asked before
    entries = _Builder(game, wording, kinds).build(log.events, start, kept)
    return entries if since is None else [e for e in entries if e["index"] >= since]


def _opener_at_or_before(events: Sequence[Mapping[str, Any]], at: int, kinds: LogKinds) -> int:
    """Where the entry holding event ``at`` starts (0: the setup), so that a log asked
    ``since`` a cursor is built from there on only."""
    opening = ACTION_EVENTS | kinds.phases | kinds.scores | {"game_over"}
    for i in range(min(at, len(events) - 1), -1, -1):
        if events[i].get("type") in opening:
            return i
    return 0


class _Builder:
    """Makes the entries of one seat's events, one event at a time."""

    def __init__(self, game: PlayedGame, wording: Wording, kinds: LogKinds):
        self.game, self.wording, self.kinds = game, wording, kinds
        self.changes = ToldChanges(game.rules, wording)
        self.made: list[LogEntry] = []
        #: the mover and sentence of the last choice since the last phase (what it said)
        self.last_choice: tuple[int | None, str] | None = None
        self.current: _Open | None = None

    def start(self, entry: _Open) -> _Open:
        current = self.current
        if current is not None:
            if current.index == 0 and current.kind == "phase" and current.actor is None:
                current.lines += [t for v in self.kinds.setup if (t := self.changes.current(v)) is not None]
            self.made.append(current.close(self.wording, self.changes))
        self.current = entry
        return entry

    def build(self, events: Sequence[Mapping[str, Any]], first: int, kept: dict[int, Seen]) -> list[LogEntry]:
        self.changes.follow(events, first, kept)  # what the seat saw before: the changes are told against it
        self.last_choice = self._choice_before(events, first)
        if first == 0:
            self.current = _Open(0, "phase", None, self.wording.engine("setup"))
        for i in range(first, len(events)):
            self.take(i, events[i])
        if self.current is not None:
            self.start(_Open(len(events), "phase", None, ""))
        return self.made

    def _choice_before(self, events: Sequence[Mapping[str, Any]], first: int) -> tuple[int | None, str] | None:
        """The mover and sentence of the choice just before ``first``, unless a phase,
        scoring or the end came between (a log asked ``since`` reads as the whole one)."""
        openers = self.kinds.phases | self.kinds.scores | {"game_over"}
        for at in range(first - 1, -1, -1):
            event = events[at]
            kind = event.get("type")
            if kind in ACTION_EVENTS:
                actor = event.get("player")
                return (actor if type(actor) is int else None), self.wording.event(event)
            if kind in openers:
                return None
        return None

    def take(self, i: int, event: Mapping[str, Any]) -> None:
        wording, kinds = self.wording, self.kinds
        kind = str(event.get("type"))
        actor = event.get("player")
        actor = actor if type(actor) is int else None
        if kind in ACTION_EVENTS:
            # a passed choice is the move itself; a chosen one may be told by its rule event
            entry = self.start(
                _Open(i, "action", actor, wording.event(event), kind == "choice" and not event.get("passed"))
            )
            if self.last_choice is not None and self.last_choice[0] == actor:
                entry.before = self.last_choice[1]
            self.last_choice = (actor, entry.text)
            entry.chosen = event.get("value")
            return
        if kind in kinds.phases or kind in kinds.scores or kind == "game_over":
            self.last_choice = None
        if kind == "game_over":
            self.start(_Open(i, "end", None, _over(self.game, wording), lines=_final(self.game, wording)))
            return
        if kind in kinds.phases or kind in kinds.scores:
            # a change just before that this event tells (the points of a scoring) is its
            self._drop_told_changes(event)
            entry_kind: EntryKind = "phase" if kind in kinds.phases else "score"
            self.start(_Open(i, entry_kind, actor, wording.event(event))).told.append(event)
            return
        current = self.current
        if current is None:  # a log asked since a cursor inside the setup
            current = self.current = _Open(i, "phase", None, wording.engine("setup"))
        if kind == "change":
            change = self.changes.see(event)
            if change is not None and event.get("var") not in kinds.setup:
                current.details.append(_Detail(event, change=change))
            return
        if kind == "move":
            self.changes.moved(event)
            if current.details and current.details[-1].joins(event) and not _item_leads(wording, event):
                current.details[-1].items.append(event["item"])
            else:
                current.details.append(_Detail(event, items=[event["item"]]))
            return
        if kind in TOLD_ENGINE_EVENTS:
            current.details.append(_Detail(event))
        else:
            self._tell(current, event, actor)

    def _tell(self, current: _Open, event: Mapping[str, Any], actor: int | None) -> None:
        """A rule event of the open entry: the move itself (the mover's first one), one of
        its details, or nothing (what the move, or the mover's move before, said)."""
        text = self.wording.event(event)
        current.told.append(event)
        others = _others_of_group(event, current.chosen) if current.kind == "action" else None
        if others is not None:
            # the group the move completes (all the pillars a card set): never the move
            # itself, and told only when it names more than the move chose
            if others:
                current.details.append(_Detail(event))
            return
        if text == current.before:
            return  # the mover's move before said it (its exchange, then what it hands in)
        if current.retell and len(current.told) == 1 and actor == current.actor:
            current.text = text  # the mover's own rule event tells the move best
            return
        current.details.append(_Detail(event))

    def _drop_told_changes(self, event: Mapping[str, Any]) -> None:
        """Leave out the changes at the end of the open entry that ``event`` tells."""
        details = self.current.details if self.current is not None else []
        while details and details[-1].change is not None and details[-1].change.numeric:
            if not _tells_number(self.wording, event, details[-1].change):
                return
            details.pop()


def _item_leads(wording: Wording, move: Mapping[str, Any]) -> bool:
    """Whether the sentence of a move starts with its item (``a card goes to …``): its verb
    agrees with one item, so several such moves are counted (``(2 times)``), not listed."""
    (src, _), (dst, _) = move["from"], move["to"]
    template = wording.lang.moves.get(f"{src}>{dst}") or wording.lang.engine.get("move")
    first = template.parts[0] if template is not None and template.parts else None
    return isinstance(first, Placeholder) and first.field == "item"


def _seen_move(detail: _Detail) -> bool:
    """Whether a detail is one move of an item the seat sees."""
    event = detail.event
    return (
        detail.change is None
        and event.get("type") == "move"
        and len(detail.items) == 1
        and not is_redacted(event["item"])
    )


def _over(game: PlayedGame, wording: Wording) -> str:
    """The end's sentence: the game is over, and who won."""
    winners = game.winners if game.is_over else []
    if not winners:
        return wording.engine("game_over")
    key = "over_winner" if len(winners) == 1 else "over_winners"
    return wording.engine(key, players=(wording.join([wording.player(p) for p in winners]), TEXT))


def _final(game: PlayedGame, wording: Wording) -> list[str]:
    """Each player's final score, once the game is over."""
    if not game.is_over:
        return []
    return [
        wording.engine("final_score", player=(p, PLAYER), points=(points, NUMBER)) for p, points in game.scores.items()
    ]


def _items_text(wording: Wording, told: ToldChanges, move: Mapping[str, Any], items: list[Any]) -> str:
    """The items of a run of moves in words: counted (``2 Casa cards``), or, hidden, by
    how many (``3 cards``)."""
    if is_redacted(items[0]):
        (src, _), (dst, _) = move["from"], move["to"]
        var = src if wording.hidden_item(src) is not None else dst
        return counted_hidden(wording, var, len(items))
    return listed(wording, items)


def _tells_number(wording: Wording, event: Mapping[str, Any], change: ToldChange) -> bool:
    """Whether a rule event gives the number of a change for the same player."""
    fields = wording.tables.declarations.events.get(str(event.get("type")), {})
    concerns = change.player is None or any(
        event.get(name) == change.player and type(event.get(name)) is int
        for name, vt in fields.items()
        if vt.kind == "player"
    )
    numbers = {abs(v) for name, v in event.items() if type(v) is int and fields.get(name, PLAYER).kind != "player"}
    return concerns and change.n in numbers


def _others_of_group(event: Mapping[str, Any], chosen: Any) -> list[Any] | None:
    """What a rule event's lists name besides the action's choice, when one of them holds
    that choice as one member of a group (``spaces: [j7, k7, k8]`` after choosing ``k8``);
    None when no list does (the event may tell the move itself: ``drain`` of the chosen
    space, ``build`` on the chosen cells).

    >>> _others_of_group({"type": "pillars", "player": 1, "spaces": ["j7", "k7", "k8"]}, "k8")
    ['j7', 'k7']
    >>> _others_of_group({"type": "pillars", "player": 1, "spaces": ["k8"]}, "k8")
    []
    >>> _others_of_group({"type": "build", "player": 1, "tile": "t", "cells": ["f7", "e7"]}, ["f7", "e7"]) is None
    True
    """
    if chosen is None or is_redacted(chosen):
        return None
    several = isinstance(chosen, (list, tuple))
    parts = [chosen, *chosen] if several else [chosen]
    others: list[Any] | None = None
    for key, value in event.items():
        if key == "type" or not isinstance(value, (list, tuple)) or value in parts:
            continue
        if several and all(v in parts for v in value):
            continue  # the very things chosen, in another order
        if any(part in value for part in parts):
            others = (others or []) + [v for v in value if v not in parts]
    return others


def _names(event: Mapping[str, Any], item: Any) -> bool:
    """Whether a rule event names ``item`` in one of its fields (or their lists)."""
    for key, value in event.items():
        if key == "type":
            continue
        if value == item or (isinstance(value, (list, tuple)) and item in value):
            return True
    return False


def _counted(texts: list[str], wording: Wording) -> list[str]:
    """Equal texts in a row told once, with their count (``p0 draws a card (3 times)``)."""
    out: list[str] = []
    runs: list[int] = []
    for text in texts:
        if out and out[-1] == text:
            runs[-1] += 1
        else:
            out.append(text)
            runs.append(1)
    return [t if n == 1 else wording.engine("times", text=(t, TEXT), n=(n, NUMBER)) for t, n in zip(out, runs)]
