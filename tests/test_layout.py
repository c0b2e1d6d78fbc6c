"""The board layout: drawing geometry of every board in one unit, from the rule data alone."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.data.board import Board
from venedig_rules.testing.pictures import layout_problems, render_problems

BUNDLED = [(name, variants) for name in vr.bundled() for variants in [(), *[(v,) for v in vr.bundled_variants(name)]]]


def _inside(point, polygon) -> bool:
    """Whether ``point`` lies inside ``polygon`` (ray casting)."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@pytest.mark.parametrize(("name", "variants"), BUNDLED, ids=lambda v: "+".join(v) if isinstance(v, tuple) else v)
def test_every_space_region_connection_and_track_step_is_laid_out(name, variants):
    rules = vr.load(name, variants=variants)
    layout = rules.board.layout()
    assert layout_problems(rules) == []
    assert set(layout["spaces"]) == set(rules.board.spaces) == set(rules.space_ids)
    assert list(layout["regions"]) == list(rules.board.regions)
    assert list(layout["connections"]) == list(rules.board.connections)
    for tid, track in rules.board.tracks.items():
        assert [s["step"] for s in layout["tracks"][tid]["steps"]] == list(track.steps)


@pytest.mark.parametrize("name", vr.bundled())
def test_the_layout_is_json_safe_in_one_unit_and_inside_its_bounds(name):
    layout = vr.load(name).board.layout()
    assert json.loads(json.dumps(layout)) == layout
    assert layout["unit"] == "space"
    b = layout["bounds"]
    points = [p for s in layout["spaces"].values() for p in s["outline"]]
    points += [s["center"] for t in layout["tracks"].values() for s in t["steps"]]
    points += [p for c in layout["connections"].values() for p in c["path"]]
    points += [r["label"] for r in layout["regions"].values()]
    for x, y in points:
        assert b["x"] <= x <= b["x"] + b["width"] and b["y"] <= y <= b["y"] + b["height"]


def test_each_call_gives_a_new_copy():
    board = vr.load("venedig").board
    first = board.layout()
    first["spaces"].clear()
    assert len(board.layout()["spaces"]) == 106


def test_square_spaces_are_unit_squares_sharing_a_side_with_each_neighbour():
    board = vr.load("saeulen").board
    layout = board.layout()
    a1 = layout["spaces"]["a1"]
    assert (a1["shape"], a1["center"], a1["outline"]) == ("square", [0.5, 0.5], [[0, 0], [1, 0], [1, 1], [0, 1]])
    assert layout["spaces"]["q8"]["center"] == [16.5, 7.5]
    for a, b in board.graph.edges:
        shared = {tuple(p) for p in layout["spaces"][a]["outline"]} & {tuple(p) for p in layout["spaces"][b]["outline"]}
        assert len(shared) == 2, (a, b)
        assert math.dist(layout["spaces"][a]["center"], layout["spaces"][b]["center"]) == pytest.approx(1)


def test_hex_spaces_are_one_unit_apart_and_share_a_side_with_each_neighbour():
    board = vr.load("venedig").board
    layout = board.layout()
    assert all(len(s["outline"]) == 6 and s["shape"] == "hex" for s in layout["spaces"].values())
    # odd_rows: the space-id rows 2, 4, ... are shifted half a hex to the right
    assert layout["spaces"]["d1"]["center"][0] == 3.5 and layout["spaces"]["b2"]["center"][0] == 2.0
    for a, b in board.graph.edges:
        shared = {tuple(p) for p in layout["spaces"][a]["outline"]} & {tuple(p) for p in layout["spaces"][b]["outline"]}
        assert len(shared) == 2, (a, b)
        assert math.dist(layout["spaces"][a]["center"], layout["spaces"][b]["center"]) == pytest.approx(1, abs=1e-3)
    centres = [s["center"] for s in layout["spaces"].values()]
    assert min(math.dist(p, q) for i, p in enumerate(centres) for q in centres[i + 1 :]) == pytest.approx(1, abs=1e-3)


def test_grid_regions_get_a_label_on_their_own_land_and_a_border():
    layout = Board.from_data(
        {
            "grid": {
                "type": "square",
                "rows": ["ww~e", "w~ee"],
                "legend": {"w": {"region": "west"}, "e": {"region": "east"}, "~": {}},
            },
            "regions": [{"id": "west", "name": "West"}, {"id": "east", "name": "East"}],
        }
    ).layout()
    west = layout["regions"]["west"]
    assert west["spaces"] == ["a1", "b1", "a2"] and west["outline"] is None
    assert west["label"] in [layout["spaces"][s]["center"] for s in west["spaces"]]
    assert len(west["border"]) == 8  # an L of three squares has 8 outer sides


def test_rialto_has_six_districts_and_twelve_connections_placed_on_a_map():
    layout = vr.load("rialto").board.layout()
    regions, connections = layout["regions"], layout["connections"]
    assert len(regions) == 6 and len(connections) == 12 and layout["spaces"] == {}
    assert {r["side"] for r in regions.values()} == {"blue", "red"}
    for rid, region in regions.items():
        assert len(region["outline"]) >= 3 and _inside(region["label"], region["outline"]), rid
        assert all(not _inside(region["label"], other["outline"]) for oid, other in regions.items() if oid != rid)
    for cid, con in connections.items():
        first, second = (regions[r]["outline"] for r in con["between"])
        assert _inside(con["ends"][0], first) and _inside(con["ends"][1], second), cid
        others = [r["outline"] for rid, r in regions.items() if rid not in con["between"]]
        assert not any(_inside(con["center"], outline) for outline in others), f"{cid}'s tile lies in a third district"


def test_tracks_have_one_point_per_step_and_same_as_steps_share_theirs():
    layout = vr.load("venedig").board.layout()
    steps = {s["step"]: s for s in layout["tracks"]["gondola"]["steps"]}
    assert len(steps) == 81 and steps[45]["center"] == steps[10]["center"] and steps[45]["space"] == 10
    assert [s for s in steps if steps[s]["post"]] == list(range(61, 81))
    assert steps[0]["label"] == "Start" and steps[10]["label"] == "10/45"


@pytest.mark.parametrize("name", vr.bundled())
def test_track_steps_do_not_overlap_and_lie_off_the_spaces(name):
    layout = vr.load(name).board.layout()
    centres = [s["center"] for s in layout["spaces"].values()]
    for tid, track in layout["tracks"].items():
        own = [s["center"] for s in track["steps"] if s["space"] == s["step"]]
        gaps = [math.dist(p, q) for i, p in enumerate(own) for q in own[i + 1 :]]
        assert min(gaps) >= 0.65, f"steps of {tid} overlap"
        assert all(math.dist(p, c) >= 0.55 for p in own for c in centres), f"a step of {tid} lies on a space"


def test_a_board_without_layout_data_still_gets_every_position():
    board = {
        "regions": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}],
        "connections": [{"id": "ab", "between": ["a", "b"]}],
        "tracks": [{"id": "score", "name": "Score", "first": 0, "last": 29, "spaces": [{"step": 29, "same_as": 0}]}],
    }
    layout = Board.from_data(board).layout()
    labels = [r["label"] for r in layout["regions"].values()]
    assert len({tuple(p) for p in labels}) == 3
    assert layout["connections"]["ab"]["path"] == [labels[0], labels[1]]
    steps = layout["tracks"]["score"]["steps"]
    assert len(steps) == 30 and steps[29]["center"] == steps[0]["center"]
    below = max(p[1] for p in labels)
    assert all(s["center"][1] > below for s in steps)


def test_a_variant_that_changes_the_board_gets_a_layout_with_no_code(tmp_path: Path):
    variant = tmp_path / "wide_canal.yaml"
    rows = vr.load("saeulen").data["board"]["grid"]["rows"] + ["~~~~~~~~~~~~~~~~~", "#################"]
    variant.write_text(
        "extends: saeulen\nid: wide_canal\ntitle: Two more rows\ndescription: A lagoon row and a land row.\n"
        "overlay:\n  board:\n    grid:\n      rows: " + json.dumps(rows) + "\n"
        "    counts:\n      - {where: {terrain: land}, count: 128}\n      - {where: {terrain: canal}, count: 42}\n"
        "      - {where: {start: gondola}, count: 1}\n"
        "    tracks:\n      - id: victory_points\n        layout: null\n"
    )
    rules = vr.load(variant)
    layout = rules.board.layout()
    assert len(layout["spaces"]) == 170 and layout["spaces"]["q10"]["center"] == [16.5, 9.5]
    assert layout_problems(rules) == []
    steps = layout["tracks"]["victory_points"]["steps"]
    assert len(steps) == 81 and min(s["center"][1] for s in steps) > 10  # placed under the board by default
    assert render_problems(rules.new_game(players=2, seed=1), seat=None) == []  # and it draws


@pytest.mark.parametrize("offset", ["odd_rows", "even_rows"])
def test_hex_neighbours_share_a_side_whichever_rows_are_shifted(offset):
    board = Board.from_data({"grid": {"type": "hex", "offset": offset, "rows": ["####"] * 4, "legend": {"#": {}}}})
    layout = board.layout()
    for a in board.spaces:
        for b in board.spaces - {a}:
            shared = {tuple(p) for p in layout["spaces"][a]["outline"]} & {
                tuple(p) for p in layout["spaces"][b]["outline"]
            }
            assert (len(shared) == 2) == (b in board.neighbours(a)), (offset, a, b)
    shifted = layout["spaces"]["a1"]["center"][0] == 1.0
    assert shifted == (offset == "even_rows")
