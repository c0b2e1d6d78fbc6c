"""The YAML reader behind :mod:`.yamlsource`: composes a document with PyYAML and builds
its plain data and positions, refusing any tag but plain values, repeated keys and alias
bombs. Imported on first use, so that a process that reads only shipped parses
(:mod:`.parsed_files`) never imports PyYAML.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Collection

import yaml

from ..errors import Location, RulesError, YamlError
from ..limits import MAX_INT
from ..limits import MAX_YAML_DEPTH as MAX_DEPTH
from ..limits import MAX_YAML_NODES as MAX_NODES
from .positions import Plain, PositionMap, Source, Where, pointer

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


def compose(text: str, display: str = "<string>", problems: list[RulesError] | None = None, at: str = "") -> Source:
    """YAML text as plain data with positions (what :func:`.yamlsource.loads` gives)."""
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
        positions.values[at] = (display, 0, 0)
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
        return Location._make(self.where(mark))

    def where(self, mark: yaml.Mark) -> Where:
        """A mark as a position map keeps it."""
        return (self.file, mark.line + 1, mark.column + 1)

    def build(self, node: yaml.Node, ptr: str, depth: int) -> Plain:
        if depth > MAX_DEPTH:
            raise YamlError(f"nesting deeper than {MAX_DEPTH} levels", self.loc(node.start_mark))
        self.positions.values.setdefault(ptr, self.where(node.start_mark))
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
        seen: dict[str, Where] = {}
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
            key_where = self.where(key_node.start_mark)
            if key in seen:
                first = Location._make(seen[key])
                repeated = YamlError(
                    f"duplicate key {key!r} (first given at line {first.line}, column {first.column}; "
                    "expected each key once per mapping)",
                    Location._make(key_where),
                )
                repeated.kept = True
                self.problems.append(repeated)
                continue
            seen[key] = key_where
            child = pointer(ptr, key)
            self.positions.keys[child] = key_where
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
            self.positions.spans[ptr] = (*self.where(node.start_mark), last_line, node.style)
        return value

    def too_large(self, node: yaml.ScalarNode) -> YamlError:
        shown = node.value if len(node.value) <= 24 else f"{node.value[:12]}...{node.value[-6:]}"
        return YamlError(
            f"the number {shown} ({len(node.value)} characters) is too large; "
            f"expected a whole number from -{MAX_INT} to {MAX_INT}",
            self.loc(node.start_mark),
        )
