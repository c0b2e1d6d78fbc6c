"""Säulen's board walks in C in the compiled build (games/_saeulen_walks.py, .pyx): each
gives the squares, in the order, that saeulen.py's own loop gives. The compiled tests
(tests/test_compiled.py) run this file on the compiled wheel; in the pure package, which
walks in Python, the C walks' own tests are skipped."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import venedig_rules as vr
from conftest import played_out, runs_compiled
from venedig_rules.games import _saeulen_walks, saeulen

COMPILED = runs_compiled(_saeulen_walks)
compiled_only = pytest.mark.skipif(not COMPILED, reason="only the compiled build walks in C (_saeulen_walks.pyx)")

TABLES = saeulen.tables(vr.load("saeulen"))
SQUARES = len(TABLES.ids)

#: A board: which squares have a pillar, and which have a tile on them (any word).
BOARDS = st.tuples(
    st.lists(st.booleans(), min_size=SQUARES, max_size=SQUARES).map(tuple),
    st.lists(st.sampled_from([None, None, "tile"]), min_size=SQUARES, max_size=SQUARES).map(tuple),
)


@contextmanager
def python_walks() -> Iterator[None]:
    """saeulen.py walking in Python, as the pure package does."""
    walks, TABLES.walks = TABLES.walks, None
    try:
        yield
    finally:
        TABLES.walks = walks


def both(walk: Callable[..., Any], *args: Any) -> tuple[Any, Any]:
    """What ``walk`` gives in C and in Python (the free squares' memo forgotten for each)."""
    TABLES.free_memo = None
    in_c = walk(TABLES, *args)
    TABLES.free_memo = None
    with python_walks():
        in_python = walk(TABLES, *args)
    TABLES.free_memo = None
    return in_c, in_python


def test_the_pure_package_walks_in_python():
    assert callable(_saeulen_walks.board) if COMPILED else _saeulen_walks.board is None
    assert (TABLES.walks is not None) is COMPILED


@compiled_only
@given(BOARDS, st.integers(1, 12))
def test_the_starts_and_their_areas_are_those_python_finds(board, need):
    has_pillar, _ = board
    starts, python_starts = both(saeulen._spot_indexes, has_pillar, ())
    assert starts == python_starts
    assert [type(i) for i in starts] == [int] * len(starts)
    in_c, in_python = both(saeulen._best_starts, has_pillar, need)
    assert in_c == in_python


@compiled_only
@given(BOARDS, st.lists(st.sampled_from(TABLES.ids), max_size=4))
def test_the_squares_beside_those_placed_are_those_python_finds(board, placed):
    has_pillar, _ = board
    in_c, in_python = both(saeulen._spot_indexes, has_pillar, placed)
    assert in_c == in_python


@compiled_only
@given(BOARDS)
def test_the_free_pillars_are_those_python_finds(board):
    in_c, in_python = both(saeulen._free, *board)
    assert in_c == in_python


@compiled_only
def test_a_board_given_as_lists_walks_as_the_same_tuples():
    has_pillar = [i % 3 == 0 for i in range(SQUARES)]
    ground = [None if i % 2 else "tile" for i in range(SQUARES)]
    starts = saeulen._spot_indexes(TABLES, has_pillar, ())
    assert starts == saeulen._spot_indexes(TABLES, tuple(has_pillar), ())
    assert saeulen._best_starts(TABLES, has_pillar, 5) == saeulen._best_starts(TABLES, tuple(has_pillar), 5)
    assert both(saeulen._free, has_pillar, ground) == both(saeulen._free, tuple(has_pillar), tuple(ground))


@compiled_only
def test_a_square_off_the_board_is_an_error_not_a_read_beyond_it():
    walks = TABLES.walks
    empty = (False,) * SQUARES
    with pytest.raises(IndexError, match=f"not on a board of {SQUARES} squares"):
        walks.area_sizes(empty, [SQUARES], 3)
    with pytest.raises(IndexError, match=f"for each of {SQUARES} squares, not {SQUARES - 1}"):
        walks.area_sizes(empty[:-1], [0], 3)
    with pytest.raises(IndexError, match=f"for each of {SQUARES} squares, not {SQUARES + 1}"):
        walks.spot_starts(empty + (False,))
    with pytest.raises(IndexError, match=f"for each of {SQUARES} squares, not 0"):
        walks.free_squares((True,) * SQUARES, ())
    with pytest.raises(KeyError):
        walks.spots_beside(["nowhere"], TABLES.index, empty)
    with pytest.raises(ValueError, match="has a pillar"):
        walks.area_sizes((True,) * SQUARES, [0], 3)
    assert _saeulen_walks.board is not None
    with pytest.raises(IndexError, match="square 7 is not on a board of 2 squares"):
        _saeulen_walks.board(((0, False, (1,)),), ((1,), (7,)))


@compiled_only
def test_a_board_too_large_for_the_c_stack_is_walked_in_python():
    assert _saeulen_walks.board is not None
    assert _saeulen_walks.board((), ((),) * 512) is not None
    assert _saeulen_walks.board((), ((),) * 513) is None
    with pytest.raises(ValueError, match="at most 512"):
        type(TABLES.walks)((), ((),) * 513)


@compiled_only
@pytest.mark.parametrize("seed", [3, 8])
def test_a_game_played_with_the_c_walks_is_the_game_python_plays(seed):
    in_c = played_out("saeulen", 3, seed)
    with python_walks():
        assert played_out("saeulen", 3, seed) == in_c
