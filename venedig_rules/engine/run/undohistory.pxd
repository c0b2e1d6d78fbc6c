# The compiled build's declarations for undohistory.py (see machine.pxd).

cdef class UndoHistory:
    cdef public object _events, _states, _weak_below

    # called at every recorded action (engine/game.py, through the record's typed history)
    cpdef append(self, state, events)
