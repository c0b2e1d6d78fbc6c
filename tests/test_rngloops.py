"""The generator's draws on C integers in the compiled build (engine/run/rngloops.py,
rngloops.pyx): the states and numbers rng.py gives, and its errors. The compiled tests
(tests/test_compiled.py) run this file on the compiled wheel; in the pure package, which
draws from rng.py alone, the C loops' own tests are skipped."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import runs_compiled
from venedig_rules.engine.run import machine, rng, rngloops

COMPILED = runs_compiled(rngloops)
compiled_only = pytest.mark.skipif(not COMPILED, reason="only the compiled build draws in C (rngloops.pyx)")

STATES = st.integers(0, (1 << 64) - 1)
#: Bounds of every size, with those where nearly half the draws are drawn again.
BOUNDS = st.one_of(
    st.integers(1, 1000),
    st.integers(1, 1 << 64),
    st.sampled_from([1, 2, (1 << 63) + 1, 3 << 62, (1 << 64) - 1, 1 << 64]),
)


def test_the_pure_package_draws_from_rng():
    assert callable(rngloops.below) if COMPILED else rngloops.below is None
    assert callable(rngloops.shuffled) if COMPILED else rngloops.shuffled is None
    assert (machine._below is rngloops.below) is COMPILED
    assert (machine._shuffled is rngloops.shuffled) is COMPILED


@compiled_only
@given(STATES, BOUNDS)
def test_a_draw_is_rngs(state, n):
    assert rngloops.below(state, n) == rng.below(state, n)


@compiled_only
@given(STATES, st.lists(st.integers(), max_size=40))
def test_a_shuffle_is_rngs(state, items):
    assert rngloops.shuffled(state, items) == rng.shuffled(state, items)
    assert rngloops.shuffled(state, iter(items)) == rng.shuffled(state, items)  # any iterable


@compiled_only
@pytest.mark.parametrize("n", [0, -3, (1 << 64) + 1, 1 << 200])
def test_a_bound_of_no_64_bit_draw_is_refused_alike(n):
    with pytest.raises(ValueError, match=r"a bound from 1 to 2\*\*64, not"):
        rngloops.below(rng.seed_state(1), n)


def outcome(draw, *args):
    """What a draw gives, or the kind and words of its error."""
    try:
        return draw(*args)
    except Exception as error:  # the error itself is what is compared
        return type(error), str(error)


@compiled_only
@pytest.mark.parametrize(
    ("state", "n"),
    [(-1, 6), (1 << 64, 6), (1 << 200, 6), (True, 6), (1.5, 6), ("7", 6), (None, 6)]
    + [(7, 2.0), (7, "6"), (7, None), (7, True)],
)
def test_what_is_no_64_bit_int_draws_or_fails_as_in_rng(state, n):
    """A game's state is always an int of 64 bits, but rng's functions take others (or
    refuse them): the C loops hand those to rng."""
    assert outcome(rngloops.below, state, n) == outcome(rng.below, state, n)
    assert outcome(rngloops.shuffled, state, "abc") == outcome(rng.shuffled, state, "abc")


@compiled_only
def test_a_shuffle_of_one_item_or_none_keeps_the_state():
    for items in ([], ["a"]):
        assert rngloops.shuffled(12345, items) == rng.shuffled(12345, items) == (12345, tuple(items))
    assert outcome(rngloops.shuffled, 1.5, ["a"]) == outcome(rng.shuffled, 1.5, ["a"])
