"""Instructions per action, counted by valgrind: the figure a busy machine does not disturb;
prints it, asserts nothing.

Run: python benchmarks/instructions.py [--games 5,35] [--players 2] [--record]
     [--python PY] [--rulesets venedig saeulen rialto]

For each ruleset, two new processes run under ``valgrind --tool=callgrind`` and play the
same random games to the end (``legal_actions -> random choice -> apply``, seeds from 0):
the first plays the smaller number of ``--games``, the second the larger. Their difference in
instructions over their difference in actions is the cost of an action, with the
interpreter's start, the import and the ruleset's load taken off. Games are made with
``record=False`` unless ``--record`` asks for the default. ``--python PY`` runs the package
installed for interpreter PY (from a folder outside the checkout, so that the installed
package is the one imported: the compiled wheel ``pip install`` builds, say); without it,
this tree: the tree this script lies in, so a copy of it in another checkout counts that one
(``git archive 82e2180 | tar -x -C /tmp/base``, copy the script into ``/tmp/base/benchmarks/``
and run it with ``--record`` to count the baseline). Under valgrind a process runs some fifty
times slower: 35 games take minutes.

For one function's share, run the same playout under ``valgrind --tool=callgrind
--toggle-collect='*FUNCTION*'`` by hand (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent

PLAYOUT = """
import random, sys
import venedig_rules as vr
name, players, games, record = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
rules = vr.load(name)
options = {} if record else {"record": False}  # a tree older than record=False takes none
actions = 0
for seed in range(games):
    chooser = random.Random(seed)
    game = rules.new_game(players, seed, **options)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
        actions += 1
print(actions)
"""

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


class Count(NamedTuple):
    instructions: int
    actions: int


def count(python: str, cwd: Path, name: str, players: int, games: int, record: bool) -> Count:
    """Instructions and actions of one process playing ``games`` games under callgrind."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        python,
        "-c",
        PLAYOUT,
        name,
        str(players),
        str(games),
        "1" if record else "0",
    ]
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{name}: the playout failed under valgrind:\n{done.stderr[-2000:]}")
    refs = _REFS.search(done.stderr)
    if refs is None:
        raise SystemExit(f"{name}: valgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return Count(int(refs.group(1).replace(",", "")), int(done.stdout.split()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="5,35", help="the two numbers of games, comma separated (default 5,35)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--record", action="store_true", help="play recorded games (default: record=False)")
    parser.add_argument("--python", metavar="PY", help="count the package installed for interpreter PY")
    parser.add_argument("--rulesets", nargs="+", default=["venedig", "saeulen", "rialto"])
    args = parser.parse_args()
    few, many = sorted(int(n) for n in args.games.split(","))
    if few == many:
        parser.error("--games needs two different numbers")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    mode = "recorded" if args.record else "record=False"
    side = f"installed for {args.python}" if args.python else f"this tree ({ROOT})"
    print(f"instructions per action, {args.players} players, {mode}, games {many} less {few}; {side}")
    with tempfile.TemporaryDirectory() as outside:
        cwd = Path(outside) if args.python else ROOT
        python = args.python or sys.executable
        for name in args.rulesets:
            small = count(python, cwd, name, args.players, few, args.record)
            large = count(python, cwd, name, args.players, many, args.record)
            per_action = (large.instructions - small.instructions) / (large.actions - small.actions)
            print(f"  {name:8} {per_action:>12,.0f}  ({large.actions - small.actions} actions)")


if __name__ == "__main__":
    main()
