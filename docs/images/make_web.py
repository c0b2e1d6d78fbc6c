"""Screenshots of the web front end for the docs: a table of each bundled game in the browser, as
p0 sees it a few moves in, on a laptop (1366x768, pointing at an item of the summary, whose text
shows) and on a phone (390x844); the end of a Säulen game with its score breakdown; the lobby.

    PYTHONPATH=. python docs/images/make_web.py   # writes docs/images/web-<game>.png, web-<game>-phone.png, web-end.png

Needs the web extra, Playwright for Python and a Chromium (Debian's ``chromium``, or ``$CHROMIUM``).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import sync_playwright

from venedig_rules.web.catalog import Catalog
from venedig_rules.web.lobby import Lobby
from venedig_rules.web.serve import running

HERE = Path(__file__).resolve().parent
#: game -> (players, p0's clicks before the picture). Each table is dealt in secret, as people play
#: (a public seed would be written in the page's title).
TABLES = {"venedig": (3, 12), "saeulen": (3, 6), "rialto": (3, 8)}
#: name -> the viewport of the picture
SIZES = {"": {"width": 1366, "height": 768}, "-phone": {"width": 390, "height": 844}}
#: the most bytes a picture may take in the docs; a larger one is stored with a palette
MAX_BYTES = 250_000
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def find_chromium() -> str | None:
    """The Chromium to draw with ($CHROMIUM, else Debian's ``chromium``); None, said on
    standard error, when there is none."""
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if chromium is None:
        print("no Chromium: install Debian's chromium or set CHROMIUM", file=sys.stderr)
    return chromium


def main() -> int:
    chromium = find_chromium()
    if chromium is None:
        return 1
    lobby = Lobby(Catalog())
    with running(lobby, bot_delay=0.0) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for game, (players, clicks) in TABLES.items():
            for suffix, viewport in SIZES.items():
                table = lobby.create({"game": game, "players": players, "seats": ["human"] + ["bot"] * (players - 1)})
                context = browser.new_context(viewport=viewport, locale="en-GB")
                page = context.new_page()
                page.goto(f"{url}/table/{table.ident}?seat={table.seats[0].token}")
                for _ in range(clicks):
                    page.wait_for_selector(
                        "[data-testid=options][data-forced=false] button[data-action]", timeout=30_000
                    )
                    page.locator("button[data-action]").first.click()
                    page.wait_for_function("!document.querySelector('[data-testid=options].busy')")
                page.wait_for_selector("[data-testid=options][data-forced=false] button[data-action]", timeout=30_000)
                if not suffix:  # on a laptop: point at an item, and its text shows
                    page.locator("[data-testid=summary-panel] [data-item]").first.hover()
                    page.wait_for_selector("[data-testid=item-text]:not([hidden])")
                page.wait_for_timeout(300)
                path = HERE / f"web-{game}{suffix}.png"
                shoot(page, path)
                context.close()
        end_screen(lobby, url, browser)
        context = browser.new_context(viewport=SIZES[""], locale="en-GB")
        page = context.new_page()
        page.goto(f"{url}/")
        page.wait_for_selector("[data-testid=seat-1]")
        shoot(page, HERE / "web-lobby.png", full_page=True)
        browser.close()
    return 0


def shoot(page: Any, path: Path, full_page: bool = False) -> None:
    """A screenshot of the page at ``path``, with a palette of 256 colours when it would
    pass ``MAX_BYTES`` (the page is flat colours and text: nothing is lost to the eye)."""
    page.screenshot(path=str(path), full_page=full_page)
    if path.stat().st_size > MAX_BYTES:
        with Image.open(path) as picture:
            small = picture.convert("RGB").quantize(
                colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
            )
        small.save(path, optimize=True)
    print(path, path.stat().st_size, "bytes")


def end_screen(lobby: Lobby, url: str, browser: Any) -> None:
    """A Säulen game of p0 against a bot, p0 taking the first option each time, at its end."""
    table = lobby.create({"game": "saeulen", "players": 2, "seats": ["human", "bot"]})
    context = browser.new_context(viewport=SIZES[""], locale="en-GB")
    page = context.new_page()
    page.goto(f"{url}/table/{table.ident}?seat={table.seats[0].token}")
    while not page.locator("[data-testid=winners]").count():
        page.wait_for_selector("button[data-action], [data-testid=winners]", timeout=30_000)
        buttons = page.locator("button[data-action]")
        if buttons.count():
            try:
                buttons.first.click(timeout=2000)
            except Exception:  # the buttons were replaced while clicking
                continue
    page.wait_for_timeout(300)
    shoot(page, HERE / "web-end.png")
    context.close()


if __name__ == "__main__":
    sys.exit(main())
