"""The compiled build's ``ordered`` module: see ``ordered.py``, its pure twin, for why.

Compiled in place of ``ordered.py`` (``compiled-modules`` in pyproject.toml).
"""

import sys


#: The fewest options :func:`rising` is asked about: every decision of two or more.
RISING_FROM = 2
#: Never: compiled, the machine's own loop finds a decision's actions in C already.
LOOKED_UP_FROM = sys.maxsize


def rising(tuple options):
    """Whether ``options`` are all words, or all whole numbers (not ``True`` or ``False``),
    each greater than the one before (so sorting them and dropping repeats keeps them)."""
    cdef Py_ssize_t i, n = len(options)
    if n == 0:
        return False
    first = options[0]
    cdef type kind = type(first)
    if kind is not str and kind is not int:
        return False
    last = first
    for i in range(1, n):
        value = options[i]
        if type(value) is not kind or not last < value:
            return False
        last = value
    return True


def looked_up(dict made, tuple options):
    """What ``made`` holds for each option, None where it holds nothing."""
    cdef list found = []
    for option in options:
        found.append(made.get(option))
    return found
