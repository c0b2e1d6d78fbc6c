"""Train a policy for Rialto at 2 players with sb3-contrib's MaskablePPO (PyTorch, CPU) and
measure it against RandomBot (``pip install 'venedig-rules[train]'``; docs/research.md,
"Training a policy").

    python examples/train_rialto.py                      # at most 30 minutes, then 200 games
    python examples/train_rialto.py --timesteps 2000 --eval-games 4 --out /tmp/smoke

The learner plays one seat of the PettingZoo AEC environment (``adapters.pettingzoo``)
through ``adapters.seat_env.SeatEnv``, taking each seat in turn; RandomBot plays the other.
Its actions are masked by the environment's legal-action mask. It stops at ``--timesteps``
or after ``--minutes`` of wall-clock time, whichever comes first. Every ``--curve-every``
steps it plays ``--curve-games`` games against RandomBot (seats rotated) for the learning
curve; at the end ``--eval-games`` more, whose win rate is reported with its 95% Wilson
interval. Written to ``--out``: ``policy.zip`` (the trained policy, for
``MaskablePPO.load``), ``curve.json`` and ``curve.png`` (win rate over training steps) and
``result.json`` (the final evaluation).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as exc:
    sys.exit(f"{exc}: this example needs the [train] extra: pip install 'venedig-rules[train]'")

from venedig_rules.adapters.pettingzoo import VenedigEnv, env
from venedig_rules.adapters.seat_env import SeatEnv
from venedig_rules.bots import Bot, GreedyBot, RandomBot
from venedig_rules.simulate.stats import wilson

GAME, PLAYERS = "rialto", 2


def make_aec() -> VenedigEnv:
    """Where observations and actions come from: the PettingZoo environment of Rialto, with
    the compact observation (``observation="full"`` gives the full one)."""
    return env(GAME, players=PLAYERS, observation="compact")


def squash(observation: Any) -> Any:
    """Counts and scores (up to about 80) brought near 0-4, so that no input dominates."""
    return np.sign(observation) * np.log1p(np.abs(observation))


class Squashed(gymnasium.ObservationWrapper[Any, Any, Any]):
    """The seat's observation through :func:`squash`; ``action_masks`` passes through."""

    def __init__(self, seat_env: SeatEnv):
        super().__init__(seat_env)
        self.seat_env = seat_env
        space = seat_env.observation_space
        self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, space.shape, np.float32)

    def observation(self, observation: Any) -> Any:
        return squash(observation).astype(np.float32)

    def action_masks(self) -> Any:
        return self.seat_env.action_masks()


def seat_env(opponent: Callable[[int], Bot] = RandomBot) -> Squashed:
    """The learner's environment: one seat of Rialto, the opponent (RandomBot) at the other."""
    return Squashed(SeatEnv(make_aec(), opponent))


@dataclass
class Tally:
    """Games against RandomBot: the learner's sole wins, shared wins and losses."""

    wins: int = 0
    ties: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.ties + self.losses

    def summary(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        return {**asdict(self), "games": self.games, "win_rate": rate, "ci95": [low, high]}


def evaluate(model: MaskablePPO, games: int, seed: int, opponent: Callable[[int], Bot] = RandomBot) -> Tally:
    """``games`` games of the model (its most likely legal action) against the opponent, the
    model's seat rotated game by game (``seed`` deals the first, and the rest follow)."""
    tally = Tally()
    play = seat_env(opponent)
    for game in range(games):
        observation, _ = play.reset(seed=seed if game == 0 else None)
        while True:
            action, _ = model.predict(observation, action_masks=play.action_masks(), deterministic=True)
            observation, _, over, _, info = play.step(int(action))
            if over:
                break
        share = info["outcome"]
        if share == 1.0:
            tally.wins += 1
        elif share > 0.0:
            tally.ties += 1
        else:
            tally.losses += 1
    return tally


class Curve(BaseCallback):
    """Measures the win rate against RandomBot every ``every`` steps, and stops training
    once ``seconds`` have passed since it started."""

    def __init__(self, every: int, games: int, seconds: float, seed: int, log: Callable[[str], None]):
        super().__init__()
        self.every, self.games, self.seconds, self.seed, self.log = every, games, seconds, seed, log
        self.points: list[dict[str, Any]] = []
        self.started = time.monotonic()
        self.cpu_started = time.process_time()
        self._next = 0

    def _on_training_start(self) -> None:
        self.started, self.cpu_started = time.monotonic(), time.process_time()
        self.measure()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self.measure()
        return time.monotonic() - self.started < self.seconds

    def _on_training_end(self) -> None:
        if not self.points or self.points[-1]["timesteps"] != self.num_timesteps:
            self.measure()

    def measure(self) -> None:
        assert isinstance(self.model, MaskablePPO)
        tally = evaluate(self.model, self.games, seed=self.seed + len(self.points))
        point = {
            "timesteps": self.num_timesteps,
            "seconds": round(time.monotonic() - self.started, 1),
            "cpu_seconds": round(time.process_time() - self.cpu_started, 1),
        }
        point.update(tally.summary())
        self.points.append(point)
        self._next = self.num_timesteps + self.every
        self.log(f"{point['timesteps']:>9} steps {point['seconds']:>7.0f} s  win rate {point['win_rate']:.2f}")


def rates_and_errors(points: list[dict[str, Any]]) -> tuple[list[float], list[list[float]]]:
    """The win rates, and how far their Wilson intervals reach below and above them."""
    rates = [p["win_rate"] for p in points]
    below = [p["win_rate"] - p["ci95"][0] for p in points]
    above = [p["ci95"][1] - p["win_rate"] for p in points]
    return rates, [below, above]


def plot(points: list[dict[str, Any]], final: dict[str, Any], path: Path) -> None:
    """The learning curve: win rate against RandomBot (with 95% Wilson intervals) over steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [p["timesteps"] for p in points]
    figure, axes = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    axes.errorbar(steps, *rates_and_errors(points), marker="o", markersize=3, capsize=2, label="during training")
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle=":", label="even with RandomBot")
    axes.axhline(0.7, color="tab:green", linewidth=0.8, linestyle="--", label="target 70%")
    label = f"final: {final['wins']}/{final['games']} = {final['win_rate']:.0%}"
    axes.errorbar([steps[-1]], *rates_and_errors([final]), marker="s", color="tab:red", capsize=3, label=label)
    axes.set(xlabel="training steps (the learner's decisions)", ylabel="win rate against RandomBot", ylim=(0, 1))
    axes.set_title(f"MaskablePPO on {GAME}, {PLAYERS} players, seats rotated")
    axes.legend(loc="lower right", fontsize="small")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def default_out() -> Path:
    """The user's cache folder for this example (``$XDG_CACHE_HOME``, else ``~/.cache``)."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "venedig-rules" / "train_rialto"


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=3_000_000, help="most training steps (default 3,000,000)")
    parser.add_argument("--minutes", type=float, default=30.0, help="most wall-clock minutes of training (30)")
    parser.add_argument("--eval-games", type=int, default=200, help="games of the final evaluation (200)")
    parser.add_argument("--greedy-games", type=int, default=0, help="games against GreedyBot after those (0)")
    parser.add_argument("--curve-every", type=int, default=10_000, help="steps between curve points (10,000)")
    parser.add_argument("--curve-games", type=int, default=40, help="games per curve point (40)")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together (8)")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's threads (1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=default_out(), help=f"output folder ({default_out()})")
    parser.add_argument("--curve", type=Path, help="where the curve's picture goes (OUT/curve.png)")
    parser.add_argument("--quiet", action="store_true", help="print the result only")
    return parser.parse_args(argv)


def train(args: argparse.Namespace, log: Callable[[str], None]) -> tuple[MaskablePPO, Curve]:
    torch.set_num_threads(args.threads)
    envs = DummyVecEnv([seat_env] * args.envs)
    envs.seed(args.seed)  # env i deals from seed + i
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=max(16, 2048 // args.envs),
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
    )
    seconds = args.minutes * 60
    curve = Curve(args.curve_every, args.curve_games, seconds, seed=10_000 + args.seed, log=log)
    model.learn(total_timesteps=args.timesteps, callback=curve)
    return model, curve


def report(final: dict[str, Any], out: Path) -> str:
    """The result in a few lines."""
    low, high = final["ci95"]
    lines = [
        f"{GAME} {PLAYERS}p: {final['timesteps']} steps in {final['train_seconds']:.0f} s "
        f"({final['train_cpu_seconds']:.0f} s of CPU); written to {out}",
        f"against RandomBot: {final['wins']}/{final['games']} won ({final['ties']} shared), "
        f"{final['win_rate']:.1%} (95% Wilson {low:.1%}-{high:.1%})",
    ]
    if "against_greedy" in final:
        greedy = final["against_greedy"]
        low, high = greedy["ci95"]
        lines.append(
            f"against GreedyBot: {greedy['wins']}/{greedy['games']} won ({greedy['ties']} shared), "
            f"{greedy['win_rate']:.1%} (95% Wilson {low:.1%}-{high:.1%})"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    log = (lambda _: None) if args.quiet else (lambda text: print(text, flush=True))
    args.out.mkdir(parents=True, exist_ok=True)
    model, curve = train(args, log)
    model.save(args.out / "policy.zip")
    final = evaluate(model, args.eval_games, seed=20_000 + args.seed).summary()
    last = curve.points[-1]
    final.update(timesteps=last["timesteps"], train_seconds=last["seconds"], train_cpu_seconds=last["cpu_seconds"])
    if args.greedy_games:
        against_greedy = evaluate(model, args.greedy_games, seed=30_000 + args.seed, opponent=GreedyBot)
        final["against_greedy"] = against_greedy.summary()
    (args.out / "curve.json").write_text(json.dumps(curve.points, indent=1) + "\n")
    (args.out / "result.json").write_text(json.dumps(final, indent=1) + "\n")
    plot(curve.points, final, args.curve or args.out / "curve.png")
    print(report(final, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
