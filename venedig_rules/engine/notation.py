"""Actions and their text form: ``p1 drain(c4)``, ``p0 select(councillor_4)``, ``p2 pass``.

Players are numbered from 0 in the order they sit (clockwise). A value is written bare
when it is a word or number, as ``[a,b]`` when it is a list, and as a JSON string otherwise.

>>> a = Action(1, "drain", "c4")
>>> str(a)
'p1 drain(c4)'
>>> parse_action("p0 place([c4,d4])")
Action(player=0, name='place', value=('c4', 'd4'))
>>> parse_action(str(Action(2, "pass")))
Action(player=2, name='pass', value=None)
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from ..errors import VenedigError

_WORD = re.compile(r"[A-Za-z0-9_.#:-]+")
_ACTION = re.compile(r"p(\d+) ([a-z][a-z0-9_]*)(?:\((.*)\))?")
PASS = "pass"


class ActionSyntaxError(VenedigError, ValueError):
    """Text that is not an action."""

    code = "play/action_syntax"


class IllegalActionError(VenedigError, ValueError):
    """An action that is not legal now; the game is left as it was."""

    code = "play/illegal_action"


class Action(NamedTuple):
    """One choice by one player: ``name`` is the decision's label, ``value`` the option
    (``None`` for a pass). A small immutable value: compare, hash and sort it freely."""

    player: int
    name: str
    value: Any = None

    def __str__(self) -> str:
        if self.name == PASS and self.value is None:
            return f"p{self.player} {PASS}"
        return f"p{self.player} {self.name}({value_text(self.value)})"

    @property
    def text(self) -> str:
        """The action's text form (the same as ``str(action)``)."""
        return str(self)

    def to_json(self) -> str:
        return str(self)


def sort_key(action: Action) -> tuple[Any, ...]:
    """The order of legal actions: by player, then passes last, then by value (numbers
    before words before lists, each in their natural order)."""
    return (action.player, action.name == PASS, action.name, value_key(action.value))


def value_key(value: Any) -> tuple[Any, ...]:
    """A sort key that orders any option values without comparing unlike types."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, value)
    if isinstance(value, int):
        return (2, value)
    if isinstance(value, str):
        return (3, value)
    if isinstance(value, (tuple, list)):
        return (4, tuple(value_key(v) for v in value))
    return (5, str(value))


def value_text(value: Any) -> str:
    """The text of an option value.

    >>> value_text(("c4", 3, None, True)), value_text("San Marco")
    ('[c4,3,none,true]', '"San Marco"')
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(value_text(v) for v in value) + "]"
    if (
        isinstance(value, str)
        and _WORD.fullmatch(value)
        and value not in ("none", "true", "false")
        and not value.lstrip("-").isdigit()
    ):
        return value
    return json.dumps(value, ensure_ascii=False)


def parse_action(text: str) -> Action:
    """The Action a text names; raises ActionSyntaxError saying what was expected."""
    match = _ACTION.fullmatch(text.strip())
    if not match:
        raise ActionSyntaxError(
            f"{text!r} is not an action; expected 'p<player> <name>(<value>)', e.g. 'p1 drain(c4)', or 'p1 pass'"
        )
    player, name, arg = int(match[1]), match[2], match[3]
    if arg is None:
        if name != PASS:
            raise ActionSyntaxError(f"{text!r}: expected a value in parentheses after {name!r}")
        return Action(player, name)
    value, rest = _value(arg, 0, text)
    if rest != len(arg):
        raise ActionSyntaxError(f"{text!r}: unexpected {arg[rest:]!r} after the value")
    return Action(player, name, value)


def _value(text: str, i: int, whole: str) -> tuple[Any, int]:
    if text.startswith("[", i):
        items: list[Any] = []
        i += 1
        if text.startswith("]", i):
            return (), i + 1
        while True:
            item, i = _value(text, i, whole)
            items.append(item)
            if text.startswith(",", i):
                i += 1
            elif text.startswith("]", i):
                return tuple(items), i + 1
            else:
                raise ActionSyntaxError(f"{whole!r}: expected ',' or ']' at {text[i:]!r}")
    if text.startswith('"', i):
        decoder = json.JSONDecoder()
        try:
            quoted, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            raise ActionSyntaxError(f"{whole!r}: bad quoted value ({exc.msg})") from None
        return quoted, end
    match = _WORD.match(text, i)
    if not match:
        raise ActionSyntaxError(f"{whole!r}: expected a value at {text[i:]!r}")
    word = match.group()
    value: Any = {"none": None, "true": True, "false": False}.get(word, word)
    if isinstance(value, str) and re.fullmatch(r"-?\d+", word):
        value = int(word)
    return value, match.end()
