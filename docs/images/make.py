"""Draw the pictures of the docs: a mid-game position of each bundled game, as seat 0 sees it.

    python docs/images/make.py            # writes docs/images/<game>.svg, and .png when it can

Each picture is ``venedig-rules render GAME --players N --seed S --actions K --seat 0``: a
seeded game after K random legal actions. A PNG is written too when cairosvg is installed
(``pip install cairosvg``), else with ``rsvg-convert`` or a headless Chromium if one is on
the PATH; otherwise only the SVG.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from venedig_rules.cli import main as venedig_rules

HERE = Path(__file__).resolve().parent

#: game -> (players, seed, actions): positions in the middle of a game.
POSITIONS = {
    "saeulen": (4, 1, 200),
    "rialto": (4, 2, 150),
    "venedig": (3, 1, 80),
}


def draw(name: str, players: int, seed: int, actions: int, out: Path) -> int:
    """``venedig-rules render`` of one position, as seat 0 sees it; its exit status."""
    return venedig_rules(
        ["render", name, "--players", str(players), "--seed", str(seed), "--actions", str(actions), "--seat", "0",
         "--out", str(out)]
    )  # fmt: skip


def to_png(svg: Path, png: Path) -> str | None:
    """Write ``png`` from ``svg`` with the first converter found; its name, or None."""
    try:
        import cairosvg  # type: ignore[import-not-found, import-untyped, unused-ignore]

        cairosvg.svg2png(url=str(svg), write_to=str(png))
        return "cairosvg"
    except ImportError:
        pass
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", "-o", str(png), str(svg)], check=True)
        return "rsvg-convert"
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser:
        width, height = _size(svg.read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory() as profile:
            subprocess.run(
                [browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}", f"--screenshot={png}", svg.as_uri()],
                check=True, capture_output=True,
            )  # fmt: skip
        return "chromium"
    return None


def _size(svg: str) -> tuple[int, int]:
    head = svg[: svg.index(">")]
    width = head.split('width="', 1)[1].split('"', 1)[0]
    height = head.split('height="', 1)[1].split('"', 1)[0]
    return int(float(width)), int(float(height))


def main() -> int:
    for name, (players, seed, actions) in POSITIONS.items():
        svg = HERE / f"{name}.svg"
        if draw(name, players, seed, actions, svg):
            return 1
        made = to_png(svg, svg.with_suffix(".png"))
        print(f"  {svg.stem}.png ({made})" if made else "  no PNG converter found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
