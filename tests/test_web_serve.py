"""``venedig-rules serve``: the command starts the server, prints one URL per person's seat and
one spectator URL for ``--game``, serves a designer's variant, and refuses wrong options."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

#: A designer's variant (docs/variants.md's example): one prompt reworded.
VARIANT = (
    "extends: venedig\nid: calm\ntitle: Calm\noverlay:\n  texts:\n    languages:\n      en:\n"
    "        decisions:\n          drain: {prompt: Which swamp now?}\n"
)


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
