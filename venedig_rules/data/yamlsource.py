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

import os
import stat
from pathlib import Path

from ..errors import Location, RuleFileError, RulesError
from ..limits import MAX_FILE_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES
from .positions import Plain, PositionMap, Source, Span, pointer, split_pointer

__all__ = [
    "MAX_DEPTH",
    "MAX_NODES",
    "Plain",
    "PositionMap",
    "Source",
    "Span",
    "load",
    "loads",
    "pointer",
    "read_text",
    "split_pointer",
]

#: Most values one document may expand to; aliases count each time they are expanded.
MAX_NODES = MAX_YAML_NODES
#: Deepest nesting of mappings and sequences.
MAX_DEPTH = MAX_YAML_DEPTH


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
    text = read_text(path, shown)
    from .parsed_files import shipped_source

    return shipped_source(text, shown, at) or loads(text, shown, problems, at)


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

    ``problems`` and ``at`` as in :func:`load`. (PyYAML is imported here, on first use: a
    bundled rule file as shipped is read from its parse, :mod:`.parsed_files`.)
    """
    from .yamlparse import compose

    return compose(text, display, problems, at)
