"""``venedig-rules describe``: a ruleset's components as tables, or as JSON, or only what its
variants change."""

from __future__ import annotations

import argparse
import json

from ..engine.loading import load
from ..present.describe import describe
from .command import Command, add_variant


def arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME``, ``--variant``, ``--format``, ``--diff`` and ``--declassified``."""
    parser.add_argument("game", metavar="GAME", help="bundled ruleset id, ruleset folder or variant")
    add_variant(parser, "apply a bundled variant or variant file (repeatable)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    parser.add_argument(
        "--diff",
        action="store_true",
        help="only what the variants change from the base ruleset, each with provenance 'variant <id>'",
    )
    parser.add_argument(
        "--declassified",
        action="store_true",
        help="only the declassify(value, quote) calls: each secret the rules show on the word of a rulebook "
        "quote, with its place and whether a variant wrote it",
    )


def run(args: argparse.Namespace) -> int:
    """Print the description asked for."""
    from ..present.describe_data import describe_data, details_text, diff_text

    rules = load(args.game, args.variant)
    if args.declassified:
        from ..present.describe_declassified import declassified, declassified_text

        found = declassified(rules)
        print(json.dumps(found, indent=2, ensure_ascii=False) if args.format == "json" else declassified_text(found))
        return 0
    # the changes are told against the ruleset the variants extend, loaded without them
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


COMMAND = Command(
    "describe",
    "Print a ruleset's components, cards, tiles, buildings, board and constants as tables.",
    "examples:\n  venedig-rules describe venedig\n  venedig-rules describe venedig --variant short_rules_end\n"
    "  venedig-rules describe my_variant.yaml --diff             # what it changes, and where\n"
    "  venedig-rules describe rialto --format json\n"
    "  venedig-rules describe my_variant.yaml --declassified     # each declassify and its quote",
    run,
    arguments,
)
