"""Per player decision, venedig-rules against OpenSpiel's pure-Python games, in one run.

Run: python benchmarks/openspiel.py [--python PY] [--rounds R] [--games N] [--players P] [--warmup W]

Both sides play the loop a bot plays, ``legal_actions`` -> random choice -> ``apply``, from
a fresh state to the end, and are timed as CPU time per player decision:

- OpenSpiel's four games written in Python (``python_tic_tac_toe``, ``python_liars_poker``,
  ``python_block_dominoes``, ``python_team_dominoes``; ``open_spiel`` must be installed: the
  ``[openspiel]`` extra). A chance node (a deal, a roll) is played as OpenSpiel's own
  random playouts do, by drawing one of ``chance_outcomes()`` by its probability: its time
  counts, since a game's chance is part of playing it (ours draws chance inside ``apply``),
  but only the players' decisions are counted.
- each bundled playable game of venedig-rules at ``--players`` (3 by default), by default
  (``record=True``) and with ``record=False``.

Every batch runs in a fresh process, which first plays ``--warmup`` games (default 1) outside
the timing on both sides, then makes a full collection of the garbage collector: the first
game of a process pays once for what the process keeps (here the actions and answers it
remembers: a first recorded game of Rialto took 2.6 times a later one's time per decision),
and the collector's first walks of what a load made (it pauses the collector) fall where
the allocations of the first games put them, in the timing or out of it: a collection of
the second generation that walked the ruleset took 3 to 4 ms of a 10-game Rialto batch's 37
when one fewer object an action moved it into the timing. Both are costs of starting, not
of a decision. The rounds interleave all batches, in alternating
order. The ratio of a round is OpenSpiel's geometric mean (of its four games' CPU time per
decision) divided by our CPU time per decision: above 1 means faster than OpenSpiel. The
median over the rounds is printed, with each round's ratio. ``--python PY`` plays our side
with the package installed for interpreter PY (e.g. the compiled wheel, ``pip install .``
in a virtual environment); by default this tree's source plays. OpenSpiel always plays in
this interpreter.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

OPENSPIEL_GAMES = ("python_tic_tac_toe", "python_liars_poker", "python_block_dominoes", "python_team_dominoes")

#: One batch of OpenSpiel playouts: prints CPU seconds and player decisions.
OPENSPIEL_WORKER = """
import gc, json, random, sys, time
import pyspiel
from open_spiel.python import games  # registers the games written in Python
game = pyspiel.load_game(sys.argv[1])
count, warmup = int(sys.argv[2]), int(sys.argv[3])
chooser = random.Random(0)
def play(games):
    decisions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(chooser.choices(outcomes, weights)[0])
            else:
                state.apply_action(chooser.choice(state.legal_actions()))
                decisions += 1
    return decisions
game.new_initial_state()
play(warmup)  # outside the timing
gc.collect()
start = time.process_time()
decisions = play(count)
print(json.dumps([time.process_time() - start, decisions]))
"""

#: One batch of our playouts (``sys.argv[1]``: the source folder to import from, or "" for
#: the installed package): prints CPU seconds and decisions (every action is one).
OURS_WORKER = """
import gc, json, random, sys, time
if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
import venedig_rules as vr
name, players, count, record = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
warmup = int(sys.argv[6])
rules = vr.load(name)
chooser = random.Random(0)
def play(seeds):
    decisions = 0
    for seed in seeds:
        game = rules.new_game(players, seed, record=record)
        while not game.is_over:
            game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
            decisions += 1
    return decisions
rules.new_game(players, 0, record=record)
play(range(count, count + warmup))  # outside the timing, on deals the timed games do not play
gc.collect()
start = time.process_time()
decisions = play(range(count))
print(json.dumps([time.process_time() - start, decisions]))
"""


def run(python: str, code: str, args: list[str], isolated: bool) -> float:
    """CPU microseconds per decision of one batch in a fresh process."""
    out = subprocess.run(
        [python, *(["-I"] if isolated else []), "-c", code, *args],
        cwd=tempfile.gettempdir(),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    seconds, decisions = json.loads(out)
    return seconds / decisions * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", metavar="PY", help="play our side with the package installed for PY")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--games", type=int, default=20, help="our games per batch (default 20)")
    parser.add_argument("--openspiel-games", type=int, default=400, help="OpenSpiel games per batch (default 400)")
    parser.add_argument("--players", type=int, default=3, help="players of our games (default 3)")
    parser.add_argument(
        "--warmup", type=int, default=1, help="games each batch plays before the timing, both sides (default 1)"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import venedig_rules as vr

    names = [n for n in vr.bundled() if vr.load(n).playable]
    ours_python, source = (args.python, "") if args.python else (sys.executable, str(ROOT))
    batches: list[tuple[str, str, str, list[str], bool]] = [
        (g, sys.executable, OPENSPIEL_WORKER, [g, str(args.openspiel_games), str(args.warmup)], False)
        for g in OPENSPIEL_GAMES
    ]
    for name in names:
        for record in (True, False):
            key = f"{name} {'default' if record else 'record=False'}"
            work = [source, name, str(args.players), str(args.games), "1" if record else "0", str(args.warmup)]
            batches.append((key, ours_python, OURS_WORKER, work, bool(args.python)))
    what = f"the package installed for {args.python}" if args.python else "this tree's source"
    print(
        f"OpenSpiel's Python games against {what}, {args.players} players; {args.rounds} rounds; "
        f"CPU time after {args.warmup} game(s) a batch"
    )
    runs: dict[str, list[float]] = {}
    for r in range(args.rounds):
        for key, python, code, work, isolated in batches if r % 2 == 0 else batches[::-1]:
            runs.setdefault(key, []).append(run(python, code, work, isolated))
    print(f"\n{'OpenSpiel game':<24} {'us/decision (median)':>21}")
    for game in OPENSPIEL_GAMES:
        print(f"{game:<24} {statistics.median(runs[game]):21.1f}")
    means = [math.exp(statistics.fmean(math.log(runs[g][r]) for g in OPENSPIEL_GAMES)) for r in range(args.rounds)]
    print(f"{'geometric mean':<24} {statistics.median(means):21.1f}")
    print(f"\n{'our game':<24} {'us/decision (median)':>21} {'x OpenSpiel':>12}  (per round)")
    for key in runs:
        if key in OPENSPIEL_GAMES:
            continue
        ratios = [m / ours for m, ours in zip(means, runs[key])]
        each = " ".join(f"{x:.2f}" for x in ratios)
        print(f"{key:<24} {statistics.median(runs[key]):21.1f} {statistics.median(ratios):11.2f}x  ({each})")


if __name__ == "__main__":
    main()
