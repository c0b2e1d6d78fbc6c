# The compiled build's declarations for rng.py (see machine.pxd): SplitMix64's steps on
# 64-bit unsigned C integers, whose arithmetic wraps exactly as rng.py's masks make Python's
# (the state is always below 2**64). rngloops.pyx draws with these same two steps.

cdef unsigned long long _MASK, _GOLDEN, _MIX1, _MIX2

cdef unsigned long long _advance(unsigned long long state)
cdef unsigned long long _mix(unsigned long long z)
