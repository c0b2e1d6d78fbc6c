"""Where the bundled rule data and schemas are, in a checkout and in an installed wheel.

The wheel carries the top-level ``rules/`` and ``schemas/`` folders as
``venedig_rules/_data/``; a checkout (or an editable install) uses them in place.

>>> (rules_root() / "venedig" / "game.yaml").is_file()
True
>>> display_path(rules_root() / "venedig" / "cards.yaml")
'rules/venedig/cards.yaml'
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


@cache
def data_root() -> Path:
    """The folder that holds ``rules/`` and ``schemas/``."""
    installed = _PACKAGE / "_data"
    return installed if (installed / "rules").is_dir() else _PACKAGE.parent


def rules_root() -> Path:
    """The folder of the bundled rulesets, one subfolder each."""
    return data_root() / "rules"


def schemas_root() -> Path:
    """The folder of the JSON Schemas, one per rule file kind."""
    return data_root() / "schemas"


def display_path(path: Path) -> str:
    """How a rule file is named in messages: ``rules/<game>/<file>`` for bundled data,
    else relative to the working directory when below it, else absolute. A link is named
    as itself, never by where it leads."""
    path = Path(path)
    path = path.resolve() if path.name in ("", ".", "..") else path.parent.resolve() / path.name
    for base in (data_root(), Path.cwd()):
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            continue
    return path.as_posix() if os.sep == "/" else str(path)
