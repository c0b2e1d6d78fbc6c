"""The undo history of a recorded game: the state before each of its actions, kept small.

Each state holds its own copy of the game's variables, so a history that kept every state
would be most of what a recorded game keeps (460 of 810 KB in a 2-player Säulen game), and
the garbage collector would walk all of it again and again during play. The history keeps
strongly only the states before the last ``RECENT`` actions and before every
``CHECKPOINT``-th action; the others it keeps by weak reference, alive for as long as
something else holds them (a ``Position``, a clone, the game itself); a state nothing else
holds at that moment is dropped at once (a weak reference would be one object more an
action for the garbage collector to count). A state that is gone is made again when an
undo needs it, by replaying the game's own actions from the nearest state still kept: the
rules are deterministic, so it equals the one dropped.

>>> import venedig_rules as vr
>>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=3)
>>> start = game.position
>>> while len(game.actions) < 40 and not game.is_over:
...     _ = game.apply(game.legal_actions(game.to_move[0])[0])
>>> while game.actions:
...     _ = game.undo()
>>> game.position.state is start.state  # still held by ``start``: the very same state
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from sys import getrefcount
from typing import NamedTuple
from weakref import ref

from .machine import State
from .notation import Action
from .untracked import untrack_weak_refs

#: The states before at least this many last actions are kept (undo, table undo, a bot's
#: apply-then-undo need no replay).
RECENT = 8
#: And the state before every this-many-th action: an undo replays fewer actions than this.
CHECKPOINT = 16

#: How a dropped state is made again: the state after taking an action at a state.
Step = Callable[[State, Action], State]


def _count_when_alone() -> int:
    """What ``getrefcount`` says of an item a list alone holds, read as ``append`` reads
    it: a local's reference counts in both builds, the call's argument only in Python's."""
    items = [object()]
    kept = items[0]
    return getrefcount(kept)


_ALONE = _count_when_alone()


class UndoPoint(NamedTuple):
    """Where an undo of one action goes back to: the state before it, and the length the
    event log had then."""

    state: State
    events: int


class UndoHistory:
    """The undo points of a game, one per action applied, oldest first."""

    __slots__ = ("_events", "_states", "_weak_below")

    def __init__(self) -> None:
        self._states: list[State | ref[State] | None] = []  # None: a state dropped
        self._events: list[int] = []
        self._weak_below = 0  # every entry below this but the checkpoints is a weak reference

    def __len__(self) -> int:
        return len(self._states)

    def append(self, state: State, events: int) -> None:
        """Add the undo point of the action just applied."""
        states = self._states
        states.append(state)
        self._events.append(events)
        if len(states) - self._weak_below >= RECENT + CHECKPOINT:  # let go of some at once
            stop = len(states) - RECENT
            for i in range(self._weak_below, stop):
                kept = states[i]
                if i % CHECKPOINT and type(kept) is State:
                    # (``ref``, a global of its own: a module attribute is a look-up)
                    states[i] = ref(kept) if getrefcount(kept) > _ALONE else None
            if untrack_weak_refs is not None:  # the compiled build (untracked.py says why)
                untrack_weak_refs(states, self._weak_below, stop)
            self._weak_below = stop

    def last(self, actions: Sequence[Action], step: Step) -> UndoPoint:
        """The undo point of the last action (made again from ``actions`` if dropped)."""
        n = len(self._states) - 1
        return UndoPoint(self._state(n, actions, step), self._events[n])

    def pop(self, actions: Sequence[Action], step: Step) -> UndoPoint:
        """Remove and return the undo point of the last action."""
        point = self.last(actions, step)
        self._states.pop()
        self._events.pop()
        self._weak_below = min(self._weak_below, len(self._states))
        return point

    def holds(self, n: int, state: State) -> bool:
        """Whether ``state`` is, by identity, the one before action ``n``. A state dropped
        is held by nothing, so it is not the one asked about."""
        return _alive(self._states[n]) is state

    def copy(self) -> UndoHistory:
        """An independent history with the same points (for a clone)."""
        other = UndoHistory.__new__(UndoHistory)
        other._states = list(self._states)
        other._events = list(self._events)
        other._weak_below = self._weak_below
        return other

    def _state(self, n: int, actions: Sequence[Action], step: Step) -> State:
        states = self._states
        found = _alive(states[n])
        if found is not None:
            return found
        start = n - 1
        while (state := _alive(states[start])) is None:
            start -= 1  # stops at a checkpoint at the latest
        for i in range(start, n):
            state = _alive(states[i + 1]) or step(state, actions[i])
            states[i + 1] = state  # kept until an undo passes it or the game goes on
        self._weak_below = min(self._weak_below, start + 1)
        return state


def _alive(kept: State | ref[State] | None) -> State | None:
    if type(kept) is State:
        return kept
    return None if kept is None else kept()  # type: ignore[operator]
