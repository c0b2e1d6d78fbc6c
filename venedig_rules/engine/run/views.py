"""What one player may know: state variables and events with hidden values redacted.

A variable declared ``visible: owner`` shows its owner everything and the others only its
shape; ``visible: hidden`` shows everybody only the shape. The shape of a list is
``{"hidden": <length>}``; of any other value ``"?"`` (and ``None`` stays ``None``, so a
front end still sees that something is there or not).

>>> redact((1, 2, 3)), redact("casa"), redact(None)
({'hidden': 3}, '?', None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypedDict, cast

from .events import CHANGE, CHOICE, COMMIT, MOVE, ChangeEvent, ChoiceEvent, CommitEvent, Event, MoveEvent, RulesetEvent

if TYPE_CHECKING:
    from .ruleset_base import RulesetBase

HIDDEN = "?"
#: The seat number a spectator's view is redacted for: no seat owns it, so it sees only what
#: every seat may see (``None`` already means "sees everything" to the redaction functions).
SPECTATOR = -1


class DecisionView(TypedDict):
    """A decision the viewing player must take now: its label, their legal actions' text and
    the sentence that asks for it (``game.decision(player)`` has every option's text too)."""

    label: str
    actions: list[str]
    prompt: str


class Waiting(TypedDict):
    """A seat to move, as every seat may know it: its decision's label and public sentence
    ("p1 is choosing a building site"), never its options."""

    player: int
    label: str
    prompt: str


class GameView(TypedDict):
    """What one player (or a spectator) may know of a game (``game.view(player)``), JSON-safe."""

    ruleset: str
    player: int | None  # None: a spectator
    players: int
    to_move: list[int]
    over: bool
    winners: list[int]
    state: dict[str, Any]  # every state variable, hidden parts redacted
    decision: DecisionView | None  # None unless this player is to move
    your_commit: Any  # at a simultaneous decision, this player's committed value (None before)
    waiting_for: list[Waiting]  # every seat to move, in seat order
    events: list[Event]  # redacted, each with its ``text``; those after the first ``since`` received
    cursor: int  # how many events this player has received: the ``since`` of the next view
    lang: str  # the language of the texts


def is_redacted(value: Any) -> bool:
    """Whether a value is a shape left by :func:`redact` (``None`` is not: it hides nothing)."""
    return value == HIDDEN or (isinstance(value, dict) and set(value) == {"hidden"})


def redact(value: Any) -> Any:
    """The shape of a value, without its content."""
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return {"hidden": len(value)}
    return HIDDEN


def visible(rules: RulesetBase, name: str, index: Any, player: int | None) -> bool:
    """Whether ``player`` may see variable ``name`` (its ``index`` part); ``None`` sees all."""
    if player is None:
        return True
    decl = rules.state_visibility(name)
    if decl == "all":
        return True
    if decl == "owner":
        return index == player and rules.compiled_flow.state[name].per == "player"
    return False


def redact_state(rules: RulesetBase, values: dict[str, Any], player: int, players: int) -> dict[str, Any]:
    """Every state variable as ``player`` may see it, JSON-safe."""
    out: dict[str, Any] = {}
    state = rules.compiled_flow.state
    for name, value in values.items():
        decl = rules.state_visibility(name)
        per = state[name].per
        if decl == "all":
            out[name] = json_safe(value)
        elif per == "player":
            out[name] = [json_safe(v) if (decl == "owner" and p == player) else redact(v) for p, v in enumerate(value)]
        elif per == "space":
            out[name] = {space: redact(v) for space, v in zip(rules.space_ids, value)}
        else:
            out[name] = redact(value)
        if per == "space" and decl == "all":
            out[name] = dict(zip(rules.space_ids, out[name]))
    return out


#: The JSON-safe copies of a game's events, by the id of the event, each with its event (so
#: that an id is never taken for another event's): what the seats that see an event as it
#: is share, rather than each making its own.
SafeCopies = dict[int, tuple[Mapping[str, Any], Event]]


def redact_event(
    rules: RulesetBase, event: Event, player: int | None, copies: SafeCopies | None = None
) -> Event | None:
    """The event as ``player`` may see it, JSON-safe (``None`` when it is not for them at
    all). With ``copies``, the part every seat sees as it is is copied once for all seats."""
    redact_kind = _REDACT.get(event["type"])
    if redact_kind is None:
        return _redact_ruleset_event(rules, event, player, copies)
    return redact_kind(rules, event, player, copies)


def _redact_change(rules: RulesetBase, event: ChangeEvent, player: int | None, copies: SafeCopies | None) -> Event:
    if visible(rules, event["var"], event.get("index"), player):
        return _safe_copy(event, copies)
    value = event["value"]
    per = rules.compiled_flow.state[event["var"]].per
    if per is not None and event.get("index") is None and isinstance(value, (list, tuple)):
        # the whole of a per-space or per-player variable: as many hidden items as its parts
        # hold (86 swamp tiles, not the 106 spaces), which the state view shows part by part
        return {**_safe_copy(event, copies), "value": {"hidden": sum([_held(v) for v in value])}}
    return {**_safe_copy(event, copies), "value": redact(value)}


def _held(part: Any) -> int:
    """How many items one part of a variable holds, as its redacted shape tells."""
    if part is None:
        return 0
    return len(part) if isinstance(part, (list, tuple)) else 1


def _redact_move(rules: RulesetBase, event: MoveEvent, player: int | None, copies: SafeCopies | None) -> Event:
    src, dst = event["from"], event["to"]
    if visible(rules, src[0], src[1], player) or visible(rules, dst[0], dst[1], player):
        return _safe_copy(event, copies)
    return {**_safe_copy(event, copies), "item": redact(event["item"])}


def _redact_choice(rules: RulesetBase, event: ChoiceEvent, player: int | None, copies: SafeCopies | None) -> Event:
    if event.get("hidden"):  # a secret choice: its value is the chooser's, as a commit's
        return _redact_commit(rules, event, player, copies)
    return _safe_copy(event, copies)


def _redact_commit(
    rules: RulesetBase, event: ChoiceEvent | CommitEvent, player: int | None, copies: SafeCopies | None
) -> Event:
    if player is None or event["player"] == player:
        return _safe_copy(event, copies)
    return {**_safe_copy(event, copies), "value": redact(event["value"])}


def _redact_ruleset_event(
    rules: RulesetBase, event: Mapping[str, Any], player: int | None, copies: SafeCopies | None
) -> Event | None:
    if "to" in event and player is not None:
        to = event["to"]
        if to != player and not (isinstance(to, (list, tuple)) and player in to):
            return None
    return _safe_copy(event, copies)


def _safe_copy(event: Mapping[str, Any], copies: SafeCopies | None = None) -> Event:
    """A JSON-safe copy of an event (its keys are text already); the one in ``copies``
    when there is one (a copy is never changed: a redacted event is a new mapping)."""
    if copies is not None:
        found = copies.get(id(event))
        if found is not None and found[0] is event:
            return found[1]
    copy = cast(RulesetEvent, {k: json_safe(v) for k, v in event.items()})
    if copies is not None:
        copies[id(event)] = (event, copy)
    return copy


#: How each engine kind is redacted; a ruleset's own kinds are shown to all, or to ``to``.
_REDACT: dict[str, Callable[[RulesetBase, Any, int | None, SafeCopies | None], Event | None]] = {
    CHANGE: _redact_change,
    MOVE: _redact_move,
    CHOICE: _redact_choice,
    COMMIT: _redact_commit,
}


def json_safe(value: Any) -> Any:
    """A copy of a value as JSON holds it: tuples and lists as lists, mapping keys as text.

    >>> json_safe({1: ("a", ["b"])})
    {'1': ['a', ['b']]}
    """
    if isinstance(value, (tuple, list)):
        return [json_safe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    return value
