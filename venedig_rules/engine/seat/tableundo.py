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
'p1 has not acted yet'
>>> _ = game.apply("p0 drain(k8)")
>>> print(game.can_undo(0).reason)
p0 drain(k8) revealed something (p0's gold: 0-gold swamp tile)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..run.views import redact_event, visible
from .wording import Wording

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


def check(game: PlayedGame, player: int, undo_point: Callable[[], UndoPoint]) -> TableUndo:
    """Whether ``player`` may take back its last action at the table; ``undo_point`` gives
    where an undo of the last action would go back to (the game knows: it may replay)."""
    played = game.played
    actions = played.actions
    mine = [i for i, a in enumerate(actions) if a.player == player]
    if not mine:
        return TableUndo(False, f"p{player} has not acted yet")
    if game.is_over:
        return TableUndo(False, "the game is over")
    last = actions[-1]
    if last.player != player:
        return TableUndo(False, f"p{player} has no action to take back: p{last.player} acted last")
    before, n_events = undo_point()
    if before.rng != played.state.rng:
        return TableUndo(False, f"chance was drawn after {last}: a shuffle or a random draw cannot be taken back")
    for event in played.events[n_events:]:
        if revealed(game, event):
            shown = redact_event(game.rules, event, player)
            what = Wording(game.rules).event(shown) if shown is not None else "a private message"
            return TableUndo(False, f"{last} revealed something ({what})")
    return TableUndo(True)


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
