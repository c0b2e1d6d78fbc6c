"""Small helpers to write SVG as text: elements with escaped attributes, numbers, colours.

>>> element("circle", cx=1.5, cy=-0.0, r=0.25, data_space="c4")
'<circle cx="1.5" cy="0" r="0.25" data-space="c4"/>'
>>> element("text", text("a < b"), x=0, y=1, font_size=0.3)
'<text x="0" y="1" font-size="0.3">a &lt; b</text>'
>>> color("red"), color("#123456"), readable_on("#f7f7f2")
('#d33f3f', '#123456', '#222222')
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

#: Colour words of the rule data (component ``colors``) as drawn; other words pass through as
#: SVG colour keywords.
NAMED = {
    "red": "#d33f3f",
    "blue": "#2f6bd0",
    "green": "#3c9a48",
    "yellow": "#e8c22e",
    "white": "#f7f7f2",
    "black": "#2a2a2a",
    "purple": "#8a4fbf",
    "orange": "#e8862e",
    "brown": "#8b5a2b",
    "grey": "#8c8c8c",
    "gray": "#8c8c8c",
}

#: Attribute names as written, by keyword (``data_space`` -> ``data-space``).
_NAMES: dict[str, str] = {}
#: What ``quoteattr`` changes in an attribute's value: any other value is written as it is.
_SPECIAL = re.compile("[&<>\"'\n\r\t]")

#: Player colours for a ruleset that names none, seat 0 first.
PLAYER_DEFAULT = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")

#: Colours for values no ``colors`` entry names: picked by the value's hash, so stable.
SPARE = ("#c6a15b", "#8fb3c9", "#b98bb0", "#9cc28a", "#d9a26b", "#a3a3d6", "#d6c36b", "#7fb8a4")


@functools.lru_cache(maxsize=1 << 16)  # a board repeats its coordinates on every page
def number(value: float) -> str:
    """A coordinate as short text: up to 4 decimals, no trailing zeros, never ``-0``.

    >>> number(1.50), number(-0.00001), number(2)
    ('1.5', '0', '2')
    """
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def points(corners: Iterable[Sequence[float]]) -> str:
    """A ``points`` attribute: ``x,y x,y ...``."""
    return " ".join(f"{number(p[0])},{number(p[1])}" for p in corners)


def text(value: object) -> str:
    """Text content, escaped."""
    return escape(str(value))


def element(tag: str, content: str = "", **attributes: object) -> str:
    """One element; ``data_space=`` becomes ``data-space=``; ``None`` attributes are left out."""
    parts = [tag]
    for key, value in attributes.items():
        if value is None:
            continue
        name = _NAMES.get(key) or _NAMES.setdefault(key, key.rstrip("_").replace("_", "-"))
        if isinstance(value, float | int) and not isinstance(value, bool):
            parts.append(f'{name}="{number(value)}"')  # a number needs no escaping
        else:
            shown = str(value)
            parts.append(f"{name}={quoteattr(shown)}" if _SPECIAL.search(shown) else f'{name}="{shown}"')
    head = " ".join(parts)
    return f"<{head}>{content}</{tag}>" if content else f"<{head}/>"


def color(name: str) -> str:
    """A colour word of the rule data (``red``) or any SVG colour (``#rrggbb``) as drawn."""
    return NAMED.get(name.lower(), name)


def spare_color(value: object) -> str:
    """A stable colour for a value that no ``colors`` entry names."""
    digest = hashlib.sha1(str(value).encode("utf-8")).digest()
    return SPARE[digest[0] % len(SPARE)]


def readable_on(fill: str) -> str:
    """Dark or light text, whichever reads on ``fill`` (``#rrggbb``; words count as dark)."""
    if not (fill.startswith("#") and len(fill) == 7):
        return "#ffffff"
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#222222" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"
