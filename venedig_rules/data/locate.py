"""Where to report a problem between two values, one of which a variant may have set.

A variant's merged data keeps, for each value, the file that set it. When two values
disagree and one of them was written in another file than the rule that relates them, that
one is what a designer changed: the error goes there (the cause, in the file being edited).

>>> from venedig_rules.errors import Location
>>> rule, count = Location("components.yaml", 7, 19), Location("my_variant.yaml", 6, 29)
>>> print(where_changed(rule, count))
my_variant.yaml:6:29
>>> print(where_changed(rule, Location("components.yaml", 6, 12)))
components.yaml:7:19
"""

from __future__ import annotations

from ..errors import Location


def where_changed(rule: Location, value: Location) -> Location:
    """``value`` when it lies in another file than ``rule`` (a variant set it), else ``rule``."""
    return value if value.file != rule.file else rule
