"""How the points were made (``game.score_breakdown()``): each player's score on the track
that decides the winner, split by reason, with the reasons' labels in a language.

Every change of the winner track is a player's points gained or lost; the rule event that
explains it is the nearest one of the same move (between two decisions) whose kind has a
label in the language's ``texts.yaml`` ``reasons:`` and which concerns that player (a field
typed ``player`` holds it), preferring one whose number equals the points and that
explained no other change yet. A change no such event explains counts as ``Other points``;
a track that does not start at zero has its ``Starting score``. So the parts always sum to
``game.scores``. Every label is in sentence case, as a panel's (``Bridge cards played``,
``Coats of arms``), whatever the words filled into its reason template begin with. Only
what a spectator may see is read: a score is public.

>>> import venedig_rules as vr
>>> game = vr.load("saeulen").new_game(players=2, seed=3)
>>> breakdown(game, "en")
{0: {}, 1: {}}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...data.texts import Declarations
from ...data.valuetypes import ANY, ValueType
from ..run.views import SPECTATOR, is_redacted
from .seatview import seat_log
from .wording import Wording

if TYPE_CHECKING:
    from .played import PlayedGame

#: The events that end one move's events and start the next's.
_DECISIONS = frozenset({"choice", "commit"})


def breakdown(game: PlayedGame, lang: str = "en", names: Sequence[str] | None = None) -> dict[int, dict[str, int]]:
    """Each seat's points by reason label (see the module's docstring); a reason whose
    points sum to zero is left out."""
    wording = Wording(game.rules, lang, names)
    track = game.rules.winner_track
    if not track:
        return {p: {} for p in range(game.players)}
    events = seat_log(game, SPECTATOR).events
    reasons = wording.lang.reasons
    decls = wording.tables.declarations
    used: set[int] = set()
    begin = game.rules.state_starts().get(track, (None, 0))[1]
    begin = begin if type(begin) is int else 0
    # a track that starts above zero (Rialto's 3) has its starting score before any event
    out = {p: ({_sentence_case(wording.engine("reason_start")): begin} if begin else {}) for p in range(game.players)}
    last = dict.fromkeys(range(game.players), begin)
    start = 0
    setup_end = _first_decision(events)
    for i, event in enumerate(events):
        if event.get("type") in _DECISIONS:
            start = i
        if event.get("type") != "change" or event.get("var") != track:
            continue
        for p, value in _values(event, game.players):
            if type(value) is not int:
                continue
            delta, last[p] = value - last[p], value
            if delta == 0:
                continue
            if i < setup_end:  # set before the first move: the track's start
                label = wording.engine("reason_start")
            else:
                found = _explaining(events, start, i, p, delta, reasons, decls, used)
                label = _label(wording, events[found]) if found is not None else _by_decision(wording, events[start])
            label = _sentence_case(label)  # a panel label, whatever its reason's words begin with
            out[p][label] = out[p].get(label, 0) + delta
    return {p: {label: n for label, n in parts.items() if n != 0} for p, parts in out.items()}


def _sentence_case(label: str) -> str:
    """A reason label as a panel shows it, its first letter a capital (``coats of arms``,
    a reason filled into ``{reason}``, beside ``Bridge cards played``).

    >>> _sentence_case("coats of arms"), _sentence_case("Palazzo"), _sentence_case("")
    ('Coats of arms', 'Palazzo', '')
    """
    return label[:1].upper() + label[1:]


def _values(event: Mapping[str, Any], players: int) -> list[tuple[int, Any]]:
    """(player, new value) of a change of a per-player track: one player's or all of them."""
    value, index = event.get("value"), event.get("index")
    if is_redacted(value):
        return []
    if type(index) is int:
        return [(index, value)]
    if isinstance(value, (list, tuple)) and len(value) == players:
        return list(enumerate(value))
    return []


def _first_decision(events: Sequence[Mapping[str, Any]]) -> int:
    return next((i for i, e in enumerate(events) if e.get("type") in _DECISIONS), len(events))


def _explaining(
    events: Sequence[Mapping[str, Any]],
    start: int,
    at: int,
    player: int,
    delta: int,
    reasons: Mapping[str, Any],
    decls: Declarations,
    used: set[int],
) -> int | None:
    """The index of the event that best explains ``player``'s ``delta`` at ``at``, or None:
    of the events of the move with a reason label, first one that concerns the player (one
    not used yet, with the very number of points, of a kind listed earlier, nearest), else
    the nearest before it (the building whose points all its builders share), else after."""
    end = next((j for j in range(at + 1, len(events)) if events[j].get("type") in _DECISIONS), len(events))
    order = {kind: n for n, kind in enumerate(reasons)}
    best: tuple[int, int, int, int, int, int] | None = None
    for j in range(start, end):
        event = events[j]
        kind = str(event.get("type"))
        if kind not in reasons or kind in _DECISIONS:
            continue
        fields = decls.events.get(kind, {})
        if _concerns(event, fields, player):
            rank = (0, int(j in used), int(abs(delta) not in _numbers(event, fields)), order[kind], abs(j - at), j)
        else:
            rank = (1, 0, 0, int(j > at), abs(j - at), j)
        if best is None or rank < best:
            best = rank
    if best is None:
        return None
    if best[0] == 0:
        used.add(best[-1])
    return best[-1]


def _concerns(event: Mapping[str, Any], fields: Mapping[str, ValueType], player: int) -> bool:
    """Whether a field the ruleset types as a player holds ``player``."""
    for name, vt in fields.items():
        if "player" not in str(vt):
            continue
        value = event.get(name)
        if value == player and type(value) is int:
            return True
        if isinstance(value, (list, tuple)) and player in value and "per player" not in str(vt):
            return True
    return False


def _numbers(event: Mapping[str, Any], fields: Mapping[str, ValueType]) -> set[int]:
    """The numbers an event tells; a player's seat number is not a count of points."""
    return {abs(v) for k, v in event.items() if type(v) is int and "player" not in str(fields.get(k, ""))}


def _by_decision(wording: Wording, decision: Mapping[str, Any]) -> str:
    """The reason label of the decision that opened the move (``reasons:`` may name a
    decision label too), else ``Other points``."""
    label = decision.get("label") if decision.get("type") in _DECISIONS else None
    template = wording.lang.reasons.get(str(label)) if label is not None else None
    return wording.fill(template, {}) if template is not None else wording.engine("reason_other")


def _label(wording: Wording, event: Mapping[str, Any]) -> str:
    kind = str(event.get("type"))
    declared = wording.tables.declarations.events.get(kind, {})
    fields = {k: (v, declared.get(k, ANY)) for k, v in event.items() if k != "type"}
    return wording.fill(wording.lang.reasons[kind], fields)
