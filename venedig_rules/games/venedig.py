"""Venedig: the mechanics too procedural for the effect DSL, as primitives.

The flow of the game (turns, the three actions, every decision, building, treasures,
movement, the end) is DSL in ``rules/venedig/game.yaml`` and ``scoring.yaml``; the points
formulas are DSL in ``buildings.yaml``. What lives here are *queries*: which sets of
cards a player may lay out, how a lay-out splits into complete sets (built alone) and
cards towards a shared building, who holds which master builder piece afterwards, who is
involved in a building, the free building sites of a building, the spaces around a site,
where a gondola lands when occupied spaces are skipped, which gold tiles pay for an
exchange, the draw options. Every primitive takes the state it needs as arguments
(``laid_out``, ``built``, ...) and returns a value; the DSL makes every change.

Every number and name comes from the ruleset: building params (``cards``,
``master_builder``, ``site``), shapes, connections and the gondola track of the board,
tile params (``gold``, ``spent``) and the constants of ``game.yaml`` (``hand_limit``,
``draw_*``, ``cards_play_max``, ``gondola_track``, ``imaginary_name``, ...). Facts derived
from the ruleset (candidate sites, neighbourhoods) are computed once per ruleset.

The imaginary third player of a two-player game appears wherever a holder of cards
or of a master builder piece may appear, as the value of the constant ``imaginary_name``.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=1)
>>> game.apply("p0 pass").legal_actions()[0].name   # after the secret gold exchange
'play'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import chain, compress, product
from operator import itemgetter
from typing import Any

from ..data.board import Track
from ..effects.constant_kinds import ConstantKind
from ..effects.context import Context, RulesQuery, per_ruleset
from ..effects.registry import Player, Registry
from ..errors import RuleRuntimeError
from . import _venedig_walks

#: The game.yaml constants and item params this module's Python reads (tests/test_reads.py
#: checks this against the source): the check that every declared datum is read counts them.
PRIMITIVES = Registry(
    constants_read={
        "cards_play_max": ConstantKind.COUNT,
        "cards_play_min": ConstantKind.COUNT,
        "draw_pool_place": ConstantKind.COUNT,
        "draw_pool_take": ConstantKind.COUNT,
        "draw_single": ConstantKind.COUNT,
        "gondola_track": ConstantKind.TRACK,
        "hand_limit": ConstantKind.COUNT,
        "imaginary_name": ConstantKind.TEXT,
        "pool_types_unique": ConstantKind.FLAG,
        "skip_occupied": ConstantKind.FLAG,
    },
    params_read=frozenset({"cards", "gold", "master_builder", "site", "spaces"}),
    # these read of the swamp gold only where a swamp tile lies, as every view shows
    shape_only={"building_sites": ("swamp",), "swamp_spaces": ("swamp",)},
)
P = PRIMITIVES.primitive

#: Who may hold cards or a master builder piece: a seat, or the imaginary player's name.
Holder = int | str
#: The cards each seat has laid out (state ``laid_out``).
LaidOut = tuple[tuple[str, ...], ...]
#: The imaginary player's laid-out cards (state ``imaginary_laid_out``).
Ghost = tuple[str, ...] | None
#: Each master builder piece as (building type, holder; none: on its space).
Pieces = tuple[tuple[str, Holder | None], ...]
#: A per-space value: a building (``built``) or a swamp tile (``swamp_gold``), or none.
PerSpace = tuple[str | None, ...]


# -- facts of the ruleset, computed once per ruleset ------------------------------------------
class _FreeMemo:
    """building_sites' free spaces for one (built, swamp, blocked), by space index, and its
    answers by building. A plain class: a NamedTuple or dataclass compiles code when the module is
    imported, which a game module is at every ruleset's first load."""

    __slots__ = ("blocked", "built", "free", "sites", "swamp")

    def __init__(
        self,
        built: PerSpace,
        swamp: PerSpace,
        blocked: Sequence[str] | None,
        free: Any,
        sites: dict[str, tuple[tuple[str, ...], ...]],
    ):
        self.built, self.swamp, self.blocked, self.free, self.sites = built, swamp, blocked, free, sites


class _Facts:
    """What the primitives need to know about one ruleset, precomputed."""

    def __init__(self, rules: RulesQuery):
        self.rules = rules
        board = rules.board
        declared = (rules.data["game"].get("parameters") or {}).get("buildings") or {}
        defaults = {name: decl.get("default") for name, decl in declared.items()}

        def bparam(b: Mapping[str, Any], name: str) -> Any:
            return (b.get("params") or {}).get(name, defaults.get(name))

        self.buildings: tuple[str, ...] = tuple(b["id"] for b in rules.items("buildings"))
        self.need: dict[str, int] = {b["id"]: int(bparam(b, "cards")) for b in rules.items("buildings")}
        self.has_master: dict[str, bool] = {
            b["id"]: bool(bparam(b, "master_builder")) for b in rules.items("buildings")
        }
        self.size: dict[str, int] = {b["id"]: int(bparam(b, "spaces")) for b in rules.items("buildings")}
        # every Venedig card shows a building (a card without one fails here, not later)
        self.card_building: dict[str, str] = {c["id"]: c["building"] for c in rules.items("cards")}
        tiles = rules.items("tiles", "tiles")
        self.gold: dict[str, int] = {t["id"]: int((t.get("params") or {}).get("gold", 0)) for t in tiles}
        self.component: dict[str, str | None] = {t["id"]: t.get("component") for t in tiles}
        self.component.update({c["id"]: c.get("component") for c in rules.items("cards")})
        self.spaces: tuple[str, ...] = rules.space_ids
        self.region: dict[str, str | None] = {s: board.region_of(s) for s in self.spaces}
        self.track: Track = board.track(rules.constant("gondola_track"))
        self.imaginary: str = rules.constant("imaginary_name")
        self.sites: dict[str, tuple[tuple[str, ...], ...]] = {}
        for b in rules.items("buildings"):
            kind = bparam(b, "site")
            if kind in (None, "any"):
                found = board.placements(b["shape"], board.spaces, unordered=True)
            else:  # a connection tag: the building stands on the spaces of such a connection
                found = tuple(sorted(tuple(sorted(c.spaces)) for c in board.connections.values() if kind in c.tags))
            self.sites[b["id"]] = tuple(tuple(sorted(site)) for site in found)
        index = {space: i for i, space in enumerate(self.spaces)}
        self.index: dict[str, int] = index  # a space's place in per-space values
        #: each building's sites as the spaces' indexes (in self.sites' order)
        self.site_indexes: dict[str, tuple[tuple[int, ...], ...]] = {
            b: tuple(tuple(index[s] for s in site) for site in sites) for b, sites in self.sites.items()
        }
        self.around_cache: dict[tuple[str, ...], tuple[str, ...]] = {}
        #: (hand, laid_out, ghost, who) -> playable_sets' answer
        self.playable_cache: dict[tuple[tuple[str, ...], LaidOut, Ghost, Holder], tuple[tuple[str, ...], ...]] = {}
        #: building_sites' last free spaces: (built, swamp, blocked) they were found for, by
        #: identity (strong references keep the ids valid), the free spaces, and the answers
        #: for them by building (asked again and again within a turn). One tuple, read once
        #: per call: another game of the ruleset may replace it meanwhile (the web server's
        #: bots think in worker threads, web/app.py)
        self.free_memo: _FreeMemo | None = None
        #: (index, space) of every space, in sorted order of the spaces: a per-space value's
        #: spaces come out sorted without a sort
        self.by_name: tuple[tuple[int, str], ...] = tuple(sorted(enumerate(self.spaces), key=itemgetter(1)))
        #: (swamp value, swamp_spaces' answer) of the last call, the value by identity; one
        #: tuple for the same reason as free_memo
        self.swamp_memo: tuple[PerSpace | None, tuple[str, ...]] = (None, ())
        #: the compiled build's walk of by_name in C (None in the pure package)
        self.swamp_walk: _venedig_walks.SpaceOrder | None = (
            None if _venedig_walks.order is None else _venedig_walks.order(self.by_name)
        )
        #: and of the building sites (None in the pure package)
        self.site_walk: _venedig_walks.Sites | None = (
            None
            if _venedig_walks.sites is None
            else _venedig_walks.sites(self.site_indexes, self.sites, len(self.spaces))
        )
        #: the pure package's reading of the free spaces of each building whose sites are
        #: one space each (a Casa's, a Campo's): one C gather of those spaces, site by site,
        #: where the loop of _free_sites takes some 50 ns a site (two in three of Venedig's
        #: asks; a site of several spaces gains nothing from chained C iterators)
        self.one_space_sites: dict[str, itemgetter[Any]] = (
            {}
            if self.site_walk is not None
            else {
                b: itemgetter(*[site[0] for site in indexes])
                for b, indexes in self.site_indexes.items()
                if len(indexes) > 1 and all(len(site) == 1 for site in indexes)
            }
        )
        self.constants: dict[str, Any] = {
            name: rules.constant(name)
            for name in (
                "hand_limit",
                "draw_single",
                "draw_pool_place",
                "draw_pool_take",
                "pool_types_unique",
                "cards_play_min",
                "cards_play_max",
                "skip_occupied",
            )
        }


_facts = per_ruleset("venedig", _Facts)


def _holders(ctx: Context, laid_out: LaidOut, ghost: Ghost) -> list[tuple[Holder, tuple[str, ...]]]:
    """(holder, cards laid out) for every seat, then the imaginary player."""
    out: list[tuple[Holder, tuple[str, ...]]] = list(enumerate(laid_out))
    out.append((_facts(ctx).imaginary, tuple(ghost or ())))
    return out


def _count_type(f: _Facts, cards: Sequence[str], building: str) -> int:
    card_building = f.card_building
    n = 0
    for card in cards:  # a plain loop: compiled, map would call __getitem__ as a method per card
        if card_building[card] == building:
            n += 1
    return n


def _type_counts(f: _Facts, cards: Iterable[str]) -> dict[str, int]:
    """How many of ``cards`` there are of each building type (types with none left out)."""
    card_building = f.card_building
    out: dict[str, int] = {}
    for card in cards:
        building = card_building[card]
        out[building] = out.get(building, 0) + 1
    return out


def _laid_out_by_type(f: _Facts, laid_out: LaidOut, ghost: Ghost) -> dict[str, int]:
    """How many cards of each building type all holders have laid out together."""
    return _type_counts(f, chain(chain.from_iterable(laid_out), ghost or ()))


def _split(f: _Facts, cards: Sequence[str], before: int, others: int, building: str) -> tuple[int, int] | None:
    """(complete sets, remaining cards) of ``cards`` of one type laid out at once, or None
    when that lay-out is not allowed: the remaining cards plus those already laid out for the
    type (by this holder ``before``, by everybody else ``others``) may not exceed the need."""
    n, need = len(cards), f.need[building]
    sets = n // need
    rest = n - sets * need
    if rest and rest + before + others > need:
        return None
    return sets, rest


def _by_type(f: _Facts, cards: Iterable[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in cards:
        out.setdefault(f.card_building[c], []).append(c)
    return out


def _counts(f: _Facts, laid_out: LaidOut, ghost: Ghost, who: Holder, building: str) -> tuple[int, int]:
    """(cards of the type laid out by ``who``, by everybody else). The holders walked as
    _holders lists them, without the list: asked for each type of a hand at every turn."""
    mine = others = 0
    for holder, cards in enumerate(laid_out):
        n = _count_type(f, cards, building)
        if holder == who:
            mine += n
        else:
            others += n
    n = _count_type(f, ghost or (), building)
    if f.imaginary == who:
        mine += n
    else:
        others += n
    return mine, others


# -- action 1: playing cards --------------------------------------------------------------------
@P(example="playable_sets(hand[p], laid_out, imaginary_laid_out, p)")
def playable_sets(
    ctx: Context, hand: tuple[str, ...], laid_out: LaidOut, ghost: Ghost, who: Holder
) -> tuple[tuple[str, ...], ...]:
    """Every non-empty set of hand cards ``who`` may lay out at once, each sorted: of each
    building type either complete sets (built alone) plus cards that, with those laid out by
    all players, do not exceed the cards the building needs, or only such cards; at least
    ``cards_play_min`` and at most ``cards_play_max`` cards."""
    f = _facts(ctx)
    key = (hand, laid_out, ghost, who)
    found = f.playable_cache.get(key)
    if found is not None:
        return found
    if len(f.playable_cache) > 20_000:
        f.playable_cache.clear()
    groups = _by_type(f, hand)
    choices = []
    for building, cards in sorted(groups.items()):
        mine, others = _counts(f, laid_out, ghost, who, building)
        cards = sorted(cards)
        ok = [
            tuple(cards[:n])
            for n in range(len(cards) + 1)
            if n == 0 or _split(f, cards[:n], mine, others, building) is not None
        ]
        choices.append(ok)
    least, limit = max(1, f.constants["cards_play_min"]), f.constants["cards_play_max"]
    out = set()
    for combo in product(*choices):
        chosen = tuple(sorted([c for part in combo for c in part]))
        if least <= len(chosen) <= limit:
            out.add(chosen)
    found = f.playable_cache[key] = tuple(sorted(out))
    return found


@P(example="let parts = split_play(cards, laid_out, imaginary_laid_out, p)")
def split_play(
    ctx: Context, cards: Sequence[str], laid_out: LaidOut, ghost: Ghost, who: Holder
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """[complete sets, other cards] of a lay-out: per type, as many complete sets as the
    cards make (these build alone, without the master builder piece), the rest towards the
    building shared with others. Raises when the lay-out is not allowed."""
    f = _facts(ctx)
    alone, joint = [], []
    for building, group in _by_type(f, cards).items():
        mine, others = _counts(f, laid_out, ghost, who, building)
        split = _split(f, group, mine, others, building)
        if split is None:
            raise RuleRuntimeError(f"{who!r} may not lay out {group!r}: more {building} cards than it needs")
        sets, _ = split
        cut = sets * f.need[building]
        alone += group[:cut]
        joint += group[cut:]
    return (tuple(alone), tuple(joint))


@P(example="pending_builds = builds_ready(alone_sets, laid_out, imaginary_laid_out)")
def builds_ready(
    ctx: Context, alone_sets: Sequence[str], laid_out: LaidOut, ghost: Ghost
) -> tuple[tuple[str, str], ...]:
    """The buildings to build now, as [building, "alone"] per complete set laid out at once
    and [building, "joint"] per type whose cards laid out by all together reach its need;
    in building order."""
    f = _facts(ctx)
    out = []
    alone = _type_counts(f, alone_sets)
    together = _laid_out_by_type(f, laid_out, ghost)
    for b in f.buildings:
        need = f.need[b]
        out += [(b, "alone")] * (alone.get(b, 0) // need)
        if together.get(b, 0) >= need:
            out.append((b, "joint"))
    return tuple(out)


@P(example="complete_types(laid_out, imaginary_laid_out)")
def complete_types(ctx: Context, laid_out: LaidOut, ghost: Ghost) -> tuple[str, ...]:
    """The building types whose cards laid out by all together reach (or pass) their need."""
    f = _facts(ctx)
    together = _laid_out_by_type(f, laid_out, ghost)
    return tuple([b for b in f.buildings if together.get(b, 0) >= f.need[b]])


@P(example="building_types(laid_out[p])")
def building_types(ctx: Context, cards: Sequence[str]) -> tuple[str, ...]:
    """The building types of some cards, each once, in first-seen order."""
    cb = _facts(ctx).card_building
    return tuple(dict.fromkeys([cb[c] for c in cards]))


@P(example="most_types(laid_out)")
def most_types(ctx: Context, laid_out: LaidOut) -> int:
    """The largest number of building types any one player has laid out."""
    cb = _facts(ctx).card_building
    return max([len({cb[c] for c in cards}) for cards in laid_out], default=0)


# -- master builder pieces ----------------------------------------------------------------------
@P(example="master_of(master_piece, b)")
def master_of(ctx: Context, pieces: Pieces, building: str) -> Holder | None:
    """Who holds the master builder piece of a building type (none: it is on its space)."""
    for b, holder in pieces:
        if b == building:
            return holder
    return None


@P(example="master_piece = with_holder(master_piece, b, none)")
def with_holder(ctx: Context, pieces: Pieces, building: str, holder: Holder | None) -> Pieces:
    """The pieces with the piece of ``building`` given to ``holder`` (none: back on its space)."""
    return tuple([(b, holder if b == building else h) for b, h in pieces])


@P(example="master_piece = masters_after(master_piece, parts[1], laid_out, imaginary_laid_out, p)")
def masters_after(
    ctx: Context, pieces: Pieces, cards: Sequence[str], laid_out: LaidOut, ghost: Ghost, who: Holder
) -> Pieces:
    """The pieces after ``who`` laid out ``cards`` (already in ``laid_out``) towards shared
    buildings: ``who`` takes the piece of a type whose piece is on its space (they begin the
    building) or whose holder has fewer cards of it laid out than ``who`` now has; a tie
    leaves the piece where it is."""
    f = _facts(ctx)
    types = {f.card_building[c] for c in cards}
    out = []
    for b, holder in pieces:
        if b in types and f.has_master[b] and holder != who:
            mine, _ = _counts(f, laid_out, ghost, who, b)
            theirs = _counts(f, laid_out, ghost, holder, b)[0] if holder is not None else -1
            if mine > theirs:
                holder = who
        out.append((b, holder))
    return tuple(out)


@P(example="master_piece = master_leaves(master_piece, t, p, laid_out, imaginary_laid_out)")
def master_leaves(ctx: Context, pieces: Pieces, building: str, who: Holder, laid_out: LaidOut, ghost: Ghost) -> Pieces:
    """The pieces after ``who`` discarded their cards of ``building``: if ``who`` held its
    piece, it passes to the holder with most cards of it laid out (ties: the first clockwise
    from ``who``, the imaginary player last), or back to its space when nobody has any."""
    f = _facts(ctx)
    if master_of(ctx, pieces, building) != who:
        return tuple(pieces)
    holders = _holders(ctx, laid_out, ghost)
    seats = len(laid_out)
    start = who if isinstance(who, int) else 0
    order = [holders[(start + i) % seats] for i in range(1, seats + 1)] + [holders[-1]]
    best, best_n = None, 0
    for holder, cards in order:
        n = _count_type(f, cards, building)
        if holder != who and n > best_n:
            best, best_n = holder, n
    return with_holder(ctx, pieces, building, best)


@P(example="pieces_held_rightly(master_piece, laid_out, imaginary_laid_out)")
def pieces_held_rightly(ctx: Context, pieces: Pieces, laid_out: LaidOut, ghost: Ghost) -> bool:
    """Whether every master builder piece is on its space or with a holder who has cards of
    its type laid out, and there is one piece per type with a master builder."""
    f = _facts(ctx)
    if sorted([b for b, _ in pieces]) != sorted([b for b in f.buildings if f.has_master[b]]):
        return False
    cards_of = dict(_holders(ctx, laid_out, ghost))
    return all([holder is None or _count_type(f, cards_of.get(holder, ()), b) > 0 for b, holder in pieces])


@P(example="involved(b, mode, master, laid_out, active)")
def involved(
    ctx: Context, building: str, mode: str, master: Holder | None, laid_out: LaidOut, actor: Player
) -> tuple[int, ...]:
    """The players (seats) involved in a building, the master builder first, then clockwise:
    built alone, only its builder; shared, every player with cards of it laid out. The
    imaginary player is never listed (it has no gondola); when it is the master builder the
    order starts with the player whose turn it is."""
    seats = len(laid_out)
    if mode == "alone":
        return (master,) if isinstance(master, int) else ()
    f = _facts(ctx)
    start = master if isinstance(master, int) else actor
    order = [(start + i) % seats for i in range(seats)]
    return tuple([p for p in order if _count_type(f, laid_out[p], building) > 0])


# -- the board ----------------------------------------------------------------------------------
@P(example="building_sites(b, built, swamp_gold, drained_now)")
def building_sites(
    ctx: Context, building: str, built: PerSpace, swamp: PerSpace, blocked: Sequence[str] | None
) -> tuple[tuple[str, ...], ...]:
    """The free sites of a building, each a sorted list of spaces: every space without a
    building and without a swamp tile and not in ``blocked`` (spaces drained this turn),
    in the building's shape (or on a connection of its ``site`` kind, for a Ponte)."""
    f = _facts(ctx)
    memo = f.free_memo
    walk = f.site_walk  # the compiled build's walks in C (_venedig_walks.py)
    if memo is None or memo.built is not built or memo.swamp is not swamp or memo.blocked is not blocked:
        places = []  # the blocked spaces' indexes (a name that is no space blocks nothing)
        for space in blocked or ():
            i = f.index.get(space)
            if i is not None:
                places.append(i)
        memo = f.free_memo = _FreeMemo(built, swamp, blocked, _free_mask(built, swamp, places, walk), {})
    found = memo.sites.get(building)
    if found is None:
        if walk is None:
            single = f.one_space_sites.get(building)
            if single is not None:  # (more than one site: itemgetter then gives a tuple)
                found = tuple(compress(f.sites[building], single(memo.free)))
            else:
                found = _free_sites(f.sites[building], f.site_indexes[building], memo.free)
        else:
            found = walk.free_sites(building, memo.free)
        memo.sites[building] = found
    return found


def _free_mask(built: PerSpace, swamp: PerSpace, blocked: list[int], walk: _venedig_walks.Sites | None) -> Any:
    """Which spaces are free, by space index (a site is then checked by its spaces' indexes):
    no building, no swamp tile, not ``blocked``. A list of bools, or the compiled walk's
    bytes, which only it reads."""
    if walk is not None:
        return walk.free_mask(built, swamp, blocked)
    free = [building_on is None and swamp_on is None for building_on, swamp_on in zip(built, swamp)]
    for i in blocked:
        free[i] = False
    return free


def _free_sites(
    sites: tuple[tuple[str, ...], ...], indexes: tuple[tuple[int, ...], ...], free: list[bool]
) -> tuple[tuple[str, ...], ...]:
    """The sites whose every space is free (``indexes``: each site's spaces' indexes). Plain
    loops: compiled, venedig.pxd types the indexes as C integers."""
    out = []
    for k in range(len(sites)):
        for j in indexes[k]:
            if not free[j]:
                break
        else:
            out.append(sites[k])
    return tuple(out)


@P(example="around(site)")
def around(ctx: Context, site: Sequence[str]) -> tuple[str, ...]:
    """The spaces next to a site (a list of spaces), the site itself left out, sorted.
    Water is no space, so it is never listed."""
    f = _facts(ctx)
    key = tuple(site)
    found = f.around_cache.get(key)
    if found is None:
        board = ctx.rules.board
        found = tuple(sorted({n for s in key for n in board.neighbours(s)} - set(key)))
        f.around_cache[key] = found
    return found


@P(example="regions_of(site)")
def regions_of(ctx: Context, site: Sequence[str]) -> tuple[str, ...]:
    """The districts of a site's spaces, each once, sorted (two for a Ponte)."""
    region = _facts(ctx).region
    # a building site's spaces lie in districts: no None among them to sort
    return tuple(sorted({region[s] for s in site}))  # type: ignore[misc]


@P(example='swamp_gold = per_space(spaces(start: "swamp"), tiles)')
def per_space(ctx: Context, spaces: Sequence[str], values: Sequence[Any]) -> tuple[Any, ...]:
    """A whole per-space value: the values on the given spaces, in order, none elsewhere."""
    if len(values) < len(spaces):
        raise RuleRuntimeError(f"per_space(): {len(values)} values for {len(spaces)} spaces")
    where = dict(zip(spaces, values))
    return tuple([where.get(s) for s in _facts(ctx).spaces])


@P(example="swamp_spaces(swamp_gold)")
def swamp_spaces(ctx: Context, swamp: PerSpace) -> tuple[str, ...]:
    """The spaces a swamp tile lies on, sorted."""
    f = _facts(ctx)
    memo = f.swamp_memo
    if memo[0] is not swamp:  # after every drain
        walk = f.swamp_walk
        memo = f.swamp_memo = (swamp, _on_swamp(f.by_name, swamp) if walk is None else walk.occupied(swamp))
    return memo[1]


def _on_swamp(by_name: tuple[tuple[int, str], ...], swamp: PerSpace) -> tuple[str, ...]:
    """The spaces with a swamp tile, in the order of ``by_name`` (index, space) pairs. A plain
    loop: compiled, venedig.pxd types the index as a C integer (and the compiled build walks
    in C instead, _venedig_walks.py)."""
    found = []
    for i, space in by_name:
        if swamp[i] is not None:
            found.append(space)
    return tuple(found)


@P(example='placed(built, "palazzo")')
def placed(ctx: Context, built: PerSpace, building: str) -> int:
    """How many pieces of a building stand on the board (spaces it covers / its size)."""
    f = _facts(ctx)
    return sum([1 for b in built if b == building]) // f.size[building]


@P(example="overlaps(built, swamp_gold)")
def overlaps(ctx: Context, built: PerSpace, swamp: PerSpace) -> int:
    """How many spaces hold both a building and a swamp tile (0 in every legal state)."""
    return sum([1 for b, w in zip(built, swamp) if b is not None and w is not None])


# -- the gondola track --------------------------------------------------------------------------
@P(example="gondola_target(gondola, p, n)")
def gondola_target(ctx: Context, positions: Sequence[int], p: Player, n: int) -> int:
    """The track step player p's gondola reaches moving n steps: spaces occupied by other
    gondolas are skipped and not counted (constant skip_occupied); past the goal the posts
    count on; beyond the last post it stops on the farthest free one."""
    f = _facts(ctx)
    others = [q for i, q in enumerate(positions) if i != p] if f.constants["skip_occupied"] else []
    return f.track.advance(positions[p], n, others)


@P(example="at_shore(gondola[p], site)")
def at_shore(ctx: Context, step: int, site: Sequence[str]) -> bool:
    """Whether a gondola on ``step`` lies at a shore of a district of the site (for a Ponte:
    of either connected district)."""
    f = _facts(ctx)
    touched = f.track.touches(step)
    return any([f.region[s] in touched for s in site])


@P(example="gondola_spaces(gondola)")
def gondola_spaces(ctx: Context, positions: Sequence[int]) -> tuple[int, ...]:
    """The physical track spaces of the gondolas that left the start (10 and 45 are one)."""
    track = _facts(ctx).track
    return tuple([track.space_of(q) for q in positions if q != track.first])


# -- gold ---------------------------------------------------------------------------------------
@P(example="gold_of(gold_tiles[p])")
def gold_of(ctx: Context, tiles: Sequence[str]) -> int:
    """The gold shown on some tiles."""
    gold = _facts(ctx).gold
    return sum([gold[t] for t in tiles])


@P(example="exchange_sets(gold_tiles[p], 10)")
def exchange_sets(ctx: Context, tiles: Sequence[str], amount: int) -> tuple[tuple[str, ...], ...]:
    """The ways to hand in at least ``amount`` gold from some tiles: every different set
    (each a sorted list of tile ids) worth ``amount`` or more from which no tile can be
    left out without falling short; handing in more than that only loses gold, as no
    change is given. Empty when the tiles do not add up to ``amount``."""
    gold = _facts(ctx).gold
    held: dict[str, int] = {}
    for t in tiles:
        if gold[t] > 0:
            held[t] = held.get(t, 0) + 1
    kinds = tuple(sorted(held, key=lambda t: (gold[t], t)))
    return _minimal_sets(kinds, tuple([held[t] for t in kinds]), tuple([gold[t] for t in kinds]), amount)


@lru_cache(maxsize=4096)
def _minimal_sets(
    kinds: tuple[str, ...], counts: tuple[int, ...], values: tuple[int, ...], amount: int
) -> tuple[tuple[str, ...], ...]:
    found: list[tuple[str, ...]] = []

    def walk(i: int, chosen: tuple[str, ...], total: int, smallest: int | None) -> None:
        if total >= amount:
            if smallest is None or total - smallest < amount:  # every tile is needed
                found.append(tuple(sorted(chosen)))
            return  # more tiles would never be needed
        if i == len(kinds):
            return
        for n in range(counts[i] + 1):
            low = smallest if n == 0 or (smallest is not None and smallest <= values[i]) else values[i]
            walk(i + 1, chosen + (kinds[i],) * n, total + n * values[i], low)
            if total + n * values[i] >= amount:
                break

    walk(0, (), 0, None)
    return tuple(sorted(found))


@P(example="tiles_for(gold_tiles[p], 10)")
def tiles_for(ctx: Context, tiles: Sequence[str], amount: int) -> tuple[str, ...] | None:
    """The tiles to hand in for at least ``amount`` gold wasting least (no change is given):
    the smallest total of at least ``amount``, then the fewest tiles. Tiles without gold are
    never handed in. None when the tiles do not add up to ``amount``. (For gold that is
    converted without asking the player, as in the short rules' end.)"""
    gold = _facts(ctx).gold
    ordered = tuple(sorted([t for t in tiles if gold[t] > 0], key=lambda t: (gold[t], t)))
    return _cheapest(ordered, tuple([gold[t] for t in ordered]), amount)


@lru_cache(maxsize=4096)
def _cheapest(tiles: tuple[str, ...], values: tuple[int, ...], amount: int) -> tuple[str, ...] | None:
    best: dict[int, tuple[int, ...]] = {0: ()}  # total -> fewest-tile index tuple reaching it
    for i, v in enumerate(values):
        for total, used in list(best.items()):
            new = total + v
            if new not in best or len(best[new]) > len(used) + 1:
                best[new] = used + (i,)
    fits = [t for t in best if t >= amount]
    if not fits:
        return None
    return tuple([tiles[i] for i in best[min(fits)]])


@P(example='count_of(flatten(gold_tiles), "swamp_tile")')
def count_of(ctx: Context, items: Sequence[str | None], component: str) -> int:
    """How many of the items (tiles, cards) are copies of a component."""
    comp = _facts(ctx).component
    return sum([1 for i in items if i is not None and comp.get(i) == component])


@P(example="max(sizes(hand))")
def sizes(ctx: Context, lists: Sequence[Sequence[Any]]) -> tuple[int, ...]:
    """The length of each list."""
    return tuple([len(x) for x in lists])


@P(changes=True, example="treasure_supply = shuffled(treasures)")
def shuffled(ctx: Context, items: Sequence[Any]) -> tuple[Any, ...]:
    """The items in a random order (from the game's seeded generator)."""
    return ctx.shuffled(items)


# -- action 3: drawing --------------------------------------------------------------------------
@P(example="draw_options(hand[p], pool, count(draw_pile) + count(discard_pile))")
def draw_options(ctx: Context, hand: Sequence[str], pool: Sequence[str], available: int) -> tuple[tuple[str, ...], ...]:
    """The ways to draw: [pile] and [pool, card] take one card; [place, card] puts a hand
    card of a type not yet in the pool into it and then takes draw_pool_take cards. Neither
    may take the hand above hand_limit; nothing when no way is open."""
    f = _facts(ctx)
    c = f.constants
    size = len(hand)
    out: list[tuple[str, ...]] = []
    if size + c["draw_single"] <= c["hand_limit"]:
        if available > 0:
            out.append(("pile",))
        out += [("pool", card) for card in dict.fromkeys(pool)]
    if size - c["draw_pool_place"] + c["draw_pool_take"] <= c["hand_limit"]:
        in_pool = {f.card_building[card] for card in pool}
        for card in dict.fromkeys(hand):
            if not (c["pool_types_unique"] and f.card_building[card] in in_pool):
                out.append(("place", card))
    return tuple(out)
