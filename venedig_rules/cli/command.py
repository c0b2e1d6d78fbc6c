"""What every subcommand is made of (:class:`Command`), and what several of them share: the
argument types of counts and names, the ``--variant`` and language options, and loading a
ruleset that can be played."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.loading import load
from ..errors import UnknownRulesetError

if TYPE_CHECKING:
    from ..engine.ruleset import Ruleset

#: A subcommand's runner: runs with the parsed arguments, returns the exit status.
Runner = Callable[[argparse.Namespace], int]


def no_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of a command that takes none."""


@dataclass(frozen=True)
class Command:
    """One subcommand: its ``name``, its ``help`` (in the list of commands and as its own
    description), its ``examples`` (shown after its options), the ``arguments`` it declares
    and the function that ``run``-s it.

    >>> import argparse
    >>> hello = Command("hello", "Say hello.", "example:\\n  venedig-rules hello", lambda args: 0)
    >>> sub = argparse.ArgumentParser(prog="venedig-rules").add_subparsers()
    >>> hello.add_to(sub).parse_args([]).run(argparse.Namespace())
    0
    """

    name: str
    help: str
    examples: str
    run: Runner
    arguments: Callable[[argparse.ArgumentParser], None] = no_arguments

    def add_to(self, sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
        """Add this command to the subcommands ``sub``; returns its parser."""
        parser = sub.add_parser(
            self.name,
            help=self.help,
            description=self.help,
            epilog=self.examples,
            # the examples are laid out by hand: keep their lines as written
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.set_defaults(run=self.run)
        self.arguments(parser)
        return parser


def add_variant(parser: argparse.ArgumentParser, help_text: str = "apply a variant (repeatable)") -> None:
    """The ``--variant NAME`` option (repeatable) of the commands that load a ruleset."""
    parser.add_argument("--variant", action="append", default=[], metavar="NAME", help=help_text)


def add_names_and_language(parser: argparse.ArgumentParser) -> None:
    """The ``--names`` and ``--lang`` options of the commands that tell a game in words."""
    parser.add_argument(
        "--names", type=names, default=None, metavar="A,B,...", help="the players' names, in seat order"
    )
    parser.add_argument("--lang", default="en", metavar="LANG", help="language of the texts, e.g. de (default en)")


def playable(args: argparse.Namespace) -> Ruleset:
    """The ruleset ``args.game`` with ``args.variant``, refused (a usage error) when it has no
    flow to play yet."""
    rules = load(args.game, args.variant)
    if not rules.playable:
        raise UnknownRulesetError(
            f"ruleset {rules.name!r} is rule data only so far (no flow in game.yaml): "
            "it can be validated and described, not played"
        )
    return rules


def silence_stdout() -> None:
    """Point stdout at the null device, so flushing it at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def bots(text: str) -> list[str]:
    """``--bots``: bot names separated by commas, each one a bot the package knows."""
    from ..bots import bot_names, make_bot

    found = [part.strip() for part in text.split(",") if part.strip()]
    for name in found:
        try:
            make_bot(name)  # an unknown name is refused here, with the names there are
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    if not found:
        raise argparse.ArgumentTypeError(f"name at least one bot: {', '.join(bot_names())}")
    return found


def names(text: str) -> list[str]:
    """``--names``: different, non-empty names separated by commas."""
    found = [part.strip() for part in text.split(",")]
    if not all(found) or len(set(found)) != len(found):
        raise argparse.ArgumentTypeError(f"expected different names separated by commas, like Ada,Ben; got {text!r}")
    return found


def counts(text: str) -> list[int]:
    """Numbers separated by commas (player counts, seats)."""
    try:
        numbers = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        numbers = []
    # a long text is cut in the message and refused: nobody plays a hundred seats
    if not numbers or len(text) > 100:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, like 2,4; got {text[:40]!r}")
    return numbers


def positive(text: str) -> int:
    """A count of at least 1 (``--games``): 0 or fewer games would check nothing."""
    return _at_least(1, text)


def count(text: str) -> int:
    """A count of at least 0 (``--fast-games``)."""
    return _at_least(0, text)


def _at_least(least: int, text: str) -> int:
    # more than 18 digits is no count anyone means, and int() of a huge text is slow
    try:
        number = int(text) if len(text) <= 18 else least - 1
    except ValueError:
        number = least - 1
    if number < least:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least {least}; got {text[:40]!r}")
    return number
