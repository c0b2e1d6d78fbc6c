"""The generator's draws on C integers (compiled build); nothing in the pure package.

A game draws from :mod:`rng` whenever it shuffles or rolls: a draw for each item of a
shuffled pile. Compiled from Python, each draw still makes the bound's limit,
the new state and the number as Python integers, and a tuple for each answer.
``rngloops.pyx``, compiled in place of this module (Python imports an extension module
before the source beside it), draws with rng's own C steps of SplitMix64 and rejects as
:mod:`rng` does, on 64-bit C integers, and shuffles in one C loop. In Python that arithmetic would cost more
than it saves (the masks that keep it within 64 bits), so here :data:`below` and
:data:`shuffled` are None and the machine draws from :mod:`rng`. Both give the same states
and numbers for every state and bound (``tests/test_rngloops.py``).

>>> from venedig_rules.engine.run import rng, rngloops
>>> rngloops.below is None or rngloops.below(rng.seed_state(7), 6) == rng.below(rng.seed_state(7), 6)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

#: ``below(state, n)``: what :func:`rng.below` gives, its errors too (a bound or state beyond
#: 64 bits is handed to it); None where it is :func:`rng.below` itself.
below: Callable[[int, int], tuple[int, int]] | None = None
#: ``shuffled(state, items)``: what :func:`rng.shuffled` gives; None where it is that itself.
shuffled: Callable[[int, Sequence[Any]], tuple[int, tuple[Any, ...]]] | None = None
