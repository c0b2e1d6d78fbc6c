"""``venedig-rules list``: the bundled rulesets, one row each."""

from __future__ import annotations

import argparse

from ..data.reading import bundled, bundled_variants
from ..engine.loading import load
from ..present.describe import table
from .command import Command


def run(args: argparse.Namespace) -> int:
    """Print a table of the bundled rulesets: id, title, players, playable, variants."""
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


COMMAND = Command(
    "list",
    "List the bundled rulesets with their titles, player counts, whether they can be played yet, and their variants.",
    "example:\n  venedig-rules list",
    run,
)
