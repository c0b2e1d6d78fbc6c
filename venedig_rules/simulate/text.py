"""The balance report as text for a person (``--format text``), from its JSON form.

>>> print(percent(0.3125), number(2.0), number(7), p_value(0.00042), p_value(0.0312))
31.2% 2.0 7 p < 0.001 p = 0.031
"""

from __future__ import annotations

from typing import Any

from ..present.describe import table


def percent(value: float) -> str:
    """A share as a percentage with one decimal."""
    return f"{100 * value:.1f}%"


def number(value: float) -> str:
    """A count as it is, anything else (a mean, a rate per game) with one decimal."""
    return str(value) if isinstance(value, int) else f"{value:.1f}"


def p_value(p: float) -> str:
    """A p-value with three decimals; below 0.001 only that it is."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def interval(ci: list[float]) -> str:
    """A 95% interval of a rate, in percent."""
    low, high = ci
    return f"{percent(low)}-{percent(high)}"


def spread(stats: dict[str, Any] | None) -> str:
    """``mean 41.2 (sd 6.1, 22-60)``, or ``-`` for no values."""
    if stats is None:
        return "-"
    return f"mean {number(stats['mean'])} (sd {number(stats['sd'])}, {number(stats['min'])}-{number(stats['max'])})"


def render(report: dict[str, Any], against: dict[str, Any] | None = None) -> str:
    """The whole report as lines of text; with ``against`` (see :func:`~.compare.compare`)
    the differences from the base follow."""
    n = report["games"]
    bots = ", ".join(report["bots"])
    players, seed = report["players"], report["seed"]
    out = [f"{report['ruleset']} ({report['title']}): {n} games, {players} players ({bots}), seed {seed}"]
    if report["finished"] != n:
        out.append(f"  {n - report['finished']} game(s) cut off by max_actions: counted without a winner")
    out += ["", *_winners(report), "", *_lengths(report), "", *_metrics(report), "", *_tallies(report)]
    out += ["", *_values(report), "", *_item_win_rates(report)]
    if against is not None:
        out += ["", *render_against(against)]
    return "\n".join(out) + "\n"


def _winners(report: dict[str, Any]) -> list[str]:
    """Who wins: by seat, the ties, and the first player's share."""
    out = ["who wins (a shared win counts for each winner)"]
    rows: list[tuple[str, ...]] = [
        (f"p{s['seat']}", s["bot"], str(s["wins"]), percent(s["win_rate"]), interval(s["ci95"]), spread(s["score"]))
        for s in report["seats"]
    ]
    out += table(("seat", "bot", "wins", "win rate", "95% interval", "score"), rows)
    ties = report["ties"]
    out.append(f"  ties: {ties['games']} game(s), {percent(ties['rate'])}")
    first = report["first_player"]
    if first is None:
        out.append("  first player: the rules declare none (flow.report.first_player)")
        return out
    out.append(
        f"  first player: wins {percent(first['win_rate'])} ({interval(first['ci95'])}), fair share "
        f"{percent(first['fair_share'])}: advantage {100 * first['advantage']:+.1f} points"
    )
    by = ", ".join(f"{_ordinal(b['position'] + 1)} {percent(b['win_rate'])}" for b in first["by_position"])
    out.append(f"  win rate by place in turn order: {by}")
    return out


def _lengths(report: dict[str, Any]) -> list[str]:
    """The scores, the length of the games and how they ended."""
    scores = report["scores"]
    out = [
        f"scores: {spread(scores['all'])}",
        f"  winning score: {spread(scores['winner'])}",
        f"  winner's lead over the best other: {spread(scores['margin'])}",
        f"length in actions: {spread(report['length']['actions'])}",
        f"length in rounds: {spread(report['length']['rounds'])}",
        "",
        "how games ended",
    ]
    # the commonest end first; ends as common as each other by name, so the order is stable
    ends = sorted(report["end_reasons"].items(), key=lambda kv: (-kv[1]["games"], kv[0]))
    out += table(("end", "games", "share"), [(e, str(v["games"]), percent(v["rate"])) for e, v in ends])
    for end, v in ends:
        for name, counts in v.get("details", {}).items():
            shown = ", ".join(f"{value} {count}" for value, count in sorted(counts.items(), key=lambda kv: -kv[1]))
            out.append(f"  {end}, by {name}: {shown}")
    return out


def _metrics(report: dict[str, Any]) -> list[str]:
    """The game-design metrics (docs/simulate.md defines each)."""
    m = report["metrics"]

    def mean(figure: dict[str, Any]) -> str:
        return "-" if figure["mean"] is None else f"{figure['mean']:.3f} (over {figure['games']} games)"

    balance = m["balance"]
    draws = m["drawishness"]
    out = [
        "metrics (after Ludii's; docs/simulate.md)",
        f"  decisiveness: {mean(m['decisiveness'])}",
        f"  lead changes per game: {mean(m['lead_changes'])}",
        f"  drama (points the winner was behind): {mean(m['drama'])}",
        f"  branching factor: {m['branching_factor']['mean']:.2f} legal actions per decision",
        f"  score spread (best less worst): {spread(m['score_spread'])}",
        f"  balance: {balance['value']:.3f} (seat win rates spread {percent(balance['spread'])})",
        f"  drawishness: {percent(draws['rate'])} ({draws['games']} game(s)); cut off: {draws['timeouts']}",
    ]
    first = m["first_player"]
    if first is not None:
        out.append(
            f"  first player: wins {percent(first['rate'])} against a fair {percent(first['fair_share'])}, "
            f"binomial {p_value(first['p'])}"
        )
        seats = ", ".join(f"p{s['seat']} {100 * s['advantage']:+.1f} ({p_value(s['p'])})" for s in first["seats"])
        out.append(f"  advantage by seat: {seats}")
    return out


def _values(report: dict[str, Any]) -> list[str]:
    """The numbers events carry, summed (per game), in all and by word or id."""
    if not report["values"]:
        return ["values carried by events: none"]
    rows: list[tuple[str, ...]] = []
    for name, v in report["values"].items():
        rows.append((name, "", number(v["per_game"])))
        for by, groups in v["by"].items():
            rows += [(f"  by {by}", group, number(g["per_game"])) for group, g in groups.items()]
    return ["values carried by events (sum per game)", *table(("value", "of", "per game"), rows)]


def _item_win_rates(report: dict[str, Any]) -> list[str]:
    """The win rate of the seats that used each item against those that did not."""
    rows: list[tuple[str, ...]] = []
    for kind, items in report["item_win_rates"].items():
        for ident, w in items.items():
            used = f"{percent(w['win_rate'])} of {w['used']}"
            rows.append(
                (f"{kind} {ident}", used, f"{percent(w['win_rate_not_used'])} of {w['not_used']}", p_value(w["p"]))
            )
    if not rows:
        return ["win rate by item used: no event names an item with a seat"]
    return ["win rate of the seats that used each item (seat-games)", *table(("item", "used", "not used", "p"), rows)]


def _tallies(report: dict[str, Any]) -> list[str]:
    """How often each decision, event and item came up."""
    n = report["games"]
    out = ["decisions (per game; passed: of them, how often the player passed)"]
    rows: list[tuple[str, ...]] = [
        (label, number(d["per_game"]), number(d["passed"] / n), percent(d["games"] / n))
        for label, d in report["decisions"].items()
    ]
    out += table(("decision", "per game", "passed", "in games"), rows)
    out += ["", "events (per game)"]
    rows = [(kind, number(e["per_game"]), percent(e["games"] / n)) for kind, e in report["events"].items()]
    out += table(("event", "per game", "in games"), rows)
    for kind, items in report["items"].items():
        if not any(items.values()):
            out += ["", f"{kind.replace('_', ' ')}: none is named in an event"]
            continue
        out += ["", f"{kind.replace('_', ' ')} named in events (per game, share of games)"]
        rows = [(ident, _uses(uses, n)) for ident, uses in items.items()]
        out += table(("id", "events"), rows)
    return out


def render_against(against: dict[str, Any]) -> list[str]:
    """The differences from the base: every headline figure, and the decisions, events and
    items whose difference is significant."""
    base = against["report"]
    out = [f"against {base['ruleset']} (the same {base['games']} seeds and bots)"]
    quiet = 0
    for d in against["differences"]:
        headline = d["key"].split(".")[0] not in ("decisions", "events", "items", "values")
        if not headline and not d["significant"]:
            quiet += 1
            continue
        rates = d["key"].endswith("rate")
        shown = percent if rates else _fine if d["key"].startswith("metrics.") else number
        mark = " *" if d["significant"] else ""
        out.append(f"  {d['what']} {shown(d['base'])} → {shown(d['variant'])}, {p_value(d['p'])}{mark}")
    out.append(
        f"  * p < {against['alpha']} (no correction for the many figures compared: expect about one in twenty "
        "to be marked by chance)"
    )
    if quiet:
        out.append(
            f"  {quiet} decision, event, item and value figure(s) with no significant difference are in the JSON"
        )
    return out


def _fine(value: float) -> str:
    """A metric, with three decimals (decisiveness 0.25 is no 0.2)."""
    return f"{value:.3f}"


def _uses(uses: dict[str, Any], n: int) -> str:
    if not uses:
        return "-"
    return ", ".join(f"{e} {number(u['per_game'])} ({percent(u['games'] / n)})" for e, u in uses.items())


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"
