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
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    # lark is imported when the first text is parsed, not with the package (a fast start)
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput

from ..limits import MAX_DSL_DEPTH, MAX_INT

#: Longest number text converted before its value is checked against ``MAX_INT``.
_INT_TEXT = 20


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
    # The AST is built while parsing (no parse tree): each node takes its position from its
    # first token or child node. The parser's tables are stored with the package (see
    # parser_tables).
    from .parser_tables import load_parser

    return load_parser(_Build())


@cache
def parse(text: str) -> Program:
    """Parse DSL text; raises :class:`DslParseError` with the offset and expected tokens.

    The texts of the bundled rulesets were parsed when the package was made (see
    :data:`PARSED`): their ASTs are read, not parsed again."""
    shipped = _shipped().get(text)
    if isinstance(shipped, str):
        try:
            return Program(decode(json.loads(shipped)), text)
        except (ValueError, TypeError, KeyError, AttributeError):  # a damaged entry: parsed instead
            pass
    return parse_text(text)


def parse_text(text: str) -> Program:
    """Parse DSL text with the parser, never from what was shipped (as :func:`parse`)."""
    from lark.exceptions import UnexpectedInput

    try:
        # the transformer builds the AST while parsing: the result is _Build.start's list
        body = cast("list[Node]", _parser().parse(text))
    except UnexpectedInput as exc:
        raise _parse_error(exc, text) from None
    program = Program(tuple(body), text)
    deepest = _too_deep(program)
    if deepest is not None:
        raise DslParseError(
            f"nested deeper than {MAX_DSL_DEPTH} levels; expected simpler parts (name them with 'let')", deepest.pos
        )
    return program


def _too_deep(program: Program) -> Node | None:
    """The first node nested deeper than ``MAX_DSL_DEPTH`` (found without recursion: the
    checker and the compiler recurse, and may, below that depth)."""
    stack: list[tuple[Any, int]] = [(node, 1) for node in program.body]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, tuple):
            stack.extend((item, depth) for item in value)
        elif isinstance(value, Node):
            if depth > MAX_DSL_DEPTH:
                return value
            stack.extend((child, depth + 1) for child in vars(value).values())
    return None


# -- the parses of the bundled rulesets' texts, shipped with the package ---------------------------
#: The shipped parses, beside this module: ``{"fingerprint": ..., "programs": {text: encoded
#: body}}``, written by :mod:`venedig_rules.engine.startup`. They are used only while their
#: fingerprint is this grammar's and this module's: stale, they are ignored, never wrong.
#: Each encoded body is kept as its JSON text and decoded when its program is first parsed:
#: a process keeps a string per program, not the lists and dictionaries of every bundled
#: ruleset's code, which the cyclic garbage collector would walk in each full collection.
PARSED = "parsed_bundled.json"


def parsed_path() -> Path:
    """Where the shipped parses are: :data:`PARSED` beside this module."""
    return Path(__file__).with_name(PARSED)


def fingerprint() -> str:
    """sha256 of what a parse depends on: the grammar and this module (its AST classes and the
    builder); "" when this module's source cannot be read (then nothing shipped is used)."""
    from .parser_tables import grammar_text

    try:
        source = Path(__file__).with_name("parse.py").read_text(encoding="utf-8")  # (also in a compiled build)
    except OSError:
        return ""
    return hashlib.sha256(f"{grammar_text()}\0{source}".encode()).hexdigest()


def encode(node: Any) -> Any:
    """An AST (a node, or a tuple of nodes) as JSON data: a node is ``{class name: [fields]}``,
    a tuple a list; :func:`decode` reverses it.

    >>> body = parse("let x = [1, 'a']; f(x, n: -x)").body
    >>> decode(encode(body)) == body
    True
    """
    if isinstance(node, Node):
        return {type(node).__name__: [encode(getattr(node, f.name)) for f in fields(node)]}
    if isinstance(node, tuple):
        return [encode(item) for item in node]
    return node


def decode(data: Any) -> Any:
    """The AST that :func:`encode` wrote as ``data``."""
    if isinstance(data, dict):
        ((name, values),) = data.items()
        return _NODE_CLASSES[name](*[decode(v) for v in values])
    if isinstance(data, list):
        return tuple(decode(item) for item in data)
    return data


@cache
def _shipped() -> dict[str, str]:
    """The shipped parses by text, when they were made from this grammar and this module."""
    try:
        stored = json.loads(parsed_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(stored, dict) or stored.get("fingerprint") != fingerprint() or not fingerprint():
        return {}
    programs: dict[str, str] = stored.get("programs") or {}
    return programs


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
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

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
    if isinstance(item, Node):
        return item.pos
    return item.start_pos or 0  # lark's lexer sets it on every token


#: What a rule of the grammar hands its builder: tokens, nodes built already, None for a
#: missing optional part (and, for a call, (keyword, node) pairs).
_Items = list[Any]


class _Build:
    """Rule by rule, while parsing: tokens and nodes -> AST nodes. (Lark calls the method
    named after each rule; a plain class, not a lark Transformer, so that defining it needs
    no lark.)"""

    def start(self, items: _Items) -> list[Node]:
        return items

    def int(self, items: _Items) -> Const:
        token = items[0]
        if len(token) > _INT_TEXT or int(token) > MAX_INT:
            shown = token if len(token) <= 24 else f"{token[:12]}...{token[-6:]}"
            raise DslParseError(
                f"the number {shown} ({len(token)} digits) is too large; expected at most {MAX_INT}", _pos(token)
            )
        return Const(_pos(token), int(token))

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


#: The AST's node classes by name, for :func:`decode`.
_NODE_CLASSES: dict[str, type[Node]] = {cls.__name__: cls for cls in Node.__subclasses__()}


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
