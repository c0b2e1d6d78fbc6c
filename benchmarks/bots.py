"""Bot strength and the cost of sampling; prints figures with their targets, asserts nothing.

Run: python benchmarks/bots.py [--games N] [--iterations I] [--rollout D] [--jobs J]
     [--only sample|match] [--rulesets saeulen,rialto,venedig]

- sample: ``game.sample(p, seed)`` at mid-game positions (after --at actions of random play,
  every player count, several seeds), for the seat to move:
  * repeated: another sample of the same position (what a search does; median per call);
  * next: the seat's first sample after one more action (its knowledge follows the new
    events, and the position is planned anew: what a bot pays once per decision);
  * first: the first sample of a game that was never sampled (the whole event log read);
  each also as a ratio to ``game.apply`` of one legal action at the same positions, measured
  interleaved in the same run (the machine is shared and noisy: the ratios are the steadier
  figures). Target: under 2 ms mid-game.
- match: 2-player games of ISMCTSBot(iterations=I, rollout_depth=D) against RandomBot and
  against GreedyBot, seats alternating, seeds 1000+; the share of games ISMCTS wins (a
  shared win counts by its share). Targets: at least 75% against RandomBot in each game, and
  above 50% against GreedyBot in at least two of the three.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import venedig_rules as vr  # noqa: E402
from venedig_rules.bots import GreedyBot, ISMCTSBot, RandomBot, play_out  # noqa: E402

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
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) * 1000 / repeat


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
def _one_match(job: tuple[str, str, int, int, int | None]) -> tuple[str, str, float, float, int]:
    name, opponent, index, iterations, depth = job
    rules = vr.load(name)
    seats = ["ismcts", opponent] if index % 2 == 0 else [opponent, "ismcts"]
    game = rules.new_game(2, 1000 + index)
    bots = {}
    for seat, kind in enumerate(seats):
        seed = index * 10 + seat
        if kind == "ismcts":
            bots[seat] = ISMCTSBot(seed, iterations=iterations, rollout_depth=depth)
        elif kind == "greedy":
            bots[seat] = GreedyBot(seed)
        else:
            bots[seat] = RandomBot(seed)
    start = time.perf_counter()
    play_out(game, bots)
    me = seats.index("ismcts")
    share = 1.0 / len(game.winners) if me in game.winners else 0.0
    return name, opponent, share, time.perf_counter() - start, len(game.actions)


def report_matches(names: list[str], games: int, iterations: int, depth: int | None, jobs: int) -> None:
    print(
        f"match: 2 players, ISMCTSBot(iterations={iterations}, rollout_depth={depth}) against RandomBot and "
        f"GreedyBot, {games} games each, seats alternating; targets: >= 75% vs random, > 50% vs greedy in 2 of 3"
    )
    work = [(name, opp, i, iterations, depth) for i in range(games) for name in names for opp in ("random", "greedy")]
    results = []
    with multiprocessing.Pool(jobs) as pool:
        for result in pool.imap_unordered(_one_match, work):
            results.append(result)
            name, opponent, share, seconds, actions = result
            print(f"    {len(results)}/{len(work)} {name} vs {opponent}: {share:g} ({seconds:.0f} s)", file=sys.stderr)
    for name in names:
        for opponent in ("random", "greedy"):
            mine = [r for r in results if r[0] == name and r[1] == opponent]
            won = sum(r[2] for r in mine)
            seconds = statistics.median(r[3] for r in mine)
            actions = statistics.median(r[4] for r in mine)
            print(
                f"  {name:8} vs {opponent:6}: ISMCTS wins {won:g}/{len(mine)} = {won / len(mine):4.0%}"
                f"  (median {seconds:.0f} s and {actions:.0f} actions a game)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games per ruleset and opponent (default 12)")
    parser.add_argument("--iterations", type=int, default=40, help="ISMCTS iterations per decision (default 40)")
    parser.add_argument("--rollout", type=int, default=6, help="ISMCTS rollout depth in actions (default 6)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the matches (default 2)")
    parser.add_argument("--at", type=int, default=100, help="random actions before sampling (default 100)")
    parser.add_argument("--seeds", type=int, default=5, help="positions per player count for sampling (default 5)")
    parser.add_argument("--only", choices=("sample", "match"), help="run one part only")
    parser.add_argument("--rulesets", default=",".join(GAMES), help="comma separated (default all three)")
    args = parser.parse_args()
    names = [n for n in args.rulesets.split(",") if n]
    if args.only != "match":
        report_sampling(names, args.at, args.seeds)
    if args.only != "sample":
        report_matches(names, args.games, args.iterations, args.rollout, args.jobs)


if __name__ == "__main__":
    main()
