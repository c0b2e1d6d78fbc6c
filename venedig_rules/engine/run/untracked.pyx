"""The compiled build's ``untracked`` module: see ``untracked.py``, its pure twin, for why.

Compiled in place of ``untracked.py`` (``compiled-modules`` in pyproject.toml). An untracked
container that came to hold itself would never be freed, so only the engine's own events,
which never change once made, are passed here.
"""

from weakref import ref

cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void *op)
    bint PyObject_GC_IsTracked(object op)
    bint PyDict_Next(object p, Py_ssize_t *ppos, PyObject **pkey, PyObject **pvalue)
    ctypedef struct PyObject

#: Containers nested deeper than this stay tracked, walked by the collector as before (an
#: event's values are two or three deep at most; the bound keeps the walk short whatever
#: an event holds).
cdef int _DEPTH = 8


def settle_events(list events, Py_ssize_t start):
    """Take ``events[start:]``, and the lists, dicts and tuples they hold, out of the cyclic
    garbage collector's walks (``gc.is_tracked`` is then False); anything else is left."""
    cdef Py_ssize_t i
    for i in range(start, len(events)):
        event = events[i]
        # an untracked container holds no tracked one (CPython tracks a dict or tuple that
        # does), so most events, plain values only, are passed by here
        if PyObject_GC_IsTracked(event):
            _untrack(event, _DEPTH)


cdef void _untrack(object value, int depth) noexcept:
    """Untrack ``value``, tracked, if a list, dict or tuple, and what it holds."""
    cdef type kind = type(value)
    cdef Py_ssize_t pos = 0
    cdef PyObject *key
    cdef PyObject *item
    if kind is dict:
        while PyDict_Next(value, &pos, &key, &item):
            if depth > 1 and PyObject_GC_IsTracked(<object>item):
                _untrack(<object>item, depth - 1)
    elif kind is list:
        for element in <list>value:
            if depth > 1 and PyObject_GC_IsTracked(element):
                _untrack(element, depth - 1)
    elif kind is tuple:
        for element in <tuple>value:
            if depth > 1 and PyObject_GC_IsTracked(element):
                _untrack(element, depth - 1)
    else:
        return
    PyObject_GC_UnTrack(<void *>value)


def untrack_weak_refs(list items, Py_ssize_t start, Py_ssize_t stop):
    """Take the weak references among ``items[start:stop]`` out of the cyclic garbage
    collector's walks. Only for references made without a callback: such a reference holds
    nothing, so the collector has nothing to find through it."""
    cdef Py_ssize_t i
    for i in range(start, stop):
        item = items[i]
        if type(item) is ref:
            PyObject_GC_UnTrack(<void *>item)
