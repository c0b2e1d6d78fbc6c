"""A recorded game's log kept out of the cyclic garbage collector's walks (compiled build).

A recorded game keeps every event it made: a dict each, some holding lists (a move's
``from`` and ``to``, the cards of a play), and its undo history keeps a weak reference for
each state it let go of that something else still held. All of them are objects CPython's
cyclic garbage collector tracks, and each full collection walks every one of them again: a
process that holds many games (a web server's tables) pauses the longer the more they have
played. None of them can take part in a reference cycle: an event holds words, numbers and
containers of them, made once and never changed by the engine, and a weak reference made
without a callback holds nothing. So the compiled build takes them out of the collector's
sight, as CPython itself does with a dict or tuple of plain values; reference counting
frees them with their game as before. Nothing else changes: the same dicts, equal, in the
same log. With 100 finished 3-player games held, the collector tracks a third of the
objects, and a full collection takes a third of the time (``benchmarks/collector.py``;
docs/benchmarks.md).

The compiled build compiles ``untracked.pyx`` in place of this module (Python imports an
extension module before the source beside it). Python itself cannot untrack an object, so
here, in the pure package, both functions are None and the engine skips the step.

>>> from venedig_rules.engine.run import untracked
>>> untracked.settle_events is None or callable(untracked.settle_events)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: ``settle_events(events, start)``: takes ``events[start:]``, and the lists, dicts and
#: tuples they hold, out of the cyclic collector's walks; None where that cannot be done.
settle_events: Callable[[list[Any], int], None] | None = None

#: ``untrack_weak_refs(items, start, stop)``: takes the weak references (made without a
#: callback) among ``items[start:stop]`` out of the collector's walks (the undo history's,
#: one for each state it lets go of); None where that cannot be done.
untrack_weak_refs: Callable[[list[Any], int, int], None] | None = None
