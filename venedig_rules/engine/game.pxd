# The compiled build's declarations for game.py (see engine/run/machine.pxd): the game's
# record is typed, so that the game reads its fields (and its state's) as C fields at every
# action. The machine stays an object, made by the module's global ``Machine``: the tests'
# reference machine replaces that global (tests/reference/machine.py), which a cimported
# type would not see.

from venedig_rules.engine.seat.played cimport Played


cdef class Game:
    cdef public Played _play
    cdef public object _machine
    cdef object __weakref__
