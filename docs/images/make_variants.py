"""Draw the balance-reading figure of docs/variants.md (``variants-scores.png``) and print
the report it comes from.

Run from the repository root (needs the sim extra):
    python docs/images/make_variants.py [--games 200]

It takes the tutorial's ``seven_rounds`` variant from docs/variants.md as written, plays it
against Rialto with three random bots and the same seeds, as the tutorial's step 5 shows,
writes the plots of ``--out`` into a temporary folder and copies the scores plot here.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TUTORIAL = HERE.parent / "variants.md"
#: plot written by ``simulate --out`` -> the image in docs/images
IMAGES = {"scores.png": "variants-scores.png"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games of each ruleset (default 200)")
    args = parser.parse_args()
    text = TUTORIAL.read_text(encoding="utf-8")
    design = next(b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "id: seven_rounds" in b)
    with tempfile.TemporaryDirectory() as work:
        variant = Path(work) / "seven_rounds.yaml"
        variant.write_text(design, encoding="utf-8")
        out = Path(work) / "report"
        command = [sys.executable, "-m", "venedig_rules", "simulate", str(variant), "--players", "3"]
        command += ["--games", str(args.games), "--against", "rialto", "--out", str(out)]
        done = subprocess.run(command, check=False)
        if done.returncode != 0:
            return done.returncode
        for made, image in IMAGES.items():
            shutil.copyfile(out / made, HERE / image)
            print(f"wrote {HERE / image}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
