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

_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "a string", list: "a list"}


def constant_types(base: dict[str, Any], merged: dict[str, Any], positions: PositionMap) -> Iterator[VariantError]:
    """Every constant value of ``merged`` whose type differs from the same constant's in ``base``."""
    before, after = _constants(base), _constants(merged)
    for name, const in after.items():
        if name not in before:
            continue
        expected = {type(v) for _, v in _values(before[name])}
        for at, value in _values(const):
            if not expected or _fits(value, expected):
                continue
            ptr = pointer(pointer("/game/constants", name), at) if at else pointer("/game/constants", name)
            example = next(v for _, v in _values(before[name]))
            yield VariantError(
                f"constant {name!r} is {_show(value)} ({_NAMES.get(type(value), type(value).__name__)}); "
                f"the base's is {_NAMES.get(type(example), type(example).__name__)} ({_show(example)})",
                positions.at(ptr),
            )


def _constants(data: dict[str, Any]) -> dict[str, Plain]:
    game = data.get("game")
    constants = game.get("constants") if isinstance(game, dict) else None
    return constants if isinstance(constants, dict) else {}


def _values(const: Plain) -> list[tuple[str, Plain]]:
    """Each value of a constant, with its pointer below the constant (``value``, ``by_players/3``)."""
    if not isinstance(const, dict):
        return [("", const)] if const is not None else []
    if "value" in const:
        return [("value", const["value"])] if const["value"] is not None else []
    table = const.get("by_players")
    if isinstance(table, dict):
        return [(f"by_players/{n}", v) for n, v in table.items() if v is not None]
    return []


def _fits(value: Plain, expected: set[type]) -> bool:
    kind = type(value)
    return kind in expected or (kind is int and float in expected)


def _show(value: Plain) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
