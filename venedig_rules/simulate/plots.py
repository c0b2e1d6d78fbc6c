"""The plots of a balance report (``--out DIR``), as PNG and SVG, drawn with matplotlib
(the ``sim`` extra, imported when first needed): win rates per seat with their 95%
intervals, scores, game length, how games ended, and who leads along the games (from
their score histories); with a base, both side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .metrics import leader
from .outcome import GameRecord
from .run import Simulation

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: The plots written, by file stem.
PLOTS = ("win_rates", "scores", "length", "end_reasons", "lead")
#: Points along a game at which the ``lead`` plot reads who leads (shares of its actions).
_LEAD_POINTS = 21
_FORMATS = ("png", "svg")
_COLOURS = ("#3b6ea5", "#b0b0b0")  # this ruleset, the base


class _Run(NamedTuple):
    """One simulation drawn, with its report: the ruleset's first, then the base's."""

    sim: Simulation
    report: dict[str, Any]


def write_plots(
    out: Path,
    sim: Simulation,
    report: dict[str, Any],
    base: Simulation | None = None,
    base_report: dict[str, Any] | None = None,
) -> list[Path]:
    """Write every plot into ``out`` (created if missing); returns the files written."""
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    runs = [_Run(sim, report)] + ([_Run(base, base_report)] if base is not None and base_report is not None else [])
    drawers: dict[str, Callable[[Axes, list[_Run]], None]] = {
        "win_rates": _win_rates,
        "scores": _scores,
        "length": _length,
        "end_reasons": _end_reasons,
        "lead": _lead,
    }
    out.mkdir(parents=True, exist_ok=True)
    written = []
    # fixed ids and no dates, so that the same report gives the same files
    with rc_context({"svg.hashsalt": "venedig-rules", "font.size": 9}):
        for stem in PLOTS:
            fig = Figure(figsize=(6.4, 3.8), layout="constrained")
            ax = fig.add_subplot()
            drawers[stem](ax, runs)
            handles, _ = ax.get_legend_handles_labels()
            if handles:
                fig.legend(loc="outside lower center", ncols=4, frameon=False)
            for fmt in _FORMATS:
                path = out / f"{stem}.{fmt}"
                fig.savefig(path, metadata={"Date": None} if fmt == "svg" else {"Software": None})
                written.append(path)
    return written


def _label(sim: Simulation) -> str:
    return sim.name


def _win_rates(ax: Axes, runs: list[_Run]) -> None:
    width = 0.8 / len(runs)
    for k, (sim, report) in enumerate(runs):
        seats = report["seats"]
        xs = [s["seat"] + (k - (len(runs) - 1) / 2) * width for s in seats]
        rates = [100 * s["win_rate"] for s in seats]
        # error bars are drawn as the distances below and above the bar, not as the interval's ends
        low = [100 * (s["win_rate"] - min(s["ci95"])) for s in seats]
        high = [100 * (max(s["ci95"]) - s["win_rate"]) for s in seats]
        ax.bar(xs, rates, width, yerr=[low, high], capsize=3, color=_COLOURS[k], label=_label(sim))
    main = runs[0].report
    first = main["first_player"]
    if first is not None:
        ax.axhline(100 * first["fair_share"], color="black", linewidth=0.8, linestyle=":", label="fair share")
    players = main["players"]
    ax.set_xticks(range(players), [f"p{p}" for p in range(players)])
    ax.set_ylabel("win rate (%), 95% interval")
    ax.set_title(f"Win rate per seat ({main['games']} games)")


def _scores(ax: Axes, runs: list[_Run]) -> None:
    # each seat of this ruleset apart; the base's seats together, scaled to one seat
    sim = runs[0].sim
    players = sim.setup.players
    for p in range(players):
        values = [r.scores[p] for r in sim.records if r.scores]
        if values:
            ax.hist(values, bins=_bins(values), histtype="step", linewidth=1.4, label=f"p{p}")
    for base, _ in runs[1:]:
        values = [s for r in base.records for s in r.scores]
        if values:
            ax.hist(
                values,
                bins=_bins(values),
                histtype="step",
                color="black",
                linestyle="--",
                weights=[1 / players] * len(values),
                label=f"{_label(base)} (per seat)",
            )
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(f"Scores per seat: {_label(sim)}")


def _length(ax: Axes, runs: list[_Run]) -> None:
    for k, (sim, _) in enumerate(runs):
        values = [r.actions for r in sim.records]
        ax.hist(
            values,
            bins=_bins(values),
            histtype="stepfilled" if k == 0 else "step",
            alpha=0.8 if k == 0 else 1,
            color=_COLOURS[k] if k == 0 else "black",
            label=_label(sim),
        )
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")


def _end_reasons(ax: Axes, runs: list[_Run]) -> None:
    ends = sorted({end for _, report in runs for end in report["end_reasons"]})
    height = 0.8 / len(runs)
    for k, (sim, report) in enumerate(runs):
        shares = [100 * report["end_reasons"].get(end, {"rate": 0})["rate"] for end in ends]
        ys = [i - (k - (len(runs) - 1) / 2) * height for i in range(len(ends))]
        ax.barh(ys, shares, height, color=_COLOURS[k], label=_label(sim))
    ax.set_yticks(range(len(ends)), ends)
    ax.set_xlabel("share of games (%)")
    ax.set_title("How games ended")


def _lead(ax: Axes, runs: list[_Run]) -> None:
    """The share of games each seat leads alone, along the game (0: set up, 1: the end):
    a seat far above the others early is an advantage the score shows soon; lines that
    cross late are close games."""
    styles = ("-", "--")
    xs = [i / (_LEAD_POINTS - 1) for i in range(_LEAD_POINTS)]
    for k, (sim, _) in enumerate(runs):
        games = [r for r in sim.records if r.history and r.actions]
        if not games:
            continue
        for p in range(sim.setup.players):
            shares = [100 * sum(_leader_at(r, x) == p for r in games) / len(games) for x in xs]
            label = f"p{p}" if k == 0 else f"p{p} ({_label(sim)})"
            ax.plot(xs, shares, linestyle=styles[k], color=f"C{p}", label=label)
    ax.set_xlabel("share of the game played (actions)")
    ax.set_ylabel("games led alone (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"Who leads along the game: {_label(runs[0].sim)}")


def _leader_at(record: GameRecord, share: float) -> int | None:
    """The seat leading alone once ``share`` of a game's actions were played."""
    at = share * record.actions
    scores = record.history[0].scores
    for point in record.history:
        if point.actions > at:
            break
        scores = point.scores
    return leader(scores)


def _bins(values: list[int]) -> list[float]:
    """Edges between whole numbers, at most about 30 bins."""
    low, high = min(values), max(values)
    step = max(1, -(-(high - low + 1) // 30))
    return [low - 0.5 + step * i for i in range((high - low) // step + 2)]
