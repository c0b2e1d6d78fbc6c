"""Bytecodes the interpreter executes per action, in this tree and in a commit.

Prints the figures, asserts nothing.

Run: python benchmarks/bytecodes.py [--baseline REV] [--games 2,12] [--players 2]
     [--record] [--top N] [--rulesets venedig saeulen rialto]

Each side plays the same random games in a process of its own (``legal_actions -> random
choice -> apply``, seeds from the first number of ``--games`` up to the second, after two
games outside the count) with ``sys.settrace`` counting every bytecode Python executes, the
package's, the generated code's and the standard library's alike (``random.choice``
included); built-in functions written in C count nothing. ``--baseline REV`` unpacks commit
REV (``git archive``) and counts it too, with the ratio REV / this tree. ``--top N`` lists the
N functions that execute the most bytecodes an action.

Why a third count beside time (``bench.py``) and instructions (``instructions.py``): the
interpreter's time grows with both the instructions it executes and the bytecodes it
dispatches, each dispatch an indirect jump that the processor often mispredicts. A change
that takes a Python call off (a few hundred instructions, a handful of bytecodes) shows in
instructions more than in time; one that runs a loop in C instead of bytecodes shows in
time more than in instructions. Only the pure package is counted (a compiled module runs
no bytecodes).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent

COUNTER = """
import collections, json, random, sys
sys.path.insert(0, sys.argv[1])
import venedig_rules as vr
name, players, first, last = sys.argv[2], *map(int, sys.argv[3:6])
record = sys.argv[6] == "1"
options = {} if record else {"record": False}
rules = vr.load(name)
def play(seeds):
    actions = 0
    for seed in seeds:
        chooser, game = random.Random(seed), rules.new_game(players, seed, **options)
        while not game.is_over:
            game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
            actions += 1
    return actions
play(range(2))  # the generated code compiled and the caches warm, outside the count
counts = collections.Counter()
def trace(frame, event, arg):
    frame.f_trace_opcodes, frame.f_trace_lines = True, False
    if event == "opcode":
        code = frame.f_code
        counts[code.co_filename.rpartition("/")[2], code.co_name] += 1
    return trace
sys.settrace(trace)
actions = play(range(first, last))
sys.settrace(None)
print(json.dumps([actions, [[f, n, c] for (f, n), c in counts.most_common()]]))
"""


class Tally(NamedTuple):
    """What one side executed: its actions, and bytecodes by (file, function)."""

    actions: int
    by_function: dict[tuple[str, str], int]

    @property
    def per_action(self) -> float:
        return sum(self.by_function.values()) / self.actions


def tally(root: Path, name: str, players: int, seeds: tuple[int, int], record: bool) -> Tally:
    """The bytecodes the package in ``root`` executes playing ``name``'s games of ``seeds``."""
    done = subprocess.run(
        [sys.executable, "-c", COUNTER, str(root), name, str(players), *map(str, seeds), "1" if record else "0"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{name} in {root}: the playout failed:\n{done.stderr[-2000:]}")
    actions, rows = json.loads(done.stdout)
    return Tally(actions, {(file, function): n for file, function, n in rows})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV", help="count commit REV too (unpacked with git archive)")
    parser.add_argument("--games", default="2,12", help="the first seed and the one after the last (default 2,12)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--record", action="store_true", help="play recorded games (default: record=False)")
    parser.add_argument("--top", type=int, default=0, metavar="N", help="list the N busiest functions of each side")
    parser.add_argument("--rulesets", nargs="+", default=["venedig", "saeulen", "rialto"])
    args = parser.parse_args()
    first, last = (int(n) for n in args.games.split(","))
    if last <= first:
        parser.error("--games needs a first seed below the second number")
    mode = "recorded" if args.record else "record=False"
    print(f"bytecodes per action, {args.players} players, {mode}, seeds {first} to {last - 1}")
    with tempfile.TemporaryDirectory(prefix="venedig-baseline-") as tmp:
        sides = {"this tree": ROOT}
        if args.baseline:
            archive = subprocess.run(["git", "archive", args.baseline], cwd=ROOT, check=True, capture_output=True)
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            sides[args.baseline] = Path(tmp)
        for name in args.rulesets:
            seeds = (first, last)
            tallies = {side: tally(root, name, args.players, seeds, args.record) for side, root in sides.items()}
            figures = "  ".join(f"{side} {t.per_action:,.0f}" for side, t in tallies.items())
            ratio = ""
            if args.baseline:
                ratio = f"  ratio {tallies[args.baseline].per_action / tallies['this tree'].per_action:.3f}"
            print(f"  {name:8} {figures}{ratio}")
            for side, t in tallies.items() if args.top else ():
                for (file, function), n in sorted(t.by_function.items(), key=lambda row: -row[1])[: args.top]:
                    print(f"      {side:10} {n / t.actions:8.1f}  {file}:{function}")


if __name__ == "__main__":
    main()
