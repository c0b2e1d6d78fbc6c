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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ...errors import GameArgumentError
from ..run.machine import PendingCommits
from ..run.views import SPECTATOR, DecisionView, GameView, json_safe, redact_state
from .decisions import prompt, waiting
from .logs import SeatLog, ViewLogs
from .wording import Wording

if TYPE_CHECKING:
    from .played import PlayedGame


def views_of(game: PlayedGame) -> ViewLogs:
    """What the game keeps of the views it gave (``game.played.views``, made at the first)."""
    played = game.played
    views = played.views
    if views is None:
        views = played.views = ViewLogs()
    return views


def seat_log(game: PlayedGame, player: int | None) -> SeatLog:
    """The seat's log, brought up to date (kept on the game's record; a clone starts from
    a copy of its original's, which ``sync`` cuts back where the two games part)."""
    views = views_of(game)
    log = views.log(player)
    log.sync(game.rules, game.played.events, views.shared)
    return log


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
    s = game.played.state
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
        common = views_of(game).shared
        common.trim(len(game.played.events))
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
