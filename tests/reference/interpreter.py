"""The reference interpreter: the DSL compiled to closures and instructions, as the engine
ran it before it compiled whole programs to Python source (:mod:`venedig_rules.effects.compile`).

Tests run every bundled ruleset through both and compare every state, so the generated
code keeps the meaning this simpler interpreter gives the DSL. Nothing in the engine
uses it (it lives with the tests, out of the package); :mod:`reference.machine` is the machine
that runs it.

Expressions become Python closures ``f(L, C)`` (``L`` the frame's local names, ``C`` the
running game); statements that may stop at a decision (a ``choose``, a procedure, a
primitive that runs another effect) become instructions with jumps, so that a program can
stop there and resume later from plain data: a frame is (code id, instruction index, local
names), never a Python generator or closure. Every other statement, loops and branches
included, becomes one closure that runs it through (a run of them is one ``BLOCK``
instruction): it cannot stop halfway, so it needs no instruction index. Nothing is
``eval``-ed and every loop is bounded: ``for`` walks a list fixed when the loop starts,
``repeat`` counts down.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from venedig_rules.effects.check import (
    ConstantValue,
    LocalName,
    PerIndex,
    PrimitiveCall,
    ProcedureCall,
    Resolution,
    Resolved,
    RulesetId,
    StateVar,
)
from venedig_rules.effects.context import Ref
from venedig_rules.effects.runtime import ARITH as _ARITH
from venedig_rules.effects.runtime import RULE_FAILURES, freeze
from venedig_rules.effects.runtime import item as _item
from venedig_rules.effects.runtime import loop_items as _loop_items
from venedig_rules.effects.runtime import number as _number
from venedig_rules.effects.runtime import repeat_count as _repeat_count
from venedig_rules.errors import RuleRuntimeError

#: The syntax tree's classes (imported by name: the package's own ``parse`` is the function).
ast = importlib.import_module("venedig_rules.effects.parse")

# opcodes
EXPR, LET, SETVAR, SETLOCAL, JUMP, JUMPIFNOT, FORINIT, FORNEXT, REPINIT, REPNEXT, CHOOSE, CALL, BLOCK = range(13)
#: What a step returns instead of the next instruction index: wait for a decision / run a call.
WAIT, CALL_OUT = -1, -2

#: A frame's local names (its slots) while its code runs: ``L``.
Locals = dict[str, Any]
#: The running game compiled code is handed: ``C``, the engine's machine (a layer above this
#: one, so it is not named here; it is the ``Context`` of primitives plus ``vars`` and ``assign``).
Running = Any
#: An expression, compiled: ``f(L, C)`` is its value.
Fn = Callable[[Locals, Running], Any]
#: A statement that runs through, compiled: ``run(L, C)`` is True when a ``break`` ran.
Through = Callable[[Locals, Running], bool | None]
#: An instruction, compiled: ``step(L, C)`` is the next instruction's index, or WAIT / CALL_OUT.
Step = Callable[[Locals, Running], int]
#: An instruction: its opcode, then operands whose number and kinds the opcode decides.
Instruction = tuple[Any, ...]
#: ``(CHOOSE, target, player, options, label, optional, each, secret)``: a decision.
ChooseOp = tuple[int, str, Fn, Fn, str, bool, str | None, bool]
#: ``(CALL, target, "proc", procedure name, args, ())`` or ``(CALL, target, "prim", primitive
#: function, args, kwargs)``: another effect to run (the primitive returns CallRequests).
CallOp = tuple[int, str, str, Any, tuple[Fn, ...], tuple[tuple[str, Fn], ...]]


@dataclass(frozen=True)
class Code:
    """One compiled program: ``id`` names it in frames (e.g. ``/cards/cards/3/effect``)."""

    id: str
    instructions: tuple[Instruction, ...]
    text: str
    offsets: tuple[int, ...] = ()  # per instruction: where its statement starts in ``text``
    steps: tuple[Step, ...] = ()  # per instruction: run it, give the next index


def compile_program(code_id: str, program: ast.Program, resolved: Resolution) -> Code:
    """The Code of a checked program (``resolved`` from :func:`check.check`)."""
    builder = _Builder(resolved)
    builder.body(program.body, loops=[])
    instructions = tuple(builder.ins)

    def land(i: int) -> int:
        """Where going to instruction ``i`` really leads: past any jumps to jumps."""
        seen: set[int] = set()
        while i < len(instructions) and instructions[i][0] == JUMP and i not in seen:
            seen.add(i)
            i = instructions[i][1]
        return i

    steps = tuple(_step(op, pc, land) for pc, op in enumerate(instructions))
    return Code(code_id, instructions, program.text, tuple(builder.offsets), steps)


def _step(op: Instruction, pc: int, land: Callable[[int], int]) -> Step:
    """The instruction as a closure ``step(L, C) -> next index`` (or WAIT / CALL_OUT); a
    step that would go to a jump goes where the jump leads instead."""
    kind, nxt = op[0], land(pc + 1)
    if kind == EXPR:
        f = op[1]

        def step(L: Locals, C: Running) -> int:
            L["@"] = f(L, C)
            return nxt
    elif kind == LET:
        name, f = op[1], op[2]

        def step(L: Locals, C: Running) -> int:
            L[name] = f(L, C)
            return nxt
    elif kind == JUMP:
        target = land(op[1])

        def step(L: Locals, C: Running) -> int:
            return target
    elif kind == JUMPIFNOT:
        f, target = op[1], land(op[2])

        def step(L: Locals, C: Running) -> int:
            return nxt if f(L, C) else target
    elif kind == FORINIT:
        slot, f = op[1], op[2]

        def step(L: Locals, C: Running) -> int:
            L[slot] = (_loop_items(f(L, C)), 0)
            return nxt
    elif kind == FORNEXT:
        slot, var, end = op[1], op[2], land(op[3])

        def step(L: Locals, C: Running) -> int:
            items, i = L[slot]
            if i >= len(items):
                return end
            L[var] = items[i]
            L[slot] = (items, i + 1)
            return nxt
    elif kind == REPINIT:
        slot, f = op[1], op[2]

        def step(L: Locals, C: Running) -> int:
            L[slot] = _repeat_count(f(L, C))
            return nxt
    elif kind == REPNEXT:
        slot, end = op[1], land(op[2])

        def step(L: Locals, C: Running) -> int:
            if L[slot] <= 0:
                return end
            L[slot] -= 1
            return nxt
    elif kind == SETVAR:
        name, index_f, how, value_f = op[1], op[2], op[3], op[4]

        def step(L: Locals, C: Running) -> int:
            C.assign(name, index_f, how, value_f, L)
            return nxt
    elif kind == SETLOCAL:
        name, how, f = op[1], op[2], op[3]

        def step(L: Locals, C: Running) -> int:
            value = f(L, C)
            L[name] = value if how == "=" else combine(L[name], how, value)
            return nxt
    elif kind == BLOCK:
        run = op[1]

        def step(L: Locals, C: Running) -> int:
            run(L, C)
            return nxt
    elif kind == CHOOSE:

        def step(L: Locals, C: Running) -> int:
            return WAIT
    else:

        def step(L: Locals, C: Running) -> int:
            return CALL_OUT

    return step


def combine(old: Any, op: str, value: Any) -> Any:
    """``old += value`` or ``old -= value``: numbers add; lists append, or lose one copy."""
    if isinstance(old, tuple):
        if op == "+=":
            return old + (value if isinstance(value, tuple) else (value,))
        items = list(old)
        if value in items:
            items.remove(value)
        return tuple(items)
    if not isinstance(old, int) or isinstance(old, bool) or not isinstance(value, int):
        raise RuleRuntimeError(f"{op} needs numbers or lists, got {old!r} and {value!r}")
    return old + value if op == "+=" else old - value


def compile_expression(program: ast.Program, resolved: Resolution) -> Fn:
    """A closure evaluating a program made of one expression (invariants; the checker
    makes sure it is one)."""
    statement = program.body[0]
    if not isinstance(statement, ast.ExprStmt):
        raise RuleRuntimeError(f"cannot compile {type(statement).__name__} as an expression")
    return _Builder(resolved).expr(statement.expr)


class _Builder:
    def __init__(self, resolved: Resolution):
        self.resolved = resolved
        self.ins: list[Instruction] = []
        self.offsets: list[int] = []
        self.pos = 0
        self.slots = 0

    def emit(self, *op: Any) -> int:
        self.ins.append(op)
        self.offsets.append(self.pos)
        return len(self.ins) - 1

    def slot(self) -> str:
        self.slots += 1
        return f"@{self.slots}"

    # -- statements ------------------------------------------------------------------------
    def body(self, body: tuple[ast.Node, ...], loops: list[list[int]]) -> None:
        run: list[ast.Node] = []  # statements that run through, not yet emitted
        for stmt in body:
            if self.runs_through(stmt, in_loop=False):
                run.append(stmt)
                continue
            self.flush(run)
            self.statement(stmt, loops)
        self.flush(run)

    def flush(self, run: list[ast.Node]) -> None:
        if run:
            self.pos = run[0].pos
            self.emit(BLOCK, self.sequence(run))
            run.clear()

    # -- statements that cannot stop: closures that run them through -----------------------
    def runs_through(self, node: ast.Node, in_loop: bool) -> bool:
        """Whether a statement can never stop at a decision or call another effect (and
        any ``break`` in it ends a loop inside it)."""
        if isinstance(node, (ast.Let, ast.ExprStmt)):
            value = node.value if isinstance(node, ast.Let) else node.expr
            if isinstance(value, ast.Choose):
                return False
            return not (isinstance(value, ast.Call) and _waits(self.resolved.get(id(value))))
        if isinstance(node, ast.Assign):
            return True
        if isinstance(node, ast.Break):
            return in_loop
        if isinstance(node, ast.If):
            return all(self.runs_through(s, in_loop) for s in node.then.body) and (
                node.orelse is None or all(self.runs_through(s, in_loop) for s in node.orelse.body)
            )
        if isinstance(node, (ast.For, ast.Repeat)):
            return all(self.runs_through(s, True) for s in node.body.body)
        return False

    def sequence(self, stmts: Sequence[ast.Node]) -> Through:
        """One closure running statements in order; it returns True when a ``break`` ran."""
        fns = tuple(self.through(s) for s in stmts)
        if not fns:
            return _const(None)
        if len(fns) == 1:
            return fns[0]
        if len(fns) == 2:
            f0, f1 = fns
            return lambda L, C: f0(L, C) or f1(L, C)
        if len(fns) == 3:
            f0, f1, f2 = fns
            return lambda L, C: f0(L, C) or f1(L, C) or f2(L, C)

        def run(L: Locals, C: Running) -> bool | None:
            for f in fns:
                if f(L, C):
                    return True
            return None

        return run

    def through(self, node: ast.Node) -> Through:
        """A statement that runs through, as a closure that returns True when a ``break``
        ran and, when it fails, raises a RuleRuntimeError whose ``offset`` is the innermost
        failing statement's."""
        pos = node.pos
        if isinstance(node, (ast.Let, ast.ExprStmt)):
            # a let binds its name; an expression statement is the program's value so far
            if isinstance(node, ast.Let):
                slot, f = self.slot_of(node, node.name), self.expr(node.value)
            else:
                slot, f = "@", self.expr(node.expr)

            def let(L: Locals, C: Running) -> None:
                try:
                    L[slot] = f(L, C)
                except RULE_FAILURES as exc:
                    _raise_located(exc, pos)

            return let
        if isinstance(node, ast.Assign):
            value = self.expr(node.value)
            to_var = isinstance(self.resolved.get(id(node)), StateVar)
            name = node.name if to_var else self.slot_of(node, node.name)
            how = node.op
            index = self.expr(node.index) if to_var and node.index is not None else None

            def assign(L: Locals, C: Running) -> None:
                try:
                    if to_var:
                        C.assign(name, index, how, value, L)
                    elif how == "=":
                        L[name] = value(L, C)
                    else:
                        L[name] = combine(L[name], how, value(L, C))
                except RULE_FAILURES as exc:
                    _raise_located(exc, pos)

            return assign
        if isinstance(node, ast.Break):
            return lambda L, C: True
        if isinstance(node, ast.If):
            cond, then = self.expr(node.cond), self.sequence(node.then.body)
            orelse = self.sequence(node.orelse.body) if node.orelse is not None else _const(None)

            def if_(L: Locals, C: Running) -> bool | None:
                L["@"] = None  # an if whose branch does not run has no value
                try:
                    test = cond(L, C)
                except RULE_FAILURES as exc:
                    _raise_located(exc, pos)
                return then(L, C) if test else orelse(L, C)

            return if_
        if isinstance(node, ast.For):  # the list is fixed when the loop starts
            items_f = self.expr(node.iterable)
            return self.loop_through(node, self.slot_of(node, node.var), lambda L, C: _loop_items(items_f(L, C)))
        if isinstance(node, ast.Repeat):  # a count, checked
            count_f = self.expr(node.count)
            return self.loop_through(node, None, lambda L, C: range(_repeat_count(count_f(L, C))))
        raise RuleRuntimeError(f"cannot compile {type(node).__name__}")

    def loop_through(
        self, node: ast.For | ast.Repeat, var: str | None, start: Callable[[Locals, Running], Iterable[Any]]
    ) -> Through:
        """A loop that runs through: ``start`` gives what it walks, ``var`` names each item."""
        pos = node.pos
        body = self.sequence(node.body.body)

        def loop(L: Locals, C: Running) -> None:
            try:
                items = start(L, C)
            except RULE_FAILURES as exc:
                _raise_located(exc, pos)
            for item in items:
                if var is not None:
                    L[var] = item
                if body(L, C):
                    break

        return loop

    def statement(self, node: ast.Node, loops: list[list[int]]) -> None:
        self.pos = node.pos
        if isinstance(node, ast.Let):
            self.top(node.value, self.slot_of(node, node.name))
        elif isinstance(node, ast.ExprStmt):
            self.top(node.expr, "@")
        elif isinstance(node, ast.Assign):
            value = self.expr(node.value)
            if isinstance(self.resolved.get(id(node)), StateVar):
                index = self.expr(node.index) if node.index is not None else None
                self.emit(SETVAR, node.name, index, node.op, value)
            else:
                self.emit(SETLOCAL, self.slot_of(node, node.name), node.op, value)
        elif isinstance(node, ast.Break):
            loops[-1].append(self.emit(JUMP, None))
        elif isinstance(node, ast.If):
            self.emit(EXPR, _const(None))  # an if whose branch does not run has no value
            jump = self.emit(JUMPIFNOT, self.expr(node.cond), None)
            self.body(node.then.body, loops)
            if node.orelse is None:
                self.ins[jump] = (JUMPIFNOT, self.ins[jump][1], len(self.ins))
            else:
                skip = self.emit(JUMP, None)
                self.ins[jump] = (JUMPIFNOT, self.ins[jump][1], len(self.ins))
                self.body(node.orelse.body, loops)
                self.ins[skip] = (JUMP, len(self.ins))
        elif isinstance(node, ast.For):
            slot = self.slot()
            self.emit(FORINIT, slot, self.expr(node.iterable))
            self.loop(FORNEXT, (slot, self.slot_of(node, node.var)), node.body, loops)
        elif isinstance(node, ast.Repeat):
            slot = self.slot()
            self.emit(REPINIT, slot, self.expr(node.count))
            self.loop(REPNEXT, (slot,), node.body, loops)

    def loop(self, op: int, args: tuple[str, ...], body: ast.Block, loops: list[list[int]]) -> None:
        head = self.emit(op, *args, None)
        breaks: list[int] = []
        self.body(body.body, loops + [breaks])
        self.emit(JUMP, head)
        end = len(self.ins)
        self.ins[head] = (op, *args, end)
        for b in breaks:
            self.ins[b] = (JUMP, end)

    def slot_of(self, node: ast.Node, name: str) -> str:
        """The frame slot the checker gave the local ``name`` bound or assigned by ``node``."""
        resolved = self.resolved.get(id(node))
        return resolved.slot if isinstance(resolved, LocalName) else name

    def top(self, node: ast.Node, target: str) -> None:
        if isinstance(node, ast.Choose):
            each = self.slot_of(node, node.each) if node.each else None
            self.emit(
                CHOOSE,
                target,
                self.expr(node.player),
                self.expr(node.options),
                node.label,
                node.optional,
                each,
                node.secret,
            )
            return
        if isinstance(node, ast.Call):
            resolved = self.resolved.get(id(node))
            if isinstance(resolved, ProcedureCall):
                self.emit(CALL, target, "proc", node.name, tuple(self.expr(a) for a in node.args), ())
                return
            if isinstance(resolved, PrimitiveCall) and resolved.primitive.calls:
                self.emit(
                    CALL,
                    target,
                    "prim",
                    resolved.primitive.fn,
                    tuple(self.expr(a) for a in node.args),
                    tuple((k, self.expr(v)) for k, v in node.kwargs),
                )
                return
        self.emit(LET if target != "@" else EXPR, *((target,) if target != "@" else ()), self.expr(node))

    # -- expressions -----------------------------------------------------------------------
    def expr(self, node: ast.Node) -> Fn:
        if isinstance(node, ast.Const):
            return _const(freeze(node.value))
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.ListExpr):
            items = tuple(self.expr(i) for i in node.items)
            return lambda L, C: tuple(f(L, C) for f in items)
        if isinstance(node, ast.Index):
            return self.index(node)
        if isinstance(node, ast.Unary):
            operand = self.expr(node.operand)
            if node.op == "not":
                return lambda L, C: not operand(L, C)
            return lambda L, C: -_number(operand(L, C), "-")
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise RuleRuntimeError(f"cannot compile {type(node).__name__}")

    def name(self, node: ast.Name) -> Fn:
        match self.resolved.get(id(node), LocalName(node.name)):
            case LocalName(slot):
                return lambda L, C: L[slot]
            case StateVar(name):
                return lambda L, C: C.vars[name]
            case ConstantValue(value) if isinstance(value, dict) and "by_players" in value:
                table = {int(k): freeze(v) for k, v in value["by_players"].items()}
                return lambda L, C: table[C.player_count]
            case ConstantValue(value) if isinstance(value, dict):
                return _const(freeze(value.get("value")))
            case ConstantValue(value):
                return _const(freeze(value))
            case RulesetId(ident):
                return _const(ident)
            case other:
                raise RuleRuntimeError(f"cannot compile the name {node.name!r} as {type(other).__name__}")

    def index(self, node: ast.Index) -> Fn:
        base, index = node.base, self.expr(node.index)
        per = self.resolved.get(id(node))
        if isinstance(per, PerIndex):
            name = per.var
            if per.per == "space":
                return lambda L, C: C.vars[name][C.space_index(index(L, C))]

            def of_player(L: Locals, C: Running) -> Any:
                p = index(L, C)
                if p.__class__ is not int or not 0 <= p < C.player_count:
                    p = C.player_index(p)  # raises, saying why
                return C.vars[name][p]

            return of_player
        items = self.expr(base)

        return lambda L, C: _item(items(L, C), index(L, C))

    def binop(self, node: ast.BinOp) -> Fn:
        a, b, op = self.expr(node.left), self.expr(node.right), node.op
        if op == "and":
            return lambda L, C: bool(a(L, C)) and bool(b(L, C))
        if op == "or":
            return lambda L, C: bool(a(L, C)) or bool(b(L, C))
        if op == "==":
            return lambda L, C: a(L, C) == b(L, C)
        if op == "!=":
            return lambda L, C: a(L, C) != b(L, C)
        if op == "in":
            return lambda L, C: a(L, C) in b(L, C)
        if op == "+":

            def add(L: Locals, C: Running) -> Any:
                x, y = a(L, C), b(L, C)
                if x.__class__ is int and y.__class__ is int:
                    return x + y
                if isinstance(x, tuple) or isinstance(y, tuple):
                    return tuple(x or ()) + tuple(y or ())
                return _number(x, "+") + _number(y, "+")

            return add
        fn = _ARITH[op]
        right = self.constant(node.right)
        if right.__class__ is int and (right != 0 or op not in ("//", "%")):
            # the common "x - 1", "n // 2", "v >= 3": no check of the constant
            def arith_const(L: Locals, C: Running) -> Any:
                x = a(L, C)
                return fn(x if x.__class__ is int else _number(x, op), right)

            return arith_const

        def arith(L: Locals, C: Running) -> Any:
            x, y = a(L, C), b(L, C)
            if x.__class__ is not int:
                x = _number(x, op)
            if y.__class__ is not int:
                y = _number(y, op)
            return fn(x, y)

        return arith

    def constant(self, node: ast.Node) -> Any:
        """The value of a literal (None for anything else)."""
        return freeze(node.value) if isinstance(node, ast.Const) else None

    def call(self, node: ast.Call) -> Fn:
        resolved = self.resolved.get(id(node))
        if not isinstance(resolved, PrimitiveCall):
            raise RuleRuntimeError(f"{node.name}() cannot be used inside an expression")
        prim = resolved.primitive
        fn = prim.fn
        fixed = [p for p in prim.params if not p.variadic]
        args = []
        for i, arg in enumerate(node.args):
            param = fixed[i] if i < len(fixed) else prim.params[-1]
            args.append(self.ref(arg) if param.ref else self.expr(arg))
        kwargs = tuple((k, self.expr(v)) for k, v in node.kwargs)
        if kwargs:
            return lambda L, C: fn(C, *[f(L, C) for f in args], **{k: f(L, C) for k, f in kwargs})
        if len(args) == 0:
            return lambda L, C: fn(C)
        if len(args) == 1:
            (f0,) = args
            return lambda L, C: fn(C, f0(L, C))
        if len(args) == 2:
            f0, f1 = args
            return lambda L, C: fn(C, f0(L, C), f1(L, C))
        if len(args) == 3:
            f0, f1, f2 = args
            return lambda L, C: fn(C, f0(L, C), f1(L, C), f2(L, C))
        return lambda L, C: fn(C, *[f(L, C) for f in args])

    def ref(self, arg: ast.Node) -> Fn:
        """A state variable handed to a primitive to change (``deck``, ``hand[p]``)."""
        if isinstance(arg, ast.Index):
            name, index = self.state_var(arg.base), self.expr(arg.index)
            return lambda L, C: Ref(C, name, index(L, C))
        name = self.state_var(arg)
        return lambda L, C: Ref(C, name)

    def state_var(self, node: ast.Node) -> str:
        resolved = self.resolved.get(id(node))
        if not isinstance(resolved, StateVar):
            raise RuleRuntimeError(f"cannot compile {type(node).__name__} as a state variable")
        return resolved.name


def _waits(resolved: Resolved | None) -> bool:
    """Whether a call may stop at a decision: a procedure, or a primitive that runs another effect."""
    return isinstance(resolved, ProcedureCall) or (isinstance(resolved, PrimitiveCall) and resolved.primitive.calls)


def _raise_located(exc: Exception, pos: int) -> NoReturn:
    """Raise ``exc`` as a rule error that knows where in the DSL text its statement starts
    (the innermost statement's place wins: it is set first)."""
    error = RuleRuntimeError.of(exc)
    if error.offset is None:
        error.offset = pos
    raise error


def _const(value: Any) -> Fn:
    return lambda L, C: value
