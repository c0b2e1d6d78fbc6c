"""Compile checked DSL programs to Python source: one module of plain functions per ruleset.

The generator writes Python from the *checked AST* only, never from rule text: every DSL
name becomes a mangled identifier (``v_round``, ``b3_card`` for a name bound inside a
block), every literal is written with ``repr`` (or kept in the module's namespace), every
primitive is a namespace global (``p_count``), and the operators are fast paths for whole
numbers with a checked fallback from :mod:`.runtime`. The source is compiled once per
ruleset and kept per ``rules_hash`` (:func:`generate`). A **line table** gives, for every
generated line, the program and the offset of the DSL statement it belongs to, so an error
raised anywhere below a generated line is located at that statement's file, line and
column (:meth:`Generated.locate`).

Each program becomes one of three kinds of function:

- a program that can never stop at a decision is **direct**: straight code, branches and
  loops as native Python, DSL locals as Python locals, ``d7(C, N)`` for an item's effect or
  a scoring rule (``N`` the names its caller binds), ``d7(C, v_self, <params>)`` for a
  procedure; it returns the program's value, and calls of other direct programs are plain
  Python calls;
- a program that may stop is **resumable**: ``r7(C, F)`` runs frame ``F`` (plain data: code
  id, ``pc``, target, names) from ``F.pc``; its locals live in the frame's names, its body
  is a ``pc`` switch (``while True: if pc == 0: ... if pc == 1: ...``) with one case per
  place it can stop or jump to, code without a decision inside each case native again. It
  returns the program's value, or :data:`~.runtime.STOP` when it waits for a decision
  (``F.pc`` is then the decision's case; the answer resumes the case after it). A call of
  another resumable program pushes that program's frame and runs it at once, so the
  machine's dispatch loop only turns when a game resumes after a decision;
- an invariant is ``i7(C, N)``: one expression.

``C`` is the running game (the engine's machine): the generated code reads ``C.vars``
(kept in ``V``) and calls its methods to change the state, to decide and to call.

>>> from venedig_rules.effects.parse import parse
>>> from venedig_rules.effects.check import Scope, check
>>> program = parse("let n = 0; for x in [1, 2, 3] { n += x * 2 }; n")
>>> _, resolved = check(program, Scope(locals={"players": "list"}))
>>> text = source({"main": CheckedProgram("main", program, resolved, "main")})
>>> print(text.split("def d0")[1].split("def r0")[0].strip())  # doctest: +ELLIPSIS
(C, N):
    V = C.vars
    P = C.player_count
    ...
    v_n = 0
    _t1 = (1, 2, 3)
    if type(_t1) is not tuple: _t1 = _loop_items(_t1)
    C.left -= len(_t1)
    if C.left < 0: _out_of_steps()
    for b2_x in _t1:
        ...
        v_n = (_t7 if ... else _combine(_t6, '+=', _t5))
    _r = v_n
    return _r
"""

from __future__ import annotations

import contextlib
import keyword
import linecache
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, NamedTuple, NoReturn

from ..errors import DslCompileError, Location, RuleRuntimeError
from ..limits import MAX_INT, MAX_REPEAT
from . import aot, primitives, runtime
from . import parse as ast
from .check import (
    ConstantValue,
    DecisionScope,
    LocalName,
    PerIndex,
    PrimitiveCall,
    ProcedureCall,
    Resolution,
    RulesetId,
    StateVar,
)
from .context import Ref
from .parse import caret
from .registry import REQUIRED, Primitive, Registry
from .runtime import RULE_FAILURES, STOP, combine, freeze
from .visitor import NodeVisitor, children

__all__ = [
    "MAX_REPEAT",
    "RULE_FAILURES",
    "STOP",
    "CheckedProgram",
    "Generated",
    "combine",
    "freeze",
    "generate",
    "source",
]

Kind = Literal["main", "procedure", "item", "invariant"]
#: Where an offset of a program's DSL text is in the rule files: (code id, offset) -> location.
Locator = Callable[[str, int], Location]
#: A compiled function: resumable ``r(C, F)``, direct ``d(C, N)``, or an invariant ``i(C, N)``.
Function = Callable[..., Any]


@dataclass(frozen=True)
class CheckedProgram:
    """A program the checker passed: what the generator compiles.

    ``kind`` says how it is called: the flow's ``main``, a ``procedure`` (with ``params`` in
    order), an ``item`` field or scoring rule (run through ``effect``/``trigger``), an
    ``invariant`` (one expression).
    """

    id: str
    program: ast.Program
    resolved: Resolution = field(repr=False)
    kind: Kind
    params: tuple[str, ...] = ()
    given: frozenset[str] = frozenset({"players"})  # the names its callers bind


class Place(NamedTuple):
    """A place in a program's DSL text: its code id and the offset there.

    (The line table keeps each as a plain tuple, made a ``Place`` when looked up: the
    cyclic garbage collector stops walking a plain tuple of strings and numbers, never a
    named one, and a ruleset's table has one for each of its generated lines, thousands.)
    """

    code: str
    offset: int


class FunctionName(NamedTuple):
    """How a program is compiled (``resumable``, ``direct`` or ``invariant``) and the number
    in its functions' names (``r7``, ``d7``, ``i7``)."""

    how: Literal["resumable", "direct", "invariant"]
    number: int


class Generated:
    """A ruleset's compiled functions, their source and its line table."""

    def __init__(
        self,
        text: str,
        filename: str,
        lines: Sequence[tuple[str, int] | None],
        namespace: dict[str, Any],
        names: Mapping[str, FunctionName],
        cases: Mapping[str, tuple[int, ...]],
    ):
        self.source = text
        self.filename = filename
        self.lines = tuple(lines)
        #: code id -> ``r(C, F)``: runs a frame of that program (every program but invariants).
        self.resume: dict[str, Function] = {}
        #: code id -> ``d(C, N)`` for a program of an item or scoring rule (or main) that never
        #: stops; None for one that may stop (it runs in a frame).
        self.direct: dict[str, Function | None] = {}
        #: code id -> ``i(C, N)``: an invariant's check.
        self.invariants: dict[str, Function] = {}
        #: code id -> the DSL offset of the first statement of each ``pc`` case.
        self.cases = dict(cases)
        #: code id -> decision case -> the locals in scope there, name -> frame slot (what a
        #: decision's texts may show of the code that decides)
        self.choose_names: dict[str, dict[int, dict[str, str]]] = {}
        for code_id, name in names.items():
            i = name.number
            if name.how == "invariant":
                self.invariants[code_id] = namespace[f"i{i}"]
                continue
            self.resume[code_id] = namespace[f"r{i}"]
            self.direct[code_id] = namespace[f"d{i}"] if name.how == "direct" else None

    def locate(self, tb: TracebackType | None) -> Place | None:
        """(code id, DSL offset) of the innermost generated statement in a traceback."""
        line = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                line = tb.tb_lineno
            tb = tb.tb_next
        if line is None or not 0 < line <= len(self.lines):
            return None
        place = self.lines[line - 1]
        return None if place is None else Place._make(place)


#: How many generated modules :func:`generate` keeps (the oldest goes first).
CACHE_SIZE = 32
#: Generated modules by what decides their text: rules hash, primitives, procedure params.
_CACHE: dict[tuple[Any, ...], Generated] = {}


def generate(
    programs: Mapping[str, CheckedProgram],
    registry: Registry,
    procedures: Mapping[str, str] | None = None,
    item_code: Mapping[tuple[str, str], str] | None = None,
    rules_by_when: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    key: str | None = None,
    locate: Locator | None = None,
) -> Generated:
    """Compile a ruleset's checked programs to one module and exec it (once per ``key``,
    e.g. the ruleset's ``rules_hash``: a second load of the same rules reuses the functions).

    ``procedures`` maps procedure names to code ids, ``item_code`` (item id, field) to the code
    of that item field, ``rules_by_when`` a trigger word to its scoring rules' (code, rule id):
    with them the compiler knows which calls may stop at a decision. A program it cannot
    write raises :class:`~venedig_rules.errors.DslCompileError` at ``locate(code id,
    offset)`` (by default the line and column in the program's own text)."""
    cache_key = None
    if key is not None:
        cache_key = (
            key,
            tuple(sorted((name, id(p.fn)) for name, p in registry.primitives.items())),
            tuple((p.id, p.params) for p in programs.values()),
        )
        if cache_key in _CACHE:
            return _CACHE[cache_key]
    module = _Module(programs, registry, procedures or {}, item_code or {}, rules_by_when or {}, locate)
    text = module.text()
    ahead = aot.load(text, module.namespace)  # the compiled build's, for a bundled ruleset
    if ahead is not None:
        namespace, filename = ahead
    else:
        filename = f"<venedig-rules generated {key[:16] if key else id(module):}>"
        namespace = module.namespace
        exec(compile(text, filename, "exec"), namespace)
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    generated = Generated(text, filename, module.table, namespace, module.function_names, module.cases)
    generated.choose_names = module.choose_names
    if cache_key is not None:
        if len(_CACHE) >= CACHE_SIZE:  # a service validating many variants keeps the latest only
            # best effort: another thread loading at once may have changed the cache meanwhile
            with contextlib.suppress(KeyError, RuntimeError, StopIteration):
                del _CACHE[next(iter(_CACHE))]
        _CACHE[cache_key] = generated
    return generated


def source(programs: Mapping[str, CheckedProgram], registry: Registry | None = None) -> str:
    """The Python source :func:`generate` compiles (to read it; nothing is run)."""
    from .registry import CORE

    return _Module(programs, registry or CORE, {}, {}, {}).text()


# == the module ==================================================================================
_M = repr(MAX_INT)
_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")
_SLOT = re.compile(r"([a-z_][a-z0-9_]*)(?:#([0-9]+))?\Z")

#: What generated code finds in its namespace besides primitives and constants.
_HELPERS: dict[str, Any] = {
    "_STOP": STOP,
    "_add": runtime.add,
    "_arith": runtime.arith,
    "_neg": runtime.neg,
    "_item": runtime.item,
    "_combine": runtime.combine,
    "_join": runtime.join,
    "_freeze": runtime.freeze,
    "_nest": runtime.nest,
    "_loop_items": runtime.loop_items,
    "_repeat_count": runtime.repeat_count,
    "_out_of_steps": runtime.out_of_steps,
    "_Ref": Ref,
    "_RuleRuntimeError": RuleRuntimeError,
}


class _Module:
    """The text of one generated module, its line table and its namespace."""

    def __init__(
        self,
        programs: Mapping[str, CheckedProgram],
        registry: Registry,
        procedures: Mapping[str, str],
        item_code: Mapping[tuple[str, str], str],
        rules_by_when: Mapping[str, Sequence[tuple[str, str]]],
        locate: Locator | None = None,
    ):
        self.programs = programs
        self.locate = locate or _in_text(programs)
        self.registry = registry
        self.namespace: dict[str, Any] = dict(_HELPERS)
        self.constants: dict[int, str] = {}  # id of a constant value -> its global's name
        self.table: list[tuple[str, int] | None] = []
        self.out: list[str] = []
        self.cases: dict[str, tuple[int, ...]] = {}
        #: code id -> decision case -> the locals in scope there, name -> frame slot
        self.choose_names: dict[str, dict[int, dict[str, str]]] = {}
        self.index = {code_id: i for i, code_id in enumerate(programs)}
        self.proc_code = dict(procedures)
        self.item_code = item_code
        self.rules_by_when = rules_by_when
        self.stops = _stopping(programs, self)
        #: code id -> (how it is compiled, the number in its functions' names)
        self.function_names: dict[str, FunctionName] = {}

    # -- what the module's functions call --------------------------------------------------
    def primitive(self, prim: Primitive, raw: bool = False) -> str:
        """The global of ``prim``'s charged function (charged by the size of the lists it
        touches, see runtime.charged), or with ``raw`` of the primitive itself (for a call
        the machine charges: see _Function.charged_call)."""
        prefix = "f" if raw else "p"
        name = f"{prefix}_{prim.name}" if _NAME.match(prim.name) else f"{prefix}{len(self.namespace)}"
        fn = prim.fn if raw else runtime.charged(prim)
        if self.namespace.get(name, fn) is not fn:
            name = f"{prefix}{len(self.namespace)}_"
        self.namespace[name] = fn
        return name

    def constant(self, value: Any) -> str:
        """A global holding ``value`` (for values a literal cannot show or should not)."""
        known = self.constants.get(id(value))
        if known is not None:
            return known
        name = f"k{len(self.constants)}"
        self.constants[id(value)] = name
        self.namespace[name] = value
        self.namespace[f"_keep_{name}"] = value  # keeps the id taken above alive and unique
        return name

    def literal(self, value: Any) -> str:
        """Python text for a DSL value: ``repr`` of plain values, else a global."""
        if value is None or value is True or value is False:
            return repr(value)
        if value.__class__ is int and -MAX_INT <= value <= MAX_INT:
            return f"({value})" if value < 0 else repr(value)
        if value.__class__ is str and len(value) <= 200:
            return repr(value)
        if value.__class__ is tuple and len(value) <= 32 and all(_plain_literal(v) for v in value):
            items = [self.literal(v) for v in value]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return self.constant(value)

    def targets(self, node: ast.Call, resolved: Resolution) -> list[str] | None:
        """The code ids a statement-level call may run (None: a call that runs nothing)."""
        match resolved.get(id(node)):
            case ProcedureCall(name):
                code = self.proc_code.get(name)
                return [code] if code is not None else []
            case PrimitiveCall(prim) if prim.calls:
                first = node.args[0] if node.args else None
                if prim.name == "effect" and len(node.args) >= 2:
                    fld = node.args[1]
                    want = fld.value if isinstance(fld, ast.Const) and isinstance(fld.value, str) else None
                    return [c for (_, f), c in self.item_code.items() if want is None or f == want]
                if prim.name == "trigger" and first is not None:
                    if isinstance(first, ast.Const) and isinstance(first.value, str):
                        return [c for c, _ in self.rules_by_when.get(first.value, ())]
                    return [c for rules in self.rules_by_when.values() for c, _ in rules]
                return list(self.programs)  # another primitive that runs effects: any program
        return None

    # -- the text --------------------------------------------------------------------------
    def text(self) -> str:
        if self.out:
            return "\n".join(self.out) + "\n"
        for code_id, checked in self.programs.items():
            i = self.index[code_id]
            if checked.kind == "invariant":
                fn = _Function(self, checked, f"i{i}", frame=False)
                fn.invariant()
                self.function_names[code_id] = FunctionName("invariant", i)
            elif self.stops[code_id]:
                fn = _Function(self, checked, f"r{i}", frame=True)
                fn.resumable()
                self.cases[code_id] = tuple(fn.case_offsets)
                self.function_names[code_id] = FunctionName("resumable", i)
            else:
                fn = _Function(self, checked, f"d{i}", frame=False)
                fn.direct()
                self.function_names[code_id] = FunctionName("direct", i)
                wrapper = _Function(self, checked, f"r{i}", frame=True)
                wrapper.wrapper(f"d{i}")
                fn.lines += wrapper.lines
            for line in fn.lines:
                self.out.append("    " * line.indent + line.text)
                self.table.append((code_id, line.offset) if line.offset is not None else None)
            self.out.append("")
            self.table.append(None)
        return "\n".join(self.out) + "\n"


def _in_text(programs: Mapping[str, CheckedProgram]) -> Locator:
    """Locate in a program's own text: the code id as the file, its line and column."""

    def locate(code_id: str, offset: int) -> Location:
        text = programs[code_id].program.text
        line = text.count("\n", 0, offset) + 1
        return Location(code_id, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)

    return locate


def _plain_literal(value: Any) -> bool:
    if value is None or value.__class__ in (bool, str):
        return True
    if value.__class__ is int:
        return -MAX_INT <= value <= MAX_INT
    return value.__class__ is tuple and len(value) <= 32 and all(_plain_literal(v) for v in value)


def _stopping(programs: Mapping[str, CheckedProgram], module: _Module) -> dict[str, bool]:
    """Which programs may stop at a decision: one with a ``choose``, or that calls one that
    may (the least fixed point, so recursion alone never makes a program stop)."""
    stops: dict[str, bool] = {}
    calls: dict[str, set[str]] = {}
    for code_id, checked in programs.items():
        stops[code_id] = False
        calls[code_id] = set()
        for value in _statement_values(checked.program.body):
            if isinstance(value, ast.Choose):
                stops[code_id] = True
            elif isinstance(value, ast.Call):
                calls[code_id].update(module.targets(value, checked.resolved) or ())
    changed = True
    while changed:
        changed = False
        for code_id, callees in calls.items():
            if not stops[code_id] and any(stops.get(c, False) for c in callees):
                stops[code_id] = changed = True
    return stops


def _statement_values(body: Sequence[ast.Node]) -> Iterator[ast.Node]:
    """The value of every ``let`` and expression statement, in blocks too (where decisions
    and calls that run other programs may stand)."""
    for node in _statements(body):
        value = _value_of(node)
        if value is not None:
            yield value


def _statements(body: Sequence[ast.Node]) -> Iterator[ast.Node]:
    """Every statement of ``body``, those in its blocks too, each before its blocks'."""
    for node in body:
        yield node
        for block in _blocks(node):
            yield from _statements(block.body)


def _blocks(node: ast.Node) -> Iterator[ast.Block]:
    """The blocks a statement holds (an ``if``'s branches, a loop's body)."""
    return (child for child in children(node) if isinstance(child, ast.Block))


def _breaks_out(node: ast.Node) -> bool:
    """Whether a ``break`` in ``node`` leaves a loop around it (not one inside it)."""
    if isinstance(node, ast.Break):
        return True
    if isinstance(node, (ast.For, ast.Repeat)):
        return False
    return any(_breaks_out(s) for block in _blocks(node) for s in block.body)


def _value_of(node: ast.Node) -> ast.Node | None:
    """The value of a ``let`` or an expression statement: where a decision or a call that
    runs another program may stand (None for other statements)."""
    if isinstance(node, ast.Let):
        return node.value
    if isinstance(node, ast.ExprStmt):
        return node.expr
    return None


# == one function ==================================================================================
class _Loop:
    """A loop being written: ``end`` is the case after it when it is a ``pc`` loop (None:
    a native Python loop, left with ``break``)."""

    __slots__ = ("end",)

    def __init__(self, end: int | None):
        self.end = end


class _Line(NamedTuple):
    """A generated line: its indentation (in levels), its text, and the DSL offset of the
    statement it belongs to (None: no statement's, as a function's first lines)."""

    indent: int
    text: str
    offset: int | None


class _RefText(NamedTuple):
    """Python text of a state variable handed to a primitive to change: its name and the
    index of its part (``None`` for the whole variable)."""

    name: str
    part: str


class _Forwarded(NamedTuple):
    """A core primitive of free keywords that hands its ``arity`` arguments and the
    keywords, as a dictionary, to a method of the context (see ``_Function.inline``)."""

    method: str
    arity: int


#: Those primitives, by function: generated code calls the machine's method itself.
_NAMED = {
    primitives.event: _Forwarded("narrate", 1),
    primitives.effect: _Forwarded("call_item", 2),
    primitives.trigger: _Forwarded("call_rules", 1),
}


class _CaseStart(NamedTuple):
    """Where a ``pc`` case opened: its number and the DSL offset of its first statement."""

    case: int
    offset: int


#: The indentation of a resumable function's ``pc`` cases' code: ``def`` (0) > ``while
#: True:`` (1) > ``if pc == k:`` (2) > the case (3). Statements that may stop are written at
#: this level only: a block holding one is itself written as cases.
_CASE_LEVEL = 3


class _Function(NodeVisitor):
    """The lines of one generated function.

    A statement is written one of two ways: ``visit_<Class>`` writes it as native Python,
    ``stop_<Class>`` as ``pc`` cases (a statement that may stop at a decision). Expressions
    are visited with ``truth`` (only their truth counts) and give Python text. Lines go out
    at the current indentation, which :meth:`indent` and :meth:`outdent` move."""

    def __init__(self, module: _Module, checked: CheckedProgram, name: str, frame: bool):
        self.module = module
        self.checked = checked
        self.resolved = checked.resolved
        self.fname = name
        self.frame = frame  # locals in the frame's names (L) rather than Python locals
        self.lines: list[_Line] = []
        self.depth = 0  # the indentation of the next line
        self.pos: int | None = None  # the DSL offset of the statement being written
        self.temps = 0
        self.loops: list[_Loop] = []
        self.override: dict[str, str] = {}  # slot -> Python name (a ``choose each`` player)
        # frame: slots bound inside a statement that cannot stop -> the Python local they are
        # read from (written to the frame too, which a save holds as it was)
        self.fast: dict[str, str] = {}
        self.plain = 0  # frame: how many statements that cannot stop the next line is inside
        self.value_dead = False  # the statement being written: its value is never read
        self.looked_up: set[str] = set()  # direct: slots read from N at every use
        self.labels = 1  # pc cases handed out (0 is the start)
        self.loop_slots = 0  # frame slots of pc loops handed out
        self.case_offsets: list[int] = []
        self._case_at: list[_CaseStart] = []  # as the cases open
        self.case_lines = 0  # lines in the current case so far
        if not frame and checked.kind in ("item", "main"):
            # names a caller may leave out (a context name) are read where they are used,
            # so a missing one fails there, as it would in a frame
            self.looked_up = set(checked.given) - {"players", "self"}

    # -- writing -----------------------------------------------------------------------------
    def writeline(self, text: str) -> None:
        """A line at the current indentation, belonging to the statement being written."""
        self.lines.append(_Line(self.depth, text, self.pos))
        self.case_lines += 1

    def indent(self) -> None:
        self.depth += 1

    def outdent(self) -> None:
        self.depth -= 1

    def fail(self, message: str, node: ast.Node | None = None) -> NoReturn:
        """Stop: the compiler cannot write this program (the checker should have refused it),
        located at ``node``, else at the statement being written."""
        offset = node.pos if node is not None else (self.pos or 0)
        code_id = self.checked.id
        raise DslCompileError(message, self.module.locate(code_id, offset), caret(self.checked.program.text, offset))

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    # -- names -------------------------------------------------------------------------------
    def local(self, slot: str) -> str:
        """Python text reading (or, left of ``=``, writing) local ``slot``."""
        if slot in self.override:
            return self.override[slot]
        if slot in self.fast:
            return self.fast[slot]
        if slot == "@":
            return "L['@']" if self.frame else "_r"
        match = _SLOT.match(slot)
        if match is None:
            self.fail(f"cannot compile the local name {slot!r}")
        if self.frame:
            return f"L[{slot!r}]"
        if slot in self.looked_up:
            return f"N[{slot!r}]"
        name, n = match.groups()
        return f"v_{name}" if n is None else f"b{n}_{name}"

    def bind(self, slot: str) -> str:
        """Python text left of ``=`` binding local ``slot`` (a ``let``, a loop's name). In a
        frame, a slot bound inside a statement that cannot stop is read from a Python local
        from here on, the frame keeping its value as well: its scope ends within that
        statement, so no decision comes between its writes and reads."""
        match = _SLOT.match(slot)
        if self.frame and self.plain and match is not None and match[2] is not None:
            self.fast[slot] = f"b{match[2]}_{match[1]}"
        return self.store(slot)

    def store(self, slot: str) -> str:
        """Python text left of ``=`` writing local ``slot``."""
        if slot in self.fast and slot not in self.override:
            return f"{self.fast[slot]} = L[{slot!r}]"
        return self.local(slot)

    def self_value(self) -> str:
        """What a call made here hands on as ``self`` (the caller's own)."""
        return "L.get('self')" if self.frame else "v_self"

    # -- the kinds of function -----------------------------------------------------------------
    def prologue(self) -> None:
        self.writeline("V = C.vars")
        self.writeline("P = C.player_count")

    def direct(self) -> None:
        checked = self.checked
        if checked.kind == "procedure":
            params = [self.local(p) if p != "self" else "v_self" for p in checked.params]
            first = "_S" if "self" in checked.params else "v_self"
            self.writeline(f"def {self.fname}(C, {', '.join([first, *params])}):")
            self.indent()
            self.prologue()
            if "players" not in checked.params:
                self.writeline("v_players = C.everyone")
        else:
            self.writeline(f"def {self.fname}(C, N):")
            self.indent()
            self.prologue()
            if self.assigns_looked_up():
                self.writeline("N = dict(N)")  # a caller's names are never changed
            self.writeline("v_players = N['players']")
            self.writeline("v_self = N.get('self')")
        self.writeline("_r = None")
        self.body(checked.program.body)
        self.writeline("return _r")
        self.outdent()

    def assigns_looked_up(self) -> bool:
        for node in _statements(self.checked.program.body):
            if isinstance(node, (ast.Assign, ast.Let)):
                r = self.resolved.get(id(node))
                if isinstance(r, LocalName) and r.slot in self.looked_up:
                    return True
        return False

    def wrapper(self, direct: str) -> None:
        """``r(C, F)`` of a direct program: runs it on a frame's names."""
        checked = self.checked
        self.writeline(f"def {self.fname}(C, F):")
        self.indent()
        if checked.kind == "procedure":
            args = ", ".join(["F.names.get('self')", *(f"F.names[{p!r}]" for p in checked.params)])
            self.writeline(f"return {direct}(C, {args})")
        else:
            self.writeline(f"return {direct}(C, F.own())")
        self.outdent()

    def invariant(self) -> None:
        self.writeline(f"def {self.fname}(C, N):")
        self.indent()
        self.prologue()
        self.writeline("v_players = N['players']")
        statement = self.checked.program.body[0]
        if not isinstance(statement, ast.ExprStmt):
            self.fail(f"cannot compile {type(statement).__name__} as an expression", statement)
        self.pos = statement.pos
        self.writeline(f"return {self.expr(statement.expr)}")
        self.outdent()

    def resumable(self) -> None:
        self.writeline(f"def {self.fname}(C, F):")
        self.indent()
        self.writeline("L = F.names if F.owned else F.own()")
        self.prologue()
        self.writeline("pc = F.pc")
        self.writeline("while True:")
        self.indent()
        self.writeline("if pc == 0:")
        self.indent()
        body = self.checked.program.body
        self.case_offsets.append(body[0].pos if body else 0)
        self.case_lines = 0
        self.body(body)
        if self.case_lines == 0:
            self.writeline("pass")
        self.outdent()
        self.writeline("return L.get('@')")
        self.outdent()
        self.outdent()
        # case offsets in the order of their numbers (cases are numbered as they are opened)
        offsets = dict(self._case_at)
        self.case_offsets = [offsets.get(k, self.case_offsets[0]) for k in range(self.labels)]

    def label(self, n: int = 1) -> int:
        """A new case number (``n`` consecutive ones: a decision and its continuation)."""
        first = self.labels
        self.labels += n
        return first

    def open_case(self, k: int) -> None:
        """End the current case by going on to case ``k``, which starts here."""
        self.writeline(f"pc = {k}")
        self.outdent()
        self.writeline(f"if pc == {k}:")
        self.indent()
        self._case_at.append(_CaseStart(k, self.pos or 0))
        self.case_lines = 0
        self.writeline("pass")  # a case may be empty: the next one may open at once

    def jump(self, k: int) -> None:
        """Go on at case ``k``."""
        self.writeline(f"pc = {k}")
        self.writeline("continue")

    def jump_if(self, condition: str, k: int) -> None:
        """Go on at case ``k`` when ``condition`` (Python text) holds."""
        self.writeline(f"if {condition}:")
        self.indent()
        self.jump(k)
        self.outdent()

    # -- statements ----------------------------------------------------------------------------
    def body(self, body: Sequence[ast.Node], dead_after: bool = False) -> None:
        """Statements at the current indentation (``pass`` when they write nothing).
        ``dead_after``: the value the block leaves is never read."""
        before = len(self.lines)
        for i, node in enumerate(body):
            # a break in a statement leaves the loop with the statement's value
            last = i + 1 == len(body)
            self.statement(node, dead_after if last else self.overwrites_value(body[i + 1]) and not _breaks_out(node))
        if len(self.lines) == before:
            self.writeline("pass")

    def nested(self, body: Sequence[ast.Node], dead_after: bool = False) -> None:
        """A block's statements, one level in (under an ``if``, ``else`` or ``for`` line)."""
        self.indent()
        self.body(body, dead_after)
        self.outdent()

    def overwrites_value(self, node: ast.Node) -> bool:
        """Whether ``node`` sets the value of the last statement (``@``) before it reads it
        or may stop at a decision: the value the statement before it leaves is then never
        read, and is not written (a frame at a decision holds the same names either way)."""
        if isinstance(node, ast.If):
            return True  # an if whose branch does not run has no value: set before its test
        if not isinstance(node, ast.ExprStmt):
            return False
        if not self.stops(node):
            return True
        # a call that may stop sets none first unless it runs a procedure; a decision sets
        # its value when answered
        value = node.expr
        return isinstance(value, ast.Call) and not isinstance(self.resolved.get(id(value)), ProcedureCall)

    def loop_dead_after(self, body: Sequence[ast.Node]) -> bool:
        """Whether the value a loop's body leaves is never read: not after the loop (the
        statement's own value is dead) and not by the next round (its first statement sets
        it first)."""
        return self.value_dead and bool(body) and self.overwrites_value(body[0])

    def stops(self, node: ast.Node) -> bool:
        """Whether a statement may stop at a decision (it is written as ``pc`` cases)."""
        if not self.frame:
            return False
        value = _value_of(node)
        if isinstance(value, ast.Choose):
            return True
        if isinstance(value, ast.Call):
            targets = self.module.targets(value, self.resolved)
            return targets is not None and any(self.module.stops.get(t, False) for t in targets)
        return any(self.stops(s) for block in _blocks(node) for s in block.body)

    def statement(self, node: ast.Node, value_dead: bool = False) -> None:
        """One statement; ``value_dead``: the value it leaves (``@``) is never read."""
        outer, outer_dead = self.pos, self.value_dead
        self.pos, self.value_dead = node.pos, value_dead
        try:
            if self.stops(node):
                assert self.depth == _CASE_LEVEL, "a statement that may stop is written at the case level"
                self.visitor(node, "stop_")(node)
            else:
                self.visit(node)
        finally:
            self.pos, self.value_dead = outer, outer_dead

    def generic_visit(self, node: ast.Node, *args: Any) -> Any:
        self.fail(f"cannot compile {type(node).__name__}", node)

    # -- statements that cannot stop, as native Python ----------------------------------------------
    def visit_Let(self, node: ast.Let) -> None:
        self.value_statement(node.value, self.bind(self.slot_of(node, node.name)))

    def visit_ExprStmt(self, node: ast.ExprStmt) -> None:
        self.value_statement(node.expr, None if self.value_dead else self.local("@"))

    def value_statement(self, value: ast.Node, target: str | None) -> None:
        """``target = value`` (``target``: Python text, None when the value is not kept), a
        call of another program (that cannot stop) too."""
        if isinstance(value, ast.Call) and self.module.targets(value, self.resolved) is not None:
            self.call_direct(value, target)
        else:
            self.kept(target, self.expr(value))

    def kept(self, target: str | None, value: str) -> None:
        """``target = value``, or ``value`` alone when it is not kept."""
        self.writeline(value if target is None else f"{target} = {value}")

    def visit_Break(self, node: ast.Break) -> None:
        loop = self.loops[-1]
        if loop.end is None:
            self.writeline("break")
        else:
            self.jump(loop.end)

    def visit_If(self, node: ast.If) -> None:
        dead = self.value_dead
        if not dead:
            self.writeline(f"{self.local('@')} = None")  # an if whose branch does not run has no value
        self.writeline(f"if {self.expr(node.cond, truth=True)}:")
        self.plain += 1
        self.nested(node.then.body, dead)
        if node.orelse is not None:
            self.writeline("else:")
            self.nested(node.orelse.body, dead)
        self.plain -= 1

    def visit_For(self, node: ast.For) -> None:
        items = self.loop_items(node)
        var = self.slot_of(node, node.var)
        body = node.body.body
        self.loops.append(_Loop(None))
        self.plain += 1
        if self.frame:
            each = self.temp()
            self.writeline(f"for {each} in {items}:")
            self.indent()
            self.writeline(f"{self.bind(var)} = {each}")
            self.body(body, self.loop_dead_after(body))
            self.outdent()
        else:
            self.writeline(f"for {self.local(var)} in {items}:")
            self.nested(body, self.loop_dead_after(body))
        self.plain -= 1
        self.loops.pop()

    def visit_Repeat(self, node: ast.Repeat) -> None:
        count = self.repeat_count(node)
        body = node.body.body
        self.loops.append(_Loop(None))
        self.plain += 1
        self.writeline(f"for {self.temp()} in range({count}):")
        self.nested(body, self.loop_dead_after(body))
        self.plain -= 1
        self.loops.pop()

    def loop_items(self, node: ast.For) -> str:
        """The list a ``for`` walks, fixed when it starts, its rounds counted."""
        items = self.temp()
        self.writeline(f"{items} = {self.expr(node.iterable)}")
        self.writeline(f"if type({items}) is not tuple: {items} = _loop_items({items})")
        self.charge(f"len({items})")
        return items

    def repeat_count(self, node: ast.Repeat) -> str:
        count = self.temp()
        self.writeline(f"{count} = {self.expr(node.count)}")
        self.writeline(
            f"if type({count}) is not int or not 0 <= {count} <= {MAX_REPEAT}: {count} = _repeat_count({count})"
        )
        self.charge(count)
        return count

    def charge(self, steps: str) -> None:
        self.writeline(f"C.left -= {steps}")
        self.writeline("if C.left < 0: _out_of_steps()")

    def slot_of(self, node: ast.Node, name: str) -> str:
        """The slot the checker gave the local ``name`` bound or assigned by ``node``."""
        resolved = self.resolved.get(id(node))
        return resolved.slot if isinstance(resolved, LocalName) else name

    def visit_Assign(self, node: ast.Assign) -> None:
        value = self.expr(node.value)
        if not isinstance(self.resolved.get(id(node)), StateVar):
            slot = self.slot_of(node, node.name)
            if node.op == "=":
                self.writeline(f"{self.store(slot)} = {value}")
            else:
                v = self.temp()
                self.writeline(f"{v} = {value}")
                self.writeline(f"{self.store(slot)} = {self.combined(self.local(slot), node.op, v)}")
            return
        name = repr(node.name)
        index = "None"
        if node.index is not None:
            index = self.temp()
            self.writeline(f"{index} = {self.expr(node.index)}")
        v = self.temp()
        self.writeline(f"{v} = {value}")
        if self.may_be_list(node.value):
            self.writeline(f"if type({v}) is list: {v} = _freeze({v})")
        if node.op == "=":
            self.writeline(f"C.write({name}, {index}, {v}, 'set')")
            return
        old = f"C.read({name}, {index})" if node.index is not None else f"V[{name}]"
        self.writeline(f"C.write({name}, {index}, {self.combined(old, node.op, v)}, {node.op!r})")

    def combined(self, old: str, op: str, value: str) -> str:
        """``old += value`` / ``-=``: whole numbers at once, a word added to a list by
        ``join`` (as ``combine`` would: the most common ``+=`` of a list, ``placed += s``),
        anything else by ``combine`` (``value`` is evaluated already; ``old`` is read after
        it)."""
        o, r = self.temp(), self.temp()
        sign = "+" if op == "+=" else "-"
        numbers = (
            f"({r} if (type({value}) is int) & (type({o} := {old}) is int) "
            f"and -{_M} <= ({r} := {o} {sign} {value}) <= {_M}"
        )
        word = f" else _join({o}, ({value},)) if type({value}) is str and type({o}) is tuple" if op == "+=" else ""
        return f"{numbers}{word} else _combine({o}, {op!r}, {value}))"

    # -- calls of other programs -----------------------------------------------------------------
    def call_direct(self, node: ast.Call, target: str | None) -> None:
        """A statement-level call that cannot stop: a direct procedure, or effect()/trigger()
        whose programs never stop."""
        resolved = self.resolved.get(id(node))
        if isinstance(resolved, ProcedureCall):
            code = self.module.proc_code.get(resolved.name)
            if code is None:
                self.fail(f"unknown procedure {resolved.name!r}", node)
            args = [self.expr(a) for a in node.args]
            fn = f"d{self.module.index[code]}"
            self.writeline("C.enter()")
            self.kept(target, f"{fn}(C, {', '.join([self.self_value(), *args])})")
            self.writeline("C.depth -= 1")
            return
        requests = self.expr(node)
        self.kept(target, f"C.requests_direct({requests}, {self.self_value()})")

    # -- statements that may stop, as ``pc`` cases (written at the case level) -----------------------
    def stop_Let(self, node: ast.Let) -> None:
        self.stopping_value(node.value, self.slot_of(node, node.name))

    def stop_ExprStmt(self, node: ast.ExprStmt) -> None:
        self.stopping_value(node.expr, "@")

    def stopping_value(self, value: ast.Node, target: str) -> None:
        if isinstance(value, ast.Choose):
            self.choose(value, target)
        elif isinstance(value, ast.Call):
            self.call_frame(value, target)

    def stop_If(self, node: ast.If) -> None:
        self.writeline("L['@'] = None")  # even when never read: a frame stopped in a branch holds it
        other = self.label()
        end = self.label() if node.orelse is not None else other
        self.jump_if(f"not {self.expr(node.cond, truth=True)}", other)
        self.body(node.then.body, self.value_dead)
        if node.orelse is not None:
            self.jump(end)
            self.open_case(other)
            self.body(node.orelse.body, self.value_dead)
        self.open_case(end)

    def stop_For(self, node: ast.For) -> None:
        items = self.loop_items(node)
        state = self.loop_slot("f")
        head, end = self.label(), self.label()
        # the loop's place is (the list, the next index) in a frame slot: a pc loop resumes there
        self.writeline(f"L[{state!r}] = ({items}, 0)")
        self.open_case(head)
        at = self.temp()
        self.writeline(f"{at} = L[{state!r}]")
        self.jump_if(f"{at}[1] >= len({at}[0])", end)
        self.writeline(f"{self.local(self.slot_of(node, node.var))} = {at}[0][{at}[1]]")
        self.writeline(f"L[{state!r}] = ({at}[0], {at}[1] + 1)")
        self.loop_body(node.body.body, head, end)

    def stop_Repeat(self, node: ast.Repeat) -> None:
        count = self.repeat_count(node)
        state = self.loop_slot("r")
        head, end = self.label(), self.label()
        self.writeline(f"L[{state!r}] = {count}")  # the rounds left
        self.open_case(head)
        self.jump_if(f"L[{state!r}] <= 0", end)
        self.writeline(f"L[{state!r}] -= 1")
        self.loop_body(node.body.body, head, end)

    def loop_slot(self, kind: str) -> str:
        """A frame slot for a loop's place (``@f1``: no DSL name can be it)."""
        self.loop_slots += 1
        return f"@{kind}{self.loop_slots}"

    def loop_body(self, body: Sequence[ast.Node], head: int, end: int) -> None:
        self.loops.append(_Loop(end))
        self.body(body, self.loop_dead_after(body))
        self.loops.pop()
        self.jump(head)
        self.open_case(end)

    def choose(self, node: ast.Choose, target: str) -> None:
        """A decision: case ``k`` works out the options and stops (a resumed game, or a test
        that changed the state, may run it again); the answer resumes at case ``k + 1``."""
        k = self.label(2)
        self.open_case(k)
        scope = self.resolved.get(-id(node))
        self.module.choose_names.setdefault(self.checked.id, {})[k] = (
            scope.slots if isinstance(scope, DecisionScope) else {}
        )
        self.writeline(f"F.pc = {k}")
        if node.each is None:
            # the chooser checked to be a seat in place: player_index, a call, only words
            # the error (a chooser is a seat in every bundled game)
            t = self.temp()
            player = f"({t} if {_is_seat(t, self.expr(node.player))} else C.player_index({t}))"
            waits = (
                f"C.choose_one(L, {target!r}, {player}, {self.expr(node.options)}, "
                f"{node.label!r}, {bool(node.optional)!r}, {bool(node.secret)!r})"
            )
        else:
            waits = self.choose_each(node, target)
        self.writeline(f"if {waits}:")
        self.indent()
        self.writeline("return _STOP")
        self.outdent()
        self.open_case(k + 1)

    def choose_each(self, node: ast.Choose, target: str) -> str:
        """``choose each``: every chooser's options worked out (the chooser's name bound to a
        Python local meanwhile); the text of the call that sets the decision up."""
        players, per, p = self.temp(), self.temp(), self.temp()
        each = self.slot_of(node, node.each or "")
        self.writeline(f"{players} = C.choosers({self.expr(node.player)})")
        self.override[each] = p
        self.writeline(f"{per} = []")
        self.writeline(f"for {p} in {players}:")
        self.indent()
        self.writeline(f"{per}.append(C.options({self.expr(node.options)}, {node.label!r}, {p}))")
        self.outdent()
        del self.override[each]
        return f"C.choose_each(L, {target!r}, {players}, {per}, {node.label!r})"

    def call_frame(self, node: ast.Call, target: str) -> None:
        """A call that may stop: the callee runs at once in a frame of its own; when it
        stops, this frame waits at case ``k`` for its value."""
        resolved = self.resolved.get(id(node))
        k = self.label()
        if isinstance(resolved, ProcedureCall):
            code = self.module.proc_code[resolved.name]
            checked = self.module.programs[code]
            names = {"players": "C.everyone"}
            for param, arg in zip(checked.params, node.args):
                names[param] = self.expr(arg)
            names.setdefault("self", self.self_value())
            args = ", ".join(f"{n!r}: {v}" for n, v in names.items())
            self.writeline(f"F.pc = {k}")
            value = self.temp()
            self.writeline(f"{value} = C.call(r{self.module.index[code]}, {code!r}, {target!r}, {{{args}}})")
        else:
            requests = self.expr(node)
            self.writeline(f"L[{target!r}] = None")
            self.writeline(f"F.pc = {k}")
            value = self.temp()
            self.writeline(f"{value} = C.requests({requests}, {self.self_value()}, {target!r})")
        self.writeline(f"if {value} is _STOP:")
        self.indent()
        self.writeline("return _STOP")
        self.outdent()
        if target != "@" or not self.value_dead:
            self.writeline(f"{self.store(target)} = {value}")
        self.open_case(k)

    # -- expressions ---------------------------------------------------------------------------------
    def expr(self, node: ast.Node, truth: bool = False) -> str:
        """Python text for an expression; ``truth``: only its truth counts (an ``if`` test)."""
        text: str = self.visit(node, truth)
        return text

    def visit_Const(self, node: ast.Const, truth: bool) -> str:
        return self.module.literal(freeze(node.value))

    def visit_ListExpr(self, node: ast.ListExpr, truth: bool) -> str:
        items = [self.expr(i) for i in node.items]
        if not items:
            return "()"
        text = "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return text if all(not self.may_be_list(i) for i in node.items) else f"_nest({text})"

    def visit_Unary(self, node: ast.Unary, truth: bool) -> str:
        if node.op == "not":
            return f"(not {self.expr(node.operand, truth=True)})"
        t = self.temp()
        return f"(-{t} if type({t} := {self.expr(node.operand)}) is int else _neg({t}))"

    def visit_Name(self, node: ast.Name, truth: bool) -> str:
        match self.resolved.get(id(node), LocalName(node.name)):
            case LocalName(slot):
                return self.local(slot)
            case StateVar(name):
                return f"V[{name!r}]"
            case ConstantValue(value) if isinstance(value, dict) and "by_players" in value:
                table = {int(k): freeze(v) for k, v in value["by_players"].items()}
                return f"{self.module.constant(table)}[P]"
            case ConstantValue(value) if isinstance(value, dict):
                return self.module.literal(freeze(value.get("value")))
            case ConstantValue(value):
                return self.module.literal(freeze(value))
            case RulesetId(ident):
                return self.module.literal(ident)
            case other:
                self.fail(f"cannot compile the name {node.name!r} as {type(other).__name__}", node)

    def visit_Index(self, node: ast.Index, truth: bool) -> str:
        index = self.expr(node.index)
        per = self.resolved.get(id(node))
        t = self.temp()
        if isinstance(per, PerIndex):
            var = f"V[{per.var!r}]"
            if per.per == "space":  # the index first, then the variable, as written
                return f"({var}[{t}] if ({t} := C.space_index({index})) >= 0 else None)"
            return f"({var}[{t}] if {_is_seat(t, index)} else {var}[C.player_index({t})])"
        return f"_item({self.expr(node.base)}, {index})"

    def visit_BinOp(self, node: ast.BinOp, truth: bool) -> str:
        op = node.op
        if op in ("and", "or"):
            a, b = self.expr(node.left, truth=True), self.expr(node.right, truth=True)
            return f"({a} {op} {b})" if truth else f"(not not {a} {op} not not {b})"
        a = self.expr(node.left)
        b = self.expr(node.right)
        if op in ("==", "!=", "in"):
            return f"({a} {op} {b})"
        right = node.right.value if isinstance(node.right, ast.Const) else None
        # a whole-number constant on the right needs no test of its class (nor of zero)
        constant = right.__class__ is int and -MAX_INT <= right <= MAX_INT and (right != 0 or op not in ("//", "%"))
        x, y, r = self.temp(), self.temp(), self.temp()
        fallback = "_add" if op == "+" else None
        if constant:
            test = f"type({x} := {a}) is int"
            y = b
        else:
            test = f"(type({x} := {a}) is int) & (type({y} := {b}) is int)"
        slow = f"{fallback}({x}, {y})" if fallback else f"_arith({op!r}, {x}, {y})"
        if op in ("+", "-", "*"):
            return f"({r} if {test} and -{_M} <= ({r} := {x} {op} {y}) <= {_M} else {slow})"
        if op in ("//", "%") and not constant:
            return f"({x} {op} {y} if {test} and {y} else {slow})"
        return f"({x} {op} {y} if {test} else {slow})"

    def visit_Call(self, node: ast.Call, truth: bool) -> str:
        resolved = self.resolved.get(id(node))
        if not isinstance(resolved, PrimitiveCall):
            self.fail(f"{node.name}() cannot be used inside an expression", node)
        prim = resolved.primitive
        inline = self.inline(prim, node) or self.charged_call(prim, node)
        if inline is not None:
            return inline
        fixed = [p for p in prim.params if not p.variadic]
        args = ["C"]
        for i, arg in enumerate(node.args):
            param = fixed[i] if i < len(fixed) else prim.params[-1]
            args.append(self.ref(arg) if param.ref else self.expr(arg))
        plain = all(_NAME.match(k) and not keyword.iskeyword(k) for k, _ in node.kwargs)
        if plain:
            args += [f"{k}={self.expr(v)}" for k, v in node.kwargs]
        elif node.kwargs:
            args.append("**{" + ", ".join(f"{k!r}: {self.expr(v)}" for k, v in node.kwargs) + "}")
        return f"{self.module.primitive(prim)}({', '.join(args)})"

    def inline(self, prim: Primitive, node: ast.Call) -> str | None:
        """Python text that does what a core primitive does without calling it (its call
        through Python's protocol costs more than its work), or None. Each is the
        primitive's very code, so a value or error is the same; a change of state goes to
        the machine's method at once (with no references to make)."""
        fn, args = prim.fn, node.args
        if fn is primitives.move and len(args) == 3:
            item = self.expr(args[0])
            source, target = self.ref_parts(args[1]), self.ref_parts(args[2])
            return f"C.move_between({item}, {source.name}, {source.part}, {target.name}, {target.part})"
        if fn in _NAMED and len(args) == _NAMED[fn].arity:
            named = _NAMED[fn]
            fields = ", ".join(f"{k!r}: {self.expr(v)}" for k, v in node.kwargs)
            return f"C.{named.method}({''.join(f'{self.expr(a)}, ' for a in args)}{{{fields}}})"
        if fn is primitives.field and len(args) == 2 and not node.kwargs:
            return f"C.item({self.expr(args[0])}).get({self.expr(args[1])})"
        if fn is primitives.param and len(args) in (2, 3) and not node.kwargs:
            return f"C.param({', '.join(self.expr(a) for a in args)})"
        if fn is primitives.count and len(args) == 1:
            return f"len({self.expr(args[0])})"
        if fn is primitives.first and len(args) == 1:
            t = self.temp()
            return f"({t}[0] if ({t} := {self.expr(args[0])}) else None)"
        return None

    def charged_call(self, prim: Primitive, node: ast.Call) -> str | None:
        """Python text calling a charged primitive of plain parameters (none optional, none
        variadic, no keywords) and at most two list parameters, charged by the machine's
        ``charged`` (cpdef: the compiled build's call of it is a C call, where the wrapper's
        charge reads and writes the machine's budget through its type); else None. The
        charge is the wrapper's: the longest of the value and the list arguments, after
        the call."""
        params = prim.params
        if not runtime.walks(prim) or prim.keywords or node.kwargs or len(node.args) != len(params):
            return None
        lists = runtime.list_params(prim)
        if len(lists) > 2 or any(p.variadic or p.default is not REQUIRED for p in params):
            return None
        args, listed = ["C"], []
        for i, (param, arg) in enumerate(zip(params, node.args)):
            text = self.ref(arg) if param.ref else self.expr(arg)
            if i in lists:  # passed on to the charge too: evaluated once, into a temporary
                listed.append(self.temp())
                text = f"({listed[-1]} := {text})"
            args.append(text)
        call = f"{self.module.primitive(prim, raw=True)}({', '.join(args)})"
        return f"C.charged({call}{''.join(f', {t}' for t in listed)})"

    def may_be_list(self, node: ast.Node) -> bool:
        """Whether an expression may give a list (else it gives a number, a truth value, a
        word or none)."""
        if isinstance(node, ast.Const):
            return isinstance(node.value, (tuple, list))
        if isinstance(node, ast.Unary):
            return False
        if isinstance(node, ast.BinOp):
            return node.op == "+" and (self.may_be_list(node.left) or self.may_be_list(node.right))
        resolved = self.resolved.get(id(node))
        if isinstance(resolved, PrimitiveCall):
            return resolved.primitive.result not in ("int", "bool", "str", "player", "none")
        if isinstance(resolved, RulesetId):
            return False
        if isinstance(resolved, ConstantValue):
            value = resolved.value
            return isinstance(value, (dict, list, tuple))
        return True

    def ref(self, arg: ast.Node) -> str:
        """A state variable handed to a primitive to change (``deck``, ``hand[p]``)."""
        name, part = self.ref_parts(arg)
        return f"_Ref(C, {name}, {part})"

    def ref_parts(self, arg: ast.Node) -> _RefText:
        """Python text of a changed state variable's name and of its index."""
        base = arg.base if isinstance(arg, ast.Index) else arg
        resolved = self.resolved.get(id(base))
        if not isinstance(resolved, StateVar):
            self.fail(f"cannot compile {type(arg).__name__} as a state variable", arg)
        return _RefText(repr(resolved.name), self.expr(arg.index) if isinstance(arg, ast.Index) else "None")


def _is_seat(t: str, value: str) -> str:
    """Python text that binds ``value`` to the temporary ``t`` and is true when it is a seat:
    a whole number from 0 below the player count ``P`` (the fast case, tested in place;
    anything else goes to the machine's ``player_index``, which words the error)."""
    return f"type({t} := {value}) is int and 0 <= {t} < P"
