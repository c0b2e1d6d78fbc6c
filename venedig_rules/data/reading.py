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
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import (
    Location,
    RuleFileError,
    RulesError,
    SchemaError,
    UnknownRulesetError,
    VariantError,
    YamlError,
    did_you_mean,
)
from ..limits import MAX_VARIANT_CHAIN
from . import schema
from .constant_checks import declared_bounds
from .overlay_checks import constant_types
from .resources import display_path, rules_root
from .variants import Merged, merge
from .yamlsource import Plain, PositionMap, Source
from .yamlsource import load as load_yaml

if TYPE_CHECKING:
    from . import checks  # imported where data is checked: known valid data loads without it (a fast start)

#: The rule file kinds of a ruleset folder, in reading order.
FILE_KINDS = ("game", "board", "components", "cards", "tiles", "buildings", "scoring", "invariants", "texts")
#: Files a ruleset cannot do without.
REQUIRED = ("game", "components")
#: The folder of a ruleset's bundled variants.
VARIANTS_DIR = "variants"
#: The file naming a variant folder's base and identity.
VARIANT_FILE = "variant.yaml"
#: An id, as the schemas define it: what a bundled ruleset or variant name must look like.
ID = re.compile(r"[a-z][a-z0-9_]*")


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
    if not ID.fullmatch(ruleset_id):
        return []
    folder = rules_root() / ruleset_id / VARIANTS_DIR
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def read(
    name: str | Path, variants: Iterable[str | Path] = (), *, allow_extends: Iterable[str | Path] = ()
) -> RawRules:
    """A ruleset's data with ``variants`` applied in order (names of the base's bundled
    variants, or paths); raises UnknownRulesetError when ``name`` names nothing.

    ``name`` and ``variants`` are trusted: they are the caller's. What a variant file
    ``extends`` is not: it may name a bundled ruleset, or a path inside the folder the
    variant lies in (and, when that is a ruleset's ``variants/`` folder, that ruleset), or
    inside one of the folders ``allow_extends`` names; anything else is refused without
    being looked at.
    """
    reader = _Reader(tuple(Path(p).resolve() for p in allow_extends))
    raw = reader.read(_resolve(name))
    for variant in variants:
        raw = _apply_variant(raw, reader.variant(_resolve_variant(variant, raw.base_id), follow=False))
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
    #: Whether a variant's own file had a problem (its shape, its ``extends``, an id it
    #: patches): then only those are reported, not their consequences in the merged ruleset
    #: (one typo, one error), such as the overlays of a variant extending it checked alone.
    overlay_failed: bool = False

    def read_errors(self) -> list[RulesError]:
        """Every problem found in reading and against the schemas (none against the schemas
        when a variant could not be applied: what was merged is no ruleset to check)."""
        errors = list(self.errors)
        if self.overlay_failed or any(isinstance(e, VariantError) for e in errors):
            return errors
        for kind, content in self.data.items():
            errors += schema.validate(kind, content, self.positions, at=f"/{kind}")
        return errors

    def goes_no_further(self, errors: list[RulesError]) -> bool:
        """Whether no later check may run on this data after ``errors``: the data was refused
        (see :func:`refused`), or a variant's own file has a mistake (its consequences in the
        merged rules would only repeat it: one typo, one error)."""
        return refused(errors) or (bool(errors) and self.overlay_failed)

    def data_errors(self, dsl_checker: checks.DslChecker | None = None) -> list[RulesError]:
        """Every problem found in reading, against the schemas and across files (the DSL
        is checked later, by the effects compiler). The checks across files run only on
        data that was read whole and has the shapes the schemas promise."""
        from . import checks

        errors = self.read_errors()
        if self.goes_no_further(errors):
            return errors
        return errors + checks.check(self.data, self.positions, dsl_checker)


def refused(errors: list[RulesError]) -> bool:
    """Whether reading ``errors`` leave data that no later stage may run on: a file not
    read whole, a variant not applied, or a value of the wrong shape. A value that is only
    out of bounds (a count of -1, an id in capitals) has the promised shape, and a repeated
    key leaves its file whole (the first value is kept)."""
    return any(_refusing(e) for e in errors)


def _refusing(error: RulesError) -> bool:
    # the cross-file checks' findings (a reference, a count, a text) leave every shape whole:
    # the DSL is still checked, so that one load reports every problem
    if isinstance(error, SchemaError):
        return error.shape
    if isinstance(error, YamlError):
        return not error.kept
    return isinstance(error, (RuleFileError, VariantError))


def rules_hash(data: dict[str, Any]) -> str:
    """sha256 of ``data`` as JSON (no spaces, UTF-8), its mappings in the order they were
    written: the rules read some mappings in order (a procedure's ``params`` bind by
    position), so an order changed may change the game, and then it changes the hash.

    >>> rules_hash({"a": 1, "b": 2}) != rules_hash({"b": 2, "a": 1})
    True
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_bundled(name: str | Path) -> bool:
    return isinstance(name, str) and ID.fullmatch(name) is not None and (rules_root() / name / "game.yaml").is_file()


def _resolve(name: str | Path) -> Path:
    """The path the caller's ``name`` stands for. A bundled id (a plain string naming a
    bundled ruleset) wins over a same-named folder in the working directory; write
    ``./venedig`` for the folder."""
    if _is_bundled(name):
        return rules_root() / str(name)
    candidate = Path(name)
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
        if path.stem not in FILE_KINDS or path.suffix != ".yaml" or not _inside(path, folder):
            errors.append(
                RuleFileError(
                    f"{path.name!r} is not a rule file kind{did_you_mean(path.stem, FILE_KINDS)}"
                    f"; expected one of {', '.join(k + '.yaml' for k in FILE_KINDS)}"
                    if path.stem not in FILE_KINDS or path.suffix != ".yaml"
                    else f"{path.name!r} is a link to a file outside its folder; expected the rule file itself",
                    Location(shown),
                )
            )
            continue
        source = _load_file(path, errors, at=f"/{path.stem}")
        if source is None:
            continue
        if not isinstance(source.data, dict):
            errors.append(
                RuleFileError(
                    f"{path.name} should hold a mapping at the top, not {_kind(source.data)}",
                    source.positions.at(f"/{path.stem}"),
                )
            )
            continue
        data[path.stem] = source.data
        positions.update(source.positions)
    for kind in REQUIRED:
        if kind not in data and not any(p.stem == kind for p in files):
            errors.append(
                RuleFileError(
                    f"the ruleset has no {kind}.yaml; expected one in every ruleset",
                    Location(display_path(folder / f"{kind}.yaml")),
                )
            )
    ident = data["game"].get("id") if isinstance(data.get("game"), dict) else None
    base_id = ident if isinstance(ident, str) and ID.fullmatch(ident) else folder.name
    return RawRules(data, positions, errors, base_id, (), folder)


def _inside(file: Path, folder: Path) -> bool:
    """Whether ``file`` (a link followed) lies in ``folder``: a folder's rule files are its own."""
    return file.resolve().is_relative_to(folder.resolve())


def _load_file(path: Path, errors: list[RulesError], at: str = "") -> Source | None:
    try:
        return load_yaml(path, display_path(path), errors, at)
    except RulesError as exc:
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
    base: Path | None  # None when it names none it may use (the problem is in ``errors``)
    overlays: list[_Overlay]
    positions: PositionMap
    errors: list[RulesError]
    extends: str  # what its ``extends`` says
    extends_at: Location  # where that is written


def _resolve_variant(variant: str | Path, base_id: str) -> Path:
    """The caller's variant: the name of one of the base's bundled variants, else a path."""
    known = bundled_variants(base_id) if ID.fullmatch(base_id) else []
    if isinstance(variant, str) and variant in known:
        return rules_root() / base_id / VARIANTS_DIR / f"{variant}.yaml"
    path = Path(variant)
    if path.exists():
        return path
    raise UnknownRulesetError(
        f"ruleset {base_id!r} has no variant {str(variant)!r}{did_you_mean(str(variant), known)}"
        f"; its variants: {', '.join(known) or 'none'}"
    )


class _Reader:
    """Reads rulesets and variants, following each variant's ``extends`` within its bounds:
    the folders ``allowed`` besides the variant's own."""

    def __init__(self, allowed: tuple[Path, ...]):
        self.allowed = allowed

    def read(self, path: Path, chain: tuple[Path, ...] = ()) -> RawRules:
        """The ruleset or variant at ``path``; ``chain``: the variants that led here."""
        if path.is_dir() and not (path / VARIANT_FILE).is_file():
            if any((path / f"{kind}.yaml").is_file() for kind in FILE_KINDS):
                return _read_folder(path)
            raise UnknownRulesetError(
                f"{display_path(path)!r} is neither a ruleset folder (with rule files) "
                f"nor a variant folder (with {VARIANT_FILE})"
            )
        variant = self.variant(path)
        if variant.base is None:  # its file or its ``extends`` has a mistake, told in its errors
            return RawRules({}, variant.positions, variant.errors, "", (), path, overlay_failed=True)
        here = (*chain, path.resolve())
        if variant.base.resolve() in here:
            problem = "which leads back to this variant: variants may not extend each other in a circle"
        elif len(here) >= MAX_VARIANT_CHAIN:
            problem = f"the {MAX_VARIANT_CHAIN}th variant in a row that extends another; expected fewer"
        else:
            try:
                return _apply_variant(self.read(variant.base, here), variant)
            except UnknownRulesetError as exc:
                problem = f"which is no ruleset: {exc}"
        error = VariantError(f"extends {variant.extends!r}, {problem}", variant.extends_at)
        return RawRules({}, variant.positions, [*variant.errors, error], "", (), path, overlay_failed=True)

    def variant(self, path: Path, follow: bool = True) -> _Variant:
        """A variant file or folder, with its base found when ``follow`` (a variant applied
        to a base the caller names has its ``extends`` left alone)."""
        errors: list[RulesError] = []
        folder = path.is_dir()
        head_path = path / VARIANT_FILE if folder else path
        head = _load_file(head_path, errors)
        if head is None or not isinstance(head.data, dict):
            where = Location(display_path(head_path)) if head is None else head.positions.at("")
            if head is not None:
                errors.append(
                    VariantError(f"a variant file should hold a mapping with 'extends', not {_kind(head.data)}", where)
                )
            return _Variant(path.stem, None, [], PositionMap(), errors, "", where)
        errors += schema.validate("variant", head.data, head.positions)
        overlay = head.data.get("overlay")
        overlays = [
            _Overlay(kind, patch, head.positions, f"/overlay/{kind}")
            for kind, patch in (overlay.items() if isinstance(overlay, dict) else ())
            if kind in FILE_KINDS and isinstance(patch, dict)
        ]
        if folder:
            overlays += _overlay_files(path, errors)
        ident = head.data.get("id")
        if isinstance(ident, str) and ident != path.stem:
            errors.append(
                VariantError(
                    f"variant id {ident!r} differs from its {'folder' if folder else 'file'} "
                    f"name {path.stem!r}; expected them to be the same",
                    head.positions.at("/id"),
                )
            )
        extends, extends_at = head.data.get("extends"), head.positions.at("/extends")
        base = None
        if follow and isinstance(extends, str) and extends:
            try:
                base = self.extends(extends, path)
            except VariantError as exc:
                errors.append(VariantError(exc.message, extends_at))
        name = ident if isinstance(ident, str) else path.stem
        return _Variant(name, base, overlays, head.positions, errors, str(extends), extends_at)

    def extends(self, name: str, variant: Path) -> Path:
        """What ``extends: name`` names for the variant (file or folder) at ``variant``; a
        VariantError when it may not go there or finds nothing there.

        A path is relative to the variant file's folder, or to the variant folder, and must
        stay inside the folder the variant lies in (when that is a ruleset's ``variants/``
        folder, that ruleset's folder), the bundled rules, or a folder the caller allowed.
        The bounds are checked before anything is looked up, so the message for a path
        outside them is the same whether it exists or not."""
        if _is_bundled(name):
            return rules_root() / name
        home = variant.parent.resolve()
        target = ((variant if variant.is_dir() else variant.parent) / name).resolve()
        roots = [home, rules_root().resolve(), *self.allowed]
        if home.name == VARIANTS_DIR:
            roots.append(home.parent)
        if not any(target.is_relative_to(root) for root in roots):
            raise VariantError(
                f"extends {name!r}, outside the variant's folder; a variant may extend a bundled ruleset "
                f"({', '.join(bundled())}) or a ruleset or variant in its own folder (a program may "
                "trust more folders: load(..., allow_extends=[folder]))"
            )
        if not target.exists():
            raise VariantError(
                f"extends {name!r}, which is neither a bundled ruleset nor a file or folder"
                f"{did_you_mean(name, bundled())}"
            )
        return target


def _overlay_files(folder: Path, errors: list[RulesError]) -> list[_Overlay]:
    """The overlay files of a variant folder, one per rule file kind it changes."""
    overlays = []
    for file in sorted(folder.glob("*.yaml")):
        if file.name == VARIANT_FILE:
            continue
        if file.stem not in FILE_KINDS or not _inside(file, folder):
            errors.append(
                RuleFileError(
                    f"{file.name!r} is not a rule file kind{did_you_mean(file.stem, FILE_KINDS)}"
                    if file.stem not in FILE_KINDS
                    else f"{file.name!r} is a link to a file outside its folder; expected the overlay file itself",
                    Location(display_path(file)),
                )
            )
            continue
        source = _load_file(file, errors)
        if source is None:
            continue
        if isinstance(source.data, dict):
            errors += schema.validate(f"overlays/{file.stem}", source.data, source.positions)
            overlays.append(_Overlay(file.stem, source.data, source.positions, ""))
        else:
            errors.append(
                VariantError(
                    f"{file.name} should hold a mapping at the top, not {_kind(source.data)}", source.positions.at("")
                )
            )
    return overlays


def _kind(value: Plain) -> str:
    """How a message names the kind of a value read from YAML."""
    names = {dict: "a mapping", list: "a list", str: "a string", bool: "true or false", type(None): "nothing"}
    return names.get(type(value), "a number")


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
    result.errors += constant_types(base.data, ordered, result.positions)
    # a value of another type than the base's is told once, by its type
    bounds: list[RulesError] = (
        [] if result.errors else list(declared_bounds(ordered, result.positions, base.data, base.positions))
    )
    return RawRules(
        ordered,
        result.positions,
        base.errors + variant.errors + list(result.errors) + bounds,
        base.base_id,
        base.variants + (variant.id,),
        base.path,
        overlay_failed=base.overlay_failed or bool(variant.errors or result.errors or bounds),
    )
