"""What one finished game says: its scores, winners, length, rounds, end and first player
(:class:`GameRecord`), and the tallies of its decisions, events and items (:class:`Tally`).

Everything is read from the game's state and events as the ruleset's ``flow.report``
declares (docs/simulate.md): no game has Python of its own here.

>>> import venedig_rules as vr
>>> from venedig_rules.bots import RandomBot, play_out
>>> rules = vr.load("tests/rulesets/lagoon")
>>> game = rules.new_game(players=2, seed=3)
>>> first = first_player(rules, game)
>>> record, counts = read_game(rules, play_out(game, {0: RandomBot(0), 1: RandomBot(1)}), 0, 3, first)
>>> record.rounds == game.value("round"), record.actions == len(game.actions), record.end
(True, True, 'game over')
>>> counts[ChoiceKey("decision", "bid")] == 2 * record.rounds  # one commit of each player per round
True
"""

from __future__ import annotations

import string
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.ruleset_base import RulesetBase

#: The end of a game that ran out of ``flow.max_actions`` before it was over.
UNFINISHED = "unfinished (max_actions reached)"
#: The end of a game whose ruleset declares no end events, or none of which it emitted.
GAME_OVER = "game over"

#: The kinds of item the report counts: report name -> (file kind, list key).
ITEM_KINDS = {
    "cards": ("cards", "cards"),
    "card_types": ("cards", "types"),
    "tiles": ("tiles", "tiles"),
    "buildings": ("buildings", "buildings"),
}

#: The engine's own events that stand for one decision each (a choice, or a commit to a
#: simultaneous decision).
_DECISION_EVENTS = ("choice", "commit")


@dataclass(frozen=True)
class GameRecord:
    """One finished (or cut off) game: ``scores`` and ``winners`` by seat, its length in
    ``actions`` and ``rounds`` (None when the ruleset declares no rounds), how it ``end``-ed,
    and the ``first_player`` once set up (None when undeclared)."""

    index: int
    seed: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    rounds: int | None
    end: str
    first_player: int | None
    over: bool
    #: The scores by seat at the start and after each action that changed them:
    #: ``(actions applied, scores)``, the first at 0 actions.
    history: tuple[ScorePoint, ...] = ()
    #: Every decision's number of legal actions summed, and the decisions counted.
    options: int = 0
    decisions: int = 0
    #: Each seat's items named in an event that names that seat: "kind:id".
    used: tuple[tuple[str, ...], ...] = ()
    #: The fields of the event that ended the game (its player, its reason, the building type
    #: that ran out...), as text; fields left none are left out.
    end_details: tuple[tuple[str, str], ...] = ()

    @property
    def winning_score(self) -> int | None:
        """The best score among the winners (None without scores or winners)."""
        return max(self.scores[p] for p in self.winners) if self.scores and self.winners else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (one line of ``games.jsonl``)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "actions": self.actions,
            "rounds": self.rounds,
            "end": self.end,
            "first_player": self.first_player,
            "over": self.over,
            "score_history": [[p.actions, list(p.scores)] for p in self.history],
            "branching": {"options": self.options, "decisions": self.decisions},
            "used": [list(u) for u in self.used],
            "end_details": dict(self.end_details),
        }


class ScorePoint(NamedTuple):
    """The ``scores`` by seat once ``actions`` actions were applied."""

    actions: int
    scores: tuple[int, ...]


class Play(NamedTuple):
    """What a simulation watches while a game is played: its score ``history`` and the
    legal ``options`` summed over its ``decisions``."""

    history: tuple[ScorePoint, ...] = ()
    options: int = 0
    decisions: int = 0


#: What :func:`read_game` takes for a game played without watching it.
NOT_WATCHED = Play()


# The keys of a tally. Each starts with the name of its ``tally`` and equals the plain tuple
# of its fields, so keys of different kinds sort apart (by that name first) and
# ``counts["event", "turn"]`` still finds ``EventKey("event", "turn")``.


class ChoiceKey(NamedTuple):
    """A decision taken (``tally`` "decision") or passed ("pass") at its ``label``."""

    tally: Literal["decision", "pass"]
    label: str


class EventKey(NamedTuple):
    """A rule event of type ``event``."""

    tally: Literal["event"]
    event: str


class ItemKey(NamedTuple):
    """The item ``ident``, counted under ``kind`` (a key of :data:`ITEM_KINDS`), named in an
    event of type ``event``."""

    tally: Literal["item"]
    kind: str
    ident: str
    event: str


class ValueKey(NamedTuple):
    """The sum of number field ``field`` of events of type ``event``: in all (``by`` and
    ``group`` empty), or of the events whose field ``by`` holds ``group`` (points by reason,
    by building...)."""

    tally: Literal["value"]
    event: str
    field: str
    by: str
    group: str


#: What a tally counts by.
TallyKey = ChoiceKey | EventKey | ItemKey | ValueKey


@dataclass
class Tally:
    """Counts over games, by :data:`TallyKey`: ``counts`` of occurrences, the number of
    ``games`` with at least one, and the sum of each game's count squared (``squares``, for
    the spread of the counts per game). Integer sums, so adding tallies in any order gives
    the same totals."""

    counts: Counter[TallyKey] = field(default_factory=Counter)
    games: Counter[TallyKey] = field(default_factory=Counter)
    squares: Counter[TallyKey] = field(default_factory=Counter)

    def add(self, other: Tally) -> Tally:
        """Add another tally's sums to this one; returns this one."""
        self.counts.update(other.counts)
        self.games.update(other.games)
        self.squares.update(other.squares)
        return self

    def add_game(self, counts: Counter[TallyKey]) -> None:
        """Add the counts of one game."""
        self.counts.update(counts)
        self.games.update(counts.keys())
        self.squares.update({key: n * n for key, n in counts.items()})


@dataclass(frozen=True)
class Reading:
    """What to read from a ruleset's games, from its ``flow.report`` and item lists (built
    once per ruleset)."""

    rounds_state: str | None
    rounds_event: str | None
    rounds_per_player: bool
    first_player: str | None
    end_events: dict[str, str]
    end_otherwise: str
    rule_events: frozenset[str]
    item_kinds: dict[str, tuple[str, ...]]  # item id -> the kinds it is counted under
    card_types: dict[str, str]  # card id -> its card type
    fields: dict[str, EventFields]  # event type -> how its declared fields are read

    @classmethod
    def of(cls, rules: RulesetBase) -> Reading:
        reading: Reading = rules.derived("simulate.reading", cls._build)
        return reading

    @classmethod
    def _build(cls, rules: RulesetBase) -> Reading:
        game = rules.data["game"]
        report = (game.get("flow") or {}).get("report") or {}
        rounds = report.get("rounds") or {}
        kinds: dict[str, list[str]] = {}
        for kind, (file_kind, key) in ITEM_KINDS.items():
            for item in rules.items(file_kind, key):
                kinds.setdefault(item["id"], []).append(kind)
        card_types = {c["id"]: c["type"] for c in rules.items("cards") if isinstance(c.get("type"), str)}
        return cls(
            rounds_state=rounds.get("state"),
            rounds_event=rounds.get("event"),
            rounds_per_player=bool(rounds.get("per_player")),
            first_player=report.get("first_player"),
            end_events=dict(report.get("end_events") or {}),
            end_otherwise=report.get("end_otherwise") or GAME_OVER,
            rule_events=frozenset(game.get("events") or {}),
            item_kinds={ident: tuple(k) for ident, k in kinds.items()},
            card_types=card_types,
            fields={kind: EventFields.of(decl) for kind, decl in (game.get("events") or {}).items()},
        )


class EventFields(NamedTuple):
    """How a rule event's declared fields are read: its ``numbers`` (summed as values), the
    fields naming its ``seats`` (a player; a field named ``player`` alone when there is
    one) and those holding a value per player (``per_player``)."""

    numbers: tuple[str, ...]
    seats: tuple[str, ...]
    per_player: tuple[str, ...]

    @classmethod
    def of(cls, declared: Any) -> EventFields:
        fields = (declared or {}).get("fields") or {}
        numbers = tuple(name for name, kind in fields.items() if kind == "number")
        seats = tuple(name for name, kind in fields.items() if _names_player(kind))
        per_player = tuple(name for name, kind in fields.items() if isinstance(kind, dict) and "per_player" in kind)
        return cls(numbers, ("player",) if "player" in seats else seats, per_player)


def _names_player(kind: Any) -> bool:
    if kind == "player":
        return True
    return isinstance(kind, dict) and "player" in (kind.get("one_of") or ())


def events_read(rules: RulesetBase) -> frozenset[str]:
    """The event types :func:`read_game` reads: a game played for a simulation keeps these
    only (``new_game(..., record=False, keep_events=...)``)."""
    return frozenset(_DECISION_EVENTS) | Reading.of(rules).rule_events


def first_player(rules: RulesetBase, game: Game) -> int | None:
    """The first player of a game just set up, as ``flow.report.first_player`` declares."""
    name = Reading.of(rules).first_player
    return None if name is None else int(game.value(name))


def read_game(
    rules: RulesetBase, game: Game, index: int, seed: int, first: int | None, play: Play = NOT_WATCHED
) -> tuple[GameRecord, Counter[TallyKey]]:
    """The record of a played game and the counts of its decisions, events, items and the
    values its events carry; ``play`` is what was watched while it was played."""
    reading = Reading.of(rules)
    events: list[dict[str, Any]] = [dict(event) for event in game.events]  # read as plain mappings
    counts: Counter[TallyKey] = Counter()
    used: list[set[str]] = [set() for _ in range(game.players)]
    end = None
    details: tuple[tuple[str, str], ...] = ()
    for event in events:
        kind = event["type"]
        if kind in _DECISION_EVENTS:
            counts[ChoiceKey("decision", event["label"])] += 1
            if event.get("passed"):
                counts[ChoiceKey("pass", event["label"])] += 1
        elif kind in reading.rule_events:
            counts[EventKey("event", kind)] += 1
            _count_items(reading, event, counts)
            _count_values(reading.fields[kind], event, counts)
            _mark_used(reading, event, used)
            if end is None and kind in reading.end_events:
                end = _end_text(reading.end_events[kind], event)
                # a field the ending left empty (no building type ran out at a turn limit) says nothing
                details = tuple(
                    (name, str(value)) for name, value in sorted(event.items()) if name != "type" and value is not None
                )
    if not game.is_over:
        end, details = UNFINISHED, ()
    record = GameRecord(
        index=index,
        seed=seed,
        scores=tuple(game.scores[p] for p in range(game.players)) if game.scores else (),
        winners=tuple(game.winners),
        actions=sum(n for key, n in counts.items() if key.tally == "decision"),  # one event per action applied
        rounds=_rounds(reading, game, counts),
        end=end or reading.end_otherwise,
        first_player=first,
        over=game.is_over,
        history=play.history,
        options=play.options,
        decisions=play.decisions,
        used=tuple(tuple(sorted(u)) for u in used),
        end_details=details,
    )
    return record, counts


def _end_text(template: str, event: dict[str, Any]) -> str:
    """The template with the event's fields put in as they are (``{reason}``: ``goal reached``)."""
    fields = {name: str(value) for name, value in event.items()}
    return string.Formatter().vformat(template, (), _Fields(fields))


class _Fields(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _count_items(reading: Reading, event: dict[str, Any], counts: Counter[TallyKey]) -> None:
    kind = event["type"]
    for name, value in event.items():
        if name == "type":
            continue
        for ident in value if isinstance(value, list) else (value,):
            if isinstance(ident, str) and ident in reading.item_kinds:
                for item_kind in reading.item_kinds[ident]:
                    counts[ItemKey("item", item_kind, ident, kind)] += 1
                if ident in reading.card_types:
                    counts[ItemKey("item", "card_types", reading.card_types[ident], kind)] += 1


def _count_values(fields: EventFields, event: dict[str, Any], counts: Counter[TallyKey]) -> None:
    """Sum each number an event carries, in all and by each word or id it carries beside."""
    kind = event["type"]
    for name in fields.numbers:
        value = event.get(name)
        if value.__class__ is not int:
            continue
        counts[ValueKey("value", kind, name, "", "")] += value
        for by, group in event.items():
            if by != "type" and group.__class__ is str:
                counts[ValueKey("value", kind, name, by, group)] += value


def _mark_used(reading: Reading, event: dict[str, Any], used: list[set[str]]) -> None:
    """Note the items an event names as used by the seats it names (a value per player
    goes to its own seat)."""
    fields = reading.fields[event["type"]]
    seats = [v for name in fields.seats if (v := event.get(name)).__class__ is int and 0 <= v < len(used)]
    for name, value in event.items():
        if name == "type":
            continue
        if name in fields.per_player and isinstance(value, list):
            for seat, ident in enumerate(value[: len(used)]):
                used[seat].update(_item_names(reading, ident))
        elif seats:
            names = [
                n for ident in (value if isinstance(value, list) else (value,)) for n in _item_names(reading, ident)
            ]
            for seat in seats:
                used[seat].update(names)


def _item_names(reading: Reading, ident: Any) -> list[str]:
    """``kind:id`` of each kind an item is counted under (a card's type too)."""
    if not isinstance(ident, str) or ident not in reading.item_kinds:
        return []
    names = [f"{kind}:{ident}" for kind in reading.item_kinds[ident]]
    if ident in reading.card_types:
        names.append(f"card_types:{reading.card_types[ident]}")
    return names


def _rounds(reading: Reading, game: Game, counts: Counter[TallyKey]) -> int | None:
    if reading.rounds_state is not None:
        return int(game.value(reading.rounds_state))
    if reading.rounds_event is not None:
        n = counts[EventKey("event", reading.rounds_event)]
        return -(-n // game.players) if reading.rounds_per_player else n
    return None
