"""``venedig-rules check``: play random games at every player count, checking every invariant
and API promise after each action, with a progress bar on stderr."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from ..errors import UnknownRulesetError
from .command import Command, add_variant, count, counts, playable, positive


def arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME_OR_PATH``, ``--games``, ``--fast-games``, ``--players``, ``--seed`` and ``--variant``."""
    parser.add_argument("game", metavar="GAME_OR_PATH", help="bundled ruleset id, ruleset folder or variant")
    parser.add_argument("--games", type=positive, default=10, metavar="N", help="games per player count (default 10)")
    parser.add_argument(
        "--fast-games",
        type=count,
        default=20,
        metavar="N",
        help="games per player count played first without events or undo, checking only that the rules "
        "do not fail, the game ends and the invariants hold (default 20; 0 for none)",
    )
    parser.add_argument("--players", type=counts, default=None, metavar="P", help="player counts, e.g. 3 or 2,4")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="first seed (default 0)")
    add_variant(parser)


def run(args: argparse.Namespace) -> int:
    """Play and check; print a summary (exit 0) or the first violation with its state (exit 1)."""
    from ..testing import api_test

    rules = playable(args)
    players = args.players or list(rules.players)
    bad = [n for n in players if n not in rules.players]
    if bad:
        raise UnknownRulesetError(
            f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, "
            f"not {', '.join(map(str, bad))}"
        )
    report = api_test(
        rules,
        games=args.games,
        seed=args.seed,
        players=players,
        progress=_progress_bar(rules.name),
        fast_games=args.fast_games,
    )
    violation = report.violation
    if violation is None:
        per = ", ".join(f"{n} players: {g}" for n, g in sorted(report.by_players.items()))
        print(
            f"{rules.name}: ok: {report.games} games ({per}) and {report.fast_games} fast ones, "
            f"{report.actions} actions, longest {report.longest} (bound {rules.max_actions})"
        )
        return 0
    print(f"\n{violation}", file=sys.stderr)
    if violation.state is not None:
        print("state:", json.dumps(violation.state)[:2000], file=sys.stderr)
    return 1


def _progress_bar(name: str, width: int = 30) -> Callable[[int, int], None]:
    """A progress callback drawing ``name [###...] done/total games`` on one line of stderr."""

    def progress(done: int, total: int) -> None:
        filled = width * done // total
        print(
            # redrawn in place (\r); the last one ends the line
            f"\r{name} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} games",
            end="" if done < total else "\n",
            file=sys.stderr,
            flush=True,
        )

    return progress


COMMAND = Command(
    "check",
    "Play random games to the end at every player count and check every rule "
    "invariant and API promise after each action; report the first violation with its seed "
    "and actions so it can be replayed.",
    "examples:\n  venedig-rules check venedig --games 20\n"
    "  venedig-rules check my_variant.yaml --games 5 --players 2,3",
    run,
    arguments,
)
