"""Whether a decision's options already stand in their order (compiled build).

A decision's options are sorted and their repeats dropped before they are numbered
(``machine._options_of_kind``). Most of Venedig's come in rising order already (610 of 707
decisions of two options or more, in three random games), words or whole numbers, so one
walk that finds them strictly rising spares the sort and the pass for repeats. But most of
Säulen's and Rialto's do not, and in Python starting the walk costs more than Venedig's
saves: the pure package did 1.3% more instructions an action in Säulen with it, the compiled
build 2.1% fewer in Venedig. So only the compiled build walks: ``ordered.pyx``, compiled in
place of this module (Python imports an extension module before the source beside it); here
:data:`rising` is None and the machine sorts as before. Both give the same options.

>>> from venedig_rules.engine.run import ordered
>>> ordered.rising is None or ordered.rising(("a", "b", "c")) is True
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: ``rising(options)``: whether the options (a tuple of two or more) are all words, or all
#: whole numbers (not ``True`` or ``False``), each greater than the one before; None where
#: the walk would cost more than it saves.
rising: Callable[[tuple[Any, ...]], bool] | None = None
