"""The events of every step kept as compact records and read as event dicts
(engine/run/records.py, ``Played.events``): whoever reads a log reads the dicts the machine
made before, the same ones at every read, after undos and in clones too."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import venedig_rules as vr
from conftest import midgame
from venedig_rules.engine.run import events, records

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
BUNDLED = ["venedig", "saeulen", "rialto"]


def played(name: str, seed: int, actions: int) -> vr.Game:
    """A random game of ``name`` (the fewest players it allows) after up to ``actions`` actions."""
    return midgame(name, vr.load(name).players.start, seed, actions)


def every_kind(rules: vr.Ruleset) -> tuple[str, ...]:
    engine = (events.CHOICE, events.COMMIT, events.REVEAL, events.CHANGE, events.MOVE, events.GAME_OVER)
    return (*engine, *rules.data["game"].get("events", {}))


@pytest.mark.parametrize("name", [*BUNDLED, str(LAGOON)])
def test_a_recorded_log_reads_as_the_dicts_a_game_keeping_every_kind_makes_at_once(name):
    # a game without record that keeps every kind makes each event a dict at once, by the
    # constructors of events.py: the recorded game's records must read as those very dicts
    rules = vr.load(name)
    recorded = played(name, seed=5, actions=10_000)
    assert recorded.is_over
    direct = rules.new_game(rules.players.start, 5, record=False, keep_events=every_kind(rules))
    for action in recorded.actions:
        direct.apply(action)
    assert recorded.played.logged is not direct.played.logged
    assert recorded.events == direct.events
    assert [list(e) for e in recorded.events] == [list(e) for e in direct.events]  # keys in the same order


def test_each_kind_of_record_is_the_event_its_constructor_makes():
    fields = {"player": 1, "cards": ("a", "b"), "sets": (("c",),)}
    assert records.event_of((records.CHANGE_RECORD, "points", 3, "+=")) == events.change("points", 3, "+=")
    assert records.event_of((records.PART_RECORD, "hand", ("x",), "set", 2)) == events.change("hand", ("x",), "set", 2)
    assert records.event_of((records.MOVE_RECORD, "c4", "deck", None, "hand", 0)) == events.move(
        "c4", ["deck", None], ["hand", 0]
    )
    assert records.event_of((records.CHOICE_RECORD, 0, "bid", None, True, True)) == events.choice(
        0, "bid", None, True, True
    )
    assert records.event_of((records.RULESET_RECORD, "claim", fields)) == {
        "type": "claim",
        "player": 1,
        "cards": ["a", "b"],
        "sets": [["c"]],
    }
    with pytest.raises(ValueError, match="no event record of kind 9"):
        records.event_of((9, "x"))


def test_reading_the_log_again_gives_the_very_same_dicts():
    # a seat's knowledge tells a log it has read by the identity of its last event
    game = played("rialto", seed=3, actions=40)
    first = list(game.played.events)
    assert all(type(e) is dict for e in first)
    assert all(a is b for a, b in zip(game.played.events, first, strict=True))
    game.apply(game.legal_actions(game.to_move[0])[0])
    assert any(type(e) is tuple for e in game.played.logged[len(first) :])  # the move's records, not read yet
    after = game.played.events
    assert all(type(e) is dict for e in after)
    assert all(a is b for a, b in zip(after, first))


def test_the_log_reads_as_dicts_after_an_undo_and_more_play():
    # read, undo below what was read, play on past it, read again: the records after the
    # cut are made dicts too (the record of what was read is cut back with the log)
    rules = vr.load("venedig")
    game = played("venedig", seed=4, actions=60)
    read = len(game.played.events)
    for _ in range(12):
        game.undo()
    assert len(game.played.logged) < read
    chooser = random.Random(9)
    while len(game.played.logged) <= read + 5 and not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    log = game.played.events
    assert all(type(e) is dict for e in log)
    replayed = rules.new_game(rules.players.start, 4)
    for action in game.actions:
        replayed.apply(action)
    assert log == replayed.events


def test_a_clone_reads_its_records_and_leaves_its_originals_as_they_are():
    game = played("saeulen", seed=2, actions=30)
    original = list(game.played.logged)
    clone = game.clone()
    assert any(type(e) is tuple for e in clone.played.logged)
    assert clone.events == game.clone().events
    assert game.played.logged == original  # the original's records untouched by the clone's read
    assert clone.events == game.events


def test_cutting_the_log_back_cuts_back_what_was_read_of_it():
    game = played(str(LAGOON), seed=1, actions=6)
    read = list(game.events)
    played_record = game.played
    played_record.cut_events(len(read) - 2)
    assert played_record.unpacked == len(read) - 2
    played_record.logged.append((records.CHANGE_RECORD, "x", 1, "set"))  # as the machine appends
    assert played_record.events[-1] == events.change("x", 1, "set")
    assert played_record.events[:-1] == read[:-2]


def test_unpacking_makes_dicts_of_the_records_it_is_given_and_leaves_the_rest():
    # what the machine appends while a log is read is left for the next read
    kept = {"type": "game_over"}
    log = [kept, (records.CHANGE_RECORD, "x", 1, "set"), (records.MOVE_RECORD, "c", "a", None, "b", 0)]
    records.unpack(log, 0, 2)
    assert log[0] is kept and log[1] == events.change("x", 1, "set") and type(log[2]) is tuple
