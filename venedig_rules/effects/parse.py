"""Parse effect-DSL text into a small AST whose nodes know their offset in the text.

>>> prog = parse("let n = count(x); n + 1")
>>> [type(s).__name__ for s in prog.body]
['Let', 'ExprStmt']
>>> parse("score(self 6)")
Traceback (most recent call last):
...
venedig_rules.effects.parse.DslParseError: unexpected '6' at offset 11; expected '(', ')', ',', ':' or an operator
"""

from __future__ import annotations

import ast as _pyast
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError


# -- AST --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Node:
    pos: int  # offset of the node's first character in the DSL text


@dataclass(frozen=True)
class Const(Node):
    value: Any


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class ListExpr(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple[Node, ...]
    kwargs: tuple[tuple[str, Node], ...] = ()


@dataclass(frozen=True)
class Index(Node):
    base: Node
    index: Node


@dataclass(frozen=True)
class BinOp(Node):
    op: str  # + - * // % == != < <= > >= in and or
    left: Node
    right: Node


@dataclass(frozen=True)
class Unary(Node):
    op: str  # not, -
    operand: Node


@dataclass(frozen=True)
class Choose(Node):
    """A decision: ``player`` picks one of ``options``; with ``each``, every player of
    ``player`` (a list) picks at once, ``var`` naming the chooser inside ``options``."""

    player: Node
    options: Node
    label: str
    optional: bool = False
    each: str | None = None


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Node  # an expression or a Choose


@dataclass(frozen=True)
class Assign(Node):
    name: str
    index: Node | None
    op: str  # = += -=
    value: Node


@dataclass(frozen=True)
class ExprStmt(Node):
    expr: Node  # an expression or a Choose


@dataclass(frozen=True)
class Break(Node):
    pass


@dataclass(frozen=True)
class Block(Node):
    body: tuple[Node, ...]


@dataclass(frozen=True)
class If(Node):
    cond: Node
    then: Block
    orelse: Block | None


@dataclass(frozen=True)
class For(Node):
    var: str
    iterable: Node
    body: Block


@dataclass(frozen=True)
class Repeat(Node):
    count: Node
    body: Block


@dataclass(frozen=True)
class Program:
    body: tuple[Node, ...]
    text: str = field(repr=False, default="")


# -- parsing ----------------------------------------------------------------------------------
class DslParseError(ValueError):
    """Text that does not parse: ``offset`` into the text and the ``expected`` tokens."""

    def __init__(self, message: str, offset: int, expected: tuple[str, ...] = ()):
        self.message, self.offset, self.expected = message, offset, expected
        super().__init__(f"{message} at offset {offset}" + self.expecting())

    def expecting(self) -> str:
        return f"; expected {_one_of(self.expected)}" if self.expected else ""

    def describe(self) -> str:
        """The message and what was expected, without the offset (the caller locates it)."""
        return self.message + self.expecting()


@cache
def _parser() -> Lark:
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True)


@cache
def parse(text: str) -> Program:
    """Parse DSL text; raises :class:`DslParseError` with the offset and expected tokens."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _parse_error(exc, text) from None
    try:
        return Program(tuple(_Build().transform(tree).children), text)
    except VisitError as exc:
        if isinstance(exc.orig_exc, DslParseError):
            raise exc.orig_exc from None
        raise


_TOKEN_NAMES = {"RPAR": "')'", "LPAR": "'('", "COMMA": "','", "SEMICOLON": "';'", "LBRACE": "'{'",
                "RBRACE": "'}'", "RSQB": "']'", "COLON": "':'", "EQUAL": "'='", "NAME": "a name",
                "INT": "a number", "STRING": "a string", "$END": "the end", "OR_PASS": "'or pass'",
                "ASSIGN_OP": "'=', '+=' or '-='"}
_OPERATORS = {"COMP_OP", "ADD_OP", "MUL_OP", "AND", "OR", "LSQB", "MINUS"}


def _token_name(name: str) -> str:
    if name in _OPERATORS:
        return "an operator"
    if name in _TOKEN_NAMES:
        return _TOKEN_NAMES[name]
    try:
        pattern = _parser().get_terminal(name).pattern.value
    except KeyError:
        return name
    return f"'{pattern}'"


def _one_of(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _parse_error(exc: UnexpectedInput, text: str) -> DslParseError:
    expected = tuple(sorted({_token_name(t) for t in getattr(exc, "expected", None) or
                             getattr(exc, "allowed", None) or ()}))
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        return DslParseError("unexpected end of text", len(text), expected)
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream]
        hint = "; '/' is not an operator: use half_down(x) or half_up(x)" if char == "/" else ""
        return DslParseError(f"unexpected character {char!r}{hint}", exc.pos_in_stream, expected)
    token = exc.token
    hint = ""
    if token.value == "choose":
        hint = " (a decision ('choose') can only stand alone or be the value of 'let')"
    elif "choose(" in text[: token.start_pos] and token.value == ",":
        hint = " (a decision is written 'choose PLAYER from OPTIONS')"
    return DslParseError(f"unexpected {token.value!r}{hint}", token.start_pos, expected)


def _pos(meta_or_token: Any) -> int:
    return getattr(meta_or_token, "start_pos", 0) or 0


@v_args(meta=True)
class _Build(Transformer):
    """Lark tree -> AST nodes."""

    def int(self, meta, items):
        return Const(_pos(meta), int(items[0]))

    def string(self, meta, items):
        return Const(_pos(meta), _pyast.literal_eval(str(items[0])))

    def true(self, meta, items):
        return Const(_pos(meta), True)

    def false(self, meta, items):
        return Const(_pos(meta), False)

    def none(self, meta, items):
        return Const(_pos(meta), None)

    def name(self, meta, items):
        return Name(_pos(meta), str(items[0]))

    def list(self, meta, items):
        return ListExpr(_pos(meta), tuple(i for i in items if i is not None))

    def call(self, meta, items):
        name, *args = items
        args = [a for a in args if a is not None]
        positional = tuple(a for a in args if not isinstance(a, tuple))
        keywords = tuple(a for a in args if isinstance(a, tuple))
        return Call(_pos(meta), str(name), positional, keywords)

    def pos_arg(self, meta, items):
        return items[0]

    def kw_arg(self, meta, items):
        return (str(items[0]), items[1])

    def index(self, meta, items):
        node = items[0]
        for idx in items[1:]:
            node = Index(node.pos, node, idx)
        return node

    def _chain(self, op, items):
        node = items[0]
        for right in items[1:]:
            node = BinOp(node.pos, op, node, right)
        return node

    def or_(self, meta, items):
        return self._chain("or", items)

    def and_(self, meta, items):
        return self._chain("and", items)

    def not_(self, meta, items):
        return Unary(_pos(meta), "not", items[0])

    def neg(self, meta, items):
        return Unary(_pos(meta), "-", items[0])

    def _ops(self, items):
        node = items[0]
        for i in range(1, len(items), 2):
            op = str(items[i]).strip()
            node = BinOp(node.pos, op, node, items[i + 1])
        return node

    compare = sum = product = lambda self, meta, items: self._ops(items)

    def choose_one(self, meta, items):
        player, options, label, optional = items
        return Choose(_pos(meta), player, options, label or "choose", optional is not None)

    def choose_each(self, meta, items):
        var, players, options, label = items
        return Choose(_pos(meta), players, options, label or "choose", False, str(var))

    def label(self, meta, items):
        return _pyast.literal_eval(str(items[0]))

    def optional(self, meta, items):
        return True

    def let(self, meta, items):
        return Let(_pos(meta), str(items[0]), items[1])

    def assign(self, meta, items):
        target, op, value = items
        if isinstance(target, Name):
            return Assign(_pos(meta), target.name, None, str(op), value)
        if isinstance(target, Index) and isinstance(target.base, Name):
            return Assign(_pos(meta), target.base.name, target.index, str(op), value)
        raise DslParseError("can only assign to a name or to name[index]", target.pos)

    def expr_stmt(self, meta, items):
        return ExprStmt(_pos(meta), items[0])

    def choose_stmt(self, meta, items):
        return ExprStmt(_pos(meta), items[0])

    def break_stmt(self, meta, items):
        return Break(_pos(meta))

    def block(self, meta, items):
        return Block(_pos(meta), tuple(items))

    def if_stmt(self, meta, items):
        cond, then, orelse = items
        if isinstance(orelse, If):
            orelse = Block(orelse.pos, (orelse,))
        return If(_pos(meta), cond, then, orelse)

    def for_stmt(self, meta, items):
        return For(_pos(meta), str(items[0]), items[1], items[2])

    def repeat_stmt(self, meta, items):
        return Repeat(_pos(meta), items[0], items[1])


def walk(node: Any):
    """Every AST node under ``node`` (itself included), depth first."""
    if isinstance(node, (Node, Program)):
        yield node
        for value in vars(node).values():
            yield from walk(value)
    elif isinstance(node, tuple):
        for item in node:
            yield from walk(item)
