"""JSON Schema checks of rule files, with every error located in its YAML file.

One schema per file kind lives in ``schemas/<kind>.schema.json`` (draft 2020-12); shared
definitions in ``schemas/defs.schema.json``.

>>> from venedig_rules.data.yamlsource import loads
>>> src = loads("invariants:\\n  - id: pillars\\n    chek: 'true'\\n    message: m\\n", "inv.yaml")
>>> for err in validate("invariants", src.data, src.positions):
...     print(err.line())
inv.yaml:3:5: rules/schema: unknown key 'chek' (did you mean 'check'?)

A required key missing where an unknown key is its misspelling is that one typo: one error.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from ..errors import Location, SchemaError, did_you_mean
from .resources import schemas_root
from .yamlsource import Plain, PositionMap, pointer

if TYPE_CHECKING:
    # imported where a schema is checked, not at the top: a bundled ruleset that was validated
    # already loads without them (a fast start)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

#: The rule file kinds, each with a schema of its own (variant overlays and scenarios too).
KINDS = (
    "game",
    "board",
    "components",
    "cards",
    "tiles",
    "buildings",
    "scoring",
    "invariants",
    "texts",
    "variant",
    "scenario",
)

_ITEM_NAMES = {
    "cards": "card",
    "types": "card type",
    "tiles": "tile",
    "shapes": "shape",
    "buildings": "building",
    "components": "component",
    "invariants": "invariant",
    "rules": "scoring rule",
    "regions": "region",
    "connections": "connection",
    "tracks": "track",
    "tracks/spaces": "track space",
    "steps": "step",
}


@cache
def schemas() -> dict[str, dict[str, Any]]:
    """Every schema by its path under ``schemas/`` (``cards.schema.json``, ``overlays/cards.schema.json``, ...)."""
    root = schemas_root()
    files = sorted(root.glob("*.schema.json")) + sorted(root.glob("overlays/*.schema.json"))  # variant overlays
    return {p.relative_to(root).as_posix(): json.loads(p.read_text(encoding="utf-8")) for p in files}


@cache
def validator(kind: str) -> Draft202012Validator:
    """The validator of one file kind.

    Its schema has every ``$ref`` to a definition written out in place (the same checks,
    without looking a reference up each time a value is checked, which was most of the
    time a ruleset took to validate); a reference that would repeat forever is kept."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry = Registry().with_resources((name, Resource.from_contents(schema)) for name, schema in schemas().items())
    name = f"{kind}.schema.json"
    return Draft202012Validator(_inline(schemas()[name], name, ()), registry=registry)


def _inline(node: Any, base: str, seen: tuple[str, ...]) -> Any:
    """``node`` (a part of schema file ``base``) with its ``$ref``s replaced by their targets."""
    if isinstance(node, list):
        return [_inline(n, base, seen) for n in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        file, _, frag = ref.partition("#")
        file = file or base
        target = f"{file}#{frag}"
        if target not in seen and set(node) <= {"$ref", "description"}:
            resolved: Any = schemas()[file]
            for part in frag.strip("/").split("/") if frag else ():
                resolved = resolved[part.replace("~1", "/").replace("~0", "~")]
            return _inline(resolved, file, seen + (target,))
        node = {**node, "$ref": target}  # kept: made absolute, as it may now stand in another file
    return {k: (v if k in ("$defs", "enum", "const") else _inline(v, base, seen)) for k, v in node.items()}


#: Keywords whose failure means a value has the wrong shape, not only a wrong value.
SHAPE_KEYWORDS = frozenset(
    {"type", "required", "oneOf", "anyOf", "allOf", "not", "minItems", "maxItems", "prefixItems", "items", "const"}
)


def validate(kind: str, data: Plain, positions: PositionMap, at: str = "") -> list[SchemaError]:
    """Every schema error of ``data`` (a file of ``kind``), located; ``[]`` when valid.

    ``at`` is the pointer of ``data`` within ``positions`` (for data nested in a larger map).
    """
    found: dict[tuple[Location, str], SchemaError] = {}
    errors = list(validator(kind).iter_errors(data))
    misspelt = _misspelt_required(errors)
    for error in errors:
        if error.validator == "required" and (tuple(error.absolute_path), _missing(error)) in misspelt:
            continue  # the unknown key's error says it: one typo, one error
        for err in _explain(error, data, positions, at):
            found.setdefault((err.location, err.message), err)
    return list(found.values())


def _missing(error: ValidationError) -> str:
    missing = re.findall(r"'([^']*)' is a required property", error.message)
    return missing[0] if missing else ""


def _misspelt_required(errors: list[ValidationError]) -> set[tuple[tuple[str | int, ...], str]]:
    """(object path, key) of each key an unknown key of the same object is a misspelling of."""
    out = set()
    for error in errors:
        if error.validator in ("additionalProperties", "unevaluatedProperties"):
            allowed = list(_schema_of(error).get("properties", {}))
            for key in _unexpected(error):
                out |= {(tuple(error.absolute_path), k) for k in difflib.get_close_matches(key, allowed, 1, 0.6)}
    return out


def _explain(error: ValidationError, data: Plain, positions: PositionMap, at: str) -> Iterator[SchemaError]:
    path = list(error.absolute_path)
    ptr = at + "".join(pointer("", p) for p in path)
    what = _describe(path, data)
    kind = error.validator
    if kind in ("additionalProperties", "unevaluatedProperties"):
        allowed = sorted(_schema_of(error).get("properties", {}))
        for key in _unexpected(error):
            hint = did_you_mean(key, allowed) or f" (expected one of: {', '.join(allowed)})"
            yield SchemaError(f"unknown key {key!r}{hint}", positions.key_at(pointer(ptr, key)))
        return
    if kind in ("oneOf", "anyOf") and error.context:
        from jsonschema.exceptions import best_match

        # a value of the wrong kind for a form says little when another form takes that kind
        # ({valeu: 7} for a constant: the mapping's unknown key, not "should be a number")
        sub = best_match([e for e in error.context if e.validator != "type" or e.relative_path] or error.context)
        if sub.validator not in ("oneOf", "anyOf", "required"):
            yield from _explain(sub, data, positions, at)
            return
    err = SchemaError(_message(error, what), positions.at(ptr))
    err.shape = kind in SHAPE_KEYWORDS
    yield err


def _schema_of(error: ValidationError) -> Mapping[str, Any]:
    """The schema whose keyword failed (a boolean schema has no keywords)."""
    return error.schema if isinstance(error.schema, Mapping) else {}


def _message(error: ValidationError, what: str) -> str:
    kind = error.validator
    # iter_errors sets both on every error it yields (they are unset only on errors made by hand)
    value: Any = error.validator_value
    inst: Any = error.instance
    if kind == "required":
        missing = re.findall(r"'([^']*)' is a required property", error.message)
        return f"{what} is missing required key {missing[0]!r}" if missing else error.message
    if kind == "type":
        types = value if isinstance(value, list) else [value]
        return f"{what} should be {' or '.join(_article(t) for t in types)}, not {_show(inst)}"
    if kind == "enum":
        return f"{what} is {_show(inst)}; expected one of {', '.join(map(repr, value))}"
    if kind == "pattern":
        if value == "^[a-z][a-z0-9_]*$":
            return (
                f"{_show(inst)} is not a valid id (expected lower case letters, digits and '_', starting with a letter)"
            )
        return f"{_show(inst)} does not match the pattern {value!r}"
    if kind in ("minimum", "maximum"):
        return f"{what} is {inst}; expected {'at least' if kind == 'minimum' else 'at most'} {value}"
    if kind in ("minItems", "maxItems"):
        return f"{what} has {len(inst)} items; expected {'at least' if kind == 'minItems' else 'at most'} {value}"
    if kind == "minLength":
        return f"{what} is empty; expected some text"
    if kind == "uniqueItems":
        return f"{what} repeats an item; expected each item once"
    if kind == "oneOf":
        # jsonschema gives the failing forms' errors as context when none matches
        return f"{what} matches {'none' if error.context else 'more than one'} of its allowed forms"
    return f"{what}: {error.message}"


def _unexpected(error: ValidationError) -> list[str]:
    inst: Any = error.instance  # set on every error iter_errors yields
    if error.validator == "additionalProperties":
        props = _schema_of(error).get("properties", {})
        patterns = [re.compile(p) for p in _schema_of(error).get("patternProperties", {})]
        return [k for k in inst if k not in props and not any(p.search(k) for p in patterns)]
    return re.findall(r"'([^']*)'", error.message.split("(")[-1])


def _describe(path: Sequence[str | int], data: Plain) -> str:
    """A reader's name for the value at ``path``: "card 'casa'", "key 'count' of card 'casa'"."""
    owner, owner_at = "", 0  # the innermost list item on the path, and its place in the path
    node, list_key = data, "items"
    for i, part in enumerate(path):
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(part, int):
            label = _ITEM_NAMES.get(list_key, "item")
            ident = node.get("id") if isinstance(node, dict) else None
            owner = f"{label} {ident!r}" if isinstance(ident, str) else f"{label} #{part + 1}"
            owner_at = i
        else:
            list_key = part
    if not owner:
        return f"key {'/'.join(map(str, path))!r}" if path else "the file"
    rest = path[owner_at + 1 :]
    return f"key {'/'.join(map(str, rest))!r} of {owner}" if rest else owner


def _article(t: str) -> str:
    names = {
        "object": "a mapping",
        "array": "a list",
        "string": "a string",
        "integer": "a whole number",
        "number": "a number",
        "boolean": "true or false",
        "null": "empty",
    }
    return names.get(t, t)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."
