"""A recorded game's log and its undo history's weak references kept out of the cyclic
garbage collector's walks in the compiled build (engine/run/untracked.py, untracked.pyx).

The compiled tests (tests/test_compiled.py) run this file on the compiled wheel, where the
untracking is done; in the pure package, which cannot untrack, only the first test runs.
"""

from __future__ import annotations

import gc
import random
import tracemalloc
import weakref

import pytest

import venedig_rules as vr
from conftest import midgame, runs_compiled
from venedig_rules.engine import game as engine_game
from venedig_rules.engine.run import untracked
from venedig_rules.engine.seat import played as played_module

COMPILED = runs_compiled(untracked)
compiled_only = pytest.mark.skipif(not COMPILED, reason="only the compiled build can untrack (untracked.pyx)")
#: A game settles its events 64 at a time: the last ones may still be tracked.
BATCH = 64


def played(name: str, seed: int, actions: int, **options) -> vr.Game:
    return midgame(name, 3, seed, actions, **options)


def tracked_containers(events: list[dict]) -> list[int]:
    """The indexes of the events that are, or hold a value that is, tracked by the collector."""
    return [i for i, event in enumerate(events) if gc.is_tracked(event) or any(map(gc.is_tracked, event.values()))]


def test_the_pure_package_offers_no_untracking():
    if COMPILED:
        assert callable(untracked.settle_events) and callable(untracked.untrack_weak_refs)
    else:
        assert untracked.settle_events is None and untracked.untrack_weak_refs is None


@compiled_only
@pytest.mark.parametrize("name", ["venedig", "saeulen", "rialto"])
def test_a_recorded_games_events_leave_the_collectors_sight_and_stay_as_they_were(name, monkeypatch):
    game = played(name, seed=2, actions=150)
    events = game.events
    assert len(events) > 2 * BATCH
    settled = len(events) // BATCH * BATCH
    assert tracked_containers(events[:settled]) == []
    # the same game, left tracked: neither its records nor the event dicts made of them
    monkeypatch.setattr(engine_game, "settle_events", None)
    monkeypatch.setattr(played_module, "settle_events", None)
    same = played(name, seed=2, actions=150)
    assert tracked_containers(same.events[:settled]) != []
    assert events == same.events and game.to_json() == same.to_json()


@compiled_only
def test_the_events_a_game_without_record_keeps_leave_it_too():
    game = played("venedig", seed=3, actions=200, record=False, keep_events=("move", "change"))
    kept = game._play.events  # (a game without record gives no events: they are for its caller's counts)
    assert len(kept) > BATCH
    assert tracked_containers(kept[: len(kept) // BATCH * BATCH]) == []


@compiled_only
def test_settling_untracks_nested_lists_dicts_and_tuples_to_a_depth_and_nothing_else():
    other = {1, 2}  # a set: left as it is
    nested: list = ["deepest"]
    for _ in range(9):
        nested = [nested]
    events = [
        {"type": "a", "from": ["x", None], "value": (["y"], {"z": [1]})},
        {"type": "b", "set": other},
        {"type": "c", "deep": nested},
    ]
    untracked.settle_events(events, 0)
    first = events[0]
    inside = [first["from"], first["value"], first["value"][0], first["value"][1], first["value"][1]["z"]]
    assert not gc.is_tracked(first) and not any(map(gc.is_tracked, inside))
    assert gc.is_tracked(other) and not gc.is_tracked(events[1])
    depth, inner = 0, events[2]["deep"]
    while not gc.is_tracked(inner):  # the event is one level, its list the next, and so on
        inner, depth = inner[0], depth + 1
    assert depth == 7  # eight levels with the event: a deeper one stays tracked, walked as before


@compiled_only
def test_settling_starts_where_asked():
    events = [{"type": "a", "cards": ["x"]}, {"type": "b", "cards": ["y"]}]
    untracked.settle_events(events, 1)
    assert gc.is_tracked(events[0]) and not gc.is_tracked(events[1])


@compiled_only
def test_the_undo_historys_weak_references_leave_the_collectors_sight():
    game, chooser = vr.load("rialto").new_game(3, 5), random.Random(5)
    held = []  # positions held: the history keeps their states by weak reference
    while len(game.actions) < 120:
        held.append(game.position)
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    refs = [s for s in game.played.history._states if type(s) is weakref.ref]
    assert len(refs) > 50
    assert not any(map(gc.is_tracked, refs))


@compiled_only
@pytest.mark.parametrize("name", ["venedig", "rialto"])
def test_a_game_let_go_of_frees_its_untracked_log(name):
    def play_and_let_go() -> None:
        for seed in range(3):
            game = played(name, seed=seed, actions=300)
            assert len(game.events) > 4 * BATCH
            del game
        gc.collect()

    tracemalloc.start()
    try:
        for _ in range(2):  # the ruleset's memos of these positions, and tables grown for them
            play_and_let_go()
        before = tracemalloc.get_traced_memory()[0]
        play_and_let_go()
        left = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # a game of 300 actions keeps some 300 KB while it is held: a log the collector no longer
    # walks is still freed with its game
    assert left < 100_000, left
