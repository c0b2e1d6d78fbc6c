"""The web front end's HTTP and WebSocket API (Starlette's TestClient): tables, seats and their
tokens, what each seat's page data holds (never another seat's secrets), refusals, undo, save
and load, replay, and bots playing every game at every player count."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import secrets_of

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import venedig_rules as vr
from venedig_rules.bots import RandomBot
from venedig_rules.present import summary
from venedig_rules.web.app import MAX_SMALL_BODY, create_app
from venedig_rules.web.catalog import Catalog
from venedig_rules.web.lobby import Lobby
from venedig_rules.web.tables import SPECTATOR, Table

GAMES = ("venedig", "saeulen", "rialto")


@pytest.fixture
def client(lobby: Lobby) -> Iterator[TestClient]:
    with TestClient(create_app(lobby, bot_delay=0)) as client:
        yield client


def new_table(client: TestClient, game: str, seats: list[str], seed: int = 1, **more: Any) -> dict[str, Any]:
    answer = client.post(
        "/api/tables", json={"game": game, "players": len(seats), "seats": seats, "seed": seed, **more}
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def state(client: TestClient, table: str, token: str = "", **query: Any) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}", params={"seat": token, **query})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def wait_until(check: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_games_lists_every_bundled_game_with_its_bots(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [g["id"] for g in games["games"]] == sorted(GAMES)
    assert "random" in games["bots"] and games["default_bot"] in games["bots"]
    venedig = next(g for g in games["games"] if g["id"] == "venedig")
    assert venedig["variants"] == vr.bundled_variants("venedig") and "de" in venedig["languages"]


def test_games_names_each_variant_for_people_and_reads_the_browsers_languages(client: TestClient) -> None:
    games = client.get("/api/games", headers={"Accept-Language": "fr-CH, de;q=0.9, en;q=0.8, *;q=0.1"}).json()
    assert games["accept_languages"] == ["fr-CH", "de", "en"]
    venedig = next(g for g in games["games"] if g["id"] == "venedig")
    about = venedig["variant_about"]["short_rules_end"]
    assert about["title"].startswith("Venedig, end of game") and "short rules" in about["description"]
    assert client.get("/api/games").json()["accept_languages"] == []


def test_a_table_gives_a_token_and_url_per_human_seat_and_a_spectator_url(client: TestClient) -> None:
    made = new_table(client, "venedig", ["human", "bot", "human"])
    humans = [s for s in made["seats"] if s["kind"] == "human"]
    assert [s["player"] for s in humans] == [0, 2]
    assert all(len(s["token"]) >= 32 and s["url"] == f"/table/{made['table']}?seat={s['token']}" for s in humans)
    assert "token" not in made["seats"][1]  # a bot seat has no page
    assert made["spectator"] == f"/table/{made['table']}"
    assert client.get(made["spectator"]).status_code == 200
    assert 'data-testid="prompt"' in client.get(humans[0]["url"]).text


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_page_holds_its_decision_and_a_board_with_every_space(client: TestClient, game: str) -> None:
    made = new_table(client, game, ["human", "human", "human"])
    rules = vr.load(game)
    page0 = state(client, made["table"])
    mover = page0["waiting_for"][0]["player"]
    token = made["seats"][mover]["token"]
    page = state(client, made["table"], token)
    assert page["seat"] == mover and page["decision"]["prompt"]
    assert [o["text"] for o in page["decision"]["options"]] and all(o["action"] for o in page["decision"]["options"])
    assert page["board"].startswith("<svg") and page["board"].count("data-space=") == len(rules.board.spaces)
    other = made["seats"][(mover + 1) % 3]["token"]
    assert state(client, made["table"], other)["decision"] is None
    assert page0["decision"] is None and page0["seat"] is None and "can_undo" not in page0
    assert all(e["text"] for e in page["log"]) and page["cursor"] > 0
    assert state(client, made["table"], token, since=page["cursor"])["log"] == []


@pytest.mark.parametrize("game", GAMES)
def test_no_page_data_names_another_seats_secret(client: TestClient, lobby: Lobby, game: str) -> None:
    made = new_table(client, game, ["human", "human", "human"], seed=4)
    table = lobby.table(made["table"])
    tokens = {s["player"]: s["token"] for s in made["seats"]}
    bots = {p: RandomBot(seed=p) for p in range(3)}
    checked = 0
    for step in range(45):
        if table.game.is_over:
            break
        if step % 15 == 0:
            for player in (SPECTATOR, 0, 1, 2):
                secret = secrets_of(table.game, player)
                page = json.dumps(state(client, made["table"], tokens.get(player, "")))
                if step == 15:
                    replay = client.get(f"/api/tables/{made['table']}/replay", params={"seat": tokens.get(player, "")})
                    page += json.dumps(replay.json())
                leaked = [text for text in secret if f'"{text}"' in page or f">{text}<" in page or f"'{text}'" in page]
                assert not leaked, f"p{player}'s page shows {leaked}"
                checked += len(secret)
        mover = table.game.to_move[0]
        action = str(bots[mover].act(table.game.view(mover), table.game.legal_actions(mover)))
        assert client.post(f"/api/tables/{made['table']}/act", json={"seat": tokens[mover], "action": action}).json()[
            "ok"
        ]
    assert checked, "the test saw no secret to keep"


def test_an_action_is_taken_only_from_its_own_seat(client: TestClient) -> None:
    made = new_table(client, "saeulen", ["human", "human"])
    table = made["table"]
    mover = state(client, table)["waiting_for"][0]["player"]
    mine, theirs = made["seats"][mover]["token"], made["seats"][1 - mover]["token"]
    action = state(client, table, mine)["decision"]["options"][0]["action"]

    def act(token: str, text: str) -> Any:
        return client.post(f"/api/tables/{table}/act", json={"seat": token, "action": text})

    refused = act(theirs, action)
    assert refused.status_code == 403 and "another seat's action" in refused.json()["error"]
    assert act("", action).status_code == 403
    assert act("not-a-token", action).status_code == 403
    assert act(theirs, f"p{1 - mover} pass").status_code == 409  # its own action, but not its turn
    assert act(mine, "p0 ???").status_code == 400
    assert state(client, table)["actions"] == 0
    assert act(mine, action).status_code == 200 and state(client, table)["actions"] == 1


def test_requests_are_bounded_and_must_be_json(client: TestClient) -> None:
    made = new_table(client, "rialto", ["human", "bot"])
    url = f"/api/tables/{made['table']}/act"
    big = client.post(url, content=b"{" + b" " * MAX_SMALL_BODY + b"}", headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert client.post(url, content=b"not json").status_code == 400
    assert client.get(f"/api/tables/{made['table']}", params={"since": "-1"}).status_code == 400
    assert client.get(f"/api/tables/{made['table']}", params={"lang": "xx"}).status_code == 400
    assert client.get("/api/tables/nope").status_code == 404
    assert (
        client.post("/api/tables", json={"game": "../etc", "players": 2, "seats": ["human"] * 2, "seed": 1}).status_code
        == 404
    )
    assert (
        client.post("/api/tables", json={"game": "rialto", "players": 9, "seats": ["human"] * 9, "seed": 1}).status_code
        == 400
    )
    assert (
        client.post(
            "/api/tables", json={"game": "rialto", "players": 2, "seats": ["alien", "bot"], "seed": 1}
        ).status_code
        == 400
    )


def test_save_stays_on_the_server_and_a_table_goes_on_from_it(client: TestClient, lobby: Lobby) -> None:
    made = new_table(client, "venedig", ["human", "human"], seed=5)
    table = lobby.table(made["table"])
    tokens = [s["token"] for s in made["seats"]]
    for _ in range(5):
        mover = table.game.to_move[0]
        action = str(table.game.legal_actions(mover)[0])
        client.post(f"/api/tables/{made['table']}/act", json={"seat": tokens[mover], "action": action})
    assert client.post(f"/api/tables/{made['table']}/save", json={"seat": ""}).status_code == 400
    saved = client.post(f"/api/tables/{made['table']}/save", json={"seat": tokens[1]}).json()
    assert set(saved) == {"save"}
    listed = client.get("/api/saves").json()["saves"]
    assert listed == [
        {
            "game": "venedig",
            "variants": [],
            "title": "Venedig",
            "players": 2,
            "actions": 5,
            "over": False,
            "seat": 1,
            "name": saved["save"],
        }
    ]
    resume = {"save": saved["save"], "seat": tokens[1]}
    still = client.post("/api/tables", json=resume)
    assert still.status_code == 409 and "still being played" in still.json()["error"]
    del lobby.tables[made["table"]]  # the table is gone (a server without a database restarted)
    again = client.post("/api/tables", json=resume).json()
    assert again["table"] == made["table"] and again["public_seed"] == 5  # back at its old address
    copy = lobby.table(again["table"])
    assert copy.game.actions == table.game.actions and copy.game.seed == table.game.seed
    # the table's owner (this visitor made it) gets new links for every seat
    assert [("token" in s) for s in again["seats"]] == [True, True]
    assert all(s["token"] not in tokens for s in again["seats"])
    # a save file a person brings: kept if it replays, refused if it was changed
    data = table.game.to_json()
    brought = client.post("/api/saves", json=data).json()
    assert set(brought) == {"save", "seat"} and len(brought["seat"]) >= 32
    assert client.post("/api/saves", json={**data, "seed": 99}).status_code == 400


def test_undo_where_the_table_allows_it(client: TestClient, lobby: Lobby) -> None:
    made = new_table(client, "venedig", ["human", "human", "human"], seed=7)
    table = lobby.table(made["table"])
    tokens = [s["token"] for s in made["seats"]]
    mover = table.game.to_move[0]
    page = state(client, made["table"], tokens[mover])
    assert page["can_undo"]["allowed"] is False
    client.post(
        f"/api/tables/{made['table']}/act",
        json={"seat": tokens[mover], "action": page["decision"]["options"][-1]["action"]},
    )
    other = (mover + 1) % 3
    refused = client.post(f"/api/tables/{made['table']}/undo", json={"seat": tokens[other]})
    assert refused.status_code == 409 and refused.json()["error"].startswith("no undo: ")
    allowed = bool(table.game.can_undo(mover))
    answer = client.post(f"/api/tables/{made['table']}/undo", json={"seat": tokens[mover]})
    assert answer.status_code == (200 if allowed else 409)
    if allowed:
        assert table.game.actions == [] and state(client, made["table"], tokens[mover], since=3, generation=0)["reset"]


def test_replay_steps_through_the_game_as_the_seat_saw_it(client: TestClient, lobby: Lobby) -> None:
    made = new_table(client, "rialto", ["human", "bot"], seed=2)
    token = made["seats"][0]["token"]
    wait_until(lambda: not lobby.table(made["table"]).bots_running)
    table = lobby.table(made["table"])
    steps = len(table.game.actions)
    url = f"/api/tables/{made['table']}/replay"
    first = client.get(url, params={"seat": token, "step": 0}).json()
    assert first["replay"] == {"step": 0, "steps": steps} and first["actions"] == 0
    assert first["decision"] is None or first["decision"]["options"] == []
    last = client.get(url, params={"seat": token}).json()
    assert last["log"] == state(client, made["table"], token)["log"]
    assert client.get(url, params={"seat": token, "step": steps + 1}).status_code == 400


def test_live_pages_see_each_others_moves(client: TestClient) -> None:
    made = new_table(client, "saeulen", ["human", "human"], seed=3)
    table = made["table"]
    tokens = [s["token"] for s in made["seats"]]
    with (
        client.websocket_connect(f"/api/tables/{table}/live?seat={tokens[0]}") as p0,
        client.websocket_connect(f"/api/tables/{table}/live?seat={tokens[1]}") as p1,
    ):
        first0, first1 = p0.receive_json(), p1.receive_json()
        mover = first0["waiting_for"][0]["player"]
        page = (first0, first1)[mover]
        option = page["decision"]["options"][0]
        client.post(f"/api/tables/{table}/act", json={"seat": tokens[mover], "action": option["action"]})
        after = (p0, p1)[1 - mover].receive_json()
        assert after["actions"] == 1 and not after["reset"]
        assert [(e["kind"], e["actor"]) for e in after["log"] if e["kind"] == "action"] == [("action", mover)]
        assert after["cursor"] > (first0, first1)[1 - mover]["cursor"]
    with (
        client.websocket_connect(f"/api/tables/{table}/live?seat=x") as wrong,
        pytest.raises(WebSocketDisconnect) as refused,
    ):
        wrong.receive_json()
    assert refused.value.code == 4403 and "does not belong to this table" in refused.value.reason


@pytest.mark.parametrize("game", GAMES)
def test_bots_play_every_player_count_to_the_end(client: TestClient, lobby: Lobby, game: str) -> None:
    rules = vr.load(game)
    for players in rules.players:
        made = new_table(client, game, ["bot"] * players, seed=players)
        table = lobby.table(made["table"])
        wait_until(lambda table=table: table.game.is_over, timeout=120)
        page = state(client, made["table"])
        assert page["over"] and page["winners"] and len(page["scores"]) == players


def test_the_spectators_of_a_table_share_one_page_built_per_update() -> None:
    """However many spectator pages ask at once (their board drawn elsewhere meanwhile), a
    table builds the spectators' page once per update and sends each the same text."""
    table = Table.new(Catalog(), "venedig", (), players=3, kinds=["human", "bot", "bot"], seed=1)

    async def draw(table: Table, view: Any) -> str:
        await asyncio.sleep(0)  # a worker process draws it: other pages ask meanwhile
        return "<svg/>"

    async def watch(cursor: int) -> list[tuple[dict[str, Any], str]]:
        return await asyncio.gather(
            *(table.shared_page(SPECTATOR, cursor, "en", table.generation, draw) for _ in range(50))
        )

    cursor = 0
    for _ in range(3):
        builds = table.builds
        pages = asyncio.run(watch(cursor))
        assert table.builds == builds + 1
        assert all(text is pages[0][1] for _, text in pages)
        cursor = pages[0][0]["cursor"]
        mover = table.game.to_move[0]
        table.apply(table.game.legal_actions(mover)[0], mover)


# -- the log, the summary, the items' texts and the score breakdown (issue 29 on the page) ---------
@pytest.mark.parametrize("game", GAMES)
def test_a_pages_log_summary_items_and_breakdown_are_the_seats_own(client: TestClient, lobby: Lobby, game: str) -> None:
    """Each seat's page (and the spectators') carries the seat's human log, one action entry per
    action, built up update by update as a page follows it; its summary; the texts of the items
    its options name (by name); and at the end a breakdown that sums to the scores."""
    made = new_table(client, game, ["human", "human"], seed=6)
    table = lobby.table(made["table"])
    tokens = {s["player"]: s["token"] for s in made["seats"]}
    followed: dict[int | None, dict[int, Any]] = {}
    cursors: dict[int | None, int] = {}
    bots = {p: RandomBot(seed=p) for p in range(2)}
    described = 0
    for step in range(100_000):
        for player in (
            (SPECTATOR, 0, 1) if step % 7 == 0 or table.game.is_over else ()
        ):  # a page that looks now and then
            page = state(client, made["table"], tokens.get(player, ""), since=cursors.get(player, 0))
            cursors[player] = page["cursor"]
            for entry in page["log"]:  # an entry sent again (it grew) replaces the one kept
                followed.setdefault(player, {})[entry["index"]] = entry
            assert page["summary"] == summary(table.game, player, "en")["sections"]
            items = {item["name"]: item for item in page["items"]}
            for option in (page["decision"] or {"options": []})["options"]:
                for ref in option["refs"]:
                    if ref["name"] in items:
                        assert items[ref["name"]] == table.rules.describe_item(ref["id"], "en")
                        described += 1
        if table.game.is_over:
            break
        mover = table.game.to_move[0]
        action = str(bots[mover].act(table.game.view(mover), table.game.legal_actions(mover)))
        client.post(f"/api/tables/{made['table']}/act", json={"seat": tokens[mover], "action": action})
    for player in (SPECTATOR, 0, 1):
        whole = table.game.log(player, "en")
        assert list(followed[player].values()) == whole  # followed update by update: the whole log
        assert sum(1 for entry in whole if entry["kind"] == "action") == len(table.game.actions)
        end = state(client, made["table"], tokens.get(player, ""))
        totals = {s["player"]: s["score"] for s in end["scores"]}
        assert {int(p): sum(parts.values()) for p, parts in end["score_breakdown"].items()} == totals
        assert end["score_breakdown"] == {str(p): parts for p, parts in table.game.score_breakdown("en").items()}
    assert described > 0  # the options named items with texts
