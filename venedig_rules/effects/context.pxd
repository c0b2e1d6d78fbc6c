# The compiled build's declarations for context.py (see engine/run/machine.pxd).

cdef class Ref:
    cdef public object ctx, index, name


# The machine's base class (see context.py): declared here with the two methods a game
# module's primitives call most, so that a module typing its ``ctx`` as one calls the
# machine's C functions (engine/run/machine.pxd overrides both).
cdef class StateAccess:
    cpdef read(self, name, index=*)
    cpdef write(self, name, index, value, why=*)
