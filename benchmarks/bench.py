"""Speed figures of venedig-rules; prints them with their targets, asserts nothing.

Run: python benchmarks/bench.py [--games N] [--repeat R]
     python benchmarks/bench.py --baseline REV [--games N] [--rounds R] [--python PY]

- load: reading, checking and compiling each ruleset from YAML (median of 5, fresh each
  time; the DSL parser itself is built once per process, see "first load")
- first load: a new Python process importing venedig_rules and loading the ruleset
- playouts: random legal games to the end, computing the legal actions at every step
  (actions per second on one core; games per second), per ruleset and player count; the
  same games R times, best and median (shared machines are noisy: the best is the figure
  least disturbed by other work)
- playing by number: numbering a ruleset's actions (once), then random playouts through
  ``legal_action_ids`` and ``apply_index``, as the OpenSpiel and PettingZoo adapters play
- ``game.playout``: random playouts without the legal actions made at every step, against
  the loop they replace (the same games, taking turns), recorded and with ``record=False``
- clone: Game.clone() of a mid-game state (median over many)

With ``--baseline REV`` it instead compares this tree with commit REV side by side: REV is
unpacked (``git archive``) into a temporary folder and run from there with this
environment's dependencies; every round plays the same random games of each bundled game
once with each side, each batch in a fresh process, in alternating order, and times them as
CPU time per action (the machine is shared: CPU time and interleaving keep the ratio
honest). Modes: the default (``legal_actions`` -> random choice -> ``apply``) of both
sides, and this tree's ``record=False`` against the baseline's default. ``--python PY``
plays this side with the package installed in PY's environment instead (``pip install .``
builds the compiled wheel where a compiler works: that is the one users get). Then the
memory a finished game keeps (tracemalloc) and the cost of a late-game view, in this tree.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import NamedTuple

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


def by_number(rules, players: int, games: int) -> tuple[float, float]:
    """ms to number the ruleset's actions (``action_space``, once per ruleset), then
    actions/s of random playouts by number (``legal_action_ids`` -> ``apply_index``, the loop
    of the OpenSpiel and PettingZoo adapters)."""
    from venedig_rules.engine.research.actions import action_space

    start = time.perf_counter()
    action_space(rules, players)
    numbering = (time.perf_counter() - start) * 1000
    chooser, actions = random.Random(0), 0
    start = time.perf_counter()
    for seed in range(games):
        game = rules.new_game(players, seed)
        while not game.is_over:
            mover = game.to_move[0]
            game.apply_index(chooser.choice(game.legal_action_ids(mover)), mover)
            actions += 1
    return numbering, actions / (time.perf_counter() - start)


def playout_against_loop(rules, players: int, games: int, rounds: int, record: bool) -> tuple[float, float, float]:
    """CPU µs an action of ``game.playout(seed=s)`` and of the loop it replaces
    (``apply(rand.choice(legal_actions(to_move[0])))`` with ``random.Random(s)``: the very
    same games), the two taking turns ``rounds`` times; medians, and the median of the
    rounds' ratios (loop time over playout time)."""
    loop_us, playout_us = [], []
    for r in range(rounds):
        for use_playout in (False, True) if r % 2 == 0 else (True, False):
            actions, start = 0, time.process_time()
            for seed in range(games):
                game = rules.new_game(players, seed, record=record)
                if use_playout:
                    game.playout(seed=seed)
                else:
                    rand = random.Random(seed)
                    while not game.is_over:
                        game.apply(rand.choice(game.legal_actions(game.to_move[0])))
                actions += game.position.actions
            (playout_us if use_playout else loop_us).append((time.process_time() - start) / actions * 1e6)
    ratios = [a / b for a, b in zip(loop_us, playout_us)]
    return statistics.median(loop_us), statistics.median(playout_us), statistics.median(ratios)


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


# -- side by side with another commit ---------------------------------------------------------
#: One batch of random playouts, run in a fresh process with one side's package first on the
#: path: prints CPU seconds and actions. ``record`` is passed only when it is False (a baseline
#: may not know it).
WORKER = """
import json, random, sys, time
if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
import venedig_rules as vr
name, players, games, record = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
rules = vr.load(name)
extra = {} if record else {"record": False}
rules.new_game(players, 0, **extra)  # compile and warm up outside the timing
chooser, actions = random.Random(0), 0
start = time.process_time()
for seed in range(games):
    game = rules.new_game(players, seed, **extra)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
        actions += 1
print(json.dumps([time.process_time() - start, actions]))
"""


def unpack(rev: str, into: Path) -> Path:
    """Commit ``rev`` of this repository as files in ``into`` (no worktree, no checkout)."""
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


class Side(NamedTuple):
    """What plays one side's batches: a python, and the source folder it imports the
    package from (None: the package installed in that python's environment)."""

    python: str
    root: Path | None


def batch(side: Side, name: str, players: int, games: int, record: bool) -> tuple[float, int]:
    # -I for an installed package: neither the working directory nor PYTHONPATH comes first
    flags = [] if side.root else ["-I"]
    out = subprocess.run(
        [
            side.python,
            *flags,
            "-c",
            WORKER,
            str(side.root or ""),
            name,
            str(players),
            str(games),
            "1" if record else "0",
        ],
        cwd=side.root or tempfile.gettempdir(),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    seconds, actions = json.loads(out)
    return seconds, actions


def retained_kb(rules, players: int, games: int, record: bool) -> float:
    """The memory a finished game keeps (mean over ``games``), the ruleset's caches warm."""
    chooser = random.Random(0)
    rules.new_game(players, 0, record=record)
    sizes = []
    for seed in range(games):
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        game = rules.new_game(players, seed, record=record)
        while not game.is_over:
            game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
        sizes.append((tracemalloc.get_traced_memory()[0] - before) / 1024)
        tracemalloc.stop()
        del game
    return statistics.mean(sizes)


def view_costs(rules, players: int) -> tuple[float, float, int]:
    """ms of a full ``view(p)`` near the end of a game, and of ``view(p, since=cursor)`` for
    the events of the last action; the number of those events."""
    chooser = random.Random(3)
    game = rules.new_game(players, 3)
    while not game.is_over:
        before = game.clone()
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    game = before
    mover = game.to_move[0]
    cursor = game.position.events
    game.apply(game.legal_actions(mover)[0])
    new = game.position.events - cursor
    full = min(_ms(lambda p=p: game.view(p)) for p in range(players) for _ in range(5))
    since = min(_ms(lambda p=p: game.view(p, since=cursor)) for p in range(players) for _ in range(20))
    return full, since, new


def _ms(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def compare(rev: str, games: int, rounds: int, python: str | None = None) -> None:
    """Interleaved playouts of this tree (or of the package installed for ``python``) and
    commit ``rev``, then memory and views."""
    with tempfile.TemporaryDirectory(prefix="venedig-baseline-") as tmp:
        base = Side(sys.executable, unpack(rev, Path(tmp)))
        this = Side(python, None) if python else Side(sys.executable, ROOT)
        what = f"the package installed for {python}" if python else "this tree"
        print(f"{what} against {rev} (unpacked in {base.root}); {games} games per batch, {rounds} rounds; CPU time")
        runs: dict[tuple[str, str], list[tuple[float, int]]] = {}
        names = [n for n in vr.bundled() if vr.load(n).playable]
        for r in range(rounds):
            for name in names:
                players = vr.load(name).players.start
                sides = [("baseline", base, True), ("default", this, True), ("record=False", this, False)]
                for label, side, record in sides if r % 2 == 0 else sides[::-1]:
                    runs.setdefault((name, label), []).append(batch(side, name, players, games, record))
        print(f"\n{'game':<10} {'mode':<13} {'actions/s (median)':>19} {'ratio':>7}  (per round)")
        for name in names:
            base_rates = [a / s for s, a in runs[(name, "baseline")]]
            for label in ("baseline", "default", "record=False"):
                rates = [a / s for s, a in runs[(name, label)]]
                ratios = [x / b for x, b in zip(rates, base_rates)]
                each = " ".join(f"{x:.2f}" for x in ratios)
                print(
                    f"{name:<10} {label:<13} {statistics.median(rates):19,.0f} "
                    f"{statistics.median(ratios):6.2f}x  ({each})"
                )
    print("\nmemory a finished game keeps (tracemalloc, mean of 5), target < 100 KB with record=False")
    for name in names:
        rules = vr.load(name)
        n = rules.players.start
        print(
            f"  {name:<10} {n}p  record=True {retained_kb(rules, n, 5, True):8.0f} KB   "
            f"record=False {retained_kb(rules, n, 5, False):6.0f} KB"
        )
    print("\nlate-game views (best), target view(p) < 5 ms, view(p, since) in proportion to the new events")
    for name in names:
        rules = vr.load(name)
        n = rules.players.stop - 1
        full, since, new = view_costs(rules, n)
        print(f"  {name:<10} {n}p  view(p) {full:6.2f} ms   view(p, since) {since:6.3f} ms for {new} new events")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count (default 200)")
    parser.add_argument("--repeat", type=int, default=3, help="times each batch of games is played (default 3)")
    parser.add_argument("--baseline", metavar="REV", help="compare with commit REV side by side instead")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds with --baseline (default 3)")
    parser.add_argument(
        "--python",
        metavar="PY",
        help="with --baseline: play this side with the package installed for interpreter PY (a wheel, e.g. the "
        "compiled build) instead of this tree",
    )
    args = parser.parse_args()
    if args.python and not args.baseline:
        parser.error("--python needs --baseline")
    if args.baseline:
        compare(args.baseline, args.games, args.rounds, args.python)
        return
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
    print("\nplaying by number (legal_action_ids -> apply_index), after numbering the actions once")
    for rules in playable:
        if rules.data["game"].get("action_space"):
            numbering, rate = by_number(rules, rules.players.start, max(1, args.games // 10))
            print(f"  {rules.name:<12} numbering {numbering:7.0f} ms   then {rate:8,.0f} actions/s")
    print("\ngame.playout(seed=s) against the legal_actions loop it replaces (the same games, CPU time)")
    for rules in playable:
        for record in (True, False):
            loop_us, playout_us, ratio = playout_against_loop(
                rules, rules.players.start, max(1, args.games // 10), max(3, args.repeat), record
            )
            print(
                f"  {rules.name:<12} record={record!s:<5}  loop {loop_us:6.1f} us  playout {playout_us:6.1f} us "
                f"an action: {ratio:.2f}x"
            )
    print("\nclone() of a mid-game state (median), target < 50 us")
    for rules in playable:
        print(f"  {rules.name:<12} {clone_us(rules, rules.players.stop - 1):7.2f} us")
    not_playable = [n for n in vr.bundled() if not vr.load(n).playable]
    if not_playable:
        print(f"\nnot playable yet (rule data only): {', '.join(not_playable)}")


if __name__ == "__main__":
    main()
