"""How good a position is for each player: the result of a finished game, and an estimate
from the scores for one that is not finished (what search bots back up).

>>> import venedig_rules as vr
>>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
>>> estimate(game)  # level scores: an even game
[0.5, 0.5]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.game import Game


def outcome(game: Game) -> list[float]:
    """Each player's share of the win in a finished game: 1 for a sole winner, 1/k for k
    winners who share, 0 for the others (1/n each when nobody wins)."""
    winners = game.winners
    if not winners:
        return [1.0 / game.players] * game.players
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(game.players)]


def margin(game: Game, player: int, scores: dict[int, int] | None = None) -> int:
    """``player``'s score minus the best other score (on the track that decides the winner;
    ``scores``, else the game's as they stand)."""
    if scores is None:
        scores = game.scores
    if not scores:
        return 0
    best_other = max([s for p, s in scores.items() if p != player])
    return scores[player] - best_other


def score_scale(game: Game) -> float:
    """How many points make a clear lead: a tenth of the winner track's range (at least 1)."""

    def build(rules: Any) -> float:
        track = rules.winner_track
        for item in rules.items("scoring", "tracks"):
            if item.get("id") == track and isinstance(item.get("max"), int):
                return max(1.0, (int(item["max"]) - int(item.get("min", 0))) / 10)
        return 10.0

    # asked at every estimate of a search: worked out once per ruleset
    scale: float = game.rules.derived("bots.score_scale", build)
    return scale


def estimate(game: Game, projected: bool = False) -> list[float]:
    """The outcome when the game is over; else, for each player, a win chance from their lead
    over the best other score: ``1 / (1 + exp(-lead / scale))`` with :func:`score_scale`.
    ``projected``: the scores if the game ended now (``game.projected_scores()``: the
    ruleset's end scoring run on a copy), not as they stand.

    >>> import venedig_rules as vr
    >>> game = vr.load("rialto").new_game(players=2, seed=3)
    >>> estimate(game) == [0.5, 0.5], estimate(game, projected=True)[1] > 0.5
    (True, True)
    """
    if game.is_over:
        return outcome(game)
    scale = score_scale(game)
    scores = game.projected_scores() if projected else game.scores
    out = []
    for p in range(game.players):
        lead = margin(game, p, scores) / scale
        # clamped: exp overflows for a huge lead, and past 30 the chance is 0 or 1 anyway
        out.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, lead)))))
    return out
