"""Checks of a variant against its base: what no schema can say because it depends on the base.

A game constant is untyped in the schema (a number, a string, a list, ...); its type is the
base's. A variant giving ``hand_limit: {value: six}`` or ``matching_edge_points: 2.5``
(a whole number in the base) is told so at its own line, before the rules that read the
constant fail somewhere in the base files.

>>> from venedig_rules.data.yamlsource import loads
>>> base = loads("game: {constants: {hand_limit: {value: 5}, ends: [a, b]}}", "game.yaml")
>>> over = loads("game: {constants: {hand_limit: {value: six}, ends: [c]}}", "v.yaml")
>>> for err in constant_types(base.data, over.data, over.positions):
...     print(err.line())
v.yaml:1:40: rules/variant: constant 'hand_limit' is "six" (a string); the base's is a whole number (5)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..errors import VariantError
from .yamlsource import Plain, PositionMap, pointer

_NAMES = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "a table",
}


def constant_types(base: dict[str, Any], merged: dict[str, Any], positions: PositionMap) -> Iterator[VariantError]:
    """Every constant value of ``merged`` whose type differs from the same constant's in ``base``."""
    before, after = constants_of(base), constants_of(merged)
    for name, const in after.items():
        if name not in before:
            continue
        expected = {type(v) for _, v in constant_values(before[name])}
        for at, value in constant_values(const):
            if not expected or _fits(value, expected):
                continue
            ptr = constant_pointer(name, at)
            example = next(v for _, v in constant_values(before[name]))
            yield VariantError(
                f"constant {name!r} is {shown_value(value)} ({type_name(value)}); "
                f"the base's is {type_name(example)} ({shown_value(example)})",
                positions.at(ptr),
            )


def constants_of(data: dict[str, Any]) -> dict[str, Plain]:
    """The ``game.yaml`` constants of ``data``, by name ({} when it has none)."""
    game = data.get("game")
    constants = game.get("constants") if isinstance(game, dict) else None
    return constants if isinstance(constants, dict) else {}


def constant_values(const: Plain) -> list[tuple[str, Plain]]:
    """Each value of a constant, with its pointer below the constant (``value``, ``by_players/3``)."""
    if not isinstance(const, dict):
        return [("", const)] if const is not None else []
    if "value" in const:
        return [("value", const["value"])] if const["value"] is not None else []
    table = const.get("by_players")
    if isinstance(table, dict):
        return [(f"by_players/{n}", v) for n, v in table.items() if v is not None]
    return []


def constant_pointer(name: str, at: str) -> str:
    """The pointer of constant ``name``'s value at ``at`` (as :func:`constant_values` gives it)."""
    ptr = pointer("/game/constants", name)
    for part in at.split("/") if at else ():
        ptr = pointer(ptr, part)
    return ptr


def _fits(value: Plain, expected: set[type]) -> bool:
    kind = type(value)
    return kind in expected or (kind is int and float in expected)


def type_name(value: Plain) -> str:
    """How an error names ``value``'s type: "a whole number", "true or false", ..."""
    return "none" if value is None else _NAMES.get(type(value), type(value).__name__)


def shown_value(value: Plain) -> str:
    """``value`` as JSON, cut to 40 characters, as errors quote it."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
