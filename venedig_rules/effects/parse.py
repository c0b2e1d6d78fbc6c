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
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken


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
    ``player`` (a list) picks at once, ``var`` naming the chooser inside ``options``;
    ``secret``: only the chooser learns what was picked."""

    player: Node
    options: Node
    label: str
    optional: bool = False
    each: str | None = None
    secret: bool = False


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
        self.message = message
        self.offset = offset
        self.expected = expected
        super().__init__(f"{message} at offset {offset}" + self.expecting())

    def expecting(self) -> str:
        return f"; expected {_one_of(self.expected)}" if self.expected else ""

    def describe(self) -> str:
        """The message and what was expected, without the offset (the caller locates it)."""
        return self.message + self.expecting()


@cache
def _parser() -> Lark:
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    # The AST is built while parsing (no parse tree): each node takes its position from its
    # first token or child node.
    return Lark(grammar, parser="lalr", transformer=_Build(), maybe_placeholders=True)


@cache
def parse(text: str) -> Program:
    """Parse DSL text; raises :class:`DslParseError` with the offset and expected tokens."""
    try:
        # the transformer builds the AST while parsing: the result is _Build.start's list
        body = cast("list[Node]", _parser().parse(text))
        return Program(tuple(body), text)
    except UnexpectedInput as exc:
        raise _parse_error(exc, text) from None


_TOKEN_NAMES = {
    "RPAR": "')'",
    "LPAR": "'('",
    "COMMA": "','",
    "SEMICOLON": "';'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "RSQB": "']'",
    "COLON": "':'",
    "EQUAL": "'='",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "$END": "the end",
    "OR_PASS": "'or pass'",
    "ASSIGN_OP": "'=', '+=' or '-='",
    "SECRETLY": "'secretly'",
}
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
    expected = tuple(
        sorted({_token_name(t) for t in getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()})
    )
    if isinstance(exc, UnexpectedCharacters):
        pos = cast(int, exc.pos_in_stream)  # set by UnexpectedCharacters (lark declares it None)
        char = text[pos]
        hint = "; '/' is not an operator: use half_down(x) or half_up(x)" if char == "/" else ""
        return DslParseError(f"unexpected character {char!r}{hint}", pos, expected)
    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        token = exc.token
        start = _pos(token)
        hint = ""
        if token.value == "choose":
            hint = " (a decision ('choose') can only stand alone or be the value of 'let')"
        elif "choose(" in text[:start] and token.value == ",":
            hint = " (a decision is written 'choose PLAYER from OPTIONS')"
        return DslParseError(f"unexpected {token.value!r}{hint}", start, expected)
    return DslParseError("unexpected end of text", len(text), expected)  # UnexpectedEOF, or the $END token


def _pos(item: Token | Node) -> int:
    """Where a token or an AST node starts."""
    if isinstance(item, Token):
        return item.start_pos or 0  # lark's lexer sets it on every token
    return item.pos


#: What a rule of the grammar hands its builder: tokens, nodes built already, None for a
#: missing optional part (and, for a call, (keyword, node) pairs).
_Items = list[Any]


class _Build(Transformer[Token, list[Node]]):
    """Rule by rule, while parsing: tokens and nodes -> AST nodes."""

    def start(self, items: _Items) -> list[Node]:
        return items

    def int(self, items: _Items) -> Const:
        return Const(_pos(items[0]), int(items[0]))

    def string(self, items: _Items) -> Const:
        return Const(_pos(items[0]), _pyast.literal_eval(str(items[0])))

    def true(self, items: _Items) -> Const:
        return Const(_pos(items[0]), True)

    def false(self, items: _Items) -> Const:
        return Const(_pos(items[0]), False)

    def none(self, items: _Items) -> Const:
        return Const(_pos(items[0]), None)

    def name(self, items: _Items) -> Name:
        return Name(_pos(items[0]), str(items[0]))

    def list(self, items: _Items) -> ListExpr:
        bracket, *rest = items
        return ListExpr(_pos(bracket), tuple(i for i in rest if i is not None))

    def call(self, items: _Items) -> Call:
        name, *args = items
        args = [a for a in args if a is not None]
        positional = tuple(a for a in args if not isinstance(a, tuple))
        keywords = tuple(a for a in args if isinstance(a, tuple))
        return Call(_pos(name), str(name), positional, keywords)

    def pos_arg(self, items: _Items) -> Node:
        arg: Node = items[0]
        return arg

    def kw_arg(self, items: _Items) -> tuple[str, Node]:
        return (str(items[0]), items[1])

    def index(self, items: _Items) -> Node:
        node: Node = items[0]
        for idx in items[1:]:
            node = Index(node.pos, node, idx)
        return node

    def _chain(self, op: str, items: _Items) -> Node:
        node: Node = items[0]
        for right in items[1:]:
            node = BinOp(node.pos, op, node, right)
        return node

    def or_(self, items: _Items) -> Node:
        return self._chain("or", items)

    def and_(self, items: _Items) -> Node:
        return self._chain("and", items)

    def not_(self, items: _Items) -> Unary:
        return Unary(_pos(items[0]), "not", items[1])

    def neg(self, items: _Items) -> Unary:
        return Unary(_pos(items[0]), "-", items[1])

    def _ops(self, items: _Items) -> Node:
        node: Node = items[0]
        for i in range(1, len(items), 2):
            op = str(items[i]).strip()
            node = BinOp(node.pos, op, node, items[i + 1])
        return node

    compare = sum = product = lambda self, items: self._ops(items)

    def choose_one(self, items: _Items) -> Choose:
        keyword, player, options, label, optional, secret = items
        return Choose(
            _pos(keyword), player, options, label or "choose", optional is not None, secret=secret is not None
        )

    def choose_each(self, items: _Items) -> Choose:
        keyword, var, players, options, label = items
        return Choose(_pos(keyword), players, options, label or "choose", False, str(var))

    def label(self, items: _Items) -> str:
        label: str = _pyast.literal_eval(str(items[0]))
        return label

    def optional(self, items: _Items) -> bool:
        return True

    def secret(self, items: _Items) -> bool:
        return True

    def let(self, items: _Items) -> Let:
        keyword, name, value = items
        return Let(_pos(keyword), str(name), value)

    def assign(self, items: _Items) -> Assign:
        target, op, value = items
        if isinstance(target, Name):
            return Assign(target.pos, target.name, None, str(op), value)
        if isinstance(target, Index) and isinstance(target.base, Name):
            return Assign(target.pos, target.base.name, target.index, str(op), value)
        raise DslParseError("can only assign to a name or to name[index]", target.pos)

    def expr_stmt(self, items: _Items) -> ExprStmt:
        return ExprStmt(items[0].pos, items[0])

    def choose_stmt(self, items: _Items) -> ExprStmt:
        return ExprStmt(items[0].pos, items[0])

    def break_stmt(self, items: _Items) -> Break:
        return Break(_pos(items[0]))

    def block(self, items: _Items) -> Block:
        brace, *body = items
        return Block(_pos(brace), tuple(body))

    def if_stmt(self, items: _Items) -> If:
        keyword, cond, then, orelse = items
        if isinstance(orelse, If):
            orelse = Block(orelse.pos, (orelse,))
        return If(_pos(keyword), cond, then, orelse)

    def for_stmt(self, items: _Items) -> For:
        keyword, var, iterable, body = items
        return For(_pos(keyword), str(var), iterable, body)

    def repeat_stmt(self, items: _Items) -> Repeat:
        keyword, count, body = items
        return Repeat(_pos(keyword), count, body)


def walk(node: Any) -> Iterator[Node | Program]:
    """Every AST node under ``node`` (itself included), depth first."""
    if isinstance(node, (Node, Program)):
        yield node
        for value in vars(node).values():
            yield from walk(value)
    elif isinstance(node, tuple):
        for item in node:
            yield from walk(item)


def caret(text: str, offset: int) -> str:
    """The DSL line holding ``offset`` with a caret under that character.

    >>> print(caret("let x = 1;\\nshufle(deck)", 11))
        shufle(deck)
        ^
    """
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    line = text[start : end if end >= 0 else len(text)]
    return f"    {line}\n    {' ' * (offset - start)}^"
