"""What a new process reads instead of computing, so that importing the package and loading
a bundled ruleset is fast: four files shipped in the package, written ahead of time.

- ``effects/parser_tables.json``: the DSL parser's LALR tables (:mod:`~venedig_rules.effects.parser_tables`)
- ``data/validated.json``: the hashes of the bundled configurations' data that passed every
  check: the schemas, across files and the DSL's (:mod:`~venedig_rules.data.validated`)
- ``effects/parsed_bundled.json``: the bundled configurations' DSL texts, parsed
  (:data:`~venedig_rules.effects.parse.PARSED`)
- ``data/parsed_files.json``: the bundled rule files' data and positions, so that PyYAML is
  neither imported nor run (:mod:`~venedig_rules.data.parsed_files`)

Each names what it was made from (the grammar, the schemas, the data, the parsers' code) and
is used only while that is unchanged, so a stale file costs time, never correctness.
``tests/test_startup.py`` fails while one is stale. After changing a bundled rule file, a
schema, the grammar, ``effects/parse.py`` or the YAML reader, write them anew::

    python -m venedig_rules.engine.startup

>>> sorted(item.path.name for item in shipped())
['parsed_bundled.json', 'parsed_files.json', 'parser_tables.json', 'validated.json']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ..data import parsed_files, validated
from ..data.reading import RawRules, read
from ..effects import _dsl_sources, parser_tables
from ..effects.parse import DslParseError, encode, fingerprint, parse_text, parsed_path
from ..errors import InvalidRulesError
from .loading import finish


def render_parsed() -> str:
    """``parsed_bundled.json`` as it should be now: every DSL text of every bundled
    configuration that parses, with its AST."""
    programs = {}
    for name, variants in validated.configurations():
        for _, text, _ in _dsl_sources(read(name, variants).data):
            try:
                programs[text] = json.dumps(encode(parse_text(text).body), separators=(",", ":"))
            except DslParseError:
                continue
    return (
        json.dumps({"fingerprint": fingerprint(), "programs": programs}, sort_keys=True, separators=(",", ":")) + "\n"
    )


def render_validated() -> str:
    """``validated.json`` as it should be now: the bundled configurations that pass every
    check, the DSL's included."""
    return validated.render(_dsl_clean)


def _dsl_clean(raw: RawRules) -> bool:
    try:
        finish(raw, trust_validated=False)
    except InvalidRulesError:
        return False
    return True


class Shipped(NamedTuple):
    """A shipped file: where it is, how to make its text now, and whether it is current."""

    path: Path
    render: Callable[[], str]
    current: Callable[[], bool]


def shipped() -> list[Shipped]:
    """The shipped files."""
    return [
        # the tables' text differs from build to build (lark numbers its states in set order):
        # they are current when made from this grammar by this minor version of lark
        Shipped(parser_tables.path(), parser_tables.render, parser_tables.current),
        _by_text(validated.MANIFEST, render_validated),
        _by_text(parsed_path(), render_parsed),
        _by_text(parsed_files.SHIPPED, parsed_files.render),
    ]


def _by_text(path: Path, render: Callable[[], str]) -> Shipped:
    """A shipped file that is current when its text is what ``render`` gives now."""
    return Shipped(path, render, lambda: _same_text(path, render))


def stale() -> list[Path]:
    """The shipped files that are not current."""
    return [item.path for item in shipped() if not item.current()]


def write() -> list[Path]:
    """Write anew every shipped file that is not current; returns their paths."""
    written = []
    for item in shipped():
        if not item.current():
            item.path.write_text(item.render(), encoding="utf-8")
            written.append(item.path)
    return written


def _same_text(path: Path, render: Callable[[], str]) -> bool:
    return path.is_file() and path.read_text(encoding="utf-8") == render()


if __name__ == "__main__":
    print("\n".join(f"wrote {path}" for path in write()) or "every shipped file is current")
