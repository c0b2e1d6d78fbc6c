"""Size and cost of views at the end of a game; prints them, asserts nothing.

Run: python benchmarks/views.py [--players N] [--seed S] [--repeat R]

For each bundled game, a seeded game played by random bots, one action before its end (a
decision is still pending), seen by seat 1:

- full: ``game.view(1)``, every event with its sentence (JSON size; time, the median of R)
- compact: ``game.view(1, compact=True)`` (no null entries)
- since cursor: ``game.view(1, since=cursor, compact=True)``, what a client that follows
  the game asks for after each action (no new events: the state and the decision)
- last 10: the same with the last ten events of the seat
- first view: the full view of a game nobody has viewed yet (the seat's log and its
  sentences are made then, and kept on the game)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import venedig_rules as vr  # noqa: E402
from venedig_rules.bots import RandomBot, play_out  # noqa: E402


def late_game(name: str, players: int, seed: int) -> vr.Game:
    game = vr.load(name).new_game(players, seed)
    play_out(game, {p: RandomBot(seed * 31 + p) for p in range(players)})
    return game.undo()


def kib(value: dict) -> float:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8")) / 1024


def ms(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    print(f"views of seat 1, one action before the end; {args.players} players, seed {args.seed}")
    print(
        f"{'game':10} {'actions':>7} {'events':>6} {'first view':>12} {'full':>18} {'compact':>10} "
        f"{'since cursor':>20} {'last 10':>9}"
    )
    for name in vr.bundled():
        game = late_game(name, args.players, args.seed)
        first = ms(lambda g=game: g.clone().view(1), 1)
        full = game.view(1)
        cursor = full["cursor"]
        compact = game.view(1, compact=True)
        since = game.view(1, since=cursor, compact=True)
        last = game.view(1, since=max(0, cursor - 10), compact=True)
        t_full = ms(lambda g=game: g.view(1), args.repeat)
        t_since = ms(lambda g=game, c=cursor: g.view(1, since=c, compact=True), args.repeat)
        print(
            f"{name:10} {len(game.actions):7} {len(game.events):6} {first:9.1f} ms "
            f"{kib(full):7.0f} KiB {t_full:5.1f} ms {kib(compact):6.0f} KiB "
            f"{kib(since):7.1f} KiB {t_since:5.2f} ms {kib(last):5.1f} KiB"
        )


if __name__ == "__main__":
    main()
