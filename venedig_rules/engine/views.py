"""What one player may know: state variables and events with hidden values redacted.

A variable declared ``visible: owner`` shows its owner everything and the others only its
shape; ``visible: hidden`` shows everybody only the shape. The shape of a list is
``{"hidden": <length>}``; of any other value ``"?"`` (and ``None`` stays ``None``, so a
front end still sees that something is there or not).

>>> redact((1, 2, 3)), redact("casa"), redact(None)
({'hidden': 3}, '?', None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .ruleset_base import RulesetBase

HIDDEN = "?"


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
        return index == player and rules.compiled.state[name].per == "player"
    return False


def redact_state(rules: RulesetBase, values: dict, player: int, players: int) -> dict:
    """Every state variable as ``player`` may see it, JSON-safe."""
    out = {}
    for name, value in values.items():
        decl = rules.state_visibility(name)
        per = rules.compiled.state[name].per
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


def redact_event(rules: RulesetBase, event: dict, player: int | None) -> dict | None:
    """The event as ``player`` may see it (``None`` when it is not for them at all)."""
    kind = event["type"]
    if kind == "change":
        if visible(rules, event["var"], event.get("index"), player):
            return json_safe(event)
        return {**json_safe(event), "value": redact(event["value"])}
    if kind == "move":
        src, dst = event["from"], event["to"]
        if visible(rules, src[0], src[1], player) or visible(rules, dst[0], dst[1], player):
            return json_safe(event)
        return {**json_safe(event), "item": redact(event["item"])}
    if kind == "commit" or (kind == "choice" and event.get("hidden")):
        if player is None or event["player"] == player:
            return json_safe(event)
        return {**json_safe(event), "value": redact(event["value"])}
    if "to" in event and player is not None:
        to = event["to"]
        if to != player and not (isinstance(to, (list, tuple)) and player in to):
            return None
    return json_safe(event)


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
