"""Speed figures of venedig-rules; prints them with their targets, asserts nothing.

Run: python benchmarks/bench.py [--games N] [--repeat R]

- load: reading, checking and compiling each ruleset from YAML (median of 5, fresh each
  time; the DSL parser itself is built once per process, see "first load")
- first load: a new Python process importing venedig_rules and loading the ruleset
- playouts: random legal games to the end, computing the legal actions at every step
  (actions per second on one core; games per second), per ruleset and player count; the
  same games R times, best and median (shared machines are noisy: the best is the figure
  least disturbed by other work)
- clone: Game.clone() of a mid-game state (median over many)
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import venedig_rules as vr  # noqa: E402
from venedig_rules.effects import parse as parse_dsl  # noqa: E402  (cached; cleared per run)

LAGOON = ROOT / "tests" / "rulesets" / "lagoon"


def load_ms(name) -> float:
    times = []
    for _ in range(5):
        parse_dsl.cache_clear()
        start = time.perf_counter()
        vr.load(name)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def playouts(rules, players: int, games: int) -> tuple[float, float, int]:
    chooser = random.Random(0)
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = rules.new_game(players, seed)
        while not game.is_over:
            mover = game.to_move[0]
            game.apply(chooser.choice(game.legal_actions(mover)))
            actions += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, games / elapsed, actions


def first_load_ms(name) -> float:
    code = (
        "import time; t = time.perf_counter(); import venedig_rules as vr; "
        f"vr.load({str(name)!r}); print((time.perf_counter() - t) * 1000)"
    )
    runs = [
        float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT).stdout)
        for _ in range(3)
    ]
    return statistics.median(runs)


def clone_us(rules, players: int) -> float:
    chooser = random.Random(1)
    game = rules.new_game(players, 1)
    for _ in range(12):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    runs = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(2000):
            game.clone()
        runs.append((time.perf_counter() - start) / 2000 * 1e6)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count (default 200)")
    parser.add_argument("--repeat", type=int, default=3, help="times each batch of games is played (default 3)")
    args = parser.parse_args()
    print(f"venedig-rules {vr.__version__}, Python {sys.version.split()[0]}")
    print("\nload and compile from YAML (median of 5), target < 300 ms")
    for name in [*vr.bundled(), LAGOON]:
        label = name if isinstance(name, str) else "lagoon (test ruleset)"
        print(
            f"  {label:<24} {load_ms(name):7.1f} ms   (first load in a new process, import included: "
            f"{first_load_ms(name):.0f} ms)"
        )
    playable = [vr.load(LAGOON)] + [r for r in (vr.load(n) for n in vr.bundled()) if r.playable]
    print("\nrandom playouts incl. legal actions at every step, target >= 20,000 actions/s")
    for rules in playable:
        for n in rules.players:
            runs = [playouts(rules, n, args.games) for _ in range(args.repeat)]
            best, median = max(r[0] for r in runs), statistics.median(r[0] for r in runs)
            games_s, actions = max(r[1] for r in runs), runs[0][2]
            print(
                f"  {rules.name:<12} {n}p  best {best:8,.0f}  median {median:8,.0f} actions/s  "
                f"{games_s:6,.1f} games/s  ({actions} actions in {args.games} games)"
            )
    print("\nclone() of a mid-game state (median), target < 50 us")
    for rules in playable:
        print(f"  {rules.name:<12} {clone_us(rules, rules.players.stop - 1):7.2f} us")
    not_playable = [n for n in vr.bundled() if not vr.load(n).playable]
    if not_playable:
        print(f"\nnot playable yet (rule data only): {', '.join(not_playable)}")


if __name__ == "__main__":
    main()
