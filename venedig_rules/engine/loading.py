"""Loading a ruleset: read its files, check them, compile its effects with the primitives of
its game modules, and make the Ruleset.

>>> rules = load("venedig")
>>> rules.title
'Venedig'
>>> validate("venedig")
[]
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.reading import RawRules, read, rules_hash
from ..effects import compile_ruleset
from ..effects.registry import CORE, Registry
from ..errors import InvalidRulesError, RulesError
from .ruleset import Ruleset

if TYPE_CHECKING:
    from ..data import checks


def load(
    name: str | Path, variants: Iterable[str | Path] = (), *, dsl_checker: checks.DslChecker | None = None
) -> Ruleset:
    """Load and check a ruleset: a bundled id, a ruleset folder, or a variant file or folder.

    ``variants`` are applied in order: names of the base's bundled variants or paths.
    Raises :class:`~venedig_rules.errors.InvalidRulesError` listing every problem, or
    :class:`~venedig_rules.errors.UnknownRulesetError` when ``name`` names nothing.
    """
    return finish(read(name, variants), dsl_checker)


def validate(
    name: str | Path, variants: Iterable[str | Path] = (), *, dsl_checker: checks.DslChecker | None = None
) -> list[RulesError]:
    """Every problem of a ruleset or variant, sorted; ``[]`` when it loads cleanly."""
    try:
        finish(read(name, variants), dsl_checker, trust_validated=False)
    except InvalidRulesError as exc:
        return exc.errors
    return []


def finish(raw: RawRules, dsl_checker: checks.DslChecker | None = None, *, trust_validated: bool = True) -> Ruleset:
    """The Ruleset of read data, or InvalidRulesError listing every problem.

    With ``trust_validated``, data that :mod:`~venedig_rules.data.validated` knows to be valid
    (a bundled ruleset as shipped) skips the schema and cross-file checks (a fast start)."""
    digest = rules_hash(raw.data)
    errors = [] if trust_validated and _known_valid(raw, digest, dsl_checker) else raw.data_errors(dsl_checker)
    flow = (raw.data.get("game") or {}).get("flow") if isinstance(raw.data.get("game"), dict) else None
    registry = CORE
    if isinstance(flow, dict) and not errors:
        try:
            registry = registry_for(flow.get("modules") or [])
        except ImportError as exc:
            from ..errors import DslNameError

            errors.append(DslNameError(f"unknown game module: {exc}", raw.positions.at("/game/flow/modules")))
    compiled, dsl_errors = compile_ruleset(raw.data, raw.positions, registry, syntax_only=bool(errors))
    errors += dsl_errors
    if errors:
        raise InvalidRulesError(errors)
    game = raw.data["game"]
    players = range(game["players"]["min"], game["players"]["max"] + 1)
    return Ruleset(
        id=game["id"],
        title=game["title"],
        players=players,
        data=raw.data,
        rules_hash=digest,
        variants=raw.variants,
        path=raw.path,
        positions=raw.positions,
        compiled=compiled,
    )


def _known_valid(raw: RawRules, digest: str, dsl_checker: checks.DslChecker | None) -> bool:
    """Whether read data is known valid: read without problems, no DSL checker of the
    caller's to run, and its hash in the manifest of validated data."""
    from ..data.validated import is_validated

    return not raw.errors and dsl_checker is None and is_validated(digest)


def registry_for(modules: list[str]) -> Registry:
    """The core primitives plus those of the named game modules (``venedig_rules.games.<name>``)."""
    registry = CORE
    for name in modules:
        module = importlib.import_module(f"venedig_rules.games.{name}")
        registry = registry.extend(module.PRIMITIVES)
    return registry
