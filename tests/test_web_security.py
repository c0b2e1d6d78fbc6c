"""The web server's security (docs/web.md, Security), through Starlette's TestClient and a real
uvicorn server: saves only for their own seat and visitor, a forked save showing no other hand,
secret deals, no eviction of a game people play, rate limits and caps, Origin and Host checks,
WebSocket close codes and the security headers."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import secrets_of

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from venedig_rules.web import catalog as catalog_module
from venedig_rules.web import lobby as lobby_module
from venedig_rules.web import serve
from venedig_rules.web.app import STATIC, create_app
from venedig_rules.web.catalog import MAX_VARIANT_NAMES, Catalog
from venedig_rules.web.limits import Holdings, Limits, Rate, RateLimiter, client_key
from venedig_rules.web.lobby import Lobby, Saves
from venedig_rules.web.security import VISITOR_COOKIE
from venedig_rules.web.tables import SPECTATOR, Table

#: Clients in these tests: the maker of a table, a player it gave a link to, a stranger.
OWNER, PLAYER, STRANGER = ("10.0.0.1", 50000), ("10.0.0.2", 50000), ("10.0.0.3", 50000)


def clients(lobby: Lobby, *who: tuple[str, int], limits: Limits | None = None) -> Iterator[TestClient]:
    app = create_app(lobby, bot_delay=0, limits=limits)
    for address in who:
        yield TestClient(app, client=address)


@pytest.fixture
def client(lobby: Lobby) -> Iterator[TestClient]:
    with TestClient(create_app(lobby, bot_delay=0)) as client:
        yield client


def create(client: TestClient, game: str = "venedig", seats: tuple[str, ...] = ("human", "human"), **more: Any) -> Any:
    return client.post("/api/tables", json={"game": game, "players": len(seats), "seats": list(seats), **more})


def play(client: TestClient, table: Table, tokens: list[str], moves: int) -> None:
    for _ in range(moves):
        mover = table.game.to_move[0]
        action = str(table.game.legal_actions(mover)[0])
        answer = client.post(f"/api/tables/{table.ident}/act", json={"seat": tokens[mover], "action": action})
        assert answer.status_code == 200, answer.text


# -- saves ---------------------------------------------------------------------------------


def test_a_forked_save_shows_no_other_hand(lobby: Lobby) -> None:
    owner, player, stranger = clients(lobby, OWNER, PLAYER, STRANGER)
    made = create(owner, "saeulen", ("human", "human", "human")).json()
    table = lobby.table(made["table"])
    tokens = [s["token"] for s in made["seats"]]
    play(player, table, tokens, 6)
    name = player.post(f"/api/tables/{table.ident}/save", json={"seat": tokens[0]}).json()["save"]

    # the attack: a copy with a token for every seat
    for attempt in (
        {"save": name, "seats": ["human"] * 3},
        {"save": name, "seat": "", "seats": ["human"] * 3},
        {"save": name, "seat": tokens[1], "seats": ["human"] * 3},  # a seat of the table, not the saving one
    ):
        refused = stranger.post("/api/tables", json=attempt)
        assert refused.status_code == 403 and "only the seat that saved" in refused.json()["error"], attempt
    still = player.post("/api/tables", json={"save": name, "seat": tokens[0]})
    assert still.status_code == 409  # one copy of a game at a time: the table is still open
    del lobby.tables[table.ident]  # gone (a server without a database restarted)
    changed = player.post("/api/tables", json={"save": name, "seat": tokens[0], "seats": ["human", "bot", "bot"]})
    assert changed.status_code == 400 and "only the table's owner" in changed.json()["error"]

    fork = player.post("/api/tables", json={"save": name, "seat": tokens[0]}).json()
    assert [("token" in s, "url" in s) for s in fork["seats"]] == [(True, True), (False, False), (False, False)]
    assert tokens[1] not in json.dumps(fork) and tokens[2] not in json.dumps(fork)
    copy = lobby.table(fork["table"])
    assert [copy.seat_for(token) for token in tokens] == [0, 1, 2]  # each seat keeps the token only it has
    assert copy.ident == table.ident  # at the old address: every seat's old link works again
    page = json.dumps(player.get(fork["seats"][0]["url"].replace("/table/", "/api/tables/")).json())
    hidden = secrets_of(copy.game, 0)
    assert hidden and not [text for text in hidden if f'"{text}"' in page or f">{text}<" in page]
    # the others go on with their own tokens: p1's page of the copy is p1's
    assert player.get(f"/api/tables/{copy.ident}", params={"seat": tokens[1]}).json()["seat"] == 1
    again = player.post("/api/tables", json={"save": name, "seat": tokens[0]})
    assert again.status_code == 409  # the copy is being played: no second copy to try the future on


def test_the_save_list_shows_only_the_visitors_own_saves(lobby: Lobby) -> None:
    owner, player, stranger = clients(lobby, OWNER, PLAYER, STRANGER)
    made = create(owner, "rialto").json()
    tokens = [s["token"] for s in made["seats"]]
    mine = player.post(f"/api/tables/{made['table']}/save", json={"seat": tokens[1]}).json()["save"]
    cookie = player.cookies.get(VISITOR_COOKIE)
    assert cookie and len(cookie) >= 22
    assert [s["name"] for s in player.get("/api/saves").json()["saves"]] == [mine]
    assert stranger.get("/api/saves").json()["saves"] == [] and owner.get("/api/saves").json()["saves"] == []
    # the cookie: unreadable by scripts, not sent with other sites' requests, made once
    fresh = TestClient(create_app(lobby)).get("/").headers["set-cookie"]
    assert fresh.startswith(f"{VISITOR_COOKIE}=") and "HttpOnly" in fresh and "SameSite=Lax" in fresh
    assert "set-cookie" not in player.get("/").headers


def test_a_save_file_brought_in_goes_on_with_its_token_only(lobby: Lobby) -> None:
    (client,) = clients(lobby, OWNER)
    game = Table.new(lobby.catalog, "rialto", (), 2, ["human", "human"], seed=3).game
    brought = client.post("/api/saves", json=game.to_json()).json()
    assert client.post("/api/tables", json={"save": brought["save"], "seat": "x"}).status_code == 403
    made = client.post("/api/tables", json={"save": brought["save"], "seat": brought["seat"]}).json()
    assert all("token" in s for s in made["seats"])  # whoever brings the file knows the whole game


# -- seeds -----------------------------------------------------------------------------------


def test_no_two_tables_share_a_deal_by_default(client: TestClient, lobby: Lobby) -> None:
    made = [create(client, "saeulen", ("bot", "bot", "bot")).json() for _ in range(12)]
    tables = [lobby.table(m["table"]) for m in made]
    seeds = {t.game.seed for t in tables}
    assert len(seeds) == len(tables) and max(seed.bit_length() for seed in seeds) > 64
    assert all(m["public_seed"] is None for m in made)
    hands = {json.dumps([t.game.value("hand", p) for p in range(3)]) for t in tables}
    assert len(hands) == len(tables)
    page = client.get(f"/api/tables/{tables[0].ident}").json()
    assert page["public_seed"] is None and "seed" not in json.dumps(page).replace("public_seed", "")
    public = create(client, "saeulen", ("human", "bot", "bot"), seed=7).json()
    assert public["public_seed"] == 7 and lobby.table(public["table"]).game.seed == 7
    assert client.get(f"/api/tables/{public['table']}").json()["public_seed"] == 7
    assert create(client, "saeulen", ("bot",) * 3, seed=-1).status_code == 400
    assert create(client, "saeulen", ("bot",) * 3, seed=True).status_code == 400


def test_serve_without_a_seed_deals_in_secret() -> None:
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args(["--game", "venedig"])
    lobby = Lobby(Catalog())
    table = lobby.create(serve._table_request(args, lobby.catalog))
    assert args.seed is None and table.provenance.public_seed is None and table.game.seed != 0
    assert "Math.random" not in (STATIC / "lobby.js").read_text()  # the browser picks no seed


# -- no client can hurt another's game ---------------------------------------------------------------


def test_500_anonymous_creations_leave_a_live_game_alone(catalog: Catalog) -> None:
    lobby = Lobby(catalog, max_tables=40)
    (player,) = clients(lobby, PLAYER)
    live = create(player, "saeulen").json()
    table = lobby.table(live["table"])
    tokens = [s["token"] for s in live["seats"]]
    play(player, table, tokens, 2)
    # one address at the default limits, then many addresses at no limits
    (attacker,) = clients(lobby, STRANGER)
    answers = {create(attacker, "saeulen", ("human", "bot", "bot")).status_code for _ in range(100)}
    assert answers == {200, 429}
    flood = create_app(lobby, bot_delay=3600, limits=Limits.generous())
    for n in range(400):
        seats = ("human", "bot", "bot") if n % 2 else ("bot", "bot", "bot")
        answer = create(TestClient(flood, client=(f"10.1.{n // 200}.{n % 200}", 1)), "saeulen", seats)
        assert answer.status_code in (200, 503), answer.text
    assert len(lobby.tables) <= 40 and lobby.tables[table.ident] is table
    play(player, table, tokens, 2)
    assert len(table.game.actions) == 4


def test_a_full_server_refuses_new_tables_and_pushes_out_finished_or_bot_games_first(catalog: Catalog) -> None:
    lobby = Lobby(catalog, max_tables=3)
    people = [lobby.create({"game": "rialto", "players": 2, "seats": ["human", "human"]}) for _ in range(2)]
    bots = lobby.create({"game": "rialto", "players": 2, "seats": ["bot", "bot"]})
    newer = lobby.create({"game": "rialto", "players": 2, "seats": ["human", "human"]})
    assert bots.ident not in lobby.tables and all(t.ident in lobby.tables for t in [*people, newer])
    (client,) = clients(lobby, OWNER)
    full = create(client, "rialto")
    assert full.status_code == 503 and "the server is full" in full.json()["error"]


def test_creations_and_connections_are_limited_per_client(lobby: Lobby) -> None:
    limits = Limits(create=Rate(3, 0.001), connect=Rate(2, 0.001), sockets=5, tables=10)
    one, other = clients(lobby, OWNER, STRANGER, limits=limits)
    assert [create(one, "rialto", ("human", "human")).status_code for _ in range(4)] == [200, 200, 200, 429]
    made = create(other, "rialto").json()
    url = f"/api/tables/{made['table']}/live?seat={made['seats'][0]['token']}"
    with one, one.websocket_connect(url) as first, one.websocket_connect(url) as second:
        assert first.receive_json()["seat"] == 0 and second.receive_json()["seat"] == 0
        with one.websocket_connect(url) as third, pytest.raises(WebSocketDisconnect) as refused:
            third.receive_json()
        assert refused.value.code == 4429
    capped = Limits(tables=2)
    (maker,) = clients(lobby, PLAYER, limits=capped)
    assert [create(maker, "rialto").status_code for _ in range(3)] == [200, 200, 429]


def test_open_sockets_per_client_are_capped(lobby: Lobby) -> None:
    (one,) = clients(lobby, OWNER, limits=Limits(sockets=1))
    made = create(one, "rialto").json()
    url = f"/api/tables/{made['table']}/live"
    with one, one.websocket_connect(url) as first:
        first.receive_json()
        with one.websocket_connect(url) as second, pytest.raises(WebSocketDisconnect) as refused:
            second.receive_json()
        assert refused.value.code == 4429 and "open already" in refused.value.reason
    with one, one.websocket_connect(url) as again:  # the first one closed: room again
        assert again.receive_json()["seat"] is None


def test_the_limiters_memory_is_bounded() -> None:
    limiter = RateLimiter(Rate(1, 1.0), clients=100)
    for n in range(5000):
        limiter.allow(f"10.{n // 256}.{n % 256}.1")
    assert len(limiter) == 100
    held = Holdings(most=2)
    assert held.take("a") and held.take("a") and not held.take("a")
    held.release("a"), held.release("a")
    assert held._held == {}
    assert client_key("2001:db8:1:2:3::1") == "2001:db8:1:2::/64" and client_key("::ffff:10.0.0.1") == "10.0.0.1"


def test_a_long_variant_list_is_refused_quickly(client: TestClient, lobby: Lobby) -> None:
    start = time.perf_counter()
    answer = create(client, "venedig", variants=["short_rules_end"] * 300)
    assert answer.status_code == 400 and f"at most {MAX_VARIANT_NAMES}" in answer.json()["error"]
    assert time.perf_counter() - start < 0.5
    repeated = create(client, "venedig", variants=["short_rules_end"] * MAX_VARIANT_NAMES).json()
    assert lobby.table(repeated["table"]).key.variants == ("short_rules_end",)
    assert create(client, "venedig", variants=["nope"]).status_code == 400


def test_the_catalogs_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog_module, "MAX_LOADED", 1)
    catalog = Catalog()
    names = catalog.variants("saeulen")
    pairs = [(names[0], names[1]), (names[1], names[2]), (names[0], names[2])]
    for pair in pairs:
        assert catalog.rules("saeulen", pair).name.startswith("saeulen+")
    assert list(catalog._loaded) == [("saeulen", pairs[-1])]


# -- Origin, Host, close codes, headers --------------------------------------------------------


def test_a_cross_origin_request_is_refused(client: TestClient, lobby: Lobby) -> None:
    body = {"game": "rialto", "players": 2, "seats": ["human", "human"]}
    evil = client.post("/api/tables", json=body, headers={"origin": "https://evil.example"})
    assert evil.status_code == 403 and "evil.example" in evil.json()["error"] and not lobby.tables
    assert client.post("/api/tables", json=body, headers={"sec-fetch-site": "cross-site"}).status_code == 403
    assert client.post("/api/tables", json=body, headers={"origin": "null"}).status_code == 403
    other_port = client.post("/api/tables", json=body, headers={"origin": "http://testserver:8001"})
    assert other_port.status_code == 403
    made = client.post("/api/tables", json=body, headers={"origin": "http://testserver"}).json()
    token = made["seats"][0]["token"]
    action = {"seat": token, "action": "p0 pass"}
    assert (
        client.post(f"/api/tables/{made['table']}/act", json=action, headers={"origin": "http://a.b"}).status_code
        == 403
    )
    assert client.get("/api/games", headers={"origin": "https://evil.example"}).status_code == 200  # reading is fine
    # DNS rebinding: another name for this server
    rebound = client.post("/api/tables", json=body, headers={"host": "evil.example"})
    assert rebound.status_code == 400 and len(lobby.tables) == 1
    live = f"/api/tables/{made['table']}/live?seat={token}"
    for headers, code in (({"origin": "https://evil.example"}, 4403), ({"host": "evil.example"}, 4400)):
        with client.websocket_connect(live, headers=headers) as socket, pytest.raises(WebSocketDisconnect) as refused:
            socket.receive_json()
        assert refused.value.code == code


def test_websocket_refusals_carry_close_codes(client: TestClient) -> None:
    made = create(client, "rialto").json()
    for url, code, words in (
        ("/api/tables/nope/live", 4404, "no such table"),
        (f"/api/tables/{made['table']}/live?seat=wrong", 4403, "does not belong"),
        (f"/api/tables/{made['table']}/live?lang=xx", 4400, "no texts in"),
    ):
        with client.websocket_connect(url) as socket, pytest.raises(WebSocketDisconnect) as refused:
            socket.receive_json()
        assert refused.value.code == code and words in refused.value.reason


@pytest.mark.parametrize("path", ["/", "/api/games", "/api/tables/nope", "/static/lobby.js", "/table/nope"])
def test_every_response_carries_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer" and headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    if not path.startswith("/static/"):
        assert headers["cache-control"] == "no-store"
    refused = client.post("/api/tables", json={}, headers={"origin": "https://evil.example"}).headers
    assert refused["referrer-policy"] == "no-referrer"


# -- a real server -----------------------------------------------------------------------------


def test_a_real_server_closes_refused_sockets_with_codes_and_checks_hosts(tmp_path: Path) -> None:
    websockets_client = pytest.importorskip("websockets.sync.client")
    from websockets.exceptions import ConnectionClosed

    lobby = Lobby(Catalog())
    table = lobby.create({"game": "rialto", "players": 2, "seats": ["human", "bot"]})
    with serve.running(lobby) as url:
        ws = url.replace("http://", "ws://")
        for path, origin, code in (
            ("/api/tables/nope/live", None, 4404),
            (f"/api/tables/{table.ident}/live?seat=wrong", None, 4403),
            (f"/api/tables/{table.ident}/live", "https://evil.example", 4403),
        ):
            with (
                websockets_client.connect(ws + path, origin=origin) as socket,
                pytest.raises(ConnectionClosed) as closed,
            ):
                socket.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == code
        with websockets_client.connect(f"{ws}/api/tables/{table.ident}/live", origin=url) as socket:
            assert json.loads(socket.recv(timeout=30))["table"] == table.ident
        with urllib.request.urlopen(f"{url}/", timeout=10) as answer:
            assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        rebound = urllib.request.Request(f"{url}/api/games", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(rebound, timeout=10)
        assert refused.value.code == 400
        post = urllib.request.Request(
            f"{url}/api/tables",
            data=json.dumps({"game": "rialto", "players": 2, "seats": ["human", "bot"]}).encode(),
            headers={"Origin": "https://evil.example", "Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as cross:
            urllib.request.urlopen(post, timeout=10)
        assert cross.value.code == 403 and len(lobby.tables) == 1


def test_a_spectator_is_never_handed_a_token(client: TestClient, lobby: Lobby) -> None:
    made = create(client, "venedig").json()
    page = client.get(f"/api/tables/{made['table']}").json()
    assert page["seat"] is SPECTATOR and not [s for s in made["seats"] if s["token"] in json.dumps(page)]


def test_serve_answers_only_to_its_allowed_hosts_and_deals_in_secret() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "venedig_rules", "serve", "--port", "0", "--game", "rialto", "--no-limits"]
        + ["--seats", "human,bot", "--allowed-hosts", "games.example.org,127.0.0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        seat = process.stdout.readline().strip().split(": ", 1)[1]
        base, rest = seat.split("/table/")
        table, token = rest.split("?seat=")[0], rest.split("?seat=")[1].split("&")[0]
        api = f"{base}/api/tables/{table}?seat={token}"
        with urllib.request.urlopen(api, timeout=30) as answer:
            assert json.load(answer)["public_seed"] is None  # serve without --seed: a secret deal
        named = urllib.request.Request(api, headers={"Host": "games.example.org"})
        with urllib.request.urlopen(named, timeout=30) as answer:
            assert answer.status == 200
        for host in ("localhost", "evil.example"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(urllib.request.Request(api, headers={"Host": host}), timeout=30)
            assert refused.value.code == 400
        body = json.dumps({"game": "rialto", "players": 2, "seats": ["human", "human"]}).encode()
        for _ in range(Limits().create.burst + 5):  # --no-limits: a benchmark's many tables from one address
            made = urllib.request.Request(f"{base}/api/tables", data=body, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(made, timeout=30) as answer:
                assert answer.status == 200
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert '".[web]"' in serve.INSTALL_WEB and ".whl[web]" in serve.INSTALL_WEB


def test_saves_in_a_folder_are_private_bounded_per_client_and_outlive_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_module, "MAX_SAVES_PER_CLIENT", 2)
    folder = tmp_path / "saves"
    saves = Saves(folder)
    game = Table.new(Catalog(), "rialto", (), 2, ["human", "human"], seed=1).game
    keys = {"visitor": "v", "client": "10.0.0.9", "token": "t"}
    names = [saves.put(game.to_json(), {"game": "rialto"}, keys) for _ in range(3)]
    assert [s["name"] for s in saves.list("v")] == names[:0:-1]  # the client's oldest went first
    assert sorted(p.stem for p in folder.iterdir()) == sorted(names[1:])
    assert all(p.stat().st_mode & 0o077 == 0 for p in [folder, *folder.iterdir()])
    (folder / "old-1.json").write_text(json.dumps({"save": game.to_json(), "about": {"game": "rialto"}}))
    again = Saves(folder)  # the server restarted
    assert [s["name"] for s in again.list("v")] == names[:0:-1] and again.list("") == []
