# The compiled build's declarations for rialto.py (hatch_build.py; Cython reads them, Python
# never does; see games/venedig.pxd): the helpers the primitives call at every turn of every
# stage, declared here so that a call from the primitives is a C call instead of one through
# Python's call protocol. The values are the pure-Python ones.

cimport cython

from venedig_rules.effects.context cimport StateAccess


@cython.locals(of_kind=Py_ssize_t, jokers=Py_ssize_t)
cpdef tuple _type_and_jokers(f, cards, kind)

cpdef _add(StateAccess ctx, name, index, amount)

cpdef _set_doge_order(StateAccess ctx, order)

cpdef bint _ensure_pile(StateAccess ctx) except -1

cpdef _draw(StateAccess ctx, target)

cpdef _unactivate(StateAccess ctx, p, b)


# The primitives that read and write the state most often in a game, with their ``ctx``
# typed as the machine's base class (as the helpers' above), so that each ``ctx.vars`` is a
# C field read and each ``ctx.write`` a C call of the machine's method, neither looked up
# by name.
# Cython drops the decorators of a function it makes ``cpdef`` (and its return annotation):
# rialto.py registers these after their definitions instead (``Registry.add_cpdef``). The
# generated code always passes its machine; a caller passing None would reach C code
# without a check, so the module is compiled with ``nonecheck`` (rialto.py's first line).
# Their loops over ranges run on C integers (the counts a hand's cards give, the seats).
@cython.locals(have=Py_ssize_t, jokers=Py_ssize_t, n=Py_ssize_t, j=Py_ssize_t)
cpdef play_options(StateAccess ctx, p, kind, missing, alone)
@cython.locals(count=Py_ssize_t, _=Py_ssize_t)
cpdef play_cards(StateAccess ctx, p, kind, pick)
@cython.locals(p=Py_ssize_t)
cpdef stage_counts(StateAccess ctx, kind, missing, alone)
@cython.locals(p=Py_ssize_t)
cpdef end_stage(StateAccess ctx)
cpdef activatable(StateAccess ctx, p, phase, cost)
