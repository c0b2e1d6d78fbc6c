"""``venedig-rules simulate``: many games with bots and a balance report. The command lives
with the simulation (:mod:`venedig_rules.simulate.command`); this declares it."""

from __future__ import annotations

from ..simulate import command
from .command import Command

COMMAND = Command("simulate", command.HELP, command.EXAMPLES, command.run, command.add_arguments)
