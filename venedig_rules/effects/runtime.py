"""What compiled DSL code calls while it runs: the checked operations behind its operators,
and the budgets that keep every program small and short.

The compiler (:mod:`.compile`) writes each operator as a fast path for the common case
(two whole numbers) and falls back to a function here, which checks the operands and
raises a :class:`~venedig_rules.errors.RuleRuntimeError` saying what went wrong. The
reference interpreter the tests keep (``tests/reference``) calls the same functions, so both
agree on every value and every error.

**Budgets.** A program may not run for hours nor make values no game needs:

- :data:`MAX_STEPS` steps of work per action: a loop counts its rounds when it starts
  (``repeat n`` counts ``n``, ``for x in xs`` the length of ``xs``; a ``break`` gives
  none back), and each call of a procedure, an item's effect or a scoring rule counts one;
- each primitive that walks lists counts the items of the longest list it is given or
  makes (:func:`charged`);
- :data:`MAX_EVENTS` events per action;
- :data:`MAX_LIST` items in one list, :data:`MAX_ITEMS` items in a value counting the
  items of the lists inside it, lists nested at most :data:`MAX_VALUE_DEPTH` deep, and
  whole numbers from ``-MAX_INT`` to ``MAX_INT``.

>>> add(2, 3), add((1,), (2, 3)), combine((1, 2, 1), "-=", 1)
(5, (1, 2, 3), (2, 1))
>>> mul(2**40, 2**40)
Traceback (most recent call last):
...
venedig_rules.errors.RuleRuntimeError: a number of 25 digits is too big (the DSL's numbers run from ...)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Final, NoReturn

from ..errors import RuleRuntimeError
from ..limits import MAX_EVENTS, MAX_INT, MAX_ITEMS, MAX_LIST, MAX_REPEAT, MAX_STEPS, MAX_VALUE_DEPTH
from .registry import REQUIRED, Primitive

#: The Python errors a rule's data can make the code raise (RuleRuntimeError is a ValueError):
#: reported as rule errors with the place of the statement that failed.
RULE_FAILURES: Final = (TypeError, ValueError, KeyError, IndexError)


class Stop:
    """What a resumable function gives back when it stopped at a decision (a value of its
    own, never a DSL value)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "STOP"


#: The one :class:`Stop`.
STOP: Final = Stop()


def freeze(value: Any) -> Any:
    """Lists to tuples, recursively: state values are immutable.

    A tuple is taken as already frozen (the DSL and the primitives only make tuples), so
    this costs nothing for the values the machine passes around.

    >>> freeze([1, [2, 3]]), freeze((1, 2))
    ((1, (2, 3)), (1, 2))
    """
    if type(value) is list:
        return tuple([freeze(v) for v in value])
    return value


# -- budgets -----------------------------------------------------------------------------------
def show(value: Any) -> str:
    """A value for an error message, cut short when it is long (and never a number's
    thousands of digits, which Python refuses to print).

    >>> show(tuple(range(100)))
    '(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ... (100 items))'
    >>> show(10**5000)
    'a number of 5001 digits'
    """
    if type(value) is int and not -MAX_INT <= value <= MAX_INT:
        digits = len(str(abs(value))) if value.bit_length() < 13_000 else int(value.bit_length() * 0.30103) + 1
        return f"a number of {digits} digits"
    if isinstance(value, tuple) and len(value) > 10:
        return "(" + ", ".join(show(v) for v in value[:10]) + f", ... ({len(value)} items))"
    if isinstance(value, tuple):
        return "(" + ", ".join(show(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def too_big_int(value: int) -> NoReturn:
    raise RuleRuntimeError(f"{show(value)} is too big (the DSL's numbers run from {-MAX_INT} to {MAX_INT})")


def too_long(length: int) -> NoReturn:
    raise RuleRuntimeError(f"a list of {length} items is too long (a list holds at most {MAX_LIST})")


def sized(value: Any) -> Any:
    """``value`` when it keeps the value budgets (its lists' lengths and items, its numbers),
    else a RuleRuntimeError saying which.

    >>> sized((1, ("a", "b"), None))
    (1, ('a', 'b'), None)
    """
    if type(value) is tuple:
        items(value)
    elif _items_left(value, MAX_ITEMS, {}, 0) < 0:
        _too_many()
    return value


def items(value: tuple[Any, ...]) -> int:
    """How many items a list holds, nested lists' items counted (a RuleRuntimeError over
    the budgets). The counts of the last long lists counted are remembered, with the
    lists, so that a list grown an item at a time (``out += [x]`` in a loop) is not walked
    again at every step: that made such a loop quadratic in the list's items.

    >>> items((1, ("a", "b"), ()))
    5
    """
    found = _COUNTED.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    left = _items_left(value, MAX_ITEMS, {}, 0)
    if left < 0:
        _too_many()
    if len(value) >= _SHORT:
        _remember(value, MAX_ITEMS - left)
    return MAX_ITEMS - left


def _remember(value: tuple[Any, ...], count: int) -> None:
    if len(_COUNTED) >= _COUNTED_SIZE:
        # all at once (one step that threads cannot interleave): the list just made stays,
        # and a loop's next step needs only that one
        _COUNTED.clear()
    _COUNTED[id(value)] = (value, count)


#: id of a list -> (the list, its items): each entry keeps its list, so an id is never
#: taken for another list's. A few suffice: a loop grows one list at a time.
_COUNTED: dict[int, tuple[tuple[Any, ...], int]] = {}
_COUNTED_SIZE = 16


def _too_many() -> NoReturn:
    raise RuleRuntimeError(f"a value of more than {MAX_ITEMS} items in all (nested lists counted) is too big")


def _too_deep() -> NoReturn:
    raise RuleRuntimeError(f"a list nested more than {MAX_VALUE_DEPTH} deep is too deep (limit MAX_VALUE_DEPTH)")


def _items_left(value: Any, left: int, seen: dict[int, int], depth: int) -> int:
    """``left`` less the items of ``value`` (below 0 once over the budget); ``seen`` keeps the
    size of each list already counted, so a list shared many times is walked once;
    ``depth``: the lists around ``value``."""
    kind = type(value)
    if kind is int:
        if not -MAX_INT <= value <= MAX_INT:
            too_big_int(value)
        return left
    if kind is not tuple:
        return left
    n = len(value)
    if n > MAX_LIST:
        too_long(n)
    if depth >= MAX_VALUE_DEPTH:
        _too_deep()
    known = seen.get(id(value))
    if known is not None:
        return left - known
    start = left
    left -= n
    nested = False
    for item in value:  # a plain loop: compiled, type() is a field read (map would call it)
        kind = type(item)
        if kind is int:
            if not -MAX_INT <= item <= MAX_INT:
                too_big_int(item)
        elif kind is tuple or kind is list:
            nested = True
    if nested:
        for item in value:
            if left < 0:
                return left
            if type(item) is tuple or type(item) is list:
                left = _items_left(item, left, seen, depth + 1)
    seen[id(value)] = start - left
    return left


def nest(items: tuple[Any, ...]) -> tuple[Any, ...]:
    """A list literal whose items the compiler could not prove to be plain: checked when one
    is a list or a number."""
    for item in items:
        kind = type(item)
        if kind is tuple or kind is int or kind is list:
            return sized(items)  # type: ignore[no-any-return]
    return items


def join(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
    """Two lists as one, within the budgets: counted from the counts of the two, and the
    count of a long one, or of one with lists inside, remembered (``put`` and ``out +=
    [x]`` grow a list an item at a time: each step counts the new items only)."""
    n = len(a) + len(b)
    if n > MAX_LIST:
        too_long(n)
    out = a + b
    if n < _SHORT:  # one C pass over a short list of no lists, as cheap as a look-up
        for item in out:
            if type(item) is tuple:
                break
        else:
            return out
    if len(b) == 1 and type(b[0]) is not tuple:  # out += x: one item more, no walk of [x]
        item = b[0]
        if type(item) is int and not -MAX_INT <= item <= MAX_INT:
            too_big_int(item)
        total = items(a) + 1
    else:
        total = items(a) + items(b)
    if total > MAX_ITEMS:
        _too_many()
    _remember(out, total)  # the next out += [...] counts from here
    return out


#: Lists shorter than this are checked by a walk (see join).
_SHORT = 64


# -- operators ---------------------------------------------------------------------------------
def number(value: Any, op: str) -> int:
    """``value`` when it is a whole number (not true or false), for operator ``op``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleRuntimeError(f"{op!r} needs numbers, got {show(value)}")
    return value


def bounded(value: int) -> int:
    """A number an operator made, when it is within the budget."""
    if -MAX_INT <= value <= MAX_INT:
        return value
    too_big_int(value)


def add(x: Any, y: Any) -> Any:
    """``x + y``: numbers add; next to a list, ``none`` is the empty list and lists join."""
    if type(x) is int and type(y) is int:
        return bounded(x + y)
    if isinstance(x, tuple) or isinstance(y, tuple):
        return join(tuple(x or ()), tuple(y or ()))
    return bounded(number(x, "+") + number(y, "+"))


def sub(x: Any, y: Any) -> int:
    return bounded(number(x, "-") - number(y, "-"))


def mul(x: Any, y: Any) -> int:
    return bounded(number(x, "*") * number(y, "*"))


def neg(x: Any) -> int:
    return -number(x, "-")


def floordiv(x: int, y: int) -> int:
    """``x // y``, refused by zero."""
    if y == 0:
        raise RuleRuntimeError("'//' by zero")
    return x // y


def mod(x: int, y: int) -> int:
    """``x % y``, refused by zero."""
    if y == 0:
        raise RuleRuntimeError("'%' by zero")
    return x % y


ARITH: Final[dict[str, Callable[[int, int], Any]]] = {
    "+": lambda x, y: bounded(x + y),
    "-": lambda x, y: bounded(x - y),
    "*": lambda x, y: bounded(x * y),
    "//": floordiv,
    "%": mod,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def arith(op: str, x: Any, y: Any) -> Any:
    """``x op y`` for an arithmetic or order operator, its operands checked to be numbers."""
    return ARITH[op](number(x, op), number(y, op))


def item(seq: Any, i: Any) -> Any:
    """``seq[i]``: a negative index counts from the end; out of range is an error that
    names ``get()``, the way to ask for an item that may be missing."""
    if not isinstance(i, int) or isinstance(i, bool):
        raise RuleRuntimeError(f"a list index must be a number, not {show(i)}")
    if -len(seq) <= i < len(seq):
        return seq[i]
    raise RuleRuntimeError(
        f"index {i} is out of range of a list of {len(seq)} item(s)"
        " (write get(list, i, default) where a missing item is expected)"
    )


def combine(old: Any, op: str, value: Any) -> Any:
    """``old += value`` or ``old -= value``: numbers add; lists append, or lose one copy."""
    if isinstance(old, tuple):
        if op == "+=":
            return join(old, value if isinstance(value, tuple) else (value,))
        try:
            i = old.index(value)
        except ValueError:
            return old
        return old[:i] + old[i + 1 :]
    if not isinstance(old, int) or isinstance(old, bool) or not isinstance(value, int):
        raise RuleRuntimeError(f"{op} needs numbers or lists, got {show(old)} and {show(value)}")
    return bounded(old + value if op == "+=" else old - value)


def loop_items(items: Any) -> tuple[Any, ...]:
    """What a ``for`` walks: a list."""
    if not isinstance(items, tuple):
        raise RuleRuntimeError(f"'for' needs a list, got {show(items)}")
    return items


def repeat_count(count: Any) -> int:
    """How often a ``repeat`` runs: 0 to :data:`MAX_REPEAT`."""
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_REPEAT:
        raise RuleRuntimeError(f"'repeat' needs a count from 0 to {MAX_REPEAT}, got {show(count)}")
    return count


def out_of_steps() -> NoReturn:
    raise RuleRuntimeError(
        f"the rules did more than {MAX_STEPS} steps of work in one action (limit MAX_STEPS: loop rounds, "
        "calls, and the items of every list an operation touches); a loop or a recursion runs too long"
    )


def too_many_events() -> NoReturn:
    raise RuleRuntimeError(
        f"the rules emitted too many events in one action: more than {MAX_EVENTS} (limit MAX_EVENTS: "
        "every event, change of the state and move counted); an event or a change of the state in a long loop?"
    )


# -- operations charged by their size -----------------------------------------------------------
def charged(prim: Primitive) -> Callable[..., Any]:
    """The function generated code calls for ``prim``: a primitive that walks lists (one
    with a list parameter, or that gives a list) is charged to the :data:`MAX_STEPS` budget
    the items of the longest list it is given or gives back: ``sorted`` of 10,000 items
    costs 10,000 steps, not one (a game module's primitive: only when it takes a list).
    Any other primitive is called as it is: those that only look at a list
    (:data:`CONSTANT_TIME`), and those that change state variables, each change an event,
    bounded by :data:`MAX_EVENTS`. Made once per primitive.

    >>> from venedig_rules.effects.primitives import CORE
    >>> class Run:
    ...     left = 100
    >>> run = Run()
    >>> charged(CORE.get("sorted"))(run, tuple(range(30, 0, -1)))[:3], run.left
    ((1, 2, 3), 70)
    >>> charged(CORE.get("count")) is CORE.get("count").fn
    True
    """
    known = _CHARGED.get(prim)
    if known is not None:
        return known
    lists = list_params(prim)
    fn = _charging(prim, lists) if walks(prim) else prim.fn
    _CHARGED[prim] = fn
    return fn


def list_params(prim: Primitive) -> tuple[int, ...]:
    """The positions of ``prim``'s arguments it is charged for (a list parameter's, each
    from there on when the last is variadic), whether or not it :func:`walks`."""
    return tuple([i for i, p in enumerate(prim.params) if not p.ref and (p.variadic or p.type == "list")])


def walks(prim: Primitive) -> bool:
    """Whether ``prim`` is charged (see :func:`charged`)."""
    core = prim.fn.__module__ == _CORE_MODULE
    return prim.name not in CONSTANT_TIME and (bool(list_params(prim)) or (core and prim.result == "list"))


#: The module of the DSL's own primitives: those that make lists (``range``, ``copies``)
#: are charged for the list they give. A game module's primitive that takes no list reads
#: the state, whose size is bounded, and is called as it is (each call counted by the loop
#: that makes it): charging its result cost a few percent of a bundled game's speed.
_CORE_MODULE = "venedig_rules.effects.primitives"
#: Core primitives with list parameters that look at one item or the length only.
CONSTANT_TIME = frozenset({"count", "first", "last", "item_at", "get"})


def _charging(prim: Primitive, lists: tuple[int, ...]) -> Callable[..., Any]:
    """``prim`` charged by its longest list: its arguments at ``lists`` (each from there on
    when the last is variadic) and its value. A primitive of plain parameters gets a
    positional wrapper, any other one a packing one. Generated code calls a plain one of at
    most two lists as itself inside ``Machine.charged`` instead (effects/compile.py,
    ``charged_call``): these wrappers serve the rest, which are few."""
    fn = prim.fn
    plain = not prim.keywords and all([p.default is REQUIRED and not p.variadic for p in prim.params])
    run = _positional(fn, lists) if plain else _packed(prim, lists)
    # named as the primitive: the digest of a generated module's namespace (aot) and
    # tracebacks show what runs
    run.__module__, run.__qualname__, run.__name__ = fn.__module__, fn.__qualname__, fn.__name__
    run.__doc__ = fn.__doc__
    return run


# Each wrapper charges inline (no helper calls), as Machine.charged does.


def _positional(fn: Callable[..., Any], lists: tuple[int, ...]) -> Callable[..., Any]:
    """The wrapper of a primitive of plain parameters: its arguments come as one tuple, with
    no dictionary of keywords and no test of every position, as ``_packed`` makes them."""

    def run(C: Any, *args: Any) -> Any:
        value = fn(C, *args)
        cost = len(value) if type(value) is tuple else 0
        for i in lists:
            arg = args[i]
            if type(arg) is tuple and len(arg) > cost:
                cost = len(arg)
        C.left -= cost
        if C.left < 0:
            out_of_steps()
        return value

    return run


def _packed(prim: Primitive, lists: tuple[int, ...]) -> Callable[..., Any]:
    fn = prim.fn
    first_variadic = lists[-1] if lists and prim.params[-1].variadic else 1_000_000

    def run(C: Any, *args: Any, **names: Any) -> Any:
        value = fn(C, *args, **names)
        cost = len(value) if type(value) is tuple else 0
        for i, arg in enumerate(args):
            if (i in lists or i >= first_variadic) and type(arg) is tuple and len(arg) > cost:
                cost = len(arg)
        C.left -= cost
        if C.left < 0:
            out_of_steps()
        return value

    return run


#: Primitive -> what generated code calls for it.
_CHARGED: dict[Primitive, Callable[..., Any]] = {}
