"""The server's tables and saved games. A save holds the whole game, secrets included, so it
stays on the server: pages get its name and what is public about it, never its contents.

>>> lobby = Lobby(Catalog())
>>> table = lobby.create({"game": "saeulen", "players": 2, "seats": ["human", "bot"], "seed": 3})
>>> lobby.table(table.ident) is table
True
>>> name = lobby.save(table, table.seats[0].token)
>>> [(s["name"] == name, s["game"], s["players"]) for s in lobby.saves.list()]
[(True, 'saeulen', 2)]
>>> lobby.create({"save": name, "seats": ["human", "human"]}).game.seed
3
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..engine.game import Game, SaveFileError
from .catalog import Catalog
from .refusals import BadRequest, NotFound
from .tables import Table

#: Tables a server keeps at most; a new one pushes out the oldest finished one (or the oldest).
MAX_TABLES = 200
#: Saved games a server keeps at most.
MAX_SAVES = 500
#: The most seats a request may name (no game has more; bounds the work a request causes).
MAX_SEATS = 12
_SAVE_NAME = re.compile(r"[a-z0-9_+-]{1,80}")


class Saves:
    """Saved games by name, in memory, and in ``folder`` as ``<name>.json`` when given."""

    def __init__(self, folder: Path | None = None):
        self.folder = folder
        self._saves: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            for path in sorted(folder.glob("*.json")):
                if _SAVE_NAME.fullmatch(path.stem):
                    try:
                        data = json.loads(path.read_text(encoding="utf-8"))
                    except (OSError, ValueError):
                        continue
                    if isinstance(data, dict) and isinstance(data.get("save"), dict):
                        self._saves[path.stem] = (data["save"], data.get("about", {}))

    def put(self, data: dict[str, Any], about: dict[str, Any]) -> str:
        """Keep a save (``Game.to_json()``) with what is public about it; returns its name."""
        if len(self._saves) >= MAX_SAVES:
            del self._saves[next(iter(self._saves))]
        name = f"{about['game']}-{len(self._saves) + 1}-{secrets.token_hex(4)}".lower()
        name = re.sub(r"[^a-z0-9_+-]", "_", name)
        about = {**about, "name": name}
        self._saves[name] = (data, about)
        if self.folder is not None:
            (self.folder / f"{name}.json").write_text(json.dumps({"save": data, "about": about}), encoding="utf-8")
        return name

    def get(self, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The save and what is public about it."""
        if name not in self._saves:
            raise NotFound(f"no saved game {name!r}")
        return self._saves[name]

    def list(self) -> list[dict[str, Any]]:
        """What is public about each save, newest first: ``name``, ``game``, ``variants``,
        ``players``, ``actions``, ``over``."""
        return [about for _, about in reversed(self._saves.values())]


class Lobby:
    """A server's tables and saves, and the games it offers."""

    def __init__(self, catalog: Catalog, saves: Saves | None = None, max_tables: int = MAX_TABLES):
        self.catalog = catalog
        self.saves = saves if saves is not None else Saves()
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}

    def create(self, request: Mapping[str, Any]) -> Table:
        """A new table from a lobby request: ``game``, ``variants``, ``players``, ``seats``
        (``human``/``bot``/a bot's name per seat), ``seed``, ``names``; or ``save`` (a save's
        name) with ``seats`` and ``names`` to go on with a saved game."""
        seats = _strings(request.get("seats"), "seats")
        names = _strings(request["names"], "names") if request.get("names") else None
        if len(seats) > MAX_SEATS:
            raise BadRequest(f"at most {MAX_SEATS} seats")
        if "save" in request:
            data, about = self.saves.get(str(request["save"]))
            rules = self.catalog.rules(about["game"], about["variants"])
            try:
                game = Game.from_json(rules, data)
            except SaveFileError as exc:
                raise BadRequest(str(exc)) from None
            table = Table.new(
                self.catalog, about["game"], about["variants"], game.players, seats, game.seed, names, saved=game
            )
        else:
            game_key = request.get("game")
            variants = _strings(request.get("variants") or [], "variants")
            players, seed = request.get("players"), request.get("seed")
            if not isinstance(game_key, str) or not isinstance(players, int) or not isinstance(seed, int):
                raise BadRequest("a table needs game (its id), players and seed (numbers)")
            table = Table.new(self.catalog, game_key, variants, players, seats, seed, names)
        self._make_room()
        self.tables[table.ident] = table
        return table

    def table(self, ident: str) -> Table:
        """The table with this id."""
        try:
            return self.tables[ident]
        except KeyError:
            raise NotFound("no such table (it may have ended when the server restarted)") from None

    def save(self, table: Table, token: str | None) -> str:
        """Save a table's game at the seat of ``token``'s request; returns the save's name."""
        if table.seat_for(token) is None:
            raise BadRequest("a spectator cannot save; open a seat's page")
        game = table.game
        about = {
            "game": table.key.game,
            "variants": list(table.key.variants),
            "title": table.rules.title,
            "players": game.players,
            "actions": len(game.actions),
            "over": game.is_over,
        }
        return self.saves.put(game.to_json(), about)

    def upload(self, data: Any) -> str:
        """Keep a save file a person brings (from ``venedig-rules play``'s ``s FILE``); it must be
        a game of an offered ruleset that replays to the state it claims."""
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
        about = {
            "game": key.game,
            "variants": list(key.variants),
            "title": rules.title,
            "players": game.players,
            "actions": len(game.actions),
            "over": game.is_over,
        }
        return self.saves.put(game.to_json(), about)

    def _make_room(self) -> None:
        while len(self.tables) >= self.max_tables:
            finished = [t for t in self.tables.values() if t.game.is_over]
            oldest = min(finished or self.tables.values(), key=lambda t: t.created)
            del self.tables[oldest.ident]


def _strings(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRequest(f"{what} must be a list of texts")
    return value
