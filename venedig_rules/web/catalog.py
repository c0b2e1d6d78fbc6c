"""What a server offers: the bundled rulesets with their variants, and the rulesets or variants
given on its command line (a designer's), each under a short key. A client names a game by its
key and variants by name; it never gives the server a path. A list of variants is bounded and
read without repeats, and the rulesets loaded for lists beyond the single variants are kept in a
bounded cache, so no client can make the server load or keep without end.

>>> catalog = Catalog()
>>> [game["id"] for game in catalog.describe()]
['rialto', 'saeulen', 'venedig']
>>> catalog.rules("venedig", ["short_rules_end"]).name
'venedig+short_rules_end'
>>> catalog.rules("chess", [])
Traceback (most recent call last):
...
venedig_rules.web.refusals.NotFound: no game 'chess' here; games: rialto, saeulen, venedig
>>> wanted_variants(["short_rules_end", "short_rules_end"])
('short_rules_end',)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..data.reading import VARIANTS_DIR, bundled, bundled_variants
from ..data.resources import rules_root
from ..data.texts import languages
from ..data.yamlsource import load as load_yaml
from ..engine.loading import load
from ..engine.ruleset import Ruleset
from ..errors import did_you_mean
from .refusals import BadRequest, NotFound

#: The most variant names a request may give (no game offers more; repeats count).
MAX_VARIANT_NAMES = 16
#: Rulesets kept loaded beyond each game alone and with each single variant (those stay).
MAX_LOADED = 16


def wanted_variants(value: object) -> tuple[str, ...]:
    """A request's list of variant names, bounded and without repeats (in their first order);
    BadRequest for anything else. Cheap: nothing is loaded."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRequest("variants must be a list of texts")
    if len(value) > MAX_VARIANT_NAMES:
        raise BadRequest(f"at most {MAX_VARIANT_NAMES} variant names, not {len(value)}")
    return tuple(dict.fromkeys(value))


class GameKey(NamedTuple):
    """A game as a client names it: the key of an offered ruleset and the variants applied."""

    game: str
    variants: tuple[str, ...]


class Catalog:
    """The games a server offers. ``extra``: rulesets or variants by path (or bundled id with
    variants, as ``load`` takes them), offered under their folder's or file's name."""

    def __init__(self, extra: Iterable[tuple[str | Path, Sequence[str]]] = ()):
        self._sources: dict[str, tuple[str | Path, tuple[str, ...]]] = {ident: (ident, ()) for ident in bundled()}
        self._variants: dict[str, list[str]] = {ident: bundled_variants(ident) for ident in bundled()}
        self._offered: dict[GameKey, Ruleset] = {}  # each game alone and with one variant: kept
        self._loaded: OrderedDict[GameKey, Ruleset] = OrderedDict()  # the others, oldest loaded first
        self._lock = threading.Lock()  # rules load in worker threads too (``Lobby.prepare``)
        self._abouts: dict[tuple[str, str], dict[str, Any]] = {}
        for source, variants in extra:
            self.add(source, variants)

    def add(self, source: str | Path, variants: Sequence[str] = ()) -> str:
        """Offer a ruleset or variant (a path, or a bundled id with variants: as ``load`` takes
        them) under its folder's or file's name; returns its key."""
        key = Path(source).stem
        if variants or key in self._sources:
            key = "+".join([key, *(Path(v).stem for v in variants)])
        while key in self._sources:
            key += "_"
        self._sources[key] = (source, tuple(variants))
        self._variants[key] = []
        return key

    def variants(self, game: str) -> list[str]:
        """The names of the variants a client may add to ``game``."""
        return list(self._variants.get(game, []))

    def games(self) -> list[str]:
        """The keys of the offered games."""
        return list(self._sources)

    def rules(self, game: str, variants: Sequence[str] = ()) -> Ruleset:
        """The ruleset of an offered game with some of its variants (each named once), loaded
        once while it stays in the cache."""
        if game not in self._sources:
            raise NotFound(
                f"no game {game!r} here{did_you_mean(game, self._sources)}; games: {', '.join(self._sources)}"
            )
        unknown = [v for v in variants if v not in self._variants[game]]
        if unknown:
            offered = ", ".join(self._variants[game]) or "none"
            raise BadRequest(f"{game} has no variant {unknown[0]!r}; its variants: {offered}")
        if len(set(variants)) != len(variants):
            raise BadRequest(f"a variant is named twice: {', '.join(variants)}")
        key = GameKey(game, tuple(variants))
        found = self._offered.get(key) or self._loaded.get(key)
        if found is not None:
            return found
        with self._lock:
            if len(variants) <= 1:
                if key not in self._offered:
                    self._offered[key] = self._load(key)
                return self._offered[key]
            if key not in self._loaded:
                self._loaded[key] = self._load(key)
                while len(self._loaded) > MAX_LOADED:
                    self._loaded.popitem(last=False)
            return self._loaded[key]

    def _load(self, key: GameKey) -> Ruleset:
        source, base_variants = self._sources[key.game]
        return load(source, [*base_variants, *key.variants])

    def source(self, key: GameKey) -> tuple[str | Path, tuple[str, ...]]:
        """What ``load`` takes to load the game ``key`` again (in another process): the source
        and every variant applied."""
        source, base_variants = self._sources[key.game]
        return source, (*base_variants, *key.variants)

    def describe(self) -> list[dict[str, Any]]:
        """Each playable game for the lobby: ``id``, ``title``, ``players`` (fewest and most),
        ``variants`` (names), ``variant_about`` (each variant's ``title`` and ``description``,
        for people, with their ``translations``) and ``languages`` (codes of its texts)."""
        out = []
        for key in self._sources:
            rules = self.rules(key)
            if not rules.playable:
                continue
            out.append(
                {
                    "id": key,
                    "title": rules.title,
                    "players": [rules.players.start, rules.players.stop - 1],
                    "variants": list(self._variants[key]),
                    "variant_about": {name: self._about(key, name) for name in self._variants[key]},
                    "languages": sorted(languages(rules.data)),
                }
            )
        return out

    def _about(self, game: str, variant: str) -> dict[str, Any]:
        """A bundled variant's ``title`` and ``description`` from its file (its name when the
        file says none), and under ``translations`` the same in each other language its file
        gives (``{"de": {"title", "description"}}``)."""
        if (game, variant) not in self._abouts:
            source = self._sources[game][0]
            path = rules_root() / str(source) / VARIANTS_DIR / f"{variant}.yaml"
            data = load_yaml(path).data
            head = data if isinstance(data, dict) else {}
            self._abouts[game, variant] = {
                **_about_texts(head, variant.replace("_", " ")),
                "translations": {
                    lang: _about_texts(texts, "")
                    for lang, texts in (head.get("translations") or {}).items()
                    if isinstance(texts, dict)
                },
            }
        return self._abouts[game, variant]

    def find(self, rules_hash: str, ruleset: str) -> GameKey | None:
        """The offered game (with at most one variant) whose rules have ``rules_hash``: a saved
        game names its rules only by name and hash."""
        for key in self._sources:
            for variants in [(), *((v,) for v in self._variants[key])]:
                rules = self.rules(key, variants)
                if rules.name == ruleset and rules.rules_hash == rules_hash:
                    return GameKey(key, variants)
        return None


def accepted_languages(header: str | None, most: int = 12) -> list[str]:
    """The language codes of an ``Accept-Language`` header, most wanted first (by ``q``, then
    by order; ``q=0`` and ``*`` left out), at most ``most`` of them.

    >>> accepted_languages("de-CH;q=0.5, en-GB, fr;q=0, *;q=0.1")
    ['en-GB', 'de-CH']
    >>> accepted_languages(None)
    []
    """
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate((header or "")[:1000].split(",")):
        code, _, params = part.strip().partition(";")
        code = code.strip()
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if code and code != "*" and weight > 0 and len(code) <= 35 and code.replace("-", "").isalnum():
            ranked.append((-weight, order, code))
    return [code for _, _, code in sorted(ranked)[:most]]


def _about_texts(head: dict[str, Any], untitled: str) -> dict[str, str]:
    """A variant file's (or one of its translations') ``title`` and ``description``, the
    description on one line; ``untitled`` when it gives no title."""
    title, description = head.get("title"), head.get("description")
    return {
        "title": title if isinstance(title, str) and title else untitled,
        "description": " ".join(description.split()) if isinstance(description, str) else "",
    }
