"""The events of a game: what happened, in order, each a plain dict with a ``type``.

The engine's own kinds and their fields are declared here, once; a ruleset adds kinds of
its own (``narrate("claim", ...)``, sentences in ``game.yaml`` ``events:``). An event's
keys come in the order given here: saves, golden playthroughs and clients see that order.
A player's view holds JSON-safe copies (lists for tuples), with hidden values redacted
(see :mod:`~venedig_rules.engine.run.views`). The constructors below build each kind; the
machine uses them for the events of a decision and the end, and builds the ones that come
at every step (``change``, ``move``, a ruleset's) in place, typed by the same TypedDicts.

>>> choice(1, "drain", "c4", passed=False)
{'type': 'choice', 'player': 1, 'label': 'drain', 'value': 'c4', 'passed': False}
>>> move("c4", ["deck", None], ["hand", 0])
{'type': 'move', 'item': 'c4', 'from': ['deck', None], 'to': ['hand', 0]}
>>> change("points", 3, "+=", index=1)
{'type': 'change', 'var': 'points', 'value': 3, 'why': '+=', 'index': 1}
>>> ruleset_event("claim", {"player": 0, "space": "b2"})
{'type': 'claim', 'player': 0, 'space': 'b2'}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal, NotRequired, TypedDict

CHOICE: Final = "choice"
COMMIT: Final = "commit"
REVEAL: Final = "reveal"
CHANGE: Final = "change"
MOVE: Final = "move"
GAME_OVER: Final = "game_over"


class ChoiceEvent(TypedDict):
    """A player decided ``label``: ``value`` is the option taken (None when ``passed``);
    ``hidden`` marks a secret choice, whose value only the chooser sees."""

    type: Literal["choice"]
    player: int
    label: str
    value: Any
    passed: bool
    hidden: NotRequired[Literal[True]]


class CommitEvent(TypedDict):
    """A player committed ``value`` at a simultaneous decision; the others see only that
    they did, until the reveal."""

    type: Literal["commit"]
    player: int
    label: str
    value: Any
    hidden: Literal[True]


class RevealEvent(TypedDict):
    """Everyone committed: ``values`` by seat (None for a player who took no part)."""

    type: Literal["reveal"]
    label: str
    values: Sequence[Any]


class ChangeEvent(TypedDict):
    """State variable ``var`` (its ``index`` part: a player or a space, when given) is
    now ``value``; ``why``: ``set``, ``+=``, ``-=``, or what a primitive says (``shuffle``)."""

    type: Literal["change"]
    var: str
    value: Any
    why: str
    index: NotRequired[Any]


#: ``item`` went from one list to another; ``from`` and ``to`` are ``[var, index]`` (index
#: None for a variable with one value). Declared this way because ``from`` is a Python keyword.
MoveEvent = TypedDict(
    "MoveEvent",
    {"type": Literal["move"], "item": Any, "from": list[Any], "to": list[Any]},
)


class GameOverEvent(TypedDict):
    """The game ended (the winners are on the game: ``game.winners``)."""

    type: Literal["game_over"]


#: An event of a ruleset's own kind: ``{"type": kind, field: value, ...}``, its fields
#: JSON-safe; one with a ``to`` field (a player or a list of players) is theirs alone.
RulesetEvent = dict[str, Any]

#: Any event: an engine kind or a ruleset's.
Event = ChoiceEvent | CommitEvent | RevealEvent | ChangeEvent | MoveEvent | GameOverEvent | RulesetEvent


def choice(player: int, label: str, value: Any, passed: bool, hidden: bool = False) -> ChoiceEvent:
    event: ChoiceEvent = {"type": CHOICE, "player": player, "label": label, "value": value, "passed": passed}
    if hidden:
        event["hidden"] = True
    return event


def commit(player: int, label: str, value: Any) -> CommitEvent:
    return {"type": COMMIT, "player": player, "label": label, "value": value, "hidden": True}


def reveal(label: str, values: Sequence[Any]) -> RevealEvent:
    return {"type": REVEAL, "label": label, "values": values}


def change(var: str, value: Any, why: str, index: Any = None) -> ChangeEvent:
    event: ChangeEvent = {"type": CHANGE, "var": var, "value": value, "why": why}
    if index is not None:
        event["index"] = index
    return event


def move(item: Any, source: list[Any], target: list[Any]) -> MoveEvent:
    return {"type": MOVE, "item": item, "from": source, "to": target}


def game_over() -> GameOverEvent:
    return {"type": GAME_OVER}


def ruleset_event(kind: str, fields: dict[str, Any]) -> RulesetEvent:
    """An event of the ruleset's own ``kind`` (``fields`` already JSON-safe)."""
    return {"type": kind, **fields}
