"""Board spaces from ``board.yaml``: a grid drawn as rows of characters plus overrides.

A space id is the column's letters then the 1-based row number: column 0 is ``a``,
column 25 ``z``, column 26 ``aa``.

>>> space_id(2, 3), space_id(26, 0)
('c4', 'aa1')
>>> board = {"grid": {"type": "square", "rows": ["#~", ".#"],
...                   "legend": {"#": {"terrain": "land"}, "~": {"terrain": "canal"}}},
...          "spaces": {"b2": {"tags": ["startfeld"]}}}
>>> for space, attrs in grid_spaces(board).items():
...     print(space, attrs)
a1 {'terrain': 'land', 'col': 0, 'row': 0}
b1 {'terrain': 'canal', 'col': 1, 'row': 0}
b2 {'terrain': 'land', 'col': 1, 'row': 1, 'tags': ['startfeld']}

:class:`Board` answers the queries the engine asks often about a ruleset's board (spaces
by grid adjacency, regions joined by connections, tracks) from tables precomputed at
construction, and gives the board as networkx graphs to whoever asks for them.

>>> board = Board.from_data(board)
>>> board.neighbours("b2"), sorted(board.spaces_where(terrain="land"))
(('b1',), ['a1', 'b2'])
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import did_you_mean
from .layout import Layout, board_layout

if TYPE_CHECKING:
    import networkx as nx

#: Map characters that stand for no space.
EMPTY = frozenset(" .")


def space_id(col: int, row: int) -> str:
    """The id of the space in 0-based ``col`` and ``row``."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return f"{letters}{row + 1}"


def grid_spaces(board: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every space of the board's grid with its attributes (legend, then ``spaces`` overrides).

    Characters not in the legend are skipped here; the rule checks report them.
    """
    grid = board.get("grid") if isinstance(board, dict) else None
    spaces: dict[str, dict[str, Any]] = {}
    if isinstance(grid, dict) and isinstance(grid.get("rows"), list):
        legend = grid.get("legend")
        if not isinstance(legend, dict):
            legend = {}
        for row, text in enumerate(grid["rows"]):
            for col, char in enumerate(text if isinstance(text, str) else ""):
                if char not in EMPTY and isinstance(legend.get(char), dict):
                    spaces[space_id(col, row)] = {**legend[char], "col": col, "row": row}
    overrides = board.get("spaces") if isinstance(board, dict) else None
    for sid, attrs in overrides.items() if isinstance(overrides, dict) else ():
        if sid in spaces and isinstance(attrs, dict):
            spaces[sid].update(attrs)
    return spaces


def matches(attrs: Mapping[str, Any], where: Mapping[str, Any]) -> bool:
    """Whether a space's attributes match a selector (every key equal; ``tags`` all present).

    >>> matches({"start": "swamp", "tags": ["a", "b"]}, {"start": "swamp", "tags": ["a"]})
    True
    """
    for key, want in where.items():
        have = attrs.get(key)
        if key == "tags":
            if not set(want) <= set(have or ()):
                return False
        elif have != want:
            return False
    return True


#: A shape: the id of a shape the board knows, or its cells (``[[col, row], ...]``).
Shape = str | Sequence[Sequence[int]]

#: Neighbour steps on a square grid, (col, row): edges only, never diagonal.
SQUARE_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))
#: Neighbour steps on a hex grid in axial coordinates (q, r).
HEX_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class RuleData(Protocol):
    """What :meth:`Board.from_ruleset` reads of a loaded ruleset (a
    :class:`~venedig_rules.Ruleset` has it; this layer cannot name the engine's class)."""

    @property
    def data(self) -> Mapping[str, Any]: ...

    def items(self, kind: str, key: str) -> Iterable[Mapping[str, Any]]: ...


@dataclass(frozen=True)
class Connection:
    """A connection of ``board.yaml``: it joins two regions, maybe at two named spaces."""

    id: str
    between: tuple[str, str]
    spaces: tuple[str, ...]
    tags: frozenset[str]
    params: Mapping[str, Any] = field(hash=False)


class Track:
    """A numbered track of ``board.yaml``: steps ``first..last``, then ``posts`` more steps.

    A step is a number; its *space* is where a piece on it physically stands. A step with
    ``same_as`` is the same space as the other step (Venedig's 10/45), every other step
    (posts included) is a space of its own, named by its step number.

    >>> track = Track({"id": "gondola", "name": "Gondola track", "first": 0, "last": 4,
    ...                "posts": 2, "spaces": [{"step": 1, "touches": ["castello"]},
    ...                                       {"step": 3, "same_as": 1}]})
    >>> track.steps, track.space_of(3), sorted(track.touches(3))
    (range(0, 7), 1, ['castello'])
    """

    def __init__(self, data: Mapping[str, Any]):
        self.id: str = data["id"]
        self.name: str = data.get("name") or self.id
        self.first: int = int(data["first"])
        self.last: int = int(data["last"])
        self.posts: int = int(data.get("posts") or 0)
        if self.first > self.last or self.posts < 0:
            raise ValueError(
                f"track {self.id!r} runs from {self.first} to {self.last} with "
                f"{self.posts} posts; expected first <= last and posts >= 0"
            )
        #: Every step, the posts included: ``first .. last + posts``.
        self.steps = range(self.first, self.last + self.posts + 1)
        described: dict[int, Mapping[str, Any]] = {}
        for space in data.get("spaces") or ():
            step = space["step"]
            if step not in self.steps:
                raise ValueError(
                    f"track {self.id!r} describes step {step}, which it does not have "
                    f"(steps {self.first}..{self.steps[-1]})"
                )
            described[step] = space
        self._space = tuple(self._resolve(step, described) for step in self.steps)
        self._touches = tuple(self._own_touches(step, described) for step in self.steps)
        self._label = tuple(str(described.get(step, {}).get("label", step)) for step in self.steps)
        self._tags = tuple(frozenset(described.get(step, {}).get("tags") or ()) for step in self.steps)

    def __repr__(self) -> str:
        return f"<Track {self.id} {self.first}..{self.last} + {self.posts} posts>"

    def space_of(self, step: int) -> int:
        """The physical space of ``step``: the step it is the ``same_as``, else itself.

        >>> Track({"id": "t", "first": 0, "last": 3, "spaces": [{"step": 3, "same_as": 1}]}).space_of(3)
        1
        """
        return self._space[self._index(step)]

    def touches(self, step: int) -> frozenset[str]:
        """The regions ``step`` borders (none for posts and undescribed steps).

        A ``same_as`` step without its own ``touches`` inherits those of the step it is.

        >>> track = Track({"id": "t", "first": 0, "last": 3,
        ...                "spaces": [{"step": 1, "touches": ["castello"]}, {"step": 3, "same_as": 1}]})
        >>> sorted(track.touches(3)), sorted(track.touches(0))
        (['castello'], [])
        """
        return self._touches[self._index(step)]

    def label(self, step: int) -> str:
        """The step's printed label (``'10/45'``), else its number as text.

        >>> Track({"id": "t", "first": 0, "last": 3, "spaces": [{"step": 0, "label": "Start"}]}).label(0)
        'Start'
        """
        return self._label[self._index(step)]

    def tags(self, step: int) -> frozenset[str]:
        """The step's tags (``start``, ``win``, ...).

        >>> sorted(Track({"id": "t", "first": 0, "last": 3, "spaces": [{"step": 3, "tags": ["win"]}]}).tags(3))
        ['win']
        """
        return self._tags[self._index(step)]

    def advance(self, start: int, n: int, occupied_steps: Iterable[int] = ()) -> int:
        """The step a piece on ``start`` reaches by moving ``n`` counted steps forward.

        ``occupied_steps`` are the steps the *other* pieces stand on. A step whose physical
        space is occupied (a piece on step 10 blocks step 45 when 45 is ``same_as`` 10) is
        skipped and not counted, so the move never ends on an occupied space. If the track
        (posts included) ends before ``n`` steps are counted, the piece stops on the last
        post, or, if that is occupied, on the farthest free step it passed; with no free
        step ahead it stays on ``start``. For tracks whose pieces share spaces (Rialto's
        Doge track) pass no occupied steps: the move is then ``min(start + n, last post)``.

        >>> track = Track({"id": "t", "first": 0, "last": 10})
        >>> track.advance(2, 3, occupied_steps=[4]), track.advance(8, 5), track.advance(8, 5, [10])
        (6, 10, 9)
        """
        if n < 0:
            raise ValueError(f"cannot move {n} steps on track {self.id!r}; expected n >= 0")
        here = self._index(start)
        blocked = {self._space[self._index(step)] for step in occupied_steps}
        counted, index, end = 0, here, len(self._space) - 1
        while counted < n and index < end:
            index += 1
            if self._space[index] not in blocked:
                counted += 1
                here = index
        return self.first + here

    def _index(self, step: int) -> int:
        if isinstance(step, bool) or not isinstance(step, int) or step not in self.steps:
            raise KeyError(f"track {self.id!r} has no step {step!r} (steps {self.first}..{self.steps[-1]})")
        return step - self.first

    def _resolve(self, step: int, described: Mapping[int, Mapping[str, Any]]) -> int:
        seen = [step]
        while (same := described.get(step, {}).get("same_as")) is not None:
            if same not in self.steps:
                raise ValueError(
                    f"step {step} of track {self.id!r} is the same space as step {same}, which the track does not have"
                )
            if same in seen:
                raise ValueError(f"track {self.id!r}: steps {seen} are the same space as each other in a loop")
            seen.append(same)
            step = same
        return step

    def _own_touches(self, step: int, described: Mapping[int, Mapping[str, Any]]) -> frozenset[str]:
        seen = set()
        while step not in seen:
            seen.add(step)
            space = described.get(step, {})
            if space.get("touches") is not None:
                return frozenset(space["touches"])
            if space.get("same_as") is None:
                break
            step = space["same_as"]
        return frozenset()


class Board:
    """The board of a ruleset as graphs plus precomputed query tables. Treat it as read-only.

    ``graph`` is a :class:`networkx.Graph` of the spaces drawn in the grid (water is no
    space) with the space attributes of :func:`grid_spaces` on each node. A square grid
    joins edge neighbours only (never diagonals). A hex grid is drawn in offset rows:
    ``offset: odd_rows`` shifts the rows with an odd 0-based index half a hex right
    (redblobgames "odd-r"), ``even_rows`` the even ones; a hex grid without ``offset`` is
    taken as ``odd_rows``. ``region_graph`` is a :class:`networkx.MultiGraph` of the
    regions (node attributes from ``regions``) with one edge per connection, keyed by the
    connection id (attributes ``id``, ``spaces``, ``tags``, ``params``); it is a
    multigraph because two regions may be joined by several connections (Venedig's bridge
    spots). Both graphs are built when first asked for: playing needs neither, and
    networkx is imported only then (it would double the objects the garbage collector
    walks in a game).

    Unknown spaces, regions, tracks and shapes raise :class:`KeyError`.

    >>> board = Board.from_data({"grid": {"type": "hex", "offset": "odd_rows", "rows": ["##", "##"],
    ...                                   "legend": {"#": {"region": "north"}}},
    ...                          "regions": [{"id": "north", "name": "North"}]})
    >>> board.neighbours("a2"), board.graph.number_of_edges(), sorted(board.spaces_in("north"))
    (('a1', 'b1', 'b2'), 5, ['a1', 'a2', 'b1', 'b2'])
    """

    def __init__(self, board: Mapping[str, Any], shapes: Mapping[str, Sequence[Sequence[int]]] | None = None):
        board = board if isinstance(board, Mapping) else {}
        grid = board.get("grid")
        if not isinstance(grid, Mapping):
            grid = {}
        #: ``"square"``, ``"hex"``, or ``None`` for a board without a grid (Rialto).
        self.kind: str | None = grid.get("type")
        #: ``"odd_rows"`` or ``"even_rows"`` on a hex grid, else ``None``.
        self.offset: str | None = (grid.get("offset") or "odd_rows") if self.kind == "hex" else None
        if self.kind not in (None, "square", "hex") or self.offset not in (None, "odd_rows", "even_rows"):
            raise ValueError(
                f"unknown grid type {self.kind!r} or offset {self.offset!r}; "
                "expected square, or hex with odd_rows or even_rows"
            )
        attrs = {sid: _plain(a) for sid, a in grid_spaces(dict(board)).items()}
        self._attrs = {sid: MappingProxyType(a) for sid, a in attrs.items()}
        #: Every space id.
        self.spaces: frozenset[str] = frozenset(attrs)
        self._coords = {sid: self._coord(a["col"], a["row"]) for sid, a in attrs.items()}
        self._at = {xy: sid for sid, xy in self._coords.items()}
        self._neighbours = self._grid_neighbours()
        self._index = self._build_index(attrs)
        self._where_cache: dict[tuple[tuple[str, Any], ...], frozenset[str]] = {}

        self._regions = [r for r in board.get("regions") or () if isinstance(r, Mapping)]
        #: Every connection by id, in data order.
        self.connections: Mapping[str, Connection] = MappingProxyType(
            {c["id"]: _connection(c) for c in board.get("connections") or () if isinstance(c, Mapping)}
        )
        #: Every region id, in data order (regions only named by spaces last, sorted).
        self.regions: tuple[str, ...] = self._region_order(attrs)
        self._spaces_in: dict[str, frozenset[str]] = {region: frozenset() for region in self.regions}
        self._spaces_in.update({value: found for (attr, value), found in self._index.items() if attr == "region"})
        self._region_neighbours = self._joined_regions()
        self._space_attrs = attrs

        #: Every track of the board by id, in data order.
        self.tracks: Mapping[str, Track] = MappingProxyType(
            {t["id"]: Track(t) for t in board.get("tracks") or () if isinstance(t, Mapping)}
        )
        #: Shape id -> cells, as given to the constructor.
        self.shapes: Mapping[str, tuple[tuple[int, int], ...]] = MappingProxyType(
            {sid: _cells(cells) for sid, cells in (shapes or {}).items()}
        )
        self._data = board

    @cached_property
    def graph(self) -> nx.Graph[str]:
        """The spaces drawn in the grid as a :class:`networkx.Graph`, joined by grid
        adjacency, each node with its attributes (a copy: changing it changes no query).
        Built when first asked for: the game itself never needs networkx."""
        import networkx as nx

        graph: nx.Graph[str] = nx.Graph()
        graph.add_nodes_from(sorted((sid, _plain(a)) for sid, a in self._space_attrs.items()))
        graph.add_edges_from((a, b) for a, ns in sorted(self._neighbours.items()) for b in ns if a < b)
        return graph

    @cached_property
    def region_graph(self) -> nx.MultiGraph[str]:
        """The regions as a :class:`networkx.MultiGraph`, one edge per connection (keyed
        by its id, with its ``spaces``, ``tags`` and ``params``). Built when first asked for."""
        import networkx as nx

        graph: nx.MultiGraph[str] = nx.MultiGraph()
        graph.add_nodes_from((r["id"], _plain({k: v for k, v in r.items() if k != "id"})) for r in self._regions)
        graph.add_nodes_from(r for r in self.regions if r not in graph)
        for con in self.connections.values():
            graph.add_edge(*con.between, key=con.id, id=con.id, spaces=con.spaces, tags=con.tags, params=con.params)
        return graph

    @classmethod
    def from_data(cls, board: Mapping[str, Any], shapes: Mapping[str, Sequence[Sequence[int]]] | None = None) -> Board:
        """The board of a parsed ``board.yaml`` mapping, with ``shapes`` (id -> cells) from ``tiles.yaml``.

        >>> board = Board.from_data({"grid": {"type": "square", "rows": ["##"], "legend": {"#": {}}}},
        ...                         {"domino": [[0, 0], [1, 0]]})
        >>> board.placements("domino", board.spaces)
        (('a1', 'b1'), ('b1', 'a1'))
        """
        return cls(board, shapes)

    @classmethod
    def from_ruleset(cls, rules: RuleData) -> Board:
        """The board of a loaded :class:`~venedig_rules.Ruleset`, with the shapes of its ``tiles.yaml``.

        >>> import venedig_rules as vr
        >>> board = Board.from_ruleset(vr.load("saeulen"))
        >>> len(board.spaces), board.kind, sorted(board.shapes)[:2]
        (136, 'square', ['bridge', 'domino'])
        """
        shapes = {s["id"]: s["cells"] for s in rules.items("tiles", "shapes")}
        return cls(rules.data.get("board") or {}, shapes)

    def __repr__(self) -> str:
        return (
            f"<Board {self.kind or 'no grid'}: {len(self.spaces)} spaces, {len(self.regions)} regions, "
            f"{len(self.connections)} connections, {len(self.tracks)} tracks>"
        )

    # --- spaces --------------------------------------------------------------------------------

    def attrs(self, space: str) -> Mapping[str, Any]:
        """The attributes of ``space`` (legend, overrides, ``col``, ``row``), read-only.

        >>> board = Board.from_data({"grid": {"type": "square", "rows": ["#"], "legend": {"#": {"terrain": "land"}}}})
        >>> dict(board.attrs("a1"))
        {'terrain': 'land', 'col': 0, 'row': 0}
        """
        self._space(space)
        return self._attrs[space]

    def coords(self, space: str) -> tuple[int, int]:
        """The grid coordinates of ``space``: ``(col, row)`` on a square grid, axial ``(q, r)`` on a hex grid.

        >>> board = Board.from_data({"grid": {"type": "hex", "offset": "odd_rows", "rows": ["...", "..#", "..#"],
        ...                                   "legend": {"#": {}}}})
        >>> board.coords("c2"), board.coords("c3")
        ((2, 1), (1, 2))
        """
        self._space(space)
        return self._coords[space]

    def neighbours(self, space: str) -> tuple[str, ...]:
        """The spaces sharing an edge with ``space``, sorted.

        >>> board = Board.from_data({"grid": {"type": "square", "rows": ["###", "###"], "legend": {"#": {}}}})
        >>> board.neighbours("b1"), board.neighbours("a2")
        (('a1', 'b2', 'c1'), ('a1', 'b2'))
        """
        self._space(space)
        return self._neighbours[space]

    def spaces_where(self, **where: Any) -> frozenset[str]:
        """The spaces whose attributes match ``where``, as :func:`matches` decides.

        ``tags`` takes a list of tags that must all be present (a single string is one tag).
        Results are cached per selector.

        >>> board = Board.from_data({"grid": {"type": "square", "rows": ["#~#"],
        ...     "legend": {"#": {"terrain": "land"}, "~": {"terrain": "canal", "tags": ["water"]}}}})
        >>> sorted(board.spaces_where(terrain="land")), sorted(board.spaces_where(tags=["water"]))
        (['a1', 'c1'], ['b1'])
        """
        if isinstance(where.get("tags"), str):
            where["tags"] = [where["tags"]]
        try:
            key = tuple(sorted([(k, frozenset(v) if k == "tags" else v) for k, v in where.items()]))
            hash(key)
        except TypeError:
            return frozenset([sid for sid, a in self._attrs.items() if matches(a, where)])
        found = self._where_cache.get(key)
        if found is None:
            found = self._select(where)
            self._where_cache[key] = found
        return found

    def is_contiguous(self, spaces: Iterable[str]) -> bool:
        """Whether ``spaces`` form one group joined by grid adjacency (no or one space: ``True``).

        >>> board = Board.from_data({"grid": {"type": "square", "rows": ["###", "###"], "legend": {"#": {}}}})
        >>> board.is_contiguous({"a1", "b1", "b2"}), board.is_contiguous({"a1", "b2"})
        (True, False)
        """
        group = set(spaces)
        for space in group:
            self._space(space)
        if len(group) < 2:
            return True
        start = next(iter(group))
        seen, todo = {start}, [start]
        while todo:
            for other in self._neighbours[todo.pop()]:
                if other in group and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return len(seen) == len(group)

    def touches(self, spaces: Iterable[str], other_spaces: Iterable[str]) -> bool:
        """Whether a space of ``spaces`` shares an edge with a space of ``other_spaces``.

        Sharing a space is not touching: only adjacency counts.

        >>> board = Board.from_data({"grid": {"type": "square", "rows": ["###"], "legend": {"#": {}}}})
        >>> board.touches({"a1"}, {"b1", "c1"}), board.touches({"a1"}, {"c1"})
        (True, False)
        """
        other = set(other_spaces)
        for space in other:
            self._space(space)
        for space in spaces:  # a loop, not a generator (compiled: tests/test_compiled_style.py)
            for n in self.neighbours(space):
                if n in other:
                    return True
        return False

    # --- regions and connections ---------------------------------------------------------------

    def region_of(self, space: str) -> str | None:
        """The region ``space`` belongs to, or ``None``.

        >>> board = Board.from_data({"grid": {"type": "square", "rows": ["#"],
        ...                                   "legend": {"#": {"region": "castello"}}}})
        >>> board.region_of("a1")
        'castello'
        """
        self._space(space)
        return self._attrs[space].get("region")

    def spaces_in(self, region: str) -> frozenset[str]:
        """The spaces of ``region`` (empty for a region without grid spaces, as in Rialto).

        >>> board = Board.from_data({"grid": {"type": "square", "rows": ["##"],
        ...                                   "legend": {"#": {"region": "castello"}}}})
        >>> sorted(board.spaces_in("castello"))
        ['a1', 'b1']
        """
        self._region(region)
        return self._spaces_in[region]

    def region_neighbours(self, region: str) -> tuple[str, ...]:
        """The regions joined to ``region`` by at least one connection, sorted.

        >>> board = Board.from_data({"regions": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        ...                          "connections": [{"id": "ab", "between": ["a", "b"]}]})
        >>> board.region_neighbours("a")
        ('b',)
        """
        self._region(region)
        return self._region_neighbours[region]

    def connection(self, connection_id: str) -> Connection:
        """The connection with this id.

        >>> board = Board.from_data({"regions": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        ...                          "connections": [{"id": "ab", "between": ["a", "b"], "tags": ["bridge_spot"]}]})
        >>> board.connection("ab").between, sorted(board.connection("ab").tags)
        (('a', 'b'), ['bridge_spot'])
        """
        if connection_id not in self.connections:
            raise KeyError(f"unknown connection {connection_id!r}{did_you_mean(str(connection_id), self.connections)}")
        return self.connections[connection_id]

    # --- drawing -----------------------------------------------------------------------------

    def layout(self) -> Layout:
        """The board's drawing geometry: spaces, regions, connections, track steps, water and
        drawing hints, in one unit (see :mod:`venedig_rules.data.layout`); JSON-safe, a new
        copy on each call.

        >>> import venedig_rules as vr
        >>> layout = vr.load("rialto").board.layout()
        >>> len(layout["spaces"]), len(layout["regions"]), len(layout["connections"]), layout["unit"]
        (0, 6, 12, 'space')
        >>> len(vr.load("venedig").board.layout()["tracks"]["gondola"]["steps"])
        81
        """
        return board_layout(self, self._data, self.tracks)

    # --- tracks ------------------------------------------------------------------------------

    def track(self, track_id: str) -> Track:
        """The board track with this id (score tracks of ``scoring.yaml`` are not board tracks).

        >>> board = Board.from_data({"tracks": [{"id": "doge", "name": "Doge track", "first": 0, "last": 40}]})
        >>> board.track("doge").advance(38, 5)
        40
        """
        if track_id not in self.tracks:
            raise KeyError(f"unknown track {track_id!r}{did_you_mean(str(track_id), self.tracks)}")
        return self.tracks[track_id]

    # --- shapes ------------------------------------------------------------------------------

    def placements(
        self,
        shape: Shape,
        allowed: Collection[str] | None,
        cell_allowed: Sequence[Collection[str] | None] | None = None,
        *,
        unordered: bool = False,
    ) -> tuple[tuple[str, ...], ...]:
        """Every placement of a shape on allowed spaces, in every rotation, sorted.

        ``shape`` is a shape id of this board or a list of cells: ``[col, row]`` on a
        square grid, axial ``[q, r]`` on a hex grid (``r`` grows downwards, ``q`` along a
        row; for cells in rows 0 and 1 this is the same as odd-r offset ``[col, row]``).
        Square shapes turn by 90 degrees, hex shapes by 60; tiles are never flipped. Each
        placement lists the spaces in the shape's cell order, so a tile's ``pattern`` lines
        up with it; rotations that map every cell to the same space as another rotation
        (a one-cell shape) give it once. Every cell must lie on a space of ``allowed``
        (``None``: any space), unless ``cell_allowed[i]`` is given (not ``None``), which
        replaces ``allowed`` for cell ``i``. With ``unordered=True`` each set of spaces is
        given once (its smallest tuple), for pieces whose cells are alike.

        >>> board = Board.from_data({"grid": {"type": "square", "rows": ["#~#", "###"],
        ...     "legend": {"#": {"terrain": "land"}, "~": {"terrain": "canal"}}}})
        >>> land, canal = board.spaces_where(terrain="land"), board.spaces_where(terrain="canal")
        >>> board.placements([[0, 0], [1, 0], [2, 0]], None, [land, canal, land])
        (('a1', 'b1', 'c1'), ('c1', 'b1', 'a1'))
        >>> len(board.placements([[0, 0], [0, 1], [1, 1]], land))
        2
        >>> board.placements([[0, 0], [1, 0]], land, unordered=True)
        (('a1', 'a2'), ('a2', 'b2'), ('b2', 'c2'), ('c1', 'c2'))
        """
        cells = self._shape(shape)
        if cell_allowed is not None and len(cell_allowed) != len(cells):
            raise ValueError(f"cell_allowed has {len(cell_allowed)} entries for a shape of {len(cells)} cells")
        everywhere = self.spaces if allowed is None else frozenset(allowed)
        per_cell = [
            everywhere if ok is None else frozenset(ok)
            for ok in (cell_allowed if cell_allowed is not None else [None] * len(cells))
        ]
        if self.kind is None:
            return ()
        found = sorted(self._fits(cells, per_cell))
        return tuple(_first_of_each_set(found) if unordered else found)

    def _fits(self, cells: tuple[tuple[int, int], ...], per_cell: list[frozenset[str]]) -> Iterator[tuple[str, ...]]:
        """Each placement of ``cells``, in each rotation, with cell ``i`` on a space of
        ``per_cell[i]``: the first cell on each allowed space in turn, the others from it."""
        for anchor in per_cell[0] & self.spaces:
            q, r = self._coords[anchor]
            for offsets in _rotations(cells, self.kind == "hex"):
                placed = [anchor]
                for (dq, dr), ok in zip(offsets[1:], per_cell[1:]):
                    space = self._at.get((q + dq, r + dr))
                    if space is None or space not in ok:
                        break
                    placed.append(space)
                else:
                    yield tuple(placed)

    # --- helpers -----------------------------------------------------------------------------

    def _grid_neighbours(self) -> dict[str, tuple[str, ...]]:
        """Each space's neighbours in the grid, sorted."""
        steps = HEX_STEPS if self.kind == "hex" else SQUARE_STEPS
        return {
            sid: tuple(sorted(self._at[(q + dq, r + dr)] for dq, dr in steps if (q + dq, r + dr) in self._at))
            for sid, (q, r) in self._coords.items()
        }

    def _region_order(self, attrs: Mapping[str, Mapping[str, Any]]) -> tuple[str, ...]:
        """The regions in the order the region graph has them: those described, those only
        spaces name (sorted), those only connections name (as they come)."""
        order = dict.fromkeys(r["id"] for r in self._regions)
        order.update(dict.fromkeys(sorted({a["region"] for a in attrs.values() if "region" in a} - set(order))))
        for con in self.connections.values():
            order.update(dict.fromkeys(con.between))
        return tuple(order)

    def _joined_regions(self) -> dict[str, tuple[str, ...]]:
        """Each region's neighbours across the connections, sorted (none: an empty tuple)."""
        joined: dict[str, set[str]] = {}
        for con in self.connections.values():
            a, b = con.between
            joined.setdefault(a, set()).add(b)
            joined.setdefault(b, set()).add(a)
        return {region: tuple(sorted(joined.get(region, ()))) for region in self.regions}

    def _coord(self, col: int, row: int) -> tuple[int, int]:
        if self.kind != "hex":
            return col, row
        shift = (row - (row & 1)) // 2 if self.offset == "odd_rows" else (row + (row & 1)) // 2
        return col - shift, row

    def _space(self, space: str) -> None:
        if space not in self._attrs:
            raise KeyError(f"unknown space {space!r}{did_you_mean(str(space), self._attrs)}")

    def _region(self, region: str) -> None:
        if region not in self._spaces_in:
            raise KeyError(f"unknown region {region!r}{did_you_mean(str(region), self._spaces_in)}")

    def _shape(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        if isinstance(shape, str):
            if shape not in self.shapes:
                raise KeyError(f"unknown shape {shape!r}{did_you_mean(shape, self.shapes)}")
            return self.shapes[shape]
        return _cells(shape)

    @staticmethod
    def _build_index(attrs: Mapping[str, Mapping[str, Any]]) -> dict[tuple[str, Any], frozenset[str]]:
        index: dict[tuple[str, Any], set[str]] = {}
        for sid, a in attrs.items():
            for key, value in a.items():
                values = value if key == "tags" else [value]
                for v in values:
                    with contextlib.suppress(TypeError):  # an unhashable value: spaces_where scans for it
                        index.setdefault((key, v), set()).add(sid)
        return {key: frozenset(found) for key, found in index.items()}

    def _select(self, where: Mapping[str, Any]) -> frozenset[str]:
        sets = []
        for key, want in where.items():
            if want is None:  # matches() accepts a missing attribute: no index answers that
                return frozenset(sid for sid, a in self._attrs.items() if matches(a, where))
            for value in want if key == "tags" else [want]:
                sets.append(self._index.get((key, value), frozenset()))
        if not sets:
            return self.spaces
        sets.sort(key=len)
        return frozenset(sets[0].intersection(*sets[1:]))


def _connection(data: Mapping[str, Any]) -> Connection:
    return Connection(
        id=data["id"],
        between=tuple(data["between"]),
        spaces=tuple(data.get("spaces") or ()),
        tags=frozenset(data.get("tags") or ()),
        params=MappingProxyType(_plain(dict(data.get("params") or {}))),
    )


def _plain(value: Any) -> Any:
    """A copy of plain data (mappings and lists copied, scalars shared), cheaper than deepcopy."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _first_of_each_set(placements: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The placements, each set of spaces once: the first of them (the smallest, as they are
    sorted)."""
    seen: set[frozenset[str]] = set()
    unique = []
    for placement in placements:
        if frozenset(placement) not in seen:
            seen.add(frozenset(placement))
            unique.append(placement)
    return unique


def _cells(cells: Sequence[Sequence[int]]) -> tuple[tuple[int, int], ...]:
    out = tuple((int(c[0]), int(c[1])) for c in cells)
    if not out or len(set(out)) != len(out):
        raise ValueError(f"a shape needs one or more distinct cells, not {cells!r}")
    return out


@lru_cache(maxsize=256)
def _rotations(cells: tuple[tuple[int, int], ...], hex_grid: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Each distinct rotation of ``cells`` as offsets from its first cell, in cell order."""
    found: list[tuple[tuple[int, int], ...]] = []
    current = cells
    for _ in range(6 if hex_grid else 4):
        q0, r0 = current[0]
        offsets = tuple((q - q0, r - r0) for q, r in current)
        if offsets not in found:
            found.append(offsets)
        # 60 degrees in axial coordinates: (q, r) -> (-r, q + r); 90 degrees on squares: (c, r) -> (-r, c)
        current = tuple((-r, q + r) if hex_grid else (-r, q) for q, r in current)
    return tuple(found)
