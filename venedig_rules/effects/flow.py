"""Information flow: no seat learns, through the rules, a value it may not see.

A value read from a state variable that a seat may not see (``visible: owner`` for the other
seats, ``visible: hidden`` for all) is *secret* to that seat; so is the value of a
``secretly`` decision to all but its chooser. It is a ``dsl/leak`` when such a value
reaches, for a seat it is secret to: a variable it can see (``all``; an ``owner`` variable
of that seat); an event field (every seat, or those of ``to:``); the options of a decision
(every seat, or the chooser of a ``secretly`` one); the arguments of a primitive that
changes the game (a game module's ``lay_tile(p, t)`` shows its arguments); or, through the
condition of an ``if``, a ``for`` list or a ``repeat`` count, whether a decision, an event
or a change happens at all (implicit flows); so does a ``break`` under a secret condition,
for every later statement of its loop (how often the loop runs is then a secret). The
message names the flow's path: where the secret was read, each name it went through, where
it escaped.

Public without ceremony, as every view shows it: ``count`` of a state variable (a hand's
size), the number of times ``for`` walks a state variable, and whether a state variable or
a decision's value is none (``x == none``; a passed decision is public). Everything else
the rules show is declassified explicitly with ``declassify(value, "rulebook sentence")``.

>>> from venedig_rules.effects.check import Scope, VarInfo
>>> from venedig_rules.effects.parse import parse
>>> scope = Scope(locals={"players": "list", "p": "player"},
...               state={"hand": VarInfo("list", "player"), "shown": VarInfo("any", "player")})
>>> visibility = {"hand": "owner", "shown": "all"}
>>> program = parse("shown[p] = count(hand[p]); shown[p] = first(hand[p])")
>>> for leak in leaks(program, scope, visibility):
...     print(leak.message)  # doctest: +NORMALIZE_WHITESPACE
the value of hand[p] (secret to all but seat p) reaches shown[p], which every seat sees:
read at 1:45 (hand[p]), escapes at 1:28 (shown[p])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from .check import Checked, LocalName, PrimitiveCall, ProcedureCall, Resolution, Scope, StateVar, check
from .parse import Call, Choose, Const, Index, ListExpr, Name
from .registry import Primitive
from .visitor import NodeVisitor

if TYPE_CHECKING:
    # only annotations name these
    from .parse import Assign, BinOp, ExprStmt, For, If, Let, Node, Program, Repeat, Unary

#: Every seat sees it.
ALL = None
#: A seat, as the text of the expression naming it in the program (``p``, ``self``).
Seat = str


@dataclass(frozen=True)
class Secret:
    """Where a secret came from (``what``: ``hand[p]``, ``decision "discard"``) and the one
    seat that may know it (``owner``; None: no seat). ``var`` is the state variable it was
    read from, ``decision`` the label of the ``secretly`` decision it is the value of."""

    what: str
    owner: Seat | None
    var: str | None = None
    decision: str | None = None


#: A value's secrets, each with the path it took (read location first).
Taint = dict[Secret, tuple[str, ...]]


@dataclass(frozen=True)
class Leak:
    """A secret reaching a seat it is secret to: at ``offset`` of the program ``home``."""

    home: str
    offset: int
    message: str


@dataclass
class Revealed:
    """A ``declassify(value, why)``: the secrets it declassifies and the rulebook sentence."""

    why: str
    secrets: tuple[Secret, ...]


def _union(*taints: Mapping[Secret, tuple[str, ...]]) -> Taint:
    out: Taint = {}
    for t in taints:
        for s, path in t.items():
            out.setdefault(s, path)
    return out


def _then(taint: Taint, step: str) -> Taint:
    """``taint`` having gone through ``step`` (paths keep their first few steps)."""
    return {s: path + (step,) if len(path) < 6 else path for s, path in taint.items()}


def _elsewhere(seat: Seat) -> Seat:
    return seat if seat.startswith("<") else f"<seat {seat} of another program>"


def _describe(s: Secret) -> str:
    who = "every seat" if s.owner is None else f"all but seat {s.owner}"
    return f"the value of {s.what} (secret to {who})"


def _audience_text(audience: frozenset[Seat] | None) -> str:
    if audience is ALL:
        return "every seat sees"
    return "seat " + ", ".join(sorted(audience)) + " sees"


def _leaks_to(s: Secret, audience: frozenset[Seat] | None) -> bool:
    if audience is ALL:
        return True
    return any(seat != s.owner for seat in audience)


@dataclass
class _Env:
    taint: dict[str, Taint] = field(default_factory=dict)
    none_public: set[str] = field(default_factory=set)  # locals whose none-ness is public

    def copy(self) -> _Env:
        return _Env(dict(self.taint), set(self.none_public))

    def merge(self, other: _Env) -> None:
        for name, t in other.taint.items():
            self.taint[name] = _union(self.taint.get(name, {}), t)
        self.none_public &= other.none_public


class Procedure(NamedTuple):
    """A flow procedure as the flow checker follows it: checked program, names, parameters
    and a locator of its offsets (``line:column`` in its file)."""

    program: Program
    resolved: Resolution
    params: tuple[str, ...]
    where: Callable[[int], str]
    home: str


@dataclass
class FlowScope:
    """What the flow checker needs beyond the name checker's scope: each state variable's
    visibility, the procedures as it follows them, what game-module primitives read through
    ``ctx`` (name -> state variables) or read only for their shape, and what it learnt so
    far (item code values, procedures already followed, secret decisions kept in state)."""

    visibility: Mapping[str, str]
    procedures: Mapping[str, Procedure] = field(default_factory=dict)
    secret_reads: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    shape_only: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    item_results: dict[str, Taint] = field(default_factory=dict)  # item code field -> its value's secrets
    done: dict[Any, Taint] = field(default_factory=dict)  # (procedure, arguments' and pc's secrets) -> value
    stored: dict[str, set[str]] = field(default_factory=dict)  # state variable -> secret decisions written to it


class _Use(NamedTuple):
    """A call of a primitive being followed: the call, the primitive, the secrets of its
    arguments (in order) and of its keyword arguments, the locals' secrets, and the
    secrets deciding whether the call runs at all (``pc``)."""

    node: Call
    primitive: Primitive
    args: list[Taint]
    kwargs: dict[str, Taint]
    env: _Env
    pc: Taint


class _Flow(NodeVisitor):
    """One program's flow analysis; procedures are analysed at each call with the
    arguments' secrets (a call already under way with the same secrets is not followed again).
    Statements are visited with the locals' secrets and those of the branch they stand in
    (``pc``); expressions with the locals' secrets, giving their value's."""

    def __init__(
        self,
        scope: FlowScope,
        resolved: Resolution,
        where: Callable[[int], str],
        home: str,
        stack: tuple[Any, ...] = (),
    ):
        self.home = home
        self.scope = scope
        self.resolved = resolved
        self.where = where
        self.leaks: list[Leak] = []
        self.revealed: list[Revealed] = []
        self.stack = stack
        self.result: Taint = {}
        #: the secrets deciding whether a ``break`` of the innermost loop runs (None: no loop)
        self.breaks: Taint | None = None

    # -- helpers ---------------------------------------------------------------------------
    def at(self, node: Node) -> str:
        return self.where(node.pos)

    def seat(self, node: Node) -> Seat:
        """The text naming a seat: a local's name, else a token matching no other seat."""
        if isinstance(node, Name):
            return node.name
        return f"<expression at {self.at(node)}>"

    def sink(self, node: Node, taint: Taint, audience: frozenset[Seat] | None, what: str) -> None:
        for s, path in taint.items():
            if _leaks_to(s, audience):
                steps = ", ".join(path)
                self.leaks.append(
                    Leak(
                        self.home,
                        node.pos,
                        f"{_describe(s)} reaches {what}, which {_audience_text(audience)}: {steps}, "
                        f"escapes at {self.at(node)} ({what})",
                    )
                )
                return

    def var_audience(self, name: str, index: Node | None) -> frozenset[Seat] | None:
        vis = self.scope.visibility.get(name, "all")
        if vis == "hidden":
            return frozenset()
        if vis == "owner" and index is not None:
            return frozenset({self.seat(index)})
        return ALL

    def source(self, name: str, index: Node | None, node: Node) -> Taint:
        vis = self.scope.visibility.get(name, "all")
        if vis == "all":
            return {}
        owner = self.seat(index) if (vis == "owner" and index is not None) else None
        what = f"{name}[{owner}]" if owner is not None else name
        return {Secret(what, owner, var=name): (f"read at {self.at(node)} ({what})",)}

    # -- statements ------------------------------------------------------------------------
    def block(self, body: Iterable[Node], env: _Env, pc: Taint) -> None:
        """Follow statements; ``pc`` holds the secrets deciding whether they run at all. A
        ``break`` a secret decides makes whether every later statement of its loop runs a
        secret too (``for c in hand[p] { if c == x { break }; n += 1 }`` counts in secret)."""
        for stmt in body:
            self.visit(stmt, env, pc)
            if self.breaks:
                pc = _union(pc, self.breaks)

    def visit_Break(self, node: Node, env: _Env, pc: Taint) -> None:
        if self.breaks is not None and pc:
            self.breaks = _union(self.breaks, _then(pc, f"the break at {self.at(node)}"))

    def visit_Let(self, node: Let, env: _Env, pc: Taint) -> None:
        value = self.top(node.value, env, pc)
        env.taint[node.name] = _then(_union(value, pc), f"let {node.name} at {self.at(node)}")
        if isinstance(node.value, Choose) or self.is_none_public(node.value, env):
            env.none_public.add(node.name)
        else:
            env.none_public.discard(node.name)
        self.result = env.taint[node.name]

    def visit_ExprStmt(self, node: ExprStmt, env: _Env, pc: Taint) -> None:
        self.result = _union(self.top(node.expr, env, pc), pc)

    def visit_If(self, node: If, env: _Env, pc: Taint) -> None:
        cond = self.expr(node.cond, env)
        inner = _union(pc, _then(cond, f"the condition at {self.at(node.cond)}"))
        then_env = env.copy()
        self.block(node.then.body, then_env, inner)
        else_env = env.copy()
        if node.orelse is not None:
            self.block(node.orelse.body, else_env, inner)
        then_env.merge(else_env)
        env.taint, env.none_public = then_env.taint, then_env.none_public

    def visit_For(self, node: For, env: _Env, pc: Taint) -> None:
        items = self.expr(node.iterable, env)
        walks = {} if self.is_state(node.iterable) else items
        inner = _union(pc, _then(self.index_taint(node.iterable, env, walks), f"the loop at {self.at(node)}"))
        self.loop(node.body.body, env, inner, {node.var: _then(_union(items, pc), f"for {node.var}")})

    def visit_Repeat(self, node: Repeat, env: _Env, pc: Taint) -> None:
        count = self.expr(node.count, env)
        self.loop(node.body.body, env, _union(pc, _then(count, f"the repeat count at {self.at(node)}")), {})

    def generic_visit(self, node: Node, *args: Any) -> Taint:
        """A decision inside an expression (the checker refuses it), a constant: no secret."""
        return {}

    def index_taint(self, iterable: Node, env: _Env, walks: Taint) -> Taint:
        """The secrets deciding how often a loop over ``iterable`` runs: a state variable's
        length is public, but not which one an index picks."""
        if isinstance(iterable, Index) and self.is_state(iterable):
            return self.expr(iterable.index, env)
        return walks

    def loop(self, body: tuple[Node, ...], env: _Env, pc: Taint, bound: dict[str, Taint]) -> None:
        """A loop's body, run until the locals' secrets no longer change; ``bound``: the names
        the loop binds (a ``for``'s variable) and their secrets, unknown after the loop."""
        outer, self.breaks = self.breaks, {}
        for _ in range(4):  # to a fixed point: a secret may reach a local on a later round
            before = {n: set(t) for n, t in env.taint.items()}
            broke = set(self.breaks or {})
            inner = env.copy()
            inner.taint.update(bound)
            # a later round runs only if no secret break ended the loop before it
            self.block(body, inner, _union(pc, self.breaks or {}))
            for name in bound:
                inner.taint.pop(name, None)
            env.merge(inner)
            if {n: set(t) for n, t in env.taint.items()} == before and set(self.breaks or {}) == broke:
                break
        self.breaks = outer

    def visit_Assign(self, node: Assign, env: _Env, pc: Taint) -> None:
        value = _union(self.expr(node.value, env), pc)
        what = self.resolved.get(id(node))
        if isinstance(what, LocalName):
            old = env.taint.get(node.name, {}) if node.op != "=" else {}
            env.taint[node.name] = _then(_union(old, value), f"{node.name} {node.op} at {self.at(node)}")
            env.none_public.discard(node.name)
            return
        if isinstance(what, StateVar):
            for secret in value:
                if secret.decision is not None:
                    self.scope.stored.setdefault(node.name, set()).add(secret.decision)
            index = self.expr(node.index, env) if node.index is not None else {}
            shown = f"{node.name}[{self.seat(node.index)}]" if node.index is not None else node.name
            self.sink(node, _union(value, index), self.var_audience(node.name, node.index), shown)

    # -- expressions -----------------------------------------------------------------------
    def is_state(self, node: Node) -> bool:
        base = node.base if isinstance(node, Index) else node
        return isinstance(base, Name) and isinstance(self.resolved.get(id(base)), StateVar)

    def is_none_public(self, node: Node, env: _Env) -> bool:
        return self.is_state(node) or (isinstance(node, Name) and node.name in env.none_public)

    def top(self, node: Node, env: _Env, pc: Taint) -> Taint:
        if isinstance(node, Choose):
            return self.choose(node, env, pc)
        if isinstance(node, Call):
            return self.call(node, env, pc)
        return self.expr(node, env)

    def choose(self, node: Choose, env: _Env, pc: Taint) -> Taint:
        label = f'the decision "{node.label}"'
        chooser = self.expr(node.player, env)
        self.sink(node, _union(pc, chooser), ALL, f"whether {label} is asked")
        if node.each:
            inner = env.copy()
            inner.taint[node.each] = {}
            options = self.expr(node.options, inner)
            self.sink(node.options, options, frozenset({node.each}), f"the options of {label}")
            return {}  # all commits are shown at once
        options = self.expr(node.options, env)
        if node.secret:
            seat = self.seat(node.player)
            self.sink(node.options, options, frozenset({seat}), f"the options of {label}")
            mine = {Secret(f"{label} of {seat}", seat, decision=node.label): (f"chosen at {self.at(node)}",)}
            return _union(mine, options)
        self.sink(node.options, options, ALL, f"the options of {label} (not secretly)")
        return {}

    def expr(self, node: Node, env: _Env) -> Taint:
        """The secrets of an expression's value."""
        taint: Taint = self.visit(node, env)
        return taint

    def visit_Name(self, node: Name, env: _Env) -> Taint:
        what = self.resolved.get(id(node))
        if isinstance(what, LocalName):
            return env.taint.get(node.name, {})
        if isinstance(what, StateVar):
            return self.source(node.name, None, node)
        return {}

    def visit_Index(self, node: Index, env: _Env) -> Taint:
        index = self.expr(node.index, env)
        if self.is_state(node):
            assert isinstance(node.base, Name)
            return _union(self.source(node.base.name, node.index, node), index)
        return _union(self.expr(node.base, env), index)

    def visit_ListExpr(self, node: ListExpr, env: _Env) -> Taint:
        return _union(*(self.expr(i, env) for i in node.items))

    def visit_Unary(self, node: Unary, env: _Env) -> Taint:
        return self.expr(node.operand, env)

    def visit_BinOp(self, node: BinOp, env: _Env) -> Taint:
        if node.op in ("==", "!="):
            for a, b in ((node.left, node.right), (node.right, node.left)):
                if isinstance(b, Const) and b.value is None and self.is_none_public(a, env):
                    return self.index_taint(a, env, {}) if isinstance(a, Index) else {}
        return _union(self.expr(node.left, env), self.expr(node.right, env))

    def visit_Call(self, node: Call, env: _Env) -> Taint:
        return self.call(node, env, {})

    def call(self, node: Call, env: _Env, pc: Taint) -> Taint:
        what = self.resolved.get(id(node))
        if isinstance(what, ProcedureCall):
            return self.procedure(node, what.name, env, pc)
        if not isinstance(what, PrimitiveCall):
            return {}
        prim = what.primitive
        shape = self.scope.shape_only.get(prim.name, ())
        args = [
            self.index_taint(a, env, {}) if p.name in shape and self.is_state(a) else self.expr(a, env)
            for a, p in zip(node.args, prim.params + (prim.params[-1:] * len(node.args) if prim.params else ()))
        ]
        use = _Use(node, prim, args, {k: self.expr(v, env) for k, v in node.kwargs}, env, pc)
        special = _CORE_FLOWS.get(prim.name)
        found = special(self, use) if special is not None else None
        return found if found is not None else self.primitive(use)

    # -- the core primitives whose flow is their own: None when a call is not of that form ------
    def declassify(self, use: _Use) -> Taint:
        node = use.node
        why = node.args[1] if len(node.args) > 1 else None
        if not (isinstance(why, Const) and isinstance(why.value, str) and why.value.strip()):
            self.leaks.append(
                Leak(self.home, node.pos, "declassify() needs the rulebook sentence that shows the value, as text")
            )
        else:
            self.revealed.append(Revealed(why.value, tuple(use.args[0]) if use.args else ()))
        return {}

    def count(self, use: _Use) -> Taint | None:
        # a state variable's size is public: only which one an index picks may be secret
        args = use.node.args
        if not (args and self.is_state(args[0])):
            return None
        return self.expr(args[0].index, use.env) if isinstance(args[0], Index) else {}

    def event(self, use: _Use) -> Taint:
        node = use.node
        to = dict(node.kwargs).get("to")
        audience = ALL if to is None or isinstance(to, ListExpr) else frozenset({self.seat(to)})
        kind = node.args[0].value if node.args and isinstance(node.args[0], Const) else "?"
        self.sink(node, use.pc, ALL, f'whether event "{kind}" happens')
        for (key, _), t in zip(node.kwargs, use.kwargs.values()):
            if key != "to":
                self.sink(node, t, audience, f'field {key!r} of event "{kind}"')
        return {}

    def move(self, use: _Use) -> Taint | None:
        node = use.node
        if len(node.args) != 3:
            return None
        src, dst = node.args[1], node.args[2]
        self.sink(node, use.pc, ALL, "whether move() happens")
        item = {s: p for s, p in use.args[0].items() if not self.from_zone(s, src)}
        a, b = self.zone_audience(src), self.zone_audience(dst)
        audience = ALL if a is ALL or b is ALL else a | b
        self.sink(node.args[0], item, audience, "the item move() moves")
        return {}

    def put_or_remove(self, use: _Use) -> Taint | None:
        node, name = use.node, use.primitive.name
        if len(node.args) != 2:
            return None
        self.sink(node, use.pc, ALL, f"whether {name}() happens")
        self.sink(node.args[0], use.args[0], self.zone_audience(node.args[1]), f"the item {name}() moves")
        return {}

    def draw(self, use: _Use) -> Taint | None:
        node = use.node
        if len(node.args) != 2:
            return None
        self.sink(node, use.pc, ALL, "whether draw() happens")
        src, dst = node.args
        base = src.base if isinstance(src, Index) else src
        audience = self.zone_audience(dst)
        if audience is ALL or not isinstance(base, Name):
            return {}
        if self.scope.visibility.get(base.name, "all") == "all":
            return {}
        owner = next(iter(audience)) if len(audience) == 1 else None
        return {Secret(f"the item drawn from {base.name}", owner): (f"drawn at {self.at(node)}",)}

    def primitive(self, use: _Use) -> Taint:
        """Any other primitive: one that runs an effect shows which and with what; one that
        changes the game shows its arguments; its value holds the secrets it reads."""
        node, prim, args, kwargs = use.node, use.primitive, use.args, use.kwargs
        name = prim.name
        if prim.calls:
            self.sink(node, _union(use.pc, *args, *kwargs.values()), ALL, f"which effect {name}() runs, and with what")
            field_name = node.args[1].value if len(node.args) > 1 and isinstance(node.args[1], Const) else None
            return dict(self.scope.item_results.get(str(field_name), {}))
        reads: Taint = {}
        for var in self.scope.secret_reads.get(name, ()):
            seat_arg = next((a for a, p in zip(node.args, prim.params) if p.type == "player"), None)
            reads = _union(reads, self.source(var, seat_arg, node))
        if prim.changes:
            shown = [t for a, p, t in zip(node.args, prim.params, args) if not p.ref]
            self.sink(node, _union(use.pc, *shown, *kwargs.values()), ALL, f"what {name}() changes (its arguments)")
        return _union(reads, *args, *kwargs.values())

    def from_zone(self, s: Secret, zone: Node) -> bool:
        """Whether ``s`` is the content of ``zone`` itself: an item moves with its zone's visibility."""
        base = zone.base if isinstance(zone, Index) else zone
        return isinstance(base, Name) and s.var == base.name

    def zone_audience(self, zone: Node) -> frozenset[Seat] | None:
        if self.is_state(zone):
            base = zone.base if isinstance(zone, Index) else zone
            assert isinstance(base, Name)
            return self.var_audience(base.name, zone.index if isinstance(zone, Index) else None)
        return ALL

    def procedure(self, node: Call, name: str, env: _Env, pc: Taint) -> Taint:
        program, resolved, params, where, home = self.scope.procedures[name]
        args = [self.expr(a, env) for a in node.args]
        # seats are names: a caller's name passed as a parameter is that parameter inside
        rename = {a.name: p for a, p in zip(node.args, params) if isinstance(a, Name)}
        back = {p: a for a, p in rename.items()}

        def seats(t: Taint, table: Mapping[str, str]) -> Taint:
            # a seat named nowhere in the other program becomes one that matches no name there
            return {
                replace(s, owner=None if s.owner is None else table.get(s.owner, _elsewhere(s.owner))): path
                for s, path in t.items()
            }

        inside = [_then(seats(t, rename), f"argument {p!r} of {name}()") for t, p in zip(args, params)]
        inner_pc = seats(pc, rename)
        key = (name, tuple(frozenset(t) for t in inside), frozenset(inner_pc))
        if key in self.scope.done:
            return _then(seats(self.scope.done[key], back), f"the value of {name}()")
        if key in self.stack:  # a recursive call with the same secrets: its leaks are being found
            return _union(*inside, inner_pc)
        sub = _Flow(self.scope, resolved, where, home, (*self.stack, key))
        sub.block(program.body, _Env({p: t for p, t in zip(params, inside)}), inner_pc)
        self.leaks += sub.leaks
        self.revealed += sub.revealed
        self.scope.done[key] = sub.result
        return _then(seats(sub.result, back), f"the value of {name}()")


#: The core primitives whose flow is their own (by name), each giving the secrets of the
#: call's value, or None for a call of another form (then it is followed as any primitive).
_CORE_FLOWS: dict[str, Callable[[_Flow, _Use], Taint | None]] = {
    "declassify": _Flow.declassify,
    "count": _Flow.count,
    "event": _Flow.event,
    "move": _Flow.move,
    "put": _Flow.put_or_remove,
    "remove": _Flow.put_or_remove,
    "draw": _Flow.draw,
}


def leaks(
    program: Program,
    scope: Scope,
    visibility: Mapping[str, str],
    flow: FlowScope | None = None,
    locals_taint: Mapping[str, Taint] | None = None,
) -> list[Leak]:
    """The leaks of one program (see the module docstring)."""
    problems, resolved = check(program, scope)
    assert not problems, problems
    found, _ = analyse(program, resolved, flow or FlowScope(visibility), offset_locator(program.text), locals_taint)
    return found


def analyse(
    program: Program,
    resolved: Resolution,
    flow: FlowScope,
    where: Callable[[int], str],
    locals_taint: Mapping[str, Taint] | None = None,
    home: str = "",
) -> tuple[list[Leak], _Flow]:
    """Leaks of ``program`` (checked, with its ``resolved`` names) and the analysis (its
    ``revealed`` declassifications and ``result``, the secrets of its value)."""
    f = _Flow(flow, resolved, where, home)
    f.block(program.body, _Env(dict(locals_taint or {})), {})
    return f.leaks, f


def offset_locator(text: str) -> Callable[[int], str]:
    """``line:column`` of an offset in ``text`` (the checker locates in files instead)."""

    def where(offset: int) -> str:
        line = text.count("\n", 0, offset) + 1
        return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"

    return where


@dataclass
class RulesetFlow:
    """The leaks of a ruleset and its declassifications."""

    leaks: list[Leak]
    revealed: list[Revealed]
    stored: dict[str, set[str]] = field(default_factory=dict)  # state variable -> secret decisions written to it

    def revealed_decisions(self) -> frozenset[str]:
        """The labels of ``secretly`` decisions whose value a ``declassify`` shows, directly
        or after it was kept in a state variable (the runtime probe lets those change what
        the other seats see)."""
        out: set[str] = set()
        for r in self.revealed:
            for s in r.secrets:
                if s.decision is not None:
                    out.add(s.decision)
                if s.var is not None:
                    out |= self.stored.get(s.var, set())
        return frozenset(out)


def ruleset_flow(
    checked: Iterable[Checked],
    visibility: Mapping[str, str],
    secret_reads: Mapping[str, tuple[str, ...]],
    locate: Callable[[str, int], str],
    shape_only: Mapping[str, tuple[str, ...]] | None = None,
) -> RulesetFlow:
    """Follow every root program (main, item code, scoring rules) through the procedures it
    calls. ``locate(ptr, offset)`` names a place (``file:line:column``)."""
    items = list(checked)
    procedures = {
        c.procedure.name: Procedure(c.program, c.resolved, c.procedure.params, _at(locate, c.ptr), c.ptr)
        for c in items
        if c.procedure is not None
    }
    scope = FlowScope(visibility, procedures, secret_reads, dict(shape_only or {}))
    found: list[Leak] = []
    revealed: list[Revealed] = []
    results: dict[str, Taint] = {}
    # item code first: effect()'s value is that of the item code of its field
    for c in sorted((c for c in items if c.root), key=lambda c: c.field is None):
        leaks_, f = analyse(c.program, c.resolved, scope, _at(locate, c.ptr), home=c.ptr)
        found += leaks_
        revealed += f.revealed
        if c.field is not None:
            results[c.field] = _union(results.get(c.field, {}), f.result)
            scope.item_results = results
    unique = list({(k.home, k.offset, k.message): k for k in found}.values())
    return RulesetFlow(unique, revealed, scope.stored)


def _at(locate: Callable[[str, int], str], ptr: str) -> Callable[[int], str]:
    return lambda offset: locate(ptr, offset)
