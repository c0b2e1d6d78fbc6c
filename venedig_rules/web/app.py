"""The Starlette app of ``venedig-rules serve``: the lobby and seat pages (plain HTML/JS/SVG in
``static/``), a JSON API, and a WebSocket per page that pushes the seat's page data whenever the
table changes. Bots move on the server between a person's actions.

Routes (``{seat}`` is a seat's token, in the query string as ``?seat=``; none: a spectator):

- ``GET /``: the lobby; ``GET /table/{table}?seat=TOKEN``: a seat's page (or the spectator's)
- ``GET /api/games``: the offered games, bots and languages
- ``POST /api/tables``: a new table (``game``, ``variants``, ``players``, ``seats``, ``names``,
  ``seed``: a public seed, none for a secret deal; or ``save`` with ``seat``, the token of the
  seat that saved it); answers the seats, the token and page URL of each seat given to the
  asker, and the spectator's URL
- ``GET /api/tables/{table}?seat=&since=&generation=&lang=``: the page data
- ``POST /api/tables/{table}/act`` ``{"seat", "action"}``, ``.../undo`` ``{"seat"}``,
  ``.../save`` ``{"seat"}`` (answers the save's name, never its contents)
- ``GET /api/tables/{table}/replay?seat=&step=``: the page data after the first ``step`` actions
- ``GET /api/saves`` (the visitor's own saves), ``POST /api/saves`` (a save file, kept on the
  server; answers its name and the token that goes on with it)
- ``WS /api/tables/{table}/live?seat=&lang=``: the page data now and after every change; a
  refused socket is closed with 4000 + the HTTP status (4403, 4404, 4429) and the sentence

Around every request, ``security.middleware``: security headers, Host and Origin checks, the
visitor cookie; per client, ``limits``: rates of new tables and connections, open sockets and
games (docs/web.md, Security).

>>> from starlette.testclient import TestClient
>>> from venedig_rules.web.catalog import Catalog
>>> client = TestClient(create_app(Lobby(Catalog()), bot_delay=0))
>>> made = client.post("/api/tables", json={"game": "venedig", "players": 2, "seats": ["human", "bot"]})
>>> page = client.get(made.json()["seats"][0]["url"].replace("/table/", "/api/tables/")).json()
>>> page["seat_name"], page["decision"]["prompt"] == page["waiting_for"][0]["prompt"]
('p0', False)
>>> client.post(f"/api/tables/{page['table']}/act", json={"seat": "", "action": "p0 pass"}).json()
{'error': "a spectator cannot act; open a seat's page"}
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import bot_names
from .botpool import BotPool, run_bots
from .catalog import accepted_languages
from .limits import Holdings, Limits, RateLimiter, client_key
from .lobby import Lobby
from .refusals import BadRequest, Refused, TooLarge, TooMany
from .security import LOCAL_HOSTS, TEST_HOST, middleware, visitor
from .tables import DEFAULT_BOT, HUMAN, SPECTATOR, Table

#: The largest request body read, in bytes (a save file is the largest thing a page sends).
MAX_BODY = 4 * 1024 * 1024
#: The largest body of an action, undo or new-table request.
MAX_SMALL_BODY = 16 * 1024
#: Seconds a bot waits before it moves, so people can follow the game.
BOT_DELAY = 0.1

#: Seconds a page's update waits at most for the bots' moves that follow a change.
SETTLE = 0.5
#: Spectator pages one table serves at most (each costs the server a socket and a send per move).
MAX_SPECTATORS = 400

STATIC = Path(str(files("venedig_rules.web") / "static"))


def create_app(
    lobby: Lobby,
    bot_delay: float = BOT_DELAY,
    bots: BotPool | None = None,
    max_spectators: int = MAX_SPECTATORS,
    *,
    allowed_hosts: Sequence[str] | None = None,
    limits: Limits | None = None,
) -> Starlette:
    """The web app serving ``lobby``; bots wait ``bot_delay`` seconds before each move and think
    in ``bots`` (default: a thread of this process); a table serves at most ``max_spectators``
    spectator pages. ``allowed_hosts``: the names the server answers to (``*.example.com``
    patterns; ``*``: any); default this machine's local names and Starlette's TestClient's.
    ``limits``: what one client may do (default ``Limits()``). At start-up (ASGI lifespan) the
    bots of every table that one is to move at go on: a table loaded from the database needs no
    page to wake it."""
    tasks: set[asyncio.Task[None]] = set()
    pool = bots if bots is not None else BotPool(lobby.catalog, workers=0)
    limits = limits if limits is not None else Limits()
    creations, connections = RateLimiter(limits.create), RateLimiter(limits.connect)
    open_sockets = Holdings(limits.sockets)

    def client(connection: HTTPConnection) -> str:
        return client_key(connection.client.host if connection.client else None)

    def may_create(request: Request) -> str:
        """The asking client, unless it asks too often."""
        asker = client(request)
        if not creations.allow(asker):
            raise TooMany("too many new tables or saves from your address; wait a minute")
        return asker

    def start_bots(table: Table) -> None:
        if not table.bots_running and table.bot_to_move() is not None:
            task = asyncio.get_running_loop().create_task(run_bots(table, pool, bot_delay))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.start()
        for table in list(lobby.tables.values()):
            start_bots(table)
        try:
            yield
        finally:
            pool.close()

    async def lobby_page(request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html")

    async def table_page(request: Request) -> Response:
        lobby.table(request.path_params["table"])
        return FileResponse(STATIC / "table.html")

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    async def games(request: Request) -> Response:
        return JSONResponse(
            {
                "games": lobby.catalog.describe(),
                "bots": bot_names(),
                "default_bot": DEFAULT_BOT,
                "human": HUMAN,
                "accept_languages": accepted_languages(request.headers.get("accept-language")),
            }
        )

    async def new_table(request: Request) -> Response:
        body = await read_json(request, MAX_SMALL_BODY)
        asker = may_create(request)
        if lobby.open_tables(asker) >= limits.tables:
            raise TooMany(f"you have {limits.tables} unfinished games open here; finish one before starting another")
        await anyio.to_thread.run_sync(lobby.prepare, body)  # loading rules takes long: not on the loop
        table = lobby.create(body, owner=visitor(request), client=asker)
        start_bots(table)
        base = f"/table/{table.ident}"
        given = set(table.provenance.given)
        seats = [
            {
                **seat.public(),
                **({"token": seat.token, "url": f"{base}?seat={seat.token}"} if seat.player in given else {}),
            }
            for seat in table.seats
        ]
        answer = {"table": table.ident, "seats": seats, "spectator": base}
        return JSONResponse({**answer, "public_seed": table.provenance.public_seed})

    async def table_state(request: Request) -> Response:
        table = lobby.table(request.path_params["table"])
        query = request.query_params
        player = table.seat_for(query.get("seat"))
        given = query.get("generation")
        generation = _number(given, "generation") if given else None
        since = _number(query.get("since", "0"), "since")
        start_bots(table)
        text = (await table.shared_page(player, since, _lang(query.get("lang")), generation, pool.draw))[1]
        return Response(text, media_type="application/json")

    async def act(request: Request) -> Response:
        table = lobby.table(request.path_params["table"])
        body = await read_json(request, MAX_SMALL_BODY)
        table.act(_text(body.get("seat")), _text(body.get("action")))
        start_bots(table)
        return JSONResponse({"ok": True, "version": table.version})

    async def undo(request: Request) -> Response:
        table = lobby.table(request.path_params["table"])
        body = await read_json(request, MAX_SMALL_BODY)
        lang = body.get("lang")
        table.undo(_text(body.get("seat")), _lang(lang if isinstance(lang, str) and lang else None))
        start_bots(table)
        return JSONResponse({"ok": True, "version": table.version})

    async def save(request: Request) -> Response:
        table = lobby.table(request.path_params["table"])
        token = _text((await read_json(request, MAX_SMALL_BODY)).get("seat"))
        table.seat_for(token)  # a wrong token is refused before it counts against the rate
        name = lobby.save(table, token, visitor=visitor(request), client=may_create(request))
        return JSONResponse({"save": name})

    async def replay(request: Request) -> Response:
        table = lobby.table(request.path_params["table"])
        query = request.query_params
        player = table.seat_for(query.get("seat"))
        step = _number(query.get("step", str(len(table.game.actions))), "step")
        return JSONResponse(table.replay(player, step, _lang(query.get("lang"))))

    async def saves(request: Request) -> Response:
        if request.method == "POST":
            data = await read_json(request, MAX_BODY)
            asker = may_create(request)
            brought = await anyio.to_thread.run_sync(lobby.read_upload, data)  # replaying takes long
            name, token = lobby.upload(brought, visitor=visitor(request), client=asker)
            return JSONResponse({"save": name, "seat": token})
        return JSONResponse({"saves": lobby.saves.list(visitor(request))})

    async def live(socket: WebSocket) -> None:
        # a refusal raised before the socket is accepted closes it with 4000 + the HTTP status
        # and the sentence (security.CloseCodes)
        asker = client(socket)
        if not connections.allow(asker):
            raise TooMany("too many connections from your address; wait a moment")
        table = lobby.table(socket.path_params["table"])
        player = table.seat_for(socket.query_params.get("seat"))
        lang = _lang(socket.query_params.get("lang"))
        table.check_lang(lang)
        if player is SPECTATOR and table.spectators >= max_spectators:
            raise TooMany(f"this table has {max_spectators} spectators already; try again later")
        if not open_sockets.take(asker):
            raise TooMany(f"{limits.sockets} pages from your address are open already")
        try:
            await follow(socket, table, player, lang)
        finally:
            open_sockets.release(asker)

    async def follow(socket: WebSocket, table: Table, player: int | None, lang: str) -> None:
        start_bots(table)  # a table made or loaded without a request (a script's) starts here
        watching = player is SPECTATOR
        table.spectators += watching
        try:
            await socket.accept()
            await _follow(socket, table, player, lang, pool)
        finally:
            table.spectators -= watching

    async def refused(request: HTTPConnection, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    return Starlette(
        routes=[
            Route("/", lobby_page),
            Route("/favicon.ico", no_icon),
            Route("/table/{table}", table_page),
            Route("/api/games", games),
            Route("/api/tables", new_table, methods=["POST"]),
            Route("/api/tables/{table}", table_state),
            Route("/api/tables/{table}/act", act, methods=["POST"]),
            Route("/api/tables/{table}/undo", undo, methods=["POST"]),
            Route("/api/tables/{table}/save", save, methods=["POST"]),
            Route("/api/tables/{table}/replay", replay),
            Route("/api/saves", saves, methods=["GET", "POST"]),
            WebSocketRoute("/api/tables/{table}/live", live),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={Refused: refused},
        middleware=middleware(allowed_hosts if allowed_hosts is not None else [*LOCAL_HOSTS, TEST_HOST]),
        lifespan=lifespan,
    )


async def _follow(socket: WebSocket, table: Table, player: int | None, lang: str, pool: BotPool) -> None:
    """Send the page its data now (all of it: a page that reconnects gets the whole state) and
    after every change, until it closes. Every page of the same seat and cursor is sent the
    same text, built once per change."""
    left = asyncio.ensure_future(_until_closed(socket))
    cursor, generation = 0, table.generation
    try:
        while not left.done():
            version = table.version
            page, text = await table.shared_page(player, cursor, lang, generation, pool.draw)
            cursor, generation = page["cursor"], page["generation"]
            await socket.send_text(text)
            change = asyncio.ensure_future(table.changed(version))
            await asyncio.wait({change, left}, return_when=asyncio.FIRST_COMPLETED)
            change.cancel()
            await table.settled(SETTLE)
    except WebSocketDisconnect:
        pass
    finally:
        left.cancel()


async def _until_closed(socket: WebSocket) -> None:
    """Return when the page closes its socket (a page sends nothing; anything it sends is
    ignored), so a page that left stops waiting for the table."""
    while (await socket.receive())["type"] != "websocket.disconnect":
        pass


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read only up to ``limit`` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise TooLarge(f"the request is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise TooLarge(f"the request is larger than {limit} bytes")
    try:
        data = json.loads(body)
    except ValueError:
        raise BadRequest("the request is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request is not a JSON object")
    return data


def _number(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise BadRequest(f"{what} must be a whole number, not {text!r}")
    return int(text)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise BadRequest("expected a text")
    return value


def _lang(value: str | None) -> str:
    if value is None:
        return "en"
    if not (value.isalpha() and len(value) <= 8):
        raise BadRequest(f"no language {value!r}")
    return value
