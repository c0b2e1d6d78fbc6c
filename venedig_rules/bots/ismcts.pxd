# The compiled build's declarations for ismcts.py (see engine/run/machine.pxd): a search
# weighs every child of every node it passes by UCB, and with the numbers typed as C doubles
# the weighing is arithmetic (the root's square root C's pow, as Python's ``** 0.5`` is); the
# nodes are extension types, whose counts are C fields, and so are the steps down the tree.

cimport cython


cdef class _Node:
    cdef public Py_ssize_t player, visits, available
    cdef public double reward
    cdef public dict children


cdef class _Step:
    cdef public object child
    cdef public bint new_leaf


@cython.locals(best=double, value=double, visits=double, reward=double, logged=double, available=Py_ssize_t, logs=tuple, child=_Node)
cpdef object _best_by_ucb(list actions, list found, double exploration)
