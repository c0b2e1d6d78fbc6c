"""Where rule data came from: JSON pointers, the positions of every value of a loaded file
(:class:`PositionMap`) and a loaded document (:class:`Source`). No YAML here: the reader
(:mod:`.yamlsource`, :mod:`.yamlparse`) and the shipped parses (:mod:`.parsed_files`)
both make these.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..errors import Location

#: Plain data as read from YAML: a mapping with string keys, a list, a string, a number, a
#: boolean or None, nested. Typed ``Any``, not as the exact union: rule data is checked by the
#: schemas at run time, and its readers index it by what the schema promised.
Plain = Any


def pointer(parent: str, key: str | int) -> str:
    """The JSON pointer (RFC 6901) of ``key`` under ``parent``.

    >>> pointer("/cards", 0), pointer("", "a/b")
    ('/cards/0', '/a~1b')
    """
    text = key if isinstance(key, str) else str(key)
    if "~" in text or "/" in text:
        text = text.replace("~", "~0").replace("/", "~1")
    return f"{parent}/{text}"


def split_pointer(ptr: str) -> list[str]:
    """The unescaped parts of a JSON pointer.

    >>> split_pointer("/a~1b/0")
    ['a/b', '0']
    """
    if not ptr:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in ptr[1:].split("/")]


#: A location as a :class:`PositionMap` keeps it: ``(file, line, column)``, a plain tuple.
#: A ruleset keeps one for every value and key of its files, thousands; the cyclic garbage
#: collector stops walking a plain tuple of strings and numbers the first time it sees one,
#: but walks a named tuple (a :class:`Location`) in every collection of its generation.
Where = tuple[str, int, int]
#: A string scalar's extent as a map keeps it (plain, for the same reason): the fields of
#: :class:`Span`.
StoredSpan = tuple[str, int, int, int, str | None]


class Span(NamedTuple):
    """A string scalar's extent in its file, to locate offsets inside it: where it starts,
    the line it ends on and its YAML style (``|``, ``>``, a quote or None)."""

    file: str
    line: int
    column: int
    end_line: int
    style: str | None

    @property
    def start(self) -> Location:
        """Where the scalar starts."""
        return Location(self.file, self.line, self.column)


class Piece(NamedTuple):
    """Characters ``start`` to ``end`` of a string made of others (a procedure changed by
    step edits) are characters ``offset`` on of the string at the pointer ``ptr + source``."""

    start: int
    end: int
    source: str
    offset: int


@dataclass
class PositionMap:
    """Where each value (by JSON pointer) of some data came from.

    One map may cover several files: a variant's merged data keeps, for every value, the
    file that set it.
    """

    values: dict[str, Where] = field(default_factory=dict)
    keys: dict[str, Where] = field(default_factory=dict)
    spans: dict[str, StoredSpan] = field(default_factory=dict)
    texts: dict[str, list[str]] = field(default_factory=dict)
    #: strings made of pieces of others, each piece located by its own string's span
    pieces: dict[str, list[Piece]] = field(default_factory=dict)

    def at(self, ptr: str) -> Location:
        """Location of the value at ``ptr``, or of its nearest located ancestor."""
        return Location._make(self.where(ptr))

    def where(self, ptr: str) -> Where:
        """:meth:`at` as the map keeps it (to store in another map)."""
        while True:
            loc = self.values.get(ptr)
            if loc is not None:
                return loc
            if not ptr:
                return next(iter(self.values.values()), ("<unknown>", 0, 0))
            ptr = ptr[: ptr.rfind("/")]

    def key_at(self, ptr: str) -> Location:
        """Location of the mapping key whose value is at ``ptr`` (else of the value)."""
        loc = self.keys.get(ptr)
        return self.at(ptr) if loc is None else Location._make(loc)

    def in_scalar(self, ptr: str, offset: int) -> Location:
        """Location of character ``offset`` of the string at ``ptr``, block scalars included.

        >>> from venedig_rules.data.yamlsource import loads
        >>> src = loads("effect: |\\n  score(self,\\n        6)\\n", "x.yaml")
        >>> print(src.positions.in_scalar("/effect", src.data["effect"].index("6")))
        x.yaml:3:9
        """
        pieces = self.pieces.get(ptr)
        if pieces:
            piece = next((p for p in pieces if p.start <= offset < p.end), pieces[-1])
            return self.in_scalar(ptr + piece.source, piece.offset + max(0, offset - piece.start))
        stored = self.spans.get(ptr)
        if stored is None:
            return self.at(ptr)
        span = Span._make(stored)
        lines = self.texts.get(span.file, [])
        for line, col, text in _segments(span, lines):
            if offset <= len(text):
                return Location(span.file, line, col + offset)
            offset -= len(text) + 1
        return span.start

    def update(self, other: PositionMap) -> None:
        """Add every location of ``other`` (which wins where both have one)."""
        self.values.update(other.values)
        self.keys.update(other.keys)
        self.spans.update(other.spans)
        self.texts.update(other.texts)
        self.pieces.update(other.pieces)

    def copy_subtree(self, src: str, value: Plain, dst: str, out: PositionMap) -> None:
        """Copy the locations of ``value`` (at ``src`` here) into ``out`` at ``dst``."""
        for suffix in _suffixes(value):
            s, d = src + suffix, dst + suffix
            if s in self.values:
                out.values[d] = self.values[s]
            if s in self.keys:
                out.keys[d] = self.keys[s]
            if s in self.spans:
                out.spans[d] = self.spans[s]
            for piece in self.pieces.get(s, ()):
                if s + piece.source in self.spans:
                    out.spans[d + piece.source] = self.spans[s + piece.source]
            if s in self.pieces:
                out.pieces[d] = self.pieces[s]
        out.texts.update(self.texts)


@dataclass
class Source:
    """One loaded YAML document: its plain ``data`` and its ``positions``."""

    path: str
    data: Plain
    positions: PositionMap


def _segments(span: Span, lines: list[str]) -> Iterator[tuple[int, int, str]]:
    """(line, column, text) of each source line a string scalar is made of."""
    if span.style in ("|", ">"):
        body = lines[span.line : span.end_line]
        indent = next((len(t) - len(t.lstrip(" ")) for t in body if t.strip()), 0)
        for n, text in enumerate(body, span.line + 1):
            yield n, indent + 1, text[indent:]
        return
    quote = 1 if span.style in ("'", '"') else 0
    first = lines[span.line - 1] if span.line - 1 < len(lines) else ""
    yield span.line, span.column + quote, first[span.column - 1 + quote :]
    for n in range(span.line + 1, span.end_line + 1):
        text = lines[n - 1] if n - 1 < len(lines) else ""
        stripped = text.lstrip(" ")
        yield n, len(text) - len(stripped) + 1, stripped


def _suffixes(value: Plain, prefix: str = "") -> Iterator[str]:
    """The pointer suffix of ``value`` itself and of everything inside it."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _suffixes(v, pointer(prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _suffixes(v, pointer(prefix, i))
