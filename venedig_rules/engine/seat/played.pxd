# The compiled build's declarations for played.py (see engine/run/machine.pxd): a game's
# record is read at every action (its state, events, actions, undo history), and an
# extension type's fields are read as a C struct's, where a slotted class's are looked up
# through its type. The state and the undo history are typed too: the game reads the
# state's fields as C fields, and adds an undo point with a C call.

from venedig_rules.engine.run.machine cimport State
from venedig_rules.engine.run.undohistory cimport UndoHistory


cdef class Played:
    cdef public object actions, keep, knowledge, legal, logged, origin, players
    cdef public object record, rules, seed, texts, unrecorded, views
    cdef public Py_ssize_t unpacked
    cdef public State state
    cdef public UndoHistory history
