"""Rule data known to be valid: the bundled rulesets (alone and with each of their bundled
variants) were checked in full (the schemas, across files and the DSL's checks) when
``validated.json`` (beside this module) was written, so loading them again skips those
checks.

The manifest records, for each bundled configuration, the ``rules_hash`` of its merged
data, and the sha256 of the schema files it was checked against. Data is trusted only
when its hash is recorded and the schemas are the recorded ones: a changed rule file has
another hash and is checked as any other, so the manifest can be stale but never vouches
for data it did not see. ``tests/test_startup.py`` fails while it is stale (a rule file
or a schema changed since); :mod:`venedig_rules.engine.startup` writes it anew.

:func:`venedig_rules.validate` always checks everything; only ``load`` trusts the manifest.
A load still resolves every DSL name and type (compiling needs what the checker resolves);
it skips the DSL checks that only find mistakes (see ``compile_ruleset(trusted=True)``).

>>> from venedig_rules.data.reading import read, rules_hash
>>> is_validated(rules_hash(read("venedig").data))
True
>>> is_validated("0" * 64)
False
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from .reading import RawRules, bundled, bundled_variants, read, rules_hash
from .resources import schemas_root

#: The manifest's file, beside this module.
MANIFEST = Path(__file__).with_name("validated.json")


def is_validated(data_hash: str) -> bool:
    """Whether data with this ``rules_hash`` passed the schemas and the cross-file checks
    when the manifest was written, against the schemas installed now."""
    stored = _stored()
    return data_hash in stored["rulesets"].values() and stored["schemas"] == schemas_sha256()


@cache
def schemas_sha256() -> str:
    """sha256 over the schema files' names and texts (line ends as ``\\n``)."""
    digest = hashlib.sha256()
    for path in sorted(schemas_root().glob("*.schema.json")):
        digest.update(f"{path.name}\0{path.read_text(encoding='utf-8')}\0".encode())
    return digest.hexdigest()


def configurations() -> list[tuple[str, tuple[str, ...]]]:
    """The bundled configurations: each bundled ruleset alone, then with each of its
    bundled variants, as (ruleset id, variants)."""
    return [(name, variants) for name in bundled() for variants in [(), *((v,) for v in bundled_variants(name))]]


def render(dsl_clean: Callable[[RawRules], bool] = lambda raw: True) -> str:
    """The manifest's text as it should be now: each bundled configuration checked in full
    (one with problems is left out); ``dsl_clean`` says whether its DSL passes every check
    (the engine's, which this layer may not import: :mod:`venedig_rules.engine.startup`)."""
    rulesets: dict[str, str] = {}
    for name, variants in configurations():
        raw = read(name, variants)
        errors = [e for e in raw.data_errors() if not e.warning]  # a warning does not stop a load
        if not errors and dsl_clean(raw):  # (reading problems included)
            rulesets["+".join((name, *variants))] = rules_hash(raw.data)
    return json.dumps({"schemas": schemas_sha256(), "rulesets": rulesets}, indent=2, sort_keys=True) + "\n"


@cache
def _stored() -> dict[str, Any]:
    """The manifest as written (empty when there is none: nothing is trusted)."""
    try:
        stored = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stored = None
    if not (isinstance(stored, dict) and isinstance(stored.get("rulesets"), dict)):
        return {"schemas": "", "rulesets": {}}
    return stored
