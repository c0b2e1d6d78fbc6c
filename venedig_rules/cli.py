"""The ``venedig-rules`` command: list, validate, describe, play and check rulesets.

Exit status: 0 success, 1 the rule data (or a save, a variant) has problems, or something
failed (one line on stderr: never a traceback), 2 the command was used wrongly.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict

from ._version import __version__
from .data.reading import FILE_KINDS, bundled, bundled_variants
from .engine.game import SaveFileError
from .engine.loading import load, validate
from .errors import RuleRuntimeError, UnknownRulesetError, VenedigError
from .present.describe import describe, table
from .simulate import command as simulate_command

if TYPE_CHECKING:
    from .engine.ruleset import Ruleset

#: A subcommand: runs with the parsed arguments, returns the exit status.
Command = Callable[[argparse.Namespace], int]

_EXAMPLES = {
    "list": "example:\n  venedig-rules list",
    "validate": (
        "examples:\n  venedig-rules validate                      # every bundled ruleset and variant\n"
        "  venedig-rules validate rules/venedig        # one ruleset folder\n"
        "  venedig-rules validate my_variant.yaml --format json\n"
        "  venedig-rules validate my_variant.yaml --play 5     # and 5 quick random games"
    ),
    "describe": (
        "examples:\n  venedig-rules describe venedig\n  venedig-rules describe venedig --variant short_rules_end\n"
        "  venedig-rules describe my_variant.yaml --diff             # what it changes, and where\n"
        "  venedig-rules describe rialto --format json"
    ),
    "new-variant": (
        "examples:\n  venedig-rules new-variant venedig big_hands.yaml\n"
        "  venedig-rules new-variant rialto variants/seven_rounds.yaml"
    ),
    "check": (
        "examples:\n  venedig-rules check venedig --games 20\n"
        "  venedig-rules check my_variant.yaml --games 5 --players 2,3"
    ),
    "play": (
        "examples:\n  venedig-rules play venedig --players 3 --seed 7\n"
        "  venedig-rules play saeulen rialto venedig --seed 1   # one game of each\n"
        "  venedig-rules play rialto --human 0                  # you play seat 0"
    ),
    "playthrough": (
        "examples:\n  venedig-rules playthrough saeulen --players 3   # print the log\n"
        "  venedig-rules playthrough saeulen --update      # rewrite tests/playthroughs/"
    ),
    "render": (
        "examples:\n  venedig-rules render venedig --players 3 --seed 1 --actions 40 --out venedig.svg\n"
        "  venedig-rules render rialto --save game.json --seat 0 --out p0.svg   # a saved game, as p0 sees it"
    ),
    "simulate": simulate_command.EXAMPLES,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status. No traceback reaches the user: an
    unexpected exception (a bug) is one line on stderr asking for a report, exit 1."""
    parser = _parser()
    args = parser.parse_args(argv)  # a usage error exits 2 (argparse), --help 0
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    run: Command = args.run
    try:
        return run(args)
    except UnknownRulesetError as exc:
        print(f"venedig-rules: error: {exc}", file=sys.stderr)
        return 2
    except VenedigError as exc:
        print(exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("venedig-rules: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): nothing more to say to it
        _silence_stdout()
        return 1
    except Exception as exc:  # the last guard: a one-line message, never a traceback
        what = str(exc).splitlines()[0][:200] if str(exc) else ""
        print(
            f"venedig-rules: internal error: {type(exc).__name__}{': ' + what if what else ''}\n"
            f"  this is a bug in venedig-rules {__version__}; please report it with the command you ran",
            file=sys.stderr,
        )
        return 1


def _silence_stdout() -> None:
    """Point stdout at the null device, so flushing it at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="venedig-rules",
        description="The rules of Die Säulen von Venedig, Rialto and Venedig as data: list, check and describe them.",
        epilog="examples:\n  venedig-rules list\n  venedig-rules validate\n  venedig-rules describe saeulen",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"venedig-rules {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help_text: str, run: Command) -> argparse.ArgumentParser:
        p = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=_EXAMPLES[name],
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(run=run)
        return p

    command(
        "list",
        "List the bundled rulesets with their titles, player counts, whether they can be "
        "played yet, and their variants.",
        _list,
    )
    p = command(
        "validate",
        "Check rule data against the schemas and cross-references; print every "
        "problem as file:line:column: code: message.",
        _validate,
    )
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="ruleset folders, variant files or folders, or bundled ids (default: all bundled); "
        "a bundled id wins over a same-named folder, so write ./venedig for the folder",
    )
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    p.add_argument(
        "--play",
        type=int,
        default=0,
        metavar="N",
        help="then play N quick random games of each target (player counts in turn) and report the first "
        "runtime error, located in its rule file",
    )
    p = command(
        "describe", "Print a ruleset's components, cards, tiles, buildings, board and constants as tables.", _describe
    )
    p.add_argument("game", metavar="GAME", help="bundled ruleset id, ruleset folder or variant")
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME",
        help="apply a bundled variant or variant file (repeatable)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    p.add_argument(
        "--diff",
        action="store_true",
        help="only what the variants change from the base ruleset, each with provenance 'variant <id>'",
    )
    p = command(
        "new-variant",
        "Write a starter variant file: extends GAME, an id equal to the file name, a $schema line that "
        "makes an editor check the overlay as you type, and the base's constants to start from.",
        _new_variant,
    )
    p.add_argument("game", metavar="GAME", help="bundled ruleset id, ruleset folder or variant to extend")
    p.add_argument("file", metavar="FILE", help="the variant file to write, <id>.yaml")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p = command(
        "check",
        "Play random games to the end at every player count and check every rule "
        "invariant and API promise after each action; report the first violation with its seed "
        "and actions so it can be replayed.",
        _check,
    )
    p.add_argument("game", metavar="GAME_OR_PATH", help="bundled ruleset id, ruleset folder or variant")
    p.add_argument("--games", type=_positive, default=10, metavar="N", help="games per player count (default 10)")
    p.add_argument(
        "--fast-games",
        type=_count,
        default=20,
        metavar="N",
        help="games per player count played first without events or undo, checking only that the rules "
        "do not fail, the game ends and the invariants hold (default 20; 0 for none)",
    )
    p.add_argument("--players", type=_counts, default=None, metavar="P", help="player counts, e.g. 3 or 2,4")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="first seed (default 0)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="apply a variant (repeatable)")
    p = command(
        "play",
        "Play a game to the end in the terminal: random players on every seat not named "
        "human, each event printed as a sentence, then the scores. Several games are played one "
        "after another.",
        _play,
    )
    p.add_argument("games", nargs="+", metavar="GAME", help="bundled ruleset id, ruleset folder or variant")
    p.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="number of players (default, or when a game does not allow N: its fewest)",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the game (default 0)")
    p.add_argument("--human", type=_counts, default=[], metavar="SEATS", help="seats you play, e.g. 0 or 0,2")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="apply a variant (repeatable)")
    p.add_argument(
        "--bots",
        type=_bot_names,
        default=["random"],
        metavar="NAMES",
        help="the bot of each seat not played by a human, e.g. ismcts,random (one name: every seat); "
        "bots: greedy, ismcts, random (default random)",
    )
    p.add_argument("--verbose", action="store_true", help="also print every change of the state (cards moved, ...)")
    p.add_argument("--names", type=_names, default=None, metavar="A,B,...", help="the players' names, in seat order")
    p.add_argument("--lang", default="en", metavar="LANG", help="language of the texts, e.g. de (default en)")
    from .web.serve import EXAMPLES as serve_examples
    from .web.serve import add_arguments as serve_arguments

    _EXAMPLES["serve"] = serve_examples
    serve_arguments(
        command(
            "serve",
            "Play in the browser: the lobby, each seat's page and spectators' pages "
            '(needs pip install "venedig-rules[web]").',
            _serve,
        )
    )
    p = command(
        "playthrough",
        "Print the golden playthrough of a ruleset (a seeded game played by random "
        "bots, as a readable log), or rewrite the files under tests/playthroughs/ with --update.",
        _playthrough,
    )
    p.add_argument("game", metavar="GAME", help="bundled ruleset id, ruleset folder or variant")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="apply a variant (repeatable)")
    p.add_argument("--players", type=int, default=None, metavar="N", help="only this player count")
    p.add_argument("--update", action="store_true", help="write the files instead of printing")
    p.add_argument(
        "--dir", default="tests/playthroughs", metavar="DIR", help="where --update writes (default tests/playthroughs)"
    )
    p = command(
        "render",
        "Draw a position as SVG: the board with its pieces, the tracks, each seat's public zones and the "
        "seat's own hand, as that seat sees it (a spectator, public information only, without --seat).",
        _render,
    )
    p.add_argument("game", metavar="GAME", help="bundled ruleset id, ruleset folder or variant")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="apply a variant (repeatable)")
    p.add_argument("--players", type=int, default=None, metavar="N", help="players of a new game (default: fewest)")
    p.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed of the game and of its actions (default 0)"
    )
    p.add_argument(
        "--actions", type=int, default=None, metavar="K", help="random legal actions to play first (default 0)"
    )
    p.add_argument("--save", default=None, metavar="FILE", help="draw a saved game (game.to_json()) instead")
    p.add_argument("--seat", type=int, default=None, metavar="P", help="the seat that looks (default: a spectator)")
    p.add_argument("--names", type=_names, default=None, metavar="A,B,...", help="the players' names, in seat order")
    p.add_argument("--lang", default="en", metavar="LANG", help="language of the texts, e.g. de (default en)")
    p.add_argument("--out", required=True, metavar="FILE.svg", help="where to write the SVG ('-': standard output)")
    simulate_command.add_arguments(command("simulate", simulate_command.HELP, simulate_command.run))
    return parser


def _bot_names(text: str) -> list[str]:
    from .bots import bot_names, make_bot

    names = [part.strip() for part in text.split(",") if part.strip()]
    for name in names:
        try:
            make_bot(name)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    if not names:
        raise argparse.ArgumentTypeError(f"name at least one bot: {', '.join(bot_names())}")
    return names


def _names(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",")]
    if not all(names) or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"expected different names separated by commas, like Ada,Ben; got {text!r}")
    return names


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        counts = []
    if not counts or len(text) > 100:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, like 2,4; got {text[:40]!r}")
    return counts


def _positive(text: str) -> int:
    """A count of at least 1 (``--games``): 0 or fewer games would check nothing."""
    try:
        number = int(text) if len(text) <= 18 else 0
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1; got {text[:40]!r}")
    return number


def _count(text: str) -> int:
    """A count of at least 0 (``--fast-games``)."""
    try:
        number = int(text) if len(text) <= 18 else -1
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0; got {text[:40]!r}")
    return number


def _playable(args: argparse.Namespace) -> Ruleset:
    rules = load(args.game, args.variant)
    if not rules.playable:
        raise UnknownRulesetError(
            f"ruleset {rules.name!r} is rule data only so far (no flow in game.yaml): "
            "it can be validated and described, not played"
        )
    return rules


def _check(args: argparse.Namespace) -> int:
    from .testing import api_test

    rules = _playable(args)
    counts = args.players or list(rules.players)
    bad = [n for n in counts if n not in rules.players]
    if bad:
        raise UnknownRulesetError(
            f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, "
            f"not {', '.join(map(str, bad))}"
        )

    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        print(
            f"\r{rules.name} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} games",
            end="" if done < total else "\n",
            file=sys.stderr,
            flush=True,
        )

    report = api_test(
        rules, games=args.games, seed=args.seed, players=counts, progress=progress, fast_games=args.fast_games
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


def _play(args: argparse.Namespace) -> int:
    try:
        for n, game in enumerate(args.games):
            if n:
                print()
            status = _play_one(argparse.Namespace(**{**vars(args), "game": game}))
            if status:
                return status
    except BrokenPipeError:
        # the reader left (``play ... | head``): end quietly, and keep Python from
        # complaining when it flushes stdout at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


def _play_one(args: argparse.Namespace) -> int:
    from .bots import SeatViews, decide, make_bot, reads_view
    from .present.narrator import Narrator
    from .present.table import HumanSeat, Undone

    rules = _playable(args)
    players = args.players if args.players in rules.players else rules.players.start
    try:
        narrator = Narrator(rules, args.lang, args.names)
    except ValueError as exc:
        raise UnknownRulesetError(str(exc)) from None
    game = rules.new_game(players, args.seed)
    humans = [h for h in args.human if 0 <= h < players]
    viewer = humans[0] if humans else None
    names = args.bots if len(args.bots) != 1 else args.bots * players
    if len(names) != players:
        raise VenedigError(f"--bots names {len(names)} bots for {players} seats (name one, or each)")
    bots = {p: make_bot(names[p], args.seed * 31 + p) for p in range(players) if p not in humans}
    seats = {p: HumanSeat(game, p, narrator) for p in humans}
    you = f"; you play {', '.join(narrator.player(p) for p in humans)}" if humans else ""
    print(f"{rules.title}: {players} players, seed {args.seed}{you}")
    views = SeatViews(game)
    shown = 0
    while True:
        # with a human at the table, only that seat's view of the events is told
        events = views(viewer)["events"] if viewer is not None else game.events
        for line in narrator.lines(events[shown:], verbose=args.verbose):
            print(f"  {line}")
        shown = len(events)
        if game.is_over:
            break
        for p in game.to_move:
            if p in humans:
                choice = seats[p].choose()
                if choice is None:
                    return 0
                if isinstance(choice, Undone):
                    shown = min(shown, len(views(viewer)["events"])) if viewer is not None else len(game.events)
                    break
            else:
                choice = decide(bots[p], game, p, views(p) if reads_view(bots[p]) else None, game.legal_actions(p))
            game.apply(choice)
    print(narrator.result(game))
    return 0


def _playthrough(args: argparse.Namespace) -> int:
    from .testing.playthrough import render, update

    rules = _playable(args)
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
        print(render(rules, n, seed=1), end="")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from .web.serve import run

    return run(args)


def _list(args: argparse.Namespace) -> int:
    rows = []
    for ident in bundled():
        rules = load(ident)
        rows.append(
            (
                ident,
                rules.title,
                f"{rules.players.start}-{rules.players.stop - 1}",
                "yes" if rules.playable else "data only",
                ", ".join(bundled_variants(ident)) or "-",
            )
        )
    print("\n".join(table(("id", "title", "players", "playable", "variants"), rows)))
    return 0


class _Target(NamedTuple):
    """One thing ``validate`` checks: a ruleset with variants, and how the report names it."""

    label: str
    ruleset: str | Path
    variants: tuple[str, ...] = ()


class TargetReport(TypedDict):
    """One target in ``validate --format json``: ``{"ok": ..., "targets": [TargetReport, ...]}``."""

    target: str
    ok: bool
    errors: list[dict[str, Any]]  # each as RulesError.to_dict(): file, line, column, code, message


def _targets(paths: Sequence[str]) -> list[_Target]:
    """Each thing to validate: the named paths, else every bundled ruleset and variant."""
    if not paths:
        out: list[_Target] = []
        for ident in bundled():
            out.append(_Target(f"rules/{ident}", ident))
            out += [_Target(f"rules/{ident}/variants/{v}.yaml", ident, (v,)) for v in bundled_variants(ident)]
        return out
    targets = []
    for text in paths:
        path = Path(text)
        if path.is_file() and path.stem in FILE_KINDS and (path.parent / "game.yaml").is_file():
            path = path.parent  # a single rule file: check the ruleset it belongs to
        targets.append(_Target(text, str(path) if path != Path(text) else text))
    return targets


def _validate(args: argparse.Namespace) -> int:
    report: list[TargetReport] = []
    for target in _targets(args.paths):
        label = target.label
        errors: list[Any] = validate(target.ruleset, target.variants)
        if not errors and args.play > 0:
            errors += _play_errors(target, args.play)
        report.append(TargetReport(target=label, ok=not errors, errors=[e.to_dict() for e in errors]))
        if args.format == "text":
            if errors:
                print("\n".join(str(e) for e in errors))  # a DSL error adds its line with a caret
            else:
                print(f"{label}: ok")
    if args.format == "json":
        print(json.dumps({"ok": all(r["ok"] for r in report), "targets": report}, indent=2, ensure_ascii=False))
    bad = sum(len(r["errors"]) for r in report)
    if bad and args.format == "text":
        print(f"{bad} problem(s) found", file=sys.stderr)
    return 1 if bad else 0


def _play_errors(target: _Target, games: int) -> list[PlayError]:
    """The first runtime error of ``games`` quick random games of ``target`` (none or one)."""
    from .testing.quick_play import play_quick

    rules = load(target.ruleset, target.variants)
    if not rules.playable:
        return []
    found = play_quick(rules, games)
    return [] if found.error is None else [PlayError(found.describe(), found.error)]


class PlayError(NamedTuple):
    """A runtime error found by ``validate --play``, printed and reported like a data error."""

    text: str
    error: RuleRuntimeError

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        loc = self.error.location
        where = (
            {"file": loc.file, "line": loc.line, "column": loc.column} if loc else {"file": "", "line": 0, "column": 0}
        )
        return {**where, "code": self.error.code, "message": self.text.removeprefix(f"{loc}: ")}


def _describe(args: argparse.Namespace) -> int:
    from .present.describe_data import describe_data, details_text, diff_text

    rules = load(args.game, args.variant)
    base = load(rules.path) if rules.variants and rules.path is not None else None
    if args.format == "json":
        data = describe_data(rules, base)
        if args.diff:
            data = {k: data[k] for k in ("id", "name", "variants", "base", "changes") if k in data}
        print(json.dumps(data, indent=2, ensure_ascii=False))
    elif args.diff:
        print(diff_text(rules, base) if base is not None else f"{rules.name} is not a variant: no changes", end="")
    else:
        print(describe(rules) + details_text(rules, base), end="")
    return 0


def _new_variant(args: argparse.Namespace) -> int:
    from .data.starter import write_starter

    path = write_starter(args.game, Path(args.file), force=args.force)
    print(f"wrote {path}; check it with: venedig-rules validate {path} --play 5")
    return 0


def _render(args: argparse.Namespace) -> int:
    from .engine.seat.wording import Wording
    from .present.render import render_svg

    rules = _playable(args)
    try:
        Wording(rules, args.lang, args.names)  # an unknown language is a usage error, before any work
    except ValueError as exc:
        raise UnknownRulesetError(str(exc)) from None
    if args.save is not None:
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
            return 1
        try:
            game = rules.game_from_json(data)
        except SaveFileError as exc:
            print(f"{args.save}: {exc}", file=sys.stderr)
            return 1
    else:
        players = rules.players.start if args.players is None else args.players
        seed, actions = args.seed or 0, args.actions or 0
        if players not in rules.players or actions < 0:
            raise UnknownRulesetError(
                f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, not {players}"
                if players not in rules.players
                else f"--actions must be 0 or more, not {actions}"
            )
        game = rules.new_game(players, seed)
        chooser = random.Random(seed)
        while len(game.actions) < actions and not game.is_over:
            game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    if args.seat is not None and not 0 <= args.seat < game.players:
        raise UnknownRulesetError(f"--seat {args.seat} is not in this game; expected 0 to {game.players - 1}")
    picture = render_svg(game, args.seat, lang=args.lang, names=args.names)
    seen = "a spectator" if args.seat is None else f"p{args.seat}"
    summary = (
        f"{rules.name}, {game.players} players, seed {game.seed}, after {len(game.actions)} actions, seen by {seen}"
    )
    if args.out == "-":
        sys.stdout.write(picture)
        return 0
    try:
        Path(args.out).write_text(picture, encoding="utf-8")
    except OSError as exc:
        print(f"venedig-rules: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({summary}{'; the game is over' if game.is_over else ''})")
    return 0
