"""Why an action is not legal, in a person's words: the game is over; it is not that seat's
turn (and who is deciding what); that seat has no such decision now (and what it is
deciding); or the value is not among the options (with the closest ones).

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")  # keeps the gold
>>> print(why_illegal(game, vr.parse_action("p1 pass")))
p1 pass is not legal: p1 is not to move; it is p0's turn (p0 is laying out building cards)
>>> print(why_illegal(game, vr.parse_action("p0 drain(f11)")))  # doctest: +NORMALIZE_WHITESPACE
p0 drain(f11) is not legal: p0 has no 'drain' decision now; p0 is deciding 'play' (Lay out building cards,
or none), e.g. p0 play([basilica_card]); legal: p0 play([basilica_card]), ...
>>> print(why_illegal(game, vr.parse_action("p0 play([casa_card])")))
p0 play([casa_card]) is not legal: [casa_card] is not among p0's options (Lay out building cards, or none); closest: ...

Sent by another seat (``seat``), the refusal names none of the acting seat's options: they
depend on its hand, which the sender may not see.

>>> print(why_illegal(game, vr.parse_action("p0 play([casa_card])"), seat=1))
p0 play([casa_card]) is not legal: p1 may act only as p1, not in p0's name
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from ..run.notation import PASS, Action
from .decisions import prompt, waiting
from .wording import Wording

if TYPE_CHECKING:
    from .played import PlayedGame

#: How many legal actions a message lists.
SHOWN = 8


def why_illegal(game: PlayedGame, action: Action, seat: int | None = None) -> str:
    """The reason ``action`` is not legal now (the game is left as it is), as told to
    ``seat``, the seat that sent it (None: a caller who may act for every seat)."""
    head = f"{action} is not legal"
    if seat is not None and seat != action.player:
        return f"{head}: {not_in_name(seat, action.player)}"
    if game.is_over:
        return f"{head}: the game is over"
    movers = game.to_move
    if action.player not in movers:
        turn = "; ".join(f"{w['prompt']}" for w in waiting(game))
        whose = ", ".join(f"p{p}" for p in movers)
        return f"{head}: p{action.player} is not to move; it is {whose}'s turn ({turn})"
    legal = game.legal_actions(action.player)
    pending = game.played.state.pending
    assert pending is not None
    asked = prompt(game, Wording(game.rules), action.player)
    listed = _listed(legal)
    if action.name == PASS and action.value is None:
        return f"{head}: p{action.player} may not pass now ({asked}); legal: {listed}"
    if action.name != pending.label:
        return (
            f"{head}: p{action.player} has no {action.name!r} decision now; p{action.player} is deciding "
            f"{pending.label!r} ({asked}), e.g. {legal[0]}; legal: {listed}"
        )
    texts = [str(a) for a in legal if a.name != PASS]
    close = difflib.get_close_matches(str(action), texts, n=3, cutoff=0.0)
    return (
        f"{head}: {_value(action)} is not among p{action.player}'s options ({asked}); "
        f"closest: {', '.join(close)}; legal: {listed}"
    )


def not_in_name(seat: int, player: int) -> str:
    """Why ``seat`` may not act for ``player``: the same words whatever the game holds, for
    another seat's options (and whether it is to move) are no business of the sender.

    >>> not_in_name(0, 1)
    "p0 may act only as p0, not in p1's name"
    """
    return f"p{seat} may act only as p{seat}, not in p{player}'s name"


def _value(action: Action) -> str:
    text = str(action)
    return text[text.index("(") + 1 : -1] if "(" in text else text


def _listed(legal: list[Action]) -> str:
    shown = ", ".join(str(a) for a in legal[:SHOWN])
    return shown if len(legal) <= SHOWN else f"{shown}, ... ({len(legal)} in all)"
