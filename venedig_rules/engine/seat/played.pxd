# The compiled build's declarations for played.py (see engine/run/machine.pxd): a game's
# record is read at every action (its state, events, actions, undo history), and an
# extension type's fields are read as a C struct's, where a slotted class's are looked up
# through its type. The state is typed, so that its fields are C fields to the game too.

from venedig_rules.engine.run.machine cimport State


cdef class Played:
    cdef public object actions, events, history, keep, knowledge, legal, origin, players
    cdef public object record, rules, seed, texts, unrecorded, views
    cdef public State state
