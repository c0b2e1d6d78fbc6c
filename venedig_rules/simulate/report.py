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

from .outcome import ChoiceKey, GameRecord, ItemKey, Tally, TallyKey
from .run import Simulation
from .stats import rate, rounded, summary, wilson

#: The format of a report: its name and version, in every report.
REPORT_FORMAT = "venedig-rules/balance-report"
REPORT_VERSION = 1


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
        "end_reasons": {end: _share(sum(r.end == end for r in records), n) for end in sorted({r.end for r in records})},
        "decisions": _decisions(sim.tally, n),
        "events": {key.event: _count(sim.tally, key, n) for key in sorted(sim.tally.counts) if key.tally == "event"},
        "items": _items(sim, n),
    }


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
