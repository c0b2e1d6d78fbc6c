"""``venedig-rules serve``: the command starts the server, prints one URL per person's seat and
one spectator URL for ``--game``, serves a designer's variant, and refuses wrong options; its
tables live in ``--db`` and go on after ``kill -9`` with the same links, bots included."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

#: A designer's variant (docs/variants.md's example): one prompt reworded.
VARIANT = (
    "extends: venedig\nid: calm\ntitle: Calm\noverlay:\n  texts:\n    languages:\n      en:\n"
    "        decisions:\n          drain: {prompt: Which swamp now?}\n"
)


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data folder of the servers a test starts (their default database is there)."""
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "venedig_rules", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for process in processes:  # only the servers this test started
        process.terminate()
        process.wait(timeout=10)


def urls(process: subprocess.Popen[str], count: int) -> list[str]:
    assert process.stdout is not None
    lines = [process.stdout.readline().strip() for _ in range(count)]
    return lines


def get(url: str) -> tuple[int, str]:
    for _ in range(50):
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                return answer.status, answer.read().decode()
        except ConnectionError:
            time.sleep(0.1)
    raise AssertionError(f"{url} did not answer")


def test_serve_prints_a_url_per_human_seat_and_a_spectator_url(started: list[subprocess.Popen[str]]) -> None:
    process = serve("--game", "venedig", "--players", "3", "--seats", "human,bot,human", "--seed", "1")
    started.append(process)
    lines = urls(process, 3)
    assert [line.split(": ")[0] for line in lines] == ["p0", "p2", "spectator"]
    seat0, _, spectator = (line.split(": ", 1)[1] for line in lines)
    assert "?seat=" in seat0 and "seat=" not in spectator
    status, html = get(seat0)
    assert status == 200 and 'data-testid="log"' in html
    table = spectator.split("/table/")[1].split("?")[0]
    base = spectator.split("/table/")[0]
    page = json.loads(get(f"{base}/api/tables/{table}?seat={seat0.split('seat=')[1].split('&')[0]}")[1])
    assert page["seats"][1]["kind"] == "random" and page["seat"] == 0


def test_serve_plays_a_designers_variant(started: list[subprocess.Popen[str]], tmp_path: Path) -> None:
    variant = tmp_path / "calm.yaml"
    variant.write_text(VARIANT)
    process = serve("--game", str(variant), "--players", "2", "--seats", "human,bot", "--seed", "2")
    started.append(process)
    spectator = urls(process, 2)[1].split(": ", 1)[1]
    base = spectator.split("/table/")[0]
    games = json.loads(get(f"{base}/api/games")[1])["games"]
    assert "calm" in [g["id"] for g in games]
    table = spectator.split("/table/")[1].split("?")[0]
    page = json.loads(get(f"{base}/api/tables/{table}")[1])
    assert page["game"] == "calm" and page["board"].count("data-space=") > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "venedig", "--players", "3", "--seats", "human,bot"], "say who plays each of the 3 seats"),
        (["--game", "venedig", "--players", "9"], "is for 2-"),
        (["--game", "venedig", "--seats", "human,alien"], "a seat is 'human', 'bot' or a bot's name"),
    ],
)
def test_serve_refuses_a_table_it_cannot_make(args: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "venedig_rules", "serve", "--port", "0", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def post(url: str, body: dict[str, object]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def lobby_url(process: subprocess.Popen[str]) -> str:
    """The lobby's URL, from the line the server writes on stderr once it listens."""
    assert process.stderr is not None
    for line in process.stderr:
        if "the lobby is at " in line:
            return line.split("the lobby is at ")[1].split("/ ")[0]
    raise AssertionError("the server stopped before it listened")


def settled_page(api: str, token: str) -> dict[str, Any]:
    """The seat's page once the bots have moved: the seat is to decide, or the game is over."""
    for _ in range(300):
        page: dict[str, Any] = json.loads(get(f"{api}?seat={token}")[1])
        if page["decision"] is not None or page["over"]:
            return page
        time.sleep(0.05)
    raise AssertionError("the bots did not move")


def play_until_the_bots_moved(api: str, token: str) -> int:
    """Play the seat's first option until the bots have moved too; answers the last version the
    server acknowledged."""
    start = int(settled_page(api, token)["actions"])
    for moves in range(1, 40):
        page = settled_page(api, token)
        option = page["decision"]["options"][0]
        status, answer = post(f"{api}/act", {"seat": token, "action": option["action"]})
        assert status == 200, answer
        if int(settled_page(api, token)["actions"]) > start + moves:
            return int(answer["version"])
    raise AssertionError("the bots never moved")


def test_a_table_goes_on_after_kill_9_with_the_same_link(started: list[subprocess.Popen[str]], tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    first = serve(
        "--db", str(db), "--game", "venedig", "--players", "3", "--seats", "human,bot,bot", "--bot-delay", "0"
    )
    started.append(first)
    link = urls(first, 2)[0].split(": ", 1)[1]
    table, token = link.split("/table/")[1].split("?")[0], link.split("seat=")[1].split("&")[0]
    api = f"{link.split('/table/')[0]}/api/tables/{table}"
    acknowledged = play_until_the_bots_moved(api, token)
    before = settled_page(api, token)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)

    second = serve("--db", str(db), "--bot-delay", "0")
    started.append(second)
    base = lobby_url(second)
    api = f"{base}/api/tables/{table}"
    after = settled_page(api, token)
    assert after["version"] >= acknowledged and after["actions"] == before["actions"]
    assert after["log"] == before["log"] and after["decision"] == before["decision"]
    assert get(f"{base}/table/{table}?seat={token}")[0] == 200  # the same link opens the page
    play_until_the_bots_moved(api, token)  # the same token plays on, and the bots answer
    assert post(f"{api}/act", {"seat": "not-the-token", "action": "p0 pass"})[0] == 403


def test_serve_keeps_its_tables_in_the_users_data_folder_unless_told(
    started: list[subprocess.Popen[str]], data_home: Path
) -> None:
    throwaway = serve("--db", ":memory:", "--game", "rialto", "--players", "2", "--seats", "human,bot")
    started.append(throwaway)
    urls(throwaway, 2)
    assert not data_home.exists()
    kept = serve("--game", "rialto", "--players", "2", "--seats", "human,bot")
    started.append(kept)
    spectator = urls(kept, 2)[1].split(": ", 1)[1]
    table = spectator.split("/table/")[1].split("?")[0]
    with sqlite3.connect(data_home / "venedig-rules" / "tables.sqlite3") as db:
        assert db.execute("SELECT ident FROM tables").fetchall() == [(table,)]


def test_serve_refuses_a_database_it_cannot_read(tmp_path: Path) -> None:
    garbage = tmp_path / "notes.txt"
    garbage.write_text("not a database " * 100)
    done = subprocess.run(
        [sys.executable, "-m", "venedig_rules", "serve", "--port", "0", "--db", str(garbage)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "cannot open the tables' database" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_second_server_on_the_same_database_is_refused(started: list[subprocess.Popen[str]], tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    first = serve("--db", str(db))
    started.append(first)
    lobby_url(first)
    done = subprocess.run(
        [sys.executable, "-m", "venedig_rules", "serve", "--port", "0", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "another server uses" in done.stderr and "Traceback" not in done.stderr
