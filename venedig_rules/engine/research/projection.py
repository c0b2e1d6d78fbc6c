"""Projected scores: what each seat would score if the game ended now, by the ruleset's own
end scoring (its scoring rules with ``when: game_end``, or another trigger word) run on a
copy of the position. For search bots, whose estimate of an unfinished position is
otherwise flat in games that score mostly at the end (Rialto's districts and buildings).

Generic: it runs the rules' DSL, no per-game code. The copy is thrown away; the game is
untouched. A decision the end scoring asks (Venedig's final gold exchange) is taken for
the seat asked greedily, the option that leaves it the most points; where the end scoring
cannot run now (it reads a value the game sets only when it ends, or fails), the scores
as they stand are given.

>>> import venedig_rules as vr
>>> game = vr.load("rialto").new_game(players=2, seed=3)
>>> projected_scores(game)[0] >= game.scores[0]
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import RuleRuntimeError
from ..run.machine import Frame, Machine, PendingChoice, PendingCommits, State

if TYPE_CHECKING:
    from ..run.notation import Action
    from ..run.ruleset_base import RulesetBase
    from ..seat.played import PlayedGame

#: What the end scoring may fail with on a position where it cannot run yet.
_CANNOT = (RuleRuntimeError, TypeError, ValueError, KeyError, IndexError, RecursionError)


def projected_scores(game: PlayedGame, when: str = "game_end", decisions: int = 16) -> dict[int, int]:
    """Each player's score on the winner track after the scoring rules of ``when`` run on
    a copy of ``game`` now (the scores as they stand when the game is over, has no such
    rules, or they cannot run now). At most ``decisions`` decisions of the end scoring are
    taken (greedily for the seat asked); past them, the scores reached so far."""
    played = game.played
    rules, players, state = played.rules, played.players, played.state
    track = rules.winner_track
    if not track:
        return {}
    now = {p: state.vars[track][p] for p in range(players)}
    compiled = rules.compiled_flow
    found = compiled.rules_by_when.get(when, ()) if not state.over else ()
    if not found:
        return now
    names: dict[str, Any] = {"players": tuple(range(players)), "self": None}
    # the rules run in file order: the first on top of the stack
    frames = tuple([Frame(code, 0, None, {**names, "item": rule}, shared=True) for code, rule in reversed(found)])
    try:
        after = Machine(rules, players, State(state.vars, frames, None, state.rng), None).run()
        for _ in range(decisions):
            if after.pending is None or after.over:
                break
            after = _greedy(rules, players, after, track)
    except _CANNOT:
        return now
    return {p: after.vars[track][p] for p in range(players)}


def _greedy(rules: RulesetBase, players: int, state: State, track: str) -> State:
    """``state`` after its pending decision is taken by its first seat asked: the option
    that leaves that seat the most points once the rules run on (the first such)."""
    pending = state.pending
    assert isinstance(pending, (PendingChoice, PendingCommits))
    player = pending.movers()[0]
    best: State | None = None
    for action in pending.legal_actions(player):
        after = _resume(rules, players, state, action)
        if best is None or after.vars[track][player] > best.vars[track][player]:
            best = after
    if best is None:
        raise RuleRuntimeError(f"player {player} has no option at {pending.label!r}")
    return best


def _resume(rules: RulesetBase, players: int, state: State, action: Action) -> State:
    machine = Machine(rules, players, state, None)
    assert state.pending is not None
    return machine.resume(state.pending, action)
