"""Venedig's walks of the board in C (compiled build); nothing in the pure package.

``venedig.swamp_spaces`` lists the spaces a swamp tile lies on, sorted, after every drain:
it walks the board's spaces in the order of their names and looks up each one's value in
the per-space value (``swamp_gold``). Compiled from Python, each space's place is read as
an object and turned into a C integer again at every step, 1.6% of a compiled Venedig
action. ``_venedig_walks.pyx``, compiled in place of this module (Python imports an
extension module before the source beside it), keeps the places in a C array made once per
ruleset. In Python the array would be a list and the walk ``venedig._on_swamp``'s own loop,
so here :data:`order` is None and venedig.py walks as before. Both give the same spaces in
the same order.

``venedig.building_sites`` likewise finds the free sites of a building: which spaces are
free (no building, no swamp tile, not drained this turn), then each candidate site whose
spaces all are (a building shaped to fit anywhere has a candidate site wherever it fits).
Compiled from Python, that was 2.6% of a compiled Venedig action; the compiled :class:`Sites` holds
every building's candidate sites as places in C arrays and the free spaces as one byte
each. Here :data:`sites` is None.

>>> import types, venedig_rules as vr
>>> from venedig_rules.games import _venedig_walks, venedig
>>> facts = venedig._facts(types.SimpleNamespace(rules=vr.load("venedig")))
>>> swamp = (None,) * (len(facts.spaces) - 1) + ("tile",)
>>> facts.swamp_walk is None or facts.swamp_walk.occupied(swamp) == (facts.spaces[-1],)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol


class SpaceOrder(Protocol):
    """The board's spaces in the order of their names (the compiled ``SpaceOrder``)."""

    def occupied(self, values: Sequence[Any]) -> tuple[str, ...]: ...


class Sites(Protocol):
    """Every building's candidate sites (the compiled ``Sites``)."""

    def free_mask(self, built: Sequence[Any], swamp: Sequence[Any], blocked: Sequence[int]) -> bytearray: ...
    def free_sites(self, building: str, mask: bytearray) -> tuple[tuple[str, ...], ...]: ...


#: ``order(by_name)``: the :class:`SpaceOrder` of venedig's ``_Facts.by_name``, each space's
#: (place in a per-space value, name) in the order of the names.
order: Callable[[tuple[tuple[int, str], ...]], SpaceOrder] | None = None
#: ``sites(site_indexes, site_names, spaces)``: the :class:`Sites` of venedig's ``_Facts``
#: (its ``site_indexes`` and ``sites``, on a board of ``spaces`` spaces).
sites: Callable[[dict[str, tuple[tuple[int, ...], ...]], dict[str, tuple[tuple[str, ...], ...]], int], Sites] | None = (
    None
)
