"""``venedig-rules playthrough``: print a ruleset's golden playthroughs, or rewrite their files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .command import Command, add_variant, playable


def arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME``, ``--variant``, ``--players``, ``--update`` and ``--dir``."""
    parser.add_argument("game", metavar="GAME", help="bundled ruleset id, ruleset folder or variant")
    add_variant(parser)
    parser.add_argument("--players", type=int, default=None, metavar="N", help="only this player count")
    parser.add_argument("--update", action="store_true", help="write the files instead of printing")
    parser.add_argument(
        "--dir", default="tests/playthroughs", metavar="DIR", help="where --update writes (default tests/playthroughs)"
    )


def run(args: argparse.Namespace) -> int:
    """Print the playthroughs, or with ``--update`` write them and name each file written."""
    from ..testing.playthrough import render, update

    rules = playable(args)
    if args.update:
        try:
            written = update(rules, Path(args.dir))
        except OSError as exc:
            print(f"venedig-rules: cannot write to {args.dir}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        for path in written:
            print(f"wrote {path}")
        return 0
    for n in [args.players] if args.players else list(rules.players):
        print(render(rules, n, seed=1), end="")  # seed 1: the seed the golden files are played with
    return 0


COMMAND = Command(
    "playthrough",
    "Print the golden playthrough of a ruleset (a seeded game played by random "
    "bots, as a readable log), or rewrite the files under tests/playthroughs/ with --update.",
    "examples:\n  venedig-rules playthrough saeulen --players 3   # print the log\n"
    "  venedig-rules playthrough saeulen --update      # rewrite tests/playthroughs/",
    run,
    arguments,
)
