"""Every decision and rule event the DSL uses must be declared in ``game.yaml``: each
``choose ... as "label"`` under ``decisions:``, each ``event("kind", field: ...)`` under
``events:`` with its fields. A use without its declaration is a located
``rules/declaration`` error with "did you mean".

>>> from venedig_rules.effects.parse import parse
>>> from venedig_rules.data.yamlsource import PositionMap
>>> programs = {"/game/flow/main": parse('let s = choose 0 from ["a1"] as "drian"; event("drain", space: s)')}
>>> data = {"game": {"decisions": {"drain": {"value": "space"}}, "events": {"drain": {"fields": {"player": "player"}}}}}
>>> for err in check_declarations(programs, data, PositionMap()):
...     print(err.message)
decision 'drian' is not declared in game.yaml decisions (did you mean 'drain'?); expected ...
event 'drain' has field 'space', which game.yaml events/drain/fields does not declare; declared: player
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from ..data.yamlsource import PositionMap
from ..errors import DeclarationError, RulesError, did_you_mean
from .compile import Code
from .parse import Call, Choose, Const, Node, Program, caret

#: Field names every event has: ``type`` (its kind) and ``text`` (its sentence, in views).
RESERVED = ("type", "text")


def check_declarations(
    programs: Mapping[str, Program], data: Mapping[str, Any], positions: PositionMap
) -> list[RulesError]:
    """The uses of undeclared decision labels, event kinds and event fields in ``programs``
    (DSL pointer -> parsed program)."""
    game = _mapping(data.get("game"))
    decisions = _mapping(game.get("decisions"))
    events = _mapping(game.get("events"))
    errors: list[RulesError] = []
    for ptr, program in programs.items():
        if ptr.startswith("/invariants/"):
            continue  # invariants may neither decide nor tell: that is their own error
        for node in _walk(program.body):
            if isinstance(node, Choose) and node.label not in decisions:
                errors.append(
                    DeclarationError(
                        f"decision {node.label!r} is not declared in game.yaml decisions"
                        f"{did_you_mean(node.label, decisions)}; expected decisions: {{{node.label}: {{value: ...}}}}",
                        positions.in_scalar(ptr, node.pos),
                        caret(program.text, node.pos),
                    )
                )
            elif isinstance(node, Call) and node.name == "event":
                errors += _event_problems(node, events, ptr, positions, program.text)
    return errors


def check_contexts(codes: Iterable[Code], data: Mapping[str, Any], positions: PositionMap) -> list[RulesError]:
    """The context names a decision declares that are no local where it is made (its texts
    could never show them)."""
    decisions = _mapping(_mapping(data.get("game")).get("decisions"))
    errors: list[RulesError] = []
    for code in codes:
        for pc, visible in code.choose_names.items():
            label = code.instructions[pc][4]
            wanted = _mapping(_mapping(decisions.get(label)).get("context"))
            for name in wanted:
                if name not in visible:
                    offset = code.offsets[pc]
                    errors.append(
                        DeclarationError(
                            f"decision {label!r} declares context {name!r}, which is no local where it is made"
                            f"{did_you_mean(name, visible)}; expected a name bound by let, for or a parameter",
                            positions.in_scalar(code.id, offset),
                            caret(code.text, offset),
                        )
                    )
    return errors


def _event_problems(
    call: Call, events: Mapping[str, Any], ptr: str, positions: PositionMap, text: str
) -> Iterator[RulesError]:
    if not call.args or not isinstance(call.args[0], Const) or not isinstance(call.args[0].value, str):
        return
    kind = call.args[0].value
    if kind not in events:
        yield DeclarationError(
            f"event {kind!r} is not declared in game.yaml events{did_you_mean(kind, events)}; "
            f"expected events: {{{kind}: {{fields: {{...}}}}}}",
            positions.in_scalar(ptr, call.args[0].pos),
            caret(text, call.args[0].pos),
        )
        return
    declared = _mapping(_mapping(events[kind]).get("fields"))
    for name, value in call.kwargs:
        if name in RESERVED:
            yield DeclarationError(
                f"event {kind!r} has a field named {name!r}, which every event has already "
                "(views add each event's sentence as 'text'); expected another name",
                positions.in_scalar(ptr, value.pos),
                caret(text, value.pos),
            )
        elif name != "to" and name not in declared:
            yield DeclarationError(
                f"event {kind!r} has field {name!r}, which game.yaml events/{kind}/fields does not declare"
                f"{did_you_mean(name, declared)}; declared: {', '.join(declared) or 'none'}",
                positions.in_scalar(ptr, value.pos),
                caret(text, value.pos),
            )


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _walk(nodes: Any) -> Iterator[Node]:
    """Every node under ``nodes`` (a node, or a tuple of nodes and pairs), depth first."""
    if isinstance(nodes, tuple):
        for item in nodes:
            yield from _walk(item)
    elif is_dataclass(nodes) and isinstance(nodes, Node):
        yield nodes
        for f in fields(nodes):
            yield from _walk(getattr(nodes, f.name))
