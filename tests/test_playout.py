"""``Game.playout``: play on for every seat, each action drawn at random or by a policy,
without the legal actions made at every step; and the search's rollouts, which use it."""

from __future__ import annotations

import random
from typing import Any

import pytest

import venedig_rules as vr
from venedig_rules.bots import ISMCTSBot
from venedig_rules.engine.run.draws import choice
from venedig_rules.errors import GameArgumentError

GAMES = ["saeulen", "venedig", "rialto", "tests/rulesets/lagoon"]


@pytest.fixture(scope="module")
def rulesets() -> dict[str, Any]:
    return {name: vr.load(name) for name in GAMES}


def loop(game: vr.Game, rand: random.Random, max_actions: int | None = None) -> vr.Game:
    """What a random playout replaces: the legal actions made at every step, one drawn."""
    applied = 0
    while not game.is_over and (max_actions is None or applied < max_actions):
        game.apply(choice(rand, game.legal_actions(game.to_move[0])))
        applied += 1
    return game


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("record", [True, False])
def test_a_random_playout_plays_the_game_of_the_legal_actions_loop(rulesets, name, players, record):
    rules = rulesets[name]
    for seed in (1, 2):
        start = rules.new_game(players, seed, record=record)
        loop(start, random.Random(seed), max_actions=7)  # from within a game, not only its start
        mine, theirs = start.clone(), start.clone()
        mine.playout(seed=seed + 10)
        loop(theirs, random.Random(seed + 10))
        assert mine.is_over and theirs.is_over
        assert mine.fingerprint() == theirs.fingerprint()
        assert mine.scores == theirs.scores and mine.winners == theirs.winners
        if record:
            assert mine.actions == theirs.actions
            assert mine.events == theirs.events


def test_a_random_playout_takes_passes_and_simultaneous_commits_too(rulesets):
    """The two kinds of decision and an optional one's pass are each drawn (the games
    above would play alike without them only if no playout met them)."""
    taken = set()
    for name in GAMES:
        game = rulesets[name].new_game(3, 4).playout(seed=4)
        taken.update(action.split(" ")[1] for action in game.actions)
    assert "pass" in taken
    saeulen = rulesets["saeulen"].new_game(3, 4)
    assert len(saeulen.to_move) > 1 or any(
        len(saeulen.playout(seed=1, max_actions=1).to_move) > 1 for _ in range(60)
    ), "Säulen's simultaneous card choice is met within 60 actions"


def test_a_playout_draws_from_the_generator_it_is_given_as_the_loop_does(rulesets):
    rules = rulesets["rialto"]
    mine, theirs = random.Random(5), random.Random(5)
    a = rules.new_game(3, 9).playout(rand=mine, max_actions=25)
    b = loop(rules.new_game(3, 9), theirs, max_actions=25)
    assert a.actions == b.actions
    assert mine.getstate() == theirs.getstate()
    assert a.playout(rand=mine).actions == loop(b, theirs).actions


def test_a_playout_without_a_seed_plays_seed_0(rulesets):
    rules = rulesets["tests/rulesets/lagoon"]
    assert rules.new_game(2, 3).playout().actions == rules.new_game(2, 3).playout(seed=0).actions
    assert rules.new_game(2, 3).playout(seed=1).actions != rules.new_game(2, 3).playout(seed=2).actions


@pytest.mark.parametrize("count", [0, 1, 5])
def test_max_actions_plays_that_many_and_an_ended_game_no_more(rulesets, count):
    game = rulesets["venedig"].new_game(2, 3)
    assert len(game.playout(seed=1, max_actions=count).actions) == count
    game.playout(seed=1)
    ended = len(game.actions)
    assert game.is_over and len(game.playout(seed=2).actions) == ended


def test_a_policy_is_asked_for_the_first_mover_with_its_number_of_legal_actions(rulesets):
    asked: list[int] = []

    def first(game: vr.Game, player: int, count: int) -> int:
        assert player == game.to_move[0]
        assert count == len(game.legal_actions(player))
        asked.append(player)
        return 0

    for name in GAMES:
        asked.clear()
        game = rulesets[name].new_game(3, 2).playout(first, max_actions=80)
        other = rulesets[name].new_game(3, 2)
        while len(other.actions) < len(game.actions):
            other.apply(other.legal_actions(other.to_move[0])[0])
        assert game.actions == other.actions and len(asked) == len(game.actions)


@pytest.mark.parametrize("index", [-1, 99, True, 1.0, "0", None])
def test_a_policy_index_that_is_no_legal_action_is_refused_and_keeps_the_actions_before(rulesets, index):
    game = rulesets["rialto"].new_game(2, 1)
    calls = []

    def policy(game: vr.Game, player: int, count: int) -> Any:
        calls.append(count)
        return 0 if len(calls) <= 3 else (count + 98 if index == 99 else index)

    with pytest.raises(vr.IllegalActionError, match=r"the policy gave .* for player \d, who has \d+ legal action"):
        game.playout(policy)
    assert len(game.actions) == 3
    assert game.playout(seed=1, max_actions=2).actions[3:] != []  # still playable


def test_a_policy_that_plays_itself_is_refused_before_its_decision_is_taken_twice(rulesets):
    game = rulesets["rialto"].new_game(2, 1)

    def meddling(game: vr.Game, player: int, count: int) -> int:
        game.apply(game.legal_actions(player)[0])
        return 0

    with pytest.raises(GameArgumentError, match="the policy applied or undid actions itself"):
        game.playout(meddling)
    replayed = rulesets["rialto"].replay(2, 1, game.actions)
    assert replayed.fingerprint() == game.fingerprint()  # the game is the one its actions make


def test_undo_goes_back_over_a_playout(rulesets):
    game = rulesets["saeulen"].new_game(2, 6)
    before = game.fingerprint()
    game.playout(seed=3, max_actions=20)
    for _ in range(20):
        game.undo()
    assert game.fingerprint() == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"policy": "random"}, "a policy must be callable"),
        ({"seed": True}, "a seed is a whole number"),
        ({"seed": 1.5}, "a seed is a whole number"),
        ({"seed": 2**4000}, "a seed is a whole number"),
        ({"rand": 7}, "rand must be a random.Random"),
        ({"seed": 1, "rand": random.Random(1)}, "a seed or a generator"),
        ({"max_actions": -1}, "max_actions must be a whole number from 0"),
        ({"max_actions": True}, "max_actions must be a whole number from 0"),
        ({"max_actions": 2.0}, "max_actions must be a whole number from 0"),
    ],
)
def test_playout_arguments_are_checked_before_any_action(rulesets, kwargs, message):
    game = rulesets["tests/rulesets/lagoon"].new_game(2, 1)
    with pytest.raises(GameArgumentError, match=message):
        game.playout(**kwargs)
    assert game.actions == []


def test_the_search_rollout_draws_as_the_legal_actions_loop(rulesets):
    """ISMCTS's rollouts play on by ``playout``: the same actions, and the generator left
    in the same state, as the loop they replace (so a search is the same as before)."""
    bot = ISMCTSBot(seed=1, finish_turn=0, rollout_depth=10)
    for name in GAMES:
        start = loop(rulesets[name].new_game(3, 8), random.Random(8), max_actions=11)
        mine, theirs = random.Random(2), random.Random(2)
        rolled = start.clone()
        bot._rollout(rolled, mine)
        looped = loop(start.clone(), theirs, max_actions=10)
        assert rolled.actions == looped.actions and mine.getstate() == theirs.getstate()
