"""A simulation against its base, played with the same seeds and bots (``--against``):
each figure of both, and the p-value of the test whether they differ (Fisher's exact test
for rates, Welch's t-test for means).

>>> from venedig_rules.simulate import Setup, simulate
>>> setup = Setup("tests/rulesets/lagoon", players=2, bots=("random",) * 2, games=8)
>>> same = compare(simulate(setup, jobs=1), simulate(setup, jobs=1))
>>> all(d["p"] == 1.0 for d in same["differences"]), same["differences"][0]["what"]
(True, "seat 0's win rate")
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from statistics import fmean
from typing import Any

from .metrics import PER_GAME, balance, balance_p, per_game
from .outcome import GameRecord, TallyKey
from .report import balance_report
from .run import Simulation
from .stats import means_from_sums_p, means_p, rate, rates_p, rounded

#: A difference is called significant below this p-value.
ALPHA = 0.05


def compare(sim: Simulation, base: Simulation) -> dict[str, Any]:
    """The base's report and every difference of ``sim`` from it, headline figures first
    (seats, first player, ties, ends, length, scores), then decisions, events and items."""
    return {
        "ruleset": base.name,
        "rules_hash": base.rules_hash,
        "report": balance_report(base),
        "alpha": ALPHA,
        "differences": list(_differences(sim, base)),
    }


def _difference(what: str, key: str, base: float, value: float, p: float, test: str) -> dict[str, Any]:
    return {
        "what": what,
        "key": key,
        "base": rounded(base),
        "variant": rounded(value),
        "p": rounded(p),
        "test": test,
        "significant": p < ALPHA,
    }


def _differences(sim: Simulation, base: Simulation) -> Iterator[dict[str, Any]]:
    new, old = sim.records, base.records
    n, m = len(new), len(old)

    def share(what: str, key: str, hit: Callable[[GameRecord], bool]) -> dict[str, Any]:
        k, j = sum(map(hit, new)), sum(map(hit, old))
        return _difference(what, key, rate(j, m), rate(k, n), rates_p(k, n, j, m), "fisher")

    def mean(what: str, key: str, get: Callable[[GameRecord], float | None]) -> dict[str, Any] | None:
        a = [v for v in map(get, new) if v is not None]
        b = [v for v in map(get, old) if v is not None]
        if not a or not b:
            return None
        return _difference(what, key, sum(b) / len(b), sum(a) / len(a), means_p(a, b), "welch")

    players = sim.setup.players
    for p in range(players):
        yield share(f"seat {p}'s win rate", f"seats.{p}.win_rate", _wins_of(p))
    if all(r.first_player is not None for r in new + old):
        yield share("the first player's win rate", "first_player.win_rate", lambda r: r.first_player in r.winners)
    yield share("the tie rate", "ties.rate", lambda r: len(r.winners) > 1)
    for end in sorted({r.end for r in new + old}):
        yield share(f"games ending '{end}'", f"end_reasons.{end}.rate", _ends_by(end))
    means = [
        mean("the mean length in actions", "length.actions.mean", lambda r: r.actions),
        mean("the mean length in rounds", "length.rounds.mean", lambda r: r.rounds),
        mean("the mean winning score", "scores.winner.mean", lambda r: r.winning_score),
    ]
    means += [mean(f"seat {p}'s mean score", f"seats.{p}.score.mean", _score_of(p)) for p in range(players)]
    yield from (d for d in means if d is not None)
    yield from _metric_differences(sim, base)
    yield from _tally_differences(sim, base)


def _metric_differences(sim: Simulation, base: Simulation) -> Iterator[dict[str, Any]]:
    """Each metric of the report's ``metrics``: a mean per game (Welch), a rate (Fisher),
    or the balance spread (a permutation test)."""
    new, old = sim.records, base.records
    n, m = len(new), len(old)
    for name in PER_GAME:
        a = [v for v in map(per_game(name), new) if v is not None]
        b = [v for v in map(per_game(name), old) if v is not None]
        if a and b:
            what = f"the mean {name.replace('.', ' in ').replace('_', ' ')}"
            yield _difference(what, f"metrics.{name}.mean", fmean(b), fmean(a), means_p(a, b), "welch")
    players = sim.setup.players
    spread_new, spread_old = balance(new, players)["spread"], balance(old, players)["spread"]
    p = balance_p(new, old, players)
    yield _difference(
        "the spread of the seats' win rates", "metrics.balance.spread", spread_old, spread_new, p, "permutation"
    )
    k, j = (sum(r.over and len(r.winners) != 1 for r in rs) for rs in (new, old))
    yield _difference(
        "the draw rate", "metrics.drawishness.rate", rate(j, m), rate(k, n), rates_p(k, n, j, m), "fisher"
    )


def _wins_of(seat: int) -> Callable[[GameRecord], bool]:
    return lambda r: seat in r.winners


def _ends_by(end: str) -> Callable[[GameRecord], bool]:
    return lambda r: r.end == end


def _score_of(seat: int) -> Callable[[GameRecord], float | None]:
    return lambda r: r.scores[seat] if r.scores else None


def _tally_differences(sim: Simulation, base: Simulation) -> Iterator[dict[str, Any]]:
    new, old = sim.tally, base.tally
    n, m = len(sim.records), len(base.records)
    # passes are no figure of their own in the report: they are part of their decision's
    keys = sorted({key for key in [*new.counts, *old.counts] if key.tally != "pass"})
    for key in keys:
        p = means_from_sums_p(new.counts[key], new.squares[key], n, old.counts[key], old.squares[key], m)
        what, path = _tally_figure(key)
        yield _difference(what, f"{path}.per_game", old.counts[key] / m, new.counts[key] / n, p, "welch")


def _tally_figure(key: TallyKey) -> tuple[str, str]:
    """What a tally's count per game is called, and where the report has it."""
    if key.tally == "item":
        return f"{key.ident} in '{key.event}' events per game", f"items.{key.kind}.{key.ident}.{key.event}"
    if key.tally == "event":
        return f"'{key.event}' events per game", f"events.{key.event}"
    if key.tally == "value":
        name = f"{key.event}.{key.field}"
        if not key.by:
            return f"'{name}' per game", f"values.{name}"
        return f"'{name}' by {key.by} {key.group} per game", f"values.{name}.by.{key.by}.{key.group}"
    return f"'{key.label}' {key.tally}s per game", f"decisions.{key.label}"
