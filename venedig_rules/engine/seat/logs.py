"""What a game keeps of the views it gave: each seat's redacted events, counted the way the
seat received them, with their sentences, and what the seats share of them.

The logs are brought up to date with the new events only (and cut back when an undo took
events away), so following a game with ``view(p, since=cursor)`` costs time in the new
events, not in the length of the game. A game holds them in ``game.played.views``
(:mod:`.played`); :mod:`.seatview` reads them.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")  # keeps the gold
>>> views = ViewLogs()
>>> log = views.log(1)
>>> log.sync(game.rules, game.played.events, views.shared)
>>> len(log.events) == game.view(1)["cursor"], log.events[1]["type"]
(True, 'move')
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..run.views import SafeCopies, is_redacted, redact_event
from .wording import Wording

if TYPE_CHECKING:
    from ..run.events import Event
    from ..run.ruleset_base import RulesetBase
    from .logchanges import Seen


class SeatLog:
    """One seat's redacted events, in step with the game's log: the raw events it has seen
    (to notice an undo), the index in ``game.events`` of each event it received, the
    redacted events, their sentences by (language, names), and by language the human log's
    checkpoints (``seen``: what the seat had seen of the variables the log follows after so
    many of its events, :class:`~.logchanges.Seen`)."""

    __slots__ = ("events", "index", "player", "raw", "seen", "texts")

    def __init__(self, player: int | None):
        self.player = player
        self.raw: list[Event] = []
        self.index: list[int] = []
        self.events: list[Event] = []
        #: by (language, names): the sentence of each event, None until it was asked for
        self.texts: dict[tuple[str, tuple[str, ...] | None], list[str | None]] = {}
        self.seen: dict[str, dict[int, Seen]] = {}

    def copy(self) -> SeatLog:
        """An independent copy (of lists of shared, unchanging events, sentences and
        checkpoints: the same seat's, cut back by ``sync`` where the games part)."""
        other = SeatLog(self.player)
        other.raw, other.index, other.events = list(self.raw), list(self.index), list(self.events)
        other.texts = {key: list(texts) for key, texts in self.texts.items()}
        other.seen = {lang: dict(kept) for lang, kept in self.seen.items()}
        return other

    def sync(self, rules: RulesetBase, events: Sequence[Event], shared: Shared) -> None:
        """Take in the game's new ``events``, after cutting back what an undo took away."""
        copies = shared.copies
        keep = _common_prefix(self.raw, events)
        if keep < len(self.raw):
            del self.raw[keep:]
            cut = _first_at_or_after(self.index, keep)
            del self.index[cut:], self.events[cut:]
            for texts in self.texts.values():
                del texts[cut:]
            for kept in self.seen.values():
                for at in [at for at in kept if at > cut]:
                    del kept[at]
        for i in range(len(self.raw), len(events)):
            event = events[i]
            self.raw.append(event)
            shown = redact_event(rules, event, self.player, copies)
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


class ViewLogs:
    """Everything a game keeps of the views it gave: each seat's log (``logs``, by seat;
    a spectator's too), the logs of the game it was cloned from (``of_original``: a seat's
    is copied when the clone first gives that seat a view, so a clone of a long game tells
    only its own new events) and what the seats share (``shared``, with the original's)."""

    __slots__ = ("logs", "of_original", "shared")

    def __init__(self, shared: Shared | None = None, of_original: Mapping[int | None, SeatLog] | None = None):
        self.logs: dict[int | None, SeatLog] = {}
        self.of_original = of_original
        self.shared = Shared() if shared is None else shared

    def log(self, player: int | None) -> SeatLog:
        """The seat's log as kept (bring it up to date with :meth:`SeatLog.sync`)."""
        log = self.logs.get(player)
        if log is None:
            original = self.of_original
            found = original.get(player) if original else None
            log = self.logs[player] = found.copy() if found is not None else SeatLog(player)
        return log

    def followed(self) -> ViewLogs:
        """The views of a clone of the game: they share the copies and sentences of events
        (kept by the events' identity, the same in both) and start each seat's log from this
        game's (``sync`` cuts it back where the two games part)."""
        return ViewLogs(self.shared, self.logs or self.of_original)


def _as_is(shown: Mapping[str, Any], raw: Mapping[str, Any]) -> bool:
    """Whether a seat sees an event as it is (no value or item redacted)."""
    for field in ("value", "item"):
        if field in shown and is_redacted(shown[field]) and not is_redacted(raw[field]):
            return False
    return True


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
