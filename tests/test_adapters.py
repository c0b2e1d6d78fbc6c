"""The OpenSpiel and PettingZoo adapters, checked by those projects' own API tests.

They need the extras (``pip install -e '.[openspiel,pettingzoo]'``); without them the tests
are skipped and say which extra is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import venedig_rules as vr

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
BUNDLED = vr.bundled()


@pytest.fixture(scope="module")
def pyspiel():
    spiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'")
    import venedig_rules.adapters.openspiel  # noqa: F401  (registers the games)

    return spiel


@pytest.fixture(scope="module")
def pettingzoo_env():
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[pettingzoo]'")
    from venedig_rules.adapters.pettingzoo import env

    return env


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", BUNDLED)
def test_openspiel_random_simulation_with_serialisation(pyspiel, ruleset):
    from venedig_rules.adapters.openspiel import GAME_NAMES

    game = pyspiel.load_game(GAME_NAMES[ruleset], {"players": 2, "seed": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_declares_each_game_from_its_rules(pyspiel):
    from venedig_rules.adapters.openspiel import GAME_NAMES, GENERIC_NAME, NOOP_NAME, SEEDS

    assert set(GAME_NAMES) == set(BUNDLED) and all(name in pyspiel.registered_names() for name in GAME_NAMES.values())
    kinds = pyspiel.GameType.Dynamics
    for ruleset, simultaneous in (("saeulen", True), ("rialto", False), ("venedig", False)):
        game = pyspiel.load_game(GAME_NAMES[ruleset])
        rules = vr.load(ruleset)
        assert game.get_type().dynamics == (kinds.SIMULTANEOUS if simultaneous else kinds.SEQUENTIAL)
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert game.num_distinct_actions() == int(rules.action_space(2)) + 1
        assert game.max_chance_outcomes() == SEEDS and game.max_game_length() == rules.max_actions
        assert game.observation_tensor_shape() == list(rules.observation_shape(game.num_players()))
    lagoon = pyspiel.load_game(GENERIC_NAME, {"ruleset": str(LAGOON), "players": 3})
    state = lagoon.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(7)
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS  # three seats bid at once
    assert state.legal_actions(0) == state.game.legal_action_ids(0)
    state.apply_actions([state.legal_actions(p)[0] for p in range(3)])
    assert state.game.events[-1]["type"] != "commit" and NOOP_NAME == "noop"
    assert state.information_state_string(1) == state.game.information_state_string(1)
    assert list(state.observation_tensor(1)) == pytest.approx(state.game.observation(1))


def test_openspiel_states_copy_cheaply_and_survive_pickling(pyspiel):
    import pickle

    game = pyspiel.load_game("venedig_rules_rialto", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(5)
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    copy = state.clone()
    assert str(copy) == str(state) and copy.history() == state.history()
    restored = pickle.loads(pickle.dumps(state))
    assert str(restored) == str(state)


@pytest.mark.slow
def test_openspiel_bots_play_a_game(pyspiel):
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    game = pyspiel.load_game("venedig_rules_saeulen", {"players": 2})
    bots = [UniformRandomBot(p, np.random.RandomState(p)) for p in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert sorted(returns) in ([0.0, 1.0], [0.5, 0.5])


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Observation")  # a dict with an action mask, as PettingZoo's own games have
@pytest.mark.parametrize("ruleset", [*BUNDLED, str(LAGOON)])
def test_pettingzoo_api_test(pettingzoo_env, ruleset):
    from pettingzoo.test import api_test

    api_test(pettingzoo_env(ruleset, players=3), num_cycles=1000)


@pytest.fixture(scope="module")
def pettingzoo_parallel_env():
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[pettingzoo]'")
    from venedig_rules.adapters.pettingzoo import parallel_env

    return parallel_env


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("ruleset", [*BUNDLED, str(LAGOON)])
def test_pettingzoo_parallel_api_test(pettingzoo_parallel_env, ruleset):
    from pettingzoo.test import parallel_api_test

    parallel_api_test(pettingzoo_parallel_env(ruleset, players=3), num_cycles=1000)


def test_pettingzoo_parallel_seats_not_asked_play_noop_and_commits_come_together(pettingzoo_parallel_env):
    import numpy as np

    env = pettingzoo_parallel_env(LAGOON, players=3)
    observations, _ = env.reset(seed=2)
    noop = env.noop_action
    assert noop == int(vr.load(LAGOON).action_space(3))
    game = env.unwrapped.game
    assert game.to_move == (0, 1, 2)  # everyone bids at once: one step takes all three bids
    actions = {agent: int(np.flatnonzero(obs["action_mask"])[0]) for agent, obs in observations.items()}
    observations, *_ = env.step(actions)
    assert [e["type"] for e in game.events].count("reveal") == 1
    while env.agents:
        for agent, obs in observations.items():
            legal = np.flatnonzero(obs["action_mask"])
            seat = int(agent.split("_")[1])
            assert list(legal) == (game.legal_action_ids(seat) if seat in game.to_move else [noop])
        observations, rewards, terminations, _, _ = env.step(
            {agent: int(np.flatnonzero(obs["action_mask"])[-1]) for agent, obs in observations.items()}
        )
    assert game.is_over and all(terminations.values()) and sum(rewards.values()) == pytest.approx(1.0)


def test_pettingzoo_masks_and_rewards(pettingzoo_env):
    import numpy as np

    env = pettingzoo_env(LAGOON, players=2, variants=[])
    env.reset(seed=4)
    assert env.agents == ["player_0", "player_1"]
    while env.agents:
        observation, _reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"]
        seat = int(env.agent_selection.split("_")[1])
        assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == env.unwrapped.game.legal_action_ids(seat)
        assert observation["observation"].shape == vr.load(LAGOON).observation_shape(2)
        assert observation["observation"].dtype == np.float32
        assert list(observation["observation"]) == env.unwrapped.game.observation(seat)
        env.step(int(np.flatnonzero(mask)[0]))
    assert env.unwrapped.game.is_over
    with pytest.raises(ValueError, match="players"):
        pettingzoo_env("venedig", players=9)
