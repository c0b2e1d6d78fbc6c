"""One seat of the PettingZoo environment as a gymnasium environment (``adapters.seat_env``),
the single-agent view that ``examples/train_rialto.py`` trains on."""

from __future__ import annotations

from pathlib import Path

import pytest

from venedig_rules.bots import RandomBot
from venedig_rules.bots.evaluate import outcome

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"


@pytest.fixture(scope="module")
def adapters():
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[pettingzoo]'")
    from venedig_rules.adapters import pettingzoo, seat_env

    return pettingzoo, seat_env


def _seat_env(adapters, game=LAGOON, opponent=None, seat=None):
    pettingzoo, seat_env = adapters
    return seat_env.SeatEnv(pettingzoo.env(game, players=2), opponent or RandomBot, seat)


def _play_out(env, seed: int | None, pick=lambda mask: int(mask.nonzero()[0][0])):
    """One episode, each learner action picked from its mask: (the learner's seat, its
    rewards, the last info)."""
    observation, info = env.reset(seed=seed)
    seat = info["seat"]
    rewards = []
    while True:
        mask = env.action_masks()
        assert observation.shape == env.observation_space.shape and mask.dtype == bool and mask.any()
        assert env.aec.agent_selection == env.learner  # only the learner is asked
        observation, reward, terminated, truncated, info = env.step(pick(mask))
        assert not truncated
        rewards.append(reward)
        if terminated:
            return seat, rewards, info


def test_the_learner_takes_each_seat_in_turn_and_gets_its_share_at_the_end(adapters):
    env = _seat_env(adapters)
    seats = []
    for episode in range(4):
        seat, rewards, info = _play_out(env, seed=7 if episode == 0 else None)
        seats.append(seat)
        game = env.aec.game
        assert game.is_over and env.learner == f"player_{seat}"
        share = outcome(game)[seat]
        assert rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] == share == info["outcome"]
    assert seats == [0, 1, 0, 1]


def test_the_same_seed_gives_the_same_episode_from_seat_0(adapters):
    env = _seat_env(adapters)
    first = _play_out(env, seed=5)
    _play_out(env, seed=None)
    assert _play_out(env, seed=5) == first and first[0] == 0
    other = _seat_env(adapters)
    assert _play_out(other, seed=5) == first
    assert _play_out(_seat_env(adapters, seat=1), seed=5)[0] == 1


def test_a_seat_out_of_range_is_refused(adapters):
    with pytest.raises(ValueError, match="seat must be one of 0-1"):
        _seat_env(adapters, seat=2)


def test_a_policy_opponent_is_given_the_observation_and_mask_of_its_own_seat(adapters):
    import numpy as np

    moves = []

    def policy(observation, mask):
        game = env.aec.game
        assert list(game.to_move) == [1]
        assert (observation == np.array(game.observation(1, kind="compact"), dtype=np.float32)).all()
        assert mask.nonzero()[0].tolist() == game.legal_action_ids(1)
        moves.append(int(mask.nonzero()[0][-1]))
        return moves[-1]

    env = _seat_env(adapters, game="rialto", opponent=lambda seed: policy, seat=0)
    _play_out(env, seed=2)
    assert len(moves) > 10


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward(adapters):
    env = _seat_env(adapters, seat=0)
    env.reset(seed=1)
    illegal = int((~env.action_masks()).nonzero()[0][0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == env.aec.illegal_reward and info["illegal_action"] == illegal
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_gymnasium_and_stable_baselines_accept_it(adapters):
    from gymnasium.utils.env_checker import check_env

    env = _seat_env(adapters, game="rialto")
    check_env(env, skip_render_check=True)
    sb3 = pytest.importorskip(
        "stable_baselines3.common.env_checker", reason="needs the [train] extra: pip install -e '.[train]'"
    )
    sb3.check_env(_seat_env(adapters, game="rialto"), warn=False)
