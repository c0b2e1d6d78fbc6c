"""The ``declassify(value, "quote")`` calls of a ruleset, as ``describe --declassified`` lists
them: what the information-flow check lets every seat see on the word of a rulebook quote,
each with its place and whether a variant wrote it (``validate`` warns of those).

>>> import venedig_rules as vr
>>> found = declassified(vr.load("rialto"))
>>> found[0]["quote"], found[0]["variant"]
('each player gets a single turn to play any number of cards matching the current stage', False)
"""

from __future__ import annotations

from typing import Any

from ..data.locate import in_variant
from ..effects.declassified import declassifies
from ..effects.parse import DslParseError, Program, parse
from ..engine.ruleset import Ruleset


def declassified(rules: Ruleset) -> list[dict[str, Any]]:
    """Each ``declassify`` of ``rules``: ``location``, ``pointer``, ``quote``, ``variant``."""
    compiled = rules.compiled
    programs: dict[str, Program] = {}
    if compiled is not None:
        programs = {ptr: checked.program for ptr, checked in compiled.programs.items()}
    else:  # a ruleset without a flow: its DSL is parsed, not compiled
        for ptr, text in _strings(rules.data, ""):
            try:
                programs[ptr] = parse(text)
            except DslParseError:
                continue
    found = sorted(declassifies(programs, rules.positions), key=lambda d: d.at)
    return [{"location": str(d.at), "pointer": d.ptr, "quote": d.quote, "variant": in_variant(d.at)} for d in found]


def declassified_text(found: list[dict[str, Any]]) -> str:
    """The list as text: one line per call, a variant's marked."""
    if not found:
        return "no declassify: the rules show no secret on the word of a quote\n"
    lines = [f"Declassified ({len(found)}): secrets the rules show on the word of a rulebook quote"]
    for d in found:
        lines.append(f"  {d['location']}{'  [variant]' if d['variant'] else ''}: {d['quote']!r}")
    return "\n".join(lines) + "\n"


def _strings(node: Any, ptr: str) -> list[tuple[str, str]]:
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in _strings(v, f"{ptr}/{k}")]
    if isinstance(node, list):
        return [s for i, v in enumerate(node) for s in _strings(v, f"{ptr}/{i}")]
    return [(ptr, node)] if isinstance(node, str) and "declassify" in node else []
