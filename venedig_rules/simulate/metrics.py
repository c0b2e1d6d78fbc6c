"""The game-design metrics of a balance report (``metrics``), after Ludii's where it has
them (docs/simulate.md states each definition): decisiveness, lead changes and drama from
each game's score history, duration, branching factor, score spread, balance, drawishness
and the first player's advantage with an exact binomial test.

A game's *leader* after some actions is the one seat with the highest score (none while
several share it). Everything is read from the game records: no game has Python here.

>>> from venedig_rules.simulate.outcome import ScorePoint
>>> steady = [ScorePoint(0, (1, 0)), ScorePoint(2, (3, 0)), ScorePoint(4, (5, 1))]
>>> decisiveness(steady, 0, 6), lead_changes(steady), drama(steady, 0, 6)
(1.0, 0, 0.0)
>>> turned = [ScorePoint(0, (0, 0)), ScorePoint(1, (0, 2)), ScorePoint(3, (4, 2))]
>>> decisiveness(turned, 0, 4), lead_changes(turned), drama(turned, 0, 4)
(0.25, 1, 2.0)
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from .outcome import GameRecord, ScorePoint
from .stats import binomial_p, rate, rounded, summary

#: Permutations drawn for the p-value of a difference in balance (a fixed seed: the same
#: reports give the same p-value).
PERMUTATIONS = 999


def leader(scores: Sequence[int]) -> int | None:
    """The one seat with the highest score; None when several share it (or no scores).

    >>> leader((3, 5, 1)), leader((5, 5, 1))
    (1, None)
    """
    if not scores:
        return None
    top = max(scores)
    seats = [p for p, s in enumerate(scores) if s == top]
    return seats[0] if len(seats) == 1 else None


def sole_winner(record: GameRecord) -> int | None:
    """The winner of a finished game won by one seat alone (else None)."""
    return record.winners[0] if record.over and len(record.winners) == 1 else None


def decisiveness(history: Sequence[ScorePoint], winner: int, actions: int) -> float | None:
    """The share of a game's actions played after the eventual winner took the lead for
    good (Ludii's *DecisivenessMoves*, with the score as the state's evaluation and the
    sole lead as its threshold): 1.0 when the winner leads from the start, 0.0 when it never
    leads alone at the end (won on a tie-breaker). None for a game without actions."""
    if actions <= 0 or not history:
        return None
    decided = None  # the action count from which the winner leads to the end
    for point in history:
        leads = leader(point.scores) == winner
        decided = None if not leads else point.actions if decided is None else decided
    return 0.0 if decided is None else rounded((actions - decided) / actions)


def lead_changes(history: Sequence[ScorePoint]) -> int:
    """How often the lead passes from one seat to another (Ludii's *LeadChange*, counted;
    a shared lead between two leaders is no change of its own)."""
    changes, last = 0, None
    for point in history:
        now = leader(point.scores)
        if now is not None:
            changes += last is not None and now != last
            last = now
    return changes


def drama(history: Sequence[ScorePoint], winner: int, actions: int) -> float | None:
    """How far behind the eventual winner was, on average, over the states in which some
    seat was ahead of it (Ludii's *DramaAverage*, in points): 0.0 when the winner was never
    behind. Each state counts for the actions it lasted (the last one counts one)."""
    if not history:
        return None
    gaps, states = 0, 0
    for point, after in zip(history, [*history[1:], None], strict=True):
        lasted = (after.actions if after is not None else max(actions, point.actions) + 1) - point.actions
        gap = max(point.scores) - point.scores[winner]
        if gap > 0:
            gaps += gap * lasted
            states += lasted
    return rounded(gaps / states) if states else 0.0


def metrics(records: list[GameRecord], players: int) -> dict[str, Any]:
    """Every metric of a simulation's games (the report's ``metrics``)."""
    n = len(records)
    won = [(r, w) for r in records if (w := sole_winner(r)) is not None and r.history]
    return {
        "decisiveness": _mean_of([decisiveness(r.history, w, r.actions) for r, w in won]),
        "lead_changes": {
            **_mean_of([float(lead_changes(r.history)) for r in records if r.history]),
            "per_action": _mean_of([_per_action(r) for r in records if r.history and r.actions])["mean"],
        },
        "drama": _mean_of([drama(r.history, w, r.actions) for r, w in won]),
        "duration": {
            "actions": summary([r.actions for r in records]),
            "rounds": summary([r.rounds for r in records if r.rounds is not None]),
        },
        "branching_factor": {
            "mean": rate(sum(r.options for r in records), sum(r.decisions for r in records)),
            "per_game": summary([r.options / r.decisions for r in records if r.decisions]),
        },
        "score_spread": summary([max(r.scores) - min(r.scores) for r in records if r.scores]),
        "balance": balance(records, players),
        "drawishness": _drawishness(records, n),
        "first_player": first_player_advantage(records, players),
    }


def per_game(name: str) -> Callable[[GameRecord], float | None]:
    """The value one game gives to metric ``name`` (for the comparison of two simulations;
    None where the game gives none)."""
    readers: dict[str, Callable[[GameRecord], float | None]] = {
        "decisiveness": lambda r: _with_winner(r, decisiveness),
        "lead_changes": lambda r: float(lead_changes(r.history)) if r.history else None,
        "drama": lambda r: _with_winner(r, drama),
        "duration.actions": lambda r: r.actions,
        "duration.rounds": lambda r: r.rounds,
        "branching_factor": lambda r: r.options / r.decisions if r.decisions else None,
        "score_spread": lambda r: max(r.scores) - min(r.scores) if r.scores else None,
    }
    return readers[name]


#: The metrics compared as means of a value per game.
PER_GAME = (
    "decisiveness",
    "lead_changes",
    "drama",
    "duration.actions",
    "duration.rounds",
    "branching_factor",
    "score_spread",
)


def balance(records: list[GameRecord], players: int) -> dict[str, Any]:
    """The spread of the seats' win rates (best less worst) and Ludii's *Balance*, one less
    that spread (1.0: every seat wins as often)."""
    rates = _seat_rates(records, players)
    spread = max(rates) - min(rates) if rates else 0.0
    return {"spread": rounded(spread), "value": rounded(1 - spread), "win_rates": [rounded(x) for x in rates]}


def balance_p(new: list[GameRecord], old: list[GameRecord], players: int) -> float:
    """The p-value of a permutation test that two simulations' balance spreads differ:
    the share of random reshuffles of their games between them that differ at least as
    much."""
    seen = abs(balance(new, players)["spread"] - balance(old, players)["spread"])
    pool, k = [*new, *old], len(new)
    draw = random.Random(0)
    hits = 0
    for _ in range(PERMUTATIONS):
        draw.shuffle(pool)
        a, b = pool[:k], pool[k:]
        diff = abs(balance(a, players)["spread"] - balance(b, players)["spread"])
        hits += diff >= seen - 1e-12
    return rounded((hits + 1) / (PERMUTATIONS + 1))


def first_player_advantage(records: list[GameRecord], players: int) -> dict[str, Any] | None:
    """The first player's win rate against a fair share of the wins, and the p-value of an
    exact binomial test that it is that share; the same for each seat. None when the rules
    name no first player."""
    known = [r for r in records if r.first_player is not None]
    if not known:
        return None
    n = len(known)
    fair = sum(len(r.winners) for r in known) / (n * players)
    wins = sum(r.first_player in r.winners for r in known)
    seats = []
    for seat in range(players):
        k = sum(seat in r.winners for r in records)
        seats.append(_against_fair(seat, k, len(records), fair))
    return {**_against_fair(None, wins, n, fair), "games": n, "fair_share": rounded(fair), "seats": seats}


def _against_fair(seat: int | None, k: int, n: int, fair: float) -> dict[str, Any]:
    head = {"seat": seat} if seat is not None else {}
    return {
        **head,
        "wins": k,
        "rate": rate(k, n),
        "advantage": rounded(k / n - fair) if n else 0.0,
        "p": rounded(binomial_p(k, n, fair)),
    }


def _seat_rates(records: list[GameRecord], players: int) -> list[float]:
    if not records:
        return []
    return [sum(p in r.winners for r in records) / len(records) for p in range(players)]


def _drawishness(records: list[GameRecord], n: int) -> dict[str, Any]:
    """Ludii's *Drawishness*: the share of finished games not won by one seat alone (shared
    wins, no winner); games cut off by ``max_actions`` are Ludii's *Timeouts*, apart."""
    draws = sum(r.over and len(r.winners) != 1 for r in records)
    cut = sum(not r.over for r in records)
    return {"games": draws, "rate": rate(draws, n), "timeouts": cut, "timeout_rate": rate(cut, n)}


def _with_winner(record: GameRecord, metric: Callable[[Sequence[ScorePoint], int, int], float | None]) -> float | None:
    winner = sole_winner(record)
    return metric(record.history, winner, record.actions) if winner is not None and record.history else None


def _per_action(record: GameRecord) -> float:
    return lead_changes(record.history) / record.actions


def _mean_of(values: Sequence[float | None]) -> dict[str, Any]:
    """The mean (and spread) of the values games gave, with how many gave one."""
    known = [v for v in values if v is not None]
    if not known:
        return {"mean": None, "games": 0}
    return {
        "mean": rounded(statistics.fmean(known)),
        "sd": rounded(statistics.stdev(known)) if len(known) > 1 else 0.0,
        "games": len(known),
    }
