"""Where to report a problem between two values, one of which a variant may have set.

A variant's merged data keeps, for each value, the file that set it. When two values
disagree and one of them was written by a variant, that one is what a designer changed: the
error goes there (the cause, in the file being edited), naming where the other lives.

A variant is a file named by its id (``my_variant.yaml``, never a rule file kind) or a
folder with ``variant.yaml`` and one overlay file per kind.

>>> from venedig_rules.errors import Location
>>> rule, count = Location("rules/x/components.yaml", 7, 19), Location("my_variant.yaml", 6, 29)
>>> print(where_changed(rule, count))
my_variant.yaml:6:29
>>> print(where_changed(rule, Location("rules/x/cards.yaml", 6, 12)))
rules/x/components.yaml:7:19
"""

from __future__ import annotations

from pathlib import Path

from ..errors import Location
from .resources import data_root
from .schema import KINDS

_VARIANT_FILE = "variant.yaml"


def in_variant(location: Location) -> bool:
    """Whether ``location`` lies in a variant's file (not in a ruleset's rule file)."""
    path = Path(location.file)
    if path.stem not in KINDS:
        return True
    folder = path.parent if path.is_absolute() else Path.cwd() / path.parent
    return (folder / _VARIANT_FILE).is_file() or (data_root() / path.parent / _VARIANT_FILE).is_file()


def where_changed(rule: Location, value: Location) -> Location:
    """``value`` when a variant set it and ``rule`` is the base's, else ``rule``."""
    return value if in_variant(value) and not in_variant(rule) else rule
