"""Board spaces from ``board.yaml``: a grid drawn as rows of characters plus overrides.

A space id is the column's letters then the 1-based row number: column 0 is ``a``,
column 25 ``z``, column 26 ``aa``.

>>> space_id(2, 3), space_id(26, 0)
('c4', 'aa1')
>>> board = {"grid": {"type": "square", "rows": ["#~", ".#"],
...                   "legend": {"#": {"terrain": "land"}, "~": {"terrain": "canal"}}},
...          "spaces": {"b2": {"tags": ["startfeld"]}}}
>>> grid_spaces(board)
{'a1': {'terrain': 'land', 'col': 0, 'row': 0}, 'b1': {'terrain': 'canal', 'col': 1, 'row': 0}, 'b2': {'terrain': 'land', 'col': 1, 'row': 1, 'tags': ['startfeld']}}
"""

from __future__ import annotations

from typing import Any

#: Map characters that stand for no space.
EMPTY = frozenset(" .")


def space_id(col: int, row: int) -> str:
    """The id of the space in 0-based ``col`` and ``row``."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return f"{letters}{row + 1}"


def grid_spaces(board: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every space of the board's grid with its attributes (legend, then ``spaces`` overrides).

    Characters not in the legend are skipped here; the rule checks report them.
    """
    grid = board.get("grid") if isinstance(board, dict) else None
    spaces: dict[str, dict[str, Any]] = {}
    if isinstance(grid, dict) and isinstance(grid.get("rows"), list):
        legend = grid.get("legend") if isinstance(grid.get("legend"), dict) else {}
        for row, text in enumerate(grid["rows"]):
            for col, char in enumerate(text if isinstance(text, str) else ""):
                if char not in EMPTY and isinstance(legend.get(char), dict):
                    spaces[space_id(col, row)] = {**legend[char], "col": col, "row": row}
    overrides = board.get("spaces") if isinstance(board, dict) else None
    for sid, attrs in (overrides or {}).items():
        if sid in spaces and isinstance(attrs, dict):
            spaces[sid].update(attrs)
    return spaces


def matches(attrs: dict[str, Any], where: dict[str, Any]) -> bool:
    """Whether a space's attributes match a selector (every key equal; ``tags`` all present).

    >>> matches({"start": "swamp", "tags": ["a", "b"]}, {"start": "swamp", "tags": ["a"]})
    True
    """
    for key, want in where.items():
        have = attrs.get(key)
        if key == "tags":
            if not set(want) <= set(have or ()):
                return False
        elif have != want:
            return False
    return True
