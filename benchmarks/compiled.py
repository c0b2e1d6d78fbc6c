"""The compiled build against the pure-Python package: random playouts of each game, both
builds interleaved in one run; prints actions per second and the ratios, asserts nothing.

Run: python benchmarks/compiled.py [--wheel PATH] [--rounds 5] [--games 30] [--players 3]

Builds the compiled wheel (``VENEDIG_RULES_COMPILE=1``, see hatch_build.py; needs the
``[compile]`` extra and a C compiler) unless ``--wheel`` names one, installs it in a new
environment, and plays the same games there and in this checkout: the loop ``legal_actions
-> random choice -> apply`` to the end, ``--games`` games a round, each build in a new
process, alternating, ``--rounds`` times. Each figure is the CPU time of the playouts alone
(the processes' start and the ruleset's load left out); the ratio is compiled over pure,
round by round (both halves of a round run close together, so the machine's drift cancels).
Both builds must end every game in the same state: the script checks that.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_compiled import build_compiled_wheel  # noqa: E402
from test_packaging import install_wheel  # noqa: E402

#: The playouts, run in a new process of either build: prints actions, CPU seconds, a digest.
PLAYOUTS = """
import hashlib, random, time, venedig_rules as vr
rules = vr.load({game!r})
chooser = random.Random(0)
actions = 0
digest = hashlib.sha256()
start = time.process_time()
for seed in range({games}):
    game = rules.new_game({players}, seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
        actions += 1
    digest.update(repr(game.fingerprint()).encode())
print(actions, time.process_time() - start, digest.hexdigest())
"""


def playouts(python: Path, cwd: Path, isolated: bool, game: str, games: int, players: int) -> tuple[int, float, str]:
    code = PLAYOUTS.format(game=game, games=games, players=players)
    flags = ["-I"] if isolated else []
    out = subprocess.run([str(python), *flags, "-c", code], cwd=cwd, check=True, capture_output=True, text=True).stdout
    actions, seconds, digest = out.split()
    return int(actions), float(seconds), digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, help="a compiled wheel to use (default: build one)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=30, help="games per game and round (default 30)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--game", nargs="+", default=["venedig", "saeulen", "rialto"])
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or build_compiled_wheel(Path(tmp) / "wheel")
        compiled = install_wheel(wheel, Path(tmp) / "venv")
        outside = Path(tmp) / "elsewhere"
        outside.mkdir()
        print(f"compiled: {wheel.name}; pure: this checkout; {args.games} games of {args.players} players a round")
        rates: dict[tuple[str, str], list[float]] = {}
        ratios: dict[str, list[float]] = {game: [] for game in args.game}
        for _ in range(args.rounds):
            for game in args.game:
                # the checkout: python -c puts the working directory (ROOT) first on the path
                pure = playouts(Path(sys.executable), ROOT, False, game, args.games, args.players)
                fast = playouts(compiled, outside, True, game, args.games, args.players)
                if pure[0] != fast[0] or pure[2] != fast[2]:
                    raise SystemExit(f"{game}: the builds played different games: {pure} vs {fast}")
                rates.setdefault((game, "pure"), []).append(pure[0] / pure[1])
                rates.setdefault((game, "compiled"), []).append(fast[0] / fast[1])
                ratios[game].append(pure[1] / fast[1])
        for game in args.game:
            print(f"\n{game}")
            for build in ("pure", "compiled"):
                values = rates[(game, build)]
                print(f"  {build:9} median {statistics.median(values):8.0f} actions/s   best {max(values):8.0f}")
            values = ratios[game]
            print(
                f"  compiled / pure, round by round: median {statistics.median(values):.2f}x "
                f"(min {min(values):.2f}x, max {max(values):.2f}x)"
            )


if __name__ == "__main__":
    main()
