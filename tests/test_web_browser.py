"""The web front end in a real browser: headless Chromium (Debian's ``chromium``; ``.ci/install-browser``
installs it) driven by Playwright for Python. A whole game of each ruleset by clicking against a
bot, two seats in two browsers seeing each other's moves, a spectator page with no hidden card,
a refused action from the wrong seat, the board's spaces, hot seat, lobby and replay; the page on
a phone and a laptop, refusals that stay, buttons that stay put, forced moves answered by the
page, the language of the browser, focus, keyboard and the connection state.

Screenshots of each game go to ``$VENEDIG_WEB_ARTIFACTS`` (default: pytest's temporary folder)."""

from __future__ import annotations

import json
import os
import random
import re
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
from venedig_rules.bots import bot_names  # noqa: E402
from venedig_rules.engine import parse_action  # noqa: E402
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
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


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


def open_page(browser: Any, url: str | None, viewport: dict[str, int] = LAPTOP, **options: Any) -> Any:
    """A page in a browser context of its own (its own storage, as another browser would be)."""
    page = browser.new_context(viewport=viewport, **options).new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    if url is not None:
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
        buttons = page.locator("button[data-action]")
        count = buttons.count()
        if not count:
            continue  # the options were replaced meanwhile
        try:
            buttons.nth(choose.randrange(count) if choose else 0).click(timeout=2000)
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
    page.wait_for_selector("[data-testid=summary-panel]")
    assert page.locator("[data-testid=summary-panel]").count() == 3  # the table's and each player's
    page.screenshot(path=str(artefacts / f"{game}-start.png"))
    clicks = click_until_over(page, random.Random(1))  # as a person might: a game of usual length
    assert clicks > 0 and table.game.is_over
    winners = page.locator("[data-testid=winners]").inner_text()
    assert all(table.seats[p].name in winners for p in table.game.winners)
    totals = page.locator("[data-testid=scores] td.total").all_inner_texts()
    assert sorted(int(t) for t in totals) == sorted(table.game.scores.values())
    assert page.locator("[data-testid=log] > li[data-kind=action]").count() == len(table.game.actions) > 99
    assert log_numbers_fit(page, page.locator("[data-testid=log] > li").count())
    rows = [[int(n) for n in row.locator("td").all_inner_texts()] for row in page.locator("[data-testid=reason]").all()]
    assert rows and [sum(column) for column in zip(*rows)] == [int(t) for t in totals]  # each player's reasons sum up
    page.screenshot(path=str(artefacts / f"{game}-end.png"))
    assert page.errors == []
    page.context.close()


def log_numbers_fit(page: Any, count: int) -> bool:
    """Whether the log's room left of its lines holds the number of its last line."""
    return bool(
        page.evaluate(
            """(count) => {
                const log = document.querySelector("[data-testid=log]");
                const style = getComputedStyle(log);
                const ctx = document.createElement("canvas").getContext("2d");
                ctx.font = `${style.fontSize} ${style.fontFamily}`;
                return ctx.measureText(`${count}. `).width <= parseFloat(style.paddingLeft);
            }""",
            count,
        )
    )


def test_two_seats_in_two_browsers_see_each_others_moves(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "human"], seed=2)
    pages = [open_page(browser, seat_url(server, table, p)) for p in range(2)]
    mover = table.game.to_move[0]
    other = pages[1 - mover]
    other.wait_for_selector("[data-testid=log] > li")
    before = other.locator("[data-testid=log] > li").count()
    assert other.locator("button[data-action]").count() == 0
    pages[mover].locator("button[data-action]").first.click()
    other.wait_for_function(
        f"document.querySelectorAll('[data-testid=log] > li').length > {before}", timeout=CLICK_TIMEOUT
    )
    assert str(table.game.actions[0]).split()[0] == f"p{mover}"
    for page in pages:
        page.context.close()


def test_a_spectator_page_never_shows_a_hidden_card(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "saeulen", ["human", "human", "human"], seed=5)
    page = open_page(browser, f"{server}/table/{table.ident}")
    page.wait_for_selector("[data-testid=log] > li")
    for _ in range(6):  # some moves, so cards change hands
        mover = table.game.to_move[0]
        table.apply(table.game.legal_actions(mover)[0])
    shown = len(table.game.log(None))
    page.wait_for_function(f"document.querySelectorAll('[data-testid=log] > li').length >= {shown}")
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
    kinds = page.locator("[data-testid=seat-1] option").evaluate_all("(os) => os.map((o) => o.value)")
    assert sorted(kinds) == sorted(["human", *bot_names()])  # each bot once
    page.select_option("[data-testid=seat-1]", "random")
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


def test_the_lobby_offers_no_table_before_it_knows_its_games(browser: Any, server: str) -> None:
    page = open_page(browser, None)
    page.route("**/api/games", lambda route: route.fulfill(status=503, json={"error": "the games are not known yet"}))
    page.goto(f"{server}/")
    page.wait_for_selector("[data-testid=error]:has-text('the games are not known yet')")
    assert page.locator("[data-testid=create]").is_disabled()  # a click would ask for a table of no game
    page.unroute("**/api/games")
    page.reload()
    page.wait_for_selector("[data-testid=create]:enabled")
    assert page.locator("[data-testid=game]").input_value() and not page.errors


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
    other.wait_for_selector("[data-testid=create]:enabled")
    other.wait_for_selector("[data-testid=saves][data-listed]", state="attached")
    assert other.locator("[data-testid=saves] li").count() == 0
    other.fill("input[name=seed]", "12")
    other.click("[data-testid=create]")
    other.wait_for_selector("[data-testid=public-seed-note]")
    other.click("[data-testid=seat-link-0]")
    other.wait_for_selector("#title:has-text('public seed 12')", timeout=CLICK_TIMEOUT)
    assert page.errors == [] and other.errors == []
    page.context.close()
    other.context.close()


# -- the page on a phone and a laptop ------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_a_phone_shows_the_board_across_the_screen_above_the_options(
    browser: Any, server: str, lobby: Lobby, game: str
) -> None:
    table = new_table(lobby, game, ["human", "bot"], seed=3)
    page = open_page(browser, seat_url(server, table, 0), PHONE)
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    board = page.locator("[data-testid=board] svg").bounding_box()
    options = page.locator("[data-testid=options]").bounding_box()
    assert board is not None and options is not None
    assert board["width"] >= 300 and board["height"] > 100 and board["y"] + board["height"] <= options["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("svg [data-space]").count() == len(table.rules.board.spaces)  # the board once
    assert page.locator("g.zones").count() == 0  # the hands and supplies are the summary's panels below
    summary = page.locator("[data-testid=summary]").bounding_box()
    assert summary is not None and summary["y"] > options["y"] and summary["x"] + summary["width"] <= PHONE["width"]
    assert page.errors == []
    page.context.close()


def test_on_a_laptop_only_the_log_scrolls_and_updates_never_move_the_window(
    browser: Any, server: str, lobby: Lobby
) -> None:
    table = new_table(lobby, "venedig", ["human", "bot", "bot"], seed=3)
    page = open_page(browser, seat_url(server, table, 0))
    for _ in range(8):
        page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
        page.locator("button[data-action]").last.click()
        page.wait_for_function("!document.querySelector('[data-testid=options].busy')")
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size == [LAPTOP["width"], LAPTOP["height"]]  # nothing beyond the window
    for part in ("header", "[data-testid=prompt]", "[data-testid=board] svg"):
        box = page.locator(part).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= LAPTOP["height"], part
    log = page.locator("[data-testid=log]")
    assert log.evaluate("(e) => e.scrollHeight > e.clientHeight && getComputedStyle(e).overflowY === 'auto'")
    assert log.evaluate("(e) => e.scrollTop + e.clientHeight >= e.scrollHeight - 2")  # at its newest line
    assert page.errors == []
    page.context.close()


# -- messages, buttons, forced moves -------------------------------------------------------------
def test_a_refused_move_says_why_until_the_next_action(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "rialto", ["human", "human"], seed=1)
    mover = table.game.to_move[0]
    page = open_page(browser, None)
    held = {"on": False}

    def pass_on(socket: Any) -> None:  # the page's updates, held back while "on" (a slow network)
        server_side = socket.connect_to_server()
        server_side.on_message(lambda message: None if held["on"] else socket.send(message))

    page.route_web_socket("**/live?**", pass_on)
    page.goto(seat_url(server, table, mover))
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    shown = page.locator("button[data-action]").evaluate_all("(bs) => bs.map((b) => b.dataset.action)")
    held["on"] = True
    table.act(table.seats[mover].token, shown[0])  # the same seat, from another tab
    legal = {str(a) for a in table.game.legal_actions(mover)}
    stale = next(action for action in shown if action not in legal)
    page.locator(f"button[data-action='{stale}']").click()
    message = page.locator("[data-testid=message]")
    message.wait_for(state="visible", timeout=CLICK_TIMEOUT)
    sentence = message.inner_text()
    assert "legal" in sentence, sentence  # the engine's sentence says why
    held["on"] = False
    other = table.game.to_move[0]
    before = page.locator("[data-testid=log] > li").count()
    table.act(table.seats[other].token, str(table.game.legal_actions(other)[0]))  # an update comes
    page.wait_for_function(f"document.querySelectorAll('[data-testid=log] > li').length > {before}")
    assert message.is_visible() and message.inner_text() == sentence  # still there
    page.locator("[data-testid=save]").click()  # the person's next action clears it
    page.wait_for_function("document.querySelector('[data-testid=message]').textContent === ''")
    assert page.errors == []
    page.context.close()


def test_option_buttons_stay_put_while_others_commit_a_simultaneous_decision(
    browser: Any, server: str, lobby: Lobby
) -> None:
    table = new_table(lobby, "saeulen", ["human", "human", "human"], seed=7)
    table.act(table.seats[0].token, "p0 pass")
    assert table.game.to_move == (0, 1, 2)  # the action cards: everyone at once
    page = open_page(browser, seat_url(server, table, 0))
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    count = page.locator("button[data-action]").count()
    page.locator("button[data-action]").evaluate_all("(bs) => bs.forEach((b) => { b.dataset.seen = 'yes'; })")
    page.locator("[data-testid=filter]").fill("a") if count >= 10 else None
    page.locator("button[data-action]").first.hover()
    for seat in (1, 2)[: len(table.game.to_move) - 1]:
        before = page.locator("[data-testid=log] > li").count()
        table.act(table.seats[seat].token, str(table.game.legal_actions(seat)[0]))
        page.wait_for_function(f"document.querySelectorAll('[data-testid=log] > li').length > {before}")
        assert f"p{seat}" in page.locator("[data-testid=log] > li").last.inner_text()
    assert table.game.to_move == (0,)
    assert page.locator("button[data-action]").count() == count
    assert page.locator("button[data-action][data-seen=yes]").count() == count  # not one rebuilt
    if count >= 10:
        assert page.locator("[data-testid=filter]").input_value() == "a"
    assert page.errors == []
    page.context.close()


def forced_and_chosen(table: Table, player: int) -> tuple[int, int]:
    """How many of ``player``'s actions answered a forced decision, and how many a real choice."""
    game = table.rules.new_game(players=table.game.players, seed=table.game.seed)
    forced = chosen = 0
    for action in table.game.actions:
        if parse_action(str(action)).player == player:
            decision = game.decision(player)
            assert decision is not None
            forced, chosen = (forced + 1, chosen) if decision["forced"] else (forced, chosen + 1)
        game.apply(action)
    return forced, chosen


def test_a_game_with_auto_pass_on_needs_no_click_on_a_forced_move(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "rialto", ["human", "bot"], seed=4)
    page = open_page(browser, seat_url(server, table, 0))
    assert page.locator("[data-testid=auto-pass]").is_checked()  # on by default
    clicks = 0
    choose = random.Random(4)
    while not table.game.is_over:
        page.wait_for_selector(
            "[data-testid=options][data-forced=false] button[data-action], [data-testid=winners]", timeout=CLICK_TIMEOUT
        )
        if page.locator("[data-testid=winners]").count():
            break
        buttons = page.locator("[data-testid=options][data-forced=false] button[data-action]")
        count = buttons.count()
        if not count:
            continue  # the decision changed meanwhile
        try:
            buttons.nth(choose.randrange(count)).click(timeout=2000)
        except playwright_api.TimeoutError:
            continue
        clicks += 1
        page.wait_for_function("!document.querySelector('[data-testid=options].busy')")
    page.wait_for_selector("[data-testid=winners]", timeout=CLICK_TIMEOUT)
    forced, chosen = forced_and_chosen(table, 0)
    assert forced > 0 and clicks == chosen  # the page answered every forced decision itself
    assert page.errors == []
    page.context.close()


def test_auto_pass_is_remembered_and_off_means_a_forced_move_waits(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "bot", "bot"], seed=7)
    page = open_page(browser, seat_url(server, table, 0))
    page.uncheck("[data-testid=auto-pass]")
    page.reload()
    page.wait_for_selector("[data-testid=options][data-forced=true] button[data-action]", timeout=CLICK_TIMEOUT)
    assert not page.locator("[data-testid=auto-pass]").is_checked()
    page.wait_for_timeout(1500)
    assert table.game.actions == []  # "Keep the gold" waits for the person
    page.check("[data-testid=auto-pass]")
    page.wait_for_function("document.querySelector('[data-testid=options]').dataset.forced === 'false'")
    assert [str(a) for a in table.game.actions][:1] == ["p0 pass"]
    page.context.close()


def test_a_secret_forced_move_is_answered_at_a_persons_pace(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "bot", "bot"], seed=7)
    page = open_page(browser, seat_url(server, table, 0))
    page.wait_for_selector("[data-testid=options][data-forced=true]", timeout=CLICK_TIMEOUT)
    shown = page.evaluate("performance.now()")
    page.wait_for_function("document.querySelector('[data-testid=options]').dataset.forced === 'false'")
    # not at once: a person takes a moment to answer "exchange gold?" even with gold to exchange
    assert page.evaluate("performance.now()") - shown >= 700
    page.context.close()


# -- language, focus, keyboard, announcements, connection ----------------------------------------
def test_the_lobby_and_the_table_follow_the_browsers_accept_language(browser: Any, server: str, lobby: Lobby) -> None:
    page = open_page(browser, f"{server}/", extra_http_headers={"Accept-Language": "fr-CH, de;q=0.9, en;q=0.8"})
    page.wait_for_selector("[data-testid=seat-1]")
    page.select_option("[data-testid=game]", "venedig")
    assert page.locator("[data-testid=lang]").input_value() == "de"
    variants = page.locator("[data-testid=variants]").inner_text()
    assert "short_rules_end" not in variants and "deutschen Kurzregel" in variants  # title and description
    assert "Kurzregel einer Online-Fassung" in variants  # the description, in German too
    assert page.locator("[data-testid=create]").inner_text() == "Spiel beginnen"  # the lobby's own words
    assert "geheimen Seed" in page.locator("[data-testid=seed-help]").inner_text()
    assert page.locator("[data-testid=seat-1] option").first.inner_text() == "eine Person"
    assert page.evaluate("document.documentElement.lang") == "de"
    page.select_option("[data-testid=lang]", "en")  # the lobby follows the language chosen
    assert page.locator("[data-testid=create]").inner_text() == "Start the game"
    assert "German short rules" in page.locator("[data-testid=variants]").inner_text()
    page.select_option("[data-testid=lang]", "de")
    table = new_table(lobby, "venedig", ["human", "bot"], seed=2)
    page.goto(seat_url(server, table, 0))  # no language in the link
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.locator("[data-testid=lang]").input_value() == "de"
    page.context.close()
    english = open_page(browser, f"{server}/", extra_http_headers={"Accept-Language": "en-GB,en;q=0.9,de;q=0.5"})
    english.wait_for_selector("[data-testid=seat-1]")
    english.select_option("[data-testid=game]", "venedig")
    assert english.locator("[data-testid=lang]").input_value() == "en"  # not the first the game has
    english.context.close()


def test_focus_goes_to_the_first_option_after_each_move(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "saeulen", ["human", "bot"], seed=3)
    page = open_page(browser, seat_url(server, table, 0))
    for _ in range(4):
        page.wait_for_selector("[data-testid=options][data-forced=false] button[data-action]", timeout=CLICK_TIMEOUT)
        focused = page.evaluate("document.activeElement.dataset.action || null")
        assert focused == page.locator("button[data-action]").first.get_attribute("data-action")
        done = len(table.game.actions)
        page.keyboard.press("Enter")  # the keyboard alone plays
        for _ in range(100):
            if len(table.game.actions) > done:
                break
            page.wait_for_timeout(50)
        page.wait_for_function("!document.querySelector('[data-testid=options].busy')")
    assert len([a for a in table.game.actions if parse_action(str(a)).player == 0]) >= 4
    assert page.locator("button[title]").count() == 0  # no tooltip in action notation
    page.context.close()


def test_the_board_is_reachable_by_keyboard_with_names(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "bot"], seed=4)
    page = open_page(browser, seat_url(server, table, 0))
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    stop = page.locator("[data-testid=board] [tabindex='0']")
    assert stop.count() == 1
    stop.focus()
    first = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert first and "_" not in first.split(":")[0]
    page.keyboard.press("ArrowRight")
    second = page.evaluate("[document.activeElement.dataset.space, document.activeElement.getAttribute('aria-label')]")
    assert second[0] and second[1] and second[1] != first
    label = page.locator("[data-testid=board] svg").get_attribute("aria-label")
    assert label and len(label) < 100  # a short name, not every text of the board
    page.context.close()
    rialto = new_table(lobby, "rialto", ["human", "bot"], seed=4)
    page = open_page(browser, seat_url(server, rialto, 0))
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    bridges = page.locator("[data-testid=board] [data-connection]").evaluate_all(
        "(ns) => ns.map((n) => [n.dataset.connection, n.getAttribute('aria-label')])"
    )
    assert bridges and all(name and ident not in name for ident, name in bridges)  # names, not ids
    page.context.close()


def test_turns_and_others_moves_are_shown_and_announced(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "human"], seed=2)
    mover = table.game.to_move[0]
    page = open_page(browser, seat_url(server, table, 1 - mover))
    page.wait_for_selector("[data-testid=log] > li")
    assert page.locator(f"[data-testid=players] li[data-player='{mover}'].active").count() == 1
    assert "Your turn" not in page.title()
    undo = page.locator("[data-testid=undo]")
    assert undo.is_visible() and undo.is_disabled() and page.locator("[data-testid=undo-why]").inner_text()
    while table.game.to_move == (mover,):
        table.act(table.seats[mover].token, str(table.game.legal_actions(mover)[0]))
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    page.wait_for_function("document.title.includes('Your turn')")
    announced = page.locator("[data-testid=announce]")
    assert announced.get_attribute("aria-live") == "polite" and f"p{mover}" in announced.inner_text()
    assert page.locator(f"[data-testid=players] li[data-player='{1 - mover}'].active").count() == 1
    assert page.locator("[data-testid=board] .last-move").count() >= 1  # the move marked on the board
    page.context.close()


def test_a_lost_connection_shows_and_comes_back(browser: Any, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "human"], seed=2)
    with running(lobby) as url:
        page = open_page(browser, seat_url(url, table, 0))
        connection = page.locator("[data-testid=connection]")
        page.wait_for_function("document.querySelector('[data-testid=connection]').dataset.state === 'open'")
        port = int(url.rsplit(":", 1)[1])
    page.wait_for_function(
        "document.querySelector('[data-testid=connection]').dataset.state === 'lost'", timeout=CLICK_TIMEOUT
    )
    assert "lost" in connection.inner_text().lower()
    with running(lobby, port=port):  # the server is back on the same address
        page.wait_for_function(
            "document.querySelector('[data-testid=connection]').dataset.state === 'open'", timeout=CLICK_TIMEOUT
        )
        page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
        assert page.errors == []
        page.context.close()


# -- the log, the summary and the items' texts -------------------------------------------------
def test_an_items_text_shows_on_hover_and_on_tap(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "rialto", ["human", "bot"], seed=3)
    page = open_page(browser, seat_url(server, table, 0))
    page.wait_for_selector("[data-testid=summary-panel] [data-item]", timeout=CLICK_TIMEOUT)
    tip = page.locator("[data-testid=item-text]")
    assert not tip.is_visible()
    item = page.locator("[data-testid=summary-panel] [data-item]").first
    name = item.get_attribute("data-item")
    item.hover()
    tip.wait_for(state="visible")
    assert name in tip.inner_text() and len(tip.inner_text()) > len(name) + 10
    page.mouse.move(1, 1)
    tip.wait_for(state="hidden")
    page.context.close()
    phone = open_page(browser, seat_url(server, table, 0), PHONE, has_touch=True, is_mobile=True)
    phone.wait_for_selector("[data-testid=summary-panel] [data-item]", timeout=CLICK_TIMEOUT)
    phone.locator("[data-testid=summary-panel] [data-item]").first.tap()
    tip = phone.locator("[data-testid=item-text]")
    tip.wait_for(state="visible")
    box = tip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert phone.errors == []
    phone.context.close()


def test_the_log_shows_one_entry_per_action_with_its_details(browser: Any, server: str, lobby: Lobby) -> None:
    table = new_table(lobby, "venedig", ["human", "bot", "bot"], seed=3)
    page = open_page(browser, seat_url(server, table, 0))
    for _ in range(6):
        page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
        page.locator("button[data-action]").first.click()
        page.wait_for_function("!document.querySelector('[data-testid=options].busy')")
    page.wait_for_selector("button[data-action]", timeout=CLICK_TIMEOUT)
    log = table.game.log(0)
    page.wait_for_function(f"document.querySelectorAll('[data-testid=log] > li').length === {len(log)}")
    shown = page.locator("[data-testid=log] > li > .entry").all_inner_texts()
    assert shown == [entry["text"] for entry in log]
    actions = page.locator("[data-testid=log] > li[data-kind=action]").count()
    assert actions == sum(1 for entry in log if entry["kind"] == "action") == len(table.game.actions)
    details = [line for entry in log for line in entry["details"]]
    assert details and page.locator("[data-testid=log] .details li").all_inner_texts() == details
    panels = page.locator("[data-testid=summary-panel]")
    assert panels.count() == 4 and panels.first.locator("h3").inner_text() == "p0 (you)"  # its own first
    assert page.errors == []
    page.context.close()


def test_options_are_listed_as_the_terminal_lists_them(browser: Any, server: str, lobby: Lobby) -> None:
    """Spaces in reading order (C3 before C10), as ``play --human`` lists them, a pass last."""
    table = new_table(lobby, "venedig", ["human", "bot"], seed=7)
    page = open_page(browser, seat_url(server, table, 0))
    for _ in range(12):
        page.wait_for_selector("[data-testid=options][data-forced=false] button[data-action]", timeout=CLICK_TIMEOUT)
        buttons = page.locator("button[data-action]")
        texts = buttons.all_inner_texts()
        drains = [t for t in texts if re.fullmatch(r"Drain [A-Z]\d+", t)]
        if len(drains) > 3:
            spaces = [(t[6], int(t[7:])) for t in drains]
            assert spaces == sorted(spaces), drains
            assert texts[-1] == "Drain no more", texts[-3:]
            break
        buttons.first.click()
        page.wait_for_function("!document.querySelector('[data-testid=options].busy')")
    else:
        pytest.fail("no drain decision came up")
    assert not page.errors
    page.context.close()
