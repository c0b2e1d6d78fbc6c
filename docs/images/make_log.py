"""The picture of docs/embedding.md's log section: a finished 3-player Rialto game in the
browser as p0 sees it on a laptop, with the human log (``game.log``: the setup, one entry
per move with what it caused, the scorings, the end), the end screen's score breakdown
(``game.score_breakdown``) and, pointed at, a district's text (``rules.describe_item``).

    PYTHONPATH=. python docs/images/make_log.py   # writes docs/images/log-end.png

The moves are random legal ones, made on the server before the page opens, so the picture
is the same kind of game every time. Needs the web extra, Playwright for Python and a
Chromium (Debian's ``chromium``, or ``$CHROMIUM``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from make_web import (  # the sibling script: python puts this folder first on the path
    CHROMIUM_ARGS,
    find_chromium,
    shoot,
)
from playwright.sync_api import sync_playwright

from venedig_rules.web.catalog import Catalog
from venedig_rules.web.lobby import Lobby
from venedig_rules.web.serve import running

HERE = Path(__file__).resolve().parent
PICTURE = HERE / "log-end.png"
GAME, PLAYERS, CHOICES = "rialto", 3, 5
VIEWPORT = {"width": 1366, "height": 900}


def main() -> int:
    chromium = find_chromium()
    if chromium is None:
        return 1
    lobby = Lobby(Catalog())
    table = lobby.create({"game": GAME, "players": PLAYERS, "seats": ["human"] * PLAYERS})
    game, choose = table.game, random.Random(CHOICES)
    while not game.is_over:
        mover = game.to_move[0]
        table.act(table.seats[mover].token, str(choose.choice(game.legal_actions(mover))))
    with running(lobby) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=VIEWPORT, locale="en-GB").new_page()
        page.goto(f"{url}/table/{table.ident}?seat={table.seats[0].token}")
        page.wait_for_selector("[data-testid=winners]")
        page.wait_for_selector("[data-testid=log] > li[data-kind=end]")
        # point at the district of the last scoring in the log: its text shows
        page.locator("[data-testid=log] > li[data-kind=score] [data-item]").last.hover()
        page.wait_for_selector("[data-testid=item-text]:not([hidden])")
        page.wait_for_timeout(300)
        shoot(page, PICTURE)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
