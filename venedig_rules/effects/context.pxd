# The compiled build's declarations for context.py (see engine/run/machine.pxd).

cdef class Ref:
    cdef public object ctx, index, name
