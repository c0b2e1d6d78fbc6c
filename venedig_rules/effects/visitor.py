"""One walker for the DSL's syntax tree, which every pass over it subclasses.

:meth:`NodeVisitor.visit` hands a node to the method named after its class
(``visit_Let``, ``visit_Call``, ...) with whatever else the pass carries (an environment, a
loop depth); a class the pass has no method for goes to :meth:`NodeVisitor.generic_visit`,
which visits the node's children. A pass names only the node classes it decides about: the
name checker, the constant folder, the reads pass, the information-flow checker, the
declaration checks and the compiler all walk the tree this way.

>>> from venedig_rules.effects.parse import parse
>>> class Names(NodeVisitor):
...     def __init__(self) -> None:
...         self.seen: list[str] = []
...     def visit_Name(self, node):
...         self.seen.append(node.name)
>>> names = Names()
>>> for statement in parse("let x = a + f(b, c: [d]); if x { e }").body:
...     names.visit(statement)
>>> names.seen
['a', 'b', 'd', 'x', 'e']

A pass that walks the same statements twice in two ways (the compiler writes a statement
as native Python or as resumable cases) names the second family with another prefix and
dispatches with :meth:`NodeVisitor.visitor`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .parse import Node


def children(node: Node) -> Iterator[Node]:
    """The nodes directly below ``node``, in the order of its fields (a call's keyword
    values too, and a block's statements)."""
    for value in vars(node).values():
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            yield from _nodes_in(value)


def _nodes_in(values: tuple[Any, ...]) -> Iterator[Node]:
    # a tuple field holds nodes (arguments, statements) or (keyword, node) pairs
    for value in values:
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            yield from _nodes_in(value)


def walk(nodes: Node | tuple[Node, ...]) -> Iterator[Node]:
    """Every node at and below ``nodes`` (a node, or a program's body), depth first, each
    before its children.

    >>> from venedig_rules.effects.parse import parse
    >>> [type(n).__name__ for n in walk(parse("let x = f(1)").body)]
    ['Let', 'Call', 'Const']
    """
    stack = [nodes] if isinstance(nodes, Node) else list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(tuple(children(node))))


class NodeVisitor:
    """Base of every pass over the tree: ``visit(node, *args)`` calls
    ``visit_<node's class name>(node, *args)``, else ``generic_visit(node, *args)``.

    The passes run when a ruleset is loaded and compiled, never while a game is played, so
    looking the method up by name on every visit costs nothing that matters."""

    def visit(self, node: Node, *args: Any) -> Any:
        """What the pass makes of ``node`` (its ``visit_<Class>`` method's result)."""
        return self.visitor(node)(node, *args)

    def visitor(self, node: Node, prefix: str = "visit_") -> Callable[..., Any]:
        """The method for ``node``: ``<prefix><node's class name>``, else :meth:`generic_visit`."""
        method: Callable[..., Any] | None = getattr(self, prefix + node.__class__.__name__, None)
        return self.generic_visit if method is None else method

    def generic_visit(self, node: Node, *args: Any) -> Any:
        """A node the pass has no method for: visit its children with the same ``args``."""
        for child in children(node):
            self.visit(child, *args)
        return None
