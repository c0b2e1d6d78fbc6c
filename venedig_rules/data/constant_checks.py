"""Checks between game constants: a list constant's ``length`` is the value of another,
a ``by_players`` table's counts give values of one type (:func:`mixed_by_players`), and
each value fits what its constant declares (``type``, ``minimum``, ``maximum``, ``values``:
:func:`declared_bounds`).

A list with one entry per round (Rialto's ``round_districts``) declares ``length: rounds``;
a variant changing one of the two without the other gets one error, located at the value
the variant set (where the designer is looking), naming where the other lives.

>>> from venedig_rules.data.yamlsource import loads
>>> src = loads("game:\\n constants:\\n  rounds: 3\\n  order: {value: [1, 2], length: rounds}\\n", "game.yaml")
>>> for err in check_lengths(src.data, src.positions):
...     print(err.line())
game.yaml:4:18: rules/count: constant 'order' has 2 items; expected one per 'rounds', which is 3 (set at game.yaml:3:11)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..errors import ConstantError, CountError, Location, RulesError, did_you_mean
from .locate import where_changed
from .overlay_checks import constant_pointer, constant_values, constants_of, shown_value, type_name
from .value_bounds import value_problem
from .yamlsource import Plain, PositionMap, pointer


def check_lengths(data: dict[str, Any], positions: PositionMap) -> Iterator[RulesError]:
    """Every list constant whose number of items differs from the constant its ``length`` names."""
    game = data.get("game")
    constants = game.get("constants") if isinstance(game, dict) else None
    if not isinstance(constants, dict):
        return
    for name, const in constants.items():
        if not isinstance(const, dict) or not isinstance(const.get("length"), str):
            continue
        at = pointer("/game/constants", name)
        other = const["length"]
        if other not in constants:
            yield CountError(
                f"constant {name!r} takes its length from constant {other!r}, which the ruleset does not have"
                f"{did_you_mean(other, constants)}",
                positions.at(pointer(at, "length")),
            )
            continue
        items, length = const.get("value"), _value(constants[other])
        if not isinstance(items, list) or not isinstance(length, int) or isinstance(length, bool):
            continue  # a table by player count, or the schema's error
        if len(items) == length:
            continue
        items_at, length_at = positions.at(pointer(at, "value")), _value_at(positions, constants[other], other)
        declared = positions.key_at(pointer(at, "length"))
        # the value set elsewhere than the declaration is the one a variant changed: report it there
        if where_changed(declared, items_at) is declared and where_changed(declared, length_at) is length_at:
            yield CountError(
                f"constant {other!r} is {length}, but constant {name!r} (at {items_at}) has {len(items)} items, "
                f"one per {other!r}; give it {length}",
                length_at,
            )
        else:
            yield CountError(
                f"constant {name!r} has {len(items)} items; expected one per {other!r}, which is {length} "
                f"(set at {length_at})",
                items_at,
            )


def _value(const: Plain) -> Plain:
    return const.get("value") if isinstance(const, dict) else const


def _value_at(positions: PositionMap, const: Plain, name: str) -> Location:
    at = pointer("/game/constants", name)
    return positions.at(pointer(at, "value") if isinstance(const, dict) else at)


def mixed_by_players(data: dict[str, Any], positions: PositionMap) -> Iterator[ConstantError]:
    """Each count of a ``by_players`` table whose value is of another type than most of the
    table's (``"3": five`` among lists): the DSL checks would know the constant as ``any``.

    >>> from venedig_rules.data.yamlsource import loads
    >>> source = loads('game: {constants: {coins: {by_players: {"2": [1], "3": five, "4": [1]}}}}', "g.yaml")
    >>> for error in mixed_by_players(source.data, source.positions):
    ...     print(error.line().replace("; ", ";\\n      "))
    g.yaml:1:56: rules/constant: constant 'coins' is "five" (a string) for 3 players;
          its other player counts give a list ([1])
    """
    for name, const in constants_of(data).items():
        yield from mixed_types(name, const, positions)


def mixed_types(name: str, const: Plain, positions: PositionMap) -> list[ConstantError]:
    """The counts of constant ``name``'s ``by_players`` table whose value's type is not the one most give."""
    values = [(at, value) for at, value in constant_values(const) if at.startswith("by_players/")]
    first = {t: i for i, t in reversed(list(enumerate(type(v) for _, v in values)))}
    if len(first) < 2:
        return []
    counted = Counter(type(value) for _, value in values)
    usual = max(first, key=lambda t: (counted[t], -first[t]))  # the most; of those, the first given
    example = next(value for _, value in values if type(value) is usual)
    return [
        ConstantError(
            f"constant {name!r} is {shown_value(value)} ({type_name(value)}) for {at.split('/')[1]} players; "
            f"its other player counts give {type_name(example)} ({shown_value(example)})",
            positions.at(constant_pointer(name, at)),
        )
        for at, value in values
        if type(value) is not usual
    ]


def declared_bounds(
    data: dict[str, Any],
    positions: PositionMap,
    base: dict[str, Any] | None = None,
    base_positions: PositionMap | None = None,
) -> Iterator[ConstantError]:
    """Each value of a constant that breaks what the constant declares (``type``,
    ``minimum``, ``maximum``, ``values``, as an item param's declaration does). With the
    ``base`` of a variant (and where it lies, ``base_positions``), a constant the variant
    gave as a plain value (which replaces the whole constant, declarations too) is held to
    the base's declaration.

    >>> from venedig_rules.data.yamlsource import loads
    >>> source = loads("game: {constants: {bonus: {value: at_onec, values: [at_once, at_end]}}}", "g.yaml")
    >>> for error in declared_bounds(source.data, source.positions):
    ...     print(error.line().replace("; ", ";\\n      "))
    g.yaml:1:35: rules/constant: constant 'bonus' is "at_onec";
          expected one of 'at_once', 'at_end' (did you mean 'at_once'?) (bound constants.bonus.values at g.yaml:1:44)
    """
    declared = constants_of(base) if base is not None else {}
    for name, const in constants_of(data).items():
        own = isinstance(const, dict)
        decl = const if own else declared.get(name)
        if not isinstance(decl, dict) or mixed_types(name, const, positions):
            continue  # a table of mixed types is told by its odd count alone
        for at, value in constant_values(const):
            problem = value_problem(decl, value)
            if problem is None:
                continue
            hint = did_you_mean(value, decl["values"]) if problem.bound == "values" and isinstance(value, str) else ""
            bound = pointer(pointer("/game/constants", name), problem.bound or "type")
            where = positions if own or base_positions is None else base_positions
            yield ConstantError(
                f"constant {name!r} is {shown_value(value)}; expected {problem.expected}{hint}"
                f" (bound {bound.removeprefix('/game/').replace('/', '.')} at {where.key_at(bound)})",
                positions.at(constant_pointer(name, at)),
            )
