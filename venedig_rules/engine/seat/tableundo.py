"""Table undo: whether a seat may take back its last action at the table, and if not, why.

``game.undo()`` takes back any action (search and tests need that). At a table, a seat may
take back only its own last action, and only while nothing has happened since that it
could not take back either: no other seat has acted, nothing hidden was shown to anyone
(a card drawn, a hand seen, commits revealed), no chance was drawn, the game is not over.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7)
>>> _ = game.apply("p0 pass").apply("p0 pass")  # keeps the gold, lays out no cards
>>> game.can_undo(0)
TableUndo(allowed=True, reason='')
>>> game.can_undo(1).reason
'p1 has made no move yet'
>>> _ = game.apply("p0 drain(k8)")
>>> print(game.can_undo(0).reason)
“p0 drains K8” showed what was hidden (p0 takes a swamp tile without gold): it cannot be taken back
>>> print(game.can_undo(0, "de").reason)
„p0 legt K8 trocken“ hat Verdecktes gezeigt (p0 nimmt ein Sumpfplättchen ohne Gold): das lässt sich nicht zurücknehmen

The reasons are the engine texts ``undo_*`` of ``texts.yaml``, in the asked language.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..run.views import visible
from .humanlog import human_log
from .seatview import seat_log
from .wording import PLAYER, TEXT, Wording

if TYPE_CHECKING:
    from ..run.undohistory import UndoPoint
    from .played import PlayedGame


class TableUndo(NamedTuple):
    """The answer of ``game.can_undo(player)``: ``allowed``, and ``reason`` (a sentence)
    when it is not. It is true exactly when allowed."""

    allowed: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.allowed


def check(game: PlayedGame, player: int, undo_point: Callable[[], UndoPoint], lang: str = "en") -> TableUndo:
    """Whether ``player`` may take back its last action at the table; ``undo_point`` gives
    where an undo of the last action would go back to (the game knows: it may replay).
    The reason is a sentence in ``lang`` (a ValueError names the languages when it is none)."""
    wording = Wording(game.rules, lang)
    played = game.played
    actions = played.actions
    if not any(a.player == player for a in actions):
        return TableUndo(False, wording.engine("undo_no_move", player=(player, PLAYER)))
    if game.is_over:
        return TableUndo(False, wording.engine("undo_over"))
    last = actions[-1]
    if last.player != player:
        return TableUndo(False, wording.engine("undo_not_last", player=(last.player, PLAYER)))
    before, n_events = undo_point()
    if before.rng != played.state.rng:
        return TableUndo(False, wording.engine("undo_chance", action=(_told(game, player, n_events, lang)[0], TEXT)))
    for event in played.events[n_events:]:
        if revealed(game, event):
            action, what = _told(game, player, n_events, lang)
            key, fields = "undo_revealed", {"action": (action, TEXT)}
            if what:
                key, fields["what"] = "undo_revealed_what", (what, TEXT)
            return TableUndo(False, wording.engine(key, **fields))
    return TableUndo(True)


def _told(game: PlayedGame, player: int, n_events: int, lang: str) -> tuple[str, str]:
    """The last action as the seat's human log tells it, and the first thing it caused
    that the log tells (what the seat itself saw)."""
    log = seat_log(game, player)
    since = bisect_left(log.index, n_events)
    entries = human_log(game, player, lang, since=since)
    action = next((e for e in entries if e["kind"] == "action"), None)
    details = [d for e in entries for d in e["details"]]
    return (action["text"] if action is not None else ""), (details[0] if details else "")


def revealed(game: PlayedGame, event: Mapping[str, Any]) -> bool:
    """Whether ``event`` may have shown someone what they could not see before: commits
    revealed, a private message, an item moving into sight, or any change of something
    not everyone sees (what it held may now show elsewhere)."""
    rules = game.rules
    kind = event.get("type")
    if kind == "reveal" or ("to" in event and kind not in ("move", "change", "choice", "commit")):
        return True
    if kind == "move":
        (src, i), (dst, j) = event["from"], event["to"]
        hidden = "hidden" in (rules.state_visibility(src), rules.state_visibility(dst))
        return hidden or any(not visible(rules, src, i, p) and visible(rules, dst, j, p) for p in range(game.players))
    return kind == "change" and rules.state_visibility(event["var"]) != "all"
