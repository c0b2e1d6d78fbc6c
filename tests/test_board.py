"""The board: grid adjacency, regions, shape placements and tracks."""

from __future__ import annotations

import time

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import venedig_rules as vr
from venedig_rules.data.board import Board, Track, grid_spaces, matches

LAND = {"terrain": "land"}


def square(*rows: str, legend: dict | None = None) -> Board:
    return Board.from_data({"grid": {"type": "square", "rows": list(rows), "legend": legend or {"#": LAND}}})


def hexes(offset: str, *rows: str) -> Board:
    return Board.from_data({"grid": {"type": "hex", "offset": offset, "rows": list(rows), "legend": {"#": LAND}}})


@pytest.fixture(scope="module")
def rules():
    return {name: vr.load(name) for name in ("saeulen", "venedig", "rialto")}


@pytest.fixture(scope="module")
def venedig(rules) -> Board:
    return Board.from_ruleset(rules["venedig"])


@pytest.fixture(scope="module")
def saeulen(rules) -> Board:
    return Board.from_ruleset(rules["saeulen"])


@pytest.fixture(scope="module")
def rialto(rules) -> Board:
    return Board.from_ruleset(rules["rialto"])


# --- square grids ---------------------------------------------------------------------------


def test_square_neighbours_share_an_edge_never_a_corner():
    board = square("###", "###", "###")
    assert board.neighbours("b2") == ("a2", "b1", "b3", "c2")
    assert board.neighbours("a1") == ("a2", "b1")
    assert board.neighbours("c3") == ("b3", "c2")
    assert board.graph.number_of_edges() == 12


def test_water_is_no_space_and_breaks_adjacency():
    board = square("#.#", "###")
    assert "b1" not in board.spaces and "b1" not in board.graph
    assert board.neighbours("a1") == ("a2",)
    assert board.neighbours("b2") == ("a2", "c2")


def test_node_attributes_are_the_grid_spaces():
    data = {
        "grid": {"type": "square", "rows": ["#~"], "legend": {"#": LAND, "~": {"terrain": "canal"}}},
        "spaces": {"b1": {"start": "gondola", "tags": ["x"]}},
    }
    board = Board.from_data(data)
    assert dict(board.graph.nodes(data=True)) == grid_spaces(data)
    assert dict(board.attrs("b1")) == {"terrain": "canal", "col": 1, "row": 0, "start": "gondola", "tags": ["x"]}


def test_board_does_not_share_lists_with_the_data():
    data = {"grid": {"type": "square", "rows": ["#"], "legend": {"#": {"tags": ["x"]}}}}
    board = Board.from_data(data)
    board.graph.nodes["a1"]["tags"].append("y")
    assert data["grid"]["legend"]["#"]["tags"] == ["x"]


def test_unknown_space_is_a_key_error_with_a_suggestion():
    with pytest.raises(KeyError, match=r"unknown space 'a11' \(did you mean 'a1'\?\)"):
        square("##").neighbours("a11")


# --- hex grids ------------------------------------------------------------------------------


def test_hex_odd_rows_shift_odd_rows_right():
    board = hexes("odd_rows", "###", "###", "###")
    assert board.neighbours("b2") == ("a2", "b1", "b3", "c1", "c2", "c3")  # shifted row: columns b, c
    assert board.neighbours("b1") == ("a1", "a2", "b2", "c1")  # unshifted row: columns a, b
    assert board.neighbours("a1") == ("a2", "b1")
    assert board.neighbours("c2") == ("b2", "c1", "c3")
    assert board.neighbours("a3") == ("a2", "b3")
    assert board.graph.number_of_edges() == 16


def test_hex_even_rows_shift_even_rows_right():
    board = hexes("even_rows", "###", "###", "###")
    assert board.neighbours("b2") == ("a1", "a2", "a3", "b1", "b3", "c2")  # unshifted row: columns a, b
    assert board.neighbours("b1") == ("a1", "b2", "c1", "c2")  # shifted row: columns b, c
    assert board.neighbours("a1") == ("a2", "b1", "b2")
    assert board.neighbours("c2") == ("b1", "b2", "b3", "c1", "c3")
    assert board.graph.number_of_edges() == 16


def test_hex_without_offset_is_odd_rows():
    board = Board.from_data({"grid": {"type": "hex", "rows": ["##", "##"], "legend": {"#": LAND}}})
    assert board.offset == "odd_rows"
    assert board.neighbours("a2") == ("a1", "b1", "b2")


def test_venedig_neighbours_follow_the_documented_odd_rows_rule(venedig):
    # board.yaml: in an unshifted row, columns c-1 and c above and below; in a shifted row, c and c+1
    assert venedig.neighbours("e3") == ("d2", "d3", "d4", "e2", "e4", "f3")  # row 3 unshifted: d, e above/below
    assert venedig.neighbours("c2") == ("b2", "c3", "d1", "d2", "d3")  # row 2 shifted: c, d; c1 is water
    assert venedig.neighbours("h6") == ("g6",)  # i6, h7, i7 and row 5 are water


# --- spaces_where ---------------------------------------------------------------------------


def test_spaces_where_selects_as_matches_does(venedig):
    selectors = [
        {},
        {"region": "castello"},
        {"start": "free"},
        {"region": "san_polo", "start": "built"},
        {"building": "ponte"},
        {"region": "nowhere"},
        {"col": 0},
        {"building": None, "start": "built"},
    ]
    for where in selectors:
        expected = {sid for sid in venedig.spaces if matches(venedig.attrs(sid), where)}
        assert venedig.spaces_where(**where) == expected, where


def test_spaces_where_tags_must_all_be_present():
    board = Board.from_data(
        {
            "grid": {
                "type": "square",
                "rows": ["abc"],
                "legend": {"a": {"tags": ["x"]}, "b": {"tags": ["x", "y"]}, "c": {}},
            }
        }
    )
    assert board.spaces_where(tags=["x"]) == {"a1", "b1"}
    assert board.spaces_where(tags=["x", "y"]) == {"b1"}
    assert board.spaces_where(tags="y") == {"b1"}
    assert board.spaces_where(tags=[]) == board.spaces


def test_spaces_where_counts_match_the_board_counts(rules, saeulen, venedig):
    for name, board in (("saeulen", saeulen), ("venedig", venedig)):
        for check in rules[name].items("board", "counts"):
            assert len(board.spaces_where(**check["where"])) == check["count"], (name, check)


# --- regions and connections ----------------------------------------------------------------

TWO_ISLANDS = {
    "grid": {"type": "square", "rows": ["NN.SS"], "legend": {"N": {"region": "north"}, "S": {"region": "south"}}},
    "regions": [
        {"id": "north", "name": "North", "side": "blue"},
        {"id": "south", "name": "South"},
        {"id": "empty", "name": "Empty"},
    ],
    "connections": [
        {"id": "bridge", "between": ["north", "south"], "spaces": ["b1", "d1"], "tags": ["bridge_spot"]},
        {"id": "ferry", "between": ["north", "south"]},
    ],
}


def test_regions_hold_their_spaces():
    board = Board.from_data(TWO_ISLANDS)
    assert board.region_of("a1") == "north" and board.region_of("e1") == "south"
    assert board.spaces_in("north") == {"a1", "b1"}
    assert board.spaces_in("empty") == frozenset()
    assert board.regions == ("north", "south", "empty")
    assert board.region_graph.nodes["north"] == {"name": "North", "side": "blue"}


def test_region_graph_keeps_every_connection_between_the_same_regions():
    board = Board.from_data(TWO_ISLANDS)
    assert board.region_graph.number_of_edges() == 2
    assert board.region_graph.edges["north", "south", "bridge"] == {
        "id": "bridge",
        "spaces": ("b1", "d1"),
        "tags": frozenset({"bridge_spot"}),
        "params": {},
    }
    assert board.region_neighbours("north") == ("south",)
    assert board.region_neighbours("empty") == ()
    assert board.connection("ferry").spaces == ()
    assert len({board.connection("bridge"), board.connection("ferry")}) == 2
    assert list(board.connections) == ["bridge", "ferry"]


def test_unknown_region_connection_and_track_are_key_errors():
    board = Board.from_data(TWO_ISLANDS)
    for call in (lambda: board.spaces_in("nort"), lambda: board.connection("brige"), lambda: board.track("doge")):
        with pytest.raises(KeyError):
            call()


# --- contiguity and touching ----------------------------------------------------------------


def test_contiguous_groups_are_joined_through_edges():
    board = square("###", "###", "###")
    assert board.is_contiguous(set())
    assert board.is_contiguous({"b2"})
    assert board.is_contiguous({"a1", "a2", "a3", "b3"})
    assert not board.is_contiguous({"a1", "b2"})  # diagonal only
    assert not board.is_contiguous({"a1", "c1"})


def test_contiguity_on_hex_uses_the_shifted_neighbours():
    board = hexes("odd_rows", "###", "###")
    assert board.is_contiguous({"a1", "b2"}) is False  # odd-r: a1 touches a2 and b1 only
    assert board.is_contiguous({"b1", "a2"})


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_contiguity_agrees_with_networkx(venedig, data):
    group = data.draw(st.sets(st.sampled_from(sorted(venedig.spaces)), max_size=12))
    expected = len(group) < 2 or nx.is_connected(venedig.graph.subgraph(group))
    assert venedig.is_contiguous(group) == expected


def test_touches_needs_an_edge_between_the_sets():
    board = square("###", "###")
    assert board.touches({"a1"}, {"b1"})
    assert board.touches(["a1", "c2"], ["b2"])
    assert not board.touches({"a1"}, {"b2"})
    assert not board.touches({"a1"}, set())


# --- placements on square grids -------------------------------------------------------------

DOMINO = [[0, 0], [1, 0]]
L_TRIOMINO = [[0, 0], [0, 1], [1, 1]]
SQUARE = [[0, 0], [1, 0], [0, 1], [1, 1]]


def test_domino_has_two_orientations_each_placed_both_ways_round():
    assert square("##").placements(DOMINO, None) == (("a1", "b1"), ("b1", "a1"))
    assert square("#", "#").placements(DOMINO, None) == (("a1", "a2"), ("a2", "a1"))
    assert len(square("##", "##").placements(DOMINO, None)) == 8
    assert len(square("###", "###", "###").placements(DOMINO, None)) == 24
    assert len(square("###", "###", "###").placements(DOMINO, None, unordered=True)) == 12


def test_l_triomino_has_four_rotations_and_no_reflection():
    placed = square("##", "##").placements(L_TRIOMINO, None)
    assert placed == (("a1", "a2", "b2"), ("a2", "b2", "b1"), ("b1", "a1", "a2"), ("b2", "b1", "a1"))
    assert {p[1] for p in placed} == {"a1", "a2", "b1", "b2"}  # the corner cell in each corner once
    assert len(square("###", "###", "###").placements(L_TRIOMINO, None)) == 16


def test_square_tile_turns_four_ways_on_one_site():
    assert len(square("##", "##").placements(SQUARE, None)) == 4
    assert square("##", "##").placements(SQUARE, None, unordered=True) == (("a1", "b1", "a2", "b2"),)
    assert len(square("###", "###", "###").placements(SQUARE, None)) == 16


def test_a_one_cell_shape_is_placed_once_per_space():
    board = square("###", "###")
    assert board.placements([[0, 0]], {"a1", "c2"}) == (("a1",), ("c2",))


def test_placements_stay_on_allowed_spaces():
    board = square("###", "###", "###")
    allowed = board.spaces - {"b2"}
    placed = board.placements(DOMINO, allowed)
    assert len(placed) == 16  # 12 edges, 4 of them at b2, both ways round
    assert all("b2" not in p for p in placed)
    assert board.placements(SQUARE, allowed) == ()


def test_cell_allowed_overrides_allowed_per_cell():
    board = square("#~#", "#~#", legend={"#": LAND, "~": {"terrain": "canal"}})
    land, canal = board.spaces_where(terrain="land"), board.spaces_where(terrain="canal")
    bridge = [[0, 0], [1, 0], [2, 0]]
    assert board.placements(bridge, land, [None, canal, None]) == (
        ("a1", "b1", "c1"),
        ("a2", "b2", "c2"),
        ("c1", "b1", "a1"),
        ("c2", "b2", "a2"),
    )
    assert board.placements(bridge, land) == ()
    with pytest.raises(ValueError):
        board.placements(bridge, land, [canal])


def test_shapes_by_id_from_tiles():
    board = Board.from_data({"grid": {"type": "square", "rows": ["##"], "legend": {"#": LAND}}}, {"domino": DOMINO})
    assert board.placements("domino", None) == board.placements(DOMINO, None)
    with pytest.raises(KeyError, match="unknown shape 'dominoe'"):
        board.placements("dominoe", None)


# --- placements on hex grids ----------------------------------------------------------------

PAIR = [[0, 0], [1, 0]]
TRIANGLE = [[0, 0], [1, 0], [0, 1]]


@pytest.mark.parametrize("offset", ["odd_rows", "even_rows"])
def test_hex_pair_takes_every_edge_both_ways_round(offset):
    board = hexes(offset, "###", "###", "###")
    assert len(board.placements(PAIR, None)) == 32
    assert {frozenset(p) for p in board.placements(PAIR, None)} == {frozenset(e) for e in board.graph.edges}


@pytest.mark.parametrize("offset", ["odd_rows", "even_rows"])
def test_hex_pair_turns_six_ways(offset):
    board = hexes(offset, "###", "###", "###")
    centre = board.placements(PAIR, None, [{"b2"}, None])
    assert [p[1] for p in centre] == list(board.neighbours("b2"))


@pytest.mark.parametrize("offset", ["odd_rows", "even_rows"])
def test_hex_triangle_points_up_and_down(offset):
    board = hexes(offset, "###", "###", "###")
    placed = board.placements(TRIANGLE, None)
    assert len(placed) == 24  # 8 triangles, each reached by 3 of 6 turns
    assert len(board.placements(TRIANGLE, None, unordered=True)) == 8
    assert all(board.graph.subgraph(p).number_of_edges() == 3 for p in placed)
    assert len(board.placements(TRIANGLE, None, [{"b2"}, None, None])) == 6


def test_hex_shape_in_a_row_is_the_palazzo_along_three_axes():
    board = hexes("odd_rows", "#", "#")
    assert board.placements(PAIR, None) == (("a1", "a2"), ("a2", "a1"))


def test_venedig_buildings_fit_the_free_sites(venedig):
    free = venedig.spaces_where(start="free")
    assert venedig.placements("basilica_triangle", free, unordered=True) == (("g10", "h10", "h11"),)
    assert venedig.placements("palazzo_pair", free, unordered=True) == (
        ("c2", "d2"),
        ("g10", "h10"),
        ("g10", "h11"),
        ("h10", "h11"),
    )
    built = venedig.spaces_where(building="basilica")
    assert venedig.placements("basilica_triangle", built, unordered=True) == (("m7", "n7", "m8"),)


# --- tracks ---------------------------------------------------------------------------------


def test_rulebook_example_occupied_spaces_do_not_count(venedig):
    # rulebook 002: "Jürgen moves his gondola forward 7 spaces; the space with Klaus's gondola
    # does not count. Afterward, Klaus moves his gondola forward 3 spaces, and in doing so can
    # overtake Jürgen again." Jürgen starts on 20, Klaus on 26.
    gondola = venedig.track("gondola")
    juergen = gondola.advance(20, 7, occupied_steps={26})
    assert juergen == 28  # 21-25, skips 26, 27, 28
    klaus = gondola.advance(26, 3, occupied_steps={juergen})
    assert klaus == 30  # 27, skips 28, 29, 30
    assert klaus > juergen


def test_step_45_is_the_same_space_as_step_10(venedig):
    gondola = venedig.track("gondola")
    assert gondola.space_of(45) == 10 and gondola.space_of(10) == 10 and gondola.space_of(44) == 44
    assert gondola.advance(43, 2, occupied_steps={10}) == 46  # 44, 45 is blocked by the piece on 10, 46
    assert gondola.advance(8, 2, occupied_steps={45}) == 11  # 9, 10 is blocked by the piece on 45, 11
    assert gondola.advance(43, 2, occupied_steps={5}) == 45


def test_same_as_step_inherits_touches(venedig):
    gondola = venedig.track("gondola")
    assert gondola.touches(45) == gondola.touches(10) == {"cannaregio", "castello", "san_polo", "san_marco"}
    assert gondola.touches(0) == frozenset() and gondola.touches(60) == frozenset()
    assert gondola.touches(70) == frozenset()
    own = Track(
        {
            "id": "t",
            "first": 0,
            "last": 3,
            "spaces": [{"step": 1, "touches": ["a"]}, {"step": 3, "same_as": 1, "touches": ["b"]}],
        }
    )
    assert own.touches(3) == {"b"}


def test_moving_past_60_continues_onto_the_posts(venedig):
    gondola = venedig.track("gondola")
    assert gondola.steps == range(0, 81)
    assert gondola.advance(58, 5) == 63
    assert gondola.advance(58, 5, occupied_steps={60, 61}) == 65
    assert gondola.label(45) == "10/45" and gondola.label(63) == "63"


def test_the_move_stops_at_the_last_post(venedig):
    gondola = venedig.track("gondola")
    assert gondola.advance(75, 10) == 80
    assert gondola.advance(75, 10, occupied_steps={80}) == 79  # never on an occupied space
    assert gondola.advance(78, 5, occupied_steps={79, 80}) == 78  # no free step ahead: stays


def test_advance_edge_cases():
    track = Track({"id": "t", "first": 0, "last": 5})
    assert track.advance(2, 0, occupied_steps={3}) == 2
    assert track.advance(0, 2, occupied_steps={0}) == 2  # others sharing the start do not matter
    with pytest.raises(ValueError):
        track.advance(0, -1)
    with pytest.raises(KeyError):
        track.advance(6, 1)
    with pytest.raises(KeyError):
        track.advance(0, 1, occupied_steps={9})


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_advance_counts_exactly_the_free_steps(venedig, data):
    gondola = venedig.track("gondola")
    start = data.draw(st.integers(0, 80))
    n = data.draw(st.integers(0, 15))
    occupied = data.draw(st.sets(st.integers(0, 80).filter(lambda s: s != start), max_size=6))
    end = gondola.advance(start, n, occupied)
    blocked = {gondola.space_of(s) for s in occupied}
    free = [s for s in range(start + 1, 81) if gondola.space_of(s) not in blocked]
    assert start <= end
    assert end == start or gondola.space_of(end) not in blocked
    assert end == (free[n - 1] if n and len(free) >= n else free[-1] if n and free else start)


def test_bad_tracks_are_refused():
    with pytest.raises(ValueError):
        Track({"id": "t", "first": 5, "last": 1})
    with pytest.raises(ValueError):
        Track({"id": "t", "first": 0, "last": 3, "spaces": [{"step": 1, "same_as": 2}, {"step": 2, "same_as": 1}]})
    with pytest.raises(ValueError):
        Track({"id": "t", "first": 0, "last": 3, "spaces": [{"step": 1, "same_as": 9}]})


# --- the bundled boards ---------------------------------------------------------------------


def test_every_venedig_district_is_contiguous(venedig):
    assert len(venedig.regions) == 5
    for region in venedig.regions:
        assert venedig.is_contiguous(venedig.spaces_in(region)), region


def test_districts_of_venedig_do_not_touch_on_land(venedig):
    for region in venedig.regions:
        inside = venedig.spaces_in(region)
        assert not venedig.touches(inside, venedig.spaces - inside), region


def test_venedig_bridge_spots_join_spaces_of_the_regions_they_connect(venedig):
    spots = [c for c in venedig.connections.values() if "bridge_spot" in c.tags]
    assert len(spots) == 8
    for spot in spots:
        assert [venedig.region_of(s) for s in spot.spaces] == list(spot.between), spot.id


def test_venedig_bridge_spots_face_across_one_water_hex_in_a_straight_line(venedig):
    for spot in venedig.connections.values():
        (q1, r1), (q2, r2) = (venedig.coords(s) for s in spot.spaces)
        dq, dr = q2 - q1, r2 - r1
        assert (
            dq % 2 == 0 and dr % 2 == 0 and (dq // 2, dr // 2) in {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
        ), spot.id
        middle = (q1 + dq // 2, r1 + dr // 2)
        assert middle not in {venedig.coords(s) for s in venedig.spaces}, spot.id


def test_venedig_region_graph_has_every_bridge_spot(venedig):
    assert venedig.region_graph.number_of_nodes() == 5
    assert venedig.region_graph.number_of_edges() == 8
    assert venedig.region_neighbours("san_polo") == ("cannaregio", "giudecca", "san_marco")


def test_saeulen_bridges_cross_19_canal_squares(saeulen):
    # tiles.yaml: the bridge's middle cell over the canal, both ends on land
    land, canal = saeulen.spaces_where(terrain="land"), saeulen.spaces_where(terrain="canal")
    placed = saeulen.placements("bridge", None, [land, canal, land])
    assert len(placed) == 38  # 19 sites, each laid either way round
    assert len(saeulen.placements("bridge", None, [land, canal, land], unordered=True)) == 19
    # board.yaml header: "vertically at a4 b4 c4 e2 f2 h6-m6 o4 p4 q4, horizontally at d3 g3 g4 g5 n5"
    assert {p[1] for p in placed} == {
        "a4",
        "b4",
        "c4",
        "e2",
        "f2",
        "h6",
        "i6",
        "j6",
        "k6",
        "l6",
        "m6",
        "o4",
        "p4",
        "q4",
        "d3",
        "g3",
        "g4",
        "g5",
        "n5",
    }


def test_saeulen_canal_is_one_channel(saeulen):
    assert saeulen.is_contiguous(saeulen.spaces_where(terrain="canal"))
    assert saeulen.spaces_where(start="gondola") == {"j6"}


def test_rialto_districts_each_have_four_connections(rialto):
    graph = rialto.region_graph
    assert graph.number_of_nodes() == 6
    assert graph.number_of_edges() == 12
    assert {region: degree for region, degree in graph.degree} == dict.fromkeys(rialto.regions, 4)
    assert len({frozenset((a, b)) for a, b in graph.edges()}) == 12  # no two connections join the same pair
    assert rialto.spaces == frozenset() and rialto.kind is None
    assert rialto.track("doge").advance(38, 5) == 40


@pytest.mark.parametrize("name", ["saeulen", "venedig", "rialto"])
def test_building_a_bundled_board_is_quick(rules, name):
    best = min(_timed(lambda: Board.from_ruleset(rules[name])) for _ in range(5))
    assert best < 0.05


def _timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start
