# cython: boundscheck=False, wraparound=False
"""The compiled build's ``_saeulen_walks`` module: see ``_saeulen_walks.py``, its pure twin,
for why. Compiled in place of it (``compiled-modules`` in pyproject.toml).

A :class:`Walks` holds a board's tables as C arrays, made once per ruleset. Each walk gives
what the loop of ``saeulen.py`` it stands for gives, for the squares the game module asks
about (a start of an area is a free square); a board's values are read once a call into a C
array of marks, and the walks' queues are C arrays too. No index is checked as it is read
(the directives above): every square number is checked once, where it enters a walk.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject_IsTrue
from libc.string cimport memset

cdef enum:
    # the most squares a board walked in C may have: a walk's marks and queue are on the C
    # stack (the bundled board fits several times over; a larger one is walked by saeulen.py)
    STACK_SQUARES = 512


cdef inline int _true(value) except -1:
    # a board value is True or False; anything else is asked as Python asks it
    return 1 if value is True else 0 if value is False else PyObject_IsTrue(value)


def board(tuple land_around, tuple land_neighbours):
    """The walks over a board of ``saeulen.Tables``: its land squares in order (each as
    (square, whether it lies by the canal, its land neighbours)) and each square's land
    neighbours; None for a board of more than 512 squares."""
    return Walks(land_around, land_neighbours) if len(land_neighbours) <= STACK_SQUARES else None


cdef class Walks:
    cdef Py_ssize_t squares, lands
    # the land squares in order, whether each square lies by the canal, and each square's
    # land neighbours: those of square i are neighbours[starts[i]:starts[i + 1]]
    cdef Py_ssize_t *land
    cdef char *by_canal
    cdef Py_ssize_t *starts
    cdef Py_ssize_t *neighbours

    def __cinit__(self, tuple land_around, tuple land_neighbours):
        cdef Py_ssize_t i, k, at = 0, links = 0
        self.squares = len(land_neighbours)
        self.lands = len(land_around)
        if self.squares > STACK_SQUARES:
            raise ValueError(f"a board of {self.squares} squares: the walks in C take at most {STACK_SQUARES}")
        for around in land_neighbours:
            links += len(around)
        self.land = <Py_ssize_t *> PyMem_Malloc((self.lands + self.squares + 1 + links + 1) * sizeof(Py_ssize_t))
        self.by_canal = <char *> PyMem_Malloc(self.squares + 1)
        if self.land is NULL or self.by_canal is NULL:
            raise MemoryError()
        self.starts = self.land + self.lands
        self.neighbours = self.starts + self.squares + 1
        for i in range(self.squares):
            self.by_canal[i] = 0
            self.starts[i] = at
            for n in land_neighbours[i]:
                self.neighbours[at] = self._square(n)
                at += 1
        self.starts[self.squares] = at
        for k, (square, canal, _) in enumerate(land_around):
            i = self._square(square)
            self.land[k] = i
            self.by_canal[i] = bool(canal)

    def __dealloc__(self):
        PyMem_Free(self.land)
        PyMem_Free(self.by_canal)

    cdef Py_ssize_t _square(self, object number) except -1:
        cdef Py_ssize_t i = number
        if not 0 <= i < self.squares:
            raise IndexError(f"square {i} is not on a board of {self.squares} squares")
        return i

    cdef tuple _values(self, values):
        """A board's values, one a square, as a tuple."""
        cdef tuple board = values if type(values) is tuple else tuple(values)
        if len(board) != self.squares:
            raise IndexError(f"a value for each of {self.squares} squares, not {len(board)}")
        return board

    def area_sizes(self, has_pillar, firsts, Py_ssize_t need):
        """``saeulen._area_sizes``: for each free land square of ``firsts``, how many free
        land squares are joined to it edge to edge, counted up to ``need``."""
        cdef tuple board = self._values(has_pillar)
        # mark: 0 free and not walked, 1 under a pillar, from 2 the number of the area walked
        cdef Py_ssize_t mark[STACK_SQUARES]
        cdef Py_ssize_t area[STACK_SQUARES]
        cdef Py_ssize_t sizes[STACK_SQUARES]
        cdef Py_ssize_t i, n, k, head, length, number, areas = 0
        out = []
        for i in range(self.squares):
            mark[i] = _true(board[i])
        for first in firsts:
            i = self._square(first)
            number = mark[i]
            if number == 0:
                number = areas + 2
                mark[i] = number
                area[0] = i
                length = 1
                head = 0
                while head < length:
                    i = area[head]
                    head += 1
                    for k in range(self.starts[i], self.starts[i + 1]):
                        n = self.neighbours[k]
                        if mark[n] == 0:
                            mark[n] = number
                            area[length] = n
                            length += 1
                sizes[areas] = need if need < length else length
                areas += 1
            elif number == 1:  # (never asked: the starts are free squares)
                raise ValueError(f"square {i} has a pillar: it starts no area")
            out.append(sizes[number - 2])
        return out

    def spot_starts(self, has_pillar):
        """``saeulen._spot_indexes`` with nothing placed yet: each free land square in
        order that lies by the canal or beside a pillar."""
        cdef tuple board = self._values(has_pillar)
        cdef char pillars[STACK_SQUARES]
        cdef Py_ssize_t s, i, k
        found = []
        for i in range(self.squares):
            pillars[i] = _true(board[i])
        for s in range(self.lands):
            i = self.land[s]
            if pillars[i]:
                continue
            if self.by_canal[i]:
                found.append(i)
                continue
            for k in range(self.starts[i], self.starts[i + 1]):
                if pillars[self.neighbours[k]]:
                    found.append(i)
                    break
        return found

    def spots_beside(self, placed, dict index, has_pillar):
        """``saeulen._spot_indexes`` with squares ``placed`` (their ids, numbered by
        ``index``): each free land square beside one of them, in order."""
        cdef tuple board = self._values(has_pillar)
        cdef char near[STACK_SQUARES]
        cdef Py_ssize_t i, k
        found = []
        memset(near, 0, self.squares)
        for square in placed:
            i = self._square(index[square])
            for k in range(self.starts[i], self.starts[i + 1]):
                near[self.neighbours[k]] = 1
        for i in range(self.squares):  # in order: no sort
            if near[i] and not _true(board[i]):
                found.append(i)
        return found

    def free_squares(self, has_pillar, ground):
        """``saeulen._free``'s walk: the land squares with a pillar and nothing built on it."""
        cdef tuple pillars = self._values(has_pillar)
        cdef tuple built = self._values(ground)
        cdef Py_ssize_t s, i
        found = []
        for s in range(self.lands):
            i = self.land[s]
            if built[i] is None and _true(pillars[i]):
                found.append(i)
        return found
