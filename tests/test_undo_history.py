"""The undo history keeps few states and makes the others again by replay
(engine/run/undohistory.py): every undo must still give back exactly the game that was."""

from __future__ import annotations

import gc
import random
import weakref

import pytest
from reference.machine import ReferenceGame

import venedig_rules as vr
from venedig_rules.engine.run.undohistory import CHECKPOINT, RECENT

BUNDLED = ["venedig", "saeulen", "rialto"]


def played(name: str, seed: int, actions: int, game_class: type[vr.Game] = vr.Game) -> tuple[vr.Game, list[dict]]:
    """A recorded game of ``actions`` random actions, with its save before each of them."""
    rules = vr.load(name)
    game = game_class(rules, rules.players.start, seed)
    chooser, saves = random.Random(seed), []
    while len(saves) < actions and not game.is_over:
        saves.append(game.to_json())
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    assert len(saves) > 3 * CHECKPOINT, "the game must be long enough to drop states"
    return game, saves


@pytest.mark.parametrize("name", BUNDLED)
def test_undo_gives_back_every_earlier_save_though_most_states_were_dropped(name):
    game, saves = played(name, seed=4, actions=120)
    gc.collect()
    while game.actions:
        game.undo()
        assert game.to_json() == saves[len(game.actions)], f"after undo to {len(game.actions)} actions"


def test_undo_part_way_then_play_on_then_undo_to_the_start():
    game, saves = played("saeulen", seed=5, actions=100)
    for _ in range(37):  # past two checkpoints, to a state that was dropped
        game.undo()
    assert game.to_json() == saves[63]
    chooser = random.Random(99)
    for _ in range(50):  # another line of play: the history grows again from here
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    for _ in range(50):
        game.undo()
    assert game.to_json() == saves[63]
    while game.actions:
        game.undo()
    assert game.to_json() == saves[0]


def test_a_state_is_not_kept_alive_by_the_history_once_play_has_gone_past_it():
    rules = vr.load("rialto")
    game, chooser = rules.new_game(2, seed=1), random.Random(1)
    for _ in range(CHECKPOINT + 1):  # the state held next is not a checkpoint's
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    dropped = weakref.ref(game.position.state)
    for _ in range(RECENT + CHECKPOINT):  # (the history lets go of states some at a time)
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    gc.collect()
    assert dropped() is None


def test_a_position_held_keeps_its_state_so_continues_still_tells_by_identity():
    rules = vr.load("venedig")
    game, chooser = rules.new_game(3, seed=2), random.Random(2)
    for _ in range(CHECKPOINT + 3):
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    held = game.position
    actions = []
    for _ in range(3 * CHECKPOINT):
        actions.append(game.legal_actions(game.to_move[0])[0])
        game.apply(actions[-1])
    gc.collect()
    assert game.continues(held)
    for _ in range(3 * CHECKPOINT):
        game.undo()
    assert game.position.state is held.state and game.continues(held)
    game.undo()
    for action in [*game.legal_actions(game.to_move[0])[:1], *actions[:5]]:
        if action in game.legal_actions(action.player):
            game.apply(action)
    assert not game.continues(held)  # taken back past it, though played on


def test_a_state_nothing_else_holds_is_dropped_at_once_and_one_held_is_kept_by_weak_reference():
    rules = vr.load("saeulen")
    game, chooser = rules.new_game(2, seed=3), random.Random(3)
    for _ in range(CHECKPOINT + 3):
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    held = game.position  # the state before the next action, held here
    for _ in range(4 * CHECKPOINT):
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    kept = game.played.history._states
    weak = [i for i, k in enumerate(kept) if type(k) is weakref.ref]
    # no weak reference made for a state only the history held: an object fewer an action
    assert weak == [held.actions] and weak[0] % CHECKPOINT
    assert sum(k is None for k in kept) > 2 * CHECKPOINT
    assert kept[held.actions]() is held.state


def test_a_clone_undoes_on_its_own_and_leaves_its_original_whole():
    game, saves = played("venedig", seed=6, actions=90)
    clone = game.clone()
    while clone.actions:
        clone.undo()
    assert clone.to_json() == saves[0]
    for _ in range(45):
        game.undo()
    assert game.to_json() == saves[45]


def test_table_undo_looks_at_a_state_that_was_made_again():
    game, _ = played("venedig", seed=7, actions=80)
    for _ in range(RECENT + 3):  # the last point now is one the history dropped
        game.undo()
    fresh = vr.Game.from_json(game.rules, game.to_json())
    for player in range(game.players):
        assert game.can_undo(player) == fresh.can_undo(player)


def test_the_reference_interpreter_makes_dropped_states_again_with_its_own_machine():
    game, saves = played("rialto", seed=8, actions=60, game_class=ReferenceGame)
    while game.actions:
        game.undo()
        assert game.to_json() == saves[len(game.actions)]
