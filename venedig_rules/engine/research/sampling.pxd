# The compiled build's declarations for sampling.py (see engine/run/machine.pxd): a deal
# fills its free positions one draw each, and with the positions typed as C integers the
# loop indexes its lists directly; a place's span of the flat items is an extension type,
# whose offsets are C fields.

cimport cython


cdef class _Span:
    cdef public object var, slot
    cdef public Py_ssize_t start, end
    cdef public bint is_list


@cython.locals(n=Py_ssize_t, k=Py_ssize_t, j=Py_ssize_t, at=Py_ssize_t, step=Py_ssize_t, u=double)
cpdef _fill(list rest, list open_, list flat, draw)

@cython.locals(span=_Span, out=dict, parts=dict, part=list)
cpdef dict _placed(dict values, list flat, list spans)
