"""Quick random games of a ruleset, to find the first runtime error of its rules: what
``venedig-rules validate --play N`` runs after the data checks.

Game ``i`` is played at the ``i``-th player count (in turn), with seed ``seed + i``, each
action picked at random among the legal ones. A rule that asks for something impossible
(an index out of range, a division by zero, ...) stops the game with a
:class:`~venedig_rules.errors.RuleRuntimeError` located in the rule file that ran it.

>>> import venedig_rules as vr
>>> report = play_quick(vr.load("venedig"), games=1)
>>> report.games, report.error is None
(1, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.ruleset import Ruleset
from ..errors import RuleRuntimeError


@dataclass
class QuickPlay:
    """What the quick games found: how many were played, and the first error (or None)."""

    games: int
    actions: int
    error: RuleRuntimeError | None = None
    players: int = 0  # of the game that failed
    seed: int = 0
    after: int = 0  # actions played before it failed

    def describe(self) -> str:
        """One line: the error with its location and how to replay the game, or the games played."""
        if self.error is None:
            return f"played {self.games} random game(s), {self.actions} actions: no runtime error"
        return f"{self.error} (random game with {self.players} players, seed {self.seed}, after {self.after} actions)"


def play_quick(rules: Ruleset, games: int, seed: int = 0) -> QuickPlay:
    """Play ``games`` random games of ``rules`` (player counts in turn); stop at the first error."""
    counts = list(rules.players)
    report = QuickPlay(games=0, actions=0)
    for i in range(games):
        players, game_seed = counts[i % len(counts)], seed + i
        rng = random.Random(game_seed)
        game = None
        try:
            game = rules.new_game(players, game_seed)
            while not game.is_over:
                # at a simultaneous decision the first mover will do: the others follow in turn
                mover = game.to_move[0]
                game.apply(rng.choice(game.legal_actions(mover)))
        # what a rule asking the impossible raises; any other exception is no rule's fault
        except (RuleRuntimeError, TypeError, ValueError, KeyError, IndexError) as exc:
            report.error = RuleRuntimeError.of(exc)
            report.players, report.seed = players, game_seed
            report.after = len(game.actions) if game is not None else 0
            return report
        finally:  # the failed game's actions count too
            report.actions += len(game.actions) if game is not None else 0
        report.games += 1
    return report
