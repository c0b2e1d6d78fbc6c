"""One seat of a PettingZoo AEC environment as a single-agent gymnasium environment, the
other seats played by an opponent: what single-agent learners (Stable-Baselines3,
sb3-contrib's ``MaskablePPO``) train on (``pip install 'venedig-rules[pettingzoo]'``).

>>> from venedig_rules.adapters.pettingzoo import env                  # doctest: +SKIP
>>> from venedig_rules.adapters.seat_env import SeatEnv                 # doctest: +SKIP
>>> from venedig_rules.bots import RandomBot                            # doctest: +SKIP
>>> seat = SeatEnv(env("rialto", players=2), RandomBot)                 # doctest: +SKIP
>>> observation, info = seat.reset(seed=7)                              # doctest: +SKIP
>>> action = int(seat.action_masks().nonzero()[0][0])                    # doctest: +SKIP
>>> observation, reward, terminated, truncated, info = seat.step(action)  # doctest: +SKIP

The learner's seat is ``seat`` (an int), or with ``seat=None`` the next one at each
``reset`` (seat 0, 1, ..., then 0 again), so that it learns every seat; ``reset(seed=s)``
starts again from seat 0 and deals from ``s``, so that an episode is repeated exactly
(``reset()`` without a seed deals the next game from where the last seed left off). Observations are
the AEC environment's ``observation`` entry; ``action_masks()`` is its ``action_mask`` as
booleans (the method ``MaskablePPO`` asks for). ``step`` plays the learner's action, then
the opponent's until the learner is to move again or the game is over. The reward is the
AEC environment's for the learner: 0 until the end, then its share of the win (1, 1/k for
a shared win, 0), or ``illegal_reward`` for an action its mask forbids (which ends the
episode, as in the AEC environment). ``info["outcome"]`` holds the share at the end.

``opponent`` makes the player of every other seat, anew for each episode, from a seed
drawn from the environment's generator (``np_random``): a factory taking a seed, as the
entries of ``venedig_rules.bots.BOTS`` (``RandomBot``, ``GreedyBot``, ...). What it makes is
either a bot, which decides from its seat's view through :func:`~venedig_rules.bots.decide`
as in ``play_out``, or a :data:`Policy`, given the seat's observation and mask, that returns
an action number (for self-play: ``lambda seed: policy``). Neither is given the game, so
neither sees a secret.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # the core never imports this module
    raise ImportError(
        "venedig_rules.adapters.seat_env needs gymnasium: pip install 'venedig-rules[pettingzoo]'"
    ) from exc

from ..bots import Bot, decide
from .pettingzoo import VenedigEnv

#: A policy that plays a seat from its observation and mask (numpy arrays): an action number.
Policy: TypeAlias = Callable[[Any, Any], int]
#: What makes the opponent of an episode from a seed: a bot or a policy.
Opponent: TypeAlias = Callable[[int], Bot | Policy]

#: The seeds an opponent is made with: below 2**62.
SEED_RANGE = 2**62


class SeatEnv(gymnasium.Env):  # type: ignore[misc]
    """One seat of ``aec`` as a gymnasium environment, the others played by ``opponent``
    (a factory of a bot or a :data:`Policy`); see the module text."""

    def __init__(self, aec: VenedigEnv, opponent: Opponent, seat: int | None = None):
        if seat is not None and seat not in range(aec.players):
            raise ValueError(f"seat must be one of 0-{aec.players - 1} (or None to take each in turn), not {seat!r}")
        self.aec = aec
        self.opponent = opponent
        self._player: Bot | Policy | None = None
        self.seat = seat
        self.learner = aec.possible_agents[seat if seat is not None else 0]
        observations, actions = aec.observation_space(self.learner), aec.action_space(self.learner)
        assert isinstance(observations, spaces.Dict) and isinstance(actions, spaces.Discrete)
        self.observation_space = observations["observation"]
        self.action_space = actions
        self._episodes = 0
        self._over = True  # no episode until reset()
        self._mask = np.zeros(int(actions.n), dtype=np.bool_)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._episodes = 0
        seat = self.seat if self.seat is not None else self._episodes % self.aec.players
        self._episodes += 1
        self.learner = self.aec.possible_agents[seat]
        self._player = self.opponent(int(self.np_random.integers(SEED_RANGE)))
        self.aec.reset(seed=seed)
        while self._opponents_move():  # a game over before the learner's first move: deal again
            self.aec.reset()
        self._over = False
        return self._observe(), {"seat": seat}

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if self._over:
            raise RuntimeError("no episode is going on: call reset() to start one")
        aec.step(action)
        self._over = self._opponents_move()
        observation = self._observe()
        if not self._over:
            return observation, 0.0, False, False, {}
        reward = float(aec.rewards[self.learner])
        info: dict[str, Any] = {"outcome": reward, **aec.infos[self.learner]}
        return observation, reward, True, False, info

    def action_masks(self) -> Any:
        """The learner's legal actions now, as booleans over the action space."""
        return self._mask

    def _opponents_move(self) -> bool:
        """Let the opponent play until the learner is to move; whether the game is over."""
        aec = self.aec
        while True:
            if not aec.agents or all(aec.terminations.values()) or all(aec.truncations.values()):
                return True
            agent = aec.agent_selection
            if agent == self.learner:
                return False
            aec.step(self._opponent_action(agent))

    def _opponent_action(self, agent: str) -> int:
        player = self._player
        if hasattr(player, "act"):
            game, seat = self.aec.game, self.aec.possible_agents.index(agent)
            assert game is not None  # reset() made one
            return game.encode(decide(player, game, seat))
        assert callable(player)  # reset() made it
        seen = self.aec.observe(agent)
        return int(player(seen["observation"], seen["action_mask"]))

    def _observe(self) -> Any:
        """The learner's observation; its mask is kept for ``action_masks``."""
        seen = self.aec.observe(self.learner)
        self._mask = seen["action_mask"].astype(bool)
        return seen["observation"]
