"""The balance report of a simulation as JSON-safe data (``--format json``); the text
report and the plots are drawn from it.

>>> from venedig_rules.simulate import Setup, simulate
>>> sim = simulate(Setup("tests/rulesets/lagoon", players=2, bots=("random",) * 2, games=6), jobs=1)
>>> report = balance_report(sim)
>>> report["games"], [s["seat"] for s in report["seats"]], sorted(report["length"])
(6, [0, 1], ['actions', 'rounds'])
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .metrics import metrics
from .outcome import ChoiceKey, GameRecord, ItemKey, Tally, TallyKey, ValueKey
from .run import Simulation
from .stats import rate, rates_p, rounded, summary, wilson

#: The format of a report: its name and version, in every report.
REPORT_FORMAT = "venedig-rules/balance-report"
REPORT_VERSION = 2


def balance_report(sim: Simulation) -> dict[str, Any]:
    """Every figure of a simulation: who wins (per seat, with 95% intervals), the first
    player's advantage, ties, scores, length, how games ended, and how often each decision,
    event and item came up."""
    records, setup = sim.records, sim.setup
    n = len(records)
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "ruleset": sim.name,
        "title": sim.title,
        "rules_hash": sim.rules_hash,
        "players": setup.players,
        "bots": list(setup.bots),
        "seed": setup.seed,
        "games": n,
        "finished": sum(r.over for r in records),
        "seats": [_seat(records, p, setup.bots[p]) for p in range(setup.players)],
        "first_player": _first_player(sim),
        "ties": {"games": (k := sum(len(r.winners) > 1 for r in records)), "rate": rate(k, n)},
        "scores": _scores(records),
        "length": {
            "actions": summary([r.actions for r in records]),
            "rounds": summary([r.rounds for r in records if r.rounds is not None]),
        },
        "end_reasons": {end: _end(records, end, n) for end in sorted({r.end for r in records})},
        "metrics": metrics(records, setup.players),
        "decisions": _decisions(sim.tally, n),
        "events": {key.event: _count(sim.tally, key, n) for key in sorted(sim.tally.counts) if key.tally == "event"},
        "items": _items(sim, n),
        "values": values(sim.tally, n),
        "item_win_rates": item_win_rates(records),
    }


def _end(records: list[GameRecord], end: str, n: int) -> dict[str, Any]:
    """How many games ended so, and the fields of the events that ended them (which player,
    which building type ran out...), each value with its count."""
    ended = [r for r in records if r.end == end]
    details: dict[str, Counter[str]] = {}
    for r in ended:
        for name, value in r.end_details:
            details.setdefault(name, Counter())[value] += 1
    detail = {name: dict(sorted(c.items())) for name, c in sorted(details.items())}
    return {**_share(len(ended), n), "details": detail}


def values(tally: Tally, n: int) -> dict[str, Any]:
    """The sums of the numbers events carry (``event.field``: points of ``points`` events),
    in all and by each word or id carried beside (by reason, by building), per game."""
    out: dict[str, Any] = {}
    for key in sorted(k for k in tally.counts if k.tally == "value"):
        assert isinstance(key, ValueKey)
        entry = out.setdefault(f"{key.event}.{key.field}", {"total": 0, "per_game": 0.0, "by": {}})
        figure = {"total": tally.counts[key], "per_game": rate(tally.counts[key], n), "games": tally.games[key]}
        if not key.by:
            entry.update(figure)
        else:
            entry["by"].setdefault(key.by, {})[key.group] = figure
    return out


def item_win_rates(records: list[GameRecord]) -> dict[str, Any]:
    """For each item some seat used (named in an event naming that seat), the win rate of
    the seats that used it in a game against those that did not, and the p-value of
    Fisher's exact test that the two are the same (finished games only)."""
    finished = [r for r in records if r.over and r.used]
    seats = [(seat in r.winners, set(used)) for r in finished for seat, used in enumerate(r.used)]
    every = sorted({name for _, used in seats for name in used})
    out: dict[str, dict[str, Any]] = {}
    for name in every:
        kind, ident = name.split(":", 1)
        users = [won for won, used in seats if name in used]
        others = [won for won, used in seats if name not in used]
        k, j = sum(users), sum(others)
        out.setdefault(kind, {})[ident] = {
            "used": len(users),
            "win_rate": rate(k, len(users)),
            "not_used": len(others),
            "win_rate_not_used": rate(j, len(others)),
            "difference": rounded(rate(k, len(users)) - rate(j, len(others))),
            "p": rounded(rates_p(k, len(users), j, len(others))),
        }
    return out


def _share(k: int, n: int) -> dict[str, Any]:
    return {"games": k, "rate": rate(k, n)}


def _wins(k: int, n: int) -> dict[str, Any]:
    return {"wins": k, "win_rate": rate(k, n), "ci95": list(wilson(k, n))}


def _seat(records: list[GameRecord], seat: int, bot: str) -> dict[str, Any]:
    wins = sum(seat in r.winners for r in records)
    scores = [r.scores[seat] for r in records if r.scores]
    return {"seat": seat, "bot": bot, **_wins(wins, len(records)), "score": summary(scores)}


def _first_player(sim: Simulation) -> dict[str, Any] | None:
    records, players = sim.records, sim.setup.players
    known = [(r.first_player, r.winners) for r in records if r.first_player is not None]
    if not known:
        return None
    n = len(known)
    by_position = []
    for position in range(players):
        wins = sum((first + position) % players in winners for first, winners in known)
        by_position.append({"position": position, **_wins(wins, n)})
    # a seat's fair share: all wins spread evenly (ties give several winners, unfinished games none)
    fair = sum(len(winners) for _, winners in known) / (n * players)
    first = by_position[0]
    return {
        "games": n,
        **{key: first[key] for key in ("wins", "win_rate", "ci95")},
        "fair_share": rounded(fair),
        "advantage": rounded(first["wins"] / n - fair),
        "by_position": by_position,
    }


def _scores(records: list[GameRecord]) -> dict[str, Any]:
    scored = [r for r in records if r.scores]
    winning = [r.winning_score for r in scored if r.winning_score is not None]
    margins = []
    for r in scored:
        others = [s for p, s in enumerate(r.scores) if p not in r.winners]
        if r.winning_score is not None and others:
            margins.append(r.winning_score - max(others))
    every = [s for r in scored for s in r.scores]
    return {
        "all": summary(every),
        "histogram": {str(score): count for score, count in sorted(Counter(every).items())},
        "winner": summary(winning),
        "margin": summary(margins),
    }


def _count(tally: Tally, key: TallyKey, n: int) -> dict[str, Any]:
    count = tally.counts[key]
    return {"count": count, "per_game": rate(count, n), "games": tally.games[key]}


def _decisions(tally: Tally, n: int) -> dict[str, Any]:
    labels = sorted(key.label for key in tally.counts if key.tally == "decision")
    return {
        label: {**_count(tally, ChoiceKey("decision", label), n), "passed": tally.counts[ChoiceKey("pass", label)]}
        for label in labels
    }


def _items(sim: Simulation, n: int) -> dict[str, Any]:
    # every item the ruleset has is listed, also those no game named (with no events)
    events: dict[tuple[str, str], list[str]] = {}  # (kind, ident) -> the event types naming it
    for key in sorted(sim.tally.counts):
        if key.tally == "item":
            events.setdefault((key.kind, key.ident), []).append(key.event)
    return {
        kind: {
            ident: {e: _count(sim.tally, ItemKey("item", kind, ident, e), n) for e in events.get((kind, ident), [])}
            for ident in ids
        }
        for kind, ids in sim.items.items()
        if ids
    }
