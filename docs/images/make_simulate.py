"""Draw the balance-report figures of docs/simulate.md (``simulate-*.png``) and print the
report they come from.

Run from the repository root (needs the sim extra):
    python docs/images/make_simulate.py [--games 200]

It plays two-player Venedig without the imaginary player against Venedig, two random bots,
the same seeds, as docs/simulate.md shows, writes the plots of ``--out`` into a temporary folder and
copies three of them here: the win rates, the scores and who leads along the game.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: plot written by ``simulate --out`` -> the image in docs/images
IMAGES = {
    "win_rates.png": "simulate-win-rates.png",
    "scores.png": "simulate-scores.png",
    "lead.png": "simulate-lead.png",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games of each ruleset (default 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        command = [
            sys.executable,
            "-m",
            "venedig_rules",
            "simulate",
            "venedig",
            "--variant",
            "no_imaginary_player",
            "--against",
            "venedig",
            "--players",
            "2",
            "--games",
            str(args.games),
            "--out",
            out,
        ]
        done = subprocess.run(command, check=False)
        if done.returncode != 0:
            return done.returncode
        for made, image in IMAGES.items():
            shutil.copyfile(Path(out) / made, HERE / image)
            print(f"wrote {HERE / image}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
