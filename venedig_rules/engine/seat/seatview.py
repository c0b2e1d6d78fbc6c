"""A seat's view of a game: its redacted state, its decision, who is deciding what, and
its own event log with a sentence per event, counted the way the seat received it.

A seat's log leaves out the rule events addressed to other seats (``event(..., to: p)``),
so it can be shorter than ``game.events``. ``view["cursor"]`` is the number of events the
seat has received so far; ``view(p, since=cursor)`` gives only the ones after those. The
redacted events and their sentences are kept per seat and per language, brought up to date
with the new events only (and cut back when an undo took events away), so following a game
with ``since`` costs time in the new events, not in the length of the game.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")  # keeps the gold
>>> view = build_view(game, 1)
>>> view["waiting_for"], view["cursor"] == len(view["events"])
([{'player': 0, 'label': 'play', 'prompt': 'p0 is laying out building cards'}], True)
>>> build_view(game, 1, since=view["cursor"])["events"]
[]
>>> view["events"][1]["text"]
'p0 draws a card'
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ...errors import GameArgumentError
from ..run.machine import PendingCommits
from ..run.views import (
    SPECTATOR,
    DecisionView,
    GameView,
    SafeCopies,
    is_redacted,
    json_safe,
    redact_event,
    redact_state,
)
from .decisions import prompt, waiting
from .wording import Wording

if TYPE_CHECKING:
    from ..run.events import Event
    from .played import PlayedGame


class SeatLog:
    """One seat's redacted events, in step with the game's log: the raw events it has seen
    (to notice an undo), the index in ``game.events`` of each event it received, the
    redacted events, and their sentences by (language, names)."""

    __slots__ = ("events", "index", "player", "raw", "texts")

    def __init__(self, player: int | None):
        self.player = player
        self.raw: list[Event] = []
        self.index: list[int] = []
        self.events: list[Event] = []
        #: by (language, names): the sentence of each event, None until it was asked for
        self.texts: dict[tuple[str, tuple[str, ...] | None], list[str | None]] = {}

    def copy(self) -> SeatLog:
        """An independent copy (of lists of shared, unchanging events and sentences)."""
        other = SeatLog(self.player)
        other.raw, other.index, other.events = list(self.raw), list(self.index), list(self.events)
        other.texts = {key: list(texts) for key, texts in self.texts.items()}
        return other

    def sync(self, game: PlayedGame) -> None:
        """Take in the game's new events, after cutting back what an undo took away."""
        events = game._events
        copies = shared(game).copies
        keep = _common_prefix(self.raw, events)
        if keep < len(self.raw):
            del self.raw[keep:]
            cut = _first_at_or_after(self.index, keep)
            del self.index[cut:], self.events[cut:]
            for texts in self.texts.values():
                del texts[cut:]
        for i in range(len(self.raw), len(events)):
            event = events[i]
            self.raw.append(event)
            shown = redact_event(game.rules, event, self.player, copies)
            if shown is not None:
                self.index.append(i)
                self.events.append(shown)

    def sentences(self, wording: Wording, start: int, shared: Shared) -> list[str]:
        """The sentence of each of the seat's events from ``start`` on (an event the seat
        sees as it is has the same sentence for every seat: it is told once). The ones
        before ``start`` are not told until they are asked for."""
        key = (wording.code, wording.names)
        texts = self.texts.setdefault(key, [])
        texts.extend([None] * (len(self.events) - len(texts)))
        for i in range(start, len(self.events)):
            if texts[i] is None:
                event, raw = self.events[i], self.raw[self.index[i]]
                texts[i] = shared.text(wording, key, raw) if _as_is(event, raw) else wording.event(event)
        return cast("list[str]", texts[start:])


class Shared:
    """What the seats of a game share of the events every seat that sees them sees as
    they are: their JSON-safe ``copies`` and their sentences (by language and names), each
    made once for all seats. An entry keeps its event, so a key is never reused."""

    __slots__ = ("by_key", "copies")

    def __init__(self) -> None:
        self.by_key: dict[tuple[object, ...], tuple[Mapping[str, Any], str]] = {}
        self.copies: SafeCopies = {}

    def text(self, wording: Wording, key: tuple[object, ...], raw: Mapping[str, Any]) -> str:
        found = self.by_key.get((*key, id(raw)))
        if found is not None and found[0] is raw:
            return found[1]
        text = wording.event(raw)
        self.by_key[(*key, id(raw))] = (raw, text)
        return text

    def trim(self, events: int) -> None:
        """Forget everything once the cache holds far more than the game's events (undone
        events stay in it until then)."""
        if len(self.by_key) > 4 * events + 1000:
            self.by_key.clear()
        if len(self.copies) > 2 * events + 1000:
            self.copies.clear()


def shared(game: PlayedGame) -> Shared:
    """The game's :class:`Shared` (kept on the game; a clone shares its original's: see
    :func:`follow_views`)."""
    found: Shared = game.__dict__.setdefault("_shared", Shared())
    return found


def _as_is(shown: Mapping[str, Any], raw: Mapping[str, Any]) -> bool:
    """Whether a seat sees an event as it is (no value or item redacted)."""
    for field in ("value", "item"):
        if field in shown and is_redacted(shown[field]) and not is_redacted(raw[field]):
            return False
    return True


def seat_log(game: PlayedGame, player: int | None) -> SeatLog:
    """The seat's log, brought up to date (kept on the game; a clone starts from a copy of
    its original's, which ``sync`` cuts back where the two games part)."""
    logs: dict[int | None, SeatLog] = game.__dict__.setdefault("_seat_logs", {})
    log = logs.get(player)
    if log is None:
        original = game.__dict__.get("_seat_logs_of_original")
        found = original.get(player) if original else None
        log = logs[player] = found.copy() if found is not None else SeatLog(player)
    log.sync(game)
    return log


def follow_views(game: PlayedGame, clone: PlayedGame) -> None:
    """Let a clone of ``game`` start its views from ``game``'s: it shares the copies and
    sentences of events (kept by the events' identity, the same in both) and copies a
    seat's log when it first gives that seat a view (a clone of a long game then tells
    only its own new events, instead of every event again)."""
    found = game.__dict__
    if "_shared" in found:
        clone.__dict__["_shared"] = found["_shared"]
    logs = found.get("_seat_logs") or found.get("_seat_logs_of_original")
    if logs:
        clone.__dict__["_seat_logs_of_original"] = logs


def forget_views(game: object) -> None:
    """Let a game made from a clone with other events (a sample) start its views afresh."""
    for key in ("_seat_logs", "_seat_logs_of_original", "_shared"):
        vars(game).pop(key, None)


def cursor(game: PlayedGame, player: int | None) -> int:
    """How many events ``player`` has received so far: the ``cursor`` of its view now."""
    return len(seat_log(game, player).events)


def build_view(
    game: PlayedGame,
    player: int | None,
    since: int = 0,
    *,
    compact: bool = False,
    lang: str = "en",
    names: Sequence[str] | None = None,
    events: bool = True,
) -> GameView:
    """What ``player`` (a spectator when ``None``) may know, JSON-safe (see ``Game.view``).
    Without ``events``, the state only: no events and ``cursor`` 0 (for a game that keeps
    no record, whose views tell no events: its seats' logs are not even kept)."""
    if player is not None and (type(player) is not int or not 0 <= player < game.players):
        raise GameArgumentError(
            f"{player!r} is not a seat of this game: expected 0 to {game.players - 1}, or None for a spectator"
        )
    seat = SPECTATOR if player is None else player
    log = seat_log(game, seat) if events else None
    received = len(log.events) if log is not None else 0
    if type(since) is not int or not 0 <= since <= received:
        who = "a spectator" if player is None else f"p{player}"
        raise GameArgumentError(
            f"since={since!r} is not a count of the events {who} has received (0 to {received}); "
            "after an undo, ask again from 0"
        )
    wording = Wording(game.rules, lang, names)
    s = game._state
    pending = s.pending
    decision: DecisionView | None = None
    if pending is not None and player in game.to_move:
        decision = {
            "label": pending.label,
            "actions": [str(a) for a in game.legal_actions(player)],
            "prompt": prompt(game, wording, player),
        }
    committed = None
    if isinstance(pending, PendingCommits) and player in pending.players:
        commit = pending.commit_of(player)
        committed = json_safe(commit[0]) if commit is not None else None
    told: list[Any] = []
    if log is not None:
        common = shared(game)
        common.trim(len(game._events))
        texts = log.sentences(wording, since, common)
        told = [{**event, "text": text} for event, text in zip(log.events[since:], texts)]
    view: GameView = {
        "ruleset": game.rules.name,
        "player": player,
        "players": game.players,
        "to_move": list(game.to_move),
        "over": s.over,
        "winners": list(game.winners),
        "state": redact_state(game.rules, s.vars, seat, game.players),
        "decision": decision,
        "your_commit": committed,
        "waiting_for": waiting(game, lang, names),
        "events": told,
        "cursor": received,
        "lang": lang,
    }
    return cast(GameView, compacted(view)) if compact else view


def compacted(value: Any) -> Any:
    """``value`` without the null entries of its mappings (lists keep their places)."""
    if isinstance(value, dict):
        return {k: compacted(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [compacted(v) for v in value]
    return value


def _common_prefix(seen: Sequence[Mapping[str, Any]], events: Sequence[Mapping[str, Any]]) -> int:
    """How many of ``seen`` are still the game's first events (the same objects): events
    only grow or are cut back, so the answer is found by bisection."""
    low, high = 0, min(len(seen), len(events))
    if high == len(seen) and (high == 0 or events[high - 1] is seen[high - 1]):
        return high
    while low < high:
        mid = (low + high + 1) // 2
        if events[mid - 1] is seen[mid - 1]:
            low = mid
        else:
            high = mid - 1
    return low


def _first_at_or_after(index: list[int], raw: int) -> int:
    """The position in the sorted ``index`` of the first raw index >= ``raw``."""
    return bisect_left(index, raw)
