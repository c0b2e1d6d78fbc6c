"""Static checks of DSL programs: every name bound, every call with the right arity and
types, decisions and effect calls only where execution can wait for them.

The checker also records what each name and call resolves to, for the compiler.

>>> scope = Scope(locals={"self": "player"}, constants={"bonus": 6})
>>> problems, _ = check(parse("half_dwn(bonus) + bonsu"), scope)
>>> for p in problems:
...     print(p.code, p.message)
dsl/name unknown primitive 'half_dwn' (did you mean 'half_down'?)
dsl/name unknown name 'bonsu' (did you mean 'bonus'?)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..errors import did_you_mean
from . import parse as ast
from .parse import parse  # noqa: F401  (doctest)
from .registry import CORE, REQUIRED, Param, Primitive, Registry, compatible
from .visitor import NodeVisitor


@dataclass(frozen=True)
class Problem:
    offset: int
    code: str  # dsl/name, dsl/type, dsl/syntax
    message: str


@dataclass(frozen=True)
class VarInfo:
    """A state variable: ``per`` is "player", "space" or None (one value)."""

    type: str
    per: str | None = None


@dataclass(frozen=True)
class ProcInfo:
    params: tuple[tuple[str, str], ...]  # (name, type)


@dataclass
class Scope:
    """What names mean where a program runs."""

    locals: dict[str, str] = field(default_factory=dict)  # bound names -> type
    state: dict[str, VarInfo] = field(default_factory=dict)  # state variables
    constants: dict[str, Any] = field(default_factory=dict)  # game constants -> value
    ids: frozenset[str] = frozenset()  # every id of the ruleset
    procedures: dict[str, ProcInfo] = field(default_factory=dict)
    registry: Registry = CORE
    may_wait: bool = True  # decisions and effect calls allowed (not in invariants)
    may_change: bool = True  # state changes allowed (not in invariants)
    keywords: dict[str, str] = field(default_factory=dict)  # only used for effect() kwargs


# -- what the checker decides about a node, for the compiler ----------------------------------
class LocalName(NamedTuple):
    """A local name (bound by ``let``, ``for``, ``choose each``, or given), kept in frame
    slot ``slot``: a name bound inside a block gets a slot of its own."""

    slot: str


class StateVar(NamedTuple):
    """A state variable (read, assigned, or handed to a primitive to change)."""

    name: str


class ConstantValue(NamedTuple):
    """A game constant: its value as ``game.yaml`` gives it (a ``by_players`` table too)."""

    value: Any


class RulesetId(NamedTuple):
    """An id of the ruleset (a card, a space, ...): it stands for itself."""

    id: str


class PerIndex(NamedTuple):
    """``var[i]`` of a state variable with one value per player or per space (``per``)."""

    var: str
    per: str


class ProcedureCall(NamedTuple):
    """A call of a flow procedure."""

    name: str


class PrimitiveCall(NamedTuple):
    """A call of a primitive."""

    primitive: Primitive


class DecisionScope(NamedTuple):
    """The locals in scope at a decision, name -> frame slot: what its texts may show of the code
    that decides (kept under ``-id(node)``, apart from the names the decision binds)."""

    slots: dict[str, str]


Resolved = LocalName | StateVar | ConstantValue | RulesetId | PerIndex | ProcedureCall | PrimitiveCall | DecisionScope
#: What each name, call, binding and indexing resolved to, by ``id(node)``.
Resolution = dict[int, Resolved]


def type_of_value(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (list, tuple)):
        return "list"
    return "none" if value is None else "any"


def constant_type(constant: Any) -> str:
    """The DSL type of a game constant as ``game.yaml`` declares it: its ``value``'s, or the
    type every count of its ``by_players`` table shares ("any" when they differ).

    >>> constant_type({"value": 5}), constant_type({"by_players": {"2": [1], "3": [1, 2]}}), constant_type(True)
    ('int', 'list', 'bool')
    """
    if not isinstance(constant, dict):
        return type_of_value(constant)
    if "value" in constant:
        return type_of_value(constant["value"])
    table = constant.get("by_players")
    kinds = {type_of_value(v) for v in table.values()} if isinstance(table, dict) else set()
    return kinds.pop() if len(kinds) == 1 else "any"


#: Labels of decisions become action names: ``p1 claim(c4)``.
_LABEL = re.compile(r"[a-z][a-z0-9_]*")


class _Env(dict[str, str]):
    """Names in scope -> type; ``slots`` maps each to the frame slot holding it. A name
    bound inside a block gets a slot of its own, so it cannot change a name outside."""

    def __init__(self, types: dict[str, str], slots: dict[str, str] | None = None):
        super().__init__(types)
        self.slots = dict(slots) if slots is not None else {n: n for n in types}

    def child(self) -> _Env:
        return _Env(self, self.slots)


class Signature(NamedTuple):
    """A flow procedure's name and its parameters' names, in order."""

    name: str
    params: tuple[str, ...]


class Checked(NamedTuple):
    """A DSL string that passed the name checker: where it is, its program and names, and
    what it is (``root``: main, an item's code or a scoring rule; ``procedure``: its name and
    parameters; ``field``: the item field it is the code of, for ``effect()``'s value)."""

    ptr: str
    program: ast.Program
    resolved: Resolution
    root: bool
    procedure: Signature | None = None
    field: str | None = None


def check(program: ast.Program, scope: Scope) -> tuple[list[Problem], Resolution]:
    """Problems in ``program`` and the resolution of its names and calls."""
    checker = _Checker(scope)
    checker.block(program.body, _Env(scope.locals), loop=False, depth=0)
    return checker.problems, checker.resolved


class _Checker(NodeVisitor):
    """The name checker: statements are visited with the names in scope, whether a
    ``break`` may stand there and their block depth; expressions with the names in scope,
    giving their type."""

    def __init__(self, scope: Scope):
        self.scope = scope
        self.problems: list[Problem] = []
        self.resolved: Resolution = {}
        self.slots = 0

    def problem(self, node: ast.Node, code: str, message: str) -> None:
        self.problems.append(Problem(node.pos, code, message))

    def known_names(self, env: _Env) -> list[str]:
        s = self.scope
        return [*env, *s.state, *s.constants, *s.procedures, *s.registry.names(), *s.ids]

    # -- statements ------------------------------------------------------------------------
    def bind(self, env: _Env, name: str, type_: str, depth: int, node: ast.Node) -> None:
        """Bind a new local; inside a block it gets a slot of its own."""
        self.slots += 1
        slot = name if depth == 0 else f"{name}#{self.slots}"
        env[name] = type_
        env.slots[name] = slot
        self.resolved[id(node)] = LocalName(slot)

    def block(self, body: tuple[ast.Node, ...], env: _Env, loop: bool, depth: int) -> None:
        """Check statements: ``loop`` says whether a ``break`` may stand there, ``depth`` how
        many blocks they are inside (a name bound there gets a slot of its own)."""
        for stmt in body:
            self.visit(stmt, env, loop, depth)

    def visit_Let(self, node: ast.Let, env: _Env, loop: bool, depth: int) -> None:
        self.bind(env, node.name, self.top(node.value, env), depth, node)

    def visit_ExprStmt(self, node: ast.ExprStmt, env: _Env, loop: bool, depth: int) -> None:
        self.top(node.expr, env)

    def visit_Break(self, node: ast.Break, env: _Env, loop: bool, depth: int) -> None:
        if not loop:
            self.problem(node, "dsl/syntax", "'break' outside a 'for' or 'repeat' loop")

    def visit_If(self, node: ast.If, env: _Env, loop: bool, depth: int) -> None:
        self.expr(node.cond, env)
        self.block(node.then.body, env.child(), loop, depth + 1)
        if node.orelse is not None:
            self.block(node.orelse.body, env.child(), loop, depth + 1)

    def visit_For(self, node: ast.For, env: _Env, loop: bool, depth: int) -> None:
        self.want(node.iterable, env, "list", "the list a 'for' walks")
        inner = env.child()
        self.bind(inner, node.var, "any", depth + 1, node)
        self.block(node.body.body, inner, True, depth + 1)

    def visit_Repeat(self, node: ast.Repeat, env: _Env, loop: bool, depth: int) -> None:
        self.want(node.count, env, "int", "the count of 'repeat'")
        self.block(node.body.body, env.child(), True, depth + 1)

    def top(self, node: ast.Node, env: _Env) -> str:
        """A statement-level value: may be a decision or a call that waits."""
        if isinstance(node, ast.Choose):
            return self.choose(node, env)
        if isinstance(node, ast.Call):
            return self.call(node, env, top=True)
        return self.expr(node, env)

    def choose(self, node: ast.Choose, env: _Env) -> str:
        self.resolved[-id(node)] = DecisionScope(dict(env.slots))
        if not self.scope.may_wait:
            self.problem(node, "dsl/syntax", "a decision ('choose') is not allowed here")
        if not _LABEL.fullmatch(node.label) or node.label == "pass":
            self.problem(
                node,
                "dsl/syntax",
                f"the label {node.label!r} of a decision names its actions "
                "(p1 label(value)); expected a lower-case word other than 'pass', like \"claim\"",
            )
        if node.each:
            self.want(node.player, env, "list", "the players of 'choose each'")
            inner = env.child()
            self.slots += 1
            inner[node.each] = "player"
            inner.slots[node.each] = f"{node.each}#{self.slots}"
            self.resolved[id(node)] = LocalName(inner.slots[node.each])
            self.want(node.options, inner, "list", "the options of 'choose'")
            return "list"
        self.want(node.player, env, "player", "the chooser of 'choose'")
        self.want(node.options, env, "list", "the options of 'choose'")
        return "any"

    def visit_Assign(self, node: ast.Assign, env: _Env, loop: bool, depth: int) -> None:
        value = self.expr(node.value, env)
        if node.name in env:
            if node.index is not None:
                self.problem(
                    node, "dsl/type", f"cannot assign to an element of local {node.name!r}; build a new list instead"
                )
            self.resolved[id(node)] = LocalName(env.slots[node.name])
            if node.op == "=":
                env[node.name] = value
            else:
                self.combinable(node, env[node.name], value)
            return
        var = self.scope.state.get(node.name)
        if var is None:
            self.problem(
                node,
                "dsl/name",
                f"cannot assign to {node.name!r}: not a local (use 'let') or a "
                f"state variable{did_you_mean(node.name, [*env, *self.scope.state])}",
            )
            return
        if not self.scope.may_change:
            self.problem(node, "dsl/syntax", f"state variable {node.name!r} cannot be changed here")
        self.resolved[id(node)] = StateVar(node.name)
        if var.per and node.index is None and node.op != "=":
            self.problem(node, "dsl/type", f"{node.name!r} has one value per {var.per}: write {node.name}[...]")
        if node.index is not None:
            if not var.per:
                self.problem(node, "dsl/type", f"{node.name!r} has a single value; it cannot be indexed")
            else:
                self.want(
                    node.index, env, "player" if var.per == "player" else "str", f"the {var.per} of {node.name!r}"
                )
        want = var.type if (node.index is not None or not var.per) else "list"
        if node.op in ("+=", "-="):
            self.combinable(node, var.type, value, node.name)
        elif not compatible(want, value):
            self.problem(node.value, "dsl/type", f"{node.name!r} holds {want}, not {value}")

    def combinable(self, node: ast.Assign, held: str, value: str, name: str | None = None) -> None:
        """``x += v`` / ``x -= v``: numbers with numbers; a list takes any value (or list)."""
        what = name or node.name
        if held in ("int", "player") and not compatible("int", value):
            self.problem(node.value, "dsl/type", f"{node.op} on {what!r} (a number) needs a number, not {value}")
        elif held not in ("int", "player", "list", "any"):
            self.problem(node, "dsl/type", f"{node.op} needs a number or list, {what!r} holds {held}")

    # -- expressions -----------------------------------------------------------------------
    def want(self, node: ast.Node, env: _Env, want: str, what: str) -> str:
        have = self.expr(node, env)
        if not compatible(want, have):
            self.problem(node, "dsl/type", f"{what} should be {want}, not {have}")
        return have

    def expr(self, node: ast.Node, env: _Env) -> str:
        """The type of expression ``node`` (its problems recorded on the way)."""
        found: str = self.visit(node, env)
        return found

    def visit_Const(self, node: ast.Const, env: _Env) -> str:
        return type_of_value(node.value)

    def visit_ListExpr(self, node: ast.ListExpr, env: _Env) -> str:
        for item in node.items:
            self.expr(item, env)
        return "list"

    def visit_Call(self, node: ast.Call, env: _Env) -> str:
        return self.call(node, env, top=False)

    def visit_Unary(self, node: ast.Unary, env: _Env) -> str:
        if node.op == "not":
            self.expr(node.operand, env)
            return "bool"
        self.want(node.operand, env, "int", "the operand of '-'")
        return "int"

    def visit_Choose(self, node: ast.Choose, env: _Env) -> str:
        self.problem(node, "dsl/syntax", "'choose' can only stand alone or be the value of 'let'")
        return "any"

    def generic_visit(self, node: ast.Node, *args: Any) -> str:
        self.problem(node, "dsl/syntax", f"unexpected {type(node).__name__}")
        return "any"

    def visit_Name(self, node: ast.Name, env: _Env) -> str:
        s, n = self.scope, node.name
        if n in env:
            self.resolved[id(node)] = LocalName(env.slots[n])
            return env[n]
        if n in s.state:
            self.resolved[id(node)] = StateVar(n)
            var = s.state[n]
            return "list" if var.per else var.type
        if n in s.constants:
            self.resolved[id(node)] = ConstantValue(s.constants[n])
            return constant_type(s.constants[n])
        if n in s.ids:
            self.resolved[id(node)] = RulesetId(n)
            return "str"
        if n in s.procedures or s.registry.get(n):
            self.problem(node, "dsl/type", f"{n!r} is called, not used as a value: write {n}(...)")
            return "any"
        self.problem(node, "dsl/name", f"unknown name {n!r}{did_you_mean(n, self.known_names(env))}")
        return "any"

    def visit_Index(self, node: ast.Index, env: _Env) -> str:
        base = node.base
        if isinstance(base, ast.Name) and base.name not in env and base.name in self.scope.state:
            var = self.scope.state[base.name]
            self.resolved[id(base)] = StateVar(base.name)
            if var.per:
                self.want(
                    node.index, env, "player" if var.per == "player" else "str", f"the {var.per} of {base.name!r}"
                )
                self.resolved[id(node)] = PerIndex(base.name, var.per)
                return var.type
        self.want(base, env, "list", "an indexed value")
        self.want(node.index, env, "int", "a list index")
        return "any"

    def visit_BinOp(self, node: ast.BinOp, env: _Env) -> str:
        op = node.op
        if op in ("and", "or"):
            self.expr(node.left, env)
            self.expr(node.right, env)
            return "bool"
        if op in ("==", "!="):
            self.expr(node.left, env)
            self.expr(node.right, env)
            return "bool"
        if op == "in":
            self.expr(node.left, env)
            self.want(node.right, env, "list", "the right side of 'in'")
            return "bool"
        left, right = self.expr(node.left, env), self.expr(node.right, env)
        if op == "+" and "list" in (left, right):
            for side, t in ((node.left, left), (node.right, right)):
                if not compatible("list", t):
                    self.problem(side, "dsl/type", f"'+' joins two lists; this side is {t}")
            return "list"
        for side, t in ((node.left, left), (node.right, right)):
            if not compatible("int", t):
                self.problem(side, "dsl/type", f"{op!r} needs numbers; this side is {t}")
        return "bool" if op in ("<", "<=", ">", ">=") else "int"

    def call(self, node: ast.Call, env: _Env, top: bool) -> str:
        """A call's type; ``top``: it stands alone or is the value of a ``let`` (where a
        call may wait for a decision)."""
        s, n = self.scope, node.name
        if n in s.procedures:
            return self.procedure_call(node, env, top)
        prim = s.registry.get(n)
        if prim is None:
            self.problem(
                node, "dsl/name", f"unknown primitive {n!r}{did_you_mean(n, [*s.registry.names(), *s.procedures])}"
            )
            for arg in node.args:
                self.expr(arg, env)
            return "any"
        self.resolved[id(node)] = PrimitiveCall(prim)
        if prim.calls and not top:
            self.problem(
                node, "dsl/syntax", f"{n}() runs another effect: it can only stand alone or be the value of 'let'"
            )
        if prim.calls and not s.may_wait:
            self.problem(node, "dsl/syntax", f"{n}() cannot be called here")
        if prim.changes and not prim.calls and not s.may_change:
            self.problem(node, "dsl/syntax", f"{n}() changes the game and cannot be called here")
        fixed = [p for p in prim.params if not p.variadic]
        needed = sum(p.default is REQUIRED for p in fixed)
        variadic = any(p.variadic for p in prim.params)
        self.arity(node, n, needed, None if variadic else len(fixed))
        for i, arg in enumerate(node.args):
            param = fixed[i] if i < len(fixed) else (prim.params[-1] if variadic else None)
            if param is None:
                self.expr(arg, env)
                continue
            if param.ref:
                self.ref(arg, env, n, param)
            else:
                self.want(arg, env, param.type, f"argument {param.name!r} of {n}()")
        for key, value in node.kwargs:
            if not prim.keywords:
                self.problem(value, "dsl/type", f"{n}() takes no keyword {key!r}")
            self.expr(value, env)
        return prim.result

    def procedure_call(self, node: ast.Call, env: _Env, top: bool) -> str:
        s, n = self.scope, node.name
        self.resolved[id(node)] = ProcedureCall(n)
        if not top:
            self.problem(node, "dsl/syntax", f"procedure {n!r} can only be called alone or as the value of 'let'")
        if not s.may_wait:
            self.problem(node, "dsl/syntax", f"procedure {n!r} cannot be called here")
        params = s.procedures[n].params
        self.arity(node, n, len(params), len(params))
        for arg, (pname, ptype) in zip(node.args, params):
            self.want(arg, env, ptype, f"argument {pname!r} of {n}()")
        for key, value in node.kwargs:
            self.problem(value, "dsl/type", f"{n}() takes no keyword {key!r}")
        return "any"

    def ref(self, arg: ast.Node, env: _Env, fname: str, param: Param) -> None:
        base = arg.base if isinstance(arg, ast.Index) else arg
        if not (isinstance(base, ast.Name) and base.name in self.scope.state and base.name not in env):
            self.problem(
                arg,
                "dsl/type",
                f"argument {param.name!r} of {fname}() must be a state variable "
                f"(like deck or hand[p]){did_you_mean(getattr(base, 'name', ''), self.scope.state)}",
            )
            self.expr(arg, env)
            return
        if not self.scope.may_change:
            self.problem(arg, "dsl/syntax", f"{fname}() changes {base.name!r} and cannot be called here")
        var = self.scope.state[base.name]
        self.resolved[id(base)] = StateVar(base.name)
        if isinstance(arg, ast.Index):
            if not var.per:
                self.problem(arg, "dsl/type", f"{base.name!r} has a single value; it cannot be indexed")
            self.want(arg.index, env, "player" if var.per == "player" else "str", f"the {var.per} of {base.name!r}")
        elif var.per:
            self.problem(arg, "dsl/type", f"{base.name!r} has one value per {var.per}: write {base.name}[...]")
        if not compatible(param.type, var.type):
            self.problem(
                arg,
                "dsl/type",
                f"argument {param.name!r} of {fname}() should hold {param.type}, {base.name!r} holds {var.type}",
            )

    def arity(self, node: ast.Call, name: str, low: int, high: int | None) -> None:
        got = len(node.args)
        if got < low or (high is not None and got > high):
            want = f"{low}" if low == high else (f"at least {low}" if high is None else f"{low} to {high}")
            self.problem(node, "dsl/type", f"{name}() takes {want} argument{'s' if want != '1' else ''}, not {got}")
