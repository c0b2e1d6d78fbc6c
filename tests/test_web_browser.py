"""The web front end in a real browser: headless Chromium (Debian's ``chromium``; ``.ci/install-browser``
installs it) driven by Playwright for Python. A whole game of each ruleset by clicking against a
bot, two seats in two browsers seeing each other's moves, a spectator page with no hidden card,
a refused action from the wrong seat, the board's spaces, hot seat, lobby and replay.

Screenshots of each game go to ``$VENEDIG_WEB_ARTIFACTS`` (default: pytest's temporary folder)."""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser tests need playwright (pip install playwright)"
)
pytest.importorskip("starlette", reason="the browser tests need the web extra")

import venedig_rules as vr  # noqa: E402
from venedig_rules.web.catalog import Catalog  # noqa: E402
from venedig_rules.web.lobby import Lobby  # noqa: E402
from venedig_rules.web.serve import running  # noqa: E402
from venedig_rules.web.tables import Table  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium: run .ci/install-browser (Debian's chromium) or set CHROMIUM"
)
#: What the machine's closed network and a root user need (no sandbox, no background fetches).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
GAMES = ("venedig", "saeulen", "rialto")
CLICK_TIMEOUT = 15_000


@pytest.fixture(scope="module")
def lobby() -> Lobby:
    return Lobby(Catalog())


@pytest.fixture(scope="module")
def server(lobby: Lobby) -> Iterator[str]:
    with running(lobby) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("VENEDIG_WEB_ARTIFACTS")
    path = Path(folder) if folder else tmp_path_factory.getbasetemp() / "web-screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_table(lobby: Lobby, game: str, seats: list[str], seed: int = 1) -> Table:
    return lobby.create({"game": game, "players": len(seats), "seats": seats, "seed": seed})


def open_page(browser: Any, url: str) -> Any:
    """A page in a browser context of its own (its own storage, as another browser would be)."""
    page = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url)
    return page


def seat_url(server: str, table: Table, player: int) -> str:
    return f"{server}/table/{table.ident}?seat={table.seats[player].token}"


def click_until_over(page: Any, choose: random.Random | None = None, most: int = 2000) -> int:
    """Click an option (the first, or one ``choose`` picks) until the winners show; returns the
    clicks."""
    clicks = 0
    while clicks < most:
        page.wait_for_selector("button[data-action], [data-testid=winners]", timeout=CLICK_TIMEOUT)
        if page.locator("[data-testid=winners]").count():
            return clicks
        try:
            buttons = page.locator("button[data-action]")
            buttons.nth(choose.randrange(buttons.count()) if choose else 0).click(timeout=2000)
            clicks += 1
        except playwright_api.TimeoutError:
            continue  # the options were replaced while clicking
    raise AssertionError(f"no winners after {most} clicks")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_by_clicking_against_a_bot(
    browser: Any, server: str, lobby: Lobby, artefacts: Path, game: str
) -> None:
    table = new_table(lobby, game, ["human", "bot"], seed=3)
    page = open_page(browser, seat_url(server, table, 0))
    page.wait_for_selector("[data-testid=prompt]")
    assert page.locator("svg [data-space]").count() == len(vr.load(game).board.spaces)
    page.wait_for_selector("[data-testid=log] li")
    page.screenshot(path=str(artefacts / f"{game}-start.png"))
    clicks = click_until_over(page, random.Random(1))  # as a person might: a game of usual length
    assert clicks > 0 and table.game.is_over
    winners = page.locator("[data-testid=winners]").inner_text()
    assert all(table.seats[p].name in winners for p in table.game.winners)
    assert page.locator("[data-testid=log] li").count() >= len(table.game.actions)
    page.screenshot(path=str(artefacts / f"{game}-end.png"))
    assert page.errors == []
    page.context.close()


def test_two_seats_in_two_browsers_see_each_others_moves(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "human"], seed=2)
    pages = [open_page(browser, seat_url(server, table, p)) for p in range(2)]
    mover = table.game.to_move[0]
    other = pages[1 - mover]
    other.wait_for_selector("[data-testid=log] li")
    before = other.locator("[data-testid=log] li").count()
    assert other.locator("button[data-action]").count() == 0
    pages[mover].locator("button[data-action]").first.click()
    other.wait_for_function(
        f"document.querySelectorAll('[data-testid=log] li').length > {before}", timeout=CLICK_TIMEOUT
    )
    assert str(table.game.actions[0]).split()[0] == f"p{mover}"
    for page in pages:
        page.context.close()


def test_a_spectator_page_never_shows_a_hidden_card(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "saeulen", ["human", "human", "human"], seed=5)
    page = open_page(browser, f"{server}/table/{table.ident}")
    page.wait_for_selector("[data-testid=log] li")
    for _ in range(6):  # some moves, so cards change hands
        mover = table.game.to_move[0]
        table.apply(table.game.legal_actions(mover)[0])
    shown = len(table.game.view(None)["events"])
    page.wait_for_function(f"document.querySelectorAll('[data-testid=log] li').length >= {shown}")
    html = page.content()
    public = json.dumps(table.game.view(None))
    hidden = {card for p in range(3) for card in table.game.value("hand", p) if f'"{card}"' not in public}
    assert hidden and not [card for card in hidden if card in html]
    assert page.locator("button[data-action]").count() == 0
    assert "watching" in page.locator("[data-testid=who]").inner_text()


def test_an_action_from_the_wrong_seat_is_refused(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "rialto", ["human", "human"], seed=1)
    mover = table.game.to_move[0]
    page = open_page(browser, seat_url(server, table, 1 - mover))
    action = str(table.game.legal_actions(mover)[0])
    answer = page.evaluate(
        """async ([table, seat, action]) => {
            const r = await fetch(`/api/tables/${table}/act`, {method: "POST", body: JSON.stringify({seat, action})});
            return [r.status, (await r.json()).error];
        }""",
        [table.ident, table.seats[1 - mover].token, action],
    )
    assert answer[0] == 403 and "another seat's action" in answer[1]
    assert table.game.actions == []


def test_clicking_a_space_on_the_board_takes_its_option(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "bot"], seed=4)
    page = open_page(browser, seat_url(server, table, 0))
    for _ in range(100):
        page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
        choosable = page.locator("svg .choosable[data-space]")
        if choosable.count():
            done = len(table.game.actions)
            choosable.first.click()
            for _ in range(100):
                if len(table.game.actions) > done or page.locator("button.picked").count():
                    break
                page.wait_for_timeout(100)
            assert len(table.game.actions) > done or page.locator("button.picked").count() > 1
            return
        page.locator("button[data-action]").first.click()
    raise AssertionError("no option referred to a board space")


def test_hot_seat_hides_the_hand_between_seats(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "human"], seed=2)
    hot = ",".join(f"{seat.player}:{seat.token}" for seat in table.seats)
    mover = table.game.to_move[0]
    page = open_page(browser, f"{server}/table/{table.ident}#hotseat={hot}")
    page.wait_for_selector("button[data-action], [data-testid=curtain]:not([hidden])")
    if page.locator("[data-testid=curtain]:not([hidden])").count():
        page.locator("[data-testid=curtain-button]").click()
    page.wait_for_selector("button[data-action]")
    while table.game.to_move == (mover,):
        page.locator("button[data-action]").first.click()
        page.wait_for_selector("button[data-action], [data-testid=curtain]:not([hidden])")
    page.wait_for_selector("[data-testid=curtain]:not([hidden])")
    assert page.locator("svg").count() == 0 and page.locator("button[data-action]").count() == 0
    page.locator("[data-testid=curtain-button]").click()
    page.wait_for_selector("button[data-action]")
    assert page.locator("[data-testid=who]").inner_text() == f"You are {table.seats[table.game.to_move[0]].name}"


def test_the_lobby_makes_a_table_and_the_replay_steps_back(browser: Any, server: str, lobby: Lobby) -> None:
    page = open_page(browser, f"{server}/")
    page.select_option("[data-testid=game]", "rialto")
    page.select_option("[data-testid=players]", "3")
    page.select_option("[data-testid=seat-1]", "bot")
    page.select_option("[data-testid=seat-2]", "random")
    page.fill("input[name=seed]", "9")
    page.click("[data-testid=create]")
    page.click("[data-testid=seat-link-0]")
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    for _ in range(3):
        page.locator("button[data-action]").first.click()
        page.wait_for_selector("button[data-action], [data-testid=winners]", timeout=CLICK_TIMEOUT)
    table = next(t for t in lobby.tables.values() if t.game.seed == 9)
    assert [s.kind for s in table.seats] == ["human", "random", "random"]
    page.check("[data-testid=replay-mode]")
    page.wait_for_selector("[data-testid=replay-at]:has-text('after')")
    page.click("#replay-first")
    page.wait_for_selector("[data-testid=replay-at]:has-text('after 0 of')")
    assert page.locator("button[data-action]").count() == 0
    assert page.locator("svg [data-space]").count() == len(table.rules.board.spaces)
    saved = json.dumps(lobby.saves.every())
    assert "state" not in saved


def test_a_save_goes_on_from_the_lobby_of_the_browser_that_saved_it(browser: Any, server: str, lobby: Lobby) -> None:
    table = lobby.create({"game": "rialto", "players": 2, "seats": ["human", "bot"]})
    page = open_page(browser, seat_url(server, table, 0))
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    assert "public seed" not in page.locator("#title").inner_text()  # a secret deal, said nowhere
    page.click("[data-testid=save]")
    page.wait_for_selector("[data-testid=saved]:has-text('Saved as')")
    page.goto(f"{server}/")
    assert "Math.random" not in page.content()
    page.wait_for_selector("[data-testid=saves] button[data-save]")
    page.locator("[data-testid=saves] button[data-save]").first.click()
    page.wait_for_selector("[data-testid=error]:has-text('still being played')")
    del lobby.tables[table.ident]  # the table is gone (a server without a database restarted)
    page.locator("[data-testid=saves] button[data-save]").first.click()
    page.click("[data-testid=seat-link-0]")
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    copy = lobby.table(page.url.split("/table/")[1].split("?")[0])
    assert copy.game.seed == table.game.seed and copy.seats[0].token == table.seats[0].token
    other = open_page(browser, f"{server}/")  # another browser: neither the save nor its token
    other.wait_for_selector("[data-testid=create]")
    assert other.locator("[data-testid=saves] li").count() == 0
    other.fill("input[name=seed]", "12")
    other.click("[data-testid=create]")
    other.wait_for_selector("[data-testid=public-seed-note]")
    other.click("[data-testid=seat-link-0]")
    other.wait_for_selector("#title:has-text('public seed 12')", timeout=CLICK_TIMEOUT)
    assert page.errors == [] and other.errors == []
    page.context.close()
    other.context.close()
