"""YAML with positions: load a rule file into plain data plus where every value came from.

Only plain YAML values are accepted (mappings, sequences, strings, numbers, booleans and
null): any other tag is refused, so a rule file can never build Python objects. A mapping
that repeats a key is an error (plain PyYAML silently keeps the last one), and alias
expansion is bounded so that a "billion laughs" file is refused at once.

>>> src = loads("cards:\\n  - id: casa\\n    count: 10\\n", "cards.yaml")
>>> src.data
{'cards': [{'id': 'casa', 'count': 10}]}
>>> print(src.positions.at("/cards/0/count"))
cards.yaml:3:12
>>> print(src.positions.key_at("/cards/0/count"))
cards.yaml:3:5
"""

from __future__ import annotations

import datetime
import math
import os
import stat
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..errors import Location, RuleFileError, RulesError, YamlError
from ..limits import MAX_FILE_BYTES, MAX_INT, MAX_YAML_DEPTH, MAX_YAML_NODES

#: Plain data as read from YAML: a mapping with string keys, a list, a string, a number, a
#: boolean or None, nested. Typed ``Any``, not as the exact union: rule data is checked by the
#: schemas at run time, and its readers index it by what the schema promised.
Plain = Any

#: Most values one document may expand to; aliases count each time they are expanded.
MAX_NODES = MAX_YAML_NODES
#: Deepest nesting of mappings and sequences.
MAX_DEPTH = MAX_YAML_DEPTH
#: Longest text of a whole number read before it is converted (its value is then checked
#: against ``MAX_INT``): converting a longer one would be slow or fail.
_INT_TEXT = 64

_T = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_T + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_INT_TAG = _T + "int"
_STR_TAG = _T + "str"
_SEQ_TAGS = {_T + "seq"}
_MAP_TAGS = {_T + "map"}
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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


@dataclass(frozen=True)
class _Span:
    """A string scalar's extent in its file, to locate offsets inside it."""

    start: Location
    end_line: int
    style: str | None


@dataclass
class PositionMap:
    """Where each value (by JSON pointer) of some data came from.

    One map may cover several files: a variant's merged data keeps, for every value, the
    file that set it.
    """

    values: dict[str, Location] = field(default_factory=dict)
    keys: dict[str, Location] = field(default_factory=dict)
    spans: dict[str, _Span] = field(default_factory=dict)
    texts: dict[str, list[str]] = field(default_factory=dict)

    def at(self, ptr: str) -> Location:
        """Location of the value at ``ptr``, or of its nearest located ancestor."""
        while True:
            loc = self.values.get(ptr)
            if loc is not None:
                return loc
            if not ptr:
                return next(iter(self.values.values()), Location("<unknown>"))
            ptr = ptr[: ptr.rfind("/")]

    def key_at(self, ptr: str) -> Location:
        """Location of the mapping key whose value is at ``ptr`` (else of the value)."""
        return self.keys.get(ptr) or self.at(ptr)

    def in_scalar(self, ptr: str, offset: int) -> Location:
        """Location of character ``offset`` of the string at ``ptr``, block scalars included.

        >>> src = loads("effect: |\\n  score(self,\\n        6)\\n", "x.yaml")
        >>> print(src.positions.in_scalar("/effect", src.data["effect"].index("6")))
        x.yaml:3:9
        """
        span = self.spans.get(ptr)
        if span is None:
            return self.at(ptr)
        lines = self.texts.get(span.start.file, [])
        for line, col, text in _segments(span, lines):
            if offset <= len(text):
                return Location(span.start.file, line, col + offset)
            offset -= len(text) + 1
        return span.start

    def update(self, other: PositionMap) -> None:
        """Add every location of ``other`` (which wins where both have one)."""
        self.values.update(other.values)
        self.keys.update(other.keys)
        self.spans.update(other.spans)
        self.texts.update(other.texts)

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
        out.texts.update(self.texts)


@dataclass
class Source:
    """One loaded YAML document: its plain ``data`` and its ``positions``."""

    path: str
    data: Plain
    positions: PositionMap


def load(
    path: str | Path, display: str | None = None, problems: list[RulesError] | None = None, at: str = ""
) -> Source:
    """Load a YAML file; ``display`` is the name used in locations (default: ``path``),
    ``at`` the pointer its data gets in ``positions`` (the file's place in a larger whole).

    Raises :class:`~venedig_rules.errors.YamlError`, :class:`~venedig_rules.errors.RuleFileError`
    for what is not a regular file or is larger than ``MAX_FILE_BYTES`` (a pipe or a device
    never blocks the read), ``OSError`` when unreadable and ``UnicodeDecodeError`` when not
    UTF-8. With a ``problems`` list, problems that leave the data usable (a repeated key:
    the first value is kept) are appended to it instead of raised.
    """
    shown = display or str(path)
    return loads(read_text(path, shown), shown, problems, at)


def read_text(path: str | Path, display: str) -> str:
    """The UTF-8 text of a regular file of at most ``MAX_FILE_BYTES``; ``display`` names it in errors.

    The file is opened without blocking and checked before anything is read, so a pipe or a
    device such as ``/dev/zero`` is refused at once.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise RuleFileError(
                "not a regular file (a folder, pipe or device?); expected a rule file", Location(display)
            )
        content = file.read(MAX_FILE_BYTES + 1)
    if len(content) > MAX_FILE_BYTES:
        raise RuleFileError(
            f"the file is larger than {MAX_FILE_BYTES} bytes, the most a rule file may hold", Location(display)
        )
    return content.decode("utf-8")


def loads(text: str, display: str = "<string>", problems: list[RulesError] | None = None, at: str = "") -> Source:
    """Load YAML text; ``display`` names it in locations. Empty text loads as ``None``.

    ``problems`` and ``at`` as in :func:`load`.
    """
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark, ctx = exc.problem_mark or exc.context_mark, exc.context_mark
        where = Location(display, mark.line + 1, mark.column + 1) if mark else Location(display)
        what = exc.problem or ""
        if exc.context:
            start = f" that starts at line {ctx.line + 1}, column {ctx.column + 1}" if ctx else ""
            what += f" ({exc.context}{start})"
        raise YamlError(f"not valid YAML: {what}", where) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"not valid YAML: {exc}", Location(display)) from None
    except RecursionError:  # the pure-Python composer (no libyaml) recurses per level
        raise YamlError(f"nesting deeper than {MAX_DEPTH} levels", Location(display)) from None
    positions = PositionMap(texts={display: text.splitlines()})
    if node is None:  # empty, or comments only: the whole file is the place of any problem
        positions.values[at] = Location(display)
        return Source(display, None, positions)
    if "&" in text:  # an anchor, so maybe aliases: measure what they expand to first
        _check_expansion(node, display)
    builder = _Builder(display, positions)
    data = builder.build(node, at, 0)
    if problems is None and builder.problems:
        raise builder.problems[0]
    if problems is not None:
        problems.extend(builder.problems)
    return Source(display, data, positions)


def _check_expansion(root: yaml.Node, file: str) -> None:
    """Refuse a document whose aliases would expand past ``MAX_NODES`` values, before
    expanding anything; names the innermost mapping or list that is too large."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: yaml.Node, depth: int) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in active or depth > MAX_DEPTH:
            raise YamlError(
                f"nesting deeper than {MAX_DEPTH} levels (a recursive alias?)",
                Location(file, node.start_mark.line + 1, node.start_mark.column + 1),
            )
        active.add(key)
        total = 1
        if isinstance(node, yaml.MappingNode):
            total += sum(size(k, depth + 1) + size(v, depth + 1) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            total += sum(size(v, depth + 1) for v in node.value)
        active.discard(key)
        sizes[key] = total
        return total

    node = root
    if size(root, 0) <= MAX_NODES:
        return
    while True:
        children = [v for kv in node.value for v in kv] if isinstance(node, yaml.MappingNode) else list(node.value)
        big = next((c for c in children if sizes.get(id(c), 0) > MAX_NODES), None)
        if big is None:
            break
        node = big
    raise YamlError(
        f"aliases expand to more than {MAX_NODES} values; refusing the file (expected plain data without alias bombs)",
        Location(file, node.start_mark.line + 1, node.start_mark.column + 1),
    )


class _Builder:
    """Turns a composed node tree into plain data, recording positions."""

    def __init__(self, file: str, positions: PositionMap):
        self.file = file
        self.positions = positions
        self.problems: list[YamlError] = []
        self.constructor = yaml.SafeLoader("")

    def loc(self, mark: yaml.Mark) -> Location:
        return Location(self.file, mark.line + 1, mark.column + 1)

    def build(self, node: yaml.Node, ptr: str, depth: int) -> Plain:
        if depth > MAX_DEPTH:
            raise YamlError(f"nesting deeper than {MAX_DEPTH} levels", self.loc(node.start_mark))
        self.positions.values.setdefault(ptr, self.loc(node.start_mark))
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, ptr, depth)
        if isinstance(node, yaml.SequenceNode):
            self.check_tag(node, _SEQ_TAGS)
            return [self.build(item, pointer(ptr, i), depth + 1) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)  # composing makes mappings, sequences and scalars only
        return self.scalar(node, ptr)

    def check_tag(self, node: yaml.Node, allowed: Collection[str]) -> None:
        if node.tag not in allowed:
            tag = node.tag.replace(_T, "!!")
            raise YamlError(
                f"tag {tag!r} is not allowed (expected plain YAML values: "
                "mappings, lists, strings, numbers, booleans, null)",
                self.loc(node.start_mark),
            )

    def mapping(self, node: yaml.MappingNode, ptr: str, depth: int) -> dict[str, Plain]:
        self.check_tag(node, _MAP_TAGS)
        out: dict[str, Plain] = {}
        seen: dict[str, Location] = {}
        merged: list[yaml.Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == _T + "merge":
                merged.extend(value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node])
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlError(
                    "a mapping key must be a plain word, not a list or mapping", self.loc(key_node.start_mark)
                )
            self.check_tag(key_node, _SCALAR_TAGS)
            key = key_node.value
            key_loc = self.loc(key_node.start_mark)
            if key in seen:
                first = seen[key]
                repeated = YamlError(
                    f"duplicate key {key!r} (first given at line {first.line}, column {first.column}; "
                    "expected each key once per mapping)",
                    key_loc,
                )
                repeated.kept = True
                self.problems.append(repeated)
                continue
            seen[key] = key_loc
            child = pointer(ptr, key)
            self.positions.keys[child] = key_loc
            out[key] = self.build(value_node, child, depth + 1)
        for source in merged:  # YAML merge keys ("<<: *base"): explicit keys win
            if not isinstance(source, yaml.MappingNode):
                raise YamlError("'<<' must merge a mapping", self.loc(source.start_mark))
            for key, value in self.build(source, ptr, depth + 1).items():
                out.setdefault(key, value)
        return out

    def scalar(self, node: yaml.ScalarNode, ptr: str) -> Plain:
        self.check_tag(node, _SCALAR_TAGS)
        if node.tag == _STR_TAG:
            value: Plain = node.value
        elif node.tag == _INT_TAG and len(node.value) > _INT_TEXT:
            raise self.too_large(node)
        else:
            value = self.constructor.yaml_constructors[node.tag](self.constructor, node)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
            raise self.too_large(node)
        if isinstance(value, (datetime.date, datetime.datetime)):
            value = node.value
        if isinstance(value, float) and not math.isfinite(value):
            raise YamlError(f"{node.value!r} is not a finite number", self.loc(node.start_mark))
        if isinstance(value, str):
            end = node.end_mark  # a block scalar ends at column 0 of the line after it
            last_line = end.line + (1 if end.column > 0 else 0)
            self.positions.spans[ptr] = _Span(self.loc(node.start_mark), last_line, node.style)
        return value

    def too_large(self, node: yaml.ScalarNode) -> YamlError:
        shown = node.value if len(node.value) <= 24 else f"{node.value[:12]}...{node.value[-6:]}"
        return YamlError(
            f"the number {shown} ({len(node.value)} characters) is too large; "
            f"expected a whole number from -{MAX_INT} to {MAX_INT}",
            self.loc(node.start_mark),
        )


def _segments(span: _Span, lines: list[str]) -> Iterator[tuple[int, int, str]]:
    """(line, column, text) of each source line a string scalar is made of."""
    start = span.start
    if span.style in ("|", ">"):
        body = lines[start.line : span.end_line]
        indent = next((len(t) - len(t.lstrip(" ")) for t in body if t.strip()), 0)
        for n, text in enumerate(body, start.line + 1):
            yield n, indent + 1, text[indent:]
        return
    quote = 1 if span.style in ("'", '"') else 0
    first = lines[start.line - 1] if start.line - 1 < len(lines) else ""
    yield start.line, start.column + quote, first[start.column - 1 + quote :]
    for n in range(start.line + 1, span.end_line + 1):
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
