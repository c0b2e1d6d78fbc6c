"""The ``venedig-rules`` command (also ``python -m venedig_rules``): list, validate, describe,
play and check rulesets.

Exit status: 0 success, 1 the rule data (or a save, a variant) has problems, or something
failed (one line on stderr: never a traceback), 2 the command was used wrongly.

One module per subcommand declares it as a :class:`~venedig_rules.cli.command.Command`
(its arguments and its runner); ``parser`` puts them together and ``entry`` runs the one
named, turning every error into one line.

May import: every layer below (``errors``, ``data``, ``engine``, ``present``, ``bots``,
``testing``, ``simulate``, ``web``); nothing imports ``cli`` but ``__main__``.
"""

from __future__ import annotations

from .entry import main

__all__ = ["main"]
