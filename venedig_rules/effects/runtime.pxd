# The compiled build's declarations for runtime.py (see engine/run/machine.pxd). The value
# budget's walk of a nested list calls itself once per list inside: as a cpdef function
# with its counts typed as C integers, that is a C call, where a Python function's call
# costs several hundred instructions (Säulen walks its growing lists of built squares at
# nearly every write). The budgets and the errors stay the pure-Python ones.

cimport cython


@cython.locals(n=Py_ssize_t, start=Py_ssize_t, nested=bint)
cpdef Py_ssize_t _items_left(value, Py_ssize_t left, dict seen, Py_ssize_t depth) except? -1

# a list grown an item at a time (``out += x`` in a loop) counts its items at every step:
# the remembered count of the list so far is a C call away
cpdef Py_ssize_t items(value) except? -1
cdef _remember(value, Py_ssize_t count)

# a value made immutable (lists to tuples): the machine freezes every decision's value and
# every binding it hands a rule item, as a C call (engine/run/machine.pxd cimports it)
cpdef freeze(value)
