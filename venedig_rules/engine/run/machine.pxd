# The compiled build's declarations for machine.py (hatch_build.py; Cython reads them, Python
# never does): the machine's classes become extension types whose attributes are fields of
# a C struct, so the engine reads and writes them without a dictionary lookup (an eighth to
# a sixth of the compiled build's instructions per action). Every field stays a Python
# object, so the behaviour is the pure-Python one. A field added in machine.py must be
# declared here too: an extension type has no other attributes (Machine keeps a __dict__
# all the same, for what a subclass or a primitive may add).

cdef class CallRequest:
    cdef public object code, names, returns


cdef class Frame:
    cdef public object code, names, owned, pc, shared, target


cdef class State:
    cdef public object vars, frames, pending, rng, over, winners
    cdef object __weakref__


cdef class Machine:
    cdef public object rules, compiled, code, player_count, everyone, vars, frames, pending
    cdef public object rng, over, winners, record, events, keep, unrecorded, left, depth, events_left
    cdef public object _indexed, _player_vars
    cdef dict __dict__
