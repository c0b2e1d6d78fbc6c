"""Venedig's swamp walked in C in the compiled build (games/_venedig_walks.py, .pyx): the
spaces, in the order, that venedig.py's own loop gives. The compiled tests
(tests/test_compiled.py) run this file on the compiled wheel; in the pure package, which
walks in Python, the C walk's own tests are skipped."""

from __future__ import annotations

import random
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import venedig_rules as vr
from conftest import runs_compiled
from venedig_rules.games import _venedig_walks, venedig

COMPILED = runs_compiled(_venedig_walks)
compiled_only = pytest.mark.skipif(not COMPILED, reason="only the compiled build walks in C (_venedig_walks.pyx)")

FACTS = venedig._facts(types.SimpleNamespace(rules=vr.load("venedig")))
SPACES = len(FACTS.spaces)

#: A per-space value: a swamp tile (any word) or none on each space.
SWAMPS = st.lists(st.sampled_from([None, None, "tile", "other"]), min_size=SPACES, max_size=SPACES).map(tuple)


@contextmanager
def python_walk() -> Iterator[None]:
    """venedig.py walking the swamp in Python, as the pure package does."""
    walk, FACTS.swamp_walk = FACTS.swamp_walk, None
    FACTS.swamp_memo = (None, ())
    try:
        yield
    finally:
        FACTS.swamp_walk = walk
        FACTS.swamp_memo = (None, ())


def test_the_pure_package_walks_in_python():
    assert callable(_venedig_walks.order) if COMPILED else _venedig_walks.order is None
    assert (FACTS.swamp_walk is not None) is COMPILED


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


def played(seed: int) -> list[Any]:
    """The events of a random 3-player game of Venedig."""
    chooser = random.Random(seed)
    game = vr.load("venedig").new_game(3, seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    return list(game.events)


@compiled_only
@pytest.mark.parametrize("seed", [3, 8])
def test_a_game_played_with_the_c_walk_is_the_game_python_plays(seed):
    in_c = played(seed)
    with python_walk():
        assert played(seed) == in_c
