"""Die Säulen von Venedig: the board queries too procedural for the effect DSL.

Everything a player decides, and every score, is DSL in ``rules/saeulen/``; these
primitives only *answer questions* about the board: where the next pillar may stand
(and where a group may begin so that the whole card can be carried out), which pillars
are free for a marker, which tiles can be built where, which tiles lie on
top of the shape piles, and a few counts the invariants need. None of them changes the
game.

Game facts come from the ruleset: the terrain names (``game.yaml`` constants
``pillar_terrain`` and ``canal_terrain``), the board (``board.yaml``), the tile shapes,
patterns and stones (``tiles.yaml``). A tile cell whose pattern word is the canal terrain
(a bridge's middle) lies over a free canal square; every other cell on a free pillar.

Per-space state variables arrive as tuples in ``ruleset.space_ids`` order; the tables
that turn them into answers are built once per ruleset and cached.

>>> import venedig_rules as vr
>>> rules = vr.load("saeulen")
>>> t = tables(rules)
>>> empty = (False,) * len(rules.space_ids)
>>> "a3" in _spots(t, empty, ()), "a1" in _spots(t, empty, ())
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..effects.constant_kinds import ConstantKind
from ..effects.context import Context, RulesQuery, per_ruleset
from ..effects.registry import Registry
from . import _saeulen_walks

#: The game.yaml constants and item params this module's Python reads (tests/test_reads.py
#: checks this against the source): the check that every declared datum is read counts them.
PRIMITIVES = Registry(
    constants_read={"canal_terrain": ConstantKind.TERRAIN, "pillar_terrain": ConstantKind.TERRAIN},
    params_read=frozenset({"stones"}),
)
P = PRIMITIVES.primitive

__all__ = ["PRIMITIVES", "tables"]


#: One way to lay a tile: (its spaces in cell order, the indexes of the spaces its cells
#: need a free pillar on, of those needing a free canal square: a bridge's middle). A plain
#: tuple: the hot loops unpack it, and unpacking a NamedTuple is two to three times slower.
Placement = tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]


class Tables:
    """Precomputed facts of one ruleset's board and tiles (read-only)."""

    def __init__(self, rules: RulesQuery):
        board = rules.board
        ids = rules.space_ids
        index = {s: i for i, s in enumerate(ids)}
        land_terrain = rules.constant("pillar_terrain")
        canal_terrain = rules.constant("canal_terrain")
        self.ids: tuple[str, ...] = ids
        self.index: dict[str, int] = index
        land = board.spaces_where(terrain=land_terrain)
        canal = board.spaces_where(terrain=canal_terrain)
        #: the land squares in the order of their names: the walks over them find squares in
        #: that order, which is the order of a decision's options (ordered.py), so that the
        #: machine need not sort them
        self.land: tuple[int, ...] = tuple([index[s] for s in sorted(land)])
        self.canal: frozenset[int] = frozenset(index[s] for s in canal)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(index[n] for n in board.neighbours(s)) for s in ids)
        self.land_set: frozenset[int] = frozenset(self.land)
        #: each space's neighbours on land (where pillars stand), in the squares' order: the
        #: squares beside those placed come in that order without a sort
        self.land_neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(n for n in around if n in self.land_set)) for around in self.neighbours
        )
        self.by_canal: frozenset[int] = frozenset(
            i for i in self.land if any(n in self.canal for n in self.neighbours[i])
        )
        #: each land square in order: (its index, whether it lies by the canal, its land neighbours)
        self.land_around: tuple[tuple[int, bool, tuple[int, ...]], ...] = tuple(
            (i, i in self.by_canal, self.land_neighbours[i]) for i in self.land
        )
        #: the compiled build's walks over these tables in C (None in the pure package)
        self.walks: _saeulen_walks.Walks | None = (
            None if _saeulen_walks.board is None else _saeulen_walks.board(self.land_around, self.land_neighbours)
        )
        #: tile id -> {space index of the placement's first pillar cell: candidates}
        self.anchored: dict[str, dict[int, tuple[Placement, ...]]] = {}
        #: tile id -> {a candidate's cells: its place in the tile's candidates}
        self.rank: dict[str, dict[tuple[str, ...], int]] = {}
        #: pile -> its tops (piles change rarely; see pile_tops)
        self.tops: dict[tuple[str, ...], tuple[str, ...]] = {}
        #: the pile pile_tops was last asked about, and its tops (an empty pile has none)
        self.last_tops: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        #: the board _free was last asked about, and its answer
        self.free_memo: _FreeMemo | None = None
        self.shape_order: tuple[str, ...] = tuple(s["id"] for s in rules.items("tiles", "shapes"))
        self.tile_shape: dict[str, str] = {}
        self.tile_stones: dict[str, int] = {}
        #: tile id -> candidate placements
        self.candidates: dict[str, tuple[Placement, ...]] = {}
        #: (shape, pattern) -> its candidates, and those by their first pillar cell
        by_key: dict[tuple[str, tuple[Any, ...]], tuple[tuple[Placement, ...], dict[int, tuple[Placement, ...]]]] = {}
        ranks: dict[tuple[str, tuple[Any, ...]], dict[tuple[str, ...], int]] = {}
        cells_of = {s["id"]: s["cells"] for s in rules.items("tiles", "shapes")}
        for tile in rules.items("tiles"):
            ident, shape = tile["id"], tile["shape"]
            self.tile_shape[ident] = shape
            self.tile_stones[ident] = int(rules.item_param(ident, "stones", 0))
            over_canal = tuple(word == canal_terrain for word in tile.get("pattern") or ()) or (False,) * len(
                cells_of[shape]
            )
            pattern = tuple(tile.get("pattern") or over_canal)
            key = (shape, pattern)
            if key not in by_key:
                allowed = [canal if water else land for water in over_canal]
                found: list[Placement] = []
                seen: set[frozenset[tuple[str, Any]]] = set()
                for cells in board.placements(shape, None, allowed):
                    # two turns that put the same words on the same squares are one placement
                    look = frozenset(zip(cells, pattern))
                    if look in seen:
                        continue
                    seen.add(look)
                    on_pillars = tuple(index[c] for c, water in zip(cells, over_canal) if not water)
                    on_canal = tuple(index[c] for c, water in zip(cells, over_canal) if water)
                    found.append((cells, on_pillars, on_canal))
                anchored: dict[int, list[Placement]] = {}
                for cand in found:
                    _, pillars, _ = cand
                    anchored.setdefault(pillars[0], []).append(cand)
                by_key[key] = (tuple(found), {i: tuple(c) for i, c in anchored.items()})
                ranks[key] = {cells: n for n, (cells, _, _) in enumerate(found)}
            self.candidates[ident], self.anchored[ident] = by_key[key]
            self.rank[ident] = ranks[key]


def tables(rules: RulesQuery) -> Tables:
    """The cached :class:`Tables` of a ruleset."""
    return rules.derived("saeulen", Tables)


#: ``ctx -> tables(ctx.rules)`` as the primitives ask it, the last ruleset's kept at hand
_tables = per_ruleset("saeulen", Tables)


# -- pillars and markers --------------------------------------------------------------------------
@P(example="pillar_spots(has_pillar, placed)")
def pillar_spots(ctx: Context, has_pillar: Sequence[bool], placed: Sequence[str]) -> tuple[str, ...]:
    """The free land squares where the next pillar of a Pitch Dipper action may stand: with
    nothing placed yet in this action, those sharing an edge with the canal or a pillar;
    after that, those sharing an edge with a pillar placed earlier in this action."""
    return _spots(_tables(ctx), has_pillar, placed)


@P(example="pillar_starts(has_pillar, 4)")
def pillar_starts(ctx: Context, has_pillar: Sequence[bool], need: int) -> tuple[str, ...]:
    """The free land squares where the first pillar of a Pitch Dipper's group may stand so
    that all ``need`` pillars of the group can follow it: squares sharing an edge with the
    canal or a pillar whose free land area (the free land squares joined to it edge to edge)
    holds at least ``need`` squares. Where no square allows that, those allowing the most.

    A group grows by any free land square beside it, so from a first pillar it can take in
    its whole area, and every later pillar beside the group keeps the rest of it reachable:
    only the first pillar of a group can make the card impossible to carry out."""
    t = _tables(ctx)
    ids = t.ids  # (read once: a comprehension would look it up for every square)
    return tuple([ids[i] for i in _best_starts(t, has_pillar, need)])


@P(example="free_pillars(has_pillar, marker, ground)")
def free_pillars(
    ctx: Context, has_pillar: Sequence[bool], marker: Sequence[int | None], ground: Sequence[str | None]
) -> tuple[str, ...]:
    """The pillars with neither a city tile nor a pillar marker on them."""
    t = _tables(ctx)
    ids = t.ids
    return tuple([ids[i] for i in _free(t, has_pillar, ground) if marker[i] is None])


# -- city tiles -------------------------------------------------------------------------------------
@P(example="pile_tops(pile)")
def pile_tops(ctx: Context, pile: tuple[str, ...]) -> tuple[str, ...]:
    """The top tile of each shape pile (the first tile of each shape in ``pile``), in the
    order of the shapes in tiles.yaml; empty piles give nothing."""
    t = _tables(ctx)
    last = t.last_tops
    if last[0] is pile:  # asked again of the very same pile (no hash of its tiles)
        return last[1]
    found = t.tops.get(pile)
    if found is None:
        tops: dict[str, str] = {}
        tile_shape, shapes = t.tile_shape, len(t.shape_order)  # read once, not per tile
        for tile in pile:
            tops.setdefault(tile_shape[tile], tile)
            if len(tops) == shapes:
                break
        found = tuple([tops[s] for s in t.shape_order if s in tops])
        if len(t.tops) > 10_000:
            t.tops.clear()
        t.tops[tuple(pile)] = found
    t.last_tops = (pile, found)  # one object, set at once (see _free)
    return found


@P(example="build_spots(t, has_pillar, ground)")
def build_spots(
    ctx: Context, tile: str, has_pillar: Sequence[bool], ground: Sequence[str | None]
) -> tuple[tuple[str, ...], ...]:
    """Every legal placement of a tile, each a list of spaces in the tile's cell order
    (so its pattern lines up), in every rotation: cells on free pillars, a bridge's middle
    over a free canal square, nothing on another tile. Turns that show the same pattern
    on the same squares (a domino of two buildings turned half round) are given once."""
    t = _tables(ctx)
    found = _placements(t.anchored[_tile(t, tile)], _free(t, has_pillar, ground), has_pillar, ground, False)
    if len(found) > 1:
        found.sort(key=t.rank[tile].__getitem__)  # in the order of the tile's candidates
    return tuple(found)


@P(example="buildable(supply[self], 0, left, has_pillar, ground)")
def buildable(
    ctx: Context, tiles: Sequence[str], low: int, high: int, has_pillar: Sequence[bool], ground: Sequence[str | None]
) -> tuple[str, ...]:
    """The tiles of a list (once each) costing from low to high stones that have at least
    one legal placement."""
    t = _tables(ctx)
    out = []
    free = None
    for tile in dict.fromkeys(tiles):
        if not low <= t.tile_stones[_tile(t, tile)] <= high:
            continue
        if free is None:
            free = _free(t, has_pillar, ground)
        if _placements(t.anchored[tile], free, has_pillar, ground, True):
            out.append(tile)
    return tuple(out)


# -- counts for the invariants ----------------------------------------------------------------------
@P(example="built_cells(built)")
def built_cells(ctx: Context, built: Sequence[tuple[str, Sequence[str]]]) -> tuple[str, ...]:
    """Every space covered by a built tile (``built`` holds [tile, [spaces]] entries)."""
    return tuple([cell for _, cells in built for cell in cells])


@P(example="unsupported_cells(built, has_pillar)")
def unsupported_cells(ctx: Context, built: Sequence[tuple[str, Sequence[str]]], has_pillar: Sequence[bool]) -> int:
    """How many cells of built tiles are not where they may be: a cell showing the canal
    word (a bridge's middle) not over the canal, any other cell not on a pillar."""
    t = _tables(ctx)
    canal_word = ctx.rules.constant("canal_terrain")
    bad = 0
    for tile, cells in built:
        pattern = ctx.rules.item(tile).get("pattern") or ()
        for cell, word in zip(cells, pattern):
            i = t.index[cell]
            bad += (i not in t.canal) if word == canal_word else (not has_pillar[i])
    return bad


@P(example="misplaced_markers(marker, has_pillar, ground)")
def misplaced_markers(
    ctx: Context, marker: Sequence[int | None], has_pillar: Sequence[bool], ground: Sequence[str | None]
) -> int:
    """How many pillar markers on the board stand on no pillar or under a city tile."""
    return sum([1 for m, p, g in zip(marker, has_pillar, ground) if m is not None and (not p or g is not None)])


@P(example="pillars_on(has_pillar, canal_terrain)")
def pillars_on(ctx: Context, has_pillar: Sequence[bool], terrain: str) -> int:
    """How many pillars stand on squares of a terrain."""
    board, ids = ctx.rules.board, _tables(ctx).ids
    where = board.spaces_where(terrain=terrain)
    return sum([1 for i, p in enumerate(has_pillar) if p and ids[i] in where])


@P(example="tally(flatten(reserve))")
def tally(ctx: Context, items: Sequence[Any]) -> tuple[int, ...]:
    """How often each player occurs in a list, indexed by player."""
    counts = [0] * ctx.player_count
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < ctx.player_count:
            counts[item] += 1
    return tuple(counts)


@P(example="sizes(hand)")
def sizes(ctx: Context, lists: Sequence[Sequence[Any] | None]) -> tuple[int, ...]:
    """The length of each list of a list of lists (e.g. each player's hand)."""
    return tuple([len(items or ()) for items in lists])


# -- helpers ----------------------------------------------------------------------------------------
# The board walks are plain loops that build lists: compiled, saeulen.pxd types their square
# numbers as C integers, which a comprehension's own variable or a generator would not be.
# The compiled build walks the hottest ones in C, over the tables' ``walks``
# (_saeulen_walks.py says why); the pure package has none.
def _spots(t: Tables, has_pillar: Sequence[bool], placed: Sequence[str]) -> tuple[str, ...]:
    # (a comprehension, not map(ids.__getitem__): a tuple's __getitem__ is a slot wrapper,
    # called with a tuple of arguments made for each square)
    ids = t.ids
    return tuple([ids[i] for i in _spot_indexes(t, has_pillar, placed)])


def _spot_indexes(t: Tables, has_pillar: Sequence[bool], placed: Sequence[str]) -> list[int]:
    """:func:`_spots` as space indexes, in the squares' order: with nothing placed, that of
    the land (the squares' names, the order of a decision's options); beside squares placed,
    the board's (a few squares, which the machine sorts: putting them in name order cost
    Säulen's pure package 0.4% of an action's instructions)."""
    if placed:
        if t.walks is not None:
            return t.walks.spots_beside(placed, t.index, has_pillar)
        # a plain loop over the placed squares' land neighbours (in order): one to four
        # squares placed, so no set and no comprehension (a function call each in Python 3.11)
        index, land_neighbours = t.index, t.land_neighbours
        found = []
        for s in placed:
            for n in land_neighbours[index[s]]:
                if not has_pillar[n] and n not in found:
                    found.append(n)
        if len(placed) > 1:
            found.sort()
        return found
    if t.walks is not None:
        return t.walks.spot_starts(has_pillar)
    return _walked_starts(t, has_pillar, 1)  # (every start's area holds one square: itself)


def _free(t: Tables, has_pillar: Sequence[bool], ground: Sequence[str | None]) -> list[int]:
    """The land squares with a pillar and nothing built on it (a list shared with later
    calls: not to be changed). A Master Builder's tiles are found buildable and then placed
    on the very same board values, and the free pillars for markers are asked of it too: the
    last board's answer is kept (one object, set at once: a thread sees the old answer or
    the new one, both right)."""
    memo = t.free_memo
    if memo is not None and memo.has_pillar is has_pillar and memo.ground is ground:
        return memo.squares
    if t.walks is not None:
        found = t.walks.free_squares(has_pillar, ground)
    else:
        found = []
        for i in t.land:
            if has_pillar[i] and ground[i] is None:
                found.append(i)
    if type(has_pillar) is tuple and type(ground) is tuple:  # values that cannot change
        t.free_memo = _FreeMemo(has_pillar, ground, found)
    return found


class _FreeMemo:
    """:func:`_free`'s answer for one board (``has_pillar``, ``ground``, by identity). A
    plain class, as venedig.py's: a NamedTuple or dataclass compiles code when the module
    is imported, which a game module is at every ruleset's first load."""

    __slots__ = ("ground", "has_pillar", "squares")

    def __init__(self, has_pillar: tuple[bool, ...], ground: tuple[str | None, ...], squares: list[int]):
        self.has_pillar, self.ground, self.squares = has_pillar, ground, squares


def _best_starts(t: Tables, has_pillar: Sequence[bool], need: int) -> list[int]:
    """The squares where a group's first pillar may stand (:func:`_spot_indexes` with
    nothing placed) whose free land areas (the free land squares joined to them edge to
    edge) hold ``need`` squares or more, or where none does, those of the largest area; in
    the land's order."""
    if t.walks is None:
        return _walked_starts(t, has_pillar, need)
    starts = t.walks.spot_starts(has_pillar)  # the compiled build: starts and areas walked in C
    sizes = t.walks.area_sizes(has_pillar, starts, need)
    most = max(sizes, default=0)
    return [i for i, size in zip(starts, sizes) if size == most]


def _walked_starts(t: Tables, has_pillar: Sequence[bool], need: int) -> list[int]:
    """:func:`_best_starts` in Python, the starts found and their areas walked in one pass.
    A square walked is marked with its walk, the list of the squares it found (no pillar's
    value is a list). A walk stops at ``need`` squares, or at a square an earlier walk found,
    which stopped there (one that went on found its whole area): the two are one area. Most
    starts join a walk beside them (one walk over all free land took a fifth more time)."""
    mark: list[Any] = list(has_pillar)
    land_neighbours = t.land_neighbours
    enough = []  # the starts whose areas hold ``need`` squares or more
    short = []  # the others, with their areas' sizes
    for first, by_canal, around in t.land_around:  # each free land square by the canal or a pillar
        if has_pillar[first]:
            continue
        if not by_canal:
            for n in around:
                if has_pillar[n]:
                    break
            else:
                continue
        walk = mark[first]
        if not walk:
            for n in around:  # beside an earlier walk, which stopped at ``need``: its area
                walk = mark[n]
                if type(walk) is list:
                    mark[first] = walk
                    break
            else:
                walk = mark[first] = [first]
                if need > 1:
                    for i in walk:  # (the list grows as the walk finds squares)
                        for n in land_neighbours[i]:
                            other = mark[n]
                            if not other:
                                mark[n] = walk
                                walk.append(n)
                            elif type(other) is list and other is not walk:  # one area: its walk
                                for j in walk:
                                    mark[j] = other
                                walk = other
                                break
                        else:
                            if len(walk) < need:
                                continue
                        break
        if len(walk) >= need:  # a walk that stopped found ``need`` or more; one that ended, its area
            enough.append(first)
        else:
            short.append((first, len(walk)))
    return enough if enough or not short else _largest(short)


def _largest(sized: list[tuple[int, int]]) -> list[int]:
    """The squares of (square, area size) pairs whose areas are the largest."""
    most = max([size for _, size in sized])
    return [first for first, size in sized if size == most]


def _placements(
    anchored: dict[int, tuple[Placement, ...]],
    free: Sequence[int],
    has_pillar: Sequence[bool],
    ground: Sequence[str | None],
    first_only: bool,
) -> list[tuple[str, ...]]:
    """The cells of each placement of ``anchored`` (a tile's candidates by their first
    pillar cell) that lies on free pillars and free canal squares, or only the first one
    found. A placement's first pillar cell must be free: only those anchored on a square of
    ``free`` are looked at. Plain loops: this runs for every tile a Master Builder may take."""
    found = []
    for i in free:
        for cells, pillars, water in anchored.get(i, ()):
            for j in pillars:
                if not has_pillar[j] or ground[j] is not None:
                    break
            else:
                for j in water:
                    if ground[j] is not None:
                        break
                else:
                    found.append(cells)
                    if first_only:
                        return found
    return found


def _tile(t: Tables, tile: str) -> str:
    if tile not in t.candidates:
        from ..errors import RuleRuntimeError

        raise RuleRuntimeError(f"{tile!r} is not a city tile")
    return tile
