# The compiled build's declarations for venedig.py (hatch_build.py; Cython reads them, Python
# never does; see games/saeulen.pxd): a space's index typed as a C integer reads the
# per-space value's item directly. The values are the pure-Python ones.

cimport cython


@cython.locals(i=Py_ssize_t, found=list)
cpdef tuple _on_swamp(tuple by_name, swamp)

@cython.locals(k=Py_ssize_t, j=Py_ssize_t, out=list)
cpdef tuple _free_sites(tuple sites, tuple indexes, list free)

cpdef _free_mask(built, swamp, list blocked, walk)

# The laid-out cards' helpers, called by the primitives several times a turn: declared here,
# a call is a C call instead of one through Python's call protocol.
cpdef list _holders(ctx, laid_out, ghost)

@cython.locals(n=Py_ssize_t)
cpdef Py_ssize_t _count_type(f, cards, building) except -1

cpdef dict _type_counts(f, cards)

cpdef dict _laid_out_by_type(f, laid_out, ghost)

cpdef dict _by_type(f, cards)

@cython.locals(mine=Py_ssize_t, others=Py_ssize_t, n=Py_ssize_t)
cpdef tuple _counts(f, laid_out, ghost, who, building)
