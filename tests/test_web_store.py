"""Tables in the server's database (web/store.py), bots thinking in worker processes
(web/botpool.py), and pages shared by every page that asks the same: an acknowledged action is
in the database, a reopened database goes on with the same links, bots included, undo is kept,
a broken database refuses the move instead of losing it, a table serves at most its cap of
spectators, and one update builds each page once however many pages follow the table."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import venedig_rules
from venedig_rules.present.render import render_view
from venedig_rules.web.app import create_app
from venedig_rules.web.botpool import BotPool, Job, _Unpickler, think
from venedig_rules.web.catalog import Catalog
from venedig_rules.web.lobby import Lobby
from venedig_rules.web.store import SCHEMA_VERSION, StoreError, TableStore, default_path
from venedig_rules.web.tables import PAGES_KEPT, Table


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


def opened(db: Path, catalog: Catalog) -> Lobby:
    return Lobby(catalog, tables=TableStore(db, catalog))


@pytest.fixture
def client(db: Path, catalog: Catalog) -> Iterator[tuple[TestClient, Lobby]]:
    lobby = opened(db, catalog)
    with TestClient(create_app(lobby, bot_delay=0)) as client:
        yield client, lobby


def wait_until(check: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def kept_actions(db: Path, table: str) -> list[str]:
    """The actions of ``table`` as another program reads the database file."""
    with sqlite3.connect(db) as other:
        rows = other.execute("SELECT action FROM actions WHERE ident = ? ORDER BY number", (table,)).fetchall()
    return [action for (action,) in rows]


def play(client: TestClient, table: str, token: str) -> dict[str, Any]:
    """The seat's first option played; answers the server's acknowledgement."""
    page = client.get(f"/api/tables/{table}", params={"seat": token}).json()
    answer = client.post(
        f"/api/tables/{table}/act", json={"seat": token, "action": page["decision"]["options"][0]["action"]}
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_an_acknowledged_action_is_in_the_database(client: tuple[TestClient, Lobby], db: Path) -> None:
    http, lobby = client
    made = http.post("/api/tables", json={"game": "saeulen", "players": 2, "seats": ["human", "human"], "seed": 4})
    table, tokens = made.json()["table"], [s["token"] for s in made.json()["seats"]]
    for _ in range(4):
        game = lobby.table(table).game
        acknowledged = play(http, table, tokens[game.to_move[0]])
        assert kept_actions(db, table) == game.actions and acknowledged["version"] == lobby.table(table).version
    with sqlite3.connect(db) as other:
        digests = [d for (d,) in other.execute("SELECT digest FROM seats WHERE ident = ?", (table,))]
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert other.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert len(digests) == 2 and not set(tokens) & set(digests)  # a token is kept only as its digest


def test_a_reopened_database_goes_on_with_the_same_links(db: Path, catalog: Catalog) -> None:
    lobby = opened(db, catalog)
    with TestClient(create_app(lobby, bot_delay=0)) as http:
        made = http.post("/api/tables", json={"game": "venedig", "players": 2, "seats": ["human", "human"], "seed": 2})
        table, tokens = made.json()["table"], [s["token"] for s in made.json()["seats"]]
        for _ in range(6):
            play(http, table, tokens[lobby.table(table).game.to_move[0]])
        before = [http.get(f"/api/tables/{table}", params={"seat": token}).json() for token in ("", *tokens)]
    again = opened(db, catalog)
    assert list(again.tables) == [table]
    with TestClient(create_app(again, bot_delay=0)) as http:
        after = [http.get(f"/api/tables/{table}", params={"seat": token}).json() for token in ("", *tokens)]
        assert after == before
        play(http, table, tokens[again.table(table).game.to_move[0]])
        assert http.post(f"/api/tables/{table}/act", json={"seat": "x" * 32, "action": "p0 pass"}).status_code == 403
    assert len(kept_actions(db, table)) == 7


def test_an_undo_is_kept(client: tuple[TestClient, Lobby], db: Path, catalog: Catalog) -> None:
    http, lobby = client
    made = http.post("/api/tables", json={"game": "saeulen", "players": 2, "seats": ["human", "human"], "seed": 4})
    table, tokens = made.json()["table"], [s["token"] for s in made.json()["seats"]]
    for _ in range(8):
        game = lobby.table(table).game
        mover = game.to_move[0]
        play(http, table, tokens[mover])
        if game.can_undo(mover):
            break
    else:
        pytest.fail("no undo allowed in 8 moves")
    actions = game.actions[:-1]
    assert http.post(f"/api/tables/{table}/undo", json={"seat": tokens[mover]}).status_code == 200
    assert kept_actions(db, table) == actions
    reopened = TableStore(db, catalog)[table]
    assert reopened.game.actions == actions and reopened.generation == 1 == lobby.table(table).generation
    assert reopened.version == lobby.table(table).version


def test_a_move_the_database_cannot_keep_is_refused_and_not_made(
    client: tuple[TestClient, Lobby], db: Path, catalog: Catalog
) -> None:
    http, lobby = client
    made = http.post("/api/tables", json={"game": "rialto", "players": 2, "seats": ["human", "human"], "seed": 4})
    table, tokens = made.json()["table"], [s["token"] for s in made.json()["seats"]]
    with sqlite3.connect(db) as other:  # a write that will fail: the action's number is taken
        other.execute("INSERT INTO actions VALUES (?, 0, 'p9 nothing')", (table,))
    version = lobby.table(table).version
    mover = lobby.table(table).game.to_move[0]
    page = http.get(f"/api/tables/{table}", params={"seat": tokens[mover]}).json()
    answer = http.post(
        f"/api/tables/{table}/act", json={"seat": tokens[mover], "action": page["decision"]["options"][0]["action"]}
    )
    assert answer.status_code == 503 and "did not make it" in answer.json()["error"]
    assert lobby.table(table).game.actions == [] and lobby.table(table).version == version


def test_a_tables_bots_go_on_after_a_restart_without_a_page(db: Path, catalog: Catalog) -> None:
    lobby = opened(db, catalog)
    table = lobby.create({"game": "saeulen", "players": 3, "seats": ["bot", "random", "bot"], "seed": 6})
    assert table.game.actions == []  # no server ran: no bot moved
    again = opened(db, catalog)
    with TestClient(create_app(again, bot_delay=0)):  # its start-up wakes the bots
        wait_until(lambda: again.table(table.ident).game.is_over, timeout=120)
    assert TableStore(db, catalog)[table.ident].game.is_over


def test_the_memory_database_keeps_nothing(catalog: Catalog) -> None:
    first = TableStore(":memory:", catalog)
    table = Table.new(catalog, "rialto", (), 2, ["human", "bot"], seed=1)
    first[table.ident] = table
    assert len(first) == 1 and len(TableStore(":memory:", catalog)) == 0


def test_an_evicted_table_leaves_the_database(db: Path, catalog: Catalog) -> None:
    lobby = opened(db, catalog)
    made = lobby.create({"game": "rialto", "players": 2, "seats": ["human", "bot"], "seed": 1})
    del lobby.tables[made.ident]
    assert made.ident not in TableStore(db, catalog) and kept_actions(db, made.ident) == []


def test_a_database_it_cannot_read_is_refused(tmp_path: Path, catalog: Catalog) -> None:
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as other:
        other.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer venedig-rules"):
        TableStore(newer, catalog)
    garbage = tmp_path / "notes.txt"
    garbage.write_text("not a database " * 100)
    with pytest.raises(StoreError, match="not a database"):
        TableStore(garbage, catalog)


def test_a_table_whose_game_is_gone_stays_in_the_database(
    db: Path, catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = tmp_path / "calm.yaml"
    variant.write_text("extends: venedig\nid: calm\ntitle: Calm\n")
    designer = Catalog([(variant, ())])
    lobby = Lobby(designer, tables=TableStore(db, designer))
    made = lobby.create({"game": "calm", "players": 2, "seats": ["human", "bot"], "seed": 1})
    assert made.ident not in TableStore(db, catalog) and "no game 'calm'" in capsys.readouterr().err
    assert made.ident in TableStore(db, Catalog([(variant, ())]))


def test_the_default_database_is_in_the_users_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "venedig-rules" / "tables.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == Path.home() / ".local" / "share" / "venedig-rules" / "tables.sqlite3"


def test_a_table_serves_at_most_its_cap_of_spectators(catalog: Catalog) -> None:
    lobby = Lobby(catalog)
    with TestClient(create_app(lobby, bot_delay=0, max_spectators=2)) as http:
        made = http.post("/api/tables", json={"game": "rialto", "players": 2, "seats": ["human", "bot"], "seed": 1})
        table, token = made.json()["table"], made.json()["seats"][0]["token"]
        live = f"/api/tables/{table}/live"
        with http.websocket_connect(live) as one, http.websocket_connect(live) as two:
            one.receive_json(), two.receive_json()
            with pytest.raises(WebSocketDisconnect) as refused, http.websocket_connect(live) as three:
                three.receive_json()
            assert refused.value.code == 4429 and "2 spectators" in str(refused.value.reason)
            with http.websocket_connect(f"{live}?seat={token}") as seat:  # a seat's page is no spectator
                assert seat.receive_json()["seat"] == 0
        wait_until(lambda: lobby.table(table).spectators == 0)
        with http.websocket_connect(live) as again:
            assert again.receive_json()["seat"] is None


def test_an_update_builds_each_page_once_for_every_page_that_follows_it(catalog: Catalog) -> None:
    lobby = Lobby(catalog)
    with TestClient(create_app(lobby, bot_delay=0)) as http:
        made = http.post("/api/tables", json={"game": "saeulen", "players": 2, "seats": ["human", "human"], "seed": 3})
        table, tokens = made.json()["table"], [s["token"] for s in made.json()["seats"]]
        mover = lobby.table(table).game.to_move[0]
        live = f"/api/tables/{table}/live"
        urls = [live] * 6 + [f"{live}?seat={tokens[mover]}"] * 2
        with contextlib_exit(http, urls) as pages:
            firsts = [page.receive_text() for page in pages]
            assert len(set(firsts[:6])) == 1 and len(set(firsts[6:])) == 1  # the same text for the same page
            builds = lobby.table(table).builds
            assert builds == 2
            action = json.loads(firsts[6])["decision"]["options"][0]["action"]
            answer = http.post(f"/api/tables/{table}/act", json={"seat": tokens[mover], "action": action})
            assert answer.status_code == 200
            updates = [page.receive_json() for page in pages]
            assert all(u["actions"] == 1 for u in updates)
            assert lobby.table(table).builds == builds + 2  # one spectator page, one seat page


class contextlib_exit:
    """Several WebSocket sessions open together (closed in reverse order)."""

    def __init__(self, http: TestClient, urls: list[str]):
        self.sessions = [http.websocket_connect(url) for url in urls]

    def __enter__(self) -> list[Any]:
        return [session.__enter__() for session in self.sessions]

    def __exit__(self, *exc: object) -> None:
        for session in reversed(self.sessions):
            session.__exit__(None, None, None)


#: A seed no sample could hold by chance.
SECRET_SEED = 987_654_321_987_654_321_987


def test_a_bot_is_sent_a_sample_of_its_seat_never_the_real_game(catalog: Catalog) -> None:
    table = Table.new(catalog, "venedig", (), players=3, kinds=["greedy", "human", "human"], seed=SECRET_SEED)
    pool = BotPool(catalog, workers=0)
    sent: list[Job] = []

    async def keep(job: Job) -> str:
        sent.append(job)
        return think(job)

    pool._run = keep  # type: ignore[method-assign]
    game = table.game
    while not sent:  # the greedy bot is asked once it has a choice (a forced move is made at once)
        mover = game.to_move[0]
        seen, legal = game.view(0), game.legal_actions(0)
        action = asyncio.run(pool.choose(table, 0)) if mover == 0 else game.legal_actions(mover)[0]
        table.apply(action)
    job = sent[0]
    sample = _Unpickler(io.BytesIO(job.sample), table.rules).load()
    assert sample.seed != SECRET_SEED and str(SECRET_SEED) not in repr(job)
    assert SECRET_SEED.to_bytes(9, "little") not in job.sample  # nor as pickle writes a number
    assert sample.actions == [] and sample.view(0) == seen
    assert sample.value("hand", 1) != game.value("hand", 1) or sample.value("hand", 2) != game.value("hand", 2)
    assert job.actions == tuple(str(a) for a in legal)


def test_bots_think_and_boards_are_drawn_in_worker_processes(catalog: Catalog) -> None:
    lobby = Lobby(catalog)
    pool = BotPool(catalog, workers=1)
    with TestClient(create_app(lobby, bot_delay=0, bots=pool)) as http:
        request = {"game": "saeulen", "players": 2, "seats": ["greedy", "ismcts"], "seed": 2}
        made = http.post("/api/tables", json=request)
        table = lobby.table(made.json()["table"])
        wait_until(lambda: table.game.is_over, timeout=240)
        drawn = http.get(f"/api/tables/{table.ident}", params={"lang": "de"}).json()
        here = render_view(table.rules, table.game.view(None, lang="de", names=table.names))
        assert drawn["board"] == here and drawn["over"]  # drawn in the worker as this process draws it
    assert pool._executor is None  # the app's shutdown stopped the workers


WORKERS_OF_A_SERVER = """
import os, sys, time
from venedig_rules.web.botpool import BotPool
from venedig_rules.web.catalog import Catalog

if __name__ == "__main__":
    pool = BotPool(Catalog(), workers=2)
    pool.start()
    for _ in range(4):
        pool._pool().submit(os.getpid).result()
    print(*pool._pool()._processes, flush=True)
    time.sleep(120)
"""


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended and not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


def test_the_bot_workers_of_a_killed_server_end_too(tmp_path: Path) -> None:
    """A server killed at once (kill -9) cannot stop its workers; each watches the server
    and ends with it, rather than waiting for ever on its queue with a ruleset loaded."""
    script = tmp_path / "server.py"
    script.write_text(WORKERS_OF_A_SERVER, encoding="utf-8")
    # the package under test, wherever it is imported from (a checkout or an installed wheel)
    env = {**os.environ, "PYTHONPATH": str(Path(venedig_rules.__file__).resolve().parents[1])}
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    assert server.stdout is not None
    workers = [int(pid) for pid in server.stdout.readline().split()]
    assert len(workers) == 2 and all(_running(pid) for pid in workers)
    server.kill()
    server.wait()
    deadline = time.monotonic() + 30
    while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if _running(pid)]
    for pid in left:  # not to leave them behind when the test fails
        os.kill(pid, signal.SIGKILL)
    assert left == []


def test_where_a_table_came_from_is_kept(db: Path, catalog: Catalog) -> None:
    if "provenance" not in {f.name for f in dataclasses.fields(Table)}:
        pytest.skip("tables have no provenance in this version")
    lobby = opened(db, catalog)
    made = lobby.create({"game": "rialto", "players": 2, "seats": ["human", "bot"], "seed": 1})
    kept = TableStore(db, catalog)[made.ident]
    assert kept.provenance == made.provenance  # type: ignore[attr-defined]


def test_a_table_keeps_a_bounded_number_of_pages(catalog: Catalog) -> None:
    table = Table.new(catalog, "saeulen", (), players=2, kinds=["human", "human"], seed=3)
    cursor = table.page(None)["cursor"]
    for since in range(cursor + 1):
        for lang in ("en", "de"):
            table.page(None, since, lang)
    assert len(table._pages) <= PAGES_KEPT < 2 * (cursor + 1)


def test_a_page_that_reconnects_gets_the_whole_state(db: Path, catalog: Catalog) -> None:
    lobby = opened(db, catalog)
    with TestClient(create_app(lobby, bot_delay=0)) as http:
        made = http.post("/api/tables", json={"game": "saeulen", "players": 2, "seats": ["human", "human"], "seed": 5})
        table, tokens = made.json()["table"], [s["token"] for s in made.json()["seats"]]
        live = f"/api/tables/{table}/live?seat={tokens[0]}"
        with http.websocket_connect(live) as page:
            first = page.receive_json()
        for _ in range(3):  # the game goes on while the page is away
            play(http, table, tokens[lobby.table(table).game.to_move[0]])
    again = opened(db, catalog)  # and the server restarted
    with TestClient(create_app(again, bot_delay=0)) as http, http.websocket_connect(live) as page:
        back = page.receive_json()
    assert back["actions"] == 3 and back["cursor"] > first["cursor"]
    assert back["log"][: len(first["log"])] == first["log"]
    assert back == json.loads(json.dumps(again.table(table).page(0)))  # the whole page, as a new one gets it


def test_a_save_of_a_restored_table_goes_on_with_the_same_links(db: Path, catalog: Catalog) -> None:
    made = opened(db, catalog).create({"game": "rialto", "players": 3, "seats": ["human", "human", "bot"]})
    tokens = [seat.token for seat in made.seats[:2]]
    restarted = opened(db, catalog)  # the tables keep only their tokens' digests
    restored = restarted.table(made.ident)
    assert [seat.token for seat in restored.seats] == ["", "", ""]
    name = restarted.save(restored, tokens[1], visitor="v")
    assert not set(tokens) & set(json.dumps(restarted.saves.get(name).keys))  # a save keeps digests too
    del restarted.tables[made.ident]
    again = restarted.create({"save": name, "seat": tokens[1]})
    assert again.ident == made.ident and [again.seat_for(t) for t in tokens] == [0, 1]
    assert again.seats[1].token == tokens[1] and again.seats[0].token == ""  # p1 gets its own link back only
    assert TableStore(db, catalog)[again.ident].seat_for(tokens[0]) == 0


def test_a_table_the_database_cannot_keep_is_not_made(db: Path, catalog: Catalog) -> None:
    lobby = opened(db, catalog)
    with sqlite3.connect(db) as other:  # a write that will fail: its seats' table is gone
        other.execute("DROP TABLE seats")
    with TestClient(create_app(lobby, bot_delay=0)) as http:
        answer = http.post("/api/tables", json={"game": "rialto", "players": 2, "seats": ["human", "bot"]})
    assert answer.status_code == 503 and "did not make it" in answer.json()["error"] and not lobby.tables
