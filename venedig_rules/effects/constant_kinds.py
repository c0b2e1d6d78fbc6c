"""What a game constant must be, checked at validate, at the constant's own line.

A constant that only Python reads (``rules.constant("draw_single")``) is seen by no DSL
type check: a designer who writes ``draw_single: {value: three}`` in the base files, or
misspells the board track ``gondola_track`` names, would get a clean ``validate`` and a
traceback in play. So a game module declares, with each constant it reads, what kind of
value it reads (:class:`ConstantKind`), and each value is checked against that kind
(``rules/constant``).

The DSL type checks read a constant's type from its value; a constant found wrong here is
``any`` to them (:data:`UNKNOWN`), so one mistake is told once, here.

>>> from venedig_rules.data.yamlsource import loads
>>> source = loads(
...     "game: {constants: {draw_single: {value: three}, track: {value: gondla}}}\\n"
...     "board: {tracks: [{id: gondola}]}", "game.yaml")
>>> kinds = {"draw_single": ConstantKind.COUNT, "track": ConstantKind.TRACK}
>>> checked = check_constants(source.data, source.positions, kinds)
>>> for error in checked.errors:
...     print(error.line().replace("; ", ";\\n    "))
game.yaml:1:41: rules/constant: constant 'draw_single' is "three" (a string);
    a game module reads it as a whole number of at least 0
game.yaml:1:64: rules/constant: constant 'track' is "gondla", which is no track of board.yaml (did you mean 'gondola'?);
    a game module reads it as the id of a track of board.yaml
>>> sorted(checked.wrong)
['draw_single', 'track']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import Enum
from typing import Any, NamedTuple

from ..data.board import grid_spaces
from ..data.constant_checks import mixed_types
from ..data.overlay_checks import constant_pointer, constant_values, shown_value, type_name
from ..data.value_bounds import value_problem
from ..data.yamlsource import PositionMap
from ..errors import ConstantError, did_you_mean


class ConstantKind(Enum):
    """What a game module reads a constant as; the value is what an error says."""

    #: no check: a module that declares its reads by name only (``frozenset({...})``)
    ANY = "any value"
    COUNT = "a whole number of at least 0"
    FLAG = "true or false"
    TEXT = "a text"
    TRACK = "the id of a track of board.yaml"
    TERRAIN = "a terrain that some space of board.yaml has"


#: What a constant found wrong is to the DSL type checks: typed ``any``, never folded.
UNKNOWN: dict[str, Any] = {"by_players": {}}


class ConstantCheck(NamedTuple):
    """The errors of the constants, and the names of the constants they are about."""

    errors: list[ConstantError]
    wrong: frozenset[str]


def check_constants(
    data: Mapping[str, Any], positions: PositionMap, kinds: Mapping[str, ConstantKind]
) -> ConstantCheck:
    """Each value of a constant in ``kinds`` not of its kind; ``wrong`` also names the
    constants the data checks found wrong (a value against its declaration, a table of
    mixed types), which the DSL checks are not to tell again."""
    game = data.get("game")
    constants = game.get("constants") if isinstance(game, Mapping) else None
    if not isinstance(constants, Mapping):
        return ConstantCheck([], frozenset())
    board = data.get("board")
    board = board if isinstance(board, dict) else {}
    errors: list[ConstantError] = []
    wrong: set[str] = set()
    for name, constant in constants.items():
        if mixed_types(name, constant, positions) or _breaks_declaration(constant):
            wrong.add(name)  # the data checks' error: told there, once
            continue
        kind = kinds.get(name, ConstantKind.ANY)
        found = [] if kind is ConstantKind.ANY else list(_of_kind(name, constant, kind, board, positions))
        if found:
            errors += found
            wrong.add(name)
    return ConstantCheck(errors, frozenset(wrong))


def _breaks_declaration(constant: Any) -> bool:
    """Whether a value breaks what the constant itself declares (``type``, ``minimum``, ...)."""
    return isinstance(constant, dict) and any(value_problem(constant, v) for _, v in constant_values(constant))


def _of_kind(
    name: str, constant: Any, kind: ConstantKind, board: dict[str, Any], positions: PositionMap
) -> Iterator[ConstantError]:
    for at, value in constant_values(constant):
        problem = _problem(value, kind, board)
        if problem is not None:
            yield ConstantError(
                f"constant {name!r} is {shown_value(value)}{problem}; a game module reads it as {kind.value}",
                positions.at(constant_pointer(name, at)),
            )


#: The kinds as the declarations a constant may give itself (:mod:`~venedig_rules.data.value_bounds`);
#: a new kind needs its entry here (a KeyError, not a kind left unchecked).
_AS_DECLARED: dict[ConstantKind, dict[str, Any]] = {
    ConstantKind.COUNT: {"type": "integer", "minimum": 0},
    ConstantKind.FLAG: {"type": "boolean"},
    ConstantKind.TEXT: {"type": "string"},
    ConstantKind.TRACK: {"type": "string"},
    ConstantKind.TERRAIN: {"type": "string"},
}


def _problem(value: Any, kind: ConstantKind, board: dict[str, Any]) -> str | None:
    """What is wrong with ``value`` as ``kind``, worded to follow it; None when nothing is."""
    broken = value_problem(_AS_DECLARED[kind], value)  # every kind but ANY, which is never checked
    if broken is not None:
        return f" ({type_name(value)})" if not broken.bound else ""
    if kind is ConstantKind.TRACK:
        tracks = [t.get("id") for t in board.get("tracks") or () if isinstance(t, Mapping)]
        known = [t for t in tracks if isinstance(t, str)]
        return None if value in known else f", which is no track of board.yaml{did_you_mean(value, known)}"
    if kind is ConstantKind.TERRAIN:
        terrains = sorted({str(a["terrain"]) for a in grid_spaces(board).values() if "terrain" in a})
        return None if value in terrains else f", which no space of board.yaml has{did_you_mean(value, terrains)}"
    return None
