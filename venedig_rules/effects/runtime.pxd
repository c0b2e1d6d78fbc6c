# The compiled build's declarations for runtime.py (see engine/run/machine.pxd). The value
# budget's walk of a nested list calls itself once per list inside: as a cpdef function
# with its counts typed as C integers, that is a C call, where a Python function's call
# costs several hundred instructions (Säulen walks its growing lists of built squares at
# nearly every write). The budgets and the errors stay the pure-Python ones.

cimport cython


@cython.locals(n=Py_ssize_t, start=Py_ssize_t, nested=bint)
cpdef Py_ssize_t _items_left(value, Py_ssize_t left, dict seen, Py_ssize_t depth) except? -1
