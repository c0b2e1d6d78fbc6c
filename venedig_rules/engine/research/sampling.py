"""Information-set sampling: a game one seat cannot tell from the real one.

``sample(game, player, seed)`` keeps everything ``player`` may see and redraws the rest:
which hidden item lies in which hidden place and in what order, the other seats' secret
commits, and the generator of every later chance event. The view of ``player`` of the
sample is the view of the game, JSON for JSON; play goes on from it legally to the end.

The model (docs/bots.md, "The sample model"):

- *Places* come from the state declarations: a variable declared ``visible: hidden`` is
  hidden from everyone, ``visible: owner`` (``per: player``) from every seat but its owner;
  a ``per: space`` variable has one place per space. A hidden list keeps its length and a
  hidden value whether it is there (``None`` stays ``None``): that much the view shows.
- *Kinds*: an item of the rule data (a card, a tile) may only go where an item of the same
  component lies (its ``component``: the back of a face-down card is public); any other
  value only to a place of its own variable.
- *Knowledge*: the seat's event log pins items down. An item it saw go into a hidden place
  (a move from or to a place it sees, an item a rule event shows it) stays in that place,
  unless an item it could not see left that place since: then it may be in either. Items
  that leave a place the seat sees are no longer pinned to it.
- *Paused rules*: items the paused rule code holds in its locals are dealt anew like the
  rest, and the locals get the item the deal put where the held one lay. The options of
  another seat deciding are computed again from the sample (the paused procedure run
  again from its start when that changes nothing), and a seat that has committed commits
  again, uniformly among them. A deal that leaves a seat deciding without options is
  dealt again (the seat sees that it is asked).
- Everything else of a kind is uniform: the free items are dealt to the free positions in
  a random order. The model does not weigh opponents' past choices (a card an opponent
  played tells nothing about the cards it kept) and knows only what the state and the
  events show (a value the rules derive into a visible variable, like Säulen's face-up
  pile tops, does not fix the hidden list it was computed from).

The sample is a ``Game`` for search: it has no undo history before its start, its
``actions`` start empty, its event log is the seat's (others' secrets replaced by
placeholders), and it cannot be saved and loaded (its state does not follow from a seed).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, Self, TypeVar, cast

from ...errors import NoConsistentDealError, RuleRuntimeError
from ..run import rng as rnglib
from ..run.machine import Frame, Machine, PendingChoice, PendingCommits, State, initial_state
from ..run.undohistory import UndoHistory
from ..seat.played import Played, PlayedGame, SampleOrigin

if TYPE_CHECKING:
    from ..run.records import Logged
    from ..run.ruleset_base import RulesetBase


class Game(PlayedGame, Protocol):
    """What sampling needs of a :class:`~venedig_rules.engine.game.Game` (which calls it):
    its record, and a game of its class that plays the sample's."""

    @classmethod
    def from_played(cls, played: Played) -> Self: ...


G = TypeVar("G", bound=Game)

#: A place: (variable, slot); the slot is a player or space index, None for a whole variable.
Place = tuple[str, int | None]

#: Deals :func:`sample` tries before it gives up (see :func:`_pending`): a seat that is asked
#: has an option in nearly every deal (in random play of the bundled games no sample needed
#: more than a few).
ATTEMPTS = 20
#: What :func:`_pending` returns for a deal in which a seat deciding would have no options.
_REJECTED = object()

#: Placeholder of a hidden value in a sample's events: redacts to the same shape.
_MASK = "?"
#: Declared types whose values may hold ids.
_WORDY = frozenset(("str", "list", "any"))


def sample(game: G, player: int, seed: int, attempts: int = ATTEMPTS, rand: random.Random | None = None) -> G:
    """A new game consistent with everything ``player`` has seen of ``game``.
    ``attempts`` deals are tried (a deal that leaves a seat that is asked without an
    option is not in the seat's information set); when none fits,
    :class:`~venedig_rules.errors.NoConsistentDealError` is raised: the true hidden state
    is never given in place of a sample.

    The deal is drawn from ``random.Random(seed)``, or from ``rand`` (advancing it): a
    search draws all its samples from its own generator, as seeding one costs some 26,000
    instructions, a fifth of a compiled sample.

    >>> import venedig_rules as vr
    >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
    >>> other = sample(game, 0, seed=1)
    >>> other.view(0) == game.view(0)
    True
    >>> other.value("hand", 0) == game.value("hand", 0)
    True
    >>> import random
    >>> sample(game, 0, 1, rand=random.Random(1)).value("hand", 1) == other.value("hand", 1)
    True
    >>> sample(game, 0, seed=1, attempts=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    venedig_rules.errors.NoConsistentDealError: no deal of what seat 0 cannot see ... (0 deals tried)
    """
    if not isinstance(player, int) or not 0 <= player < game.players:
        raise ValueError(f"player {player!r} is not in this game (0 to {game.players - 1})")
    knowledge = _knowledge(game, player)
    played = game.played
    state = played.state
    dealt = _dealt(game, player, knowledge.plan(state), seed, random.Random(seed) if rand is None else rand, attempts)
    events = cast("list[Logged]", list(knowledge.concealed))
    # a new record: no actions, no undo history, and none of the game's views (its events are others)
    out = Played(
        played.rules,
        played.players,
        seed,
        dealt,
        events,
        UndoHistory(),
        record=played.record,
        keep=played.keep,
        unrecorded=played.unrecorded,
        origin=SampleOrigin(player, knowledge.frozen_pins(), dealt.vars, len(events)),
        unpacked=len(events),  # dicts all: a search reads each sample's new events only
    )
    return type(game).from_played(out)


def _dealt(game: PlayedGame, player: int, plan: Plan, seed: int, rand: random.Random, attempts: int) -> State:
    """The sample's state: the first of ``attempts`` deals drawn from ``rand`` that leaves
    every seat that is asked an option (its own chance to come from ``seed``)."""
    state = game.played.state
    for _ in range(attempts):
        values = plan.deal(state.vars, rand)
        frames = plan.relabel(state.frames, values, ~seed)
        pending, frames = _pending(game, player, values, frames, rand)
        if pending is not _REJECTED:
            rng = rnglib.next64(rnglib.seed_state(seed))[1]
            return State(values, frames, pending, rng, state.over, state.winners)
    raise _no_deal(state, player, attempts)


# -- the places ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Which places one seat cannot see, from the state declarations."""

    #: variable -> its hidden slots ((None,): the whole variable is one hidden place)
    hidden: dict[str, tuple[int | None, ...]]
    #: the same as sets, for lookups
    hidden_sets: dict[str, frozenset[int | None]]
    #: every variable: "player", "space" or None
    per: dict[str, str | None]
    #: every variable's declared type
    types: dict[str, str]

    def place_of(self, rules: RulesetBase, var: str, index: Any) -> Place | None:
        """The hidden place a change or move names; None when the seat sees it, or when it
        names a whole per-player or per-space variable."""
        slots = self.hidden_sets.get(var)
        if slots is None:
            return None
        if index is None:
            return (var, None) if self.per[var] is None else None
        slot = index if self.per[var] == "player" else _space_slot(rules, index)
        return (var, slot) if slot in slots else None

    def places(self) -> Iterator[Place]:
        for var, slots in self.hidden.items():
            for slot in slots:
                yield (var, slot)

    def visible_parts(self, values: dict[str, Any]) -> Iterator[Any]:
        """The value of every place the seat sees."""
        for var, value in values.items():
            slots = self.hidden_sets.get(var)
            if self.per[var] is None:
                if slots is None:
                    yield value
            elif slots is None:
                yield from value
            else:
                yield from (part for slot, part in enumerate(value) if slot not in slots)


def layout(rules: RulesetBase, players: int, player: int) -> Layout:
    """The places ``player`` cannot see in a game of ``players`` players.

    >>> import venedig_rules as vr
    >>> layout(vr.load("tests/rulesets/lagoon"), 3, 0).hidden
    {'deck': (None,), 'hand': (1, 2), 'secret': (1, 2)}
    """

    def build(_: RulesetBase) -> Layout:
        hidden: dict[str, tuple[int | None, ...]] = {}
        per: dict[str, str | None] = {}
        types: dict[str, str] = {}
        compiled = rules.compiled
        assert compiled is not None  # only a playable ruleset has games to sample
        for name, info in compiled.state.items():
            per[name], types[name] = info.per, info.type
            decl = rules.state_visibility(name)
            if decl == "all":
                continue
            if info.per == "player":
                hidden[name] = tuple(q for q in range(players) if decl != "owner" or q != player)
            elif info.per == "space":
                hidden[name] = tuple(range(len(rules.space_ids)))
            else:
                hidden[name] = (None,)
        return Layout(hidden, {k: frozenset(v) for k, v in hidden.items()}, per, types)

    result: Layout = rules.derived(f"sampling.layout.{players}.{player}", build)
    return result


# -- what the seat knows ---------------------------------------------------------------------
@dataclass
class Knowledge:
    """What one seat knows of where hidden items are, followed event by event, with the
    true values beside it (the sample redeals those)."""

    rules: RulesetBase
    player: int
    layout: Layout
    #: the true values of every variable after ``seen`` events (indexed ones as lists)
    mirror: dict[str, Any]
    #: value -> the sets of places each pinned copy of it may be in
    pins: dict[Any, list[frozenset[Place]]] = field(default_factory=dict)
    #: the events as this seat's samples show them (others' secrets as placeholders)
    concealed: list[dict[str, Any]] = field(default_factory=list)
    seen: int = 0
    last: dict[str, Any] | None = None
    #: how many copies of each item the hidden places hold, and the visible ones
    in_hidden: Counter[Any] = field(default_factory=Counter)
    in_visible: Counter[Any] = field(default_factory=Counter)
    _frozen: dict[Any, list[frozenset[Place]]] | None = None
    _plan: tuple[State, Plan] | None = None

    def __post_init__(self) -> None:
        for place in self.layout.places():
            self.in_hidden.update(_items(self._get(place)))
        for part in self.layout.visible_parts(self.mirror):
            self.in_visible.update(_items(part))

    def follows(self, events: Sequence[object]) -> bool:
        """Whether ``events`` continue the log this knowledge was built from."""
        return self.seen <= len(events) and (self.seen == 0 or events[self.seen - 1] is self.last)

    def update(self, events: list[dict[str, Any]]) -> None:
        if self.seen == len(events):
            return
        for event in events[self.seen :]:
            # a copy: the real game's event (and the lists in it) must not be reachable from a sample
            self.concealed.append(_copied(self._observe(event)))
        self.seen = len(events)
        self.last = events[-1]
        self._frozen = None

    def frozen_pins(self) -> dict[Any, list[frozenset[Place]]]:
        """A copy of the pins as they are now (made once per position)."""
        if self._frozen is None:
            self._frozen = {v: list(sets) for v, sets in self.pins.items() if sets}
        return self._frozen

    def plan(self, state: State) -> Plan:
        """How to deal the hidden items of ``state`` anew (made once per position)."""
        if self._plan is None or self._plan[0] is not state:
            self._plan = (state, Plan.make(self, state))
        return self._plan[1]

    # -- one event ---------------------------------------------------------------------------
    def _observe(self, event: dict[str, Any]) -> dict[str, Any]:
        kind = event["type"]
        if kind == "change":
            return self._change(event)
        if kind == "move":
            return self._move(event)
        if kind == "commit" or (kind == "choice" and event.get("hidden")):
            return event if event["player"] == self.player else {**event, "value": _mask(event["value"])}
        if kind in ("reveal", "choice", "game_over"):
            return event
        to = event.get("to")
        if to is not None and to != self.player and not (isinstance(to, (list, tuple)) and self.player in to):
            return {"type": kind, "to": to}  # not for this seat: its view leaves it out
        self._told(event)
        return event

    def _change(self, event: dict[str, Any]) -> dict[str, Any]:
        var, index, value = event["var"], event.get("index"), event["value"]
        slots = self.layout.hidden.get(var)
        if slots is None:
            self._set(var, index, value)
            return event
        whole = index is None and self.layout.per[var] is not None
        place = self.layout.place_of(self.rules, var, index)
        if not whole and place is None:  # the seat's own part of an owner variable
            self._set(var, index, value)
            return event
        if event.get("why") != "shuffle":
            if whole:
                self._refill([(var, s) for s in slots], [value[s] for s in slots if s is not None])
            elif place is not None:
                self._refill([place], [value])
        self._set(var, index, value)
        # a whole per-space or per-player value is masked part by part: a view counts its parts' items
        return {**event, "value": [_mask(v) for v in value] if whole else _mask(value)}

    def _refill(self, places: list[Place], values: list[Any]) -> None:
        """Places given new values by assignment: pins of items that left are dropped; an
        item from no other hidden place but seen in a visible one is pinned to the places
        changed together (the seat saw it go there, not where exactly)."""
        together = frozenset(places)
        elsewhere: Counter[Any] | None = None
        for place, new in zip(places, values):
            before, after = Counter(_items(self._get(place))), Counter(_items(new))
            for item, n in (before - after).items():
                self._unpin(item, place, n)
            for item, n in (after - before).items():
                if elsewhere is None:
                    elsewhere = self.in_hidden.copy()
                    for other in together:
                        elsewhere.subtract(_items(self._get(other)))
                if elsewhere[item] > 0:
                    self._spread_item(item, place)
                elif self.in_visible[item] > 0:
                    for _ in range(n):
                        self._pin(item, together)

    def _move(self, event: dict[str, Any]) -> dict[str, Any]:
        item, (src_var, src_index), (dst_var, dst_index) = event["item"], event["from"], event["to"]
        src = self.layout.place_of(self.rules, src_var, src_index)
        dst = self.layout.place_of(self.rules, dst_var, dst_index)
        self._take(src_var, src_index, item)
        self._put(dst_var, dst_index, item)
        if src is None and dst is None:
            return event
        if src is not None and dst is not None:  # an item the seat cannot see
            self._spread(src, dst)
            return {**event, "item": _MASK}
        if src is not None:
            self._unpin(item, src, 1)
        if dst is not None:
            self._pin(item, frozenset((dst,)))
        return event

    def _told(self, event: dict[str, Any]) -> None:
        """A rule event this seat sees names items: where one hidden place holds such an
        item and no visible place does, the seat knows it is there."""
        ids = _item_ids(self.rules)
        named = Counter(
            a for a in _atoms(event) if a.__class__ is str and a in ids and self.in_hidden[a] and not self.in_visible[a]
        )
        for item, n in named.items():
            holders = [p for p in self.layout.places() if item in _items(self._get(p))]
            if len(holders) != 1:
                continue
            place = holders[0]
            here = frozenset((place,))
            want = min(n, _items(self._get(place)).count(item))
            sets = self.pins.setdefault(item, [])
            known = sum(1 for s in sets if s == here)
            for i, s in enumerate(sets):
                if known >= want:
                    break
                if place in s and s != here:
                    sets[i], known = here, known + 1
            sets.extend(here for _ in range(want - known))

    # -- pins ----------------------------------------------------------------------------------
    def _pin(self, item: Any, places: frozenset[Place]) -> None:
        self.pins.setdefault(item, []).append(places)

    def _unpin(self, item: Any, place: Place, n: int) -> None:
        """``n`` copies of ``item`` left ``place``: drop as many pins that allow it there,
        the narrowest first."""
        sets = self.pins.get(item)
        if sets:
            for s in sorted((s for s in sets if place in s), key=len)[:n]:
                sets.remove(s)

    def _spread(self, src: Place, dst: Place) -> None:
        """An unseen item went from ``src`` to ``dst``: each item pinned to ``src`` may be it."""
        for sets in self.pins.values():
            for i, s in enumerate(sets):
                if src in s and dst not in s:
                    sets[i] = s | {dst}

    def _spread_item(self, item: Any, place: Place) -> None:
        sets = self.pins.get(item)
        if sets:
            self.pins[item] = [s | {place} for s in sets]

    # -- the true values -------------------------------------------------------------------------
    def _get(self, place: Place) -> Any:
        var, slot = place
        return self.mirror[var] if slot is None else self.mirror[var][slot]

    def _slot(self, var: str, index: Any) -> int | None:
        if index is None or self.layout.per[var] is None:
            return None
        return index if self.layout.per[var] == "player" else _space_slot(self.rules, index)

    def _count(self, var: str, slot: int | None, old: Any, new: Any) -> None:
        counter = self._counter(var, slot)
        for item in _items(old):
            counter[item] -= 1
        for item in _items(new):
            counter[item] += 1

    def _set(self, var: str, index: Any, value: Any, counted: bool = False) -> None:
        slot = self._slot(var, index)
        if slot is not None:
            if not counted:
                self._count(var, slot, self.mirror[var][slot], value)
            self.mirror[var][slot] = value
        elif self.layout.per[var] is None:
            if not counted:
                self._count(var, None, self.mirror[var], value)
            self.mirror[var] = value
        else:
            for s, (old, new) in enumerate(zip(self.mirror[var], value)):
                if old != new:
                    self._count(var, s, old, new)
            self.mirror[var] = list(value)

    def _take(self, var: str, index: Any, item: Any) -> None:
        slot = self._slot(var, index)
        items = _items(self.mirror[var] if slot is None else self.mirror[var][slot])
        if item in items:
            i = items.index(item)
            self._counter(var, slot)[item] -= 1
            self._set(var, index, items[:i] + items[i + 1 :], counted=True)

    def _put(self, var: str, index: Any, item: Any) -> None:
        slot = self._slot(var, index)
        self._counter(var, slot)[item] += 1
        items = _items(self.mirror[var] if slot is None else self.mirror[var][slot])
        self._set(var, index, items + (item,), counted=True)

    def _counter(self, var: str, slot: int | None) -> Counter[Any]:
        slots = self.layout.hidden_sets.get(var)
        return self.in_hidden if slots is not None and slot in slots else self.in_visible


def _knowledge(game: PlayedGame, player: int) -> Knowledge:
    """What ``player`` knows of ``game`` now (kept in the game's record, ``knowledge``, and
    brought up to date with its new events)."""
    played = game.played
    seats = played.knowledge
    if seats is None:
        seats = played.knowledge = {}
    known = seats.get(player)
    events = cast("list[dict[str, Any]]", played.events)
    if not isinstance(known, Knowledge) or not known.follows(events):
        known = _start(game, player)
        seats[player] = known
    known.update(events)
    return known


def _start(game: PlayedGame, player: int) -> Knowledge:
    """A seat's knowledge from the start of the game, or from the start of the sample the
    game is (the same pins: a sample of a sample draws from the same set)."""
    lay = layout(game.rules, game.players, player)
    origin, events = game.played.origin, cast("list[dict[str, Any]]", game.played.events)
    if origin is not None and origin.player == player and origin.events <= len(events):
        pins, values, seen = origin.pins, origin.values, origin.events
        return Knowledge(
            game.rules,
            player,
            lay,
            _mirror_of(values, lay),
            {v: list(sets) for v, sets in pins.items()},
            list(events[:seen]),
            seen,
            events[seen - 1] if seen else None,
        )
    return Knowledge(game.rules, player, lay, _mirror_of(initial_state(game.rules, game.players, 0).vars, lay))


def _mirror_of(values: dict[str, Any], lay: Layout) -> dict[str, Any]:
    return {k: list(v) if lay.per[k] is not None else v for k, v in values.items()}


# -- the new deal ----------------------------------------------------------------------------
class _Pin(NamedTuple):
    """A pinned copy of an item and the free positions it may take."""

    item: Any
    #: indexes into the plan's ``flat`` items
    candidates: list[int]


class _Kind(NamedTuple):
    """The free positions of one kind of item (see :func:`_kind`) and what fills them."""

    #: indexes into the plan's ``flat`` items, place after place
    positions: list[int]
    #: the free items, in a fixed order
    items: list[Any]
    #: the pinned copies among them, narrowest first
    pinned: list[_Pin]
    #: item -> how many of ``items`` it is, in the order of ``items`` (which holds each
    #: item's copies one after the other)
    counts: dict[Any, int]


class _Span:
    """Where the items of one hidden place lie in the plan's ``flat`` items: ``var`` (its
    ``slot``, None for a whole variable) holds ``flat[start:end]``, as a list when
    ``is_list``, else the one value. A plain class: compiled, an extension type
    (``research/sampling.pxd``) whose offsets a deal reads as C fields, once per place."""

    __slots__ = ("end", "is_list", "slot", "start", "var")

    def __init__(self, var: str, slot: int | None, start: int, end: int, is_list: bool) -> None:
        self.var, self.slot, self.start, self.end, self.is_list = var, slot, start, end, is_list


@dataclass
class Plan:
    """The hidden items of one position, ready to be dealt anew: per kind, the positions
    free to fill, the items to fill them with, and the pins among those items.

    A position is an index into ``flat``, every hidden place's items one after the other
    (a deal fills a copy of it): an integer hashes and compares at once, where a
    ``(place, index)`` pair is hashed through its nested tuples at every look-up.
    """

    #: the items of every hidden place that holds any, place after place (see ``spans``),
    #: with the kept ones in their positions
    flat: list[Any]
    #: where each place's items lie in ``flat``
    spans: list[_Span]
    kinds: list[_Kind]
    #: the positions whose items stay (see :func:`_kept`)
    kept: frozenset[tuple[Place, int]] = frozenset()
    #: hidden item the paused rule code holds in its locals (seen nowhere) -> the positions
    #: holding it, which the code may refer to (see :meth:`relabel`)
    held: dict[Any, list[tuple[Place, int]]] = field(default_factory=dict)
    #: position -> whether it is free (1) or kept (0)
    free: bytes = b""
    #: free position -> the kept items it may not hold (it lies before such a kept copy)
    banned: dict[int, frozenset[Any]] = field(default_factory=dict)
    #: position -> the end of its place's span
    ends: list[int] = field(default_factory=list)
    #: index of a paused frame -> the names of its locals that hold an item of ``held``
    holders: dict[int, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def make(cls, knowledge: Knowledge, state: State) -> Plan:
        """The plan of ``state``."""
        rules, lay = knowledge.rules, knowledge.layout
        seen = _seen(lay, state.vars)
        kept = _kept(knowledge, state, seen)
        flat: list[Any] = []
        spans: list[_Span] = []
        index: dict[tuple[Place, int], int] = {}
        free: dict[Any, list[int]] = {}
        pool: dict[Any, Counter[Any]] = {}
        for place in lay.places():
            value = _value(state.vars, place)
            items = _items(value)
            if not items:
                continue
            spans.append(_Span(place[0], place[1], len(flat), len(flat) + len(items), isinstance(value, tuple)))
            for i, item in enumerate(items):
                index[(place, i)] = len(flat)
                flat.append(item)
                if (place, i) not in kept:
                    kind = _kind(rules, place[0], item)
                    free.setdefault(kind, []).append(len(flat) - 1)
                    pool.setdefault(kind, Counter())[item] += 1
        place_at = [(span.var, span.slot) for span in spans for _ in range(span.start, span.end)]
        ends = [span.end for span in spans for _ in range(span.start, span.end)]
        pins = knowledge.frozen_pins()
        kinds = []
        for kind, positions in free.items():
            counts = pool[kind]
            pinned = [(item, s) for item in counts if item in pins for s in pins[item]]
            pinned.sort(key=lambda pair: (len(pair[1]), _order(pair[0])))
            where = [_Pin(item, [pos for pos in positions if place_at[pos] in places]) for item, places in pinned]
            fill = sorted(counts.elements(), key=_order)
            kinds.append(_Kind(positions, fill, where, {item: counts[item] for item in fill}))
        banned = _banned(kept, index, flat)
        free_marks = bytearray(len(flat))
        for free_kind in kinds:
            for pos in free_kind.positions:
                free_marks[pos] = 1
        held = _held(knowledge, state, kept, seen)
        holders = _holders(state.frames, held)
        return cls(flat, spans, kinds, frozenset(kept), held, bytes(free_marks), banned, ends, holders)

    def deal(self, values: dict[str, Any], rand: random.Random) -> dict[str, Any]:
        """The variables with the free items dealt anew: each pinned item to a random free
        position among its places, the others shuffled into the rest."""
        if not self.spans:
            return values
        flat = list(self.flat)
        # the generator's method bound once: compiled, ``rand.random()`` looks the method
        # up by name at every draw, several times the cost of the draw
        draw = rand.random
        for positions, items, pinned, counts in self.kinds:
            if pinned:
                # a plain dictionary, not a Counter: a Counter is a Python class to make, and
                # its look-up of an item it lacks calls __missing__
                left = dict(counts)
                taken = _place_pinned(pinned, left, flat, draw)
                rest = []  # the items left for the others, in the same fixed order
                for item, n in left.items():
                    if n:
                        rest += [item] * n
                open_ = [pos for pos in positions if pos not in taken]
            else:
                rest, open_ = list(items), positions  # a copy: the shuffle uses it up
            _fill(rest, open_, flat, draw)
        if self.banned:
            self._keep_shown_first(flat, rand)
        return _placed(values, flat, self.spans)

    def _keep_shown_first(self, flat: list[Any], rand: random.Random) -> None:
        """A copy of a kept item dealt before it in the same place changes places with a later
        free item: the kept copy stays the first (the top the seat sees), so a sample of a
        sample keeps the same positions."""
        free, banned_at = self.free, self.banned
        for j, banned in banned_at.items():
            if flat[j] not in banned:
                continue
            swaps = [
                i
                for i in range(j + 1, self.ends[j])
                if free[i] and flat[i] not in banned and flat[j] not in banned_at.get(i, ())
            ]
            if swaps:
                i = swaps[int(rand.random() * len(swaps))]
                flat[i], flat[j] = flat[j], flat[i]

    def relabel(self, frames: tuple[Frame, ...], values: dict[str, Any], seed: int) -> tuple[Frame, ...]:
        """The paused frames (those of the plan's state) with every hidden item their locals
        hold replaced by the item the new deal put where it lay: the code goes on with the
        sample's item, and the item the seat never saw is not kept in its true place (which
        would tell where it is). An item with several copies in hidden places stands for
        one of them, taken at random (from ``seed``); repeated in one local value, for
        different ones. A frame whose locals hold no such item is the state's own (a frame
        is copied before it is written to)."""
        if not self.held:
            return frames
        # seeded here, not by the caller, and only for an item in several positions: seeding
        # a generator takes some 26,000 instructions, a good part of a sample's, and most
        # held items lie in one position (or the frames hold none)
        rand: random.Random | None = None
        order: dict[Any, list[tuple[Place, int]]] = {}
        for item, positions in self.held.items():
            if len(positions) > 1:
                if rand is None:
                    rand = random.Random(seed)
                positions = rand.sample(positions, len(positions))
            order[item] = positions

        # a sample's first cost in a search: plain dictionaries count the uses (a Counter is
        # a Python class to make, once per local), lists are made from lists (a generator
        # per nested value costs more than its items)
        def swap(value: Any, used: dict[Any, int]) -> Any:
            if value.__class__ is str:
                positions = order.get(value)
                if positions is None:
                    return value
                n = used.get(value, 0)
                used[value] = n + 1
                (var, slot), i = positions[n % len(positions)]
                return _items(values[var] if slot is None else values[var][slot])[i]
            if isinstance(value, (tuple, list)):
                return value.__class__([swap(v, used) for v in value])
            return value

        out = list(frames)
        for k, names in self.holders.items():
            f = frames[k]
            local = dict(f.names)
            for name in names:
                local[name] = swap(local[name], {})
            out[k] = Frame(f.code, f.pc, f.target, local, shared=True)
        return tuple(out)


def _banned(
    kept: set[tuple[Place, int]], index: dict[tuple[Place, int], int], flat: list[Any]
) -> dict[int, frozenset[Any]]:
    """Free position (its index in ``flat``) -> the kept items it may not hold: those kept
    later in its place (a deal must not put a copy before the one the seat sees)."""
    banned: dict[int, frozenset[Any]] = {}
    for place, k in sorted(kept, key=lambda pos: pos[1]):
        item = flat[index[(place, k)]]
        for j in range(k):
            if (place, j) not in kept:
                at = index[(place, j)]
                banned[at] = banned.get(at, frozenset()) | {item}
    return banned


def _placed(values: dict[str, Any], flat: list[Any], spans: list[_Span]) -> dict[str, Any]:
    """``values`` with every hidden place (``spans``) holding its items of ``flat``."""
    out = dict(values)
    parts: dict[str, list[Any]] = {}  # a per-player or per-space variable's slots, made a tuple once
    for span in spans:
        new: Any = tuple(flat[span.start : span.end]) if span.is_list else flat[span.start]
        if span.slot is None:
            out[span.var] = new
        else:
            part = parts.get(span.var)
            if part is None:
                part = parts[span.var] = list(out[span.var])
            part[span.slot] = new
    for var, part in parts.items():
        out[var] = tuple(part)
    return out


def _fill(rest: list[Any], open_: list[int], flat: list[Any], draw: Callable[[], float]) -> None:
    """``rest`` put at the positions ``open_`` of ``flat`` (as many), in a uniformly random
    order: Fisher and Yates's shuffle, one draw per position (``rest`` is used up). A loop
    of its own, typed in the compiled build (``research/sampling.pxd``), where sorting by
    random keys cost more than the draws."""
    n = len(rest)
    for k in range(n):
        u = draw()
        step = int(u * (n - k))  # (typed: compiled, the float's whole part is a C cast)
        j = k + step
        item = rest[j]
        rest[j] = rest[k]
        at = open_[k]  # (a typed local: compiled, ``flat[at]`` is then the list's own store)
        flat[at] = item


def _place_pinned(pinned: list[_Pin], left: dict[Any, int], flat: list[Any], draw: Callable[[], float]) -> set[int]:
    """Each pinned item (while copies of it are ``left``) put at a position drawn uniformly
    among its candidates not yet taken; the positions taken."""
    taken: set[int] = set()
    for item, candidates in pinned:
        if not candidates or not left[item]:
            continue
        # a draw among all, and among the free ones only when it hit a taken one: uniform
        # over the free ones, without a list of them in the common case
        pos = candidates[int(draw() * len(candidates))]
        if pos in taken:
            where = [c for c in candidates if c not in taken]
            if not where:
                continue
            pos = where[int(draw() * len(where))]
        taken.add(pos)
        flat[pos] = item
        left[item] -= 1
    return taken


def _kept(knowledge: Knowledge, state: State, seen: Counter[Any]) -> set[tuple[Place, int]]:
    """Positions (place, index) whose item stays: a hidden item the seat sees a copy of (the
    places hold more copies than the rule data has, as with a face-up top of a face-down
    stack)."""
    lay, values = knowledge.layout, state.vars
    kept: set[tuple[Place, int]] = set()
    totals = _totals(knowledge.rules)
    shown = {
        item: extra
        for item, n in knowledge.in_hidden.items()
        if n > 0 and seen[item] > 0 and item in totals
        for extra in (n + seen[item] - totals[item],)
        if extra > 0
    }
    if shown:
        for place in lay.places():
            for i, item in enumerate(_items(_value(values, place))):
                if shown.get(item, 0) > 0:
                    kept.add((place, i))
                    shown[item] -= 1
    return kept


def _no_deal(state: State, player: int, attempts: int) -> NoConsistentDealError:
    """The error of a sample none of whose ``attempts`` deals fits."""
    asked = _deciding(state, player)
    label = getattr(state.pending, "label", None)
    why = f"gives seat {asked[0]} an option at {label!r}" if asked else "fits what it has seen"
    return NoConsistentDealError(f"no deal of what seat {player} cannot see {why} ({attempts} deals tried)")


def _deciding(state: State, player: int) -> tuple[int, ...]:
    """The other seats the pending decision asks."""
    pending = state.pending
    if isinstance(pending, PendingChoice):
        return () if pending.player == player else (pending.player,)
    if isinstance(pending, PendingCommits):
        return tuple([p for p in pending.players if p != player])
    return ()


def _seen(lay: Layout, values: dict[str, Any]) -> Counter[Any]:
    """Every item (a word: ids are words) a place the seat sees holds, in lists of lists too."""
    wordy = {k: v for k, v in values.items() if lay.types[k] in _WORDY}
    return Counter(a for part in lay.visible_parts(wordy) for a in _atoms(part) if a.__class__ is str)


def _held(
    knowledge: Knowledge, state: State, kept: set[tuple[Place, int]], seen: Counter[Any]
) -> dict[Any, list[tuple[Place, int]]]:
    """Hidden items the paused rule code holds in its locals that the seat sees nowhere ->
    the free positions that hold them (the code may use them later: see :meth:`Plan.relabel`)."""
    held: set[Any] = set()
    for frame in state.frames:
        for name, value in frame.names.items():
            if name != "players":
                held.update(a for a in _atoms(value) if a.__class__ is str and knowledge.in_hidden[a] > 0)
    if not held:
        return {}
    held -= set(seen)
    out: dict[Any, list[tuple[Place, int]]] = {}
    for place in knowledge.layout.places():
        for i, item in enumerate(_items(_value(state.vars, place))):
            if item in held and (place, i) not in kept:
                out.setdefault(item, []).append((place, i))
    return out


def _holders(frames: tuple[Frame, ...], held: dict[Any, list[tuple[Place, int]]]) -> dict[int, tuple[str, ...]]:
    """Index of each frame whose locals hold an item of ``held`` -> the names of those locals."""
    out: dict[int, tuple[str, ...]] = {}
    if not held:
        return out
    for k, frame in enumerate(frames):
        names = tuple(
            name
            for name, value in frame.names.items()
            if name != "players" and any(a.__class__ is str and a in held for a in _atoms(value))
        )
        if names:
            out[k] = names
    return out


# -- the decision pending --------------------------------------------------------------------
def _pending(
    game: PlayedGame, player: int, values: dict[str, Any], frames: tuple[Frame, ...], rand: random.Random
) -> tuple[Any, tuple[Frame, ...]]:
    """The pending decision in the sample, and the frames to go on with: another seat's
    options computed again from the new deal, and other seats' secret commits drawn again
    among them. ``_REJECTED`` when a
    seat deciding has no options in the new deal: the seat sees that it is asked, so such a
    deal is not in its information set (the caller deals again: rejection sampling)."""
    state = game.played.state
    pending = state.pending
    if pending is None or state.over or not state.frames:
        return pending, frames
    if isinstance(pending, PendingChoice) and pending.player == player:
        return pending, frames
    fresh, frames = _ask_again(game, values, frames)
    if isinstance(pending, PendingChoice):
        if isinstance(fresh, PendingChoice) and fresh.player == pending.player and (fresh.options or pending.optional):
            return PendingChoice(
                pending.player, pending.label, fresh.options, pending.optional, pending.target, pending.secret
            ), frames
        return _REJECTED, frames
    if not isinstance(fresh, PendingCommits) or fresh.players != pending.players:
        return _REJECTED, frames
    options, commits = list(pending.options), list(pending.commits)
    for i, p in enumerate(pending.players):
        if p == player:
            continue
        if not fresh.options[i]:
            return _REJECTED, frames
        options[i] = fresh.options[i]
        if commits[i] is not None:
            commits[i] = (options[i][int(rand.random() * len(options[i]))],)
    return PendingCommits.at_once(
        pending.players, pending.label, tuple(options), tuple(commits), pending.target
    ), frames


def _ask_again(game: PlayedGame, values: dict[str, Any], frames: tuple[Frame, ...]) -> tuple[Any, tuple[Frame, ...]]:
    """The decision the paused code asks for, asked again of the new variables, with the
    frames to go on with. The paused procedure is run again from its start when that
    reaches the same decision without changing anything (no variable, event or draw): then
    its locals are computed from the new deal too (a count of the gold in a hidden hand);
    else the decision is asked again with the locals as they are."""
    again = _rerun(game, values, frames)
    if again is not None:
        return again
    top = frames[-1]
    machine = Machine(game.rules, game.players, State(values, frames, None, game.played.state.rng), [])
    try:
        after = machine.run()  # a paused frame stands at its decision: running it asks again
    except (RuleRuntimeError, TypeError, ValueError, KeyError, IndexError, RecursionError):
        return None, frames
    if after.pending is None or not after.frames or (after.frames[-1].code, after.frames[-1].pc) != (top.code, top.pc):
        return None, frames
    return after.pending, after.frames


def _rerun(game: PlayedGame, values: dict[str, Any], frames: tuple[Frame, ...]) -> tuple[Any, tuple[Frame, ...]] | None:
    """The decision and frames of the paused procedure run again from its start over
    ``values``; None unless it stops at the same place having changed nothing."""
    top = frames[-1]
    params = _procedure_params(game.rules).get(top.code)
    if params is None:
        return None
    names = {n: v for n, v in top.names.items() if n in params}
    state = game.played.state
    start = State(values, (*frames[:-1], Frame(top.code, 0, top.target, names, shared=True)), None, state.rng)
    events: list[Any] = []
    machine = Machine(game.rules, game.players, start, events)
    try:
        after = machine.run()
    except (RuleRuntimeError, TypeError, ValueError, KeyError, IndexError, RecursionError):
        return None
    same = (
        not events
        and after.vars == values
        and after.rng == state.rng
        and len(after.frames) == len(frames)
        and after.frames[-1].code == top.code
        and after.frames[-1].pc == top.pc
    )
    return (after.pending, after.frames) if same else None


def _procedure_params(rules: RulesetBase) -> dict[str, frozenset[str]]:
    """Code id of each flow procedure -> the names its frame starts with."""

    def build(_: RulesetBase) -> dict[str, frozenset[str]]:
        compiled = rules.compiled
        assert compiled is not None
        return {p.code: frozenset(("players", "self", *p.params)) for p in compiled.procedures.values()}

    result: dict[str, frozenset[str]] = rules.derived("sampling.procedure_params", build)
    return result


# -- small helpers ---------------------------------------------------------------------------
def _value(values: dict[str, Any], place: Place) -> Any:
    var, slot = place
    return values[var] if slot is None else values[var][slot]


def _items(value: Any) -> tuple[Any, ...]:
    """The items a place holds: a list's entries, or a single value (none for None)."""
    if value is None:
        return ()
    if value.__class__ is tuple:
        return value
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,)


def _copied(value: Any) -> Any:
    """``value`` with every dict and list in it copied (tuples and atoms are immutable).

    >>> event = {"type": "change", "value": [1, [2]]}
    >>> copy = _copied(event)
    >>> copy == event, copy["value"][1] is event["value"][1]
    (True, False)
    """
    if value.__class__ is dict:
        return {k: _copied(v) for k, v in value.items()}
    if value.__class__ is list:
        return [_copied(v) for v in value]
    return value


def _mask(value: Any) -> Any:
    """A placeholder with the shape of ``value`` (a view redacts both alike)."""
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return (_MASK,) * len(value)
    return _MASK


def _atoms(value: Any) -> Iterator[Any]:
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _atoms(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _atoms(v)
    else:
        yield value


def _hashable(value: Any) -> bool:
    if value is None or isinstance(value, bool):
        return False
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _order(value: Any) -> tuple[str, str]:
    return (type(value).__name__, repr(value))


def _space_slot(rules: RulesetBase, space: Any) -> int | None:
    try:
        return rules.space_index(space)
    except RuleRuntimeError:
        return None


def _item_ids(rules: RulesetBase) -> frozenset[str]:
    result: frozenset[str] = rules.derived("sampling.ids", lambda r: frozenset(_kinds(r)))
    return result


def _totals(rules: RulesetBase) -> dict[str, int]:
    """Item id -> how many copies of it the rule data has."""

    def build(_: RulesetBase) -> dict[str, int]:
        out: dict[str, int] = {}
        for kind, key in rules.ITEM_KINDS.values():
            for item in rules.items(kind, key):
                ident = item.get("id")
                if isinstance(ident, str) and ident not in out:
                    out[ident] = int(item.get("count", 1) or 1)
        return out

    result: dict[str, int] = rules.derived("sampling.totals", build)
    return result


def _kinds(rules: RulesetBase) -> dict[str, str]:
    """Item id -> its kind: its component, else the list it is in."""

    def build(_: RulesetBase) -> dict[str, str]:
        out: dict[str, str] = {}
        for name, (kind, key) in rules.ITEM_KINDS.items():
            for item in rules.items(kind, key):
                ident = item.get("id")
                if isinstance(ident, str) and ident not in out:
                    out[ident] = str(item.get("component") or name)
        return out

    result: dict[str, str] = rules.derived("sampling.kinds", build)
    return result


def _kind(rules: RulesetBase, var: str, item: Any) -> tuple[str, str]:
    if item.__class__ is str:
        kind = _kinds(rules).get(item)
        if kind is not None:
            return ("item", kind)
    return ("value", var)
