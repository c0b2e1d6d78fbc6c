"""Instances of a class with slots, their slots written at once (compiled build); nothing in
the pure package.

The machine makes a ``PendingChoice`` at every decision. A frozen dataclass's ``__init__``
sets each field through ``object.__setattr__``; the machine instead fills the slots of a
twin class and then makes the object a ``PendingChoice`` (``machine._new_choice``). Compiled,
that still looks each slot up by name and calls its descriptor's setter through Python's
attribute protocol: eight slots, 2% of a compiled Venedig action. ``slotted.pyx``, compiled in
place of this module (Python imports an extension module before the source beside it),
reads each slot's place in the object from the class once (its member descriptor, as
``PyMember_SetOne`` reads it) and then allocates an instance of the class itself and stores
the values there through ``PyMember_SetOne``, the C function the descriptor's setter calls.
Python has no such path, so here :data:`maker` is None and the machine makes its decisions
as before. Both give equal objects of the same class.

>>> from venedig_rules.engine.run import slotted
>>> class Point:
...     __slots__ = ("x", "y")
>>> make = slotted.maker(Point, ("x", "y")) if slotted.maker is not None else None
>>> make is None or (make(1, 2).x, make(1, 2).y) == (1, 2)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: ``maker(cls, names)``: a function of as many values as ``names`` that gives a new
#: instance of ``cls`` (not ``__init__``'s: nothing else runs) with each slot of ``names`` set
#: to its value; a TypeError when a name is no object slot of ``cls`` itself. None where
#: Python sets the slots itself.
maker: Callable[[type, tuple[str, ...]], Callable[..., Any]] | None = None
