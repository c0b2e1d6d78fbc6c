# The compiled build's declarations for game.py (see engine/run/machine.pxd): the game's
# record is typed, so that the game reads its fields (and its state's) as C fields at every
# action, and so is its machine, whose ``start`` and ``resume`` an action then calls as C
# functions (as it calls the machine module's ``actions_of`` and ``forget_actions``). The
# machine type is cimported under a name of its own: game.py makes machines by the
# module's global ``Machine``, which the tests' reference machine (a subclass) replaces
# (tests/reference/machine.py), and which a cimported ``Machine`` would shadow.

from venedig_rules.engine.run.machine cimport Machine as MachineType, actions_of, forget_actions
from venedig_rules.engine.seat.played cimport Played


cdef class Game:
    cdef public Played _play
    cdef public MachineType _machine
    cdef object __weakref__

    # every action ends here (apply, apply_legal): a C call from them rather than a method
    # looked up by name; the tests' ReferenceGame overrides it in Python, which a cpdef
    # method still honours (it looks itself up on instances of a Python subclass)
    cpdef _resume(self, pending, action)
