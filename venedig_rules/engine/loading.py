"""Loading a ruleset: read its files, check them, compile its effects with the primitives of
its game modules, and make the Ruleset.

>>> rules = load("venedig")
>>> rules.title
'Venedig'
>>> validate("venedig")
[]
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
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
    name: str | Path,
    variants: Iterable[str | Path] = (),
    *,
    dsl_checker: checks.DslChecker | None = None,
    allow_extends: Iterable[str | Path] = (),
) -> Ruleset:
    """Load and check a ruleset: a bundled id, a ruleset folder, or a variant file or folder.

    ``variants`` are applied in order: names of the base's bundled variants or paths.
    A variant's ``extends`` may name a bundled ruleset or a path in the variant's own
    folder, or in one of the folders ``allow_extends`` trusts (see docs/variants.md).
    Raises :class:`~venedig_rules.errors.InvalidRulesError` listing every problem, or
    :class:`~venedig_rules.errors.UnknownRulesetError` when ``name`` names nothing.
    """
    with _collector_paused():
        return finish(read(name, variants, allow_extends=allow_extends), dsl_checker)


def validate(
    name: str | Path,
    variants: Iterable[str | Path] = (),
    *,
    dsl_checker: checks.DslChecker | None = None,
    allow_extends: Iterable[str | Path] = (),
) -> list[RulesError]:
    """Every problem of a ruleset or variant, sorted, the errors before the warnings (those
    whose ``warning`` is true, which do not stop a load); ``[]`` when it loads cleanly."""
    warnings: list[RulesError] = []
    try:
        with _collector_paused():
            finish(
                read(name, variants, allow_extends=allow_extends), dsl_checker, trust_validated=False, warnings=warnings
            )
    except InvalidRulesError as exc:
        return exc.errors + warnings
    return warnings


def finish(
    raw: RawRules,
    dsl_checker: checks.DslChecker | None = None,
    *,
    trust_validated: bool = True,
    warnings: list[RulesError] | None = None,
) -> Ruleset:
    """The Ruleset of read data, or InvalidRulesError listing every problem. Data that
    was not read whole or has a shape its schema refused goes no further (the checks across
    files, the DSL and the board rely on every shape the schemas promise), nor does a
    variant whose own file has a mistake (its consequences would only repeat it).

    With ``trust_validated``, data that :mod:`~venedig_rules.data.validated` knows to be valid
    (a bundled ruleset as shipped) skips the schema and cross-file checks and the DSL checks
    that only find mistakes (a fast start). Warnings go to ``warnings`` (sorted), never stop
    the load, and are left out when no list is given."""
    found: list[RulesError] = []
    digest = rules_hash(raw.data)
    known = trust_validated and _known_valid(raw, digest, dsl_checker)
    errors = _split([] if known else raw.data_errors(dsl_checker), found, warnings)
    if raw.goes_no_further(errors):
        raise InvalidRulesError(errors)
    flow = (raw.data.get("game") or {}).get("flow") if isinstance(raw.data.get("game"), dict) else None
    registry = CORE
    if isinstance(flow, dict) and not errors:
        try:
            registry = registry_for(flow.get("modules") or [])
        except ImportError as exc:
            from ..errors import DslNameError

            errors.append(DslNameError(f"unknown game module: {exc}", raw.positions.at("/game/flow/modules")))
    compiled, dsl_errors = compile_ruleset(raw.data, raw.positions, registry, syntax_only=bool(errors), trusted=known)
    errors += _split(dsl_errors, found, warnings)
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


def _split(problems: list[RulesError], found: list[RulesError], warnings: list[RulesError] | None) -> list[RulesError]:
    """The errors of ``problems``; its warnings join ``found`` and, sorted, ``warnings``."""
    found += [p for p in problems if p.warning]
    if warnings is not None:
        warnings[:] = sorted(found, key=RulesError.sort_key)
    return [p for p in problems if not p.warning]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a ruleset loads: a load makes objects by the
    hundred thousand (values, positions, schema checks) and keeps most of them, and the
    collector would walk them all again each time it ran, which made a large file load in
    time growing faster than its size. Whatever cycles a load leaves are collected after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


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
