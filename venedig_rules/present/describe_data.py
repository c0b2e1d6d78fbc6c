"""A ruleset described as data: what ``venedig-rules describe --format json`` prints, the
changes a variant made to its base (``--diff``), each constant with its description, source
and note, and the list of data no source gives (``provenance: assumed``).

A value a variant set has ``provenance: variant <id>``, whatever the base said of it.

>>> import venedig_rules as vr
>>> rules = vr.load("venedig", ["no_imaginary_player"])
>>> for c in changes(rules, vr.load("venedig")):  # doctest: +ELLIPSIS
...     print(c.path, c.base, "->", c.value, "|", c.provenance)
game/players/max 5 -> 2 | variant no_imaginary_player
game/constants/imaginary_player {'by_players': {'2': True, '3': False, '4': False, '5': False}} -> False | ...
>>> data = describe_data(rules, vr.load("venedig"))
>>> constants = data["constants"]
>>> constants["imaginary_player"]["provenance"], constants["hand_limit"]["provenance"]
('variant no_imaginary_player', 'source')
>>> any(a["path"].startswith("tiles/") or a["path"].startswith("game/") for a in data["assumed"])
True
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from ..data.reading import FILE_KINDS, VARIANT_FILE
from ..data.variants import is_id_list
from ..data.yamlsource import Plain, pointer
from ..engine.ruleset import Ruleset
from .describe import table

#: A datum one side does not have (not None: None may be a datum's value).
_ABSENT = object()


class Change(NamedTuple):
    """One datum a variant changed: where it is (readable ``path`` and JSON ``pointer`` in the
    merged data), its base and new values (``None`` when added or removed), and who set it."""

    path: str
    pointer: str
    base: Plain
    value: Plain
    provenance: str
    location: str


def changes(rules: Ruleset, base: Ruleset) -> list[Change]:
    """Every datum of ``rules`` that differs from ``base`` (a leaf value, or an item added or
    removed), in file order."""
    found: list[Change] = []
    for kind in FILE_KINDS:
        found += _diff(rules, base.data.get(kind, _ABSENT), rules.data.get(kind, _ABSENT), kind, f"/{kind}")
    return found


#: Keys that say about a datum, not what it is: a variant's new notes are not changes of the game.
_ABOUT = ("description", "provenance", "source", "note")


def _diff(rules: Ruleset, old: Any, new: Any, path: str, ptr: str) -> Iterator[Change]:
    if ptr.startswith("/game/constants/") and ptr.count("/") == 3:
        old, new = _constant_value(old), _constant_value(new)  # value, table or plain: one datum
        ptr = (
            pointer(ptr, "value") if isinstance(rules.data["game"]["constants"].get(path.split("/")[-1]), dict) else ptr
        )
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            if key in _ABOUT:
                continue
            yield from _diff(rules, old.get(key, _ABSENT), new.get(key, _ABSENT), f"{path}/{key}", pointer(ptr, key))
        return
    # lists of items with ids are compared by id, not by place: a card added in the middle
    # is one change, not a change of every card after it
    if is_id_list(old) and is_id_list(new):
        before = {item["id"]: item for item in old}
        for n, item in enumerate(new):
            yield from _diff(rules, before.pop(item["id"], _ABSENT), item, f"{path}/{item['id']}", pointer(ptr, n))
        for ident, item in before.items():
            yield Change(f"{path}/{ident}", ptr, item, None, _provenance(rules, ptr), str(rules.positions.at(ptr)))
        return
    if (old is _ABSENT and new in ({}, [])) or (new is _ABSENT and old in ({}, [])):
        return  # an empty file or list where the other has none
    if old is _ABSENT or new is _ABSENT or old != new:
        yield Change(
            path,
            ptr,
            None if old is _ABSENT else old,
            None if new is _ABSENT else new,
            _provenance(rules, ptr),
            str(rules.positions.at(ptr)),
        )


def _constant_value(const: Any) -> Any:
    """A constant's value: plain, or ``{"by_players": ...}`` for a table by player count."""
    if not isinstance(const, dict):
        return const
    return const["value"] if "value" in const else {"by_players": const.get("by_players")}


def _provenance(rules: Ruleset, ptr: str) -> str:
    """``variant <id>`` when the value at ``ptr`` was written by a variant, else ``source``.

    A variant file is named by its id; a variant folder's files (``variant.yaml`` and one
    per rule file kind) by the folder."""
    file = Path(rules.positions.at(ptr).file)
    ident = file.parent.name if (file.stem in FILE_KINDS or file.name == VARIANT_FILE) else file.stem
    return f"variant {ident}" if ident in rules.variants else "source"


def describe_data(rules: Ruleset, base: Ruleset | None = None) -> dict[str, Any]:
    """The ruleset as JSON-ready data: identity, counts of each item list, every constant with
    its value, description, provenance, source and note, the assumed data, and (with ``base``)
    the changes from it."""
    game = rules.data["game"]
    changed = {c.pointer: c for c in changes(rules, base)} if base is not None else {}
    out: dict[str, Any] = {
        "id": rules.id,
        "name": rules.name,
        "title": rules.title,
        "variants": list(rules.variants),
        "players": {"min": rules.players.start, "max": rules.players.stop - 1},
        "rules_hash": rules.rules_hash,
        "items": {
            f"{kind}/{key}": [_item(rules, item, f"/{kind}/{key}/{n}", changed) for n, item in enumerate(items)]
            for kind, key in (
                ("components", "components"),
                ("cards", "types"),
                ("cards", "cards"),
                ("tiles", "tiles"),
                ("buildings", "buildings"),
            )
            if (items := (rules.data.get(kind) or {}).get(key))
        },
        "constants": {
            name: _constant(rules, name, const, changed) for name, const in (game.get("constants") or {}).items()
        },
        "assumed": assumed(rules),
    }
    if base is not None:
        out["base"] = base.name
        out["changes"] = [c._asdict() for c in changed.values()]
    return out


def _item(rules: Ruleset, item: dict[str, Any], ptr: str, changed: dict[str, Change]) -> dict[str, Any]:
    keys = ("id", "name", "count", "per_player", "component", "type", "params", "points", "provenance", "source")
    out = {k: item[k] for k in keys if k in item}
    _mark_changed(out, ptr, changed)
    return out


def _mark_changed(out: dict[str, Any], ptr: str, changed: dict[str, Change]) -> None:
    """Give ``out`` the provenance of the first change at ``ptr`` or inside it, if any: a
    variant that changed a datum is where it now comes from."""
    touched = [c for p, c in changed.items() if p == ptr or p.startswith(ptr + "/")]
    if touched:
        out["provenance"] = touched[0].provenance


def _constant(rules: Ruleset, name: str, const: Plain, changed: dict[str, Change]) -> dict[str, Any]:
    ptr = pointer("/game/constants", name)
    fields = const if isinstance(const, dict) else {"value": const}
    out = {k: fields[k] for k in ("value", "by_players", "length", "description") if k in fields}
    out["provenance"] = fields.get("provenance", "source" if "source" in fields else "")
    for key in ("source", "note"):
        if key in fields:
            out[key] = fields[key]
    _mark_changed(out, ptr, changed)
    out["location"] = str(rules.positions.at(ptr))
    return out


def assumed(rules: Ruleset) -> list[dict[str, Any]]:
    """Every datum no source gives (``provenance: assumed``): its path, note and location."""
    found: list[dict[str, Any]] = []

    def walk(node: Plain, path: str, ptr: str) -> None:
        if isinstance(node, dict):
            if node.get("provenance") == "assumed":
                found.append({"path": path, "note": node.get("note", ""), "location": str(rules.positions.at(ptr))})
            for key, value in node.items():
                walk(value, f"{path}/{key}", pointer(ptr, key))
        elif isinstance(node, list):
            for n, value in enumerate(node):
                label = value["id"] if isinstance(value, dict) and isinstance(value.get("id"), str) else str(n)
                walk(value, f"{path}/{label}", pointer(ptr, n))

    for kind in FILE_KINDS:
        if kind in rules.data:
            walk(rules.data[kind], kind, f"/{kind}")
    return found


def diff_text(rules: Ruleset, base: Ruleset) -> str:
    """The changes from ``base`` as a text table (what ``describe --diff`` prints); a changed
    text too long for the table (DSL, a description) follows it as a full unified diff."""
    found = changes(rules, base)
    if not found:
        return f"{rules.name}: no changes from {base.name}\n"
    rows = []
    diffs: list[str] = []
    for c in found:
        if _long_text(c.base) or _long_text(c.value):
            rows.append((c.path, "(diff below)", "(diff below)", c.provenance, c.location))
            diffs += ["", *unified(c)]
        else:
            rows.append((c.path, _show(c.base), _show(c.value), c.provenance, c.location))
    head = f"Changes from {base.name} ({len(rows)})"
    return "\n".join([head, *table(("datum", "base", "now", "provenance", "set at"), rows), *diffs]) + "\n"


def unified(change: Change) -> list[str]:
    """A change of a text as the lines of a unified diff, whole (no line cut).

    >>> c = Change("game/flow/main", "/game/flow/main", "a;|b", "a;|c", "variant v", "v.yaml:3:1")
    >>> c = c._replace(base=c.base.replace("|", chr(10)), value=c.value.replace("|", chr(10)))
    >>> for line in unified(c):
    ...     print(line)
    --- base game/flow/main
    +++ variant v game/flow/main (v.yaml:3:1)
    @@ -1,2 +1,2 @@
     a;
    -b
    +c
    """
    old = change.base if isinstance(change.base, str) else "" if change.base is None else _show(change.base)
    new = change.value if isinstance(change.value, str) else "" if change.value is None else _show(change.value)
    lines = difflib.unified_diff(
        old.splitlines(),
        new.splitlines(),
        f"base {change.path}",
        f"{change.provenance} {change.path} ({change.location})",
        lineterm="",
    )
    return list(lines)


def _long_text(value: Plain) -> bool:
    """Whether a value is a text the table would cut: more than one line, or long."""
    return isinstance(value, str) and (len(value.strip().splitlines()) > 1 or len(value) > 60)


def details_text(rules: Ruleset, base: Ruleset | None = None) -> str:
    """Each constant with its description, provenance, source and note; then the assumed data."""
    data = describe_data(rules, base)
    lines = ["", "Constants in detail"]
    for name, const in data["constants"].items():
        value = const.get("value", const.get("by_players"))
        lines.append(f"  {name} = {_show(value)}   [{const['provenance']}]")
        for key in ("description", "source", "note"):
            if key in const:
                lines.append(f"      {key}: {' '.join(str(const[key]).split())}")
    lines += ["", f"Assumed data ({len(data['assumed'])}: no source gives these values)"]
    lines += [
        f"  {a['path']}  ({a['location']})" + (f": {_short(a['note'])}" if a["note"] else "") for a in data["assumed"]
    ]
    return "\n".join(lines) + "\n"


def _show(value: Plain) -> str:
    if value is None:
        return "-"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _short(text)


def _short(text: str, width: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 3] + "..."
