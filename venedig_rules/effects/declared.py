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
from typing import Any, NamedTuple

from ..data.yamlsource import PositionMap
from ..errors import DeclarationError, NeverRunWarning, RulesError, did_you_mean
from .check import DecisionScope
from .compile import CheckedProgram
from .parse import Call, Choose, Const, Program, caret
from .visitor import NodeVisitor, walk

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
        uses = _Uses(decisions, events, ptr, positions, program.text)
        for node in program.body:
            uses.visit(node)
        errors += uses.errors
    return errors


class _Uses(NodeVisitor):
    """The undeclared uses in one program (``ptr``): each decision's label, each event's
    kind and fields."""

    def __init__(
        self, decisions: Mapping[str, Any], events: Mapping[str, Any], ptr: str, positions: PositionMap, text: str
    ):
        self.decisions = decisions
        self.events = events
        self.ptr = ptr
        self.positions = positions
        self.text = text
        self.errors: list[RulesError] = []

    def visit_Choose(self, node: Choose) -> None:
        if node.label not in self.decisions:
            self.errors.append(
                DeclarationError(
                    f"decision {node.label!r} is not declared in game.yaml decisions"
                    f"{did_you_mean(node.label, self.decisions)}; expected decisions: {{{node.label}: {{value: ...}}}}",
                    self.positions.in_scalar(self.ptr, node.pos),
                    caret(self.text, node.pos),
                )
            )
        self.generic_visit(node)

    def visit_Call(self, node: Call) -> None:
        if node.name == "event":
            self.errors += _event_problems(node, self.events, self.ptr, self.positions, self.text)
        self.generic_visit(node)


class TriggerCheck(NamedTuple):
    """What :func:`check_triggers` found: the located errors, and the scoring rules' effect
    pointers that could never run (their names would only give follow-on errors)."""

    errors: list[RulesError]
    never_run: frozenset[str]


def triggered_words(programs: Iterable[Program]) -> frozenset[str] | None:
    """Every word a ``trigger("word", ...)`` of ``programs`` names; None when one names its
    word by an expression (any word might be triggered then)."""
    words: set[str] = set()
    for program in programs:
        for node in walk(program.body):
            if isinstance(node, Call) and node.name == "trigger" and node.args:
                first = node.args[0]
                if not (isinstance(first, Const) and isinstance(first.value, str)):
                    return None
                words.add(first.value)
    return frozenset(words)


def check_triggers(programs: Mapping[str, Program], data: Mapping[str, Any], positions: PositionMap) -> TriggerCheck:
    """Each scoring rule's ``when`` names a word some ``trigger(...)`` of the rules names: a
    rule whose word nothing triggers would silently never run (a misspelt ``when``), which
    is a warning (``rules/never-runs``: ``validate --strict`` fails on it).

    >>> from venedig_rules.effects.parse import parse
    >>> programs = {"/game/flow/main": parse('trigger("game_end")'), "/scoring/rules/0/effect": parse("x = 1")}
    >>> data = {"scoring": {"rules": [{"id": "extra", "when": "gam_end", "effect": "x = 1"}]}}
    >>> found = check_triggers(programs, data, PositionMap())
    >>> for part in found.errors[0].message.split(", "):
    ...     print(part)
    scoring rule 'extra' runs when 'gam_end' is triggered
    but no rule triggers 'gam_end' (did you mean 'game_end'?)
    so it would never run; triggered: game_end
    >>> sorted(found.never_run)
    ['/scoring/rules/0/effect']
    """
    words = triggered_words(programs.values())
    rules = _mapping(data.get("scoring")).get("rules")
    if words is None or not isinstance(rules, list):
        return TriggerCheck([], frozenset())
    errors: list[RulesError] = []
    never: set[str] = set()
    for i, rule in enumerate(rules):
        when = rule.get("when") if isinstance(rule, dict) else None
        if not isinstance(when, str) or when in words:
            continue
        ptr = f"/scoring/rules/{i}"
        errors.append(
            NeverRunWarning(
                f"scoring rule {rule.get('id')!r} runs when {when!r} is triggered, but no rule triggers {when!r}"
                f"{did_you_mean(when, words)}, so it would never run; triggered: {', '.join(sorted(words)) or 'none'}",
                positions.at(f"{ptr}/when"),
            )
        )
        never.add(f"{ptr}/effect")
    return TriggerCheck(errors, frozenset(never))


def check_contexts(
    programs: Iterable[CheckedProgram], data: Mapping[str, Any], positions: PositionMap
) -> list[RulesError]:
    """The context names a decision declares that are no local where it is made (its texts
    could never show them)."""
    decisions = _mapping(_mapping(data.get("game")).get("decisions"))
    errors: list[RulesError] = []
    for checked in programs:
        for node in walk(checked.program.body):
            if not isinstance(node, Choose):
                continue
            scope = checked.resolved.get(-id(node))
            visible = scope.slots if isinstance(scope, DecisionScope) else {}
            wanted = _mapping(_mapping(decisions.get(node.label)).get("context"))
            for name in wanted:
                if name not in visible:
                    errors.append(
                        DeclarationError(
                            f"decision {node.label!r} declares context {name!r}, which is no local where it is made"
                            f"{did_you_mean(name, visible)}; expected a name bound by let, for or a parameter",
                            positions.in_scalar(checked.id, node.pos),
                            caret(checked.program.text, node.pos),
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
