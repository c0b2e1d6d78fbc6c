"""Säulen's board walks in C (compiled build); nothing in the pure package.

``saeulen.py`` finds where a pillar may stand, how large each free land area is and which
pillars are free by walking the board's squares: at every Pitch Dipper and Master Builder,
and at every step of a search through them. Compiled from Python, each square's value is
read through Python's item protocol and each square's number made again as an object;
``_saeulen_walks.pyx``, compiled in place of this module (Python imports an extension module
before the source beside it), keeps the board's tables in C arrays and reads a board's
values once a call into another. In Python those arrays would be lists and the walks
saeulen.py's own loops, so here :data:`board` is None, ``Tables.walks`` is None and
saeulen.py walks as before. Both give the same squares in the same order.

>>> import venedig_rules as vr
>>> from venedig_rules.games import _saeulen_walks, saeulen
>>> t = saeulen.tables(vr.load("saeulen"))
>>> empty = (False,) * len(t.ids)
>>> t.walks is None or t.walks.area_sizes(empty, [t.land[0]], 3) == [3]
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol


class Walks(Protocol):
    """The walks over one board (the compiled ``Walks``): what saeulen's ``_area_sizes``,
    ``_spot_indexes`` (nothing placed, and squares placed) and ``_free`` find."""

    def area_sizes(self, has_pillar: Sequence[Any], firsts: Sequence[int], need: int) -> list[int]: ...
    def spot_starts(self, has_pillar: Sequence[Any]) -> list[int]: ...
    def spots_beside(self, placed: Sequence[str], index: dict[str, int], has_pillar: Sequence[Any]) -> list[int]: ...
    def free_squares(self, has_pillar: Sequence[Any], ground: Sequence[Any]) -> list[int]: ...


#: ``board(land_around, land_neighbours)``: the :class:`Walks` over the board of a
#: ``saeulen.Tables`` (its ``land_around`` and ``land_neighbours``); None for a board of
#: more than 512 squares, whose walks' marks would not fit on the C stack.
board: Callable[[tuple[tuple[int, bool, tuple[int, ...]], ...], tuple[tuple[int, ...], ...]], Walks | None] | None = (
    None
)
