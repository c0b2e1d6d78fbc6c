"""A ruleset as a PettingZoo AEC environment (``pip install 'venedig-rules[pettingzoo]'``).

>>> from venedig_rules.adapters.pettingzoo import env    # doctest: +SKIP
>>> e = env("saeulen", players=3)                        # doctest: +SKIP
>>> e.reset(seed=7)                                       # doctest: +SKIP
>>> obs, reward, terminated, truncated, info = e.last()   # doctest: +SKIP
>>> e.step(int(obs["action_mask"].nonzero()[0][0]))       # doctest: +SKIP

Agents are ``player_0``, ``player_1``, ... (the seats). The agent to act is the first seat to
move; at a simultaneous decision the seats to commit act one after another, each seeing only
its own view, so nobody sees another's commit before the reveal. Observations are dicts:
``observation`` (``game.observation(seat, kind="compact")`` by default, float32: at most a
few thousand counts and small one-hots; ``observation="full"`` gives the full one) and
``action_mask`` (int8 over ``rules.action_space(players)``, whose numbers name the same move
in every state). Actions are those integers. Rewards come at the end: each
seat's share of the win (1 for a sole winner, 1/k when k share it, 0 otherwise).
``env.unwrapped.game`` is the engine's :class:`~venedig_rules.Game` (it holds every secret:
give agents observations, not the game).

An illegal action (one its mask forbids) follows PettingZoo's classic games (their
``TerminateIllegalWrapper``): the episode ends at once, every agent terminated and
truncated, the offender rewarded ``illegal_reward`` (-1) and the others 0; a warning is
logged and the offender's info says ``illegal_action``. A number outside the action space
is a ValueError. ``step``, ``observe``, ``last`` or ``agent_iter`` before ``reset`` raise
:class:`EnvNotResetError`.

``parallel_env(...)`` is the same game as a PettingZoo parallel environment: every agent
acts at every step; the seats to move play one of their legal actions (at a simultaneous
decision all of them at once), the others the extra action ``noop`` (the last number, the
only one their mask allows); an action a mask forbids ends the episode in the same way.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
    from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]
except ImportError as exc:  # the core never imports this module
    raise ImportError(
        "venedig_rules.adapters.pettingzoo needs PettingZoo: pip install 'venedig-rules[pettingzoo]'"
    ) from exc

from ..bots.evaluate import outcome
from ..engine.game import Game
from ..engine.loading import load
from ..engine.research.kinds import ObservationKind, observation_kind
from ..engine.seat.seatview import cursor
from ..errors import VenedigError
from ..limits import SEED_BITS

#: What the agent that plays an illegal action gets, as in PettingZoo's classic games.
ILLEGAL_REWARD = -1.0


class EnvNotResetError(VenedigError, RuntimeError):
    """An environment was asked to step, observe or iterate before its first ``reset()``
    (or after ``close()``)."""

    code = "env/not_reset"


def env(
    game: str | Path,
    players: int | None = None,
    variants: Iterable[str | Path] = (),
    render_mode: str | None = None,
    illegal_reward: float = ILLEGAL_REWARD,
    observation: str = "compact",
) -> VenedigEnv:
    """An AEC environment for ruleset ``game`` (a bundled id, a folder or a variant file) at
    ``players`` players (default: the fewest it allows), with ``variants`` applied; an
    illegal action ends the episode and gives its agent ``illegal_reward``; ``observation``
    is the kind of ``game.observation`` the agents get (``compact`` or ``full``)."""
    return VenedigEnv(game, players, variants, render_mode, illegal_reward, observation)


class VenedigEnv(AECEnv):  # type: ignore[misc]
    """A game of a ruleset as a PettingZoo AEC environment (see the module text)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "venedig_rules", "is_parallelizable": False}

    def __init__(
        self,
        game: str | Path,
        players: int | None = None,
        variants: Iterable[str | Path] = (),
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL_REWARD,
        observation: str = "compact",
    ):
        super().__init__()
        self.rules = load(game, list(variants))
        self.players = players if players is not None else self.rules.players.start
        if self.players not in self.rules.players:
            raise ValueError(
                f"{self.rules.title} is for {self.rules.players.start}-{self.rules.players.stop - 1} players"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.metadata = {**VenedigEnv.metadata, "name": f"venedig_rules_{self.rules.name}"}  # type: ignore[misc]
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        size = int(self.rules.action_space(self.players))
        self._kind = observation_kind(observation)
        length = self._kind.size(self.rules, self.players)
        self._size = size
        self._action_space = spaces.Discrete(size)
        self._observation_space = _observation_space(length, size)
        self._seeds = random.Random()
        self.game: Game | None = None
        self._selected: str | None = None
        # no episode yet: no agents (reset() starts one)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    @property
    def agent_selection(self) -> str:
        """The agent to act (PettingZoo's attribute); EnvNotResetError before ``reset()``."""
        if self._selected is None:
            raise EnvNotResetError("call reset() first: no episode has started (or close() ended it)")
        return self._selected

    @agent_selection.setter
    def agent_selection(self, agent: str) -> None:
        self._selected = agent

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        # a seed of the generator's width: no seat can try them all
        self.game = self.rules.new_game(self.players, self._seeds.getrandbits(SEED_BITS))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        game = self._game()
        seat = self._seat[agent]
        return {"observation": _observation(game, seat, self._kind), "action_mask": _mask(game, seat, self._size)}

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        self._game()
        return super().agent_iter(max_iter)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        game = self._game()
        if not self.agents:
            raise EnvNotResetError("the episode is over: call reset() to start another")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        number = _number(action, agent, self._size)
        if number not in game.legal_action_ids(seat):
            self._end_illegal(agent, number)
            return
        game.apply_index(number, seat)
        self._cumulative_rewards[agent] = 0.0  # AEC: what it had gathered was handed out by last()
        if game.is_over:
            shares = outcome(game)
            for a in self.agents:
                self.rewards[a] = shares[self._seat[a]]
                self.terminations[a] = True
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self._game()
        seat = self._seat[self.agent_selection] if self.agents else 0
        view = game.view(seat, since=cursor(game, seat))
        return json.dumps({k: v for k, v in view.items() if k != "events"}, ensure_ascii=False)

    def close(self) -> None:
        self.game, self._selected, self.agents = None, None, []

    def _game(self) -> Game:
        if self.game is None:
            raise EnvNotResetError("call reset() first: no episode has started (or close() ended it)")
        return self.game

    def _select(self) -> None:
        game = self._game()
        movers = game.to_move
        # one mover at a time, at a simultaneous decision too: its commit stays hidden from
        # the next; after the end each agent left is selected for its dead step
        if movers:
            self.agent_selection = self.possible_agents[movers[0]]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def _end_illegal(self, agent: str, action: int) -> None:
        """PettingZoo's classic convention (``TerminateIllegalWrapper``): everyone is done,
        the offender gets ``illegal_reward``, the others 0."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self.infos[agent] = {**self.infos[agent], "illegal_action": action}
        self._accumulate_rewards()
        self._deads_step_first()


def _observation_space(length: int, actions: int) -> spaces.Dict:
    """An observation: the vector of ``length`` numbers and the mask over ``actions``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(length,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
        }
    )


def parallel_env(
    game: str | Path,
    players: int | None = None,
    variants: Iterable[str | Path] = (),
    render_mode: str | None = None,
    illegal_reward: float = ILLEGAL_REWARD,
    observation: str = "compact",
) -> VenedigParallelEnv:
    """A parallel environment for ruleset ``game``, as :func:`env` takes it."""
    return VenedigParallelEnv(game, players, variants, render_mode, illegal_reward, observation)


class VenedigParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A game of a ruleset as a PettingZoo parallel environment (see the module text):
    actions are the ruleset's numbers plus ``noop`` (``noop_action``) for seats not asked."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "venedig_rules_parallel"}

    def __init__(
        self,
        game: str | Path,
        players: int | None = None,
        variants: Iterable[str | Path] = (),
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL_REWARD,
        observation: str = "compact",
    ):
        self._aec = VenedigEnv(game, players, variants, render_mode, illegal_reward, observation)
        self.rules, self.players, self.render_mode = self._aec.rules, self._aec.players, render_mode
        self.illegal_reward = self._aec.illegal_reward
        self.metadata = {**VenedigParallelEnv.metadata, "name": f"venedig_rules_{self.rules.name}_parallel"}  # type: ignore[misc]
        self.possible_agents = list(self._aec.possible_agents)
        self.agents: list[str] = []
        self.noop_action = int(self.rules.action_space(self.players))
        size = self.noop_action + 1
        length = self._aec._kind.size(self.rules, self.players)
        self._size = size
        self._action_space = spaces.Discrete(size)
        self._observation_space = _observation_space(length, size)
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self._aec.reset(seed, options)
        self.game = self._aec.game
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        game = self._game()
        if not self.agents:
            raise EnvNotResetError("the episode is over: call reset() to start another")
        movers = game.to_move
        numbers: dict[str, int] = {}
        for agent in self.agents:  # every number is read before any is applied
            if agent in actions:
                numbers[agent] = _number(actions[agent], agent, self._size)
            elif self._aec._seat[agent] in movers:
                raise ValueError(f"{agent} is to move: give it an action")
        offenders = [agent for agent, number in numbers.items() if not self._legal(game, agent, number)]
        if offenders:
            return self._end_illegal(offenders, numbers)
        for seat in movers:
            game.apply_index(numbers[self.possible_agents[seat]], seat)
        over = game.is_over
        shares = outcome(game) if over else [0.0] * self.players
        agents = self.agents
        rewards = {a: shares[self._aec._seat[a]] for a in agents}
        terminations = {a: over for a in agents}
        truncations = {a: False for a in agents}
        observations = self._observations()
        infos: dict[str, Any] = {a: {} for a in agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self._aec.render()

    def close(self) -> None:
        self._aec.close()
        self.game, self.agents = None, []

    def _game(self) -> Game:
        if self.game is None:
            raise EnvNotResetError("call reset() first: no episode has started (or close() ended it)")
        return self.game

    def _legal(self, game: Game, agent: str, number: int) -> bool:
        """Whether the agent's mask allows ``number``: a legal action of a seat to move, else noop."""
        seat = self._aec._seat[agent]
        if seat in game.to_move:
            return number in game.legal_action_ids(seat)
        return number == self.noop_action

    def _end_illegal(
        self, offenders: list[str], numbers: dict[str, int]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """The classic convention, as the AEC environment: the episode ends, each offender
        gets ``illegal_reward`` and the others 0; nothing of the step is applied."""
        EnvLogger.warn_on_illegal_move()
        agents = self.agents
        rewards = {a: self.illegal_reward if a in offenders else 0.0 for a in agents}
        infos: dict[str, Any] = {a: {"illegal_action": numbers[a]} if a in offenders else {} for a in agents}
        observations = self._observations()
        self.agents = []
        return observations, rewards, dict.fromkeys(agents, True), dict.fromkeys(agents, True), infos

    def _observations(self) -> dict[str, dict[str, Any]]:
        game = self._game()
        out = {}
        for agent in self.agents:
            seat = self._aec._seat[agent]
            if seat in game.to_move:
                mask = _mask(game, seat, self._size)
            else:
                mask = np.zeros(self._size, dtype=np.int8)
                mask[self.noop_action] = 1
            out[agent] = {"observation": _observation(game, seat, self._aec._kind), "action_mask": mask}
        return out


def _number(action: Any, agent: str, size: int) -> int:
    """``action`` as an action number, else a ValueError: a whole number in ``range(size)``
    (numpy's too; not a bool)."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)) and 0 <= action < size:
        return int(action)
    raise ValueError(f"{agent}'s action must be a whole number from 0 to {size - 1}, not {action!r}")


def _mask(game: Game, seat: int, size: int) -> Any:
    """The int8 mask of ``seat``'s legal action numbers (all 0 for a seat not to move)."""
    mask = np.zeros(size, dtype=np.int8)
    if seat in game.to_move:
        mask[game.legal_action_ids(seat)] = 1
    return mask


def _observation(game: Game, seat: int, kind: ObservationKind) -> Any:
    """``game.observation(seat, kind)`` as float32, written straight from its few entries that
    are not 0 (converting the whole list of tens of thousands of numbers took milliseconds)."""
    size, entries = kind.observed(game, seat)
    out = np.zeros(size, dtype=np.float32)
    out[list(entries)] = list(entries.values())
    return out
