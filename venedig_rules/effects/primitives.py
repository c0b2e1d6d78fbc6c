"""The primitives every ruleset may call from the effect DSL: arithmetic with explicit
rounding, lists, players, items of the ruleset, state variables, chance, events and the
end of the game. A game adds its own in ``venedig_rules/games/<game>.py``.

Each is ``fn(ctx, *args)``; ``ctx`` is the running game (a
:class:`~venedig_rules.effects.context.Context`), the annotations are the DSL types (see
:mod:`venedig_rules.effects.registry`). No game fact lives here: numbers come from the
rules or from the DSL text.

A list parameter is typed ``Sequence``: besides the DSL's own lists (tuples) it may get the
raw list of a rule file field (``field(tile, "pattern")``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar

from ..errors import RuleRuntimeError
from ..limits import MAX_RANGE
from .context import CallRequestLike, Context
from .registry import CORE, OMITTED, ListRef, Player
from .runtime import join

__all__ = ["RuleRuntimeError"]

P = CORE.primitive
T = TypeVar("T")
#: What ``win`` takes: seats, or (from a value the checker cannot type) one list of them.
Players = Annotated[int | tuple[int, ...], "player"]


# -- numbers ---------------------------------------------------------------------------------
@P(example="half_down(5)  # 2")
def half_down(ctx: Context, x: int) -> int:
    """Half of x, rounded down."""
    return x // 2


@P(example="half_up(5)  # 3")
def half_up(ctx: Context, x: int) -> int:
    """Half of x, rounded up."""
    return -(-x // 2)


@P(example="div(17, 5)  # 3")
def div(ctx: Context, a: int, b: int) -> int:
    """a divided by b, rounded down (no change is given)."""
    if b == 0:
        raise RuleRuntimeError("div() by zero")
    return a // b


@P(example="min(3, 5)  # 3; min([4, 2])  # 2")
def min_(ctx: Context, *values: Any) -> int | None:
    """The smallest of the values, or of one list (none for an empty list)."""
    items = values[0] if len(values) == 1 and isinstance(values[0], tuple) else values
    return min(items) if items else None


@P(example="max(3, 5)  # 5")
def max_(ctx: Context, *values: Any) -> int | None:
    """The largest of the values, or of one list (none for an empty list)."""
    items = values[0] if len(values) == 1 and isinstance(values[0], tuple) else values
    return max(items) if items else None


@P(example="abs(-2)  # 2")
def abs_(ctx: Context, x: int) -> int:
    """The absolute value."""
    return abs(x)


@P(example="sum([1, 2, 3])  # 6")
def sum_(ctx: Context, items: Sequence[int]) -> int:
    """The total of a list of numbers."""
    return sum(items)


# -- lists -----------------------------------------------------------------------------------
@P(example="count(hand[self])")
def count(ctx: Context, items: Sequence[Any]) -> int:
    """How many items a list has."""
    return len(items)


@P(example="first(deck)")
def first(ctx: Context, items: Sequence[Any]) -> Any:
    """The first item, or none for an empty list."""
    return items[0] if items else None


@P(example="last(track)")
def last(ctx: Context, items: Sequence[Any]) -> Any:
    """The last item, or none for an empty list."""
    return items[-1] if items else None


@P(example="rest(deck)")
def rest(ctx: Context, items: Sequence[Any]) -> tuple[Any, ...]:
    """The list without its first item."""
    return tuple(items[1:])


@P(example="take(deck, 3)")
def take(ctx: Context, items: Sequence[Any], n: int) -> tuple[Any, ...]:
    """The first n items (fewer if the list is shorter)."""
    return tuple(items[: max(n, 0)])


@P(example="without(hand[self], card)")
def without(ctx: Context, items: Sequence[Any], item: Any) -> tuple[Any, ...]:
    """The list with the first occurrence of item removed (unchanged if absent)."""
    items = tuple(items)
    if item in items:
        i = items.index(item)
        return items[:i] + items[i + 1 :]
    return items


@P(example='occurrences(hand[self], "casa_card")')
def occurrences(ctx: Context, items: Sequence[Any], item: Any) -> int:
    """How often item occurs in the list."""
    return tuple(items).count(item)


@P(example="count(flatten(hand))  # cards in all hands")
def flatten(ctx: Context, lists: Sequence[Sequence[Any] | None]) -> tuple[Any, ...]:
    """One list of the items of a list of lists."""
    return tuple([item for sub in lists for item in (sub or ())])


@P(example="count(compact(owner))  # spaces with an owner")
def compact(ctx: Context, items: Sequence[Any]) -> tuple[Any, ...]:
    """The list without its none values."""
    return tuple([item for item in items if item is not None])


@P(example="distinct(hand[self])")
def distinct(ctx: Context, items: Sequence[Any]) -> tuple[Any, ...]:
    """The list without repeats, in first-seen order."""
    return tuple(dict.fromkeys(items))


@P(example="sorted(scores)")
def sorted_(ctx: Context, items: Sequence[Any]) -> tuple[Any, ...]:
    """The list in ascending order."""
    return tuple(sorted(items, key=_order))


@P(example="reversed(order)")
def reversed_(ctx: Context, items: Sequence[Any]) -> tuple[Any, ...]:
    """The list back to front."""
    return tuple(reversed(items))


@P(example="range(1, 4)  # [1, 2, 3]")
def range_(ctx: Context, low: int, high: int) -> tuple[int, ...]:
    """The whole numbers from low up to high, high excluded."""
    if high - low > MAX_RANGE:
        raise RuleRuntimeError(f"range({low}, {high}) is too long: it would hold more than {MAX_RANGE} numbers")
    return tuple(range(low, high))


@P(example="position(order, self)")
def position(ctx: Context, items: Sequence[Any], item: Any) -> int | None:
    """The 0-based index of item in the list, or none."""
    items = tuple(items)
    return items.index(item) if item in items else None


@P(example="item_at(order, 0)")
def item_at(ctx: Context, items: Sequence[Any], n: int) -> Any:
    """The item at 0-based index n, or none when out of range."""
    return items[n] if 0 <= n < len(items) else None


@P(example="get(order, 5, none)")
def get(ctx: Context, items: Sequence[Any], i: int, default: Any) -> Any:
    """The item at 0-based index i (negative: from the end), or default when out of range."""
    return items[i] if -len(items) <= i < len(items) else default


# -- players ---------------------------------------------------------------------------------
@P(example="next_player(self)")
def next_player(ctx: Context, p: Player) -> Player:
    """The player to the left (clockwise)."""
    return (p + 1) % ctx.player_count


@P(example="clockwise_from(self)")
def clockwise_from(ctx: Context, p: Player) -> tuple[int, ...]:
    """All players, starting with p, then clockwise."""
    n = ctx.player_count
    return tuple([(p + i) % n for i in range(n)])


@P(example="opponents(self)")
def opponents(ctx: Context, p: Player) -> tuple[int, ...]:
    """The other players, clockwise from p's left."""
    n = ctx.player_count
    return tuple([(p + i) % n for i in range(1, n)])


@P(example="player_count()")
def player_count(ctx: Context) -> int:
    """How many players play."""
    return ctx.player_count


# -- the ruleset's items -----------------------------------------------------------------------
@P(example='copies("cards")')
def copies(ctx: Context, kind: str) -> tuple[str, ...]:
    """The ids of a kind's items (cards, tiles, buildings), each repeated by its count; items
    marked with min_players above the player count are left out."""
    return ctx.copies(kind)


@P(example='ids("buildings")')
def ids(ctx: Context, kind: str) -> tuple[str, ...]:
    """The ids of a kind's items, once each, in file order."""
    return ctx.ids(kind)


@P(example='param(card, "stones")')
def param(ctx: Context, item: str, name: str, default: Any = OMITTED) -> Any:
    """A param of an item (card, tile, building, ...), else its card type's; when neither
    has it, ``default`` if given, else the default game.yaml ``parameters`` declares."""
    return ctx.param(item, name) if default is OMITTED else ctx.param(item, name, default)


@P(example='field(card, "type")')
def field(ctx: Context, item: str, field: str) -> Any:
    """A plain field of an item (type, building, component, count, ...), or none."""
    return ctx.item(item).get(field)


@P(example='declassify(steps, "the gondola moves on the open track")')
def declassify(ctx: Context, value: Any, why: str) -> Any:
    """``value``, declassified: the flow check lets it reach what every seat sees. ``why``
    quotes the rulebook sentence that shows it (docs/dsl.md, "Hidden information")."""
    return value


@P(
    result="any",
    calls=True,
    example='let pts = effect(building, "points", site: s)',
)
def effect(ctx: Context, item: str, field: str, **bindings: Any) -> tuple[CallRequestLike, ...]:
    """Run an item's DSL field (effect, points, ability) with the given names bound, and
    give its value; it may wait for decisions."""
    return ctx.call_item(item, field, bindings)


@P(result="none", calls=True, example='trigger("game_end")')
def trigger(ctx: Context, when: str, **bindings: Any) -> tuple[CallRequestLike, ...]:
    """Run every scoring rule whose ``when`` is the given word, in file order."""
    return ctx.call_rules(when, bindings)


# -- state ------------------------------------------------------------------------------------
@P(changes=True, example="shuffle(deck)")
def shuffle(ctx: Context, zone: ListRef) -> None:
    """Put a list variable in a random order."""
    zone.set(ctx.shuffled(zone.get()), "shuffle")


@P(changes=True, example="draw(deck, hand[self])")
def draw(ctx: Context, source: ListRef, target: ListRef) -> Any:
    """Move the first item of source to the end of target and give it (none if source is empty)."""
    items = source.get()
    if not items:
        return None
    item = items[0]
    ctx.move(item, source, target, 0)
    return item


@P(changes=True, example="move(card, hand[self], discard)")
def move(ctx: Context, item: Any, source: ListRef, target: ListRef) -> None:
    """Move one copy of item from source to the end of target."""
    ctx.move(item, source, target)  # (generated code calls the machine's move at once)


@P(changes=True, example="put(card, discard)")
def put(ctx: Context, item: Any, target: ListRef) -> None:
    """Add item to the end of a list variable."""
    # counted from the list's count, remembered (join): a growing list of lists, such as
    # Säulen's built tiles, is not walked whole again at every put
    target.set(join(tuple(target.get()), (item,)), "put")


@P(changes=True, example="remove(card, pool)")
def remove(ctx: Context, item: Any, source: ListRef) -> None:
    """Remove one copy of item from a list variable."""
    items = tuple(source.get())
    if item not in items:
        raise RuleRuntimeError(f"remove(): {item!r} is not in {source}")
    i = items.index(item)
    source.set(items[:i] + items[i + 1 :], "remove")


# -- chance ----------------------------------------------------------------------------------
@P(changes=True, example="random(6) + 1")
def random(ctx: Context, n: int) -> int:
    """A random whole number from 0 to n - 1."""
    return ctx.random_below(n)


# -- events and the end -----------------------------------------------------------------------
@P(changes=True, example='event("build", player: self, building: b)')
def event(ctx: Context, kind: str, **fields: Any) -> None:
    """Tell the players something happened; ``to: p`` shows it to p only."""
    ctx.narrate(kind, fields)


@P(changes=True, example="end_game()")
def end_game(ctx: Context) -> None:
    """End the game now: nothing more runs; winners by the scoring rules."""
    ctx.end()


@P(changes=True, example="win(self)")
def win(ctx: Context, *winners: Players) -> None:
    """End the game now with these players as the winners."""
    ctx.end(tuple(winners[0]) if len(winners) == 1 and isinstance(winners[0], tuple) else winners)


def _order(value: Any) -> tuple[str, Any]:
    return (type(value).__name__, value)


# -- the board --------------------------------------------------------------------------------
@P(example='spaces(terrain: "land", region: "west")')
def spaces(ctx: Context, **where: Any) -> tuple[str, ...]:
    """The board spaces whose attributes match every keyword (terrain, region, start,
    building, tags), sorted."""
    return tuple(sorted(ctx.rules.board.spaces_where(**where)))


@P(example="neighbours(site)")
def neighbours(ctx: Context, space: str) -> tuple[str, ...]:
    """The spaces next to a space, sorted."""
    return _board_query(ctx.rules.board.neighbours, space)


@P(example="region_of(site)")
def region_of(ctx: Context, space: str) -> str | None:
    """The region (district) a space belongs to, or none."""
    return _board_query(ctx.rules.board.region_of, space)


@P(example='space_attr(s, "terrain")')
def space_attr(ctx: Context, space: str, name: str) -> Any:
    """One attribute of a space (terrain, region, start, building, tags), or none."""
    return _board_query(ctx.rules.board.attrs, space).get(name)


def _board_query(fn: Callable[[str], T], space: str) -> T:
    try:
        return fn(space)
    except (KeyError, ValueError) as exc:
        raise RuleRuntimeError(str(exc).strip('"')) from None
