# The compiled build's declarations for machine.py (hatch_build.py; Cython reads them, Python
# never does): the machine's classes become extension types whose attributes are fields of
# a C struct, so the engine reads and writes them without a dictionary lookup (an eighth to
# a sixth of the compiled build's instructions per action). Every field stays a Python
# object, so the behaviour is the pure-Python one. A field added in machine.py must be
# declared here too: an extension type has no other attributes (a subclass in Python has a
# __dict__ of its own).
#
# The machine's methods the generated code calls at every step are ``cpdef``: the generated
# modules type their machine ``C`` as a Machine (effects/aot.py), so their calls go straight
# to the C function, without Python's attribute look-up and call. That holds only while a
# Machine has no __dict__: Cython looks a cpdef method up at every call on an instance that
# has one, in case it was overridden there.

cimport cython

from venedig_rules.effects.context cimport StateAccess
from venedig_rules.effects.runtime cimport freeze


cdef class CallRequest:
    cdef public object code, names, returns


cdef class Frame:
    cdef public object code, names, owned, pc, shared, target

    cpdef own(self)
    # (the copy typed: its fields are set as a struct's, as _frame sets them)
    @cython.locals(frame=Frame)
    cpdef thaw(self)


cdef class State:
    cdef public object vars, frames, pending, rng, over, winners
    cdef object __weakref__


cdef class Machine(StateAccess):
    # (``vars`` is StateAccess's field, effects/context.pxd)
    cdef public object rules, compiled, code, player_count, everyone, frames, pending
    cdef public object rng, over, winners, record, events, keep, unrecorded, left, depth, events_left
    cdef public object _indexed, _player_vars, _spaces, _items

    # a typed state: its fields are read as C fields, not looked up by name
    cpdef start(self, State state)
    cpdef read(self, name, index=*)
    cpdef write(self, name, index, value, why=*)
    cpdef move_between(self, item, source, source_index, target, target_index, position=*)
    cpdef player_index(self, p)
    cpdef choose_one(self, L, target, player, values, label, optional, secret)
    cpdef enter(self)
    cpdef charged(self, value, a=*, b=*)
    @cython.locals(frame=Frame, frames=list)
    cpdef call(self, run, code, target, names)
    @cython.locals(frame=Frame, frames=list)
    cpdef requests(self, requests, self_value, target)
    cpdef requests_direct(self, requests, self_value)
    @cython.locals(frame=Frame)
    cpdef resume(self, pending, action)
    cpdef run(self)
    @cython.locals(frame=Frame, caller=Frame, frames=list)
    cpdef _run(self)
    @cython.locals(frame=Frame, state=State)
    cpdef freeze(self)
    cpdef emit(self, event)
    cpdef narrate(self, kind, fields)
    cpdef item(self, ident)
    cpdef call_item(self, ident, field, bindings)
    cpdef call_rules(self, when, bindings)
    cpdef _part(self, name, index)
    cpdef _slot(self, name, index)


# The module's own helpers of a decision (its options sorted and classified, its actions made
# or found): called as C functions from the machine and the decisions, once per option for
# some (their Python names stay, for the tests' reference machine). The stores of actions
# made are typed as dictionaries where they are read, so that a store's get is the
# dictionary's own C look-up rather than a method call (the globals stay Python names).
@cython.locals(stores=dict, made=dict, found=list)
cpdef _actions(player, label, options, optional, kind=*)
@cython.locals(passes=dict)
cpdef _pass(player)
cpdef _make_action(made, player, label, option)
@cython.locals(option=tuple)
cpdef _plain_kind(options)
@cython.locals(ordered=list, distinct=list)
cpdef _options_of_kind(values, label)
cpdef _new_choice(player, label, options, optional, target, secret, kind)
cpdef _new_commits(players, label, options, commits, target, actions)
@cython.locals(frame=Frame)
cpdef Frame _frame(code, pc, target, names, owned)
@cython.locals(request=CallRequest)
cpdef CallRequest _request(code, names)

# A decision's actions as the game asks them at every action (engine/game.pxd cimports
# these): C calls from the game, where the decision's methods are Python calls.
cpdef actions_of(pending, player)
cpdef forget_actions(pending)
