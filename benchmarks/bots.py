"""Bot strength and the cost of sampling; prints figures with their targets, asserts nothing.

Run: python benchmarks/bots.py [--games N] [--first K] [--pairings A:B,...] [--rulesets ...]
     [--jobs J | --engine ray] [--installed] [--log FILE] [--skip-logged FILE ...] [--sampling]
     python benchmarks/bots.py --summarize FILE [FILE ...] [--markdown]

- Pairings (default the three targets of docs/bots.md): 2-player games of bot A against
  bot B, N games a pairing and ruleset (default 100), seats rotated (game 2k and 2k+1 are
  the same deal with the seats swapped), deal seeds from --seed (default 1000). Printed: the
  share of games A wins (a shared win counts by its share) with its Wilson 95% interval,
  the target and whether the point and the lower bound reach it, and the seconds a game.
  Bots are named ``random``, ``greedy``, ``ismcts`` (its defaults), ``ismcts800`` (800
  iterations), ``ismcts1s`` (one second a decision), with ``w2`` for two workers
  (``ismcts1sw2``). Targets: ismcts800:ismcts50 >= 65%, ismcts1s:greedy >= 85%,
  greedy:random >= 70%.
- The full protocol (>= 100 games a pairing) may be split: one pairing and ruleset at a
  time (``--pairings``, ``--rulesets``), and a range of its games (``--first K --games N``
  plays games K to K+N-1: the same deals and seats as in one run). ``--log FILE`` appends
  one JSON line per game, with the package's version and build (compiled or pure: the
  checkout's source plays unless ``--installed`` asks for the installed package, such as
  the compiled wheel); ``--summarize`` prints the table of every game in the files given
  (a game logged twice counts once; with ``--markdown`` as docs/bots.md shows it);
  ``--skip-logged FILE ...`` leaves out the games of the range those logs hold, so that
  one command finishes a protocol begun in pieces.
  ``--engine ray`` plays the games on the Ray cluster at ``RAY_ADDRESS`` (``[ray]`` extra;
  one game a core; every node with venedig-rules installed), or on a local Ray instance
  without it.
- --sampling: the cost of ``game.sample(p, seed)`` at mid-game positions (after --at actions
  of random play, every player count, several seeds), for the seat to move:
  * repeated: another sample of the same position (what a search does; median per call);
  * next: the seat's first sample after one more action (its knowledge follows the new
    events, and the position is planned anew: what a bot pays once per decision);
  * first: the first sample of a game that was never sampled (the whole event log read);
  each also as a ratio to ``game.apply`` of one legal action at the same positions, measured
  interleaved in the same run; CPU time (steady on a loaded machine). Target: under 2 ms mid-game.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import multiprocessing
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
if "--installed" not in sys.argv:  # read before the import below, which it decides
    sys.path.insert(0, str(ROOT))

import venedig_rules as vr  # noqa: E402
from venedig_rules.bots import Bot, GreedyBot, ISMCTSBot, RandomBot, play_out  # noqa: E402

GAMES = ["saeulen", "rialto", "venedig"]


# -- sampling --------------------------------------------------------------------------------
def _position(rules: vr.Ruleset, players: int, seed: int, at: int) -> vr.Game | None:
    game = rules.new_game(players, seed)
    chooser = random.Random(seed)
    for _ in range(at):
        if game.is_over:
            return None
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    return None if game.is_over else game


def _ms(fn, repeat: int = 1) -> float:
    start = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - start) * 1000 / repeat


def sample_costs(name: str, at: int, seeds: int) -> dict[str, list[float]]:
    rules = vr.load(name)
    out: dict[str, list[float]] = {"repeated": [], "next": [], "first": [], "apply": [], "events": []}
    for players in rules.players:
        for seed in range(seeds):
            game = _position(rules, players, seed, at)
            if game is None:
                continue
            player = game.to_move[0]
            out["events"].append(len(game.events))
            out["first"].append(_ms(lambda g=game, p=player: g.sample(p, 0)))
            again = [_ms(lambda g=game, p=player, s=s: g.sample(p, s)) for s in range(30)]
            out["repeated"].append(statistics.median(again))
            action = random.Random(seed).choice(game.legal_actions(player))
            out["apply"].append(_ms(lambda g=game, a=action: (g.apply(a), g.undo())) / 2)
            game.apply(action)
            out["next"].append(_ms(lambda g=game, p=player: g.sample(p, 1)))
    return out


def report_sampling(names: list[str], at: int, seeds: int) -> None:
    print(f"sample: mid-game (after {at} random actions), every player count, {seeds} seeds each; target < 2 ms")
    print(f"  {'ruleset':10} {'events':>7} {'repeated':>10} {'next':>10} {'first':>10} {'apply':>9}   ratios to apply")
    for name in names:
        f = sample_costs(name, at, seeds)
        med = {k: statistics.median(v) for k, v in f.items() if v}
        ratios = " ".join(f"{k} {med[k] / med['apply']:.1f}x" for k in ("repeated", "next", "first"))
        print(
            f"  {name:10} {med['events']:7.0f} {med['repeated']:8.3f}ms {med['next']:8.3f}ms "
            f"{med['first']:8.3f}ms {med['apply']:7.3f}ms   {ratios}"
        )


# -- matches ---------------------------------------------------------------------------------
#: The pairings docs/bots.md sets targets for: "A:B" -> the share of games A should win.
TARGETS = {"ismcts800:ismcts50": 0.65, "ismcts1s:greedy": 0.85, "greedy:random": 0.70}

_ISMCTS = re.compile(r"ismcts(?:(?P<n>\d+(?:\.\d+)?)(?P<s>s?))?(?:w(?P<w>\d+))?$")


def make(spec: str, seed: int) -> Bot:
    """A bot by its benchmark name (see the module's doc)."""
    if spec == "random":
        return RandomBot(seed)
    if spec == "greedy":
        return GreedyBot(seed)
    found = _ISMCTS.match(spec)
    if not found:
        raise SystemExit(f"no bot {spec!r}: random, greedy, ismcts, ismcts<iterations>, ismcts<seconds>s, ...w<N>")
    workers = int(found["w"] or 1)
    if found["n"] is None:
        return ISMCTSBot(seed, workers=workers)
    if found["s"]:
        return ISMCTSBot(seed, seconds=float(found["n"]), workers=workers)
    return ISMCTSBot(seed, iterations=int(found["n"]), workers=workers)


class Job(NamedTuple):
    ruleset: str
    pairing: str
    index: int
    seed: int


class Result(NamedTuple):
    ruleset: str
    pairing: str
    share: float  # of the win, for bot A
    seconds: float
    actions: int
    index: int = 0  # the game's number in the pairing (its deal and seats)
    seed: int = 1000  # the first deal seed of the run
    # what played it: the package's version and build ("compiled" or "pure"; "" in logs
    # written before these were kept), as a one-second bot's strength depends on its speed
    version: str = ""
    build: str = ""


class GameKey(NamedTuple):
    """What makes a game of the protocol: its deal and seats follow from these."""

    ruleset: str
    pairing: str
    seed: int
    index: int


def play(job: Job) -> Result:
    """One game of the pairing; A takes seat 0 in even games, seat 1 in odd ones."""
    first, second = job.pairing.split(":")
    seat_of_a = job.index % 2
    game = vr.load(job.ruleset).new_game(2, job.seed + job.index // 2)
    bots = {seat_of_a: make(first, job.index * 2), 1 - seat_of_a: make(second, job.index * 2 + 1)}
    start = time.perf_counter()
    play_out(game, bots)
    share = 1.0 / len(game.winners) if seat_of_a in game.winners else 0.0
    if not game.winners:
        share = 0.5
    seconds = time.perf_counter() - start
    return Result(
        job.ruleset, job.pairing, share, seconds, len(game.actions), job.index, job.seed, vr.__version__, build()
    )


def build() -> str:
    """Which build of the package plays: "compiled" (the Cython wheel) or "pure"."""
    from venedig_rules.engine.run import machine

    return "pure" if machine.__file__.endswith(".py") else "compiled"


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96).

    >>> [round(x, 3) for x in wilson(70, 100)]
    [0.604, 0.781]
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def report_matches(
    names: list[str],
    pairings: list[str],
    games: range,
    jobs: int,
    seed: int,
    log: Path | None,
    engine: str,
    skip: dict[GameKey, Result] | None = None,
) -> None:
    print(
        f"pairings: 2 players, games {games.start} to {games.stop - 1} of each pairing and ruleset, "
        f"seats rotated, deal seeds {seed} on"
    )
    work = [Job(name, pairing, i, seed) for i in games for name in names for pairing in pairings]
    if skip:
        left = [job for job in work if GameKey(job.ruleset, job.pairing, job.seed, job.index) not in skip]
        print(f"  {len(work) - len(left)} of these {len(work)} games are logged already: playing the other {len(left)}")
        work = left
    results: list[Result] = []
    for result in on_ray(work) if engine == "ray" else on_processes(work, jobs):
        results.append(result)
        print(
            f"    {len(results)}/{len(work)} {result.ruleset} {result.pairing} game {result.index}: "
            f"{result.share:g} ({result.seconds:.1f} s)",
            file=sys.stderr,
        )
        if log is not None:
            with log.open("a") as out:
                out.write(json.dumps(result._asdict()) + "\n")
    table(results)


def on_processes(work: list[Job], jobs: int) -> Iterator[Result]:
    """Each game's result as it ends, ``jobs`` games at once in processes of this machine."""
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap_unordered(play, work)


def on_ray(work: list[Job]) -> Iterator[Result]:
    """Each game's result as it ends, one game a core of the Ray cluster at ``RAY_ADDRESS``
    (a local instance without it): the protocol's hours of CPU in minutes on a cluster.
    Every node needs venedig-rules installed, at the version being measured."""
    import ray  # the [ray] extra

    ray.init(address=os.environ.get("RAY_ADDRESS") or None, log_to_driver=False)
    try:
        remote = ray.remote(num_cpus=1)(play)
        waiting = [remote.remote(job) for job in work]
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            yield ray.get(done[0])
    finally:
        ray.shutdown()


def logged(files: list[Path]) -> dict[GameKey, Result]:
    """Every game logged in ``files``, each once (a game logged twice: its last line)."""
    found: dict[GameKey, Result] = {}
    for path in files:
        for line in path.read_text().splitlines():
            if line.strip():
                result = Result(**json.loads(line))
                found[GameKey(result.ruleset, result.pairing, result.seed, result.index)] = result
    return found


def summarize(files: list[Path], markdown: bool = False) -> None:
    """The table of every game logged in ``files`` (each game once), as text or Markdown."""
    found = logged(files)
    if markdown:
        print(markdown_table(list(found.values())))
        return
    print(f"pairings: 2 players, seats rotated; {len(found)} games from {len(files)} log file(s)")
    table(list(found.values()))


class Row(NamedTuple):
    """One pairing in one ruleset: A's wins over its games, against the pairing's target."""

    ruleset: str
    pairing: str
    won: float  # a shared win counts by its share
    games: int
    low: float  # the Wilson 95% interval of the share
    high: float
    target: float | None
    verdict: str  # "met" (the interval's lower end reaches the target), "point met", "not met", ""
    seconds: float  # a game, on average
    played_by: str  # how many games each build played, e.g. "59 compiled, 41 pure"


def rows(results: list[Result]) -> list[Row]:
    """The rows of the results' pairings: the targets' pairings first, in their order, then
    the others; rulesets in name order within each."""
    groups: dict[tuple[str, str], list[Result]] = collections.defaultdict(list)
    for result in results:
        groups[result.pairing, result.ruleset].append(result)
    order = {pairing: i for i, pairing in enumerate(TARGETS)}
    out = []
    for pairing, name in sorted(groups, key=lambda key: (order.get(key[0], len(order)), *key)):
        mine = groups[pairing, name]
        won = sum(r.share for r in mine)
        low, high = wilson(won, len(mine))
        target = TARGETS.get(pairing)
        verdict = "" if target is None else _verdict(won / len(mine), low, target)
        builds = collections.Counter(r.build or "unknown" for r in mine)
        played_by = ", ".join(f"{n} {build}" for build, n in sorted(builds.items()))
        seconds = statistics.mean(r.seconds for r in mine)
        out.append(Row(name, pairing, won, len(mine), low, high, target, verdict, seconds, played_by))
    return out


def _verdict(share: float, low: float, target: float) -> str:
    """Whether a share reaches its target: with the interval's lower end, or as a point."""
    if low >= target:
        return "met"
    return "point met" if share >= target else "not met"


def table(results: list[Result]) -> None:
    """Each pairing's share of A's wins with its Wilson interval, against its target."""
    print(
        f"  {'ruleset':8} {'pairing':22} {'A wins':>9} {'share':>6} {'Wilson 95%':>14}  {'target':16} "
        f"{'s/game':>7}  played by"
    )
    for row in sorted(rows(results), key=lambda r: r.ruleset):  # stable: pairings stay in order
        verdict = "" if row.target is None else f"{row.target:6.0%} {row.verdict}"
        print(
            f"  {row.ruleset:8} {row.pairing:22} {row.won:4g}/{row.games:<4} {row.won / row.games:6.0%} "
            f"[{row.low:4.0%}, {row.high:4.0%}]  {verdict:16} {row.seconds:7.1f}  {row.played_by}"
        )


def markdown_table(results: list[Result]) -> str:
    """The table of :func:`table` in Markdown, as docs/bots.md shows it.

    >>> won = Result("rialto", "greedy:random", share=1.0, seconds=0.71, actions=90, index=0)
    >>> lost = Result("rialto", "greedy:random", share=0.0, seconds=0.69, actions=80, index=1)
    >>> print(markdown_table([won, lost]))
    | ruleset | pairing | A wins | share | Wilson 95% | target | s/game | played by |
    |---|---|---|---|---|---|---|---|
    | rialto | `greedy:random` | 1/2 | 50% | 9%-91% | 70% (not met) | 0.7 | 2 unknown |
    """
    lines = [
        "| ruleset | pairing | A wins | share | Wilson 95% | target | s/game | played by |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows(results):
        target = "" if row.target is None else f"{row.target:.0%} ({row.verdict})"
        seconds = f"{row.seconds:.1f}" if row.seconds < 10 else f"{row.seconds:.0f}"
        lines.append(
            f"| {row.ruleset} | `{row.pairing}` | {row.won:g}/{row.games} | {row.won / row.games:.0%} | "
            f"{row.low:.0%}-{row.high:.0%} | {target} | {seconds} | {row.played_by} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing and ruleset (default 100)")
    parser.add_argument("--first", type=int, default=0, help="the number of the first game to play (default 0)")
    parser.add_argument("--log", type=Path, help="append one JSON line per game to this file")
    parser.add_argument("--summarize", type=Path, nargs="+", help="print the table of these logs instead")
    parser.add_argument("--markdown", action="store_true", help="with --summarize: the table in Markdown")
    parser.add_argument(
        "--skip-logged",
        type=Path,
        nargs="+",
        metavar="LOG",
        help="play only the games of the range that these logs do not hold already",
    )
    parser.add_argument("--pairings", default=",".join(TARGETS), help="A:B,... (default the three targets)")
    parser.add_argument("--rulesets", default=",".join(GAMES), help="comma separated (default all three)")
    parser.add_argument("--jobs", type=int, default=2, help="processes playing games at once (default 2)")
    parser.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local processes (--jobs), or a Ray cluster (RAY_ADDRESS; a local instance without it)",
    )
    parser.add_argument("--seed", type=int, default=1000, help="the first deal seed (default 1000)")
    parser.add_argument(
        "--installed",
        action="store_true",
        help="play the installed package (e.g. the compiled wheel), not this checkout's source",
    )
    parser.add_argument("--sampling", action="store_true", help="measure the cost of sampling instead")
    parser.add_argument("--at", type=int, default=100, help="random actions before sampling (default 100)")
    parser.add_argument("--seeds", type=int, default=5, help="positions per player count for sampling (default 5)")
    args = parser.parse_args()
    names = [n for n in args.rulesets.split(",") if n]
    if args.markdown and not args.summarize:
        parser.error("--markdown prints the table of --summarize: give the logs to summarize")
    if args.summarize:
        summarize(args.summarize, args.markdown)
        return
    if args.sampling:
        report_sampling(names, args.at, args.seeds)
        return
    pairings = [p for p in args.pairings.split(",") if p]
    for pairing in pairings:
        for spec in pairing.split(":"):
            make(spec, 0)
    for path in args.skip_logged or []:
        if not path.is_file():
            raise SystemExit(f"--skip-logged: no log file {path}")
    report_matches(
        names,
        pairings,
        range(args.first, args.first + args.games),
        args.jobs,
        args.seed,
        args.log,
        args.engine,
        logged(args.skip_logged) if args.skip_logged else None,
    )


if __name__ == "__main__":
    main()
