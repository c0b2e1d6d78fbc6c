"""Die Säulen von Venedig: where a Pitch Dipper's pillars may go (the squares beside the
canal or a pillar, and the free-land areas behind ``pillar_starts``), checked against the
plain definitions on random boards of pillars."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import venedig_rules as vr
from venedig_rules.games.saeulen import Tables, _best_starts, _spot_indexes, tables


def _rules():
    return vr.load("saeulen")


def _whole_area(t: Tables, has_pillar: tuple[bool, ...], first: int) -> int:
    area, todo = {first}, [first]
    while todo:
        for n in t.neighbours[todo.pop()]:
            if n in t.land_set and not has_pillar[n] and n not in area:
                area.add(n)
                todo.append(n)
    return len(area)


def _pillars(t: Tables, density: float, seed: int, anywhere: bool = False) -> tuple[bool, ...]:
    """Pillars on random land squares (``anywhere``: on any square, as a broken state may
    hold them; only those on land count)."""
    chance = random.Random(seed)
    return tuple((anywhere or i in t.land_set) and chance.random() < density for i in range(len(t.ids)))


@settings(max_examples=100, deadline=None)
@given(density=st.floats(0.0, 0.95), seed=st.integers(0, 2**32), anywhere=st.booleans())
def test_a_first_pillar_goes_on_free_land_beside_the_canal_or_a_pillar(density: float, seed: int, anywhere: bool):
    t = tables(_rules())
    has_pillar = _pillars(t, density, seed, anywhere)
    expected = [
        i
        for i in sorted(range(len(t.ids)), key=t.ids.__getitem__)  # in the order of their names
        if i in t.land_set
        and not has_pillar[i]
        and any(n in t.canal or (n in t.land_set and has_pillar[n]) for n in t.neighbours[i])
    ]
    assert _spot_indexes(t, has_pillar, ()) == expected


@settings(max_examples=100, deadline=None)
@given(density=st.floats(0.0, 0.9), seed=st.integers(0, 2**32), placed=st.integers(1, 4))
def test_a_next_pillar_goes_on_free_land_beside_one_placed(density: float, seed: int, placed: int):
    t = tables(_rules())
    has_pillar = _pillars(t, density, seed)
    chosen = random.Random(seed).sample([t.ids[i] for i in t.land], placed)
    near = {n for s in chosen for n in t.neighbours[t.index[s]]}
    expected = [i for i in range(len(t.ids)) if i in near & t.land_set and not has_pillar[i]]
    assert _spot_indexes(t, has_pillar, chosen) == expected


@settings(max_examples=150, deadline=None)
@given(density=st.floats(0.0, 0.95), seed=st.integers(0, 2**32), need=st.integers(-1, 40), anywhere=st.booleans())
def test_the_starts_kept_are_those_of_the_largest_areas_counted_up_to_need(
    density: float, seed: int, need: int, anywhere: bool
):
    t = tables(_rules())
    has_pillar = _pillars(t, density, seed, anywhere)
    starts = _spot_indexes(t, has_pillar, ())
    sizes = [min(need, _whole_area(t, has_pillar, first)) for first in starts]
    expected = [first for first, size in zip(starts, sizes) if size == max(sizes)]
    assert _best_starts(t, has_pillar, need) == expected


@settings(max_examples=60, deadline=None)
@given(
    density=st.floats(0.05, 0.9), seed=st.integers(0, 2**32), need=st.integers(2, 12), mark=st.sampled_from([1, 2, "x"])
)
def test_a_pillar_is_any_true_value_to_the_area_walk(density: float, seed: int, need: int, mark: object):
    """The walk tells a pillar by its truth, as the compiled walk does: a value other than
    True (a designer's 1, 2 or "x") is never taken for a square a walk found."""
    t = tables(_rules())
    has_pillar = _pillars(t, density, seed)
    as_other = tuple(mark if p else p for p in has_pillar)
    assert _best_starts(t, as_other, need) == _best_starts(t, has_pillar, need)
