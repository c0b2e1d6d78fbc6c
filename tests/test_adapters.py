"""The OpenSpiel and PettingZoo adapters, checked by those projects' own API tests.

They need the extras (``pip install -e '.[openspiel,pettingzoo]'``); without them the tests
are skipped and say which extra is missing.
"""

from __future__ import annotations

import json
import pickle
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


@pytest.fixture(scope="module")
def pettingzoo_parallel_env():
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[pettingzoo]'")
    from venedig_rules.adapters.pettingzoo import parallel_env

    return parallel_env


def _played(state, moves: int, pick=0):
    """``state`` after up to ``moves`` moves, each the legal action at place ``pick``."""
    for _ in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[pick % len(legal)])
    return state


# -- OpenSpiel ------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("ruleset", BUNDLED)
def test_openspiel_random_simulation(pyspiel, ruleset):
    from venedig_rules.adapters.openspiel import GAME_NAMES

    game = pyspiel.load_game(GAME_NAMES[ruleset], {"players": 2, "seed": 3})
    # serialize=False: OpenSpiel serialises a sampled-stochastic game with the game's generator
    # state, which it cannot ask of a game written in Python (see the serialisation test)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_declares_each_game_from_its_rules(pyspiel):
    from venedig_rules.adapters.openspiel import GAME_NAMES, SECRET_DEALS

    assert set(GAME_NAMES) == set(BUNDLED) and all(name in pyspiel.registered_names() for name in GAME_NAMES.values())
    for ruleset in BUNDLED:
        game = pyspiel.load_game(GAME_NAMES[ruleset])
        rules, kind = vr.load(ruleset), game.get_type()
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL  # what OpenSpiel's ISMCTSBot asks
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert kind.provides_information_state_string and not kind.provides_information_state_tensor
        assert game.num_distinct_actions() == int(rules.action_space(2))
        assert game.max_chance_outcomes() == 0 and game.max_game_length() == rules.max_actions
        compact = rules.observation_shape(game.num_players(), kind="compact")
        assert game.observation_tensor_shape() == list(compact) and compact[0] <= 4096
        assert game.get_parameters()["seed"] == SECRET_DEALS
        assert game.get_parameters()["observation"] == "compact"
    full = pyspiel.load_game(GAME_NAMES["rialto"], {"observation": "full"})
    assert full.observation_tensor_shape() == list(vr.load("rialto").observation_shape(2))
    state = full.new_initial_state()
    assert list(state.observation_tensor(0)) == pytest.approx(state.game.observation(0))
    with pytest.raises(ValueError, match="no kind of observation"):
        pyspiel.load_game(GAME_NAMES["rialto"], {"observation": "tiny"})
    with pytest.raises(ValueError, match="seed"):
        pyspiel.load_game(GAME_NAMES["rialto"], {"seed": -2})
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game(GAME_NAMES["rialto"], {"players": 9})


def test_openspiel_commits_at_once_are_turns_with_hidden_moves(pyspiel):
    from venedig_rules.adapters.openspiel import GENERIC_NAME

    game = pyspiel.load_game(GENERIC_NAME, {"ruleset": str(LAGOON), "players": 3, "seed": 7})
    state = game.new_initial_state()
    assert state.game.to_move == (0, 1, 2)  # three seats bid at once: one after another here
    assert state.current_player() == 0 and state.legal_actions(0) == state.game.legal_action_ids(0)
    assert state.legal_actions(1) == []
    bid = state.legal_actions()[-1]
    said = state.action_to_string(0, bid)
    before = state.information_state_string(1)
    state.apply_action(bid)
    assert state.current_player() == 1 and state.game.to_move == (1, 2)
    seen = state.information_state_string(1)
    assert seen != before and said not in seen  # seat 1 sees that seat 0 has bid, not what
    assert json.loads(seen)["events"][-1]["type"] == "commit"
    assert state.information_state_string(1) == state.game.information_state_string(1)
    assert list(state.observation_tensor(1)) == pytest.approx(state.game.observation(1, kind="compact"))
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert [e["type"] for e in state.game.events].count("reveal") == 1


def test_openspiel_has_no_information_state_tensor_and_says_so(pyspiel):
    game = pyspiel.load_game("venedig_rules_rialto", {"players": 2, "seed": 1})
    state = _played(game.new_initial_state(), 5)
    assert not game.get_type().provides_information_state_tensor
    with pytest.raises(ValueError, match="no information-state tensor"):
        state.information_state_tensor(0)
    with pytest.raises(ValueError, match="no information-state tensor"):
        game.information_state_tensor_shape()
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    assert state.information_state_string(0) == state.game.information_state_string(0)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="one seat"):  # no public-only observer: refused, not faked
        game.make_observer(public, {})


def test_openspiel_deals_follow_the_seed_parameter(pyspiel):
    def deals(game, n):
        out = []
        for _ in range(n):
            state = game.new_initial_state()
            state.clone()  # a copy is the same deal and costs none
            out.append(str(state))
        return out

    first = deals(pyspiel.load_game("venedig_rules_saeulen", {"seed": 5}), 3)
    assert first == deals(pyspiel.load_game("venedig_rules_saeulen", {"seed": 5}), 3)
    assert len(set(first)) == 3  # each new initial state is another deal
    assert first != deals(pyspiel.load_game("venedig_rules_saeulen", {"seed": 6}), 3)
    secret = pyspiel.load_game("venedig_rules_saeulen")  # seed -1: secret seeds, never repeated
    assert len(set(deals(secret, 3) + deals(pyspiel.load_game("venedig_rules_saeulen"), 3))) == 6


@pytest.mark.parametrize("ruleset", BUNDLED)
def test_openspiel_no_chance_outcome_pins_hidden_cards(pyspiel, ruleset):
    """No chance node, so no history holds an outcome a seat could read hidden cards from
    (a seed node would: in Saeulen 2p a seat's own hand pinned the seed); and what a seat
    sees is the same in deals that differ in what it cannot see, at the start (its own
    first hand) and later."""
    from venedig_rules.adapters.openspiel import GAME_NAMES

    game = pyspiel.load_game(GAME_NAMES[ruleset], {"players": 2, "seed": 11})
    state = game.new_initial_state()
    rules = state.game.rules
    hidden = [name for name in rules.state_starts() if rules.state_visibility(name) != "all"]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for moves in (0, 12):
        while len(state.history()) < moves:
            assert not state.is_chance_node()
            state.apply_action(state.legal_actions()[len(state.history()) % len(state.legal_actions())])
        assert not state.is_chance_node()
        assert all(item.player >= 0 for item in state.full_history())  # player moves only
        for seat in range(2):
            differ = 0
            for _ in range(6):
                sample = state.resample_from_infostate(seat, sampler)
                assert sample.information_state_string(seat) == state.information_state_string(seat)
                assert sample.game.information_state_string(seat) == state.game.information_state_string(seat)
                assert sample.observation_string(seat) == state.observation_string(seat)
                assert list(sample.observation_tensor(seat)) == list(state.observation_tensor(seat))
                assert sample.current_player() == state.current_player()
                assert sample.legal_actions(seat) == state.legal_actions(seat)
                differ += [sample.game.value(n) for n in hidden] != [state.game.value(n) for n in hidden]
            assert differ, f"after {moves} moves, seat {seat}'s information pins what it cannot see"


def test_openspiel_states_copy_cheaply_and_survive_pickling(pyspiel):
    from venedig_rules.adapters import openspiel

    game = pyspiel.load_game("venedig_rules_rialto", {"players": 3, "seed": 2})
    state = _played(game.new_initial_state(), 10)
    copy = state.clone()
    assert str(copy) == str(state) and copy.history() == state.history()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.history() != state.history()  # independent
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state) and restored.history() == state.history()
    blob = pickle.dumps(state)
    openspiel._LIVE.clear()  # as in another process: replayed from its seed and actions
    assert str(pickle.loads(blob)) == str(state)
    sample = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.history() == []  # the true history holds others' hidden moves
    assert str(pickle.loads(pickle.dumps(sample))) == str(sample)
    blob = pickle.dumps(sample)
    openspiel._LIVE.clear()
    with pytest.raises(ValueError, match="resample_from_infostate"):
        pickle.loads(blob)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", BUNDLED)
def test_openspiels_ismcts_bot_plays_a_whole_game(pyspiel, ruleset, monkeypatch):
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from venedig_rules.adapters.openspiel import GAME_NAMES, VenedigState

    class Even(mcts.Evaluator):  # no rollouts, so that a whole game stays quick
        def evaluate(self, state):
            return state.returns() if state.is_terminal() else [0.5, 0.5]

        def prior(self, state):
            legal = state.legal_actions()
            return [(action, 1.0 / len(legal)) for action in legal]

    game = pyspiel.load_game(GAME_NAMES[ruleset], {"players": 2, "seed": 4})
    bots = [
        ismcts.ISMCTSBot(game, Even(), 2.0, max_simulations=2, random_state=np.random.RandomState(seat))
        for seat in range(2)
    ]
    searched = []
    resample = VenedigState.resample_from_infostate

    def counted(state, player, sampler):
        searched.append(player)
        return resample(state, player, sampler)

    monkeypatch.setattr(VenedigState, "resample_from_infostate", counted)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(1.0) and state.game.is_over
    assert set(searched) == {0, 1}  # each bot searched states resampled for its seat


def test_openspiels_rl_environment_plays_on_observation_tensors(pyspiel):
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("venedig_rules_rialto", players=2, seed=1)
    assert env.use_observation  # there is no information-state tensor to use
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        step = env.step([step.observations["legal_actions"][seat][-1]])
    assert sum(step.rewards) == pytest.approx(1.0)
    assert len(step.observations["info_state"][0]) == vr.load("rialto").observation_shape(2, kind="compact")[0]


@pytest.mark.slow
def test_openspiel_bots_play_a_game(pyspiel):
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    game = pyspiel.load_game("venedig_rules_saeulen", {"players": 2})
    bots = [UniformRandomBot(p, np.random.RandomState(p)) for p in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert sorted(returns) in ([0.0, 1.0], [0.5, 0.5])


# -- PettingZoo -----------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Observation")  # a dict with an action mask, as PettingZoo's own games have
@pytest.mark.parametrize("ruleset", [*BUNDLED, str(LAGOON)])
def test_pettingzoo_api_test(pettingzoo_env, ruleset):
    from pettingzoo.test import api_test

    api_test(pettingzoo_env(ruleset, players=3), num_cycles=1000)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("ruleset", [*BUNDLED, str(LAGOON)])
def test_pettingzoo_parallel_api_test(pettingzoo_parallel_env, ruleset):
    from pettingzoo.test import parallel_api_test

    parallel_api_test(pettingzoo_parallel_env(ruleset, players=3), num_cycles=1000)


@pytest.mark.parametrize("ruleset", [*BUNDLED, str(LAGOON)])
def test_pettingzoo_seed_tests(pettingzoo_env, pettingzoo_parallel_env, ruleset):
    from pettingzoo.test import parallel_seed_test, seed_test

    seed_test(lambda: pettingzoo_env(ruleset, players=2), num_cycles=100)
    # unmasked random actions: the first illegal one ends both episodes alike
    parallel_seed_test(lambda: pettingzoo_parallel_env(ruleset, players=3), num_cycles=100)


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
        assert observation["observation"].shape == vr.load(LAGOON).observation_shape(2, kind="compact")
        assert observation["observation"].dtype == np.float32
        assert list(observation["observation"]) == env.unwrapped.game.observation(seat, kind="compact")
        env.step(int(np.flatnonzero(mask)[0]))
    assert env.unwrapped.game.is_over
    with pytest.raises(ValueError, match="players"):
        pettingzoo_env("venedig", players=9)
    full = pettingzoo_env(LAGOON, players=2, variants=[], observation="full")
    full.reset(seed=4)
    observation, *_ = full.last()
    assert list(observation["observation"]) == full.unwrapped.game.observation(0)
    assert full.observation_space("player_0")["observation"].shape == vr.load(LAGOON).observation_shape(2)
    with pytest.raises(ValueError, match="no kind of observation"):
        pettingzoo_env(LAGOON, players=2, variants=[], observation="tiny")


@pytest.mark.filterwarnings("ignore")
def test_pettingzoo_an_illegal_action_ends_the_episode_and_penalises_its_agent(pettingzoo_env):
    import numpy as np

    env = pettingzoo_env("rialto", players=3)
    env.reset(seed=1)
    game = env.unwrapped.game
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    actions_before = len(game.actions)
    env.step(illegal)
    assert len(game.actions) == actions_before  # nothing applied
    assert all(env.terminations.values()) and all(env.truncations.values())
    assert env._cumulative_rewards[offender] == -1.0
    assert all(r == 0.0 for a, r in env._cumulative_rewards.items() if a != offender)
    assert env.infos[offender] == {"illegal_action": illegal}
    seen = {}
    for agent in env.agent_iter():
        _obs, reward, terminated, truncated, _ = env.last()
        seen[agent] = reward
        assert terminated and truncated
        env.step(None)
    assert seen[offender] == -1.0 and set(seen) == set(env.possible_agents) and not env.agents
    with pytest.raises(ValueError, match="whole number"):  # outside the space: a mistake, not a move
        env.reset(seed=1)
        env.step(env.action_space(offender).n)
    assert pettingzoo_env("rialto", illegal_reward=-5.0).illegal_reward == -5.0


@pytest.mark.filterwarnings("ignore")
def test_pettingzoo_parallel_an_action_a_mask_forbids_ends_the_episode(pettingzoo_parallel_env):
    import numpy as np

    env = pettingzoo_parallel_env(LAGOON, players=3)
    observations, _ = env.reset(seed=3)
    legal = {agent: int(np.flatnonzero(obs["action_mask"])[0]) for agent, obs in observations.items()}
    env.step(legal)  # the bids; now one seat moves and the others must give noop
    game = env.unwrapped.game
    mover = env.possible_agents[game.to_move[0]]
    other = next(agent for agent in env.agents if agent != mover)
    actions = {agent: env.noop_action for agent in env.agents}
    actions[mover] = game.legal_action_ids(game.to_move[0])[0]
    actions[other] = 0  # a seat not asked gives pass, not noop: illegal
    before = len(game.actions)
    _obs, rewards, terminations, truncations, infos = env.step(actions)
    assert len(game.actions) == before  # nothing of the step applied
    assert rewards[other] == -1.0 and all(r == 0.0 for a, r in rewards.items() if a != other)
    assert all(terminations.values()) and all(truncations.values()) and env.agents == []
    assert infos[other] == {"illegal_action": actions[other]}
    with pytest.raises(vr.VenedigError, match="reset"):
        env.step(actions)


def test_pettingzoo_says_to_reset_first(pettingzoo_env, pettingzoo_parallel_env):
    from venedig_rules.adapters.pettingzoo import EnvNotResetError

    env = pettingzoo_env("saeulen", players=2)
    assert env.agents == [] and issubclass(EnvNotResetError, RuntimeError)
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.last, env.agent_iter):
        with pytest.raises(EnvNotResetError, match="reset"):
            call()
    env.reset(seed=1)
    env.close()
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.last):
        with pytest.raises(EnvNotResetError, match="reset"):
            call()
    parallel = pettingzoo_parallel_env("saeulen", players=2)
    with pytest.raises(EnvNotResetError, match="reset"):
        parallel.step({})


def test_openspiel_names_a_number_for_a_place_by_its_place(pyspiel):
    game = pyspiel.load_game("venedig_rules_venedig", {"players": 2, "seed": 1})
    state = game.new_initial_state()
    hand_in = vr.load("venedig").action_space(2).labels["hand_in"]
    other = 1 - state.current_player()
    assert state.action_to_string(other, hand_in.offset + hand_in.listed + 2) == f"p{other} hand_in#2"
    listed = state.action_to_string(other, hand_in.offset)
    assert listed == str(vr.Action(other, "hand_in", hand_in.values[0]))
