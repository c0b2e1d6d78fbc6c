"""The primitives every ruleset may call from the effect DSL: arithmetic with explicit
rounding, lists, players, items of the ruleset, state variables, chance, events and the
end of the game. A game adds its own in ``venedig_rules/games/<game>.py``.

Each is ``fn(ctx, *args)``; ``ctx`` is the running game (see ``venedig_rules.engine``).
No game fact lives here: numbers come from the rules or from the DSL text.
"""

from __future__ import annotations

from typing import Any

from ..errors import RuleRuntimeError
from .registry import CORE

__all__ = ["RuleRuntimeError"]

P = CORE.primitive


# -- numbers ---------------------------------------------------------------------------------
@P(params=["x:int"], result="int", example="half_down(5)  # 2")
def half_down(ctx, x):
    """Half of x, rounded down."""
    return x // 2


@P(params=["x:int"], result="int", example="half_up(5)  # 3")
def half_up(ctx, x):
    """Half of x, rounded up."""
    return -(-x // 2)


@P(params=["a:int", "b:int"], result="int", example="div(17, 5)  # 3")
def div(ctx, a, b):
    """a divided by b, rounded down (no change is given)."""
    if b == 0:
        raise RuleRuntimeError("div() by zero")
    return a // b


@P(params=["*values:any"], result="int", example="min(3, 5)  # 3; min([4, 2])  # 2")
def min_(ctx, *values):
    """The smallest of the values, or of one list (none for an empty list)."""
    items = values[0] if len(values) == 1 and isinstance(values[0], tuple) else values
    return min(items) if items else None


@P(params=["*values:any"], result="int", example="max(3, 5)  # 5")
def max_(ctx, *values):
    """The largest of the values, or of one list (none for an empty list)."""
    items = values[0] if len(values) == 1 and isinstance(values[0], tuple) else values
    return max(items) if items else None


@P(params=["x:int"], result="int", example="abs(-2)  # 2")
def abs_(ctx, x):
    """The absolute value."""
    return abs(x)


@P(params=["items:list"], result="int", example="sum([1, 2, 3])  # 6")
def sum_(ctx, items):
    """The total of a list of numbers."""
    return sum(items)


# -- lists -----------------------------------------------------------------------------------
@P(params=["items:list"], result="int", example="count(hand[self])")
def count(ctx, items):
    """How many items a list has."""
    return len(items)


@P(params=["items:list"], result="any", example="first(deck)")
def first(ctx, items):
    """The first item, or none for an empty list."""
    return items[0] if items else None


@P(params=["items:list"], result="any", example="last(track)")
def last(ctx, items):
    """The last item, or none for an empty list."""
    return items[-1] if items else None


@P(params=["items:list"], result="list", example="rest(deck)")
def rest(ctx, items):
    """The list without its first item."""
    return tuple(items[1:])


@P(params=["items:list", "n:int"], result="list", example="take(deck, 3)")
def take(ctx, items, n):
    """The first n items (fewer if the list is shorter)."""
    return tuple(items[: max(n, 0)])


@P(params=["items:list", "item:any"], result="list", example="without(hand[self], card)")
def without(ctx, items, item):
    """The list with the first occurrence of item removed (unchanged if absent)."""
    items = tuple(items)
    if item in items:
        i = items.index(item)
        return items[:i] + items[i + 1 :]
    return items


@P(params=["items:list", "item:any"], result="int", example='occurrences(hand[self], "casa_card")')
def occurrences(ctx, items, item):
    """How often item occurs in the list."""
    return tuple(items).count(item)


@P(params=["lists:list"], result="list", example="count(flatten(hand))  # cards in all hands")
def flatten(ctx, lists):
    """One list of the items of a list of lists."""
    return tuple(item for sub in lists for item in (sub or ()))


@P(params=["items:list"], result="list", example="count(compact(owner))  # spaces with an owner")
def compact(ctx, items):
    """The list without its none values."""
    return tuple(item for item in items if item is not None)


@P(params=["items:list"], result="list", example="distinct(hand[self])")
def distinct(ctx, items):
    """The list without repeats, in first-seen order."""
    return tuple(dict.fromkeys(items))


@P(params=["items:list"], result="list", example="sorted(scores)")
def sorted_(ctx, items):
    """The list in ascending order."""
    return tuple(sorted(items, key=_order))


@P(params=["items:list"], result="list", example="reversed(order)")
def reversed_(ctx, items):
    """The list back to front."""
    return tuple(reversed(items))


@P(params=["low:int", "high:int"], result="list", example="range(1, 4)  # [1, 2, 3]")
def range_(ctx, low, high):
    """The whole numbers from low up to high, high excluded."""
    if high - low > 10_000:
        raise RuleRuntimeError(f"range({low}, {high}) is too long")
    return tuple(range(low, high))


@P(params=["items:list", "item:any"], result="int", example="position(order, self)")
def position(ctx, items, item):
    """The 0-based index of item in the list, or none."""
    items = tuple(items)
    return items.index(item) if item in items else None


@P(params=["items:list", "n:int"], result="any", example="item_at(order, 0)")
def item_at(ctx, items, n):
    """The item at 0-based index n, or none when out of range."""
    return items[n] if 0 <= n < len(items) else None


# -- players ---------------------------------------------------------------------------------
@P(params=["p:player"], result="player", example="next_player(self)")
def next_player(ctx, p):
    """The player to the left (clockwise)."""
    return (p + 1) % ctx.player_count


@P(params=["p:player"], result="list", example="clockwise_from(self)")
def clockwise_from(ctx, p):
    """All players, starting with p, then clockwise."""
    n = ctx.player_count
    return tuple((p + i) % n for i in range(n))


@P(params=["p:player"], result="list", example="opponents(self)")
def opponents(ctx, p):
    """The other players, clockwise from p's left."""
    n = ctx.player_count
    return tuple((p + i) % n for i in range(1, n))


@P(result="int", example="player_count()")
def player_count(ctx):
    """How many players play."""
    return ctx.player_count


# -- the ruleset's items -----------------------------------------------------------------------
@P(params=["kind:str"], result="list", example='copies("cards")')
def copies(ctx, kind):
    """The ids of a kind's items (cards, tiles, buildings), each repeated by its count; items
    marked with min_players above the player count are left out."""
    return ctx.copies(kind)


@P(params=["kind:str"], result="list", example='ids("buildings")')
def ids(ctx, kind):
    """The ids of a kind's items, once each, in file order."""
    return ctx.ids(kind)


@P(params=["item:str", "name:str", "default:any=none"], result="any", example='param(card, "stones")')
def param(ctx, item, name, *default):
    """A param of an item (card, tile, building, ...), else its card type's; when neither
    has it, ``default`` if given, else the default game.yaml ``parameters`` declares."""
    return ctx.param(item, name, *default)


@P(params=["item:str", "field:str"], result="any", example='field(card, "type")')
def field(ctx, item, field):
    """A plain field of an item (type, building, component, count, ...), or none."""
    return ctx.item(item).get(field)


@P(
    params=["item:str", "field:str"],
    result="any",
    keywords=True,
    calls=True,
    example='let pts = effect(building, "points", site: s)',
)
def effect(ctx, item, field, **bindings):
    """Run an item's DSL field (effect, points, ability) with the given names bound, and
    give its value; it may wait for decisions."""
    return ctx.call_item(item, field, bindings)


@P(params=["when:str"], result="none", keywords=True, calls=True, example='trigger("game_end")')
def trigger(ctx, when, **bindings):
    """Run every scoring rule whose ``when`` is the given word, in file order."""
    return ctx.call_rules(when, bindings)


# -- state ------------------------------------------------------------------------------------
@P(params=["zone:ref list"], changes=True, example="shuffle(deck)")
def shuffle(ctx, zone):
    """Put a list variable in a random order."""
    zone.set(ctx.shuffled(zone.get()), "shuffle")


@P(params=["source:ref list", "target:ref list"], result="any", changes=True, example="draw(deck, hand[self])")
def draw(ctx, source, target):
    """Move the first item of source to the end of target and give it (none if source is empty)."""
    items = source.get()
    if not items:
        return None
    item = items[0]
    ctx.move(item, source, target, 0)
    return item


@P(params=["item:any", "source:ref list", "target:ref list"], changes=True, example="move(card, hand[self], discard)")
def move(ctx, item, source, target):
    """Move one copy of item from source to the end of target."""
    items = source.get()
    if item not in items:
        raise RuleRuntimeError(f"move(): {item!r} is not in {source}")
    ctx.move(item, source, target, items.index(item))


@P(params=["item:any", "target:ref list"], changes=True, example="put(card, discard)")
def put(ctx, item, target):
    """Add item to the end of a list variable."""
    target.set(tuple(target.get()) + (item,), "put")


@P(params=["item:any", "source:ref list"], changes=True, example="remove(card, pool)")
def remove(ctx, item, source):
    """Remove one copy of item from a list variable."""
    items = tuple(source.get())
    if item not in items:
        raise RuleRuntimeError(f"remove(): {item!r} is not in {source}")
    i = items.index(item)
    source.set(items[:i] + items[i + 1 :], "remove")


# -- chance ----------------------------------------------------------------------------------
@P(params=["n:int"], result="int", changes=True, example="random(6) + 1")
def random(ctx, n):
    """A random whole number from 0 to n - 1."""
    return ctx.random_below(n)


# -- events and the end -----------------------------------------------------------------------
@P(params=["kind:str"], keywords=True, changes=True, example='event("build", player: self, building: b)')
def event(ctx, kind, **fields):
    """Tell the players something happened; ``to: p`` shows it to p only."""
    ctx.narrate(kind, fields)


@P(changes=True, example="end_game()")
def end_game(ctx):
    """End the game now: nothing more runs; winners by the scoring rules."""
    ctx.end()


@P(params=["*winners:player"], changes=True, example="win(self)")
def win(ctx, *winners):
    """End the game now with these players as the winners."""
    ctx.end(tuple(winners[0]) if len(winners) == 1 and isinstance(winners[0], tuple) else winners)


def _order(value: Any):
    return (type(value).__name__, value)


# -- the board --------------------------------------------------------------------------------
@P(params=[], result="list", keywords=True, example='spaces(terrain: "land", region: "west")')
def spaces(ctx, **where):
    """The board spaces whose attributes match every keyword (terrain, region, start,
    building, tags), sorted."""
    return tuple(sorted(ctx.rules.board.spaces_where(**where)))


@P(params=["space:str"], result="list", example="neighbours(site)")
def neighbours(ctx, space):
    """The spaces next to a space, sorted."""
    return _board_query(ctx.rules.board.neighbours, space)


@P(params=["space:str"], result="str", example="region_of(site)")
def region_of(ctx, space):
    """The region (district) a space belongs to, or none."""
    return _board_query(ctx.rules.board.region_of, space)


@P(params=["space:str", "name:str"], result="any", example='space_attr(s, "terrain")')
def space_attr(ctx, space, name):
    """One attribute of a space (terrain, region, start, building, tags), or none."""
    return _board_query(ctx.rules.board.attrs, space).get(name)


def _board_query(fn, space):
    try:
        return fn(space)
    except (KeyError, ValueError) as exc:
        raise RuleRuntimeError(str(exc).strip('"')) from None
