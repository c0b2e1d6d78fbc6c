"""Compact observations for learning: what one seat may see, as at most a few thousand
numbers (counts and small one-hots), laid out from the state declarations and the ids the
rule data names (docs/research.md, "Compact observations").

The full observation (:mod:`.observation`) gives every variable a place for every word of
the ruleset (all ids, spaces and words: 28k-44k numbers). The compact one gives each
variable a place only for the words it can hold: its **domain**. The domain is found by
playing a few seeded random games of the ruleset at that player count (the game observed
plays no part in it): every id a variable held brings in every id of that kind (all the
cards, all the board spaces), every other word brings in itself. The layout therefore
depends only on the rule data and the player count, and it is the same in every process.

The vector starts with the header of the full observation (the seat one-hot, one flag per
player to move, whether the game is over), then the label of the seat's own pending
decision, one-hot over the ruleset's decision labels and "another" (all 0 when the seat is
not to move). Then every state variable in declaration order, once per player for
``per: player``, once per board space for ``per: space``, once otherwise:

- ``int``, ``bool``: the number;
- ``player``: one-hot over "nobody" and the players;
- ``str`` and ``any``: the number (when it is one), one flag for a word outside the
  domain, one-hot over the domain;
- ``list``: its length, the count of words outside the domain, the count of each domain
  word in it (lists of lists too); for a list that only ever held numbers (Rialto's
  councilmen per district, the Doge order) those numbers one by one; for a short list of
  lists with a small domain (Rialto's card rows, its connections' bridge tiles with the
  values they show) each element's word counts and numbers one by one (at most
  ``ITEM_BUDGET`` places for them all).

What the seat may not see stays 0, except what its view shows of it: a hidden list's
length, and whether a hidden value is there. So the compact observation of a sample
(``game.sample``) equals the game's, like the full one.

>>> import venedig_rules as vr
>>> rules = vr.load("tests/rulesets/lagoon")
>>> game = rules.new_game(players=2, seed=7)
>>> len(game.observation(0, kind="compact")) == rules.observation_shape(2, kind="compact")[0]
True
>>> game.observation(0, kind="compact") == game.sample(0, seed=3).observation(0, kind="compact")
True
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...errors import VenedigError
from ..run.machine import Machine, initial_state
from ..seat.played import PlayedGame
from ..seat.wording import tables
from .observation import Block, Observed, _atoms, _slots, observed_flow

if TYPE_CHECKING:
    from ..run.ruleset_base import RulesetBase

#: Seeded random games played to find each variable's domain (more only find the same
#: kinds: a variable that held one card of a kind gets every card of it).
EXPLORE_GAMES = 4
#: Actions after which an exploring game is given up (no ruleset needs near as many).
EXPLORE_STEPS = 20_000
#: The most numbers a list of lists may take element by element (elements x domain).
ITEM_BUDGET = 256


@dataclass
class _Seen:
    """What the exploring games showed of one variable (over all its slots)."""

    words: set[str] = field(default_factory=set)
    longest: int = 0
    only_numbers: bool = True
    only_lists: bool = True
    #: for a list of lists: the most numbers one element held
    element_numbers: int = 0


@dataclass(frozen=True)
class CompactBlock(Block):
    """Where one state variable's values lie in the compact vector: a block of the full
    layout (its ``numbers``: for a list that only held numbers, how many of them are kept one
    by one) with the variable's domain."""

    #: the domain: word -> its place among the block's word places
    words: Mapping[str, int] = field(default_factory=dict)
    #: for a list of lists: how many leading elements get their own counts
    items: int = 0
    #: and how many numbers of each such element are kept one by one
    item_numbers: int = 0

    @property
    def item_width(self) -> int:
        """The numbers of one element of a list of lists."""
        return len(self.words) + self.item_numbers


@dataclass(frozen=True)
class CompactLayout:
    """The layout of a ruleset's compact observations at one player count."""

    players: int
    size: int
    decisions: Mapping[str, int]
    blocks: tuple[CompactBlock, ...]


def compact_layout(rules: RulesetBase, players: int) -> CompactLayout:
    """The compact layout at ``players`` players (built once per ruleset and player count)."""
    compiled = observed_flow(rules, players)

    def build(_: RulesetBase) -> CompactLayout:
        seen = _explore(rules, players)
        labels = sorted(compiled.decision_labels())
        decisions = {label: i for i, label in enumerate(labels)}
        offset = 2 * players + 1 + len(labels) + 1
        blocks = []
        for name, info in compiled.state.items():
            visible = rules.state_visibility(name)
            slots = players if info.per == "player" else len(rules.space_ids) if info.per == "space" else 1
            block = _block(rules, name, info.type, info.per, visible, offset, slots, players, seen[name])
            blocks.append(block)
            offset += block.width * slots
        return CompactLayout(players, offset, decisions, tuple(blocks))

    result: CompactLayout = rules.derived(f"observation.compact.{players}", build)
    return result


def _block(
    rules: RulesetBase,
    name: str,
    kind: str,
    per: str | None,
    visible: str,
    offset: int,
    slots: int,
    players: int,
    seen: _Seen,
) -> CompactBlock:
    if visible == "hidden" or kind in ("int", "bool"):
        return CompactBlock(name, kind, per, visible, offset, 1, slots)
    if kind == "player":
        return CompactBlock(name, kind, per, visible, offset, players + 1, slots)
    words = {w: i for i, w in enumerate(_domain(rules, seen.words))}
    if kind != "list":
        return CompactBlock(name, kind, per, visible, offset, 2 + len(words), slots, words=words)
    numbers = seen.longest if seen.only_numbers else 0
    item_width = len(words) + seen.element_numbers
    nested = seen.only_lists and seen.longest > 0 and item_width > 0
    items = seen.longest if nested and seen.longest * item_width <= ITEM_BUDGET else 0
    width = 2 + len(words) + numbers + items * item_width
    return CompactBlock(
        name,
        kind,
        per,
        visible,
        offset,
        width,
        slots,
        numbers,
        words=words,
        items=items,
        item_numbers=seen.element_numbers,
    )


def _domain(rules: RulesetBase, words: set[str]) -> list[str]:
    """The words a variable can hold: every id of each kind it held, and its other words."""
    ids = tables(rules).ids
    out: set[str] = set()
    for word in words:
        kind = ids.kind_of(word)
        out.update(ids.by_kind[kind] if kind is not None else (word,))
    return sorted(out)


def _explore(rules: RulesetBase, players: int) -> dict[str, _Seen]:
    """What each variable held over a few seeded random games at ``players`` players."""
    compiled = rules.compiled
    assert compiled is not None  # compact_layout() checked it
    seen = {name: _Seen() for name in compiled.state}
    pers = {name: info.per for name, info in compiled.state.items()}
    for vars in _random_states(rules, players):
        for name, record in seen.items():
            for value in _slots(vars.get(name), pers[name]):
                _note(record, value)
    return seen


def _random_states(rules: RulesetBase, players: int) -> Iterator[Mapping[str, Any]]:
    """The variables at every decision of EXPLORE_GAMES seeded random games."""
    for seed in range(EXPLORE_GAMES):
        rng = random.Random(seed)
        try:
            state = Machine(rules, players, initial_state(rules, players, seed), None).run()
            for _ in range(EXPLORE_STEPS):
                yield state.vars
                pending = state.pending
                if pending is None or state.over:
                    break
                legal = pending.legal_actions(rng.choice(pending.movers()))
                state = Machine(rules, players, state, None).resume(pending, rng.choice(legal))
        except VenedigError:  # a rule that fails in play leaves the domains found so far
            continue


def _note(record: _Seen, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, (tuple, list)):
        record.longest = max(record.longest, len(value))
        for element in value:
            if not (isinstance(element, int) and not isinstance(element, bool)):
                record.only_numbers = False
            if isinstance(element, (tuple, list)):
                record.element_numbers = max(record.element_numbers, len(_numbers_in(element)))
            elif element is not None:
                record.only_lists = False  # an empty place (None) may stand among lists
    else:
        record.only_numbers = record.only_lists = False
    record.words.update(a for a in _atoms(value) if isinstance(a, str))


def compact_observed(game: PlayedGame, player: int) -> Observed:
    """The compact observation of ``player`` as its length and the entries that may not be 0.

    >>> import venedig_rules as vr
    >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
    >>> size, entries = compact_observed(game, 0)
    >>> size == len(game.observation(0, kind="compact")) and all(v != 0 for v in entries.values())
    True
    """
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < game.players:
        raise ValueError(f"player {player!r} is not in this game (0 to {game.players - 1})")
    n = game.players
    layout = compact_layout(game.rules, n)
    out: defaultdict[int, float] = defaultdict(float)
    out[player] = 1.0
    movers = game.to_move
    for p in movers:
        out[n + p] = 1.0
    if game.is_over:
        out[2 * n] = 1.0
    state = game.played.state
    if player in movers and state.pending is not None:
        label = state.pending.label
        out[2 * n + 1 + layout.decisions.get(label, len(layout.decisions))] = 1.0
    values = state.vars
    for block in layout.blocks:
        for slot, value in enumerate(_slots(values[block.name], block.per)):
            seen = block.visible == "all" or (block.visible == "owner" and block.per == "player" and slot == player)
            _encode(out, block.offset + slot * block.width, block, value, seen, n)
    return Observed(layout.size, {i: v for i, v in out.items() if v != 0.0})


def compact_observation(game: PlayedGame, player: int) -> list[float]:
    """The compact observation of ``player`` as a list of numbers (see the module text)."""
    size, entries = compact_observed(game, player)
    out = [0.0] * size
    for i, value in entries.items():
        out[i] = value
    return out


def _encode(
    out: MutableMapping[int, float], at: int, block: CompactBlock, value: Any, seen: bool, players: int
) -> None:
    kind = block.type
    if value is None:
        if kind == "player" and seen:
            out[at] = 1.0  # nobody
        return
    if not seen:
        out[at] = float(len(value)) if isinstance(value, (tuple, list)) else 1.0
        return
    if kind in ("int", "bool"):
        out[at] = float(value)
    elif kind == "player":
        if isinstance(value, int) and 0 <= value < players:
            out[at + 1 + value] = 1.0
    elif kind == "list":
        out[at] = float(len(value))
        _count(out, at + 2, block.words, value, outside=at + 1)
        start = at + 2 + len(block.words)
        for i, number in enumerate(value[: block.numbers]):
            if isinstance(number, (int, float)):
                out[start + i] = float(number)
        start += block.numbers
        for i, element in enumerate(value[: block.items]):
            at_item = start + i * block.item_width
            _count(out, at_item, block.words, element)
            numbers = _numbers_in(element)[: block.item_numbers]
            for j, number in enumerate(numbers):
                out[at_item + len(block.words) + j] = float(number)
    else:
        if isinstance(value, (int, float)):
            out[at] = float(value)
        place = block.words.get(value) if value.__class__ is str else None
        out[at + 1 if place is None else at + 2 + place] = 1.0


def _count(
    out: MutableMapping[int, float], at: int, words: Mapping[str, int], value: Any, outside: int | None = None
) -> None:
    """Count the words of ``value``: domain word k at ``at + k``, the others at ``outside``
    (when given)."""
    for atom in _atoms(value):
        if atom.__class__ is str:
            place = words.get(atom)
            if place is not None:
                out[at + place] += 1.0
            elif outside is not None:
                out[outside] += 1.0


def _numbers_in(value: Any) -> list[int]:
    """The whole numbers of a value, nested lists read in order (no bools)."""
    return [a for a in _atoms(value) if isinstance(a, int) and not isinstance(a, bool)]
