"""The effect DSL: parse, check and compile every DSL string of a ruleset.

May import: ``errors``, ``data``. (Game modules add primitives from above, through a Registry.)

>>> import venedig_rules as vr
>>> from venedig_rules.effects import parse
>>> [type(s).__name__ for s in parse("let x = 2; if x > 1 { x } else { 0 }").body]
['Let', 'If']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..data.yamlsource import PositionMap, pointer
from ..errors import (
    DslLeakError,
    DslLimitError,
    DslNameError,
    DslSyntaxError,
    DslTypeError,
    DslValueError,
    RulesError,
    did_you_mean,
)
from . import primitives as _core  # noqa: F401  (registers the core primitives)
from .check import Checked, Problem, ProcInfo, Resolution, Scope, Signature, VarInfo, check
from .compile import CheckedProgram, Generated, Kind, Locator, generate
from .parse import Choose, DslParseError, ExprStmt, Program, parse
from .parse import caret as _caret
from .registry import CORE, Registry
from .visitor import walk

if TYPE_CHECKING:
    from .flow import RulesetFlow

__all__ = ["CORE", "Compiled", "Generated", "compile_ruleset", "parse"]

#: Item lists whose DSL fields run as code: (file kind, list key) -> (fields, singular name)
ITEM_CODE = {
    ("cards", "cards"): (("effect",), "card"),
    ("cards", "types"): (("effect",), "card"),
    ("tiles", "tiles"): (("effect",), "tile"),
    ("buildings", "buildings"): (("points", "ability"), "building"),
    ("scoring", "rules"): (("effect",), None),
}
_ERRORS = {
    "dsl/syntax": DslSyntaxError,
    "dsl/name": DslNameError,
    "dsl/type": DslTypeError,
    "dsl/limit": DslLimitError,
    "dsl/value": DslValueError,
}


class Decision(NamedTuple):
    """Where a decision label's first ``choose`` stands: its program, its offset in that
    program's text, and whether every chooser decides at once (``choose each``)."""

    code: str
    offset: int
    each: bool


class Procedure(NamedTuple):
    """A flow procedure, compiled: its code id and its parameters' names, in order."""

    code: str
    params: tuple[str, ...]


class Invariant(NamedTuple):
    """An invariant: ``code`` is its check's program (``when``: always, end)."""

    id: str
    message: str
    when: str
    code: str


@dataclass
class Compiled:
    """Everything the engine runs: every checked program (compiled to Python on first use,
    :meth:`generated`) and the tables that say what calls what."""

    programs: dict[str, CheckedProgram] = field(default_factory=dict)
    main: str = ""
    procedures: dict[str, Procedure] = field(default_factory=dict)
    item_code: dict[tuple[str, str], str] = field(default_factory=dict)  # (item id, field) -> code id
    item_params: dict[str, tuple[str, ...]] = field(default_factory=dict)  # code id -> param names bound
    code_item_name: dict[str, str | None] = field(default_factory=dict)  # code id -> singular item name
    rules_by_when: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # when -> (code, rule id)
    invariants: tuple[Invariant, ...] = ()
    state: dict[str, VarInfo] = field(default_factory=dict)
    registry: Registry = CORE
    action_values: dict[str, str] = field(default_factory=dict)  # decision label -> code of its values
    _revealed: frozenset[str] | None = field(default=None, repr=False)
    _flow: Callable[[], frozenset[str]] | None = field(default=None, repr=False, compare=False)
    _generated: Generated | None = field(default=None, repr=False, compare=False)
    #: Where a program's offset is in the rule files (what locates a compile error).
    _locate: Locator | None = field(default=None, repr=False, compare=False)

    def generated(self, key: str | None = None) -> Generated:
        """The programs compiled to Python functions (once; shared by every load of the same
        rules when ``key`` is their ``rules_hash``)."""
        if self._generated is None:
            self._generated = generate(
                self.programs,
                self.registry,
                {name: p.code for name, p in self.procedures.items()},
                self.item_code,
                self.rules_by_when,
                key,
                self._locate,
            )
        return self._generated

    @property
    def revealed_decisions(self) -> frozenset[str]:
        """The secret decisions whose value a ``reveal()`` shows (the flow check finds them;
        for data known valid, on first use)."""
        if self._revealed is None:
            self._revealed = self._flow() if self._flow is not None else frozenset()
        return self._revealed

    @revealed_decisions.setter
    def revealed_decisions(self, labels: frozenset[str]) -> None:
        self._revealed = labels

    def decision_labels(self) -> dict[str, Decision]:
        """Every decision label of the flow -> where its first ``choose`` stands."""
        out: dict[str, Decision] = {}
        for code_id, checked in self.programs.items():
            for node in walk(checked.program.body):
                if isinstance(node, Choose):
                    out.setdefault(node.label, Decision(code_id, node.pos, node.each is not None))
        return out


def compile_ruleset(
    data: dict[str, Any],
    positions: PositionMap,
    registry: Registry = CORE,
    syntax_only: bool = False,
    trusted: bool = False,
) -> tuple[Compiled | None, list[RulesError]]:
    """Parse every DSL string; when the ruleset is playable (``game.yaml`` has ``flow``) and
    not ``syntax_only`` (the data has other problems), also check names and types and
    compile against ``registry`` (the core primitives and the game modules' own). Returns
    (compiled or None, located problems).

    ``trusted``: the data is known valid (:mod:`~venedig_rules.data.validated`: a bundled
    ruleset as shipped), so the checks that only find mistakes are skipped (declarations,
    constant folding, unread data, information flow, contexts, the action space); names
    and types are still resolved, as compiling needs them."""
    sources = list(_dsl_sources(data))
    programs, errors = _parse_all(sources, positions)
    game = data.get("game") or {}
    flow = game.get("flow")
    if isinstance(flow, dict) and not trusted:
        # the checks that only find mistakes are imported where they run: a load of data
        # known valid (trusted) never imports them, for a fast start
        from .declared import check_declarations, check_triggers

        errors += check_declarations(programs, data, positions)
        if len(programs) == len(sources):  # a program that did not parse may trigger any word
            triggers = check_triggers(programs, data, positions)
            errors += triggers.errors
            # a rule that never runs has no names bound by its trigger: checking it would only
            # repeat the misspelt word as unknown names
            programs = {ptr: program for ptr, program in programs.items() if ptr not in triggers.never_run}
    if not isinstance(flow, dict) or syntax_only:
        return None, errors
    compiled = Compiled(registry=registry, _locate=positions.in_scalar)
    base = _base_scope(data, compiled)
    reads = None
    if not trusted:
        from .constant_kinds import UNKNOWN, check_constants
        from .reads import Reads

        reads = Reads()
        constants = check_constants(data, positions, registry.constant_kinds)
        errors += constants.errors
        base.constants.update(dict.fromkeys(constants.wrong, UNKNOWN))  # told once, here
    checked: list[Checked] = []
    for ptr, text, role in sources:
        if ptr not in programs:
            continue
        scope = _scope_for(role, base, data, compiled)
        problems, resolved = _problems(programs[ptr], role, scope, fold=reads is not None)
        for p in problems:
            errors.append(_ERRORS[p.code](p.message, positions.in_scalar(ptr, p.offset), _caret(text, p.offset)))
        if problems:
            continue
        if reads is not None:
            reads.add(
                programs[ptr],
                resolved,
                _declared_params(data, role.kind, role.key) if isinstance(role, ItemRole) else (),
            )
        checked.append(_checked(ptr, programs[ptr], resolved, role))
        _add_program(compiled, ptr, programs[ptr], resolved, role, scope)
    compiled.main = "/game/flow/main"
    if reads is None:
        compiled._flow = lambda: _flow_of(data, positions, checked, compiled).revealed_decisions()
        return (compiled if not errors else None), errors
    from .declared import check_contexts
    from .reads import unread

    reads.add_registry(registry)
    if not errors:
        errors += unread(data, positions, reads)
    if not errors:
        errors += _leaks(data, positions, checked, compiled)
    errors += check_contexts(compiled.programs.values(), data, positions)
    if not errors:
        errors += _check_action_space(data, compiled, positions)
    from .declassified import variant_declassifies

    errors += variant_declassifies(programs, positions)  # warnings: they do not stop a load
    return (compiled if not any(not e.warning for e in errors) else None), errors


def _parse_all(
    sources: list[tuple[str, str, Role]], positions: PositionMap
) -> tuple[dict[str, Program], list[RulesError]]:
    """Every DSL string parsed (by its pointer), and the located syntax errors of the rest."""
    programs: dict[str, Program] = {}
    errors: list[RulesError] = []
    for ptr, text, _ in sources:
        try:
            programs[ptr] = parse(text)
        except DslParseError as exc:
            errors.append(
                DslSyntaxError(exc.describe(), positions.in_scalar(ptr, exc.offset), _caret(text, exc.offset))
            )
    return programs, errors


def _problems(program: Program, role: Role, scope: Scope, fold: bool) -> tuple[list[Problem], Resolution]:
    """The problems of a program in its scope and what its names resolve to; ``fold``: look
    for the problems its constants show too (only when the checker found none)."""
    body = program.body
    if isinstance(role, InvariantRole) and not (len(body) == 1 and isinstance(body[0], ExprStmt)):
        problem = Problem(
            body[1].pos if len(body) > 1 else 0,
            "dsl/syntax",
            "an invariant's check must be one expression (no 'let', 'if' or ';')",
        )
        return [problem], {}
    problems, resolved = check(program, scope)
    if fold and not problems:
        from .fold import constant_problems

        problems = constant_problems(program, resolved)
    return problems, resolved


def _add_program(
    compiled: Compiled, ptr: str, program: Program, resolved: Resolution, role: Role, scope: Scope
) -> None:
    """A checked program into ``compiled``, of the kind its role says, and what the tables
    say about it: an invariant, a procedure, an item's code and the names it binds, a
    scoring rule by its trigger word, an action space's values."""
    given = frozenset(scope.locals)
    if isinstance(role, InvariantRole):
        item = role.item
        compiled.programs[ptr] = CheckedProgram(ptr, program, resolved, "invariant", given=given)
        compiled.invariants += (Invariant(item["id"], item["message"], item.get("when", "always"), ptr),)
        return
    kind: Kind = "main" if isinstance(role, MainRole) else "procedure" if isinstance(role, ProcRole) else "item"
    params = tuple(role.params) if isinstance(role, ProcRole) else ()
    compiled.programs[ptr] = CheckedProgram(ptr, program, resolved, kind, params, given)
    if isinstance(role, ActionSpaceRole):
        compiled.action_values[role.label] = ptr
    elif isinstance(role, ProcRole):
        compiled.procedures[role.name] = Procedure(ptr, tuple(role.params))
    elif isinstance(role, ItemRole):
        item, singular = role.item, role.singular
        compiled.item_code.setdefault((item["id"], role.field), ptr)
        compiled.code_item_name[ptr] = singular
        compiled.item_params[ptr] = tuple(
            n for n, t in scope.locals.items() if n not in ("players", "self", "item", singular)
        )
        if role.kind == "scoring":
            when = item.get("when", "")
            compiled.rules_by_when[when] = compiled.rules_by_when.get(when, ()) + ((ptr, item["id"]),)


def _check_action_space(data: dict[str, Any], compiled: Compiled, positions: PositionMap) -> list[RulesError]:
    """Every ``action_space`` entry names a decision label of the flow, and every decision
    has numbers: an entry, or a type that lists its values (:mod:`~venedig_rules.data.derived_actions`);
    checked only when the section is there (a ruleset without one has no integer actions)."""
    declared = data["game"].get("action_space")
    if not isinstance(declared, dict):
        return []
    labels = compiled.decision_labels()
    errors: list[RulesError] = [
        DslNameError(
            f"action_space declares {label!r}, but no decision of the flow is labelled so{did_you_mean(label, labels)}",
            positions.key_at(pointer("/game/action_space", label)),
        )
        for label in declared
        if label not in labels
    ]
    from ..data.derived_actions import derived_values

    for label, decision in sorted(labels.items()):
        if label in declared or derived_values(data, label, players=1) is not None:
            continue
        # located at the choose: a variant's new decision is in the variant's file
        program = compiled.programs[decision.code].program
        at = decision.offset
        errors.append(
            DslNameError(
                f"decision {label!r} has no action_space entry in game.yaml, and its type does not list its values "
                "(only an id kind, a player or {word: [...]} do), so its actions have no numbers; expected "
                f"action_space: {{{label}: {{values: <DSL>}}}} or {{{label}: {{ordinal: N}}}} (docs/research.md)",
                positions.in_scalar(decision.code, at),
                _caret(program.text, at),
            )
        )
    return errors


def _checked(ptr: str, program: Program, resolved: Resolution, role: Role) -> Checked:
    if isinstance(role, ProcRole):
        return Checked(ptr, program, resolved, False, Signature(role.name, tuple(role.params)))
    if isinstance(role, ItemRole):
        return Checked(ptr, program, resolved, True, field=role.field if role.kind != "scoring" else None)
    return Checked(ptr, program, resolved, isinstance(role, MainRole))


def _leaks(
    data: dict[str, Any], positions: PositionMap, checked: list[Checked], compiled: Compiled
) -> list[RulesError]:
    """The information-flow check (:mod:`.flow`): a located ``dsl/leak`` per leak."""
    found = _flow_of(data, positions, checked, compiled)
    compiled.revealed_decisions = found.revealed_decisions()
    texts = {c.ptr: c.program.text for c in checked}
    if not found.leaks:
        return []
    from .leak_cause import causes

    visibility = _visibility(data)

    def places(other: Mapping[str, str]) -> frozenset[tuple[str, int]]:
        return frozenset((k.home, k.offset) for k in _flow_of(data, positions, checked, compiled, other).leaks)

    blamed = causes(frozenset((k.home, k.offset) for k in found.leaks), visibility, positions, places)
    errors: list[RulesError] = []
    for leak in found.leaks:
        at, caret = positions.in_scalar(leak.home, leak.offset), _caret(texts[leak.home], leak.offset)
        cause = blamed.get((leak.home, leak.offset))
        if cause is None:
            errors.append(DslLeakError(leak.message, at, caret))
            continue
        # the designer changed who sees the variable: the error goes to that line
        message = (
            f"state variable {cause.variable!r} made visible: {cause.visible} leaks a secret at {at}: {leak.message}"
        )
        errors.append(DslLeakError(message, cause.at, f"at {at}:\n{caret}"))
    return errors


def _visibility(data: dict[str, Any]) -> dict[str, str]:
    """Who sees each state variable (``all`` when not said)."""
    return {name: str(decl.get("visible", "all")) for name, decl in (data["game"].get("state") or {}).items()}


def _flow_of(
    data: dict[str, Any],
    positions: PositionMap,
    checked: list[Checked],
    compiled: Compiled,
    visibility: Mapping[str, str] | None = None,
) -> RulesetFlow:
    """The information flow of a ruleset's checked programs (:mod:`.flow`), under the
    state's visibility (or ``visibility`` instead)."""
    from .flow import ruleset_flow

    visibility = _visibility(data) if visibility is None else visibility

    def locate(ptr: str, offset: int) -> str:
        at = positions.in_scalar(ptr, offset)
        return f"{at.file.rsplit('/', 1)[-1]}:{at.line}:{at.column}"

    registry = compiled.registry
    return ruleset_flow(checked, visibility, registry.secret_reads, locate, registry.shape_only)


# -- what each DSL string of a ruleset is ---------------------------------------------------------
class MainRole(NamedTuple):
    """The flow's main program."""


class ProcRole(NamedTuple):
    """A flow procedure: its name and parameters (name -> type)."""

    name: str
    params: dict[str, str]


class ItemRole(NamedTuple):
    """A DSL field of an item (a card's ``effect``, a building's ``points``, a scoring rule's
    ``effect``): the item list (file ``kind``, list ``key``), the ``field``, the item, and
    the name the item goes by in its code (``card``; None for scoring rules)."""

    kind: str
    key: str
    field: str
    item: dict[str, Any]
    singular: str | None


class InvariantRole(NamedTuple):
    """An invariant's ``check``."""

    item: dict[str, Any]


class ActionSpaceRole(NamedTuple):
    """The ``values`` of a decision label's ``action_space`` entry (over the rule data alone)."""

    label: str


Role = MainRole | ProcRole | ItemRole | InvariantRole | ActionSpaceRole


def _dsl_sources(data: dict[str, Any]) -> Iterator[tuple[str, str, Role]]:
    """(pointer, text, role) of every DSL string."""
    flow = (data.get("game") or {}).get("flow")
    if isinstance(flow, dict):
        if isinstance(flow.get("main"), str):
            yield "/game/flow/main", flow["main"], MainRole()
        for name, proc in (flow.get("procedures") or {}).items():
            if isinstance(proc, str):
                yield pointer("/game/flow/procedures", name), proc, ProcRole(name, {})
            elif isinstance(proc, dict) and isinstance(proc.get("body"), str):
                yield (
                    pointer(pointer("/game/flow/procedures", name), "body"),
                    proc["body"],
                    ProcRole(name, proc.get("params") or {}),
                )
    for (kind, key), (fields, singular) in ITEM_CODE.items():
        for i, item in enumerate((data.get(kind) or {}).get(key) or []):
            if not isinstance(item, dict):
                continue
            for name in fields:
                if isinstance(item.get(name), str):
                    yield f"/{kind}/{key}/{i}/{name}", item[name], ItemRole(kind, key, name, item, singular)
    space = (data.get("game") or {}).get("action_space")
    if isinstance(space, dict):
        for label, entry in space.items():
            if isinstance(entry, dict) and isinstance(entry.get("values"), str):
                yield pointer(pointer("/game/action_space", label), "values"), entry["values"], ActionSpaceRole(label)
    for i, item in enumerate((data.get("invariants") or {}).get("invariants") or []):
        if isinstance(item, dict) and isinstance(item.get("check"), str):
            yield f"/invariants/invariants/{i}/check", item["check"], InvariantRole(item)


def _base_scope(data: dict[str, Any], compiled: Compiled) -> Scope:
    game = data["game"]
    state = {}
    for track in (data.get("scoring") or {}).get("tracks") or []:
        state[track["id"]] = VarInfo("int", "player")
    for name, decl in (game.get("state") or {}).items():
        state[name] = VarInfo(decl.get("type", "any"), decl.get("per"))
    compiled.state = state
    ids: set[str] = set()
    for kind_data in data.values():
        if isinstance(kind_data, dict):
            for value in kind_data.values():
                if isinstance(value, list):
                    ids.update(i["id"] for i in value if isinstance(i, dict) and isinstance(i.get("id"), str))
    from ..data.board import grid_spaces

    ids.update(grid_spaces(data.get("board") or {}))
    procedures = {}
    for name, proc in ((game.get("flow") or {}).get("procedures") or {}).items():
        params = tuple((proc.get("params") or {}).items()) if isinstance(proc, dict) else ()
        procedures[name] = ProcInfo(params)
    return Scope(
        locals={"players": "list"},
        state=state,
        constants=dict(game.get("constants") or {}),
        ids=frozenset(ids),
        procedures=procedures,
        registry=compiled.registry,
    )


def _scope_for(role: Role, base: Scope, data: dict[str, Any], compiled: Compiled) -> Scope:
    contexts = (data["game"].get("flow") or {}).get("contexts") or {}
    if isinstance(role, MainRole):
        return base
    if isinstance(role, ProcRole):
        return _with(base, dict(role.params))
    if isinstance(role, InvariantRole):
        scope = _with(base, {})
        scope.may_wait = False
        scope.may_change = False
        return scope
    if isinstance(role, ActionSpaceRole):  # over the rule data alone: no state, no decisions
        scope = _with(base, {})
        scope.state = {}
        scope.may_wait = scope.may_change = False
        return scope
    kind, key = role.kind, role.key
    params = _declared_params(data, kind, key)
    names: dict[str, str] = {"self": "player", "item": "str"}
    if role.singular:
        names[role.singular] = "str"
    names.update({p: "any" for p in params})
    names.update(contexts.get(f"{key if kind != 'cards' else 'cards'}.{role.field}", {}))
    if kind == "scoring":
        names.update(contexts.get(f"scoring.{role.item.get('when', '')}", {}))
    return _with(base, names)


def _declared_params(data: dict[str, Any], kind: str, key: str) -> tuple[str, ...]:
    declared = data["game"].get("parameters") or {}
    kinds = {
        ("cards", "cards"): ("cards", "card_types"),
        ("cards", "types"): ("cards", "card_types"),
        ("tiles", "tiles"): ("tiles",),
        ("buildings", "buildings"): ("buildings",),
    }.get((kind, key), ())
    names: list[str] = []
    for k in kinds:
        names += [n for n in (declared.get(k) or {}) if n not in names]
    return tuple(names)


def _with(base: Scope, names: dict[str, str]) -> Scope:
    return Scope(
        locals={**base.locals, **names},
        state=base.state,
        constants=base.constants,
        ids=base.ids,
        procedures=base.procedures,
        registry=base.registry,
    )
