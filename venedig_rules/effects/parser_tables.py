"""The DSL parser, built once: Lark's LALR tables for ``grammar.lark``, shipped with the
package in ``parser_tables.json`` so that a new process loads them instead of building them.

Building the parser from the grammar (grammar analysis and the LALR tables) costs more than
everything else a ruleset's first load does with the DSL; reading the stored tables costs a
tenth of it. The stored tables name the grammar they were built from (its sha256) and the
lark version that built them: when either differs from the installed ones (``grammar.lark``
was edited, lark moved to another minor version), the parser is built from the grammar as
before, so the tables can be stale but never wrong. ``tests/test_startup.py`` fails while
they are stale; :mod:`venedig_rules.engine.startup` writes them anew.

>>> parser = load_parser(None)
>>> parser.parse("x + 1").data
'start'
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark

#: The grammar, and the file its tables are stored in, both beside this module.
GRAMMAR = "grammar.lark"
TABLES = "parser_tables.json"
#: Lark's options for the DSL: an LALR(1) parser whose missing optional parts are None.
OPTIONS: dict[str, Any] = {"parser": "lalr", "maybe_placeholders": True}


def grammar_text() -> str:
    """The text of ``grammar.lark``."""
    return Path(__file__).with_name(GRAMMAR).read_text(encoding="utf-8")


def grammar_sha256(text: str | None = None) -> str:
    """sha256 of the grammar's text (``grammar.lark`` unless ``text`` is given)."""
    return hashlib.sha256((grammar_text() if text is None else text).encode("utf-8")).hexdigest()


def build(transformer: object | None, grammar: str | None = None) -> Lark:
    """The parser built from the grammar, with ``transformer``'s methods run as each rule
    is reduced (None: a parse tree)."""
    from lark import Lark

    return Lark(grammar_text() if grammar is None else grammar, transformer=transformer, **OPTIONS)


def load_parser(transformer: object | None) -> Lark:
    """The parser from the stored tables when they fit the grammar and the installed lark,
    else built from the grammar (see the module's docstring)."""
    from lark import Lark

    stored = _stored()
    if stored is None or not fits(stored):
        return build(transformer)
    # what Lark.load does with a pickle, and lark's standalone parsers with their tables
    parser = Lark.__new__(Lark)
    return parser._load({"data": stored["data"], "memo": stored["memo"]}, transformer=transformer)


def current() -> bool:
    """Whether the stored tables exist and fit the grammar and the installed lark."""
    stored = _stored()
    return stored is not None and fits(stored)


def fits(stored: dict[str, Any]) -> bool:
    """Whether stored tables were built from this grammar by this minor version of lark."""
    import lark

    return bool(
        stored.get("grammar_sha256") == grammar_sha256() and _minor(stored.get("lark")) == _minor(lark.__version__)
    )


def tables(grammar: str | None = None) -> dict[str, Any]:
    """The tables of the grammar built now, as stored (plain data; see :func:`encode`)."""
    import lark
    from lark.grammar import Rule
    from lark.lark import _LOAD_ALLOWED_OPTIONS
    from lark.lexer import TerminalDef

    text = grammar_text() if grammar is None else grammar
    data, memo = build(None, text).memo_serialize([TerminalDef, Rule])
    # as Lark.save does: options given again when loading (the transformer) are not stored
    data["options"] = {k: v for k, v in data["options"].items() if k not in _LOAD_ALLOWED_OPTIONS}
    return {"grammar_sha256": grammar_sha256(text), "lark": lark.__version__, "data": data, "memo": memo}


def render() -> str:
    """The tables file's text as it should be now."""
    return json.dumps(encode(tables()), separators=(",", ":"), ensure_ascii=False) + "\n"


def path() -> Path:
    """Where the tables are stored: beside this module."""
    return Path(__file__).with_name(TABLES)


# -- JSON for Lark's serialised data: it has tuples and dicts with int keys ----------------------
_TUPLE = "__tuple__"
_ITEMS = "__items__"


def encode(value: Any) -> Any:
    """``value`` as JSON data: a tuple becomes ``{"__tuple__": [...]}``, a dict with keys
    other than strings ``{"__items__": [[key, value], ...]}``; :func:`decode` reverses it.

    >>> decode(json.dumps(encode({1: ("a", [2])})))
    {1: ('a', [2])}
    """
    if isinstance(value, tuple):
        return {_TUPLE: [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and _TUPLE not in value and _ITEMS not in value:
            return {k: encode(v) for k, v in value.items()}
        return {_ITEMS: [[encode(k), encode(v)] for k, v in value.items()]}
    return value


def decode(text: str) -> Any:
    """The data of JSON text that :func:`encode` made."""
    return json.loads(text, object_hook=_decode_object)


def _decode_object(obj: dict[str, Any]) -> Any:
    if _TUPLE in obj:
        return tuple(obj[_TUPLE])
    if _ITEMS in obj:
        return dict(obj[_ITEMS])
    return obj


def _stored() -> dict[str, Any] | None:
    """The stored tables, or None when there are none (a checkout that never wrote them)."""
    try:
        text = path().read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    stored: dict[str, Any] = decode(text)
    return stored


def _minor(version: object) -> tuple[str, ...]:
    return tuple(str(version).split(".")[:2])
