"""Text templates of the rule data: ``"{player} drains {space}"``.

A placeholder is ``{field}``, ``{field.N}`` (item N of a list field, from 0) or
``{field:format}`` / ``{field:format=arg}``; a format may take a case and a number after
dots (``{from:the.dat}``, ``{item:a.nom}``, ``{things:the.acc.other}``). ``{{`` and ``}}``
stand for braces. Which fields and formats a template may use is checked when the ruleset loads
(``data.texts``); filling one is the engine's (``engine.seat.wording``).

>>> t = parse_template("{player} lays out {cards:count} ({{{n}}})")
>>> [p.field for p in t.placeholders], t.placeholders[1].format
(['player', 'cards', 'n'], 'count')
>>> t.fill(lambda p: p.field.upper())
'PLAYER lays out CARDS ({N})'
>>> parse_template("{player")
Traceback (most recent call last):
...
venedig_rules.data.templates.TemplateError: a '{' without its '}' at offset 0; write '{{' for a brace
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_PLACEHOLDER = re.compile(r"([a-z_][a-z0-9_]*)((?:\.[0-9]+)*)(?::([a-z0-9_]+)((?:\.[a-z0-9_]+)*)(?:=([a-z0-9_]+))?)?")


class TemplateError(ValueError):
    """A template that cannot be read; ``offset`` is where, in the text."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message, self.offset = message, offset


@dataclass(frozen=True)
class Placeholder:
    """One ``{...}`` of a template: its field, the list items it picks, its format and that
    format's argument, and its offset in the template text."""

    field: str
    path: tuple[int, ...]
    format: str | None
    arg: str | None
    offset: int
    #: what follows the format after dots: a case and a number (``{to:the.dat}``)
    mods: tuple[str, ...] = ()


@dataclass(frozen=True)
class Template:
    """A parsed template: literal text and placeholders, in order."""

    text: str
    parts: tuple[str | Placeholder, ...]

    @property
    def placeholders(self) -> list[Placeholder]:
        return [p for p in self.parts if isinstance(p, Placeholder)]

    def fill(self, render: Callable[[Placeholder], str]) -> str:
        """The text with every placeholder replaced by ``render(placeholder)``."""
        return "".join(p if isinstance(p, str) else render(p) for p in self.parts)


def parse_template(text: str) -> Template:
    """The Template of ``text``; TemplateError, with the offset, when it is malformed."""
    parts: list[str | Placeholder] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char in "{}" and text[i + 1 : i + 2] == char:
            literal.append(char)
            i += 2
            continue
        if char == "}":
            raise TemplateError(f"a '}}' without its '{{' at offset {i}; write '}}}}' for a brace", i)
        if char != "{":
            literal.append(char)
            i += 1
            continue
        end = text.find("}", i)
        if end < 0:
            raise TemplateError(f"a '{{' without its '}}' at offset {i}; write '{{{{' for a brace", i)
        inner = text[i + 1 : end]
        match = _PLACEHOLDER.fullmatch(inner)
        if not match:
            raise TemplateError(
                f"{{{inner}}} at offset {i} is not a placeholder; expected {{field}}, {{field.0}}, "
                "{field:format}, {field:format.case} or {field:format=arg} with lower-case names",
                i,
            )
        if literal:
            parts.append("".join(literal))
            literal = []
        field, path, fmt, mods, arg = match.groups()
        index = tuple(int(n) for n in path.split(".")[1:]) if path else ()
        parts.append(Placeholder(field, index, fmt, arg, i, tuple(mods.split(".")[1:]) if mods else ()))
        i = end + 1
    if literal:
        parts.append("".join(literal))
    return Template(text, tuple(parts))
