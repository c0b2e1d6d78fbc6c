"""The game machine: a loaded Ruleset, the Game it runs, views, action notation, randomness.

May import: ``errors``, ``data``, ``effects``, ``games`` (never a client: present, bots, testing, cli).
"""

from .game import Game, NotRecordedError, SaveFileError
from .loading import load, validate
from .ruleset import Ruleset
from .run.notation import Action, ActionSyntaxError, IllegalActionError, parse_action

__all__ = [
    "Action",
    "ActionSyntaxError",
    "Game",
    "IllegalActionError",
    "NotRecordedError",
    "Ruleset",
    "SaveFileError",
    "load",
    "parse_action",
    "validate",
]
