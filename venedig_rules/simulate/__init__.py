"""Balance reports: many games played by bots on every core (or a Ray cluster), their
statistics, a comparison against a base ruleset, text, JSON and plots (``simulate``).

May import: ``errors``, ``data``, ``effects``, ``games``, ``engine``, ``present`` and ``bots``.
The optional libraries (rich and matplotlib: the ``sim`` extra; ray) are imported only
where they are used.

>>> from venedig_rules.simulate import Setup, balance_report, simulate
>>> sim = simulate(Setup("tests/rulesets/lagoon", players=3, bots=("random",) * 3, games=10, seed=4), jobs=1)
>>> report = balance_report(sim)
>>> report["games"], len(report["seats"]), report["end_reasons"]["game over"]["games"] > 0
(10, 3, True)
"""

from .compare import compare
from .engines import simulate
from .outcome import ChoiceKey, EventKey, GameRecord, ItemKey, Tally, TallyKey
from .report import balance_report
from .run import GameFailedError, Setup, Simulation, bot_seed, game_seed
from .text import render

__all__ = [
    "ChoiceKey",
    "EventKey",
    "GameFailedError",
    "GameRecord",
    "ItemKey",
    "Setup",
    "Simulation",
    "Tally",
    "TallyKey",
    "balance_report",
    "bot_seed",
    "compare",
    "game_seed",
    "render",
    "simulate",
]
