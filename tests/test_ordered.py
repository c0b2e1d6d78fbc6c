"""A decision's options found in order by one walk in the compiled build
(engine/run/ordered.py, ordered.pyx): the machine gives the very options and kind it gives
by sorting. The compiled tests (tests/test_compiled.py) run this file on the compiled wheel;
in the pure package, which does not walk, the walk's own tests are skipped."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import runs_compiled
from venedig_rules.engine.run import machine, ordered

COMPILED = runs_compiled(ordered)
compiled_only = pytest.mark.skipif(not COMPILED, reason="only the compiled build walks (ordered.pyx)")

#: Options of the kinds decisions offer, mixed as a ruleset may mix them.
OPTION = st.one_of(
    st.text(alphabet="abcz", max_size=3),
    st.integers(-3, 40),
    st.booleans(),
    st.none(),
    st.tuples(st.text(alphabet="ab", max_size=2), st.text(alphabet="ab", max_size=2)),
    st.tuples(st.integers(0, 3)),
)


def test_the_pure_package_does_not_walk():
    assert callable(ordered.rising) if COMPILED else ordered.rising is None


@compiled_only
@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (("a", "b", "c"), True),
        ((1, 2, 40), True),
        (("a", "a"), False),  # a repeat: the pass for repeats drops it
        (("b", "a"), False),
        ((1, True), False),  # equal to Python, different actions
        ((False, True), False),
        ((1, "a"), False),
        ((("a",), ("b",)), False),  # lists are sorted as before
        ((None, None), False),
        ((), False),
        ((1.0, 2.0), False),
    ],
)
def test_the_walk_takes_only_words_or_whole_numbers_strictly_rising(options, expected):
    assert ordered.rising is not None
    assert ordered.rising(options) is expected


@compiled_only
@given(st.lists(OPTION, max_size=6).map(tuple))
def test_a_decision_gets_the_options_and_kind_sorting_gives(options):
    walked = machine._options_of_kind(options, "label")
    rising, machine.rising = machine.rising, None  # the pure package's way
    try:
        sorted_ = machine._options_of_kind(options, "label")
    finally:
        machine.rising = rising
    assert walked == sorted_
    assert [type(o) for o in walked[0]] == [type(o) for o in sorted_[0]]


@compiled_only
@given(
    st.one_of(
        st.lists(st.text(alphabet="abcdef", max_size=3), min_size=2, max_size=8),
        st.lists(st.integers(), min_size=2, max_size=8),
    )
)
def test_options_sorted_and_distinct_are_found_in_order(values):
    options = tuple(sorted(set(values)))
    assert ordered.rising is not None
    assert ordered.rising(options) is (len(options) >= 1)
