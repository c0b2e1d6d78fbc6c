"""Venedig's board walked in C in the compiled build (games/_venedig_walks.py, .pyx): the
swamp's spaces and the buildings' free sites, in the order, that venedig.py's own loops give. The compiled tests
(tests/test_compiled.py) run this file on the compiled wheel; in the pure package, which
walks in Python, the C walk's own tests are skipped."""

from __future__ import annotations

import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import venedig_rules as vr
from conftest import played_out, runs_compiled
from venedig_rules.games import _venedig_walks, venedig

COMPILED = runs_compiled(_venedig_walks)
compiled_only = pytest.mark.skipif(not COMPILED, reason="only the compiled build walks in C (_venedig_walks.pyx)")

RULES = vr.load("venedig")
FACTS = venedig._facts(types.SimpleNamespace(rules=RULES))
SPACES = len(FACTS.spaces)

#: A per-space value: a swamp tile (any word) or none on each space.
SWAMPS = st.lists(st.sampled_from([None, None, "tile", "other"]), min_size=SPACES, max_size=SPACES).map(tuple)


#: Which spaces have a building (any word) on them.
BUILT = st.lists(st.sampled_from([None, None, None, "palazzo"]), min_size=SPACES, max_size=SPACES).map(tuple)
#: Spaces drained this turn, and names that are no space (which block nothing).
BLOCKED = st.one_of(st.none(), st.lists(st.sampled_from([*FACTS.spaces, "nowhere"]), max_size=4).map(tuple))


@contextmanager
def python_walk() -> Iterator[None]:
    """venedig.py walking the board in Python, as the pure package does."""
    walks = FACTS.swamp_walk, FACTS.site_walk
    FACTS.swamp_walk = FACTS.site_walk = None
    FACTS.swamp_memo, FACTS.free_memo = (None, ()), None
    try:
        yield
    finally:
        FACTS.swamp_walk, FACTS.site_walk = walks
        FACTS.swamp_memo, FACTS.free_memo = (None, ()), None


def free_sites(built: tuple[Any, ...], swamp: tuple[Any, ...], blocked: Any) -> dict[str, Any]:
    """Every building's free sites, as building_sites gives them (its memo forgotten)."""
    ctx = types.SimpleNamespace(rules=RULES)
    FACTS.free_memo = None
    return {b: venedig.building_sites(ctx, b, built, swamp, blocked) for b in FACTS.buildings}


def test_the_pure_package_walks_in_python():
    assert callable(_venedig_walks.order) if COMPILED else _venedig_walks.order is None
    assert (FACTS.swamp_walk is not None) is COMPILED
    assert callable(_venedig_walks.sites) if COMPILED else _venedig_walks.sites is None
    assert (FACTS.site_walk is not None) is COMPILED


@compiled_only
@given(SWAMPS)
def test_the_swamp_spaces_are_those_python_finds(swamp):
    assert FACTS.swamp_walk.occupied(swamp) == venedig._on_swamp(FACTS.by_name, swamp)


@compiled_only
def test_a_swamp_given_as_a_list_walks_as_the_same_tuple():
    swamp = [None if i % 3 else "tile" for i in range(SPACES)]
    assert FACTS.swamp_walk.occupied(swamp) == venedig._on_swamp(FACTS.by_name, tuple(swamp))
    assert FACTS.swamp_walk.occupied(swamp + ["beyond the board"]) == FACTS.swamp_walk.occupied(swamp)


@compiled_only
def test_a_value_too_short_for_the_board_is_an_error_not_a_read_beyond_it():
    with pytest.raises(IndexError, match=f"a value for each of {SPACES} spaces, not {SPACES - 1}"):
        FACTS.swamp_walk.occupied(("tile",) * (SPACES - 1))
    with pytest.raises(IndexError):
        venedig._on_swamp(FACTS.by_name, ("tile",) * (SPACES - 1))  # as Python's loop refuses it
    assert _venedig_walks.order is not None
    with pytest.raises(IndexError, match="space 'c3' at place -1"):
        _venedig_walks.order(((0, "a1"), (-1, "c3")))
    assert _venedig_walks.order(()).occupied(()) == ()
    assert _venedig_walks.order(((2, "b"), (0, "a"))).occupied((None, None, 1)) == ("b",)


@compiled_only
@given(BUILT, SWAMPS, BLOCKED)
def test_the_free_sites_are_those_python_finds(built, swamp, blocked):
    in_c = free_sites(built, swamp, blocked)
    with python_walk():
        assert free_sites(built, swamp, blocked) == in_c


def test_the_pure_package_gathers_the_sites_of_one_space_at_once():
    one_space = {b for b, sites in FACTS.site_indexes.items() if len(sites) > 1 and all(len(s) == 1 for s in sites)}
    assert one_space >= {"casa", "campo"}
    assert set(FACTS.one_space_sites) == (set() if COMPILED else one_space)


@given(BUILT, SWAMPS, BLOCKED)
def test_python_finds_the_sites_its_plain_loop_finds(built, swamp, blocked):
    with python_walk():
        found = free_sites(built, swamp, blocked)
        free = FACTS.free_memo.free
    for b in FACTS.buildings:  # the loop every site of several spaces is found by
        assert found[b] == venedig._free_sites(FACTS.sites[b], FACTS.site_indexes[b], free), b


@compiled_only
def test_the_sites_walk_refuses_what_lies_off_the_board():
    walk = FACTS.site_walk
    empty = (None,) * SPACES
    mask = walk.free_mask(empty, empty, [])
    assert set(mask) == {1} and len(mask) == SPACES
    with pytest.raises(IndexError, match=f"a value for each of {SPACES} spaces, not {SPACES - 1}"):
        walk.free_mask(empty, empty[:-1], [])
    with pytest.raises(IndexError, match=f"place {SPACES}: the board has {SPACES} spaces"):
        walk.free_mask(empty, empty, [SPACES])
    with pytest.raises(IndexError, match=f"a mark for each of {SPACES} spaces, not 2"):
        walk.free_sites(FACTS.buildings[0], bytearray(2))
    with pytest.raises(TypeError):
        walk.free_sites(FACTS.buildings[0], [True] * SPACES)  # only a mask it made
    with pytest.raises(KeyError):
        walk.free_sites("no building", mask)
    assert _venedig_walks.sites is not None
    with pytest.raises(IndexError, match="a site of 'b' at place 3: the board has 3 spaces"):
        _venedig_walks.sites({"b": ((0, 3),)}, {"b": (("a", "d"),)}, 3)
    with pytest.raises(ValueError, match="'b': 1 sites by place, 0 by name"):
        _venedig_walks.sites({"b": ((0, 1),)}, {"b": ()}, 3)
    small = _venedig_walks.sites(
        {"b": ((0, 1), (1, 2)), "c": ((2,),)}, {"b": (("x", "y"), ("y", "z")), "c": (("z",),)}, 3
    )
    assert small.free_sites("b", small.free_mask((None, None, "c"), (None,) * 3, [])) == (("x", "y"),)
    assert small.free_sites("c", small.free_mask((None,) * 3, (None,) * 3, [2])) == ()


@compiled_only
@pytest.mark.parametrize("seed", [3, 8])
def test_a_game_played_with_the_c_walk_is_the_game_python_plays(seed):
    in_c = played_out("venedig", 3, seed)
    with python_walk():
        assert played_out("venedig", 3, seed) == in_c
