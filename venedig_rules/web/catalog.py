"""What a server offers: the bundled rulesets with their variants, and the rulesets or variants
given on its command line (a designer's), each under a short key. A client names a game by its
key and variants by name; it never gives the server a path.

>>> catalog = Catalog()
>>> [game["id"] for game in catalog.describe()]
['rialto', 'saeulen', 'venedig']
>>> catalog.rules("venedig", ["short_rules_end"]).name
'venedig+short_rules_end'
>>> catalog.rules("chess", [])
Traceback (most recent call last):
...
venedig_rules.web.refusals.NotFound: no game 'chess' here; games: rialto, saeulen, venedig
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..data.reading import bundled, bundled_variants
from ..data.texts import languages
from ..engine.loading import load
from ..engine.ruleset import Ruleset
from ..errors import did_you_mean
from .refusals import BadRequest, NotFound


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
        self._loaded: dict[GameKey, Ruleset] = {}
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
        """The ruleset of an offered game with some of its variants (loaded once)."""
        if game not in self._sources:
            raise NotFound(
                f"no game {game!r} here{did_you_mean(game, self._sources)}; games: {', '.join(self._sources)}"
            )
        unknown = [v for v in variants if v not in self._variants[game]]
        if unknown:
            offered = ", ".join(self._variants[game]) or "none"
            raise BadRequest(f"{game} has no variant {unknown[0]!r}; its variants: {offered}")
        key = GameKey(game, tuple(variants))
        if key not in self._loaded:
            source, base_variants = self._sources[game]
            self._loaded[key] = load(source, [*base_variants, *variants])
        return self._loaded[key]

    def describe(self) -> list[dict[str, Any]]:
        """Each playable game for the lobby: ``id``, ``title``, ``players`` (fewest and most),
        ``variants`` (names) and ``languages`` (codes of its texts)."""
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
                    "languages": sorted(languages(rules.data)),
                }
            )
        return out

    def find(self, rules_hash: str, ruleset: str) -> GameKey | None:
        """The offered game (with at most one variant) whose rules have ``rules_hash``: a saved
        game names its rules only by name and hash."""
        for key in self._sources:
            for variants in [(), *((v,) for v in self._variants[key])]:
                rules = self.rules(key, variants)
                if rules.name == ruleset and rules.rules_hash == rules_hash:
                    return GameKey(key, variants)
        return None
