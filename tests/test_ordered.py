"""A decision's options found in order by one walk (engine/run/ordered.py, ordered.pyx):
the machine gives the very options and kind it gives by sorting. The compiled build walks
every decision, the pure package those of ``RISING_FROM`` options or more. The compiled
tests (tests/test_compiled.py) run this file on the compiled wheel too."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import runs_compiled
from venedig_rules.engine.run import machine, ordered

COMPILED = runs_compiled(ordered)

#: Options of the kinds decisions offer, mixed as a ruleset may mix them.
OPTION = st.one_of(
    st.text(alphabet="abcz", max_size=3),
    st.integers(-3, 40),
    st.booleans(),
    st.none(),
    st.tuples(st.text(alphabet="ab", max_size=2), st.text(alphabet="ab", max_size=2)),
    st.tuples(st.integers(0, 3)),
)


def test_the_pure_package_walks_only_long_decisions():
    expected = 2 if COMPILED else 16
    assert expected == ordered.RISING_FROM


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
    assert ordered.rising(options) is expected


def _sorted_options(options):
    """What the machine gives when it walks no decision."""
    walk_from, machine.RISING_FROM = machine.RISING_FROM, 10**9
    try:
        return machine._options_of_kind(options, "label")
    finally:
        machine.RISING_FROM = walk_from


@given(
    st.one_of(
        st.lists(OPTION, max_size=6),
        st.lists(OPTION, min_size=15, max_size=20),  # about the pure package's threshold
        st.lists(st.text(alphabet="abcdef", max_size=3), min_size=14, max_size=24).map(lambda v: sorted(set(v))),
    ).map(tuple)
)
def test_a_decision_gets_the_options_and_kind_sorting_gives(options):
    walked = machine._options_of_kind(options, "label")
    sorted_ = _sorted_options(options)
    assert walked == sorted_
    assert [type(o) for o in walked[0]] == [type(o) for o in sorted_[0]]


def test_a_long_decision_in_order_is_taken_as_it_comes():
    options = tuple(f"s{i:02}" for i in range(ordered.RISING_FROM))
    assert machine._options_of_kind(options, "label") == (options, "str")
    assert machine._options_of_kind(options, "label")[0] is options  # not sorted again


@given(
    st.one_of(
        st.lists(st.text(alphabet="abcdef", max_size=3), min_size=2, max_size=8),
        st.lists(st.integers(), min_size=2, max_size=8),
    )
)
def test_options_sorted_and_distinct_are_found_in_order(values):
    options = tuple(sorted(set(values)))
    assert ordered.rising(options) is (len(options) >= 1)
