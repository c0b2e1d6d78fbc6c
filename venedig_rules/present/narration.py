"""Events as readable sentences, for logs, the ``play`` command and golden playthroughs.

A ruleset names its own events' sentences in game.yaml ``events:`` (``claim: "{player}
claims {space}"``); the engine's own events have fixed forms. Players print as ``p0``.

>>> sentence({}, {"type": "choice", "player": 1, "label": "drain", "value": "c4", "passed": False})
'p1 drain: c4'
>>> sentence({"claim": "{player} claims {space}"}, {"type": "claim", "player": 0, "space": "b2"})
'p0 claims b2'
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

from ..engine.events import (
    CHANGE,
    CHOICE,
    COMMIT,
    GAME_OVER,
    MOVE,
    REVEAL,
    ChangeEvent,
    ChoiceEvent,
    CommitEvent,
    Event,
    GameOverEvent,
    MoveEvent,
    RevealEvent,
)
from ..engine.notation import value_text
from ..engine.views import is_redacted

_PLAYER_FIELDS = {"player", "who", "winner", "to", "by"}


def sentence(templates: Mapping[str, str], event: Event) -> str | None:
    """One event (or a view's copy of it) as a sentence (``None`` for events not worth a line)."""
    kind = event.get("type")
    if isinstance(kind, str):
        if kind in templates:
            fields = {k: _show(v, k) for k, v in event.items()}
            return string.Formatter().vformat(templates[kind], (), _Missing(fields))
        if kind in _SENTENCES:
            return _SENTENCES[kind](event)
    fields_text = ", ".join(f"{k}={_show(v, k)}" for k, v in event.items() if k != "type")
    return f"{kind}: {fields_text}" if fields_text else str(kind)


def _choice(event: ChoiceEvent) -> str:
    if event.get("passed"):
        return f"p{event['player']} passes ({event['label']})"
    if event.get("hidden") and is_redacted(event["value"]):
        return f"p{event['player']} {event['label']}: (secret)"
    return f"p{event['player']} {event['label']}: {_show(event['value'])}"


def _commit(event: CommitEvent) -> str:
    return f"p{event['player']} commits a {event['label']}"


def _reveal(event: RevealEvent) -> str:
    values = ", ".join(f"p{p} {_show(v)}" for p, v in enumerate(event["values"]) if v is not None)
    return f"{event['label']} revealed: {values}"


def _move(event: MoveEvent) -> str:
    return f"{_show(event['item'])}: {_place(event['from'])} -> {_place(event['to'])}"


def _change(event: ChangeEvent) -> str:
    value = event["value"]
    where = _place([event["var"], event.get("index")])
    if event.get("why") == "shuffle":
        return f"{where} shuffled"
    shown = f"{len(value)} items" if isinstance(value, (list, tuple)) else _show(value)
    return f"{where} is now {shown}"


def _game_over(event: GameOverEvent) -> str:
    return "the game is over"


#: The fixed sentences of the engine's own kinds (a ruleset's templates come first).
_SENTENCES: dict[str, Callable[[Any], str]] = {
    CHOICE: _choice,
    COMMIT: _commit,
    REVEAL: _reveal,
    MOVE: _move,
    CHANGE: _change,
    GAME_OVER: _game_over,
}


def _place(ref: Any) -> str:
    name, index = ref
    if index is None:
        return str(name)
    return f"{name}[{'p' + str(index) if isinstance(index, int) else index}]"


def _show(value: Any, key: str = "") -> str:
    if key in _PLAYER_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return f"p{value}"
    if isinstance(value, dict) and "hidden" in value:
        return f"{value['hidden']} hidden"
    if isinstance(value, list):
        value = tuple(value)
    return value_text(value)


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
