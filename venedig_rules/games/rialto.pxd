# The compiled build's declarations for rialto.py (hatch_build.py; Cython reads them, Python
# never does; see games/venedig.pxd): the helpers the primitives call at every turn of every
# stage, declared here so that a call from the primitives is a C call instead of one through
# Python's call protocol. The values are the pure-Python ones.

cimport cython


@cython.locals(of_kind=Py_ssize_t, jokers=Py_ssize_t)
cpdef tuple _type_and_jokers(f, cards, kind)

cpdef _add(ctx, name, index, amount)

cpdef _set_doge_order(ctx, order)

cpdef bint _ensure_pile(ctx) except -1

cpdef _draw(ctx, target)

cpdef _unactivate(ctx, p, b)
