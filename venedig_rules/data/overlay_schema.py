"""Overlay schemas: what a variant may write over each rule file kind, made from the base schemas.

A variant's overlay of a file is a patch (see ``variants``), so its schema is the file's
schema with every ``required`` dropped, ``null`` allowed for each key (it removes the key),
and each list of items with ids read as patches: ``{id: x, ...}`` with the item's own keys,
``{add: {...}}`` with a whole item, ``{remove: x}``. An editor given
``schemas/variant.schema.json`` (or ``schemas/overlays/<kind>.schema.json`` for one file of
a variant folder) thus checks the overlay's keys and values as the designer types them.

The files under ``schemas/overlays/`` are written by :func:`write` (``python -m
venedig_rules.data.overlay_schema``); a test keeps them equal to what the base schemas give.

>>> s = overlay_schema("cards")
>>> s["$id"], "required" in s
('overlays/cards.schema.json', False)
>>> sorted(s["properties"]["cards"]["else"]["items"]["else"]["else"]["required"])
['id']
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from . import schema
from .reading import FILE_KINDS
from .resources import schemas_root

#: The folder (under ``schemas/``) of the overlay schemas.
OVERLAY_DIR = "overlays"
#: The rule file kinds a variant may patch.
PATCHED_KINDS = FILE_KINDS

_ONLY_REQUIRED = {"required", "description"}


def overlay_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a variant's overlay of a ``kind`` file (a plain dict)."""
    name = f"{kind}.schema.json"
    base = schema._inline(schema.schemas()[name], name, ())
    body = _patch(base)
    body.pop("$schema", None)
    body.pop("$id", None)
    if kind == "game":
        _allow_step_edits(body)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{OVERLAY_DIR}/{kind}.schema.json",
        **body,
        "title": f"variant overlay of {kind}.yaml",
        "description": (
            f"A patch of {kind}.yaml: mappings merge key by key (null removes a key); a list of items "
            "with ids is patched by id: {id: x, ...} changes fields of item x, {add: {...}} adds an item, "
            "{remove: x} removes one; anything else replaces the base value. Generated from "
            f"{name} by venedig_rules.data.overlay_schema."
        ),
    }


def _patch(node: Any) -> Any:
    """``node`` (an inlined schema) as the schema of a patch of its values."""
    if isinstance(node, list):
        return [_patch(n) for n in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and not value.startswith("#"):
            # a reference kept beside other keywords: written out, as the overlay file lives
            # in another folder than the file it names
            out["allOf"] = [_resolve(value)]
            continue
        if key in ("required", "minItems", "minProperties"):
            continue
        if key in ("oneOf", "anyOf") and all(isinstance(b, dict) and set(b) <= _ONLY_REQUIRED for b in value):
            continue  # "one of these keys is required": the base says so for the merged value
        if key == "properties":
            out[key] = {name: _nullable(_patch(sub)) for name, sub in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_patch(value))
        elif key == "items" and _is_item_schema(value):
            out[key] = _id_patch(value)
        elif key == "$defs":
            out[key] = _written_out(value)
        elif key in ("enum", "const", "examples"):
            out[key] = value
        else:
            out[key] = _patch(value)
    return out


#: A flow body given as step edits (:mod:`.steps`) instead of its whole text.
STEP_EDITS: dict[str, Any] = {
    "type": "array",
    "minItems": 1,
    "description": "Step edits of the base's DSL (docs/variants.md, 'Changing a procedure'): "
    "{before: step, insert: DSL}, {after: step, insert: DSL}, {replace: step, with: DSL} or {remove: step}",
    "items": {
        "type": "object",
        "properties": {
            "before": {"type": "string", "minLength": 1},
            "after": {"type": "string", "minLength": 1},
            "replace": {"type": "string", "minLength": 1},
            "remove": {"type": "string", "minLength": 1},
            "insert": {"type": "string", "minLength": 1},
            "with": {"type": "string", "minLength": 1},
        },
        "additionalProperties": False,
        "maxProperties": 2,
        "dependentRequired": {"before": ["insert"], "after": ["insert"], "replace": ["with"]},
        "anyOf": [{"required": [key]} for key in ("before", "after", "replace", "remove")],
    },
}


def _allow_step_edits(game: dict[str, Any]) -> None:
    """Let the flow's ``main`` and each procedure (or its ``body``) be step edits too."""
    flow = game["properties"]["flow"]["else"]["properties"]
    flow["main"]["else"] = {"anyOf": [flow["main"]["else"], STEP_EDITS]}
    procedure = flow["procedures"]["else"]["additionalProperties"]["else"]
    procedure["oneOf"].append(STEP_EDITS)
    for form in procedure["oneOf"]:
        body = form.get("properties", {}).get("body")
        if body is not None:
            body["else"] = {"anyOf": [body["else"], STEP_EDITS]}


def _written_out(node: Any) -> Any:
    """``node`` with each reference to another schema file replaced by its target."""
    if isinstance(node, list):
        return [_written_out(n) for n in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and not ref.startswith("#"):
        rest = {k: _written_out(v) for k, v in node.items() if k != "$ref"}
        return {**rest, "allOf": [_resolve(ref)]}
    return {k: _written_out(v) for k, v in node.items()}


def _resolve(ref: str) -> Any:
    """The target of ``file#/pointer`` in the base schemas, with its references written out."""
    file, _, frag = ref.partition("#")
    target: Any = schema.schemas()[file]
    for part in frag.strip("/").split("/") if frag else ():
        target = target[part.replace("~1", "/").replace("~0", "~")]
    return schema._inline(target, file, (ref,))


def _is_item_schema(node: Any) -> bool:
    """Whether ``node`` is the schema of items with an ``id`` (a list the merge patches by id)."""
    return isinstance(node, dict) and "id" in node.get("properties", {}) and "id" in node.get("required", ())


def _id_patch(item: dict[str, Any]) -> dict[str, Any]:
    """The schema of one entry of a patch of an id list: add, remove or change an item."""
    ident = item["properties"]["id"]
    changed = _patch(item)
    changed["required"] = ["id"]
    return {
        "type": "object",
        "description": "{id: x, ...} changes item x; {add: {...}} adds an item; {remove: x} removes one",
        "if": {"required": ["add"]},
        "then": {"properties": {"add": item}, "required": ["add"], "additionalProperties": False},
        "else": {
            "if": {"required": ["remove"]},
            "then": {"properties": {"remove": ident}, "required": ["remove"], "additionalProperties": False},
            "else": changed,
        },
    }


def _nullable(node: Any) -> Any:
    """``node``, or ``null`` (which removes the key from the base)."""
    if not isinstance(node, dict):
        return node
    described = {"description": node["description"]} if "description" in node else {}
    return {**described, "if": {"type": "null"}, "else": node}


def render(kind: str) -> str:
    """The text of ``schemas/overlays/<kind>.schema.json``."""
    return json.dumps(overlay_schema(kind), indent=2, ensure_ascii=False) + "\n"


def write(root: Path | None = None) -> list[Path]:
    """Write every overlay schema under ``root/overlays`` (default: the schemas folder); the paths written."""
    folder = (root or schemas_root()) / OVERLAY_DIR
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in PATCHED_KINDS:
        path = folder / f"{kind}.schema.json"
        path.write_text(render(kind), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - the maintainer's regeneration step
    for path in write():
        sys.stdout.write(f"wrote {path}\n")
