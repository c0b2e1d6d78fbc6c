"""Observations for research: what one seat may see, as a flat list of numbers whose layout
comes from the state declarations (docs/research.md, "Observations").

The vector starts with a header: the seat (one-hot over the players), who is to move (one
flag per player) and whether the game is over. Then every state variable in declaration
order (score tracks first), once per player for ``per: player``, once per board space for
``per: space`` (a board plane), once otherwise, by its declared ``type``:

- ``int``: the number; ``bool``: 1 or 0;
- ``player``: one-hot over "none" and the players;
- ``str`` and ``any``: the number (when it is one), then one-hot over "none or another word"
  and the ruleset's vocabulary (every id of the rule data, every space, every word its
  constants and rule code use, sorted);
- ``list``: its length, the counts of each vocabulary word in it (lists of lists too), and,
  when the list holds numbers after setup (Rialto's councilmen per district), those
  numbers one by one (as many as it held then).

What the seat may not see stays 0, except what its view shows of it: a hidden list's
length, and whether a hidden value is there. A variable hidden from everyone
(``visible: hidden``) takes only those places (length, presence). So the observation of
any sample (``game.sample``) equals the game's.

>>> import venedig_rules as vr
>>> rules = vr.load("tests/rulesets/lagoon")
>>> game = rules.new_game(players=2, seed=7)
>>> len(game.observation(0)) == rules.observation_shape(2)[0]
True
>>> game.observation(0) == game.sample(0, seed=3).observation(0)
True
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from ..run.machine import Machine, initial_state
from ..seat.played import PlayedGame

if TYPE_CHECKING:
    from ...effects import Compiled
    from ..run.ruleset_base import RulesetBase


_WORD = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)"')


@dataclass(frozen=True)
class Block:
    """Where one state variable's values lie in the vector."""

    name: str
    type: str
    per: str | None
    visible: str
    offset: int
    #: numbers per slot (one slot per player, per space, or one)
    width: int
    slots: int
    #: for lists: how many numbers they held after setup (encoded one by one)
    numbers: int = 0


@dataclass(frozen=True)
class Layout:
    """The layout of a ruleset's observations at one player count."""

    players: int
    size: int
    vocabulary: tuple[str, ...]
    index: dict[str, int]
    blocks: tuple[Block, ...]


def observed_flow(rules: RulesetBase, players: int) -> Compiled:
    """The compiled rules whose games are observed at ``players`` players; ValueError when
    the ruleset is not for that many or has no flow (so no games)."""
    if players not in rules.players:
        raise ValueError(f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, not {players}")
    compiled = rules.compiled
    if compiled is None:
        raise ValueError(f"ruleset {rules.name!r} has no flow: it has no games to observe")
    return compiled


def observation_layout(rules: RulesetBase, players: int) -> Layout:
    """The layout at ``players`` players (built once per ruleset and player count)."""
    compiled = observed_flow(rules, players)

    def build(_: RulesetBase) -> Layout:
        vocabulary = _vocabulary(rules)
        index = {w: i for i, w in enumerate(vocabulary)}
        setup = _after_setup(rules, players)
        offset = 2 * players + 1
        blocks = []
        for name, info in compiled.state.items():
            visible = rules.state_visibility(name)
            slots = players if info.per == "player" else len(rules.space_ids) if info.per == "space" else 1
            numbers = 0
            if info.type == "list" and visible != "hidden":
                numbers = max((_numbers(v) for v in _slots(setup.get(name), info.per)), default=0)
            width = _width(info.type, visible, players, len(vocabulary), numbers)
            blocks.append(Block(name, info.type, info.per, visible, offset, width, slots, numbers))
            offset += width * slots
        return Layout(players, offset, vocabulary, index, tuple(blocks))

    result: Layout = rules.derived(f"observation.{players}", build)
    return result


def observation(game: PlayedGame, player: int) -> list[float]:
    """What ``player`` may see of ``game``, as numbers (see the module text)."""
    size, entries = observed(game, player)
    out = [0.0] * size
    for i, value in entries.items():
        out[i] = value
    return out


class Observed(NamedTuple):
    """An observation as its length and its entries that may not be 0 (the rest are): a
    few dozen of tens of thousands, which an adapter writes straight into a zeroed array
    (``a[list(entries)] = list(entries.values())``) instead of converting the whole list."""

    size: int
    entries: dict[int, float]


def observed(game: PlayedGame, player: int) -> Observed:
    """:func:`observation` as its length and the entries that may not be 0.

    >>> import venedig_rules as vr
    >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
    >>> size, entries = observed(game, 0)
    >>> full = game.observation(0)
    >>> size == len(full) and all(full[i] == entries.get(i, 0.0) for i in range(size))
    True
    """
    if not isinstance(player, int) or not 0 <= player < game.players:
        raise ValueError(f"player {player!r} is not in this game (0 to {game.players - 1})")
    rules, n = game.rules, game.players
    layout = observation_layout(rules, n)
    out: defaultdict[int, float] = defaultdict(float)
    out[player] = 1.0
    for p in game.to_move:
        out[n + p] = 1.0
    out[2 * n] = 1.0 if game.is_over else 0.0
    values = game.played.state.vars
    for block in layout.blocks:
        for slot, value in enumerate(_slots(values[block.name], block.per)):
            seen = block.visible == "all" or (block.visible == "owner" and block.per == "player" and slot == player)
            _encode(out, block.offset + slot * block.width, block, value, seen, layout)
    return Observed(layout.size, out)


def information_state_string(game: PlayedGame, player: int) -> str:
    """The canonical JSON of ``game.view(player)`` (sorted keys, no spaces, UTF-8 kept): all
    the seat knows, its event log included. The events already written for this game and
    seat are kept, so following a game costs time in its length, not in its square.

    >>> import json, venedig_rules as vr
    >>> game = vr.load("tests/rulesets/lagoon").new_game(players=2, seed=7)
    >>> json.loads(information_state_string(game, 0)) == game.view(0)
    True
    """
    played = game.played
    seats = played.texts
    if seats is None:
        seats = played.texts = {}
    known = seats.get(player)
    events = played.events
    if not isinstance(known, _Texts) or not known.follows(events):
        known = _Texts()
        seats[player] = known
    view = cast("dict[str, Any]", game.view(player, since=known.cursor))
    known.pieces.extend(_canonical(e) for e in view["events"])
    known.seen, known.last, known.cursor = len(events), (events[-1] if events else None), view["cursor"]
    view["events"] = _SPLICE
    head = _canonical(view)
    return head.replace(_canonical(_SPLICE), "[" + ",".join(known.pieces) + "]", 1)


@dataclass
class _Texts:
    """One seat's events of one game as canonical JSON, and how far they go."""

    seen: int = 0  # events of the game read
    cursor: int = 0  # of those, the ones the seat received (its view's cursor)
    last: object = None  # the last event read (compared by identity)
    pieces: list[str] = field(default_factory=list)

    def follows(self, events: Sequence[object]) -> bool:
        """Whether ``events`` go on from the ones read (no undo took any of them away)."""
        return self.seen <= len(events) and (self.seen == 0 or events[self.seen - 1] is self.last)


_SPLICE = "\u0000events\u0000"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _width(kind: str, visible: str, players: int, words: int, numbers: int) -> int:
    if visible == "hidden":
        return 1  # a length, or whether a value is there
    if kind in ("int", "bool"):
        return 1
    if kind == "player":
        return players + 1
    if kind == "list":
        return 1 + words + numbers
    return 2 + words  # str, any: a number, then one-hot with "none or another word"


def _encode(out: MutableMapping[int, float], at: int, block: Block, value: Any, seen: bool, layout: Layout) -> None:
    if value is None:
        return
    if not seen:
        out[at] = float(len(value)) if isinstance(value, (tuple, list)) else 1.0
        return
    kind = block.type
    if kind in ("int", "bool"):
        out[at] = float(value)
    elif kind == "player":
        if isinstance(value, int) and 0 <= value < layout.players:
            out[at + 1 + value] = 1.0
    elif kind == "list":
        out[at] = float(len(value))
        words = layout.index
        for atom in _atoms(value):
            if atom.__class__ is str and atom in words:
                out[at + 1 + words[atom]] += 1.0
        if block.numbers:
            start = at + 1 + len(words)
            for i, atom in enumerate(a for a in value if isinstance(a, (int, float)) and not isinstance(a, bool)):
                if i >= block.numbers:
                    break
                out[start + i] = float(atom)
    else:
        if isinstance(value, (int, float)):
            out[at] = float(value)
        out[at + 2 + layout.index[value] if value.__class__ is str and value in layout.index else at + 1] = 1.0


def _slots(value: Any, per: str | None) -> tuple[Any, ...]:
    if per is None:
        return (value,)
    return tuple(value) if value is not None else ()


def _numbers(value: Any) -> int:
    """How many numbers a list holds (0 when it holds anything else)."""
    if not isinstance(value, (tuple, list)) or not value:
        return 0
    if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return len(value)
    return 0


def _atoms(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _atoms(v)
    else:
        yield value


def _after_setup(rules: RulesetBase, players: int) -> dict[str, Any]:
    """The variables once the rules have set the game up (a seeded game at its first
    decision), for the shapes of number lists."""
    try:
        return dict(Machine(rules, players, initial_state(rules, players, 0), []).run().vars)
    except Exception:  # a ruleset that cannot start has no shapes to learn
        return {}


def _vocabulary(rules: RulesetBase) -> tuple[str, ...]:
    """Every word an observation names: the ids of the rule data, the board spaces, and the
    words of its constants and rule code."""

    def build(_: RulesetBase) -> tuple[str, ...]:
        words: set[str] = set(rules.space_ids)
        stack: list[Any] = [rules.data]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                ident = value.get("id")
                if isinstance(ident, str):
                    words.add(ident)
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)
            elif isinstance(value, str):
                words.update(_WORD.findall(value))
        constants = rules.data["game"].get("constants") or {}
        for value in constants.values():
            for item in _atoms(value.get("value") if isinstance(value, dict) else value):
                if isinstance(item, str):
                    words.add(item)
        return tuple(sorted(words))

    result: tuple[str, ...] = rules.derived("observation.vocabulary", build)
    return result
