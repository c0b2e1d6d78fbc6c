"""``venedig-rules serve``: the web front end on a host and port, with uvicorn; with ``--game``,
one table made at once and its pages' URLs printed (one per person's seat, then the spectator's).
The tables live in an SQLite database (``--db``; default ``tables.sqlite3`` in the user's data
folder; ``--db :memory:`` keeps nothing) and go on after a restart with the same links.

The command's options are declared here (``add_arguments``), so ``cli`` stays free of the web
libraries: they are imported only when the server starts (the ``web`` extra: ``INSTALL_WEB``).
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # the command's options are read without the web libraries or the engine
    from .catalog import Catalog
    from .limits import Limits
    from .lobby import Lobby

#: How to get the web extra, from a checkout or from a wheel.
INSTALL_WEB = (
    'from a checkout: pip install ".[web]"; from a wheel: pip install "venedig_rules-<version>-py3-none-any.whl[web]"'
)
EXAMPLES = (
    "examples:\n  venedig-rules serve                                  # the lobby at http://127.0.0.1:8000/\n"
    "  venedig-rules serve --game venedig --players 3 --seats human,bot,bot\n"
    "  venedig-rules serve --host 0.0.0.0 --allowed-hosts games.example.org,192.168.1.20\n"
    "  venedig-rules serve --game my_variant.yaml --players 2 --seats human,human --port 8001\n"
    "  venedig-rules serve --db :memory:                    # tables forgotten when the server stops"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``serve``: where it listens, the table ``--game`` makes, then the server's own."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on; 0 picks a free one (default 8000)")
    parser.add_argument(
        "--game",
        default=None,
        metavar="GAME",
        help="make a table of this game at once and print its URLs: a bundled id, a ruleset folder or a "
        "variant (also offered in the lobby)",
    )
    parser.add_argument("--variant", action="append", default=[], metavar="NAME", help="apply a variant (repeatable)")
    parser.add_argument("--players", type=int, default=None, metavar="N", help="players at that table")
    parser.add_argument(
        "--seats",
        default=None,
        metavar="KINDS",
        help="who plays each seat, e.g. human,bot,bot (human, bot or a bot's name; default: p0 human, bots)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="a public seed for that table, for tests and replays: whoever knows it can work out every card "
        "(default: a secret seed of 128 random bits)",
    )
    parser.add_argument("--names", default=None, metavar="A,B,...", help="the players' names, in seat order")
    parser.add_argument("--lang", default="en", metavar="LANG", help="language of the printed pages (default en)")
    _add_server_arguments(parser)


def _add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``serve`` that concern the server rather than the table ``--game`` makes."""
    parser.add_argument(
        "--bot-delay", type=float, default=0.1, metavar="SECONDS", help="pause before each bot move (default 0.1)"
    )
    parser.add_argument(
        "--allowed-hosts",
        default=None,
        metavar="A,B,...",
        help="the host names (or addresses) people reach the server by; *.example.org patterns, * for any "
        "(default: localhost, 127.0.0.1, [::1] and the --host address; listening on every address, also "
        "this machine's name and addresses)",
    )
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="no per-client rate limits or caps (for a benchmark on one machine, where every client is "
        "127.0.0.1; never for a server others reach)",
    )
    parser.add_argument(
        "--saves", type=Path, default=None, metavar="DIR", help="keep saved games in this folder (default: in memory)"
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite file the tables live in, so they survive a restart (default: tables.sqlite3 in "
        "$XDG_DATA_HOME/venedig-rules or ~/.local/share/venedig-rules); :memory: keeps nothing",
    )
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes the bots think in (default: the cores but one, at least 1; 0: a thread of the server)",
    )
    parser.add_argument(
        "--max-spectators",
        type=int,
        default=400,
        metavar="N",
        help="spectator pages one table serves at most (default 400)",
    )


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Start the server (until interrupted); returns the exit status."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401  (the web extra is there)
    except ImportError as exc:
        print(f"venedig-rules: error: serve needs the web extra ({exc}); {INSTALL_WEB}", file=sys.stderr)
        return 2
    from .catalog import Catalog
    from .lobby import Lobby, Saves
    from .store import StoreError, TableStore, default_path

    if (args.bot_workers is not None and args.bot_workers < 0) or args.max_spectators < 0:
        print("venedig-rules: error: --bot-workers and --max-spectators cannot be negative", file=sys.stderr)
        return 2
    catalog = Catalog()
    db = args.db if args.db is not None else str(default_path())
    try:
        store = TableStore(db, catalog, exclusive=True)
    except (StoreError, sqlite3.Error, OSError) as exc:
        print(f"venedig-rules: error: cannot open the tables' database {db}: {exc}", file=sys.stderr)
        return 2
    with contextlib.closing(store):
        if len(store):
            print(f"venedig-rules serve: {len(store)} tables go on from {db}", file=sys.stderr)
        return _serve(args, Lobby(catalog, Saves(args.saves), tables=store), out)


def _serve(args: argparse.Namespace, lobby: Lobby, out: TextIO) -> int:
    """Serve ``lobby`` (its ``--game`` table made first) until interrupted."""
    import uvicorn

    from .app import create_app
    from .botpool import BotPool
    from .limits import Limits
    from .refusals import Refused
    from .security import allowed_hosts

    hosts = [h for h in args.allowed_hosts.split(",") if h.strip()] if args.allowed_hosts else allowed_hosts(args.host)
    try:
        listener = _listen(args.host, args.port)
    except OSError as exc:
        print(f"venedig-rules: error: cannot listen on {args.host}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    base = _base(args.host, listener)
    if args.game:
        try:
            table = lobby.create(_table_request(args, lobby.catalog))
        except Refused as exc:
            print(f"venedig-rules: error: {exc}", file=sys.stderr)
            return 2
        for seat in table.seats:
            if seat.bot is None:
                print(f"{seat.name}: {base}/table/{table.ident}?seat={seat.token}&lang={args.lang}", file=out)
        print(f"spectator: {base}/table/{table.ident}?lang={args.lang}", file=out)
    print(f"venedig-rules serve: the lobby is at {base}/ (Ctrl+C stops)", file=sys.stderr)
    if args.host in ("0.0.0.0", "::", "") and not args.allowed_hosts:
        print(f"venedig-rules serve: answering to {', '.join(hosts)} (others: --allowed-hosts)", file=sys.stderr)
    out.flush()
    app = create_app(
        lobby,
        bot_delay=args.bot_delay,
        bots=BotPool(lobby.catalog, workers=args.bot_workers),
        max_spectators=args.max_spectators,
        allowed_hosts=hosts,
        limits=Limits.generous() if args.no_limits else None,
    )
    # no per-message deflate: it compresses every page once per socket, which costs more than the
    # page (a table with 300 spectators would compress the same page 300 times per move)
    config = uvicorn.Config(
        app, log_level="warning", ws_max_size=64 * 1024, ws_per_message_deflate=False, lifespan="on"
    )
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[listener])
    return 0


@contextlib.contextmanager
def running(
    lobby: Lobby, host: str = "127.0.0.1", port: int = 0, bot_delay: float = 0.0, limits: Limits | None = None
) -> Iterator[str]:
    """The web app of ``lobby`` served in a background thread while the block runs; gives its
    base URL (``port=0``: a free port). For tests, scripts and notebooks; ``limits``: what one
    client may do (``Limits.generous()`` for a benchmark playing every client from one address).

    >>> import urllib.request
    >>> from venedig_rules.web.catalog import Catalog
    >>> from venedig_rules.web.lobby import Lobby
    >>> with running(Lobby(Catalog())) as url:
    ...     urllib.request.urlopen(f"{url}/api/games").status
    200
    """
    import uvicorn

    from .app import create_app
    from .security import allowed_hosts

    listener = _listen(host, port)
    app = create_app(lobby, bot_delay=bot_delay, allowed_hosts=allowed_hosts(host), limits=limits)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the web server stopped as it started")
            time.sleep(0.01)
        yield _base(host, listener)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()


def _listen(host: str, port: int) -> socket.socket:
    # proto IPPROTO_TCP: asyncio sets TCP_NODELAY only on such sockets; without it a kept-alive
    # connection's answers wait 40 ms for the client's delayed ACK (Nagle's algorithm)
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(128)
    return listener


def _base(host: str, listener: socket.socket) -> str:
    host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    return f"http://{'[' + host + ']' if ':' in host else host}:{listener.getsockname()[1]}"


def _table_request(args: argparse.Namespace, catalog: Catalog) -> dict[str, object]:
    """The lobby request of the table ``--game`` asks for; a game that is no bundled id with
    bundled variants (a designer's folder or variant file) is offered in the lobby too."""
    game, variants = args.game, list(args.variant)
    if game not in catalog.games() or not set(variants) <= set(catalog.variants(game)):
        game, variants = catalog.add(game, variants), []
    rules = catalog.rules(game, variants)
    players = args.players if args.players is not None else rules.players.start
    kinds = args.seats.split(",") if args.seats else ["human"] + ["bot"] * (players - 1)
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    return {"game": game, "variants": variants, "players": players, "seats": kinds, "seed": args.seed, "names": names}
