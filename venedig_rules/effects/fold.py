"""What a checked DSL program would do that can be known before it runs: the values of its
constant expressions (literals, game constants and arithmetic on them), and the problems
they show, as located problems at ``validate``: a division by a constant zero
(``dsl/value``), a ``repeat`` count or a ``range`` past its limit, nested loops whose
constant counts multiply past ``MAX_REPEAT``, and a number past ``MAX_INT`` (``dsl/limit``).

What depends on the game (state, players, choices) is not known here; the engine's budgets
catch it in play.

>>> from venedig_rules.effects.check import Scope, check
>>> from venedig_rules.effects.parse import parse
>>> program = parse("let x = 5 // 0; repeat 1000000 { x = 1 }; range(0, 10000 * 10000)")
>>> _, resolved = check(program, Scope())
>>> for p in constant_problems(program, resolved):
...     print(p.offset, p.code, p.message)
13 dsl/value '//' by zero: the right side is always 0
16 dsl/limit 'repeat' runs 1000000 times; at most 100000 (a loop in play stops there too)
42 dsl/limit range(0, 100000000) would hold 100000000 numbers; at most 10000
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..limits import MAX_INT, MAX_RANGE, MAX_REPEAT
from .check import ConstantValue, PrimitiveCall, Problem, Resolution
from .visitor import NodeVisitor, children

if TYPE_CHECKING:
    # only annotations name these
    from .parse import Assign, BinOp, Block, Call, Const, For, If, ListExpr, Name, Node, Program, Repeat, Unary

#: A value the program only knows in play.
UNKNOWN: Any = object()


def constant_problems(program: Program, resolved: Resolution) -> list[Problem]:
    """The problems of ``program`` (checked, with its ``resolved`` names) that its constants show."""
    folder = _Folder(resolved)
    for stmt in program.body:
        folder.visit(stmt, 1)
    return folder.problems


class _Folder(NodeVisitor):
    """Statements are visited with ``runs``, how often the loops around them run (None:
    not known); expressions without, giving their value or ``UNKNOWN``."""

    def __init__(self, resolved: Resolution):
        self.resolved = resolved
        self.problems: list[Problem] = []
        self.values: dict[int, Any] = {}  # id(node) -> value, each expression folded once

    def problem(self, node: Node, code: str, message: str) -> None:
        self.problems.append(Problem(node.pos, code, message))

    # -- statements: ``runs`` is how often the enclosing loops run them, when known --------
    def visit_If(self, node: If, runs: int | None) -> None:
        self.value(node.cond)
        self.block(node.then, runs)
        if node.orelse is not None:
            self.block(node.orelse, runs)

    def visit_Repeat(self, node: Repeat, runs: int | None) -> None:
        count = self.value(node.count)
        if not _is_int(count):
            self.block(node.body, None)
        elif count > MAX_REPEAT:
            self.problem(
                node,
                "dsl/limit",
                f"'repeat' runs {count} times; at most {MAX_REPEAT} (a loop in play stops there too)",
            )
            self.block(node.body, None)
        else:
            self.block(node.body, self.nested(node, runs, count))

    def visit_For(self, node: For, runs: int | None) -> None:
        items = self.value(node.iterable)
        self.block(node.body, self.nested(node, runs, len(items)) if isinstance(items, tuple) else None)

    def visit_Assign(self, node: Assign, runs: int | None) -> None:
        self.value(node.value)  # the value first, as the program runs it
        if node.index is not None:
            self.value(node.index)

    def generic_visit(self, node: Node, *args: Any) -> Any:
        """A statement without a block (``let``, an assignment, an expression): the values of
        its parts; an expression whose value is not folded (an index, a decision): the
        values of its parts, and it is ``UNKNOWN``."""
        for child in children(node):
            self.value(child)
        return UNKNOWN

    def block(self, block: Block, runs: int | None) -> None:
        for stmt in block.body:
            self.visit(stmt, runs)

    def nested(self, loop: Node, runs: int | None, count: int) -> int | None:
        """How often a loop's body runs, inside loops that run ``runs`` times."""
        if runs is None:
            return None
        total = runs * count
        if total > MAX_REPEAT and count > 1 and runs > 1:
            self.problem(
                loop,
                "dsl/limit",
                f"nested loops would run this loop's body {total} times; at most {MAX_REPEAT} in one go",
            )
            return None
        return total

    # -- expressions -----------------------------------------------------------------------
    def value(self, node: Node) -> Any:
        """The value of expression ``node`` when it is known before play, else ``UNKNOWN``
        (every part of it is looked at either way, for the problems inside)."""
        key = id(node)
        if key not in self.values:
            self.values[key] = self.visit(node)
        return self.values[key]

    def visit_Const(self, node: Const) -> Any:
        return node.value

    def visit_Name(self, node: Name) -> Any:
        return _constant(self.resolved.get(id(node)))

    def visit_ListExpr(self, node: ListExpr) -> Any:
        items = tuple(self.value(item) for item in node.items)
        return UNKNOWN if any(item is UNKNOWN for item in items) else items

    def visit_Unary(self, node: Unary) -> Any:
        operand = self.value(node.operand)
        return -operand if node.op == "-" and _is_int(operand) else UNKNOWN

    def visit_BinOp(self, node: BinOp) -> Any:
        left, right = self.value(node.left), self.value(node.right)
        op = node.op
        if op in ("//", "%") and _is_int(right) and right == 0:
            self.problem(node.right, "dsl/value", f"{op!r} by zero: the right side is always 0")
            return UNKNOWN
        if not (_is_int(left) and _is_int(right)) or op not in ("+", "-", "*", "//", "%"):
            return UNKNOWN
        result = {"+": left + right, "-": left - right, "*": left * right}.get(op)
        if result is None:
            result = left // right if op == "//" else left % right
        return self.too_large(node, result) if abs(result) > MAX_INT else result

    def too_large(self, node: Node, result: int) -> Any:
        # both sides are at most MAX_INT (literals, constants, folded parts): the result has ~32 digits at most
        self.problem(node, "dsl/limit", f"this is {result}, past {MAX_INT}, the largest number allowed")
        return UNKNOWN

    def visit_Call(self, node: Call) -> Any:
        args = [self.value(arg) for arg in node.args]
        for _, value in node.kwargs:
            self.value(value)
        resolved = self.resolved.get(id(node))
        name = resolved.primitive.name if isinstance(resolved, PrimitiveCall) else None
        if name == "div" and len(args) == 2 and _is_int(args[1]) and args[1] == 0:
            self.problem(node.args[1], "dsl/value", "div() by zero: the divisor is always 0")
        if name == "range" and len(args) == 2 and _is_int(args[0]) and _is_int(args[1]):
            low, high = args
            if high - low > MAX_RANGE:
                self.problem(
                    node, "dsl/limit", f"range({low}, {high}) would hold {high - low} numbers; at most {MAX_RANGE}"
                )
                return UNKNOWN
            return tuple(range(low, high))
        return UNKNOWN


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _constant(resolved: Any) -> Any:
    """The value of a name, when it is a game constant with one value for every player count."""
    if not isinstance(resolved, ConstantValue):
        return UNKNOWN
    value = resolved.value
    if isinstance(value, dict):
        if "by_players" in value:
            return UNKNOWN
        value = value.get("value")
    return value if value is None or isinstance(value, (int, str)) else UNKNOWN
