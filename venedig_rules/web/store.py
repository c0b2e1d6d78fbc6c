"""The server's tables in an SQLite database, so that they outlive the server: a restart, a
crash or ``kill -9`` loses no table and no move that a page was told about.

A table is kept as what rebuilds it: its game (key and variants), player count, seed,
names and undo count, each seat's kind, name and token digest (a page proves its seat by
its token; the server needs to recognise the token, never to show it again), and its
actions in order. Opening the store replays each table's actions on its seed, so every
table goes on with the same links, its bots too. Each action is committed (WAL journal,
``synchronous=FULL``) before the table tells any page of it: what a page saw, the
database has.

>>> from venedig_rules.web.catalog import Catalog
>>> catalog = Catalog()
>>> store = TableStore(":memory:", catalog)
>>> table = Table.new(catalog, "saeulen", (), players=2, kinds=["human", "bot"], seed=3)
>>> store[table.ident] = table
>>> table.act(table.seats[0].token, table.page(0)["decision"]["options"][0]["action"])
>>> store.actions(table.ident) == table.game.actions
True
>>> again = TableStore(store.connection, catalog)[table.ident]
>>> again.game.actions == table.game.actions, again.seat_for(table.seats[0].token)
(True, 0)
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import IO, Any

from .catalog import Catalog, GameKey
from .refusals import Refused, Unavailable
from .tables import Seat, Table, seat_bot

#: The layout of the database this code reads and writes (``PRAGMA user_version``).
SCHEMA_VERSION = 1
#: The ``--db`` that keeps nothing once the server stops.
IN_MEMORY = ":memory:"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    ident TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variants TEXT NOT NULL,      -- JSON list of variant names
    players INTEGER NOT NULL,
    seed TEXT NOT NULL,          -- decimal: a seed may have more bits than an SQLite integer
    rules_hash TEXT NOT NULL,
    names TEXT,                  -- JSON list, or NULL for p0, p1, ...
    generation INTEGER NOT NULL, -- undos so far
    version INTEGER NOT NULL,    -- changes so far
    created REAL NOT NULL,       -- Unix time
    about TEXT                   -- JSON: the table's other fields kept as they are (its provenance)
);
CREATE TABLE IF NOT EXISTS seats (
    ident TEXT NOT NULL REFERENCES tables(ident) ON DELETE CASCADE,
    player INTEGER NOT NULL,
    kind TEXT NOT NULL,          -- human, or a bot's name
    name TEXT NOT NULL,
    digest TEXT NOT NULL,        -- SHA-256 of the seat's token
    PRIMARY KEY (ident, player)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    ident TEXT NOT NULL REFERENCES tables(ident) ON DELETE CASCADE,
    number INTEGER NOT NULL,     -- 0 for the game's first action
    action TEXT NOT NULL,
    PRIMARY KEY (ident, number)
) WITHOUT ROWID;
"""


class StoreError(Exception):
    """The database cannot be used: another program's file, or a newer layout."""


def default_path() -> Path:
    """Where ``serve`` keeps its tables without ``--db``: ``tables.sqlite3`` in the user's data
    folder (``$XDG_DATA_HOME/venedig-rules``, else ``~/.local/share/venedig-rules``; on Windows
    ``%LOCALAPPDATA%``)."""
    base = os.environ.get("XDG_DATA_HOME") or (os.environ.get("LOCALAPPDATA") if os.name == "nt" else None)
    folder = Path(base) if base else Path.home() / ".local" / "share"
    return folder / "venedig-rules" / "tables.sqlite3"


class TableStore(MutableMapping[str, Table]):
    """The server's tables by id, each written to the database at ``path`` (a file, or
    ``":memory:"``, or an open connection) as it is added, changed or removed; ``exclusive``:
    refuse a file another ``exclusive`` store (another server) holds. Opening it loads the
    tables kept there; a table whose game the catalog no longer offers, or whose
    actions no longer replay under its rules, stays in the database and is reported on
    stderr, not loaded."""

    def __init__(self, path: str | Path | sqlite3.Connection, catalog: Catalog, exclusive: bool = False):
        self.catalog = catalog
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()  # ``running`` serves from a thread while a script adds tables
        self._held: IO[str] | None = None
        if isinstance(path, sqlite3.Connection):
            self.connection = path
        else:
            if str(path) != IN_MEMORY:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                if exclusive:
                    self._held = _hold(Path(path))
            self.connection = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.path = str(path) if not isinstance(path, sqlite3.Connection) else None
        self._prepare()
        self.skipped: list[str] = []
        self._load()

    # -- the database ---------------------------------------------------------------------
    def _prepare(self) -> None:
        db = self.connection
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a database of tables ({exc})") from None
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer venedig-rules (layout {version}, this one reads {SCHEMA_VERSION})"
            )
        db.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer; a crash loses no commit
        db.execute("PRAGMA synchronous=FULL")  # a commit is on the disk before the table goes on
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        if version == 0:
            with self._transaction():
                for statement in _statements(_SCHEMA):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self.connection, self._lock)

    def _load(self) -> None:
        rows = self.connection.execute(
            "SELECT ident, game, variants, players, seed, rules_hash, names, generation, version, created, about"
            " FROM tables ORDER BY created"
        ).fetchall()
        for ident, game, variants, players, seed, rules_hash, names, generation, version, created, about in rows:
            try:
                table = self._rebuilt(ident, GameKey(game, tuple(json.loads(variants))), players, int(seed), rules_hash)
            except (Refused, ValueError, LookupError) as exc:
                self.skipped.append(ident)
                print(f"venedig-rules: table {ident} ({game}) not loaded: {exc}", file=sys.stderr)
                continue
            table.names = json.loads(names) if names else None
            table.generation, table.version = generation, version
            table.created = time.monotonic() - max(0.0, time.time() - created)
            _restore_about(table, json.loads(about) if about else {})
            table.journal = self
            self._tables[ident] = table

    def _rebuilt(self, ident: str, key: GameKey, players: int, seed: int, rules_hash: str) -> Table:
        rules = self.catalog.rules(key.game, key.variants)
        if rules.rules_hash != rules_hash:
            raise ValueError("its rules have changed since it was played")
        game = rules.replay(players, seed, self.actions(ident))
        seats = [
            Seat(player, kind, name, "", seat_bot(kind, secrets.randbits(64), player), digest)
            for player, kind, name, digest in self.connection.execute(
                "SELECT player, kind, name, digest FROM seats WHERE ident = ? ORDER BY player", (ident,)
            )
        ]
        if len(seats) != players:
            raise ValueError(f"it has {len(seats)} seats for {players} players")
        return Table(ident, key, rules, game, seats)

    def actions(self, ident: str) -> list[str]:
        """The actions kept for the table ``ident``, in order."""
        rows = self.connection.execute("SELECT action FROM actions WHERE ident = ? ORDER BY number", (ident,))
        return [action for (action,) in rows]

    def close(self) -> None:
        """Close the database (every change is committed already) and let another server use it."""
        self.connection.close()
        if self._held is not None:
            self._held.close()

    # -- the journal of each table --------------------------------------------------------
    def applied(self, table: Table, action: str) -> None:
        """Keep the table's new last action (before any page hears of it)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO actions (ident, number, action) VALUES (?, ?, ?)",
                (table.ident, table.game.position.actions - 1, action),
            )
            db.execute("UPDATE tables SET version = ? WHERE ident = ?", (table.version + 1, table.ident))

    def undone(self, table: Table) -> None:
        """Forget the table's last action (taken back)."""
        with self._transaction() as db:
            kept = table.game.position.actions
            db.execute("DELETE FROM actions WHERE ident = ? AND number >= ?", (table.ident, kept))
            db.execute(
                "UPDATE tables SET version = ?, generation = ? WHERE ident = ?",
                (table.version + 1, table.generation, table.ident),
            )

    # -- the mapping ----------------------------------------------------------------------
    def __setitem__(self, ident: str, table: Table) -> None:
        if ident != table.ident:
            raise ValueError(f"table {table.ident} kept under another id, {ident}")
        try:
            self._insert(ident, table)
        except sqlite3.Error as exc:  # a full disk, a broken file: no table the database would lose
            raise Unavailable(f"the server could not keep the new table, so it did not make it ({exc})") from None
        table.journal = self
        self._tables[ident] = table

    def _insert(self, ident: str, table: Table) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM tables WHERE ident = ?", (ident,))
            db.execute(
                "INSERT INTO tables (ident, game, variants, players, seed, rules_hash, names, generation, version,"
                " created, about) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    ident,
                    table.key.game,
                    json.dumps(list(table.key.variants)),
                    table.game.players,
                    str(table.game.seed),
                    table.rules.rules_hash,
                    json.dumps(table.names) if table.names else None,
                    table.generation,
                    table.version,
                    time.time() - (time.monotonic() - table.created),
                    json.dumps(_about(table)),
                ),
            )
            db.executemany(
                "INSERT INTO seats (ident, player, kind, name, digest) VALUES (?, ?, ?, ?, ?)",
                [(ident, s.player, s.kind, s.name, s.digest) for s in table.seats],
            )
            db.executemany(
                "INSERT INTO actions (ident, number, action) VALUES (?, ?, ?)",
                [(ident, n, action) for n, action in enumerate(table.game.actions)],
            )

    def __delitem__(self, ident: str) -> None:
        table = self._tables.pop(ident)
        table.journal = None
        with self._transaction() as db:
            db.execute("DELETE FROM tables WHERE ident = ?", (ident,))

    def __getitem__(self, ident: str) -> Table:
        return self._tables[ident]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)


class _Transaction:
    """One write: BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, connection: sqlite3.Connection, lock: threading.Lock):
        self.connection, self.lock = connection, lock

    def __enter__(self) -> sqlite3.Connection:
        self.lock.acquire()
        try:
            self.connection.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.lock.release()
            raise
        return self.connection

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            self.connection.execute("ROLLBACK" if error is not None else "COMMIT")
        finally:
            self.lock.release()


#: Fields of a table kept as JSON in ``about``, each a dataclass of JSON-safe fields (a tuple
#: comes back as a tuple): what the lobby records of where a table came from.
ABOUT_FIELDS = ("provenance",)


def _about(table: Table) -> dict[str, dict[str, Any]]:
    kept = {}
    for name in ABOUT_FIELDS:
        value = getattr(table, name, None)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            kept[name] = dataclasses.asdict(value)
    return kept


def _restore_about(table: Table, about: dict[str, dict[str, Any]]) -> None:
    for name, fields in about.items():
        value = getattr(table, name, None)
        if name in ABOUT_FIELDS and dataclasses.is_dataclass(value) and not isinstance(value, type):
            kinds = {f.name: type(getattr(value, f.name)) for f in dataclasses.fields(value)}
            known = {k: tuple(v) if kinds.get(k) is tuple else v for k, v in fields.items() if k in kinds}
            setattr(table, name, dataclasses.replace(value, **known))


def _hold(path: Path) -> IO[str] | None:
    """Hold ``path``'s lock file while this server runs: two servers on one database would each
    go on with the same tables and overwrite each other's moves (no lock where ``fcntl`` is
    missing: Windows)."""
    try:
        import fcntl
    except ImportError:
        return None
    handle = open(f"{path}.lock", "a", encoding="utf-8")  # noqa: SIM115  (held until close)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StoreError(f"another server uses {path}; give this one its own --db") from None
    return handle


def _statements(script: str) -> list[str]:
    """The statements of ``script`` (``executescript`` would commit the open transaction)."""
    lines = [line.split("--")[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
