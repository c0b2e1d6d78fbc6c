"""``venedig-rules new-variant``: write a starter variant file for a ruleset."""

from __future__ import annotations

import argparse
from pathlib import Path

from .command import Command


def arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME``, ``FILE`` and ``--force``."""
    parser.add_argument("game", metavar="GAME", help="bundled ruleset id, ruleset folder or variant to extend")
    parser.add_argument("file", metavar="FILE", help="the variant file to write, <id>.yaml")
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")


def run(args: argparse.Namespace) -> int:
    """Write the file and say how to check it."""
    from ..data.starter import write_starter

    path = write_starter(args.game, Path(args.file), force=args.force)
    print(f"wrote {path}; check it with: venedig-rules validate {path} --play 5")
    return 0


COMMAND = Command(
    "new-variant",
    "Write a starter variant file: extends GAME, an id equal to the file name, a $schema line that "
    "makes an editor check the overlay as you type, and the base's constants to start from.",
    "examples:\n  venedig-rules new-variant venedig big_hands.yaml\n"
    "  venedig-rules new-variant rialto variants/seven_rounds.yaml",
    run,
    arguments,
)
