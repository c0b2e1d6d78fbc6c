"""Progressive widening: how many of a node's options a search may have tried, growing
with the node's visits, so that a decision with dozens of options (Venedig's building
places, Säulen's pillar spots) is searched deep on a few before it is searched wide on all
(Coulom 2007; Chaslot et al. 2008).

>>> w = Widening(constant=2.0, exponent=0.5)
>>> [w.limit(n) for n in (0, 1, 3, 8, 99)]
[2, 3, 4, 6, 20]
"""

from __future__ import annotations

import math
from typing import NamedTuple


class Widening(NamedTuple):
    """A node visited ``n`` times may have tried ``ceil(constant * (n + 1) ** exponent)``
    of its options (at least one). ``exponent`` 0 with a large ``constant`` tries every
    option at once (plain UCT)."""

    constant: float = 2.0
    exponent: float = 0.5

    def limit(self, visits: int) -> int:
        """How many options a node with ``visits`` visits may have tried."""
        grown: float = self.constant * math.pow(visits + 1, self.exponent)
        return max(1, math.ceil(grown))

    def widens(self, visits: int, tried: int) -> bool:
        """Whether a node with ``visits`` visits and ``tried`` options tried (of those
        available in this sample) should try a new one now.

        >>> Widening().widens(0, 0), Widening().widens(3, 4), Widening().widens(3, 3)
        (True, False, True)
        """
        return tried < self.limit(visits)
