"""The cost of following a game's human log: ``game.log(seat, since=cursor)`` after each
action, as a page that follows a table asks it; prints figures and ratios, asserts nothing.

Run: python benchmarks/log_cursor.py [--baseline REV] [--rounds R] [--games N] [--players P]

Every round plays the same random games of each bundled game (``--players``, seeds 0 to
N-1) once with each side, each batch in a fresh process, the sides in alternating order.
After each action, for every seat and a spectator, the batch asks ``game.view(seat)`` (as a
page does first; not timed) and then times ``game.log(seat, since=cursor)``, the cursor
being that seat's before the action, in CPU time. It prints the mean cost of a call over
whole games and over their last quarter (where a log that replays the game costs most),
and, with ``--baseline REV`` (default: the merge-base with ``main``), each side's figures
and the ratio baseline / this tree, round by round and their median. REV is unpacked with
``git archive`` into a temporary folder and run with this environment's dependencies.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent

#: One batch, run in a fresh process with one side's package first on the path: prints the
#: calls and the CPU seconds of ``log(seat, since=cursor)``, all of them and the last quarter's.
WORKER = """
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import venedig_rules as vr
name, players, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rules = vr.load(name)
seats = [None, *range(players)]
times = []
for seed in range(games):
    game, chooser = rules.new_game(players, seed), random.Random(seed)
    cursors = {seat: game.view(seat)["cursor"] for seat in seats}
    game.log(None)  # the words and texts made once, outside the timing
    spent = []
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
        for seat in seats:
            view = game.view(seat)  # a page asks its view first (it brings the seat's log up to date)
            start = time.process_time()
            game.log(seat, since=cursors[seat])
            spent.append(time.process_time() - start)
            cursors[seat] = view["cursor"]
    times.append(spent)
late = [t for spent in times for t in spent[len(spent) * 3 // 4 :]]
every = [t for spent in times for t in spent]
print(json.dumps({"calls": len(every), "all": sum(every), "late_calls": len(late), "late": sum(late)}))
"""


class Batch(NamedTuple):
    """A batch's mean CPU milliseconds per call, over whole games and their last quarter."""

    every: float
    late: float


def unpack(rev: str, into: Path) -> Path:
    """Commit ``rev`` of this repository as files in ``into`` (no worktree, no checkout)."""
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def batch(root: Path, name: str, players: int, games: int) -> Batch:
    out = subprocess.run(
        [sys.executable, "-c", WORKER, str(root), name, str(players), str(games)],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    figures = json.loads(out)
    return Batch(figures["all"] / figures["calls"] * 1000, figures["late"] / figures["late_calls"] * 1000)


def merge_base() -> str:
    return subprocess.run(
        ["git", "merge-base", "HEAD", "main"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV", help="compare with commit REV (default: the merge-base with main)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--games", type=int, default=1, help="games per batch (default 1)")
    parser.add_argument("--players", type=int, default=3, help="players (default 3)")
    args = parser.parse_args()
    rev = args.baseline or merge_base()
    sys.path.insert(0, str(ROOT))
    import venedig_rules as vr

    names = [n for n in vr.bundled() if vr.load(n).playable]
    with tempfile.TemporaryDirectory(prefix="venedig-baseline-") as tmp:
        sides = {"baseline": unpack(rev, Path(tmp)), "this tree": ROOT}
        print(
            f"log(seat, since=cursor) after each action, every seat and a spectator; this tree against {rev}; "
            f"{args.players} players, {args.games} games per batch, {args.rounds} rounds; CPU time"
        )
        runs: dict[tuple[str, str], list[Batch]] = {}
        for r in range(args.rounds):
            for name in names:
                order = list(sides) if r % 2 == 0 else list(sides)[::-1]
                for label in order:
                    runs.setdefault((name, label), []).append(batch(sides[label], name, args.players, args.games))
    print(f"\n{'game':<10} {'side':<10} {'ms a call':>10} {'last quarter':>13}  ratio baseline / this (per round)")
    for name in names:
        base, this = runs[(name, "baseline")], runs[(name, "this tree")]
        for label, batches in (("baseline", base), ("this tree", this)):
            every = statistics.median(b.every for b in batches)
            late = statistics.median(b.late for b in batches)
            print(f"{name:<10} {label:<10} {every:10.3f} {late:13.3f}")
        ratios = [b.every / t.every for b, t in zip(base, this)]
        late_ratios = [b.late / t.late for b, t in zip(base, this)]
        print(
            f"{'':<10} {'ratio':<10} {statistics.median(ratios):9.2f}x {statistics.median(late_ratios):12.2f}x  "
            f"({' '.join(f'{x:.2f}' for x in ratios)}; last quarter {' '.join(f'{x:.2f}' for x in late_ratios)})"
        )


if __name__ == "__main__":
    main()
