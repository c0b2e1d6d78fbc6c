"""The human log (``game.log``): one entry per move, as a board-game site shows it, built
from a seat's redacted events, so it tells no seat more than its view does.

An entry is ``{"index", "kind", "actor", "text", "details"}``:

- ``"action"``: exactly one per action applied, opened by its ``choice`` or ``commit``
  event; ``text`` is the move in words (the rule event that tells it, when the mover's
  first rule event does: ``p0 drains F6`` rather than ``p0 chooses to drain F6``; a secret
  choice reads ``p1 chooses in secret`` to the others), ``details`` what it caused (cards
  moved, points, a reveal), each told once.
- ``"phase"``: a rule event the ruleset's ``texts.yaml`` ``log: phases`` names (a turn, a
  round, a stage) and what follows it before the next move; the setup before the first
  move is one phase entry too.
- ``"score"``: a rule event ``log: scores`` names (a scoring of the round or the end).
- ``"end"``: the game is over, with each player's score and the winners.

State changes (``change`` events) are bookkeeping for machines and never told; equal
details in a row are told once with their count. ``index`` is the position in the seat's
event log where the entry starts, the same count as a view's ``cursor``: ``since=cursor``
gives the entries that started after that view.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass").apply("p0 pass")
>>> for entry in human_log(game, 1):
...     print(entry["kind"], entry["actor"], entry["text"])
phase None The game is set up
phase 0 --- turn 1: p0 ---
action 0 p0 keeps the gold
action 0 p0 lays out no cards
>>> human_log(game, 1)[0]["details"][:2]
['p0 draws a card (3 times)', 'p1 draws a Basilica card']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from ...data.texts import LogKinds, log_kinds
from ...errors import GameArgumentError
from ..run.views import SPECTATOR, is_redacted
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
    text: str
    event: Mapping[str, Any]


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

    def close(self, wording: Wording) -> LogEntry:
        kept = [d for d in self.details if not (d.event.get("type") == "move" and self._retold(d.event))]
        return {
            "index": self.index,
            "kind": self.kind,
            "actor": self.actor,
            "text": self.text,
            "details": _counted([d.text for d in kept], wording),
        }

    def _retold(self, move: Mapping[str, Any]) -> bool:
        """Whether a rule event of this entry already tells a move: it names the item, or
        the item is hidden and a rule event tells the move in its own words."""
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
    entries = _entries(game, log.events, start, wording, kinds)
    return entries if since is None else [e for e in entries if e["index"] >= since]


def _opener_at_or_before(events: Sequence[Mapping[str, Any]], at: int, kinds: LogKinds) -> int:
    """Where the entry holding event ``at`` starts (0: the setup), so that a log asked
    ``since`` a cursor is built from there on only."""
    opening = ACTION_EVENTS | kinds.phases | kinds.scores | {"game_over"}
    for i in range(min(at, len(events) - 1), -1, -1):
        if events[i].get("type") in opening:
            return i
    return 0


def _entries(
    game: PlayedGame, events: Sequence[Mapping[str, Any]], first: int, wording: Wording, kinds: LogKinds
) -> list[LogEntry]:
    entries: list[LogEntry] = []
    current: _Open | None = None

    def start(entry: _Open) -> _Open:
        if current is not None:
            entries.append(current.close(wording))
        return entry

    for i in range(first, len(events)):
        event = events[i]
        kind = str(event.get("type"))
        if kind in ACTION_EVENTS:
            actor = event.get("player")
            current = start(
                _Open(i, "action", actor if type(actor) is int else None, wording.event(event), kind == "choice")
            )
            current.chosen = event.get("value")
        elif kind == "game_over":
            current = start(_Open(i, "end", None, wording.engine("game_over")))
            current.details = [_Detail(line, event) for line in _final(game, wording)]
        elif kind in kinds.phases or kind in kinds.scores:
            actor = event.get("player")
            entry_kind: EntryKind = "phase" if kind in kinds.phases else "score"
            current = start(_Open(i, entry_kind, actor if type(actor) is int else None, wording.event(event)))
            current.told.append(event)
        elif kind == "change":
            continue  # bookkeeping: the moves and rule events tell what it means
        else:
            if current is None:
                current = _Open(i, "phase", None, wording.engine("setup"))
            text = wording.event(event)
            if kind not in TOLD_ENGINE_EVENTS:
                if current.retell and not current.told and event.get("player") == current.actor:
                    current.text = text  # the mover's own rule event tells the move best
                    current.told.append(event)
                    continue
                current.told.append(event)
            current.details.append(_Detail(text, event))
    if current is not None:
        entries.append(current.close(wording))
    return entries


def _final(game: PlayedGame, wording: Wording) -> list[str]:
    """Each player's score and the winners, once the game is over."""
    if not game.is_over:
        return []
    lines = [
        wording.engine("final_score", player=(p, PLAYER), points=(points, NUMBER)) for p, points in game.scores.items()
    ]
    winners = wording.join([wording.player(p) for p in game.winners])
    return [*lines, wording.engine("over_winners", players=(winners, TEXT))]


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
