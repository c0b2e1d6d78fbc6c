"""What the cyclic garbage collector walks while a process holds many recorded games (a web
server's tables), and how long a full collection then takes; prints figures, asserts nothing.

Run: python benchmarks/collector.py [--games 100] [--players 3] [--runs 5]
     [--python PY ...] [--rulesets venedig saeulen rialto]

For each ruleset and each interpreter (``--python``, one or more: the package installed for
each, from a folder outside the checkout; without it, this tree), a new process plays
``--games`` recorded random games to their end and keeps them all, then times ``--runs``
full collections (``gc.collect()``) and counts the objects the collector tracks
(``len(gc.get_objects())``). Median and lowest collection time. The interpreters take turns
per ruleset, so that the machine's drift hits each alike. The compiled build keeps a
recorded game's events and its undo history's weak references out of the collector's sight
(``venedig_rules/engine/run/untracked.py``): compare its wheel with the pure package, or
with a wheel of an earlier commit.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HOLD = """
import gc, json, random, statistics, sys, time
import venedig_rules as vr
import venedig_rules.engine.game as engine_game
name, games, players, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rules = vr.load(name)
held = []
for seed in range(games):
    chooser = random.Random(seed)
    game = rules.new_game(players, seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    held.append(game)
times = []
for _ in range(runs):
    start = time.perf_counter()
    gc.collect()
    times.append(time.perf_counter() - start)
print(json.dumps({
    "tracked": len(gc.get_objects()),
    "actions": sum(len(g.actions) for g in held),
    "median_ms": statistics.median(times) * 1e3,
    "best_ms": min(times) * 1e3,
    "compiled": not engine_game.__file__.endswith(".py"),
}))
"""


def measure(python: str, name: str, args: argparse.Namespace) -> dict[str, float]:
    """One process holding ``args.games`` finished games of ruleset ``name``."""
    # the installed package from outside the checkout; else this tree (``-c`` puts the
    # working folder first on the path)
    folder = str(ROOT) if args.python is None else tempfile.gettempdir()
    command = [python, "-c", HOLD, name, str(args.games), str(args.players), str(args.runs)]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=folder, check=True)
    result: dict[str, float] = json.loads(proc.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", nargs="+", default=None)
    parser.add_argument("--rulesets", nargs="+", default=["venedig", "saeulen", "rialto"])
    args = parser.parse_args()
    pythons = args.python or [sys.executable]
    print(f"{args.games} finished recorded games of {args.players} players held; a full collection, {args.runs} runs")
    for name in args.rulesets:
        for python in pythons:
            r = measure(python, name, args)
            build = "compiled" if r["compiled"] else "pure"
            print(
                f"  {name:8} {build:8} {r['tracked']:9,} objects tracked ({r['tracked'] / r['actions']:.1f} an action)"
                f"  full collection {r['median_ms']:6.1f} ms (best {r['best_ms']:.1f})  {python}"
            )


if __name__ == "__main__":
    main()
