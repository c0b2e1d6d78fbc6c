"""ISMCTS iterations per second and the first ``sample()`` after a move, against a git ref;
prints ratios, asserts nothing (issue 33: iterations/s >= 2x 5b7acf5, first sample <= 1 ms).

Run: python benchmarks/search_speed.py [--base 5b7acf5] [--rounds 3] [--iterations 100]
     [--rulesets saeulen,rialto,venedig] [--python PY] [--base-python PY] [--instructions]

The base is checked out with ``git worktree add --detach`` into /tmp (once; kept for the
next run) and both trees are measured by this same script run as a worker process with the
tree's package first on ``sys.path`` (``--worker``), alternately, ``--rounds`` times
(interleaved, so a load that comes and goes on a shared machine falls on both); medians
are compared. ``--python PY`` measures this side with the package installed for
interpreter PY instead of this tree's source, ``--base-python PY`` the base likewise (for
the compiled builds: ``pip install .`` of each tree in a virtual environment of its own);
the table's heading names the package each side imported.

Positions: 2 players, deal seed 1, random play (``random.Random(1)``) for 10%, 50% and 85%
of that game's length (early, middle, late), then on to the first decision with more than
one option. Each version plays the same actions if it lists the legal actions in the same
order; the worker prints a fingerprint of each position (its actions and options), and the
table says whether both versions reached the same one (they did at 5b7acf5).

Measured at each position, for the seat to move:

- ``same``: the ISMCTS iteration both versions define alike: a sample, a walk down the
  tree, a random rollout of 6 actions (the base's default) and the score estimate
  (``ISMCTSBot(iterations=N, rollout_depth=6)``; for this tree also ``finish_turn=0,
  lookahead=0, prior_visits=0, projection=False``, and every option tried at once as the
  base did, ``widening=Widening(1e9, 0)``);
- ``shipped``: each version's ``ISMCTSBot(iterations=N)`` as shipped (its defaults);
- ``first sample``: ``game.sample(p, 1)`` just after one more action (the seat's knowledge
  follows the new events and the position is planned anew), its median over the positions.

Each search is timed after a full collection of the garbage collector, untimed: the first
one after a ruleset's load walks everything the load made, a cost of the process, not of a
search.

``--instructions`` counts instead of timing: the instructions of a ``same`` iteration at each
position, under ``valgrind --tool=callgrind`` (which a busy machine does not disturb, where
single timed rounds spread from half to twice their median). For each side and position two
worker processes reach the position and make the same warm-ups, one searching with
``--iterations`` and one not searching at all; their difference over the iterations is an
iteration's cost. ``PYTHONHASHSEED=0`` in both; as many at once as the machine has cores.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["saeulen", "rialto", "venedig"]
STAGES = {"early": 0.10, "middle": 0.50, "late": 0.85}


# -- the worker: runs inside the tree it measures ------------------------------------------------
def _play(game: Any, chooser: random.Random, actions: int) -> None:
    for _ in range(actions):
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))


def _positions(vr: Any, name: str) -> list[tuple[str, Any]]:
    """The early, middle and late positions of the ruleset's game (see the module's doc)."""
    rules = vr.load(name)
    game, chooser, length = rules.new_game(2, 1), random.Random(1), 0
    while not game.is_over:
        _play(game, chooser, 1)
        length += 1
    out = []
    for stage, share in STAGES.items():
        game, chooser = rules.new_game(2, 1), random.Random(1)
        _play(game, chooser, int(length * share))
        while len(game.legal_actions(game.to_move[0])) < 2:
            _play(game, chooser, 1)
        out.append((stage, game))
    return out


def _bot(bots: Any, kind: str, iterations: int) -> Any:
    if kind == "shipped":
        return bots.ISMCTSBot(seed=1, iterations=iterations)
    try:
        from venedig_rules.bots.widening import Widening
    except ImportError:  # the base: every option at once, no prior, rollouts of 6
        return bots.ISMCTSBot(seed=1, iterations=iterations, rollout_depth=6)
    return bots.ISMCTSBot(
        seed=1,
        iterations=iterations,
        rollout_depth=6,
        finish_turn=0,
        lookahead=0,
        prior_visits=0,
        projection=False,
        widening=Widening(1e9, 0),
    )


def _first_sample_ms(game: Any, player: int, actions: list[Any]) -> float:
    """The median time of the seat's first sample after one more action (up to 5 actions)."""
    game.sample(player, 0)  # the seat's knowledge follows the game from here
    times = []
    for action in actions[:5]:
        game.apply(action)
        start = time.process_time()
        game.sample(player, 1)
        times.append((time.process_time() - start) * 1000)
        game.undo()
        game.sample(player, 2)  # after the undo the knowledge is read again: not timed
    return statistics.median(times)


def worker(names: list[str], iterations: int, only: str | None = None) -> None:
    """One JSON line per position: iterations/s of each bot and the first sample's ms.
    ``only`` (``"stage"``): that position alone and its ``same`` search alone, untimed, and
    none at all with no ``iterations`` (what ``--instructions`` counts)."""
    import venedig_rules as vr
    from venedig_rules import bots

    for name in names:
        for stage, game in _positions(vr, name):
            if only is not None and stage != only:
                continue
            player = game.to_move[0]
            actions = game.legal_actions(player)
            game.sample(player, 0)  # warm: the sampling module loaded, the seat's knowledge read
            if only is not None:
                _search(bots, game, actions, "same", iterations)
                continue
            row: dict[str, Any] = {"ruleset": name, "stage": stage, "events": len(game.events)}
            row["package"] = os.path.dirname(vr.__file__)
            # the same actions played and the same options (a view's format may differ)
            shown = json.dumps([game.actions, [str(a) for a in actions]])
            row["fingerprint"] = hashlib.sha1(shown.encode()).hexdigest()[:10]
            for kind in ("same", "shipped"):
                row[kind] = iterations / _search(bots, game, actions, kind, iterations)
            row["first_sample_ms"] = _first_sample_ms(game, player, actions)
            print(json.dumps(row), flush=True)


def _search(bots: Any, game: Any, actions: list[Any], kind: str, iterations: int) -> float:
    """CPU seconds of the ``kind`` bot's search of ``iterations`` at ``game`` for the seat to
    move (none at all when 0: the bot made and the collection alone)."""
    bot = _bot(bots, kind, max(iterations, 1))
    # a full collection now, untimed: else the first one after the load (which pauses the
    # collector) walks the whole ruleset, 10 to 27 ms, inside a search that takes a tenth of
    # a second
    gc.collect()
    start = time.process_time()
    if iterations:
        bot.act_with_samples(None, actions, bots.Sampler(game, game.to_move[0]))
    return time.process_time() - start


# -- the driver -------------------------------------------------------------------------------------
def base_tree(ref: str) -> Path:
    """A detached worktree of ``ref`` in /tmp (made once, then reused)."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", ref], check=True, capture_output=True, text=True
    ).stdout.strip()
    tree = Path(tempfile.gettempdir()) / f"venedig-rules-base-{commit}"
    if not (tree / "venedig_rules").is_dir():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit], check=True)
    return tree


def measure(tree: Path, python: str | None, names: list[str], iterations: int) -> list[dict[str, Any]]:
    """The worker's rows, run with ``tree``'s package first on the path, or with the package
    installed for ``python`` (run outside any tree, so that no source folder shadows it)."""
    cwd, env = _worker_place(tree, python)
    command = _worker_command(python, names, iterations)
    done = subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True, text=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def _worker_command(python: str | None, names: list[str], iterations: int) -> list[str]:
    command = [python or sys.executable, str(Path(__file__).resolve()), "--worker", "--iterations", str(iterations)]
    return command + ["--rulesets", ",".join(names)]


def _worker_place(tree: Path, python: str | None) -> tuple[Path | str, dict[str, str]]:
    """Where a worker runs and its environment: ``tree``'s package first on the path, or,
    with ``python``, outside any tree, so that no source folder shadows the installed one."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if python is None:
        env["PYTHONPATH"] = str(tree)
    return (tempfile.gettempdir() if python else tree), env


_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(tree: Path, python: str | None, name: str, stage: str, iterations: int) -> int:
    """The instructions of a worker that reaches one position and searches it (see the
    module's doc), counted by callgrind."""
    cwd, env = _worker_place(tree, python)
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += _worker_command(python, [name], iterations) + ["--only", stage]
    done = subprocess.run(command, cwd=cwd, env={**env, "PYTHONHASHSEED": "0"}, capture_output=True, text=True)
    refs = _REFS.search(done.stderr)
    if done.returncode != 0 or refs is None:
        raise SystemExit(f"{name} {stage}: the search failed under valgrind:\n{done.stderr[-2000:]}")
    return int(refs.group(1).replace(",", ""))


def count_iterations(trees: dict[str, Path], pythons: dict[str, str | None], names: list[str], iterations: int) -> None:
    """Print each side's instructions a ``same`` iteration at every position, and their ratio."""
    runs = [(side, name, stage, n) for name in names for stage in STAGES for side in trees for n in (0, iterations)]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        counts = dict(zip(runs, pool.map(lambda run: instructions(trees[run[0]], pythons[run[0]], *run[1:]), runs)))
    print(f"instructions a 'same' ISMCTS iteration ({iterations} iterations less none; callgrind)")
    print(f"  {'ruleset':8} {'stage':7} {'base':>12} {'head':>12} {'ratio':>6}")
    for name in names:
        for stage in STAGES:
            per = {
                side: (counts[side, name, stage, iterations] - counts[side, name, stage, 0]) / iterations
                for side in trees
            }
            print(f"  {name:8} {stage:7} {per['base']:12,.0f} {per['head']:12,.0f} {per['base'] / per['head']:5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="5b7acf5", help="the git ref to compare with (default 5b7acf5)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree, interleaved (default 3)")
    parser.add_argument("--iterations", type=int, default=100, help="iterations of each search (default 100)")
    parser.add_argument("--rulesets", default=",".join(GAMES), help="comma separated (default all three)")
    parser.add_argument("--python", metavar="PY", help="measure this side with the package installed for PY")
    parser.add_argument("--base-python", metavar="PY", help="measure the base with the package installed for PY")
    parser.add_argument(
        "--instructions", action="store_true", help="count a 'same' iteration's instructions under valgrind instead"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only", choices=list(STAGES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [n for n in args.rulesets.split(",") if n]
    if args.worker:
        worker(names, args.iterations, args.only)
        return
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    trees = {"base": base_tree(args.base), "head": ROOT}
    pythons = {"base": args.base_python, "head": args.python}
    if args.instructions:
        count_iterations(trees, pythons, names, args.iterations)
        return
    rows: dict[str, list[dict[str, Any]]] = {"base": [], "head": []}
    for round_ in range(args.rounds):
        for side, tree in trees.items():
            rows[side] += measure(tree, pythons[side], names, args.iterations)
            print(f"  round {round_ + 1}/{args.rounds}: {side} measured", file=sys.stderr)
    print(f"ISMCTS iterations/s ({args.iterations} iterations a search) and first sample after a move;")
    print(f"head against {args.base}; medians of {args.rounds} interleaved rounds; target 2x, <= 1 ms")
    for side in rows:
        print(f"  {side}: {rows[side][0]['package']}")
    print(
        f"  {'ruleset':8} {'stage':7} {'same it/s':>19} {'ratio':>6} {'shipped it/s':>19} {'ratio':>6}"
        f" {'first sample ms':>17}  same position"
    )
    for name in names:
        for stage in STAGES:
            got = {side: [r for r in rows[side] if r["ruleset"] == name and r["stage"] == stage] for side in rows}
            med = {
                (side, k): statistics.median(r[k] for r in got[side])
                for side in got
                for k in ("same", "shipped", "first_sample_ms")
            }
            same = got["base"][0]["fingerprint"] == got["head"][0]["fingerprint"]
            print(
                f"  {name:8} {stage:7} {med['base', 'same']:8.0f} -> {med['head', 'same']:6.0f} "
                f"{med['head', 'same'] / med['base', 'same']:5.2f}x "
                f"{med['base', 'shipped']:8.0f} -> {med['head', 'shipped']:6.0f} "
                f"{med['head', 'shipped'] / med['base', 'shipped']:5.2f}x "
                f"{med['base', 'first_sample_ms']:7.2f} -> {med['head', 'first_sample_ms']:5.2f}  "
                f"{'yes' if same else 'no'}"
            )


if __name__ == "__main__":
    main()
