"""Load on ``venedig-rules serve``: moves per second and move latency for N tables of one person
(a scripted client) and two bots, and for one such table watched by N spectators. Prints
figures, asserts nothing.

Run: python benchmarks/web_load.py [--tables 100] [--spectators 300] [--seconds 30] [--game venedig]

It starts a real server (``python -m venedig_rules serve --host 127.0.0.1 --port 0 --db
:memory: --bot-delay 0 --no-limits``, in a process of its own: the clients' work does not
count as the server's) on the loopback address only, runs each scenario for ``--seconds`` (bounded: at
most 1,000 tables and 2,000 spectators), and stops the server. Each person's page is a
WebSocket (``/live``) and its moves are HTTP posts, as the browser's page does them; it
plays a random option as soon as its page shows a decision.

- ``tables``: N tables at once. A move's latency is from the post of a person's action to
  the arrival of the page update that holds it (the server commits it, lets the bots answer
  — at most ``SETTLE`` seconds — and sends the page). Moves/s counts every action applied:
  the people's and the bots'.
- ``spectators``: one table and N spectator pages, read in two processes of their own (as
  browsers would: their reading is not the person's); the latency is from the person's post to
  each spectator's update that holds the move (N latencies per move).

``--db PATH`` runs the server on a database file instead (each action is committed to disk,
``synchronous=FULL``, before it is broadcast).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent

#: Bounds: whatever the command line says, the benchmark stays this small.
MOST_TABLES = 1000
MOST_SPECTATORS = 2000
MOST_SECONDS = 300.0
#: Processes the spectator pages are read in (the person plays from the benchmark's own).
WATCHERS = 2
_VERSION = re.compile(r'"version":(\d+)')


@dataclass
class Figures:
    """What one scenario measured."""

    latencies: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    person_moves: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)

    def report(self, title: str, seconds: float, cpu: float) -> str:
        lat = sorted(self.latencies)
        if not lat:
            return f"{title}: no move measured ({'; '.join(self.errors[:3])})"
        p50, p99 = lat[len(lat) // 2], lat[min(len(lat) - 1, int(len(lat) * 0.99))]
        return (
            f"{title}: {self.actions / seconds:.0f} actions/s ({self.person_moves / seconds:.1f} person moves/s), "
            f"move latency p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {lat[-1] * 1000:.0f} ms "
            f"over {len(lat)} samples (mean {statistics.fmean(lat) * 1000:.0f} ms)"
            + f"; server CPU {cpu / seconds * 100:.0f}% of one core"
            + (f", {cpu / self.actions * 1000:.1f} ms per action" if self.actions else "")
            + (f"; the post's answer p50 {_ms(self.acks, 0.5)} ms, p99 {_ms(self.acks, 0.99)} ms" if self.acks else "")
            + (f"; {len(self.errors)} errors, first: {self.errors[0]}" if self.errors else "")
        )


def _ms(values: list[float], share: float) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000:.0f}"


class Http:
    """One keep-alive HTTP/1.1 connection to the server (the standard library has no asyncio
    client): enough for JSON posts and gets."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        origin = f"http://{self.host}:{self.port}"
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nOrigin: {origin}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode() + data)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        text = await self.reader.readexactly(length)
        return status, json.loads(text) if text else None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Server:
    """``venedig-rules serve`` in a process of its own, on 127.0.0.1 and a free port."""

    def __init__(self, db: str, spectators: int, workers: int | None):
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "venedig_rules",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--db",
                db,
                "--bot-delay",
                "0",
                "--max-spectators",
                str(max(spectators, 1)),
                "--no-limits",  # every client of the benchmark comes from one address
                *(["--bot-workers", str(workers)] if workers is not None else []),
            ],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stderr is not None
        for line in self.process.stderr:
            if "the lobby is at " in line:
                address = line.split("http://")[1].split("/")[0]
                self.host, port = address.rsplit(":", 1)
                self.port = int(port)
                threading.Thread(target=self._drain, daemon=True).start()
                return
        raise RuntimeError("the server stopped before it listened")

    def cpu_seconds(self) -> float:
        """CPU time the server and its worker processes have used so far (Linux; else 0)."""
        total = 0.0
        tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid, parent = int(stat.parent.name), int(fields[1])
            if self.process.pid in (pid, parent):
                total += (int(fields[11]) + int(fields[12])) / tick
        return total

    def _drain(self) -> None:
        """Read the server's stderr (a full pipe would stop it), echoing errors."""
        assert self.process.stderr is not None
        for line in self.process.stderr:
            print(f"server: {line}", end="", file=sys.stderr)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


async def new_table(http: Http, game: str) -> tuple[str, str]:
    status, made = await http.request(
        "POST", "/api/tables", {"game": game, "players": 3, "seats": ["human", "bot", "bot"], "seed": 1}
    )
    if status != 200:
        raise RuntimeError(f"the server made no table: {status} {made}")
    return made["table"], made["seats"][0]["token"]


async def live(server: Server, table: str, token: str = "") -> ClientConnection:
    url = f"ws://{server.host}:{server.port}/api/tables/{table}/live" + (f"?seat={token}" if token else "")
    return await connect(url, origin=f"http://{server.host}:{server.port}", max_size=None)  # type: ignore[arg-type]


async def person(
    server: Server, game: str, end: float, figures: Figures, posted: dict[int, float] | None = None
) -> None:
    """One person's page: plays a random option whenever it has a decision, until ``end``; a
    finished game is followed by a new table. ``posted``: the person's moves by the version
    the server acknowledged, with the time each was posted (for the spectators)."""
    http = Http(server.host, server.port)
    chooser = random.Random()
    try:
        while time.monotonic() < end:
            table, token = await new_table(http, game)
            socket = await live(server, table, token)
            try:
                await _play(socket, http, table, token, chooser, end, figures, posted)
            finally:
                await socket.close()
    except Exception as exc:  # a benchmark reports what failed and goes on
        figures.errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        await http.close()


async def _play(
    socket: ClientConnection,
    http: Http,
    table: str,
    token: str,
    chooser: random.Random,
    end: float,
    figures: Figures,
    posted: dict[int, float] | None,
) -> None:
    waiting: tuple[int, float] | None = None  # (acknowledged version, posted at)
    start_actions = None
    while time.monotonic() < end:
        try:
            message = await asyncio.wait_for(socket.recv(), timeout=max(0.01, end - time.monotonic()))
        except TimeoutError:
            break
        page = json.loads(message)
        start_actions = page["actions"] if start_actions is None else start_actions
        if waiting is not None and page["version"] >= waiting[0]:
            figures.latencies.append(time.monotonic() - waiting[1])
            waiting = None
        if page["over"]:
            figures.actions += page["actions"] - start_actions
            return
        decision = page["decision"]
        if waiting is None and decision is not None and not page["committed"] and decision["options"]:
            action = chooser.choice(decision["options"])["action"]
            sent = time.monotonic()
            status, answer = await http.request("POST", f"/api/tables/{table}/act", {"seat": token, "action": action})
            if status != 200:
                figures.errors.append(f"act: {status} {answer}")
                continue
            figures.person_moves += 1
            figures.acks.append(time.monotonic() - sent)
            waiting = (answer["version"], sent)
            if posted is not None:
                posted[answer["version"]] = sent
    status, page = await http.request("GET", f"/api/tables/{table}?seat={token}")
    if status == 200 and start_actions is not None:
        figures.actions += page["actions"] - start_actions


async def tables_scenario(server: Server, tables: int, game: str, seconds: float) -> Figures:
    figures = Figures()
    end = time.monotonic() + seconds
    await asyncio.gather(*(person(server, game, end, figures) for _ in range(tables)))
    return figures


class Arrival(NamedTuple):
    """A spectator page's update: the version it holds and when it arrived (``time.monotonic``,
    one clock for every process of the machine)."""

    version: int
    at: float


def watch(host: str, port: int, table: str, count: int, ready: Any, start: Any, seconds: float) -> list[list[Arrival]]:
    """``count`` spectator pages of ``table``, in a process of their own (a browser's work is
    not the server's): connects them, says ``ready``, and from ``start`` records every update of
    each for ``seconds``."""
    return asyncio.run(_watch(host, port, table, count, ready, start, seconds))


async def _watch(
    host: str, port: int, table: str, count: int, ready: Any, start: Any, seconds: float
) -> list[list[Arrival]]:
    url = f"ws://{host}:{port}/api/tables/{table}/live"
    sockets = []
    for _ in range(count):
        sockets.append(await connect(url, origin=f"http://{host}:{port}", max_size=None))  # type: ignore[arg-type]
        await sockets[-1].recv()  # the whole page, at once
    ready.put(count)
    await asyncio.get_running_loop().run_in_executor(None, start.wait)
    end = time.monotonic() + seconds

    async def follow(socket: ClientConnection) -> list[Arrival]:
        arrivals = []
        while time.monotonic() < end:
            try:
                message = await asyncio.wait_for(socket.recv(), timeout=max(0.01, end - time.monotonic()))
            except TimeoutError:
                break
            at = time.monotonic()
            found = _VERSION.search(message if isinstance(message, str) else message.decode())
            arrivals.append(Arrival(int(found.group(1)) if found else 0, at))
        await socket.close()
        return arrivals

    return list(await asyncio.gather(*(follow(s) for s in sockets)))


async def spectators_scenario(server: Server, spectators: int, game: str, seconds: float) -> Figures:
    """One person plays; ``spectators`` pages follow its table from ``WATCHERS`` processes."""
    figures = Figures()
    http = Http(server.host, server.port)
    table, token = await new_table(http, game)
    await http.close()
    context = multiprocessing.get_context("spawn")
    manager = context.Manager()
    ready, start = manager.Queue(), manager.Event()
    shares = [spectators // WATCHERS + (i < spectators % WATCHERS) for i in range(WATCHERS)]
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(WATCHERS, mp_context=context) as pool:
        watching = [
            loop.run_in_executor(pool, watch, server.host, server.port, table, n, ready, start, seconds)
            for n in shares
            if n
        ]
        for _ in watching:
            await loop.run_in_executor(None, ready.get)
        start.set()
        posted: dict[int, float] = {}
        socket = await live(server, table, token)
        player = Http(server.host, server.port)
        try:
            await _play(socket, player, table, token, random.Random(), time.monotonic() + seconds, figures, posted)
        finally:
            await socket.close()
            await player.close()
        pages = [arrivals for share in await asyncio.gather(*watching) for arrivals in share]
    manager.shutdown()
    figures.latencies = []
    for arrivals in pages:  # each person's move: when each page first showed it
        for move, sent in posted.items():
            shown = next((a.at for a in arrivals if a.version >= move), None)
            if shown is not None:
                figures.latencies.append(shown - sent)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables at once (0: skip; default 100)")
    parser.add_argument("--spectators", type=int, default=300, help="spectators of one table (0: skip; default 300)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each scenario (default 30)")
    parser.add_argument("--game", default="venedig", help="the game played (default venedig)")
    parser.add_argument("--db", default=":memory:", help="the server's database (default :memory:)")
    parser.add_argument("--bot-workers", type=int, default=None, help="the server's --bot-workers (default: its own)")
    args = parser.parse_args()
    tables = max(0, min(args.tables, MOST_TABLES))
    spectators = max(0, min(args.spectators, MOST_SPECTATORS))
    seconds = max(1.0, min(args.seconds, MOST_SECONDS))
    if tables:
        scenario = partial(tables_scenario, tables=tables, game=args.game, seconds=seconds)
        _measure(
            Server(args.db, 1, args.bot_workers),
            scenario,
            f"{tables} tables of 1 person + 2 bots ({args.game})",
            seconds,
        )
    if spectators:
        scenario = partial(spectators_scenario, spectators=spectators, game=args.game, seconds=seconds)
        _measure(
            Server(args.db, spectators, args.bot_workers),
            scenario,
            f"1 table ({args.game}) with {spectators} spectators",
            seconds,
        )


def _measure(server: Server, scenario: Callable[[Server], Awaitable[Figures]], title: str, seconds: float) -> None:
    """Run one scenario against a fresh server, stop the server, and print its figures."""
    try:
        cpu = server.cpu_seconds()
        figures = asyncio.run(scenario(server))
        cpu = server.cpu_seconds() - cpu
    finally:
        server.stop()
    print(figures.report(title, seconds, cpu), flush=True)


if __name__ == "__main__":
    main()
