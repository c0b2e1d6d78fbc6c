"""Drawing geometry of a board, from its rule data: where every space, region, connection and
track step lies, in one unit, so any client can draw any board (bundled or a designer's).

**The unit** (``"unit": "space"``): 1 is the distance between the centres of two neighbouring
grid spaces (the side of a square; across the flat sides of a hex). x grows to the right and
y downwards (as in SVG and on a screen); the grid's top-left corner is (0, 0). On a square
grid space ``(col, row)`` covers ``[col, col + 1] x [row, row + 1]``. A hex grid is drawn
pointy-top in offset rows (``offset: odd_rows`` shifts odd 0-based rows half a hex right),
so hex centres lie ``sqrt(3) / 2`` apart from row to row. A board without a grid (Rialto)
gives its positions in the same unit in ``board.yaml``. Every point is ``[x, y]``, rounded
to 4 decimals. Positions outside the grid (tracks around the board, Rialto's districts)
come from ``layout`` entries in ``board.yaml``; where the data gives none, a default is
computed (a region's label on its most central space, a connection from one region's label
to the other's, a track's steps in rows under the board).

>>> board = {"grid": {"type": "square", "rows": ["#~"], "legend": {"#": {"region": "north"},
...                                                             "~": {"terrain": "canal"}}},
...          "regions": [{"id": "north", "name": "North"}],
...          "tracks": [{"id": "score", "name": "Score", "first": 0, "last": 2,
...                      "layout": {"runs": [{"steps": [0, 2], "path": [[0, -1], [2, -1]]}]}}]}
>>> from venedig_rules.data.board import Board
>>> layout = Board.from_data(board).layout()
>>> layout["unit"], layout["grid"], layout["bounds"]
('space', 'square', {'x': -0.5, 'y': -1.5, 'width': 3.0, 'height': 2.5})
>>> layout["spaces"]["b1"]["center"], layout["spaces"]["b1"]["outline"]
([1.5, 0.5], [[1.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0]])
>>> layout["regions"]["north"]["label"]
[0.5, 0.5]
>>> [(s["step"], s["center"]) for s in layout["tracks"]["score"]["steps"]]
[(0, [0.0, -1.0]), (1, [1.0, -1.0]), (2, [2.0, -1.0])]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypedDict

#: A point ``[x, y]`` in board units (see the module docstring).
Point = list[float]

#: What a ``show`` entry can draw (``as``) on each part of the board (``on``); the first is the default.
SHOW_KINDS = {
    "spaces": ("fill", "piece", "token", "label", "outline"),
    "regions": ("count", "highlight", "number"),
    "connections": ("tile",),
    "track": ("piece",),
}
#: How many decimals a coordinate keeps.
DECIMALS = 4
#: Half the height of a hex row step: hex centres are ``ROW_STEP`` apart from row to row.
ROW_STEP = math.sqrt(3) / 2
#: The distance from a hex's centre to its corners.
HEX_RADIUS = 1 / math.sqrt(3)


class SpaceLayout(TypedDict):
    """One grid space: its ``center``, its ``outline`` (corners clockwise) and its ``region``."""

    id: str
    shape: Literal["square", "hex"]
    center: Point
    outline: list[Point]
    region: str | None


class RegionLayout(TypedDict):
    """A region: its ``label`` point, its ``outline`` polygon where the data draws one (a board
    without a grid), else ``None``; ``border`` the segments around it (the outline's sides, or
    the edges of its spaces that no space of the same region shares); its ``spaces``."""

    id: str
    name: str
    side: str | None
    label: Point
    outline: list[Point] | None
    border: list[list[Point]]
    spaces: list[str]


class ConnectionLayout(TypedDict):
    """A connection: the ``path`` from its first region to its second, the ``center`` of the
    path (where a tile on it lies) and its two ``ends`` (``ends[i]`` faces ``between[i]``)."""

    id: str
    between: list[str]
    spaces: list[str]
    path: list[Point]
    center: Point
    ends: list[Point]


class StepLayout(TypedDict):
    """A step of a track: where it is drawn, its printed ``label``, and ``space``, the step whose
    physical space it is (itself, or the step it is ``same_as``); ``post`` for steps past ``last``."""

    step: int
    center: Point
    label: str
    space: int
    post: bool


class TrackLayout(TypedDict):
    """A board track: one entry in ``steps`` per step, ``first`` to ``last + posts``, in order."""

    id: str
    name: str
    first: int
    last: int
    posts: int
    steps: list[StepLayout]


class WaterLayout(TypedDict):
    """Water drawn under the board: a polygon (``outline``), a channel (``path`` of ``width``),
    or only a name at ``label``."""

    id: str
    name: str | None
    outline: list[Point] | None
    path: list[Point] | None
    width: float | None
    label: Point | None


#: How a renderer shows a state variable (``var``) or a space attribute (``attr``) on the board:
#: ``on`` spaces, regions, connections or a track; ``as`` says how (see docs/rule-data.md,
#: "Board layout"); ``where`` selects the spaces a single value is drawn on; ``colors`` and
#: ``labels`` map values to a colour and a short text; ``track``, ``stack`` and ``laps`` are
#: for pieces on a track.
ShowLayout = TypedDict(
    "ShowLayout",
    {
        "var": str | None,
        "attr": str | None,
        "on": str,
        "as": str,
        "where": dict[str, Any] | None,
        "colors": dict[str, str],
        "labels": dict[str, str],
        "track": str | None,
        "stack": str | None,
        "laps": bool,
    },
)


class Bounds(TypedDict):
    """The smallest box holding everything drawn: top-left corner and size, in board units."""

    x: float
    y: float
    width: float
    height: float


class Layout(TypedDict):
    """The drawing geometry of a board; ``unit`` is always ``"space"`` (see the module docstring)."""

    unit: str
    grid: str | None
    bounds: Bounds
    spaces: dict[str, SpaceLayout]
    regions: dict[str, RegionLayout]
    connections: dict[str, ConnectionLayout]
    tracks: dict[str, TrackLayout]
    water: list[WaterLayout]
    show: list[ShowLayout]
    player_colors_from: str | None


class _TrackLike(Protocol):
    id: str
    name: str
    first: int
    last: int
    posts: int
    steps: range

    def space_of(self, step: int) -> int: ...

    def label(self, step: int) -> str: ...


class _BoardLike(Protocol):
    """What the layout reads of a :class:`~venedig_rules.data.board.Board`."""

    kind: str | None
    offset: str | None
    spaces: frozenset[str]
    regions: tuple[str, ...]

    def attrs(self, space: str) -> Mapping[str, Any]: ...

    def spaces_in(self, region: str) -> frozenset[str]: ...


def board_layout(board: _BoardLike, data: Mapping[str, Any], tracks: Mapping[str, _TrackLike]) -> Layout:
    """The layout of ``board``, built from its ``board.yaml`` ``data`` (see the module docstring)."""
    spaces = {sid: _space(board, sid) for sid in _reading_order(board)}
    items = _by_id(data.get("regions"))
    regions = {rid: _region(board, rid, items.get(rid, {}), spaces) for rid in board.regions}
    _place_loose_regions(regions, items)
    connections = {cid: _connection(con, spaces, regions) for cid, con in _by_id(data.get("connections")).items()}
    extra = mapping(data.get("layout"))
    water = [_water(w) for w in extra.get("water") or ()]
    track_data = _by_id(data.get("tracks"))
    laid, loose = {}, []
    for tid, track in tracks.items():
        runs = mapping(mapping(track_data.get(tid)).get("layout")).get("runs")
        if runs:
            laid[tid] = _track(track, track_points(track, runs))
        else:
            loose.append(track)
    bounds = _bounds(spaces, regions, connections, laid, water)
    for track in loose:  # in rows under everything else
        laid[track.id] = _track(track, _default_points(track, bounds))
        bounds = _bounds(spaces, regions, connections, laid, water)
    return Layout(
        unit="space",
        grid=board.kind,
        bounds=bounds,
        spaces=spaces,
        regions=regions,
        connections=connections,
        tracks={tid: laid[tid] for tid in tracks},
        water=water,
        show=[show_entry(entry) for entry in extra.get("show") or ()],
        player_colors_from=extra.get("player_colors_from"),
    )


def border(layout: Layout, spaces: Iterable[str]) -> list[list[Point]]:
    """The outline segments around a group of spaces: the sides no other space of the group shares.

    >>> from venedig_rules.data.board import Board
    >>> layout = Board.from_data({"grid": {"type": "square", "rows": ["##"], "legend": {"#": {}}}}).layout()
    >>> len(border(layout, ["a1"])), len(border(layout, ["a1", "b1"]))
    (4, 6)
    """
    count: dict[tuple[tuple[float, float], tuple[float, float]], int] = {}
    for sid in spaces:
        corners = [(p[0], p[1]) for p in layout["spaces"][sid]["outline"]]
        for a, b in zip(corners, corners[1:] + corners[:1]):
            key = (a, b) if a <= b else (b, a)
            count[key] = count.get(key, 0) + 1
    return [[list(a), list(b)] for (a, b), n in count.items() if n == 1]


def track_points(track: _TrackLike, runs: Sequence[Mapping[str, Any]]) -> dict[int, Point]:
    """Each step's point from a track's ``layout.runs``: steps ``a..b`` of a run lie evenly along
    its ``path`` (``a`` on its first point, ``b`` on its last); a ``same_as`` step takes the
    point of its space; a step no run places is left out (the rule checks report it).

    >>> class T:
    ...     steps = range(0, 4)
    ...     def space_of(self, step): return 1 if step == 3 else step
    >>> track_points(T(), [{"steps": [0, 2], "path": [[0, 0], [1, 0], [1, 1]]}])
    {0: [0.0, 0.0], 1: [1.0, 0.0], 2: [1.0, 1.0], 3: [1.0, 0.0]}
    """
    points: dict[int, Point] = {}
    for run in runs:
        first, last = run["steps"]
        path = [_point(p) for p in run["path"]]
        n = last - first
        for i, step in enumerate(range(first, last + 1)):
            points[step] = along(path, i / n if n else 0.0)
    for step in track.steps:
        if track.space_of(step) != step and track.space_of(step) in points:
            points[step] = points[track.space_of(step)]
    return {step: points[step] for step in track.steps if step in points}


def along(path: Sequence[Point], fraction: float) -> Point:
    """The point ``fraction`` (0 to 1) of the way along a polyline, by length.

    >>> along([[0, 0], [2, 0], [2, 2]], 0.75)
    [2.0, 1.0]
    """
    lengths = [math.dist(a, b) for a, b in itertools.pairwise(path)]
    left = fraction * sum(lengths)
    for a, b, length in zip(path, path[1:], lengths):
        if length and left <= length:
            t = left / length
            return _round([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t])
        left -= length
    return _round(path[-1])


# -- spaces --------------------------------------------------------------------------------------
def _reading_order(board: _BoardLike) -> list[str]:
    return sorted(board.spaces, key=lambda s: (board.attrs(s)["row"], board.attrs(s)["col"]))


def _space(board: _BoardLike, sid: str) -> SpaceLayout:
    attrs = board.attrs(sid)
    col, row = attrs["col"], attrs["row"]
    if board.kind == "hex":
        shifted = (row % 2 == 1) == (board.offset != "even_rows")
        cx, cy = col + 0.5 + (0.5 if shifted else 0.0), HEX_RADIUS + row * ROW_STEP
        angles = [math.radians(-90 + 60 * k) for k in range(6)]
        outline = [_round([cx + HEX_RADIUS * math.cos(a), cy + HEX_RADIUS * math.sin(a)]) for a in angles]
        return SpaceLayout(id=sid, shape="hex", center=_round([cx, cy]), outline=outline, region=attrs.get("region"))
    corners = [[col, row], [col + 1, row], [col + 1, row + 1], [col, row + 1]]
    return SpaceLayout(
        id=sid,
        shape="square",
        center=_round([col + 0.5, row + 0.5]),
        outline=[_round(c) for c in corners],
        region=attrs.get("region"),
    )


# -- regions -------------------------------------------------------------------------------------
def _region(board: _BoardLike, rid: str, item: Mapping[str, Any], spaces: Mapping[str, SpaceLayout]) -> RegionLayout:
    drawn = mapping(item.get("layout"))
    order = {sid: i for i, sid in enumerate(spaces)}
    own = sorted(board.spaces_in(rid), key=order.__getitem__)
    outline = [_point(p) for p in drawn["outline"]] if drawn.get("outline") else None
    if outline:
        edges = [[a, b] for a, b in zip(outline, outline[1:] + outline[:1])]
    else:
        edges = border(_just_spaces(spaces), own)
    if drawn.get("label"):
        label = _point(drawn["label"])
    elif outline:
        label = _centroid(outline)
    elif own:
        middle = _centroid([spaces[s]["center"] for s in own])
        label = min((spaces[s]["center"] for s in own), key=lambda c: math.dist(c, middle))
    else:
        label = [0.0, 0.0]  # placed by _place_loose_regions
    return RegionLayout(
        id=rid,
        name=str(item.get("name") or rid),
        side=item.get("side"),
        label=label,
        outline=outline,
        border=edges,
        spaces=own,
    )


def _place_loose_regions(regions: dict[str, RegionLayout], items: Mapping[str, Mapping[str, Any]]) -> None:
    """Regions with neither spaces nor a drawn place (a designer's new district) go on a circle."""
    loose = [
        r for r in regions.values() if not (r["spaces"] or r["outline"] or mapping(items.get(r["id"])).get("layout"))
    ]
    for i, region in enumerate(loose):
        angle = 2 * math.pi * i / len(loose) - math.pi / 2
        region["label"] = _round([4 + 3 * math.cos(angle), 4 + 3 * math.sin(angle)])


def _just_spaces(spaces: Mapping[str, SpaceLayout]) -> Layout:
    return Layout(
        unit="space",
        grid=None,
        bounds=Bounds(x=0.0, y=0.0, width=0.0, height=0.0),
        spaces=dict(spaces),
        regions={},
        connections={},
        tracks={},
        water=[],
        show=[],
        player_colors_from=None,
    )


# -- connections ---------------------------------------------------------------------------------
def _connection(
    con: Mapping[str, Any], spaces: Mapping[str, SpaceLayout], regions: Mapping[str, RegionLayout]
) -> ConnectionLayout:
    drawn = mapping(con.get("layout"))
    between = [str(r) for r in con.get("between") or ()]
    ends_at = [str(s) for s in con.get("spaces") or ()]
    if drawn.get("path"):
        path = [_point(p) for p in drawn["path"]]
    elif ends_at and all(s in spaces for s in ends_at):
        path = [spaces[s]["center"] for s in ends_at]
    else:
        path = [regions[r]["label"] for r in between if r in regions]
    return ConnectionLayout(
        id=str(con["id"]),
        between=between,
        spaces=ends_at,
        path=path,
        center=along(path, 0.5),
        ends=[path[0], path[-1]],
    )


# -- tracks --------------------------------------------------------------------------------------
def _track(track: _TrackLike, points: Mapping[int, Point]) -> TrackLayout:
    return TrackLayout(
        id=track.id,
        name=track.name,
        first=track.first,
        last=track.last,
        posts=track.posts,
        steps=[
            StepLayout(
                step=step,
                center=points[step],
                label=track.label(step),
                space=track.space_of(step),
                post=step > track.last,
            )
            for step in track.steps
        ],
    )


def _default_points(track: _TrackLike, bounds: Bounds) -> dict[int, Point]:
    """Steps in rows of one unit apart, as wide as the board, one unit under everything else."""
    per_row = max(10, int(bounds["width"]))
    points: dict[int, Point] = {}
    for i, step in enumerate(s for s in track.steps if track.space_of(s) == s):
        row, col = divmod(i, per_row)
        points[step] = _round([bounds["x"] + col + 0.5, bounds["y"] + bounds["height"] + 1 + row])
    return {s: points[track.space_of(s)] for s in track.steps}


# -- water and drawing hints ---------------------------------------------------------------------
def _water(item: Mapping[str, Any]) -> WaterLayout:
    return WaterLayout(
        id=str(item["id"]),
        name=item.get("name"),
        outline=[_point(p) for p in item["outline"]] if item.get("outline") else None,
        path=[_point(p) for p in item["path"]] if item.get("path") else None,
        width=float(item["width"]) if item.get("width") is not None else None,
        label=_point(item["label"]) if item.get("label") else None,
    )


def show_entry(entry: Mapping[str, Any]) -> ShowLayout:
    """A ``layout.show`` entry of ``board.yaml`` with every key, defaults filled in.

    >>> show_entry({"var": "doge_step", "track": "doge"})["as"], show_entry({"var": "owner"})["on"]
    ('piece', 'spaces')
    """
    on = str(entry.get("on") or ("track" if entry.get("track") else "spaces"))
    return ShowLayout(
        {
            "var": entry.get("var"),
            "attr": entry.get("attr"),
            "on": on,
            "as": str(entry.get("as") or SHOW_KINDS.get(on, ("label",))[0]),
            "where": dict(entry["where"]) if isinstance(entry.get("where"), Mapping) else None,
            "colors": {str(k): str(v) for k, v in (entry.get("colors") or {}).items()},
            "labels": {str(k): str(v) for k, v in (entry.get("labels") or {}).items()},
            "track": entry.get("track"),
            "stack": entry.get("stack"),
            "laps": bool(entry.get("laps")),
        }
    )


# -- geometry helpers ----------------------------------------------------------------------------
def _bounds(
    spaces: Mapping[str, SpaceLayout],
    regions: Mapping[str, RegionLayout],
    connections: Mapping[str, ConnectionLayout],
    tracks: Mapping[str, TrackLayout],
    water: Sequence[WaterLayout],
) -> Bounds:
    points: list[Point] = [p for s in spaces.values() for p in s["outline"]]
    for region in regions.values():
        points += region["outline"] or [region["label"]]
    points += [p for c in connections.values() for p in c["path"]]
    for track in tracks.values():  # a step is drawn as a disc of radius up to half a unit
        for step in track["steps"]:
            x, y = step["center"]
            points += [[x - 0.5, y - 0.5], [x + 0.5, y + 0.5]]
    for w in water:
        points += (w["outline"] or []) + (w["path"] or [])
    if not points:
        return Bounds(x=0.0, y=0.0, width=1.0, height=1.0)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Bounds(
        x=round(min(xs), DECIMALS),
        y=round(min(ys), DECIMALS),
        width=round(max(xs) - min(xs), DECIMALS),
        height=round(max(ys) - min(ys), DECIMALS),
    )


def _centroid(points: Sequence[Point]) -> Point:
    return _round([sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)])


def _point(value: Sequence[float]) -> Point:
    return _round([float(value[0]), float(value[1])])


def _round(point: Sequence[float]) -> Point:
    return [round(point[0], DECIMALS) + 0.0, round(point[1], DECIMALS) + 0.0]  # + 0.0: no -0.0


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a mapping, else an empty one (data read before or without its schema check)."""
    return value if isinstance(value, Mapping) else {}


def _by_id(items: Any) -> dict[str, Mapping[str, Any]]:
    return {str(i["id"]): i for i in items or () if isinstance(i, Mapping) and "id" in i}
