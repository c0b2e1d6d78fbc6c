"""Whether a decision's options already stand in their order, and a long decision's kept
actions looked up in one pass.

A decision's options are sorted and their repeats dropped before they are numbered
(``machine._options_of_kind``). Many come in rising order already, words or whole numbers:
610 of Venedig's 707 decisions of two options or more in three random games, its drains of
some fifty swamp spaces among them, and Säulen's first pillars and markers (its board walks
go in name order). One walk that finds them strictly rising spares the sort and the pass
for repeats. Most short decisions of Säulen and Rialto do not come in order, and in Python
starting the walk costs more than a short decision's sort: the pure package did 1.3% more
instructions an action in Säulen when it walked every decision. So the pure package walks
only decisions of :data:`RISING_FROM` options or more, where the walk of a decision in
order spares much more than the look at the first few options of one out of order costs;
``ordered.pyx``, compiled in place of this module (Python imports an extension module
before the source beside it), walks every decision (2.1% fewer instructions an action in
Venedig). Both give the same options: a decision not walked is sorted.

A long decision's actions, kept from earlier decisions by option, are looked up by
:func:`looked_up` in the pure package, one ``map`` where Python's loop takes a fifth
longer; compiled, the machine's own loop is a C loop already, and :data:`LOOKED_UP_FROM`
keeps the machine from asking.

>>> from venedig_rules.engine.run import ordered
>>> ordered.rising(("a", "b", "c")), ordered.rising(("a", "c", "b")), ordered.rising((1, True))
(True, False, False)
"""

from __future__ import annotations

from itertools import islice
from operator import lt
from typing import Any

#: The fewest options :func:`rising` is asked about (the machine sorts shorter ones at once).
RISING_FROM = 16
#: The fewest options whose actions the machine finds by :func:`looked_up` (a shorter
#: decision's in a loop of its own, which costs less for a few options).
LOOKED_UP_FROM = 16


def rising(options: tuple[Any, ...]) -> bool:
    """Whether ``options`` (two or more) are all words, or all whole numbers (not ``True`` or
    ``False``), each greater than the one before (so sorting them and dropping repeats keeps
    them)."""
    if not options:
        return False
    first = options[0]
    kind = type(first)
    if kind is str:
        # words compared a pair at a time in C, some 30% faster than Python's loop over a
        # decision this long (Venedig's drains, Säulen's first pillars); a word is never
        # compared with anything but a word, which raises TypeError
        try:
            return all(map(lt, options, islice(options, 1, None)))  # (C iterators: no copy)
        except TypeError:
            return False
    if kind is not int:
        return False
    last = first
    for value in islice(options, 1, None):  # (True and 1 compare as equals: each type looked at)
        if type(value) is not int or not last < value:
            return False
        last = value
    return True


def looked_up(made: dict[Any, Any], options: tuple[Any, ...]) -> list[Any]:
    """What ``made`` holds for each option, None where it holds nothing: one C pass
    (``map``), a fifth faster than Python's loop over a decision of sixteen options or more.

    >>> looked_up({"a": 1, "c": 3}, ("a", "b", "c"))
    [1, None, 3]
    """
    return list(map(made.get, options))
