"""A ruleset as a PettingZoo AEC environment (``pip install 'venedig-rules[pettingzoo]'``).

>>> from venedig_rules.adapters.pettingzoo import env    # doctest: +SKIP
>>> e = env("saeulen", players=3)                        # doctest: +SKIP
>>> e.reset(seed=7)                                       # doctest: +SKIP
>>> obs, reward, terminated, truncated, info = e.last()   # doctest: +SKIP
>>> e.step(int(obs["action_mask"].nonzero()[0][0]))       # doctest: +SKIP

Agents are ``player_0``, ``player_1``, ... (the seats). The agent to act is the first seat to
move; at a simultaneous decision the seats to commit act one after another, each seeing only
its own view, so nobody sees another's commit before the reveal. Observations are dicts:
``observation`` (``game.observation(seat)``, float32) and ``action_mask`` (int8 over
``rules.action_space(players)``). Actions are those integers. Rewards come at the end: each
seat's share of the win (1 for a sole winner, 1/k when k share it, 0 otherwise).
``env.unwrapped.game`` is the engine's :class:`~venedig_rules.Game` (it holds every secret:
give agents observations, not the game).

``parallel_env(...)`` is the same game as a PettingZoo parallel environment: every agent
acts at every step; the seats to move play one of their legal actions (at a simultaneous
decision all of them at once), the others the extra action ``noop`` (the last number, the
only one their mask allows).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
except ImportError as exc:  # the core never imports this module
    raise ImportError(
        "venedig_rules.adapters.pettingzoo needs PettingZoo: pip install 'venedig-rules[pettingzoo]'"
    ) from exc

from ..bots.evaluate import outcome
from ..engine.game import Game
from ..engine.loading import load
from ..engine.research.observation import observed
from ..engine.seat.seatview import cursor


def env(
    game: str | Path,
    players: int | None = None,
    variants: Iterable[str | Path] = (),
    render_mode: str | None = None,
) -> VenedigEnv:
    """An AEC environment for ruleset ``game`` (a bundled id, a folder or a variant file) at
    ``players`` players (default: the fewest it allows), with ``variants`` applied."""
    return VenedigEnv(game, players, variants, render_mode)


class VenedigEnv(AECEnv):  # type: ignore[misc]
    """A game of a ruleset as a PettingZoo AEC environment (see the module text)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "venedig_rules", "is_parallelizable": False}

    def __init__(
        self,
        game: str | Path,
        players: int | None = None,
        variants: Iterable[str | Path] = (),
        render_mode: str | None = None,
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
        self.metadata = {**VenedigEnv.metadata, "name": f"venedig_rules_{self.rules.name}"}  # type: ignore[misc]
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        size = int(self.rules.action_space(self.players))
        length = self.rules.observation_shape(self.players)[0]
        self._action_space = spaces.Discrete(size)
        self._observation_space = _observation_space(length, size)
        self._seeds = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self.game = self.rules.new_game(self.players, self._seeds.getrandbits(32))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        game = self._game()
        seat = self._seat[agent]
        mask = np.zeros(self._action_space.n, dtype=np.int8)
        if seat in game.to_move:
            mask[game.legal_action_ids(seat)] = 1
        return {"observation": _observation(game, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        game.apply_index(int(action), self._seat[agent])  # type: ignore[arg-type]
        self._cumulative_rewards[agent] = 0.0
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
        if self.render_mode is None or self.game is None:
            return None
        seat = self._seat[self.agent_selection] if self.agents else 0
        view = self.game.view(seat, since=cursor(self.game, seat))
        return json.dumps({k: v for k, v in view.items() if k != "events"}, ensure_ascii=False)

    def close(self) -> None:
        self.game = None

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _select(self) -> None:
        game = self._game()
        movers = game.to_move
        if movers:
            self.agent_selection = self.possible_agents[movers[0]]
        elif self.agents:
            self.agent_selection = self.agents[0]


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
) -> VenedigParallelEnv:
    """A parallel environment for ruleset ``game``, as :func:`env` takes it."""
    return VenedigParallelEnv(game, players, variants, render_mode)


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
    ):
        self._aec = VenedigEnv(game, players, variants, render_mode)
        self.rules, self.players, self.render_mode = self._aec.rules, self._aec.players, render_mode
        self.metadata = {**VenedigParallelEnv.metadata, "name": f"venedig_rules_{self.rules.name}_parallel"}  # type: ignore[misc]
        self.possible_agents = list(self._aec.possible_agents)
        self.agents: list[str] = []
        self.noop_action = int(self.rules.action_space(self.players))
        size = self.noop_action + 1
        length = self.rules.observation_shape(self.players)[0]
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
        self, actions: dict[str, int]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        game = self._game()
        movers = game.to_move
        chosen = {}
        for seat in movers:  # every mover's number is checked before any is applied
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} is to move: give it an action")
            chosen[seat] = game.decode(int(actions[agent]), seat)
        for action in chosen.values():
            game.apply(action)
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
        self.game = None

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _observations(self) -> dict[str, dict[str, Any]]:
        game = self._game()
        out = {}
        for agent in self.agents:
            seat = self._aec._seat[agent]
            mask = np.zeros(self._action_space.n, dtype=np.int8)
            if seat in game.to_move:
                mask[game.legal_action_ids(seat)] = 1
            else:
                mask[self.noop_action] = 1
            out[agent] = {"observation": _observation(game, seat), "action_mask": mask}
        return out


def _observation(game: Game, seat: int) -> Any:
    """``game.observation(seat)`` as float32, written straight from its few entries that
    are not 0 (converting the whole list of tens of thousands of numbers took milliseconds)."""
    size, entries = observed(game, seat)
    out = np.zeros(size, dtype=np.float32)
    out[list(entries)] = list(entries.values())
    return out
