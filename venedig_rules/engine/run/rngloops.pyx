"""The compiled build's ``rngloops`` module: see ``rngloops.py``, its pure twin, for why.

Compiled in place of ``rngloops.py`` (``compiled-modules`` in pyproject.toml). The steps are
rng.py's own C functions (``_advance`` and ``_mix``, which ``rng.pxd`` declares), so the
generator is written once; this module adds rng.py's rejection around them: a bound's draws
at or above the largest multiple of the bound below 2**64 are drawn again.
"""

from libc.stdint cimport uint64_t

from . import rng as _rng
from .rng cimport _advance, _mix

cdef uint64_t _TOP = 0xFFFFFFFFFFFFFFFFULL


cdef inline uint64_t _draw(uint64_t* state, uint64_t n):
    """A number in range(n) (n >= 1), the state advanced past the draws it took. rng.py keeps
    a draw below 2**64 - 2**64 % n; 2**64 % n is (2**64 - n) % n, which is -n % n here."""
    cdef uint64_t highest = _TOP - (0 - n) % n  # the largest draw kept
    cdef uint64_t z
    while True:
        state[0] = _advance(state[0])
        z = _mix(state[0])
        if z <= highest:
            return z % n


cdef bint _as_state(object value, uint64_t* out):
    """Whether ``value`` is an int of 64 bits (stored in ``out``); anything else is rng.py's
    to take or refuse (Cython would take a float's whole part, or a bool)."""
    if type(value) is not int:
        return False
    try:
        out[0] = value
    except OverflowError:
        return False
    return True


def below(state, n):
    """rng.below(state, n) (its errors too)."""
    cdef uint64_t s, bound
    if not _as_state(state, &s) or not _as_state(n, &bound) or bound == 0:
        return _rng.below(state, n)
    value = _draw(&s, bound)
    return s, value


def shuffled(state, items):
    """rng.shuffled(state, items) by Fisher-Yates, the swaps in one C loop."""
    cdef uint64_t s
    cdef Py_ssize_t i, j
    if not _as_state(state, &s):
        return _rng.shuffled(state, items)
    cdef list out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = <Py_ssize_t>_draw(&s, <uint64_t>(i + 1))
        out[i], out[j] = out[j], out[i]
    return s, tuple(out)
