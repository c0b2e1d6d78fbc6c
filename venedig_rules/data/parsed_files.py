"""The bundled rule files, parsed ahead of time: a new process that loads a bundled ruleset
reads their data and positions from ``parsed_files.json`` (beside this module) instead of
importing PyYAML and composing each file (a fast start). Its first line indexes the entries
that follow, one a line, so that only the entries of the files read are decoded.

An entry is found by the sha256 of the file's text, so an edited file (or any other file)
is read from its YAML as always; the whole shipped file is ignored once the reader that
made it (:mod:`.positions`, :mod:`.yamlparse`, this module) has changed. ``tests/test_startup.py``
fails while it is stale; :mod:`venedig_rules.engine.startup` writes it anew. Only files
that read without a problem and whose data JSON keeps exactly (mappings with word keys)
are shipped.

>>> from venedig_rules.data.resources import rules_root
>>> from venedig_rules.data.yamlsource import loads
>>> text = (rules_root() / "venedig" / "game.yaml").read_text(encoding="utf-8")
>>> source = shipped_source(text, "game.yaml", "/game")
>>> source == loads(text, "game.yaml", at="/game"), str(source.positions.at("/game/id"))
(True, 'game.yaml:3:5')
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from .positions import Plain, PositionMap, Source
from .resources import rules_root

#: The shipped parses, beside this module.
SHIPPED = Path(__file__).with_name("parsed_files.json")
#: The modules whose code decides what a parse holds and how it is stored.
_READERS = ("positions.py", "yamlparse.py", "parsed_files.py")


def shipped_source(text: str, display: str, at: str = "") -> Source | None:
    """The shipped parse of a rule file with this ``text`` (named ``display`` in locations,
    its data at pointer ``at``), or None when none is shipped for it."""
    body, index = _shipped()
    span = index.get(_digest(text))
    if not (isinstance(span, list) and len(span) == 2):
        return None
    try:
        entry = json.loads(body[span[0] : span[1]])  # only the entries of the files read are decoded
        positions = PositionMap(texts={display: text.splitlines()})
        positions.values = {at + p: (display, line, column) for p, (line, column) in entry["values"].items()}
        positions.keys = {at + p: (display, line, column) for p, (line, column) in entry["keys"].items()}
        positions.spans = {
            at + p: (display, line, column, end_line, style)
            for p, (line, column, end_line, style) in entry["spans"].items()
        }
        return Source(display, entry["data"], positions)
    except (ValueError, TypeError, KeyError, AttributeError):  # a damaged file: the YAML is read instead
        return None


def render() -> str:
    """``parsed_files.json`` as it should be now: every rule file under the bundled rules
    folder that reads without a problem and keeps exactly in JSON."""
    from .yamlparse import compose

    files: dict[str, Any] = {}
    for path in sorted(rules_root().rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        problems: list[Any] = []
        try:
            source = compose(text, path.name, problems)
        except ValueError:  # (a YamlError: the file is read from its YAML, which says why)
            continue
        if problems or not _plain(source.data):
            continue
        p = source.positions
        entry = {
            "data": source.data,
            "values": {ptr: [line, column] for ptr, (_, line, column) in p.values.items()},
            "keys": {ptr: [line, column] for ptr, (_, line, column) in p.keys.items()},
            "spans": {ptr: [line, column, end, style] for ptr, (_, line, column, end, style) in p.spans.items()},
        }
        files[_digest(text)] = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
    # one line of index (each entry's place in the body), then the entries, one a line
    index, body, at = {}, [], 0
    for digest in sorted(files):
        index[digest] = [at, at + len(files[digest])]
        body.append(files[digest])
        at += len(files[digest]) + 1
    header = json.dumps({"readers": readers_sha256(), "index": index}, sort_keys=True, separators=(",", ":"))
    return header + "\n" + "\n".join(body) + "\n"


def readers_sha256() -> str:
    """sha256 over the code of the modules that make a parse."""
    digest = hashlib.sha256()
    for name in _READERS:
        digest.update(Path(__file__).with_name(name).read_bytes())
    return digest.hexdigest()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plain(value: Plain) -> bool:
    """Whether ``value`` comes back from JSON as it is: mappings with word keys, lists,
    words, numbers, booleans and null."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


@cache
def _shipped() -> tuple[str, dict[str, Any]]:
    """The shipped entries' text and the index of their places in it, by text digest;
    none when the file is missing, damaged or was made by other reader code."""
    try:
        text = SHIPPED.read_text(encoding="utf-8")
        header, _, body = text.partition("\n")
        stored = json.loads(header)
    except (OSError, ValueError):
        return "", {}
    if not isinstance(stored, dict) or stored.get("readers") != readers_sha256():
        return "", {}
    index = stored.get("index")
    return body, index if isinstance(index, dict) else {}
