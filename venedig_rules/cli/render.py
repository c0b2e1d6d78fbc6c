"""``venedig-rules render``: draw a position as SVG, as one seat (or a spectator) sees it: a
saved game, or a new one after some random actions."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.game import SaveFileError
from ..errors import UnknownRulesetError
from .command import Command, add_names_and_language, add_variant, playable

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.ruleset import Ruleset


def arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME``, ``--variant``, the position (``--players``, ``--seed``, ``--actions`` or
    ``--save``), who looks (``--seat``), ``--names``, ``--lang`` and ``--out``."""
    parser.add_argument("game", metavar="GAME", help="bundled ruleset id, ruleset folder or variant")
    add_variant(parser)
    parser.add_argument(
        "--players", type=int, default=None, metavar="N", help="players of a new game (default: fewest)"
    )
    # None, not 0, by default: --save refuses them only when they were given
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed of the game and of its actions (default 0)"
    )
    parser.add_argument(
        "--actions", type=int, default=None, metavar="K", help="random legal actions to play first (default 0)"
    )
    parser.add_argument("--save", default=None, metavar="FILE", help="draw a saved game (game.to_json()) instead")
    parser.add_argument(
        "--seat", type=int, default=None, metavar="P", help="the seat that looks (default: a spectator)"
    )
    add_names_and_language(parser)
    parser.add_argument(
        "--out", required=True, metavar="FILE.svg", help="where to write the SVG ('-': standard output)"
    )


def run(args: argparse.Namespace) -> int:
    """Draw the position and write it to ``--out``; exit 1 when the save or the file fails."""
    from ..engine.seat.wording import Wording
    from ..present.render import render_svg

    rules = playable(args)
    try:
        Wording(rules, args.lang, args.names)  # an unknown language is a usage error, before any work
    except ValueError as exc:
        raise UnknownRulesetError(str(exc)) from None
    game = _saved_game(rules, args) if args.save is not None else _new_game(rules, args)
    if game is None:
        return 1
    if args.seat is not None and not 0 <= args.seat < game.players:
        raise UnknownRulesetError(f"--seat {args.seat} is not in this game; expected 0 to {game.players - 1}")
    picture = render_svg(game, args.seat, lang=args.lang, names=args.names)
    if args.out == "-":
        sys.stdout.write(picture)
        return 0
    try:
        Path(args.out).write_text(picture, encoding="utf-8")
    except OSError as exc:
        print(f"venedig-rules: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({_summary(rules, game, args.seat)})")
    return 0


def _saved_game(rules: Ruleset, args: argparse.Namespace) -> Game | None:
    """The game saved in ``--save``; None (the reason printed) when the file holds no game of
    these rules."""
    if any(v is not None for v in (args.players, args.seed, args.actions)):
        raise UnknownRulesetError("give either --save or --players/--seed/--actions, not both")
    try:
        text = Path(args.save).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UnknownRulesetError(f"cannot read {args.save}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"{args.save}: not a saved game: {exc}", file=sys.stderr)
        return None
    try:
        return rules.game_from_json(data)
    except SaveFileError as exc:
        print(f"{args.save}: {exc}", file=sys.stderr)
        return None


def _new_game(rules: Ruleset, args: argparse.Namespace) -> Game:
    """A new game of ``--players`` with ``--seed``, after ``--actions`` random legal actions."""
    players = rules.players.start if args.players is None else args.players
    seed, actions = args.seed or 0, args.actions or 0
    if players not in rules.players or actions < 0:
        raise UnknownRulesetError(
            f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, not {players}"
            if players not in rules.players
            else f"--actions must be 0 or more, not {actions}"
        )
    game = rules.new_game(players, seed)
    # the actions are drawn from the same seed, so a command line always draws the same position
    chooser = random.Random(seed)
    while len(game.actions) < actions and not game.is_over:
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    return game


def _summary(rules: Ruleset, game: Game, seat: int | None) -> str:
    """What was drawn, for the line that names the file written."""
    seen = "a spectator" if seat is None else f"p{seat}"
    summary = (
        f"{rules.name}, {game.players} players, seed {game.seed}, after {len(game.actions)} actions, seen by {seen}"
    )
    return summary + ("; the game is over" if game.is_over else "")


COMMAND = Command(
    "render",
    "Draw a position as SVG: the board with its pieces, the tracks, each seat's public zones and the "
    "seat's own hand, as that seat sees it (a spectator, public information only, without --seat).",
    "examples:\n  venedig-rules render venedig --players 3 --seed 1 --actions 40 --out venedig.svg\n"
    "  venedig-rules render rialto --save game.json --seat 0 --out p0.svg   # a saved game, as p0 sees it",
    run,
    arguments,
)
