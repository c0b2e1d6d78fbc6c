"""The ``venedig-rules`` command: list, validate and describe rulesets.

Exit status: 0 success, 1 the rule data has problems, 2 the command was used wrongly.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from . import __version__
from .describe import describe, table
from .errors import UnknownRulesetError, VenedigError
from .ruleset import FILE_KINDS, bundled, bundled_variants, load, validate

_EXAMPLES = {
    "list": "example:\n  venedig-rules list",
    "validate": ("examples:\n  venedig-rules validate                      # every bundled ruleset and variant\n"
                 "  venedig-rules validate rules/venedig        # one ruleset folder\n"
                 "  venedig-rules validate my_variant.yaml --format json"),
    "describe": ("examples:\n  venedig-rules describe venedig\n"
                 "  venedig-rules describe venedig --variant two_player"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except UnknownRulesetError as exc:
        print(f"venedig-rules: error: {exc}", file=sys.stderr)
        return 2
    except VenedigError as exc:
        print(exc, file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="venedig-rules",
        description="The rules of Die Säulen von Venedig, Rialto and Venedig as data: list, check and describe them.",
        epilog="examples:\n  venedig-rules list\n  venedig-rules validate\n  venedig-rules describe saeulen",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"venedig-rules {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help_text: str, run) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text, epilog=_EXAMPLES[name],
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.set_defaults(run=run)
        return p

    command("list", "List the bundled rulesets with their titles, player counts and variants.", _list)
    p = command("validate", "Check rule data against the schemas and cross-references; print every "
                "problem as file:line:column: code: message.", _validate)
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="ruleset folders, variant files or folders, or bundled ids (default: all bundled); "
                        "a bundled id wins over a same-named folder, so write ./venedig for the folder")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    p = command("describe", "Print a ruleset's components, cards, tiles, buildings, board and constants "
                "as tables.", _describe)
    p.add_argument("game", metavar="GAME", help="bundled ruleset id, ruleset folder or variant")
    p.add_argument("--variant", action="append", default=[], metavar="NAME",
                   help="apply a bundled variant or variant file (repeatable)")
    return parser


def _list(args: argparse.Namespace) -> int:
    rows = []
    for ident in bundled():
        rules = load(ident)
        rows.append((ident, rules.title, f"{rules.players.start}-{rules.players.stop - 1}",
                     ", ".join(bundled_variants(ident)) or "-"))
    print("\n".join(table(("id", "title", "players", "variants"), rows)))
    return 0


def _targets(paths: Sequence[str]) -> list[tuple[str, str | Path, tuple[str, ...]]]:
    """(label, ruleset, variants) of each thing to validate."""
    if not paths:
        out: list[tuple[str, str | Path, tuple[str, ...]]] = []
        for ident in bundled():
            out.append((f"rules/{ident}", ident, ()))
            out += [(f"rules/{ident}/variants/{v}.yaml", ident, (v,)) for v in bundled_variants(ident)]
        return out
    targets = []
    for text in paths:
        path = Path(text)
        if path.is_file() and path.stem in FILE_KINDS and (path.parent / "game.yaml").is_file():
            path = path.parent  # a single rule file: check the ruleset it belongs to
        targets.append((text, str(path) if path != Path(text) else text, ()))
    return targets


def _validate(args: argparse.Namespace) -> int:
    report = []
    for label, name, variants in _targets(args.paths):
        errors = validate(name, variants)
        report.append({"target": label, "ok": not errors, "errors": [e.to_dict() for e in errors]})
        if args.format == "text":
            if errors:
                print("\n".join(e.line() for e in errors))
            else:
                print(f"{label}: ok")
    if args.format == "json":
        print(json.dumps({"ok": all(r["ok"] for r in report), "targets": report}, indent=2, ensure_ascii=False))
    bad = sum(len(r["errors"]) for r in report)
    if bad and args.format == "text":
        print(f"{bad} problem(s) found", file=sys.stderr)
    return 1 if bad else 0


def _describe(args: argparse.Namespace) -> int:
    print(describe(load(args.game, args.variant)), end="")
    return 0
