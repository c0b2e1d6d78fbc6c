"""What a declared value may be: the ``type``, ``minimum``, ``maximum`` and ``values`` of an
item param's declaration (``game.yaml`` ``parameters``) or of a game constant's.

>>> value_problem({"type": "integer", "minimum": 0}, -1)
ValueProblem(expected='at least 0', bound='minimum')
>>> value_problem({"values": ["at_once", "at_stage_end"]}, "at_onec")
ValueProblem(expected="one of 'at_once', 'at_stage_end'", bound='values')
>>> value_problem({"type": "boolean"}, True) is None
True
"""

from __future__ import annotations

from typing import Any, NamedTuple

#: The keys of a declaration that bound its values.
BOUND_KEYS = ("type", "minimum", "maximum", "values")


_KIND_WORDS = {
    "integer": "a whole number",
    "string": "a text",
    "boolean": "true or false",
    "list": "a list",
    "ids": "a list of ids",
}


class ValueProblem(NamedTuple):
    """What a value should be, and the key of its declaration it broke ("" for its type)."""

    expected: str
    bound: str


def value_problem(decl: dict[str, Any], value: Any) -> ValueProblem | None:
    """What is wrong with ``value`` against its declaration ``decl``, or None."""
    kind = decl.get("type")
    ok = {
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "list": isinstance(value, list),
        "ids": isinstance(value, list) and all(isinstance(v, str) for v in value),
    }.get(str(kind), True)
    if not ok:
        return ValueProblem(_KIND_WORDS.get(str(kind), f"a value of type {kind}"), "")
    if isinstance(value, int) and not isinstance(value, bool):
        if "minimum" in decl and value < decl["minimum"]:
            return ValueProblem(f"at least {decl['minimum']}", "minimum")
        if "maximum" in decl and value > decl["maximum"]:
            return ValueProblem(f"at most {decl['maximum']}", "maximum")
    values = decl.get("values")
    if isinstance(values, list) and value not in values:
        return ValueProblem(f"one of {', '.join(map(repr, values))}", "values")
    return None
