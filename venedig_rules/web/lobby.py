"""The server's tables and saved games. A save holds the whole game, secrets included, so it
stays on the server: pages get its name and what is public about it, never its contents.

Who may do what (docs/web.md, Security): a save is listed only to the visitor who made it (by
the visitor cookie's hash) and goes on only with the token of the seat that saved it. Going on
keeps every other seat's token, and the table's address when it is free, so every seat's old
link works again and no one learns a token they did not have; only the table's owner (the
visitor who made the table, who was given every seat's link then) gets new links for every
seat. One copy of a game is played at a time: a save goes on only when no unfinished table of
its line is open, so a copy cannot be used to try out the future. Unfinished tables with people
are never pushed out; a full server refuses new tables instead.

>>> lobby = Lobby(Catalog())
>>> table = lobby.create({"game": "saeulen", "players": 2, "seats": ["human", "bot"]}, owner="v1")
>>> lobby.table(table.ident) is table and table.provenance.public_seed is None
True
>>> name = lobby.save(table, table.seats[0].token, visitor="v1")
>>> [(s["name"] == name, s["game"], s["players"]) for s in lobby.saves.list("v1")], lobby.saves.list("v2")
([(True, 'saeulen', 2)], [])
>>> lobby.create({"save": name, "seat": table.seats[0].token})
Traceback (most recent call last):
...
venedig_rules.web.refusals.Conflict: this game is still being played at a table; a save goes on once no copy is
>>> del lobby.tables[table.ident]  # the table is gone (the server restarted)
>>> again = lobby.create({"save": name, "seat": table.seats[0].token})
>>> again.game.seed == table.game.seed, again.seats[0].token == table.seats[0].token, again.provenance.given
(True, True, (0,))
>>> again.ident == table.ident  # the same links as before
True
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any, NamedTuple

from ..engine.game import Game, SaveFileError
from .catalog import Catalog, GameKey, wanted_variants
from .refusals import BadRequest, Conflict, Forbidden, Full, NotFound
from .tables import HUMAN, TOKEN_BYTES, Provenance, Table, seat_kind, token_digest

#: Tables a server keeps at most; a new one pushes out the oldest finished one, else the oldest
#: one no person plays; when every table is a game people are playing, a new one is refused.
MAX_TABLES = 200
#: Saved games a server keeps at most (the oldest goes first).
MAX_SAVES = 2000
#: Saved games kept at most per client address (its own oldest goes first).
MAX_SAVES_PER_CLIENT = 40
#: The most seats a request may name (no game has more; bounds the work a request causes).
MAX_SEATS = 12
#: The largest public seed: a page shows it exactly (a JavaScript number).
MAX_PUBLIC_SEED = 2**53 - 1
_SAVE_NAME = re.compile(r"[a-z0-9_+-]{1,80}")


class Save(NamedTuple):
    """A saved game: ``data`` (``Game.to_json()``), ``about`` (what its lister may see) and
    ``keys`` (the server's own: who may list it, who may go on with it and the digests of the
    seats' tokens: a save file gives nobody a seat's link)."""

    data: dict[str, Any]
    about: dict[str, Any]
    keys: dict[str, Any]


class Brought(NamedTuple):
    """A save file a person brought, replayed: the offered game it is, and its title."""

    key: GameKey
    game: Game
    title: str


class Saves:
    """Saved games by name, in memory, and in ``folder`` as ``<name>.json`` when given."""

    def __init__(self, folder: Path | None = None):
        self.folder = folder
        self._saves: dict[str, Save] = {}
        if folder is not None:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime):
                if _SAVE_NAME.fullmatch(path.stem):
                    try:
                        data = json.loads(path.read_text(encoding="utf-8"))
                    except (OSError, ValueError):
                        continue
                    if isinstance(data, dict) and all(isinstance(data.get(k), dict) for k in ("save", "about", "keys")):
                        self._saves[path.stem] = Save(data["save"], data["about"], data["keys"])

    def put(self, data: dict[str, Any], about: dict[str, Any], keys: dict[str, Any]) -> str:
        """Keep a save (``Game.to_json()``) with what is public about it and its ``keys``
        (``visitor``, ``client``, ``token``...); returns its name."""
        mine = [name for name, save in self._saves.items() if save.keys.get("client") == keys.get("client")]
        if len(mine) >= MAX_SAVES_PER_CLIENT:
            self._forget(mine[0])
        if len(self._saves) >= MAX_SAVES:
            self._forget(next(iter(self._saves)))
        name = re.sub(r"[^a-z0-9_+-]", "_", f"{about['game']}-{secrets.token_hex(6)}".lower())
        about = {**about, "name": name}
        self._saves[name] = Save(data, about, keys)
        if self.folder is not None:  # readable by the server's user only: it holds every hand
            text = json.dumps({"save": data, "about": about, "keys": keys})
            with os.fdopen(
                os.open(self.folder / f"{name}.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w"
            ) as f:
                f.write(text)
        return name

    def get(self, name: str) -> Save:
        """The save of this name."""
        if name not in self._saves:
            raise NotFound(f"no saved game {name!r}")
        return self._saves[name]

    def every(self) -> list[dict[str, Any]]:
        """What is public about every save, newest first: for the server's operator and tests,
        never for a page (``list`` gives a visitor's own)."""
        return [save.about for save in reversed(self._saves.values())]

    def list(self, visitor: str) -> list[dict[str, Any]]:
        """What is public about each save ``visitor`` (a hashed visitor cookie) made, newest
        first: ``name``, ``game``, ``variants``, ``title``, ``players``, ``actions``, ``over``,
        ``seat`` (the player who saved it; None for a save file brought in)."""
        if not visitor:
            return []
        return [save.about for save in reversed(self._saves.values()) if save.keys.get("visitor") == visitor]

    def _forget(self, name: str) -> None:
        del self._saves[name]
        if self.folder is not None:
            (self.folder / f"{name}.json").unlink(missing_ok=True)


class Lobby:
    """A server's tables and saves, and the games it offers. ``tables``: where the tables are
    kept (a :class:`~venedig_rules.web.store.TableStore` keeps them in a database; default: in
    memory)."""

    def __init__(
        self,
        catalog: Catalog,
        saves: Saves | None = None,
        max_tables: int = MAX_TABLES,
        tables: MutableMapping[str, Table] | None = None,
    ):
        self.catalog = catalog
        self.saves = saves if saves is not None else Saves()
        self.max_tables = max_tables
        self.tables: MutableMapping[str, Table] = tables if tables is not None else {}

    def prepare(self, request: Mapping[str, Any]) -> None:
        """Load the rules a request for a new table needs (what takes long, so a server does it
        in a worker thread); refusals as ``create`` gives them."""
        if "save" in request:
            about = self._saved_for(request).about
            self.catalog.rules(about["game"], about["variants"])
        elif isinstance(request.get("game"), str):
            self.catalog.rules(request["game"], wanted_variants(request.get("variants")))

    def create(self, request: Mapping[str, Any], owner: str = "", client: str = "") -> Table:
        """A new table from a lobby request: ``game``, ``variants``, ``players``, ``seats``
        (``human``/``bot``/a bot's name per seat), ``names`` and ``seed`` (a public seed; none:
        a secret one); or ``save`` (a save's name) with ``seat`` (the token of the seat that
        saved it) to go on with a saved game (``seats`` and ``names`` only for the table's
        owner). ``owner``: the hashed visitor cookie of whoever asks; ``client``: their address."""
        if "save" in request:
            return self._resume(request, owner, client)
        seats = _strings(request.get("seats"), "seats")
        if len(seats) > MAX_SEATS:
            raise BadRequest(f"at most {MAX_SEATS} seats")
        names = _strings(request["names"], "names") if request.get("names") else None
        game_key, players = request.get("game"), request.get("players")
        variants = wanted_variants(request.get("variants"))
        if not isinstance(game_key, str) or not isinstance(players, int) or isinstance(players, bool):
            raise BadRequest("a table needs game (its id) and players (a number)")
        seed = public_seed(request.get("seed"))
        people = tuple(p for p, kind in enumerate(seats) if kind.strip().lower() == HUMAN)
        provenance = Provenance(owner=owner, client=client, given=people, public_seed=seed)
        table = Table.new(self.catalog, game_key, variants, players, seats, seed, names, provenance=provenance)
        return self._add(table)

    def open_tables(self, client: str) -> int:
        """How many unfinished tables ``client`` made that are still open."""
        return sum(1 for table in self.tables.values() if table.provenance.client == client and not table.game.is_over)

    def table(self, ident: str) -> Table:
        """The table with this id."""
        try:
            return self.tables[ident]
        except KeyError:
            raise NotFound("no such table (it may have ended when the server restarted)") from None

    def save(self, table: Table, token: str | None, visitor: str = "", client: str = "") -> str:
        """Save a table's game at the seat of ``token``'s request; returns the save's name. It is
        listed to ``visitor`` (the hashed visitor cookie) and goes on only with ``token``."""
        player = table.seat_for(token)
        if player is None:
            raise BadRequest("a spectator cannot save; open a seat's page")
        keys = {
            "visitor": visitor,
            "client": client,
            "token": table.seats[player].digest,
            "player": player,
            "tokens": [None if seat.bot is not None else seat.digest for seat in table.seats],
            "kinds": [seat.kind for seat in table.seats],
            "names": table.names,
            "owner": table.provenance.owner,
            "line": table.provenance.line,
            "table": table.ident,
            "public_seed": table.provenance.public_seed,
            "whole": False,
        }
        about = _about(table.key, table.game, table.rules.title, player)
        return self.saves.put(table.game.to_json(), about, keys)

    def read_upload(self, data: Any) -> Brought:
        """A save file a person brings (from ``venedig-rules play``'s ``s FILE``), replayed: it
        must be a game of an offered ruleset that replays to the state it claims."""
        if not isinstance(data, dict):
            raise BadRequest("a saved game is a JSON object")
        key = self.catalog.find(str(data.get("rules_hash")), str(data.get("ruleset")))
        if key is None:
            raise BadRequest(f"the save's rules ({data.get('ruleset')!r}) are none of the games offered here")
        rules = self.catalog.rules(key.game, key.variants)
        try:
            game = Game.from_json(rules, data)
        except SaveFileError as exc:
            raise BadRequest(str(exc)) from None
        return Brought(key, game, rules.title)

    def upload(self, brought: Brought | Any, visitor: str = "", client: str = "") -> tuple[str, str]:
        """Keep a save file a person brings (``read_upload``'s, or the file's JSON). Returns its
        name and the token that goes on with it: whoever brings the file knows the whole game,
        so going on gives them every seat's link."""
        if not isinstance(brought, Brought):
            brought = self.read_upload(brought)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        keys = {"visitor": visitor, "client": client, "token": token_digest(token), "player": None, "whole": True}
        keys["line"] = secrets.token_urlsafe(12)
        about = _about(brought.key, brought.game, brought.title, None)
        return self.saves.put(brought.game.to_json(), about, keys), token

    def _saved_for(self, request: Mapping[str, Any]) -> Save:
        """The save a request names, if it gives the token that goes on with it."""
        save = self.saves.get(str(request["save"]))
        token = request.get("seat")
        if not isinstance(token, str) or not secrets.compare_digest(token_digest(token), str(save.keys["token"])):
            raise Forbidden("only the seat that saved this game can go on with it: send its token as seat")
        return save

    def _resume(self, request: Mapping[str, Any], owner: str, client: str) -> Table:
        data, about, keys = self._saved_for(request)
        line = str(keys.get("line"))
        if any(t.provenance.line == line and not t.game.is_over for t in self.tables.values()):
            raise Conflict("this game is still being played at a table; a save goes on once no copy is")
        rules = self.catalog.rules(about["game"], about["variants"])
        try:
            game = Game.from_json(rules, data)
        except SaveFileError as exc:
            raise BadRequest(str(exc)) from None
        whole = bool(keys.get("whole")) or bool(owner and keys.get("owner") == owner)
        kinds, names, digests = _resumed_seats(request, keys, whole, game.players)
        if len(kinds) > MAX_SEATS:
            raise BadRequest(f"at most {MAX_SEATS} seats")
        seed = keys.get("public_seed")
        people = tuple(p for p, kind in enumerate(kinds) if kind.strip().lower() == HUMAN)
        given = people if whole else (int(keys["player"]),)
        # the owner stays: it made the table, so it holds every token the copy keeps
        owner = owner if whole else str(keys.get("owner") or "")
        provenance = Provenance(owner=owner, client=client, line=line, given=given, public_seed=seed)
        # back at its old address when that is free, so the seats' old links work again
        ident = keys.get("table") if keys.get("table") not in self.tables else None
        table = Table.new(
            self.catalog,
            about["game"],
            about["variants"],
            game.players,
            kinds,
            seed,
            names,
            game,
            digests,
            provenance,
            ident,
        )
        if not whole:  # the tables keep digests only: the seat going on sent its token, its link is its own
            table.seats[int(keys["player"])].token = str(request["seat"])
        return self._add(table)

    def _add(self, table: Table) -> Table:
        while len(self.tables) >= self.max_tables:
            free = [t for t in self.tables.values() if t.game.is_over or not t.has_people]
            if not free:
                raise Full(
                    f"the server is full: {len(self.tables)} games that people are playing; try again when one ends"
                )
            oldest = min(free, key=lambda t: (not t.game.is_over, t.created))
            del self.tables[oldest.ident]
        self.tables[table.ident] = table
        return table


def public_seed(value: Any) -> int | None:
    """A request's public seed (None: none chosen, so the table draws a secret one)."""
    if value is None or value == "":
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_PUBLIC_SEED:
        raise BadRequest(f"a public seed is a whole number from 0 to {MAX_PUBLIC_SEED} (or none, for a secret deal)")
    return value


def _about(key: GameKey, game: Game, title: str, player: int | None) -> dict[str, Any]:
    """What the visitor who saved a game sees of it in the lobby's list."""
    return {
        "game": key.game,
        "variants": list(key.variants),
        "title": title,
        "players": game.players,
        "actions": len(game.actions),
        "over": game.is_over,
        "seat": player,
    }


def _strings(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRequest(f"{what} must be a list of texts")
    return value


def _resumed_seats(
    request: Mapping[str, Any], keys: Mapping[str, Any], whole: bool, players: int
) -> tuple[list[str], Any, list[str | None] | None]:
    """Who plays each seat of a resumed save, their names, and the token digests the copy keeps.

    The owner, who had every seat's link, gets new links for every seat and seats as asked
    (no digests kept); a seat going on keeps the others' tokens, which it never learns, and
    may not change who plays them."""
    kinds: list[str] = keys.get("kinds") or [HUMAN] * players
    seats, names = request.get("seats"), request.get("names") or None
    if whole:
        kinds = _strings(seats, "seats") if seats is not None else kinds
        names = _strings(names, "names") if names is not None else keys.get("names")
        return kinds, names, None
    if (seats is not None and [seat_kind(k) for k in _strings(seats, "seats")[:MAX_SEATS]] != kinds) or (
        names is not None and names != keys.get("names")
    ):
        raise BadRequest(
            f"a saved game goes on with its seats as they were ({', '.join(kinds)}); "
            "only the table's owner can change them"
        )
    return kinds, keys.get("names"), keys.get("tokens")
