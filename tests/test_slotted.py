"""A class's instances made with their slots written at once in the compiled build
(engine/run/slotted.py, slotted.pyx): the machine's decisions are the objects their classes
make. The compiled tests (tests/test_compiled.py) run this file on the compiled wheel; in
the pure package, which fills the twin classes, the maker's own tests are skipped."""

from __future__ import annotations

import gc
import sys
import weakref
from dataclasses import FrozenInstanceError, dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import runs_compiled
from venedig_rules.engine.run import machine, slotted

COMPILED = runs_compiled(slotted)
compiled_only = pytest.mark.skipif(not COMPILED, reason="only the compiled build writes slots at once (slotted.pyx)")


@dataclass(frozen=True, slots=True)
class Pair:
    left: object
    right: object = None


class Plain:
    __slots__ = ("__weakref__", "a", "b")


def test_the_pure_package_fills_the_twin_classes():
    assert callable(slotted.maker) if COMPILED else slotted.maker is None
    assert (machine._make_choice is not None) is COMPILED
    assert (machine._make_commits is not None) is COMPILED


@given(
    st.integers(0, 5),
    st.text(max_size=3),
    st.lists(st.integers(), max_size=4).map(tuple),
    st.booleans(),
    st.booleans(),
    st.sampled_from([None, "int", "str", machine.UNKNOWN_KIND]),
)
def test_a_decision_made_at_once_is_the_one_its_class_makes(player, label, options, optional, secret, kind):
    made = machine._new_choice(player, label, options, optional, "t", secret, kind)
    assert type(made) is machine.PendingChoice
    assert made == machine.PendingChoice(player, label, options, optional, "t", secret)
    assert (made._actions, made._kind) == (None, kind)
    with pytest.raises(FrozenInstanceError):
        made.player = player + 1
    commits = machine._new_commits((player,), label, (options,), (None,), "t", None)
    assert type(commits) is machine.PendingCommits
    assert commits == machine.PendingCommits((player,), label, (options,), (None,), "t")
    assert commits._actions is None


@compiled_only
def test_the_maker_sets_every_slot_and_holds_no_reference_too_many():
    make = slotted.maker(Pair, ("left", "right"))
    value = object()
    before = sys.getrefcount(value)
    made = make(value, "r")
    assert type(made) is Pair and made == Pair(value, "r") and made.left is value
    assert sys.getrefcount(value) == before + 1  # the slot's reference, no other
    gone = weakref.ref(made.__class__)
    del made
    assert sys.getrefcount(value) == before and gone() is Pair
    plain = slotted.maker(Plain, ("b",))(7)
    assert plain.b == 7 and not hasattr(plain, "a")  # a slot not named stays empty
    alive = weakref.ref(plain)
    del plain
    gc.collect()
    assert alive() is None


@compiled_only
def test_an_object_in_a_cycle_is_collected():
    make = slotted.maker(Plain, ("a",))
    first = make(None)
    second = make(first)
    object.__setattr__(first, "a", second)
    assert gc.is_tracked(first)
    alive = weakref.ref(first)
    del first, second
    gc.collect()
    assert alive() is None


@compiled_only
def test_what_is_no_slot_of_the_class_is_refused():
    with pytest.raises(TypeError, match=r"Pair\.nothing is no slot of the class itself"):
        slotted.maker(Pair, ("nothing",))
    with pytest.raises(TypeError, match=r"Pair\.__eq__ is no slot"):
        slotted.maker(Pair, ("__eq__",))
    with pytest.raises(TypeError, match=r"that object\.__new__ makes"):
        slotted.maker(tuple, ())
    with pytest.raises(TypeError, match=r"that object\.__new__ makes"):
        slotted.maker("Pair", ())
    with pytest.raises(ValueError, match="at most 16 slots, not 17"):
        slotted.maker(Pair, ("left",) * 17)
    make = slotted.maker(Pair, ("left", "right"))
    with pytest.raises(TypeError, match="2 values for 2 slots, not 3"):
        make(1, 2, 3)
