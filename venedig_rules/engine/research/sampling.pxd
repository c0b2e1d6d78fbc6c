# The compiled build's declarations for sampling.py (see engine/run/machine.pxd): a deal
# fills its free positions one draw each, and with the positions typed as C integers the
# loop indexes its lists directly.

cimport cython


@cython.locals(n=Py_ssize_t, k=Py_ssize_t, j=Py_ssize_t, u=double)
cpdef _fill(list rest, list open_, list flat, draw)
