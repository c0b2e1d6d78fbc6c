"""``venedig-rules play``: play games to the end in the terminal, bots on every seat not
played by a human, each event told as a sentence."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..errors import UnknownRulesetError, VenedigError
from .command import Command, add_names_and_language, add_variant, bots, counts, playable, silence_stdout

if TYPE_CHECKING:
    from ..bots import Bot, SeatViews
    from ..engine.game import Game
    from ..engine.ruleset import Ruleset
    from ..present.narrator import Narrator


def arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME ...``, the table (``--players``, ``--seed``, ``--human``, ``--bots``), ``--variant``
    and how it is told (``--verbose``, ``--names``, ``--lang``)."""
    parser.add_argument("games", nargs="+", metavar="GAME", help="bundled ruleset id, ruleset folder or variant")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="number of players (default, or when a game does not allow N: its fewest)",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the game (default 0)")
    parser.add_argument("--human", type=counts, default=[], metavar="SEATS", help="seats you play, e.g. 0 or 0,2")
    parser.add_argument(
        "--ask-forced",
        action="store_true",
        help="ask a human seat even a decision with one option (by default it is answered and said)",
    )
    add_variant(parser)
    parser.add_argument(
        "--bots",
        type=bots,
        default=["random"],
        metavar="NAMES",
        help="the bot of each seat not played by a human, e.g. ismcts,random (one name: every seat); "
        "bots: greedy, ismcts, random (default random)",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="also print every change of the state (cards moved, ...)"
    )
    add_names_and_language(parser)


def run(args: argparse.Namespace) -> int:
    """Play each game named, one after another; stop at the first that does not end well."""
    try:
        for n, game in enumerate(args.games):
            if n:
                print()
            status = _play_one(argparse.Namespace(**{**vars(args), "game": game}))
            if status:
                return status
    except BrokenPipeError:
        # the reader left (``play ... | head``): that is no failure of the games
        silence_stdout()
    return 0


def _play_one(args: argparse.Namespace) -> int:
    from ..bots import SeatViews, decide, reads_view
    from ..present.table import HumanSeat, Undone

    rules = playable(args)
    players = args.players if args.players in rules.players else rules.players.start
    narrator = _narrator(rules, args)
    game = rules.new_game(players, args.seed)
    humans = [h for h in args.human if 0 <= h < players]
    viewer = humans[0] if humans else None
    robots = _bots(args.bots, args.seed, players, humans)
    seats = {p: HumanSeat(game, p, narrator, answer_forced=not args.ask_forced) for p in humans}
    print(_heading(narrator, rules.title, players, args.seed, humans))
    views = SeatViews(game)
    told = -1  # the index of the last log entry printed
    while True:
        # with a human at the table, only that seat's view of the play is told
        if args.verbose:
            events = views(viewer)["events"] if viewer is not None else game.events
            for line in narrator.lines(events[max(told, 0) :], verbose=True):
                print(f"  {line}")
            told = len(events)
        else:
            told = _tell(game, viewer, narrator, told)
        if game.is_over:
            break
        for p in game.to_move:
            if p in humans:
                choice = seats[p].choose()
                if choice is None:  # the human left the table, or the input ended
                    if seats[p].input_ended:
                        print(narrator.wording.engine("input_ended"))
                        return 1
                    return 0
                if isinstance(choice, Undone):
                    # what was taken back is told again as it is played anew
                    told = _after_undo(game, viewer, told, args.verbose, views)
                    break
            else:
                bot = robots[p]
                choice = decide(bot, game, p, views(p) if reads_view(bot) else None, game.legal_actions(p))
            game.apply(choice)
    for line in _breakdown(game, narrator):
        print(line)
    print(narrator.result(game))  # the last line, as scripts read it: "scores: p0 32, p1 33; winners: p1"
    return 0


def _heading(narrator: Narrator, title: str, players: int, seed: int, humans: list[int]) -> str:
    """The game's first line: its title, players and seed, and the seats the humans play."""
    from ..data.valuetypes import ValueType
    from ..engine.seat.wording import NUMBER, PLAYER, TEXT

    w = narrator.wording
    line = w.engine("table_line", title=(title, TEXT), n=(players, NUMBER), seed=(seed, NUMBER))
    if humans:
        line += w.engine("you_play", players=(humans, ValueType("list", (PLAYER,))))
    return line


def _tell(game: Game, viewer: int | None, narrator: Narrator, told: int) -> int:
    """Print the log entries after entry ``told`` (each with its details); the index of the
    last one printed."""
    w = narrator.wording
    for entry in game.log(viewer, w.code, since=told + 1 if told >= 0 else None, names=w.names):
        print(f"  {entry['text']}")
        for detail in entry["details"]:
            print(f"      {detail}")
        told = entry["index"]
    return told


def _after_undo(game: Game, viewer: int | None, told: int, verbose: bool, views: SeatViews) -> int:
    """Where to tell on from after an undo: no further than the log now reaches."""
    if verbose:
        return min(told, len(views(viewer)["events"]) if viewer is not None else len(game.events))
    entries = game.log(viewer)
    return min(told, entries[-1]["index"] if entries else -1)


def _breakdown(game: Game, narrator: Narrator) -> list[str]:
    """How each player's points were made (the log's end entry told the totals):
    ``p0: Basilica 7, Casa 6, Gold exchanged 19``."""
    w = narrator.wording
    return [
        f"  {w.player(p)}: {', '.join(f'{label} {points}' for label, points in parts.items())}"
        for p, parts in game.score_breakdown(w.code, w.names).items()
        if parts
    ]


def _narrator(rules: Ruleset, args: argparse.Namespace) -> Narrator:
    """The narrator in ``--lang`` with ``--names``; an unknown language is a usage error."""
    from ..present.narrator import Narrator

    try:
        return Narrator(rules, args.lang, args.names)
    except ValueError as exc:
        raise UnknownRulesetError(str(exc)) from None


def _bots(names: list[str], seed: int, players: int, humans: list[int]) -> dict[int, Bot]:
    """A bot on every seat no human plays: one name for all seats, or one per seat."""
    from ..bots import make_bot

    names = names if len(names) != 1 else names * players
    if len(names) != players:
        raise VenedigError(f"--bots names {len(names)} bots for {players} seats (name one, or each)")
    # each seat's bot gets a seed of its own, so two random bots do not play alike
    return {p: make_bot(names[p], seed * 31 + p) for p in range(players) if p not in humans}


COMMAND = Command(
    "play",
    "Play a game to the end in the terminal: random players on every seat not named "
    "human, each event printed as a sentence, then the scores. Several games are played one "
    "after another.",
    "examples:\n  venedig-rules play venedig --players 3 --seed 7\n"
    "  venedig-rules play saeulen rialto venedig --seed 1   # one game of each\n"
    "  venedig-rules play rialto --human 0                  # you play seat 0",
    run,
    arguments,
)
