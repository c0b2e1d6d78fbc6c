"""The ``venedig-rules simulate`` command: its arguments, the checks of its input (each a
one-line error, exit 2), the progress bar (rich, on stderr, only on a terminal), and the
report printed and written.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..bots import bot_names
from .compare import compare
from .engines import simulate
from .report import balance_report
from .run import Progress, Setup, Simulation, check_setup
from .text import render

HELP = (
    "Play many games with bots, on every core, and print a balance report: win rate per seat with "
    "its confidence interval, first-player advantage, ties, scores, length in actions and rounds, how "
    "games ended (with the ending event's details), how often each decision, event, card, tile and building "
    "came up, metrics after Ludii's (decisiveness, lead changes, drama, branching factor, balance...), the "
    "values events carry and the win rate of seats that used each item; with --against, "
    "each difference from a base ruleset played with the same seeds, and its p-value."
)

EXAMPLES = (
    "examples:\n"
    "  venedig-rules simulate venedig --players 3 --games 200\n"
    "  venedig-rules simulate venedig --variant no_imaginary_player --games 500 --against venedig --out report/\n"
    "  venedig-rules simulate my_variant.yaml --games 1000 --format json > report.json\n"
    "  venedig-rules simulate rialto --games 2000 --engine ray       # on a Ray cluster (RAY_ADDRESS)\n"
    "needs: pip install 'venedig-rules[sim]' (and 'venedig-rules[ray]' for --engine ray)"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    p.add_argument("game", metavar="GAME_OR_FILE", help="bundled ruleset id, ruleset folder or variant file")
    p.add_argument("--variant", action="append", default=[], metavar="V", help="apply a variant (repeatable)")
    p.add_argument("--games", type=_positive, required=True, metavar="N", help="number of games to play")
    p.add_argument("--players", type=_positive, default=None, metavar="P", help="players (default: the fewest allowed)")
    p.add_argument(
        "--bots",
        type=_names,
        default=["random"],
        metavar="NAMES",
        help=f"a bot for all seats, or one per seat, comma-separated (bots: {', '.join(bot_names())}; default: random)",
    )
    p.add_argument("--jobs", type=_positive, default=None, metavar="J", help="processes (default: every core)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="first seed; each game's seed derives from it")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    p.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help="also write report.json, games.jsonl and plots"
    )
    p.add_argument(
        "--against", default=None, metavar="BASE", help="compare with BASE (bundled id, folder or file), same seeds"
    )
    p.add_argument("--engine", choices=("local", "ray"), default="local", help="local processes or a Ray cluster")


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit status."""
    if args.out is not None and args.out.exists() and not args.out.is_dir():
        return _usage(f"--out {args.out}: not a folder")
    # before any game: a missing library would otherwise fail only after the whole simulation
    missing = _missing_extra(args)
    if missing:
        return _usage(missing)
    main = _setup(args.game, tuple(args.variant), args)
    if isinstance(main, str):
        return _usage(main)
    # the base at the same table as the main ruleset, or the two could not be compared
    base = _setup(args.against, (), args, players=main.players) if args.against else None
    if isinstance(base, str):
        return _usage(f"--against: {base}")
    try:
        with _progress_bar() as bar:
            sim = simulate(main, args.jobs, args.engine, bar(main.rules().name, main.games))
            base_sim = simulate(base, args.jobs, args.engine, bar(base.rules().name, base.games)) if base else None
    except KeyboardInterrupt:
        print("venedig-rules simulate: interrupted", file=sys.stderr)
        return 130
    report = balance_report(sim)
    against = compare(sim, base_sim) if base_sim is not None else None
    data = {**report, "against": against} if against is not None else report
    if args.out is not None:
        try:
            written = write_report(args.out, data, sim, base_sim)
        except OSError as exc:
            print(f"venedig-rules simulate: error: cannot write to {args.out}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        for path in written:
            print(f"wrote {path}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(render(report, against), end="")
    return 0


def write_report(out: Path, data: dict[str, Any], sim: Simulation, base: Simulation | None = None) -> list[Path]:
    """Write ``report.json``, ``games.jsonl`` (one line per game; ``base_games.jsonl`` for the
    base) and the plots into ``out``; returns the files written."""
    from .plots import write_plots

    out.mkdir(parents=True, exist_ok=True)
    report_file, games_file = out / "report.json", out / "games.jsonl"
    report_file.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    _write_games(games_file, sim)
    written = [report_file, games_file]
    if base is not None:
        written.append(out / "base_games.jsonl")
        _write_games(written[-1], base)
    base_report = data.get("against", {}).get("report") if base is not None else None
    return written + write_plots(out, sim, data, base, base_report)


def _write_games(path: Path, sim: Simulation) -> None:
    path.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in sim.records), encoding="utf-8")


def _setup(game: str, variants: tuple[str, ...], args: argparse.Namespace, players: int | None = None) -> Setup | str:
    """The setup of one ruleset, or why the arguments do not fit it."""
    # UnknownRulesetError and InvalidRulesError go to the caller. The players and bots depend
    # on the ruleset (its fewest players by default): a probe without them reads it first
    probe, rules = Setup(game, 0, (), args.games, args.seed, variants).pinned()
    if not rules.playable:
        return f"ruleset {rules.name!r} is rule data only so far (no flow in game.yaml): it cannot be played"
    count = players or args.players or rules.players.start
    bots = args.bots * count if len(args.bots) == 1 else args.bots
    setup = replace(probe, players=count, bots=tuple(bots))
    if len(bots) != count:
        return f"--bots names {len(bots)} bots for {count} players; give one name for all seats or one per seat"
    try:
        check_setup(setup, rules)
    except ValueError as exc:
        return str(exc)
    return setup


def _missing_extra(args: argparse.Namespace) -> str | None:
    needed = ["rich"] + (["matplotlib"] if args.out else [])
    for module in needed:
        if importlib.util.find_spec(module) is None:
            return f"simulate needs the sim extra ({module} is missing): pip install 'venedig-rules[sim]'"
    if args.engine == "ray" and importlib.util.find_spec("ray") is None:
        return "--engine ray needs the ray extra (ray is missing): pip install 'venedig-rules[ray]'"
    return None


def _usage(message: str) -> int:
    print(f"venedig-rules simulate: error: {message}", file=sys.stderr)
    return 2


@contextmanager
def _progress_bar() -> Iterator[Callable[[str, int], Progress]]:
    """A factory of progress callbacks, one bar each, drawn on stderr when it is a terminal.
    No refresh thread: worker processes may be forked while the bar is shown."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    from rich.progress import Progress as Bars

    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Bars(*columns, console=console, auto_refresh=False, disable=not console.is_terminal) as progress:

        def bar(name: str, total: int) -> Progress:
            task = progress.add_task(name, total=total)

            def advance(n: int) -> None:
                progress.advance(task, n)
                progress.refresh()

            return advance

        yield bar


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _names(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected bot names separated by commas, like random,random; got {text!r}")
    return names
