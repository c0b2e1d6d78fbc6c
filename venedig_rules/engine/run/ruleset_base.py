"""A loaded, checked ruleset's data and compiled effects, and the queries the engine and the
game modules ask of it (items, params, constants, spaces, state declarations, winners).

>>> import venedig_rules as vr
>>> rules = vr.load("rialto")
>>> rules.item_param("green_1", "value"), rules.constant("rounds") > 0
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from ...data.board import Board, grid_spaces
from ...data.yamlsource import PositionMap
from ...effects import Compiled, Generated
from ...effects.compile import freeze as _freeze
from ...errors import RuleRuntimeError, VenedigError, did_you_mean

#: ``item_param`` without a default: the declared one.
_DECLARED = object()


@dataclass(frozen=True)
class RulesetBase:
    """A loaded, checked ruleset without its play entry points (those are on
    :class:`~venedig_rules.engine.ruleset.Ruleset`): what the engine asks. Treat ``data``
    as read-only.

    ``data`` maps each file kind (``game``, ``cards``, ...) to its merged content;
    ``rules_hash`` is the sha256 of that data in canonical JSON, so it changes whenever
    any datum changes, and replays and save files record it.
    """

    id: str
    title: str
    players: range
    data: dict[str, Any]
    rules_hash: str
    variants: tuple[str, ...] = ()
    path: Path | None = None
    positions: PositionMap = field(default_factory=PositionMap, repr=False, compare=False)
    compiled: Compiled | None = field(default=None, repr=False, compare=False)

    @property
    def max_actions(self) -> int:
        """The declared bound on a game's length in actions (flow.max_actions)."""
        return int(((self.data["game"].get("flow") or {}).get("max_actions")) or 0)

    @property
    def playable(self) -> bool:
        """Whether the ruleset has a flow the engine can run (else it is data only)."""
        return self.compiled is not None

    @cached_property
    def compiled_flow(self) -> Compiled:
        """``compiled`` of a playable ruleset, which the engine runs; a VenedigError for a
        ruleset that is data only."""
        if self.compiled is None:
            raise VenedigError(f"ruleset {self.name!r} is data only: it has no flow to run")
        return self.compiled

    @cached_property
    def generated(self) -> Generated:
        """The flow's programs compiled to Python functions (on first use; shared by every
        load of the same rules, by ``rules_hash``)."""
        return self.compiled_flow.generated(self.rules_hash)

    def derived(self, key: str, build: Callable[[RulesetBase], Any]) -> Any:
        """A value computed once per ruleset from its data, e.g. a game module's lookup
        tables: ``rules.derived("venedig", _Facts)``. Kept as long as the ruleset lives."""
        cache = self._derived
        try:  # one look-up where the value is known (every call but the first)
            return cache[key]
        except KeyError:
            value = cache[key] = build(self)
            return value

    @cached_property
    def _derived(self) -> dict[str, Any]:
        return {}

    @cached_property
    def param_values(self) -> dict[tuple[Any, ...], Any]:
        """The machine's item params as the DSL reads them (frozen), by (item, param,
        default): asked at every step, each looked up and frozen once per ruleset."""
        return {}

    # -- what the engine asks ------------------------------------------------------------------
    @cached_property
    def board(self) -> Board:
        """The board graph (see :mod:`venedig_rules.data.board`)."""
        return Board.from_ruleset(self)

    @cached_property
    def space_ids(self) -> tuple[str, ...]:
        """Every board space id, row by row: the order of per-space state values."""
        return tuple(grid_spaces(self.data.get("board") or {}))

    @cached_property
    def space_indexes(self) -> dict[str, int]:
        """Each board space's place in a per-space value, by its id (``space_ids`` in order)."""
        return {s: i for i, s in enumerate(self.space_ids)}

    def space_index(self, space: Any) -> int:
        """A board space's place in a per-space value; a RuleRuntimeError for what is no space."""
        try:
            return self.space_indexes[space]
        except (KeyError, TypeError):
            raise RuleRuntimeError(
                f"{space!r} is not a board space{did_you_mean(str(space), self.space_ids)}"
            ) from None

    @cached_property
    def _state_decls(self) -> dict[str, dict[str, Any]]:
        decls = {
            t["id"]: {"per": "player", "type": "int", "start": t.get("start", t.get("min", 0)), "visible": "all"}
            for t in self.items("scoring", "tracks")
        }
        decls.update(self.data["game"].get("state") or {})
        return decls

    def state_starts(self) -> dict[str, tuple[str | None, Any]]:
        """Each state variable's (per, start value)."""
        return {name: (d.get("per"), d.get("start")) for name, d in self._state_decls.items()}

    def state_visibility(self, name: str) -> str:
        """Who sees state variable ``name``: ``all``, ``owner`` (its player) or ``hidden``."""
        visibility: str = self._state_decls[name].get("visible", "all")
        return visibility

    @property
    def winner_track(self) -> str | None:
        """The score track that decides the winner."""
        return ((self.data.get("scoring") or {}).get("winner") or {}).get("most")

    def rank_winners(self, values: dict[str, Any], players: int) -> tuple[int, ...]:
        """The winners by the winner track, then the tie breakers; shared ties stay shared.
        Without a winner track only ``win(p)`` names winners, so this gives none."""
        winner = (self.data.get("scoring") or {}).get("winner") or {}
        if "most" not in winner:
            return ()
        keys = [winner["most"], *winner.get("tie_breakers", [])]
        best = max(tuple(values[k][p] for k in keys) for p in range(players))
        tied = tuple(p for p in range(players) if tuple(values[k][p] for k in keys) == best)
        if len(tied) > 1 and winner.get("ties") == "broken":
            return tied[:1]
        return tied

    #: Each kind of item by its DSL name -> (the rule file, its list of those items).
    ITEM_KINDS: ClassVar[dict[str, tuple[str, str]]] = {
        "cards": ("cards", "cards"),
        "card_types": ("cards", "types"),
        "types": ("cards", "types"),
        "tiles": ("tiles", "tiles"),
        "shapes": ("tiles", "shapes"),
        "buildings": ("buildings", "buildings"),
        "components": ("components", "components"),
        "regions": ("board", "regions"),
        "connections": ("board", "connections"),
        "tracks": ("board", "tracks"),
    }

    def items_of(self, kind: str) -> list[dict[str, Any]]:
        """The items of a kind by its DSL name (cards, card_types, tiles, buildings, ...)."""
        if kind not in self.ITEM_KINDS:
            raise RuleRuntimeError(f"unknown item kind {kind!r}{did_you_mean(kind, self.ITEM_KINDS)}")
        return self.items(*self.ITEM_KINDS[kind])

    def copies(self, kind: str, players: int) -> tuple[str, ...]:
        """Item ids repeated by count; items marked for more players than play left out."""
        # every new game deals its decks from these: made once per kind and player count
        made: tuple[str, ...] = self.derived(f"copies {kind} {players}", lambda r: r._made_copies(kind, players))
        return made

    def _made_copies(self, kind: str, players: int) -> tuple[str, ...]:
        return tuple(
            item["id"]
            for item in self.items_of(kind)
            if item.get("min_players", 0) <= players
            for _ in range(item.get("count", 1))
        )

    @cached_property
    def items_by_id(self) -> dict[str, dict[str, Any]]:
        """Every item of the rule files by id (cards, card types, tiles, buildings,
        components, regions, connections; the first of an id wins), read-only: what
        :meth:`item` looks up.

        >>> import venedig_rules as vr
        >>> rules = vr.load("venedig")
        >>> rules.items_by_id["casa"] is rules.item("casa"), "no such item" in rules.items_by_id
        (True, False)
        """
        out: dict[str, dict[str, Any]] = {}
        for kind in ("cards", "card_types", "tiles", "buildings", "components", "regions", "connections"):
            for item in self.items_of(kind):
                out.setdefault(item["id"], item)
        return out

    def item(self, ident: str) -> dict[str, Any]:
        try:
            return self.items_by_id[ident]
        except (KeyError, TypeError):
            raise RuleRuntimeError(f"no item {ident!r}{did_you_mean(str(ident), self.items_by_id)}") from None

    def item_param(self, ident: str, name: str, default: Any = _DECLARED) -> Any:
        """A param of an item: its own, else its type's (a card's card type), else
        ``default``; without ``default``, the default ``game.yaml`` ``parameters``
        declares for the param (None when it declares none).

        >>> import venedig_rules as vr
        >>> rules = vr.load("rialto")
        >>> rules.item_param("green_1", "value"), rules.item_param("green_1", "coins")  # coins: declared default
        (1, 0)
        >>> rules.item_param("green_1", "coins", None)

        """
        item = self.item(ident)
        params = item.get("params") or {}
        if name in params:
            return params[name]
        type_id = item.get("type")
        if type_id and name in (self.items_by_id.get(type_id, {}).get("params") or {}):
            return self.items_by_id[type_id]["params"][name]
        return self._param_default(name) if default is _DECLARED else default

    @cached_property
    def indexed_vars(self) -> frozenset[str]:
        """State variables with one value per player or per space."""
        return frozenset(n for n, info in self.compiled_flow.state.items() if info.per)

    def per_player(self, name: str) -> bool:
        """Whether state variable ``name`` holds one value per player."""
        return name in self.player_vars

    @cached_property
    def player_vars(self) -> frozenset[str]:
        """State variables with one value per player."""
        return frozenset(n for n, info in self.compiled_flow.state.items() if info.per == "player")

    def item_call(self, ident: str, field_name: str) -> tuple[str, Mapping[str, Any]]:
        """(code id, bound names) to run an item's DSL field; a card without the field runs
        its card type's, with the card's own params bound. The names are the ruleset's, the
        same for every call: a caller binds more in a copy."""
        key = (ident, field_name)
        found = self._item_calls.get(key)
        if found is None:
            found = self._item_calls[key] = self._item_call(ident, field_name)
        return found

    @cached_property
    def _item_calls(self) -> dict[tuple[str, str], tuple[str, dict[str, Any]]]:
        return {}

    def _item_call(self, ident: str, field_name: str) -> tuple[str, dict[str, Any]]:
        item = self.item(ident)
        compiled = self.compiled_flow
        code = compiled.item_code.get((ident, field_name))
        if code is None and item.get("type"):
            code = compiled.item_code.get((item["type"], field_name))
        if code is None:
            raise RuleRuntimeError(f"{ident!r} has no {field_name!r} to run")
        names = {p: _freeze(self.item_param(ident, p)) for p in compiled.item_params.get(code, ())}
        names["item"] = ident
        singular = compiled.code_item_name.get(code)
        if singular:
            names[singular] = ident
        return code, names

    def _param_default(self, name: str) -> Any:
        for decls in (self.data["game"].get("parameters") or {}).values():
            if name in decls:
                return decls[name].get("default")
        return None

    @property
    def name(self) -> str:
        """The ruleset id with its variants: ``venedig+no_imaginary_player``."""
        return "+".join((self.id, *self.variants))

    def items(self, kind: str, key: str | None = None) -> list[dict[str, Any]]:
        """The items of one list, e.g. ``items("cards")`` or ``items("cards", "types")``.

        >>> import venedig_rules as vr
        >>> sum(card["count"] for card in vr.load("venedig").items("cards"))
        42
        """
        content = self.data.get(kind) or {}
        return list(content.get(key or kind) or [])

    def constant(self, name: str, players: int | None = None) -> Any:
        """A game constant from ``game.yaml``, by player count where it has a table.

        >>> import venedig_rules as vr
        >>> vr.load("venedig").constant("hand_limit")
        5
        """
        constants = self.data["game"].get("constants") or {}
        if name not in constants:
            raise KeyError(f"ruleset {self.name!r} has no constant {name!r}{did_you_mean(name, constants)}")
        value = constants[name]
        if isinstance(value, dict):
            if "by_players" in value:
                if players is None:
                    raise ValueError(f"constant {name!r} depends on the player count; pass players=")
                return value["by_players"][str(players)]
            return value.get("value")
        return value
