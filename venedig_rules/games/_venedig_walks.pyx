# cython: boundscheck=False, wraparound=False
"""The compiled build's ``_venedig_walks`` module: see ``_venedig_walks.py``, its pure twin,
for why. Compiled in place of it (``compiled-modules`` in pyproject.toml).

A :class:`SpaceOrder` holds the spaces' places as a C array, made once per ruleset, and
gives what ``venedig._on_swamp`` gives. No place is checked as it is read (the directives
above): a per-space value is checked once to be long enough, where it enters the walk.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc


def order(tuple by_name):
    """The :class:`SpaceOrder` of ``by_name``: each space's (place in a per-space value,
    name), in the order of the names."""
    return SpaceOrder(by_name)


cdef class SpaceOrder:
    # the spaces; how long a per-space value must be (the highest place + 1)
    cdef Py_ssize_t count, size
    # the spaces' places, in the order of the names
    cdef Py_ssize_t *places
    cdef tuple names

    def __cinit__(self, tuple by_name):
        cdef Py_ssize_t k, place
        self.count = len(by_name)
        self.size = 0
        self.places = <Py_ssize_t *> PyMem_Malloc((self.count + 1) * sizeof(Py_ssize_t))
        if self.places is NULL:
            raise MemoryError()
        names = []
        for k, (at, name) in enumerate(by_name):
            place = at
            if place < 0:
                raise IndexError(f"space {name!r} at place {place}: a per-space value has none")
            self.places[k] = place
            if place >= self.size:
                self.size = place + 1
            names.append(name)
        self.names = tuple(names)

    def __dealloc__(self):
        PyMem_Free(self.places)

    def occupied(self, values):
        """``venedig._on_swamp``: the spaces whose value is not None, in the order of their
        names."""
        cdef tuple board = values if type(values) is tuple else tuple(values)
        cdef Py_ssize_t k
        if len(board) < self.size:
            raise IndexError(f"a value for each of {self.size} spaces, not {len(board)}")
        out = []
        for k in range(self.count):
            if board[self.places[k]] is not None:
                out.append(self.names[k])
        return tuple(out)
