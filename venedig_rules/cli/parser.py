"""The argument parser of ``venedig-rules``: the top-level options and one subcommand for each
:class:`~venedig_rules.cli.command.Command`, in the order of :data:`COMMANDS`."""

from __future__ import annotations

import argparse

from .._version import __version__
from . import check, describe, listing, new_variant, play, playthrough, render, serve, simulate, validate
from .command import Command

#: The subcommands, in the order ``venedig-rules --help`` lists them.
COMMANDS: tuple[Command, ...] = (
    listing.COMMAND,
    validate.COMMAND,
    describe.COMMAND,
    new_variant.COMMAND,
    check.COMMAND,
    play.COMMAND,
    serve.COMMAND,
    playthrough.COMMAND,
    render.COMMAND,
    simulate.COMMAND,
)


def parser() -> argparse.ArgumentParser:
    """The parser of the whole command line; each subcommand sets ``run`` to its runner.

    >>> parser().parse_args(["describe", "venedig", "--format", "json"]).format
    'json'
    """
    top = argparse.ArgumentParser(
        prog="venedig-rules",
        description="The rules of Die Säulen von Venedig, Rialto and Venedig as data: list, check and describe them.",
        epilog="examples:\n  venedig-rules list\n  venedig-rules validate\n  venedig-rules describe saeulen",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("--version", action="version", version=f"venedig-rules {__version__}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_to(sub)
    return top
