"""The compiled build's ``slotted`` module: see ``slotted.py``, its pure twin, for why.

Compiled in place of ``slotted.py`` (``compiled-modules`` in pyproject.toml). Only the C API
Python documents is used: a slot's ``PyMemberDef`` (what its member descriptor holds, as
``PyMember_GetOne`` and ``PyMember_SetOne`` take it), ``PyType_GenericNew`` (what
``object.__new__`` does for a class without arguments: the class's own allocation, every slot
empty) and ``PyMember_SetOne``, which stores a new reference and lets go of the old one.
"""

from types import MemberDescriptorType

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_DECREF


cdef extern from "structmember.h":
    ctypedef struct PyMemberDef:
        const char *name
        int type
        Py_ssize_t offset
        int flags
    int T_OBJECT_EX
    int READONLY
    int PyMember_SetOne(char *address, PyMemberDef *member, PyObject *value) except -1


cdef extern from "Python.h":
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member
    PyObject *PyType_GenericNew(PyTypeObject *kind, PyObject *args, PyObject *kwds) except NULL


cdef enum:
    # the most slots a maker sets (a decision has eight)
    MOST_SLOTS = 16


def maker(cls, tuple names):
    """The maker of ``cls`` instances with the slots ``names`` set (see slotted.py)."""
    return Maker(cls, names)


cdef class Maker:
    cdef object cls
    cdef Py_ssize_t count
    cdef PyMemberDef *members[MOST_SLOTS]

    def __cinit__(self, cls, tuple names):
        cdef PyMemberDef *member
        if not isinstance(cls, type) or cls.__new__ is not object.__new__:
            raise TypeError(f"a maker makes instances of a class that object.__new__ makes, not of {cls!r}")
        if len(names) > MOST_SLOTS:
            raise ValueError(f"a maker sets at most {MOST_SLOTS} slots, not {len(names)}")
        for i, name in enumerate(names):
            descriptor = cls.__dict__.get(name)
            if type(descriptor) is not MemberDescriptorType:
                raise TypeError(f"{cls.__name__}.{name} is no slot of the class itself")
            member = (<PyMemberDescrObject *> descriptor).d_member
            if member.type != T_OBJECT_EX or member.flags & READONLY:
                raise TypeError(f"{cls.__name__}.{name} is no slot that holds any object")
            self.members[i] = member
        # the descriptors, and so their members, live as long as the class, which this keeps
        self.cls = cls
        self.count = len(names)

    def __call__(self, *values):
        """A new instance with the slots set to ``values``, in the order of the names."""
        cdef Py_ssize_t i
        if len(values) != self.count:
            raise TypeError(f"{self.count} values for {self.count} slots, not {len(values)}")
        cdef PyObject *raw = PyType_GenericNew(<PyTypeObject *> self.cls, NULL, NULL)
        made = <object> raw  # a reference of its own: the one PyType_GenericNew gave is let go
        Py_DECREF(made)
        for i in range(self.count):
            PyMember_SetOne(<char *> raw, self.members[i], <PyObject *> values[i])
        return made
