# cython: boundscheck=False, wraparound=False
"""The compiled build's ``_venedig_walks`` module: see ``_venedig_walks.py``, its pure twin,
for why. Compiled in place of it (``compiled-modules`` in pyproject.toml).

A :class:`SpaceOrder` holds the spaces' places as a C array, made once per ruleset, and
gives what ``venedig._on_swamp`` gives; :class:`Sites` holds every building's candidate
sites as places in C arrays, and gives what ``venedig.building_sites`` finds in Python. No
place is checked as it is read (the directives above): each is checked once, where it
enters (a per-space value to be long enough, a site's or a blocked space's place to lie on
the board).
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


def sites(dict site_indexes, dict site_names, Py_ssize_t spaces):
    """The :class:`Sites` of venedig's ``_Facts``: each building's candidate sites as their
    spaces' places (``site_indexes``) and as the spaces' names (``site_names``, in the same
    order), on a board of ``spaces`` spaces."""
    return Sites(site_indexes, site_names, spaces)


cdef class Sites:
    cdef Py_ssize_t spaces
    # building -> (its first site's number, its sites' names): site s's places are
    # places[starts[s]:starts[s + 1]]
    cdef dict buildings
    cdef Py_ssize_t *starts
    cdef Py_ssize_t *places

    def __cinit__(self, dict site_indexes, dict site_names, Py_ssize_t spaces):
        cdef Py_ssize_t total = 0, at = 0, number = 0, place
        self.spaces = spaces
        self.buildings = {}
        for building, indexes in site_indexes.items():
            if len(indexes) != len(site_names[building]):
                raise ValueError(f"{building!r}: {len(indexes)} sites by place, {len(site_names[building])} by name")
            for site in indexes:
                total += len(site)
            number += len(indexes)
        self.starts = <Py_ssize_t *> PyMem_Malloc((number + 1) * sizeof(Py_ssize_t))
        self.places = <Py_ssize_t *> PyMem_Malloc((total + 1) * sizeof(Py_ssize_t))
        if self.starts is NULL or self.places is NULL:
            raise MemoryError()
        number = 0
        for building, indexes in site_indexes.items():
            self.buildings[building] = (number, tuple(site_names[building]))
            for site in indexes:
                self.starts[number] = at
                number += 1
                for p in site:
                    place = p
                    if not 0 <= place < spaces:
                        raise IndexError(f"a site of {building!r} at place {place}: the board has {spaces} spaces")
                    self.places[at] = place
                    at += 1
        self.starts[number] = at

    def __dealloc__(self):
        PyMem_Free(self.starts)
        PyMem_Free(self.places)

    def free_mask(self, built, swamp, blocked):
        """Which spaces are free, one byte a space (1: free): no building (``built``), no
        swamp tile (``swamp``) and not one of the ``blocked`` places."""
        cdef tuple on = built if type(built) is tuple else tuple(built)
        cdef tuple wet = swamp if type(swamp) is tuple else tuple(swamp)
        cdef Py_ssize_t i, place
        if len(on) < self.spaces or len(wet) < self.spaces:
            raise IndexError(f"a value for each of {self.spaces} spaces, not {min(len(on), len(wet))}")
        out = bytearray(self.spaces)
        cdef unsigned char *mask = out
        for i in range(self.spaces):
            mask[i] = on[i] is None and wet[i] is None
        for p in blocked:
            place = p
            if not 0 <= place < self.spaces:
                raise IndexError(f"place {place}: the board has {self.spaces} spaces")
            mask[place] = 0
        return out

    def free_sites(self, building, bytearray mask not None):
        """The sites of ``building`` whose every space is free in ``mask`` (a
        :meth:`free_mask`), as their names, in order."""
        first, names = self.buildings[building]
        cdef Py_ssize_t s, k, start = first, count = len(names)
        if len(mask) < self.spaces:
            raise IndexError(f"a mark for each of {self.spaces} spaces, not {len(mask)}")
        cdef const unsigned char *free = mask
        out = []
        for s in range(start, start + count):
            for k in range(self.starts[s], self.starts[s + 1]):
                if not free[self.places[k]]:
                    break
            else:
                out.append(names[s - start])
        return tuple(out)
