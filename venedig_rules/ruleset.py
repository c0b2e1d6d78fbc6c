"""Loading a ruleset: read every rule file with positions, apply variants, check it all.

>>> import venedig_rules as vr
>>> rules = vr.load("venedig")
>>> rules.id, rules.players
('venedig', range(2, 6))
>>> len(rules.rules_hash)
64
>>> vr.load("venedig", variants=["two_player"]).rules_hash != rules.rules_hash
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from . import checks, schema
from .errors import (InvalidRulesError, Location, RuleFileError, RulesError, UnknownRulesetError,
                     VariantError, YamlError, did_you_mean)
from .resources import display_path, rules_root
from .effects import compile_ruleset
from .effects.compile import freeze as _freeze
from .variants import Merged, merge
from .yamlsource import PositionMap, load as load_yaml

if TYPE_CHECKING:
    from .board import Board
    from .effects import Compiled
    from .engine import Game
    from .notation import Action

#: The rule file kinds of a ruleset folder, in reading order.
FILE_KINDS = ("game", "board", "components", "cards", "tiles", "buildings", "scoring", "invariants")
#: Files a ruleset cannot do without.
REQUIRED = ("game", "components")
#: The folder of a ruleset's bundled variants.
VARIANTS_DIR = "variants"
#: The file naming a variant folder's base and identity.
VARIANT_FILE = "variant.yaml"

#: ``item_param`` without a default: the declared one.
_DECLARED = object()


@dataclass(frozen=True)
class Ruleset:
    """A loaded, checked ruleset. Treat ``data`` as read-only.

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
    compiled: "Compiled | None" = field(default=None, repr=False, compare=False)

    @property
    def max_actions(self) -> int:
        """The declared bound on a game's length in actions (flow.max_actions)."""
        return int(((self.data["game"].get("flow") or {}).get("max_actions")) or 0)

    @property
    def playable(self) -> bool:
        """Whether the ruleset has a flow the engine can run (else it is data only)."""
        return self.compiled is not None

    # -- playing ---------------------------------------------------------------------------
    def new_game(self, players: int, seed: int = 0) -> "Game":
        """A new game for ``players`` players; ``seed`` fixes every random event.

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=3, seed=1)
        >>> game.players, game.is_over
        (3, False)
        """
        from .engine import Game

        return Game(self, players, seed)

    def replay(self, players: int, seed: int, actions: Iterable["Action | str"]) -> "Game":
        """The game reached by applying ``actions`` to a new game with that seed."""
        game = self.new_game(players, seed)
        for action in actions:
            game.apply(action)
        return game

    def game_from_json(self, data: Any) -> "Game":
        """A game saved with ``game.to_json()``; refuses corrupt data, or data played with
        another ``rules_hash``, with a reason (:class:`~venedig_rules.engine.SaveFileError`)."""
        from .engine import Game

        return Game.from_json(self, data)

    @staticmethod
    def parse_action(text: str) -> "Action":
        """The Action a text like ``"p1 drain(c4)"`` names."""
        from .notation import parse_action

        return parse_action(text)

    def derived(self, key: str, build: "Callable[[Ruleset], Any]") -> Any:
        """A value computed once per ruleset from its data, e.g. a game module's lookup
        tables: ``rules.derived("venedig", _Facts)``. Kept as long as the ruleset lives."""
        cache = self._derived
        if key not in cache:
            cache[key] = build(self)
        return cache[key]

    @cached_property
    def _derived(self) -> dict[str, Any]:
        return {}

    # -- what the engine asks ------------------------------------------------------------------
    @cached_property
    def board(self) -> "Board":
        """The board graph (see :mod:`venedig_rules.board`)."""
        from .board import Board

        return Board.from_ruleset(self)

    @cached_property
    def space_ids(self) -> tuple[str, ...]:
        """Every board space id, row by row: the order of per-space state values."""
        from .board import grid_spaces

        return tuple(grid_spaces(self.data.get("board") or {}))

    @cached_property
    def _space_index(self) -> dict[str, int]:
        return {s: i for i, s in enumerate(self.space_ids)}

    def space_index(self, space: Any) -> int:
        try:
            return self._space_index[space]
        except (KeyError, TypeError):
            from .errors import RuleRuntimeError

            raise RuleRuntimeError(f"{space!r} is not a board space{did_you_mean(str(space), self.space_ids)}") from None

    @cached_property
    def _state_decls(self) -> dict[str, dict]:
        decls = {t["id"]: {"per": "player", "type": "int", "start": t.get("start", t.get("min", 0)), "visible": "all"}
                 for t in self.items("scoring", "tracks")}
        decls.update(self.data["game"].get("state") or {})
        return decls

    def state_starts(self) -> dict[str, tuple[str | None, Any]]:
        """Each state variable's (per, start value)."""
        return {name: (d.get("per"), d.get("start")) for name, d in self._state_decls.items()}

    def state_visibility(self, name: str) -> str:
        return self._state_decls[name].get("visible", "all")

    @property
    def winner_track(self) -> str | None:
        """The score track that decides the winner."""
        return ((self.data.get("scoring") or {}).get("winner") or {}).get("most")

    def rank_winners(self, values: dict, players: int) -> tuple[int, ...]:
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

    _KINDS = {"cards": ("cards", "cards"), "card_types": ("cards", "types"), "types": ("cards", "types"),
              "tiles": ("tiles", "tiles"), "shapes": ("tiles", "shapes"), "buildings": ("buildings", "buildings"),
              "components": ("components", "components"), "regions": ("board", "regions"),
              "connections": ("board", "connections"), "tracks": ("board", "tracks")}

    def items_of(self, kind: str) -> list[dict[str, Any]]:
        """The items of a kind by its DSL name (cards, card_types, tiles, buildings, ...)."""
        if kind not in self._KINDS:
            from .errors import RuleRuntimeError

            raise RuleRuntimeError(f"unknown item kind {kind!r}{did_you_mean(kind, self._KINDS)}")
        return self.items(*self._KINDS[kind])

    def copies(self, kind: str, players: int) -> tuple[str, ...]:
        """Item ids repeated by count; items marked for more players than play left out."""
        return tuple(item["id"] for item in self.items_of(kind) if item.get("min_players", 0) <= players
                     for _ in range(item.get("count", 1)))

    @cached_property
    def _items_by_id(self) -> dict[str, dict]:
        out: dict[str, dict] = {}
        for kind in ("cards", "card_types", "tiles", "buildings", "components", "regions", "connections"):
            for item in self.items_of(kind):
                out.setdefault(item["id"], item)
        return out

    def item(self, ident: str) -> dict[str, Any]:
        try:
            return self._items_by_id[ident]
        except (KeyError, TypeError):
            from .errors import RuleRuntimeError

            raise RuleRuntimeError(f"no item {ident!r}{did_you_mean(str(ident), self._items_by_id)}") from None

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
        if type_id and name in (self._items_by_id.get(type_id, {}).get("params") or {}):
            return self._items_by_id[type_id]["params"][name]
        return self._param_default(name) if default is _DECLARED else default

    @cached_property
    def indexed_vars(self) -> frozenset[str]:
        """State variables with one value per player or per space."""
        return frozenset(n for n, info in self.compiled.state.items() if info.per)

    def per_player(self, name: str) -> bool:
        """Whether state variable ``name`` holds one value per player."""
        return name in self.player_vars

    @cached_property
    def player_vars(self) -> frozenset[str]:
        """State variables with one value per player."""
        return frozenset(n for n, info in self.compiled.state.items() if info.per == "player")

    def item_call(self, ident: str, field_name: str) -> tuple[str, dict]:
        """(code id, bound names) to run an item's DSL field; a card without the field runs
        its card type's, with the card's own params bound. The names are a fresh dict."""
        key = (ident, field_name)
        if key not in self._item_calls:
            self._item_calls[key] = self._item_call(ident, field_name)
        code, names = self._item_calls[key]
        return code, dict(names)

    @cached_property
    def _item_calls(self) -> dict:
        return {}

    def _item_call(self, ident: str, field_name: str) -> tuple[str, dict]:
        item = self.item(ident)
        code = self.compiled.item_code.get((ident, field_name))
        if code is None and item.get("type"):
            code = self.compiled.item_code.get((item["type"], field_name))
        if code is None:
            from .errors import RuleRuntimeError

            raise RuleRuntimeError(f"{ident!r} has no {field_name!r} to run")
        names = {p: _freeze(self.item_param(ident, p)) for p in self.compiled.item_params.get(code, ())}
        names["item"] = ident
        singular = self.compiled.code_item_name.get(code)
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
        """The ruleset id with its variants: ``venedig+two_player``."""
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


def bundled() -> list[str]:
    """The ids of the bundled rulesets.

    >>> bundled()
    ['rialto', 'saeulen', 'venedig']
    """
    return sorted(p.name for p in rules_root().iterdir() if (p / "game.yaml").is_file())


def bundled_variants(ruleset_id: str) -> list[str]:
    """The names of a bundled ruleset's variants.

    >>> bundled_variants("venedig")
    ['short_rules_end', 'two_player']
    """
    folder = rules_root() / ruleset_id / VARIANTS_DIR
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def load(name: str | Path, variants: Iterable[str | Path] = (), *,
         dsl_checker: checks.DslChecker | None = None) -> Ruleset:
    """Load and check a ruleset: a bundled id, a ruleset folder, or a variant file or folder.

    ``variants`` are applied in order: names of the base's bundled variants or paths.
    Raises :class:`~venedig_rules.errors.InvalidRulesError` listing every problem, or
    :class:`~venedig_rules.errors.UnknownRulesetError` when ``name`` names nothing.
    """
    raw = _read(name)
    for variant in variants:
        raw = _apply_variant(raw, _resolve_variant(variant, raw.base_id))
    return raw.finish(dsl_checker)


def validate(name: str | Path, variants: Iterable[str | Path] = (), *,
             dsl_checker: checks.DslChecker | None = None) -> list[RulesError]:
    """Every problem of a ruleset or variant, sorted; ``[]`` when it loads cleanly."""
    try:
        load(name, variants, dsl_checker=dsl_checker)
    except InvalidRulesError as exc:
        return exc.errors
    return []


# -- reading ---------------------------------------------------------------------------------
@dataclass
class _Raw:
    """Rule data on its way to a Ruleset: merged but not yet checked."""

    data: dict[str, Any]
    positions: PositionMap
    errors: list[RulesError]
    base_id: str
    variants: tuple[str, ...]
    path: Path

    def finish(self, dsl_checker: checks.DslChecker | None) -> Ruleset:
        errors = list(self.errors)
        for kind, content in self.data.items():
            errors += schema.validate(kind, content, self.positions, at=f"/{kind}")
        errors += checks.check(self.data, self.positions, dsl_checker)
        compiled, dsl_errors = compile_ruleset(self.data, self.positions, syntax_only=bool(errors))
        errors += dsl_errors
        if errors:
            raise InvalidRulesError(errors)
        game = self.data["game"]
        players = range(game["players"]["min"], game["players"]["max"] + 1)
        return Ruleset(id=game["id"], title=game["title"], players=players, data=self.data,
                       rules_hash=rules_hash(self.data), variants=self.variants, path=self.path,
                       positions=self.positions, compiled=compiled)


def rules_hash(data: dict[str, Any]) -> str:
    """sha256 of ``data`` as canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read(name: str | Path, chain: tuple[Path, ...] = ()) -> _Raw:
    path = _resolve(name)
    if path.is_dir() and not (path / VARIANT_FILE).is_file():
        if any((path / f"{kind}.yaml").is_file() for kind in FILE_KINDS):
            return _read_folder(path)
        raise UnknownRulesetError(f"{display_path(path)!r} is neither a ruleset folder (with rule files) "
                                  f"nor a variant folder (with {VARIANT_FILE})")
    variant = _read_variant(path)
    if path.resolve() in chain:
        raise UnknownRulesetError(f"variant {display_path(path)!r} extends itself through {len(chain)} step(s)")
    if variant.base is None:
        return _Raw({}, variant.positions, variant.errors, "", (), path)
    base = _read(variant.base, chain + (path.resolve(),))
    return _apply_variant(base, variant)


def _resolve(name: str | Path, relative_to: Path | None = None) -> Path:
    """A bundled id (a plain string naming a bundled ruleset) wins over a same-named folder
    in the working directory; write ``./venedig`` for the folder."""
    if isinstance(name, str) and "/" not in name and (rules_root() / name / "game.yaml").is_file():
        return rules_root() / name
    candidate = Path(name)
    if relative_to is not None and not candidate.is_absolute():
        if (relative_to / candidate).exists():
            return relative_to / candidate
    if candidate.exists():
        return candidate
    raise UnknownRulesetError(f"no bundled ruleset or path {str(name)!r}{did_you_mean(str(name), bundled())}"
                              f"; bundled: {', '.join(bundled())}")


def _read_folder(folder: Path) -> _Raw:
    data: dict[str, Any] = {}
    positions = PositionMap()
    errors: list[RulesError] = []
    files = sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml"))
    for path in files:
        shown = display_path(path)
        if path.stem not in FILE_KINDS or path.suffix != ".yaml":
            errors.append(RuleFileError(f"{path.name!r} is not a rule file kind{did_you_mean(path.stem, FILE_KINDS)}"
                                        f"; expected one of {', '.join(k + '.yaml' for k in FILE_KINDS)}",
                                        Location(shown)))
            continue
        source = _load_file(path, errors)
        if source is None:
            continue
        if not isinstance(source.data, dict):
            errors.append(RuleFileError(f"{path.name} should hold a mapping at the top, not "
                                        f"{type(source.data).__name__}", source.positions.at("")))
            continue
        data[path.stem] = source.data
        source.positions.copy_subtree("", source.data, f"/{path.stem}", positions)
    for kind in REQUIRED:
        if kind not in data and not any(p.stem == kind for p in files):
            errors.append(RuleFileError(f"the ruleset has no {kind}.yaml; expected one in every ruleset",
                                        Location(display_path(folder / f"{kind}.yaml"))))
    base_id = data.get("game", {}).get("id", folder.name) if isinstance(data.get("game"), dict) else folder.name
    return _Raw(data, positions, errors, str(base_id), (), folder)


def _load_file(path: Path, errors: list[RulesError]):
    try:
        return load_yaml(path, display_path(path), errors)
    except YamlError as exc:
        errors.append(exc)
    except (OSError, UnicodeDecodeError) as exc:
        errors.append(RuleFileError(f"cannot read the file: {exc}", Location(display_path(path))))
    return None


# -- variants --------------------------------------------------------------------------------
@dataclass
class _Variant:
    id: str
    base: Path | None
    overlays: list[tuple[str, Any, PositionMap, str]]  # kind, patch, positions, pointer of patch
    positions: PositionMap
    errors: list[RulesError]


def _resolve_variant(variant: str | Path, base_id: str) -> _Variant:
    path = Path(variant)
    if not path.exists() and isinstance(variant, str):
        path = rules_root() / base_id / VARIANTS_DIR / f"{variant}.yaml"
        if not path.is_file():
            known = bundled_variants(base_id)
            raise UnknownRulesetError(f"ruleset {base_id!r} has no variant {variant!r}{did_you_mean(variant, known)}"
                                      f"; its variants: {', '.join(known) or 'none'}")
    return _read_variant(path)


def _read_variant(path: Path) -> _Variant:
    errors: list[RulesError] = []
    folder = path.is_dir()
    head_path = path / VARIANT_FILE if folder else path
    head = _load_file(head_path, errors)
    if head is None or not isinstance(head.data, dict):
        if head is not None:
            errors.append(VariantError("a variant file should hold a mapping with 'extends'",
                                       head.positions.at("")))
        return _Variant(path.stem, None, [], PositionMap(), errors)
    errors += schema.validate("variant", head.data, head.positions)
    overlays = []
    for kind, patch in (head.data.get("overlay") or {}).items():
        if kind in FILE_KINDS and isinstance(patch, dict):
            overlays.append((kind, patch, head.positions, f"/overlay/{kind}"))
    if folder:
        for file in sorted(path.glob("*.yaml")):
            if file.name == VARIANT_FILE:
                continue
            if file.stem not in FILE_KINDS:
                errors.append(RuleFileError(f"{file.name!r} is not a rule file kind"
                                            f"{did_you_mean(file.stem, FILE_KINDS)}", Location(display_path(file))))
                continue
            source = _load_file(file, errors)
            if source is not None and isinstance(source.data, dict):
                overlays.append((file.stem, source.data, source.positions, ""))
    ident = head.data.get("id")
    if isinstance(ident, str) and ident != path.stem:
        errors.append(VariantError(f"variant id {ident!r} differs from its {'folder' if folder else 'file'} "
                                   f"name {path.stem!r}; expected them to be the same",
                                   head.positions.at("/id")))
    extends = head.data.get("extends")
    base = None
    if isinstance(extends, str):
        try:
            base = _resolve(extends, relative_to=(path if folder else path.parent))
        except UnknownRulesetError as exc:
            errors.append(VariantError(str(exc), head.positions.at("/extends")))
    return _Variant(str(head.data.get("id", path.stem)), base, overlays, head.positions, errors)


def _apply_variant(base: _Raw, variant: _Variant) -> _Raw:
    result = Merged(None, PositionMap())
    data: dict[str, Any] = {}
    patched = {kind for kind, *_ in variant.overlays}
    for kind, content in base.data.items():
        if kind not in patched:
            base.positions.copy_subtree(f"/{kind}", content, f"/{kind}", result.positions)
            data[kind] = content
    for kind, patch, positions, at in variant.overlays:
        merge(data.get(kind, base.data.get(kind, {})), base.positions, patch, positions,
              base_at=f"/{kind}", overlay_at=at, out_at=f"/{kind}", into=result)
        data[kind] = result.data
    ordered = {kind: data[kind] for kind in FILE_KINDS if kind in data}
    return _Raw(ordered, result.positions, base.errors + variant.errors + list(result.errors),
                base.base_id, base.variants + (variant.id,), base.path)
