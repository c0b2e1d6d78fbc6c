"""The events of every step as a recording machine keeps them: a compact record each,
made the event dict it stands for when the log is read.

A recorded game makes some four events an action (a change of a variable, a move, a
decision, a ruleset's own), and most logs are never read event by event: a bot's or a
balance run's games are played out and dropped. A dict an event cost as much to make as
the write it tells of, and the dicts and the ``from`` and ``to`` lists of moves were the
objects the cyclic garbage collector counted and walked. So the machine appends a tuple of
the event's values for those four kinds (its kind of record first, :data:`CHANGE_RECORD`
and the others below), and the game's record (``Played.events``, engine/seat/played.py)
makes each the dict of :mod:`.events` the first time the log is read, in place: whoever
reads a log reads dicts, the same dicts, with their keys in the same order, as the machine
made before.

>>> log = [(CHANGE_RECORD, "points", 3, "+="), (MOVE_RECORD, "c4", "deck", None, "hand", 0)]
>>> unpack(log, 0, len(log))
>>> log[0]
{'type': 'change', 'var': 'points', 'value': 3, 'why': '+='}
>>> log[1]
{'type': 'move', 'item': 'c4', 'from': ['deck', None], 'to': ['hand', 0]}
"""

from __future__ import annotations

from typing import Any

from . import events
from .events import Event, RulesetEvent
from .views import json_safe

#: ``(CHANGE_RECORD, var, value, why)``: a whole variable set (:func:`.events.change`).
CHANGE_RECORD = 0
#: ``(PART_RECORD, var, value, why, index)``: one player's or space's part of it.
PART_RECORD = 1
#: ``(MOVE_RECORD, item, source, source_index, target, target_index)`` (:func:`.events.move`).
MOVE_RECORD = 2
#: ``(CHOICE_RECORD, player, label, value, passed, hidden)`` (:func:`.events.choice`).
CHOICE_RECORD = 3
#: ``(RULESET_RECORD, kind, fields)``: a ruleset's own event; ``fields`` are made JSON-safe when
#: it is unpacked (the values the rules narrate are frozen: they cannot change meanwhile).
RULESET_RECORD = 4

#: A log entry as the machine appends it: an event dict, or a record of one.
Logged = Event | tuple[Any, ...]

#: The kinds of value an event field holds as it is (any other is made JSON-safe).
_JSON_ATOMS: frozenset[type] = frozenset({str, int, bool, float, type(None)})


def unpack(log: list[Logged], start: int, stop: int) -> None:
    """Make each record in ``log[start:stop]`` the event dict it stands for, in place (an
    event that is a dict already stays the very same object)."""
    for i in range(start, stop):
        record = log[i]
        if type(record) is tuple:
            log[i] = event_of(record)


def event_of(record: tuple[Any, ...]) -> Event:
    """The event dict a record stands for.

    >>> event_of((CHOICE_RECORD, 1, "drain", "c4", False, False))
    {'type': 'choice', 'player': 1, 'label': 'drain', 'value': 'c4', 'passed': False}
    """
    kind = record[0]
    if kind == CHANGE_RECORD:
        return events.change(record[1], record[2], record[3])
    if kind == PART_RECORD:
        return events.change(record[1], record[2], record[3], record[4])
    if kind == MOVE_RECORD:
        return events.move(record[1], [record[2], record[3]], [record[4], record[5]])
    if kind == CHOICE_RECORD:
        return events.choice(record[1], record[2], record[3], record[4], record[5])
    if kind == RULESET_RECORD:
        return ruleset_event(record[1], record[2])
    raise ValueError(f"no event record of kind {kind!r}")


def ruleset_event(kind: str, fields: dict[str, Any]) -> RulesetEvent:
    """The event of a ruleset's own ``kind``, its fields' values made JSON-safe.

    >>> ruleset_event("claim", {"player": 0, "spaces": ("b2", "b3")})
    {'type': 'claim', 'player': 0, 'spaces': ['b2', 'b3']}
    """
    return events.ruleset_event(
        kind, {key: value if type(value) in _JSON_ATOMS else json_safe(value) for key, value in fields.items()}
    )
