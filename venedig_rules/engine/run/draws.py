"""A random option drawn the way ``random.Random.choice`` draws it, in code the compiled
build compiles: the standard library's ``choice`` is Python code (``choice``, then
``_randbelow``: two frames of the interpreter a draw), and a search draws some ten times
an iteration (the others' moves, the untried option widening adds), a playout
(:meth:`Game.playout <venedig_rules.engine.game.Game.playout>`) once an action.

The draw is the standard library's, step by step (``getrandbits`` of the length's bit
length until the number is below the length), so a search draws the same options with
either:

>>> import random
>>> items = ["a", "b", "c", "d", "e"]
>>> mine, theirs = random.Random(7), random.Random(7)
>>> [choice(mine, items) for _ in range(6)] == [theirs.choice(items) for _ in range(6)]
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def choice(rand: random.Random, items: Sequence[T]) -> T:
    """One of ``items`` drawn from ``rand``, as ``rand.choice(items)`` draws it (the same
    item, the generator left in the same state); ``IndexError`` when there is none.

    >>> choice(random.Random(1), [10, 20, 30])
    10
    >>> choice(random.Random(1), [])
    Traceback (most recent call last):
    ...
    IndexError: Cannot choose from an empty sequence
    """
    n = len(items)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    bits = rand.getrandbits
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return items[r]
