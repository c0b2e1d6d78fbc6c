"""Every ``declassify(value, "quote")`` of a ruleset: where it stands and the rulebook
sentence it quotes. The information-flow check (:mod:`.flow`) trusts a declassify, so what
it shows rests on its quote alone: ``validate`` shows each one a variant wrote as a warning
(``dsl/declassify``) for a person to judge, and ``describe --declassified`` lists them all.

>>> from venedig_rules.effects.parse import parse
>>> from venedig_rules.data.yamlsource import PositionMap
>>> found = declassifies({"/game/flow/main": parse('let n = declassify(secret, "all see it")')}, PositionMap())
>>> [(d.ptr, d.quote) for d in found]
[('/game/flow/main', 'all see it')]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from ..data.locate import in_variant
from ..data.yamlsource import PositionMap
from ..errors import DeclassifyWarning, Location, RulesError
from .parse import Call, Const, Program, caret
from .visitor import walk


class Declassify(NamedTuple):
    """One ``declassify`` call: its program, offset, place in the files and quote."""

    ptr: str
    offset: int
    at: Location
    quote: str


def declassifies(programs: Mapping[str, Program], positions: PositionMap) -> list[Declassify]:
    """Every ``declassify`` call of ``programs`` (DSL pointer -> parsed program), in order;
    a quote that is no literal text shows as ``?`` (the flow check refuses it)."""
    out = []
    for ptr, program in programs.items():
        for node in walk(program.body):
            if isinstance(node, Call) and node.name == "declassify":
                why = node.args[1] if len(node.args) > 1 else None
                quote = why.value if isinstance(why, Const) and isinstance(why.value, str) else "?"
                out.append(Declassify(ptr, node.pos, positions.in_scalar(ptr, node.pos), quote))
    return out


def variant_declassifies(programs: Mapping[str, Program], positions: PositionMap) -> list[RulesError]:
    """A ``dsl/declassify`` warning for each ``declassify`` a variant's file wrote."""
    return [
        DeclassifyWarning(
            f"declassify shows a secret on the word of its quote {d.quote!r}: check that the rulebook says so",
            d.at,
            caret(programs[d.ptr].text, d.offset),
        )
        for d in declassifies(programs, positions)
        if in_variant(d.at)
    ]
