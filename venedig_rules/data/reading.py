"""Reading a ruleset's files: a bundled id, a folder or a variant, merged with its variants,
with every value's position kept, and checked against the schemas and across files.

>>> raw = read("venedig", ["no_imaginary_player"])
>>> raw.base_id, raw.variants, raw.data_errors()
('venedig', ('no_imaginary_player',), [])
>>> bundled()
['rialto', 'saeulen', 'venedig']
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import Location, RuleFileError, RulesError, UnknownRulesetError, VariantError, YamlError, did_you_mean
from . import checks, schema
from .resources import display_path, rules_root
from .variants import Merged, merge
from .yamlsource import Plain, PositionMap, Source
from .yamlsource import load as load_yaml

#: The rule file kinds of a ruleset folder, in reading order.
FILE_KINDS = ("game", "board", "components", "cards", "tiles", "buildings", "scoring", "invariants", "texts")
#: Files a ruleset cannot do without.
REQUIRED = ("game", "components")
#: The folder of a ruleset's bundled variants.
VARIANTS_DIR = "variants"
#: The file naming a variant folder's base and identity.
VARIANT_FILE = "variant.yaml"


def bundled() -> list[str]:
    """The ids of the bundled rulesets.

    >>> bundled()
    ['rialto', 'saeulen', 'venedig']
    """
    return sorted(p.name for p in rules_root().iterdir() if (p / "game.yaml").is_file())


def bundled_variants(ruleset_id: str) -> list[str]:
    """The names of a bundled ruleset's variants.

    >>> bundled_variants("venedig")
    ['no_imaginary_player', 'short_rules_end']
    """
    folder = rules_root() / ruleset_id / VARIANTS_DIR
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def read(name: str | Path, variants: Iterable[str | Path] = ()) -> RawRules:
    """A ruleset's data with ``variants`` applied in order (names of the base's bundled
    variants, or paths); raises UnknownRulesetError when ``name`` names nothing."""
    raw = _read(name)
    for variant in variants:
        raw = _apply_variant(raw, _resolve_variant(variant, raw.base_id))
    return raw


@dataclass
class RawRules:
    """Rule data on its way to a Ruleset: read and merged with its variants, not yet checked."""

    data: dict[str, Any]
    positions: PositionMap
    errors: list[RulesError]
    base_id: str
    variants: tuple[str, ...]
    path: Path

    def data_errors(self, dsl_checker: checks.DslChecker | None = None) -> list[RulesError]:
        """Every problem found in reading, against the schemas and across files (the DSL
        is checked later, by the effects compiler)."""
        errors = list(self.errors)
        for kind, content in self.data.items():
            errors += schema.validate(kind, content, self.positions, at=f"/{kind}")
        errors += checks.check(self.data, self.positions, dsl_checker)
        return errors


def rules_hash(data: dict[str, Any]) -> str:
    """sha256 of ``data`` as canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read(name: str | Path, chain: tuple[Path, ...] = ()) -> RawRules:
    path = _resolve(name)
    if path.is_dir() and not (path / VARIANT_FILE).is_file():
        if any((path / f"{kind}.yaml").is_file() for kind in FILE_KINDS):
            return _read_folder(path)
        raise UnknownRulesetError(
            f"{display_path(path)!r} is neither a ruleset folder (with rule files) "
            f"nor a variant folder (with {VARIANT_FILE})"
        )
    variant = _read_variant(path)
    if path.resolve() in chain:
        raise UnknownRulesetError(f"variant {display_path(path)!r} extends itself through {len(chain)} step(s)")
    if variant.base is None:
        return RawRules({}, variant.positions, variant.errors, "", (), path)
    base = _read(variant.base, chain + (path.resolve(),))
    return _apply_variant(base, variant)


def _resolve(name: str | Path, relative_to: Path | None = None) -> Path:
    """A bundled id (a plain string naming a bundled ruleset) wins over a same-named folder
    in the working directory; write ``./venedig`` for the folder."""
    if isinstance(name, str) and "/" not in name and (rules_root() / name / "game.yaml").is_file():
        return rules_root() / name
    candidate = Path(name)
    if relative_to is not None and not candidate.is_absolute() and (relative_to / candidate).exists():
        return relative_to / candidate
    if candidate.exists():
        return candidate
    raise UnknownRulesetError(
        f"no bundled ruleset or path {str(name)!r}{did_you_mean(str(name), bundled())}; bundled: {', '.join(bundled())}"
    )


def _read_folder(folder: Path) -> RawRules:
    data: dict[str, Any] = {}
    positions = PositionMap()
    errors: list[RulesError] = []
    files = sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml"))
    for path in files:
        shown = display_path(path)
        if path.stem not in FILE_KINDS or path.suffix != ".yaml":
            errors.append(
                RuleFileError(
                    f"{path.name!r} is not a rule file kind{did_you_mean(path.stem, FILE_KINDS)}"
                    f"; expected one of {', '.join(k + '.yaml' for k in FILE_KINDS)}",
                    Location(shown),
                )
            )
            continue
        source = _load_file(path, errors)
        if source is None:
            continue
        if not isinstance(source.data, dict):
            errors.append(
                RuleFileError(
                    f"{path.name} should hold a mapping at the top, not {type(source.data).__name__}",
                    source.positions.at(""),
                )
            )
            continue
        data[path.stem] = source.data
        source.positions.copy_subtree("", source.data, f"/{path.stem}", positions)
    for kind in REQUIRED:
        if kind not in data and not any(p.stem == kind for p in files):
            errors.append(
                RuleFileError(
                    f"the ruleset has no {kind}.yaml; expected one in every ruleset",
                    Location(display_path(folder / f"{kind}.yaml")),
                )
            )
    base_id = data.get("game", {}).get("id", folder.name) if isinstance(data.get("game"), dict) else folder.name
    return RawRules(data, positions, errors, str(base_id), (), folder)


def _load_file(path: Path, errors: list[RulesError]) -> Source | None:
    try:
        return load_yaml(path, display_path(path), errors)
    except YamlError as exc:
        errors.append(exc)
    except (OSError, UnicodeDecodeError) as exc:
        errors.append(RuleFileError(f"cannot read the file: {exc}", Location(display_path(path))))
    return None


# -- variants --------------------------------------------------------------------------------
class _Overlay(NamedTuple):
    """A variant's patch of one rule file kind, and where it was written."""

    kind: str
    patch: dict[str, Plain]
    positions: PositionMap
    at: str  # the pointer of ``patch`` within ``positions``


@dataclass
class _Variant:
    id: str
    base: Path | None
    overlays: list[_Overlay]
    positions: PositionMap
    errors: list[RulesError]


def _resolve_variant(variant: str | Path, base_id: str) -> _Variant:
    path = Path(variant)
    if not path.exists() and isinstance(variant, str):
        path = rules_root() / base_id / VARIANTS_DIR / f"{variant}.yaml"
        if not path.is_file():
            known = bundled_variants(base_id)
            raise UnknownRulesetError(
                f"ruleset {base_id!r} has no variant {variant!r}{did_you_mean(variant, known)}"
                f"; its variants: {', '.join(known) or 'none'}"
            )
    return _read_variant(path)


def _read_variant(path: Path) -> _Variant:
    errors: list[RulesError] = []
    folder = path.is_dir()
    head_path = path / VARIANT_FILE if folder else path
    head = _load_file(head_path, errors)
    if head is None or not isinstance(head.data, dict):
        if head is not None:
            errors.append(VariantError("a variant file should hold a mapping with 'extends'", head.positions.at("")))
        return _Variant(path.stem, None, [], PositionMap(), errors)
    errors += schema.validate("variant", head.data, head.positions)
    overlays = [
        _Overlay(kind, patch, head.positions, f"/overlay/{kind}")
        for kind, patch in (head.data.get("overlay") or {}).items()
        if kind in FILE_KINDS and isinstance(patch, dict)
    ]
    if folder:
        for file in sorted(path.glob("*.yaml")):
            if file.name == VARIANT_FILE:
                continue
            if file.stem not in FILE_KINDS:
                errors.append(
                    RuleFileError(
                        f"{file.name!r} is not a rule file kind{did_you_mean(file.stem, FILE_KINDS)}",
                        Location(display_path(file)),
                    )
                )
                continue
            source = _load_file(file, errors)
            if source is not None and isinstance(source.data, dict):
                overlays.append(_Overlay(file.stem, source.data, source.positions, ""))
    ident = head.data.get("id")
    if isinstance(ident, str) and ident != path.stem:
        errors.append(
            VariantError(
                f"variant id {ident!r} differs from its {'folder' if folder else 'file'} "
                f"name {path.stem!r}; expected them to be the same",
                head.positions.at("/id"),
            )
        )
    extends = head.data.get("extends")
    base = None
    if isinstance(extends, str):
        try:
            base = _resolve(extends, relative_to=(path if folder else path.parent))
        except UnknownRulesetError as exc:
            errors.append(VariantError(str(exc), head.positions.at("/extends")))
    return _Variant(str(head.data.get("id", path.stem)), base, overlays, head.positions, errors)


def _apply_variant(base: RawRules, variant: _Variant) -> RawRules:
    result = Merged(None, PositionMap())
    data: dict[str, Any] = {}
    patched = {overlay.kind for overlay in variant.overlays}
    for kind, content in base.data.items():
        if kind not in patched:
            base.positions.copy_subtree(f"/{kind}", content, f"/{kind}", result.positions)
            data[kind] = content
    for overlay in variant.overlays:
        kind = overlay.kind
        merge(
            data.get(kind, base.data.get(kind, {})),
            base.positions,
            overlay.patch,
            overlay.positions,
            base_at=f"/{kind}",
            overlay_at=overlay.at,
            out_at=f"/{kind}",
            into=result,
        )
        data[kind] = result.data
    ordered = {kind: data[kind] for kind in FILE_KINDS if kind in data}
    return RawRules(
        ordered,
        result.positions,
        base.errors + variant.errors + list(result.errors),
        base.base_id,
        base.variants + (variant.id,),
        base.path,
    )
