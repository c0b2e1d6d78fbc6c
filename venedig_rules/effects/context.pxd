# The compiled build's declarations for context.py (see engine/run/machine.pxd).

cdef class Ref:
    cdef public object ctx, index, name


# The machine's base class (see context.py): declared here with the state's variables and
# the two methods a game module's primitives call most, so that a module typing its ``ctx``
# as one reads ``vars`` as a C field and calls the machine's C functions
# (engine/run/machine.pxd overrides both).
cdef class StateAccess:
    cdef public object vars
    cpdef read(self, name, index=*)
    cpdef write(self, name, index, value, why=*)
