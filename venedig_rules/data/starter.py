"""A starter variant file: what ``venedig-rules new-variant GAME FILE`` writes.

The file extends ``GAME``, has an id equal to its name, a ``$schema`` line an editor follows
to ``schemas/variant.schema.json`` (which checks the overlay's keys and values as they are
typed), and the base's constants as commented-out lines to start from.

>>> text = starter_text("venedig", Path("big_hands.yaml"))
>>> first = text.splitlines()[0]
>>> first.startswith("# yaml-language-server: $schema="), first.endswith("schemas/variant.schema.json")
(True, True)
>>> "id: big_hands" in text and "#       hand_limit: {value: 5}" in text
True
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ..errors import UnknownRulesetError
from .reading import _resolve, read
from .resources import schemas_root

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_NOTE_WIDTH = 70


def starter_text(game: str | Path, file: Path) -> str:
    """The text of a new variant file ``file`` extending ``game`` (a bundled id, a ruleset
    folder or a variant); raises UnknownRulesetError when ``game`` names nothing or the file
    name is not an id."""
    ident = file.stem
    if file.suffix != ".yaml" or not _ID.match(ident):
        raise UnknownRulesetError(
            f"a variant file is named <id>.yaml, its id lower case letters, digits and '_', starting with a letter; "
            f"got {file.name!r}"
        )
    base = _resolve(game)
    bundled = isinstance(game, str) and "/" not in game and base.parent.name == "rules"
    extends = str(game) if bundled else _relative(base, file.parent)
    raw = read(game)
    lines = [
        f"# yaml-language-server: $schema={_relative(schemas_root() / 'variant.schema.json', file.parent)}",
        f"# A variant of {raw.base_id}: change what you need under overlay (docs/variants.md), then",
        f"#   venedig-rules validate {file.name} --play 5",
        f"#   venedig-rules simulate {file.name} --games 200 --against {extends}",
        f"extends: {extends}",
        f"id: {ident}",
        f"title: {ident.replace('_', ' ').capitalize()}",
        "description: What this variant changes, and why.",
        "provenance: assumed",
        "overlay: {}",
        '# To change constants, replace "overlay: {}" above by these lines, uncommented, keeping',
        "# only the constants you change (each item list is patched by id: see docs/variants.md):",
        "# overlay:",
        "#   game:",
        "#     constants:",
    ]
    constants = (raw.data.get("game") or {}).get("constants") or {}
    lines += [_constant_line(name, const) for name, const in constants.items()]
    return "\n".join(lines) + "\n"


def write_starter(game: str | Path, file: Path, force: bool = False) -> Path:
    """Write :func:`starter_text` to ``file`` (refusing to replace a file unless ``force``)."""
    if file.exists() and not force:
        raise UnknownRulesetError(f"{file} exists; give another name (or --force to replace it)")
    text = starter_text(game, file)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def _constant_line(name: str, const: Any) -> str:
    if isinstance(const, dict) and "by_players" in const:
        value = f"{{by_players: {json.dumps(const['by_players'], ensure_ascii=False)}}}"
    else:
        plain = const.get("value") if isinstance(const, dict) else const
        value = f"{{value: {json.dumps(plain, ensure_ascii=False)}}}"
    about = const.get("description", "") if isinstance(const, dict) else ""
    about = " ".join(str(about).split())
    about = about if len(about) <= _NOTE_WIDTH else about[: _NOTE_WIDTH - 3] + "..."
    return f"#       {name}: {value}" + (f"   # {about}" if about else "")


def _relative(target: Path, start: Path) -> str:
    """``target`` relative to folder ``start`` (absolute when no relative path exists)."""
    try:
        return Path(os.path.relpath(target.resolve(), start.resolve())).as_posix()
    except ValueError:  # another drive
        return target.resolve().as_posix()
