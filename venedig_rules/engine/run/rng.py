"""A seeded random number generator whose whole state is one integer, so it lives inside
the game state: the same seed and the same actions give the same game, byte for byte,
on every platform and Python version (SplitMix64; not for cryptography).

>>> state = seed_state(7)
>>> state, a = below(state, 6)
>>> state, b = below(state, 6)
>>> (a, b) == (below(seed_state(7), 6)[1], below(below(seed_state(7), 6)[0], 6)[1])
True
>>> shuffled(seed_state(1), ["a", "b", "c", "d"])[1]
('b', 'c', 'd', 'a')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = 0xFFFFFFFFFFFFFFFF  # 64 bits
# SplitMix64's constants (rng.pxd makes them and the steps below 64-bit C integers in the
# compiled build, whose arithmetic wraps as the masks here do)
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_SPAN = 1 << 64  # how many numbers a step gives


def seed_state(seed: int) -> int:
    """The generator state for a seed (any integer): every bit of the seed counts, so two
    seeds that differ anywhere (also beyond 64 bits) start different games, and every
    64-bit seed gives its own state.

    >>> seed_state(5) != seed_state(5 + 2**64) != seed_state(5 + 2**200)
    True
    """
    if -(1 << 63) <= seed <= _MASK:  # the generator's width: a seed is the state, spread
        return (seed * _GOLDEN + 0x2545F4914F6CDD1D) & _MASK
    folded, rest = (1 if seed < 0 else 2), abs(seed)  # wider: mix in 64 bits at a time
    while rest:
        folded = next64(folded ^ (rest & _MASK))[1]
        rest >>= 64
    return (folded * _GOLDEN + 0x2545F4914F6CDD1D) & _MASK


def next64(state: int) -> tuple[int, int]:
    """(new state, a 64-bit random integer)."""
    state = _advance(state)
    return state, _mix(state)


def _advance(state: int) -> int:
    return (state + _GOLDEN) & _MASK


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a uniform integer in ``range(n)``), without modulo bias."""
    if not 0 < n <= 1 << 64:  # (beyond 2**64 no draw would ever fall below the limit)
        raise ValueError(f"below() needs a bound from 1 to 2**64, not {n}")
    limit = _SPAN - _SPAN % n
    while True:
        state = _advance(state)
        value = _mix(state)
        if value < limit:
            return state, value % n


def shuffled(state: int, items: Sequence[T]) -> tuple[int, tuple[T, ...]]:
    """(new state, the items in a uniformly random order) by Fisher-Yates: each item's draw is
    :func:`below`'s, its steps written out here (a shuffle draws once an item, and in the pure
    package the calls of ``below`` and its two steps were a tenth to a fifth of its time; the
    compiled build shuffles in ``rngloops.pyx`` instead)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _SPAN - _SPAN % n
        while True:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)
