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

from ...errors import VenedigError
from ...limits import MAX_ACTION_DEPTH, MAX_ACTION_DIGITS, MAX_ACTION_TEXT

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
        return (4, tuple([value_key(v) for v in value]))
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
    """The Action a text names; raises ActionSyntaxError saying what was expected.

    Text longer than ``limits.MAX_ACTION_TEXT``, lists nested deeper than
    ``MAX_ACTION_DEPTH`` and numbers of more than ``MAX_ACTION_DIGITS`` digits are refused
    too: no action of a game is that large.

    >>> parse_action("p0 pay(" + "9" * 5000 + ")")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    venedig_rules.engine.run.notation.ActionSyntaxError: 'p0 pay(9...9)': a number of 5000 digits; expected at most 1000
    """
    if not isinstance(text, str):
        raise ActionSyntaxError(f"{_shown(text)} is not an action text; expected a string like 'p1 drain(c4)'")
    if len(text) > MAX_ACTION_TEXT:
        raise ActionSyntaxError(
            f"{_shown(text)} is {len(text)} characters long; an action text has at most {MAX_ACTION_TEXT}"
        )
    match = _ACTION.fullmatch(text.strip())
    if not match:
        raise ActionSyntaxError(
            f"{_shown(text)} is not an action; expected 'p<player> <name>(<value>)', e.g. 'p1 drain(c4)', or 'p1 pass'"
        )
    name, arg = match[2], match[3]
    player = _number(match[1], text)
    if arg is None:
        if name != PASS:
            raise ActionSyntaxError(f"{_shown(text)}: expected a value in parentheses after {_shown(name)}")
        return Action(player, name)
    value, rest = _value(arg, 0, text, 0)
    if rest != len(arg):
        raise ActionSyntaxError(f"{_shown(text)}: unexpected {_shown(arg[rest:])} after the value")
    return Action(player, name, value)


def _shown(text: Any) -> str:
    """``repr`` of what the caller gave, shortened for a message."""
    shown = repr(text) if not isinstance(text, int) or isinstance(text, bool) else type(text).__name__
    return shown if len(shown) <= 60 else f"{shown[:40]}...{shown[-14:]}"


def _number(digits: str, whole: str) -> int:
    """A number of the text, refused when it has more digits than any action needs."""
    if len(digits.lstrip("-")) > MAX_ACTION_DIGITS:
        raise ActionSyntaxError(
            f"{_shown(whole)}: a number of {len(digits.lstrip('-'))} digits; expected at most {MAX_ACTION_DIGITS}"
        )
    return int(digits)


def _value(text: str, i: int, whole: str, depth: int) -> tuple[Any, int]:
    if text.startswith("[", i):
        if depth >= MAX_ACTION_DEPTH:
            raise ActionSyntaxError(f"{_shown(whole)}: lists nested more than {MAX_ACTION_DEPTH} deep")
        items: list[Any] = []
        i += 1
        if text.startswith("]", i):
            return (), i + 1
        while True:
            item, i = _value(text, i, whole, depth + 1)
            items.append(item)
            if text.startswith(",", i):
                i += 1
            elif text.startswith("]", i):
                return tuple(items), i + 1
            else:
                raise ActionSyntaxError(f"{_shown(whole)}: expected ',' or ']' at {_shown(text[i:])}")
    if text.startswith('"', i):
        decoder = json.JSONDecoder()
        try:
            quoted, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            raise ActionSyntaxError(f"{_shown(whole)}: bad quoted value ({exc.msg})") from None
        return quoted, end
    match = _WORD.match(text, i)
    if not match:
        raise ActionSyntaxError(f"{_shown(whole)}: expected a value at {_shown(text[i:])}")
    word = match.group()
    value: Any = {"none": None, "true": True, "false": False}.get(word, word)
    if isinstance(value, str) and re.fullmatch(r"-?\d+", word):
        value = _number(word, whole)
    return value, match.end()


def plain_action(action: Action) -> Action:
    """``action`` with fields of exactly the plain types actions have: the player a whole
    number (not ``True``, not ``0.0``), the name a text, the value none, true/false, a
    whole number, a text, or a tuple of these; subclasses become their plain type and lists
    tuples. Raises IllegalActionError, naming what is wrong, for anything else, and for a
    value larger than any action's (see :mod:`venedig_rules.limits`).

    >>> plain_action(Action(0, "steal", [True, 2]))
    Action(player=0, name='steal', value=(True, 2))
    >>> plain_action(Action(0.0, "steal", 1))
    Traceback (most recent call last):
    ...
    venedig_rules.engine.run.notation.IllegalActionError: the player of an action is a seat number (0, 1, ...), not 0.0
    """
    player, name, value = action
    if not isinstance(player, int) or isinstance(player, bool):
        raise IllegalActionError(f"the player of an action is a seat number (0, 1, ...), not {_shown(player)}")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise IllegalActionError(f"the name of an action is a decision's label like 'claim', not {_shown(name)}")
    budget = [MAX_ACTION_TEXT]
    return Action(_plain_int(int(player)), str(name), _plain(value, 0, budget))


_NAME = re.compile(r"[a-z][a-z0-9_]{0,99}")
_LARGEST = 10**MAX_ACTION_DIGITS


def _plain_int(value: int) -> int:
    if not -_LARGEST < value < _LARGEST:
        raise IllegalActionError(f"a number of more than {MAX_ACTION_DIGITS} digits is no part of any action")
    return value


def _plain(value: Any, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1 + (len(value) if isinstance(value, str) else 0)
    if budget[0] < 0:
        raise IllegalActionError(f"an action's value holds more than {MAX_ACTION_TEXT} items and characters")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _plain_int(int(value))
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (tuple, list)):
        if depth >= MAX_ACTION_DEPTH:
            raise IllegalActionError(f"an action's value has lists nested more than {MAX_ACTION_DEPTH} deep")
        return tuple(_plain(item, depth + 1, budget) for item in value)
    raise IllegalActionError(
        f"{_shown(value)} is no action value; expected none, true or false, a whole number, a text or a list of them"
    )


def same_value(a: Any, b: Any) -> bool:
    """Whether two plain values are equal and of the same kinds throughout: ``True`` is not
    ``1``, which ``==`` would say it is.

    >>> same_value((1, "a"), (1, "a")), same_value(True, 1), same_value((0,), (False,))
    (True, False, False)
    """
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def has_number(value: Any) -> bool:
    """Whether a plain value holds a number or true/false, whose ``==`` crosses kinds."""
    if isinstance(value, tuple):
        return any(has_number(item) for item in value)
    return isinstance(value, int)
