# cython: nonecheck=True
"""Rialto: the mechanics too procedural for the effect DSL, as primitives.

The flow of the game (rounds, phases, stages, every decision) is DSL in
``rules/rialto/game.yaml``; card actions, building abilities and scoring are DSL in the
other rule files. What lives here is bookkeeping: dealing card rows, counting the cards a
player counts in a stage (the Joker rules), the Doge track's stacking order, councilmen in
the six districts, bridge and gondola tiles on connections, and the legal options of the
decisions. Every number and name comes from the ruleset (constants are passed in by the
DSL or read with ``ctx.rules``); nothing game-specific is a literal here.

State variables used (declared in ``game.yaml`` ``state``): ``draw_pile``, ``discard``,
``rows``, ``row_discard``, ``hand``, ``played``, ``purse``, ``supply_coins``, ``general``,
``personal``, ``in_district``, ``doge_step``, ``doge_order``, ``doge_rank``,
``buildings``, ``building_supply``, ``activated``, ``conn_tiles``, ``bridge_stack``,
``bridge_top``, ``extra_cards``, ``extra_jokers``, ``doubles``, ``turn_queue``.

>>> import venedig_rules as vr
>>> game = vr.load("rialto").new_game(players=3, seed=1)
>>> game.legal_actions()[0].name
'start_building'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from ..data.board import Track
from ..effects.constant_kinds import ConstantKind
from ..effects.context import Context, Ref, RulesQuery, per_ruleset
from ..effects.registry import Player, Registry
from ..errors import RuleRuntimeError

#: The game.yaml constants and item params this module's Python reads (tests/test_reads.py
#: checks this against the source): the check that every declared datum is read counts them.
PRIMITIVES = Registry(
    constants_read={"doge_track": ConstantKind.TRACK},
    params_read=frozenset({"delays_turn", "end_a", "end_b", "phase", "stage", "value"}),
    # what each primitive reads through ctx that some seat may not see (tests/test_flow.py
    # checks this against the source): their value is secret as that state is
    secret_reads={
        "cards_of_type": ("hand",),
        "convert_options": ("hand",),
        "play_options": ("hand",),
        "draw_card": ("hand",),
        "take_row": ("hand",),
        "take_from_rows": ("hand",),
        "convert_card": ("hand",),
        "play_cards": ("hand",),
        "deal_rows": ("draw_pile",),
        "discard_rows": ("discard",),
        "end_stage": ("discard",),
    },
)
P = PRIMITIVES.primitive


# -- facts of the ruleset, computed once per ruleset ------------------------------------------
class _Facts:
    def __init__(self, rules: RulesQuery):
        self.districts: tuple[str, ...] = tuple(r["id"] for r in rules.items("board", "regions"))
        self.district_index: dict[str, int] = {d: i for i, d in enumerate(self.districts)}
        self.side_of: dict[str, str | None] = {r["id"]: r.get("side") for r in rules.items("board", "regions")}
        self.sides: tuple[str, ...] = tuple(dict.fromkeys(s for s in self.side_of.values() if s is not None))
        self.on_side: dict[str, tuple[str, ...]] = {
            s: tuple(d for d in self.districts if self.side_of[d] == s) for s in self.sides
        }
        self.connections: tuple[str, ...] = tuple(c["id"] for c in rules.items("board", "connections"))
        self.conn_index: dict[str, int] = {c: i for i, c in enumerate(self.connections)}
        self.between: dict[str, tuple[str, ...]] = {
            c["id"]: tuple(c["between"]) for c in rules.items("board", "connections")
        }
        self.conn_of_district: dict[str, tuple[int, ...]] = {
            d: tuple(i for i, c in enumerate(self.connections) if d in self.between[c]) for d in self.districts
        }
        self.card_type: dict[str, str | None] = {c["id"]: c.get("type") for c in rules.items("cards", "cards")}
        self.tile_ends: dict[str, tuple[int | None, int | None]] = {
            t["id"]: ((t.get("params") or {}).get("end_a"), (t.get("params") or {}).get("end_b"))
            for t in rules.items("tiles", "tiles")
        }
        self.tile_component: dict[str, str | None] = {
            t["id"]: t.get("component") for t in rules.items("tiles", "tiles")
        }
        # every Rialto building has a value (a building without one fails here, not later)
        self.building_value: dict[str, int] = {b["id"]: b["params"]["value"] for b in rules.items("buildings")}
        self.building_phase: dict[str, int | None] = {
            b["id"]: (b.get("params") or {}).get("phase") for b in rules.items("buildings")
        }
        self.delays_turn: dict[str, bool] = {
            b["id"]: bool(rules.item_param(b["id"], "delays_turn")) for b in rules.items("buildings")
        }
        self.buildings: tuple[str, ...] = tuple(b["id"] for b in rules.items("buildings"))
        self.components: dict[str, Mapping[str, Any]] = {c["id"]: c for c in rules.items("components")}
        self.doge_track: Track = rules.board.track(rules.constant("doge_track"))
        # the Joker: the card type without a stage
        self.joker: str = next(
            t["id"] for t in rules.items("cards", "types") if not (t.get("params") or {}).get("stage")
        )
        #: tile_copies' answers by (component, player count): every new game asks them again
        self.tile_copies: dict[tuple[str, int], tuple[str, ...]] = {}


_facts = per_ruleset("rialto", _Facts)


def _type_and_jokers(f: _Facts, cards: Sequence[str], kind: str) -> tuple[int, int]:
    """How many of ``cards`` are of card type ``kind``, and how many are Jokers."""
    types, joker = f.card_type, f.joker
    of_kind = jokers = 0
    for card in cards:  # one plain loop for both counts: every turn of every stage asks
        card_type = types[card]
        if card_type == kind:
            of_kind += 1
        if card_type == joker:
            jokers += 1
    return of_kind, jokers


def _add(ctx: Context, name: str, index: int | None, amount: int) -> None:
    if amount:
        ctx.write(name, index, ctx.read(name, index) + amount, "+=" if amount > 0 else "-=")


# -- the board: districts, sides, connections ---------------------------------------------------
@P(example="districts()")
def districts(ctx: Context) -> tuple[str, ...]:
    """The districts (board regions), in board.yaml order."""
    return _facts(ctx).districts


@P(example="sides()")
def sides(ctx: Context) -> tuple[str, ...]:
    """The sides of the Grand Canal (the regions' ``side``), in board.yaml order."""
    return _facts(ctx).sides


@P(example='tile_copies("bridge_tile")')
def tile_copies(ctx: Context, kind: str) -> tuple[str, ...]:
    """The ids of the tiles of one component (bridge_tile, gondola_tile, ...), each repeated by its count."""
    f = _facts(ctx)
    key = (kind, ctx.player_count)
    found = f.tile_copies.get(key)
    if found is None:
        found = f.tile_copies[key] = tuple([t for t in ctx.copies("tiles") if f.tile_component[t] == kind])
    return found


@P(example='component_count("gold_coin")')
def component_count(ctx: Context, ident: str) -> int:
    """A component's ``count``, or its ``per_player`` number."""
    comp = _facts(ctx).components.get(ident)
    if comp is None:
        raise RuleRuntimeError(f"no component {ident!r}")
    count: int = comp.get("count", comp.get("per_player"))
    return count


@P(example="counter_clockwise_from(2)")
def counter_clockwise_from(ctx: Context, p: Player) -> tuple[int, ...]:
    """All players, starting with p, then counter-clockwise (to the right)."""
    n = ctx.player_count
    return tuple([(p - i) % n for i in range(n)])


@P(example="right_of(0)")
def right_of(ctx: Context, p: Player) -> Player:
    """The player to the right of p (counter-clockwise)."""
    return (p - 1) % ctx.player_count


@P(example="conn_tiles = no_tiles()")
def no_tiles(ctx: Context) -> tuple[None, ...]:
    """One none per connection: the board before any tile is laid."""
    return (None,) * len(_facts(ctx).connections)


@P(example="free_connections()")
def free_connections(ctx: Context) -> tuple[str, ...]:
    """The connections without a bridge or gondola tile, in board.yaml order."""
    f = _facts(ctx)
    tiles = ctx.vars["conn_tiles"]
    return tuple([c for i, c in enumerate(f.connections) if tiles[i] is None])


@P(example="tile_placements(bridge_top)")
def tile_placements(ctx: Context, tile: str) -> tuple[tuple[str, str], ...]:
    """The ways to lay a tile: [connection, district facing its end_a] for every free
    connection; a tile with equal ends gives one way per connection."""
    f = _facts(ctx)
    a, b = f.tile_ends[tile]
    out = []
    for c in free_connections(ctx):
        ends = f.between[c]
        out.append((c, ends[0]))
        if a != b:
            out.append((c, ends[1]))
    return tuple(out)


@P(changes=True, example="lay_tile(t, [c, d])")
def lay_tile(ctx: Context, tile: str, placement: Sequence[str]) -> None:
    """Lay a tile on a connection with its end_a facing the given district."""
    f = _facts(ctx)
    conn, toward = placement
    i = f.conn_index[conn]
    tiles = ctx.vars["conn_tiles"]
    if tiles[i] is not None:
        raise RuleRuntimeError(f"connection {conn!r} already holds a tile")
    a, b = f.tile_ends[tile]
    first, second = f.between[conn]
    if toward == first:
        entry = (tile, a, b)
    elif toward == second:
        entry = (tile, b, a)
    else:
        raise RuleRuntimeError(f"{toward!r} is not an end of connection {conn!r}")
    ctx.write("conn_tiles", None, tiles[:i] + (entry,) + tiles[i + 1 :], "tile")


@P(example="connection_ends(c)")
def connection_ends(ctx: Context, conn: str) -> tuple[str, ...]:
    """The two districts a connection joins."""
    return _facts(ctx).between[conn]


@P(example="district_value(san_marco)")
def district_value(ctx: Context, district: str) -> int:
    """The sum of the tile ends facing a district (bridges and gondolas on its connections)."""
    f = _facts(ctx)
    tiles = ctx.vars["conn_tiles"]
    total = 0
    for i in f.conn_of_district[district]:
        entry = tiles[i]
        if entry is not None:
            total += entry[1] if f.between[f.connections[i]][0] == district else entry[2]
    return total


@P(example='placed_tiles("bridge_tile")')
def placed_tiles(ctx: Context, component: str) -> int:
    """How many tiles of a component lie on connections."""
    f = _facts(ctx)
    return sum([1 for e in ctx.vars["conn_tiles"] if e is not None and f.tile_component[e[0]] == component])


# -- councilmen -----------------------------------------------------------------------------
@P(example="councilmen_in(self, district)")
def councilmen_in(ctx: Context, p: Player, district: str) -> int:
    """How many of p's councilmen stand in a district."""
    rows: tuple[tuple[int, ...], ...] = ctx.vars["in_district"]
    return rows[p][_facts(ctx).district_index[district]]


@P(changes=True, example='put_councilman(self, "personal", district)')
def put_councilman(ctx: Context, p: Player, source: str, district: str) -> None:
    """Move one of p's councilmen from "general", "personal" or a district into a district."""
    f = _facts(ctx)
    row = list(ctx.vars["in_district"][p])
    if source in ("general", "personal"):
        if ctx.vars[source][p] <= 0:
            raise RuleRuntimeError(f"player {p} has no councilman in the {source} supply")
        _add(ctx, source, p, -1)
    else:
        i = f.district_index[source]
        if row[i] <= 0:
            raise RuleRuntimeError(f"player {p} has no councilman in {source!r}")
        row[i] -= 1
    row[f.district_index[district]] += 1
    ctx.write("in_district", p, tuple(row), "councilman")
    ctx.narrate("councilman", {"player": p, "source": source, "district": district})


@P(example="board_sources(self, district)")
def board_sources(ctx: Context, p: Player, target: str) -> tuple[str, ...]:
    """The districts other than ``target`` where p has a councilman (to move one from)."""
    f = _facts(ctx)
    row = ctx.vars["in_district"][p]
    return tuple([d for i, d in enumerate(f.districts) if row[i] > 0 and d != target])


@P(example="present_on_side(self, s)")
def present_on_side(ctx: Context, p: Player, side: str) -> bool:
    """Whether p has a councilman in every district of a side of the Grand Canal."""
    f = _facts(ctx)
    row = ctx.vars["in_district"][p]
    return all([row[f.district_index[d]] > 0 for d in f.on_side[side]])


@P(example="district_ranking(d)")
def district_ranking(ctx: Context, district: str) -> tuple[int, ...]:
    """The players with councilmen in a district, most first; ties by the Doge track."""
    i = _facts(ctx).district_index[district]
    rows = ctx.vars["in_district"]
    order = ctx.vars["doge_order"]
    present = [p for p in order if rows[p][i] > 0]
    return tuple(sorted(present, key=lambda p: (-rows[p][i], order.index(p))))


# -- the Doge track ---------------------------------------------------------------------------
@P(changes=True, example="advance_doge(self, 2)")
def advance_doge(ctx: Context, p: Player, n: int) -> None:
    """Move p's counter n spaces on; on an occupied space it goes on top (ahead). A counter
    stops at the track's last space."""
    if n <= 0:
        return
    track = _facts(ctx).doge_track
    steps = ctx.vars["doge_step"]
    new = track.advance(steps[p], n)
    if new == steps[p]:
        return
    ctx.write("doge_step", p, new, "+=")
    steps = ctx.vars["doge_step"]
    order = [q for q in ctx.vars["doge_order"] if q != p]
    at = len(order)
    for i, q in enumerate(order):
        if steps[q] <= new:
            at = i
            break
    order.insert(at, p)
    _set_doge_order(ctx, tuple(order))


@P(changes=True, example="place_doge_counter(p)")
def place_doge_counter(ctx: Context, p: Player) -> None:
    """Put p's counter on the first space of the Doge track, on top of those already there."""
    ctx.write("doge_step", p, _facts(ctx).doge_track.first)
    _set_doge_order(ctx, (p,) + tuple([q for q in ctx.vars["doge_order"] if q != p]))


def _set_doge_order(ctx: Context, order: tuple[int, ...]) -> None:
    ctx.write("doge_order", None, order, "doge")
    n = len(order)
    ctx.write(
        "doge_rank", None, tuple([n - order.index(p) if p in order else 0 for p in range(ctx.player_count)]), "doge"
    )


# -- cards ----------------------------------------------------------------------------------
def _ensure_pile(ctx: Context) -> bool:
    """Whether the draw pile has a card, after rebuilding an empty one from the discards."""
    if not ctx.vars["draw_pile"]:
        cards = tuple([c for pile in ctx.vars["discard"] for c in pile]) + tuple(ctx.vars["row_discard"])
        if not cards:
            return False
        ctx.write("discard", None, ((),) * ctx.player_count, "reshuffle")
        ctx.write("row_discard", None, (), "reshuffle")
        ctx.write("draw_pile", None, ctx.shuffled(cards), "shuffle")
        ctx.narrate("reshuffle", {"cards": len(cards)})
    return True


def _draw(ctx: Context, target: Ref) -> str | None:
    """Move the top card of the draw pile to target; an empty pile is first rebuilt by
    shuffling every discarded card (all discard piles and the discarded rows)."""
    if not _ensure_pile(ctx):
        return None
    card: str = ctx.vars["draw_pile"][0]
    ctx.move(card, Ref(ctx, "draw_pile"), target, 0)
    return card


@P(changes=True, example="draw_card(self)")
def draw_card(ctx: Context, p: Player) -> Annotated[str | None, "any"]:
    """Draw the top card of the draw pile into p's hand (reshuffling the discards when it is
    empty); gives the card, or none when there is no card at all."""
    return _draw(ctx, Ref(ctx, "hand", p))


@P(changes=True, example="deal_rows(card_rows, cards_per_row)")
def deal_rows(ctx: Context, rows_n: int, per_row: int) -> None:
    """Lay out rows_n face-up rows of per_row cards, one card per row at a time (an empty
    draw pile is rebuilt from the discards on the way)."""
    rows: list[list[str]] = [[] for _ in range(rows_n)]
    pile = list(ctx.vars["draw_pile"])
    for _ in range(per_row):
        for row in rows:
            if not pile:
                ctx.write("draw_pile", None, (), "deal")
                if not _ensure_pile(ctx):
                    break
                pile = list(ctx.vars["draw_pile"])
            row.append(pile.pop(0))
    ctx.write("draw_pile", None, tuple(pile), "deal")
    ctx.write("rows", None, tuple([tuple(r) for r in rows]), "deal")


@P(example="row_choices()")
def row_choices(ctx: Context) -> tuple[int, ...]:
    """The indexes of the card rows still on the table."""
    return tuple(range(len(ctx.vars["rows"])))


@P(changes=True, example="take_row(self, 0)")
def take_row(ctx: Context, p: Player, r: int) -> None:
    """p takes card row r into his hand."""
    rows = ctx.vars["rows"]
    row = rows[r]
    ctx.write("rows", None, rows[:r] + rows[r + 1 :], "take")
    ctx.write("hand", p, ctx.vars["hand"][p] + row, "take_row")


@P(changes=True, example="take_from_rows(self, c)")
def take_from_rows(ctx: Context, p: Player, card: str) -> None:
    """p takes one face-up card from the card rows left on the table."""
    rows = list(ctx.vars["rows"])
    for i, row in enumerate(rows):
        if card in row:
            j = row.index(card)
            rows[i] = row[:j] + row[j + 1 :]
            ctx.write("rows", None, tuple(rows), "take")
            ctx.write("hand", p, ctx.vars["hand"][p] + (card,), "take_card")
            return
    raise RuleRuntimeError(f"{card!r} is not in a card row")


@P(changes=True, example="discard_rows()")
def discard_rows(ctx: Context) -> None:
    """Put the card rows nobody took on the discard (face up, shuffled in with the rest later)."""
    left = tuple([c for row in ctx.vars["rows"] for c in row])
    if left:
        ctx.write("row_discard", None, ctx.vars["row_discard"] + left, "discard")
    ctx.write("rows", None, (), "discard")


@P(example='cards_of_type(self, "bridge")')
def cards_of_type(ctx: Context, p: Player, kind: str) -> int:
    """How many cards of a card type p holds."""
    types = _facts(ctx).card_type
    return sum([1 for c in ctx.vars["hand"][p] if types[c] == kind])


@P(example='convert_options(self, "doge")')
def convert_options(ctx: Context, p: Player, kind: str) -> tuple[str, ...]:
    """The cards of p's hand of another type than ``kind`` and not Jokers (distinct)."""
    types = _facts(ctx).card_type
    joker = _facts(ctx).joker
    return tuple(dict.fromkeys([c for c in ctx.vars["hand"][p] if types[c] not in (kind, joker)]))


@P(changes=True, example="convert_card(self, c)")
def convert_card(ctx: Context, p: Player, card: str) -> None:
    """Play one card of p's hand as one card of the current stage's type (yellow building)."""
    ctx.move(card, Ref(ctx, "hand", p), Ref(ctx, "played", p), ctx.vars["hand"][p].index(card))
    _add(ctx, "extra_cards", p, 1)


def play_options(ctx: Context, p: Player, kind: str, missing: int, alone: bool) -> tuple[tuple[int, int], ...]:
    """The plays open to p in a stage: [cards of the type, Jokers] from his hand.

    Jokers are added to cards of the type (or to a card played through a yellow building).
    With no card of the type in hand (or when ``alone`` allows it), ``missing`` Jokers
    (building Jokers included) count as one card, further Jokers one each."""
    f = _facts(ctx)
    have, jokers = _type_and_jokers(f, ctx.vars["hand"][p], kind)
    extra, virtual = ctx.vars["extra_cards"][p], ctx.vars["extra_jokers"][p]
    out = []
    for n in range(have + 1):
        for j in range(jokers + 1):
            if n == 0 and j == 0:
                continue
            if n + extra >= 1 or ((have == 0 or alone) and j + virtual >= missing):
                out.append((n, j))
    return tuple(out)


PRIMITIVES.add_cpdef(
    play_options,
    "tuple[tuple[int, int], ...]",
    example='play_options(self, "doge", jokers_for_missing_type, joker_alone_allowed)',
)


def play_cards(ctx: Context, p: Player, kind: str, pick: Sequence[int]) -> None:
    """Lay the chosen cards ([cards of the type, Jokers]) from p's hand in front of him."""
    n, j = pick
    facts = _facts(ctx)
    hand = list(ctx.vars["hand"][p])
    laid = []
    types = facts.card_type
    for want, count in ((kind, n), (facts.joker, j)):
        for _ in range(count):
            for card in hand:  # the first card of the type (a plain loop: a turn of every stage)
                if types[card] == want:
                    break
            else:
                raise RuleRuntimeError(f"play_cards(): player {p} has fewer than {count} {want} cards")
            hand.remove(card)
            laid.append(card)
    ctx.write("hand", p, tuple(hand), "play")
    ctx.write("played", p, ctx.vars["played"][p] + tuple(laid), "play")


PRIMITIVES.add_cpdef(play_cards, "None", changes=True, example='play_cards(self, "doge", [2, 1])')


def stage_counts(ctx: Context, kind: str, missing: int, alone: bool) -> tuple[int, ...]:
    """How many cards of the stage's type each player counts (by seat): cards of the type
    (and cards played as the type) plus Jokers; with none of those, ``missing`` Jokers
    count as one and further Jokers one each; then a doubled card counts twice."""
    f = _facts(ctx)
    # each variable looked up once, not once a player
    played, extra_cards, extra_jokers = ctx.vars["played"], ctx.vars["extra_cards"], ctx.vars["extra_jokers"]
    doubles = ctx.vars["doubles"]
    out = []
    for p in range(ctx.player_count):
        n, j = _type_and_jokers(f, played[p], kind)
        extra = extra_cards[p]
        j += extra_jokers[p]
        n = n + extra  # a converted card is played as a card of the type
        if n >= 1:
            total = n + j
        elif j >= missing:
            total = 1 + j - missing
        else:
            total = 0
        if total >= 1:
            total += doubles[p]
        out.append(total)
    return tuple(out)


PRIMITIVES.add_cpdef(
    stage_counts, "tuple[int, ...]", example='stage_counts("doge", jokers_for_missing_type, joker_alone_allowed)'
)


@P(example="bonus_winner(counts, bonus_needs_cards)")
def bonus_winner(ctx: Context, counts: Sequence[int], least: int) -> Player | None:
    """The player with the most cards counted (at least ``least``); ties by the Doge track;
    none when nobody reached ``least``."""
    best, winner = least - 1, None
    for p in ctx.vars["doge_order"]:
        if counts[p] > best:
            best, winner = counts[p], p
    return winner


def end_stage(ctx: Context) -> None:
    """Every player's played cards go face-down onto his own discard pile; stage helpers reset."""
    # read once: each player's part is written once, after it is read
    played_by, discard = ctx.vars["played"], ctx.vars["discard"]
    for p in range(ctx.player_count):
        played = played_by[p]
        if played:
            ctx.write("discard", p, discard[p] + played, "discard")
            ctx.write("played", p, (), "discard")
    zero = (0,) * ctx.player_count
    for name in ("extra_cards", "extra_jokers", "doubles"):
        if ctx.vars[name] != zero:
            ctx.write(name, None, zero, "reset")


PRIMITIVES.add_cpdef(end_stage, "None", changes=True, example="end_stage()")


# -- buildings -------------------------------------------------------------------------------
@P(example="building_options(4)")
def building_options(ctx: Context, cap: int) -> tuple[str, ...]:
    """The kinds of building in the supply of value 1 up to cap, in buildings.yaml order."""
    f = _facts(ctx)
    supply = set(ctx.vars["building_supply"])
    return tuple([b for b in f.buildings if b in supply and f.building_value[b] <= cap])


@P(example="start_building_options(1, 2)")
def start_building_options(ctx: Context, value: int, most: int) -> tuple[str, ...]:
    """The buildings of one value in the supply that fewer than ``most`` players have taken."""
    f = _facts(ctx)
    supply = set(ctx.vars["building_supply"])
    owned = [b for bs in ctx.vars["buildings"] for b in bs]
    return tuple([b for b in f.buildings if b in supply and f.building_value[b] == value and owned.count(b) < most])


@P(changes=True, example="take_building(self, b)")
def take_building(ctx: Context, p: Player, b: str) -> None:
    """Move a building from the supply onto p's player board."""
    ctx.move(b, Ref(ctx, "building_supply"), Ref(ctx, "buildings", p), ctx.vars["building_supply"].index(b))


@P(changes=True, example="return_building(self, b)")
def return_building(ctx: Context, p: Player, b: str) -> None:
    """Move one of p's buildings back to the supply (a coin on it goes back to the general
    supply with it)."""
    ctx.move(b, Ref(ctx, "buildings", p), Ref(ctx, "building_supply"), ctx.vars["buildings"][p].index(b))
    owned = ctx.vars["buildings"][p].count(b)
    active = ctx.vars["activated"][p]
    if active.count(b) > owned:
        _unactivate(ctx, p, b)


def _unactivate(ctx: Context, p: int, b: str) -> None:
    active = list(ctx.vars["activated"][p])
    active.remove(b)
    ctx.write("activated", p, tuple(active), "return")
    _add(ctx, "supply_coins", None, 1)


def activatable(ctx: Context, p: Player, phase: int, cost: int) -> tuple[str, ...]:
    """p's buildings of a phase without a coin on them, if p has the coins to activate one;
    a building that delays its owner's turn (param ``delays_turn``, yellow 1) is left out
    when nobody else is still to take a turn in the stage (``turn_queue``): for the last
    player it would delay nothing."""
    if ctx.vars["purse"][p] < cost:
        return ()
    owned = ctx.vars["buildings"][p]
    if not owned:
        return ()
    f = _facts(ctx)
    active = ctx.vars["activated"][p]
    others_to_go = any([q != p for q in ctx.vars["turn_queue"]])
    phase_of, delays_turn = f.building_phase, f.delays_turn
    found = []  # a plain loop: this runs at every turn of every stage
    for b in dict.fromkeys(owned):
        if phase_of[b] == phase and owned.count(b) > active.count(b) and (others_to_go or not delays_turn[b]):
            found.append(b)
    return tuple(found)


PRIMITIVES.add_cpdef(activatable, "tuple[str, ...]", example="activatable(self, 1, activation_cost)")


@P(changes=True, example="activate(self, b, activation_cost)")
def activate(ctx: Context, p: Player, b: str, cost: int) -> None:
    """p puts coins from his supply on one of his buildings."""
    _add(ctx, "purse", p, -cost)
    ctx.write("activated", p, ctx.vars["activated"][p] + (b,) * cost, "activate")
    ctx.narrate("activate", {"player": p, "building": b})


@P(changes=True, example="return_coins()")
def return_coins(ctx: Context) -> None:
    """The coins on activated buildings go back to the general supply."""
    total = sum([len(a) for a in ctx.vars["activated"]])
    if total:
        _add(ctx, "supply_coins", None, total)
        ctx.write("activated", None, ((),) * ctx.player_count, "round_end")


@P(changes=True, example="gain_coins(self, 2)")
def gain_coins(ctx: Context, p: Player, n: int) -> None:
    """p takes n coins from the general supply (fewer if it runs out)."""
    n = min(n, ctx.vars["supply_coins"])
    if n > 0:
        _add(ctx, "supply_coins", None, -n)
        _add(ctx, "purse", p, n)


@P(example="upgradable(self, 1, building_max_value)")
def upgradable(ctx: Context, p: Player, by: int, most: int) -> tuple[str, ...]:
    """p's buildings that can be exchanged for one of value ``by`` higher (at most
    ``most``) still in the supply."""
    f = _facts(ctx)
    values = {f.building_value[b] for b in ctx.vars["building_supply"]}
    return tuple(
        [
            b
            for b in dict.fromkeys(ctx.vars["buildings"][p])
            if f.building_value[b] + by <= most and f.building_value[b] + by in values
        ]
    )


@P(example="buildings_of_value(2)")
def buildings_of_value(ctx: Context, value: int) -> tuple[str, ...]:
    """The kinds of building of exactly this value in the supply."""
    f = _facts(ctx)
    supply = set(ctx.vars["building_supply"])
    return tuple([b for b in f.buildings if b in supply and f.building_value[b] == value])


@P(changes=True, example="delay_turn(self)")
def delay_turn(ctx: Context, p: Player) -> None:
    """p's turn in this stage moves behind every other player still to take theirs."""
    queue = ctx.vars["turn_queue"]
    if p in queue:
        ctx.write("turn_queue", None, tuple([q for q in queue if q != p]) + (p,), "delay")


@P(changes=True, example="add_jokers(self, 1)")
def add_jokers(ctx: Context, p: Player, n: int) -> None:
    """p counts n more Jokers in this stage."""
    _add(ctx, "extra_jokers", p, n)


@P(changes=True, example="double_cards(self, 1)")
def double_cards(ctx: Context, p: Player, n: int) -> None:
    """n cards p plays in this stage count twice."""
    _add(ctx, "doubles", p, n)


# -- lists over players (for invariants) ----------------------------------------------------------
@P(example="add_lists(general, personal)")
def add_lists(ctx: Context, *lists: Sequence[int]) -> tuple[int, ...]:
    """Item-by-item sums of lists of numbers of equal length."""
    return tuple([sum(items) for items in zip(*lists)])


@P(example="sums(in_district)")
def sums(ctx: Context, lists: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The sum of each list of numbers in a list."""
    return tuple([sum(items) for items in lists])


@P(example="lengths(buildings)")
def lengths(ctx: Context, lists: Sequence[Sequence[Any]]) -> tuple[int, ...]:
    """The length of each list in a list."""
    return tuple([len(items) for items in lists])


@P(example="plus(hand_bonus, hand_limit)")
def plus(ctx: Context, items: Sequence[int], n: int) -> tuple[int, ...]:
    """Each number of a list plus n."""
    return tuple([i + n for i in items])


@P(example="all_at_most(lengths(hand), plus(hand_bonus, 7))")
def all_at_most(ctx: Context, a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether every number of a is at most the number at the same place in b."""
    return all([x <= y for x, y in zip(a, b)])


@P(example="district_degrees()")
def district_degrees(ctx: Context) -> tuple[tuple[int, int], ...]:
    """How many connections each district is in, and to how many different districts
    (one [connections, neighbours] pair per district)."""
    f = _facts(ctx)
    board = ctx.rules.board
    return tuple([(len(f.conn_of_district[d]), len(board.region_neighbours(d))) for d in f.districts])


@P(example='track_end("doge")')
def track_end(ctx: Context, track: str) -> int:
    """The last step of a board track."""
    return ctx.rules.board.track(track).steps[-1]
