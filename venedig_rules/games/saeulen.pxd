# The compiled build's declarations for saeulen.py (hatch_build.py; Cython reads them, Python
# never does). The board walks index lists and tuples by square number at every Pitch
# Dipper: with the numbers typed as C integers, an index is a direct read of the list's or
# tuple's item, where an untyped one goes through Python's item protocol and turns the
# number back into a C integer each time. The values are the pure-Python ones.

cimport cython


@cython.locals(n=Py_ssize_t, found=list)
cpdef list _spot_indexes(t, has_pillar, placed)

@cython.locals(i=Py_ssize_t, n=Py_ssize_t, j=Py_ssize_t, first=Py_ssize_t, mark=list, enough=list, short=list)
cpdef list _walked_starts(t, has_pillar, Py_ssize_t need)

cpdef list _best_starts(t, has_pillar, Py_ssize_t need)

@cython.locals(i=Py_ssize_t, found=list)
cpdef list _free(t, has_pillar, ground)

@cython.locals(i=Py_ssize_t, j=Py_ssize_t, found=list)
cpdef list _placements(dict anchored, free, has_pillar, ground, bint first_only)

# Helpers the primitives call at nearly every Pitch Dipper and Master Builder step: declared
# here, a call from the primitives is a C call instead of one through Python's call protocol.
cpdef tuple _spots(t, has_pillar, placed)

cpdef str _tile(t, tile)
